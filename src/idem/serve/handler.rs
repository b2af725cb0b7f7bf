//! Routing and the payment endpoint: where the three key-handling modes differ.
use std::convert::Infallible;
use std::sync::Arc;
use std::time::{Duration, Instant};

use bytes::Bytes;
use http::header::{ALLOW, CONTENT_LENGTH, CONTENT_TYPE, LOCATION, RETRY_AFTER};
use http::{HeaderValue, Method, Request, Response, StatusCode};
use http_body_util::{BodyExt, Full, Limited};
use hyper::body::Incoming;

use crate::http::problem::{json_response, problem};

use super::Mode;
use super::key::parse_key;
use super::log::{RequestLine, RequestLog, RequestOutcome};
use super::payments::{Ledger, NewPayment, parse_new_payment};
use super::store::{KeyStore, Lookup, ScopedKey, StoredResponse, fingerprint};

/// The header the reference server reads keys from.
pub const KEY_HEADER: &str = "idempotency-key";
/// The header that marks a replayed response (Stripe's name).
pub const REPLAYED_HEADER: &str = "idempotent-replayed";
/// Seconds a client is told to wait before retrying a request still in flight.
const RETRY_AFTER_SECONDS: &str = "1";

pub struct AppState {
    pub mode: Mode,
    pub work: Duration,
    pub require_key: bool,
    pub max_body: u64,
    pub keys: KeyStore,
    pub ledger: Ledger,
    pub log: RequestLog,
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

pub async fn handle(state: Arc<AppState>, request: Request<Incoming>) -> Result<Response<Full<Bytes>>, Infallible> {
    // Handled and logged on a task of its own: hyper drops this future when the client hangs up,
    // and a request whose client left during --work still charged and must still be in the log.
    let task = tokio::spawn(async move {
        let started = Instant::now();
        let method = request.method().clone();
        let path = request.uri().path().to_string();
        let handled = route(&state, request).await;
        state.log.record(RequestLine {
            time: chrono::Local::now().format("%H:%M:%S%.3f").to_string(),
            method: method.to_string(),
            path,
            key: handled.key,
            status: handled.response.status().as_u16(),
            outcome: handled.outcome,
            payment_id: handled.payment_id,
            latency_ms: crate::units::millis(started.elapsed()),
        });
        handled.response
    });
    Ok(task.await.unwrap_or_else(|err| {
        problem(StatusCode::INTERNAL_SERVER_ERROR, "internal", "Internal error", &format!("the request failed: {err}"))
    }))
}

async fn route(state: &Arc<AppState>, request: Request<Incoming>) -> Handled {
    let path = request.uri().path().trim_end_matches('/').to_string();
    let method = request.method().clone();
    match (path.as_str(), path.strip_prefix("/payments/")) {
        ("/payments", _) if method == Method::POST => create_payment(state, request).await,
        ("/payments", _) if method == Method::GET => match state.ledger.page(request.uri().query()) {
            Ok(page) => Handled::plain(json_response(StatusCode::OK, &page), RequestOutcome::Read),
            Err(reason) => Handled::plain(
                problem(StatusCode::BAD_REQUEST, "invalid-query", "Invalid list query", &reason),
                RequestOutcome::Invalid,
            ),
        },
        ("/payments", _) => method_not_allowed("GET, POST"),
        (_, Some(id)) if !id.contains('/') => {
            if method != Method::GET {
                return method_not_allowed("GET");
            }
            match state.ledger.get(id) {
                Some(payment) => Handled::plain(json_response(StatusCode::OK, &payment), RequestOutcome::Read),
                None => Handled::plain(
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
                "this API has POST /payments, GET /payments and GET /payments/{id}",
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
    if parts.headers.get_all(KEY_HEADER).iter().count() > 1 {
        let detail = "the request has more than one Idempotency-Key header; send exactly one";
        return Handled::plain(
            problem(StatusCode::BAD_REQUEST, "invalid-key", "Invalid Idempotency-Key", detail),
            RequestOutcome::Invalid,
        );
    }
    let key = match parts.headers.get(KEY_HEADER).map(|value| parse_key(value.as_bytes())) {
        None => None,
        Some(Ok(key)) => Some(key),
        Some(Err(reason)) => {
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

    let declared = parts.headers.get(CONTENT_LENGTH).and_then(|v| v.to_str().ok()).and_then(|v| v.parse::<u64>().ok());
    let too_large = || {
        let detail = format!("the body is larger than the {} bytes this server accepts", state.max_body);
        problem(StatusCode::PAYLOAD_TOO_LARGE, "too-large", "Body too large", &detail)
    };
    if declared.is_some_and(|length| length > state.max_body) {
        return reject(too_large(), RequestOutcome::TooLarge);
    }
    let body = match Limited::new(body, state.max_body as usize).collect().await {
        Ok(collected) => collected.to_bytes(),
        Err(err) if err.is::<http_body_util::LengthLimitError>() => {
            return reject(too_large(), RequestOutcome::TooLarge);
        }
        Err(err) => {
            let detail = format!("the body could not be read: {err}");
            return reject(
                problem(StatusCode::BAD_REQUEST, "unreadable-body", "Unreadable body", &detail),
                RequestOutcome::Invalid,
            );
        }
    };
    // Validation comes before the key is claimed: a request that never started executing leaves
    // nothing to replay (Stripe does the same).
    let new_payment = match parse_new_payment(&body) {
        Ok(payment) => payment,
        Err(reason) => {
            return reject(
                problem(StatusCode::BAD_REQUEST, "invalid-payment", "Invalid payment", &reason),
                RequestOutcome::Invalid,
            );
        }
    };

    let claim = match (&key, state.mode) {
        (Some(key), Mode::Correct | Mode::Naive) => {
            let scoped = ScopedKey { method: parts.method.to_string(), path: path.clone(), key: key.clone() };
            let print = fingerprint(parts.method.as_str(), &path, &body);
            let lookup = match state.mode {
                Mode::Correct => state.keys.claim(&scoped, print),
                _ => state.keys.lookup(&scoped, print),
            };
            match lookup {
                Lookup::Fresh => Some((scoped, print)),
                Lookup::InFlight => {
                    let detail = "a request with this key is still being processed; retry after it completes";
                    let mut response = problem(StatusCode::CONFLICT, "key-in-use", "Request in progress", detail);
                    response.headers_mut().insert(RETRY_AFTER, HeaderValue::from_static(RETRY_AFTER_SECONDS));
                    return reject(response, RequestOutcome::InProgress);
                }
                Lookup::Mismatch => {
                    let detail =
                        "this key was already used with a different request (method, path or body); use a new key";
                    let response =
                        problem(StatusCode::UNPROCESSABLE_ENTITY, "key-reused", "Idempotency-Key reused", detail);
                    return reject(response, RequestOutcome::Mismatch);
                }
                Lookup::Replay(stored) => {
                    let mut response = stored_response(&stored);
                    response.headers_mut().insert(REPLAYED_HEADER, HeaderValue::from_static("true"));
                    let payment_id = stored.location.as_deref().and_then(|l| l.rsplit('/').next()).map(str::to_string);
                    return Handled { response, outcome: RequestOutcome::Replayed, key: Some(key.clone()), payment_id };
                }
            }
        }
        _ => None,
    };

    match execute(state, new_payment, claim).await {
        Ok((stored, payment_id)) => Handled {
            response: stored_response(&stored),
            outcome: RequestOutcome::Created,
            key,
            payment_id: Some(payment_id),
        },
        Err(response) => reject(response, RequestOutcome::Invalid),
    }
}

/// Charges. Runs on its own task so a client that hangs up mid-request cannot leave the key
/// claimed forever or a payment half-made: the work completes and its response is stored.
async fn execute(
    state: &Arc<AppState>,
    new_payment: NewPayment,
    claim: Option<(ScopedKey, [u8; 32])>,
) -> Result<(StoredResponse, String), Response<Full<Bytes>>> {
    let task_state = Arc::clone(state);
    let task_claim = claim.clone();
    let task = tokio::spawn(async move {
        tokio::time::sleep(task_state.work).await;
        let payment = task_state.ledger.create(new_payment);
        let stored = StoredResponse {
            status: StatusCode::CREATED.as_u16(),
            content_type: "application/json",
            location: Some(format!("/payments/{}", payment.id)),
            body: Bytes::from(serde_json::to_vec(&payment).unwrap_or_default()),
        };
        if let Some((scoped, print)) = task_claim {
            task_state.keys.complete(scoped, print, stored.clone());
        }
        (stored, payment.id)
    });
    task.await.map_err(|err| {
        if let Some((scoped, _)) = &claim {
            state.keys.release(scoped);
        }
        problem(StatusCode::INTERNAL_SERVER_ERROR, "internal", "Internal error", &format!("the payment failed: {err}"))
    })
}

fn stored_response(stored: &StoredResponse) -> Response<Full<Bytes>> {
    let mut response = Response::new(Full::new(stored.body.clone()));
    *response.status_mut() = StatusCode::from_u16(stored.status).unwrap_or(StatusCode::OK);
    response.headers_mut().insert(CONTENT_TYPE, HeaderValue::from_static(stored.content_type));
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
