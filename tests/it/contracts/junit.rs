//! `--format junit` as a CI dashboard reads it, parsed by junitparser (pinned in
//! tests/differential/requirements.txt): a failed case's message is the finding, the root counts
//! the cases in the file, every suite says when, where and how long, a check that did not run is
//! still a case, and each case's classname names the target.
use std::collections::BTreeSet;
use std::time::Duration;

use idem::testing::scheme::SchemeKind;
use idem::testing::serve::{Mode, ServeConfig};
use serde_json::Value;

use crate::support::reference_libraries::references;
use crate::support::run::Run;
use crate::support::webhook_receivers::{Flaws, receiver};
use crate::support::{SECRET, TestServer, idem};

const PAYMENT: &str = r#"{"amount":1000,"currency":"eur"}"#;
const ADYEN: &str = "tests/fixtures/openapi/adyen-checkout-v71-excerpt.json";

/// What junitparser reads in `xml`: the root's counts, each suite's attributes, each case.
fn junitparser(xml: &str) -> Value {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("report.xml");
    std::fs::write(&file, xml).unwrap();
    let script = references().scripts.join("junit_report.py");
    let output = std::process::Command::new(references().python()).arg(script).arg(&file).output().unwrap();
    assert!(output.status.success(), "junitparser refused it: {}\n{xml}", String::from_utf8_lossy(&output.stderr));
    serde_json::from_slice(&output.stdout).unwrap()
}

/// `idem check … --format junit`: its exit status and what junitparser read.
fn check_junit(args: &[&str]) -> (i32, Value, String) {
    let output = idem()
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(["check", "--format", "junit"])
        .args(args)
        .timeout(Duration::from_secs(300))
        .output()
        .unwrap();
    let xml = String::from_utf8(output.stdout).unwrap();
    (output.status.code().unwrap(), junitparser(&xml), xml)
}

/// What a `<failure>`'s message says and what its text gives as why it matters.
fn message_and_why(case: &Value) -> (&str, &str) {
    let message = case["message"].as_str().unwrap_or_default();
    let text = case["text"].as_str().unwrap_or_default();
    let why = text.lines().find_map(|line| line.strip_prefix("why: ")).unwrap_or_default();
    (message, why)
}

/// Every failed case's message is a finding of its own: a line that is neither empty nor the
/// check's why, which the text carries instead. Returns the failures by check id.
fn failures_say_their_findings<'r>(report: &'r Value, xml: &str) -> Vec<(&'r str, &'r str)> {
    let mut failures = Vec::new();
    for case in cases(report).iter().filter(|c| c["result"] == "failure") {
        let (message, why) = message_and_why(case);
        let name = case["name"].as_str().unwrap();
        assert!(!message.is_empty() && !why.is_empty(), "{name}: a message and a why: {xml}");
        assert!(!message.contains(why) && !why.contains(message), "{name}: the message is the why: {message}");
        failures.push((name.split(':').next().unwrap(), message));
    }
    failures
}

fn message_of<'r>(failures: &[(&str, &'r str)], id: &str) -> &'r str {
    failures.iter().find(|(name, _)| *name == id).map(|(_, message)| *message).unwrap_or_else(|| {
        panic!("{id} did not fail: {failures:?}");
    })
}

fn cases(report: &Value) -> &Vec<Value> {
    report["cases"].as_array().unwrap()
}

fn case<'a>(report: &'a Value, id: &str) -> &'a Value {
    cases(report)
        .iter()
        .find(|c| c["name"].as_str().unwrap().starts_with(&format!("{id}:")))
        .unwrap_or_else(|| panic!("no case {id}: {report:#}"))
}

/// The root's tests, failures, errors and skipped are the cases of the file, as junitparser
/// counts them; its time and every suite's are numbers, never negative; every suite says when it
/// ran and where.
fn assert_counts_add_up(report: &Value, xml: &str) {
    let count = |result: &str| cases(report).iter().filter(|c| c["result"] == result).count().to_string();
    let root = &report["root"];
    assert_eq!(root["tests"], cases(report).len().to_string(), "{xml}");
    assert_eq!(root["failures"], count("failure"), "{xml}");
    assert_eq!(root["errors"], count("error"), "{xml}");
    assert_eq!(root["skipped"], count("skipped"), "{xml}");
    let times = std::iter::once(&root["time"]).chain(report["suites"].as_array().unwrap().iter().map(|s| &s["time"]));
    for time in times {
        let time = time.as_str().unwrap_or_else(|| panic!("a time is missing: {xml}"));
        assert!(!time.starts_with('-') && time.parse::<f64>().is_ok(), "time={time:?}: {xml}");
    }
    for suite in report["suites"].as_array().unwrap() {
        let timestamp = suite["timestamp"].as_str().unwrap_or_else(|| panic!("no timestamp: {xml}"));
        assert!(chrono::NaiveDateTime::parse_from_str(timestamp, "%Y-%m-%dT%H:%M:%S").is_ok(), "{timestamp}");
        assert!(!suite["hostname"].as_str().unwrap_or_default().is_empty(), "no hostname: {xml}");
    }
}

#[test]
fn a_passing_and_a_failing_target_have_the_same_cases_and_a_failure_says_what_was_found() {
    let correct = TestServer::start(ServeConfig::local(Mode::Correct));
    let naive = TestServer::start(ServeConfig::local(Mode::Naive));
    let run = |url: &str| check_junit(&[url, "-d", PAYMENT, "-n", "6", "--window-max", "200ms"]);
    let (passed_code, passed, passed_xml) = run(&correct.url("/payments"));
    let (failed_code, failed, failed_xml) = run(&naive.url("/payments"));
    assert_eq!((passed_code, failed_code), (0, 1), "{passed_xml}\n{failed_xml}");
    assert_counts_add_up(&passed, &passed_xml);
    assert_counts_add_up(&failed, &failed_xml);

    let names = |report: &Value| cases(report).iter().map(|c| c["name"].to_string()).collect::<BTreeSet<_>>();
    assert_eq!(names(&passed), names(&failed), "a dashboard's history needs one set of cases");
    assert_eq!(case(&passed, "race-window")["result"], "skipped", "{passed_xml}");
    assert!(case(&passed, "race-window")["message"].as_str().unwrap().contains("concurrent-once"), "{passed_xml}");

    let concurrent = case(&failed, "concurrent-once");
    assert_eq!(concurrent["result"], "failure");
    let message = concurrent["message"].as_str().unwrap();
    assert!(message.starts_with("executed 6 times: 6 distinct resources for one key"), "{message}");
    let text = concurrent["text"].as_str().unwrap();
    assert!(text.contains("\nwhy: retries and double clicks arrive together"), "{text}");
    assert!(text.contains("\nfix: claim the key atomically"), "{text}");

    for (report, server) in [(&passed, &correct), (&failed, &naive)] {
        for case in cases(report) {
            let classname = case["classname"].as_str().unwrap();
            assert!(classname.contains(&server.url("/payments")), "the classname names the target: {classname}");
        }
    }
}

#[test]
fn a_suite_that_could_not_run_has_no_negative_time() {
    let url = format!("http://127.0.0.1:{}/payments", crate::support::dead_port());
    let (code, report, xml) = check_junit(&[&url, "-d", PAYMENT]);
    assert_eq!(code, 2);
    assert_counts_add_up(&report, &xml);
    assert_eq!(cases(&report)[0]["result"], "error");
}

#[test]
fn an_openapi_file_counts_the_cases_it_holds() {
    let server = TestServer::start(ServeConfig {
        any_path: true,
        work: Duration::from_millis(5),
        ..ServeConfig::local(Mode::Correct)
    });
    let (code, report, xml) = check_junit(&[
        "--openapi",
        ADYEN,
        "--base-url",
        &server.url(""),
        "-n",
        "3",
        "--window-max",
        "0",
        "--include-operation-id",
        "post-cancels",
    ]);
    assert_eq!(code, 0, "{xml}");
    assert_counts_add_up(&report, &xml);
    let skipped_operations = report["suites"].as_array().unwrap().iter().filter(|s| s["tests"] == 1).count();
    assert!(report["root"]["skipped"].as_str().unwrap().parse::<usize>().unwrap() > skipped_operations, "{xml}");
}

#[test]
fn each_failure_of_a_server_that_ignores_keys_says_what_was_found_with_its_numbers() {
    let server = TestServer::start(ServeConfig::local(Mode::None));
    let args = ["-d", PAYMENT, "-n", "6", "--window-max", "100ms", "--junit-warnings", "failed"];
    let (code, report, xml) = check_junit(&[&[server.url("/payments").as_str()][..], &args].concat());
    assert_eq!(code, 1, "{xml}");
    let failures = failures_say_their_findings(&report, &xml);
    let message = |id: &str| message_of(&failures, id);
    assert!(message("retry-replays").starts_with("the retry created a second resource: pay_"), "{failures:?}");
    assert!(message("concurrent-once").starts_with("executed 6 times: 6 distinct resources for one key"));
    assert!(message("mismatch-rejected").starts_with("a changed body under the same key was executed: 201"));
    let lease = message("lease-outlives-work");
    assert!(lease.starts_with("executed ") && lease.contains(" times for one key retried while"), "{lease}");
    assert!(message("equal-json-replays").starts_with("the same JSON re-serialised executed again: pay_"));
    assert!(message("race-window").contains("apart both executed"), "{failures:?}");
}

#[test]
fn each_failure_of_a_receiver_that_accepts_anything_says_what_it_accepted() {
    let server = receiver(SchemeKind::Stripe, Flaws { accepts_bad_signature: true, ..Flaws::default() });
    let url = server.url("/hook");
    let args =
        ["check", &url, "--scheme", "stripe", "--secret", SECRET, "--format", "junit", "--junit-warnings", "failed"];
    let finished = Run::webhook(args).never_printing(SECRET).finish();
    assert_eq!(finished.code, 1, "{}", finished.stdout);
    let report = junitparser(&finished.stdout);
    let failures = failures_say_their_findings(&report, &finished.stdout);
    let message = |id: &str| message_of(&failures, id);
    let bad_signature = message("bad-signature-rejected");
    assert!(
        bad_signature.starts_with("accepted event evt_")
            && bad_signature.ends_with(" signed with another secret: 200 OK"),
        "{bad_signature}"
    );
    let stale = message("stale-timestamp-rejected");
    assert!(stale.starts_with("accepted event evt_") && stale.ends_with(" ago: 200 OK"), "{stale}");
    assert!(message("future-timestamp-rejected").ends_with(" in the future: 200 OK"), "{failures:?}");
    assert!(message("replay-rejected").starts_with("accepted delivery "), "{failures:?}");
    assert!(
        message("cross-scheme-replay-rejected")
            .contains("re-sent under another scheme was not refused: as github → 200 OK"),
        "{failures:?}"
    );
}
