//! The checks for what happens around a failure: `effect-then-failure` (the answer is lost or the
//! server fails after the work, and the retry with the key must not execute again) passes
//! against `idem serve --mode correct` and fails against the mode broken on purpose for it, over
//! HTTP/1.1 and h2c, with the count read from the server's own `GET /payments`; `cached-decline` (a
//! corrected retry with a new key after a 4xx must execute) passes against `--mode correct` and fails
//! against `--mode sticky-decline`; `expired-key-taken-once` (once a key's record has expired,
//! duplicates raced with the key execute once) passes against `--mode correct` on the memory and
//! SQLite stores and fails against `--mode orphan-takeover`. `effect-then-failure` also catches a
//! Python app whose idempotency decorator deletes its record in an `except` block.
use std::time::Duration;

use idem::testing::serve::{Mode, ServeConfig, StoreLocation};

use crate::support::apps::PythonApp;
use crate::support::run::Run;
use crate::support::{TestServer, suite_evidence, suite_outcomes};

const PAYMENT: &str = r#"{"amount":1990,"currency":"RUB","order_id":42}"#;
const HTTP1: &[&str] = &[];
const H2C: &[&str] = &["--http2"];

fn served(mode: Mode) -> TestServer {
    TestServer::start(ServeConfig { work: Duration::from_millis(50), ..ServeConfig::local(mode) })
}

#[test]
fn effect_then_failure_passes_on_correct_and_fails_on_delete_on_error() {
    for (mode, wire) in
        [(Mode::Correct, HTTP1), (Mode::DeleteOnError, H2C), (Mode::Correct, H2C), (Mode::DeleteOnError, HTTP1)]
    {
        let server = served(mode);
        let count = server.url("/payments");
        let (_, report) = Run::idem(["check", &server.url("/payments"), "-d", PAYMENT, "--format", "json"])
            .args(["--only", "effect-then-failure", "--count-url", &count, "--count-pointer", "/count"])
            .args(wire)
            .code_and_json();
        let outcome = &suite_outcomes(&report)["effect-then-failure"];
        let evidence = suite_evidence(&report, "effect-then-failure");
        assert!(evidence.contains("the connection was cut before the answer"), "{evidence}");
        if mode == Mode::Correct {
            assert_eq!(outcome, "pass", "{mode:?} {wire:?}: {report:#}");
            assert!(evidence.contains("(the same resource)"), "{evidence}");
        } else {
            assert_eq!(outcome, "fail", "{mode:?} {wire:?}: {report:#}");
            assert!(evidence.contains("the retries executed again"), "{evidence}");
            assert!(evidence.contains("× 500"), "{evidence}");
        }
    }
}

#[test]
fn effect_then_failure_without_a_count_is_skipped_with_the_hint() {
    let server = served(Mode::Correct);
    let (_, report) = Run::idem(["check", &server.url("/payments"), "-d", PAYMENT, "--format", "json"])
        .args(["--only", "effect-then-failure"])
        .code_and_json();
    assert_eq!(suite_outcomes(&report)["effect-then-failure"], "skip", "{report:#}");
    assert!(suite_evidence(&report, "effect-then-failure").contains("give --count-url"), "{report:#}");
}

#[test]
fn cached_decline_passes_on_correct_and_fails_on_sticky_decline() {
    for (mode, wire) in [(Mode::Correct, HTTP1), (Mode::StickyDecline, H2C), (Mode::StickyDecline, HTTP1)] {
        let server = served(mode);
        let (_, report) = Run::idem(["check", &server.url("/payments"), "-d", PAYMENT, "--format", "json"])
            .args(["--only", "cached-decline"])
            .args(wire)
            .code_and_json();
        let outcome = &suite_outcomes(&report)["cached-decline"];
        let evidence = suite_evidence(&report, "cached-decline");
        assert!(evidence.contains("`amount` 1990 → -1990 → 400 Bad Request (declined)"), "{evidence}");
        if mode == Mode::Correct {
            assert_eq!(outcome, "pass", "{mode:?} {wire:?}: {report:#}");
            assert!(evidence.contains("→ 201 Created pay_"), "{evidence}");
        } else {
            assert_eq!(outcome, "fail", "{mode:?} {wire:?}: {report:#}");
            assert!(evidence.contains("the decline was answered again to a new key"), "{evidence}");
        }
    }
}

/// A server whose key records expire after a second: short enough for a test to wait out.
fn expiring(mode: Mode, store: StoreLocation) -> TestServer {
    TestServer::start(ServeConfig {
        work: Duration::from_millis(50),
        ttl: Duration::from_secs(1),
        store,
        ..ServeConfig::local(mode)
    })
}

/// `idem check --only expired-key-taken-once --retention 1s` with the server's own count: the
/// exit code and the JSON report.
fn race_the_expired_key(server: &TestServer, wire: &[&str]) -> (i32, serde_json::Value) {
    let count = server.url("/payments");
    Run::idem(["check", &server.url("/payments"), "-d", PAYMENT, "-n", "10", "--format", "json"])
        .args(["--only", "expired-key-taken-once", "--retention", "1s"])
        .args(["--count-url", &count, "--count-pointer", "/count"])
        .args(wire)
        .code_and_json()
}

#[test]
fn expired_key_taken_once_passes_on_correct_and_fails_on_orphan_takeover() {
    let dir = tempfile::tempdir().unwrap();
    let sqlite: StoreLocation = format!("sqlite:{}", dir.path().join("idem.db").display()).parse().unwrap();
    for (mode, store, wire) in [
        (Mode::Correct, StoreLocation::Memory, HTTP1),
        (Mode::OrphanTakeover, StoreLocation::Memory, HTTP1),
        (Mode::Correct, sqlite, H2C),
        (Mode::OrphanTakeover, StoreLocation::Memory, H2C),
    ] {
        let server = expiring(mode, store.clone());
        let (code, report) = race_the_expired_key(&server, wire);
        let outcome = &suite_outcomes(&report)["expired-key-taken-once"];
        let evidence = suite_evidence(&report, "expired-key-taken-once");
        assert!(evidence.contains("waited 2.00s (--retention 1.00s plus a 1.00s margin)"), "{evidence}");
        if mode == Mode::Correct {
            assert_eq!((code, outcome.as_str()), (0, "pass"), "{mode:?} {store} {wire:?}: {report:#}");
            assert!(evidence.contains("(1 execution)"), "{evidence}");
        } else {
            assert_eq!((code, outcome.as_str()), (1, "fail"), "{mode:?} {store} {wire:?}: {report:#}");
            assert!(evidence.contains("the duplicates each took the expired record over"), "{evidence}");
        }
    }
}

#[test]
fn orphan_takeover_fails_only_the_expired_key_race_in_the_human_report() {
    let server = expiring(Mode::OrphanTakeover, StoreLocation::Memory);
    let count = server.url("/payments");
    let (code, stdout, _) = Run::idem(["check", &server.url("/payments"), "-d", PAYMENT, "-n", "10"])
        .args(["--only", "concurrent-once", "--only", "expired-key-taken-once", "--retention", "1s"])
        .args(["--count-url", &count, "--count-pointer", "/count", "--color", "never"])
        .finish()
        .parts();
    assert_eq!(code, 1, "{stdout}");
    assert!(stdout.contains("PASS  concurrent-once"), "a fresh key is still claimed atomically: {stdout}");
    assert!(stdout.contains("FAIL  expired-key-taken-once"), "{stdout}");
    assert!(stdout.contains("never delete-then-insert"), "the fix line: {stdout}");
}

#[test]
fn expired_key_taken_once_without_a_retention_or_a_count_is_skipped_with_the_hint() {
    let server = served(Mode::OrphanTakeover);
    let count = server.url("/payments");
    let (_, report) = Run::idem(["check", &server.url("/payments"), "-d", PAYMENT, "--format", "json"])
        .args(["--only", "expired-key-taken-once", "--count-url", &count, "--count-pointer", "/count"])
        .code_and_json();
    assert_eq!(suite_outcomes(&report)["expired-key-taken-once"], "skip", "{report:#}");
    assert!(suite_evidence(&report, "expired-key-taken-once").contains("give --retention DUR"), "{report:#}");
    let (_, report) = Run::idem(["check", &server.url("/payments"), "-d", PAYMENT, "--format", "json"])
        .args(["--only", "expired-key-taken-once", "--retention", "1s"])
        .code_and_json();
    assert_eq!(suite_outcomes(&report)["expired-key-taken-once"], "skip", "{report:#}");
    assert!(suite_evidence(&report, "expired-key-taken-once").contains("give --count-url"), "{report:#}");
}

/// An app whose Powertools-style idempotency decorator deletes the key record when the function
/// raises after it charged (the notification after the charge fails): every retry charges again.
/// With `--idempotent-charge-only` the record of the committed charge is kept and the retry is
/// its replay.
#[test]
fn effect_then_failure_catches_a_decorator_that_deletes_the_key_record_on_error() {
    for fixed in [false, true] {
        let flags: &[&str] = if fixed { &["--idempotent-charge-only"] } else { &[] };
        let app = PythonApp::start("orders_deleting_the_key_record_on_error.py", flags);
        let (code, report) = Run::idem(["check", &app.url("/orders"), "-d", PAYMENT, "--format", "json"])
            .args(["--only", "effect-then-failure", "--count-url", &app.url("/charges"), "--count-pointer", "/count"])
            .code_and_json();
        let outcome = &suite_outcomes(&report)["effect-then-failure"];
        let evidence = suite_evidence(&report, "effect-then-failure");
        if fixed {
            assert_eq!((code, outcome.as_str()), (0, "pass"), "{report:#}");
            assert!(evidence.contains("(the same resource)"), "{evidence}");
        } else {
            assert_eq!((code, outcome.as_str()), (1, "fail"), "{report:#}");
            assert!(evidence.contains("the retries executed again"), "{evidence}");
            assert!(evidence.contains("× 500"), "{evidence}");
        }
    }
}
