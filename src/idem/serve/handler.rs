//! Routing and the payment endpoint: where the three key-handling modes differ.
use std::convert::Infallible;
use std::sync::Arc;
use std::time::{Duration, Instant};

use bytes::Bytes;
use http::header::{ALLOW, CONTENT_LENGTH, CONTENT_TYPE, LOCATION, RETRY_AFTER};
use http::{HeaderValue, Method, Request, Response, StatusCode};
use http_body_util::{Full, Limited};
use hyper::body::Incoming;

use crate::http::problem::{json_response, problem};

use super::Mode;
use super::declines::Declines;
use super::expired_records::ExpiredRecords;
use super::key::{caller_of, canonical_body, parse_key};
use super::log::{RequestLine, RequestLog, RequestOutcome};
use super::payments::{ListQuery, NewPayment, Payment, parse_any_resource, parse_new_payment};
use super::store::owner::Owners;
use super::store::{Claim, Completion, Fingerprint, Lookup, ScopedKey, Store, StoreError, StoredResponse, fingerprint};

/// The header the reference server reads keys from.
pub(crate) const KEY_HEADER: &str = "idempotency-key";
/// The header that marks a replayed response (Stripe's name).
pub(crate) const REPLAYED_HEADER: &str = "idempotent-replayed";
/// Seconds a client is told to wait before retrying a request still in flight.
const RETRY_AFTER_SECONDS: &str = "1";

pub(super) struct AppState {
    pub mode: Mode,
    /// `--mode-on PATH`: the one endpoint `mode` applies to; the others are correct.
    pub mode_on: Option<String>,
    pub work: Duration,
    pub require_key: bool,
    /// POST on any path creates a payment (`--any-path`).
    pub any_path: bool,
    pub max_body: u64,
    /// The key table and the ledger, wherever `--store` put them.
    pub store: Arc<dyn Store>,
    pub owners: Owners,
    pub log: RequestLog,
    /// `--mode sticky-decline`: the declines it keeps answering.
    pub declines: Declines,
    /// `--mode orphan-takeover`: when each key's answer was stored, as the broken layer reads it.
    pub expired_records: ExpiredRecords,
}

impl AppState {
    /// The mode requests to `path` are handled in: `--mode`, unless `--mode-on` names another
    /// endpoint, so a flow (customers, payments, refunds) breaks one step at a time.
    fn mode_for(&self, path: &str) -> Mode {
        match &self.mode_on {
            Some(only) if only.trim_end_matches('/') != path => Mode::Correct,
            _ => self.mode,
        }
    }
}

/// What handling a request produced, before it is logged.
struct Handled {
    response: Response<Full<Bytes>>,
    outcome: RequestOutcome,
    key: Option<String>,
    payment_id: Option<String>,
}

impl Handled {
    fn plain(response: Response<Full<Bytes>>, outcome: RequestOutcome) -> Handled {
        Handled { response, outcome, key: None, payment_id: None }
    }
}

pub(super) async fn handle(
    state: Arc<AppState>,
    request: Request<Incoming>,
) -> Result<Response<Full<Bytes>>, Infallible> {
    // Handled and logged on a task of its own: hyper drops this future when the client hangs up,
    // and a request whose client left during --work still charged and must still be in the log.
    // The arrival stamp (`Server-Timing: arrival`): when the handler took the request, for
    // `idem race` to measure how far apart duplicates reached it.
    let arrived = std::time::SystemTime::now();
    let task = tokio::spawn(async move {
        let started = Instant::now();
        let method = request.method().clone();
        let path = request.uri().path().to_string();
        let handled = route(&state, request).await;
        state.log.record(RequestLine {
            time: crate::clock::time_of_day(chrono::Utc::now()),
            method: method.to_string(),
            path,
            key: handled.key,
            status: handled.response.status().as_u16(),
            outcome: handled.outcome,
            payment_id: handled.payment_id,
            latency: started.elapsed(),
        });
        handled.response
    });
    let mut response = task.await.unwrap_or_else(|err| {
        problem(StatusCode::INTERNAL_SERVER_ERROR, "internal", "Internal error", &format!("the request failed: {err}"))
    });
    crate::http::server_timing::stamp_arrival(response.headers_mut(), arrived);
    Ok(response)
}

async fn route(state: &Arc<AppState>, request: Request<Incoming>) -> Handled {
    let path = request.uri().path().trim_end_matches('/').to_string();
    let method = request.method().clone();
    match (path.as_str(), path.strip_prefix("/payments/")) {
        ("/payments", _) if method == Method::POST => create_payment(state, request).await,
        // A second endpoint with the same body, so a key reused across endpoints can be tested.
        ("/refunds", _) if method == Method::POST => create_payment(state, request).await,
        ("/refunds", _) => method_not_allowed("POST"),
        // The first step of a flow: a customer the payments and refunds that follow belong to.
        ("/customers", _) if method == Method::POST => create_payment(state, request).await,
        ("/customers", _) => method_not_allowed("POST"),
        _ if state.any_path && method == Method::POST => create_payment(state, request).await,
        ("/payments", _) if method == Method::GET => match ListQuery::parse(request.uri().query()) {
            Err(reason) => Handled::plain(
                problem(StatusCode::BAD_REQUEST, "invalid-query", "Invalid list query", &reason),
                RequestOutcome::Invalid,
            ),
            Ok(query) => match state.store.payments().await {
                Err(err) => Handled::plain(store_unavailable(&err), RequestOutcome::StoreUnavailable),
                Ok(payments) => match query.page(payments) {
                    Ok(page) => Handled::plain(json_response(StatusCode::OK, &page), RequestOutcome::Read),
                    Err(reason) => Handled::plain(
                        problem(StatusCode::BAD_REQUEST, "invalid-query", "Invalid list query", &reason),
                        RequestOutcome::Invalid,
                    ),
                },
            },
        },
        ("/payments", _) => method_not_allowed("GET, POST"),
        (_, Some(id)) if !id.contains('/') => {
            if method != Method::GET {
                return method_not_allowed("GET");
            }
            match state.store.payment(id).await {
                Err(err) => Handled::plain(store_unavailable(&err), RequestOutcome::StoreUnavailable),
                Ok(Some(payment)) => Handled::plain(json_response(StatusCode::OK, &payment), RequestOutcome::Read),
                Ok(None) => Handled::plain(
                    problem(
                        StatusCode::NOT_FOUND,
                        "not-found",
                        "No such payment",
                        &format!("there is no payment `{id}`"),
                    ),
                    RequestOutcome::NotFound,
                ),
            }
        }
        _ => Handled::plain(
            problem(
                StatusCode::NOT_FOUND,
                "not-found",
                "Not found",
                "this API has POST /customers, POST /payments, GET /payments, GET /payments/{id} and POST /refunds",
            ),
            RequestOutcome::NotFound,
        ),
    }
}

async fn create_payment(state: &Arc<AppState>, request: Request<Incoming>) -> Handled {
    let (parts, body) = request.into_parts();
    // `/payments/` is the same endpoint as `/payments`, so it is the same key scope: otherwise a
    // retry that adds a slash charges again.
    let path = match parts.uri.path().trim_end_matches('/') {
        "" => "/".to_string(),
        trimmed => trimmed.to_string(),
    };
    let mode = state.mode_for(&path);
    let key = match key_of(mode, &parts.headers) {
        Ok(key) => key,
        Err(reason) => {
            let response = problem(StatusCode::BAD_REQUEST, "invalid-key", "Invalid Idempotency-Key", &reason);
            return Handled::plain(response, RequestOutcome::Invalid);
        }
    };
    let reject = |response, outcome| Handled { response, outcome, key: key.clone(), payment_id: None };
    if key.is_none() && state.require_key {
        let detail = "this endpoint requires an Idempotency-Key header so a retry cannot charge twice";
        return reject(
            problem(StatusCode::BAD_REQUEST, "missing-key", "Idempotency-Key required", detail),
            RequestOutcome::MissingKey,
        );
    }
    let sticky_declines = mode == Mode::StickyDecline;
    if sticky_declines && let Some(declined) = state.declines.replay(&caller_of(&parts.headers), &path) {
        return reject(declined, RequestOutcome::Invalid);
    }
    let (body, new_payment) = match read_new_payment(state.max_body, &parts.headers, &path, body).await {
        Ok(read) => read,
        Err((response, RequestOutcome::Invalid)) if sticky_declines => {
            let response = remember_decline(state, caller_of(&parts.headers), path, response).await;
            return reject(response, RequestOutcome::Invalid);
        }
        Err((response, outcome)) => return reject(response, outcome),
    };

    let claim = match (&key, mode) {
        (Some(_), Mode::None) | (None, _) => None,
        (Some(key), _) => match reserve_key(state, mode, &parts, &path, key, &body).await {
            Ok(keyed) => Some(keyed),
            Err(answered) => return answered,
        },
    };

    let kind = match path.as_str() {
        "/refunds" => Created::Refund,
        "/customers" => Created::Customer,
        _ => Created::Payment,
    };
    let orphan_note = claim.as_ref().filter(|_| mode == Mode::OrphanTakeover).map(|keyed| keyed.scoped.clone());
    match execute(state, mode, new_payment, claim, kind).await {
        Ok((stored, payment_id)) => {
            if let Some(scoped) = orphan_note {
                state.expired_records.stored(&scoped);
            }
            Handled {
                response: stored_response(&stored),
                outcome: RequestOutcome::Created,
                key,
                payment_id: Some(payment_id),
            }
        }
        Err((response, outcome)) => reject(response, outcome),
    }
}

/// `--mode sticky-decline`: keeps the decline for the caller and endpoint, and answers it.
async fn remember_decline(
    state: &AppState,
    caller: String,
    path: String,
    response: Response<Full<Bytes>>,
) -> Response<Full<Bytes>> {
    use http_body_util::BodyExt;
    let (head, body) = response.into_parts();
    let body = body.collect().await.map(|collected| collected.to_bytes()).unwrap_or_default();
    let content_type = head.headers.get(CONTENT_TYPE).cloned();
    state.declines.remember(caller, path, head.status, content_type, body.clone());
    Response::from_parts(head, Full::new(body))
}

/// The request's Idempotency-Key, if it sent one; the reason it is invalid otherwise.
fn key_of(mode: Mode, headers: &http::HeaderMap) -> Result<Option<String>, String> {
    if headers.get_all(KEY_HEADER).iter().count() > 1 {
        return Err("the request has more than one Idempotency-Key header; send exactly one".to_string());
    }
    match headers.get(KEY_HEADER) {
        None => Ok(None),
        // The broken layer takes the header value as it is: empty, over-long or quoted.
        Some(value) if mode == Mode::Unscoped => Ok(Some(String::from_utf8_lossy(value.as_bytes()).into_owned())),
        Some(value) => parse_key(value.as_bytes()).map(Some),
    }
}

/// Reads the body within `max_body` and validates it. Validation comes before the key is claimed:
/// a request that never started executing leaves nothing to replay (Stripe does the same).
async fn read_new_payment(
    max_body: u64,
    headers: &http::HeaderMap,
    path: &str,
    body: Incoming,
) -> Result<(Bytes, NewPayment), (Response<Full<Bytes>>, RequestOutcome)> {
    let declared = headers.get(CONTENT_LENGTH).and_then(|v| v.to_str().ok()).and_then(|v| v.parse::<u64>().ok());
    let too_large = || {
        let detail = format!("the body is larger than the {max_body} bytes this server accepts");
        (problem(StatusCode::PAYLOAD_TOO_LARGE, "too-large", "Body too large", &detail), RequestOutcome::TooLarge)
    };
    if declared.is_some_and(|length| length > max_body) {
        return Err(too_large());
    }
    let body = match crate::http::request_body::read_body(Limited::new(body, max_body as usize)).await {
        Ok(collected) => collected,
        Err(err) if err.is::<http_body_util::LengthLimitError>() => return Err(too_large()),
        Err(err) => {
            let detail = format!("the body could not be read: {err}");
            let response = problem(StatusCode::BAD_REQUEST, "unreadable-body", "Unreadable body", &detail);
            return Err((response, RequestOutcome::Invalid));
        }
    };
    let known_endpoint = path == "/payments" || path == "/refunds";
    let parsed = if known_endpoint { parse_new_payment(&body) } else { parse_any_resource(&body) };
    match parsed {
        Ok(payment) => Ok((body, payment)),
        Err(reason) => Err((
            problem(StatusCode::BAD_REQUEST, "invalid-payment", "Invalid payment", &reason),
            RequestOutcome::Invalid,
        )),
    }
}

/// Claims the key (or, in naive mode, only looks it up): a fresh key is work to execute; a key in
/// flight, reused or already completed is answered here without executing.
async fn reserve_key(
    state: &AppState,
    mode: Mode,
    parts: &http::request::Parts,
    path: &str,
    key: &str,
    body: &[u8],
) -> Result<KeyedWork, Handled> {
    let answer = |response, outcome, payment_id| Handled { response, outcome, key: Some(key.to_string()), payment_id };
    let (scoped, print) = scoped_key(mode, parts, path, key, body);
    // --mode orphan-takeover: an expired record is read, seen expired and overwritten after the
    // work, without a claim, where every other mode takes it over in the claim's atomic step.
    let takes_over_unclaimed = mode == Mode::OrphanTakeover && state.expired_records.expired(&scoped);
    let claim = (mode != Mode::Naive && !takes_over_unclaimed).then(|| claim_for(mode, state));
    let lookup = match &claim {
        Some(claim) => state.store.claim(&scoped, print, claim).await,
        None => state.store.lookup(&scoped, print).await,
    };
    let lookup = match lookup {
        Ok(lookup) => lookup,
        Err(err) => return Err(answer(store_unavailable(&err), RequestOutcome::StoreUnavailable, None)),
    };
    match lookup {
        Lookup::Fresh => Ok(KeyedWork { scoped, print, claim }),
        Lookup::InFlight => {
            let detail = "a request with this key is still being processed; retry after it completes";
            let mut response = problem(StatusCode::CONFLICT, "key-in-use", "Request in progress", detail);
            response.headers_mut().insert(RETRY_AFTER, HeaderValue::from_static(RETRY_AFTER_SECONDS));
            Err(answer(response, RequestOutcome::InProgress, None))
        }
        Lookup::Mismatch => {
            let detail = "this key was already used with a different request (method, path or body); use a new key";
            let response = problem(StatusCode::UNPROCESSABLE_ENTITY, "key-reused", "Idempotency-Key reused", detail);
            Err(answer(response, RequestOutcome::Mismatch, None))
        }
        Lookup::Replay(stored) => {
            let mut response = stored_response(&stored);
            if mode == Mode::DropsHeaders {
                response.headers_mut().remove(LOCATION);
            }
            response.headers_mut().insert(REPLAYED_HEADER, HeaderValue::from_static("true"));
            let payment_id = stored.location.as_deref().and_then(|l| l.rsplit('/').next()).map(str::to_string);
            Err(answer(response, RequestOutcome::Replayed, payment_id))
        }
    }
}

/// Where the key lives in the store and what request it stands for. The unscoped mode shares one
/// key space and compares raw bodies; the others scope a key to one caller, one method and one
/// path, and compare the JSON, not its spelling.
fn scoped_key(
    mode: Mode,
    parts: &http::request::Parts,
    path: &str,
    key: &str,
    body: &[u8],
) -> (ScopedKey, Fingerprint) {
    if mode == Mode::Unscoped {
        (ScopedKey { method: "*".into(), path: "*".into(), key: key.to_string() }, fingerprint("", "", body))
    } else {
        let caller_key = format!("{} {key}", caller_of(&parts.headers));
        let scoped = ScopedKey { method: parts.method.to_string(), path: path.to_string(), key: caller_key };
        (scoped, fingerprint(parts.method.as_str(), path, &canonical_body(body)))
    }
}

/// The claim this server takes on a key, with the lease its mode gives it.
fn claim_for(mode: Mode, state: &AppState) -> Claim {
    let mut claim = state.owners.claim();
    match mode {
        Mode::ShortLease => claim.lease = (state.work / 2).max(Duration::from_millis(1)),
        // Ten years: a claim that survives any crash.
        Mode::StickyLock => claim.lease = Duration::from_secs(10 * 365 * 24 * 3600),
        _ => {}
    }
    claim
}

/// A keyed request about to execute: its key, its fingerprint and, unless the mode is naive,
/// the claim it holds.
#[derive(Clone)]
struct KeyedWork {
    scoped: ScopedKey,
    print: Fingerprint,
    claim: Option<Claim>,
}

/// Charges. Runs on its own task so a client that hangs up mid-request cannot leave the key
/// claimed or a payment half-made: the work completes and its response is stored. The claim's
/// lease is renewed while the work runs.
/// What a POST creates: the endpoint decides the id's prefix and the object's name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Created {
    Payment,
    Refund,
    Customer,
}

async fn execute(
    state: &Arc<AppState>,
    mode: Mode,
    new_payment: NewPayment,
    keyed: Option<KeyedWork>,
    kind: Created,
) -> Result<(StoredResponse, String), (Response<Full<Bytes>>, RequestOutcome)> {
    let task_state = Arc::clone(state);
    let task_keyed = keyed.clone();
    // --mode short-lease and sticky-lock never renew: the lease they took is all there is.
    let renews = !matches!(mode, Mode::ShortLease | Mode::StickyLock);
    let task = tokio::spawn(async move {
        let work = simulate_work(task_state.work);
        match task_keyed.as_ref().and_then(|keyed| keyed.claim.as_ref().map(|claim| (&keyed.scoped, claim))) {
            Some((scoped, claim)) if renews => super::store::lease::hold(&*task_state.store, scoped, claim, work).await,
            _ => work.await,
        }
        let mut payment = Payment::charge(new_payment);
        match kind {
            Created::Payment => {}
            Created::Refund => {
                payment.id = crate::ids::fresh_id("re_");
                payment.object = "refund";
            }
            Created::Customer => {
                payment.id = crate::ids::fresh_id("cus_");
                payment.object = "customer";
            }
        }
        let stored = StoredResponse {
            status: StatusCode::CREATED.as_u16(),
            content_type: "application/json".to_string(),
            location: Some(format!("/payments/{}", payment.id)),
            body: Bytes::from(serde_json::to_vec(&payment).unwrap_or_default()),
        };
        // --mode delete-on-error: the error after the work comes before the answer is stored,
        // and its handler deletes the key record (below), as a layer that cleans up on any
        // exception does.
        if mode == Mode::DeleteOnError {
            task_state.store.commit(&payment, None).await?;
            return Ok::<_, StoreError>(Err(payment.id));
        }
        let completion = task_keyed.as_ref().map(|keyed| Completion {
            key: &keyed.scoped,
            fingerprint: keyed.print,
            response: &stored,
            claim: keyed.claim.as_ref(),
        });
        task_state.store.commit(&payment, completion).await?;
        Ok::<_, StoreError>(Ok((stored, payment.id)))
    });
    let failed = match task.await {
        Ok(Ok(Ok(done))) => return Ok(done),
        Ok(Ok(Err(payment_id))) => {
            let detail = format!("the payment {payment_id} was made, then the request failed");
            (
                problem(StatusCode::INTERNAL_SERVER_ERROR, "internal", "Internal error", &detail),
                RequestOutcome::FailedAfterCharge,
            )
        }
        Ok(Err(err)) => (store_unavailable(&err), RequestOutcome::StoreUnavailable),
        Err(err) => {
            let detail = format!("the payment failed: {err}");
            (problem(StatusCode::INTERNAL_SERVER_ERROR, "internal", "Internal error", &detail), RequestOutcome::Invalid)
        }
    };
    // Nothing was recorded, so a retry may execute; if the store is down this fails too, and
    // the lease runs out instead.
    if let Some(KeyedWork { scoped, claim: Some(claim), .. }) = &keyed
        && mode != Mode::StickyLock
    {
        let _ = state.store.release(scoped, claim).await;
    }
    Err(failed)
}

/// 503 for a store that cannot be reached: the client may retry; the cause goes to stderr.
fn store_unavailable(err: &StoreError) -> Response<Full<Bytes>> {
    eprintln!("idem serve: store unavailable: {}", crate::output::terminal_safe(&err.to_string()));
    let detail = "the idempotency store cannot be reached right now, so the request was not executed; retry after the Retry-After delay";
    let mut response = problem(StatusCode::SERVICE_UNAVAILABLE, "store-unavailable", "Store unavailable", detail);
    response.headers_mut().insert(RETRY_AFTER, HeaderValue::from_static(RETRY_AFTER_SECONDS));
    response
}

/// Takes `work`, precisely: `idem window` measures the naive mode's race window, which is this
/// duration, so it must not be rounded up to tokio's millisecond timer tick (a 1 ms sleep takes
/// 1–2 ms there). The timer covers all but the last few milliseconds; a blocking thread the rest,
/// without holding up a runtime worker: it sleeps until shortly before the end and spins the last
/// stretch, so a slow wake-up on a busy machine does not lengthen the work.
async fn simulate_work(work: Duration) {
    const TIMER_SLACK: Duration = Duration::from_millis(3);
    const SPIN: Duration = Duration::from_micros(300);
    let done = Instant::now() + work;
    if let Some(coarse) = done.checked_sub(TIMER_SLACK).filter(|coarse| *coarse > Instant::now()) {
        tokio::time::sleep_until(coarse.into()).await;
    }
    if done > Instant::now() {
        // A join error only means the wait was cut short; the work is still done.
        let _ = tokio::task::spawn_blocking(move || {
            if let Some(nap) = done.checked_sub(SPIN).map(|wake| wake.saturating_duration_since(Instant::now())) {
                std::thread::sleep(nap);
            }
            while Instant::now() < done {
                std::hint::spin_loop();
            }
        })
        .await;
    }
}

fn stored_response(stored: &StoredResponse) -> Response<Full<Bytes>> {
    let mut response = Response::new(Full::new(stored.body.clone()));
    *response.status_mut() = StatusCode::from_u16(stored.status).unwrap_or(StatusCode::OK);
    if let Ok(content_type) = HeaderValue::from_str(&stored.content_type) {
        response.headers_mut().insert(CONTENT_TYPE, content_type);
    }
    if let Some(location) = stored.location.as_deref().and_then(|l| HeaderValue::from_str(l).ok()) {
        response.headers_mut().insert(LOCATION, location);
    }
    response
}

fn method_not_allowed(allow: &'static str) -> Handled {
    let mut response = problem(
        StatusCode::METHOD_NOT_ALLOWED,
        "method-not-allowed",
        "Method not allowed",
        &format!("allowed: {allow}"),
    );
    response.headers_mut().insert(ALLOW, HeaderValue::from_static(allow));
    Handled::plain(response, RequestOutcome::MethodNotAllowed)
}
