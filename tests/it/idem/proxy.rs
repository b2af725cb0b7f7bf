//! `idem proxy` through the real binary: every fault, every verdict, clients written in Python
//! (stdlib `urllib`) and `idem send --retry` as the clients under test, HTTP/1.1, h2c and TLS, a
//! dead upstream, byte-identical pass-through, and bad flags.
use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use bytes::Bytes;
use http::{HeaderMap, Method, Request};
use idem::testing::client::{ClientOptions, Exchange, HttpClient};
use idem::testing::proxy::Selection;
use idem::testing::proxy::{self, ProxyConfig};
use idem::testing::serve::{Mode, ServeConfig};
use serde_json::Value;

use crate::support::apps::app_path;
use crate::support::{CustomServer, Reply, TestServer, dead_port, idem, payment_ids, runtime, status_kib};

const PAYMENT: &str = r#"{"amount":1990,"currency":"RUB","order_id":42}"#;

/// The client under test, in Python: posts a payment and retries failures. The environment
/// picks the behaviour: CLIENT_KEY keep|new|none|change-body, CLIENT_RETRIES, CLIENT_WAIT
/// (seconds between attempts) and CLIENT_TIMEOUT (seconds).
fn python_client() -> std::path::PathBuf {
    app_path("payment_client_that_retries.py")
}

fn stdout_of(output: &std::process::Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

/// The `summary` document, the last JSON line of `--format json`.
fn summary(output: &std::process::Output) -> Value {
    let stdout = stdout_of(output);
    let last = stdout.lines().last().unwrap_or_default();
    let line: Value = serde_json::from_str(last).unwrap_or_else(|err| panic!("{err}: {stdout}"));
    crate::support::schemas::lines(stdout.as_bytes());
    assert_eq!(line["event"], "summary", "{stdout}");
    line["summary"].clone()
}

/// The `attempt` lines of `--format json`.
fn attempts(output: &std::process::Output) -> Vec<Value> {
    stdout_of(output)
        .lines()
        .filter_map(|line| serde_json::from_str::<Value>(line).ok())
        .filter(|line| line["event"] == "attempt")
        .collect()
}

fn finding_kinds(summary: &Value) -> Vec<String> {
    summary["operations"]
        .as_array()
        .expect("operations")
        .iter()
        .flat_map(|op| op["findings"].as_array().cloned().unwrap_or_default())
        .map(|finding| finding["kind"].as_str().unwrap_or_default().to_string())
        .collect()
}

/// `idem proxy` in front of `upstream` in JSON, running the Python client with `env`.
fn proxy_python(upstream: &str, flags: &[&str], env: &[(&str, &str)]) -> assert_cmd::assert::Assert {
    let client = python_client();
    let mut command = idem();
    command.args(["proxy", "--upstream", upstream, "--addr", "127.0.0.1:0", "--format", "json"]).args(flags);
    command.arg("--").arg("python3").arg(&*client);
    for (name, value) in env {
        command.env(name, value);
    }
    let assert = command.assert();
    drop(client);
    assert
}

/// `idem proxy` in front of `upstream`, running `idem send URL/payments` with `send_flags`.
fn proxy_idem_send(upstream: &str, flags: &[&str], send_flags: &[&str]) -> assert_cmd::assert::Assert {
    let script = tempfile::Builder::new().suffix(".sh").tempfile().expect("temp file");
    let text = format!(
        "#!/bin/sh\nexec '{}' send \"$IDEM_PROXY_URL/payments\" -d '{PAYMENT}' \"$@\"\n",
        assert_cmd::cargo::cargo_bin("idem").display()
    );
    std::fs::write(script.path(), text).expect("write the script");
    let path = script.into_temp_path();
    let mut command = idem();
    command.args(["proxy", "--upstream", upstream, "--addr", "127.0.0.1:0"]).args(flags);
    command.arg("--").arg("sh").arg(&*path).args(send_flags);
    command.assert()
}

#[test]
fn idem_send_retry_keeps_its_key_and_is_judged_safe() {
    let server = TestServer::start(ServeConfig::local(Mode::Correct));
    let output = proxy_idem_send(&server.url(""), &[], &["--retry", "3"]).success();
    let stdout = stdout_of(output.get_output());
    assert!(stdout.contains("lose-answer"), "{stdout}");
    assert!(stdout.contains("handled all 1 operation(s) safely"), "{stdout}");
    assert_eq!(payment_ids(&stdout).len(), 1, "{stdout}");
    assert_eq!(server.summary().payments_created, 1);
}

#[test]
fn idem_send_new_key_per_retry_is_caught_with_both_payment_ids() {
    let server = TestServer::start(ServeConfig::local(Mode::Correct));
    let output = proxy_idem_send(&server.url(""), &[], &["--retry", "3", "--new-key-per-retry"]).code(1);
    let stdout = stdout_of(output.get_output());
    let finding = stdout.lines().find(|line| line.contains("retried with a different key")).expect(&stdout);
    assert_eq!(payment_ids(finding).len(), 2, "{finding}");
    assert_eq!(server.summary().payments_created, 2, "the second charge really happened");
}

#[test]
fn h2c_clients_are_proxied_and_judged_the_same() {
    let server = TestServer::start(ServeConfig::local(Mode::Correct));
    let output = proxy_idem_send(&server.url(""), &[], &["--retry", "3", "--http2"]).success();
    assert!(stdout_of(output.get_output()).contains("safely"));
    assert_eq!(server.summary().payments_created, 1);
}

#[test]
fn tls_in_front_of_an_https_upstream() {
    let mut config = ServeConfig::local(Mode::Correct);
    config.tls = true;
    let server = TestServer::start(config);
    assert!(server.url("").starts_with("https://"));
    let output = proxy_idem_send(&server.url(""), &["--tls", "-k"], &["--retry", "3", "-k"]).success();
    let stdout = stdout_of(output.get_output());
    assert!(stdout.contains("listening on https://"), "{stdout}");
    assert!(stdout.contains("safely"), "{stdout}");
    assert_eq!(server.summary().payments_created, 1);
}

#[test]
fn a_python_client_that_keeps_its_key_is_safe() {
    let server = TestServer::start(ServeConfig::local(Mode::Correct));
    let output = proxy_python(&server.url(""), &[], &[("CLIENT_KEY", "keep")]).success();
    let summary = summary(output.get_output());
    assert_eq!(summary["verdict"], "safe");
    assert_eq!(summary["operations"][0]["outcome"], "safe");
    assert_eq!(summary["operations"][0]["executions"], 1);
    assert_eq!(summary["client_exit"]["code"], 0);
    let attempts = attempts(output.get_output());
    assert_eq!(attempts[0]["fault"], "lose-answer");
    assert_eq!(attempts[0]["upstream_status"], 201, "the upstream executed before the answer was lost");
    assert_eq!(attempts[0]["client_status"], Value::Null);
    assert_eq!(attempts[1]["replayed"], true);
    assert_eq!(server.summary().payments_created, 1);
}

#[test]
fn a_python_client_that_makes_a_new_key_per_attempt_charges_twice() {
    let server = TestServer::start(ServeConfig::local(Mode::Correct));
    let output = proxy_python(&server.url(""), &[], &[("CLIENT_KEY", "new")]).code(1);
    let summary = summary(output.get_output());
    assert_eq!(summary["verdict"], "client_mistakes");
    assert_eq!(finding_kinds(&summary), ["new_key"]);
    assert_eq!(summary["operations"][0]["resource_ids"].as_array().unwrap().len(), 2);
    assert_eq!(server.summary().payments_created, 2);
}

#[test]
fn a_python_client_without_a_key_charges_twice() {
    let server = TestServer::start(ServeConfig::local(Mode::Correct));
    let output = proxy_python(&server.url(""), &[], &[("CLIENT_KEY", "none")]).code(1);
    let summary = summary(output.get_output());
    assert_eq!(finding_kinds(&summary), ["no_key"]);
    assert_eq!(summary["operations"][0]["executions"], 2);
    assert_eq!(summary["operations"][0]["keys"], serde_json::json!([null]));
}

#[test]
fn the_same_key_with_another_body_shows_the_upstreams_422() {
    let server = TestServer::start(ServeConfig::local(Mode::Correct));
    let output = proxy_python(&server.url(""), &[], &[("CLIENT_KEY", "change-body"), ("CLIENT_RETRIES", "1")]).code(1);
    let summary = summary(output.get_output());
    assert_eq!(finding_kinds(&summary), ["body_changed"]);
    let message = summary["operations"][0]["findings"][0]["message"].as_str().unwrap();
    assert!(message.contains("422"), "{message}");
}

#[test]
fn a_client_that_never_retries_is_warned_about() {
    let server = TestServer::start(ServeConfig::local(Mode::Correct));
    let output = proxy_python(&server.url(""), &[], &[("CLIENT_RETRIES", "0")]).code(1);
    let summary = summary(output.get_output());
    assert_eq!(finding_kinds(&summary), ["no_retry"]);
    assert_eq!(summary["operations"][0]["outcome"], "warning");
    assert_eq!(summary["client_exit"]["code"], 1);
}

#[test]
fn a_client_that_retries_until_its_budget_runs_out_and_then_fails_is_safe() {
    // urllib with a budget of two retries, each met by a 503 (nothing executes): it raises an
    // error to its caller, which is what a finite budget should do.
    let server = TestServer::start(ServeConfig::local(Mode::Correct));
    let output =
        proxy_python(&server.url(""), &["--fault", "status:503", "--first", "3"], &[("CLIENT_RETRIES", "2")]).success();
    let summary = summary(output.get_output());
    assert_eq!(finding_kinds(&summary), Vec::<String>::new());
    let op = &summary["operations"][0];
    assert_eq!(op["outcome"], "safe");
    assert_eq!(op["attempts"], 3);
    let gave_up = op["gave_up"].as_str().unwrap_or_default();
    assert!(gave_up.contains("gave up after 3 attempts") && gave_up.contains("503"), "{gave_up}");
    assert_eq!(summary["client_exit"]["code"], 1);
    assert_eq!(server.summary().payments_created, 0);
}

#[test]
fn the_upstreams_count_decides_executions_over_the_run() {
    let server = TestServer::start(ServeConfig::local(Mode::Correct));
    let count = server.url("/payments");
    let output = proxy_python(&server.url(""), &["--count-url", &count, "--count-pointer", "/count"], &[]).success();
    let summary = summary(output.get_output());
    let op = &summary["operations"][0];
    assert_eq!(op["outcome"], "safe", "{summary:#}");
    assert_eq!(op["executions"], 1);
    assert_eq!(op["evidence"][0]["kind"], "count");
    assert_eq!(op["evidence"][0]["executions"], 1);
    assert_eq!(summary["count"]["executions"], 1);
}

#[test]
fn retries_without_backoff_are_warned_about() {
    let server = TestServer::start(ServeConfig::local(Mode::Correct));
    let output = proxy_python(&server.url(""), &["--first", "3", "--fault", "reset"], &[("CLIENT_WAIT", "0")]).code(1);
    let summary = summary(output.get_output());
    assert_eq!(finding_kinds(&summary), ["no_backoff"]);
    assert_eq!(summary["operations"][0]["attempts"], 4);
}

#[test]
fn reset_closes_before_forwarding_so_nothing_executes_twice() {
    let server = TestServer::start(ServeConfig::local(Mode::Correct));
    let output = proxy_python(&server.url(""), &["--fault", "reset"], &[]).success();
    let attempts = attempts(output.get_output());
    assert_eq!(attempts[0]["fault"], "reset");
    assert_eq!(attempts[0]["forwarded"], false);
    assert_eq!(attempts[1]["upstream_status"], 201);
    assert_eq!(attempts[1]["replayed"], false, "the first attempt never reached the upstream");
    assert_eq!(server.summary().payments_created, 1);
}

#[test]
fn timeout_holds_the_answer_past_the_clients_patience() {
    let server = TestServer::start(ServeConfig::local(Mode::Correct));
    let output =
        proxy_python(&server.url(""), &["--fault", "timeout", "--hold", "20s"], &[("CLIENT_TIMEOUT", "0.5")]).success();
    let stderr = String::from_utf8_lossy(&output.get_output().stderr).to_string();
    assert!(stderr.contains("timed out"), "the Python client saw its own timeout: {stderr}");
    let attempts = attempts(output.get_output());
    assert_eq!(attempts[0]["fault"], "timeout");
    assert_eq!(attempts[0]["upstream_status"], 201);
    assert_eq!(summary(output.get_output())["verdict"], "safe");
    assert_eq!(server.summary().payments_created, 1);
}

#[test]
fn an_injected_503_with_retry_after_is_honoured_by_idem_send_and_not_by_a_hasty_client() {
    let server = TestServer::start(ServeConfig::local(Mode::Correct));
    let flags = ["--fault", "status:503", "--retry-after", "1", "--format", "json"];
    let output = proxy_idem_send(&server.url(""), &flags, &["--retry", "3"]).success();
    let attempts = attempts(output.get_output());
    assert_eq!(attempts[0]["client_status"], 503);
    assert_eq!(attempts[0]["forwarded"], false);
    assert_eq!(summary(output.get_output())["verdict"], "safe");

    let hasty =
        proxy_python(&server.url(""), &["--fault", "status:503", "--retry-after", "2"], &[("CLIENT_WAIT", "0.1")])
            .code(1);
    assert_eq!(finding_kinds(&summary(hasty.get_output())), ["ignored_retry_after"]);
}

#[test]
fn retrying_past_a_final_4xx_is_warned_about() {
    let server = TestServer::start(ServeConfig::local(Mode::Correct));
    let output = proxy_python(&server.url(""), &["--fault", "status:400"], &[]).code(1);
    assert_eq!(finding_kinds(&summary(output.get_output())), ["retried_past_4xx"]);
}

#[test]
fn delay_answers_late_and_the_patient_client_needs_no_retry() {
    let server = TestServer::start(ServeConfig::local(Mode::Correct));
    let output = proxy_python(&server.url(""), &["--fault", "delay:300ms"], &[]).success();
    let attempts = attempts(output.get_output());
    assert_eq!(attempts.len(), 1);
    assert_eq!(attempts[0]["fault"], "delay:300ms");
    assert_eq!(attempts[0]["client_status"], 201);
    assert_eq!(summary(output.get_output())["operations"][0]["outcome"], "safe");
}

#[test]
fn a_dead_upstream_gives_the_client_502_and_the_run_exit_2() {
    let upstream = format!("http://127.0.0.1:{}", dead_port());
    let output = proxy_python(&upstream, &[], &[("CLIENT_RETRIES", "1"), ("CLIENT_WAIT", "0")]).code(2);
    let stderr = String::from_utf8_lossy(&output.get_output().stderr).to_string();
    assert!(stderr.contains("answered 502"), "the client got 502: {stderr}");
    assert!(stderr.contains("did not answer 2 request(s)") && stderr.contains("is it running?"), "{stderr}");
    assert_eq!(summary(output.get_output())["upstream_failures"], 2);
}

#[test]
fn requests_outside_match_pass_through_unjudged() {
    let server = TestServer::start(ServeConfig::local(Mode::Correct));
    let output = proxy_python(&server.url(""), &["--match", "POST /refunds*"], &[]).code(2);
    let summary = summary(output.get_output());
    assert_eq!(summary["verdict"], "no_operations");
    assert_eq!(summary["passed_through"], 1);
    assert!(String::from_utf8_lossy(&output.get_output().stderr).contains("IDEM_PROXY_URL"));
}

/// Kills a spawned proxy if the test fails before it exits.
struct Running(Child);

impl Drop for Running {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

#[test]
fn operations_n_ends_the_run_without_a_client_command() {
    let server = TestServer::start(ServeConfig::local(Mode::Correct));
    let child = Command::new(assert_cmd::cargo::cargo_bin("idem"))
        .args(["proxy", "--upstream", &server.url(""), "--addr", "127.0.0.1:0", "--format", "json"])
        .args(["--operations", "1"])
        .stdout(Stdio::piped())
        .spawn()
        .expect("spawn idem proxy");
    let mut proxy = Running(child);
    let mut lines = BufReader::new(proxy.0.stdout.take().expect("stdout")).lines();
    let banner: Value = serde_json::from_str(&lines.next().expect("a banner").expect("a line")).expect("JSON");
    crate::support::schemas::validate(&banner);
    let url = banner["url"].as_str().expect("url").to_string();
    idem().args(["send", &format!("{url}/payments"), "-d", PAYMENT, "--retry", "3"]).assert().success();
    let rest: Vec<String> = lines.map_while(Result::ok).collect();
    let status = proxy.0.wait().expect("the proxy exits by itself");
    assert!(status.success(), "{rest:?}");
    let summary: Value = serde_json::from_str(rest.last().expect("a summary")).expect("JSON");
    crate::support::schemas::lines(rest.join("\n").as_bytes());
    assert_eq!(summary["summary"]["verdict"], "safe");
}

fn exchange(proxy_or_upstream: &str, method: Method) -> Exchange {
    let client = HttpClient::new(ClientOptions { timeout: Duration::from_secs(10), insecure: false, http2: false })
        .expect("client");
    let request = Request::builder()
        .method(method)
        .uri(format!("{proxy_or_upstream}/odd/path?q=1&q=2"))
        .header("idempotency-key", "k-pass")
        .body(Bytes::from_static(b"\x00\x01binary body\xff"))
        .expect("request");
    runtime().block_on(client.send(request)).expect("an answer")
}

/// Headers as compared: everything but those that name the connection or the moment.
fn comparable(headers: &HeaderMap) -> Vec<(String, Vec<u8>)> {
    let mut kept: Vec<(String, Vec<u8>)> = headers
        .iter()
        .filter(|(name, _)| !matches!(name.as_str(), "date" | "keep-alive" | "connection" | "transfer-encoding"))
        .map(|(name, value)| (name.to_string(), value.as_bytes().to_vec()))
        .collect();
    kept.sort();
    kept
}

#[test]
fn answers_that_are_not_faulted_pass_through_byte_identical() {
    let upstream = CustomServer::start(|request| Reply {
        status: 299,
        headers: vec![
            ("content-type", "application/x-odd; charset=latin1".to_string()),
            ("set-cookie", "session=abc; Path=/; HttpOnly".to_string()),
            ("etag", "\"v1\"".to_string()),
            ("x-echo-path", request.path.clone()),
            ("x-echo-body-len", request.body.len().to_string()),
            ("keep-alive", "timeout=5".to_string()),
        ],
        body: "héllo\r\n{\"id\":\"pay_odd\"}\u{0}end".to_string(),
    });
    let mut config = ProxyConfig::local(&upstream.url("")).expect("config");
    // Judged but never faulted, so POSTs take the same path as a retry that succeeds.
    config.selection = Selection::First(0);
    let running = runtime().block_on(proxy::start(&config, None)).expect("start the proxy");
    for method in [Method::GET, Method::POST] {
        let direct = exchange(&upstream.url(""), method.clone());
        let proxied = exchange(&running.url(), method.clone());
        assert_eq!(proxied.status, direct.status, "{method}");
        assert_eq!(proxied.body, direct.body, "{method}");
        assert_eq!(comparable(&proxied.headers), comparable(&direct.headers), "{method}");
        assert_eq!(proxied.headers["x-echo-path"], "/odd/path", "{method}");
        assert_eq!(proxied.headers["x-echo-body-len"], "14", "the request body arrived whole");
        assert!(direct.headers.contains_key("keep-alive"));
        assert!(!proxied.headers.contains_key("keep-alive"), "hop-by-hop headers stay behind");
    }
    let report = runtime().block_on(running.shutdown());
    assert_eq!((report.passed_through, report.operations.len()), (1, 1));
}

#[test]
fn a_printer_that_cannot_keep_up_costs_lines_not_memory() {
    let upstream = CustomServer::start(|_| Reply {
        status: 201,
        headers: vec![("content-type", "application/json".to_string())],
        body: r#"{"id":"pay_1"}"#.to_string(),
    });
    let mut config = ProxyConfig::local(&upstream.url("")).expect("config");
    config.selection = Selection::First(0);
    // A live printer with room for two lines that never prints: stdout stuck behind a slow terminal.
    let (events, printed) = std::sync::mpsc::sync_channel(2);
    let running = runtime().block_on(proxy::start(&config, Some(events))).expect("start the proxy");
    for _ in 0..5 {
        assert_eq!(exchange(&running.url(), Method::POST).status, 201);
    }
    let report = runtime().block_on(running.shutdown());
    assert_eq!(printed.try_iter().count(), 2, "the queue holds what it has room for");
    assert_eq!(report.lines_not_shown, 3, "the rest are counted, not queued");
    // `exchange` sends one key, so the five are attempts of one operation, each still judged.
    assert_eq!((report.totals.operations, report.operations[0].attempts), (1, 5));
}

#[test]
fn bad_flags_exit_2_with_a_message() {
    let cases: &[(&[&str], &str)] = &[
        (&["proxy"], "--upstream"),
        (&["proxy", "--upstream", "http://127.0.0.1:1", "--fault", "explode"], "lose-answer"),
        (&["proxy", "--upstream", "http://127.0.0.1:1", "--fault", "status:99"], "status"),
        (&["proxy", "--upstream", "http://127.0.0.1:1", "--probability", "2"], "between 0 and 1"),
        (&["proxy", "--upstream", "http://127.0.0.1:1", "--first", "2", "--every", "3"], "cannot be used"),
        (&["proxy", "--upstream", "http://127.0.0.1:1", "--retry-after", "2"], "--fault status"),
        (&["proxy", "--upstream", "http://127.0.0.1:1", "--match", "POST payments"], "must start with /"),
        (&["proxy", "--upstream", "ftp://127.0.0.1:1"], "only http and https"),
        (
            &["proxy", "--upstream", "http://127.0.0.1:1", "--addr", "127.0.0.1:0", "--", "/no/such/client"],
            "cannot start the client command",
        ),
        (&["send", "http://127.0.0.1:1/p", "--new-key-per-retry"], "--retry"),
        (&["send", "http://127.0.0.1:1/p", "--retry", "2", "--retry-on", "4xx"], "retry condition"),
    ];
    for (args, expected) in cases {
        let output = idem().args(*args).assert().code(2);
        let stderr = String::from_utf8_lossy(&output.get_output().stderr).to_string();
        assert!(stderr.contains(expected), "{args:?}: {stderr}");
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
    }
}

#[test]
fn the_demo_tells_the_lost_answer_chapter() {
    let output = idem().arg("demo").assert().success();
    let stdout = stdout_of(output.get_output());
    let chapter = stdout.split("Chapter 5: the answer was lost").nth(1).expect("the chapter is told");
    assert!(chapter.contains("the client handled all 1 operation(s) safely"), "{chapter}");
    assert!(chapter.contains("charged once"), "{chapter}");
    let caught = chapter.lines().find(|line| line.contains("retried with a different key")).expect(chapter);
    assert_eq!(payment_ids(caught).len(), 2, "{caught}");
    assert!(chapter.contains("charged 2 times"), "{chapter}");
}

#[test]
fn an_upstream_retry_after_as_an_http_date_is_judged_like_seconds() {
    // The upstream asks for a day's wait as an HTTP-date; idem send, capped at 5ms, cannot honour
    // it, and the judge reads the date as the client does.
    let tomorrow = httpdate::fmt_http_date(std::time::SystemTime::now() + Duration::from_secs(86_400));
    let upstream = CustomServer::start(move |request| match request.sequence {
        0 => {
            crate::support::Reply { status: 503, headers: vec![("retry-after", tomorrow.clone())], body: String::new() }
        }
        _ => Reply::json(201, r#"{"id":"pay_1"}"#),
    });
    let flags = ["--probability", "0", "--format", "json"];
    let output = proxy_idem_send(&upstream.url(""), &flags, &["--max-attempts", "2", "--backoff-max", "5ms"]).code(1);
    assert_eq!(finding_kinds(&summary(output.get_output())), ["ignored_retry_after"]);
}

/// POSTs `body` with `key` through the proxy at `url`; the answer's status.
fn post_with_key(url: &str, key: &str, body: String) -> u16 {
    let client = HttpClient::new(ClientOptions { timeout: Duration::from_secs(10), insecure: false, http2: false })
        .expect("client");
    let request = Request::post(format!("{url}/payments"))
        .header("idempotency-key", key)
        .body(Bytes::from(body))
        .expect("request");
    runtime().block_on(client.send(request)).expect("an answer").status.as_u16()
}

#[test]
fn operations_idle_past_the_window_are_folded_into_the_counts_and_dropped() {
    let created = std::sync::Arc::new(std::sync::atomic::AtomicU64::new(0));
    let counter = std::sync::Arc::clone(&created);
    let upstream = CustomServer::start(move |_| {
        let n = counter.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        Reply::json(201, format!(r#"{{"id":"pay_{n}"}}"#))
    });
    let mut config = ProxyConfig::local(&upstream.url("")).expect("config");
    config.selection = Selection::First(0);
    config.window = Duration::from_millis(200);
    let running = runtime().block_on(proxy::start(&config, None)).expect("start the proxy");
    for n in 0..40 {
        assert_eq!(post_with_key(&running.url(), &format!("key-{n}"), format!(r#"{{"amount":{n}}}"#)), 201);
    }
    assert!(running.open_operations() <= 40);
    std::thread::sleep(Duration::from_millis(400));
    // The next arrival finds the 40 idle for longer than the window: judged, folded, dropped. A
    // key that comes back after that starts a new operation.
    assert_eq!(post_with_key(&running.url(), "key-0", r#"{"amount":0}"#.to_string()), 201);
    assert_eq!(running.open_operations(), 1, "only the last operation is held");
    let report = runtime().block_on(running.shutdown());
    assert_eq!(report.totals.operations, 41);
    assert_eq!((report.totals.not_faulted, report.totals.unlisted_operations), (41, 0));
    assert_eq!(report.operations.len(), 41, "fewer than 1,000: every one listed in full");
    assert!(report.operations.iter().all(|op| op.attempts == 1));
    let json = serde_json::to_value(&report).expect("json");
    assert_eq!(json["verdict"], "safe");
    assert_eq!(json["totals"]["operations"], 41);
}

#[test]
fn an_upstream_count_that_goes_down_is_unconfirmed_not_safe() {
    // Every payment lowers the ledger: it reads as no execution at all.
    let charges = std::sync::Arc::new(std::sync::atomic::AtomicU64::new(0));
    let upstream = crate::support::CustomServer::start(move |request| {
        use std::sync::atomic::Ordering;
        if request.method == "GET" {
            let count = 1000 - charges.load(Ordering::SeqCst);
            return crate::support::Reply::json(200, format!(r#"{{"count":{count}}}"#));
        }
        charges.fetch_add(1, Ordering::SeqCst);
        crate::support::Reply::json(201, r#"{"id":"pay_1"}"#)
    });
    let count = upstream.url("/count");
    // The Python client retries its lost answer, as a correct client does: the run is safe but for the count.
    let assert = proxy_python(&upstream.url(""), &["--count-url", &count, "--count-pointer", "/count"], &[]).code(2);
    let stderr = String::from_utf8_lossy(&assert.get_output().stderr).into_owned();
    assert!(stderr.contains("unconfirmed: the count at GET") && stderr.contains("went down (1000 → 998)"), "{stderr}");
}

/// A running `idem proxy --format json` binary: its URL, and its stderr in a file (a pipe nobody
/// reads could fill and block it).
struct ProxyProcess {
    child: crate::support::KillOnDrop,
    url: String,
    stderr: tempfile::NamedTempFile,
    /// Its JSON lines after the banner, read as they come so the proxy never blocks on stdout.
    lines: std::thread::JoinHandle<Vec<serde_json::Value>>,
}

impl ProxyProcess {
    fn start(args: &[&str]) -> ProxyProcess {
        use std::io::BufRead;
        let stderr = tempfile::NamedTempFile::new().expect("temp file");
        let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("idem"))
            // No fault: these tests are about the proxy itself.
            .args(["proxy", "--format", "json", "--first", "0"])
            .args(args)
            .env("NO_COLOR", "1")
            .stdout(std::process::Stdio::piped())
            .stderr(stderr.reopen().expect("reopen"))
            .spawn()
            .expect("spawn idem proxy");
        let stdout = child.stdout.take().expect("stdout");
        let child = crate::support::KillOnDrop::new(child);
        let mut lines = std::io::BufReader::new(stdout).lines();
        let banner = lines.next().expect("a banner").expect("a line");
        let banner: serde_json::Value = serde_json::from_str(&banner).expect("JSON");
        let url = banner["url"].as_str().expect("url").to_string();
        let lines = std::thread::spawn(move || {
            lines.map_while(Result::ok).map(|line| serde_json::from_str(&line).expect("a JSON line")).collect()
        });
        ProxyProcess { child, url, stderr, lines }
    }

    fn addr(&self) -> String {
        self.url.trim_start_matches("http://").to_string()
    }

    /// Open file descriptors and resident memory (KiB), from /proc.
    fn usage(&self) -> (usize, u64) {
        let pid = self.child.id();
        let fds = std::fs::read_dir(format!("/proc/{pid}/fd")).expect("/proc fd").count();
        let status = std::fs::read_to_string(format!("/proc/{pid}/status")).expect("/proc status");
        (fds, status_kib(&status, "VmRSS:"))
    }

    /// Stops with SIGINT, as Ctrl-C does, and returns the exit code, stderr and the JSON lines it
    /// printed after the banner.
    fn stop_with_lines(mut self) -> (Option<i32>, String, Vec<serde_json::Value>) {
        let pid = self.child.id().to_string();
        std::process::Command::new("kill").args(["-INT", &pid]).status().expect("kill");
        let status = self.child.wait().expect("the proxy stops");
        let lines = self.lines.join().expect("the reader");
        (status.code(), std::fs::read_to_string(self.stderr.path()).unwrap_or_default(), lines)
    }
}

/// A port nobody listens on right now, for a server that must be started on a known port.
fn reserved_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0").expect("bind").local_addr().expect("addr").port()
}

/// One HTTP/1.1 request on its own connection; the whole answer as text.
fn raw_request(addr: &str, request: &str) -> String {
    use std::io::{Read, Write};
    let mut stream = std::net::TcpStream::connect(addr).expect("connect");
    stream.set_read_timeout(Some(std::time::Duration::from_secs(30))).expect("timeout");
    stream.write_all(request.as_bytes()).expect("write");
    let mut answer = Vec::new();
    let _ = stream.read_to_end(&mut answer);
    String::from_utf8_lossy(&answer).into_owned()
}

const POST: &str = "POST /payments HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 32\r\nConnection: close\r\n\r\n{\"amount\":1990,\"currency\":\"RUB\"}";

#[test]
fn a_proxy_pointed_at_itself_is_refused_at_start() {
    let port = reserved_port();
    for upstream in [format!("http://127.0.0.1:{port}"), format!("http://user:hunter2@localhost:{port}/api")] {
        let output = idem()
            .args(["proxy", "--addr", &format!("127.0.0.1:{port}"), "--upstream", &upstream])
            .output()
            .expect("runs");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{stderr}");
        assert!(stderr.contains("this proxy's own address"), "{stderr}");
        assert!(
            !stderr.contains("hunter2") && !String::from_utf8_lossy(&output.stdout).contains("hunter2"),
            "{stderr}"
        );
    }
}

/// Two proxies pointed at each other: each request comes back once, is answered 508, and the
/// proxies' descriptors and memory stay flat (without Via, one request became about 20,000).
#[test]
fn two_proxies_pointed_at_each_other_answer_508_and_stay_flat() {
    let port = reserved_port();
    let a = ProxyProcess::start(&["--addr", "127.0.0.1:0", "--upstream", &format!("http://127.0.0.1:{port}")]);
    let b = ProxyProcess::start(&["--addr", &format!("127.0.0.1:{port}"), "--upstream", &a.url]);
    for _ in 0..20 {
        let answer = raw_request(&a.addr(), POST);
        assert!(answer.starts_with("HTTP/1.1 508"), "{answer}");
    }
    let (fds_before, rss_before) = a.usage();
    let (b_fds_before, b_rss_before) = b.usage();
    for _ in 0..300 {
        let answer = raw_request(&a.addr(), POST);
        assert!(answer.starts_with("HTTP/1.1 508") && answer.contains("forwarding-loop"), "{answer}");
    }
    let (fds_after, rss_after) = a.usage();
    let (b_fds_after, b_rss_after) = b.usage();
    assert!(fds_after <= fds_before + 10, "descriptors grew from {fds_before} to {fds_after}");
    assert!(b_fds_after <= b_fds_before + 10, "descriptors grew from {b_fds_before} to {b_fds_after}");
    assert!(rss_after <= rss_before + 16 * 1024, "memory grew from {rss_before} to {rss_after} KiB");
    assert!(b_rss_after <= b_rss_before + 16 * 1024, "memory grew from {b_rss_before} to {b_rss_after} KiB");
    let (code, stderr, lines) = a.stop_with_lines();
    assert_eq!(code, Some(2), "{stderr}");
    assert!(stderr.contains("loop detected, answered 508"), "{stderr}");
    // Scripts reading --format json see each refusal too.
    let refused: Vec<&serde_json::Value> = lines.iter().filter(|line| line["event"] == "refused").collect();
    assert_eq!(refused.len(), 320, "one refused line per looped request");
    crate::support::schemas::validate(refused[0]);
    assert_eq!((refused[0]["status"].as_u64(), refused[0]["code"].as_str()), (Some(508), Some("forwarding-loop")));
    assert_eq!(refused[0]["path"], "/payments");
    assert!(stderr.contains("came back to this proxy") && !stderr.contains("retrying immediately"), "{stderr}");
    drop(b);
}

/// Bodies that stop after 3 of 100 declared bytes get 408 once --idle-timeout passes, are
/// logged, and the proxy still serves.
#[test]
fn stalled_request_bodies_get_408_and_the_proxy_still_serves() {
    use std::io::{Read, Write};
    let server = crate::support::TestServer::start(idem::testing::serve::ServeConfig::local(
        idem::testing::serve::Mode::Correct,
    ));
    let proxy = ProxyProcess::start(&["--addr", "127.0.0.1:0", "--upstream", &server.url(""), "--idle-timeout", "1s"]);
    let stalled: Vec<std::net::TcpStream> = (0..200)
        .map(|_| {
            let mut stream = std::net::TcpStream::connect(proxy.addr()).expect("connect");
            stream.set_read_timeout(Some(std::time::Duration::from_secs(60))).expect("timeout");
            stream.write_all(b"POST /payments HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\nabc").expect("write");
            stream
        })
        .collect();
    for mut stream in stalled {
        let mut answer = Vec::new();
        stream.read_to_end(&mut answer).expect("the proxy closes the connection");
        let answer = String::from_utf8_lossy(&answer);
        assert!(answer.starts_with("HTTP/1.1 408"), "{answer}");
    }
    let answer = raw_request(&proxy.addr(), POST);
    assert!(answer.starts_with("HTTP/1.1 201"), "{answer}");
    let (_, stderr, lines) = proxy.stop_with_lines();
    assert!(stderr.contains("request body stalled, answered 408"), "{stderr}");
    let stalled: Vec<&serde_json::Value> = lines.iter().filter(|line| line["code"] == "body-stalled").collect();
    assert_eq!(stalled.len(), 200, "one refused line per stalled body");
    crate::support::schemas::validate(stalled[0]);
    assert_eq!((stalled[0]["event"].as_str(), stalled[0]["status"].as_u64()), (Some("refused"), Some(408)));
    assert!(stderr.contains("200 request body(ies) stalled"), "{stderr}");
}

#[test]
fn a_safe_client_before_a_replayed_answer_is_not_called_executed_once_without_the_count() {
    // The upstream's key store replays its own id while its handler charges on every request.
    let app = crate::support::apps::PythonApp::start("orders_with_a_key_store.py", &["--rerun-handler"]);
    let run = |flags: &[&str]| {
        let mut command = idem();
        command.args(["proxy", "--upstream", &app.url(""), "--addr", "127.0.0.1:0"]).args(flags);
        command.arg("--").arg("python3").arg(python_client()).env("CLIENT_KEY", "keep");
        crate::support::run::Finished::from(command.output().expect("idem proxy runs"))
    };
    let plain = run(&[]);
    assert_eq!(plain.code, 0, "{}{}", plain.stdout, plain.stderr);
    assert!(plain.stdout.contains("2 attempts, one key, one resource, ord_"), "{}", plain.stdout);
    assert!(plain.stdout.contains("its answer was replayed (side effects not counted: give --count-url)"));
    assert!(!plain.stdout.contains("executed once") && !plain.stdout.contains("at most once"), "{}", plain.stdout);
    let required = run(&["--require-count"]);
    assert_eq!(required.code, 2, "{}{}", required.stdout, required.stderr);
    assert!(required.stderr.contains("ground truth was required (--require-count)"), "{}", required.stderr);
    let counted = run(&["--count-url", &app.url("/charges"), "--count-pointer", "/count"]);
    assert_eq!(counted.code, 1, "{}{}", counted.stdout, counted.stderr);
    assert!(counted.stdout.contains("the upstream's count rose by 2"), "{}", counted.stdout);
}

/// An upstream on raw sockets that counts the connections and the requests it gets, and answers
/// each request 201 with a payment id on a keep-alive connection. With `close_after`, it closes
/// each connection that long after answering, as an upstream with a short keep-alive timeout does,
/// without saying so in the answer.
struct RawUpstream {
    addr: std::net::SocketAddr,
    connections: std::sync::Arc<std::sync::atomic::AtomicUsize>,
    requests: std::sync::Arc<std::sync::atomic::AtomicUsize>,
}

impl RawUpstream {
    fn start(close_after: Option<Duration>) -> RawUpstream {
        use std::io::Write;
        use std::sync::Arc;
        use std::sync::atomic::{AtomicUsize, Ordering};
        let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
        let addr = listener.local_addr().expect("addr");
        let (connections, requests) = (Arc::new(AtomicUsize::new(0)), Arc::new(AtomicUsize::new(0)));
        let (counted_connections, counted_requests) = (Arc::clone(&connections), Arc::clone(&requests));
        std::thread::spawn(move || {
            for stream in listener.incoming() {
                let Ok(mut stream) = stream else { continue };
                counted_connections.fetch_add(1, Ordering::SeqCst);
                let requests = Arc::clone(&counted_requests);
                std::thread::spawn(move || {
                    let mut reader = BufReader::new(stream.try_clone().expect("clone"));
                    while read_message(&mut reader).is_some() {
                        let number = requests.fetch_add(1, Ordering::SeqCst) + 1;
                        let answer = format!(r#"{{"id":"pay_{number}"}}"#);
                        let head = format!(
                            "HTTP/1.1 201 Created\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n",
                            answer.len()
                        );
                        stream.write_all(format!("{head}{answer}").as_bytes()).expect("answer");
                        if let Some(wait) = close_after {
                            std::thread::sleep(wait);
                            return;
                        }
                    }
                });
            }
        });
        RawUpstream { addr, connections, requests }
    }

    fn counts(&self) -> (usize, usize) {
        use std::sync::atomic::Ordering;
        (self.connections.load(Ordering::SeqCst), self.requests.load(Ordering::SeqCst))
    }
}

/// POSTs a payment with `key` on an open keep-alive connection; the answer's status.
fn post_on(stream: &mut std::net::TcpStream, key: &str) -> u16 {
    use std::io::Write;
    let body = r#"{"amount":1990,"currency":"RUB"}"#;
    let request = format!(
        "POST /payments HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nIdempotency-Key: {key}\r\n\
         Content-Length: {}\r\n\r\n{body}",
        body.len()
    );
    stream.write_all(request.as_bytes()).expect("write");
    let mut reader = BufReader::new(stream.try_clone().expect("clone"));
    let (status_line, _) = read_message(&mut reader).expect("an answer");
    status_line.split_whitespace().nth(1).and_then(|status| status.parse().ok()).expect("a status")
}

/// One HTTP/1.1 message off `reader`, its body by `Content-Length`: its first line and its body;
/// `None` once the connection has ended.
fn read_message(reader: &mut impl BufRead) -> Option<(String, Vec<u8>)> {
    let mut first = String::new();
    if reader.read_line(&mut first).unwrap_or(0) == 0 {
        return None;
    }
    let mut length = 0;
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line).unwrap_or(0) == 0 {
            return None;
        }
        if line == "\r\n" {
            break;
        }
        if let Some((name, value)) = line.split_once(':')
            && name.eq_ignore_ascii_case("content-length")
        {
            length = value.trim().parse().expect("a length");
        }
    }
    let mut body = vec![0; length];
    reader.read_exact(&mut body).ok()?;
    Some((first, body))
}

#[test]
fn a_client_connection_keeps_one_upstream_connection() {
    let upstream = RawUpstream::start(None);
    let mut config = ProxyConfig::local(&format!("http://{}", upstream.addr)).expect("config");
    config.selection = Selection::First(0);
    let running = runtime().block_on(proxy::start(&config, None)).expect("start the proxy");
    let mut client = std::net::TcpStream::connect(running.local_addr()).expect("connect");
    let statuses: Vec<u16> = (1..=5).map(|n| post_on(&mut client, &format!("k-{n}"))).collect();
    assert_eq!(statuses, [201; 5]);
    assert_eq!(upstream.counts(), (1, 5), "five requests of one client connection on one upstream connection");
    drop(client);
    let report = runtime().block_on(running.shutdown());
    assert_eq!((report.operations.len(), report.upstream_failures), (5, 0));
}

#[test]
fn an_upstream_connection_closed_while_idle_is_replaced_without_a_failure_or_a_second_send() {
    let upstream = RawUpstream::start(Some(Duration::from_millis(20)));
    let mut config = ProxyConfig::local(&format!("http://{}", upstream.addr)).expect("config");
    config.selection = Selection::First(0);
    let running = runtime().block_on(proxy::start(&config, None)).expect("start the proxy");
    let mut client = std::net::TcpStream::connect(running.local_addr()).expect("connect");
    for n in 1..=3 {
        assert_eq!(post_on(&mut client, &format!("k-{n}")), 201, "request {n}");
        // Long enough for the upstream to have closed the connection behind the answer.
        std::thread::sleep(Duration::from_millis(150));
    }
    assert_eq!(upstream.counts(), (3, 3), "a new connection each time, and each payment sent once");
    drop(client);
    let report = runtime().block_on(running.shutdown());
    assert_eq!((report.operations.len(), report.upstream_failures), (3, 0));
}
