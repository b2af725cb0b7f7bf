//! `idem serve --store`: every store through real sockets, a real `redis-server` started here on a
//! free port (temporary folder, no persistence), several instances on one store, crashes, a
//! Redis that goes away and comes back, and a fake one that sends a hostile reply.
//!
//! The tests that need `redis-server` are ignored with the reason ("needs redis-server"), so `cargo test` passes on a machine
//! without it and lists them as ignored; `.ci/run` installs it and runs them with
//! `--include-ignored`.
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use bytes::Bytes;
use http::{Method, Request};
use idem::testing::client::{ClientOptions, Exchange, HttpClient};
use idem::testing::serve::{Mode, RequestOutcome, ServeConfig, StoreLocation};
use serde_json::Value;

use crate::support::run::Run;
use crate::support::{TestServer, idem, runtime};

const PAYMENT: &str = r#"{"amount":1990,"currency":"RUB","order_id":42}"#;

/// A `redis-server` of the test's own, stopped when dropped.
pub(crate) struct RedisServer {
    child: Option<Child>,
    port: u16,
    dir: tempfile::TempDir,
}

impl RedisServer {
    /// Starts `redis-server` from PATH. Fails the test, saying how to install it, when missing:
    /// a Redis test never passes by skipping.
    pub(crate) fn start() -> RedisServer {
        let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
        let mut server = RedisServer { child: None, port, dir: tempfile::tempdir().unwrap() };
        server.restart();
        server
    }

    pub(crate) fn url(&self) -> String {
        format!("redis://127.0.0.1:{}", self.port)
    }

    pub(crate) fn location(&self) -> StoreLocation {
        self.url().parse().unwrap()
    }

    /// Starts it (again) on the same port, empty.
    pub(crate) fn restart(&mut self) {
        let spawned = Command::new("redis-server")
            .args(["--port", &self.port.to_string(), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"])
            .args(["--loglevel", "warning", "--daemonize", "no"])
            .arg("--dir")
            .arg(self.dir.path())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn();
        let child = match spawned {
            Ok(child) => child,
            Err(err) => panic!(
                "cannot start redis-server ({err}): the Redis store tests need it on PATH. \
                 Install it with `apt-get install -y redis-server` (Debian/Ubuntu) or `brew install redis` (macOS); \
                 .ci/run installs it when missing"
            ),
        };
        self.child = Some(child);
        let deadline = Instant::now() + Duration::from_secs(10);
        while !self.answers_ping() {
            assert!(Instant::now() < deadline, "redis-server did not answer PING on port {} within 10s", self.port);
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    fn answers_ping(&self) -> bool {
        let Ok(mut stream) = TcpStream::connect(("127.0.0.1", self.port)) else { return false };
        let _ = stream.set_read_timeout(Some(Duration::from_secs(1)));
        let mut reply = [0u8; 7];
        stream.write_all(b"PING\r\n").is_ok() && stream.read_exact(&mut reply).is_ok() && &reply == b"+PONG\r\n"
    }

    pub(crate) fn stop(&mut self) {
        if let Some(mut child) = self.child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

impl Drop for RedisServer {
    fn drop(&mut self) {
        self.stop();
    }
}

/// An `idem serve` process, killed when dropped.
struct ServeProcess {
    child: crate::support::KillOnDrop,
    url: String,
}

impl ServeProcess {
    fn start(args: &[&str]) -> ServeProcess {
        let mut child = crate::support::KillOnDrop::new(
            Command::new(assert_cmd::cargo::cargo_bin("idem"))
                .args(["serve", "--addr", "127.0.0.1:0", "--color", "never"])
                .args(args)
                .stdout(Stdio::piped())
                .spawn()
                .unwrap(),
        );
        let mut banner = String::new();
        BufReader::new(child.stdout.take().unwrap()).read_line(&mut banner).unwrap();
        let url = banner.split_whitespace().find(|word| word.starts_with("http://")).expect(&banner).to_string();
        ServeProcess { child, url }
    }

    /// Dies as a crash would: no chance to release anything.
    fn kill(mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn server(mode: Mode, store: StoreLocation) -> TestServer {
    TestServer::start(ServeConfig { store, ..ServeConfig::local(mode) })
}

fn post(url: &str, key: &str, body: &str) -> Exchange {
    let request = Request::builder()
        .method(Method::POST)
        .uri(url)
        .header("content-type", "application/json")
        .header("idempotency-key", key)
        .body(Bytes::from(body.to_string()))
        .unwrap();
    let client = HttpClient::new(ClientOptions { timeout: Duration::from_secs(20), insecure: false, http2: false });
    runtime().block_on(client.unwrap().send(request)).expect("an answer")
}

fn get(url: &str) -> Exchange {
    let client = HttpClient::new(ClientOptions { timeout: Duration::from_secs(20), insecure: false, http2: false });
    runtime().block_on(client.unwrap().send(Request::get(url).body(Bytes::new()).unwrap())).expect("an answer")
}

fn json(exchange: &Exchange) -> Value {
    serde_json::from_slice(&exchange.body).expect("a JSON body")
}

fn sqlite_in(dir: &tempfile::TempDir) -> StoreLocation {
    format!("sqlite:{}", dir.path().join("idem.db").display()).parse().unwrap()
}

/// `idem check` against `url` (plus `--also` targets): the JSON report and the exit code.
fn check(url: &str, also: &[&str]) -> (Value, i32) {
    let also = also.iter().flat_map(|other| ["--also", other]);
    let (code, report) =
        Run::idem(["check", url, "-d", PAYMENT, "-n", "10", "--format", "json"]).args(also).code_and_json();
    (report, code)
}

#[test]
#[ignore = "needs redis-server: .ci/run installs it"]
fn every_store_passes_the_conformance_suite_on_one_instance() {
    let redis = RedisServer::start();
    let dir = tempfile::tempdir().unwrap();
    for store in [StoreLocation::Memory, sqlite_in(&dir), redis.location()] {
        let server = server(Mode::Correct, store.clone());
        let (report, code) = check(&server.url("/payments"), &[]);
        assert_eq!(code, 0, "{store}: {report:#}");
    }
}

#[test]
#[ignore = "needs redis-server: .ci/run installs it"]
fn two_instances_on_one_store_are_one_api() {
    let redis = RedisServer::start();
    let dir = tempfile::tempdir().unwrap();
    for store in [sqlite_in(&dir), redis.location()] {
        let (a, b) = (server(Mode::Correct, store.clone()), server(Mode::Correct, store.clone()));
        let key = format!("one-api-{store}");
        let first = post(&a.url("/payments"), &key, PAYMENT);
        assert_eq!(first.status, 201, "{store}");
        let again = post(&b.url("/payments"), &key, PAYMENT);
        assert_eq!(again.body, first.body, "{store}: the other instance replays the same answer");
        assert_eq!(again.headers["idempotent-replayed"], "true");
        assert_eq!(post(&b.url("/payments"), &key, r#"{"amount":1}"#).status, 422, "{store}");
        let id = json(&first)["id"].as_str().unwrap().to_string();
        assert_eq!(json(&get(&b.url(&format!("/payments/{id}"))))["id"], id.as_str());
        let listed = json(&get(&b.url("/payments")));
        assert!(listed["data"].as_array().unwrap().iter().any(|p| p["id"] == id.as_str()), "{store}: {listed}");
    }
}

#[test]
fn memory_instances_are_separate_apis() {
    let (a, b) = (server(Mode::Correct, StoreLocation::Memory), server(Mode::Correct, StoreLocation::Memory));
    assert_eq!(post(&a.url("/payments"), "k", PAYMENT).status, 201);
    assert!(post(&b.url("/payments"), "k", PAYMENT).headers.get("idempotent-replayed").is_none());
    assert_eq!(json(&get(&b.url("/payments")))["count"], 1);
}

#[test]
fn a_sqlite_store_survives_a_restart() {
    let dir = tempfile::tempdir().unwrap();
    let first = {
        let before = server(Mode::Correct, sqlite_in(&dir));
        post(&before.url("/payments"), "survivor", PAYMENT)
    };
    assert_eq!(first.status, 201);
    let after = server(Mode::Correct, sqlite_in(&dir));
    let replay = post(&after.url("/payments"), "survivor", PAYMENT);
    assert_eq!(replay.body, first.body, "the restarted server replays the answer it stored before");
    assert_eq!(replay.headers["idempotent-replayed"], "true");
    assert_eq!(json(&get(&after.url("/payments")))["count"], 1);
    assert_eq!(after.summary().payments_created, 0);
}

/// An instance dies mid-request while holding a key: the key answers 409 until the lease runs
/// out, then a duplicate takes it over and executes.
fn crashed_owner_releases_its_key_after_the_lease(store: &str) {
    let crashing = ServeProcess::start(&["--store", store, "--work", "30s", "--lease", "1s"]);
    let survivor = ServeProcess::start(&["--store", store, "--work", "0s", "--lease", "1s"]);
    let (key, hanging) = first_request_holding_a_key(&crashing.url, &survivor.url);
    let killed_at = Instant::now();
    crashing.kill();
    assert_eq!(hanging.join().unwrap(), None, "the crashed instance's client got no answer");
    let taken_over = loop {
        let answer = post(&survivor.url, &key, PAYMENT);
        if answer.status != 409 {
            break answer;
        }
        assert!(killed_at.elapsed() < Duration::from_secs(5), "the key was still in use 5s after a 1s lease");
        std::thread::sleep(Duration::from_millis(50));
    };
    assert_eq!(taken_over.status, 201, "{}", String::from_utf8_lossy(&taken_over.body));
    assert!(taken_over.headers.get("idempotent-replayed").is_none(), "the duplicate executed");
    assert_eq!(post(&survivor.url, &key, PAYMENT).body, taken_over.body, "and now replays");
}

/// Starts a request on the slow instance at `slow` and waits until the other instance, at `other`,
/// sees its key held. The probe is the same POST, so on a loaded machine it can reach the store
/// first and execute the key itself; that round proves nothing and is tried again with a fresh key.
/// Returns the held key and the thread that yields the first request's status (`None`: no answer).
fn first_request_holding_a_key(slow: &str, other: &str) -> (String, std::thread::JoinHandle<Option<u16>>) {
    for round in 1..=10 {
        let key = format!("held-{round}");
        let (url, first_key) = (slow.to_string(), key.clone());
        let first = std::thread::spawn(move || {
            let client =
                HttpClient::new(ClientOptions { timeout: Duration::from_secs(40), insecure: false, http2: false });
            let request = Request::post(&url).header("idempotency-key", first_key).body(Bytes::from(PAYMENT)).unwrap();
            runtime().block_on(client.unwrap().send(request)).ok().map(|answer| answer.status.as_u16())
        });
        // A head start that grows with each lost round.
        std::thread::sleep(Duration::from_millis(100 * round));
        let probe = post(other, &key, PAYMENT);
        match probe.status.as_u16() {
            409 => return (key, first),
            201 => {
                // The other instance executed the key first; the first request gets its replay.
                assert_eq!(first.join().unwrap(), Some(201), "a request on a key already executed is replayed");
            }
            status => panic!("the other instance answered {status}: {}", String::from_utf8_lossy(&probe.body)),
        }
    }
    panic!("in 10 rounds the first request never claimed its key before the survivor's probe");
}

#[test]
#[ignore = "needs redis-server: .ci/run installs it"]
fn a_crashed_owner_on_redis_loses_its_key_after_the_lease() {
    let redis = RedisServer::start();
    crashed_owner_releases_its_key_after_the_lease(&redis.url());
}

#[test]
fn a_crashed_owner_on_sqlite_loses_its_key_after_the_lease() {
    let dir = tempfile::tempdir().unwrap();
    crashed_owner_releases_its_key_after_the_lease(&sqlite_in(&dir).to_string());
}

#[test]
#[ignore = "needs redis-server: .ci/run installs it"]
fn a_long_payment_keeps_its_key_by_renewing_the_lease() {
    let redis = RedisServer::start();
    let slow =
        ServeConfig { store: redis.location(), lease: Duration::from_millis(300), ..ServeConfig::local(Mode::Correct) };
    let a = TestServer::start(ServeConfig { work: Duration::from_millis(1500), ..slow.clone() });
    let b = TestServer::start(slow);
    let (key, first) = first_request_holding_a_key(&a.url("/payments"), &b.url("/payments"));
    // Well past several leases, the owner is alive and renewing: the duplicate must wait.
    for _ in 0..10 {
        assert_eq!(post(&b.url("/payments"), &key, PAYMENT).status, 409);
        std::thread::sleep(Duration::from_millis(100));
    }
    assert_eq!(first.join().unwrap(), Some(201));
    assert_eq!(post(&b.url("/payments"), &key, PAYMENT).headers["idempotent-replayed"], "true");
    assert_eq!(a.summary().payments_created, 1, "the owner executed its key once");
}

#[test]
#[ignore = "needs redis-server: .ci/run installs it"]
fn redis_down_is_a_503_and_the_server_recovers_when_it_returns() {
    let mut redis = RedisServer::start();
    let server = server(Mode::Correct, redis.location());
    let url = server.url("/payments");
    assert_eq!(post(&url, "before", PAYMENT).status, 201);

    redis.stop();
    let down = post(&url, "during", PAYMENT);
    assert_eq!(down.status, 503);
    assert_eq!(down.headers["retry-after"], "1");
    assert_eq!(down.headers["content-type"], "application/problem+json");
    assert_eq!(json(&down)["type"], "/problems/store-unavailable");
    assert_eq!(get(&url).status, 503, "listing needs the store too");
    assert_eq!(server.summary().count(RequestOutcome::StoreUnavailable), 2);

    redis.restart();
    let back = post(&url, "during", PAYMENT);
    assert_eq!(back.status, 201, "{}", String::from_utf8_lossy(&back.body));
    assert_eq!(post(&url, "during", PAYMENT).headers["idempotent-replayed"], "true");
}

/// How deep the fake's hostile reply nests: 50,000 used to overflow `idem serve`'s stack.
const HOSTILE_DEPTH: usize = 200_000;

/// A fake Redis: speaks just enough RESP for `idem serve`'s Redis store (PING, the claim's SET,
/// the scripts, the ledger's reads), and answers the next command after `poison` with a reply of
/// `HOSTILE_DEPTH` nested one-item arrays, as a rogue server or the wrong port might.
struct FakeRedis {
    port: u16,
    poisoned: Arc<AtomicBool>,
}

impl FakeRedis {
    fn start(poisoned: bool) -> FakeRedis {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let port = listener.local_addr().unwrap().port();
        let poisoned = Arc::new(AtomicBool::new(poisoned));
        let flag = poisoned.clone();
        std::thread::spawn(move || {
            for socket in listener.incoming().flatten() {
                let flag = flag.clone();
                std::thread::spawn(move || FakeRedis::serve(socket, &flag));
            }
        });
        FakeRedis { port, poisoned }
    }

    fn url(&self) -> String {
        format!("redis://127.0.0.1:{}", self.port)
    }

    /// The next command, on any connection, gets the hostile reply.
    fn poison(&self) {
        self.poisoned.store(true, Ordering::SeqCst);
    }

    fn serve(socket: TcpStream, poisoned: &AtomicBool) {
        let mut writer = socket.try_clone().unwrap();
        let mut reader = BufReader::new(socket);
        while let Some(command) = FakeRedis::command(&mut reader) {
            let reply: Vec<u8> = if poisoned.swap(false, Ordering::SeqCst) {
                let mut deep = b"*1\r\n".repeat(HOSTILE_DEPTH);
                deep.extend_from_slice(b":1\r\n");
                deep
            } else {
                match command.first().map(|name| name.to_ascii_uppercase()).as_deref() {
                    Some(b"PING") => b"+PONG\r\n".to_vec(),
                    // The claim: nil, the key is new. The scripts: 1, done.
                    Some(b"SET" | b"GET" | b"HGET") => b"$-1\r\n".to_vec(),
                    Some(b"EVALSHA" | b"EVAL") => b":1\r\n".to_vec(),
                    Some(b"LRANGE") => b"*0\r\n".to_vec(),
                    _ => b"-ERR the fake does not know this command\r\n".to_vec(),
                }
            };
            // idem hangs up partway through the hostile reply: that is the point.
            if writer.write_all(&reply).is_err() {
                return;
            }
        }
    }

    /// One command (an array of bulk strings), or `None` when the client hung up.
    fn command(reader: &mut BufReader<TcpStream>) -> Option<Vec<Vec<u8>>> {
        let mut line = String::new();
        reader.read_line(&mut line).ok()?;
        let count: usize = line.trim_end().strip_prefix('*')?.parse().ok()?;
        let mut args = Vec::with_capacity(count);
        for _ in 0..count {
            line.clear();
            reader.read_line(&mut line).ok()?;
            let length: usize = line.trim_end().strip_prefix('$')?.parse().ok()?;
            let mut arg = vec![0; length + 2];
            reader.read_exact(&mut arg).ok()?;
            arg.truncate(length);
            args.push(arg);
        }
        Some(args)
    }
}

#[test]
fn a_hostile_reply_at_start_up_is_exit_2_with_a_short_clear_error() {
    let fake = FakeRedis::start(true);
    let output = idem()
        .args(["serve", "--addr", "127.0.0.1:0", "--color", "never", "--store", &fake.url()])
        .timeout(Duration::from_secs(30))
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("arrays nested deeper than 64 levels"), "{stderr}");
    assert!(stderr.contains(r"(the reply began `*1\r\n*1\r\n"), "{stderr}");
    assert!(stderr.contains("is it a Redis server?"), "{stderr}");
    assert!(stderr.len() < 400, "{} bytes of stderr: {stderr}", stderr.len());
}

#[test]
fn a_hostile_reply_mid_run_is_a_503_and_the_server_keeps_serving() {
    let fake = FakeRedis::start(false);
    let log = tempfile::NamedTempFile::new().unwrap();
    let mut child = crate::support::KillOnDrop::new(
        Command::new(assert_cmd::cargo::cargo_bin("idem"))
            .args(["serve", "--addr", "127.0.0.1:0", "--color", "never", "--work", "0ms", "--store", &fake.url()])
            .stdout(Stdio::piped())
            .stderr(log.reopen().unwrap())
            .spawn()
            .unwrap(),
    );
    let mut banner = String::new();
    BufReader::new(child.stdout.take().unwrap()).read_line(&mut banner).unwrap();
    let url = banner.split_whitespace().find(|word| word.starts_with("http://")).expect(&banner).to_string();
    assert_eq!(post(&url, "before", PAYMENT).status, 201, "the fake answers the store's commands");

    fake.poison();
    let hit = post(&url, "hostile", PAYMENT);
    assert_eq!(hit.status, 503, "{}", String::from_utf8_lossy(&hit.body));
    assert_eq!(json(&hit)["type"], "/problems/store-unavailable");
    assert_eq!(hit.headers["retry-after"], "1");

    assert!(child.try_wait().unwrap().is_none(), "idem serve died");
    assert_eq!(post(&url, "after", PAYMENT).status, 201, "the next request is served");
    assert_eq!(get(&url).status, 200);
    let logged = std::fs::read_to_string(log.path()).unwrap();
    let line = logged.lines().find(|line| line.contains("store unavailable")).expect(&logged);
    assert!(line.contains("arrays nested deeper than 64 levels"), "{line}");
    assert!(line.len() < 300, "{} bytes: {line}", line.len());
}

#[test]
fn a_store_that_cannot_be_opened_is_exit_2_with_what_to_do() {
    let dead = crate::support::dead_port();
    idem()
        .args(["serve", "--addr", "127.0.0.1:0", "--store", &format!("redis://127.0.0.1:{dead}")])
        .assert()
        .code(2)
        .stderr(predicates::str::contains("start redis-server"));
    idem().args(["serve", "--store", "postgres://x"]).assert().code(2).stderr(predicates::str::contains("sqlite:PATH"));
    idem()
        .args(["serve", "--addr", "127.0.0.1:0", "--store", "sqlite:/nonexistent-dir/x/idem.db"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains("cannot open the SQLite store"));
}

#[test]
fn local_lock_says_it_is_broken_at_start_up() {
    let dir = tempfile::tempdir().unwrap();
    let store = sqlite_in(&dir).to_string();
    let mut child = crate::support::KillOnDrop::new(
        Command::new(assert_cmd::cargo::cargo_bin("idem"))
            .args(["serve", "--addr", "127.0.0.1:0", "--color", "never", "--mode", "local-lock", "--store", &store])
            .stdout(Stdio::piped())
            .spawn()
            .unwrap(),
    );
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let banner = lines.next().unwrap().unwrap();
    let warning = lines.next().unwrap().unwrap();
    let _ = child.kill();
    let _ = child.wait();
    assert!(banner.contains("mode local-lock") && banner.contains(&store), "{banner}");
    assert!(warning.contains("deliberately broken") && warning.contains("two instances"), "{warning}");
}

#[test]
#[ignore = "needs redis-server: .ci/run installs it"]
fn local_lock_is_correct_on_one_instance() {
    let redis = RedisServer::start();
    let server = server(Mode::LocalLock, redis.location());
    let (report, code) = check(&server.url("/payments"), &[]);
    assert_eq!(code, 0, "{report:#}");
}

/// `idem race` against `url` plus `--also` targets, JSON: the report and the exit code.
fn race(url: &str, also: &[&str], extra: &[&str]) -> (Value, i32) {
    let also = also.iter().flat_map(|other| ["--also", other]);
    let (code, report) =
        Run::idem(["race", url, "-d", PAYMENT, "--format", "json"]).args(extra).args(also).code_and_json();
    (report, code)
}

#[test]
#[ignore = "needs redis-server: .ci/run installs it"]
fn correct_instances_on_a_shared_store_pass_the_suite_across_instances() {
    let redis = RedisServer::start();
    let dir = tempfile::tempdir().unwrap();
    for store in [sqlite_in(&dir), redis.location()] {
        let (a, b) = (server(Mode::Correct, store.clone()), server(Mode::Correct, store.clone()));
        let (report, code) = check(&a.url("/payments"), &[&b.url("/payments")]);
        assert_eq!(code, 0, "{store}: {report:#}");
        let evidence = crate::support::suite_evidence(&report, "retry-replays");
        assert!(evidence.contains(&b.url("/payments")), "the retry went to the other instance: {evidence}");
    }
}

#[test]
fn instances_with_their_own_memory_fail_the_suite_across_instances() {
    let (a, b) = (server(Mode::Correct, StoreLocation::Memory), server(Mode::Correct, StoreLocation::Memory));
    let (report, code) = check(&a.url("/payments"), &[&b.url("/payments")]);
    assert_eq!(code, 1, "{report:#}");
    let outcomes = crate::support::suite_outcomes(&report);
    assert_eq!(outcomes["retry-replays"], "fail", "the other instance never saw the key");
    assert_eq!(outcomes["concurrent-once"], "fail");
}

#[test]
#[ignore = "needs redis-server: .ci/run installs it"]
fn local_lock_on_two_instances_is_caught_by_race_also_in_every_round() {
    let redis = RedisServer::start();
    let (a, b) = (server(Mode::LocalLock, redis.location()), server(Mode::LocalLock, redis.location()));
    let (url_a, url_b) = (a.url("/payments"), b.url("/payments"));
    for sync in [["--http2"].as_slice(), ["--sync", "last-byte"].as_slice()] {
        let extra = [sync, &["-n", "10", "--rounds", "10"]].concat();
        let (report, code) = race(&url_a, &[&url_b], &extra);
        assert_eq!(code, 1, "{sync:?}: {report:#}");
        assert_eq!(report["summary"]["executed_more_than_once"], 10, "{sync:?}: caught in 10 of 10 rounds");
        let round = &report["rounds"][0];
        let targets: Vec<&str> = round["targets"].as_array().unwrap().iter().map(|t| t.as_str().unwrap()).collect();
        assert_eq!(targets.len(), 2);
        let answered_by: Vec<&str> =
            round["answers"].as_array().unwrap().iter().map(|a| a["target"].as_str().unwrap()).collect();
        assert_eq!(answered_by[..4], [targets[0], targets[1], targets[0], targets[1]], "round-robin");
        assert!(round["release"]["spread_us"].as_f64().is_some());
    }
    // One instance alone holds its in-process lock: correct.
    let (report, code) = race(&url_a, &[], &["--http2", "-n", "10", "--rounds", "3"]);
    assert_eq!(code, 0, "{report:#}");
}

#[test]
#[ignore = "needs redis-server: .ci/run installs it"]
fn correct_instances_on_one_redis_are_safe_under_race_also() {
    let redis = RedisServer::start();
    let (a, b) = (server(Mode::Correct, redis.location()), server(Mode::Correct, redis.location()));
    let (report, code) = race(&a.url("/payments"), &[&b.url("/payments")], &["--http2", "-n", "10", "--rounds", "5"]);
    assert_eq!(code, 0, "{report:#}");
    assert_eq!(report["summary"]["safe"], 5);
}

#[test]
#[ignore = "needs redis-server: .ci/run installs it"]
fn race_also_says_which_target_answered() {
    let redis = RedisServer::start();
    let (a, b) = (server(Mode::Correct, redis.location()), server(Mode::Correct, redis.location()));
    let output = idem()
        .args(["race", &a.url("/payments"), "--also", &b.url("/payments"), "-d", PAYMENT, "-n", "4", "--http2"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&output.stdout);
    let authority_b = b.url("").trim_start_matches("http://").to_string();
    assert!(text.contains("spread round-robin over"), "{text}");
    assert!(text.contains(&format!("← {authority_b}")), "{text}");
    assert!(text.contains("across 2 targets"), "{text}");
    let mixed = idem().args(["race", &a.url("/payments"), "--also", "https://127.0.0.1:1/payments"]).output().unwrap();
    assert_eq!(mixed.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&mixed.stderr).contains("another scheme"));
}

#[test]
#[ignore = "needs redis-server: .ci/run installs it"]
fn the_demo_shows_two_instances_on_one_redis() {
    idem()
        .arg("demo")
        .assert()
        .success()
        .stdout(predicates::str::contains("Chapter 6: two instances, one store"))
        .stdout(predicates::str::contains("A redis-server of the demo's own"))
        .stdout(predicates::str::contains("hold 1 payment between them"))
        .stdout(predicates::str::contains("--also"))
        .stdout(predicates::str::contains("each one's lock let its own duplicate in"));
}
