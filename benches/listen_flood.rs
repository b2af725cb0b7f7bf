//! `webhook listen` under a forged-request flood (issue #12): 8 keep-alive connections send
//! forged Stripe deliveries (~1 KiB, a distinct event id each, a well-formed header with 6 `v1=`
//! entries that all mismatch) back to back for 10 s, while a valid delivery is sent every 100 ms on
//! a connection of its own. Prints the listener's RSS before and after, the flood's rate, and the
//! valid deliveries' latency (median, p99, max). Fails when a valid delivery is not answered 200,
//! takes 100 ms or more at the p99, or RSS grows by 64 MiB or more.
use std::io::{Read, Write};
use std::net::TcpStream;
use std::process::{Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use idem::testing::delivery::{Delivery, DeliveryBody, unix_now};
use idem::testing::scheme::Secret;
use idem::testing::scheme::{self, SchemeKind, SchemeOptions};

const SECRET: &str = "whsec_bench_flood_secret";
const FLOOD: Duration = Duration::from_secs(10);
const CONNECTIONS: usize = 8;
const VALID_EVERY: Duration = Duration::from_millis(100);
const MAX_P99: Duration = Duration::from_millis(100);
const MAX_GROWTH_KIB: u64 = 64 * 1024;

fn main() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_webhook"))
        .args(["listen", "--addr", "127.0.0.1:0", "--scheme", "stripe", "--secret", SECRET, "--format", "json"])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("start webhook listen");
    let mut stdout = child.stdout.take().expect("stdout");
    let addr = read_addr(&mut stdout);
    std::thread::spawn(move || std::io::copy(&mut stdout, &mut std::io::sink()));
    let pid = child.id();
    // A few deliveries first, so the baseline includes the runtime's warmed-up buffers.
    forge(&addr, 0, &AtomicBool::new(true), &AtomicU64::new(0), 500);
    let before = rss_kib(pid);

    let stop = Arc::new(AtomicBool::new(false));
    let forged = Arc::new(AtomicU64::new(0));
    let flooders: Vec<_> = (0..CONNECTIONS)
        .map(|connection| {
            let (addr, stop, forged) = (addr.clone(), Arc::clone(&stop), Arc::clone(&forged));
            std::thread::spawn(move || forge(&addr, connection + 1, &stop, &forged, usize::MAX))
        })
        .collect();
    let started = Instant::now();
    let mut latencies = Vec::new();
    let mut valid_stream = TcpStream::connect(&addr).expect("connect");
    valid_stream.set_nodelay(true).expect("nodelay");
    let mut n = 0;
    while started.elapsed() < FLOOD {
        let sent = Instant::now();
        let status = exchange(&mut valid_stream, &valid_request(n));
        latencies.push(sent.elapsed());
        assert_eq!(status, 200, "a valid delivery during the flood was answered {status}");
        n += 1;
        std::thread::sleep(VALID_EVERY.saturating_sub(sent.elapsed()));
    }
    stop.store(true, Ordering::Relaxed);
    for flooder in flooders {
        let _ = flooder.join();
    }
    let seconds = started.elapsed().as_secs_f64();
    let after = rss_kib(pid);
    let _ = Command::new("kill").args(["-INT", &pid.to_string()]).status();
    let _ = child.wait();

    latencies.sort();
    let at = |quantile: f64| latencies[((latencies.len() - 1) as f64 * quantile).round() as usize];
    let forged = forged.load(Ordering::Relaxed);
    println!(
        "listen_flood: {FLOOD:?} of forged deliveries on {CONNECTIONS} connections, a valid one every {VALID_EVERY:?}"
    );
    println!("  forged deliveries answered : {forged} ({:.0}/s)", forged as f64 / seconds);
    println!("  RSS before / after         : {before} KiB / {after} KiB (+{} KiB)", after.saturating_sub(before));
    println!(
        "  valid deliveries ({:>4})    : median {:.2} ms, p99 {:.2} ms, max {:.2} ms",
        latencies.len(),
        ms(at(0.5)),
        ms(at(0.99)),
        ms(at(1.0))
    );
    assert!(at(0.99) < MAX_P99, "p99 latency of valid deliveries is {:?}", at(0.99));
    assert!(after.saturating_sub(before) < MAX_GROWTH_KIB, "RSS grew from {before} KiB to {after} KiB");
}

fn ms(duration: Duration) -> f64 {
    duration.as_secs_f64() * 1000.0
}

fn read_addr(stdout: &mut impl Read) -> String {
    let mut line = Vec::new();
    let mut byte = [0u8];
    while stdout.read(&mut byte).expect("read the banner") == 1 && byte[0] != b'\n' {
        line.push(byte[0]);
    }
    let banner: serde_json::Value = serde_json::from_slice(&line).expect("a JSON banner");
    banner["addr"].as_str().expect("the bound address").to_string()
}

fn rss_kib(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).expect("read /proc status");
    let line = status.lines().find(|line| line.starts_with("VmRSS:")).expect("VmRSS");
    line.split_whitespace().nth(1).and_then(|kib| kib.parse().ok()).expect("a number")
}

fn valid_request(n: usize) -> Vec<u8> {
    let scheme = scheme::build(SchemeKind::Stripe, &SchemeOptions::default());
    let key = scheme.key(&Secret::new(SECRET.as_bytes().to_vec()).expect("secret")).expect("key");
    let body = format!("{{\"id\":\"evt_valid_{n}\",\"type\":\"bench.valid\",\"data\":{{\"amount\":100}}}}");
    let delivery = Delivery {
        body: DeliveryBody::Bytes(body.clone().into()),
        id: format!("evt_valid_{n}"),
        timestamp: unix_now(),
        event: None,
        url: None,
    };
    let headers = scheme.sign(&delivery, &key).expect("sign");
    let mut head = String::from("POST / HTTP/1.1\r\nHost: bench\r\nContent-Type: application/json\r\n");
    for (name, value) in headers {
        head.push_str(&format!("{name}: {}\r\n", value.to_str().expect("ascii")));
    }
    head.push_str(&format!("Content-Length: {}\r\n\r\n{body}", body.len()));
    head.into_bytes()
}

fn forged_request(connection: usize, n: usize) -> Vec<u8> {
    let filler = "x".repeat(900);
    let body = format!("{{\"id\":\"evt_forged_{connection}_{n}\",\"filler\":\"{filler}\"}}");
    let entries: Vec<String> = (0..6).map(|entry| format!("v1={:064x}", entry + n)).collect();
    format!(
        "POST / HTTP/1.1\r\nHost: bench\r\nStripe-Signature: t={},{}\r\nContent-Length: {}\r\n\r\n{body}",
        unix_now(),
        entries.join(","),
        body.len()
    )
    .into_bytes()
}

fn forge(addr: &str, connection: usize, stop: &AtomicBool, forged: &AtomicU64, count: usize) {
    let Ok(mut stream) = TcpStream::connect(addr) else { return };
    let _ = stream.set_nodelay(true);
    let mut n = 0;
    while n < count && !(count == usize::MAX && stop.load(Ordering::Relaxed)) {
        if exchange(&mut stream, &forged_request(connection, n)) == 0 {
            return;
        }
        forged.fetch_add(1, Ordering::Relaxed);
        n += 1;
    }
}

/// Sends one request and reads its answer; the status, or 0 when the connection failed.
fn exchange(stream: &mut TcpStream, request: &[u8]) -> u16 {
    if stream.write_all(request).is_err() {
        return 0;
    }
    let mut answer = Vec::with_capacity(2048);
    let mut buffer = [0u8; 4096];
    loop {
        let Ok(read) = stream.read(&mut buffer) else { return 0 };
        if read == 0 {
            return 0;
        }
        answer.extend_from_slice(&buffer[..read]);
        if let Some(end) = answer.windows(4).position(|window| window == b"\r\n\r\n") {
            let head = String::from_utf8_lossy(&answer[..end]).to_ascii_lowercase();
            let length: usize = head
                .lines()
                .find_map(|line| line.strip_prefix("content-length:"))
                .and_then(|value| value.trim().parse().ok())
                .unwrap_or(0);
            if answer.len() >= end + 4 + length {
                return head.get(9..12).and_then(|code| code.parse().ok()).unwrap_or(0);
            }
        }
    }
}
