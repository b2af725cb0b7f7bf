//! `webhook check`'s `concurrent-duplicates-processed-once`: identical copies of one delivery
//! released together, judged by the receiver's count. A receiver whose duplicates are caught one
//! at a time (`duplicate-processed-once` passes) can still process copies that arrive together.
use serde_json::Value;

use crate::support::apps::PythonApp;
use crate::support::run::Run;
use crate::support::{SECRET, suite_evidence, suite_outcomes};

const CONCURRENT: &str = "concurrent-duplicates-processed-once";

/// The receiver of `tests/apps/webhook_receiver_deduplicating_by_event_id.py` in `mode`.
fn receiver(mode: &str) -> PythonApp {
    PythonApp::start("webhook_receiver_deduplicating_by_event_id.py", &[mode, SECRET])
}

/// `webhook check --scheme hmac` at the receiver with its count (`extra` after): the exit code and
/// the JSON report, validated against its schema.
fn check_counted(app: &PythonApp, extra: &[&str]) -> (i32, Value) {
    let count = app.url("/count");
    Run::webhook(["check", &app.url("/hooks"), "--scheme", "hmac", "--secret", SECRET, "--format", "json"])
        .args(["--count-url", count.as_str(), "--count-pointer", "/count"])
        .args(extra)
        .never_printing(SECRET)
        .code_and_json()
}

#[test]
fn a_receiver_that_checks_then_inserts_passes_the_sequential_duplicate_and_fails_the_concurrent_one() {
    let app = receiver("check-then-insert");
    let (code, report) = check_counted(&app, &[]);
    let outcomes = suite_outcomes(&report);
    assert_eq!(outcomes["duplicate-processed-once"], "pass", "one at a time it de-duplicates: {outcomes:?}");
    assert_eq!(outcomes[CONCURRENT], "fail", "{report:#}");
    assert_eq!(code, 1);
    let evidence = suite_evidence(&report, CONCURRENT);
    assert!(evidence.contains("10 identical copies of delivery msg_"), "{evidence}");
    assert!(evidence.contains("released together (last-byte sync: 10 final bytes in 10 writes"), "{evidence}");
    assert!(evidence.contains("→ 10 × 200"), "{evidence}");
    assert!(evidence.contains("already seen?"), "{evidence}");
    let check = report["checks"].as_array().unwrap().iter().find(|check| check["id"] == CONCURRENT).unwrap();
    assert!(check["fix"].as_str().unwrap().contains("claim the delivery id atomically"), "{check:#}");
}

#[test]
fn an_atomic_receiver_and_one_that_answers_first_and_works_later_pass() {
    for mode in ["atomic", "ack-then-fulfil"] {
        let app = receiver(mode);
        let (code, report) = check_counted(&app, &["-n", "6"]);
        let outcomes = suite_outcomes(&report);
        assert_eq!(outcomes[CONCURRENT], "pass", "{mode}: {report:#}");
        assert_eq!(outcomes["duplicate-processed-once"], "pass", "{mode}: {outcomes:?}");
        assert_eq!(code, 0, "{mode}: {outcomes:?}");
        let evidence = suite_evidence(&report, CONCURRENT);
        assert!(evidence.contains("6 identical copies"), "{mode}: {evidence}");
        assert!(evidence.contains("processed once"), "{mode}: {evidence}");
    }
}

#[test]
fn a_copy_answered_5xx_when_processed_once_is_a_warning_with_its_own_fix() {
    let app = receiver("unique-insert-500");
    let (code, report) = check_counted(&app, &[]);
    let outcomes = suite_outcomes(&report);
    assert_eq!(outcomes[CONCURRENT], "warn", "{report:#}");
    assert_eq!(code, 0, "a warning does not fail the suite: {outcomes:?}");
    let evidence = suite_evidence(&report, CONCURRENT);
    assert!(evidence.contains("× 500") && evidence.contains("processed once, but"), "{evidence}");
    let check = report["checks"].as_array().unwrap().iter().find(|check| check["id"] == CONCURRENT).unwrap();
    assert!(check["fix"].as_str().unwrap().contains("answer 2xx"), "{check:#}");
}

#[test]
fn without_a_count_the_check_is_skipped_with_the_hint() {
    let app = receiver("check-then-insert");
    let (code, report) =
        Run::webhook(["check", &app.url("/hooks"), "--scheme", "hmac", "--secret", SECRET, "--format", "json"])
            .code_and_json();
    assert_eq!(suite_outcomes(&report)[CONCURRENT], "skip", "{report:#}");
    assert!(suite_evidence(&report, CONCURRENT).contains("give --count-url"), "{report:#}");
    assert_eq!(code, 0);
}

#[test]
fn max_requests_below_the_copies_sends_none_of_them_and_ends_with_exit_2() {
    let app = receiver("atomic");
    let (code, report) = check_counted(&app, &["--only", CONCURRENT, "-n", "10", "--max-requests", "5"]);
    assert_eq!(code, 2, "{report:#}");
    let error = report["error"].as_str().unwrap();
    // The suite's first delivery and its duplicate fit; the ten copies do not, and none leaves.
    assert!(
        error.contains("--max-requests 5 reached: 2 requests were sent, and the next step needs 10 more"),
        "{error}"
    );
    let count: Value = serde_json::from_str(&app.get("/count")).unwrap();
    assert!(count["count"].as_u64().unwrap() <= 1, "copies were processed although the budget refused them: {count}");
}
