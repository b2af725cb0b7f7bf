//! `idem send --retry`: what a correct client does when an answer is lost or fails. It sends the
//! same request again with the **same** key and body, after exponential backoff with full jitter
//! (a random wait in `[0, min(cap, backoff × 2^(n-1))]` before retry n, so a crowd of clients
//! spreads out), honouring a `Retry-After` in seconds. `--new-key-per-retry` draws a fresh key for
//! every retry instead: the classic bug, on purpose, to see `idem proxy` catch it.
use std::time::{Duration, Instant};

use http::StatusCode;
use rand::Rng;
use serde::Serialize;

use crate::http::client::{Exchange, HttpClient};
use crate::idem::key::{self, KeyFormat, KeyPolicy};
use crate::idem::request::RequestSpec;
use crate::output::{Palette, terminal_safe};
use crate::units::format_duration;

/// No single backoff wait exceeds this.
const MAX_BACKOFF: Duration = Duration::from_secs(30);
/// A `Retry-After` longer than this is cut short: a test run should not stall for hours.
const MAX_RETRY_AFTER: Duration = Duration::from_secs(300);

/// Which failures are retried (`--retry-on`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RetryOn {
    pub server_errors: bool,
    pub too_many_requests: bool,
    pub timeout: bool,
    pub connection: bool,
}

impl Default for RetryOn {
    fn default() -> RetryOn {
        RetryOn { server_errors: true, too_many_requests: true, timeout: true, connection: true }
    }
}

impl RetryOn {
    /// `5xx,429,timeout,connection`, any subset.
    pub fn parse(text: &str) -> Result<RetryOn, String> {
        let mut on = RetryOn { server_errors: false, too_many_requests: false, timeout: false, connection: false };
        for part in text.split(',').map(str::trim).filter(|part| !part.is_empty()) {
            match part.to_ascii_lowercase().as_str() {
                "5xx" => on.server_errors = true,
                "429" => on.too_many_requests = true,
                "timeout" => on.timeout = true,
                "connection" => on.connection = true,
                _ => {
                    return Err(format!(
                        "`{part}` is not a retry condition; use 5xx, 429, timeout or connection, comma-separated"
                    ));
                }
            }
        }
        if on == (RetryOn { server_errors: false, too_many_requests: false, timeout: false, connection: false }) {
            return Err("--retry-on needs at least one of 5xx, 429, timeout, connection".to_string());
        }
        Ok(on)
    }
}

#[derive(Debug, Clone)]
pub struct RetryPolicy {
    /// Retries after the first attempt.
    pub retries: u32,
    pub on: RetryOn,
    /// The cap of the first retry's wait; it doubles for each further retry.
    pub backoff: Duration,
    /// The bug, on purpose: a fresh key for every retry.
    pub new_key_per_retry: bool,
    /// Announce each retry on stderr in this palette (human output); `None` stays quiet.
    pub announce: Option<Palette>,
}

/// One retry, as `--format json` lists it under `retries`.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub(crate) struct RetryRecord {
    /// The attempt that failed (1-based), and why.
    pub after_attempt: u32,
    pub reason: String,
    /// The key the retry is sent with.
    pub key: Option<String>,
    #[serde(rename = "wait_ms", serialize_with = "crate::units::as_ms")]
    #[schemars(with = "f64")]
    pub wait: Duration,
    /// `backoff`, or `retry-after` when the server's `Retry-After` set the wait.
    pub wait_source: &'static str,
}

/// Sends the request, retrying per `policy`; returns the last attempt's result. Each retry is
/// appended to `retries`.
pub(crate) async fn send(
    client: &HttpClient,
    spec: &RequestSpec,
    key: Option<&str>,
    policy: Option<&RetryPolicy>,
    retries: &mut Vec<RetryRecord>,
) -> anyhow::Result<Exchange> {
    let mut key = key.map(str::to_string);
    let mut attempt = 1u32;
    loop {
        let started = Instant::now();
        let result = client.send(spec.build(key.as_deref())?).await;
        let Some(policy) = policy.filter(|policy| attempt <= policy.retries) else { return result };
        let Some(reason) = retry_reason(&result, started.elapsed(), spec.timeout, policy.on) else { return result };
        let backoff = full_jitter(policy.backoff, attempt, &mut rand::rng());
        let retry_after = result.as_ref().ok().and_then(retry_after);
        let (wait, wait_source) = match retry_after {
            Some(asked) if asked > backoff => (asked, "retry-after"),
            _ => (backoff, "backoff"),
        };
        if policy.new_key_per_retry && key.is_some() {
            key = Some(key::generate(key_format(&spec.key_policy)));
        }
        if let Some(palette) = policy.announce {
            let which = if policy.new_key_per_retry { "a NEW key" } else { "the same key" };
            eprintln!(
                "{} attempt {attempt}: {}; retry {attempt}/{} in {} ({wait_source}) with {which}",
                palette.yellow("↻"),
                terminal_safe(&reason),
                policy.retries,
                format_duration(wait)
            );
        }
        retries.push(RetryRecord { after_attempt: attempt, reason, key: key.clone(), wait, wait_source });
        tokio::time::sleep(wait).await;
        attempt += 1;
    }
}

/// Why this result deserves a retry under `on`, or `None`.
fn retry_reason(result: &anyhow::Result<Exchange>, took: Duration, timeout: Duration, on: RetryOn) -> Option<String> {
    match result {
        Ok(exchange) => {
            let status = exchange.status;
            let retried = (on.server_errors && status.is_server_error())
                || (on.too_many_requests && status == StatusCode::TOO_MANY_REQUESTS);
            retried.then(|| format!("answered {status}"))
        }
        // The client gives up exactly at its timeout; anything sooner is the connection failing.
        Err(err) if took >= timeout => on.timeout.then(|| format!("no answer: {err:#}")),
        Err(err) => on.connection.then(|| format!("no answer: {err:#}")),
    }
}

/// A random wait in `[0, min(MAX_BACKOFF, backoff × 2^(attempt-1))]`.
fn full_jitter(backoff: Duration, attempt: u32, rng: &mut impl Rng) -> Duration {
    let doublings = attempt.saturating_sub(1).min(31);
    let cap = backoff.saturating_mul(1u32 << doublings).min(MAX_BACKOFF);
    let cap_nanos = u64::try_from(cap.as_nanos()).unwrap_or(u64::MAX);
    Duration::from_nanos(rng.random_range(0..=cap_nanos))
}

/// `Retry-After` in seconds (the HTTP-date form is not honoured).
fn retry_after(exchange: &Exchange) -> Option<Duration> {
    let seconds: u64 = exchange.headers.get(http::header::RETRY_AFTER)?.to_str().ok()?.trim().parse().ok()?;
    Some(Duration::from_secs(seconds).min(MAX_RETRY_AFTER))
}

fn key_format(policy: &KeyPolicy) -> KeyFormat {
    match policy {
        KeyPolicy::Generate(format) => *format,
        KeyPolicy::Fixed(_) | KeyPolicy::Omit => KeyFormat::Uuid4,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use bytes::Bytes;
    use http::{HeaderMap, HeaderValue, Version};

    fn exchange(status: u16, retry_after: Option<&'static str>) -> anyhow::Result<Exchange> {
        let mut headers = HeaderMap::new();
        if let Some(value) = retry_after {
            headers.insert(http::header::RETRY_AFTER, HeaderValue::from_static(value));
        }
        Ok(Exchange {
            status: StatusCode::from_u16(status).unwrap(),
            version: Version::HTTP_11,
            headers,
            body: Bytes::new(),
            latency: Duration::ZERO,
        })
    }

    #[test]
    fn conditions_parse_and_select_failures() {
        let only_5xx = RetryOn::parse("5xx").unwrap();
        let second = Duration::from_secs(1);
        assert!(retry_reason(&exchange(503, None), Duration::ZERO, second, only_5xx).is_some());
        assert!(retry_reason(&exchange(429, None), Duration::ZERO, second, only_5xx).is_none());
        assert!(retry_reason(&exchange(201, None), Duration::ZERO, second, RetryOn::default()).is_none());
        let refused: anyhow::Result<Exchange> = Err(anyhow::anyhow!("refused"));
        assert!(retry_reason(&refused, Duration::ZERO, second, RetryOn::parse("timeout").unwrap()).is_none());
        assert!(retry_reason(&refused, second, second, RetryOn::parse("timeout").unwrap()).is_some());
        assert!(retry_reason(&refused, Duration::ZERO, second, RetryOn::parse("connection").unwrap()).is_some());
        assert!(RetryOn::parse("4xx").is_err());
        assert!(RetryOn::parse("").is_err());
    }

    #[test]
    fn jitter_stays_under_a_doubling_cap() {
        let mut rng = rand::rng();
        for attempt in 1..=6 {
            let cap = Duration::from_millis(100) * (1 << (attempt - 1));
            for _ in 0..100 {
                assert!(full_jitter(Duration::from_millis(100), attempt, &mut rng) <= cap.min(MAX_BACKOFF));
            }
        }
        assert!(full_jitter(Duration::from_secs(10), 40, &mut rng) <= MAX_BACKOFF);
    }

    #[test]
    fn retry_after_is_read_in_seconds() {
        assert_eq!(retry_after(exchange(503, Some("2")).as_ref().unwrap()), Some(Duration::from_secs(2)));
        assert_eq!(retry_after(exchange(503, Some("Wed, 21 Oct 2015 07:28:00 GMT")).as_ref().unwrap()), None);
        assert_eq!(retry_after(exchange(503, Some("99999")).as_ref().unwrap()), Some(MAX_RETRY_AFTER));
    }
}
