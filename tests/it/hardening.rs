//! Issue 24: the limits that switched protections off, the proxy's loops and stalls, secrets
//! echoed in outputs, what upstream errors say, and the memory `-d @file` costs.
use crate::support::{idem, webhook};

/// Values that would switch a protection off are refused with exit 2, and the message names the
/// bound.
#[test]
fn huge_durations_and_counts_are_refused_naming_the_bound() {
    let cases: &[(bool, &[&str], &str)] = &[
        (false, &["listen", "--secret", "s", "--addr", "127.0.0.1:0", "--idle-timeout", "999999999999h"], "1h"),
        (true, &["serve", "--addr", "127.0.0.1:0", "--lease", "999999999999h"], "24h"),
        (true, &["race", "http://127.0.0.1:1/p", "--stagger", "999999999999h"], "10s"),
        (true, &["proxy", "--upstream", "http://127.0.0.1:1", "--every", "99999999999"], "1000000"),
        (true, &["send", "http://127.0.0.1:1/p", "--max-body", "5GiB"], "1GiB"),
        (false, &["send", "http://127.0.0.1:1/h", "-d", "{}", "--secret", "s", "--backoff", "25h"], "24h"),
        (false, &["sign", "-d", "x", "--secret", "s", "--timestamp", "-5"], "0"),
        (false, &["replay", "/dev/null", "http://127.0.0.1:1/h", "--secret", "s", "--rate", "1/999999h"], "1h"),
    ];
    for (is_idem, args, bound) in cases {
        let mut command = if *is_idem { idem() } else { webhook() };
        let output = command.args(*args).output().expect("runs");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains(bound), "{args:?} should name the bound {bound}: {stderr}");
    }
}

#[test]
fn a_backoff_cap_below_the_first_backoff_is_refused() {
    let output = webhook()
        .args(["send", "http://127.0.0.1:1/h", "-d", "{}", "--secret", "s", "--backoff", "10s", "--backoff-max", "1s"])
        .output()
        .expect("runs");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("--backoff-max 1s is below --backoff 10s"), "{stderr}");
}

/// A running `idem proxy --format json` binary: its URL, and its stderr in a file (a pipe nobody
/// reads could fill and block it).
struct ProxyProcess {
    child: crate::support::KillOnDrop,
    url: String,
    stderr: tempfile::NamedTempFile,
    /// Its JSON lines after the banner, read as they come so the proxy never blocks on stdout.
    lines: std::thread::JoinHandle<Vec<serde_json::Value>>,
}

impl ProxyProcess {
    fn start(args: &[&str]) -> ProxyProcess {
        use std::io::BufRead;
        let stderr = tempfile::NamedTempFile::new().expect("temp file");
        let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("idem"))
            // No fault: these tests are about the proxy itself.
            .args(["proxy", "--format", "json", "--first", "0"])
            .args(args)
            .env("NO_COLOR", "1")
            .stdout(std::process::Stdio::piped())
            .stderr(stderr.reopen().expect("reopen"))
            .spawn()
            .expect("spawn idem proxy");
        let stdout = child.stdout.take().expect("stdout");
        let child = crate::support::KillOnDrop::new(child);
        let mut lines = std::io::BufReader::new(stdout).lines();
        let banner = lines.next().expect("a banner").expect("a line");
        let banner: serde_json::Value = serde_json::from_str(&banner).expect("JSON");
        let url = banner["url"].as_str().expect("url").to_string();
        let lines = std::thread::spawn(move || {
            lines.map_while(Result::ok).map(|line| serde_json::from_str(&line).expect("a JSON line")).collect()
        });
        ProxyProcess { child, url, stderr, lines }
    }

    fn addr(&self) -> String {
        self.url.trim_start_matches("http://").to_string()
    }

    /// Open file descriptors and resident memory (KiB), from /proc.
    fn usage(&self) -> (usize, u64) {
        let pid = self.child.id();
        let fds = std::fs::read_dir(format!("/proc/{pid}/fd")).expect("/proc fd").count();
        let status = std::fs::read_to_string(format!("/proc/{pid}/status")).expect("/proc status");
        (fds, status_kib(&status, "VmRSS:"))
    }

    /// Stops with SIGINT, as Ctrl-C does, and returns the exit code, stderr and the JSON lines it
    /// printed after the banner.
    fn stop_with_lines(mut self) -> (Option<i32>, String, Vec<serde_json::Value>) {
        let pid = self.child.id().to_string();
        std::process::Command::new("kill").args(["-INT", &pid]).status().expect("kill");
        let status = self.child.wait().expect("the proxy stops");
        let lines = self.lines.join().expect("the reader");
        (status.code(), std::fs::read_to_string(self.stderr.path()).unwrap_or_default(), lines)
    }
}

fn status_kib(status: &str, field: &str) -> u64 {
    status
        .lines()
        .find_map(|line| line.strip_prefix(field))
        .and_then(|rest| rest.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap_or_else(|| panic!("no {field} in {status}"))
}

/// A port nobody listens on right now, for a server that must be started on a known port.
fn reserved_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0").expect("bind").local_addr().expect("addr").port()
}

/// One HTTP/1.1 request on its own connection; the whole answer as text.
fn raw_request(addr: &str, request: &str) -> String {
    use std::io::{Read, Write};
    let mut stream = std::net::TcpStream::connect(addr).expect("connect");
    stream.set_read_timeout(Some(std::time::Duration::from_secs(30))).expect("timeout");
    stream.write_all(request.as_bytes()).expect("write");
    let mut answer = Vec::new();
    let _ = stream.read_to_end(&mut answer);
    String::from_utf8_lossy(&answer).into_owned()
}

const POST: &str = "POST /payments HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 32\r\nConnection: close\r\n\r\n{\"amount\":1990,\"currency\":\"RUB\"}";

#[test]
fn a_proxy_pointed_at_itself_is_refused_at_start() {
    let port = reserved_port();
    for upstream in [format!("http://127.0.0.1:{port}"), format!("http://user:hunter2@localhost:{port}/api")] {
        let output = idem()
            .args(["proxy", "--addr", &format!("127.0.0.1:{port}"), "--upstream", &upstream])
            .output()
            .expect("runs");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{stderr}");
        assert!(stderr.contains("this proxy's own address"), "{stderr}");
        assert!(
            !stderr.contains("hunter2") && !String::from_utf8_lossy(&output.stdout).contains("hunter2"),
            "{stderr}"
        );
    }
}

/// Two proxies pointed at each other: each request comes back once, is answered 508, and the
/// proxies' descriptors and memory stay flat (without Via, one request became about 20,000).
#[test]
fn two_proxies_pointed_at_each_other_answer_508_and_stay_flat() {
    let port = reserved_port();
    let a = ProxyProcess::start(&["--addr", "127.0.0.1:0", "--upstream", &format!("http://127.0.0.1:{port}")]);
    let b = ProxyProcess::start(&["--addr", &format!("127.0.0.1:{port}"), "--upstream", &a.url]);
    for _ in 0..20 {
        let answer = raw_request(&a.addr(), POST);
        assert!(answer.starts_with("HTTP/1.1 508"), "{answer}");
    }
    let (fds_before, rss_before) = a.usage();
    let (b_fds_before, b_rss_before) = b.usage();
    for _ in 0..300 {
        let answer = raw_request(&a.addr(), POST);
        assert!(answer.starts_with("HTTP/1.1 508") && answer.contains("forwarding-loop"), "{answer}");
    }
    let (fds_after, rss_after) = a.usage();
    let (b_fds_after, b_rss_after) = b.usage();
    assert!(fds_after <= fds_before + 10, "descriptors grew from {fds_before} to {fds_after}");
    assert!(b_fds_after <= b_fds_before + 10, "descriptors grew from {b_fds_before} to {b_fds_after}");
    assert!(rss_after <= rss_before + 16 * 1024, "memory grew from {rss_before} to {rss_after} KiB");
    assert!(b_rss_after <= b_rss_before + 16 * 1024, "memory grew from {b_rss_before} to {b_rss_after} KiB");
    let (code, stderr, lines) = a.stop_with_lines();
    assert_eq!(code, Some(2), "{stderr}");
    assert!(stderr.contains("loop detected, answered 508"), "{stderr}");
    // Scripts reading --format json see each refusal too.
    let refused: Vec<&serde_json::Value> = lines.iter().filter(|line| line["event"] == "refused").collect();
    assert_eq!(refused.len(), 320, "one refused line per looped request");
    crate::schemas::validate(refused[0]);
    assert_eq!((refused[0]["status"].as_u64(), refused[0]["code"].as_str()), (Some(508), Some("forwarding-loop")));
    assert_eq!(refused[0]["path"], "/payments");
    assert!(stderr.contains("came back to this proxy") && !stderr.contains("retrying immediately"), "{stderr}");
    drop(b);
}

/// Bodies that stop after 3 of 100 declared bytes get 408 once --idle-timeout passes, are
/// logged, and the proxy still serves.
#[test]
fn stalled_request_bodies_get_408_and_the_proxy_still_serves() {
    use std::io::{Read, Write};
    let server = crate::support::TestServer::start(idem::testing::serve::ServeConfig::local(
        idem::testing::serve::Mode::Correct,
    ));
    let proxy = ProxyProcess::start(&["--addr", "127.0.0.1:0", "--upstream", &server.url(""), "--idle-timeout", "1s"]);
    let stalled: Vec<std::net::TcpStream> = (0..200)
        .map(|_| {
            let mut stream = std::net::TcpStream::connect(proxy.addr()).expect("connect");
            stream.set_read_timeout(Some(std::time::Duration::from_secs(60))).expect("timeout");
            stream.write_all(b"POST /payments HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\nabc").expect("write");
            stream
        })
        .collect();
    for mut stream in stalled {
        let mut answer = Vec::new();
        stream.read_to_end(&mut answer).expect("the proxy closes the connection");
        let answer = String::from_utf8_lossy(&answer);
        assert!(answer.starts_with("HTTP/1.1 408"), "{answer}");
    }
    let answer = raw_request(&proxy.addr(), POST);
    assert!(answer.starts_with("HTTP/1.1 201"), "{answer}");
    let (_, stderr, lines) = proxy.stop_with_lines();
    assert!(stderr.contains("request body stalled, answered 408"), "{stderr}");
    let stalled: Vec<&serde_json::Value> = lines.iter().filter(|line| line["code"] == "body-stalled").collect();
    assert_eq!(stalled.len(), 200, "one refused line per stalled body");
    crate::schemas::validate(stalled[0]);
    assert_eq!((stalled[0]["event"].as_str(), stalled[0]["status"].as_u64()), (Some("refused"), Some(408)));
    assert!(stderr.contains("200 request body(ies) stalled"), "{stderr}");
}

/// Arguments a client or sender command line typically carries, each holding a planted secret.
const PLANTED: [&str; 5] =
    ["-H", "Authorization: Bearer PLANTEDtoken1", "-u", "me:PLANTEDpw2", "http://u:PLANTEDpw3@example.com/x"];
const PLANTED_TOKEN: &str = "sk_live_PLANTED4aaaaaaaaaaaaaaaaaaaa";

fn assert_no_planted_secret(what: &str, output: &std::process::Output) {
    let all = format!("{}{}", String::from_utf8_lossy(&output.stdout), String::from_utf8_lossy(&output.stderr));
    assert!(!all.contains("PLANTED"), "{what} printed a planted secret:\n{all}");
}

/// The upstream's password, the client command's headers, credentials and tokens appear in no
/// output of `idem proxy` (human and JSON: banner, live lines, 502s, summary, errors) or of
/// `webhook check-sender` (human, JSON and JUnit).
#[test]
fn planted_secrets_appear_in_no_output_of_either_tool() {
    let dead = crate::support::dead_port();
    let client = format!(
        "exec '{}' send \"$IDEM_PROXY_URL/payments\" -d '{{}}' --timeout 5s",
        assert_cmd::cargo::cargo_bin("idem").display()
    );
    for format in ["human", "json"] {
        let output = idem()
            .args(["proxy", "--addr", "127.0.0.1:0", "--first", "0", "--format", format])
            .args(["--upstream", &format!("http://user:PLANTEDpw5@127.0.0.1:{dead}/api")])
            .args(["--", "sh", "-c", &client, "sh"])
            .args(PLANTED)
            .arg(PLANTED_TOKEN)
            .output()
            .expect("runs");
        assert_eq!(output.status.code(), Some(2), "the upstream is dead");
        let stdout = String::from_utf8_lossy(&output.stdout);
        assert!(stdout.contains("user:***@127.0.0.1"), "the upstream is still shown: {stdout}");
        assert!(stdout.contains("'Authorization: ***'"), "the command is still shown: {stdout}");
        assert_no_planted_secret(&format!("idem proxy --format {format}"), &output);
    }

    let sender = format!(
        "exec '{}' send \"$WEBHOOK_URL\" --scheme stripe --event ping --time-scale 0.001 --timeout 1s >/dev/null",
        assert_cmd::cargo::cargo_bin("webhook").display()
    );
    for format in ["human", "json", "junit"] {
        let output = webhook()
            .env("WEBHOOK_SECRET", "whsec_PLANTEDsecret6")
            .args(["check-sender", "--addr", "127.0.0.1:0", "--scheme", "stripe", "--script", "200"])
            .args(["--timeout", "20s", "--format", format])
            .args(["--", "sh", "-c", &sender, "sh"])
            .args(PLANTED)
            .arg(PLANTED_TOKEN)
            .output()
            .expect("runs");
        let stdout = String::from_utf8_lossy(&output.stdout);
        assert!(stdout.contains("Authorization: ***"), "the command is still shown: {stdout}");
        assert_no_planted_secret(&format!("webhook check-sender --format {format}"), &output);
    }
}

/// SIGTERM a second into `webhook check-sender` says the run was interrupted, not that the
/// sender outlived the --timeout.
#[test]
fn an_interrupted_check_sender_says_it_was_interrupted() {
    let child = std::process::Command::new(assert_cmd::cargo::cargo_bin("webhook"))
        .args(["check-sender", "--addr", "127.0.0.1:0", "--secret", "s3cr3t", "--timeout", "1m"])
        .args(["--", "sleep", "30"])
        .env("NO_COLOR", "1")
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("spawn");
    let child = crate::support::KillOnDrop::new(child);
    // The banner is printed once the receiver listens and the signal handler is installed.
    std::thread::sleep(std::time::Duration::from_secs(1));
    std::process::Command::new("kill").args(["-TERM", &child.id().to_string()]).status().expect("kill");
    let output = child.wait_with_output();
    let stderr = format!("{}{}", String::from_utf8_lossy(&output.stdout), String::from_utf8_lossy(&output.stderr));
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("interrupted after"), "{stderr}");
    assert!(!stderr.contains("still running after 1m"), "{stderr}");
}

/// `-d @/dev/zero` is refused at the cap having cost the cap in memory and a small constant, not
/// two or three times the cap (growing a buffer by doubling copies it). The child's high-water
/// mark (VmHWM) is read from /proc while it runs.
#[test]
fn an_endless_body_is_refused_at_the_cap_without_costing_more_than_the_cap() {
    const CAP_KIB: u64 = 256 * 1024;
    let child = std::process::Command::new(assert_cmd::cargo::cargo_bin("idem"))
        .args(["send", "http://127.0.0.1:1/p", "-d", "@/dev/zero", "--max-body", "256MiB"])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("spawn");
    let status_path = format!("/proc/{}/status", child.id());
    let mut child = crate::support::KillOnDrop::new(child);
    let mut peak = 0;
    while child.try_wait().expect("try_wait").is_none() {
        if let Ok(status) = std::fs::read_to_string(&status_path) {
            if status.contains("VmHWM:") {
                peak = peak.max(status_kib(&status, "VmHWM:"));
            }
        }
    }
    let output = child.wait_with_output();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("larger than 256 MiB"), "{stderr}");
    assert!(peak >= CAP_KIB / 2, "the read was not observed (peak {peak} KiB)");
    assert!(peak <= CAP_KIB + 48 * 1024, "refusing the body cost {peak} KiB for a cap of {CAP_KIB} KiB");
}

/// An upstream that answers badly is described by what it did, not as unreachable.
#[test]
fn upstream_errors_say_what_the_upstream_did() {
    use std::io::{Read, Write};
    let answers: [(&[u8], &str); 3] = [
        (b"SSH-2.0-OpenSSH_9.6\r\n", "something that is not HTTP"),
        (b"HTTP/1.1 999999 Odd\r\nContent-Length: 0\r\n\r\n", "an invalid status"),
        (b"HTTP/1.1 200 OK\r\nX-Big: ", "a response head over"),
    ];
    for (answer, described) in answers {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
        let url = format!("http://{}/p", listener.local_addr().expect("addr"));
        let answer = answer.to_vec();
        std::thread::spawn(move || {
            for stream in listener.incoming() {
                let Ok(mut stream) = stream else { continue };
                let mut request = [0u8; 4096];
                let _ = stream.read(&mut request);
                let _ = stream.write_all(&answer);
                if answer.ends_with(b"X-Big: ") {
                    let _ = stream.write_all(&vec![b'a'; 1 << 20]);
                }
            }
        });
        let output = idem().args(["send", &url, "-d", "{}", "--timeout", "10s"]).output().expect("runs");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{stderr}");
        assert!(stderr.contains(described) && !stderr.contains("is it running"), "{described}: {stderr}");
        let output = idem()
            .args(["proxy", "--addr", "127.0.0.1:0", "--first", "0", "--upstream", &url])
            .args([
                "--",
                "sh",
                "-c",
                &format!(
                    "exec '{}' send \"$IDEM_PROXY_URL/p\" -d '{{}}'",
                    assert_cmd::cargo::cargo_bin("idem").display()
                ),
            ])
            .output()
            .expect("runs");
        let all = format!("{}{}", String::from_utf8_lossy(&output.stdout), String::from_utf8_lossy(&output.stderr));
        assert_eq!(output.status.code(), Some(2), "{all}");
        assert!(all.contains(described) && !all.contains("is it running"), "{described}: {all}");
    }
}
