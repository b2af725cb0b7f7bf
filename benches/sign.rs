//! Signing throughput of `webhook sign --scheme hmac -d @file` on a 100 MiB file, against
//! `openssl dgst -sha256 -hmac KEY file`, the tool people would otherwise reach for. Both run as
//! processes on the same warm file, interleaved, and the best of several runs counts, so start-up
//! and page-cache effects hit both alike. Target: at least 90% of openssl's throughput.
use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const FILE_SIZE: usize = 100 * 1024 * 1024;
const RUNS: usize = 5;
const KEY: &str = "bench-secret-key";
const TARGET_RATIO: f64 = 0.90;

fn main() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let path = dir.path().join("payload.bin");
    write_payload(&path);
    let file_arg = format!("@{}", path.display());
    let webhook = env!("CARGO_BIN_EXE_webhook");

    let mut ours = Command::new(webhook);
    ours.args(["sign", "--scheme", "hmac", "--secret", KEY, "-d", &file_arg]);
    let mut openssl = Command::new("openssl");
    openssl.args(["dgst", "-sha256", "-hmac", KEY]).arg(&path);

    // Same key and bytes, so the two must agree; a benchmark of a wrong answer is worthless.
    let our_hex = last_hex_word(&output_of(&mut ours));
    match output_of_checked(&mut openssl) {
        Some(theirs) => assert_eq!(our_hex, last_hex_word(&theirs), "webhook and openssl disagree on the HMAC"),
        None => {
            let best = best_of(&mut ours);
            println!("webhook sign: {:.0} MiB/s (openssl not found, no comparison)", throughput(best));
            return;
        }
    }

    let (mut ours_best, mut openssl_best) = (Duration::MAX, Duration::MAX);
    for _ in 0..RUNS {
        ours_best = ours_best.min(time(&mut ours));
        openssl_best = openssl_best.min(time(&mut openssl));
    }
    let (ours_rate, openssl_rate) = (throughput(ours_best), throughput(openssl_best));
    let ratio = ours_rate / openssl_rate;
    println!("signing a {} MiB file, best of {RUNS} runs each:", FILE_SIZE >> 20);
    println!("  webhook sign --scheme hmac -d @file : {ours_rate:>7.0} MiB/s ({:.1} ms)", ms(ours_best));
    println!("  openssl dgst -sha256 -hmac KEY file : {openssl_rate:>7.0} MiB/s ({:.1} ms)", ms(openssl_best));
    println!(
        "  ratio webhook/openssl              : {:>7.1}% (target >= {:.0}%: {})",
        ratio * 100.0,
        TARGET_RATIO * 100.0,
        if ratio >= TARGET_RATIO { "met" } else { "MISSED" }
    );
}

/// Bytes that are not all alike (so nothing can shortcut them), written once and read back so the
/// page cache is warm for both tools.
fn write_payload(path: &Path) {
    let mut file = std::fs::File::create(path).expect("create the payload file");
    let block: Vec<u8> = (0..1024 * 1024u32).map(|i| (i.wrapping_mul(2_654_435_761) >> 24) as u8).collect();
    for _ in 0..(FILE_SIZE / block.len()) {
        file.write_all(&block).expect("write the payload file");
    }
    file.sync_all().expect("flush the payload file");
    std::fs::read(path).expect("read the payload back");
}

fn time(command: &mut Command) -> Duration {
    let start = Instant::now();
    let status = command.stdout(Stdio::null()).stderr(Stdio::inherit()).status().expect("run the command");
    let elapsed = start.elapsed();
    assert!(status.success(), "{command:?} failed");
    elapsed
}

fn best_of(command: &mut Command) -> Duration {
    (0..RUNS).map(|_| time(command)).min().unwrap_or(Duration::MAX)
}

fn output_of(command: &mut Command) -> String {
    output_of_checked(command).unwrap_or_else(|| panic!("{command:?} could not run"))
}

fn output_of_checked(command: &mut Command) -> Option<String> {
    let output = command.stdout(Stdio::piped()).output().ok()?;
    output.status.success().then(|| String::from_utf8_lossy(&output.stdout).into_owned())
}

/// The 64-hex-digit digest at the end of either tool's output line.
fn last_hex_word(text: &str) -> String {
    let word = text.trim().rsplit(['=', ' ']).next().unwrap_or_default();
    word.to_ascii_lowercase()
}

fn throughput(elapsed: Duration) -> f64 {
    (FILE_SIZE as f64 / (1024.0 * 1024.0)) / elapsed.as_secs_f64()
}

fn ms(elapsed: Duration) -> f64 {
    elapsed.as_secs_f64() * 1_000.0
}
