//! The upstream calls go through `ForwardingClient` (hyper-util), not reqwest, because headers must
//! reach the upstream unchanged with none added, and reqwest adds `Accept: */*`: the test
//! `behind_proxy::forwarders_add_no_headers_of_their_own` proves it.
//!
//! The forwarding server: every request is read whole, placed in its operation, given its fault
//! (or none) and forwarded to the upstream through the forwarding client; the upstream's answer
//! goes back unchanged (status, headers except hop-by-hop ones, body). A dropped answer is a
//! service error, which closes the HTTP/1.1 connection (`h1_server` or hyper's) or resets the
//! HTTP/2 stream without a response.
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use bytes::Bytes;
use http::header::{CONTENT_LENGTH, RETRY_AFTER};
use http::{HeaderName, HeaderValue, Method, Request, Response, StatusCode, Uri};
use http_body_util::{Full, Limited};

use crate::http::client::Exchange;
use crate::http::forwarding_client::ForwardingClient;
use crate::http::forwarding_lane::{Forwarded, ForwardingLane};
use crate::http::forwarding_loop;
use crate::http::h1_server::ServedBody;
use crate::http::hop_by_hop::strip_connection_headers;
use crate::http::problem::problem;
use crate::http::request_body::{BodyStalled, read_body_within};
use crate::idem::proxy::answer::UpstreamAnswer;
use crate::idem::proxy::fault::{Fault, FaultPlan, Matcher};
use crate::idem::proxy::operations::{Arrival, Operations, Placement};
use crate::idem::proxy::print::{LiveAttempt, ProxyEvent, RefusedLine};
use crate::idem::proxy::records::Attempt;
use crate::idem::request::IdSource;
use crate::idem::verdict::Observed;

/// Requests larger than this are refused with 413 rather than held in memory.
pub(super) const MAX_REQUEST_BODY: usize = 64 * 1024 * 1024;

/// The connection is closed on purpose, without an answer.
#[derive(Debug, thiserror::Error)]
#[error("the answer was dropped on purpose by idem proxy")]
pub(super) struct AnswerDropped;

/// Everything the request handlers share.
pub(super) struct ProxyState {
    pub upstream: Uri,
    /// This proxy's name in `Via`: a request that already carries it came back through a loop.
    pub via: String,
    /// `1.1 <via>`, the hop this proxy adds to each request it forwards (built once).
    pub via_hop: Option<http::HeaderValue>,
    /// How long a request body may deliver no bytes before the client gets 408.
    pub body_progress: Duration,
    pub client: ForwardingClient,
    pub matcher: Matcher,
    pub key_header: HeaderName,
    pub id_field: String,
    /// Where answers' resource ids are read: `id_field` in the body, else `Location`.
    pub ids: IdSource,
    pub operations: Mutex<Operations>,
    pub plan: Mutex<FaultPlan>,
    /// Each finished attempt and each refusal, for the live printer; `None` in-process or once
    /// stopped.
    pub events: Mutex<Option<std::sync::mpsc::SyncSender<ProxyEvent>>>,
    /// Events left out because the printer's queue was full (a terminal slower than the
    /// requests): counted, so memory stays bounded however slow stdout is.
    pub not_shown: AtomicU64,
    /// Ticks as attempts finish while someone waits for them (`operations_ended`, subscribed
    /// before it reads the operations, so no finish is missed).
    pub progress: tokio::sync::watch::Sender<u64>,
    /// Turns true when the proxy stops, ending held answers.
    pub stopping: tokio::sync::watch::Sender<bool>,
    /// Requests that were not judged (GETs by default) and went straight through.
    pub passed_through: AtomicU64,
    /// Requests sent to the upstream, judged or not: the most the upstream's count can have
    /// risen by over the run.
    pub forwarded: AtomicU64,
    /// Requests the upstream could not answer, and the last reason.
    pub upstream_failures: AtomicU64,
    pub last_upstream_error: Mutex<Option<String>>,
    /// Requests that came back through this proxy (answered 508, never judged).
    pub loops: AtomicU64,
    /// Requests whose body stalled (answered 408, never judged).
    pub stalled: AtomicU64,
}

impl ProxyState {
    /// The upstream URL for a request path: the upstream's own path prefix, then the request's
    /// path and query.
    fn upstream_uri(&self, request: &Uri) -> Result<Uri, http::Error> {
        let prefix = self.upstream.path().trim_end_matches('/');
        let mut parts = self.upstream.clone().into_parts();
        parts.path_and_query = match request.path_and_query() {
            // The request's own, shared rather than formatted and parsed again, when the upstream
            // has no path of its own (most have none).
            Some(path_and_query) if prefix.is_empty() => Some(path_and_query.clone()),
            path_and_query => Some(format!("{prefix}{}", path_and_query.map(|pq| pq.as_str()).unwrap_or("/")).parse()?),
        };
        Ok(Uri::from_parts(parts)?)
    }

    async fn forward(
        &self,
        lane: &ForwardingLane,
        method: &Method,
        uri: &Uri,
        headers: &http::HeaderMap,
        body: Bytes,
    ) -> anyhow::Result<Exchange> {
        let request = Forwarded { method, uri: self.upstream_uri(uri)?, headers, hop: self.via_hop.as_ref(), body };
        self.forwarded.fetch_add(1, Ordering::Relaxed);
        let result = lane.send(request).await;
        if let Err(err) = &result {
            self.upstream_failures.fetch_add(1, Ordering::Relaxed);
            if let Ok(mut last) = self.last_upstream_error.lock() {
                *last = Some(format!("{err:#}"));
            }
        }
        result
    }

    /// Records what happened to an attempt, finished now, and hands it to the printer with its
    /// request's method, path and whole key.
    fn finish(&self, placement: Placement, parts: &http::request::Parts, update: impl FnOnce(&mut Attempt)) {
        let finished = match self.operations.lock() {
            Ok(mut operations) => {
                let clock = *operations.clock();
                let now = clock.stamp(Instant::now());
                let finished = operations.attempt_mut(placement).map(|attempt| {
                    update(attempt);
                    attempt.finished = Some(now);
                    (attempt.clone(), clock.time_of(attempt.arrived))
                });
                operations.finished(placement);
                finished.zip(operations.route_of(placement.operation))
            }
            Err(_) => None,
        };
        if let Some(((attempt, time), route)) = finished {
            let key =
                parts.headers.get(&self.key_header).map(|value| String::from_utf8_lossy(value.as_bytes()).into_owned());
            self.report(ProxyEvent::Attempt(Box::new(LiveAttempt {
                attempt,
                operation: placement.operation,
                route,
                time,
                key,
            })));
        }
        // Only while someone waits for it: each send locks the watch and wakes its eight
        // notifiers, a visible cost per request when nobody is listening (the usual case).
        if self.progress.receiver_count() > 0 {
            self.progress.send_modify(|count| *count += 1);
        }
    }

    /// Hands an event to the live printer, if there is one.
    fn report(&self, event: ProxyEvent) {
        if let Ok(events) = self.events.lock()
            && let Some(events) = events.as_ref()
            && let Err(std::sync::mpsc::TrySendError::Full(_)) = events.try_send(event)
        {
            self.not_shown.fetch_add(1, Ordering::Relaxed);
        }
    }

    /// A request answered by the proxy itself: counted by the caller, warned about on stderr,
    /// and a `refused` JSON line.
    fn refused(&self, parts: &http::request::Parts, status: StatusCode, code: &'static str, reason: &str) {
        self.report(ProxyEvent::Refused(RefusedLine {
            time: crate::clock::rfc3339(chrono::Utc::now()),
            method: parts.method.to_string(),
            path: parts.uri.path().to_string(),
            status: status.as_u16(),
            code,
            reason: reason.to_string(),
        }));
    }

    async fn wait_or_stop(&self, duration: Duration) {
        let mut stopping = self.stopping.subscribe();
        tokio::select! {
            _ = tokio::time::sleep(duration) => {}
            _ = stopping.wait_for(|stopping| *stopping) => {}
        }
    }
}

pub(super) type ProxyResponse = Result<Response<Full<Bytes>>, AnswerDropped>;

/// Answers one request of a connection whose upstream connection is `lane`.
pub(super) async fn handle(
    state: Arc<ProxyState>,
    lane: Arc<ForwardingLane>,
    request: Request<ServedBody>,
) -> ProxyResponse {
    let (parts, body) = request.into_parts();
    if let Some(refusal) = refuse_a_loop(&state, &parts) {
        return Ok(refusal);
    }
    let body = match read_request_body(&state, &parts, body).await {
        Ok(body) => body,
        Err(answered) => return answered,
    };
    if !state.matcher.matches(&parts.method, parts.uri.path()) {
        state.passed_through.fetch_add(1, Ordering::Relaxed);
        let result = state.forward(&lane, &parts.method, &parts.uri, &parts.headers, body).await;
        return Ok(answer(result));
    }
    let Some((placement, fault)) = place_attempt(&state, &parts, &body) else { return Err(AnswerDropped) };
    with_fault(&state, &lane, &parts, body, placement, fault).await
}

/// A 508 for a request that has already passed through this proxy (its Via names it): the
/// upstream leads back here. Not an attempt of the client's: the client's own attempt is the one
/// that went out and is now waiting for this answer.
fn refuse_a_loop(state: &ProxyState, parts: &http::request::Parts) -> Option<Response<Full<Bytes>>> {
    if !forwarding_loop::passed_through(&parts.headers, &state.via) {
        return None;
    }
    state.loops.fetch_add(1, Ordering::Relaxed);
    let reason = format!(
        "{} {} came back to this proxy (its Via header names it): --upstream leads back here, a loop",
        parts.method,
        parts.uri.path()
    );
    eprintln!("warning: loop detected, answered 508: {reason}");
    state.refused(parts, StatusCode::LOOP_DETECTED, "forwarding-loop", &reason);
    Some(problem(StatusCode::LOOP_DETECTED, "forwarding-loop", "Forwarding loop", &reason))
}

/// The whole request body, or the answer when it cannot be had: 408 for a body that stalls past
/// --idle-timeout, 413 past 64 MiB, nothing for a client that went away mid-body.
async fn read_request_body(
    state: &ProxyState,
    parts: &http::request::Parts,
    body: ServedBody,
) -> Result<Bytes, ProxyResponse> {
    match read_body_within(Limited::new(body, MAX_REQUEST_BODY), state.body_progress).await {
        Ok(collected) => Ok(collected),
        Err(err) if err.is::<BodyStalled>() => {
            state.stalled.fetch_add(1, Ordering::Relaxed);
            let reason = format!("{} {}: {err}", parts.method, parts.uri.path());
            eprintln!("warning: request body stalled, answered 408: {reason}");
            state.refused(parts, StatusCode::REQUEST_TIMEOUT, "body-stalled", &reason);
            Err(Ok(problem(StatusCode::REQUEST_TIMEOUT, "body-stalled", "Request body stalled", &reason)))
        }
        Err(err) if err.is::<http_body_util::LengthLimitError>() => Err(Ok(problem(
            StatusCode::PAYLOAD_TOO_LARGE,
            "body-too-large",
            "Request body too large",
            "idem proxy holds at most 64 MiB per request",
        ))),
        Err(_) => Err(Err(AnswerDropped)),
    }
}

/// Files a judged request as an attempt of its operation (by key, or by fingerprint without
/// one) and decides the fault it gets, if any; `None` when the operations' lock is poisoned.
fn place_attempt(state: &ProxyState, parts: &http::request::Parts, body: &Bytes) -> Option<(Placement, Option<Fault>)> {
    let key = parts.headers.get(&state.key_header).map(|value| String::from_utf8_lossy(value.as_bytes()));
    // One hold of the operations' lock for both (the plan's lock is only ever taken inside it):
    // every request takes it, and under load it is contended.
    let mut operations = state.operations.lock().ok()?;
    let placement = operations
        .arrive(Arrival { method: &parts.method, path: parts.uri.path(), key: key.as_deref(), body }, Instant::now());
    let fault = state.plan.lock().ok().and_then(|mut plan| plan.decide(placement.number));
    operations.fault_decided(placement, fault);
    Some((placement, fault))
}

/// Forwards the attempt, or not, as `fault` says, and records what the upstream and the client
/// each saw.
async fn with_fault(
    state: &ProxyState,
    lane: &ForwardingLane,
    parts: &http::request::Parts,
    body: Bytes,
    placement: Placement,
    fault: Option<Fault>,
) -> ProxyResponse {
    let ids = &state.ids;
    let observe = |result: &anyhow::Result<Exchange>| match result {
        // Kept until the operation is folded: a copy of its own, not a slice that would pin the
        // connection's whole read buffer for as long.
        Ok(exchange) => UpstreamAnswer::keep(&Observed::from_exchange_digested(exchange, ids), placement.quote_body),
        Err(err) => UpstreamAnswer::keep(&Observed::failed(format!("{err:#}")), placement.quote_body),
    };
    match fault {
        None => {
            let result = state.forward(lane, &parts.method, &parts.uri, &parts.headers, body).await;
            let observed = observe(&result);
            Ok(answer_observed(result, state, parts, placement, observed))
        }
        Some(Fault::LoseAnswer) => {
            let result = state.forward(lane, &parts.method, &parts.uri, &parts.headers, body).await;
            state.finish(placement, parts, |attempt| attempt.upstream = Some(observe(&result)));
            Err(AnswerDropped)
        }
        Some(Fault::Timeout { hold }) => {
            let result = state.forward(lane, &parts.method, &parts.uri, &parts.headers, body).await;
            // The hold counts from here: the client's own timeout is its first wait.
            state.finish(placement, parts, |attempt| attempt.upstream = Some(observe(&result)));
            state.wait_or_stop(hold).await;
            Err(AnswerDropped)
        }
        Some(Fault::Reset) => {
            state.finish(placement, parts, |_| {});
            Err(AnswerDropped)
        }
        Some(Fault::Status { code, retry_after }) => {
            let status = StatusCode::from_u16(code).unwrap_or(StatusCode::SERVICE_UNAVAILABLE);
            let mut response = problem(
                status,
                "injected-fault",
                "Injected by idem proxy",
                &format!("idem proxy answered {code} instead of forwarding the request (--fault status:{code})"),
            );
            if let Some(seconds) = retry_after {
                response.headers_mut().insert(RETRY_AFTER, HeaderValue::from(seconds));
            }
            state.finish(placement, parts, |attempt| {
                attempt.client_status = Some(code);
                attempt.set_client_retry_after(retry_after.map(Duration::from_secs));
            });
            Ok(response)
        }
        Some(Fault::Delay(delay)) => {
            let result = state.forward(lane, &parts.method, &parts.uri, &parts.headers, body).await;
            if let Ok(mut operations) = state.operations.lock()
                && let Some(attempt) = operations.attempt_mut(placement)
            {
                attempt.upstream = Some(observe(&result));
            }
            state.wait_or_stop(delay).await;
            let observed = observe(&result);
            Ok(answer_observed(result, state, parts, placement, observed))
        }
    }
}

/// The upstream's answer for the client, recorded as the attempt's outcome.
fn answer_observed(
    result: anyhow::Result<Exchange>,
    state: &ProxyState,
    parts: &http::request::Parts,
    placement: Placement,
    observed: UpstreamAnswer,
) -> Response<Full<Bytes>> {
    let response = answer(result);
    let status = response.status().as_u16();
    let retry_after = crate::retry::retry_after_of(response.headers());
    state.finish(placement, parts, |attempt| {
        attempt.upstream = Some(observed);
        attempt.client_status = Some(status);
        attempt.set_client_retry_after(retry_after);
    });
    response
}

/// The upstream's answer as it came (minus hop-by-hop headers), or 502 naming why there is none.
fn answer(result: anyhow::Result<Exchange>) -> Response<Full<Bytes>> {
    match result {
        Ok(exchange) => {
            let mut response = Response::new(Full::new(exchange.body));
            *response.status_mut() = exchange.status;
            let mut headers = exchange.headers;
            // Taken out of the answer in place, not copied: most answers have none, and a copy
            // of each header value was an allocation. Content-Length stays as the upstream sent
            // it: for HEAD it announces a body that is not sent.
            strip_connection_headers(&mut headers);
            // Repeated (with one value, or the answer could not have been read): said once.
            let repeated_length = {
                let mut lengths = headers.get_all(CONTENT_LENGTH).iter();
                lengths.next().cloned().filter(|_| lengths.next().is_some())
            };
            if let Some(length) = repeated_length {
                headers.insert(CONTENT_LENGTH, length);
            }
            *response.headers_mut() = headers;
            response
        }
        Err(err) => problem(
            StatusCode::BAD_GATEWAY,
            "upstream-unreachable",
            "No usable answer from the upstream",
            &format!("idem proxy got no usable answer from the upstream: {err:#}"),
        ),
    }
}
