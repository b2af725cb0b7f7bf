//! `idem race` against the reference server in each mode, over HTTP/1.1, h2c and HTTPS with ALPN
//! h2; and the single-packet property at the byte level.
use std::collections::HashMap;
use std::io::{Read, Write};
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::Duration;

use bytes::Bytes;
use http::Method;
use idem::testing::race::h2_single_packet;
use idem::testing::race::{DATA, FLAG_END_STREAM};
use idem::testing::request::RequestSpec;
use idem::testing::serve::{Mode, ServeConfig};
use predicates::prelude::PredicateBooleanExt;
use serde_json::Value;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};

use crate::support::run::Run;
use crate::support::{CustomServer, Reply, TestServer, idem, runtime};

const PAYMENT: &str = r#"{"amount":1990,"currency":"RUB"}"#;

fn tls_server(mode: Mode) -> TestServer {
    TestServer::start(ServeConfig { tls: true, ..ServeConfig::local(mode) })
}

fn race_json(args: &[&str]) -> (i32, Value) {
    Run::idem(["race"]).args(args).args(["-d", PAYMENT]).format_json().code_and_json()
}

#[test]
fn naive_server_is_caught_over_http1_with_ids_named() {
    let server = TestServer::start(ServeConfig::local(Mode::Naive));
    let assert = idem().args(["race", &server.url("/payments"), "-d", PAYMENT, "-n", "8"]).assert().code(1);
    let stdout = String::from_utf8_lossy(&assert.get_output().stdout).to_string();
    assert!(stdout.contains("sync: last-byte (http:// without --http2"), "{stdout}");
    assert!(stdout.contains("✗ executed 8 times"), "{stdout}");
    assert_eq!(stdout.matches("pay_").count(), 16, "each id in its answer line and in the verdict: {stdout}");
    assert_eq!(server.summary().payments_created, 8);
}

#[test]
fn correct_server_is_safe_over_h2c_single_packet() {
    let server = TestServer::start(ServeConfig::local(Mode::Correct));
    let assert = idem().args(["race", &server.url("/payments"), "-d", PAYMENT, "--http2"]).assert().code(0);
    let stdout = String::from_utf8_lossy(&assert.get_output().stdout).to_string();
    assert!(stdout.contains("sync: single-packet (--http2 given"), "{stdout}");
    assert!(stdout.contains("20 final frames in one write"), "{stdout}");
    assert!(stdout.contains("✓ answer replayed (") && stdout.contains(": 20 answers, one resource"), "{stdout}");
    assert_eq!(server.summary().payments_created, 1);
}

#[test]
fn naive_server_is_caught_over_https_alpn_h2_in_json() {
    let server = tls_server(Mode::Naive);
    let (code, report) = race_json(&[&server.url("/payments"), "-k", "-n", "10", "--rounds", "2"]);
    assert_eq!(code, 1);
    assert_eq!(report["verdict"], "executed_more_than_once");
    assert_eq!(report["summary"]["rounds"], 2);
    assert_eq!(report["summary"]["executed_more_than_once"], 2);
    assert_eq!(report["summary"]["worst_executions"], 10);
    for round in report["rounds"].as_array().unwrap() {
        assert_eq!(round["sync"], "single-packet");
        assert_eq!(round["sync_reason"], "the server negotiated h2 in ALPN");
        assert_eq!(round["release"]["writes"], 1);
        assert_eq!(round["judgement"]["resource_ids"].as_array().unwrap().len(), 10);
        assert_eq!(round["answers"].as_array().unwrap().len(), 10);
    }
    assert_ne!(report["rounds"][0]["key"], report["rounds"][1]["key"], "a fresh key per round");
}

#[test]
fn correct_server_is_safe_over_https_last_byte_in_json() {
    let server = tls_server(Mode::Correct);
    let (code, report) = race_json(&[&server.url("/payments"), "-k", "-n", "6", "--sync", "last-byte"]);
    assert_eq!(code, 0);
    assert_eq!(report["verdict"], "safe");
    let round = &report["rounds"][0];
    assert_eq!(round["sync"], "last-byte");
    assert_eq!(round["release"]["writes"], 6);
    assert_eq!(round["judgement"]["executions"], 1);
    let statuses: Vec<u64> =
        round["answers"].as_array().unwrap().iter().map(|a| a["status"].as_u64().unwrap()).collect();
    assert_eq!(statuses.iter().filter(|s| **s == 201).count(), 1, "{statuses:?}");
}

#[test]
fn unsynchronised_and_control_modes_say_what_they_did() {
    let server = TestServer::start(ServeConfig::local(Mode::Correct));
    let (_, report) = race_json(&[&server.url("/payments"), "-n", "4", "--sync", "none"]);
    assert_eq!(report["rounds"][0]["sync"], "none");
    assert_eq!(report["rounds"][0]["release"], Value::Null);
    // A key per request: every request executes, which is the control working.
    let (code, report) = race_json(&[&server.url("/payments"), "-n", "4", "--distinct-keys", "--http2"]);
    assert_eq!(code, 0, "{report:#}");
    assert_eq!(report["verdict"], "as_expected");
    assert_eq!(report["rounds"][0]["judgement"]["executions"], 4);
    assert_eq!(report["rounds"][0]["judgement"]["verdict"]["kind"], "all_executed");
    assert_eq!(report["rounds"][0]["key_mode"], "distinct");
    assert!(report["rounds"][0]["answers"][0]["key"].is_string());
}

#[test]
fn controls_pass_when_every_duplicate_executes() {
    let server = TestServer::start(ServeConfig::local(Mode::None));
    for control in ["--distinct-keys", "--no-key"] {
        let assert =
            idem().args(["race", &server.url("/payments"), "-d", PAYMENT, "-n", "10", control]).assert().code(0);
        let stdout = String::from_utf8_lossy(&assert.get_output().stdout).to_string();
        assert!(stdout.contains("✓ control: as expected: all 10 executed"), "{control}: {stdout}");
        assert!(!stdout.contains("for one key"), "{control}: {stdout}");
    }
    assert_eq!(server.summary().payments_created, 20);
}

/// Collapses requests by body, whatever their key: the first of each body creates, the others
/// get the same payment back.
fn body_fingerprinting_server() -> CustomServer {
    let seen: Arc<Mutex<HashMap<Bytes, String>>> = Default::default();
    CustomServer::start(move |request| {
        let mut seen = seen.lock().unwrap();
        let fresh = !seen.contains_key(&request.body);
        let id = seen.entry(request.body.clone()).or_insert_with(|| format!("pay_{}", request.sequence)).clone();
        Reply::json(if fresh { 201 } else { 200 }, format!(r#"{{"id":"{id}"}}"#))
    })
}

#[test]
fn controls_fail_with_the_explanation_when_the_server_collapses_them() {
    let server = body_fingerprinting_server();
    for control in ["--distinct-keys", "--no-key"] {
        let assert =
            idem().args(["race", &server.url("/payments"), "-d", PAYMENT, "-n", "10", control]).assert().code(1);
        let stdout = String::from_utf8_lossy(&assert.get_output().stdout).to_string();
        // One payment for the body, the other nine answered with it.
        let explanation = "the server collapsed 9 of 10 duplicates that had no shared key (it may fingerprint bodies)";
        assert!(stdout.contains(explanation), "{control}: {stdout}");
        assert!(!stdout.contains("✓"), "{control}: {stdout}");
    }
    let (code, report) = race_json(&[&server.url("/payments"), "-n", "4", "--no-key"]);
    assert_eq!((code, report["verdict"].as_str()), (1, Some("collapsed")), "{report:#}");
}

#[test]
fn too_many_streams_for_the_server_is_said_plainly() {
    let server = TestServer::start(ServeConfig::local(Mode::Correct));
    idem()
        .args(["race", &server.url("/payments"), "-d", PAYMENT, "--http2", "-n", "300"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains("concurrent streams").and(predicates::str::contains("-n")));
}

/// A server that answers anything with garbage and hangs up.
fn garbage_server() -> String {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap();
    std::thread::spawn(move || {
        for stream in listener.incoming().flatten() {
            std::thread::spawn(move || {
                let mut stream = stream;
                let mut buffer = [0u8; 1024];
                let _ = stream.set_read_timeout(Some(Duration::from_millis(300)));
                let _ = stream.read(&mut buffer);
                let _ = stream.write_all(b"\x00\x00\x12garbage that is not HTTP\r\n\r\n");
            });
        }
    });
    format!("http://{addr}/payments")
}

#[test]
fn a_misbehaving_server_is_an_error_not_a_panic() {
    let url = garbage_server();
    for extra in [&[][..], &["--http2"][..]] {
        let assert =
            idem().args(["race", &url, "-d", PAYMENT, "-n", "3", "--timeout", "5s"]).args(extra).assert().code(2);
        let stderr = String::from_utf8_lossy(&assert.get_output().stderr).to_string();
        assert!(stderr.starts_with("error: "), "{stderr}");
        assert!(!stderr.contains("panicked"), "{stderr}");
    }
    idem()
        .args(["race", "http://127.0.0.1:1/payments", "-n", "2"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains("cannot connect"));
}

/// Records every write call's bytes.
struct CountingStream<S> {
    inner: S,
    writes: Arc<Mutex<Vec<Vec<u8>>>>,
}

impl<S: AsyncRead + Unpin> AsyncRead for CountingStream<S> {
    fn poll_read(mut self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &mut ReadBuf<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.inner).poll_read(cx, buf)
    }
}

impl<S: AsyncWrite + Unpin> AsyncWrite for CountingStream<S> {
    fn poll_write(mut self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &[u8]) -> Poll<std::io::Result<usize>> {
        let poll = Pin::new(&mut self.inner).poll_write(cx, buf);
        if let Poll::Ready(Ok(written)) = &poll {
            self.writes.lock().unwrap().push(buf[..*written].to_vec());
        }
        poll
    }
    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.inner).poll_flush(cx)
    }
    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.inner).poll_shutdown(cx)
    }
}

/// (kind, flags, stream, index of the write call the frame ended in) for every frame written.
fn frames_by_write(writes: &[Vec<u8>]) -> Vec<(u8, u8, u32, usize)> {
    let mut ends = Vec::new();
    let mut all = Vec::new();
    for write in writes {
        all.extend_from_slice(write);
        ends.push(all.len());
    }
    let write_of = |offset: usize| ends.iter().position(|end| offset <= *end).unwrap();
    let preface = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".len();
    let mut frames = Vec::new();
    let mut at = preface;
    while at + 9 <= all.len() {
        let length = u32::from_be_bytes([0, all[at], all[at + 1], all[at + 2]]) as usize;
        let stream = u32::from_be_bytes([all[at + 5], all[at + 6], all[at + 7], all[at + 8]]);
        let end = at + 9 + length;
        frames.push((all[at + 3], all[at + 4], stream, write_of(end)));
        // A frame never straddles two writes.
        assert_eq!(write_of(at + 1), write_of(end), "frame at {at} split across writes");
        at = end;
    }
    frames
}

#[test]
fn single_packet_releases_every_final_frame_in_one_write_call() {
    let server = TestServer::start(ServeConfig::local(Mode::Naive));
    let url = server.url("/payments");
    let n = 12;
    let (writes, answers, release) = runtime().block_on(async {
        let spec = RequestSpec::new(Method::POST, &url, Bytes::from(PAYMENT)).unwrap();
        let requests: Vec<_> = (0..n).map(|_| spec.build(Some("same-key-for-all")).unwrap()).collect();
        let addr = url.trim_start_matches("http://").trim_end_matches("/payments").to_string();
        let tcp = tokio::net::TcpStream::connect(addr).await.unwrap();
        tcp.set_nodelay(true).unwrap();
        let writes = Arc::new(Mutex::new(Vec::new()));
        let stream = CountingStream { inner: tcp, writes: Arc::clone(&writes) };
        let (answers, release) =
            h2_single_packet::race(stream, &requests, Duration::from_secs(20), None).await.unwrap();
        let writes = writes.lock().unwrap().clone();
        (writes, answers, release)
    });
    assert_eq!(release.writes, 1);
    assert_eq!(release.bytes, n * (9 + 1), "a 9-byte frame header and the withheld byte per stream");
    let frames = frames_by_write(&writes);
    let finals: Vec<_> =
        frames.iter().filter(|(kind, flags, _, _)| *kind == DATA && flags & FLAG_END_STREAM != 0).collect();
    assert_eq!(finals.len(), n);
    let release_write = finals[0].3;
    assert!(finals.iter().all(|f| f.3 == release_write), "every END_STREAM frame in one write: {finals:?}");
    assert_eq!(writes[release_write].len(), release.bytes, "the release write holds nothing else");
    let mut streams: Vec<u32> = finals.iter().map(|f| f.2).collect();
    streams.sort();
    assert_eq!(streams, (0..n as u32).map(|i| 1 + 2 * i).collect::<Vec<_>>());
    // Every stream's other bytes went out before the release.
    assert!(frames.iter().filter(|(kind, ..)| *kind == DATA).all(|f| f.3 <= release_write));
    assert!(answers.iter().all(|a| a.outcome.as_ref().is_ok_and(|r| r.status == 201)));
}

#[test]
fn max_requests_takes_a_whole_round_and_never_sends_one_cut_short() {
    let server = TestServer::start(ServeConfig::local(Mode::Correct));
    let url = server.url("/payments");
    let (code, stdout, stderr) =
        Run::idem(["race", &url, "-d", r#"{"amount":100}"#, "-n", "5", "--rounds", "3", "--max-requests", "12"])
            .finish()
            .parts();
    assert_eq!(code, 2, "{stdout}{stderr}");
    // Two rounds of five fit in 12; the third would need 15 and is not sent at all, not even the 2 left.
    assert_eq!(server.summary().requests, 10, "{stderr}");
    assert!(
        stderr.contains("round 3 of 3 was not sent (2 rounds run before it")
            && stderr.contains("--max-requests 12 reached: 10 requests were sent, and the next step needs 5 more")
            && stderr.contains("the full run needs 15 requests"),
        "{stderr}"
    );
    assert_eq!(server.summary().payments_created, 2);
    assert!(
        stderr.contains(
            "0 executed more than once; created at least 2 resources by distinct ids in the answers before it stopped)"
        ),
        "{stderr}"
    );
}

#[test]
fn a_race_judged_on_its_answers_says_so_and_require_count_refuses_it() {
    use crate::support::run::Run;
    // A key store that replays the server's id while its handler charges on every request.
    let app = crate::support::apps::PythonApp::start("orders_with_a_key_store.py", &["--rerun-handler"]);
    let url = app.url("/orders");
    let race = || Run::idem(["race", &url, "-d", r#"{"amount":500}"#, "-n", "5"]);
    let human = race().expect_exit(0).finish();
    assert!(human.stdout.contains("✓ answer replayed (same server id): 5 answers, one resource"), "{}", human.stdout);
    let report = race().format_json().expect_exit(0).json();
    assert_eq!(report["evidence_level"], "answer", "{report:#}");
    assert_eq!(report["rounds"][0]["judgement"]["evidence_level"], "answer");
    let refused = race().args(["--require-count"]).expect_exit(2).finish();
    assert!(refused.stderr.contains("ground truth was required"), "{}", refused.stderr);
    let counted =
        race().args(["--count-url", &app.url("/charges"), "--count-pointer", "/count"]).expect_exit(1).finish();
    assert!(counted.stdout.contains("✗ executed 5 times: the count rose by 5"), "{}", counted.stdout);
}

#[test]
fn a_key_in_the_body_is_raced_with_a_fresh_key_in_each_round() {
    let race = |app: &crate::support::apps::PythonApp| {
        Run::idem(["race", &app.url("/v2/payments"), "-n", "5", "--rounds", "2", "--id-field", "/payment/id"])
            .args(["--key-in", "body:/idempotency_key", "-d", r#"{"amount_money":{"amount":100,"currency":"USD"}}"#])
            .format_json()
            .code_and_json()
    };
    let ledger =
        |app: &crate::support::apps::PythonApp| -> Value { serde_json::from_str(&app.get("/charges")).unwrap() };
    let correct = crate::support::apps::PythonApp::start("payments_keyed_in_the_body.py", &[]);
    let (code, report) = race(&correct);
    assert_eq!(code, 0, "{report}");
    assert_eq!(report["key_in"], "body:/idempotency_key");
    let keys: Vec<&Value> = report["rounds"].as_array().unwrap().iter().map(|round| &round["key"]).collect();
    let seen = ledger(&correct);
    assert_eq!(seen["count"], 2, "one payment per round: {seen}");
    let mut expected: Vec<&str> = keys.iter().map(|key| key.as_str().unwrap()).collect();
    expected.sort();
    assert_eq!(seen["keys"], serde_json::json!(expected), "each round's own key reached the body");
    let ignoring = crate::support::apps::PythonApp::start("payments_keyed_in_the_body.py", &["--ignore-key"]);
    let (code, report) = race(&ignoring);
    assert_eq!(code, 1, "{report}");
    assert_eq!(ledger(&ignoring)["count"], 10);
}

#[test]
fn the_servers_arrival_stamps_give_the_server_side_spread() {
    let server = TestServer::start(ServeConfig::local(Mode::Correct));
    let (code, report) = race_json(&[&server.url("/payments"), "-n", "6", "--rounds", "3"]);
    assert_eq!(code, 0, "{report:#}");
    for round in report["rounds"].as_array().unwrap() {
        assert!(round["server_spread_us"].as_f64().is_some_and(|us| us >= 0.0), "{round:#}");
    }
    let spread = &report["summary"]["server_spread_us"];
    assert_eq!(spread["rounds"], 3, "{report:#}");
    assert!(spread["median"].as_f64().is_some() && spread["sigma"].as_f64().is_some_and(|s| s >= 0.0), "{spread}");

    let one = idem().args(["race", &server.url("/payments"), "-d", PAYMENT, "-n", "4"]).assert().code(0);
    let stdout = String::from_utf8_lossy(&one.get_output().stdout).to_string();
    assert!(stdout.contains("; server spread "), "{stdout}");
    let two =
        idem().args(["race", &server.url("/payments"), "-d", PAYMENT, "-n", "4", "--rounds", "2"]).assert().code(0);
    let stdout = String::from_utf8_lossy(&two.get_output().stdout).to_string();
    assert!(stdout.contains("server spread (arrivals the server stamped): median "), "{stdout}");
    assert!(stdout.contains(" over 2 rounds"), "{stdout}");
}

#[test]
fn without_arrival_stamps_the_server_side_spread_is_absent_and_said_so() {
    let server = body_fingerprinting_server();
    let (_, report) = race_json(&[&server.url("/payments"), "-n", "4", "--rounds", "2", "--no-key"]);
    for round in report["rounds"].as_array().unwrap() {
        assert!(round["server_spread_us"].is_null(), "{round:#}");
    }
    assert!(report["summary"]["server_spread_us"].is_null(), "{report:#}");
    let assert =
        idem().args(["race", &server.url("/payments"), "-d", PAYMENT, "-n", "4", "--rounds", "2", "--no-key"]).assert();
    let stdout = String::from_utf8_lossy(&assert.get_output().stdout).to_string();
    assert!(
        stdout.contains("server spread: not measured (no answer carried a Server-Timing arrival stamp)"),
        "{stdout}"
    );
    assert!(!stdout.contains("; server spread "), "{stdout}");
}

/// `created` from a `--format json` document: its basis and number.
fn created_of(report: &Value) -> (&str, Option<u64>) {
    (report["created"]["basis"].as_str().unwrap_or_default(), report["created"]["resources"].as_u64())
}

#[test]
fn the_summary_says_what_every_round_created_by_the_count_or_by_the_ids() {
    // Keys ignored: every duplicate executes; the count over both rounds is what the server made.
    let server = TestServer::start(ServeConfig::local(Mode::None));
    let url = server.url("/payments");
    let (code, report) =
        race_json(&[&url, "-n", "4", "--rounds", "2", "--count-url", &url, "--count-pointer", "/count"]);
    assert_eq!(code, 1, "{report:#}");
    assert_eq!(created_of(&report), ("count", Some(8)), "{report:#}");
    assert_eq!(server.summary().payments_created, 8);

    let server = TestServer::start(ServeConfig::local(Mode::Correct));
    let url = server.url("/payments");
    let human = Run::idem(["race", &url, "-d", PAYMENT, "-n", "4", "--rounds", "2"]).expect_exit(0).finish();
    let last = human.stdout.lines().last().unwrap_or_default();
    assert!(last.starts_with("created at least 2 resources by distinct ids in the answers"), "{}", human.stdout);
    let (_, report) = race_json(&[&url, "-n", "4"]);
    assert_eq!(created_of(&report), ("ids", Some(1)), "{report:#}");
    assert_eq!(server.summary().payments_created, 3, "two rounds, then one");
}

#[test]
fn answers_without_ids_and_no_count_leave_what_the_race_created_unknown() {
    let server = CustomServer::start(|_| Reply::json(200, r#"{"ok":true}"#));
    let (code, report) = race_json(&[&server.url("/p"), "-n", "3"]);
    assert_eq!(code, 2, "{report:#}");
    assert_eq!(created_of(&report), ("unknown", None), "{report:#}");
    assert!(report["created"]["note"].as_str().unwrap_or_default().contains("give --count-url"), "{report:#}");
}

/// What a release through several connections' sockets names: one io_uring submission where the
/// kernel allows it, else the loop of non-blocking sends; never the awaited writes of a stream
/// without a socket.
const BATCHED: [&str; 2] = ["io_uring", "send-loop"];

/// The release of `report`'s round `index`, with its batch method checked.
fn batched_release(report: &Value, index: usize) -> &Value {
    let release = &report["rounds"][index]["release"];
    let method = release["batch"].as_str().unwrap_or_default();
    assert!(BATCHED.contains(&method), "{release}");
    release
}

/// The human line's phrase for the batch method.
fn names_a_batch(stdout: &str) -> bool {
    stdout.contains("one io_uring submission") || stdout.contains("one send loop")
}

#[test]
fn look_then_insert_is_caught_by_last_byte_released_in_one_batched_submission() {
    let server = TestServer::start(ServeConfig::local(Mode::Naive));
    let url = server.url("/payments");
    let (code, report) = race_json(&[&url, "-n", "8", "--sync", "last-byte", "--rounds", "2"]);
    assert_eq!(code, 1, "{report:#}");
    assert_eq!(report["verdict"], "executed_more_than_once");
    assert_eq!(report["summary"]["worst_executions"], 8, "{report:#}");
    for index in 0..2 {
        let release = batched_release(&report, index);
        assert_eq!(release["writes"], 8, "{release}");
        assert_eq!(release["bytes"], 8, "{release}");
        // One byte always fits an idle socket's buffer.
        assert_eq!(release["finished_after_batch"], 0, "{release}");
    }

    let assert = idem().args(["race", &url, "-d", PAYMENT, "-n", "5", "--sync", "last-byte"]).assert().code(1);
    let stdout = String::from_utf8_lossy(&assert.get_output().stdout).to_string();
    assert!(stdout.contains("release: 5 final bytes in 5 writes (one "), "{stdout}");
    assert!(names_a_batch(&stdout), "{stdout}");
}

#[test]
fn look_then_insert_is_caught_over_several_h2c_connections_released_together() {
    let server = TestServer::start(ServeConfig::local(Mode::Naive));
    let url = server.url("/payments");
    let (code, report) = race_json(&[&url, "--http2", "-n", "9", "--also", &url, "--also", &url]);
    assert_eq!(code, 1, "{report:#}");
    assert_eq!(report["verdict"], "executed_more_than_once");
    let round = &report["rounds"][0];
    assert_eq!(round["sync"], "single-packet");
    assert_eq!(round["targets"].as_array().unwrap().len(), 3, "{round:#}");
    let release = batched_release(&report, 0);
    assert_eq!(release["writes"], 3, "one send per connection: {release}");

    let assert = idem().args(["race", &url, "-d", PAYMENT, "--http2", "-n", "4", "--also", &url]).assert().code(1);
    let stdout = String::from_utf8_lossy(&assert.get_output().stdout).to_string();
    assert!(stdout.contains("release: 4 final frames in 2 writes across 2 targets ("), "{stdout}");
    assert!(names_a_batch(&stdout), "{stdout}");
}

#[test]
fn tls_connections_released_together_carry_records_sealed_before_the_release() {
    // Every duplicate answered and executed: the server decrypted each record the release put
    // on a socket behind TLS's back, in sequence with what the stream sent before and after.
    let server = tls_server(Mode::Naive);
    let url = server.url("/payments");
    let (code, report) = race_json(&[&url, "-k", "-n", "6", "--sync", "last-byte"]);
    assert_eq!(code, 1, "{report:#}");
    assert_eq!(report["summary"]["worst_executions"], 6, "{report:#}");
    batched_release(&report, 0);

    let (code, report) = race_json(&[&url, "-k", "-n", "6", "--also", &url]);
    assert_eq!(code, 1, "{report:#}");
    assert_eq!(report["rounds"][0]["sync"], "single-packet");
    let answered = report["rounds"][0]["answers"].as_array().unwrap().iter().filter(|a| a["status"] == 201).count();
    assert_eq!(answered, 6, "{report:#}");
    batched_release(&report, 0);
}
