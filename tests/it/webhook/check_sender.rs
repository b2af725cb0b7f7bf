//! `webhook check-sender` against `webhook send` (every scheme) and against small senders written
//! here in Python (stdlib only), each getting one thing wrong on purpose: the exact outcome of every
//! check is asserted, with the evidence that names the flaw. Holds end when the sender gives up
//! (its 1-second timeout), so each run takes a few seconds.
use std::collections::HashMap;
use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};

use serde_json::Value;

use crate::support::apps::app_path;
use crate::support::run::Run;
use crate::support::{SECRET, suite_evidence, suite_outcomes, webhook};

/// The `webhook` binary the tests run as the sender.
fn webhook_bin() -> String {
    assert_cmd::cargo::cargo_bin("webhook").display().to_string()
}

/// Runs `webhook check-sender` with `args` and the sender `command`, `--format json`, the secret
/// in WEBHOOK_SECRET (so the sender inherits it). Returns the exit status, the report and stderr
/// (the live lines).
fn check_sender(args: &[&str], command: &[&str]) -> (i32, Value, String) {
    let finished = Run::webhook(["check-sender", "--addr", "127.0.0.1:0", "--format", "json"])
        .env("WEBHOOK_SECRET", SECRET)
        .args(args)
        .args(["--"])
        .args(command)
        .never_printing(SECRET)
        .finish();
    (finished.code, finished.json(), finished.stderr)
}

/// Three events sent one after the other by `webhook send` with its default policy, scaled down.
fn webhook_send_sender(scheme: &str) -> Vec<String> {
    let script = format!(
        "for event in one two three; do \"{}\" send \"$WEBHOOK_URL\" --scheme {scheme} --event payment.$event \
         --time-scale 0.001 --timeout 1s >/dev/null; done",
        webhook_bin()
    );
    vec!["sh".into(), "-c".into(), script]
}

/// Every required check passed, but timestamp-skew, which schemes without a signed time skip.
fn assert_required_pass(scheme: &str, report: &Value) {
    let timestamped = ["stripe", "standard", "slack"].contains(&scheme);
    for check in report["checks"].as_array().unwrap() {
        if check["level"] != "required" {
            continue;
        }
        // The default script has no 3xx step, so redirect-not-followed has nothing to judge.
        let skipped = (check["id"] == "timestamp-skew" && !timestamped) || check["id"] == "redirect-not-followed";
        let expected = if skipped { "skip" } else { "pass" };
        assert_eq!(check["outcome"], expected, "{scheme} {}: {:#}", check["id"], check["evidence"]);
    }
}

#[test]
fn webhook_send_passes_every_required_check_in_every_scheme() {
    let threads: Vec<_> = ["hmac", "github", "stripe", "standard", "slack", "shopify"]
        .into_iter()
        .map(|scheme| {
            std::thread::spawn(move || {
                let command = webhook_send_sender(scheme);
                let command: Vec<&str> = command.iter().map(String::as_str).collect();
                let (status, report, stderr) = check_sender(&["--scheme", scheme, "--timeout", "20s"], &command);
                assert_required_pass(scheme, &report);
                assert_eq!(status, 0, "{scheme}: {report:#}");
                let events = report["events"].as_array().unwrap();
                assert_eq!(events.len(), 3, "{scheme}: {report:#}");
                let steps: Vec<&str> =
                    events[0]["attempts"].as_array().unwrap().iter().map(|a| a["step"].as_str().unwrap()).collect();
                assert_eq!(steps, ["500", "hold", "429:3", "200"], "{scheme}");
                assert!(stderr.contains("event 1 attempt 2  the sender gave up after "), "{scheme}: {stderr}");
                assert_eq!(report["sender"]["exit"], "exit status 0", "{scheme}");
            })
        })
        .collect();
    for thread in threads {
        thread.join().unwrap();
    }
}

#[test]
fn webhook_send_honours_retry_after_in_real_time() {
    let command = format!(
        "\"{}\" send \"$WEBHOOK_URL\" --scheme stripe --event invoice.paid --backoff 200ms --timeout 1s",
        webhook_bin()
    );
    let (status, report, _) =
        check_sender(&["--scheme", "stripe", "--script", "429:1,200", "--timeout", "10s"], &["sh", "-c", &command]);
    assert_eq!(status, 0, "{report:#}");
    let outcomes = suite_outcomes(&report);
    assert_eq!(outcomes["honours-retry-after"], "pass", "{report:#}");
    assert!(suite_evidence(&report, "honours-retry-after").contains("429 with Retry-After: 1 on attempt 1"));
}

/// The outcome of every check for the Python sender without a flaw: all pass but sender-timeout,
/// because its 1-second timeout is shorter than providers allow.
fn sound() -> HashMap<String, String> {
    [
        ("signed", "pass"),
        ("event-id-stable", "pass"),
        ("body-stable", "pass"),
        ("retries-after-5xx", "pass"),
        ("retries-after-timeout", "pass"),
        ("sender-timeout", "warn"),
        ("backoff-grows", "pass"),
        ("honours-retry-after", "pass"),
        ("stops-after-2xx", "pass"),
        ("stops-after-410", "pass"),
        ("fresh-timestamp", "pass"),
        ("timestamp-skew", "pass"),
        ("content-type-json", "pass"),
        ("identifies-itself", "pass"),
        // The script has no 3xx; the 429 is followed by a wait of its Retry-After.
        ("redirect-not-followed", "skip"),
        ("throttles-after-429", "pass"),
        ("secret-length", "pass"),
    ]
    .into_iter()
    .map(|(id, outcome)| (id.to_string(), outcome.to_string()))
    .collect()
}

/// Runs the Python sender with `flaw` against the default script, shortened to a 1-second
/// Retry-After.
fn python_sender(flaw: &str, timeout: &str) -> (i32, Value) {
    python_sender_with(flaw, timeout, "500,hold,429:1,200;410;200")
}

fn python_sender_with(flaw: &str, timeout: &str, script: &str) -> (i32, Value) {
    // A Standard Webhooks sender in a few lines of Python; `flaw` breaks one thing it does.
    let sender = app_path("standard_webhooks_sender_with_a_flaw.py").display().to_string();
    let args = ["--scheme", "standard", "--script", script, "--timeout", timeout];
    let (status, report, _) = check_sender(&args, &["python3", &sender, flaw]);
    (status, report)
}

fn expect(flaw: &str, timeout: &str, differences: &[(&str, &str)], status: i32) -> Value {
    let (code, report) = python_sender(flaw, timeout);
    let mut expected = sound();
    for (id, outcome) in differences {
        expected.insert(id.to_string(), outcome.to_string());
    }
    assert_eq!(suite_outcomes(&report), expected, "{flaw}: {report:#}");
    assert_eq!(code, status, "{flaw}");
    report
}

#[test]
fn a_sound_sender_passes_all_but_the_short_timeout() {
    let report = expect("none", "20s", &[], 0);
    assert!(suite_evidence(&report, "sender-timeout").contains("the sender gave up after "), "{report:#}");
    assert!(suite_evidence(&report, "fresh-timestamp").contains("attempt 4 arrived"), "{report:#}");
}

#[test]
fn a_sender_that_never_retries_fails_retries_after_5xx() {
    let skipped = [
        ("body-stable", "skip"),
        ("retries-after-5xx", "fail"),
        ("retries-after-timeout", "skip"),
        ("sender-timeout", "skip"),
        ("backoff-grows", "skip"),
        ("honours-retry-after", "skip"),
        ("fresh-timestamp", "skip"),
        ("throttles-after-429", "skip"),
    ];
    let report = expect("never-retry", "3s", &skipped, 1);
    let evidence = suite_evidence(&report, "retries-after-5xx");
    assert!(
        evidence.contains("was answered 500 on attempt 1 and never sent again, and the sender exited"),
        "{evidence}"
    );
}

#[test]
fn a_sender_that_mints_a_new_id_per_attempt_fails_event_id_stable() {
    let report = expect("new-id", "20s", &[("event-id-stable", "fail")], 1);
    let evidence = suite_evidence(&report, "event-id-stable");
    assert!(
        evidence.contains("event 1: the same body arrived under 4 ids: msg_1_1, msg_1_2, msg_1_3, msg_1_4"),
        "{evidence}"
    );
}

#[test]
fn a_sender_that_resends_the_first_signature_warns_on_fresh_timestamp() {
    let report = expect("stale-signature", "20s", &[("fresh-timestamp", "warn")], 0);
    let evidence = suite_evidence(&report, "fresh-timestamp");
    assert!(
        evidence.contains("and was signed 0s after it") && evidence.contains("an earlier signature was sent again"),
        "{evidence}"
    );
}

#[test]
fn a_sender_that_retries_immediately_warns_on_backoff_and_retry_after() {
    // Its retries all come within the first second and a half, too soon to judge the signed time.
    let differences = [
        ("backoff-grows", "warn"),
        ("honours-retry-after", "warn"),
        ("fresh-timestamp", "skip"),
        ("throttles-after-429", "warn"),
    ];
    let report = expect("immediate", "20s", &differences, 0);
    assert!(suite_evidence(&report, "backoff-grows").contains("(immediate)"), "{report:#}");
    assert!(suite_evidence(&report, "honours-retry-after").contains("429 with Retry-After: 1 on attempt 3"));
}

#[test]
fn a_sender_that_ignores_retry_after_warns_on_it() {
    let differences = [("honours-retry-after", "warn"), ("throttles-after-429", "warn")];
    let report = expect("ignore-retry-after", "20s", &differences, 0);
    let evidence = suite_evidence(&report, "honours-retry-after");
    assert!(evidence.contains("attempt 4 came 4") || evidence.contains("ms later"), "{evidence}");
}

#[test]
fn a_sender_that_keeps_going_after_410_warns_on_it() {
    let report = expect("ignore-410", "20s", &[("stops-after-410", "warn")], 0);
    let evidence = suite_evidence(&report, "stops-after-410");
    assert!(evidence.contains("event 2 (msg_2): 410 on attempt 1, and it was sent 4 more time(s)"), "{evidence}");
}

#[test]
fn the_journal_records_every_attempt_and_junit_parses() {
    let dir = tempfile::tempdir().unwrap();
    let journal = dir.path().join("attempts.jsonl");
    let command = format!(
        "for event in one two; do \"{}\" send \"$WEBHOOK_URL\" --scheme github --event push.$event --time-scale 0.001; done",
        webhook_bin()
    );
    let output = webhook()
        .env("WEBHOOK_SECRET", SECRET)
        .args(["check-sender", "--addr", "127.0.0.1:0", "--scheme", "github", "--script", "500,200;200"])
        .args(["--format", "junit", "--timeout", "20s", "--record"])
        .arg(&journal)
        .args(["--", "sh", "-c", &command])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0), "{}", String::from_utf8_lossy(&output.stderr));
    let xml = String::from_utf8(output.stdout).unwrap();
    let document = roxmltree::Document::parse(&xml).unwrap_or_else(|err| panic!("not XML ({err}): {xml}"));
    let cases = document.descendants().filter(|node| node.has_tag_name("testcase")).count();
    assert_eq!(cases, 17, "{xml}");
    let (records, warning) = idem::testing::journal::read_journal(&journal).unwrap();
    assert_eq!(warning, None);
    let statuses: Vec<(u32, u16)> = records.iter().map(|record| (record.attempt, record.status)).collect();
    assert_eq!(statuses, [(1, 500), (2, 200), (1, 200)]);
    assert!(records.iter().all(|record| record.verdict.valid && record.event_type.as_deref().is_some()));
    assert_eq!(records[0].event_id, records[1].event_id);
}

#[test]
fn without_a_sender_command_it_waits_for_the_events_then_grades() {
    let mut child = crate::support::KillOnDrop::new(
        Command::new(webhook_bin())
            .env("NO_COLOR", "1")
            .env("WEBHOOK_SECRET", SECRET)
            .args(["check-sender", "--addr", "127.0.0.1:0", "--scheme", "hmac", "--script", "200", "--timeout", "20s"])
            .stdout(Stdio::piped())
            .spawn()
            .unwrap(),
    );
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut banner = String::new();
    stdout.read_line(&mut banner).unwrap();
    let url = banner.split_whitespace().find(|word| word.starts_with("http://")).expect("the URL on the first line");
    webhook().env("WEBHOOK_SECRET", SECRET).args(["send", url, "--event", "ping"]).assert().success();
    let mut rest = String::new();
    std::io::Read::read_to_string(&mut stdout, &mut rest).unwrap();
    assert!(child.wait().unwrap().success(), "{rest}");
    assert!(rest.contains("event 1 attempt 1  ✓ signed"), "{rest}");
    assert!(rest.contains("PASS  stops-after-2xx"), "{rest}");
    assert!(rest.contains("SKIP  retries-after-5xx"), "{rest}");
}

#[test]
fn bad_input_exits_2_with_a_message() {
    let secret_file = "/nonexistent/secret.txt";
    let cases: [(&[&str], &str); 6] = [
        (&["--secret", SECRET, "--script", "500,ok"], "is not a step"),
        (&["--secret", SECRET, "--script", "429:soon"], "must be whole seconds"),
        (&["--secret-file", secret_file], "cannot read the secret file"),
        (&[], "no signing secret"),
        (&["--secret", SECRET, "--timeout", "0"], "--timeout must be longer than 0"),
        (&["--secret", SECRET, "--", "/nonexistent/sender"], "cannot start the sender"),
    ];
    for (args, message) in cases {
        let output = webhook().args(["check-sender", "--addr", "127.0.0.1:0"]).args(args).output().unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains(message), "{args:?}: {stderr}");
        assert!(!stderr.contains(SECRET));
    }
    let output = webhook()
        .args(["check-sender", "--addr", "127.0.0.1:0", "--secret", SECRET, "--timeout", "2s", "--", "true"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("no webhook arrived") && stderr.contains("exited (exit status 0)"), "{stderr}");
    // A sender that fails before delivering anything is reported at once, not after --timeout.
    let output = webhook()
        .args(["check-sender", "--addr", "127.0.0.1:0", "--secret", SECRET, "--timeout", "10m", "--", "false"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("the sender exited (exit status 1) without delivering"), "{stderr}");
    assert!(!stderr.contains("waiting up to"), "{stderr}");
}

#[test]
fn a_sender_still_running_at_the_timeout_is_stopped_with_what_it_started() {
    let dir = tempfile::tempdir().unwrap();
    let late = dir.path().join("late");
    // The subshell outlives `sh` unless its whole process group is stopped.
    let command = format!(
        "\"{}\" send \"$WEBHOOK_URL\" --scheme hmac --event ping >/dev/null; (sleep 2; touch \"{}\") & wait",
        webhook_bin(),
        late.display()
    );
    let (status, report, stderr) =
        check_sender(&["--scheme", "hmac", "--script", "200", "--timeout", "1s"], &["sh", "-c", &command]);
    assert_eq!(status, 0, "{report:#}");
    assert_eq!(report["sender"]["exit"], Value::Null, "{report:#}");
    assert!(stderr.contains("the sender was still running after 1.00s; stopped it"), "{stderr}");
    std::thread::sleep(std::time::Duration::from_millis(2_500));
    assert!(!late.exists(), "a process the sender started kept running");
}

/// A script that answers 307 (to another path), then 502 and 429 with no Retry-After.
const REDIRECT_SCRIPT: &str = "307,502,429,200;200;200";

#[test]
fn a_sender_that_treats_a_307_as_a_failure_and_backs_off_passes_the_etiquette_checks() {
    let (code, report) = python_sender_with("none", "20s", REDIRECT_SCRIPT);
    let outcomes = suite_outcomes(&report);
    assert_eq!(
        (outcomes["redirect-not-followed"].as_str(), outcomes["throttles-after-429"].as_str()),
        ("pass", "pass"),
        "{report:#}"
    );
    assert_eq!(code, 0, "{report:#}");
    let evidence = suite_evidence(&report, "redirect-not-followed");
    assert!(evidence.contains("307 on attempt 1: not followed; attempt 2 came to the original URL"), "{evidence}");
    let evidence = suite_evidence(&report, "throttles-after-429");
    assert!(evidence.contains("502 on attempt 2") && evidence.contains("429 on attempt 3"), "{evidence}");
}

#[test]
fn a_sender_that_follows_a_redirect_fails_redirect_not_followed() {
    let (code, report) = python_sender_with("follow-redirect", "10s", REDIRECT_SCRIPT);
    assert_eq!(suite_outcomes(&report)["redirect-not-followed"], "fail", "{report:#}");
    assert_eq!(code, 1);
    let evidence = suite_evidence(&report, "redirect-not-followed");
    assert!(evidence.contains("followed it to the Location"), "{evidence}");
    let check =
        report["checks"].as_array().unwrap().iter().find(|check| check["id"] == "redirect-not-followed").unwrap();
    assert!(check["fix"].as_str().unwrap().starts_with("do not follow redirects"), "{check:#}");
}

#[test]
fn a_sender_that_retries_at_once_after_502_and_429_warns_on_throttling() {
    let (code, report) = python_sender_with("immediate", "20s", REDIRECT_SCRIPT);
    assert_eq!(suite_outcomes(&report)["throttles-after-429"], "warn", "{report:#}");
    assert_eq!(code, 0, "advisory");
}

#[test]
fn webhook_send_does_not_follow_a_redirect_and_retries_the_original_url() {
    let command = format!(
        "\"{}\" send \"$WEBHOOK_URL\" --scheme standard --event invoice.paid --backoff 200ms --timeout 1s",
        webhook_bin()
    );
    let (status, report, _) = check_sender(
        &["--scheme", "standard", "--secret", SECRET, "--script", "307,200", "--timeout", "10s"],
        &["sh", "-c", &command],
    );
    assert_eq!(suite_outcomes(&report)["redirect-not-followed"], "pass", "{report:#}");
    assert_eq!(status, 0, "{report:#}");
}

#[test]
fn a_standard_secret_shorter_than_24_bytes_warns_on_secret_length() {
    // 16 bytes: the sender signs with it correctly, but the spec wants 24 to 64.
    let short = "whsec_AAECAwQFBgcICQoLDA0ODw==";
    let command =
        format!("\"{}\" send \"$WEBHOOK_URL\" --scheme standard --event invoice.paid --timeout 1s", webhook_bin());
    let output = webhook()
        .env("WEBHOOK_SECRET", short)
        .args(["check-sender", "--addr", "127.0.0.1:0", "--format", "json", "--scheme", "standard"])
        .args(["--script", "200", "--timeout", "10s", "--", "sh", "-c", &command])
        .output()
        .unwrap();
    let report: Value = serde_json::from_slice(&output.stdout).unwrap();
    let outcomes = suite_outcomes(&report);
    assert_eq!((outcomes["signed"].as_str(), outcomes["secret-length"].as_str()), ("pass", "warn"), "{report:#}");
    assert!(suite_evidence(&report, "secret-length").contains("decodes to 16 bytes; the spec wants 24 to 64"));
    assert_eq!(output.status.code(), Some(0));
}

#[test]
fn a_run_that_judges_nothing_is_exit_2_never_a_check_mark() {
    // One event, answered 200 at once, sent by `webhook send`.
    let send = format!("\"{}\" send \"$WEBHOOK_URL\" --scheme hmac --event ping >/dev/null", webhook_bin());
    let suite = |extra: Vec<String>| {
        let send = send.clone();
        move |format: &str| {
            let mut command = webhook();
            command
                .env("WEBHOOK_SECRET", SECRET)
                .args(["check-sender", "--addr", "127.0.0.1:0", "--scheme", "hmac", "--script", "200"])
                .args(&extra)
                .args(["--format", format, "--", "sh", "-c", &send]);
            command
        }
    };
    let every: Vec<String> = crate::support::suite_ids({
        let mut list = webhook();
        list.arg("check-sender");
        list
    })
    .into_iter()
    .flat_map(|id| ["--skip".to_string(), id])
    .collect();
    crate::support::assert_nothing_checked(suite(every), "--only and --skip leave no check to run");
    let both = ["--only", "signed", "--skip", "signed"].map(String::from).to_vec();
    crate::support::assert_nothing_checked(suite(both), "--only and --skip leave no check to run");
    // A script with no 3xx step gives redirect-not-followed nothing to judge.
    let unjudged = ["--only", "redirect-not-followed"].map(String::from).to_vec();
    crate::support::assert_nothing_checked(suite(unjudged), "1 skipped (redirect-not-followed: ");
}

#[test]
fn a_sender_that_exits_without_delivering_everything_ends_the_wait() {
    // `true` delivers nothing and leaves nothing running: said at once, not after --timeout.
    let output = webhook()
        .args(["check-sender", "--addr", "127.0.0.1:0", "--secret", SECRET, "--timeout", "60s", "--", "true"])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("the sender exited (exit status 0) without delivering"), "{stderr}");
    assert!(!stderr.contains("waiting up to"), "{stderr}");

    // One event of the three the script waits for, then gone: judged on what arrived.
    let one = format!("\"{}\" send \"$WEBHOOK_URL\" --scheme hmac --event ping >/dev/null", webhook_bin());
    let (status, report, stderr) =
        check_sender(&["--scheme", "hmac", "--script", "200;200;200", "--timeout", "60s"], &["sh", "-c", &one]);
    assert_eq!(report["events"].as_array().unwrap().len(), 1, "{report:#}");
    assert_eq!(report["sender"]["exit"], "exit status 0", "{report:#}");
    assert!(stderr.contains("the sender exited and left nothing running"), "{stderr}");
    assert!(!stderr.contains("waiting up to"), "{stderr}");
    assert_eq!(status, 0, "what arrived is signed and answered as scripted: {report:#}");

    // What it left running in the background may still deliver, so that is waited for.
    let later = format!("(sleep 1; {one}) &");
    let (status, report, stderr) =
        check_sender(&["--scheme", "hmac", "--script", "200", "--timeout", "60s"], &["sh", "-c", &later]);
    assert!(stderr.contains("waiting up to"), "{stderr}");
    assert_eq!(report["events"].as_array().unwrap().len(), 1, "{report:#}");
    assert_eq!(status, 0, "{report:#}");
}

/// SIGTERM a second into `webhook check-sender` says the run was interrupted, not that the
/// sender outlived the --timeout.
#[test]
fn an_interrupted_check_sender_says_it_was_interrupted() {
    let child = std::process::Command::new(assert_cmd::cargo::cargo_bin("webhook"))
        .args(["check-sender", "--addr", "127.0.0.1:0", "--secret", "s3cr3t", "--timeout", "1m"])
        .args(["--", "sleep", "30"])
        .env("NO_COLOR", "1")
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("spawn");
    let child = crate::support::KillOnDrop::new(child);
    // The banner is printed once the receiver listens and the signal handler is installed.
    std::thread::sleep(std::time::Duration::from_secs(1));
    std::process::Command::new("kill").args(["-TERM", &child.id().to_string()]).status().expect("kill");
    let output = child.wait_with_output();
    let stderr = format!("{}{}", String::from_utf8_lossy(&output.stdout), String::from_utf8_lossy(&output.stderr));
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("interrupted after"), "{stderr}");
    assert!(!stderr.contains("still running after 1m"), "{stderr}");
}
