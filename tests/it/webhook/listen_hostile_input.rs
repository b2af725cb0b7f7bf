//! `webhook listen` against hostile input: signature confusion, torn journals, forged floods,
//! silent connections, forwarding loops and terminal injection, each through real sockets.
use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::process::{Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use bytes::Bytes;
use http::{HeaderName, HeaderValue, StatusCode};
use idem::testing::delivery::unix_now;
use idem::testing::journal::HeaderText;
use idem::testing::journal::read_journal;
use idem::testing::listen::SchemeSelection;
use idem::testing::scheme::SchemeKind;
use idem::testing::server::Timeouts;

use crate::support::listen_process::Binary;
use crate::support::signed_deliveries::{Signed, client, json, post, post_with, sign, stripe_event};
use crate::support::{CustomServer, Listener, Reply, SECRET, dead_port, webhook};

/// A Stripe signature captured a day ago, rewritten as a GitHub delivery of the body
/// `"<t>." + body` with a fresh delivery id: the same HMAC under the same key.
fn stripe_as_github(delivery: &str) -> Signed {
    let captured = sign(SchemeKind::Stripe, "evt_old", unix_now() - 86_400, None, b"{\"id\":\"evt_old\"}");
    let header = captured.headers[0].1.to_str().unwrap().to_string();
    let (t, v1) = header.split_once(",v1=").unwrap();
    let body = format!("{}.{{\"id\":\"evt_old\"}}", t.trim_start_matches("t="));
    Signed {
        headers: vec![
            (HeaderName::from_static("x-hub-signature-256"), HeaderValue::from_str(&format!("sha256={v1}")).unwrap()),
            (HeaderName::from_static("x-github-delivery"), HeaderValue::from_str(delivery).unwrap()),
        ],
        body: Bytes::from(body),
    }
}

#[test]
fn a_captured_stripe_signature_never_passes_as_a_github_one() {
    // Auto detection over every scheme is no longer a default: the listener does not even start.
    webhook()
        .args(["listen", "--addr", "127.0.0.1:0", "--secret", SECRET])
        .timeout(Duration::from_secs(10))
        .assert()
        .code(2);
    let forged = stripe_as_github("fresh-1");
    let github_header = format!("X-Hub-Signature-256: {}", forged.headers[0].1.to_str().unwrap());
    let body = String::from_utf8(forged.body.to_vec()).unwrap();
    webhook()
        .args(["verify", "--secret", SECRET, "-d", &body, "-H", &github_header])
        .assert()
        .code(2)
        .stderr(predicates::str::contains("--scheme"));
    // A Stripe receiver that also takes Standard Webhooks (a separate key) refuses the copy.
    let allow = SchemeSelection::Auto { allow: vec![SchemeKind::Stripe, SchemeKind::Standard] };
    let listener = Listener::start(idem::testing::listen::ListenConfig::local(allow, crate::support::secret()));
    for copy in 0..3 {
        let answer = post(&listener.url("/"), &stripe_as_github(&format!("fresh-{copy}")));
        assert_eq!(answer.status, StatusCode::UNAUTHORIZED);
        assert!(json(&answer)["type"].as_str().unwrap().ends_with("invalid-signature"), "{:?}", answer.body);
    }
    let summary = listener.shutdown();
    assert_eq!((summary.valid, summary.invalid), (0, 3));
}

#[test]
fn verify_and_listen_report_the_same_code_message_and_hint() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("journal.jsonl");
    let listener = Listener::with(SchemeKind::Github, |config| config.record = Some(path.clone()));
    let signed = sign(SchemeKind::Github, "d-1", 0, Some("push"), b"{\"a\": 1, \"b\": [1, 2]}");
    let mut reserialised =
        Signed { headers: signed.headers.clone(), body: Bytes::from_static(b"{\"a\":1,\"b\":[1,2]}") };
    let malformed = Signed {
        headers: vec![(HeaderName::from_static("x-hub-signature-256"), HeaderValue::from_static("md5=00"))],
        body: Bytes::from_static(b"{}"),
    };
    let missing = Signed { headers: Vec::new(), body: Bytes::from_static(b"{}") };
    reserialised.headers.retain(|(name, _)| name != "x-github-event");
    let deliveries = [&reserialised, &malformed, &missing];
    for delivery in deliveries {
        assert_eq!(post(&listener.url("/"), delivery).status, StatusCode::UNAUTHORIZED);
    }
    drop(listener);
    let (records, _) = read_journal(&path).unwrap();
    crate::support::schemas::lines(&std::fs::read(&path).unwrap());
    for (delivery, record) in deliveries.iter().zip(&records) {
        let mut verify = webhook();
        verify.args(["verify", "--scheme", "github", "--secret", SECRET, "--format", "json"]);
        verify.args(["-d", std::str::from_utf8(&delivery.body).unwrap()]);
        for (name, value) in &delivery.headers {
            verify.args(["-H", &format!("{name}: {}", value.to_str().unwrap())]);
        }
        let output = verify.assert().code(1).get_output().stdout.clone();
        let report: serde_json::Value = serde_json::from_slice(&output).unwrap();
        crate::support::schemas::validate(&report);
        let error = &report["error"];
        assert_eq!(record.verdict.code.as_deref(), error["code"].as_str());
        let with_hint = match error["hint"].as_str() {
            Some(hint) => format!("{}; hint: {hint}", error["message"].as_str().unwrap()),
            None => error["message"].as_str().unwrap().to_string(),
        };
        assert_eq!(record.verdict.reason.as_deref(), Some(with_hint.as_str()));
    }
    assert!(records[0].verdict.reason.as_deref().unwrap().contains("json.dumps"), "the hint is the same too");
}

#[cfg(unix)]
#[test]
fn a_journal_torn_by_a_crash_is_repaired_before_the_next_delivery() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("journal.jsonl");
    let record = path.to_str().unwrap();
    let listener = Binary::start(&["--scheme", "stripe", "--record", record]);
    assert_eq!(post(&listener.url, &stripe_event("evt_before", "a")).status, StatusCode::OK);
    listener.interrupt();
    // The crash: half of a line appended without its end.
    let mut file = std::fs::OpenOptions::new().append(true).open(&path).unwrap();
    file.write_all(br#"{"received_at":"2026-11-29T13:17:00.123Z","remote":"127.0"#).unwrap();
    drop(file);

    let listener = Binary::start(&["--scheme", "stripe", "--record", record]);
    assert_eq!(post(&listener.url, &stripe_event("evt_after", "a")).status, StatusCode::OK);
    let (code, _, stderr) = listener.interrupt();
    assert_eq!(code, 0);
    assert!(stderr.contains("incomplete") && stderr.contains(".torn-"), "the repair is said: {stderr}");
    let (records, warning) = read_journal(&path).unwrap();
    assert_eq!(warning, None);
    let ids: Vec<&str> = records.iter().map(|record| record.event_id.as_str()).collect();
    assert_eq!(ids, ["evt_before", "evt_after"], "the acknowledged delivery after the tear is on file");
}

#[test]
fn a_forgery_claims_nothing_counts_nothing_and_takes_no_memory() {
    let listener = Listener::with(SchemeKind::Stripe, |config| config.fail_first = 1);
    let url = listener.url("/");
    let forged = |id: &str| {
        let mut signed = stripe_event(id, "a");
        signed.body = Bytes::from(format!("{{\"id\":\"{id}\",\"forged\":true}}"));
        signed
    };
    // A forgery first does not use up --fail-first: the first authentic attempt still gets 500.
    assert_eq!(post(&url, &forged("evt_1")).status, StatusCode::UNAUTHORIZED);
    assert_eq!(post(&url, &stripe_event("evt_1", "a")).status, StatusCode::INTERNAL_SERVER_ERROR);
    let accepted = post(&url, &stripe_event("evt_1", "a"));
    assert_eq!((accepted.status, json(&accepted)["attempt"].as_u64()), (StatusCode::OK, Some(2)));
    // A forgery reusing the accepted event's id is no duplicate and no attempt of it.
    let forgery = post(&url, &forged("evt_1"));
    assert_eq!(forgery.status, StatusCode::UNAUTHORIZED);
    let again = post(&url, &stripe_event("evt_1", "a"));
    assert_eq!((json(&again)["duplicate"].as_bool(), json(&again)["attempt"].as_u64()), (Some(true), Some(3)));
    for n in 0..300 {
        assert_eq!(post(&url, &forged(&format!("evt_forged_{n}"))).status, StatusCode::UNAUTHORIZED);
    }
    assert_eq!(listener.remembered_events(), 1, "forged ids take no room in the table");
    let summary = listener.shutdown();
    assert_eq!(summary.duplicates, 1);
}

/// Reads until the peer closes or `limit` passes; true when it closed.
fn closed_within(stream: &mut TcpStream, limit: Duration) -> (bool, String) {
    stream.set_read_timeout(Some(limit)).unwrap();
    let mut answer = Vec::new();
    let closed = match stream.read_to_end(&mut answer) {
        Ok(_) => true,
        Err(err) => err.kind() == std::io::ErrorKind::ConnectionReset,
    };
    (closed, String::from_utf8_lossy(&answer).into_owned())
}

#[test]
fn silent_trickling_and_stalled_connections_are_closed_and_the_listener_carries_on() {
    let listener = Listener::with(SchemeKind::Stripe, |config| {
        config.timeouts = Timeouts {
            idle: Duration::from_millis(500),
            body_progress: Duration::from_millis(500),
            ..Timeouts::default()
        };
    });
    let mut silent = TcpStream::connect(listener.addr()).unwrap();
    let mut half_head = TcpStream::connect(listener.addr()).unwrap();
    half_head.write_all(b"POST / HTTP/1.1\r\nHost: x\r\nContent-Le").unwrap();
    let mut half_body = TcpStream::connect(listener.addr()).unwrap();
    half_body.write_all(b"POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n0123456789").unwrap();
    assert!(closed_within(&mut silent, Duration::from_secs(5)).0, "a silent connection is closed");
    assert!(closed_within(&mut half_head, Duration::from_secs(5)).0, "a head that never ends is cut off");
    let (closed, answer) = closed_within(&mut half_body, Duration::from_secs(5));
    assert!(closed && answer.starts_with("HTTP/1.1 400"), "a stalled body fails: {answer}");
    assert!(answer.contains("no body bytes arrived"), "{answer}");
    assert_eq!(post(&listener.url("/"), &stripe_event("evt_ok", "a")).status, StatusCode::OK);
}

#[test]
fn a_head_trickled_a_byte_at_a_time_is_cut_off_after_the_idle_timeout() {
    let listener = Listener::with(SchemeKind::Stripe, |config| {
        config.timeouts = Timeouts { idle: Duration::from_millis(500), ..Timeouts::default() };
    });
    let mut trickle = TcpStream::connect(listener.addr()).unwrap();
    let head = b"POST / HTTP/1.1\r\nHost: x\r\nX-Padding: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa";
    // A byte every 50 ms keeps bytes arriving for longer than the idle timeout ten times over; the
    // head never completes, so no request ever reaches a handler and the connection must go.
    let mut cut_off = false;
    for byte in head.iter().cycle().take(100) {
        if trickle.write_all(&[*byte]).is_err() {
            cut_off = true;
            break;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    if !cut_off {
        cut_off = closed_within(&mut trickle, Duration::from_secs(5)).0;
    }
    assert!(cut_off, "a head trickled for 5 s against a 500 ms idle timeout is cut off");
    assert_eq!(post(&listener.url("/"), &stripe_event("evt_after_trickle", "a")).status, StatusCode::OK);
}

#[cfg(unix)]
#[test]
fn running_out_of_file_descriptors_is_said_once_and_survived() {
    let script = format!(
        "ulimit -n 48 && exec {} listen --scheme stripe --addr 127.0.0.1:0 --secret {SECRET} --idle-timeout 60s",
        env!("CARGO_BIN_EXE_webhook")
    );
    let mut child = crate::support::KillOnDrop::new(
        Command::new("sh")
            .args(["-c", &script])
            .env("NO_COLOR", "1")
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap(),
    );
    let mut stdout = std::io::BufReader::new(child.stdout.take().unwrap());
    let mut banner = String::new();
    std::io::BufRead::read_line(&mut stdout, &mut banner).unwrap();
    let addr: SocketAddr = banner
        .split_whitespace()
        .find_map(|word| word.strip_prefix("http://"))
        .unwrap()
        .trim_end_matches('/')
        .parse()
        .unwrap();
    std::thread::spawn(move || std::io::copy(&mut stdout, &mut std::io::sink()));
    // More connections than the limit allows: the rest wait in the backlog while accept fails.
    let held: Vec<TcpStream> = (0..80).filter_map(|_| TcpStream::connect(addr).ok()).collect();
    std::thread::sleep(Duration::from_millis(600));
    drop(held);
    let url = format!("http://{addr}/");
    let mut answered = false;
    for _ in 0..50 {
        if post_with(&client(false), &url, &stripe_event("evt_after", "a"), &[])
            .is_ok_and(|a| a.status == StatusCode::OK)
        {
            answered = true;
            break;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    Command::new("kill").args(["-INT", &child.id().to_string()]).status().unwrap();
    let output = child.wait_with_output();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(answered, "the listener serves again once descriptors are free: {stderr}");
    assert_eq!(stderr.matches("cannot accept connections").count(), 1, "said once per burst: {stderr}");
    assert!(stderr.contains("ulimit -n") && stderr.contains("accepting connections again"), "{stderr}");
}

#[test]
fn a_listener_never_forwards_to_itself() {
    let port = dead_port();
    let mut config = idem::testing::listen::ListenConfig::local(SchemeKind::Stripe, crate::support::secret());
    config.addr = SocketAddr::from(([127, 0, 0, 1], port));
    config.forward_to = Some(format!("http://localhost:{port}/hook").parse().unwrap());
    let err = crate::support::runtime().block_on(idem::testing::listen::start(&config)).err().unwrap();
    assert!(format!("{err:#}").contains("own address"), "{err:#}");

    // Two listeners forwarding to each other: the delivery comes back once and is refused.
    let port_a = dead_port();
    // Two free ports in a row can be the same one: a listener would then forward to itself.
    let port_b = std::iter::repeat_with(dead_port).find(|port| *port != port_a).unwrap();
    let pair = |own: u16, other: u16| {
        Listener::with(SchemeKind::Stripe, |config| {
            config.addr = SocketAddr::from(([127, 0, 0, 1], own));
            config.forward_to = Some(format!("http://127.0.0.1:{other}/").parse().unwrap());
            config.forward_timeout = Duration::from_secs(5);
        })
    };
    let (a, b) = (pair(port_a, port_b), pair(port_b, port_a));
    let answer = post(&a.url("/"), &stripe_event("evt_loop", "a"));
    assert_eq!(answer.status, StatusCode::LOOP_DETECTED, "{:?}", answer.body);
    assert_eq!(a.summary().rejected, 1, "the copy that came back is refused, not forwarded again");
    assert_eq!((a.summary().received, b.summary().received), (1, 1));
}

#[cfg(unix)]
#[test]
fn text_off_the_network_cannot_drive_the_terminal() {
    let listener = Binary::start(&["--scheme", "stripe", "-v"]);
    let body = "{\"id\":\"evt_\\u001b[2K\",\"type\":\"\\u001b[2K\\r13:17:00.000 \\u2713 valid \\u202e\"}";
    let forged = Signed {
        headers: vec![(HeaderName::from_static("stripe-signature"), HeaderValue::from_static("t=1,v1=00"))],
        body: Bytes::from(body),
    };
    assert_eq!(post(&listener.url, &forged).status, StatusCode::UNAUTHORIZED);
    let (_, lines, _) = listener.interrupt();
    let text = lines.join("\n");
    assert!(!text.contains('\x1b') && !text.contains('\r') && !text.contains('\u{202e}'), "{text:?}");
    assert!(text.contains("\\u{1b}[2K\\u{d}13:17:00.000"), "shown escaped: {text}");
}

#[test]
fn non_utf8_header_values_and_forward_errors_are_journaled_exactly() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("journal.jsonl");
    let listener = Listener::with(SchemeKind::Stripe, |config| {
        config.record = Some(path.clone());
        config.forward_to = Some(format!("http://127.0.0.1:{}/", dead_port()).parse().unwrap());
    });
    let mut signed = stripe_event("evt_bin", "a");
    signed.headers.push((HeaderName::from_static("x-bin"), HeaderValue::from_bytes(&[b'a', 0xff, 0xfe]).unwrap()));
    assert_eq!(post(&listener.url("/"), &signed).status, StatusCode::BAD_GATEWAY);
    drop(listener);
    let (records, _) = read_journal(&path).unwrap();
    crate::support::schemas::lines(&std::fs::read(&path).unwrap());
    let value = &records[0].headers.iter().find(|(name, _)| name == "x-bin").unwrap().1;
    assert!(matches!(value, HeaderText::Binary { .. }), "{value:?}");
    assert_eq!(value.to_bytes().unwrap(), [b'a', 0xff, 0xfe]);
    assert!(records[0].forward_error.as_deref().is_some_and(|error| !error.is_empty()));

    // --verbatim sends the very bytes that arrived.
    let seen: Arc<Mutex<Vec<Vec<u8>>>> = Arc::default();
    let recorder = Arc::clone(&seen);
    let server = CustomServer::start(move |request| {
        recorder.lock().unwrap().push(request.headers["x-bin"].as_bytes().to_vec());
        Reply::json(200, "{}")
    });
    webhook().args(["replay", path.to_str().unwrap(), &server.url("/"), "--verbatim"]).assert().code(0);
    assert_eq!(seen.lock().unwrap().as_slice(), [vec![b'a', 0xff, 0xfe]]);
}

/// The resident set of `pid`, from /proc.
pub(crate) fn rss_kib(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    let line = status.lines().find(|line| line.starts_with("VmRSS:")).unwrap();
    line.split_whitespace().nth(1).unwrap().parse().unwrap()
}

/// POSTs `count` forged deliveries with distinct ids over one keep-alive connection.
fn forge(addr: &str, count: usize, tag: usize) {
    let mut stream = TcpStream::connect(addr).unwrap();
    let filler = "x".repeat(900);
    let mut answer = [0u8; 4096];
    for n in 0..count {
        let body = format!("{{\"id\":\"evt_forged_{tag}_{n}\",\"filler\":\"{filler}\"}}");
        let head = format!(
            "POST / HTTP/1.1\r\nHost: x\r\nStripe-Signature: t={},v1={}\r\nContent-Length: {}\r\n\r\n",
            unix_now(),
            "0".repeat(64),
            body.len()
        );
        // One write: head and body in two would wait out Nagle and a delayed ACK each time.
        stream.write_all(format!("{head}{body}").as_bytes()).unwrap();
        // Every answer is a 401 problem document under 1 KiB, read whole in one go or two.
        let mut read = 0;
        while !String::from_utf8_lossy(&answer[..read]).contains("}") {
            read += stream.read(&mut answer[read..]).unwrap();
        }
    }
}

#[cfg(unix)]
#[test]
fn a_forged_flood_keeps_memory_bounded_and_a_valid_delivery_answered() {
    let listener = Binary::start(&["--scheme", "stripe", "--format", "json"]);
    let addr = listener.url.trim_start_matches("http://").to_string();
    forge(&addr, 200, 99);
    let before = rss_kib(listener.pid());
    let flood: Vec<_> = (0..4)
        .map(|tag| {
            let addr = addr.clone();
            std::thread::spawn(move || forge(&addr, 2_500, tag))
        })
        .collect();
    std::thread::sleep(Duration::from_millis(200));
    let valid = post(&listener.url, &stripe_event("evt_during_flood", "a"));
    assert_eq!(valid.status, StatusCode::OK, "a valid delivery is answered during the flood");
    for thread in flood {
        thread.join().unwrap();
    }
    let after = rss_kib(listener.pid());
    let (_, lines, _) = listener.interrupt();
    // 10,000 forged deliveries of 1 KiB: the listener keeps nothing of them.
    assert!(after.saturating_sub(before) < 32 * 1024, "RSS grew from {before} KiB to {after} KiB");
    let summary: serde_json::Value = serde_json::from_str(lines.last().unwrap()).unwrap();
    crate::support::schemas::validate(&summary);
    assert_eq!(summary["summary"]["invalid"], 10_200);
    assert_eq!(summary["summary"]["valid"], 1);
}
