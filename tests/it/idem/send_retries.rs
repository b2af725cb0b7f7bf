//! The shared retry policy through `idem send`: `--max-attempts N` counts attempts, the older
//! `--retry N` counts retries (N+1 attempts), and a `Retry-After` is read in both of its forms
//! and capped by `--backoff-max`.
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use serde_json::Value;

use crate::support::{CustomServer, Reply, idem};

const PAYMENT: &str = r#"{"amount":100}"#;

/// A server that answers every request 503, and how many requests it got.
fn always_503() -> (CustomServer, Arc<AtomicUsize>) {
    let count = Arc::new(AtomicUsize::new(0));
    let seen = Arc::clone(&count);
    let server = CustomServer::start(move |_| {
        seen.fetch_add(1, Ordering::SeqCst);
        Reply::json(503, r#"{"error":"busy"}"#)
    });
    (server, count)
}

fn send_json(url: &str, flags: &[&str]) -> Value {
    let output = idem().args(["send", url, "-d", PAYMENT, "--format", "json"]).args(flags).output().unwrap();
    assert_ne!(output.status.code(), Some(2), "{}", String::from_utf8_lossy(&output.stderr));
    serde_json::from_slice(&output.stdout).unwrap_or_else(|err| panic!("{err}: {output:?}"))
}

#[test]
fn max_attempts_counts_attempts_and_retry_counts_retries() {
    for (flags, attempts) in [
        (&["--max-attempts", "3"][..], 3),
        (&["--retry", "2"][..], 3),
        (&["--max-attempts", "1"][..], 1),
        (&["--retry", "0"][..], 1),
        (&[][..], 1),
    ] {
        let (server, count) = always_503();
        // --backoff needs one of the two; without either each request is sent once.
        let backoff: &[&str] = if flags.is_empty() { &[] } else { &["--backoff", "1ms"] };
        let flags: Vec<&str> = flags.iter().chain(backoff).copied().collect();
        // Every answer a 503: nothing is created, which is exit 2; what counts is the requests.
        let output = idem().args(["send", &server.url("/p"), "-d", PAYMENT]).args(&flags).output().unwrap();
        assert_eq!(output.status.code(), Some(2), "{flags:?}");
        assert_eq!(count.load(Ordering::SeqCst), attempts, "{flags:?}");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(stderr.matches("↻ attempt").count(), attempts - 1, "{flags:?}: {stderr}");
    }
}

#[test]
fn retry_and_max_attempts_together_are_refused() {
    let output = idem().args(["send", "http://127.0.0.1:1/p", "--retry", "1", "--max-attempts", "2"]).assert().code(2);
    let stderr = String::from_utf8_lossy(&output.get_output().stderr).to_string();
    assert!(stderr.contains("cannot be used with"), "{stderr}");
    let output = idem().args(["send", "http://127.0.0.1:1/p", "--backoff-max", "1s"]).assert().code(2);
    let stderr = String::from_utf8_lossy(&output.get_output().stderr).to_string();
    assert!(stderr.contains("--max-attempts") && stderr.contains("--retry"), "{stderr}");
}

#[test]
fn retry_after_is_read_as_seconds_and_as_an_http_date_and_capped() {
    // A date in the past asks for no wait; one a day ahead is cut to --backoff-max.
    for (retry_after, source, at_most_ms) in [
        ("0".to_string(), "retry-after", 0.0),
        ("Sun, 06 Nov 1994 08:49:37 GMT".to_string(), "retry-after", 0.0),
        (
            httpdate::fmt_http_date(std::time::SystemTime::now() + std::time::Duration::from_secs(86_400)),
            "retry-after-clamped",
            5.0,
        ),
    ] {
        let header = retry_after.clone();
        let server = CustomServer::start(move |request| match request.sequence {
            0 => Reply { status: 503, headers: vec![("retry-after", header.clone())], body: String::new() },
            _ => Reply::json(201, r#"{"id":"pay_1"}"#),
        });
        let report = send_json(&server.url("/p"), &["--max-attempts", "2", "--backoff-max", "5ms"]);
        let retry = &report["retries"][0];
        assert_eq!(retry["wait_source"], source, "Retry-After: {retry_after}: {report}");
        assert!(retry["wait_ms"].as_f64().unwrap() <= at_most_ms, "Retry-After: {retry_after}: {report}");
    }
}
