//! `idem check` against the reference server's three modes and against servers that each get one
//! thing wrong, asserting the exact outcome of every check; JSON and JUnit parsed back.
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use idem::testing::serve::{Mode, ServeConfig};
use serde_json::Value;

use crate::support::run::Run;
use crate::support::{CountingServer, CustomServer, Reply, TestServer, idem, suite_evidence, suite_outcomes};

const PAYMENT: &str = r#"{"amount":1990,"currency":"RUB","order_id":42}"#;

/// Runs `idem check --format json` and returns the exit code and the outcome of every check by id.
fn check(url: &str, extra: &[&str]) -> (i32, HashMap<String, String>, Value) {
    let (code, report) = Run::idem(["check", url, "-d", PAYMENT, "--format", "json"]).args(extra).code_and_json();
    (code, suite_outcomes(&report), report)
}

/// The checks for what real idempotency layers get wrong, judged mode by mode in
/// check_layers.rs and check_failures.rs; here they only have to be present when a list leaves them out.
const LAYER_CHECKS: [&str; 11] = [
    "caller-scoped",
    "path-scoped",
    "replay-faithful",
    "equal-json-replays",
    "key-syntax",
    "lease-outlives-work",
    "mismatch-in-flight",
    "crash-recovers",
    "effect-then-failure",
    "expired-key-taken-once",
    "cached-decline",
];

fn expect(outcomes: &HashMap<String, String>, expected: &[(&str, &str)]) {
    for (id, outcome) in expected {
        assert_eq!(outcomes.get(*id).map(String::as_str), Some(*outcome), "check {id}: {outcomes:?}");
    }
    for id in LAYER_CHECKS {
        assert!(outcomes.contains_key(id), "check {id} missing: {outcomes:?}");
    }
    // race-window is a case of every run; measured (and listed in `expected`) only when
    // concurrent-once failed.
    if !expected.iter().any(|(id, _)| *id == "race-window") {
        assert_eq!(outcomes.get("race-window").map(String::as_str), Some("skip"), "{outcomes:?}");
    }
    let unlisted = outcomes.keys().filter(|id| {
        !expected.iter().any(|(e, _)| e == id) && !LAYER_CHECKS.contains(&id.as_str()) && *id != "race-window"
    });
    assert_eq!(unlisted.count(), 0, "{outcomes:?}");
}

#[test]
fn the_correct_reference_server_passes_everything() {
    let server = TestServer::start(ServeConfig::local(Mode::Correct));
    let (code, outcomes, _) = check(&server.url("/payments"), &[]);
    expect(
        &outcomes,
        &[
            ("create", "pass"),
            ("retry-replays", "pass"),
            ("replay-marked", "pass"),
            ("mismatch-rejected", "pass"),
            ("mismatch-is-422", "pass"),
            ("concurrent-once", "pass"),
            ("conflict-retry-after", "pass"),
            ("missing-key", "pass"),
            ("new-key-creates", "pass"),
            ("key-scoped", "pass"),
            ("caller-scoped", "skip"),
            ("path-scoped", "skip"),
            ("replay-faithful", "pass"),
            ("equal-json-replays", "pass"),
            ("key-syntax", "pass"),
            ("lease-outlives-work", "pass"),
            ("mismatch-in-flight", "pass"),
            ("crash-recovers", "skip"),
            ("problem-json", "pass"),
        ],
    );
    assert_eq!(code, 0);
}

#[test]
fn naive_mode_is_caught_by_the_concurrency_check_with_the_duplicate_ids() {
    let server = TestServer::start(ServeConfig::local(Mode::Naive));
    let (code, outcomes, report) = check(&server.url("/payments"), &[]);
    expect(
        &outcomes,
        &[
            ("create", "pass"),
            ("retry-replays", "pass"),
            ("replay-marked", "pass"),
            ("mismatch-rejected", "pass"),
            ("mismatch-is-422", "pass"),
            ("concurrent-once", "fail"),
            ("race-window", "warn"),
            ("conflict-retry-after", "skip"),
            ("missing-key", "pass"),
            ("new-key-creates", "pass"),
            ("key-scoped", "pass"),
            ("problem-json", "pass"),
        ],
    );
    assert_eq!(code, 1);
    let concurrent = suite_evidence(&report, "concurrent-once");
    assert!(concurrent.matches("pay_").count() >= 2, "the duplicate ids are named: {concurrent}");
    // The finding says how many; the evidence names them without saying it again.
    let finding =
        report["checks"].as_array().unwrap().iter().find(|c| c["id"] == "concurrent-once").unwrap()["finding"]
            .as_str()
            .unwrap()
            .to_string();
    assert!(
        finding.contains("distinct resources for one key") && !concurrent.contains(&finding),
        "{finding} / {concurrent}"
    );
    let window = suite_evidence(&report, "race-window");
    assert!(window.contains("window ≈") && window.contains("charges twice"), "{window}");
}

#[test]
fn none_mode_fails_the_plain_retry() {
    let server = TestServer::start(ServeConfig::local(Mode::None));
    let (code, outcomes, _) = check(&server.url("/payments"), &[]);
    expect(
        &outcomes,
        &[
            ("create", "pass"),
            ("retry-replays", "fail"),
            ("replay-marked", "skip"),
            ("mismatch-rejected", "fail"),
            ("mismatch-is-422", "skip"),
            ("concurrent-once", "fail"),
            ("race-window", "warn"),
            ("conflict-retry-after", "skip"),
            ("missing-key", "pass"),
            ("new-key-creates", "pass"),
            ("key-scoped", "pass"),
            ("problem-json", "pass"),
        ],
    );
    assert_eq!(code, 1);
}

#[test]
fn require_key_expects_a_400_without_a_key() {
    let lenient = TestServer::start(ServeConfig::local(Mode::Correct));
    let (code, outcomes, _) = check(&lenient.url("/payments"), &["--require-key"]);
    assert_eq!(outcomes["missing-key"], "fail");
    assert_eq!(code, 1);
    let strict = TestServer::start(ServeConfig { require_key: true, ..ServeConfig::local(Mode::Correct) });
    let (code, outcomes, _) = check(&strict.url("/payments"), &["--require-key"]);
    assert_eq!(outcomes["missing-key"], "pass");
    assert_eq!(code, 0);
}

/// A payments endpoint with one deliberate flaw, chosen by the flags.
#[derive(Clone, Copy)]
struct Flaws {
    /// Keys are matched without looking at the body, so another body gets the old answer.
    ignores_body: bool,
    /// Looks the key up, works, then stores it: concurrent duplicates all execute.
    look_then_store: bool,
    /// The status for a key reused with another body.
    mismatch_status: u16,
}

/// key → (the body it was first used with, the stored answer)
type KeyTable = HashMap<String, (Vec<u8>, String)>;

fn flawed_server(flaws: Flaws) -> CustomServer {
    let store: Arc<Mutex<KeyTable>> = Arc::default();
    let counter = Arc::new(Mutex::new(0u32));
    CustomServer::start_async(move |request| {
        let store = Arc::clone(&store);
        let counter = Arc::clone(&counter);
        Box::pin(async move {
            let problem = |status: u16| Reply {
                status,
                headers: vec![("content-type", "application/problem+json".to_string())],
                body: format!(r#"{{"status":{status}}}"#),
            };
            if request.method != "POST" {
                return problem(405);
            }
            let key = request.headers.get("idempotency-key").map(|v| v.to_str().unwrap().to_string());
            let create = |counter: &Mutex<u32>| {
                let mut n = counter.lock().unwrap();
                *n += 1;
                format!(r#"{{"id":"pay_{n}","amount":1990}}"#)
            };
            let Some(key) = key else { return Reply::json(201, create(&counter)) };
            let stored = store.lock().unwrap().get(&key).cloned();
            if let Some((body, answer)) = stored {
                if body != request.body.as_ref() && !flaws.ignores_body {
                    return problem(flaws.mismatch_status);
                }
                let mut reply = Reply::json(201, answer);
                reply.headers.push(("idempotent-replayed", "true".to_string()));
                return reply;
            }
            if flaws.look_then_store {
                tokio::time::sleep(Duration::from_millis(50)).await;
                let answer = create(&counter);
                store.lock().unwrap().insert(key, (request.body.to_vec(), answer.clone()));
                return Reply::json(201, answer);
            }
            // Atomic: claim and complete in one critical section (no simulated work).
            let mut store = store.lock().unwrap();
            let answer = create(&counter);
            store.insert(key, (request.body.to_vec(), answer.clone()));
            Reply::json(201, answer)
        })
    })
}

const SOUND: Flaws = Flaws { ignores_body: false, look_then_store: false, mismatch_status: 422 };

#[test]
fn a_server_that_replays_the_old_answer_for_another_body_fails_the_mismatch_check() {
    let server = flawed_server(Flaws { ignores_body: true, ..SOUND });
    let (code, outcomes, report) = check(&server.url("/payments"), &[]);
    expect(
        &outcomes,
        &[
            ("create", "pass"),
            ("retry-replays", "pass"),
            ("replay-marked", "pass"),
            ("mismatch-rejected", "fail"),
            ("mismatch-is-422", "skip"),
            ("concurrent-once", "pass"),
            ("conflict-retry-after", "skip"),
            ("missing-key", "pass"),
            ("new-key-creates", "pass"),
            ("key-scoped", "pass"),
            ("problem-json", "pass"),
        ],
    );
    assert_eq!(code, 1);
    assert!(suite_evidence(&report, "mismatch-rejected").contains("the old response was replayed"));
}

#[test]
fn a_server_that_executes_duplicates_only_under_concurrency_fails_only_the_concurrency_check() {
    let server = flawed_server(Flaws { look_then_store: true, ..SOUND });
    let (code, outcomes, _) = check(&server.url("/payments"), &["-n", "10"]);
    expect(
        &outcomes,
        &[
            ("create", "pass"),
            ("retry-replays", "pass"),
            ("replay-marked", "pass"),
            ("mismatch-rejected", "pass"),
            ("mismatch-is-422", "pass"),
            ("concurrent-once", "fail"),
            ("race-window", "warn"),
            ("conflict-retry-after", "skip"),
            ("missing-key", "pass"),
            ("new-key-creates", "pass"),
            ("key-scoped", "pass"),
            ("problem-json", "pass"),
        ],
    );
    assert_eq!(code, 1);
}

#[test]
fn a_server_that_rejects_a_mismatch_with_400_only_warns() {
    let server = flawed_server(Flaws { mismatch_status: 400, ..SOUND });
    let (code, outcomes, report) = check(&server.url("/payments"), &[]);
    expect(
        &outcomes,
        &[
            ("create", "pass"),
            ("retry-replays", "pass"),
            ("replay-marked", "pass"),
            ("mismatch-rejected", "pass"),
            ("mismatch-is-422", "warn"),
            ("concurrent-once", "pass"),
            ("conflict-retry-after", "skip"),
            ("missing-key", "pass"),
            ("new-key-creates", "pass"),
            ("key-scoped", "pass"),
            ("problem-json", "pass"),
        ],
    );
    assert_eq!(code, 0, "an advisory warning does not fail the suite");
    assert!(suite_evidence(&report, "mismatch-is-422").contains("400"));
}

#[test]
fn an_endpoint_without_ids_skips_what_depends_on_them() {
    let server = CustomServer::start(|_| Reply::json(200, r#"{"ok":true}"#));
    let (code, outcomes, report) = check(&server.url("/p"), &[]);
    assert_eq!(outcomes["create"], "unconfirmed");
    assert_eq!(outcomes["retry-replays"], "skip");
    assert_eq!(outcomes["concurrent-once"], "skip");
    assert!(suite_evidence(&report, "create").contains("--id-field"));
    assert_eq!(code, 2, "a 2xx without an id is no failure, only nothing to count by");
}

#[test]
fn check_and_send_agree_on_a_2xx_without_an_id() {
    // One situation, one rule: both could not tell (exit 2), with the same explanation.
    let server = CustomServer::start(|_| Reply::json(200, r#"{"ok":true}"#));
    let explanation = "cannot tell how many times it executed: no resource id at /id in the body, Location or Content-Location in any 2xx answer";
    let (code, _, stderr) = Run::idem(["check", &server.url("/p"), "-d", PAYMENT]).finish().parts();
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains(explanation), "check: {stderr}");
    let (code, _, stderr) = Run::idem(["send", &server.url("/p"), "-d", PAYMENT, "--repeat", "2"]).finish().parts();
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains(explanation), "send: {stderr}");
}

#[test]
fn an_unreachable_endpoint_exits_2() {
    let url = format!("http://127.0.0.1:{}/payments", crate::support::dead_port());
    idem().args(["check", &url, "-d", PAYMENT]).assert().code(2).stderr(predicates::str::contains("cannot connect"));
}

#[test]
fn junit_output_parses_with_one_testcase_per_check() {
    let server = TestServer::start(ServeConfig::local(Mode::Naive));
    let output = idem().args(["check", &server.url("/payments"), "-d", PAYMENT, "--format", "junit"]).output().unwrap();
    assert_eq!(output.status.code(), Some(1));
    let xml = String::from_utf8(output.stdout).unwrap();
    let document = roxmltree::Document::parse(&xml).expect("well-formed XML");
    let suite = document.descendants().find(|n| n.has_tag_name("testsuite")).unwrap();
    assert_eq!(suite.attribute("tests"), Some("23"), "22 checks and the advisory race-window");
    assert_eq!(suite.attribute("failures"), Some("2"));
    let cases: Vec<_> = document.descendants().filter(|n| n.has_tag_name("testcase")).collect();
    assert_eq!(cases.len(), 23);
    let failed: Vec<_> = cases
        .iter()
        .filter(|c| c.children().any(|n| n.has_tag_name("failure")))
        .map(|c| c.attribute("name").unwrap())
        .collect();
    assert_eq!(failed.len(), 2);
    assert!(failed[0].starts_with("concurrent-once"), "{failed:?}");
    assert!(failed[1].starts_with("lease-outlives-work"), "the retry 10 ms into the work executed: {failed:?}");
    assert!(cases.iter().any(|c| c.children().any(|n| n.has_tag_name("skipped"))));
}

#[test]
fn the_human_table_names_every_check() {
    let server = TestServer::start(ServeConfig::local(Mode::Correct));
    let output = idem().args(["check", &server.url("/payments"), "-d", PAYMENT]).assert().success();
    let stdout = String::from_utf8_lossy(&output.get_output().stdout).to_string();
    for id in ["create", "retry-replays", "concurrent-once", "problem-json"] {
        assert!(stdout.contains(id), "{id} missing from {stdout}");
    }
    assert!(stdout.contains("every required check passed"), "{stdout}");
}

#[test]
fn the_profile_decides_whether_a_400_for_a_mismatch_fails_and_the_report_says_which() {
    let server = flawed_server(Flaws { mismatch_status: 400, ..SOUND });
    let (code, outcomes, report) = check(&server.url("/payments"), &["--profile", "strict"]);
    assert_eq!(outcomes["mismatch-is-422"], "fail");
    assert_eq!(code, 1);
    assert_eq!(report["profile"]["name"], "strict");
    let (code, outcomes, report) = check(&server.url("/payments"), &["--profile", "stripe"]);
    assert_eq!(outcomes["mismatch-is-422"], "warn");
    assert_eq!(code, 0);
    assert!(report["profile"]["rules"][1].as_str().unwrap().contains("refused with a 4xx"), "{report:#}");
}

#[test]
fn a_run_that_judges_nothing_is_exit_2_never_a_check_mark() {
    let server = TestServer::start(ServeConfig::local(Mode::Correct));
    let url = server.url("/payments");
    let suite = |extra: Vec<String>| {
        let url = url.clone();
        move |format: &str| {
            let mut command = idem();
            command.args(["check", &url, "-d", PAYMENT]).args(&extra).args(["--format", format]);
            command
        }
    };
    let every: Vec<String> = crate::support::suite_ids({
        let mut list = idem();
        list.arg("check");
        list
    })
    .into_iter()
    .flat_map(|id| ["--skip".to_string(), id])
    .collect();
    assert!(every.len() >= 38, "{every:?}");
    crate::support::assert_nothing_checked(suite(every), "--only and --skip leave no check to run");
    let both = ["--only", "retry-replays", "--skip", "retry-replays"].map(String::from).to_vec();
    crate::support::assert_nothing_checked(suite(both), "--only and --skip leave no check to run");
    // Without --server-cmd, crash-recovers has nothing to kill: it is not judged, so neither is the run.
    let crash = ["--only", "crash-recovers"].map(String::from).to_vec();
    crate::support::assert_nothing_checked(suite(crash), "1 skipped (crash-recovers: give the command");
}

/// What a run takes out of the estimate: the in-flight checks (whose retries follow the server's
/// timing) and the race window (which runs only after a failure).
const DETERMINISTIC: [&str; 6] = ["-n", "5", "--window-max", "0", "--skip", "lease-outlives-work"];

#[test]
fn plan_sends_nothing_and_its_estimate_is_what_a_run_sends() {
    let capture = CountingServer::start(201);
    let plan_of = |url: &str| {
        Run::idem(["check", url, "-d", PAYMENT, "--plan", "--skip", "mismatch-in-flight"])
            .args(DETERMINISTIC)
            .format_json()
            .expect_exit(0)
            .json()
    };
    let plan = plan_of(&capture.url("/payments"));
    assert_eq!(capture.requests(), 0, "--plan sent a request");
    assert_eq!(plan["schema"], "check-plan/1");
    let operation = &plan["operations"][0];
    assert_eq!(operation["method"], "POST");
    assert_eq!(operation["body"], PAYMENT);
    let checks: Vec<&str> =
        operation["cost"]["checks"].as_array().unwrap().iter().map(|c| c["check"].as_str().unwrap()).collect();
    assert!(checks.contains(&"concurrent-once") && !checks.contains(&"lease-outlives-work"), "{checks:?}");

    let human = Run::idem(["check", &capture.url("/payments"), "-d", PAYMENT, "--plan"]).expect_exit(0).finish();
    assert!(
        human.stdout.contains("nothing is sent") && human.stdout.contains("concurrent-once 20"),
        "{}",
        human.stdout
    );
    assert_eq!(capture.requests(), 0, "--plan sent a request");

    let server = TestServer::start(ServeConfig::local(Mode::Correct));
    let url = server.url("/payments");
    let planned = plan_of(&url);
    Run::idem(["check", &url, "-d", PAYMENT, "--skip", "mismatch-in-flight"])
        .args(DETERMINISTIC)
        .expect_exit(0)
        .finish();
    let summary = server.summary();
    assert_eq!(summary.requests, planned["requests"].as_u64().unwrap(), "{planned:#}");
    assert_eq!(summary.payments_created as u64, planned["creations"].as_u64().unwrap(), "{planned:#}");
}

#[test]
fn max_requests_stops_the_suite_before_the_request_over_the_budget() {
    let server = TestServer::start(ServeConfig::local(Mode::Correct));
    let url = server.url("/payments");
    // create, retry-replays and mismatch-rejected fit; the race of five would make eight.
    let (code, stdout, stderr) =
        Run::idem(["check", &url, "-d", PAYMENT, "-n", "5", "--max-requests", "7"]).finish().parts();
    assert_eq!(code, 2, "{stdout}{stderr}");
    assert_eq!(server.summary().requests, 3, "{stderr}");
    assert!(
        stderr.contains("the suite stopped after judging create (pass), retry-replays (pass), replay-marked (pass), mismatch-rejected (pass)")
            && stderr.contains("check `concurrent-once` could not race")
            && stderr.contains("--max-requests 7 reached: 3 requests were sent, and the next step needs 5 more")
            && stderr.contains("the full run needs about"),
        "{stderr}"
    );
    assert_eq!(server.summary().payments_created, 1, "{stderr}");
    assert!(
        stderr.contains(
            "mismatch-is-422 (pass); created at least 1 resource by distinct ids in the answers before it stopped"
        ),
        "{stderr}"
    );
    // A check that reads a refused request as "no answer" does not judge the server on it: the
    // suite ends with exit 2 wherever the budget runs out.
    for budget in ["9", "12"] {
        let server = TestServer::start(ServeConfig::local(Mode::Correct));
        let finished =
            Run::idem(["check", &server.url("/payments"), "-d", PAYMENT, "-n", "5", "--max-requests", budget])
                .format_json()
                .finish();
        assert_eq!(finished.code, 2, "{}{}", finished.stdout, finished.stderr);
        assert!(server.summary().requests <= budget.parse().unwrap());
        let report = finished.json();
        assert!(report["error"].as_str().unwrap().contains(&format!("--max-requests {budget} reached")), "{report:#}");
    }
}

#[test]
fn a_201_replayed_as_200_warns_about_the_status_and_never_speaks_of_a_double_charge() {
    // The key store replays the first answer (its own id, the same body) under 200 instead of 201.
    let app = crate::support::apps::PythonApp::start("orders_with_a_key_store.py", &["--replay-status", "200"]);
    let url = app.url("/orders");
    let only = ["--only", "retry-replays", "--only", "replay-marked", "--window-max", "0"];
    let human = Run::idem(["check", &url, "-d", r#"{"amount":500}"#]).args(only).expect_exit(0).finish();
    let retry = human.stdout.lines().skip_while(|line| !line.contains("retry-replays")).take(8).collect::<Vec<_>>();
    let retry = retry.join("\n");
    assert!(retry.starts_with("WARN  retry-replays"), "{}", human.stdout);
    assert!(retry.contains("the replay changed the status: 201 Created → 200 OK, with the first answer's id and body"));
    assert!(retry.contains("clients that branch on 201 vs 200 see a different outcome"), "{retry}");
    assert!(!human.stdout.contains("double charge"), "{}", human.stdout);
    assert!(!human.stdout.contains("not a replay"), "{}", human.stdout);
    let report = Run::idem(["check", &url, "-d", r#"{"amount":500}"#]).args(only).format_json().expect_exit(0).json();
    let outcomes = suite_outcomes(&report);
    assert_eq!(outcomes["retry-replays"], "warn", "{report:#}");
    // The answer was replayed, so whether it was marked is judged (it was not: advisory).
    assert_eq!(outcomes["replay-marked"], "warn", "{report:#}");
    let retry = report["checks"].as_array().unwrap().iter().find(|c| c["id"] == "retry-replays").unwrap();
    assert_eq!(retry["level"], "required");
    assert_eq!(retry["evidence_level"], "answer");
    assert!(!retry["why"].as_str().unwrap().contains("double charge"), "{retry:#}");
}

/// `idem check` with the charges ledger of an app that charges once per key, and its emails
/// ledger when `emails`; `app_args` for the app (`--email-once`).
fn check_with_ledgers(app_args: &[&str], emails: bool) -> (i32, Value) {
    let app = crate::support::apps::PythonApp::start("orders_emailing_on_every_retry.py", app_args);
    let charges = format!("charges={}", app.url("/charges"));
    let emails_url = format!("emails={}", app.url("/emails"));
    let mut run = Run::idem(["check", &app.url("/orders"), "-d", r#"{"amount":500}"#])
        .args(["--only", "retry-replays", "--window-max", "0"])
        .args(["--count-url", &charges, "--count-pointer", "charges=/count"]);
    if emails {
        run = run.args(["--count-url", &emails_url, "--count-pointer", "emails=/sent"]);
    }
    run.format_json().code_and_json()
}

#[test]
fn a_retry_that_emails_again_fails_retry_replays_on_the_emails_ledger() {
    let (code, report) = check_with_ledgers(&[], true);
    assert_eq!(code, 1, "{report:#}");
    assert_eq!(suite_outcomes(&report)["retry-replays"], "fail", "{report:#}");
    let evidence = suite_evidence(&report, "retry-replays");
    assert!(
        evidence.contains("the counts went charges 1 → 1 (0 executions), emails 1 → 2 (1 execution) on the retry"),
        "{evidence}"
    );
    assert!(evidence.contains("the retry executed again (the count rose by 1)"), "{evidence}");

    let (code, report) = check_with_ledgers(&[], false);
    assert_eq!(code, 0, "the charges ledger alone sees no second execution: {report:#}");
    let (code, report) = check_with_ledgers(&["--email-once"], true);
    assert_eq!(code, 0, "a handler that emails once passes on both ledgers: {report:#}");
    assert_eq!(suite_outcomes(&report)["retry-replays"], "pass", "{report:#}");
}

#[test]
fn a_race_window_wider_than_probed_names_the_flag_of_idem_check() {
    let server = TestServer::start(ServeConfig::local(Mode::Naive));
    let (_, outcomes, report) = check(&server.url("/payments"), &["-n", "6", "--window-max", "1ms"]);
    assert_eq!(outcomes["race-window"], "warn", "{report:#}");
    let evidence = suite_evidence(&report, "race-window");
    assert!(evidence.contains("raise --window-max to find the edge"), "{evidence}");
    assert!(!evidence.contains("raise --max "), "idem check has no --max: {evidence}");
}

#[test]
fn the_list_shows_the_levels_a_run_judges_with_and_each_id_once() {
    let list = Run::idem(["check", "--list"]).expect_exit(0).finish().stdout;
    let line = list.lines().find(|line| line.starts_with("mismatch-is-422")).unwrap();
    assert!(line.contains("recommended"), "the default profile (ietf) recommends it: {line}");
    let (_, _, run) = check(&TestServer::start(ServeConfig::local(Mode::Correct)).url("/payments"), &[]);
    let judged =
        run["checks"].as_array().unwrap().iter().find(|c| c["id"] == "mismatch-is-422").unwrap()["level"].clone();
    assert_eq!(judged, "recommended", "{run:#}");
    let document = Run::idem(["check", "--list", "--format", "json"]).json();
    let entries = document["checks"].as_array().unwrap();
    let level = entries.iter().find(|c| c["id"] == "mismatch-is-422").unwrap()["level"].clone();
    assert_eq!(level, judged, "as a run reports it");
    let missing_key = entries.iter().filter(|c| c["id"] == "missing-key").count();
    assert_eq!(missing_key, 1, "{document:#}");
}

#[test]
fn only_sends_what_the_selected_checks_need_and_list_names_the_exceptions() {
    // --only retry-replays: the first execution and its retry, no key-less request, no second key.
    let server = TestServer::start(ServeConfig::local(Mode::Correct));
    let url = server.url("/payments");
    let outcomes = Run::idem(["check", &url, "-d", PAYMENT, "--only", "retry-replays", "--format", "json"])
        .expect_exit(0)
        .finish()
        .outcomes();
    assert_eq!(outcomes["retry-replays"], "pass");
    assert_eq!(outcomes["missing-key"], "skip");
    let summary = server.summary();
    assert_eq!((summary.payments_created, summary.requests), (1, 2), "{summary:?}");

    // The plan agrees with what was sent.
    let plan = Run::idem(["check", &url, "-d", PAYMENT, "--only", "retry-replays", "--plan", "--format", "json"])
        .expect_exit(0)
        .finish();
    let plan: Value = serde_json::from_str(&plan.stdout).unwrap();
    let cost = &plan["operations"][0]["cost"];
    assert_eq!((cost["requests"].as_u64(), cost["creations"].as_u64()), (Some(2), Some(1)), "{cost:#}");

    let list = Run::idem(["check", "--list"]).expect_exit(0).finish();
    assert!(list.stdout.contains("create always runs"), "{}", list.stdout);
    assert!(list.stdout.contains("--only problem-json also sends"), "{}", list.stdout);
}

/// `created` from `idem check --format json`: its basis and number.
fn created_of(report: &Value) -> (&str, Option<u64>) {
    (report["created"]["basis"].as_str().unwrap_or_default(), report["created"]["resources"].as_u64())
}

#[test]
fn the_summary_says_how_many_resources_the_suite_created_by_the_count() {
    for (mode, exit) in [(Mode::Correct, 0), (Mode::None, 1)] {
        let server = TestServer::start(ServeConfig::local(mode));
        let url = server.url("/payments");
        let (code, _, report) = check(&url, &["--window-max", "0", "--count-url", &url, "--count-pointer", "/count"]);
        assert_eq!(code, exit, "{report:#}");
        let made = server.summary().payments_created as u64;
        assert_eq!(created_of(&report), ("count", Some(made)), "{mode:?}: {report:#}");
    }
}

#[test]
fn without_a_count_the_suite_counts_the_ids_it_read_and_says_at_least() {
    let server = TestServer::start(ServeConfig::local(Mode::Correct));
    let url = server.url("/payments");
    let human = Run::idem(["check", &url, "-d", PAYMENT, "--window-max", "0"]).expect_exit(0).finish();
    let made = server.summary().payments_created;
    let last = human.stdout.lines().last().unwrap_or_default();
    assert_eq!(
        last,
        format!(
            "created at least {made} resources by distinct ids in the answers (a lower bound; give --count-url for the number)"
        ),
        "{}",
        human.stdout
    );
}

#[test]
fn a_plan_s_estimate_and_the_run_s_count_are_comparable() {
    let server = TestServer::start(ServeConfig::local(Mode::Correct));
    let url = server.url("/payments");
    let counted = ["--window-max", "0", "--count-url", &url, "--count-pointer", "/count"];
    let plan = Run::idem(["check", &url, "-d", PAYMENT, "--plan"]).args(counted).format_json().expect_exit(0).json();
    assert_eq!(server.summary().payments_created, 0, "a plan sends nothing");
    let (_, _, report) = check(&url, &counted);
    let created = created_of(&report).1.expect("counted");
    assert_eq!(created, server.summary().payments_created as u64, "{report:#}");
    // The plan estimates what a correct API that answers quickly creates; this one is correct.
    assert_eq!(Some(created), plan["creations"].as_u64(), "plan: {plan:#}\nrun: {report:#}");
}

#[test]
fn answers_without_ids_and_no_count_leave_what_the_suite_created_unknown() {
    let server = CustomServer::start(|_| Reply::json(201, r#"{"ok":true}"#));
    let finished = Run::idem(["check", &server.url("/p"), "-d", PAYMENT, "--window-max", "0"]).finish();
    let last = finished.stdout.lines().last().unwrap_or_default();
    assert_eq!(last, "resources created: unknown (no ids in the answers; give --count-url)", "{}", finished.stdout);
}
