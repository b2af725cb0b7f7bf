//! Users behind a proxy: the client commands go through the proxy that `--proxy` or curl's
//! variables name (plain http:// forwarded in absolute form, https:// tunnelled with CONNECT),
//! `NO_PROXY` and `--noproxy` bypass it, `idem race` and `idem window` refuse it, and the two
//! forwarders pass headers on without adding any. The proxy is written here and counts what it
//! relays.
use std::io::{Read, Write};
use std::sync::{Arc, Mutex};

use idem::testing::proxy::Selection;
use idem::testing::proxy::{self, ProxyConfig};
use idem::testing::scheme::SchemeKind;
use idem::testing::serve::{Mode, ServeConfig};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

use crate::support::{CustomServer, Listener, Reply, SECRET, TestServer, dead_port, idem, runtime, webhook};

const PAYMENT: &str = r#"{"amount":1990,"currency":"RUB"}"#;

/// `support` already removes the proxy variables; a CGI marker would make `HTTP_PROXY` ignored.
fn isolated(mut command: assert_cmd::Command) -> assert_cmd::Command {
    command.env_remove("REQUEST_METHOD");
    command
}

/// What the proxy relayed: `CONNECT host:port` or `METHOD absolute-url`, and the
/// `Proxy-Authorization` it was given.
#[derive(Debug, Clone)]
struct Relayed {
    line: String,
    proxy_authorization: Option<String>,
}

/// A forward proxy on 127.0.0.1 port 0: absolute-form requests are sent on (one per connection,
/// so each is counted) and CONNECT opens a tunnel.
struct CountingProxy {
    addr: std::net::SocketAddr,
    relayed: Arc<Mutex<Vec<Relayed>>>,
    task: tokio::task::JoinHandle<()>,
}

impl CountingProxy {
    fn start() -> CountingProxy {
        let listener = runtime().block_on(TcpListener::bind("127.0.0.1:0")).expect("bind");
        let addr = listener.local_addr().expect("addr");
        let relayed: Arc<Mutex<Vec<Relayed>>> = Arc::default();
        let log = Arc::clone(&relayed);
        let task = runtime().spawn(async move {
            while let Ok((stream, _)) = listener.accept().await {
                tokio::spawn(relay(stream, Arc::clone(&log)));
            }
        });
        CountingProxy { addr, relayed, task }
    }

    fn url(&self) -> String {
        format!("http://{}", self.addr)
    }

    fn relayed(&self) -> Vec<Relayed> {
        self.relayed.lock().unwrap().clone()
    }

    fn lines(&self) -> Vec<String> {
        self.relayed().into_iter().map(|relayed| relayed.line).collect()
    }
}

impl Drop for CountingProxy {
    fn drop(&mut self) {
        self.task.abort();
    }
}

async fn relay(mut client: TcpStream, log: Arc<Mutex<Vec<Relayed>>>) -> std::io::Result<()> {
    let mut head = Vec::new();
    let mut buffer = [0u8; 4096];
    let end = loop {
        let read = client.read(&mut buffer).await?;
        if read == 0 {
            return Ok(());
        }
        head.extend_from_slice(&buffer[..read]);
        if let Some(at) = head.windows(4).position(|window| window == b"\r\n\r\n") {
            break at + 4;
        }
    };
    let early_body = head.split_off(end);
    let text = String::from_utf8_lossy(&head).into_owned();
    let mut lines = text.split("\r\n");
    let mut request_line = lines.next().unwrap_or_default().split(' ');
    let (method, target) = (request_line.next().unwrap_or_default(), request_line.next().unwrap_or_default());
    let headers: Vec<(String, String)> = lines
        .filter_map(|line| line.split_once(':'))
        .map(|(name, value)| (name.trim().to_ascii_lowercase(), value.trim().to_string()))
        .collect();
    let proxy_authorization = headers.iter().find(|(name, _)| name == "proxy-authorization").map(|(_, v)| v.clone());
    log.lock().unwrap().push(Relayed { line: format!("{method} {target}"), proxy_authorization });
    let mut upstream;
    if method == "CONNECT" {
        upstream = TcpStream::connect(target).await?;
        client.write_all(b"HTTP/1.1 200 Connection Established\r\n\r\n").await?;
    } else {
        let uri: http::Uri = target.parse().map_err(std::io::Error::other)?;
        let authority = uri.authority().map(|a| a.to_string()).unwrap_or_default();
        upstream = TcpStream::connect(authority).await?;
        let path = uri.path_and_query().map_or("/", |pq| pq.as_str());
        let mut sent = format!("{method} {path} HTTP/1.1\r\n");
        for (name, value) in &headers {
            if !matches!(name.as_str(), "proxy-authorization" | "proxy-connection" | "connection") {
                sent.push_str(&format!("{name}: {value}\r\n"));
            }
        }
        sent.push_str("connection: close\r\n\r\n");
        upstream.write_all(sent.as_bytes()).await?;
    }
    upstream.write_all(&early_body).await?;
    tokio::io::copy_bidirectional(&mut client, &mut upstream).await?;
    Ok(())
}

fn reference_server(tls: bool) -> TestServer {
    let mut config = ServeConfig::local(Mode::Correct);
    config.tls = tls;
    TestServer::start(config)
}

fn stderr_of(output: &std::process::Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

#[test]
fn idem_send_goes_through_the_proxy_the_environment_names() {
    let server = reference_server(false);
    let proxy = CountingProxy::start();
    let url = server.url("/payments");
    for variable in ["HTTP_PROXY", "http_proxy", "ALL_PROXY"] {
        isolated(idem()).env(variable, proxy.url()).args(["send", &url, "-d", PAYMENT]).assert().success();
    }
    assert_eq!(proxy.lines(), vec![format!("POST {url}"); 3]);
}

#[test]
fn https_is_tunnelled_with_connect() {
    let server = reference_server(true);
    let proxy = CountingProxy::start();
    let url = server.url("/payments");
    assert!(url.starts_with("https://"), "{url}");
    let authority = url.trim_start_matches("https://").trim_end_matches("/payments").to_string();
    isolated(idem()).env("HTTPS_PROXY", proxy.url()).args(["send", "-k", &url, "-d", PAYMENT]).assert().success();
    isolated(idem()).env("all_proxy", proxy.url()).args(["send", "-k", &url, "-d", PAYMENT]).assert().success();
    // An http:// proxy is not used for https:// URLs.
    isolated(idem()).env("HTTP_PROXY", proxy.url()).args(["send", "-k", &url, "-d", PAYMENT]).assert().success();
    assert_eq!(proxy.lines(), vec![format!("CONNECT {authority}"); 2]);
}

#[test]
fn the_proxy_flag_wins_and_its_credentials_go_to_the_proxy_only_and_are_never_printed() {
    let seen = Arc::new(Mutex::new(Vec::new()));
    let recorder = Arc::clone(&seen);
    let origin = CustomServer::start(move |request| {
        recorder.lock().unwrap().push(request.headers);
        Reply::json(201, r#"{"id":"pay_1"}"#)
    });
    let proxy = CountingProxy::start();
    let flag = format!("http://alice:s3cret@{}", proxy.addr);
    let output = isolated(idem())
        .env("HTTP_PROXY", format!("http://127.0.0.1:{}", dead_port()))
        .args(["send", &origin.url("/payments"), "-d", PAYMENT, "--proxy", &flag])
        .assert()
        .success();
    let printed = format!("{}{}", String::from_utf8_lossy(&output.get_output().stdout), stderr_of(output.get_output()));
    assert!(!printed.contains("s3cret"), "{printed}");
    let relayed = proxy.relayed();
    assert_eq!(relayed.len(), 1);
    // base64("alice:s3cret")
    assert_eq!(relayed[0].proxy_authorization.as_deref(), Some("Basic YWxpY2U6czNjcmV0"));
    assert!(!seen.lock().unwrap()[0].contains_key("proxy-authorization"), "the origin never sees the proxy's password");
}

#[test]
fn no_proxy_noproxy_and_an_empty_proxy_flag_go_direct() {
    let server = reference_server(false);
    let proxy = CountingProxy::start();
    let url = server.url("/payments");
    let send = |extra: &[&str], env: &[(&str, &str)]| {
        let mut command = isolated(idem());
        for (name, value) in env {
            command.env(name, value);
        }
        command.args(["send", &url, "-d", PAYMENT]).args(extra).assert().success();
    };
    let via = proxy.url();
    send(&[], &[("HTTP_PROXY", &via), ("NO_PROXY", "example.com, 127.0.0.0/8")]);
    send(&[], &[("http_proxy", &via), ("no_proxy", "*")]);
    send(&["--noproxy", "127.0.0.1"], &[("HTTP_PROXY", &via)]);
    send(&["--proxy", &via, "--noproxy", "*"], &[]);
    send(&["--proxy", ""], &[("HTTP_PROXY", &via)]);
    assert_eq!(proxy.lines(), Vec::<String>::new());
    // And the same proxy is used when nothing exempts the host: the bypasses above were real.
    send(&["--noproxy", "example.com"], &[("HTTP_PROXY", &via), ("NO_PROXY", "127.0.0.1")]);
    assert_eq!(proxy.lines().len(), 1);
}

#[test]
fn webhook_send_replay_and_check_honour_the_proxy() {
    let origin = CustomServer::start(|_| Reply::json(200, "{}"));
    let proxy = CountingProxy::start();
    let url = origin.url("/hooks");
    isolated(webhook()).args(["send", &url, "--secret", "s", "-d", "{}", "--proxy", &proxy.url()]).assert().success();
    assert_eq!(proxy.lines(), vec![format!("POST {url}")]);

    let dir = tempfile::tempdir().unwrap();
    let events = dir.path().join("events.jsonl");
    std::fs::write(&events, "{\"id\":\"evt_1\",\"type\":\"a\"}\n{\"id\":\"evt_2\",\"type\":\"a\"}\n").unwrap();
    isolated(webhook())
        .env("http_proxy", proxy.url())
        .arg("replay")
        .arg(&events)
        .args([&url, "--scheme", "hmac", "--secret", "s"])
        .assert()
        .success();
    assert_eq!(proxy.lines().len(), 3);

    let listener = Listener::with(SchemeKind::Stripe, |_| {});
    let checked = listener.url("/");
    let output = isolated(webhook())
        .env("ALL_PROXY", proxy.url())
        .args(["check", &checked, "--scheme", "stripe", "--secret", SECRET])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0), "{}", stderr_of(&output));
    let checks = proxy.lines().len() - 3;
    assert!(checks >= 5, "every check's request went through the proxy: {checks}");
    assert_eq!(checks as u64, listener.summary().received, "and none went around it");
}

#[test]
fn idem_check_sends_its_plain_requests_through_the_proxy_and_races_directly() {
    let server = reference_server(false);
    let proxy = CountingProxy::start();
    let output = isolated(idem())
        .env("HTTP_PROXY", proxy.url())
        .args(["check", &server.url("/payments"), "-d", PAYMENT, "-n", "5", "--window-max", "0"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0), "{}", stderr_of(&output));
    let proxied = proxy.lines().len() as u64;
    assert!(proxied >= 3, "the plain checks went through the proxy: {:?}", proxy.lines());
    assert!(server.summary().requests >= proxied + 5, "the 5 concurrent duplicates went directly");
}

#[test]
fn race_and_window_refuse_a_proxy_with_the_reason_and_ignore_the_variables() {
    let server = reference_server(false);
    let url = server.url("/payments");
    let proxy = CountingProxy::start();
    for command in ["race", "window"] {
        let output = isolated(idem()).args([command, &url, "-d", PAYMENT, "--proxy", &proxy.url()]).assert().code(2);
        let stderr = stderr_of(output.get_output());
        assert!(stderr.contains("connects directly") && stderr.contains("serialise the duplicates"), "{stderr}");
        assert!(stderr.contains("Drop --proxy"), "{stderr}");
    }
    for variable in ["HTTP_PROXY", "ALL_PROXY"] {
        isolated(idem()).env(variable, proxy.url()).args(["race", &url, "-d", PAYMENT, "-n", "3"]).assert().success();
    }
    assert_eq!(proxy.lines(), Vec::<String>::new());
    let help = isolated(idem()).args(["race", "--help"]).assert().success();
    assert!(String::from_utf8_lossy(&help.get_output().stdout).contains("Connects directly, never through a proxy"));
}

#[test]
fn a_dead_or_malformed_proxy_is_a_clear_exit_2_without_the_password() {
    let server = reference_server(false);
    let url = server.url("/payments");
    let dead = format!("http://bob:hunter2@127.0.0.1:{}", dead_port());
    let output = isolated(idem()).args(["send", &url, "-d", PAYMENT, "--proxy", &dead]).assert().code(2);
    let stderr = stderr_of(output.get_output());
    assert!(stderr.contains("through the proxy http://bob:***@127.0.0.1:"), "{stderr}");
    assert!(stderr.contains("from --proxy") && !stderr.contains("hunter2"), "{stderr}");

    let output = isolated(webhook())
        .env("HTTPS_PROXY", "ftp://bob:hunter2@proxy.corp")
        .args(["send", "https://hooks.example.com/", "--secret", "s", "-d", "{}"])
        .assert()
        .code(2);
    let stderr = stderr_of(output.get_output());
    assert!(stderr.contains("HTTPS_PROXY") && stderr.contains("scheme `ftp`"), "{stderr}");
    assert!(!stderr.contains("hunter2"), "{stderr}");
}

/// Sends `head` + `body` over a fresh connection and reads the answer to the end.
fn raw_exchange(addr: std::net::SocketAddr, head: &str, body: &[u8]) -> String {
    let mut stream = std::net::TcpStream::connect(addr).unwrap();
    stream.write_all(head.as_bytes()).unwrap();
    stream.write_all(body).unwrap();
    let mut answer = Vec::new();
    stream.read_to_end(&mut answer).unwrap();
    String::from_utf8_lossy(&answer).into_owned()
}

/// A target that records the names of the headers it was sent.
fn header_recorder() -> (CustomServer, Arc<Mutex<Vec<Vec<String>>>>) {
    let seen: Arc<Mutex<Vec<Vec<String>>>> = Arc::default();
    let recorder = Arc::clone(&seen);
    let server = CustomServer::start(move |request| {
        let mut names: Vec<String> = request.headers.keys().map(|name| name.to_string()).collect();
        names.sort();
        recorder.lock().unwrap().push(names);
        Reply::json(201, r#"{"id":"pay_1"}"#)
    });
    (server, seen)
}

/// The requirement that keeps the forwarders on hyper-util: nothing is added to what the client
/// sent (reqwest would add `accept`); both add only `via`, their hop for loop detection.
#[test]
fn forwarders_add_no_headers_of_their_own() {
    let (upstream, seen) = header_recorder();
    let mut config = ProxyConfig::local(&upstream.url("")).expect("config");
    config.selection = Selection::First(0);
    let running = runtime().block_on(proxy::start(&config, None)).expect("start idem proxy");
    let head = "POST /payments HTTP/1.1\r\nHost: api\r\nIdempotency-Key: k-1\r\nContent-Type: application/json\r\n\
                X-Trace: t\r\nConnection: close\r\nContent-Length: 2\r\n\r\n";
    let answer = raw_exchange(running.local_addr(), head, b"{}");
    assert!(answer.starts_with("HTTP/1.1 201"), "{answer}");
    runtime().block_on(running.shutdown());
    let expected = ["content-length", "content-type", "host", "idempotency-key", "via", "x-trace"];
    assert_eq!(
        seen.lock().unwrap()[0],
        expected,
        "idem proxy forwarded exactly the client's headers, plus its Via hop"
    );

    let (target, seen) = header_recorder();
    let listener = Listener::with(SchemeKind::Stripe, |config| {
        config.forward_to = Some(target.url("/app").parse().unwrap());
    });
    let signed = crate::support::signed_deliveries::stripe_event("evt_exact", "a");
    let mut head = String::from("POST / HTTP/1.1\r\nHost: listener\r\nContent-Type: application/json\r\n");
    for (name, value) in &signed.headers {
        head.push_str(&format!("{name}: {}\r\n", value.to_str().unwrap()));
    }
    head.push_str(&format!("Connection: close\r\nContent-Length: {}\r\n\r\n", signed.body.len()));
    let answer = raw_exchange(listener.addr(), &head, &signed.body);
    assert!(answer.starts_with("HTTP/1.1 201"), "{answer}");
    let expected = ["content-length", "content-type", "host", "stripe-signature", "via"];
    assert_eq!(seen.lock().unwrap()[0], expected, "the listener forwarded the delivery's headers and its Via");
}
