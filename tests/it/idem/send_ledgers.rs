//! Several ledgers (`--count-url NAME=URL`, repeated): a retry that does not charge twice can
//! still send a second email, and only a second ledger shows it. Every ledger is judged; any one
//! showing a second execution fails the run.
use serde_json::Value;

use crate::support::apps::PythonApp;
use crate::support::run::Run;

const ORDER: &str = r#"{"amount":500}"#;

/// Charges once per key; emails on every request (`--email-once`: only with the charge).
fn orders_app(args: &[&str]) -> PythonApp {
    PythonApp::start("orders_emailing_on_every_retry.py", args)
}

/// `idem send --repeat 3` with the charges ledger, and the emails one when `emails`.
fn send(app: &PythonApp, emails: bool) -> Run {
    let charges = format!("charges={}", app.url("/charges"));
    let mut run = Run::idem(["send", &app.url("/orders"), "-d", ORDER, "--repeat", "3"]).args([
        "--count-url",
        &charges,
        "--count-pointer",
        "charges=/count",
    ]);
    if emails {
        let emails = format!("emails={}", app.url("/emails"));
        run = run.args(["--count-url", &emails, "--count-pointer", "emails=/sent"]);
    }
    run
}

fn count_evidence(report: &Value) -> &Value {
    let evidence = &report["judgement"]["evidence"][0];
    assert_eq!(evidence["kind"], "count", "{report:#}");
    evidence
}

#[test]
fn an_email_sent_on_every_retry_fails_on_the_emails_ledger() {
    let app = orders_app(&[]);
    let human = send(&app, true).expect_exit(1).finish();
    assert!(human.stdout.contains("charges 0 → 1 (1 execution), emails 0 → 3 (3 executions)"), "{}", human.stdout);
    assert!(human.stdout.contains("(ledger emails)"), "the verdict names the ledger: {}", human.stdout);

    let report = send(&orders_app(&[]), true).format_json().expect_exit(1).json();
    assert_eq!(report["judgement"]["verdict"]["kind"], "executed_more_than_once", "{report:#}");
    let count = count_evidence(&report);
    assert_eq!((count["ledger"].as_str(), count["executions"].as_u64()), (Some("emails"), Some(3)), "{count}");
    let ledgers: Vec<(&str, u64)> = count["ledgers"]
        .as_array()
        .expect("every ledger")
        .iter()
        .map(|ledger| (ledger["ledger"].as_str().unwrap(), ledger["executions"].as_u64().unwrap()))
        .collect();
    assert_eq!(ledgers, [("charges", 1), ("emails", 3)], "{count}");
}

#[test]
fn the_charges_ledger_alone_sees_no_second_execution() {
    let report = send(&orders_app(&[]), false).format_json().expect_exit(0).json();
    let count = count_evidence(&report);
    assert_eq!((count["ledger"].as_str(), count["executions"].as_u64()), (Some("charges"), Some(1)), "{count}");
    assert!(count.get("ledgers").is_none(), "one ledger has no list: {count}");
}

#[test]
fn a_server_that_emails_once_passes_on_both_ledgers() {
    let human = send(&orders_app(&["--email-once"]), true).expect_exit(0).finish();
    assert!(human.stdout.contains("charges 0 → 1 (1 execution), emails 0 → 1 (1 execution)"), "{}", human.stdout);
}

#[test]
fn ledgers_given_unclearly_are_refused_before_anything_is_sent() {
    let app = orders_app(&[]);
    let charges = format!("charges={}", app.url("/charges"));
    let refused = |extra: &[&str], says: &str| {
        let finished = Run::idem(["send", &app.url("/orders"), "-d", ORDER, "--count-url", &charges])
            .args(extra)
            .expect_exit(2)
            .finish();
        assert!(finished.stderr.contains(says), "{extra:?}: {}", finished.stderr);
    };
    refused(&["--count-url", &app.url("/emails")], "has no name, and several ledgers are given");
    refused(&["--count-url", &charges], "names the ledger charges twice");
    refused(&["--count-pointer", "emails=/sent"], "--count-pointer names the ledger emails, which no --count-url");
    refused(&["--count-header", "email=X-Token: a"], "--count-header names the ledger email");
    assert_eq!(app.get("/charges"), r#"{"count": 0}"#, "nothing was sent");
}
