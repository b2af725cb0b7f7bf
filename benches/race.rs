//! `cargo bench --bench race`: how tightly do duplicates arrive at the server?
//!
//! Compares `idem race` in its three modes (single-packet, last-byte, none) with curl's
//! `--parallel --parallel-immediate` sending the same request N times, all through a loopback relay
//! that delays every chunk it reads from a client by a uniform random 0–2 ms (order kept per
//! connection; bytes read together stay together), like a jittery network path. The server behind it
//! (HTTP/1.1 and h2c) records when each request's body has fully arrived; the spread of those
//! instants per round is what a race window sees.
//!
//! Then the same tools against a naive server with a 300 µs race window (a key is looked up, and
//! only becomes visible 300 µs later) and a correct one (claimed atomically).
//!
//! Then `--stagger` accuracy: duplicates released 100 µs, 1 ms and 10 ms apart straight to the
//! server (no relay), requested spacing against the spacing of arrivals the server recorded.
//!
//! Last, the spread at the server against N, in the published single-packet measurement's terms
//! (the gap between the first and the last request's arrival at the handler; Kettle: a median of
//! 1 ms, σ 0.3 ms, for single-packet against 4 ms, σ 3 ms, for last-byte sync, at 20 requests):
//! `idem serve` in-process stamps each request's arrival (`Server-Timing: arrival`), and the
//! spread of the stamps per round is read from the answers, straight over loopback (no relay), for
//! h2 single-packet on one connection, h2 single-packet over 4 connections released together,
//! HTTP/1.1 last-byte (its connections released in one batched submission: io_uring where the
//! kernel allows it; then held to the send loop, then to the awaited writes of before, to compare
//! the three), and curl `--parallel --parallel-immediate` over h2c, N from 2 to 200
//! (hyper's default stream limit), median and σ over the rounds.
use std::collections::HashMap;
use std::convert::Infallible;
use std::io::{Read, Write};
use std::net::{SocketAddr, TcpListener as StdListener, TcpStream as StdStream};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use bytes::Bytes;
use http::{Method, Request, Response, StatusCode};
use http_body_util::{BodyExt, Full};
use hyper::body::Incoming;
use hyper::service::service_fn;
use hyper_util::rt::{TokioExecutor, TokioIo};
use hyper_util::server::conn::auto;
use idem::testing::race::Verdict;
use idem::testing::race::{BatchMethod, KeyMode, Spread, SyncMode, limit_to, race_round, race_round_spread};
use idem::testing::request::RequestSpec;
use rand::Rng;

const N: usize = 20;
const ROUNDS: usize = 10;
const RACE_WINDOW: Duration = Duration::from_micros(300);
const MAX_JITTER_US: u64 = 2_000;
const BODY: &str = r#"{"amount":1990,"currency":"RUB"}"#;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum ServerMode {
    Naive,
    Correct,
}

/// What the bench server knows about one key.
#[derive(Default)]
struct KeyRecord {
    arrivals: Vec<Instant>,
    /// The first execution's id and when its store becomes visible.
    stored: Option<(String, Instant)>,
    executions: usize,
}

struct BenchServer {
    mode: ServerMode,
    keys: Mutex<HashMap<String, KeyRecord>>,
    next_id: AtomicU64,
}

impl BenchServer {
    async fn handle(self: Arc<Self>, request: Request<Incoming>) -> Result<Response<Full<Bytes>>, Infallible> {
        let key = request.headers().get("idempotency-key").and_then(|v| v.to_str().ok()).unwrap_or("").to_string();
        let _ = request.into_body().collect().await;
        let arrived = Instant::now();
        let (status, id, replayed) = {
            let mut keys = self.keys.lock().unwrap_or_else(|p| p.into_inner());
            let record = keys.entry(key).or_default();
            record.arrivals.push(arrived);
            match (self.mode, &record.stored) {
                // A store that has become visible: replay it.
                (_, Some((id, visible_at))) if *visible_at <= arrived => (StatusCode::CREATED, id.clone(), true),
                // Correct: the claim is atomic, so a duplicate in flight gets 409.
                (ServerMode::Correct, Some(_)) => (StatusCode::CONFLICT, String::new(), false),
                // Naive: the lookup found nothing visible, so this duplicate executes too.
                (ServerMode::Naive, _) | (ServerMode::Correct, None) => {
                    let id = format!("pay_{}", self.next_id.fetch_add(1, Ordering::Relaxed));
                    record.executions += 1;
                    let window = if self.mode == ServerMode::Naive { RACE_WINDOW } else { Duration::ZERO };
                    if record.stored.is_none() {
                        record.stored = Some((id.clone(), arrived + window));
                    }
                    (StatusCode::CREATED, id, false)
                }
            }
        };
        let body = if status == StatusCode::CONFLICT { "{}".to_string() } else { format!(r#"{{"id":"{id}"}}"#) };
        let mut response = Response::new(Full::new(Bytes::from(body)));
        *response.status_mut() = status;
        response.headers_mut().insert("content-type", "application/json".parse().unwrap());
        if replayed {
            response.headers_mut().insert("idempotent-replayed", "true".parse().unwrap());
        }
        Ok(response)
    }

    /// Arrival spread and executions for `key`.
    fn round(&self, key: &str) -> (Duration, usize, usize) {
        let keys = self.keys.lock().unwrap_or_else(|p| p.into_inner());
        let Some(record) = keys.get(key) else { return (Duration::ZERO, 0, 0) };
        let first = record.arrivals.iter().min().copied();
        let last = record.arrivals.iter().max().copied();
        let spread = match (first, last) {
            (Some(first), Some(last)) => last - first,
            _ => Duration::ZERO,
        };
        (spread, record.executions, record.arrivals.len())
    }
}

async fn start_server(mode: ServerMode) -> (SocketAddr, Arc<BenchServer>) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let state = Arc::new(BenchServer { mode, keys: Mutex::new(HashMap::new()), next_id: AtomicU64::new(1) });
    let server = Arc::clone(&state);
    tokio::spawn(async move {
        let mut builder = auto::Builder::new(TokioExecutor::new());
        builder.http2().max_concurrent_streams(1000);
        loop {
            let Ok((stream, _)) = listener.accept().await else { continue };
            let _ = stream.set_nodelay(true);
            let server = Arc::clone(&server);
            let builder = builder.clone();
            tokio::spawn(async move {
                let service = service_fn(move |request| Arc::clone(&server).handle(request));
                let _ = builder.serve_connection(TokioIo::new(stream), service).await;
            });
        }
    });
    (addr, state)
}

/// The jittery relay: plain threads and blocking sockets, so a delay is a precise `sleep`, not a
/// tick of an async timer wheel.
fn start_relay(upstream: SocketAddr) -> SocketAddr {
    let listener = StdListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap();
    std::thread::spawn(move || {
        for client in listener.incoming().flatten() {
            let Ok(server) = StdStream::connect(upstream) else { continue };
            let _ = client.set_nodelay(true);
            let _ = server.set_nodelay(true);
            let (Ok(client_reader), Ok(mut server_writer)) = (client.try_clone(), server.try_clone()) else { continue };
            let (mut server_reader, mut client_writer) = (server, client);
            // Client → server, each read delayed by 0–2 ms, never overtaking the previous chunk.
            let (sender, receiver) = std::sync::mpsc::channel::<(Instant, Vec<u8>)>();
            std::thread::spawn(move || {
                let mut client_reader = client_reader;
                let mut rng = rand::rng();
                let mut previous = Instant::now();
                let mut buffer = vec![0u8; 64 * 1024];
                loop {
                    let read = match client_reader.read(&mut buffer) {
                        Ok(0) | Err(_) => break,
                        Ok(read) => read,
                    };
                    let delay = Duration::from_micros(rng.random_range(0..=MAX_JITTER_US));
                    let due = (Instant::now() + delay).max(previous);
                    previous = due;
                    if sender.send((due, buffer[..read].to_vec())).is_err() {
                        break;
                    }
                }
            });
            std::thread::spawn(move || {
                for (due, chunk) in receiver {
                    let now = Instant::now();
                    if due > now {
                        std::thread::sleep(due - now);
                    }
                    if server_writer.write_all(&chunk).is_err() {
                        break;
                    }
                }
                let _ = server_writer.shutdown(std::net::Shutdown::Write);
            });
            // Server → client, undelayed.
            std::thread::spawn(move || {
                let _ = std::io::copy(&mut server_reader, &mut client_writer);
                let _ = client_writer.shutdown(std::net::Shutdown::Write);
            });
        }
    });
    addr
}

#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
enum Tool {
    SinglePacket,
    LastByte,
    Unsynchronised,
    Curl,
}

impl Tool {
    fn name(self) -> &'static str {
        match self {
            Tool::SinglePacket => "idem single-packet (h2c)",
            Tool::LastByte => "idem last-byte (http/1.1)",
            Tool::Unsynchronised => "idem --sync none (http/1.1)",
            Tool::Curl => "curl --parallel-immediate (h2c)",
        }
    }
}

/// Runs one round with `key`; idem's verdict for idem's modes, `None` for curl (which judges nothing).
async fn run_round(tool: Tool, url: &str, key: &str) -> Option<Verdict> {
    if tool == Tool::Curl {
        let mut command = Command::new("curl");
        command.args(["--parallel", "--parallel-immediate", "--parallel-max", &N.to_string(), "-s"]);
        for index in 0..N {
            if index > 0 {
                command.arg("--next");
            }
            command.args(["--http2-prior-knowledge", "-o", "/dev/null", "-X", "POST"]);
            command.args(["-H", "content-type: application/json", "-H", &format!("idempotency-key: {key}")]);
            command.args(["-d", BODY, url]);
        }
        let status = command.stdout(Stdio::null()).stderr(Stdio::null()).status().expect("run curl");
        assert!(status.success(), "curl failed: {status}");
        return None;
    }
    let mut spec = RequestSpec::new(Method::POST, url, BODY).unwrap();
    spec.key_policy = idem::testing::request::KeyPolicy::Fixed(key.to_string());
    let sync = match tool {
        Tool::SinglePacket => {
            spec.http2 = true;
            SyncMode::SinglePacket
        }
        Tool::LastByte => SyncMode::LastByte,
        _ => SyncMode::None,
    };
    let round = race_round(&spec, N, sync, KeyMode::Same).await.expect("race round");
    Some(round.judgement.verdict)
}

struct ToolResult {
    spreads: Vec<Duration>,
    caught: usize,
    safe: usize,
}

fn median(values: &[Duration]) -> Duration {
    let mut sorted = values.to_vec();
    sorted.sort();
    sorted[sorted.len() / 2]
}

fn main() {
    let curl_ok = Command::new("curl")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success() && String::from_utf8_lossy(&o.stdout).contains("HTTP2"));
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build().unwrap();
    let mut tools = vec![Tool::SinglePacket, Tool::LastByte, Tool::Unsynchronised];
    if curl_ok {
        tools.push(Tool::Curl);
    } else {
        println!("curl with HTTP/2 not found: comparing idem's modes only");
    }
    println!(
        "race bench: N = {N} duplicates, {ROUNDS} rounds per tool, relay jitter uniform 0–{} ms per chunk, naive race window {} µs",
        MAX_JITTER_US / 1000,
        RACE_WINDOW.as_micros()
    );
    let mut results: HashMap<Tool, ToolResult> = HashMap::new();
    for tool in &tools {
        results.insert(*tool, ToolResult { spreads: Vec::new(), caught: 0, safe: 0 });
    }
    for mode in [ServerMode::Naive, ServerMode::Correct] {
        runtime.block_on(async {
            let (server_addr, server) = start_server(mode).await;
            let relay = start_relay(server_addr);
            let url = format!("http://{relay}/payments");
            for tool in &tools {
                for _ in 0..ROUNDS {
                    let key = uuid::Uuid::new_v4().to_string();
                    let verdict = run_round(*tool, &url, &key).await;
                    let (spread, executions, arrivals) = server.round(&key);
                    assert_eq!(arrivals, N, "{} delivered {arrivals} of {N} requests", tool.name());
                    let result = results.get_mut(tool).unwrap();
                    result.spreads.push(spread);
                    // idem's own verdict for idem; the server's count for curl, which judges nothing.
                    let twice = verdict.as_ref().map_or(executions > 1, |v| *v == Verdict::ExecutedMoreThanOnce);
                    let safe = verdict.as_ref().map_or(executions == 1, |v| *v == Verdict::Consistent);
                    match mode {
                        ServerMode::Naive if twice => result.caught += 1,
                        ServerMode::Correct if safe => result.safe += 1,
                        _ => {}
                    }
                }
            }
        });
    }
    println!();
    println!(
        "{:<32} {:>14} {:>10} {:>10} {:>18} {:>16}",
        "tool", "median spread", "p90", "max", "naive caught", "correct safe"
    );
    for tool in &tools {
        let result = &results[tool];
        let mut sorted = result.spreads.clone();
        sorted.sort();
        let p90 = sorted[(sorted.len() * 9).div_ceil(10) - 1];
        println!(
            "{:<32} {:>14} {:>10} {:>10} {:>18} {:>16}",
            tool.name(),
            format!("{:.3} ms", median(&result.spreads).as_secs_f64() * 1e3),
            format!("{:.3} ms", p90.as_secs_f64() * 1e3),
            format!("{:.3} ms", sorted[sorted.len() - 1].as_secs_f64() * 1e3),
            format!("{}/{ROUNDS} rounds", result.caught),
            format!("{}/{ROUNDS} rounds", result.safe),
        );
    }
    let single = median(&results[&Tool::SinglePacket].spreads).as_secs_f64();
    println!();
    for tool in tools.iter().filter(|t| **t != Tool::SinglePacket) {
        let other = median(&results[tool].spreads).as_secs_f64();
        let ratio = if single > 0.0 { format!("{:.1}×", other / single) } else { "∞".to_string() };
        println!("{} median spread / single-packet median spread: {ratio}", tool.name());
    }
    let single_result = &results[&Tool::SinglePacket];
    let mut targets = vec![
        ("single-packet catches the naive server in ≥ 9/10 rounds", single_result.caught * 10 >= ROUNDS * 9),
        ("single-packet never flags the correct server", single_result.safe == ROUNDS),
    ];
    if curl_ok {
        let curl = median(&results[&Tool::Curl].spreads).as_secs_f64();
        targets.push(("single-packet median spread ≤ 1/5 of curl's", single * 5.0 <= curl));
    }
    println!();
    for (target, met) in targets {
        println!("{} {target}", if met { "met:   " } else { "MISSED:" });
    }
    stagger_accuracy(&runtime);
    spread_against_n(&runtime, curl_ok);
}

/// The N of the spread-against-N table; 200 is hyper's default limit of concurrent streams.
const SPREAD_NS: [usize; 7] = [2, 5, 10, 20, 50, 100, 200];
const SPREAD_ROUNDS: usize = 10;
/// Connections for "h2 over several connections".
const SPREAD_CONNECTIONS: usize = 4;

#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
enum SpreadTool {
    SinglePacket,
    Connections,
    LastByte,
    /// Last-byte with the batched release held to the send loop (no io_uring).
    LastByteSendLoop,
    /// Last-byte with one awaited write per connection, as before the batched release.
    LastByteSequential,
    Curl,
}

impl SpreadTool {
    fn name(self) -> &'static str {
        match self {
            SpreadTool::SinglePacket => "h2 single-packet",
            SpreadTool::Connections => "h2 × 4 conns",
            SpreadTool::LastByte => "h1 last-byte",
            SpreadTool::LastByteSendLoop => "h1, send loop",
            SpreadTool::LastByteSequential => "h1, awaited writes",
            SpreadTool::Curl => "curl --parallel",
        }
    }
}

/// One round's server-side spread (the last arrival stamp minus the first) and the client's
/// release spread (zero for curl, which does not say); `None` when the round could not run (N
/// past the server's stream limit) or the stamps were missing.
async fn server_spread(tool: SpreadTool, url: &str, n: usize) -> Option<(Duration, Duration)> {
    if tool == SpreadTool::Curl {
        let key = uuid::Uuid::new_v4().to_string();
        let mut command = Command::new("curl");
        command.args(["--parallel", "--parallel-immediate", "--parallel-max", &n.to_string(), "-s"]);
        for index in 0..n {
            if index > 0 {
                command.arg("--next");
            }
            command.args(["--http2-prior-knowledge", "-D", "-", "-o", "/dev/null", "-X", "POST"]);
            command.args(["-H", "content-type: application/json", "-H", &format!("idempotency-key: {key}")]);
            command.args(["-d", BODY, url]);
        }
        let output = command.stderr(Stdio::null()).output().expect("run curl");
        let text = String::from_utf8_lossy(&output.stdout);
        let arrivals: Vec<u128> = text
            .lines()
            .filter_map(|line| line.strip_prefix("server-timing: arrival;desc=\""))
            .filter_map(|rest| rest.trim_end().trim_end_matches('"').parse().ok())
            .collect();
        if arrivals.len() < n {
            return None;
        }
        let (first, last) = (arrivals.iter().min()?, arrivals.iter().max()?);
        return Some((Duration::from_nanos((last - first) as u64), Duration::ZERO));
    }
    let mut spec = RequestSpec::new(Method::POST, url, BODY).unwrap();
    let (sync, spread) = match tool {
        SpreadTool::SinglePacket => {
            spec.http2 = true;
            (SyncMode::SinglePacket, Spread::default())
        }
        SpreadTool::Connections => {
            spec.http2 = true;
            let also = vec![url.parse().expect("a URL"); SPREAD_CONNECTIONS - 1];
            (SyncMode::SinglePacket, Spread { also, ..Spread::default() })
        }
        _ => (SyncMode::LastByte, Spread::default()),
    };
    limit_to(match tool {
        SpreadTool::LastByteSendLoop => BatchMethod::SendLoop,
        SpreadTool::LastByteSequential => BatchMethod::Sequential,
        _ => BatchMethod::IoUring,
    });
    let round = race_round_spread(&spec, n, sync, KeyMode::Same, &spread).await;
    limit_to(BatchMethod::IoUring);
    let round = round.ok()?;
    Some((round.server_spread?, round.release.map_or(Duration::ZERO, |release| release.spread)))
}

/// Median and σ of `spreads`, in µs.
fn median_sigma_us(spreads: &[Duration]) -> (f64, f64) {
    let us: Vec<f64> = spreads.iter().map(|d| d.as_secs_f64() * 1e6).collect();
    let mean = us.iter().sum::<f64>() / us.len() as f64;
    let sigma = (us.iter().map(|u| (u - mean).powi(2)).sum::<f64>() / us.len() as f64).sqrt();
    (median(spreads).as_secs_f64() * 1e6, sigma)
}

/// The server-side spread against N for each way of releasing the duplicates, against
/// `idem serve`'s arrival stamps.
fn spread_against_n(runtime: &tokio::runtime::Runtime, curl_ok: bool) {
    let mut tools = vec![
        SpreadTool::SinglePacket,
        SpreadTool::Connections,
        SpreadTool::LastByte,
        SpreadTool::LastByteSendLoop,
        SpreadTool::LastByteSequential,
    ];
    if curl_ok {
        tools.push(SpreadTool::Curl);
    }
    runtime.block_on(async {
        let config = idem::testing::serve::ServeConfig::local(idem::testing::serve::Mode::Correct);
        let server = idem::testing::serve::start_quiet(&config).await.expect("idem serve");
        let url = server.url("/payments");
        println!();
        println!(
            "spread at the server (idem serve's Server-Timing arrival stamps, loopback, no relay), median ± σ over {SPREAD_ROUNDS} rounds [the client's median release spread]"
        );
        println!("published (Kettle, 20 requests, at the server): single-packet 1 ms ± 0.3 ms, last-byte 4 ms ± 3 ms");
        print!("{:>5}", "N");
        for tool in &tools {
            print!(" {:>28}", tool.name());
        }
        println!();
        for n in SPREAD_NS {
            print!("{n:>5}");
            for tool in &tools {
                let (mut spreads, mut releases) = (Vec::new(), Vec::new());
                for _ in 0..SPREAD_ROUNDS {
                    if let Some((spread, release)) = server_spread(*tool, &url, n).await {
                        spreads.push(spread);
                        releases.push(release);
                    }
                }
                if spreads.len() < SPREAD_ROUNDS / 2 {
                    print!(" {:>28}", "could not run");
                    continue;
                }
                let (median, sigma) = median_sigma_us(&spreads);
                let release = median_sigma_us(&releases).0;
                print!(" {:>28}", format!("{median:.0} ± {sigma:.0} µs [{release:.0}]"));
            }
            println!();
        }
    });
}

/// Requested versus server-observed spacing of `--stagger`, straight to the server.
fn stagger_accuracy(runtime: &tokio::runtime::Runtime) {
    const DUPLICATES: usize = 5;
    const STAGGER_ROUNDS: usize = 20;
    println!();
    println!(
        "stagger accuracy: {DUPLICATES} duplicates × {STAGGER_ROUNDS} rounds per spacing, no relay; \
         error = |server-observed spacing − requested|"
    );
    println!("{:<28} {:>10} {:>14} {:>12} {:>12}", "engine", "requested", "median error", "p90 error", "median seen");
    runtime.block_on(async {
        let (addr, server) = start_server(ServerMode::Correct).await;
        let url = format!("http://{addr}/payments");
        for (name, sync, http2) in
            [("single-packet (h2c)", SyncMode::SinglePacket, true), ("last-byte (http/1.1)", SyncMode::LastByte, false)]
        {
            for requested in [Duration::from_micros(100), Duration::from_millis(1), Duration::from_millis(10)] {
                let mut errors = Vec::new();
                let mut seen = Vec::new();
                for _ in 0..STAGGER_ROUNDS {
                    let key = uuid::Uuid::new_v4().to_string();
                    let mut spec = RequestSpec::new(Method::POST, &url, BODY).unwrap();
                    spec.key_policy = idem::testing::request::KeyPolicy::Fixed(key.clone());
                    spec.http2 = http2;
                    race_round_spread(
                        &spec,
                        DUPLICATES,
                        sync,
                        KeyMode::Same,
                        &Spread { stagger: Some(requested), ..Spread::default() },
                    )
                    .await
                    .expect("staggered round");
                    let mut arrivals = server.keys.lock().unwrap().get(&key).map(|r| r.arrivals.clone()).unwrap();
                    arrivals.sort();
                    for pair in arrivals.windows(2) {
                        let spacing = pair[1] - pair[0];
                        seen.push(spacing);
                        errors.push(spacing.abs_diff(requested));
                    }
                }
                errors.sort();
                let p90 = errors[(errors.len() * 9).div_ceil(10) - 1];
                println!(
                    "{:<28} {:>10} {:>14} {:>12} {:>12}",
                    name,
                    format!("{} µs", requested.as_micros()),
                    format!("{:.1} µs", median(&errors).as_secs_f64() * 1e6),
                    format!("{:.1} µs", p90.as_secs_f64() * 1e6),
                    format!("{:.1} µs", median(&seen).as_secs_f64() * 1e6),
                );
            }
        }
    });
}
