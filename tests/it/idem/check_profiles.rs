//! `idem check --profile`: one endpoint judged against the contract it follows. A correct server
//! is green under every profile whose rules it keeps and red under one it does not: `idem serve`
//! (422 for a changed body, Idempotent-Replayed, 409 + Retry-After, keys ≤ 255) under the draft,
//! Stripe, ACP and strict, but not UCP (409 for a changed body) and not ACP without required keys;
//! an app keeping Worldline's contract (its own header, a changed body answered with the first
//! answer, a timestamp marker) green under `worldline` and red under the draft.
use std::time::Duration;

use idem::testing::serve::{Mode, ServeConfig};

use crate::support::apps::PythonApp;
use crate::support::run::Run;
use crate::support::{TestServer, suite_evidence, suite_outcomes};

const PAYMENT: &str = r#"{"amount":1990,"currency":"EUR"}"#;
/// The slow lock checks are judged elsewhere; these tests are about what the profile changes.
const SKIPPED: &[&str] = &["--skip", "lease-outlives-work", "--skip", "crash-recovers", "-n", "6"];

fn serve(require_key: bool) -> TestServer {
    TestServer::start(ServeConfig { work: Duration::from_millis(50), require_key, ..ServeConfig::local(Mode::Correct) })
}

fn check_under(url: &str, profile: &str, more: &[&str]) -> (i32, serde_json::Value) {
    Run::idem(["check", url, "-d", PAYMENT, "--format", "json", "--profile", profile])
        .args(SKIPPED)
        .args(more)
        .code_and_json()
}

#[test]
fn a_correct_server_is_green_under_the_contracts_it_keeps_and_red_under_ucp() {
    let server = serve(true);
    let count = server.url("/payments");
    let counted = ["--count-url", count.as_str(), "--count-pointer", "/count"];
    for profile in ["ietf", "stripe", "acp", "strict"] {
        let (code, report) = check_under(&server.url("/payments"), profile, &counted);
        assert_eq!(code, 0, "--profile {profile}: {report:#}");
        assert_eq!(report["profile"]["name"], profile, "{report:#}");
        assert_eq!(suite_outcomes(&report)["mismatch-rejected"], "pass", "{profile}: {report:#}");
    }
    let (code, report) = check_under(&server.url("/payments"), "ucp", &counted);
    assert_eq!(code, 1, "{report:#}");
    let outcomes = suite_outcomes(&report);
    assert_eq!(outcomes["mismatch-rejected"], "fail", "{report:#}");
    assert_eq!(outcomes["mismatch-is-422"], "skip", "{report:#}");
    let evidence = suite_evidence(&report, "mismatch-rejected");
    assert!(evidence.contains("422") && evidence.contains("asks for 409"), "{evidence}");
    let failed = report["checks"].as_array().unwrap().iter().find(|c| c["id"] == "mismatch-rejected").unwrap();
    assert!(failed["fix"].as_str().unwrap().contains("409 Conflict"), "{failed:#}");
    let rules = report["profile"]["rules"].as_array().unwrap();
    assert!(rules.iter().any(|rule| rule.as_str().unwrap().contains("refused with 409")), "{rules:?}");
}

#[test]
fn a_profile_that_requires_keys_fails_a_server_that_executes_without_one() {
    let server = serve(false);
    let (code, report) = check_under(&server.url("/payments"), "ietf", &[]);
    assert_eq!(code, 0, "{report:#}");
    assert_eq!(suite_outcomes(&report)["missing-key"], "pass", "keys optional: reported only: {report:#}");
    let (code, report) = check_under(&server.url("/payments"), "acp", &[]);
    assert_eq!(code, 1, "{report:#}");
    assert_eq!(suite_outcomes(&report)["missing-key"], "fail", "{report:#}");
    assert!(suite_evidence(&report, "missing-key").contains("no key → 201"), "{report:#}");
}

#[test]
fn a_worldline_style_api_is_green_under_worldline_and_red_under_the_draft() {
    let app = PythonApp::start("payments_following_worldline.py", &[]);
    let counted = ["--count-url", &app.url("/charges"), "--count-pointer", "/count"].map(String::from);
    let counted: Vec<&str> = counted.iter().map(String::as_str).collect();
    // The profile names the header: nothing else tells idem where the key goes.
    let (code, report) = check_under(&app.url("/payments"), "worldline", &counted);
    assert_eq!(code, 0, "{report:#}");
    let outcomes = suite_outcomes(&report);
    assert_eq!(outcomes["mismatch-rejected"], "pass", "{report:#}");
    assert_eq!(outcomes["replay-marked"], "pass", "{report:#}");
    assert!(suite_evidence(&report, "replay-marked").contains("X-GCS-Idempotence-Request-Timestamp"), "{report:#}");
    assert!(suite_evidence(&report, "key-syntax").contains("a 41-character key → 400"), "{report:#}");

    let mut under_the_draft = counted.clone();
    under_the_draft.extend(["--key-header", "X-GCS-Idempotence-Key"]);
    let (code, report) = check_under(&app.url("/payments"), "ietf", &under_the_draft);
    assert_eq!(code, 1, "{report:#}");
    assert_eq!(suite_outcomes(&report)["mismatch-rejected"], "fail", "{report:#}");

    let unmarked = PythonApp::start("payments_following_worldline.py", &["--marker-off"]);
    let (code, report) = check_under(&unmarked.url("/payments"), "worldline", &[]);
    assert_eq!(code, 1, "{report:#}");
    assert_eq!(suite_outcomes(&report)["replay-marked"], "fail", "{report:#}");
    let marked = report["checks"].as_array().unwrap().iter().find(|c| c["id"] == "replay-marked").unwrap();
    assert!(marked["fix"].as_str().unwrap().contains("X-GCS-Idempotence-Request-Timestamp"), "{marked:#}");
}

#[test]
fn list_under_a_profile_states_what_each_check_requires_there() {
    let (code, listed) = Run::idem(["check", "--list", "--profile", "adyen", "--format", "json"]).code_and_json();
    assert_eq!(code, 0, "{listed:#}");
    assert_eq!(listed["profile"]["name"], "adyen");
    let entry = |id: &str| listed["checks"].as_array().unwrap().iter().find(|c| c["id"] == id).unwrap().clone();
    assert!(entry("key-syntax")["requires"].as_str().unwrap().contains("65 characters"), "{listed:#}");
    assert_eq!(entry("key-syntax")["level"], "recommended");
    let (_, plain) = Run::idem(["check", "--list", "--format", "json"]).code_and_json();
    assert!(plain.get("profile").is_none() && plain["checks"][0].get("requires").is_none(), "{plain:#}");
    let (_, text, _) = Run::idem(["check", "--list", "--profile", "ucp"]).finish().parts();
    assert!(
        text.contains("under --profile ucp") && text.contains("ucp: a changed body with the key is refused with 409"),
        "{text}"
    );
}
