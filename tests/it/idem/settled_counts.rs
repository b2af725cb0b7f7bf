//! Counts that settle: work a server does after its answer (a layer that replays and then runs
//! the handler anyway, a charge queued behind a 201) is counted, because the count is re-read
//! until it holds still and once more at the end of the run. Small Python apps with their own
//! ledgers, through the real binaries.
use serde_json::Value;

use crate::support::apps::{PythonApp, app_path};
use crate::support::run::Run;

const ORDER: &str = r#"{"order_id":"A-7","amount":500}"#;

/// Replays a repeated key's stored answer (same body, same server id, `Idempotent-Replayed`),
/// then charges anyway `later_ms` afterwards. Its ledger is at GET /charges.
fn replays_then_charges_anyway(later_ms: &str) -> PythonApp {
    PythonApp::start("orders_replayed_then_charged_anyway.py", &[later_ms])
}

/// A correct layer whose charge is made by a worker `later_ms` after the 201.
fn charges_after_answering(later_ms: &str) -> PythonApp {
    PythonApp::start("orders_charged_after_answering.py", &[later_ms])
}

/// A correct layer that charges before it answers (and marks no replay).
fn correct_layer() -> PythonApp {
    PythonApp::start("orders_replayed_without_a_marker.py", &[])
}

/// How many charges the app's ledger holds.
fn ledger(app: &PythonApp) -> usize {
    let document: Value = serde_json::from_str(&app.get("/charges")).expect("the ledger");
    document.as_array().expect("a list").len()
}

fn send(app: &PythonApp, extra: &[&str]) -> Run {
    Run::idem(["send", &app.url("/orders"), "-d", ORDER, "--count-url", &app.url("/charges")]).args(extra)
}

fn count_evidence(judgement: &Value) -> &Value {
    let evidence = &judgement["evidence"][0];
    assert_eq!(evidence["kind"], "count", "{judgement:#}");
    evidence
}

#[test]
fn send_counts_the_charges_a_layer_makes_after_replaying() {
    let app = replays_then_charges_anyway("70");
    let report = send(&app, &["--repeat", "3"]).format_json().expect_exit(1).json();
    let judgement = &report["judgement"];
    assert_eq!(judgement["verdict"]["kind"], "executed_more_than_once", "{judgement:#}");
    let count = count_evidence(judgement);
    assert_eq!((count["before"].as_u64(), count["after"].as_u64()), (Some(0), Some(3)), "{count}");
    assert_eq!(count["executions"], 3);
    assert_eq!(ledger(&app), 3);
    // Every answer looked like a replay of the first: only the count shows the charges.
    let replayed: Vec<bool> = report["attempts"].as_array().unwrap().iter().map(|a| a["replayed"] == true).collect();
    assert_eq!(replayed, [false, true, true], "{report:#}");

    let finished = send(&replays_then_charges_anyway("70"), &["--repeat", "3"]).expect_exit(1).finish();
    // The text says it waited.
    assert!(
        finished.stdout.contains("✗ executed 3 times: the count rose by 3 for one key (0 → 3 at GET"),
        "{}",
        finished.stdout
    );
    assert!(finished.stdout.contains("/charges, settled after "), "{}", finished.stdout);

    // A correct layer, judged the same way, holds.
    let correct = correct_layer();
    let report = send(&correct, &["--repeat", "3"]).format_json().expect_exit(0).json();
    assert_eq!(report["judgement"]["verdict"]["kind"], "consistent");
    assert_eq!(count_evidence(&report["judgement"])["executions"], 1);
    assert_eq!(ledger(&correct), 1);
}

#[test]
fn the_closing_re_read_fails_the_step_for_charges_later_than_settling() {
    // Charged 1.5 s after each replay: two reads 500 ms apart agree long before that, and the
    // closing re-read comes four intervals (2 s) after they did.
    let app = replays_then_charges_anyway("1500");
    let report = send(&app, &["--repeat", "3", "--count-settle", "500ms"]).format_json().expect_exit(1).json();
    let judgement = &report["judgement"];
    assert_eq!(judgement["verdict"]["kind"], "executed_more_than_once", "{judgement:#}");
    let count = count_evidence(judgement);
    assert_eq!((count["before"].as_u64(), count["after"].as_u64()), (Some(0), Some(3)), "{count}");
    assert_eq!(count["late_executions"], 2, "{count}");
    assert_eq!(count["reads"].as_array().unwrap().last(), Some(&Value::from(3)), "the closing read: {count}");
    let notes = judgement["notes"].to_string();
    assert!(notes.contains("2 executions arrived after the count had settled at 1"), "{notes}");
    assert_eq!(ledger(&app), 3);
}

#[test]
fn check_fails_a_retry_that_is_replayed_and_then_executed() {
    let check = |app: &PythonApp| {
        Run::idem(["check", &app.url("/orders"), "-d", ORDER, "--count-url", &app.url("/charges")])
            .args(["--only", "retry-replays", "--format", "json"])
            .finish()
    };
    let app = replays_then_charges_anyway("70");
    let finished = check(&app);
    assert_eq!(finished.code, 1, "{}{}", finished.stdout, finished.stderr);
    assert_eq!(finished.outcomes()["retry-replays"], "fail", "{}", finished.stdout);
    let evidence = finished.evidence("retry-replays");
    assert!(evidence.contains("the retry executed again (the count rose by 1)"), "{evidence}");
    assert!(evidence.contains("was replayed, marked as a replay, and the work ran again behind it"), "{evidence}");
    assert!(evidence.contains("settled after"), "{evidence}");

    let finished = check(&correct_layer());
    assert_eq!(finished.code, 0, "{}{}", finished.stdout, finished.stderr);
    assert_eq!(finished.outcomes()["retry-replays"], "pass");
}

#[test]
fn proxy_counts_the_charge_after_a_replay_to_a_retrying_client() {
    // The client's first answer is lost; it retries with its key and gets the replay, and the
    // layer charges again behind it.
    let proxy = |app: &PythonApp| {
        let count = app.url("/charges");
        Run::idem(["proxy", "--upstream", &app.url(""), "--addr", "127.0.0.1:0", "--format", "json"])
            .args(["--fault", "lose-answer", "--first", "1", "--count-url", &count])
            .args(["--", "python3"])
            .args([app_path("payment_client_that_retries.py")])
            .env("CLIENT_WAIT", "0.1")
            .finish()
    };
    let summary_of = |stdout: &str| -> Value {
        crate::support::schemas::lines(stdout.as_bytes());
        let last: Value = serde_json::from_str(stdout.lines().last().unwrap_or_default()).expect("a summary line");
        last["summary"].clone()
    };
    let app = replays_then_charges_anyway("150");
    let finished = proxy(&app);
    assert_eq!(finished.code, 1, "{}{}", finished.stdout, finished.stderr);
    let summary = summary_of(&finished.stdout);
    let op = &summary["operations"][0];
    assert_eq!(op["executions"], 2, "{summary:#}");
    assert_eq!(summary["count"]["executions"], 2, "{summary:#}");
    assert_eq!(ledger(&app), 2);

    let correct = correct_layer();
    let finished = proxy(&correct);
    assert_eq!(finished.code, 0, "{}{}", finished.stdout, finished.stderr);
    let summary = summary_of(&finished.stdout);
    assert_eq!(summary["operations"][0]["executions"], 1, "{summary:#}");
    assert_eq!(ledger(&correct), 1);
}

#[test]
fn queued_work_is_judged_on_its_settled_count_and_never_on_an_unmoved_one() {
    // A key of the user's own: nothing says the count must rise, and the first read after the
    // answers still shows 0.
    let app = charges_after_answering("120");
    let key = format!("settle-{}", std::process::id());
    let report = send(&app, &["--repeat", "3", "--key", &key]).format_json().expect_exit(0).json();
    let count = count_evidence(&report["judgement"]);
    assert_eq!((count["before"].as_u64(), count["after"].as_u64()), (Some(0), Some(1)), "{count}");
    assert_eq!(count["executions"], 1);
    assert!(count["settled_after_ms"].as_u64().is_some(), "{count}");

    // Work queued longer than any fixed pause: a fresh key's count is re-read until it rises.
    let slow = charges_after_answering("700");
    let report = send(&slow, &["--repeat", "2"]).format_json().expect_exit(0).json();
    assert_eq!(count_evidence(&report["judgement"])["executions"], 1, "{report:#}");
    let finished = Run::idem(["race", &slow.url("/orders"), "-d", ORDER, "-n", "4"])
        .args(["--count-url", &slow.url("/charges")])
        .expect_exit(0)
        .finish();
    assert!(finished.stdout.contains("the count went 1 → 2 (1 execution)"), "{}", finished.stdout);

    // A count that never moves (another instance's ledger) is re-read to the bound, then unconfirmed.
    let elsewhere = charges_after_answering("120");
    let finished = Run::idem(["send", &app.url("/orders"), "-d", ORDER, "--repeat", "2"])
        .args(["--count-url", &elsewhere.url("/charges"), "--count-settle-max", "1s"])
        .finish();
    assert_eq!(finished.code, 2, "{}{}", finished.stdout, finished.stderr);
    assert!(!finished.stdout.contains('✓'), "{}", finished.stdout);
    assert!(finished.stderr.contains("did not move (0 → 0)"), "{}", finished.stderr);
    assert!(finished.stderr.contains("It was re-read for "), "{}", finished.stderr);
}
