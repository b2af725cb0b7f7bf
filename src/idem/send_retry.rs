//! `idem send --max-attempts N` (or `--retry N`, N retries): what a correct client does when an
//! answer is lost or fails. It sends the same request again with the **same** key and body,
//! waiting as the shared retry policy says (crate::retry: exponential backoff with full jitter,
//! a `Retry-After` in seconds or as an HTTP-date instead, both capped by `--backoff-max`).
//! `--new-key-per-retry` draws a fresh key for every retry instead: the classic bug, on purpose,
//! to see `idem proxy` catch it.
use std::time::{Duration, Instant};

use http::StatusCode;
use serde::Serialize;

use crate::http::client::{Exchange, HttpClient};
use crate::idem::key::{self, KeyFormat, KeyPolicy};
use crate::idem::request::RequestSpec;
use crate::output::{Palette, terminal_safe};
use crate::retry::{RetryPolicy, WaitSource, retry_after_of};
use crate::units::format_duration;

/// `--backoff-max` unless given: a test run should not stall for hours on a long `Retry-After`.
pub(crate) const DEFAULT_BACKOFF_MAX: Duration = Duration::from_secs(300);

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

/// How `idem send` retries: the shared policy, which failures, and which key.
#[derive(Debug, Clone)]
pub struct SendRetry {
    /// Attempts and waits (`--max-attempts`, `--backoff`, `--backoff-max`).
    pub policy: RetryPolicy,
    pub on: RetryOn,
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
    /// `backoff`, or `retry-after` when the server's `Retry-After` set the wait
    /// (`retry-after-clamped` when it asked for more than `--backoff-max`).
    pub wait_source: WaitSource,
}

/// Sends the request, retrying per `policy`; returns the last attempt's result. Each retry is
/// appended to `retries`.
pub(crate) async fn send(
    client: &HttpClient,
    spec: &RequestSpec,
    key: Option<&str>,
    retry: Option<&SendRetry>,
    retries: &mut Vec<RetryRecord>,
) -> anyhow::Result<Exchange> {
    let mut key = key.map(str::to_string);
    let mut attempt = 1u32;
    loop {
        let started = Instant::now();
        let result = client.send(spec.build(key.as_deref())?).await;
        // A request --max-requests refused was never sent: there is nothing to retry.
        if let Err(err) = &result
            && crate::http::budget::refusal_in(err).is_some()
        {
            return result;
        }
        let Some(retry) = retry.filter(|retry| attempt < retry.policy.max_attempts()) else { return result };
        let Some(reason) = retry_reason(&result, started.elapsed(), spec.timeout, retry.on) else { return result };
        let planned = match result.as_ref().ok().and_then(|exchange| retry_after_of(&exchange.headers)) {
            Some(asked) => retry.policy.retry_after_wait(asked),
            None => retry.policy.planned_wait(attempt + 1, &mut rand::rng()),
        };
        let (wait, wait_source) = (planned.wait, planned.source);
        if retry.new_key_per_retry && key.is_some() {
            key = Some(key::generate(key_format(&spec.key_policy)));
        }
        if let Some(palette) = retry.announce {
            let which = if retry.new_key_per_retry { "a NEW key" } else { "the same key" };
            eprintln!(
                "{} attempt {attempt}: {}; retry {attempt}/{} in {} ({}) with {which}",
                palette.yellow("↻"),
                terminal_safe(&reason),
                retry.policy.max_attempts() - 1,
                format_duration(wait),
                source_name(wait_source)
            );
        }
        retries.push(RetryRecord { after_attempt: attempt, reason, key: key.clone(), wait, wait_source });
        tokio::time::sleep(wait).await;
        attempt += 1;
    }
}

/// How a wait's source reads on a retry line.
fn source_name(source: WaitSource) -> &'static str {
    match source {
        WaitSource::RetryAfter => "retry-after",
        WaitSource::RetryAfterClamped => "retry-after, cut to --backoff-max",
        WaitSource::First | WaitSource::Backoff | WaitSource::Schedule => "backoff",
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
}
