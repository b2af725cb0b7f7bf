//! `webhook check` against a correct receiver and receivers that each get one thing wrong,
//! asserting the exact outcome of every check; JSON and JUnit parsed back.
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use idem::testing::scheme::SchemeKind;
use serde_json::Value;

use crate::support::run::Run;
use crate::support::webhook_receivers::{Flaws, receiver};
use crate::support::{
    CountingServer, CustomServer, Listener, Reply, SECRET, dead_port, suite_evidence, suite_outcomes, webhook,
};

fn check(url: &str, kind: &str, format: &str) -> (i32, String) {
    check_with(url, kind, format, &[])
}

fn check_with(url: &str, kind: &str, format: &str, extra: &[&str]) -> (i32, String) {
    let finished = Run::webhook(["check", url, "--scheme", kind, "--secret", SECRET, "--format", format])
        .args(extra)
        .never_printing(SECRET)
        .finish();
    (finished.code, finished.stdout)
}

/// Runs the suite with `--format json`: the exit code, every check's outcome by id, the report.
fn check_json(url: &str, kind: &str) -> (i32, HashMap<String, String>, Value) {
    let (code, report) = Run::webhook(["check", url, "--scheme", kind, "--secret", SECRET, "--format", "json"])
        .never_printing(SECRET)
        .code_and_json();
    (code, suite_outcomes(&report), report)
}

const IDS: [&str; 17] = [
    "valid-accepted",
    "fast-ack",
    "duplicate-accepted",
    "duplicate-processed-once",
    "concurrent-duplicates-processed-once",
    "raw-body-verified",
    "bad-signature-rejected",
    "missing-signature-rejected",
    "tampered-body-rejected",
    "any-listed-signature-accepted",
    "truncated-signature-rejected",
    "unknown-event-acknowledged",
    "out-of-order-accepted",
    "stale-timestamp-rejected",
    "future-timestamp-rejected",
    "replay-rejected",
    "cross-scheme-replay-rejected",
];

/// Every check passes except those listed.
fn expect(outcomes: &HashMap<String, String>, except: &[(&str, &str)]) {
    for id in IDS {
        // Without --count-url, de-duplication cannot be proven: skipped with the hint.
        let default = if id.ends_with("processed-once") { "skip" } else { "pass" };
        let expected = except.iter().find(|(name, _)| *name == id).map_or(default, |(_, outcome)| *outcome);
        assert_eq!(outcomes.get(id).map(String::as_str), Some(expected), "check {id}: {outcomes:?}");
    }
    // The handshake checks depend on the provider (see `handshakes`), certificate pinning on the
    // scheme (sns and paypal only: webhook/check_cert_pinning.rs).
    let others = outcomes.keys().filter(|id| !id.contains("handshake") && *id != "cert-url-pinned").count();
    assert_eq!(others, IDS.len(), "{outcomes:?}");
}

#[test]
fn a_correct_receiver_passes_every_check() {
    let server = receiver(SchemeKind::Standard, Flaws::default());
    let (code, outcomes, report) = check_json(&server.url("/hook"), "standard");
    // Standard Webhooks keys with the decoded secret, so no other scheme's signature can pass for it.
    expect(&outcomes, &[("cross-scheme-replay-rejected", "skip")]);
    assert_eq!(code, 0);
    assert!(suite_evidence(&report, "raw-body-verified").contains("→ 200 OK"));
    assert_eq!(report["suite"], "webhook check");
    assert_eq!(report["passed"], true);
    assert!(suite_evidence(&report, "stale-timestamp-rejected").contains("signed 10m ago → 401 Unauthorized"));
}

#[test]
fn stripe_future_timestamps_are_advisory_because_stripes_sdk_accepts_them() {
    // Our verifier accepts a future Stripe timestamp as stripe-python and stripe-node do.
    let server = receiver(SchemeKind::Stripe, Flaws::default());
    let (code, outcomes, report) = check_json(&server.url("/hook"), "stripe");
    expect(&outcomes, &[("future-timestamp-rejected", "warn")]);
    assert_eq!(code, 0, "an advisory warning does not fail the suite");
    let check = report["checks"].as_array().unwrap().iter().find(|c| c["id"] == "future-timestamp-rejected").unwrap();
    assert_eq!(check["level"], "advisory");
    let evidence = suite_evidence(&report, "future-timestamp-rejected");
    assert!(
        evidence.contains("200 OK") && evidence.contains("stripe's own SDK accepts future timestamps"),
        "{evidence}"
    );
}

#[test]
fn a_receiver_that_verifies_a_reserialised_body_fails_raw_body_verified_with_the_reason() {
    let server = receiver(SchemeKind::Github, Flaws { reserialises: true, ..Flaws::default() });
    let (code, outcomes, report) = check_json(&server.url("/hook"), "github");
    expect(
        &outcomes,
        &[
            ("raw-body-verified", "fail"),
            ("any-listed-signature-accepted", "skip"),
            ("stale-timestamp-rejected", "skip"),
            ("future-timestamp-rejected", "skip"),
            ("replay-rejected", "skip"),
            ("cross-scheme-replay-rejected", "skip"),
        ],
    );
    assert_eq!(code, 1);
    let evidence = suite_evidence(&report, "raw-body-verified");
    assert!(evidence.contains("401 Unauthorized"), "{evidence}");
    assert!(evidence.contains("the receiver verifies a re-serialised body, not the raw bytes"), "{evidence}");
}

#[test]
fn a_scheme_without_timestamps_skips_the_timestamp_checks_with_the_reason() {
    let server = receiver(SchemeKind::Hmac, Flaws::default());
    let (code, outcomes, report) = check_json(&server.url("/hook"), "hmac");
    expect(
        &outcomes,
        &[
            ("any-listed-signature-accepted", "skip"),
            ("stale-timestamp-rejected", "skip"),
            ("future-timestamp-rejected", "skip"),
            ("replay-rejected", "skip"),
            ("cross-scheme-replay-rejected", "skip"),
        ],
    );
    assert_eq!(code, 0);
    assert!(suite_evidence(&report, "replay-rejected").contains("--scheme hmac signs no timestamp"));
}

#[test]
fn a_receiver_that_accepts_any_signature_fails_every_rejection() {
    let server = receiver(SchemeKind::Stripe, Flaws { accepts_bad_signature: true, ..Flaws::default() });
    let (code, outcomes, report) = check_json(&server.url("/hook"), "stripe");
    expect(
        &outcomes,
        &[
            ("bad-signature-rejected", "fail"),
            ("missing-signature-rejected", "fail"),
            ("tampered-body-rejected", "fail"),
            ("truncated-signature-rejected", "fail"),
            ("stale-timestamp-rejected", "fail"),
            ("future-timestamp-rejected", "warn"),
            ("replay-rejected", "fail"),
            ("cross-scheme-replay-rejected", "fail"),
        ],
    );
    assert_eq!(code, 1);
    assert!(suite_evidence(&report, "missing-signature-rejected").contains("without Stripe-Signature → 200 OK"));
}

#[test]
fn a_receiver_that_ignores_timestamps_fails_the_age_checks() {
    let server = receiver(SchemeKind::Standard, Flaws { ignores_timestamps: true, ..Flaws::default() });
    let (code, outcomes, _) = check_json(&server.url("/hook"), "standard");
    expect(
        &outcomes,
        &[
            ("stale-timestamp-rejected", "fail"),
            ("future-timestamp-rejected", "fail"),
            ("replay-rejected", "fail"),
            ("cross-scheme-replay-rejected", "skip"),
        ],
    );
    assert_eq!(code, 1);
}

#[test]
fn a_receiver_that_answers_a_duplicate_with_500_fails_duplicate_accepted() {
    let server = receiver(SchemeKind::Slack, Flaws { duplicate_500: true, ..Flaws::default() });
    let (code, outcomes, report) = check_json(&server.url("/hook"), "slack");
    expect(&outcomes, &[("duplicate-accepted", "fail"), ("any-listed-signature-accepted", "skip")]);
    assert_eq!(code, 1);
    assert!(suite_evidence(&report, "duplicate-accepted").contains("500 Internal Server Error"));
}

#[test]
fn a_slow_receiver_gets_an_advisory_warning_and_still_passes() {
    let server = receiver(SchemeKind::Github, Flaws { slow_first: true, ..Flaws::default() });
    let (code, stdout) = check_with(&server.url("/hook"), "github", "json", &["--ack-within", "300ms"]);
    let report: Value = serde_json::from_str(&stdout).unwrap_or_else(|err| panic!("not JSON ({err}): {stdout}"));
    crate::support::schemas::validate(&report);
    let outcomes = suite_outcomes(&report);
    expect(
        &outcomes,
        &[
            ("fast-ack", "warn"),
            ("any-listed-signature-accepted", "skip"),
            ("stale-timestamp-rejected", "skip"),
            ("future-timestamp-rejected", "skip"),
            ("replay-rejected", "skip"),
            ("cross-scheme-replay-rejected", "skip"),
        ],
    );
    assert_eq!(code, 0, "advisory warnings do not fail the suite");
    let evidence = suite_evidence(&report, "fast-ack");
    assert!(evidence.contains("limit 300ms") && evidence.contains("Slack allows 3.00s, GitHub 10.00s"), "{evidence}");
}

#[test]
fn junit_and_human_output_carry_the_same_verdicts() {
    let server = receiver(SchemeKind::Stripe, Flaws { duplicate_500: true, ..Flaws::default() });
    let (code, xml) = check(&server.url("/hook"), "stripe", "junit");
    assert_eq!(code, 1);
    let document = roxmltree::Document::parse(&xml).unwrap_or_else(|err| panic!("not XML ({err}): {xml}"));
    let cases: Vec<roxmltree::Node> = document.descendants().filter(|n| n.has_tag_name("testcase")).collect();
    // Every check of the suite is a case, run or not: the two handshake checks and certificate
    // pinning are skipped cases for stripe.
    assert_eq!(cases.len(), IDS.len() + 3, "and the two handshake checks and cert-url-pinned");
    let failed: Vec<&str> = cases
        .iter()
        .filter(|case| case.children().any(|child| child.has_tag_name("failure")))
        .map(|case| case.attribute("name").unwrap())
        .collect();
    assert_eq!(failed.len(), 1);
    assert!(failed[0].starts_with("duplicate-accepted:"), "{failed:?}");

    let (code, human) = check(&server.url("/hook"), "stripe", "human");
    assert_eq!(code, 1);
    assert!(human.lines().any(|line| line.starts_with("FAIL") && line.contains("duplicate-accepted")), "{human}");
    assert!(human.lines().any(|line| line.starts_with("PASS") && line.contains("replay-rejected")), "{human}");
}

#[test]
fn an_unreachable_receiver_or_bad_usage_is_exit_2() {
    let url = format!("http://127.0.0.1:{}/hook", dead_port());
    let output = webhook().args(["check", &url, "--scheme", "hmac", "--secret", "hunter2-secret"]).assert().code(2);
    let stderr = String::from_utf8_lossy(&output.get_output().stderr).into_owned();
    assert!(stderr.contains("cannot reach the receiver") && stderr.contains("Connection refused"), "{stderr}");
    assert!(!stderr.contains("hunter2-secret"));
    let output = webhook().args(["check", &url, "--scheme", "hmac"]).assert().code(2);
    assert!(String::from_utf8_lossy(&output.get_output().stderr).contains("no signing secret"));
    let output = webhook().args(["check", &url, "--secret", "hunter2-secret"]).assert().code(2);
    let stderr = String::from_utf8_lossy(&output.get_output().stderr).into_owned();
    assert!(stderr.contains("name the receiver's signing scheme with --scheme"), "{stderr}");
}

#[test]
fn a_run_that_judges_nothing_is_exit_2_never_a_check_mark() {
    let server = receiver(SchemeKind::Standard, Flaws::default());
    let url = server.url("/hook");
    let suite = |extra: Vec<String>| {
        let url = url.clone();
        move |format: &str| {
            let mut command = webhook();
            command
                .args(["check", &url, "--scheme", "standard", "--secret", SECRET])
                .args(&extra)
                .args(["--format", format]);
            command
        }
    };
    let every: Vec<String> = crate::support::suite_ids({
        let mut list = webhook();
        list.arg("check");
        list
    })
    .into_iter()
    .flat_map(|id| ["--skip".to_string(), id])
    .collect();
    crate::support::assert_nothing_checked(suite(every), "--only and --skip leave no check to run");
    let both = ["--only", "fast-ack", "--skip", "fast-ack"].map(String::from).to_vec();
    crate::support::assert_nothing_checked(suite(both), "--only and --skip leave no check to run");
    // Without --count-url the duplicate's processing cannot be judged.
    let unjudged = ["--only", "duplicate-processed-once"].map(String::from).to_vec();
    crate::support::assert_nothing_checked(suite(unjudged), "1 skipped (duplicate-processed-once: a 2xx");
}

#[test]
fn a_receiver_count_that_leaps_is_unconfirmed_not_processed_many_times() {
    // A thousand per delivery: more than the two deliveries of one event could ever make.
    let deliveries = Arc::new(Mutex::new(0u64));
    let server = CustomServer::start(move |request| {
        let mut deliveries = deliveries.lock().unwrap();
        if request.method == "GET" {
            return Reply::json(200, format!(r#"{{"processed":{}}}"#, *deliveries * 1000));
        }
        *deliveries += 1;
        Reply::json(200, "{}")
    });
    let count = server.url("/count");
    let extra = ["--count-url", count.as_str(), "--count-pointer", "/processed"];
    let (_, stdout) = check_with(&server.url("/hook"), "standard", "json", &extra);
    let report: Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(suite_outcomes(&report)["duplicate-processed-once"], "unconfirmed", "{report:#}");
    let evidence = suite_evidence(&report, "duplicate-processed-once");
    assert!(evidence.contains("rose by 2000 (0 → 2000), more than the 2 requests sent"), "{evidence}");
}

/// `webhook check --scheme stripe URL --format json`: the exit code and the outcome of every check.
fn check_suite(url: &str) -> (i32, std::collections::HashMap<String, String>, String) {
    let finished = Run::webhook(["check", url, "--scheme", "stripe", "--secret", SECRET, "--format", "json"]).finish();
    (finished.code, finished.outcomes(), finished.evidence("cross-scheme-replay-rejected"))
}

#[test]
fn webhook_check_sends_the_cross_scheme_replay() {
    let listener = Listener::with(SchemeKind::Stripe, |_| {});
    let (code, outcomes, _) = check_suite(&listener.url("/"));
    assert_eq!(outcomes["cross-scheme-replay-rejected"], "pass");
    assert_eq!(code, 0);

    // A receiver that picks the scheme from whichever signature header arrives, as auto did.
    let naive = CustomServer::start(|request| {
        let options = idem::testing::scheme::SchemeOptions::default();
        let verified = idem::testing::scheme::detect(&request.headers, &options).is_some_and(|scheme| {
            let key = scheme.key(&crate::support::secret()).unwrap();
            let window = idem::testing::scheme::TimeWindow::around_now(std::time::Duration::from_secs(300));
            scheme.verify(&request.headers, &request.body, &key, window).is_ok()
        });
        Reply::json(if verified { 200 } else { 401 }, "{}")
    });
    let (code, outcomes, evidence) = check_suite(&naive.url("/"));
    assert_eq!(outcomes["cross-scheme-replay-rejected"], "fail", "{evidence}");
    assert!(evidence.contains("re-sent as a github one → 200"), "{evidence}");
    assert!(evidence.contains("re-sent as a shopify (unprefixed headers) one → 200"), "{evidence}");
    assert_eq!(code, 1);
}

#[test]
fn out_of_order_is_not_blamed_when_the_receiver_refuses_both_types_whatever_their_order() {
    let secret = "whsec_known_types";
    let run = |handled: &[&str]| {
        let app = crate::support::apps::PythonApp::start(
            "hmac_receiver_of_some_event_types.py",
            &[&[secret], handled].concat(),
        );
        Run::webhook(["check", &app.url("/hooks"), "--scheme", "hmac", "--secret", secret, "--event", "invoice.paid"])
            .format_json()
            .never_printing(secret)
            .finish()
    };
    // Neither invoice.updated nor invoice.created is handled: the order was never the reason.
    let finished = run(&["invoice.paid"]);
    let outcomes = finished.outcomes();
    assert_eq!(outcomes["valid-accepted"], "pass");
    assert_eq!(outcomes["unknown-event-acknowledged"], "warn", "it does refuse types it does not handle");
    assert_eq!(outcomes["out-of-order-accepted"], "skip", "{outcomes:?}");
    let evidence = finished.evidence("out-of-order-accepted");
    assert!(evidence.contains("could not judge ordering: both were refused"), "{evidence}");
    assert!(evidence.contains("invoice.created") && evidence.contains("400 Bad Request"), "{evidence}");
    assert!(evidence.contains("--event TYPE"), "the fix: {evidence}");
    assert_eq!(finished.code, 0, "advisory outcomes only");

    // The created is handled and the early update is not: that is the ordering mistake.
    let finished = run(&["invoice.paid", "invoice.created"]);
    assert_eq!(finished.outcomes()["out-of-order-accepted"], "warn");
    let evidence = finished.evidence("out-of-order-accepted");
    assert!(evidence.contains("invoice.updated") && !evidence.contains("could not judge"), "{evidence}");
}

#[test]
fn a_fast_refusal_is_not_a_fast_acknowledgement() {
    let app = crate::support::apps::PythonApp::start("gateway_answering_403.py", &[]);
    let finished = Run::webhook(["check", &app.url("/hooks"), "--scheme", "hmac", "--secret", SECRET])
        .format_json()
        .never_printing(SECRET)
        .finish();
    let outcomes = finished.outcomes();
    assert_eq!(outcomes["valid-accepted"], "fail");
    assert_eq!(outcomes["fast-ack"], "skip", "a 403 in microseconds acknowledged nothing: {outcomes:?}");
    let evidence = finished.evidence("fast-ack");
    assert!(evidence.contains("could not judge") && evidence.contains("403 Forbidden"), "{evidence}");
    assert!(evidence.contains("a refusal is not an acknowledgement"), "{evidence}");
    assert_eq!(finished.code, 1);
}

/// A receiver for `--scheme hmac` that acknowledges at once and processes afterwards (`later`:
/// a range of milliseconds), de-duplicating or not (`mode`: `dedupes`, `processes-duplicates`).
fn acknowledges_then_processes(mode: &str, later: &str) -> crate::support::apps::PythonApp {
    crate::support::apps::PythonApp::start("hmac_receiver_processing_after_ack.py", &[mode, later])
}

/// `webhook check` of the duplicate's processing, on the receiver's ledger.
fn processed_once(app: &crate::support::apps::PythonApp) -> crate::support::run::Finished {
    let count = app.url("/processed");
    Run::webhook(["check", &app.url("/hooks"), "--scheme", "hmac", "--secret", "whsec_ground_truth"])
        .args(["--count-url", &count, "--count-pointer", "/processed", "--format", "json"])
        .args(["--only", "duplicate-accepted", "--only", "duplicate-processed-once"])
        .finish()
}

#[test]
fn a_receiver_that_processes_after_acknowledging_is_judged_on_its_settled_count() {
    let correct = acknowledges_then_processes("dedupes", "100-150");
    let finished = processed_once(&correct);
    assert_eq!(finished.code, 0, "{}{}", finished.stdout, finished.stderr);
    assert_eq!(finished.outcomes()["duplicate-processed-once"], "pass");
    let evidence = finished.evidence("duplicate-processed-once");
    assert!(evidence.contains("the count went 0 → 1") && evidence.contains("(settled after "), "{evidence}");

    let twice = acknowledges_then_processes("processes-duplicates", "100-150");
    let finished = processed_once(&twice);
    assert_eq!(finished.code, 1, "{}{}", finished.stdout, finished.stderr);
    assert_eq!(finished.outcomes()["duplicate-processed-once"], "fail");
    assert!(finished.evidence("duplicate-processed-once").contains("processed 2 times"));

    // A worker slower than any fixed pause: the count is re-read until the delivery shows.
    let slow = acknowledges_then_processes("dedupes", "600-700");
    let finished = processed_once(&slow);
    assert_eq!(finished.code, 0, "{}{}", finished.stdout, finished.stderr);
    assert_eq!(finished.outcomes()["duplicate-processed-once"], "pass");
}

#[test]
fn max_requests_ends_the_suite_with_exit_2_before_the_request_over_it() {
    let receiver = CountingServer::start(200);
    let (code, report) = Run::webhook(["check", &receiver.url("/hook"), "--scheme", "standard", "--secret", SECRET])
        .args(["--max-requests", "4"])
        .format_json()
        .never_printing(SECRET)
        .code_and_json();
    assert_eq!(code, 2, "{report:#}");
    assert_eq!(receiver.requests(), 4, "{report:#}");
    let error = report["error"].as_str().unwrap();
    assert!(error.contains("--max-requests 4 reached: 4 requests were sent"), "{error}");
}

#[test]
fn a_slack_receiver_must_answer_url_verification_and_only_when_it_is_signed() {
    let careful = receiver(SchemeKind::Slack, Flaws::default());
    let (code, outcomes, report) = check_json(&careful.url("/slack/events"), "slack");
    handshakes(&outcomes, "pass", "pass");
    assert_eq!(code, 0, "{report:#}");
    assert!(suite_evidence(&report, "handshake-answered").contains("the challenge came back"), "{report:#}");

    let deaf = receiver(SchemeKind::Slack, Flaws { ignores_handshakes: true, ..Flaws::default() });
    let (code, outcomes, report) = check_json(&deaf.url("/slack/events"), "slack");
    handshakes(&outcomes, "fail", "skip");
    assert_eq!(code, 1);
    assert!(suite_evidence(&report, "handshake-answered").contains("expected the challenge"), "{report:#}");

    let credulous = receiver(SchemeKind::Slack, Flaws { accepts_bad_signature: true, ..Flaws::default() });
    let (_, outcomes, _) = check_json(&credulous.url("/slack/events"), "slack");
    handshakes(&outcomes, "pass", "fail");
}

#[test]
fn webhook_listen_passes_the_handshake_checks_of_slack_zoom_and_twitch() {
    for scheme in ["slack", "zoom", "twitch"] {
        let kind = SchemeKind::from_name(scheme).unwrap();
        let listener = crate::support::Listener::with(kind, |_| {});
        let (_, outcomes, report) = check_json(&listener.url("/hooks"), scheme);
        handshakes(&outcomes, "pass", "pass");
        assert!(!suite_evidence(&report, "handshake-answered").is_empty(), "{scheme}: {report:#}");
        listener.shutdown();
    }
    let listener = crate::support::Listener::with(SchemeKind::Github, |_| {});
    let (_, outcomes, report) = check_json(&listener.url("/hooks"), "github");
    handshakes(&outcomes, "skip", "skip");
    assert!(suite_evidence(&report, "handshake-answered").contains("has no endpoint handshake"), "{report:#}");
    listener.shutdown();
}

fn handshakes(outcomes: &HashMap<String, String>, answered: &str, forged: &str) {
    assert_eq!(
        (outcomes["handshake-answered"].as_str(), outcomes["forged-handshake-refused"].as_str()),
        (answered, forged),
        "{outcomes:?}"
    );
}

#[test]
fn webhook_listen_answers_discords_ping_and_refuses_its_invalid_signature_probe_with_401() {
    let (_, pair) = Run::webhook(["secret", "--scheme", "discord", "--format", "json"]).code_and_json();
    let (private, public) = (pair["secret"].as_str().unwrap(), pair["public"].as_str().unwrap());
    let listener = crate::support::Listener::start(idem::testing::listen::ListenConfig::local(
        SchemeKind::from_name("discord").unwrap(),
        idem::testing::scheme::Secret::new(public.as_bytes().to_vec()).unwrap(),
    ));
    let (_, report) = Run::webhook(["check", &listener.url("/interactions"), "--scheme", "discord"])
        .args(["--secret", private, "--format", "json"])
        .code_and_json();
    let outcomes = suite_outcomes(&report);
    handshakes(&outcomes, "pass", "pass");
    assert!(suite_evidence(&report, "handshake-answered").contains("PONG"), "{report:#}");
    assert!(suite_evidence(&report, "forged-handshake-refused").contains("401"), "{report:#}");
    listener.shutdown();
}

#[test]
fn github_probes_carry_delivery_ids_in_githubs_form() {
    let seen: Arc<Mutex<Vec<String>>> = Arc::default();
    let record = Arc::clone(&seen);
    let server = CustomServer::start(move |request| {
        if let Some(id) = request.headers.get("x-github-delivery") {
            record.lock().unwrap().push(id.to_str().unwrap_or("not text").to_string());
        }
        Reply::json(200, "{}")
    });
    let (_, stdout) = check_with(&server.url("/hook"), "github", "json", &["--event", "github:push"]);
    let seen = seen.lock().unwrap();
    assert!(seen.len() > 3, "{stdout}");
    for id in seen.iter() {
        assert!(uuid::Uuid::parse_str(id).is_ok(), "GitHub sends a UUID in X-GitHub-Delivery, not {id}");
    }
}
