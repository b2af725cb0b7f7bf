//! One request, start to finish: route it, read the body, check the signature, count the
//! attempt, decide the answer (misbehaving on purpose or forwarding), journal it, show it, answer.
use std::convert::Infallible;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::{Duration, Instant};

use bytes::Bytes;
use chrono::{DateTime, Utc};
use http::header::{ALLOW, CONTENT_LENGTH, CONTENT_TYPE};
use http::request::Parts;
use http::{HeaderMap, HeaderName, HeaderValue, Method, Request, Response, StatusCode, Uri};
use http_body_util::{Full, Limited};
use hyper::body::Incoming;

use super::dedupe::{Attempt, Claim, Envelope, EventTable, event_id, table_key};
use super::detached::Detached;
use super::display::{DeliveryLine, Display, ForwardLine, HandshakeLine, RejectedLine};
use super::forward::{Forwarded, Forwarder};
use super::handshake;
use super::summary::{Counted, Counter, ForwardResult};
use crate::http::problem::problem;
use crate::http::request_body::read_body_within;
use crate::webhook::delivery::{Delivery, DeliveryBody};
use crate::webhook::journal::record::{
    HeaderText, JournalAnswer, JournalBody, JournalForward, ReceivedRecord, json_number, json_string,
};
use crate::webhook::journal::writer::JournalWriter;
use crate::webhook::scheme::{self, SchemeKind, SchemeOptions};
use crate::webhook::scheme::{ReceivedRequest, TimeWindow};
use crate::webhook::secret::Secret;
use crate::webhook::verify::verifier::{SignatureCheck, Verifier};

/// Headers that name the event type, for schemes that carry it outside the body; Shopify's
/// unprefixed `shopify-topic` first, as its libraries read it.
const EVENT_TYPE_HEADERS: [HeaderName; 3] = [
    HeaderName::from_static("x-github-event"),
    HeaderName::from_static("shopify-topic"),
    HeaderName::from_static("x-shopify-topic"),
];

/// `--re-sign SECRET`: after the provider's signature is verified, the forward carries a
/// signature made with a local secret, so the application under development never holds the
/// provider's.
pub(super) struct ReSign {
    pub secret: Secret,
    pub options: SchemeOptions,
}

impl ReSign {
    /// The forward's headers: the received ones with the signature headers made afresh (same
    /// scheme, same delivery id and event type, the time of now).
    fn headers(
        &self,
        kind: SchemeKind,
        headers: &HeaderMap,
        body: &Bytes,
        event: Option<&str>,
        url: &Uri,
    ) -> anyhow::Result<HeaderMap> {
        let scheme = scheme::build(kind, &self.options);
        let key = scheme.signing_key(&self.secret)?;
        let delivery = Delivery {
            body: DeliveryBody::Bytes(body.clone()),
            id: scheme.delivery_id(headers).unwrap_or_else(|| crate::ids::fresh_id("msg_")),
            timestamp: crate::clock::unix_now(),
            event: event.map(str::to_string),
            // The forward goes to the application at this URL: a scheme that signs the URL signs it.
            url: Some(url.to_string()),
        };
        let mut headers = headers.clone();
        // The provider's signature goes, under every name it may have come in: Shopify's
        // libraries read an unprefixed `shopify-hmac-sha256` before the `X-` one written here.
        for name in scheme.accepted_signature_headers() {
            headers.remove(name);
        }
        for (name, value) in scheme.sign(&delivery, &key)? {
            headers.insert(name, value);
        }
        Ok(headers)
    }
}

/// Everything a request needs, built once at start-up and shared by every connection.
pub(super) struct Receiver {
    pub path: Option<String>,
    pub verifier: Verifier,
    /// `--public-url`: the URL (or origin) the provider was given, which schemes that sign the
    /// URL signed; `None`: the local URL the request arrived at.
    pub public_url: Option<Uri>,
    /// The address bound, for the local URL when the request names no Host.
    pub local_addr: SocketAddr,
    pub tolerance: Duration,
    pub accept_invalid: bool,
    pub max_body: u64,
    pub status: Option<StatusCode>,
    pub fail_first: u32,
    pub delay: Duration,
    /// How long the body may go without a byte before the request fails.
    pub body_progress: Duration,
    pub dedupe: bool,
    pub events: EventTable,
    /// Hints cost several more verifications per forged request: at most this many are worked out
    /// at once, off the async workers, and a forged request that finds none free gets none.
    pub hints: Arc<tokio::sync::Semaphore>,
    /// This listener's name in `Via`: a delivery that already passed through it is a loop.
    pub via: String,
    pub journal: Option<Arc<JournalWriter>>,
    pub forwarder: Option<Forwarder>,
    /// `--ack-always`: answer 200 once journaled, whatever the forward target said.
    pub ack_always: bool,
    /// `--include-body`: the body goes into each `--format json` line.
    pub include_body: bool,
    /// `--re-sign`: forwards are signed again with this local secret.
    pub re_sign: Option<ReSign>,
    pub display: Display,
    pub counter: Counter,
    /// Deliveries handled apart from their connection, waited for at shutdown.
    pub detached: Detached,
    /// `--ui`: the inspector shown every delivery.
    pub inspector: Option<Arc<crate::webhook::inspect::Inspector>>,
    /// What the providers' handshakes need (`--verify-token`, the secret).
    pub handshakes: handshake::HandshakeConfig,
}

impl Receiver {
    /// Whether a delivery is handled in a task apart from its connection: when its handling
    /// waits on something slow (a forward, `--delay`). Otherwise it only waits on the journal's
    /// append (microseconds), and a line queued for it is written even if the sender hangs up.
    fn detaches(&self) -> bool {
        self.forwarder.is_some() || !self.delay.is_zero()
    }
}

/// The request as it arrived, for the journal and the display.
struct Arrival {
    received: DateTime<Utc>,
    started: Instant,
    remote: SocketAddr,
    method: Method,
    path: String,
}

impl Arrival {
    fn time(&self) -> String {
        crate::clock::rfc3339(self.received)
    }
}

/// Answers a request, stamped with its arrival (`Server-Timing: arrival`) so that a client
/// racing deliveries at the listener can tell how far apart they reached it.
pub(super) async fn handle(
    receiver: Arc<Receiver>,
    remote: SocketAddr,
    request: Request<Incoming>,
) -> Result<Response<Full<Bytes>>, Infallible> {
    let arrived = std::time::SystemTime::now();
    let mut response = receive(receiver, remote, request).await?;
    crate::http::server_timing::stamp_arrival(response.headers_mut(), arrived);
    Ok(response)
}

async fn receive(
    receiver: Arc<Receiver>,
    remote: SocketAddr,
    request: Request<Incoming>,
) -> Result<Response<Full<Bytes>>, Infallible> {
    let (parts, body) = request.into_parts();
    let arrival = Arrival {
        received: Utc::now(),
        started: Instant::now(),
        remote,
        method: parts.method.clone(),
        path: parts.uri.path_and_query().map_or_else(|| "/".to_string(), |path| path.as_str().to_string()),
    };
    if let Some(expected) = &receiver.path
        && parts.uri.path() != expected
    {
        let reason = format!("this listener receives webhooks on {expected} only");
        let response = problem(StatusCode::NOT_FOUND, "not-found", "Not found", &reason);
        return Ok(reject(&receiver, &arrival, response, reason));
    }
    if let Some(answered) = handshake::before_body(&receiver.handshakes, &parts) {
        return Ok(answer_handshake(&receiver, &arrival, &parts, &[], None, answered).await);
    }
    if parts.method != Method::POST {
        let reason = "webhooks are POSTed; only POST is accepted".to_string();
        let mut response = problem(StatusCode::METHOD_NOT_ALLOWED, "method-not-allowed", "Method not allowed", &reason);
        response.headers_mut().insert(ALLOW, HeaderValue::from_static("POST"));
        return Ok(reject(&receiver, &arrival, response, reason));
    }
    let too_large = || {
        let reason = format!("the body is larger than the {} bytes --max-body allows", receiver.max_body);
        (problem(StatusCode::PAYLOAD_TOO_LARGE, "too-large", "Body too large", &reason), reason)
    };
    let declared = parts.headers.get(CONTENT_LENGTH).and_then(|v| v.to_str().ok()).and_then(|v| v.parse::<u64>().ok());
    if declared.is_some_and(|length| length > receiver.max_body) {
        let (response, reason) = too_large();
        return Ok(reject(&receiver, &arrival, response, reason));
    }
    if crate::http::forwarding_loop::passed_through(&parts.headers, &receiver.via) {
        let reason = "this delivery already passed through this listener (its Via header says so): --forward-to \
                      leads back here, a loop"
            .to_string();
        let response = problem(StatusCode::LOOP_DETECTED, "forwarding-loop", "Forwarding loop", &reason);
        return Ok(reject(&receiver, &arrival, response, reason));
    }
    let limit = usize::try_from(receiver.max_body).unwrap_or(usize::MAX);
    let body = match read_body_within(Limited::new(body, limit), receiver.body_progress).await {
        Ok(collected) => collected,
        Err(err) if err.is::<http_body_util::LengthLimitError>() => {
            let (response, reason) = too_large();
            return Ok(reject(&receiver, &arrival, response, reason));
        }
        Err(err) => {
            // A client that hung up mid-body or sent broken chunked encoding.
            let reason = format!("the body could not be read: {err}");
            let response = problem(StatusCode::BAD_REQUEST, "unreadable-body", "Unreadable body", &reason);
            return Ok(reject(&receiver, &arrival, response, reason));
        }
    };
    if !receiver.detaches() {
        return Ok(deliver(&receiver, arrival, parts, body).await);
    }
    // Forwarded (or delayed) deliveries take long, and a sender that gives up meanwhile drops this
    // request's future: the application may have processed the forward already, so the forward
    // (its retries included), the journal line and the counts must not go with it. They run in a
    // task of their own, which the listener waits for when it stops.
    let detached = receiver.detached.begin();
    let shared = Arc::clone(&receiver);
    let work = tokio::spawn(async move {
        let _detached = detached;
        deliver(&shared, arrival, parts, body).await
    });
    Ok(work.await.unwrap_or_else(|err| {
        let detail = format!("the delivery's handling failed: {err}");
        problem(StatusCode::INTERNAL_SERVER_ERROR, "delivery-failed", "Delivery failed", &detail)
    }))
}

/// Judges the delivery against the time it arrived, with a hint for a mismatch when a hint worker
/// is free.
async fn judge(receiver: &Arc<Receiver>, arrival: &Arrival, parts: &Parts, body: &Bytes) -> SignatureCheck {
    // The arrival's clock reading, not another one: the clock is read as few times as it can be.
    let window = TimeWindow { now: arrival.received.timestamp(), tolerance: receiver.tolerance };
    let url = signed_url(receiver.public_url.as_ref(), receiver.local_addr, parts);
    let request = ReceivedRequest { method: parts.method.as_str(), url: Some(&url), headers: &parts.headers, body };
    receiver.verifier.prefetch(&request).await;
    let mut signature = receiver.verifier.check(&request, window);
    if !signature.failure.as_ref().is_some_and(|failure| failure.hintable) {
        return signature;
    }
    let Ok(permit) = Arc::clone(&receiver.hints).try_acquire_owned() else {
        return signature;
    };
    let (shared, method, headers, bytes, judged) =
        (Arc::clone(receiver), parts.method.clone(), parts.headers.clone(), body.clone(), signature.clone());
    let hint = tokio::task::spawn_blocking(move || {
        let _permit = permit;
        let request = ReceivedRequest { method: method.as_str(), url: Some(&url), headers: &headers, body: &bytes };
        shared.verifier.hint(&judged, &request, window)
    })
    .await
    .unwrap_or_default();
    if let Some(failure) = signature.failure.as_mut() {
        failure.hint = hint;
    }
    signature
}

/// The URL the provider signed: `--public-url` as given when it has a path or query (the one
/// webhook URL the provider was given), else its origin with the request's path and query (a
/// tunnel's address in front of this listener); without it, the local URL the request arrived
/// at, by its Host header.
fn signed_url(public_url: Option<&Uri>, local_addr: SocketAddr, parts: &Parts) -> String {
    let path_and_query = parts.uri.path_and_query().map_or("/", |path_and_query| path_and_query.as_str());
    match public_url {
        Some(url) if url.path() != "/" || url.query().is_some() => url.to_string(),
        Some(url) => {
            let scheme = url.scheme_str().unwrap_or("https");
            let authority = url.authority().map_or("", |authority| authority.as_str());
            format!("{scheme}://{authority}{path_and_query}")
        }
        None => {
            let host = parts.headers.get(http::header::HOST).and_then(|host| host.to_str().ok());
            match host {
                Some(host) => format!("http://{host}{path_and_query}"),
                None => format!("http://{local_addr}{path_and_query}"),
            }
        }
    }
}

/// What was decided for a delivery before it is journaled.
struct Decision {
    response: Response<Full<Bytes>>,
    forwarded: Option<Forwarded>,
    failed_on_purpose: bool,
}

async fn deliver(receiver: &Arc<Receiver>, arrival: Arrival, parts: Parts, body: Bytes) -> Response<Full<Bytes>> {
    let mut signature = judge(receiver, &arrival, &parts, &body).await;
    let authentic = signature.failure.is_none();
    if let Some(mut answered) = handshake::after_signature(&receiver.handshakes, &parts, &body, authentic) {
        answered.confirm(&receiver.handshakes).await;
        return answer_handshake(receiver, &arrival, &parts, &body, Some(&signature), answered).await;
    }
    let mut envelope = Envelope::read(&body);
    // Taken, not cloned: nothing after this reads the signature's id.
    let (event_id, id_source) = event_id(signature.delivery_id.take(), &mut envelope, &body);
    let event_type = header_event_type(&parts.headers).or_else(|| envelope.event_type());
    let authentic = signature.failure.is_none();
    let accepted = authentic || receiver.accept_invalid;
    let status_accepts = receiver.status.is_none_or(|status| status.is_success());
    // Only deliveries accepted as authentic claim, repeat or count against an event: a forgery that
    // reuses a real event's id is no duplicate of it, and forged ids take no memory.
    let key = table_key(signature.scheme, id_source, &event_id);
    let attempt = if accepted {
        receiver.events.register_at(&key, arrival.started, |number| number > receiver.fail_first && status_accepts)
    } else {
        Attempt::UNCOUNTED
    };
    let claim = Claim::new(&receiver.events, &key, attempt);
    let decision = decide(receiver, &parts, &body, &signature, &event_id, event_type.as_deref(), attempt).await;
    let mut response = decision.response;
    let forward_error = match &decision.forwarded {
        Some(Forwarded::Failed { error, .. }) => Some(error.clone()),
        _ => None,
    };

    // Journal before answering: whatever the sender sees acknowledged is on file.
    let verbose = receiver.display.verbose();
    let mut journal_error = None;
    if receiver.journal.is_some() || receiver.inspector.is_some() {
        let received_at = arrival.time();
        let reason = signature.failure.as_ref().map(|failure| failure.with_hint());
        let forward = decision.forwarded.as_ref().map(journal_forward);
        // Borrows the request's headers and body: nothing of the delivery is copied but into
        // the journal's own buffer.
        let record = ReceivedRecord {
            received_at: &received_at,
            remote: Some(arrival.remote),
            method: arrival.method.as_str(),
            path: &arrival.path,
            headers: &parts.headers,
            body: &body,
            valid: authentic,
            scheme: signature.scheme.map(SchemeKind::name),
            reason: reason.as_deref(),
            code: signature.failure.as_ref().map(|failure| failure.code),
            event_id: &event_id,
            event_type: event_type.as_deref(),
            duplicate: attempt.duplicate,
            attempt: attempt.number,
            status: response.status().as_u16(),
            forward_error: forward_error.as_deref(),
            forward: forward.as_ref(),
            handshake: None,
        };
        if let Some(inspector) = &receiver.inspector {
            show_in_inspector(inspector, &record);
        }
        if let Some(journal) = &receiver.journal
            && let Err(err) = append(journal, &record).await
        {
            let reason = format!("cannot append to the journal `{}`: {err}", journal.path().display());
            response = problem(StatusCode::INTERNAL_SERVER_ERROR, "journal-failed", "Journal failed", &reason);
            journal_error = Some(reason);
        }
    }
    let status = response.status();
    claim.finish(status.is_success());
    if !receiver.delay.is_zero() {
        tokio::time::sleep(receiver.delay).await;
    }

    receiver.counter.delivery(Counted {
        valid: authentic,
        duplicate: attempt.duplicate,
        // A 2xx is a delivery done; any other answer is the application's error, counted apart.
        forwarded: decision.forwarded.as_ref().map(|forwarded| match forwarded.status() {
            Some(status) if status.is_success() => ForwardResult::Accepted,
            Some(_) => ForwardResult::AppError,
            None => ForwardResult::Unreached,
        }),
        failed_on_purpose: decision.failed_on_purpose,
        journaled: receiver.journal.as_ref().map(|_| journal_error.is_none()),
        event_type: event_type.as_deref(),
    });
    if !receiver.display.is_quiet() {
        let failure = signature.failure;
        receiver.display.delivery(DeliveryLine {
            received: arrival.received,
            remote: arrival.remote,
            method: "POST",
            path: arrival.path,
            event_id,
            event_type,
            valid: authentic,
            scheme: signature.scheme,
            reason_code: failure.as_ref().map(|failure| failure.code),
            hint: failure.as_ref().and_then(|failure| failure.hint.clone()),
            reason: failure.map(|failure| failure.message),
            duplicate: attempt.duplicate,
            attempt: attempt.number,
            status: status.as_u16(),
            failed_on_purpose: decision.failed_on_purpose,
            forward: decision.forwarded.map(|forwarded| forward_line(&forwarded)),
            journal_error,
            body_bytes: body.len(),
            latency: arrival.started.elapsed(),
            headers: verbose.then(|| header_pairs(&parts.headers)),
            body: (verbose || receiver.include_body).then(|| JournalBody::from_bytes(&body)),
        });
    }
    response
}

/// The answer, in order of precedence: refuse an invalid signature (unless `--accept-invalid`),
/// fail the first attempts on purpose (`--fail-first`), acknowledge a duplicate without passing it
/// on (`--dedupe`), forward (`--forward-to`), else acknowledge. `--status` replaces the status of
/// the last three.
async fn decide(
    receiver: &Receiver,
    parts: &Parts,
    body: &Bytes,
    signature: &SignatureCheck,
    event_id: &str,
    event_type: Option<&str>,
    attempt: Attempt,
) -> Decision {
    let answer = |response| Decision { response, forwarded: None, failed_on_purpose: false };
    if let Some(failure) = signature.failure.as_ref().filter(|_| !receiver.accept_invalid) {
        let detail = format!("{}; the delivery was recorded but not accepted", failure.with_hint());
        return answer(problem(StatusCode::UNAUTHORIZED, "invalid-signature", "Invalid signature", &detail));
    }
    if attempt.number <= receiver.fail_first && attempt.number > 0 {
        let detail = format!(
            "failing on purpose: attempt {} of event {event_id}, and --fail-first {} fails the first {} of each event",
            attempt.number, receiver.fail_first, receiver.fail_first
        );
        let response = problem(StatusCode::INTERNAL_SERVER_ERROR, "failing-on-purpose", "Failing on purpose", &detail);
        return Decision { response, forwarded: None, failed_on_purpose: true };
    }
    if attempt.original_in_flight && receiver.dedupe && receiver.forwarder.is_some() {
        // The first delivery is still being passed on and may yet fail: acknowledging this copy
        // could lose the event, forwarding it would process it twice. The sender should retry.
        let detail =
            format!("the first delivery of event {event_id} is still being processed; retry after it completes");
        let mut response = problem(StatusCode::CONFLICT, "delivery-in-progress", "Delivery in progress", &detail);
        response.headers_mut().insert(http::header::RETRY_AFTER, http::HeaderValue::from_static("1"));
        return answer(response);
    }
    let forwarder = receiver.forwarder.as_ref().filter(|_| !(attempt.duplicate && receiver.dedupe));
    let acknowledge = || acknowledgement(receiver.status.unwrap_or(StatusCode::OK), event_id, attempt);
    // No route for this event type: acknowledged here, as a gateway drops what nobody subscribed to.
    let Some((forwarder, target)) = forwarder.and_then(|forwarder| Some((forwarder, forwarder.route(event_type)?)))
    else {
        return answer(acknowledge());
    };
    let headers = match (&receiver.re_sign, signature.scheme) {
        (Some(re_sign), Some(kind)) => match re_sign.headers(kind, &parts.headers, body, event_type, target) {
            Ok(headers) => headers,
            Err(err) => {
                let detail = format!("cannot re-sign the delivery with the local secret (--re-sign): {err:#}");
                return answer(problem(StatusCode::INTERNAL_SERVER_ERROR, "re-sign-failed", "Re-sign failed", &detail));
            }
        },
        _ => parts.headers.clone(),
    };
    // Boxed: the forward's state (a client request, retries) is large, and every request's future
    // would otherwise carry room for it and be copied with it into hyper's box.
    let forwarded = Box::pin(forwarder.forward(target, &parts.method, &headers, body.clone(), &receiver.via)).await;
    // What the provider hears: the application's own answer (so its retries are exercised end to
    // end), 502 when it could not be reached, 504 when it did not answer in time; or, with
    // --ack-always, an acknowledgement once journaled.
    let mut response = match &forwarded {
        _ if receiver.ack_always => acknowledge(),
        Forwarded::Answered { status, headers, body, .. } => {
            let mut response = Response::new(Full::new(body.clone()));
            *response.status_mut() = *status;
            if let Some(content_type) = headers.get(CONTENT_TYPE) {
                response.headers_mut().insert(CONTENT_TYPE, content_type.clone());
            }
            response
        }
        Forwarded::Failed { error, answered: Some(_), .. } => {
            let detail = format!("the forward target {} {error}", crate::http::url::Redacted(target));
            problem(
                StatusCode::BAD_GATEWAY,
                "forward-answer-refused",
                "Forward target's answer not passed back",
                &detail,
            )
        }
        Forwarded::Failed { error, timed_out: true, attempts, .. } => {
            let detail = format!(
                "the forward target {} did not answer in time ({attempts} attempt(s)): {error}",
                crate::http::url::Redacted(target)
            );
            problem(StatusCode::GATEWAY_TIMEOUT, "forward-timed-out", "Forward target timed out", &detail)
        }
        Forwarded::Failed { error, attempts, .. } => {
            let detail = format!(
                "the forward target {} did not answer ({attempts} attempt(s)): {error}",
                crate::http::url::Redacted(target)
            );
            problem(StatusCode::BAD_GATEWAY, "forward-failed", "Forward target down", &detail)
        }
    };
    if let Some(status) = receiver.status {
        *response.status_mut() = status;
    }
    Decision { response, forwarded: Some(forwarded), failed_on_purpose: false }
}

/// `{"received":true,"event_id":…,"attempt":…,"duplicate":…}`, or no body for statuses that
/// cannot carry one.
fn acknowledgement(status: StatusCode, event_id: &str, attempt: Attempt) -> Response<Full<Bytes>> {
    if status == StatusCode::NO_CONTENT || status == StatusCode::NOT_MODIFIED {
        let mut response = Response::new(Full::new(Bytes::new()));
        *response.status_mut() = status;
        return response;
    }
    let mut response = Response::new(Full::new(Bytes::from(acknowledgement_body(event_id, attempt))));
    *response.status_mut() = status;
    response.headers_mut().insert(CONTENT_TYPE, HeaderValue::from_static("application/json"));
    response
}

/// The acknowledgement's JSON, written by hand (serde's serializer cost as much as the rest of the
/// answer): byte for byte what serde writes for the struct, which a test holds it to.
fn acknowledgement_body(event_id: &str, attempt: Attempt) -> Vec<u8> {
    const HEAD: &[u8] = b"{\"received\":true,\"event_id\":";
    const ATTEMPT: &[u8] = b",\"attempt\":";
    let tail: &[u8] = if attempt.duplicate { b",\"duplicate\":true}" } else { b",\"duplicate\":false}" };
    // Sized to the byte when the id needs no escaping: a full `Vec` becomes `Bytes` as it is, one
    // with room to spare costs the answer a second allocation (`Bytes`' shared header).
    let digits = attempt.number.checked_ilog10().unwrap_or(0) as usize + 1;
    let mut body = Vec::with_capacity(HEAD.len() + event_id.len() + 2 + ATTEMPT.len() + digits + tail.len());
    body.extend_from_slice(HEAD);
    json_string(&mut body, event_id);
    body.extend_from_slice(ATTEMPT);
    json_number(&mut body, u64::from(attempt.number));
    body.extend_from_slice(tail);
    body
}

/// Shows a delivery in the inspector (`--ui`): its journal line, read back as a record (a copy
/// made only when the inspector is on).
fn show_in_inspector(inspector: &crate::webhook::inspect::Inspector, record: &ReceivedRecord<'_>) {
    let mut line = Vec::new();
    record.write_line(&mut line);
    if let Ok(record) = serde_json::from_slice(&line) {
        inspector.push(&record, None);
    }
}

/// Appends on the runtime when the write only reaches the kernel (microseconds, batched with the
/// other deliveries in flight), and on the blocking pool when it waits for the disk, so `--fsync`
/// never stalls other connections (the record is copied for that thread).
async fn append(journal: &Arc<JournalWriter>, record: &ReceivedRecord<'_>) -> std::io::Result<()> {
    if !journal.fsyncs() {
        return journal.append_received_async(record).await;
    }
    let mut line = Vec::new();
    record.write_line(&mut line);
    let journal = Arc::clone(journal);
    tokio::task::spawn_blocking(move || journal.append_line(&line))
        .await
        .unwrap_or_else(|err| Err(std::io::Error::other(format!("the journal writer failed: {err}"))))
}

/// A handshake the listener answered itself (or refused): journaled before it is answered, like a
/// delivery, and shown on its own line; it is no event, so nothing is de-duplicated or forwarded.
async fn answer_handshake(
    receiver: &Receiver,
    arrival: &Arrival,
    parts: &Parts,
    body: &[u8],
    signature: Option<&SignatureCheck>,
    answered: handshake::Answered,
) -> Response<Full<Bytes>> {
    let mut response = answered.response;
    let succeeded = response.status().is_success();
    if let Some(journal) = &receiver.journal {
        let received_at = arrival.time();
        let event_id = format!("handshake:{}", answered.name);
        let record = ReceivedRecord {
            received_at: &received_at,
            remote: Some(arrival.remote),
            method: arrival.method.as_str(),
            path: &arrival.path,
            headers: &parts.headers,
            body,
            valid: signature.is_some_and(|signature| signature.failure.is_none()),
            scheme: signature.and_then(|signature| signature.scheme).map(SchemeKind::name),
            reason: (!succeeded).then_some(answered.note.as_str()),
            code: None,
            event_id: &event_id,
            event_type: None,
            duplicate: false,
            attempt: 1,
            status: response.status().as_u16(),
            forward_error: None,
            forward: None,
            handshake: Some(answered.name),
        };
        if let Err(err) = append(journal, &record).await {
            let reason = format!("cannot append to the journal `{}`: {err}", journal.path().display());
            response = problem(StatusCode::INTERNAL_SERVER_ERROR, "journal-failed", "Journal failed", &reason);
        }
    }
    if !succeeded {
        receiver.counter.rejected();
    }
    receiver.display.handshake(HandshakeLine {
        received: arrival.received,
        remote: arrival.remote,
        method: arrival.method.to_string(),
        path: arrival.path.clone(),
        handshake: answered.name,
        answered: succeeded,
        status: response.status().as_u16(),
        note: answered.note,
    });
    response
}

fn reject(
    receiver: &Receiver,
    arrival: &Arrival,
    response: Response<Full<Bytes>>,
    reason: String,
) -> Response<Full<Bytes>> {
    receiver.counter.rejected();
    if !receiver.display.is_quiet() {
        receiver.display.rejected(RejectedLine {
            received: arrival.received,
            remote: arrival.remote,
            method: arrival.method.to_string(),
            path: arrival.path.clone(),
            status: response.status().as_u16(),
            reason,
        });
    }
    response
}

fn forward_line(forwarded: &Forwarded) -> ForwardLine {
    let url = crate::http::url::Redacted(forwarded.url()).to_string();
    let (latency, attempts) = (forwarded.latency(), forwarded.attempts());
    match forwarded {
        Forwarded::Answered { status, .. } => {
            ForwardLine { url, status: Some(status.as_u16()), error: None, attempts, latency }
        }
        Forwarded::Failed { error, answered, .. } => ForwardLine {
            url,
            status: answered.map(|status| status.as_u16()),
            error: Some(error.clone()),
            attempts,
            latency,
        },
    }
}

fn journal_forward(forwarded: &Forwarded) -> JournalForward {
    let line = forward_line(forwarded);
    let delivered = line.status.is_some_and(|status| (200..300).contains(&status));
    let answer = match forwarded {
        Forwarded::Answered { headers, body, .. } => Some(JournalAnswer::capped(header_pairs(headers), body)),
        Forwarded::Failed { .. } => None,
    };
    JournalForward {
        url: line.url,
        status: line.status,
        attempts: line.attempts,
        error: line.error,
        delivered,
        latency_ms: Some(u64::try_from(line.latency.as_millis()).unwrap_or(u64::MAX)),
        answer,
    }
}

fn header_event_type(headers: &HeaderMap) -> Option<String> {
    EVENT_TYPE_HEADERS
        .iter()
        .find_map(|name| headers.get(name))
        .and_then(|value| value.to_str().ok())
        .filter(|value| !value.is_empty())
        .map(str::to_string)
}

/// Every header in order, names lower-case; a value that is not UTF-8 is kept in base64.
fn header_pairs(headers: &HeaderMap) -> Vec<(String, HeaderText)> {
    headers.iter().map(|(name, value)| (name.as_str().to_string(), HeaderText::from_bytes(value.as_bytes()))).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The acknowledgement as serde writes it.
    #[derive(serde::Serialize)]
    struct Acknowledgement<'a> {
        received: bool,
        event_id: &'a str,
        attempt: u32,
        duplicate: bool,
    }

    #[test]
    fn the_acknowledgement_is_written_byte_for_byte_as_serde_writes_it() {
        for (event_id, number, duplicate) in
            [("evt_1", 1, false), ("evt_\"quoted\"\n\u{1}é", 4_000_000_000, true), ("", 0, false)]
        {
            let attempt = Attempt { number, duplicate, original_in_flight: false, claimed: false };
            let expected =
                serde_json::to_vec(&Acknowledgement { received: true, event_id, attempt: number, duplicate }).unwrap();
            assert_eq!(
                String::from_utf8(acknowledgement_body(event_id, attempt)).unwrap(),
                String::from_utf8(expected).unwrap()
            );
        }
        // An id with nothing to escape fills the body to its capacity (no room for `Bytes` to pay for).
        for (event_id, number) in [("evt_bench_00000001", 1), ("e", 9), ("evt_1", 10), ("", 4_000_000_000)] {
            let body = acknowledgement_body(event_id, Attempt { number, duplicate: number == 9, ..Attempt::UNCOUNTED });
            assert_eq!(body.len(), body.capacity(), "{event_id} {number}");
        }
    }
}
