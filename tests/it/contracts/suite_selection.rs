//! Friendly to CI and to mistakes: choosing checks and expecting failures in all three suites
//! (human, JSON, JUnit), `--list` and its man-page copy, real JUnit durations, a fix line under
//! every failure, and errors that name the real cause, each produced by that cause.
use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};

use idem::testing::scheme::SchemeKind;
use idem::testing::serve::{Mode, ServeConfig};
use serde_json::Value;

use crate::support::run::Run;
use crate::support::webhook_receivers::{Flaws, receiver};
use crate::support::{KillOnDrop, TestServer, idem, suite_outcomes, webhook};

const PAYMENT: &str = r#"{"amount":1990,"currency":"RUB","order_id":42}"#;

fn run(command: assert_cmd::Command) -> (i32, String, String) {
    Run::command(command).finish().parts()
}

fn idem_check(url: &str, args: &[&str]) -> (i32, String, String) {
    let mut command = idem();
    command.args(["check", url, "-d", PAYMENT]).args(args);
    run(command)
}

fn json(stdout: &str) -> Value {
    let report: Value = serde_json::from_str(stdout).unwrap_or_else(|err| panic!("not JSON ({err}): {stdout}"));
    crate::support::schemas::validate(&report);
    report
}

fn check<'a>(report: &'a Value, id: &str) -> &'a Value {
    report["checks"].as_array().unwrap().iter().find(|c| c["id"] == id).unwrap_or_else(|| panic!("no {id}"))
}

/// Every `<testcase>` as (name, time, the tag of its first child, that child's message).
fn junit_cases(xml: &str) -> Vec<(String, f64, String, String)> {
    let document = roxmltree::Document::parse(xml).unwrap_or_else(|err| panic!("not XML ({err}): {xml}"));
    document
        .descendants()
        .filter(|node| node.has_tag_name("testcase"))
        .map(|case| {
            let child = case.children().find(|child| child.is_element());
            (
                case.attribute("name").unwrap_or_default().to_string(),
                case.attribute("time").unwrap_or_default().parse().unwrap(),
                child.map(|c| c.tag_name().name().to_string()).unwrap_or_default(),
                child
                    .map(|c| format!("{} {}", c.attribute("message").unwrap_or_default(), c.text().unwrap_or_default()))
                    .unwrap_or_default(),
            )
        })
        .collect()
}

fn case<'a>(cases: &'a [(String, f64, String, String)], id: &str) -> &'a (String, f64, String, String) {
    cases.iter().find(|(name, ..)| name.starts_with(&format!("{id}: "))).unwrap_or_else(|| panic!("no {id}"))
}

#[test]
fn idem_check_expected_failure_does_not_fail_the_run_in_any_format() {
    let server = TestServer::start(ServeConfig::local(Mode::Naive));
    let url = server.url("/payments");
    let (code, stdout, stderr) =
        idem_check(&url, &["--expect-fail", "concurrent-once", "--skip", "lease-outlives-work", "--format", "json"]);
    assert_eq!(code, 0, "{stdout}{stderr}");
    let report = json(&stdout);
    let once = check(&report, "concurrent-once");
    assert_eq!(once["outcome"], "xfail", "{once:#}");
    assert!(once["fix"].as_str().unwrap().contains("claim the key atomically"), "{once:#}");
    assert_eq!(report["tally"]["expected_failures"], 1);
    assert_eq!(report["passed"], true);

    let (code, stdout, _) = idem_check(&url, &["--expect-fail", "concurrent-once", "--skip", "lease-outlives-work"]);
    assert_eq!(code, 0, "{stdout}");
    assert!(stdout.contains("XFAIL  concurrent-once"), "{stdout}");
    assert!(stdout.contains("expected to fail (--expect-fail concurrent-once)"), "{stdout}");
    assert!(stdout.contains("1 expected failures"), "{stdout}");

    let (code, xml, _) =
        idem_check(&url, &["--expect-fail", "concurrent-once", "--skip", "lease-outlives-work", "--format", "junit"]);
    assert_eq!(code, 0);
    let cases = junit_cases(&xml);
    let (_, time, tag, message) = case(&cases, "concurrent-once");
    assert_eq!((tag.as_str(), message.starts_with("expected failure:")), ("skipped", true), "{xml}");
    assert!(*time > 0.0, "a race takes time: {xml}");
    // The advisory race-window warning is a <skipped message="warning: …"> by default.
    let (_, _, tag, message) = case(&cases, "race-window");
    assert_eq!((tag.as_str(), message.starts_with("warning: ")), ("skipped", true), "{xml}");
}

#[test]
fn idem_check_failures_carry_a_fix_line_in_human_json_and_junit() {
    let server = TestServer::start(ServeConfig::local(Mode::None));
    let url = server.url("/payments");
    let (code, stdout, _) = idem_check(&url, &["--only", "create", "--only", "mismatch-rejected", "--format", "json"]);
    assert_eq!(code, 1);
    let report = json(&stdout);
    let mismatch = check(&report, "mismatch-rejected");
    assert_eq!(mismatch["outcome"], "fail");
    assert!(
        mismatch["fix"].as_str().unwrap().starts_with(
            "store a hash of method, path and body with the key and answer 422 when a retry's hash differs"
        ),
        "{mismatch:#}"
    );
    let outcomes = suite_outcomes(&report);
    assert_eq!(outcomes["retry-replays"], "skip");
    assert_eq!(check(&report, "retry-replays")["evidence"][0], "not selected (not named by --only)");
    assert_eq!(outcomes["create"], "pass");
    assert!(check(&report, "create").get("fix").is_none(), "a pass has no fix");

    let (_, stdout, _) = idem_check(&url, &["--only", "create", "--only", "mismatch-rejected"]);
    assert!(stdout.contains("fix: store a hash of method, path and body"), "{stdout}");
    let (_, xml, _) = idem_check(&url, &["--only", "create", "--only", "mismatch-rejected", "--format", "junit"]);
    let cases = junit_cases(&xml);
    let (_, _, tag, text) = case(&cases, "mismatch-rejected");
    assert_eq!(tag, "failure");
    assert!(text.contains("fix: store a hash of method, path and body"), "{xml}");
}

#[test]
fn idem_check_skip_leaves_the_race_out_and_an_expected_failure_that_passes_is_reported() {
    let naive = TestServer::start(ServeConfig::local(Mode::Naive));
    // The naive server also fails lease-outlives-work (a retry 10 ms into the work executes), a
    // race of its own, like mismatch-in-flight.
    let race = [
        "--skip",
        "concurrent-once",
        "--skip",
        "conflict-retry-after",
        "--skip",
        "race-window",
        "--skip",
        "lease-outlives-work",
        "--skip",
        "mismatch-in-flight",
    ];
    let (code, stdout, _) = idem_check(&naive.url("/payments"), &[&race[..], &["--format", "json"]].concat());
    assert_eq!(code, 0, "the one failing check is skipped: {stdout}");
    let report = json(&stdout);
    assert_eq!(check(&report, "concurrent-once")["evidence"][0], "not selected (--skip concurrent-once)");
    assert_eq!(
        check(&report, "race-window")["evidence"][0],
        "not selected (--skip race-window)",
        "the race did not run, so nor did race-window: a skipped case all the same"
    );
    assert_eq!(
        naive.summary().requests,
        14,
        "create, retry, mismatch, missing key, new key, key-scoped, replay-faithful, equal-json-replays, 3 × key-syntax, 3 × cached-decline: no race"
    );

    let correct = TestServer::start(ServeConfig::local(Mode::Correct));
    let url = correct.url("/payments");
    let (code, stdout, _) =
        idem_check(&url, &["--only", "create", "--only", "retry-replays", "--expect-fail", "retry-replays"]);
    assert_eq!(code, 0, "{stdout}");
    assert!(stdout.contains("XPASS  retry-replays") && stdout.contains("fixed? remove --expect-fail retry-replays"));
    let strict = ["--only", "create", "--only", "retry-replays", "--expect-fail", "retry-replays", "--strict"];
    let (code, stdout, _) = idem_check(&url, &strict);
    assert_eq!(code, 1, "--strict fails the run: {stdout}");
    let (code, xml, _) = idem_check(&url, &[&strict[..], &["--format", "junit"]].concat());
    assert_eq!(code, 1);
    let cases = junit_cases(&xml);
    let (_, _, tag, text) = case(&cases, "retry-replays");
    assert_eq!(tag, "failure", "{xml}");
    assert!(text.contains("fixed? remove --expect-fail retry-replays"), "{xml}");
}

#[test]
fn unknown_ids_are_refused_with_the_list_of_checks() {
    let (code, _, stderr) = idem_check("http://127.0.0.1:1/p", &["--only", "nope"]);
    assert_eq!(code, 2);
    assert!(stderr.contains("--only nope: idem check has no such check"), "{stderr}");
    assert!(stderr.contains("create, retry-replays, replay-marked"), "{stderr}");
    let mut command = webhook();
    command.args(["check", "http://127.0.0.1:1/", "--secret", "s", "--skip", "nope"]);
    let (code, _, stderr) = run(command);
    assert_eq!(code, 2);
    assert!(stderr.contains("valid-accepted, fast-ack"), "{stderr}");
    let mut command = webhook();
    command.args(["check-sender", "--secret", "s", "--expect-fail", "nope"]);
    let (code, _, stderr) = run(command);
    assert_eq!(code, 2);
    assert!(stderr.contains("--expect-fail nope") && stderr.contains("signed, event-id-stable"), "{stderr}");
}

/// What roff makes of text, undone for comparison: escapes dropped.
fn unroff(text: &str) -> String {
    text.replace("\\*(Aq", "'").replace("\\(aq", "'").replace('\\', "")
}

#[test]
fn list_prints_every_check_and_the_man_page_carries_the_same_table() {
    for (bin, suite, page) in [
        ("idem", "check", "idem-check.1"),
        ("webhook", "check", "webhook-check.1"),
        ("webhook", "check-sender", "webhook-check-sender.1"),
    ] {
        let command = || if bin == "idem" { idem() } else { webhook() };
        let mut list = command();
        list.args([suite, "--list", "--format", "json"]);
        let (code, stdout, stderr) = run(list);
        assert_eq!(code, 0, "{stderr}");
        let catalogue = json(&stdout);
        let man =
            std::fs::read_to_string(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("man").join(page)).unwrap();
        let man = unroff(&man[man.find(".SH CHECKS").unwrap_or_else(|| panic!("{page} has no CHECKS"))..]);
        let mut human = command();
        human.args([suite, "--list"]);
        let (code, table, _) = run(human);
        assert_eq!(code, 0);
        let checks = catalogue["checks"].as_array().unwrap();
        assert!(checks.len() >= 11, "{catalogue:#}");
        for entry in checks {
            for field in ["id", "proves", "fix"] {
                let text = entry[field].as_str().unwrap();
                assert!(man.contains(&unroff(text)), "{page} lacks the {field} `{text}`: regenerate the man pages");
                assert!(table.contains(text), "`{bin} {suite} --list` lacks `{text}`");
            }
        }
    }
}

#[test]
fn webhook_check_selection_and_expected_failures_in_every_format() {
    let server = receiver(SchemeKind::Github, Flaws { accepts_bad_signature: true, ..Flaws::default() });
    let url = server.url("/hook");
    let args = |format: &str| {
        let mut command = webhook();
        command.args(["check", &url, "--scheme", "github", "--secret", crate::support::SECRET]);
        command.args(["--only", "valid-accepted", "--only", "bad-signature-rejected"]);
        command.args(["--expect-fail", "bad-signature-rejected", "--format", format]);
        run(command)
    };
    let (code, stdout, _) = args("json");
    assert_eq!(code, 0, "{stdout}");
    let report = json(&stdout);
    let outcomes = suite_outcomes(&report);
    assert_eq!(outcomes["bad-signature-rejected"], "xfail");
    assert_eq!(outcomes["valid-accepted"], "pass");
    assert_eq!(outcomes["tampered-body-rejected"], "skip", "not selected, though it would fail");
    assert!(check(&report, "bad-signature-rejected")["fix"].as_str().unwrap().contains("constant time"));
    let (code, stdout, _) = args("human");
    assert_eq!(code, 0);
    assert!(stdout.contains("XFAIL  bad-signature-rejected") && stdout.contains("fix: compute the HMAC"), "{stdout}");
    let (code, xml, _) = args("junit");
    assert_eq!(code, 0);
    let cases = junit_cases(&xml);
    let (_, time, tag, message) = case(&cases, "bad-signature-rejected");
    assert_eq!((tag.as_str(), message.starts_with("expected failure:")), ("skipped", true), "{xml}");
    assert!(*time > 0.0, "a request was sent and answered: {xml}");
}

/// `webhook send` delivering two events to check-sender's `WEBHOOK_URL`, with a retry.
fn sender_command() -> String {
    let bin = assert_cmd::cargo::cargo_bin("webhook").display().to_string();
    format!(
        "for event in one two; do \"{bin}\" send \"$WEBHOOK_URL\" --scheme github --event push.$event --time-scale 0.001; done"
    )
}

#[test]
fn check_sender_junit_has_real_durations_and_selection_and_strict_expectations() {
    let mut command = webhook();
    command.env("WEBHOOK_SECRET", crate::support::SECRET);
    command.args(["check-sender", "--addr", "127.0.0.1:0", "--scheme", "github", "--script", "500,200;200"]);
    command.args(["--timeout", "20s", "--skip", "identifies-itself", "--expect-fail", "retries-after-5xx", "--strict"]);
    command.args(["--format", "junit", "--", "sh", "-c", &sender_command()]);
    let (code, xml, stderr) = run(command);
    assert_eq!(code, 1, "retries-after-5xx passed though expected to fail, under --strict: {xml}{stderr}");
    let cases = junit_cases(&xml);
    let (_, time, tag, text) = case(&cases, "retries-after-5xx");
    assert_eq!(tag, "failure", "{xml}");
    assert!(text.contains("fixed? remove --expect-fail retries-after-5xx"), "{xml}");
    assert!(*time > 0.0, "the events it judged spanned a retry: {xml}");
    let (_, _, tag, message) = case(&cases, "identifies-itself");
    assert_eq!((tag.as_str(), message.as_str()), ("skipped", "not selected (--skip identifies-itself) "), "{xml}");
    let (_, time, _, _) = case(&cases, "signed");
    assert!(*time > 0.0, "{xml}");
}

#[test]
fn check_sender_json_marks_expected_failures() {
    let mut command = webhook();
    command.env("WEBHOOK_SECRET", crate::support::SECRET);
    command.args(["check-sender", "--addr", "127.0.0.1:0", "--scheme", "github", "--script", "500,200;200"]);
    command.args(["--timeout", "20s", "--only", "signed", "--only", "retries-after-5xx", "--format", "json"]);
    command.args(["--expect-fail", "signed", "--", "sh", "-c", &sender_command()]);
    let (code, stdout, stderr) = run(command);
    assert_eq!(code, 0, "{stdout}{stderr}");
    let report = json(&stdout);
    let outcomes = suite_outcomes(&report);
    assert_eq!(outcomes["signed"], "xpass");
    assert_eq!(outcomes["retries-after-5xx"], "pass");
    assert_eq!(outcomes["stops-after-2xx"], "skip");
    assert_eq!(report["tally"]["unexpected_passes"], 1);
    assert!(check(&report, "retries-after-5xx")["duration_ms"].as_f64().unwrap() > 0.0);
}

#[test]
fn junit_warnings_are_chosen_by_flag() {
    let server = TestServer::start(ServeConfig::local(Mode::Naive));
    let url = server.url("/payments");
    for (choice, expected) in [("failed", "failure"), ("passed", "system-out")] {
        let args = ["--only", "create", "--only", "concurrent-once", "--only", "race-window", "--expect-fail"];
        let (_, xml, _) = idem_check(
            &url,
            &[&args[..], &["concurrent-once", "--junit-warnings", choice, "--format", "junit"]].concat(),
        );
        let cases = junit_cases(&xml);
        let (_, _, tag, _) = case(&cases, "race-window");
        assert_eq!(tag, expected, "--junit-warnings {choice}: {xml}");
    }
}

/// An HTTP/1.1-only server on a free port, answering what it cannot parse (the HTTP/2 preface
/// among it) with `400 Bad Request`, as h11 (uvicorn) and most HTTP/1.1 servers do; its URL.
fn http1_only_server() -> (KillOnDrop, String) {
    let script = crate::support::apps::app_path("http1_only_server_answering_400.py");
    let mut child = Command::new("python3").arg(script).stdout(Stdio::piped()).spawn().unwrap();
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap()).read_line(&mut line).unwrap();
    (KillOnDrop::new(child), format!("http://127.0.0.1:{}/payments", line.trim()))
}

#[test]
fn http2_against_an_http1_only_server_says_so() {
    let (_server, url) = http1_only_server();
    let mut race = idem();
    race.args(["race", &url, "-d", PAYMENT, "-n", "2", "--http2"]);
    let (code, _, stderr) = run(race);
    assert_eq!(code, 2);
    assert!(stderr.contains("this server answered in HTTP/1.1 (`HTTP/1.1 400 Bad Request`)"), "{stderr}");
    assert!(stderr.contains("drop --http2 (last-byte sync is used)"), "{stderr}");
    assert!(!stderr.contains("byte frame"), "{stderr}");
    let mut send = idem();
    send.args(["send", &url, "-d", PAYMENT, "--http2"]);
    let (code, _, stderr) = run(send);
    assert_eq!(code, 2);
    assert!(stderr.contains("HTTP/1.1-only server") && stderr.contains("drop --http2"), "{stderr}");
}

#[test]
fn https_to_a_plain_http_port_says_use_http() {
    let server = TestServer::start(ServeConfig::local(Mode::Correct));
    let plain = server.url("/payments");
    let https = plain.replace("http://", "https://");
    let authority = plain.trim_start_matches("http://").trim_end_matches("/payments").to_string();
    for command in ["send", "race"] {
        let mut run_it = idem();
        run_it.args([command, &https, "-d", PAYMENT]);
        let (code, _, stderr) = run(run_it);
        assert_eq!(code, 2, "{command}");
        assert!(
            stderr.contains(&format!("answered in plain HTTP, not TLS: use http://{authority}")),
            "{command}: {stderr}"
        );
        assert!(!stderr.contains("InvalidContentType"), "{command}: {stderr}");
    }
}

#[test]
fn verify_names_the_scheme_whose_header_the_request_carries() {
    let mut command = webhook();
    command.args(["verify", "--scheme", "github", "--secret", "s3cret", "-d", "{}"]);
    command.args(["-H", "Stripe-Signature: t=1700000000,v1=abc"]);
    let (code, stdout, stderr) = run(command);
    assert_eq!(code, 1, "{stdout}{stderr}");
    assert!(stdout.contains("this request carries Stripe-Signature: try --scheme stripe"), "{stdout}");
}

#[test]
fn secret_given_a_file_name_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("whsec.txt"), "whsec_abc\n").unwrap();
    let mut command = webhook();
    command.current_dir(dir.path()).args(["sign", "--scheme", "github", "--secret", "whsec.txt", "-d", "{}"]);
    let (code, stdout, stderr) = run(command);
    assert_eq!(code, 2, "{stdout}");
    assert!(
        stderr.contains("--secret takes the secret itself; whsec.txt is a file: use --secret-file whsec.txt"),
        "{stderr}"
    );
}

#[test]
fn values_from_the_environment_are_named_as_such() {
    let server = TestServer::start(ServeConfig::local(Mode::Correct));
    let mut race = idem();
    race.env("IDEM_KEY", "key-from-env").args(["race", &server.url("/payments"), "-d", PAYMENT, "--rounds", "2"]);
    let (code, _, stderr) = run(race);
    assert_eq!(code, 2);
    assert!(stderr.contains("IDEM_KEY (from the environment) fixes the key"), "{stderr}");
    assert!(!stderr.contains("--key fixes"), "{stderr}");
    let mut serve = idem();
    serve.env("IDEM_ADDR", "not-an-address").args(["serve"]);
    let (code, _, stderr) = run(serve);
    assert_eq!(code, 2);
    assert!(stderr.contains("that value comes from IDEM_ADDR (from the environment), not --addr"), "{stderr}");
}

#[test]
fn send_notes_a_missing_and_a_non_json_body() {
    let server = TestServer::start(ServeConfig::local(Mode::Correct));
    let url = server.url("/payments");
    let mut bodiless = idem();
    bodiless.args(["send", &url]);
    let (_, _, stderr) = run(bodiless);
    assert!(stderr.contains("note: this POST has no body; give one with -d"), "{stderr}");
    let mut not_json = idem();
    not_json.args(["send", &url, "-d", "{amount:1}"]);
    let (_, _, stderr) = run(not_json);
    assert!(stderr.contains("note: -d is not JSON (key must be a string"), "{stderr}");
    assert!(stderr.contains("sent as Content-Type: text/plain; charset=utf-8"), "{stderr}");
    let mut insisted = idem();
    insisted.args(["send", &url, "-d", "{amount:1}", "--json"]);
    let (code, _, stderr) = run(insisted);
    assert_eq!(code, 2);
    assert!(stderr.contains("--json insists on JSON"), "{stderr}");
}

#[test]
fn race_names_the_round_it_details_and_counts_in_words() {
    let server = TestServer::start(ServeConfig::local(Mode::Correct));
    let url = server.url("/payments");
    let mut race = idem();
    race.args(["race", &url, "-d", PAYMENT, "-n", "3", "--rounds", "2"]);
    let (code, stdout, stderr) = run(race);
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.contains("2 rounds: 2 safe, 0 executed more than once (worst: 1 execution)"), "{stdout}");
    assert!(stdout.contains("of 2, the worst (most executions, then most 2xx answers"), "{stdout}");
    let mut last = idem();
    last.args(["race", &url, "-d", PAYMENT, "-n", "3", "--rounds", "2", "--detail", "last"]);
    let (_, stdout, _) = run(last);
    assert!(stdout.contains("round 2 of 2, the last:"), "{stdout}");
    let mut beyond = idem();
    beyond.args(["race", &url, "-d", PAYMENT, "--rounds", "2", "--detail", "3"]);
    let (code, _, stderr) = run(beyond);
    assert_eq!(code, 2);
    assert!(stderr.contains("--detail 3: there are only 2 rounds"), "{stderr}");
}

#[test]
fn checks_left_out_by_only_are_one_line_in_the_table() {
    let server = TestServer::start(ServeConfig::local(Mode::Correct));
    let (code, table, stderr) =
        idem_check(&server.url("/payments"), &["--only", "retry-replays", "--only", "mismatch-rejected"]);
    assert_eq!(code, 0, "{table}{stderr}");
    let skips: Vec<&str> = table.lines().filter(|line| line.contains("not selected")).collect();
    assert_eq!(skips.len(), 1, "one line for the checks left out: {table}");
    assert!(skips[0].contains("checks not selected (--only/--skip): create, replay-marked"), "{}", skips[0]);
    assert!(table.contains("PASS  retry-replays") && table.contains("PASS  mismatch-rejected"), "{table}");
}

#[test]
fn strict_fails_on_an_expected_failure_that_did_not_run() {
    let server = TestServer::start(ServeConfig::local(Mode::Correct));
    let url = server.url("/payments");
    // caller-scoped needs a second caller (--as): without one it is skipped, so the known failure
    // it was expected to show is not watched.
    let watched = ["--only", "caller-scoped", "--only", "retry-replays", "--expect-fail", "caller-scoped"];
    let (code, stdout, stderr) = idem_check(&url, &[&watched[..], &["--format", "json"]].concat());
    assert_eq!(code, 0, "without --strict a note only: {stdout}{stderr}");
    let report = json(&stdout);
    assert_eq!(report["unwatched"], serde_json::json!(["caller-scoped"]), "{report:#}");
    let (code, stdout, stderr) = idem_check(&url, &[&watched[..], &["--strict", "--format", "json"]].concat());
    assert_eq!(code, 1, "{stdout}{stderr}");
    assert_eq!(json(&stdout)["passed"], false);
    let (code, table, _) = idem_check(&url, &[&watched[..], &["--strict"]].concat());
    assert_eq!(code, 1);
    assert!(table.contains("1 expected failure(s) did not run (--strict): caller-scoped"), "{table}");
    let (code, xml, _) = idem_check(&url, &[&watched[..], &["--strict", "--format", "junit"]].concat());
    assert_eq!(code, 1);
    assert!(xml.contains("<failure message=\"expected to fail (--expect-fail caller-scoped) but not run"), "{xml}");
}
