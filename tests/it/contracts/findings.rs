//! Every check that did not hold states its finding: in every suite's `--format json`, a check
//! whose outcome is `fail`, `warn` or `unconfirmed` has a `finding` (one line, what was seen, not
//! the check's why), and a check that passed or was skipped has none. Run against targets that
//! break many checks at once, so a check that forgot to state one fails here.
use idem::testing::scheme::SchemeKind;
use idem::testing::serve::{Mode, ServeConfig};
use serde_json::Value;

use crate::support::apps::app_path;
use crate::support::run::Run;
use crate::support::webhook_receivers::{Flaws, receiver};
use crate::support::{CustomServer, Reply, SECRET, TestServer};

const PAYMENT: &str = r#"{"amount":1000,"currency":"eur"}"#;

/// Asserts the rule on every check of `report`; returns how many stated a finding.
fn every_check_that_did_not_hold_states_its_finding(report: &Value) -> usize {
    let mut stated = 0;
    for check in report["checks"].as_array().unwrap() {
        let (id, outcome) = (check["id"].as_str().unwrap(), check["outcome"].as_str().unwrap());
        let finding = check.get("finding").and_then(Value::as_str);
        match outcome {
            "fail" | "warn" | "unconfirmed" | "xfail" => {
                let finding = finding.unwrap_or_else(|| panic!("{id} ({outcome}) states no finding: {check:#}"));
                assert!(!finding.trim().is_empty() && !finding.contains('\n'), "{id}: one line: {finding:?}");
                assert_ne!(finding, check["why"].as_str().unwrap(), "{id}: the finding is not the why");
                stated += 1;
            }
            _ => assert_eq!(finding, None, "{id} ({outcome}) has nothing to find: {check:#}"),
        }
    }
    stated
}

#[test]
fn idem_check_states_a_finding_for_every_check_a_broken_server_fails() {
    for mode in [Mode::None, Mode::DropsHeaders, Mode::Unscoped] {
        let server = TestServer::start(ServeConfig { any_path: true, ..ServeConfig::local(mode) });
        let url = server.url("/payments");
        let (_, report) = Run::idem(["check", &url, "-d", PAYMENT, "-n", "4", "--window-max", "50ms"])
            .args(["--as", "Authorization: Bearer other", "--other-url", &server.url("/refunds")])
            .format_json()
            .code_and_json();
        let stated = every_check_that_did_not_hold_states_its_finding(&report);
        assert!(stated > 0, "{mode:?} fails something: {report:#}");
    }
}

#[test]
fn idem_check_states_why_a_check_could_not_be_judged() {
    // A 2xx without a resource id: `create` cannot tell what it created (unconfirmed, exit 2).
    let server = CustomServer::start(|_| Reply::json(201, r#"{"status":"ok"}"#));
    let report = Run::idem(["check", &server.url("/payments"), "-d", PAYMENT]).format_json().expect_exit(2).json();
    let create = &report["checks"][0];
    assert_eq!((&create["id"], &create["outcome"]), (&Value::from("create"), &Value::from("unconfirmed")));
    assert!(
        create["finding"].as_str().unwrap().starts_with("answered 201 Created without a resource id"),
        "{create:#}"
    );
    every_check_that_did_not_hold_states_its_finding(&report);
}

#[test]
fn webhook_check_states_a_finding_for_every_check_a_careless_receiver_fails() {
    let flawed = [
        (SchemeKind::Stripe, Flaws { accepts_bad_signature: true, ..Flaws::default() }),
        (SchemeKind::Standard, Flaws { ignores_timestamps: true, duplicate_500: true, ..Flaws::default() }),
        (SchemeKind::Github, Flaws { reserialises: true, slow_first: true, ..Flaws::default() }),
        (SchemeKind::Slack, Flaws { ignores_handshakes: true, ..Flaws::default() }),
    ];
    for (kind, flaws) in flawed {
        let server = receiver(kind, flaws);
        let scheme = kind.to_string();
        let (_, report) = Run::webhook(["check", &server.url("/hook"), "--scheme", &scheme, "--secret", SECRET])
            .args(["--ack-within", "300ms"])
            .format_json()
            .never_printing(SECRET)
            .code_and_json();
        let stated = every_check_that_did_not_hold_states_its_finding(&report);
        assert!(stated > 0, "{flaws:?} fails something: {report:#}");
    }
}

#[test]
fn webhook_check_sender_states_a_finding_for_every_check_a_flawed_sender_fails() {
    let sender = app_path("standard_webhooks_sender_with_a_flaw.py").display().to_string();
    for flaw in ["new-id", "immediate", "never-retry"] {
        let (_, report) = Run::webhook(["check-sender", "--addr", "127.0.0.1:0", "--format", "json"])
            .env("WEBHOOK_SECRET", SECRET)
            .args(["--scheme", "standard", "--script", "500,hold,429:1,200;410;200", "--timeout", "3s", "--"])
            .args(["python3", &sender, flaw])
            .never_printing(SECRET)
            .code_and_json();
        let stated = every_check_that_did_not_hold_states_its_finding(&report);
        assert!(stated > 0, "{flaw} fails something: {report:#}");
    }
}
