//! `webhook send` and `webhook replay` against the real `webhook listen`: the sender's retries meet
//! the listener's misbehaviour flags, and a recorded journal replays byte for byte.
use idem::testing::journal::read_journal;
use idem::testing::scheme::SchemeKind;
use serde_json::Value;

use crate::support::run::Run;
use crate::support::{Listener, SECRET, webhook};

/// `webhook send URL --scheme standard … --format json`, the secret from the environment, with a
/// short backoff unless `extra` brings a schedule.
fn send(url: &str, extra: &[&str]) -> (i32, Value) {
    let backoff: &[&str] =
        if extra.contains(&"--schedule") { &[] } else { &["--backoff", "10ms", "--backoff-max", "20ms"] };
    Run::webhook(["send", url, "--scheme", "standard", "--event", "payment.succeeded", "--data", r#"{"amount":1990}"#])
        .env("WEBHOOK_SECRET", SECRET)
        .format_json()
        .args(backoff)
        .args(extra)
        .never_printing(SECRET)
        .code_and_json()
}

fn statuses(report: &Value, delivery: usize) -> Vec<u64> {
    let attempts = report["deliveries"][delivery]["attempts"].as_array().unwrap();
    attempts.iter().map(|attempt| attempt["status"].as_u64().unwrap()).collect()
}

#[test]
fn delivered_on_attempt_k_against_fail_first_k_minus_1() {
    for k in 1..=3u32 {
        let listener = Listener::with(SchemeKind::Standard, |config| config.fail_first = k - 1);
        let (code, report) = send(&listener.url("/hook"), &[]);
        assert_eq!(code, 0, "k = {k}: {report:#}");
        let mut expected = vec![500; k as usize - 1];
        expected.push(200);
        assert_eq!(statuses(&report, 0), expected, "k = {k}");
        let summary = listener.shutdown();
        assert_eq!((summary.valid, summary.failed_on_purpose), (u64::from(k), u64::from(k - 1)));
    }
}

#[test]
fn a_listener_that_always_fails_means_not_delivered_and_exit_1() {
    let listener =
        Listener::with(SchemeKind::Standard, |config| config.status = Some(http::StatusCode::SERVICE_UNAVAILABLE));
    let (code, report) = send(&listener.url("/hook"), &["--max-attempts", "3"]);
    assert_eq!(code, 1);
    assert_eq!(statuses(&report, 0), [503, 503, 503]);
    assert_eq!(report["outcome"], "not-delivered");
}

#[test]
fn a_410_from_the_listener_stops_the_retries() {
    let listener = Listener::with(SchemeKind::Standard, |config| config.status = Some(http::StatusCode::GONE));
    let (code, report) = send(&listener.url("/hook"), &[]);
    assert_eq!(code, 1);
    assert_eq!(statuses(&report, 0), [410]);
    assert_eq!(report["deliveries"][0]["outcome"], "gone");
}

#[test]
fn the_schedule_is_followed_through_the_retries_the_listener_forces() {
    let listener = Listener::with(SchemeKind::Standard, |config| config.fail_first = 2);
    let (code, report) = send(&listener.url("/hook"), &["--schedule", "0s,2s,4s", "--time-scale", "0.001"]);
    assert_eq!(code, 0);
    let planned: Vec<f64> = report["deliveries"][0]["attempts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|attempt| attempt["planned_wait_ms"].as_f64().unwrap())
        .collect();
    assert_eq!(planned, [0.0, 2.0, 4.0]);
}

#[test]
fn a_duplicate_delivery_is_recognised_by_the_listener() {
    let listener = Listener::with(SchemeKind::Standard, |_| {});
    let (code, report) = send(&listener.url("/hook"), &["--times", "3", "--concurrency", "3"]);
    assert_eq!(code, 0, "{report:#}");
    let summary = listener.shutdown();
    assert_eq!((summary.received, summary.valid, summary.duplicates), (3, 3, 2));
}

#[test]
fn a_recorded_journal_replays_byte_for_byte_resigned_or_verbatim() {
    let dir = tempfile::tempdir().unwrap();
    let first_journal = dir.path().join("first.jsonl");
    let recorder = Listener::with(SchemeKind::Standard, |config| config.record = Some(first_journal.clone()));
    // A JSON event and a body that is not UTF-8, which the journal keeps as base64.
    send(&recorder.url("/hook"), &[]);
    let binary = dir.path().join("binary.bin");
    std::fs::write(&binary, [0x00, 0xff, 0xfe, b'{', 0x80]).unwrap();
    let binary_arg = format!("@{}", binary.display());
    let output = webhook()
        .env("WEBHOOK_SECRET", SECRET)
        .args(["send", &recorder.url("/hook"), "--scheme", "standard", "-d", &binary_arg])
        .output()
        .unwrap();
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    recorder.shutdown();
    let (recorded, _) = read_journal(&first_journal).unwrap();
    crate::support::schemas::lines(&std::fs::read(&first_journal).unwrap());
    assert_eq!(recorded.len(), 2);

    for mode in ["--resign", "--verbatim"] {
        let replayed_journal = dir.path().join(format!("replayed{mode}.jsonl"));
        let target = Listener::with(SchemeKind::Standard, |config| config.record = Some(replayed_journal.clone()));
        let mut replay = webhook();
        replay.args(["replay", first_journal.to_str().unwrap(), &target.url("/hook"), "--scheme", "standard", mode]);
        if mode == "--resign" {
            replay.env("WEBHOOK_SECRET", SECRET);
        }
        let output = replay.output().unwrap();
        assert!(output.status.success(), "{mode}: {}", String::from_utf8_lossy(&output.stderr));
        let summary = target.shutdown();
        assert_eq!(summary.valid, 2, "{mode}: the replayed deliveries verify");
        let (replayed, _) = read_journal(&replayed_journal).unwrap();
        for (original, again) in recorded.iter().zip(&replayed) {
            assert_eq!(
                again.body.to_bytes().unwrap(),
                original.body.to_bytes().unwrap(),
                "{mode}: body bytes unchanged"
            );
            assert_eq!(again.event_id, original.event_id, "{mode}: same delivery id");
            let signature = |record: &idem::testing::journal::JournalRecord| {
                record.headers.iter().find(|(name, _)| name == "webhook-signature").map(|(_, value)| value.clone())
            };
            if mode == "--verbatim" {
                assert_eq!(signature(again), signature(original), "the original signature is sent as it was");
            }
        }
    }
}

#[test]
fn re_signing_skips_recorded_forgeries_unless_asked() {
    let dir = tempfile::tempdir().unwrap();
    let journal = dir.path().join("journal.jsonl");
    let recorder = Listener::with(SchemeKind::Standard, |config| config.record = Some(journal.clone()));
    send(&recorder.url("/hook"), &[]);
    let forged = webhook()
        .env("WEBHOOK_SECRET", "whsec_c29tZXRoaW5nIGVsc2UgZW50aXJlbHk=")
        .args(["send", &recorder.url("/hook"), "--scheme", "standard", "-d", "{}", "--max-attempts", "1"])
        .output()
        .unwrap();
    assert_eq!(forged.status.code(), Some(1), "the forgery is refused");
    recorder.shutdown();

    let target = Listener::with(SchemeKind::Standard, |_| {});
    let output = webhook()
        .env("WEBHOOK_SECRET", SECRET)
        .args(["replay", journal.to_str().unwrap(), &target.url("/hook"), "--scheme", "standard", "--format", "json"])
        .output()
        .unwrap();
    assert!(output.status.success());
    let report: Value = serde_json::from_slice(&output.stdout).unwrap();
    crate::support::schemas::validate(&report);
    assert_eq!((report["selected"].as_u64(), report["skipped_invalid"].as_u64()), (Some(1), Some(1)));
    assert!(
        String::from_utf8_lossy(&output.stderr).contains("skipped 1 deliveries recorded with an invalid signature")
    );

    let output = webhook()
        .env("WEBHOOK_SECRET", SECRET)
        .args(["replay", journal.to_str().unwrap(), &target.url("/hook"), "--scheme", "standard", "--include-invalid"])
        .output()
        .unwrap();
    assert!(output.status.success());
    assert_eq!(target.shutdown().valid, 3, "with --include-invalid the forgery is re-signed and accepted");
}

#[test]
fn a_listener_slower_than_the_timeout_is_retried_then_given_up() {
    let listener = Listener::with(SchemeKind::Standard, |config| config.delay = std::time::Duration::from_secs(1));
    let (code, report) = send(&listener.url("/hook"), &["--timeout", "100ms", "--max-attempts", "2"]);
    assert_eq!(code, 1, "{report:#}");
    let attempts = report["deliveries"][0]["attempts"].as_array().unwrap();
    assert_eq!(attempts.len(), 2);
    for attempt in attempts {
        assert_eq!(attempt["status"], Value::Null);
        let error = attempt["error"].as_str().unwrap();
        assert!(error.contains("100ms"), "the timeout is named: {error}");
    }
}
