//! Headless Chromium driven over the DevTools protocol, for the tests of pages the tools serve or
//! write (the inspector, `--format html` reports). A small client here rather than a crate: a
//! WebSocket handshake, masked text frames out, frames in, and four protocol calls.
//!
//! The tests that use it are `#[ignore = "needs chromium (installed by .ci/run)"]`; run, they fail
//! loudly when Chromium is missing, never skip.
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use base64::Engine;
use serde_json::{Value, json};

/// Where .ci/run installs it (Debian's package).
const CHROMIUM: &str = "chromium";

/// One headless Chromium with one page, closed when dropped.
pub(crate) struct Browser {
    child: Child,
    _profile: tempfile::TempDir,
    socket: TcpStream,
    next_id: u64,
    session: String,
}

impl Browser {
    /// Starts Chromium with a fresh profile and opens a blank page of 1280×800.
    pub(crate) fn start() -> Browser {
        let profile = tempfile::tempdir().unwrap();
        let mut child = Command::new(CHROMIUM)
            .args([
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-quic",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--hide-scrollbars",
                "--remote-debugging-port=0",
            ])
            .arg(format!("--user-data-dir={}", profile.path().display()))
            .arg("about:blank")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap_or_else(|err| {
                panic!("cannot start `{CHROMIUM}` ({err}): .ci/run installs it (apt-get install chromium)")
            });
        let mut stderr = BufReader::new(child.stderr.take().unwrap());
        let mut seen = String::new();
        let endpoint = loop {
            let mut line = String::new();
            if stderr.read_line(&mut line).unwrap_or(0) == 0 {
                let _ = child.kill();
                panic!("chromium ended without a DevTools endpoint:\n{seen}");
            }
            if let Some(at) = line.find("ws://") {
                break line[at..].trim().to_string();
            }
            seen.push_str(&line);
        };
        // Drained from now on, so Chromium never blocks on a full pipe.
        std::thread::spawn(move || std::io::copy(&mut stderr, &mut std::io::sink()));
        let socket = connect(&endpoint);
        let mut browser = Browser { child, _profile: profile, socket, next_id: 0, session: String::new() };
        let target = browser.call("Target.createTarget", json!({ "url": "about:blank" }), None);
        let attached =
            browser.call("Target.attachToTarget", json!({ "targetId": target["targetId"], "flatten": true }), None);
        browser.session = attached["sessionId"].as_str().unwrap().to_string();
        browser.page(
            "Emulation.setDeviceMetricsOverride",
            json!({ "width": 1280, "height": 800, "deviceScaleFactor": 1, "mobile": false }),
        );
        browser.page("Page.enable", json!({}));
        browser
    }

    /// Opens `url` and waits for its document to be loaded.
    pub(crate) fn goto(&mut self, url: &str) {
        self.page("Page.navigate", json!({ "url": url }));
        self.wait_for("document.readyState === 'complete' && location.href !== 'about:blank'", url);
    }

    /// The value of a JavaScript expression in the page (promises awaited).
    pub(crate) fn eval(&mut self, expression: &str) -> Value {
        let result = self
            .page("Runtime.evaluate", json!({ "expression": expression, "returnByValue": true, "awaitPromise": true }));
        if let Some(exception) = result.get("exceptionDetails") {
            panic!("`{expression}` threw: {exception}");
        }
        result["result"]["value"].clone()
    }

    /// Waits (up to 30 s: wide for a loaded machine) until `condition` is true in the page.
    pub(crate) fn wait_for(&mut self, condition: &str, what: &str) {
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            if self.eval(&format!("Boolean({condition})")) == Value::Bool(true) {
                return;
            }
            assert!(Instant::now() < deadline, "the page never showed {what} ({condition})");
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    /// The page as a PNG, written to `path`.
    pub(crate) fn screenshot(&mut self, path: &Path) {
        let shot = self.page("Page.captureScreenshot", json!({ "format": "png" }));
        let png = base64::engine::general_purpose::STANDARD.decode(shot["data"].as_str().unwrap()).unwrap();
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, png).unwrap();
    }

    fn page(&mut self, method: &str, params: Value) -> Value {
        let session = self.session.clone();
        self.call(method, params, Some(&session))
    }

    /// Sends one protocol call and reads messages until its answer (events are passed over).
    fn call(&mut self, method: &str, params: Value, session: Option<&str>) -> Value {
        self.next_id += 1;
        let id = self.next_id;
        let mut message = json!({ "id": id, "method": method, "params": params });
        if let Some(session) = session {
            message["sessionId"] = json!(session);
        }
        send_text(&mut self.socket, message.to_string().as_bytes());
        loop {
            let answer: Value = serde_json::from_slice(&read_message(&mut self.socket)).unwrap();
            if answer["id"] == json!(id) {
                if let Some(error) = answer.get("error") {
                    panic!("{method} failed: {error}");
                }
                return answer["result"].clone();
            }
        }
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The WebSocket handshake (RFC 6455 §4.1) to `ws://HOST:PORT/PATH`.
fn connect(endpoint: &str) -> TcpStream {
    let rest = endpoint.strip_prefix("ws://").unwrap();
    let (host, path) = rest.split_at(rest.find('/').unwrap());
    let mut socket = TcpStream::connect(host).unwrap();
    socket.set_read_timeout(Some(Duration::from_secs(60))).unwrap();
    write!(
        socket,
        "GET {path} HTTP/1.1\r\nHost: {host}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\
         Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
    )
    .unwrap();
    let mut head = Vec::new();
    let mut byte = [0u8; 1];
    while !head.ends_with(b"\r\n\r\n") {
        socket.read_exact(&mut byte).unwrap();
        head.push(byte[0]);
    }
    let head = String::from_utf8_lossy(&head);
    assert!(head.starts_with("HTTP/1.1 101"), "the DevTools endpoint refused the WebSocket: {head}");
    socket
}

/// One text frame, masked as a client's must be.
fn send_text(socket: &mut TcpStream, payload: &[u8]) {
    let mut frame = vec![0x81];
    match payload.len() {
        len @ 0..=125 => frame.push(0x80 | len as u8),
        len @ 126..=65535 => {
            frame.push(0x80 | 126);
            frame.extend_from_slice(&(len as u16).to_be_bytes());
        }
        len => {
            frame.push(0x80 | 127);
            frame.extend_from_slice(&(len as u64).to_be_bytes());
        }
    }
    let mask: [u8; 4] = rand_mask();
    frame.extend_from_slice(&mask);
    frame.extend(payload.iter().enumerate().map(|(index, byte)| byte ^ mask[index % 4]));
    socket.write_all(&frame).unwrap();
}

fn rand_mask() -> [u8; 4] {
    let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().subsec_nanos();
    nanos.to_le_bytes()
}

/// One whole message (continuation frames joined); a ping is answered, a close is a failure.
fn read_message(socket: &mut TcpStream) -> Vec<u8> {
    let mut message = Vec::new();
    loop {
        let mut head = [0u8; 2];
        socket.read_exact(&mut head).expect("the DevTools connection closed");
        let (fin, opcode) = (head[0] & 0x80 != 0, head[0] & 0x0f);
        let mut len = u64::from(head[1] & 0x7f);
        if len == 126 {
            let mut bytes = [0u8; 2];
            socket.read_exact(&mut bytes).unwrap();
            len = u64::from(u16::from_be_bytes(bytes));
        } else if len == 127 {
            let mut bytes = [0u8; 8];
            socket.read_exact(&mut bytes).unwrap();
            len = u64::from_be_bytes(bytes);
        }
        let mut payload = vec![0u8; len as usize];
        socket.read_exact(&mut payload).unwrap();
        match opcode {
            0x8 => panic!("Chromium closed the DevTools connection"),
            0x9 => {
                // A pong carries the ping's payload back (masked, as every client frame is).
                let mut frame = vec![0x8a, 0x80 | payload.len() as u8];
                frame.extend_from_slice(&[0, 0, 0, 0]);
                frame.extend_from_slice(&payload);
                socket.write_all(&frame).unwrap();
            }
            0xa => {}
            _ => {
                message.extend_from_slice(&payload);
                if fin {
                    return message;
                }
            }
        }
    }
}
