//! `webhook replay` of a journal written here with `JournalWriter` (one body not UTF-8) and of a
//! plain file of events: the bytes arrive unchanged, re-signed or verbatim, filtered, paced.
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use idem::testing::journal::JournalWriter;
use idem::testing::journal::{HeaderText, JournalBody, JournalRecord, JournalVerdict};
use idem::testing::scheme::Secret;
use idem::testing::scheme::{self, SchemeKind, SchemeOptions, TimeWindow};
use serde_json::Value;

use crate::support::SECRET as STANDARD_SECRET;
use crate::support::run::Run;
use crate::support::{CountingServer, CustomServer, Reply, webhook};

const BINARY_BODY: &[u8] = &[0xff, 0x00, 0x80, b'{', 0xfe];
/// Signed long ago: any receiver checking timestamps refuses it.
const OLD_TIMESTAMP: &str = "1600000000";

fn record(event_id: &str, event_type: &str, body: &[u8], extra_headers: &[(&str, &str)]) -> JournalRecord {
    let mut headers: Vec<(String, String)> = vec![
        ("host".into(), "recorded.example:9000".into()),
        ("content-length".into(), body.len().to_string()),
        ("connection".into(), "keep-alive, x-drop-me".into()),
        ("x-drop-me".into(), "hop".into()),
        ("content-type".into(), "application/json".into()),
        ("x-custom".into(), "kept".into()),
    ];
    headers.extend(extra_headers.iter().map(|(name, value)| (name.to_string(), value.to_string())));
    JournalRecord {
        received_at: "2026-11-29T13:17:00.123Z".into(),
        remote: Some("127.0.0.1:50514".into()),
        method: "POST".into(),
        path: "/webhooks".into(),
        headers: headers.into_iter().map(|(name, value)| (name, HeaderText::Text(value))).collect(),
        body: JournalBody::from_bytes(body),
        verdict: JournalVerdict { valid: true, scheme: Some("standard".into()), reason: None, code: None },
        event_id: event_id.into(),
        event_type: Some(event_type.into()),
        duplicate: false,
        attempt: 1,
        status: 200,
        forward_error: None,
        forward: None,
        handshake: None,
    }
}

/// Three deliveries: evt_1 (with recorded Standard Webhooks headers), evt_2 (a binary body),
/// evt_3.
fn journal(dir: &Path) -> PathBuf {
    let path = dir.join("journal.jsonl");
    let (writer, _) = JournalWriter::open(&path, false).unwrap();
    let recorded_signature = [
        ("webhook-id", "msg_recorded1"),
        ("webhook-timestamp", OLD_TIMESTAMP),
        ("webhook-signature", "v1,c3RhbGUgc2lnbmF0dXJlIGZyb20gdGhlIHBhc3Q="),
    ];
    writer
        .append(&record("evt_1", "invoice.paid", br#"{"id":"evt_1","type":"invoice.paid"}"#, &recorded_signature))
        .unwrap();
    writer.append(&record("evt_2", "file.uploaded", BINARY_BODY, &[])).unwrap();
    writer.append(&record("evt_3", "invoice.paid", br#"{"id":"evt_3",  "type":"invoice.paid"}"#, &[])).unwrap();
    path
}

struct Seen {
    headers: http::HeaderMap,
    body: bytes::Bytes,
    valid: bool,
}

/// Records every request and whether its Standard Webhooks signature verifies now; answers 200.
fn receiver() -> (CustomServer, Arc<Mutex<Vec<Seen>>>) {
    let seen: Arc<Mutex<Vec<Seen>>> = Arc::default();
    let record = Arc::clone(&seen);
    let scheme = scheme::build(SchemeKind::Standard, &SchemeOptions::default());
    let key = scheme.key(&Secret::new(STANDARD_SECRET.as_bytes().to_vec()).unwrap()).unwrap();
    let server = CustomServer::start(move |request| {
        let window = TimeWindow::around_now(Duration::from_secs(300));
        let valid = scheme.verify(&request.headers, &request.body, &key, window).is_ok();
        record.lock().unwrap().push(Seen { headers: request.headers, body: request.body, valid });
        Reply::json(200, "{}")
    });
    (server, seen)
}

fn replay(file: &Path, url: &str, extra: &[&str]) -> (i32, Value, String) {
    let finished = Run::webhook(["replay".as_ref(), file.as_os_str(), url.as_ref()]).format_json().args(extra).finish();
    (finished.code, finished.json(), finished.stderr)
}

fn resign() -> [&'static str; 4] {
    ["--scheme", "standard", "--secret", STANDARD_SECRET]
}

#[test]
fn resigned_replay_delivers_every_body_byte_for_byte_with_the_recorded_delivery_id() {
    let dir = tempfile::tempdir().unwrap();
    let file = journal(dir.path());
    let (server, seen) = receiver();
    let (code, report, _) = replay(&file, &server.url("/hook"), &resign());
    assert_eq!(code, 0, "{report:#}");
    assert_eq!((report["entries"].as_u64(), report["delivered"].as_u64()), (Some(3), Some(3)));
    assert_eq!(report["mode"], "resign");
    let seen = seen.lock().unwrap();
    let bodies: Vec<&[u8]> = seen.iter().map(|s| &s.body[..]).collect();
    assert_eq!(
        bodies,
        [&br#"{"id":"evt_1","type":"invoice.paid"}"#[..], BINARY_BODY, br#"{"id":"evt_3",  "type":"invoice.paid"}"#]
    );
    assert!(seen.iter().all(|s| s.valid), "re-signed with a fresh timestamp");
    let ids: Vec<&str> = seen.iter().map(|s| s.headers["webhook-id"].to_str().unwrap()).collect();
    assert_eq!(ids, ["msg_recorded1", "evt_2", "evt_3"], "the recorded delivery id, else the event id");
    assert_eq!(seen[0].headers["x-custom"], "kept");
    assert!(seen[0].headers.get("x-drop-me").is_none(), "headers the Connection header named are hop-by-hop");
}

#[test]
fn verbatim_replay_reproduces_the_recorded_headers_and_its_stale_signature_fails() {
    let dir = tempfile::tempdir().unwrap();
    let file = journal(dir.path());
    let (server, seen) = receiver();
    let (code, report, _) = replay(&file, &server.url("/hook"), &["--verbatim", "--id", "evt_1"]);
    assert_eq!(code, 0, "{report:#}");
    assert_eq!(report["mode"], "verbatim");
    assert_eq!(report["scheme"], Value::Null);
    let seen = seen.lock().unwrap();
    assert_eq!(seen.len(), 1);
    let headers = &seen[0].headers;
    assert_eq!(headers["webhook-id"], "msg_recorded1");
    assert_eq!(headers["webhook-timestamp"], OLD_TIMESTAMP);
    assert_eq!(headers["webhook-signature"], "v1,c3RhbGUgc2lnbmF0dXJlIGZyb20gdGhlIHBhc3Q=");
    assert_eq!(headers["x-custom"], "kept");
    assert_eq!(headers["host"], server.addr.to_string().as_str(), "Host is the new target's");
    assert!(headers.get("x-drop-me").is_none());
    assert!(!seen[0].valid, "a verifying receiver refuses the stale signature");
}

#[test]
fn filters_pick_entries_by_event_type_and_id() {
    let dir = tempfile::tempdir().unwrap();
    let file = journal(dir.path());
    let (server, seen) = receiver();
    let lines = |report: &Value| -> Vec<u64> {
        report["deliveries"].as_array().unwrap().iter().map(|d| d["line"].as_u64().unwrap()).collect()
    };
    let (code, report, _) =
        replay(&file, &server.url("/"), &[&resign()[..], &["--event-type", "invoice.paid"]].concat());
    assert_eq!((code, lines(&report), report["selected"].as_u64()), (0, vec![1, 3], Some(2)));
    let (code, report, _) =
        replay(&file, &server.url("/"), &[&resign()[..], &["--id", "evt_2", "--id", "evt_3"]].concat());
    assert_eq!((code, lines(&report)), (0, vec![2, 3]));
    let output = webhook()
        .arg("replay")
        .arg(&file)
        .arg(server.url("/"))
        .args(resign())
        .args(["--id", "evt_2", "--event-type", "invoice.paid"])
        .assert()
        .code(2);
    let stderr = String::from_utf8_lossy(&output.get_output().stderr).into_owned();
    assert!(
        stderr.contains(
            "holds 3 entries and the filters (--event-type, --id, --failed, --latest-per-event) matched none"
        ),
        "{stderr}"
    );
    assert_eq!(seen.lock().unwrap().len(), 4);
}

#[test]
fn a_torn_last_line_is_skipped_with_a_warning_and_exit_1() {
    let dir = tempfile::tempdir().unwrap();
    let file = journal(dir.path());
    let whole = std::fs::read_to_string(&file).unwrap();
    let first_line = whole.lines().next().unwrap();
    std::fs::write(&file, format!("{whole}{}", &first_line[..first_line.len() / 2])).unwrap();
    let (server, seen) = receiver();
    let (code, report, stderr) = replay(&file, &server.url("/"), &resign());
    assert_eq!(code, 1, "a skipped line is data not replayed");
    assert!(stderr.contains("warning: skipped line 4"), "{stderr}");
    assert!(report["skipped_lines"][0].as_str().unwrap().contains("line 4"));
    assert_eq!(report["outcome"], "not-delivered");
    assert_eq!(seen.lock().unwrap().len(), 3);
}

#[test]
fn a_damaged_line_in_the_middle_costs_only_that_line_and_is_named() {
    let dir = tempfile::tempdir().unwrap();
    let file = journal(dir.path());
    let whole = std::fs::read_to_string(&file).unwrap();
    let lines: Vec<&str> = whole.lines().collect();
    // A fragment glued to the next record, as a torn append followed by another one leaves it.
    let glued = format!("{}\n{}{}\n{}\n", lines[0], &lines[1][..20], lines[1], lines[2]);
    std::fs::write(&file, glued).unwrap();
    let (server, seen) = receiver();
    let (code, report, stderr) = replay(&file, &server.url("/"), &resign());
    assert_eq!(code, 1, "{stderr}");
    assert!(stderr.contains("skipped line 2") && stderr.contains("not JSON"), "{stderr}");
    assert_eq!(report["delivered"], 2);
    assert_eq!(seen.lock().unwrap().len(), 2);
}

#[test]
fn a_file_of_nul_bytes_is_called_what_it_is() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("zeros.jsonl");
    std::fs::write(&file, [0u8; 4096]).unwrap();
    let output =
        webhook().args(["replay", file.to_str().unwrap(), "http://127.0.0.1:9/", "--secret", "s"]).assert().code(2);
    let stderr = String::from_utf8_lossy(&output.get_output().stderr).into_owned();
    assert!(stderr.contains("4096 NUL bytes") && !stderr.contains("torn"), "{stderr}");
}

#[test]
fn a_file_of_plain_events_is_sent_line_for_line_at_the_given_rate() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("events.jsonl");
    let lines = [r#"{"id": "evt_a", "type": "a.created", "n": 1.50}"#, r#"{"type":"b.created"}"#, r#"{"id":"evt_c"}"#];
    std::fs::write(&file, format!("{}\n\n{}\n{}\n", lines[0], lines[1], lines[2])).unwrap();
    let (server, seen) = receiver();
    let started = Instant::now();
    let (code, report, _) = replay(&file, &server.url("/"), &[&resign()[..], &["--rate", "10/s"]].concat());
    assert!(started.elapsed() >= Duration::from_millis(200), "three starts at 10/s span at least 200ms");
    assert_eq!(code, 0, "{report:#}");
    let seen = seen.lock().unwrap();
    let bodies: Vec<&[u8]> = seen.iter().map(|s| &s.body[..]).collect();
    assert_eq!(bodies, lines.map(str::as_bytes), "each line's bytes, unchanged");
    assert_eq!(seen[0].headers["webhook-id"], "evt_a");
    assert_eq!(seen[0].headers["content-type"], "application/json");
    assert_eq!(report["deliveries"][1]["event_type"], "b.created");
    assert_eq!(report["deliveries"][1]["line"], 3);
}

#[test]
fn bad_input_is_exit_2_with_a_clear_message() {
    let dir = tempfile::tempdir().unwrap();
    let plain = dir.path().join("plain.jsonl");
    std::fs::write(&plain, "{\"id\":\"evt_1\"}\n").unwrap();
    let missing = dir.path().join("missing.jsonl");
    let url = "http://127.0.0.1:1/";
    let secret = "hunter2-secret";
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (vec![missing.to_str().unwrap(), url, "--secret", secret], "cannot open"),
        (vec![plain.to_str().unwrap(), url], "no signing secret"),
        (vec![plain.to_str().unwrap(), url, "--verbatim"], "--verbatim has no recorded headers"),
        (vec![plain.to_str().unwrap(), url, "--verbatim", "--secret", secret], "cannot be used with"),
        (vec![plain.to_str().unwrap(), "ftp://x/", "--secret", secret], "only http and https"),
        (vec![plain.to_str().unwrap(), url, "--secret", secret, "--rate", "fast"], "is not a rate"),
    ];
    for (args, expected) in cases {
        let output = webhook().arg("replay").args(&args).assert().code(2);
        let stderr = String::from_utf8_lossy(&output.get_output().stderr).into_owned();
        assert!(stderr.contains(expected), "{args:?}: {stderr}");
        assert!(!stderr.contains(secret), "{args:?}: {stderr}");
        assert!(output.get_output().stdout.is_empty(), "{args:?}");
    }
}

#[test]
fn order_reverses_or_shuffles_the_entries_and_a_seed_repeats_a_shuffle() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("events.jsonl");
    let lines: String = (1..=8).map(|n| format!("{{\"id\":\"evt_{n}\",\"type\":\"customer.updated\"}}\n")).collect();
    std::fs::write(&path, lines).unwrap();
    let (server, seen) = receiver();
    let arrived = |extra: &[&str]| -> (Vec<String>, String) {
        seen.lock().unwrap().clear();
        let (code, report, stderr) = replay(&path, &server.url("/"), &[&resign()[..], extra].concat());
        assert_eq!(code, 0, "{report:#}");
        let ids = seen.lock().unwrap().iter().map(|s| s.headers["webhook-id"].to_str().unwrap().to_string()).collect();
        (ids, stderr)
    };
    let in_file: Vec<String> = (1..=8).map(|n| format!("evt_{n}")).collect();
    assert_eq!(arrived(&[]).0, in_file);
    let reversed: Vec<String> = in_file.iter().rev().cloned().collect();
    assert_eq!(arrived(&["--order", "reverse"]).0, reversed);
    let (shuffled, stderr) = arrived(&["--order", "shuffle", "--seed", "42"]);
    assert!(stderr.contains("--seed 42"), "{stderr}");
    assert_ne!(shuffled, in_file);
    let mut sorted = shuffled.clone();
    sorted.sort();
    assert_eq!(sorted, in_file, "every entry once");
    assert_eq!(arrived(&["--order", "shuffle", "--seed", "42"]).0, shuffled, "the same seed, the same order");
    let (_, stderr) = arrived(&["--order", "shuffle"]);
    assert!(stderr.contains("shuffled 8 entries with --seed "), "a fresh seed is printed: {stderr}");
    webhook().arg("replay").arg(&path).arg(server.url("/")).args(resign()).args(["--seed", "1"]).assert().code(2);
}

#[test]
fn a_record_with_too_many_headers_is_skipped_naming_its_line_and_the_others_are_replayed() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("journal.jsonl");
    let (writer, _) = JournalWriter::open(&path, false).unwrap();
    writer.append(&record("evt_before", "invoice.paid", br#"{"id":"evt_before"}"#, &[])).unwrap();
    // 100,000 headers made the HTTP library panic ("size overflows MAX_SIZE").
    let mut crowded = record("evt_crowded", "invoice.paid", br#"{"id":"evt_crowded"}"#, &[]);
    crowded.headers = (0..100_000).map(|n| (format!("x-h{n}"), HeaderText::Text("v".into()))).collect();
    writer.append(&crowded).unwrap();
    // One header value too large for any request head.
    let mut huge = record("evt_huge", "invoice.paid", br#"{"id":"evt_huge"}"#, &[]);
    huge.headers.push(("x-huge".into(), HeaderText::Text("v".repeat(2 << 20))));
    writer.append(&huge).unwrap();
    writer.append(&record("evt_after", "invoice.paid", br#"{"id":"evt_after"}"#, &[])).unwrap();
    let (server, seen) = receiver();

    let (code, report, stderr) = replay(&path, &server.url("/hook"), &resign());
    assert_eq!(code, 1, "skipped lines are not delivered: {report:#}");
    assert!(!stderr.contains("internal error") && !stderr.contains("panicked"), "{stderr}");
    assert!(stderr.contains("skipped line 2") && stderr.contains("100000 headers"), "{stderr}");
    assert!(stderr.contains("skipped line 3") && stderr.contains("KiB"), "{stderr}");
    assert_eq!(report["delivered"], 2);
    assert_eq!(report["skipped_lines"].as_array().unwrap().len(), 2);
    let bodies: Vec<String> =
        seen.lock().unwrap().iter().map(|seen| String::from_utf8_lossy(&seen.body).into_owned()).collect();
    assert_eq!(bodies, [r#"{"id":"evt_before"}"#, r#"{"id":"evt_after"}"#]);

    // The same record named for `webhook journal FILE replay ID`: refused, not a panic.
    let output = webhook()
        .args(["journal", path.to_str().unwrap(), "replay", "evt_crowded", &server.url("/hook")])
        .args(resign())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("skipped line 2") && !stderr.contains("internal error"), "{stderr}");
}

/// A journal recorded by `webhook listen --scheme stripe`: two Stripe events, as the real sender
/// (`webhook send --event stripe:…`) signed them.
fn stripe_journal(dir: &Path) -> PathBuf {
    let path = dir.join("stripe.jsonl");
    let recorder = crate::support::Listener::with(SchemeKind::Stripe, |config| config.record = Some(path.clone()));
    for _ in 0..2 {
        Run::webhook(["send", &recorder.url("/hook"), "--event", "stripe:payment_intent.succeeded"])
            .args(["--secret", STANDARD_SECRET, "--max-attempts", "1"])
            .expect_exit(0)
            .finish();
    }
    assert_eq!(recorder.shutdown().valid, 2);
    path
}

#[test]
fn a_stripe_journal_replays_as_stripe_without_scheme_and_stripes_own_sdk_accepts_it() {
    let dir = tempfile::tempdir().unwrap();
    let journal = stripe_journal(dir.path());
    let mut receiver = crate::support::apps::StripeSdkReceiver::start(STANDARD_SECRET);

    let (code, report, stderr) = replay(&journal, &receiver.url("/stripe"), &["--secret", STANDARD_SECRET]);
    let parsed = [receiver.next_parsed(), receiver.next_parsed()];
    for event in &parsed {
        assert_eq!(event["error"], Value::Null, "stripe's construct_event refused the replay: {event}");
        assert_eq!(event["type"], "payment_intent.succeeded");
    }
    assert_eq!(code, 0, "{report:#}\n{stderr}");
    assert_eq!((report["scheme"].as_str(), report["scheme_from"].as_str()), (Some("stripe"), Some("journal")));
    let schemes: Vec<&Value> = report["deliveries"].as_array().unwrap().iter().map(|d| &d["scheme"]).collect();
    assert_eq!(schemes, ["stripe", "stripe"], "each delivery names its scheme");

    // The human output names the scheme on each line and in the summary.
    let finished = Run::webhook(["replay".as_ref(), journal.as_os_str(), receiver.url("/stripe").as_ref()])
        .args(["--secret", STANDARD_SECRET, "--id", parsed[0]["id"].as_str().unwrap()])
        .never_printing(STANDARD_SECRET)
        .expect_exit(0)
        .finish();
    assert_eq!(receiver.next_parsed()["error"], Value::Null);
    assert!(finished.stdout.contains("· stripe, as recorded"), "{}", finished.stdout);
    assert!(finished.stdout.contains("re-signed with stripe, the scheme recorded"), "{}", finished.stdout);
}

#[test]
fn an_explicit_scheme_overrides_the_one_the_journal_recorded() {
    let dir = tempfile::tempdir().unwrap();
    let file = journal(dir.path());
    let (server, seen) = receiver();
    let (code, report, _) =
        replay(&file, &server.url("/hook"), &["--scheme", "hmac", "--secret", STANDARD_SECRET, "--id", "evt_1"]);
    assert_eq!(code, 0, "{report:#}");
    assert_eq!((report["scheme"].as_str(), report["scheme_from"].as_str()), (Some("hmac"), Some("flag")));
    let seen = seen.lock().unwrap();
    assert!(seen[0].headers.contains_key("x-signature"), "signed as --scheme hmac");
    assert!(!seen[0].valid, "so the receiver's Standard Webhooks check refuses it");
    assert!(seen[0].headers.get("webhook-signature").is_none(), "the recorded signature is dropped");
}

#[test]
fn without_scheme_a_line_that_recorded_none_is_refused_with_the_fix_before_anything_is_sent() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("unverified.jsonl");
    let (writer, _) = JournalWriter::open(&path, false).unwrap();
    writer.append(&record("evt_ok", "invoice.paid", br#"{"id":"evt_ok"}"#, &[])).unwrap();
    for id in ["evt_none1", "evt_none2"] {
        let mut unverified = record(id, "invoice.paid", br#"{}"#, &[]);
        unverified.verdict = JournalVerdict { valid: true, scheme: None, reason: None, code: None };
        writer.append(&unverified).unwrap();
    }
    let events = dir.path().join("events.jsonl");
    std::fs::write(&events, "{\"id\":\"evt_a\",\"type\":\"a.created\"}\n").unwrap();
    let (server, seen) = receiver();
    for (file, expected) in [
        (&path, "line 2 of `"),
        (&path, "records no signing scheme (the listener verified it with none) (and 1 more of the selected entries)"),
        (&events, "line 1 of `"),
        (&events, "is an event, not a journal record, so no signing scheme was recorded for it"),
    ] {
        let finished = Run::webhook(["replay".as_ref(), file.as_os_str(), server.url("/").as_ref()])
            .args(["--secret", STANDARD_SECRET])
            .never_printing(STANDARD_SECRET)
            .expect_exit(2)
            .finish();
        assert!(finished.stderr.contains(expected), "{expected}: {}", finished.stderr);
        assert!(finished.stderr.contains("give --scheme S to re-sign with S"), "{}", finished.stderr);
        assert!(finished.stdout.is_empty());
    }
    assert_eq!(seen.lock().unwrap().len(), 0, "nothing is sent, not even the line that recorded a scheme");
    // Named, the scheme re-signs them all.
    let (code, report, _) = replay(&path, &server.url("/"), &resign());
    assert_eq!((code, report["delivered"].as_u64()), (0, Some(3)), "{report:#}");
}

#[test]
fn lines_recorded_under_different_schemes_are_each_re_signed_with_their_own() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("mixed.jsonl");
    let (writer, _) = JournalWriter::open(&path, false).unwrap();
    writer.append(&record("evt_std", "invoice.paid", br#"{"id":"evt_std"}"#, &[])).unwrap();
    let mut hmac = record("evt_hmac", "invoice.paid", br#"{"id":"evt_hmac"}"#, &[("x-signature", "sha256=00")]);
    hmac.verdict = JournalVerdict { valid: true, scheme: Some("hmac".into()), reason: None, code: None };
    writer.append(&hmac).unwrap();
    let (server, seen) = receiver();
    let (code, report, _) = replay(&path, &server.url("/"), &["--secret", STANDARD_SECRET]);
    assert_eq!(code, 0, "{report:#}");
    assert_eq!((&report["scheme"], report["scheme_from"].as_str()), (&Value::Null, Some("journal")));
    let schemes: Vec<&Value> = report["deliveries"].as_array().unwrap().iter().map(|d| &d["scheme"]).collect();
    assert_eq!(schemes, ["standard", "hmac"]);
    let seen = seen.lock().unwrap();
    assert!(seen[0].valid, "the standard line verifies as Standard Webhooks");
    let signature = seen[1].headers["x-signature"].to_str().unwrap();
    assert!(signature.starts_with("sha256=") && signature != "sha256=00", "the hmac line is signed afresh as hmac");
    assert!(seen[1].headers.get("webhook-signature").is_none());
    drop(seen);
    let human = Run::webhook(["replay".as_ref(), path.as_os_str(), server.url("/").as_ref()])
        .args(["--secret", STANDARD_SECRET])
        .expect_exit(0)
        .finish();
    for expected in ["· standard, as recorded", "· hmac, as recorded", "re-signed, each with the scheme it recorded"]
    {
        assert!(human.stdout.contains(expected), "{expected}: {}", human.stdout);
    }
}

#[test]
fn max_requests_stops_the_replay_before_the_entry_over_it() {
    let dir = tempfile::tempdir().unwrap();
    let file = journal(dir.path());
    let receiver = CountingServer::start(200);
    let finished = Run::webhook(["replay".as_ref(), file.as_os_str(), receiver.url("/hook").as_ref()])
        .args(resign())
        .args(["--max-requests", "2"])
        .finish();
    assert_eq!(finished.code, 2, "{}{}", finished.stdout, finished.stderr);
    assert_eq!(receiver.requests(), 2);
    assert!(finished.stdout.contains("line 2") && !finished.stdout.contains("replayed 3"), "{}", finished.stdout);
    assert!(
        finished.stderr.contains("the replay stopped at line 3 (2 of 3 entries replayed before it)")
            && finished.stderr.contains("--max-requests 2 reached")
            && finished.stderr.contains("the full run needs 3 to 15 requests"),
        "{}",
        finished.stderr
    );
}

/// A journal of retried deliveries: each record's event id, type, the status the listener
/// answered, and whether a forward was not delivered.
fn retried_journal(dir: &Path, records: &[(&str, &str, u16, bool)]) -> PathBuf {
    let path = dir.join("retried.jsonl");
    let (writer, _) = JournalWriter::open(&path, false).unwrap();
    for (attempt, (id, event_type, status, forward_lost)) in records.iter().enumerate() {
        let body = format!(r#"{{"id":"{id}","type":"{event_type}"}}"#);
        let mut record = record(id, event_type, body.as_bytes(), &[]);
        record.status = *status;
        record.attempt = attempt as u32 + 1;
        if *forward_lost {
            record.forward = Some(idem::testing::journal::JournalForward {
                url: "http://127.0.0.1:1/".into(),
                status: None,
                attempts: 1,
                error: Some("connection refused".into()),
                delivered: false,
                latency_ms: None,
                answer: None,
            });
        }
        writer.append(&record).unwrap();
    }
    path
}

fn replayed_lines(report: &Value) -> Vec<u64> {
    report["deliveries"].as_array().unwrap().iter().map(|d| d["line"].as_u64().unwrap()).collect()
}

#[test]
fn event_type_is_the_glob_journal_type_reads() {
    let dir = tempfile::tempdir().unwrap();
    let file = retried_journal(
        dir.path(),
        &[
            ("evt_1", "customer.subscription.updated", 200, false),
            ("evt_2", "invoice.paid", 200, false),
            ("evt_3", "customer.subscription.deleted", 200, false),
        ],
    );
    let (server, _) = receiver();
    let glob = [&resign()[..], &["--event-type", "customer.subscription.*"]].concat();
    let (code, report, stderr) = replay(&file, &server.url("/"), &glob);
    assert_eq!((code, replayed_lines(&report)), (0, vec![1, 3]), "{stderr}");
    let listed =
        Run::webhook(["journal".as_ref(), file.as_os_str(), "--type".as_ref(), "customer.subscription.*".as_ref()])
            .env("NO_COLOR", "1")
            .expect_exit(0)
            .finish()
            .stdout;
    assert!(listed.contains("2 of 3 deliveries shown"), "the journal reads the same glob: {listed}");
}

#[test]
fn failed_latest_per_event_replays_each_failed_event_once_as_its_latest_copy() {
    let dir = tempfile::tempdir().unwrap();
    let file = retried_journal(
        dir.path(),
        &[
            ("evt_a", "invoice.paid", 500, false),     // 1: failed, retried
            ("evt_a", "invoice.paid", 500, false),     // 2: failed again: its latest copy
            ("evt_b", "invoice.paid", 200, false),     // 3: delivered
            ("evt_c", "charge.succeeded", 503, false), // 4: failed, then
            ("evt_c", "charge.succeeded", 200, false), // 5: delivered on retry
            ("evt_d", "charge.refunded", 200, true),   // 6: acknowledged, its forward lost
        ],
    );
    let (server, _) = receiver();
    let run = |flags: &[&str]| {
        let (code, report, stderr) = replay(&file, &server.url("/"), &[&resign()[..], flags].concat());
        assert_eq!(code, 0, "{stderr}");
        replayed_lines(&report)
    };
    assert_eq!(run(&["--failed", "--latest-per-event"]), [2, 6]);
    assert_eq!(run(&["--failed"]), [1, 2, 6], "every copy of each event whose last delivery failed");
    assert_eq!(run(&["--latest-per-event"]), [2, 3, 5, 6]);

    let events = dir.path().join("events.jsonl");
    std::fs::write(&events, "{\"id\":\"evt_1\",\"type\":\"invoice.paid\"}\n").unwrap();
    let finished = Run::webhook(["replay".as_ref(), events.as_os_str(), server.url("/").as_ref()])
        .args(resign())
        .args(["--failed"])
        .expect_exit(2)
        .finish();
    assert!(finished.stderr.contains("--failed reads the answers a journal recorded"), "{}", finished.stderr);
}
