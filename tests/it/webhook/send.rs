//! `webhook send` against purpose-built receivers: retries until delivered, gives up with exit 1,
//! waits as the schedule, backoff or Retry-After says (read from the JSON's planned waits, never
//! from the wall clock), stops at 410, re-signs each attempt, and delivers duplicates.
use std::sync::{Arc, Mutex};
use std::time::Duration;

use idem::testing::scheme::Secret;
use idem::testing::scheme::{self, SchemeKind, SchemeOptions, TimeWindow};
use predicates::prelude::PredicateBooleanExt;
use serde_json::Value;

use crate::support::run::Run;
use crate::support::{CountingServer, CustomServer, Reply, dead_port, webhook};

pub(crate) const STANDARD_SECRET: &str = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";

/// Runs `webhook send URL --format json …` and returns the exit code and the document.
fn send(url: &str, extra: &[&str]) -> (i32, Value) {
    Run::webhook(["send", url, "--secret", "s3cr3t", "--event", "invoice.paid", "--format", "json"])
        .args(extra)
        .code_and_json()
}

fn attempts(report: &Value) -> &Vec<Value> {
    report["deliveries"][0]["attempts"].as_array().unwrap()
}

fn column(report: &Value, field: &str) -> Vec<Value> {
    attempts(report).iter().map(|attempt| attempt[field].clone()).collect()
}

/// A receiver that answers `status` to the first `failures` requests and 200 after.
fn failing_first(failures: usize, status: u16) -> CustomServer {
    CustomServer::start(move |request| {
        if request.sequence < failures { Reply::json(status, "{}") } else { Reply::json(200, r#"{"ok":true}"#) }
    })
}

#[test]
fn delivered_on_the_attempt_after_the_failures() {
    let server = failing_first(2, 503);
    let (code, report) = send(&server.url("/hook"), &["--schedule", "0s,1s,1s,1s", "--time-scale", "0.001"]);
    assert_eq!(code, 0, "{report:#}");
    assert_eq!(column(&report, "status"), [503, 503, 200]);
    assert_eq!(report["deliveries"][0]["outcome"], "delivered");
    assert_eq!(report["outcome"], "delivered");
}

#[test]
fn every_attempt_failing_is_exit_1_with_no_attempts_left() {
    let server = failing_first(usize::MAX, 500);
    let output = webhook()
        .args([
            "send",
            &server.url("/hook"),
            "--secret",
            "s",
            "-d",
            "{}",
            "--schedule",
            "0s,1s,1s",
            "--time-scale",
            "0.001",
        ])
        .assert()
        .code(1);
    let stdout = String::from_utf8_lossy(&output.get_output().stdout).into_owned();
    assert_eq!(stdout.matches("500 Internal Server Error").count(), 4, "three attempts and the summary: {stdout}");
    assert!(stdout.contains("no attempts left") && stdout.contains("not delivered: all 3 attempts failed"), "{stdout}");
}

#[test]
fn waits_follow_an_explicit_schedule_scaled() {
    let server = failing_first(usize::MAX, 500);
    let (code, report) = send(&server.url("/hook"), &["--schedule", "0s,2s,4s", "--time-scale", "0.001"]);
    assert_eq!(code, 1);
    assert_eq!(report["max_attempts"], 3);
    assert_eq!(column(&report, "planned_wait_ms"), [0.0, 2.0, 4.0]);
    assert_eq!(column(&report, "wait_source"), ["schedule", "schedule", "schedule"]);
    assert_eq!(report["deliveries"][0]["outcome"], "exhausted");
}

#[test]
fn exponential_backoff_jitters_below_a_doubling_cap() {
    let server = failing_first(usize::MAX, 500);
    let args = ["--max-attempts", "6", "--backoff", "1s", "--backoff-max", "4s", "--time-scale", "0.001"];
    let (code, report) = send(&server.url("/hook"), &args);
    assert_eq!(code, 1);
    let attempts = attempts(&report);
    assert_eq!(attempts.len(), 6);
    assert_eq!(attempts[0]["planned_wait_ms"], 0.0);
    assert_eq!(attempts[0]["wait_source"], "first");
    let caps: Vec<f64> = attempts[1..].iter().map(|a| a["wait_cap_ms"].as_f64().unwrap()).collect();
    assert_eq!(caps, [1.0, 2.0, 4.0, 4.0, 4.0], "doubling from 1s, capped at 4s, scaled by 0.001");
    for attempt in &attempts[1..] {
        assert_eq!(attempt["wait_source"], "backoff");
        let planned = attempt["planned_wait_ms"].as_f64().unwrap();
        assert!((0.0..=attempt["wait_cap_ms"].as_f64().unwrap()).contains(&planned), "{attempt}");
    }
}

#[test]
fn retry_after_replaces_the_planned_wait_scaled() {
    let server = CustomServer::start(|request| {
        if request.sequence == 0 {
            let mut reply = Reply::json(503, "{}");
            reply.headers.push(("retry-after", "7".to_string()));
            reply
        } else {
            Reply::json(200, "{}")
        }
    });
    let (code, report) = send(&server.url("/hook"), &["--schedule", "0s,1s", "--time-scale", "0.001"]);
    assert_eq!(code, 0, "{report:#}");
    let attempts = attempts(&report);
    assert_eq!(attempts[0]["retry_after"], "7");
    assert_eq!(attempts[1]["wait_source"], "retry-after");
    assert_eq!(attempts[1]["planned_wait_ms"], 7.0);
}

#[test]
fn gone_stops_after_one_attempt() {
    let server = failing_first(usize::MAX, 410);
    let (code, report) = send(&server.url("/hook"), &["--schedule", "0s,1s,1s", "--time-scale", "0.001"]);
    assert_eq!(code, 1);
    assert_eq!(column(&report, "status"), [410]);
    assert_eq!(report["deliveries"][0]["outcome"], "gone");
}

#[test]
fn a_dead_port_names_the_refused_connection_on_every_attempt() {
    let url = format!("http://127.0.0.1:{}/hook", dead_port());
    let output = webhook()
        .args(["send", &url, "--secret", "s", "-d", "{}", "--max-attempts", "3", "--backoff", "1ms"])
        .assert()
        .code(1);
    let stdout = String::from_utf8_lossy(&output.get_output().stdout).into_owned();
    let lines: Vec<&str> = stdout.lines().filter(|line| line.contains("attempt ")).collect();
    assert_eq!(lines.len(), 3, "{stdout}");
    assert!(lines.iter().all(|line| line.contains("Connection refused")), "{stdout}");
    let summary = stdout.lines().last().unwrap();
    assert!(summary.starts_with("not delivered") && summary.contains("Connection refused"), "{stdout}");
}

/// What a verifying receiver saw of each request: the delivery id, the signed timestamp, and
/// whether the signature held.
type Seen = Arc<Mutex<Vec<(String, i64, bool, bytes::Bytes)>>>;

/// A Standard Webhooks receiver that verifies every request, records it, and answers 500 to the
/// first `failures`.
fn verifying_receiver(failures: usize) -> (CustomServer, Seen) {
    let seen: Seen = Arc::default();
    let record = Arc::clone(&seen);
    let scheme = scheme::build(SchemeKind::Standard, &SchemeOptions::default());
    let key = scheme.key(&Secret::new(STANDARD_SECRET.as_bytes().to_vec()).unwrap()).unwrap();
    let server = CustomServer::start(move |request| {
        let window = TimeWindow::around_now(Duration::from_secs(300));
        let valid = scheme.verify(&request.headers, &request.body, &key, window).is_ok();
        let id = request.headers["webhook-id"].to_str().unwrap().to_string();
        let timestamp = request.headers["webhook-timestamp"].to_str().unwrap().parse().unwrap();
        record.lock().unwrap().push((id, timestamp, valid, request.body.clone()));
        Reply::json(if request.sequence < failures { 500 } else { 200 }, "{}")
    });
    (server, seen)
}

#[test]
fn every_attempt_is_signed_afresh_with_the_same_delivery_id() {
    let (server, seen) = verifying_receiver(1);
    // A second apart in real time, so the fresh timestamp must differ.
    webhook()
        .args(["send", &server.url("/hook"), "--scheme", "standard", "--secret", STANDARD_SECRET])
        .args(["--event", "invoice.paid", "--schedule", "0s,1100ms"])
        .assert()
        .code(0);
    let seen = seen.lock().unwrap();
    assert_eq!(seen.len(), 2);
    assert!(seen.iter().all(|(_, _, valid, _)| *valid), "both attempts verify");
    assert_eq!(seen[0].0, seen[1].0, "the same delivery id");
    assert!(seen[1].1 > seen[0].1, "a fresh timestamp: {} then {}", seen[0].1, seen[1].1);
    assert_eq!(seen[0].3, seen[1].3, "the same body");
}

#[test]
fn times_with_concurrency_delivers_the_same_event_id_each_time() {
    let (server, seen) = verifying_receiver(0);
    let output = webhook()
        .args(["send", &server.url("/hook"), "--scheme", "standard", "--secret", STANDARD_SECRET])
        .args(["--event", "invoice.paid", "--times", "3", "--concurrency", "3", "--format", "json"])
        .assert()
        .code(0);
    let report: Value = serde_json::from_slice(&output.get_output().stdout).unwrap();
    crate::support::schemas::validate(&report);
    assert_eq!(report["delivered"], 3);
    let copies: Vec<u64> =
        report["deliveries"].as_array().unwrap().iter().map(|d| d["copy"].as_u64().unwrap()).collect();
    assert_eq!(copies, [1, 2, 3]);
    let seen = seen.lock().unwrap();
    assert_eq!(seen.len(), 3);
    assert!(seen.iter().all(|(id, _, valid, body)| *valid && *id == seen[0].0 && *body == seen[0].3));
    assert_eq!(seen[0].0, report["delivery_id"].as_str().unwrap());
    let event: Value = serde_json::from_slice(&seen[0].3).unwrap();
    assert_eq!(event["id"], report["event_id"]);
}

#[test]
fn bad_input_is_exit_2_and_never_prints_the_secret() {
    let cases: [(&[&str], &str); 4] = [
        (&["send", "http://127.0.0.1:1/", "-d", "{}"], "no signing secret"),
        (&["send", "http://127.0.0.1:1/", "-d", "@/no/such/body", "--secret", "hunter2-secret"], "/no/such/body"),
        (&["send", "http://exa mple/", "-d", "{}", "--secret", "hunter2-secret"], "is not a valid URL"),
        (
            &["send", "http://127.0.0.1:1/", "-d", "{}", "--secret", "hunter2-secret", "--schedule", "0s,later"],
            "`later` is not a duration",
        ),
    ];
    for (args, expected) in cases {
        let output = webhook().args(args).assert().code(2);
        let stderr = String::from_utf8_lossy(&output.get_output().stderr).into_owned();
        let stdout = String::from_utf8_lossy(&output.get_output().stdout).into_owned();
        assert!(stderr.contains(expected), "{args:?}: {stderr}");
        assert!(!stderr.contains("hunter2-secret") && !stdout.contains("hunter2-secret"), "{args:?}");
    }
}

/// A receiver that asks the first attempt to come back after `retry_after`.
fn asking_to_wait(retry_after: &'static str) -> CustomServer {
    CustomServer::start(move |request| {
        if request.sequence == 0 {
            let mut reply = Reply::json(503, "{}");
            reply.headers.push(("retry-after", retry_after.to_string()));
            reply
        } else {
            Reply::json(200, "{}")
        }
    })
}

#[test]
fn an_absurd_retry_after_is_clamped_to_backoff_max() {
    for retry_after in ["86400000", "Thu, 01 Jan 2099 00:00:00 GMT"] {
        let server = asking_to_wait(retry_after);
        let (code, report) =
            send(&server.url("/hook"), &["--backoff", "1s", "--backoff-max", "2s", "--time-scale", "0.001"]);
        assert_eq!(code, 0, "{report:#}");
        let attempts = attempts(&report);
        assert_eq!(attempts[1]["wait_source"], "retry-after-clamped", "{retry_after}");
        assert_eq!(attempts[1]["planned_wait_ms"], 2.0, "{retry_after}");
        assert!(attempts[1]["wait_cap_ms"].as_f64().unwrap() > 1_000_000.0, "the asked wait is kept as evidence");
    }
    let server = asking_to_wait("86400000");
    webhook()
        .args(["send", &server.url("/hook"), "--secret", "s3cr3t", "-d", "{}", "--backoff-max", "2s"])
        .args(["--time-scale", "0.001"])
        .assert()
        .code(0)
        .stdout(
            predicates::str::contains("Retry-After asked for")
                .and(predicates::str::contains("clamped to --backoff-max")),
        );
}

#[test]
fn absurd_delivery_flags_are_refused() {
    let cases: [(&[&str], &str); 6] = [
        (&["--time-scale", "1e300"], "out of range"),
        (&["--schedule", "0s,999999h"], "at most 7 days"),
        (&["--timeout", "-1s"], "durations are positive"),
        (&["--backoff", "-5s"], "durations are positive"),
        (&["--id", "evt_1\r\nX-Injected: 1"], "without spaces or line breaks"),
        (&["-d", "@/dev/zero"], "larger than 64 MiB"),
    ];
    let url = format!("http://127.0.0.1:{}/hook", dead_port());
    for (args, expected) in cases {
        let mut command = webhook();
        command.args(["send", &url, "--secret", "hunter2-secret"]).args(args);
        if !args.contains(&"-d") {
            command.args(["-d", "{}"]);
        }
        let assert = command.assert().code(2);
        let stderr = String::from_utf8_lossy(&assert.get_output().stderr).into_owned();
        assert!(stderr.contains(expected), "{args:?}: {stderr}");
        assert!(!stderr.contains("\r\nX-Injected") && !stderr.contains("hunter2-secret"), "{args:?}: {stderr}");
    }
}

#[test]
fn credentials_in_the_url_are_basic_auth_and_never_printed() {
    let seen = Arc::new(Mutex::new(Vec::new()));
    let record = Arc::clone(&seen);
    let server = CustomServer::start(move |request| {
        let authorization = request.headers.get("authorization").map(|v| v.to_str().unwrap().to_string());
        record.lock().unwrap().push(authorization);
        Reply::json(200, "{}")
    });
    let url = server.url("/hook").replace("http://", "http://bob:pa55word@");
    for format in ["human", "json"] {
        let assert =
            webhook().args(["send", &url, "--secret", "s3cr3t", "-d", "{}", "--format", format]).assert().code(0);
        let output = assert.get_output();
        if format == "json" {
            crate::support::schemas::document(&output.stdout);
        }
        let printed = format!("{}{}", String::from_utf8_lossy(&output.stdout), String::from_utf8_lossy(&output.stderr));
        assert!(!printed.contains("pa55word"), "{format}: {printed}");
    }
    // base64("bob:pa55word")
    assert_eq!(seen.lock().unwrap()[0].as_deref(), Some("Basic Ym9iOnBhNTV3b3Jk"));
}

/// A receiver that reads a request's head only, answers `answer` (if any) and closes the
/// connection with the body unread, as a receiver enforcing a size limit from Content-Length does.
fn closing_after_the_head(answer: Option<&'static str>) -> (String, std::thread::JoinHandle<()>) {
    use std::io::{Read, Write};
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}/hook", listener.local_addr().unwrap());
    let thread = std::thread::spawn(move || {
        let (mut stream, _) = listener.accept().unwrap();
        let mut head = Vec::new();
        let mut byte = [0u8; 1];
        while !head.ends_with(b"\r\n\r\n") && stream.read(&mut byte).unwrap_or(0) == 1 {
            head.push(byte[0]);
        }
        if let Some(answer) = answer {
            let _ = stream.write_all(answer.as_bytes());
        }
        // Dropped with the body unread: the kernel resets the connection.
    });
    (url, thread)
}

#[test]
fn a_receiver_closing_while_the_body_is_sent_is_explained_not_shown_as_a_broken_pipe() {
    let dir = tempfile::tempdir().unwrap();
    let body = dir.path().join("large.json");
    std::fs::write(&body, format!("{{\"pad\":\"{}\"}}", "x".repeat(16 << 20))).unwrap();
    let data = format!("@{}", body.display());
    let answer_413 = "HTTP/1.1 413 Payload Too Large\r\ncontent-length: 0\r\nconnection: close\r\n\r\n";
    for answer in [None, Some(answer_413)] {
        let (url, receiver) = closing_after_the_head(answer);
        let output = webhook()
            .args(["send", &url, "--secret", "s3cr3t", "-d", &data, "--max-attempts", "1", "--format", "json"])
            .output()
            .unwrap();
        receiver.join().unwrap();
        assert_eq!(output.status.code(), Some(1), "{}", String::from_utf8_lossy(&output.stderr));
        let report: Value = serde_json::from_slice(&output.stdout).unwrap();
        let attempt = &attempts(&report)[0];
        if attempt["status"] == 413 {
            // The answer was read before the connection went: the status is what is shown.
            assert!(answer.is_some());
            continue;
        }
        let error = attempt["error"].as_str().unwrap();
        assert!(error.starts_with("the receiver") && error.contains("413 Payload Too Large"), "{error}");
        assert!(!error.contains("Broken pipe") && !error.contains("os error"), "{error}");
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

#[test]
fn max_requests_counts_every_attempt_and_stops_before_the_one_over_it() {
    let receiver = CountingServer::start(503);
    let (code, stdout, stderr) = Run::webhook(["send", &receiver.url("/hook"), "--secret", "s3cr3t"])
        .args(["--event", "invoice.paid", "--times", "2", "--max-attempts", "5", "--backoff", "1ms"])
        .args(["--max-requests", "3"])
        .finish()
        .parts();
    assert_eq!(code, 2, "{stdout}{stderr}");
    assert_eq!(receiver.requests(), 3, "{stdout}{stderr}");
    assert!(
        stderr.contains("--max-requests 3 reached: 3 requests were sent")
            && stderr.contains("the full run needs 2 to 10 requests"),
        "{stderr}"
    );
}

#[test]
fn a_single_failed_attempt_is_not_called_all_of_them() {
    let receiver = CountingServer::start(500);
    let finished = Run::webhook(["send", &receiver.url("/hooks"), "--secret", "s3cr3t", "-d", "{}"])
        .args(["--max-attempts", "1"])
        .expect_exit(1)
        .finish();
    let said = format!("{}{}", finished.stdout, finished.stderr);
    assert!(said.contains("not delivered: the one attempt failed"), "{said}");
    assert!(!said.contains("all 1 attempts"), "{said}");
}
