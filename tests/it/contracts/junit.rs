//! `--format junit` as a CI dashboard reads it, parsed by junitparser (pinned in
//! tests/differential/requirements.txt): a failed case's message is the finding, the root counts
//! the cases in the file, every suite says when, where and how long, a check that did not run is
//! still a case, and each case's classname names the target.
use std::collections::BTreeSet;
use std::time::Duration;

use idem::testing::serve::{Mode, ServeConfig};
use serde_json::Value;

use crate::support::reference_libraries::references;
use crate::support::{TestServer, idem};

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
