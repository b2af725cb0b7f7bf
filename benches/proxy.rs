//! What `idem proxy` costs a request that passes through it unfaulted: requests per second and
//! latency (median, p99) through the proxy against the same fast upstream directly, in one run.
//! The upstream is a bare hyper server answering a small JSON 200 (this bench re-executed with
//! `--upstream-server`); the proxy is the release `idem proxy` binary; load comes from a separate
//! process (`--load-generator`): one connection sending back to back for the latency, 32
//! keep-alive HTTP/1.1 connections for the throughput. The requests are GETs, which the proxy
//! forwards without judging. Targets: throughput through the proxy at least 50% of direct, added
//! median latency under 100 µs.

use std::net::SocketAddr;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

// `stop` and `run_load_generator` are for the benches that load a server from a second process
// through it; this one only starts its servers there.
#[allow(dead_code)]
#[path = "common/server_process.rs"]
mod server_process;
use server_process::ServerProcess;

use bytes::Bytes;
use http::{Request, Response};
use http_body_util::{BodyExt, Empty, Full};
use hyper::body::Incoming;
use hyper_util::rt::TokioIo;

const THROUGHPUT_CONNECTIONS: usize = 32;
const THROUGHPUT_RUN: Duration = Duration::from_secs(4);
const LATENCY_RUN: Duration = Duration::from_secs(3);
const ROUNDS: usize = 2;
const TARGET_RATIO: f64 = 0.50;
const TARGET_ADDED_MEDIAN_US: f64 = 100.0;
const UPSTREAM_BODY: &str = r#"{"id":"pay_bench","object":"payment","amount":1990,"currency":"RUB"}"#;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    match args.get(1).map(String::as_str) {
        Some("--upstream-server") => upstream_server(),
        Some("--load-generator") => load_generator(&args[2], args[3].parse().expect("connections"), &args[4]),
        // `cargo bench` passes `--bench`; anything else runs the comparison.
        _ => compare(),
    }
}

/// One load-generator run: answers counted, and per-request latencies.
#[derive(Debug, Clone, Copy)]
struct Load {
    answered: u64,
    failed: u64,
    seconds: f64,
    median_us: f64,
    p99_us: f64,
}

impl Load {
    fn rate(self) -> f64 {
        self.answered as f64 / self.seconds
    }
}

fn compare() {
    let upstream =
        ServerProcess::start(Command::new(std::env::current_exe().expect("own path")).arg("--upstream-server"));
    let upstream_url = upstream.url.clone();
    let proxy = ServerProcess::start(
        Command::new(env!("CARGO_BIN_EXE_idem"))
            .args(["proxy", "--upstream", &upstream_url, "--addr", "127.0.0.1:0"])
            .env("NO_COLOR", "1"),
    );
    let proxy_url = proxy.url.clone();
    let mut best: [Option<(Load, Load)>; 2] = [None, None];
    for round in 1..=ROUNDS {
        for (slot, (name, url)) in [("direct", &upstream_url), ("proxy", &proxy_url)].into_iter().enumerate() {
            let latency = load(url, 1, LATENCY_RUN);
            let throughput = load(url, THROUGHPUT_CONNECTIONS, THROUGHPUT_RUN);
            assert_eq!(latency.failed + throughput.failed, 0, "{name}: some answers were not 200");
            println!(
                "round {round} {name:<6}: {:>7.0} req/s on {THROUGHPUT_CONNECTIONS} connections; one connection: median {:.0} µs, p99 {:.0} µs",
                throughput.rate(),
                latency.median_us,
                latency.p99_us
            );
            // Best round: highest throughput, lowest median latency.
            best[slot] = Some(match best[slot] {
                None => (latency, throughput),
                Some((best_latency, best_throughput)) => (
                    if latency.median_us < best_latency.median_us { latency } else { best_latency },
                    if throughput.rate() > best_throughput.rate() { throughput } else { best_throughput },
                ),
            });
        }
    }
    let [Some((direct_latency, direct)), Some((proxy_latency, proxied))] = best else { return };
    let ratio = proxied.rate() / direct.rate();
    let added_median = proxy_latency.median_us - direct_latency.median_us;
    let added_p99 = proxy_latency.p99_us - direct_latency.p99_us;
    println!("best of {ROUNDS} rounds, GET passed through unjudged, small JSON answers:");
    println!(
        "  direct        : {:>8.0} requests/s   median {:>5.0} µs   p99 {:>5.0} µs",
        direct.rate(),
        direct_latency.median_us,
        direct_latency.p99_us
    );
    println!(
        "  through proxy : {:>8.0} requests/s   median {:>5.0} µs   p99 {:>5.0} µs",
        proxied.rate(),
        proxy_latency.median_us,
        proxy_latency.p99_us
    );
    println!(
        "  throughput proxy/direct : {:>6.1}% (target >= {:.0}%: {})",
        ratio * 100.0,
        TARGET_RATIO * 100.0,
        if ratio >= TARGET_RATIO { "met" } else { "MISSED" }
    );
    println!(
        "  added latency           : median {added_median:+.0} µs (target < {TARGET_ADDED_MEDIAN_US:.0} µs: {}), p99 {added_p99:+.0} µs",
        if added_median < TARGET_ADDED_MEDIAN_US { "met" } else { "MISSED" }
    );
}

/// Runs the load generator in its own process against `url`.
fn load(url: &str, connections: usize, run: Duration) -> Load {
    let output = Command::new(std::env::current_exe().expect("own path"))
        .args(["--load-generator", url, &connections.to_string(), &run.as_millis().to_string()])
        .stderr(Stdio::inherit())
        .output()
        .expect("run the load generator");
    assert!(output.status.success(), "the load generator failed");
    let text = String::from_utf8_lossy(&output.stdout);
    let numbers: Vec<f64> = text.split_whitespace().filter_map(|word| word.parse().ok()).collect();
    let [answered, failed, seconds, median_us, p99_us] = numbers[..] else {
        panic!("unexpected load generator output {text:?}")
    };
    Load { answered: answered as u64, failed: failed as u64, seconds, median_us, p99_us }
}

/// `--upstream-server`: answers every request 200 with a small JSON body; prints its URL.
fn upstream_server() {
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build().expect("a runtime");
    runtime.block_on(async {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("bind");
        println!("upstream http://{}", listener.local_addr().expect("address"));
        loop {
            let Ok((stream, _)) = listener.accept().await else { continue };
            let _ = stream.set_nodelay(true);
            tokio::spawn(async move {
                let service = hyper::service::service_fn(|request: Request<Incoming>| async move {
                    let _ = request.into_body().collect().await;
                    let mut response = Response::new(Full::new(Bytes::from_static(UPSTREAM_BODY.as_bytes())));
                    response.headers_mut().insert("content-type", http::HeaderValue::from_static("application/json"));
                    Ok::<_, std::convert::Infallible>(response)
                });
                let _ =
                    hyper::server::conn::http1::Builder::new().serve_connection(TokioIo::new(stream), service).await;
            });
        }
    });
}

/// `--load-generator URL CONNECTIONS MILLIS`: prints "ANSWERED FAILED SECONDS MEDIAN_US P99_US".
fn load_generator(url: &str, connections: usize, millis: &str) {
    let uri: http::Uri = url.parse().expect("a URL");
    let addr: SocketAddr = uri.authority().expect("host and port").as_str().parse().expect("an IP and port");
    let run = Duration::from_millis(millis.parse().expect("milliseconds"));
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build().expect("a runtime");
    let (answered, failed, seconds, mut latencies) = runtime.block_on(async move {
        let started = Instant::now();
        let deadline = started + run;
        let tasks: Vec<_> = (0..connections).map(|_| tokio::spawn(one_connection(addr, deadline))).collect();
        let (mut answered, mut failed, mut latencies) = (0, 0, Vec::new());
        for task in tasks {
            let (ok, not_ok, times) = task.await.expect("a connection task");
            answered += ok;
            failed += not_ok;
            latencies.extend(times);
        }
        (answered, failed, started.elapsed().as_secs_f64(), latencies)
    });
    latencies.sort_unstable();
    let percentile = |p: f64| {
        let index = ((latencies.len() as f64 * p).ceil() as usize).saturating_sub(1).min(latencies.len() - 1);
        latencies[index].as_secs_f64() * 1e6
    };
    println!("{answered} {failed} {seconds} {} {}", percentile(0.50), percentile(0.99));
}

/// Sends GETs one after another on one keep-alive connection until the deadline.
async fn one_connection(addr: SocketAddr, deadline: Instant) -> (u64, u64, Vec<Duration>) {
    let stream = tokio::net::TcpStream::connect(addr).await.expect("connect");
    stream.set_nodelay(true).expect("nodelay");
    let (mut sender, connection) =
        hyper::client::conn::http1::handshake(TokioIo::new(stream)).await.expect("an HTTP/1.1 handshake");
    tokio::spawn(connection);
    let (mut answered, mut failed, mut latencies) = (0, 0, Vec::new());
    let host = addr.to_string();
    while Instant::now() < deadline {
        let request = Request::get("/payments/pay_bench")
            .header("host", &host)
            .header("accept", "application/json")
            .body(Empty::<Bytes>::new())
            .expect("a request");
        let sent = Instant::now();
        let response = sender.send_request(request).await.expect("an answer");
        let status = response.status();
        let _ = response.into_body().collect().await;
        latencies.push(sent.elapsed());
        if status.is_success() {
            answered += 1;
        } else {
            failed += 1;
        }
    }
    (answered, failed, latencies)
}
