//! The forward goes through `ForwardingClient` (hyper-util), not reqwest, because the delivery's
//! headers must reach the application unchanged with nothing added but `Via`, and reqwest adds
//! `Accept: */*`: the test `behind_proxy::forwarders_add_no_headers_of_their_own` proves it.
//!
//! `--forward-to`: passes a delivery on to the application being developed, byte for byte, and
//! brings its answer back so the sender sees what the application said.
//!
//! The delivery goes to exactly the URL given (the path it arrived on is not appended), with the
//! original method, body and headers, minus the hop-by-hop ones (RFC 9110 §7.6.1), `Host` (the
//! target's own is used) and `Content-Length` (recomputed by the client from the same bytes).
//!
//! Each forward adds this listener's name to `Via` (RFC 9110 §7.6.3), so a delivery that comes
//! back (a target that leads to the listener again, directly or through other listeners) is
//! refused instead of multiplying; a target that is the listener's own address is refused at
//! start-up.
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::{Duration, Instant};

use bytes::Bytes;
use http_body_util::BodyExt;
use hyper::body::Incoming;
use tokio::sync::{OwnedSemaphorePermit, Semaphore, watch};

use anyhow::{Context, bail};
use http::{HeaderMap, Method, Request, StatusCode, Uri};

use crate::http::client::ClientOptions;
use crate::http::forwarding_client::ForwardingClient;
use crate::http::forwarding_loop;
use crate::http::hop_by_hop::message_headers;

/// `--route GLOB=URL`: deliveries whose event type matches GLOB go to URL (`*` matches any
/// type, and deliveries without one).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Route {
    pub pattern: String,
    pub target: Uri,
}

impl Route {
    /// `GLOB=URL`.
    pub fn parse(text: &str) -> anyhow::Result<Route> {
        let Some((pattern, url)) = text.split_once('=') else {
            bail!("--route `{text}` needs GLOB=URL, e.g. 'invoice.*=http://127.0.0.1:4000/billing' or '*=http://…'");
        };
        if pattern.is_empty() {
            bail!("--route `{text}`: the pattern before `=` is empty; `*` matches every event type");
        }
        let target = crate::http::url::parse_url(url).with_context(|| format!("--route `{text}`"))?;
        Ok(Route { pattern: pattern.to_string(), target })
    }

    fn matches(&self, event_type: Option<&str>) -> bool {
        match event_type {
            Some(event_type) => glob_matches(&self.pattern, event_type),
            None => self.pattern == "*",
        }
    }
}

/// Whether `text` matches `pattern`, where `*` stands for any run of characters (dots and
/// slashes included: `invoice.*` matches `invoice.payment_failed`) and `?` for one.
pub(crate) fn glob_matches(pattern: &str, text: &str) -> bool {
    let (pattern, text): (Vec<char>, Vec<char>) = (pattern.chars().collect(), text.chars().collect());
    // The classic two-pointer match with one backtrack point: linear in practice, no recursion.
    let (mut p, mut t, mut star, mut mark) = (0, 0, None, 0);
    while t < text.len() {
        if p < pattern.len() && (pattern[p] == '?' || pattern[p] == text[t]) {
            p += 1;
            t += 1;
        } else if p < pattern.len() && pattern[p] == '*' {
            star = Some(p);
            mark = t;
            p += 1;
        } else if let Some(at) = star {
            p = at + 1;
            mark += 1;
            t = mark;
        } else {
            return false;
        }
    }
    pattern[p..].iter().all(|c| *c == '*')
}

/// How failed forwards are retried (`--forward-retries`, `--forward-backoff`): the wait doubles
/// after each failure, from `backoff`, up to `MAX_BACKOFF`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ForwardRetry {
    pub retries: u32,
    pub backoff: Duration,
}

const MAX_BACKOFF: Duration = Duration::from_secs(10);

impl ForwardRetry {
    fn wait_before(&self, retry: u32) -> Duration {
        let factor = 2u32.saturating_pow(retry.saturating_sub(1).min(16));
        self.backoff.saturating_mul(factor).min(MAX_BACKOFF.max(self.backoff))
    }
}

pub(super) struct Forwarder {
    client: ForwardingClient,
    routes: Vec<Route>,
    retry: ForwardRetry,
    /// Bytes of the applications' answers held at once, across every forward in flight (each
    /// held until its answer has gone to the sender).
    answers: Arc<Semaphore>,
    /// Becomes true when the listener stops: no more retries, the last attempt's outcome stands.
    stopping: watch::Receiver<bool>,
}

/// The most of one application answer the listener holds to pass back: a webhook's answer is an
/// acknowledgement, and a larger one is refused with a 502 rather than buffered.
pub(crate) const MAX_ANSWER: usize = 1 << 20;

/// The most bytes of the applications' answers held at once across concurrent forwards: 64
/// answers at [`MAX_ANSWER`]. One more is refused with a 502 until others have been sent on.
pub(crate) const ANSWERS_HELD: usize = 64 * MAX_ANSWER;

/// What the target made of a delivery, after the retries.
#[derive(Debug, Clone)]
pub(super) enum Forwarded {
    Answered {
        url: Uri,
        status: StatusCode,
        /// The application's answer headers, passed back in part (`Content-Type`) and journaled.
        headers: HeaderMap,
        body: Bytes,
        latency: Duration,
        attempts: u32,
    },
    /// The target could not be reached or did not answer in time; or it answered (`answered`)
    /// with what the listener would not hold (an answer over [`MAX_ANSWER`]).
    Failed { url: Uri, error: String, timed_out: bool, answered: Option<StatusCode>, latency: Duration, attempts: u32 },
}

impl Forwarded {
    pub(super) fn latency(&self) -> Duration {
        match self {
            Forwarded::Answered { latency, .. } | Forwarded::Failed { latency, .. } => *latency,
        }
    }

    pub(super) fn attempts(&self) -> u32 {
        match self {
            Forwarded::Answered { attempts, .. } | Forwarded::Failed { attempts, .. } => *attempts,
        }
    }

    pub(super) fn url(&self) -> &Uri {
        match self {
            Forwarded::Answered { url, .. } | Forwarded::Failed { url, .. } => url,
        }
    }

    /// Whether another attempt may do better: no answer, a 5xx or a 429. An answer refused for its
    /// size is not retried: the application answered, and processed the delivery if it said so.
    fn retryable(&self) -> bool {
        match self {
            Forwarded::Answered { status, .. } | Forwarded::Failed { answered: Some(status), .. } => {
                status.is_server_error() || *status == StatusCode::TOO_MANY_REQUESTS
            }
            Forwarded::Failed { answered: None, .. } => true,
        }
    }

    /// The status the application answered, if it answered.
    pub(super) fn status(&self) -> Option<StatusCode> {
        match self {
            Forwarded::Answered { status, .. } => Some(*status),
            Forwarded::Failed { answered, .. } => *answered,
        }
    }
}

impl Forwarder {
    pub(super) fn new(
        routes: Vec<Route>,
        timeout: Duration,
        http2: bool,
        retry: ForwardRetry,
        stopping: watch::Receiver<bool>,
    ) -> anyhow::Result<Forwarder> {
        let client = ForwardingClient::new(ClientOptions { timeout, insecure: false, http2 })?;
        let answers = Arc::new(Semaphore::new(ANSWERS_HELD));
        Ok(Forwarder { client, routes, retry, answers, stopping })
    }

    /// The target of the first route that matches `event_type`, if any does.
    pub(super) fn route(&self, event_type: Option<&str>) -> Option<&Uri> {
        self.routes.iter().find(|route| route.matches(event_type)).map(|route| &route.target)
    }

    /// Forwards to `target`, retrying a failure or a 5xx/429 up to `--forward-retries` times, or
    /// until the listener stops.
    pub(super) async fn forward(
        &self,
        target: &Uri,
        method: &Method,
        headers: &HeaderMap,
        body: Bytes,
        via: &str,
    ) -> Forwarded {
        let started = Instant::now();
        let mut stopping = self.stopping.clone();
        let mut attempt = 1;
        loop {
            let mut forwarded = self.attempt(target, method, headers, body.clone(), via).await;
            let finish = |forwarded: &mut Forwarded| match forwarded {
                Forwarded::Answered { latency, attempts, .. } | Forwarded::Failed { latency, attempts, .. } => {
                    (*latency, *attempts) = (started.elapsed(), attempt);
                }
            };
            if !forwarded.retryable() || attempt > self.retry.retries || *stopping.borrow() {
                finish(&mut forwarded);
                return forwarded;
            }
            tokio::select! {
                () = tokio::time::sleep(self.retry.wait_before(attempt)) => {}
                () = stopped(&mut stopping) => {
                    finish(&mut forwarded);
                    return forwarded;
                }
            }
            attempt += 1;
        }
    }

    async fn attempt(&self, target: &Uri, method: &Method, headers: &HeaderMap, body: Bytes, via: &str) -> Forwarded {
        let started = Instant::now();
        let mut request = Request::new(body);
        *request.method_mut() = method.clone();
        *request.uri_mut() = target.clone();
        *request.headers_mut() = message_headers(headers);
        forwarding_loop::add_hop(request.headers_mut(), via);
        let mut refused = None;
        let slot = &mut refused;
        let answers = Arc::clone(&self.answers);
        match self.client.send_reading(request, move |body| read_answer(body, answers, slot)).await {
            Ok(exchange) => match refused {
                Some(why) => Forwarded::Failed {
                    url: target.clone(),
                    error: format!("it answered {} {why}", exchange.status.as_u16()),
                    timed_out: false,
                    answered: Some(exchange.status),
                    latency: started.elapsed(),
                    attempts: 1,
                },
                None => Forwarded::Answered {
                    url: target.clone(),
                    status: exchange.status,
                    headers: exchange.headers,
                    body: exchange.body,
                    latency: started.elapsed(),
                    attempts: 1,
                },
            },
            Err(err) => {
                let error = format!("{err:#}");
                let timed_out = error.contains("no complete answer within") || error.contains("timed out");
                Forwarded::Failed {
                    url: target.clone(),
                    error,
                    timed_out,
                    answered: None,
                    latency: started.elapsed(),
                    attempts: 1,
                }
            }
        }
    }
}

/// Resolves once the listener is stopping; never when it cannot say (its side is gone).
async fn stopped(stopping: &mut watch::Receiver<bool>) {
    if stopping.wait_for(|stop| *stop).await.is_err() {
        std::future::pending::<()>().await;
    }
}

/// An application's answer as held: its bytes and their share of [`ANSWERS_HELD`], given back
/// when the last copy of the bytes (the one in the response to the sender) is dropped.
struct HeldAnswer {
    bytes: Vec<u8>,
    _held: Option<OwnedSemaphorePermit>,
}

impl AsRef<[u8]> for HeldAnswer {
    fn as_ref(&self) -> &[u8] {
        &self.bytes
    }
}

/// Reads an answer's body a frame at a time within [`MAX_ANSWER`] and the listener's share of
/// [`ANSWERS_HELD`]. One that does not fit is not read further (the connection is dropped) and
/// `refused` says why; the bytes returned are then empty.
async fn read_answer(
    mut body: Incoming,
    answers: Arc<Semaphore>,
    refused: &mut Option<String>,
) -> anyhow::Result<Bytes> {
    let mut bytes = Vec::new();
    let mut held: Option<OwnedSemaphorePermit> = None;
    while let Some(frame) = body.frame().await {
        let frame = frame.map_err(|err| anyhow::anyhow!("cannot read the answer's body: {err}"))?;
        let Ok(data) = frame.into_data() else { continue };
        if bytes.len() + data.len() > MAX_ANSWER {
            *refused = Some(format!(
                "with a body over {} KiB, which the listener does not pass back (a webhook's answer is an \
                 acknowledgement)",
                MAX_ANSWER / 1024
            ));
            return Ok(Bytes::new());
        }
        let share = u32::try_from(data.len()).unwrap_or(u32::MAX);
        let Ok(permit) = Arc::clone(&answers).try_acquire_many_owned(share) else {
            *refused = Some(format!(
                "while the listener already held {} MiB of answers not yet sent on (many large answers at once)",
                ANSWERS_HELD / (1024 * 1024)
            ));
            return Ok(Bytes::new());
        };
        match held.as_mut() {
            Some(held) => held.merge(permit),
            None => held = Some(permit),
        }
        bytes.extend_from_slice(&data);
    }
    Ok(Bytes::from_owner(HeldAnswer { bytes, _held: held }))
}

/// Refuses a forward target that is this listener itself: every delivery would come straight
/// back and be forwarded again.
pub(super) async fn refuse_self(target: &Uri, own: SocketAddr) -> anyhow::Result<()> {
    if forwarding_loop::is_own_address(target, own).await {
        bail!(
            "the forward target {} is this listener's own address ({own}): every delivery would be forwarded to \
             itself, again and again; forward to the application's port instead",
            crate::http::url::Redacted(target)
        );
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn globs_match_event_types() {
        for (pattern, text, expected) in [
            ("*", "anything", true),
            ("invoice.*", "invoice.payment_failed", true),
            ("invoice.*", "invoices", false),
            ("orders/*", "orders/create", true),
            ("*.succeeded", "payment_intent.succeeded", true),
            ("charge.?efunded", "charge.refunded", true),
            ("push", "push", true),
            ("push", "pull_request", false),
            ("a*b*c", "aXXbYYc", true),
            ("a*b*c", "aXXbYY", false),
        ] {
            assert_eq!(glob_matches(pattern, text), expected, "{pattern} {text}");
        }
        let route = Route::parse("*=http://127.0.0.1:1/").unwrap();
        assert!(route.matches(None) && route.matches(Some("x")));
        let typed = Route::parse("invoice.*=http://127.0.0.1:1/").unwrap();
        assert!(!typed.matches(None));
        assert!(Route::parse("nourl").is_err() && Route::parse("=http://x/").is_err());
    }

    #[test]
    fn forward_backoff_doubles_up_to_a_ceiling() {
        let retry = ForwardRetry { retries: 9, backoff: Duration::from_millis(100) };
        let waits: Vec<u128> = (1..=9).map(|n| retry.wait_before(n).as_millis()).collect();
        assert_eq!(waits, [100, 200, 400, 800, 1_600, 3_200, 6_400, 10_000, 10_000]);
    }
}
