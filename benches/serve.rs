//! `cargo bench --bench serve`: requests per second of `idem serve --mode correct --work 0ms`
//! with each store (memory, SQLite, Redis), every request a payment with a fresh key, so each one
//! claims, records a payment and stores its answer. What a shared store costs per request.
//!
//! The servers run as processes of their own (the real binary), Redis is a `redis-server` from
//! PATH on a free port without persistence, and the load comes from a separate process (this bench
//! re-executed with `--load-generator`): 32 keep-alive HTTP/1.1 connections sending back to back for
//! a fixed time. The stores take turns over a few rounds; the best round of each counts. Every
//! answer must be 201. Target: the Redis store at least 40% of the memory store's throughput.

use std::net::SocketAddr;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

#[path = "common/server_process.rs"]
mod server_process;
use server_process::{ServerProcess, run_load_generator};

use bytes::Bytes;
use http::Request;
use http_body_util::{BodyExt, Full};
use hyper_util::rt::TokioIo;

const CONNECTIONS: usize = 32;
const DURATION: Duration = Duration::from_secs(4);
const ROUNDS: usize = 3;
const TARGET_REDIS_RATIO: f64 = 0.40;
const PAYMENT: &str = r#"{"amount":1990,"currency":"RUB","order_id":42}"#;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    match args.get(1).map(String::as_str) {
        Some("--load-generator") => load_generator(&args[2], &args[3]),
        // `cargo bench` passes `--bench`; anything else runs the comparison.
        _ => compare(),
    }
}

/// What one load-generator run saw.
#[derive(Debug, Clone, Copy)]
struct Load {
    created: u64,
    other: u64,
    seconds: f64,
}

impl Load {
    fn rate(self) -> f64 {
        (self.created + self.other) as f64 / self.seconds
    }
}

fn compare() {
    let redis = Redis::start();
    let dir = tempfile::tempdir().expect("a temporary directory");
    let stores = [
        ("memory", "memory".to_string()),
        ("sqlite", format!("sqlite:{}", dir.path().join("bench.db").display())),
        ("redis", redis.url()),
    ];
    let mut best: Vec<Option<Load>> = vec![None; stores.len()];
    for round in 1..=ROUNDS {
        let mut line = format!("round {round}:");
        for (index, (name, store)) in stores.iter().enumerate() {
            let load = run_against(store, &format!("r{round}-{name}"));
            assert_eq!(load.other, 0, "idem serve --store {store} answered something other than 201");
            line.push_str(&format!(" {name} {:.0} req/s;", load.rate()));
            best[index] = Some(best[index].map_or(load, |b| if load.rate() > b.rate() { load } else { b }));
        }
        println!("{line}");
    }
    let rate = |index: usize| best[index].map_or(0.0, Load::rate);
    let (memory, sqlite, redis_rate) = (rate(0), rate(1), rate(2));
    println!(
        "idem serve --mode correct --work 0ms, a fresh key per request, {CONNECTIONS} keep-alive connections, {}s per run, best of {ROUNDS} rounds:",
        DURATION.as_secs()
    );
    println!("  --store memory        : {memory:>8.0} requests/s");
    println!("  --store sqlite:FILE   : {sqlite:>8.0} requests/s");
    println!("  --store redis://…     : {redis_rate:>8.0} requests/s");
    println!("  ratio sqlite/memory   : {:>8.1}%", sqlite / memory * 100.0);
    let ratio = redis_rate / memory;
    println!(
        "  ratio redis/memory    : {:>8.1}% (target >= {:.0}%: {})",
        ratio * 100.0,
        TARGET_REDIS_RATIO * 100.0,
        if ratio >= TARGET_REDIS_RATIO { "met" } else { "MISSED" }
    );
}

/// A `redis-server` on a free port, no persistence, stopped when dropped.
struct Redis {
    child: Child,
    port: u16,
    _dir: tempfile::TempDir,
}

impl Redis {
    fn start() -> Redis {
        let port = std::net::TcpListener::bind("127.0.0.1:0").expect("a free port").local_addr().expect("addr").port();
        let dir = tempfile::tempdir().expect("a temporary directory");
        let child = Command::new("redis-server")
            .args(["--port", &port.to_string(), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"])
            .args(["--loglevel", "warning"])
            .arg("--dir")
            .arg(dir.path())
            .stdout(Stdio::null())
            .spawn()
            .unwrap_or_else(|err| {
                panic!("cannot start redis-server ({err}); install it (apt-get install -y redis-server, brew install redis)")
            });
        let deadline = Instant::now() + Duration::from_secs(10);
        while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
            assert!(Instant::now() < deadline, "redis-server did not start");
            std::thread::sleep(Duration::from_millis(20));
        }
        Redis { child, port, _dir: dir }
    }

    fn url(&self) -> String {
        format!("redis://127.0.0.1:{}", self.port)
    }
}

impl Drop for Redis {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Starts `idem serve --store store`, loads it from a separate process, stops it.
fn run_against(store: &str, key_prefix: &str) -> Load {
    let server = ServerProcess::start(Command::new(env!("CARGO_BIN_EXE_idem")).args([
        "serve",
        "--addr",
        "127.0.0.1:0",
        "--work",
        "0ms",
        "--color",
        "never",
        "--store",
        store,
    ]));
    let numbers = run_load_generator(&["--load-generator", &server.url, key_prefix]);
    let [created, other, seconds] = numbers[..] else { panic!("unexpected load generator output {numbers:?}") };
    server.stop();
    Load { created: created as u64, other: other as u64, seconds }
}

/// `--load-generator URL PREFIX`: prints "CREATED OTHER SECONDS".
fn load_generator(url: &str, prefix: &str) {
    let uri: http::Uri = url.parse().expect("a URL");
    let authority = uri.authority().expect("a host and port").to_string();
    let addr: SocketAddr = authority.parse().expect("an IP address and port");
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build().expect("a runtime");
    let (created, other, seconds) = runtime.block_on(async move {
        let started = Instant::now();
        let deadline = started + DURATION;
        let tasks: Vec<_> = (0..CONNECTIONS)
            .map(|connection| {
                let (authority, keys) = (authority.clone(), format!("{prefix}-{connection}"));
                tokio::spawn(async move { one_connection(addr, &authority, &keys, deadline).await })
            })
            .collect();
        let (mut created, mut other) = (0, 0);
        for task in tasks {
            let (connection_created, connection_other) = task.await.expect("a connection task");
            created += connection_created;
            other += connection_other;
        }
        (created, other, started.elapsed().as_secs_f64())
    });
    println!("{created} {other} {seconds}");
}

/// Posts payments one after another on one keep-alive connection until the deadline, each with
/// a key never used before.
async fn one_connection(addr: SocketAddr, authority: &str, keys: &str, deadline: Instant) -> (u64, u64) {
    let stream = tokio::net::TcpStream::connect(addr).await.expect("connect");
    stream.set_nodelay(true).expect("nodelay");
    let (mut sender, connection) =
        hyper::client::conn::http1::handshake(TokioIo::new(stream)).await.expect("an HTTP/1.1 handshake");
    tokio::spawn(connection);
    let (mut created, mut other) = (0, 0);
    let mut sequence = 0u64;
    while Instant::now() < deadline {
        sequence += 1;
        let request = Request::post("/payments")
            .header(http::header::HOST, authority)
            .header(http::header::CONTENT_TYPE, "application/json")
            .header("idempotency-key", format!("{keys}-{sequence}"))
            .body(Full::new(Bytes::from_static(PAYMENT.as_bytes())))
            .expect("a request");
        let response = sender.send_request(request).await.expect("an answer");
        let status = response.status();
        let _ = response.into_body().collect().await;
        if status == http::StatusCode::CREATED {
            created += 1;
        } else {
            other += 1;
        }
    }
    (created, other)
}
