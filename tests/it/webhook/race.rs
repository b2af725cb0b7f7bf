//! `webhook race`: identical copies of one signed delivery released together at a receiver,
//! judged by the receiver's own count. The receivers de-duplicate on the event id: one checks,
//! awaits its store, then records (caught); the others claim atomically or answer first and work
//! later (both pass).
use std::collections::HashSet;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::Value;

use crate::support::apps::PythonApp;
use crate::support::run::Run;
use crate::support::{CustomServer, Reply, SECRET};

/// The receiver of `tests/apps/webhook_receiver_deduplicating_by_event_id.py` in `mode`.
fn receiver(mode: &str) -> PythonApp {
    PythonApp::start("webhook_receiver_deduplicating_by_event_id.py", &[mode, SECRET])
}

/// `webhook race` at the receiver's /hooks with its count, `--format json`: the exit code and
/// the document, validated against its schema.
fn race_counted(app: &PythonApp, extra: &[&str]) -> (i32, Value) {
    let count = app.url("/count");
    Run::webhook(["race", &app.url("/hooks"), "--scheme", "hmac", "--secret", SECRET, "--event", "order.paid"])
        .args(["--count-url", count.as_str(), "--count-pointer", "/count"])
        .args(extra)
        .never_printing(SECRET)
        .format_json()
        .code_and_json()
}

#[test]
fn a_receiver_that_checks_then_inserts_processes_copies_that_arrive_together_more_than_once() {
    let app = receiver("check-then-insert");
    let (code, report) = race_counted(&app, &["-n", "10"]);
    assert_eq!(code, 1, "{report:#}");
    assert_eq!(report["verdict"], "executed-more-than-once", "{report:#}");
    let round = &report["rounds"][0];
    let executions = round["executions"].as_u64().unwrap();
    assert!(executions > 1, "{report:#}");
    assert_eq!(report["most_executions"].as_u64(), Some(executions));
    assert_eq!(round["sync"], "last-byte");
    assert_eq!(round["answers"]["statuses"]["200"], 10, "every copy was acknowledged: {report:#}");
    assert_eq!(round["count"]["after"].as_u64().unwrap() - round["count"]["before"].as_u64().unwrap(), executions);
    assert_eq!(round["release"]["writes"], 10, "one final byte per connection: {report:#}");
    // How the ten connections' last bytes reached the kernel together, named as idem race names it.
    let batch = round["release"]["batch"].as_str().unwrap_or_else(|| panic!("no batch: {report:#}"));
    assert!(["io_uring", "send-loop", "sequential"].contains(&batch), "{report:#}");
    assert_eq!(round["release"].get("finished_after_batch").map(|n| n.is_u64()), Some(true), "{report:#}");

    let finished = Run::webhook(["race", &app.url("/hooks"), "--scheme", "hmac", "--secret", SECRET])
        .args(["--event", "order.paid", "--count-url", &app.url("/count"), "--count-pointer", "/count"])
        .never_printing(SECRET)
        .expect_exit(1)
        .finish();
    let stdout = finished.stdout;
    assert!(stdout.contains("sync: last-byte (http:// without --http2"), "{stdout}");
    assert!(stdout.contains("10 × 200"), "{stdout}");
    assert!(stdout.contains("✗ executed ") && stdout.contains("claim the id atomically"), "{stdout}");
}

#[test]
fn an_atomic_receiver_and_one_that_answers_first_and_works_later_process_each_delivery_once() {
    for mode in ["atomic", "ack-then-fulfil"] {
        let app = receiver(mode);
        let (code, report) = race_counted(&app, &["-n", "10", "--rounds", "2"]);
        assert_eq!(code, 0, "{mode}: {report:#}");
        assert_eq!(report["verdict"], "executed-once", "{mode}: {report:#}");
        let rounds = report["rounds"].as_array().unwrap();
        assert_eq!(rounds.len(), 2);
        for round in rounds {
            assert_eq!(round["executions"], 1, "{mode}: {report:#}");
            assert_eq!(round["answers"]["statuses"]["200"], 10, "{mode}: {report:#}");
        }
        assert_ne!(rounds[0]["event_id"], rounds[1]["event_id"], "each round races a fresh delivery");
    }
}

#[test]
fn a_copy_answered_5xx_by_the_loser_of_a_unique_insert_is_a_warning_when_processed_once() {
    let app = receiver("unique-insert-500");
    let (code, report) = race_counted(&app, &["-n", "10"]);
    assert_eq!(code, 0, "processed once is what counts: {report:#}");
    assert_eq!(report["rounds"][0]["executions"], 1, "{report:#}");
    assert!(report["rounds"][0]["answers"]["statuses"]["500"].as_u64().unwrap() >= 1, "{report:#}");

    let count = app.url("/count");
    let stdout = Run::webhook(["race", &app.url("/hooks"), "--scheme", "hmac", "--secret", SECRET])
        .args(["--event", "order.paid", "--count-url", &count, "--count-pointer", "/count"])
        .expect_exit(0)
        .finish()
        .stdout;
    assert!(stdout.contains("answered with a 5xx: the provider delivers"), "{stdout}");
    assert!(stdout.contains("✓ executed once (counted)"), "{stdout}");
}

#[test]
fn without_a_count_the_answers_are_printed_and_executions_are_not_judged() {
    let app = receiver("check-then-insert");
    let finished = Run::webhook(["race", &app.url("/hooks"), "--scheme", "hmac", "--secret", SECRET])
        .args(["--event", "order.paid", "-n", "4"])
        .never_printing(SECRET)
        .expect_exit(0)
        .finish();
    assert!(finished.stdout.contains("4 × 200"), "{}", finished.stdout);
    assert!(finished.stdout.contains("executions not counted: give --count-url"), "{}", finished.stdout);

    let (code, report) = Run::webhook(["race", &app.url("/hooks"), "--scheme", "hmac", "--secret", SECRET])
        .args(["--event", "order.paid", "-n", "4"])
        .format_json()
        .code_and_json();
    assert_eq!(code, 0);
    assert_eq!(report["verdict"], "not-counted");
    assert_eq!(report["rounds"][0]["executions"], Value::Null);
    assert_eq!(report["rounds"][0]["count"], Value::Null);
}

#[test]
fn copies_the_receiver_refuses_leave_nothing_to_judge() {
    let app = receiver("atomic");
    let count = app.url("/count");
    let finished =
        Run::webhook(["race", &app.url("/hooks"), "--scheme", "hmac", "--secret", "whsec_not_the_receivers"])
            .args(["--event", "order.paid", "--count-url", &count, "--count-pointer", "/count"])
            .expect_exit(2)
            .finish();
    assert!(finished.stdout.contains("10 × 401"), "{}", finished.stdout);
    assert!(finished.stderr.contains("no copy got a 2xx"), "{}", finished.stderr);
}

#[test]
fn bad_usage_is_exit_2_before_anything_is_sent() {
    let app = receiver("atomic");
    let url = app.url("/hooks");
    for (args, said) in [
        (vec!["--scheme", "hmac", "--event", "order.paid", "--id", "evt_1", "--rounds", "2"], "--id pins the delivery"),
        (vec!["--event", "order.paid"], "name the receiver's signing scheme with --scheme"),
        (vec!["--scheme", "hmac"], "a payload is required"),
        (vec!["--scheme", "hmac", "--event", "order.paid", "-n", "1"], "2..=1000"),
    ] {
        let finished = Run::webhook(["race", url.as_str(), "--secret", SECRET]).args(&args).expect_exit(2).finish();
        assert!(finished.stderr.contains(said), "{args:?}: {}", finished.stderr);
    }
    assert_eq!(processed(&app), 0, "nothing was delivered");
}

/// The receiver's count, read with a plain HTTP/1.0 GET.
fn processed(app: &PythonApp) -> u64 {
    use std::io::{Read, Write};
    let address = app.url("").trim_start_matches("http://").to_string();
    let mut stream = std::net::TcpStream::connect(address).unwrap();
    stream.write_all(b"GET /count HTTP/1.0\r\n\r\n").unwrap();
    let mut answer = String::new();
    stream.read_to_string(&mut answer).unwrap();
    let body = answer.split("\r\n\r\n").nth(1).unwrap();
    serde_json::from_str::<Value>(body).unwrap()["count"].as_u64().unwrap()
}

#[test]
fn over_h2c_the_copies_go_in_one_single_packet_with_one_signature() {
    // Checks "seen?", awaits its store, records: as the Python receiver, in HTTP/2.
    let seen: Arc<Mutex<HashSet<String>>> = Arc::default();
    let processed = Arc::new(Mutex::new(0u64));
    let signatures: Arc<Mutex<Vec<String>>> = Arc::default();
    let (seen_by, processed_by, signed) = (Arc::clone(&seen), Arc::clone(&processed), Arc::clone(&signatures));
    let server = CustomServer::start_async(move |request| {
        let (seen, processed, signatures) = (Arc::clone(&seen_by), Arc::clone(&processed_by), Arc::clone(&signed));
        Box::pin(async move {
            if request.method == "GET" {
                return Reply::json(200, format!(r#"{{"count":{}}}"#, processed.lock().unwrap()));
            }
            let signature = request.headers.get("x-signature").map(|v| v.to_str().unwrap().to_string());
            signatures.lock().unwrap().push(signature.unwrap_or_default());
            let event: Value = serde_json::from_slice(&request.body).unwrap();
            let id = event["id"].as_str().unwrap().to_string();
            if seen.lock().unwrap().contains(&id) {
                return Reply::json(200, "{}");
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
            seen.lock().unwrap().insert(id);
            *processed.lock().unwrap() += 1;
            Reply::json(200, "{}")
        })
    });
    let count = server.url("/count");
    let (code, report) = Run::webhook(["race", &server.url("/hooks"), "--scheme", "hmac", "--secret", SECRET])
        .args(["--event", "order.paid", "-n", "6", "--http2", "--count-url", &count, "--count-pointer", "/count"])
        .format_json()
        .code_and_json();
    assert_eq!(code, 1, "{report:#}");
    let round = &report["rounds"][0];
    assert_eq!(round["sync"], "single-packet", "{report:#}");
    assert_eq!(round["release"]["writes"], 1, "every final frame in one write: {report:#}");
    assert!(round["executions"].as_u64().unwrap() > 1, "{report:#}");
    let signatures = signatures.lock().unwrap();
    assert_eq!(signatures.len(), 6);
    assert_eq!(signatures.iter().collect::<HashSet<_>>().len(), 1, "identical copies: {signatures:?}");
    assert!(!signatures[0].is_empty());
}

#[test]
fn more_copies_than_the_receivers_http2_streams_go_one_connection_each_instead() {
    // De-duplicates atomically; hyper's HTTP/2 allows 200 concurrent streams per connection.
    let seen: Arc<Mutex<HashSet<String>>> = Arc::default();
    let seen_by = Arc::clone(&seen);
    let server = CustomServer::start(move |request| {
        let mut seen = seen_by.lock().unwrap();
        if request.method == "GET" {
            return Reply::json(200, format!(r#"{{"count":{}}}"#, seen.len()));
        }
        let event: Value = serde_json::from_slice(&request.body).unwrap();
        seen.insert(event["id"].as_str().unwrap().to_string());
        Reply::json(200, "{}")
    });
    let count = server.url("/count");
    let (code, report) = Run::webhook(["race", &server.url("/hooks"), "--scheme", "hmac", "--secret", SECRET])
        .args(["--event", "order.paid", "-n", "300", "--http2", "--count-url", &count, "--count-pointer", "/count"])
        .format_json()
        .code_and_json();
    assert_eq!(code, 0, "{report:#}");
    let round = &report["rounds"][0];
    assert_eq!(round["sync"], "last-byte", "{report:#}");
    assert!(round["sync_reason"].as_str().unwrap().contains("cannot hold 300 copies on one connection"), "{report:#}");
    assert_eq!(round["answers"]["statuses"]["200"], 300, "{report:#}");
    assert_eq!(round["executions"], 1, "{report:#}");
}

#[test]
fn max_requests_sends_whole_rounds_and_stops_before_the_one_over_it() {
    let receiver = crate::support::CountingServer::start(200);
    let finished = Run::webhook(["race", &receiver.url("/hooks"), "--scheme", "hmac", "--secret", SECRET])
        .args(["--event", "order.paid", "-n", "4", "--rounds", "3", "--max-requests", "10"])
        .never_printing(SECRET)
        .expect_exit(2)
        .finish();
    assert_eq!(receiver.requests(), 8, "two whole rounds and nothing of the third: {}", finished.stderr);
    assert!(
        finished.stderr.contains("round 3 of 3 was not sent")
            && finished
                .stderr
                .contains("--max-requests 10 reached: 8 requests were sent, and the next step needs 4 more")
            && finished.stderr.contains("the full run needs 12 requests"),
        "{}",
        finished.stderr
    );
}

/// A receiver that acknowledges every copy at once, processes the first soon after and the
/// duplicate from a slower retry queue (1.5 s later), after the count has settled (500 ms apart):
/// the closing re-read after the last round counts the duplicate as that round's.
#[test]
fn a_copy_processed_after_the_count_settled_is_counted_by_the_closing_re_read() {
    const SECRET_OF_THE_APP: &str = "whsec_ground_truth";
    let app = PythonApp::start("hmac_receiver_processing_after_ack.py", &["processes-duplicates-later", "0-50"]);
    let count = app.url("/processed");
    let (code, report) = Run::webhook(["race", &app.url("/hooks"), "--scheme", "hmac", "--secret", SECRET_OF_THE_APP])
        .args(["--event", "order.paid", "-n", "2", "--count-url", &count, "--count-pointer", "/processed"])
        .args(["--count-settle", "500ms"])
        .never_printing(SECRET_OF_THE_APP)
        .format_json()
        .code_and_json();
    assert_eq!(code, 1, "{report:#}");
    assert_eq!(report["verdict"], "executed-more-than-once", "{report:#}");
    let round = &report["rounds"][0];
    assert_eq!(round["answers"]["statuses"]["200"], 2, "both copies were acknowledged: {report:#}");
    assert_eq!(round["executions"], 2, "{report:#}");
    assert_eq!(round["count"]["after"].as_u64().unwrap() - round["count"]["before"].as_u64().unwrap(), 2);
}

#[test]
fn copies_raced_under_githubs_scheme_carry_a_github_delivery_id_and_one_user_agent() {
    // Each copy's X-GitHub-Delivery and User-Agents.
    type Seen = Vec<(String, Vec<String>)>;
    let seen: Arc<Mutex<Seen>> = Arc::default();
    let record = Arc::clone(&seen);
    let server = CustomServer::start(move |request| {
        let delivery = request.headers.get("x-github-delivery").and_then(|v| v.to_str().ok()).unwrap_or("");
        let agents = request.headers.get_all("user-agent").iter().map(|v| v.to_str().unwrap_or("").to_string());
        record.lock().unwrap().push((delivery.to_string(), agents.collect()));
        Reply::json(200, "{}")
    });
    let (code, report) = Run::webhook(["race", &server.url("/hooks"), "--scheme", "github", "--secret", SECRET])
        .args(["-d", r#"{"action":"opened","issue":{"id":7}}"#, "-n", "3"])
        .format_json()
        .code_and_json();
    assert_eq!(code, 0, "{report:#}");
    let seen = seen.lock().unwrap();
    assert_eq!(seen.len(), 3, "{report:#}");
    for (delivery, agents) in seen.iter() {
        assert!(uuid::Uuid::parse_str(delivery).is_ok(), "GitHub's X-GitHub-Delivery is a GUID, not {delivery}");
        assert_eq!(agents.len(), 1, "{agents:?}");
        assert!(agents[0].starts_with("GitHub-Hookshot/"), "{agents:?}");
    }
}
