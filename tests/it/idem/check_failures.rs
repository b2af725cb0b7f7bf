//! The checks for what happens around a failure: `effect-then-failure` (the answer is lost or the
//! server fails after the work, and the retry with the key must not execute again) passes
//! against `idem serve --mode correct` and fails against the mode broken on purpose for it, over
//! HTTP/1.1 and h2c, with the count read from the server's own `GET /payments`; `cached-decline` (a
//! corrected retry with a new key after a 4xx must execute) passes against `--mode correct` and fails
//! against `--mode sticky-decline`.
use std::time::Duration;

use idem::testing::serve::{Mode, ServeConfig};

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
