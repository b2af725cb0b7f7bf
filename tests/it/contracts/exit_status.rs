//! A suite that could not run ends the same way in both tools: exit 2, the reason on stderr, and
//! with `--format junit` still a valid JUnit document holding one error test case, so a CI job's
//! `> report.xml` is never an empty file.
use predicates::prelude::PredicateBooleanExt;

use crate::support::{SECRET, dead_port, idem, webhook};

/// A listener that accepts connections and never answers; kept open while the test runs.
fn silent_listener() -> (std::net::TcpListener, String) {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}/hooks", listener.local_addr().unwrap());
    (listener, url)
}

fn assert_one_error_case(xml: &str, suite: &str) {
    let document = roxmltree::Document::parse(xml).unwrap_or_else(|err| panic!("not XML ({err}): {xml}"));
    let cases: Vec<_> = document.descendants().filter(|node| node.has_tag_name("testcase")).collect();
    assert_eq!(cases.len(), 1, "{xml}");
    // The classname names the suite and its target, so two targets in one file stay apart.
    let classname = cases[0].attribute("classname").unwrap_or_default();
    assert!(classname.starts_with(suite) && classname.contains("http://127.0.0.1:"), "{xml}");
    assert!(cases[0].children().any(|child| child.has_tag_name("error")), "{xml}");
}

#[test]
fn webhook_check_against_a_receiver_that_never_answers_exits_2() {
    let (_listener, url) = silent_listener();
    let assert = webhook()
        .args(["check", &url, "--scheme", "hmac", "--secret", SECRET, "--timeout", "300ms", "--format", "junit"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains("did not answer within").or(predicates::str::contains("no complete answer")));
    let xml = String::from_utf8_lossy(&assert.get_output().stdout).to_string();
    assert_one_error_case(&xml, "webhook check");
    assert!(!xml.contains(SECRET), "{xml}");
}

#[test]
fn idem_check_that_cannot_run_still_writes_junit_and_json() {
    let (_listener, silent) = silent_listener();
    let dead = format!("http://127.0.0.1:{}/payments", dead_port());
    for url in [&silent, &dead] {
        let assert = idem().args(["check", url, "--timeout", "300ms", "--format", "junit"]).assert().code(2);
        assert_one_error_case(&String::from_utf8_lossy(&assert.get_output().stdout), "idem check");
    }
    let assert = idem().args(["check", &dead, "--format", "json"]).assert().code(2);
    let report: serde_json::Value = serde_json::from_slice(&assert.get_output().stdout).unwrap();
    crate::support::schemas::validate(&report);
    assert_eq!(report["passed"], false);
    assert!(report["error"].as_str().unwrap().contains("cannot connect"), "{report}");
}

#[test]
fn a_command_that_reads_one_ledger_refuses_a_second_count_url_with_exit_2() {
    // Nothing listens there: the refusal comes before anything is sent or read.
    let target = format!("http://127.0.0.1:{}/hooks", dead_port());
    let charges = format!("charges={target}");
    let emails = format!("emails={target}");
    let ledgers = ["--count-url", charges.as_str(), "--count-url", emails.as_str()];
    let commands: [(&str, Vec<&str>); 3] = [
        ("webhook check", vec!["check", &target, "--scheme", "hmac", "--secret", SECRET]),
        ("webhook race", vec!["race", &target, "--scheme", "hmac", "--secret", SECRET, "--event", "order.paid"]),
        ("idem proxy", vec!["proxy", "--upstream", &target, "--addr", "127.0.0.1:0"]),
    ];
    for (command, args) in commands {
        let tool = if command.starts_with("webhook") { webhook() } else { idem() };
        let mut tool = tool;
        tool.args(&args).args(ledgers).timeout(std::time::Duration::from_secs(30));
        tool.assert()
            .code(2)
            .stderr(predicates::str::contains(format!("{command} reads one --count-url, and 2 were given")));
    }
}
