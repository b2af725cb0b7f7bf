//! The checks for what real idempotency layers get wrong (caller and endpoint scope, leases that
//! end too soon or never, faithful replays, fingerprints, key syntax): each passes against
//! `idem serve --mode correct` and fails against the mode broken on purpose for it, over HTTP/1.1
//! and h2c; `--server-cmd` kills and restarts a real server process; and a real third-party
//! middleware from PyPI is caught while a correctly scoped app of our own is not.
use std::collections::HashMap;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use idem::testing::serve::{Mode, ServeConfig};
use serde_json::Value;

use crate::support::run::Run;
use crate::support::{TestServer, suite_evidence, suite_outcomes};

const PAYMENT: &str = r#"{"amount":1990,"currency":"RUB","order_id":42}"#;
const HTTP1: &[&str] = &[];
const H2C: &[&str] = &["--http2"];

/// `idem check --format json` with the flags every test here shares; the report is validated
/// against its schema.
fn check(url: &str, extra: &[&str]) -> (i32, HashMap<String, String>, Value) {
    let (code, report) = Run::idem(["check", url, "-d", PAYMENT, "--format", "json", "-n", "5", "--window-max", "0"])
        .args(extra)
        .code_and_json();
    (code, suite_outcomes(&report), report)
}

fn served(mode: Mode, work_ms: u64) -> TestServer {
    TestServer::start(ServeConfig { work: Duration::from_millis(work_ms), ..ServeConfig::local(mode) })
}

#[test]
fn caller_path_json_and_key_syntax_pass_on_correct_and_fail_on_unscoped() {
    for (mode, wire) in [(Mode::Correct, HTTP1), (Mode::Unscoped, H2C), (Mode::Correct, H2C), (Mode::Unscoped, HTTP1)] {
        let server = served(mode, 50);
        let refunds = server.url("/refunds");
        let extra = [wire, &["--as", "Authorization: Bearer bob", "--other-url", &refunds]].concat();
        let (code, outcomes, report) = check(&server.url("/payments"), &extra);
        let broken = mode == Mode::Unscoped;
        let (required, advisory) = if broken { ("fail", "warn") } else { ("pass", "pass") };
        for (id, expected) in [
            ("caller-scoped", required),
            ("path-scoped", required),
            ("equal-json-replays", advisory),
            ("key-syntax", advisory),
        ] {
            assert_eq!(outcomes[id], expected, "{mode:?} {wire:?} {id}: {report:#}");
        }
        assert_eq!(code, if broken { 1 } else { 0 }, "{mode:?} {wire:?}");
        let caller = suite_evidence(&report, "caller-scoped");
        assert!(caller.contains("caller A") && caller.contains("caller B"), "{caller}");
        assert!(!caller.contains("Bearer bob"), "the credential stays out of the report: {caller}");
        if broken {
            assert!(caller.contains("received caller A's resource pay_"), "{caller}");
            assert!(suite_evidence(&report, "path-scoped").contains("never executed"));
            assert!(suite_evidence(&report, "key-syntax").contains("an empty key → 201"));
        } else {
            assert!(caller.contains("caller B's request executed on its own: pay_"), "{caller}");
            assert!(suite_evidence(&report, "path-scoped").contains("re_"), "a refund of its own");
        }
    }
}

#[test]
fn lease_outlives_work_passes_on_correct_and_fails_on_short_lease() {
    for (mode, wire) in [(Mode::Correct, H2C), (Mode::ShortLease, HTTP1)] {
        // A lease of half the work: the retry at 3/4 of --work-hint lands after it ran out, with
        // 400 ms to spare on either side.
        let server = served(mode, 1_600);
        let (code, outcomes, report) = check(&server.url("/payments"), &[wire, &["--work-hint", "1600ms"]].concat());
        let evidence = suite_evidence(&report, "lease-outlives-work");
        if mode == Mode::ShortLease {
            assert_eq!(outcomes["lease-outlives-work"], "fail", "{evidence}");
            assert!(evidence.contains("executed a second time while pay_"), "{evidence}");
            assert_eq!(code, 1);
        } else {
            assert_eq!(outcomes["lease-outlives-work"], "pass", "{evidence}");
            assert!(evidence.contains("→ 409 Conflict (in flight)"), "{evidence}");
            assert_eq!(code, 0, "{report:#}");
        }
    }
}

#[test]
fn replay_faithful_passes_on_correct_and_warns_on_drops_headers() {
    for (mode, wire) in [(Mode::Correct, HTTP1), (Mode::DropsHeaders, H2C)] {
        let server = served(mode, 50);
        let (code, outcomes, report) = check(&server.url("/payments"), wire);
        let evidence = suite_evidence(&report, "replay-faithful");
        let expected = if mode == Mode::Correct { "pass" } else { "warn" };
        assert_eq!(outcomes["replay-faithful"], expected, "{evidence}");
        assert_eq!(
            report["checks"].as_array().unwrap().iter().find(|c| c["id"] == "replay-faithful").unwrap()["level"],
            "recommended"
        );
        if mode == Mode::DropsHeaders {
            assert!(
                evidence.contains("#1 had location: /payments/pay_") && evidence.contains("the replay has none"),
                "{evidence}"
            );
        }
        assert_eq!(code, 0, "a recommended check warns");
    }
}

#[test]
fn mismatch_in_flight_passes_on_correct_and_warns_on_naive() {
    for (mode, wire) in [(Mode::Correct, H2C), (Mode::Naive, HTTP1)] {
        let server = served(mode, 300);
        let (_, outcomes, report) = check(&server.url("/payments"), wire);
        let evidence = suite_evidence(&report, "mismatch-in-flight");
        if mode == Mode::Correct {
            assert_eq!(outcomes["mismatch-in-flight"], "pass", "{evidence}");
            assert!(evidence.contains("→ 422"), "{evidence}");
        } else {
            assert_eq!(outcomes["mismatch-in-flight"], "warn", "{evidence}");
            assert!(evidence.contains("the changed body was executed: pay_"), "{evidence}");
        }
    }
}

/// A pid file a server command writes, read once the server is up.
fn pid_in(path: &Path) -> i32 {
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        if let Some(pid) = std::fs::read_to_string(path).ok().and_then(|text| text.trim().parse().ok()) {
            return pid;
        }
        assert!(Instant::now() < deadline, "the server command never wrote {}", path.display());
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn alive(pid: i32) -> bool {
    Command::new("kill").args(["-0", &pid.to_string()]).stderr(Stdio::null()).status().unwrap().success()
}

/// The command that runs our own `idem serve` on SQLite on `port`, writing its pid to `pid_file`.
fn serve_command(port: u16, db: &Path, mode: &str, pid_file: &Path) -> String {
    let binary = assert_cmd::cargo::cargo_bin("idem");
    format!(
        "echo $$ > '{}'; exec '{}' serve --addr 127.0.0.1:{port} --store 'sqlite:{}' --mode {mode} --work 1s --lease 500ms",
        pid_file.display(),
        binary.display(),
        db.display()
    )
}

#[test]
fn crash_recovers_restarts_a_real_server_and_catches_a_sticky_lock() {
    let dir = tempfile::tempdir().unwrap();
    for (mode, wire, stuck_for) in [("correct", HTTP1, "20s"), ("sticky-lock", H2C, "2s")] {
        let port = crate::support::dead_port();
        let pid_file = dir.path().join(format!("{mode}.pid"));
        let command = serve_command(port, &dir.path().join(format!("{mode}.db")), mode, &pid_file);
        let url = format!("http://127.0.0.1:{port}/payments");
        let extra = [wire, &["--server-cmd", &command, "--work-hint", "1s", "--stuck-for", stuck_for]].concat();
        let (code, outcomes, report) = check(&url, &extra);
        let evidence = suite_evidence(&report, "crash-recovers");
        assert!(
            evidence.contains("killed") && evidence.contains("SIGKILL") && evidence.contains("restarted"),
            "{evidence}"
        );
        if mode == "correct" {
            assert_eq!(outcomes["crash-recovers"], "pass", "{evidence}");
            assert!(evidence.contains("(the replay): answer replayed"), "{evidence}");
            assert_eq!(code, 0, "{report:#}");
        } else {
            assert_eq!(outcomes["crash-recovers"], "fail", "{evidence}");
            assert!(evidence.contains("× 409") && evidence.contains("stuck in flight"), "{evidence}");
            assert_eq!(code, 1);
        }
        // The restarted server (a new pid) is stopped at the end.
        let pid = pid_in(&pid_file);
        assert!(!alive(pid), "{mode}: the server {pid} still runs after idem check ended");
        assert!(std::net::TcpStream::connect(("127.0.0.1", port)).is_err(), "{mode}: port {port} still open");
    }
}

#[test]
fn an_interrupted_check_stops_the_server_it_started() {
    let dir = tempfile::tempdir().unwrap();
    for signal in ["INT", "TERM"] {
        let port = crate::support::dead_port();
        let pid_file = dir.path().join(format!("{signal}.pid"));
        let command = serve_command(port, &dir.path().join(format!("{signal}.db")), "correct", &pid_file);
        let binary = assert_cmd::cargo::cargo_bin("idem");
        let mut check = Command::new(binary)
            .args(["check", &format!("http://127.0.0.1:{port}/payments"), "-d", PAYMENT, "--server-cmd", &command])
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let server_pid = pid_in(&pid_file);
        wait_for_port(port, &mut check);
        Command::new("kill").args([&format!("-{signal}"), &check.id().to_string()]).status().unwrap();
        let output = check.wait_with_output().unwrap();
        assert_eq!(output.status.code(), Some(2), "{}", String::from_utf8_lossy(&output.stderr));
        assert!(String::from_utf8_lossy(&output.stderr).contains("interrupted"));
        assert!(!alive(server_pid), "SIG{signal}: the server {server_pid} outlived idem check");
    }
}

fn wait_for_port(port: u16, check: &mut Child) {
    let deadline = Instant::now() + Duration::from_secs(30);
    while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(check.try_wait().unwrap().is_none(), "idem check ended before the server listened");
        assert!(Instant::now() < deadline, "the server never listened on {port}");
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// A Python app run with the pinned libraries from tests/differential/setup.sh, on `port`.
struct PythonApp {
    child: Child,
}

impl PythonApp {
    fn start(app: &str, port: u16) -> PythonApp {
        crate::support::reference_libraries::references();
        let python = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/differential/venv/bin/python");
        let child = Command::new(python)
            .arg(crate::support::apps::app_path(app))
            .arg(port.to_string())
            .stdout(Stdio::null())
            .stderr(Stdio::inherit())
            .spawn()
            .unwrap();
        let deadline = Instant::now() + Duration::from_secs(30);
        while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
            assert!(Instant::now() < deadline, "the Python app never listened on {port}");
            std::thread::sleep(Duration::from_millis(50));
        }
        PythonApp { child }
    }
}

impl Drop for PythonApp {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn check_python(app: &str) -> (HashMap<String, String>, Value) {
    let port = crate::support::dead_port();
    let _app = PythonApp::start(app, port);
    let url = format!("http://127.0.0.1:{port}/payments");
    let refunds = format!("http://127.0.0.1:{port}/refunds");
    let (_, outcomes, report) = check(&url, &["--as", "Authorization: Bearer bob", "--other-url", &refunds]);
    (outcomes, report)
}

#[test]
fn asgi_idempotency_header_leaks_across_callers_and_endpoints_and_a_scoped_app_does_not() {
    let (outcomes, report) = check_python("asgi_idempotency_header_starlette_app.py");
    let caller = suite_evidence(&report, "caller-scoped");
    assert_eq!(outcomes["caller-scoped"], "fail", "{caller}");
    assert_eq!(outcomes["path-scoped"], "fail", "{}", suite_evidence(&report, "path-scoped"));
    let a = caller.lines().find(|l| l.starts_with("caller A")).unwrap().split_whitespace().last().unwrap();
    let b = caller.lines().find(|l| l.starts_with("caller B")).unwrap().split_whitespace().last().unwrap();
    assert!(a.starts_with("pay_") && a == b, "B got A's id: {caller}");

    let (outcomes, report) = check_python("idempotency_scoped_by_caller_and_path.py");
    let caller = suite_evidence(&report, "caller-scoped");
    assert_eq!(outcomes["caller-scoped"], "pass", "{caller}");
    assert_eq!(outcomes["path-scoped"], "pass", "{}", suite_evidence(&report, "path-scoped"));
    let a = caller.lines().find(|l| l.starts_with("caller A")).unwrap().split_whitespace().last().unwrap();
    let b = caller.lines().find(|l| l.starts_with("caller B")).unwrap().split_whitespace().last().unwrap();
    assert!(a.starts_with("pay_") && b.starts_with("pay_") && a != b, "each caller its own: {caller}");
}

/// `idem check --only crash-recovers --server-cmd COMMAND` against `url`: exit status, stdout,
/// stderr.
fn crash_check(url: &str, command: &str, extra: &[&str]) -> (i32, String, String) {
    Run::idem(["check", url, "-d", PAYMENT, "--only", "crash-recovers", "--server-cmd", command])
        .args(extra)
        .finish()
        .parts()
}

#[test]
fn server_cmd_refuses_a_port_something_else_already_listens_on() {
    // A server left from an earlier run: it accepts, and would be judged in the command's place.
    let stale = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = stale.local_addr().unwrap().port();
    let dir = tempfile::tempdir().unwrap();
    let started = dir.path().join("started");
    let command = format!("touch '{}'; exec sleep 1000", started.display());
    let (code, stdout, stderr) = crash_check(&format!("http://127.0.0.1:{port}/payments"), &command, &[]);
    assert_eq!(code, 2, "{stdout}{stderr}");
    assert!(stderr.contains(&format!("port {port} on 127.0.0.1 already accepts connections")), "{stderr}");
    assert!(stderr.contains("something else listens there"), "{stderr}");
    assert!(!started.exists(), "the command was started although the port was taken");
    assert!(!stdout.contains('✓'), "{stdout}");
}

#[test]
fn a_server_cmd_that_exits_at_once_fails_with_its_stderr() {
    let url = format!("http://127.0.0.1:{}/payments", crate::support::dead_port());
    let command = "echo 'cannot bind 127.0.0.1: address already in use' >&2; exit 3";
    let (code, stdout, stderr) = crash_check(&url, command, &[]);
    assert_eq!(code, 2, "{stdout}{stderr}");
    assert!(
        stderr.contains("exited (exit status 3); its last stderr lines: cannot bind 127.0.0.1: address already in use"),
        "{stderr}"
    );
}

#[test]
fn an_answer_that_beat_the_kill_is_not_a_pass() {
    let dir = tempfile::tempdir().unwrap();
    let port = crate::support::dead_port();
    let app = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/apps/answers_as_killed.py");
    // Every answer of its first life ends 1.5s after it is written; the kill comes 1s in (half of
    // --work-hint), so the kill is what ends the answer.
    let command =
        format!("exec python3 '{}' {port} '{}' 1.5", app.display(), dir.path().join("first-life-over").display());
    let url = format!("http://127.0.0.1:{port}/payments");
    let (code, stdout, stderr) = crash_check(&url, &command, &["--work-hint", "2s", "--format", "json"]);
    assert_eq!(code, 2, "{stdout}{stderr}");
    let report: Value = serde_json::from_str(&stdout).unwrap();
    crate::support::schemas::validate(&report);
    assert_eq!(suite_outcomes(&report)["crash-recovers"], "skip", "{report:#}");
    let evidence = suite_evidence(&report, "crash-recovers");
    assert!(
        evidence.contains("could not judge: the request was answered (201 Created) as the server was killed"),
        "{evidence}"
    );
    assert!(stderr.contains("nothing was checked: 1 could not be judged (crash-recovers"), "{stderr}");
}
