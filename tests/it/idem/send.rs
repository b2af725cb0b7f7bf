//! `idem send` through the real binary: every verdict, every exit status, and bad input.
use idem::testing::serve::{Mode, ServeConfig};
use predicates::prelude::*;
use serde_json::Value;

use crate::support::run::Run;
use crate::support::{CustomServer, Reply, TestServer, dead_port, idem, payment_ids, status_kib};

const PAYMENT: &str = r#"{"amount":1990,"currency":"RUB","order_id":42}"#;

#[test]
fn correct_mode_repeat_3_is_consistent_with_one_id() {
    let server = TestServer::start(ServeConfig::local(Mode::Correct));
    let output = idem().args(["send", &server.url("/payments"), "-d", PAYMENT, "--repeat", "3"]).assert().success();
    let stdout = String::from_utf8_lossy(&output.get_output().stdout).to_string();
    assert_eq!(payment_ids(&stdout).len(), 1, "{stdout}");
    assert!(stdout.contains("✓ answer replayed (replay marker / same server id): 3 answers"), "{stdout}");
    assert!(stdout.contains("side effects were not counted"), "{stdout}");
    assert!(stdout.contains("Idempotency-Key: "), "the key is printed so the user can retry: {stdout}");
    assert_eq!(server.summary().payments_created, 1);
}

#[test]
fn none_mode_repeat_3_exits_1_and_names_three_ids() {
    let server = TestServer::start(ServeConfig::local(Mode::None));
    let output = idem().args(["send", &server.url("/payments"), "-d", PAYMENT, "--repeat", "3"]).assert().code(1);
    let stdout = String::from_utf8_lossy(&output.get_output().stdout).to_string();
    assert!(stdout.contains("executed 3 times"), "{stdout}");
    let verdict = stdout.lines().find(|line| line.contains("executed 3 times")).unwrap();
    assert_eq!(payment_ids(verdict).len(), 3, "{verdict}");
}

#[test]
fn json_output_holds_the_key_every_attempt_and_the_verdict() {
    let server = TestServer::start(ServeConfig::local(Mode::Correct));
    let output = idem()
        .args([
            "send",
            &server.url("/payments"),
            "-d",
            PAYMENT,
            "--repeat",
            "2",
            "--format",
            "json",
            "--key",
            "fixed-key-1",
        ])
        .assert()
        .success();
    let report: Value = serde_json::from_slice(&output.get_output().stdout).expect("one JSON document");
    crate::support::schemas::validate(&report);
    assert_eq!(report["key"], "fixed-key-1");
    assert_eq!(report["key_header"], "idempotency-key");
    assert_eq!(report["attempts"].as_array().unwrap().len(), 2);
    assert_eq!(report["attempts"][0]["status"], 201);
    assert_eq!(report["attempts"][1]["replayed"], true);
    assert_eq!(report["attempts"][0]["body"]["amount"], 1990);
    assert_eq!(report["attempts"][1]["headers"]["idempotent-replayed"], "true");
    assert_eq!(report["judgement"]["verdict"]["kind"], "consistent");
    assert_eq!(report["judgement"]["executions"], 1);
    assert_eq!(report["judgement"]["body_match"], "identical");
}

#[test]
fn a_replay_with_a_different_body_is_an_inconsistent_replay() {
    let server = CustomServer::start(|request| {
        Reply::json(
            201,
            format!(
                r#"{{"id":"pay_same","status":"{}"}}"#,
                if request.sequence == 0 { "pending" } else { "succeeded" }
            ),
        )
    });
    let output = idem().args(["send", &server.url("/p"), "-d", PAYMENT, "--repeat", "2"]).assert().code(1);
    let stdout = String::from_utf8_lossy(&output.get_output().stdout).to_string();
    assert!(stdout.contains("inconsistent replay"), "{stdout}");
    assert!(stdout.contains(r#"at /status: "pending" → "succeeded""#), "the difference is shown: {stdout}");
}

#[test]
fn a_retry_answered_with_another_status_is_inconsistent() {
    let server = CustomServer::start(|request| {
        if request.sequence == 0 { Reply::json(201, r#"{"id":"pay_1"}"#) } else { Reply::json(409, "{}") }
    });
    idem()
        .args(["send", &server.url("/p"), "-d", PAYMENT, "--repeat", "2"])
        .assert()
        .code(1)
        .stdout(predicate::str::contains("#2 answered 409 where #1 answered 201"));
}

#[test]
fn the_key_header_the_key_and_no_key_reach_the_server() {
    let server = CustomServer::start(|request| {
        let seen = |name: &str| request.headers.get(name).map(|v| v.to_str().unwrap().to_string());
        Reply::json(
            200,
            serde_json::json!({ "id": "x", "key": seen("x-request-key"), "idem": seen("idempotency-key") }).to_string(),
        )
    });
    let output = idem()
        .args(["send", &server.url("/p"), "--key", "k-123", "--key-header", "X-Request-Key", "--format", "json"])
        .assert()
        .success();
    let report: Value = serde_json::from_slice(&output.get_output().stdout).unwrap();
    crate::support::schemas::validate(&report);
    assert_eq!(report["attempts"][0]["body"]["key"], "k-123");
    let output = idem().args(["send", &server.url("/p"), "--no-key", "--format", "json"]).assert().success();
    let report: Value = serde_json::from_slice(&output.get_output().stdout).unwrap();
    crate::support::schemas::validate(&report);
    assert_eq!(report["key"], Value::Null);
    assert_eq!(report["attempts"][0]["body"]["idem"], Value::Null);
}

#[test]
fn generated_keys_follow_the_key_format() {
    let server = TestServer::start(ServeConfig::local(Mode::Correct));
    let output = idem()
        .args(["send", &server.url("/payments"), "-d", PAYMENT, "--key-format", "uuid7", "--format", "json"])
        .assert()
        .success();
    let report: Value = serde_json::from_slice(&output.get_output().stdout).unwrap();
    crate::support::schemas::validate(&report);
    let key = report["key"].as_str().unwrap();
    assert_eq!(key.len(), 36);
    assert_eq!(&key[14..15], "7", "a UUID v7: {key}");
}

#[test]
fn the_body_can_come_from_a_file_or_stdin() {
    let server = TestServer::start(ServeConfig::local(Mode::Correct));
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("payment.json");
    std::fs::write(&file, PAYMENT).unwrap();
    idem().args(["send", &server.url("/payments"), "-d", &format!("@{}", file.display())]).assert().success();
    idem().args(["send", &server.url("/payments"), "-d", "@-"]).write_stdin(PAYMENT).assert().success();
    assert_eq!(server.summary().payments_created, 2);
}

#[test]
fn http2_prior_knowledge_works() {
    let server = TestServer::start(ServeConfig::local(Mode::Correct));
    idem().args(["send", &server.url("/payments"), "-d", PAYMENT, "--http2", "--repeat", "2"]).assert().success();
}

#[test]
fn an_unreachable_host_exits_2_with_a_clear_message() {
    let url = format!("http://127.0.0.1:{}/payments", dead_port());
    idem()
        .args(["send", &url, "-d", PAYMENT])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("cannot connect").and(predicate::str::contains("refused")));
}

#[test]
fn bad_input_exits_2_without_a_panic() {
    let cases: [&[&str]; 7] = [
        &["send", "http://127.0.0.1:1/p", "-d", "@/no/such/file.json"],
        &["send", "http://127.0.0.1:1/p", "-H", "no colon here"],
        &["send", "http://127.0.0.1:1/p", "-H", "bad name: x"],
        &["send", "ftp://127.0.0.1/p"],
        &["send", "http://127.0.0.1:1/p", "--repeat", "0"],
        &["send", "http://127.0.0.1:1/p", "--interval", "soon"],
        &["send", "http://127.0.0.1:1/p", "--id-field", "id"],
    ];
    for args in cases {
        let assert = idem().args(args).assert().code(2);
        let stderr = String::from_utf8_lossy(&assert.get_output().stderr).to_string();
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
        assert!(!stderr.trim().is_empty(), "{args:?} says nothing");
    }
}

#[test]
fn a_timeout_exits_2() {
    // A listener that accepts and never answers.
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}/p", listener.local_addr().unwrap());
    idem()
        .args(["send", &url, "--timeout", "200ms"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("no complete answer within 200ms"));
    drop(listener);
}

/// `-d @/dev/zero` is refused at the cap having cost the cap in memory and a small constant, not
/// two or three times the cap (growing a buffer by doubling copies it). The child's high-water
/// mark (VmHWM) is read from /proc while it runs.
#[test]
fn an_endless_body_is_refused_at_the_cap_without_costing_more_than_the_cap() {
    const CAP_KIB: u64 = 256 * 1024;
    let child = std::process::Command::new(assert_cmd::cargo::cargo_bin("idem"))
        .args(["send", "http://127.0.0.1:1/p", "-d", "@/dev/zero", "--max-body", "256MiB"])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("spawn");
    let status_path = format!("/proc/{}/status", child.id());
    let mut child = crate::support::KillOnDrop::new(child);
    let mut peak = 0;
    while child.try_wait().expect("try_wait").is_none() {
        if let Ok(status) = std::fs::read_to_string(&status_path)
            && status.contains("VmHWM:")
        {
            peak = peak.max(status_kib(&status, "VmHWM:"));
        }
    }
    let output = child.wait_with_output();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("larger than 256 MiB"), "{stderr}");
    assert!(peak >= CAP_KIB / 2, "the read was not observed (peak {peak} KiB)");
    assert!(peak <= CAP_KIB + 48 * 1024, "refusing the body cost {peak} KiB for a cap of {CAP_KIB} KiB");
}

/// An upstream that answers badly is described by what it did, not as unreachable.
#[test]
fn upstream_errors_say_what_the_upstream_did() {
    use std::io::{Read, Write};
    let answers: [(&[u8], &str); 3] = [
        (b"SSH-2.0-OpenSSH_9.6\r\n", "something that is not HTTP"),
        (b"HTTP/1.1 999999 Odd\r\nContent-Length: 0\r\n\r\n", "an invalid status"),
        (b"HTTP/1.1 200 OK\r\nX-Big: ", "a response head over"),
    ];
    for (answer, described) in answers {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
        let url = format!("http://{}/p", listener.local_addr().expect("addr"));
        let answer = answer.to_vec();
        std::thread::spawn(move || {
            for stream in listener.incoming() {
                let Ok(mut stream) = stream else { continue };
                let mut request = [0u8; 4096];
                let _ = stream.read(&mut request);
                let _ = stream.write_all(&answer);
                if answer.ends_with(b"X-Big: ") {
                    let _ = stream.write_all(&vec![b'a'; 1 << 20]);
                }
            }
        });
        let output = idem().args(["send", &url, "-d", "{}", "--timeout", "10s"]).output().expect("runs");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{stderr}");
        assert!(stderr.contains(described) && !stderr.contains("is it running"), "{described}: {stderr}");
        let output = idem()
            .args(["proxy", "--addr", "127.0.0.1:0", "--first", "0", "--upstream", &url])
            .args([
                "--",
                "sh",
                "-c",
                &format!(
                    "exec '{}' send \"$IDEM_PROXY_URL/p\" -d '{{}}'",
                    assert_cmd::cargo::cargo_bin("idem").display()
                ),
            ])
            .output()
            .expect("runs");
        let all = format!("{}{}", String::from_utf8_lossy(&output.stdout), String::from_utf8_lossy(&output.stderr));
        assert_eq!(output.status.code(), Some(2), "{all}");
        assert!(all.contains(described) && !all.contains("is it running"), "{described}: {all}");
    }
}

#[test]
fn max_requests_stops_before_the_request_over_the_budget_with_exit_2() {
    let server = TestServer::start(ServeConfig::local(Mode::Correct));
    let (code, stdout, stderr) =
        Run::idem(["send", &server.url("/payments"), "-d", PAYMENT, "--repeat", "5", "--max-requests", "2"])
            .finish()
            .parts();
    assert_eq!(code, 2, "{stdout}{stderr}");
    assert_eq!(server.summary().requests, 2, "the server got more than the budget: {stdout}");
    assert!(stdout.contains("#2 ") && !stdout.contains("#3 "), "the attempts sent are shown, no more: {stdout}");
    assert!(
        stderr.contains("--max-requests 2 reached: 2 requests were sent")
            && stderr.contains("the full run needs 5 requests"),
        "{stderr}"
    );
    // What the run cut short created, as far as its answers show.
    assert_eq!(server.summary().payments_created, 1);
    assert!(
        stderr.contains(
            "stopped after 2 attempts; created at least 1 resource by distinct ids in the answers before it stopped"
        ),
        "{stderr}"
    );
}

/// An order for the apps with a key store.
const ORDER: &str = r#"{"amount":500}"#;

/// A key store that hands back the first answer, with the server's own id, while the handler
/// runs again on every retry: the answers show a replay; only the ledger shows the charges.
fn handler_rerun_on_every_retry() -> crate::support::apps::PythonApp {
    crate::support::apps::PythonApp::start("orders_with_a_key_store.py", &["--rerun-handler"])
}

#[test]
fn a_replayed_answer_without_a_count_is_named_answer_replayed_never_executed_once() {
    use crate::support::run::Run;
    let app = handler_rerun_on_every_retry();
    let url = app.url("/orders");
    let send = || Run::idem(["send", &url, "-d", ORDER, "--repeat", "3"]);
    let human = send().expect_exit(0).finish();
    assert!(human.stdout.contains("✓ answer replayed (same server id): 3 answers, one resource"), "{}", human.stdout);
    assert!(human.stdout.contains("side effects were not counted") && human.stdout.contains("--count-url"));
    assert!(!human.stdout.contains("executed once"), "{}", human.stdout);
    let report = send().format_json().expect_exit(0).json();
    assert_eq!(report["judgement"]["verdict"]["kind"], "consistent");
    assert_eq!(report["judgement"]["evidence_level"], "answer", "{report:#}");

    // CI that wants ground truth does not get a ✓ the answers alone support.
    let required = send().args(["--require-count"]).expect_exit(2).finish();
    assert!(!required.stdout.contains('✓'), "{}", required.stdout);
    assert!(
        required.stderr.contains("ground truth was required (--require-count)")
            && required.stderr.contains("--count-url"),
        "{}",
        required.stderr
    );
    let report = send().args(["--require-count"]).format_json().expect_exit(2).json();
    assert_eq!(report["judgement"]["verdict"]["kind"], "unconfirmed");
    assert_eq!(report["judgement"]["evidence_level"], "answer");

    // The count shows what the answers hide: the handler ran for every request.
    let counted =
        send().args(["--count-url", &app.url("/charges"), "--count-pointer", "/count"]).expect_exit(1).finish();
    assert!(counted.stdout.contains("✗ executed 3 times: the count rose by 3"), "{}", counted.stdout);
}

#[test]
fn a_correct_server_with_a_count_is_executed_once_counted() {
    use crate::support::run::Run;
    let app = crate::support::apps::PythonApp::start("orders_with_a_key_store.py", &[]);
    let url = app.url("/orders");
    let count = app.url("/charges");
    let send =
        || Run::idem(["send", &url, "-d", ORDER, "--repeat", "3", "--count-url", &count, "--count-pointer", "/count"]);
    let human = send().expect_exit(0).finish();
    assert!(human.stdout.contains("✓ executed once (counted): 3 answers, one resource"), "{}", human.stdout);
    assert!(!human.stdout.contains("not counted"), "{}", human.stdout);
    let report = send().args(["--require-count"]).format_json().expect_exit(0).json();
    assert_eq!(report["judgement"]["evidence_level"], "count", "{report:#}");
    assert_eq!(report["judgement"]["evidence"][0]["kind"], "count");
}

/// `created` from `idem send --format json`: its basis and number.
fn created(report: &Value) -> (&str, Option<u64>) {
    (report["created"]["basis"].as_str().unwrap_or_default(), report["created"]["resources"].as_u64())
}

#[test]
fn the_summary_says_how_many_resources_the_count_saw_created() {
    // Keys ignored: three sends, three payments, and the count at idem serve's /payments shows them.
    let server = TestServer::start(ServeConfig::local(Mode::None));
    let count = ["--count-url", &server.url("/payments"), "--count-pointer", "/count"];
    let human = Run::idem(["send", &server.url("/payments"), "-d", PAYMENT, "--repeat", "3"])
        .args(count)
        .expect_exit(1)
        .finish();
    let line = human.stdout.lines().last().unwrap_or_default();
    assert_eq!(line, format!("created 3 resources by the count at GET {}/payments at /count", server.url("")));
    assert_eq!(server.summary().payments_created, 3);

    let server = TestServer::start(ServeConfig::local(Mode::Correct));
    let report = Run::idem(["send", &server.url("/payments"), "-d", PAYMENT, "--repeat", "3"])
        .args(["--count-url", &server.url("/payments"), "--count-pointer", "/count"])
        .format_json()
        .expect_exit(0)
        .json();
    assert_eq!(created(&report), ("count", Some(server.summary().payments_created as u64)), "{report:#}");
    assert_eq!(server.summary().payments_created, 1);
}

#[test]
fn without_a_count_the_distinct_ids_are_a_lower_bound() {
    let server = TestServer::start(ServeConfig::local(Mode::Correct));
    let human = Run::idem(["send", &server.url("/payments"), "-d", PAYMENT, "--repeat", "3"]).expect_exit(0).finish();
    assert!(
        human.stdout.contains("created at least 1 resource by distinct ids in the answers (a lower bound;"),
        "{}",
        human.stdout
    );
    let server = TestServer::start(ServeConfig::local(Mode::None));
    let report = Run::idem(["send", &server.url("/payments"), "-d", PAYMENT, "--repeat", "3"])
        .format_json()
        .expect_exit(1)
        .json();
    assert_eq!(created(&report), ("ids", Some(server.summary().payments_created as u64)), "{report:#}");
}

#[test]
fn one_id_for_every_execution_is_at_least_one_and_the_count_says_how_many() {
    // A server that ignores the key and names every payment alike: the ids show one, the ledger three.
    let executed = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let seen = executed.clone();
    let server = CustomServer::start(move |request| match request.method.as_str() {
        "POST" => {
            seen.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
            Reply::json(201, r#"{"id":"pay_same"}"#)
        }
        _ => Reply::json(200, format!(r#"{{"count":{}}}"#, seen.load(std::sync::atomic::Ordering::SeqCst))),
    });
    let send = || Run::idem(["send", &server.url("/p"), "-d", PAYMENT, "--repeat", "3"]);
    let by_ids = send().format_json().finish();
    assert_eq!(created(&by_ids.json()), ("ids", Some(1)), "{}", by_ids.stdout);
    let by_count = send()
        .args(["--count-url", &server.url("/count"), "--count-pointer", "/count"])
        .format_json()
        .expect_exit(1)
        .json();
    assert_eq!(created(&by_count), ("count", Some(3)), "{by_count:#}");
    assert_eq!(executed.load(std::sync::atomic::Ordering::SeqCst), 6);
}

#[test]
fn answers_without_ids_and_no_count_give_no_number() {
    let server = CustomServer::start(|_| Reply::json(200, r#"{"ok":true}"#));
    let human = Run::idem(["send", &server.url("/p"), "-d", PAYMENT, "--repeat", "2"]).expect_exit(2).finish();
    let line = human.stdout.lines().last().unwrap_or_default();
    assert_eq!(line, "resources created: unknown (no ids in the answers; give --count-url)", "{}", human.stdout);
    let report =
        Run::idem(["send", &server.url("/p"), "-d", PAYMENT, "--repeat", "2"]).format_json().expect_exit(2).json();
    assert_eq!(created(&report), ("unknown", None), "{report:#}");
}
