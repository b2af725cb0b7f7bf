//! The delivery engine shared by `webhook send` and `webhook replay`: one message, attempted until
//! the receiver answers 2xx, answers 410 Gone, or the retry policy runs out, each attempt signed
//! afresh (a new timestamp, the same delivery id), as providers do.
//!
//! In-process use (the demo sends to an in-process listener this way; the module is crate-private,
//! so this is not compiled as a doctest, `demo/webhooks.rs` is the compiled example):
//! ```text
//! let message = Message::signed(body, delivery_id, event_type, event_id, scheme, key);
//! let deliverer = Deliverer::new(url, &DeliverOptions::default())?;
//! let report = deliverer.deliver(&message, &()).await?;
//! println!("{:?} after {} attempts", report.outcome, report.attempts.len());
//! ```
use std::io::ErrorKind;
use std::sync::Arc;
use std::time::{Duration, Instant, SystemTime};

use anyhow::Context;
use bytes::Bytes;
use http::header::{CONTENT_TYPE, RETRY_AFTER, USER_AGENT};
use http::{HeaderMap, HeaderValue, Method, Request, StatusCode, Uri};
use serde::Serialize;

use crate::http::body::looks_like_json;
use crate::http::budget::{RequestBudget, refusal_in};
use crate::http::client::{ClientOptions, HttpClient};
use crate::http::outbound_proxy::Proxies;
use crate::retry::{PlannedWait, RetryPolicy, WaitSource, parse_retry_after};
use crate::webhook::deliver::personality::{Personality, RetryReason};
use crate::webhook::delivery::{Delivery, DeliveryBody, unix_now};
use crate::webhook::scheme::{Scheme, SigningKey};

/// GitHub gives a receiver 10 seconds to answer; the default per-attempt timeout matches it.
pub(crate) const DEFAULT_TIMEOUT: Duration = Duration::from_secs(10);

/// How attempts are made.
#[derive(Debug, Clone)]
pub struct DeliverOptions {
    pub policy: RetryPolicy,
    /// Per attempt, connecting included.
    pub timeout: Duration,
    pub insecure: bool,
    /// `--proxy`, `--noproxy` and the environment, resolved; direct by default.
    pub proxies: Proxies,
    /// `--max-requests`: every attempt of every delivery draws on it.
    pub budget: RequestBudget,
    /// `--as PROVIDER`: the provider's User-Agent, retry headers and overlapping retries (its
    /// schedule and timeout are already in `policy` and `timeout`, unless flags replaced them).
    pub personality: Option<&'static Personality>,
}

impl Default for DeliverOptions {
    fn default() -> DeliverOptions {
        DeliverOptions {
            policy: RetryPolicy::default(),
            timeout: DEFAULT_TIMEOUT,
            insecure: false,
            proxies: Proxies::direct(),
            budget: RequestBudget::unlimited(),
            personality: None,
        }
    }
}

/// How each attempt gets its signature.
#[derive(Debug, Clone)]
pub(crate) enum Signing {
    /// Signed afresh for every attempt with the time of that attempt.
    Fresh { scheme: Arc<dyn Scheme>, key: SigningKey },
    /// The message's headers as they are: a recorded signature is sent again, stale or not.
    Verbatim,
}

/// One webhook to deliver.
#[derive(Debug, Clone)]
pub(crate) struct Message {
    pub method: Method,
    pub body: Bytes,
    /// What the scheme's delivery-id header carries (the same on every attempt).
    pub delivery_id: String,
    /// The event's own id, for reports.
    pub event_id: String,
    pub event_type: Option<String>,
    /// Sent with every attempt; fresh signature headers replace any of the same name.
    pub headers: HeaderMap,
    pub signing: Signing,
}

impl Message {
    /// A POST signed afresh on every attempt, `Content-Type: application/json` when the body is
    /// JSON.
    pub(crate) fn signed(
        body: impl Into<Bytes>,
        event_id: &str,
        event_type: Option<String>,
        delivery_id: &str,
        scheme: Arc<dyn Scheme>,
        key: SigningKey,
    ) -> Message {
        let body = body.into();
        Message {
            method: Method::POST,
            headers: default_headers(&body),
            body,
            delivery_id: delivery_id.to_string(),
            event_id: event_id.to_string(),
            event_type,
            signing: Signing::Fresh { scheme, key },
        }
    }

    /// The request for one attempt, signed with `timestamp` when signing is fresh.
    pub(crate) fn request(&self, url: &Uri, timestamp: i64) -> anyhow::Result<Request<Bytes>> {
        let mut request = Request::builder()
            .method(self.method.clone())
            .uri(url.clone())
            .body(self.body.clone())
            .context("cannot build the request")?;
        *request.headers_mut() = self.headers.clone();
        if let Signing::Fresh { scheme, key } = &self.signing {
            let mut delivery = Delivery {
                body: DeliveryBody::Bytes(self.body.clone()),
                id: self.delivery_id.clone(),
                timestamp,
                event: self.event_type.clone(),
                url: Some(url.to_string()),
            };
            let cannot_sign = || format!("cannot sign with {}", scheme.kind());
            // A scheme that signs into the body (SNS) sends the body it signed.
            if let Some(signed_body) = scheme.sign_body(&delivery, key).with_context(cannot_sign)? {
                *request.body_mut() = signed_body.clone();
                delivery.body = DeliveryBody::Bytes(signed_body);
            }
            let signed = scheme.sign(&delivery, key).with_context(cannot_sign)?;
            for (name, value) in signed {
                request.headers_mut().insert(name, value);
            }
        }
        Ok(request)
    }

    /// The timestamp an attempt at `now` signs, if it signs one.
    fn signed_timestamp(&self, now: i64) -> Option<i64> {
        match &self.signing {
            Signing::Fresh { scheme, .. } if scheme.is_timestamped() => Some(now),
            _ => None,
        }
    }
}

/// The headers every delivery carries before signing: a JSON content type when the body is
/// JSON, and a User-Agent naming the tool, as providers name theirs.
pub(crate) fn default_headers(body: &[u8]) -> HeaderMap {
    let mut headers = HeaderMap::new();
    if looks_like_json(body) {
        headers.insert(CONTENT_TYPE, HeaderValue::from_static("application/json"));
    }
    headers.insert(USER_AGENT, HeaderValue::from_static(concat!("idem-webhook/", env!("CARGO_PKG_VERSION"))));
    headers
}

/// One attempt, as the JSON report shows it.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub(crate) struct AttemptReport {
    /// 1-based.
    pub attempt: u32,
    /// The wait before this attempt as planned (scaled): the schedule's, the jittered backoff's,
    /// or the previous answer's Retry-After.
    #[serde(rename = "planned_wait_ms", serialize_with = "crate::units::as_ms")]
    #[schemars(with = "f64")]
    pub planned_wait: Duration,
    pub wait_source: WaitSource,
    /// For backoff waits, the (scaled) cap the jitter was drawn under; for a clamped Retry-After
    /// (`wait_source: retry-after-clamped`), the (scaled) wait the receiver asked for.
    #[serde(
        rename = "wait_cap_ms",
        skip_serializing_if = "Option::is_none",
        serialize_with = "crate::units::as_ms_opt"
    )]
    #[schemars(with = "Option<f64>")]
    pub wait_cap: Option<Duration>,
    /// How long the wait really took.
    #[serde(rename = "waited_ms", serialize_with = "crate::units::as_ms")]
    #[schemars(with = "f64")]
    pub waited: Duration,
    /// The signed timestamp (Unix seconds), for timestamped schemes signed afresh.
    pub timestamp: Option<i64>,
    pub status: Option<u16>,
    #[serde(rename = "latency_ms", serialize_with = "crate::units::as_ms_opt")]
    #[schemars(with = "Option<f64>")]
    pub latency: Option<Duration>,
    /// Why there was no answer: a refused connection, a timeout.
    pub error: Option<String>,
    /// The Retry-After header of this answer, as sent.
    pub retry_after: Option<String>,
    /// Under a provider whose retries overlap (Slack), the status of an attempt it stopped
    /// waiting for, when the answer came later (the request is left running, never cancelled).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub late_status: Option<u16>,
}

/// What a whole run came to in `webhook send` and `webhook replay`'s JSON `outcome`: every
/// delivery got a 2xx, or not.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub(crate) enum RunDelivery {
    Delivered,
    NotDelivered,
}

impl RunDelivery {
    /// The run's exit outcome, as the JSON names it: only `Holds` is `delivered`.
    pub(crate) fn of(outcome: crate::exit::Outcome) -> RunDelivery {
        if outcome == crate::exit::Outcome::Holds { RunDelivery::Delivered } else { RunDelivery::NotDelivered }
    }
}

/// How a delivery ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub(crate) enum DeliveryOutcome {
    /// A 2xx answer.
    Delivered,
    /// 410 Gone: the endpoint is gone, so retrying stopped.
    Gone,
    /// Every attempt failed.
    Exhausted,
}

/// One message's delivery, every attempt included.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub(crate) struct DeliveryReport {
    pub event_id: String,
    pub delivery_id: String,
    pub event_type: Option<String>,
    pub outcome: DeliveryOutcome,
    pub delivered: bool,
    pub attempts: Vec<AttemptReport>,
    #[serde(rename = "took_ms", serialize_with = "crate::units::as_ms")]
    #[schemars(with = "f64")]
    pub took: Duration,
}

impl DeliveryReport {
    /// The last attempt's failure, for summaries: its error, or its status.
    pub(crate) fn last_failure(&self) -> Option<String> {
        let last = self.attempts.last()?;
        match (&last.error, last.status) {
            (Some(error), _) => Some(error.clone()),
            (None, Some(status)) if !(200..300).contains(&status) => Some(describe_status(status)),
            _ => None,
        }
    }
}

/// `503 Service Unavailable`.
pub(crate) fn describe_status(status: u16) -> String {
    let reason = StatusCode::from_u16(status).ok().and_then(|s| s.canonical_reason()).unwrap_or("");
    format!("{status} {reason}").trim_end().to_string()
}

/// Told about every attempt as it ends, with the wait before the next one if there is one.
pub(crate) trait AttemptObserver: Sync {
    fn attempted(&self, message: &Message, attempt: &AttemptReport, next: Option<&PlannedWait>);
}

/// No observer.
impl AttemptObserver for () {
    fn attempted(&self, _: &Message, _: &AttemptReport, _: Option<&PlannedWait>) {}
}

impl<F: Fn(&Message, &AttemptReport, Option<&PlannedWait>) + Sync> AttemptObserver for F {
    fn attempted(&self, message: &Message, attempt: &AttemptReport, next: Option<&PlannedWait>) {
        self(message, attempt, next)
    }
}

/// Delivers messages to one URL under one retry policy. Cheap to clone and share between tasks.
#[derive(Clone)]
pub(crate) struct Deliverer {
    url: Uri,
    client: HttpClient,
    policy: RetryPolicy,
    wait_bar: bool,
    personality: Option<&'static Personality>,
    /// How long an attempt is waited for (`--timeout`, or the provider's).
    timeout: Duration,
}

/// What one attempt's answer means for the delivery.
enum NextStep {
    Delivered,
    Gone,
    Retry { retry_after: Option<Duration> },
}

impl Deliverer {
    pub(crate) fn new(url: Uri, options: &DeliverOptions) -> anyhow::Result<Deliverer> {
        let overlapping = options.personality.is_some_and(|personality| personality.overlapping);
        // A provider that stops waiting without cancelling leaves the request running: it gets
        // the usual ten seconds (or the longer --timeout) to end on its own.
        let request_timeout = if overlapping { options.timeout.max(DEFAULT_TIMEOUT) } else { options.timeout };
        let client_options = ClientOptions { timeout: request_timeout, insecure: options.insecure, http2: false };
        let client =
            HttpClient::with_proxies(client_options, options.proxies.clone())?.with_budget(options.budget.clone());
        Ok(Deliverer {
            url,
            client,
            policy: options.policy.clone(),
            wait_bar: false,
            personality: options.personality,
            timeout: options.timeout,
        })
    }

    /// Shows a countdown bar on a terminal while waiting for a retry (one delivery at a time only:
    /// bars of concurrent deliveries would overwrite each other).
    pub(crate) fn with_wait_bar(mut self, show: bool) -> Deliverer {
        self.wait_bar = show;
        self
    }

    pub(crate) fn policy(&self) -> &RetryPolicy {
        &self.policy
    }

    /// Attempts `message` until it is delivered, the endpoint is gone or the policy runs out. An
    /// error means the request could not even be built (an unsignable message) or `--max-requests`
    /// refused the next attempt, not a failed delivery: network failures are attempts in the report.
    pub(crate) async fn deliver(
        &self,
        message: &Message,
        observer: &dyn AttemptObserver,
    ) -> anyhow::Result<DeliveryReport> {
        // Catch an unsignable message before the first wait rather than after it.
        message.request(&self.url, unix_now())?;
        let started = Instant::now();
        let max_attempts = self.policy.max_attempts().max(1);
        let mut attempts = Vec::new();
        let mut planned = self.policy.planned_wait(1, &mut rand::rng());
        let mut attempt = 1;
        let mut last_reason = None;
        // Attempts a provider stopped waiting for but left running, by their index in `attempts`.
        let mut left_running = Vec::new();
        let outcome = loop {
            let wait_started = Instant::now();
            self.wait(&planned, attempt, max_attempts).await;
            let waited = wait_started.elapsed();
            let now = unix_now();
            let mut request = message.request(&self.url, now)?;
            self.as_provider(&mut request, attempt, last_reason);
            let mut report = AttemptReport {
                attempt,
                planned_wait: planned.wait,
                wait_source: planned.source,
                wait_cap: planned.cap,
                waited,
                timestamp: message.signed_timestamp(now),
                status: None,
                latency: None,
                error: None,
                retry_after: None,
                late_status: None,
            };
            let sent = match self.send(request).await {
                Sent::Answered(result) => result,
                Sent::StillRunning(running) => {
                    left_running.push((attempts.len(), running));
                    Err(anyhow::anyhow!(
                        "no answer within {}: counted as failed, the request left running (not cancelled)",
                        crate::units::format_flag_duration(self.timeout)
                    ))
                }
            };
            let step = match sent {
                Ok(exchange) => {
                    report.status = Some(exchange.status.as_u16());
                    report.latency = Some(exchange.latency);
                    let retry_after = exchange.headers.get(RETRY_AFTER);
                    report.retry_after =
                        retry_after.map(|value| String::from_utf8_lossy(value.as_bytes()).into_owned());
                    if exchange.status.is_success() {
                        NextStep::Delivered
                    } else if exchange.status == StatusCode::GONE {
                        NextStep::Gone
                    } else {
                        NextStep::Retry {
                            retry_after: retry_after.and_then(|v| parse_retry_after(v, SystemTime::now())),
                        }
                    }
                }
                // Not an attempt: nothing was sent, and the run stops.
                Err(err) if refusal_in(&err).is_some() => return Err(err),
                Err(err) => {
                    report.error = Some(describe_error(&err, message.body.len()));
                    NextStep::Retry { retry_after: None }
                }
            };
            last_reason = Some(retry_reason(&report));
            let next = match step {
                NextStep::Retry { retry_after } if attempt < max_attempts => Some(match retry_after {
                    Some(asked) => self.policy.retry_after_wait(asked),
                    None => self.policy.planned_wait(attempt + 1, &mut rand::rng()),
                }),
                _ => None,
            };
            observer.attempted(message, &report, next.as_ref());
            attempts.push(report);
            match (step, next) {
                (NextStep::Delivered, _) => break DeliveryOutcome::Delivered,
                (NextStep::Gone, _) => break DeliveryOutcome::Gone,
                (NextStep::Retry { .. }, Some(next)) => planned = next,
                (NextStep::Retry { .. }, None) => break DeliveryOutcome::Exhausted,
            }
            attempt += 1;
        };
        // Not cancelled: a provider that moved on still lets the request end, and what it got is
        // worth reporting (a receiver that answered 200 after Slack's three seconds did the work).
        for (index, running) in left_running {
            if let Ok(Ok(exchange)) = running.await {
                attempts[index].late_status = Some(exchange.status.as_u16());
            }
        }
        Ok(DeliveryReport {
            event_id: message.event_id.clone(),
            delivery_id: message.delivery_id.clone(),
            event_type: message.event_type.clone(),
            outcome,
            delivered: outcome == DeliveryOutcome::Delivered,
            attempts,
            took: started.elapsed(),
        })
    }

    /// Sends one attempt. Under a provider whose retries overlap, the attempt is waited for only
    /// up to the timeout, and handed back still running past it.
    async fn send(&self, request: Request<Bytes>) -> Sent {
        if !self.personality.is_some_and(|personality| personality.overlapping) {
            return Sent::Answered(self.client.send(request).await);
        }
        let client = self.client.clone();
        let mut running = tokio::spawn(async move { client.send(request).await });
        match tokio::time::timeout(self.timeout, &mut running).await {
            Ok(joined) => {
                Sent::Answered(joined.unwrap_or_else(|err| Err(anyhow::anyhow!("the attempt failed: {err}"))))
            }
            Err(_) => Sent::StillRunning(running),
        }
    }

    /// The provider's User-Agent, and on a retry its retry headers (number and reason).
    fn as_provider(&self, request: &mut Request<Bytes>, attempt: u32, last_reason: Option<RetryReason>) {
        let Some(personality) = self.personality else { return };
        if let Some(agent) = personality.user_agent {
            request.headers_mut().insert(USER_AGENT, HeaderValue::from_static(agent));
        }
        if let (Some(headers), Some(reason)) = (personality.retry_headers, last_reason.filter(|_| attempt > 1)) {
            request.headers_mut().insert(headers.number, HeaderValue::from(attempt - 1));
            request.headers_mut().insert(headers.reason, HeaderValue::from_static(reason.as_str()));
        }
    }

    async fn wait(&self, planned: &PlannedWait, attempt: u32, max_attempts: u32) {
        if planned.wait.is_zero() {
            return;
        }
        // A bar for a blink would only flicker.
        if !self.wait_bar || planned.wait < Duration::from_secs(1) {
            tokio::time::sleep(planned.wait).await;
            return;
        }
        let bar = crate::output::countdown_bar(planned.wait, &format!("attempt {attempt}/{max_attempts}"));
        let started = Instant::now();
        while let Some(left) = planned.wait.checked_sub(started.elapsed()).filter(|left| !left.is_zero()) {
            bar.set_position(u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX));
            tokio::time::sleep(left.min(Duration::from_millis(200))).await;
        }
        bar.finish_and_clear();
    }
}

/// How one attempt went out: answered (or failed) in time, or still running past the provider's
/// timeout.
enum Sent {
    Answered(anyhow::Result<crate::http::client::Exchange>),
    StillRunning(tokio::task::JoinHandle<anyhow::Result<crate::http::client::Exchange>>),
}

/// Why an attempt failed, as a provider's retry header says it.
fn retry_reason(report: &AttemptReport) -> RetryReason {
    match (report.status, report.error.as_deref()) {
        (Some(_), _) => RetryReason::HttpError,
        (None, Some(error)) if error.starts_with("no answer within") || error.contains("no complete answer within") => {
            RetryReason::HttpTimeout
        }
        (None, Some(error)) if error.contains("connect") || error.contains("refused") => RetryReason::ConnectionFailed,
        _ => RetryReason::UnknownError,
    }
}

/// The client's error without its "POST url failed" preamble (the URL is on every line already):
/// `cannot connect: tcp connect error: Connection refused (os error 111)`. A connection the
/// receiver closed before its answer was read is explained: a bare "Broken pipe" or "Connection
/// reset" does not tell a person that the receiver most likely refused the body early.
fn describe_error(err: &anyhow::Error, body_len: usize) -> String {
    let causes: Vec<String> = err.chain().skip(1).map(ToString::to_string).collect();
    let plain = if causes.is_empty() { err.to_string() } else { causes.join(": ") };
    let closed = closed_connection(err, &plain);
    const LIKELY: &str = "as a receiver does when a body is over its size limit (413 Payload Too Large) or it refuses \
                          a request from its headers alone, and its answer was lost with the connection; check the \
                          receiver's body size limit";
    // A broken pipe only happens on a write, and hyper names a failed body write.
    let writing = closed == Some(ErrorKind::BrokenPipe) || plain.contains("writing a body");
    match closed {
        Some(_) if writing => format!(
            "the receiver closed the connection while the body ({body_len} bytes) was still being sent: it most \
             likely answered before reading it all, {LIKELY}"
        ),
        Some(_) => format!(
            "the receiver reset the connection before its answer could be read ({body_len}-byte body): it most likely \
             answered early and closed without reading the body, {LIKELY}; otherwise it crashed or dropped the request"
        ),
        None => plain,
    }
}

/// Whether the attempt ended with the receiver closing the connection (a broken pipe or a reset),
/// and which. The HTTP client hands its errors on as text, so the system's own wording of the two
/// errors is looked for as well as a typed cause.
fn closed_connection(err: &anyhow::Error, text: &str) -> Option<ErrorKind> {
    let typed = err.chain().find_map(|cause| {
        let kind = cause.downcast_ref::<std::io::Error>()?.kind();
        matches!(kind, ErrorKind::BrokenPipe | ErrorKind::ConnectionReset).then_some(kind)
    });
    typed.or_else(|| {
        [(libc::EPIPE, ErrorKind::BrokenPipe), (libc::ECONNRESET, ErrorKind::ConnectionReset)]
            .into_iter()
            .find(|(code, _)| text.contains(&std::io::Error::from_raw_os_error(*code).to_string()))
            .map(|(_, kind)| kind)
    })
}
