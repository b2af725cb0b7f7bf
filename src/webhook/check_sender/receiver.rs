//! The scripted receiver: each request is verified, filed under its event, journaled, shown, and
//! answered as the script says for that attempt of that event. A `hold` answers nothing: it ends
//! when the sender gives up (hyper drops the request when the sender closes the connection) or
//! when the run ends.
use std::convert::Infallible;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::{Duration, Instant};

use bytes::Bytes;
use chrono::Utc;
use http::header::{CONTENT_LENGTH, CONTENT_TYPE, RETRY_AFTER, USER_AGENT};
use http::{HeaderMap, HeaderValue, Method, Request, Response, StatusCode};
use http_body_util::{BodyExt, Full, Limited};
use hyper::body::Incoming;
use tokio::sync::watch;

use super::book::{Arrival, Book, Ending, Filed};
use super::live::Live;
use super::script::Step;
use super::signature::Verifier;
use crate::http::problem::{json_response, problem};
use crate::webhook::journal::record::{HeaderText, JournalBody, JournalRecord, JournalVerdict};
use crate::webhook::journal::writer::JournalWriter;
use crate::webhook::scheme::ReceivedRequest;

/// Bodies larger than this are refused with 413: webhook payloads are kilobytes.
pub(super) const MAX_BODY: usize = 1 << 20;

/// Everything a request needs, built once and shared by every connection.
pub(super) struct Receiver {
    pub path: Option<String>,
    pub verifier: Verifier,
    pub tolerance: Duration,
    pub book: Book,
    pub journal: Option<JournalWriter>,
    pub live: Live,
    /// Turns true when the run ends, which releases every held attempt.
    pub stopped: watch::Receiver<bool>,
}

pub(super) async fn handle(
    receiver: Arc<Receiver>,
    remote: SocketAddr,
    request: Request<Incoming>,
) -> Result<Response<Full<Bytes>>, Infallible> {
    let (parts, body) = request.into_parts();
    if parts.uri.path().starts_with(REDIRECTED_PATH) {
        return Ok(followed_redirect(&receiver, &parts.headers, body).await);
    }
    if let Some(expected) = &receiver.path
        && parts.uri.path() != expected
    {
        let detail = format!("this receiver takes webhooks on {expected} only");
        return Ok(problem(StatusCode::NOT_FOUND, "not-found", "Not found", &detail));
    }
    if parts.method != Method::POST {
        let detail = "webhooks are POSTed; only POST is accepted";
        let mut response = problem(StatusCode::METHOD_NOT_ALLOWED, "method-not-allowed", "Method not allowed", detail);
        response.headers_mut().insert(http::header::ALLOW, HeaderValue::from_static("POST"));
        return Ok(response);
    }
    let too_large = || {
        let detail = format!("the body is larger than the {MAX_BODY} bytes this receiver takes");
        problem(StatusCode::PAYLOAD_TOO_LARGE, "too-large", "Body too large", &detail)
    };
    let declared = parts.headers.get(CONTENT_LENGTH).and_then(|v| v.to_str().ok()).and_then(|v| v.parse::<u64>().ok());
    if declared.is_some_and(|length| length > MAX_BODY as u64) {
        return Ok(too_large());
    }
    let body = match Limited::new(body, MAX_BODY).collect().await {
        Ok(collected) => collected.to_bytes(),
        Err(err) if err.is::<http_body_util::LengthLimitError>() => return Ok(too_large()),
        Err(err) => {
            let detail = format!("the body could not be read: {err}");
            return Ok(problem(StatusCode::BAD_REQUEST, "unreadable-body", "Unreadable body", &detail));
        }
    };
    let received = Utc::now();
    let at = Instant::now();
    // The URL the sender was given is this receiver's, as it arrived: what a scheme that signs the
    // URL (twilio, square, hubspot) signed.
    let path = parts.uri.path_and_query().map_or("/", |path| path.as_str());
    let url = header_text(&parts.headers, http::header::HOST).map(|host| format!("http://{host}{path}"));
    let request =
        ReceivedRequest { method: parts.method.as_str(), url: url.as_deref(), headers: &parts.headers, body: &body };
    let (signature, header_id) = receiver.verifier.check(&request, receiver.tolerance);
    let arrival = Arrival {
        received,
        at,
        id: header_id.or_else(|| body_id(&body)),
        signature,
        content_type: header_text(&parts.headers, CONTENT_TYPE),
        user_agent: header_text(&parts.headers, USER_AGENT),
        body,
    };
    let filed = receiver.book.file(arrival.clone());
    receiver.live.attempt(&arrival, &filed);
    let path = parts.uri.path_and_query().map_or_else(|| "/".to_string(), |path| path.as_str().to_string());
    let journal_error = match &receiver.journal {
        Some(journal) => journal.append_async(&record(&arrival, &filed, remote, &path, &parts.headers)).await.err(),
        None => None,
    };
    if let Some(err) = journal_error {
        // The answer would be a lie about what is on file; the sender should retry.
        let detail = format!("cannot append to the journal: {err}");
        receiver.book.end(filed.at, Ending::Answered(Instant::now()));
        receiver.live.line(&format!("journal FAILED: {detail}"));
        return Ok(problem(StatusCode::INTERNAL_SERVER_ERROR, "journal-failed", "Journal failed", &detail));
    }
    match filed.step {
        Step::Answer { status, retry_after } => {
            let mut response = json_response(
                status,
                &Scripted { scripted: true, event: filed.event_number, attempt: filed.attempt_number },
            );
            if let Some(wait) = retry_after {
                response.headers_mut().insert(RETRY_AFTER, HeaderValue::from(wait.as_secs()));
            }
            if status.is_redirection() {
                // Another path on this receiver, so a sender that follows is seen doing it.
                let location = format!("{REDIRECTED_PATH}{}", parts.uri.path());
                if let Ok(location) = HeaderValue::from_str(&location) {
                    response.headers_mut().insert(http::header::LOCATION, location);
                }
            }
            receiver.book.end(filed.at, Ending::Answered(Instant::now()));
            Ok(response)
        }
        Step::Hold => Ok(hold(receiver, filed).await),
    }
}

/// Where a scripted 3xx points: a path no event is delivered to, so anything arriving there
/// followed the redirect (which Standard Webhooks says a sender must not do).
pub(super) const REDIRECTED_PATH: &str = "/idem-check-sender/redirected";

/// A request that followed a scripted redirect: noted (not filed as an attempt) and answered 200,
/// as the URL a redirect names would answer, which is why following one loses track of the endpoint.
async fn followed_redirect(receiver: &Receiver, headers: &HeaderMap, body: Incoming) -> Response<Full<Bytes>> {
    let body = Limited::new(body, MAX_BODY).collect().await.map(|collected| collected.to_bytes()).unwrap_or_default();
    let (_, header_id) = receiver.verifier.check(&ReceivedRequest::post(headers, &body), receiver.tolerance);
    let id = header_id.or_else(|| body_id(&body));
    receiver.live.line(&format!(
        "a request followed the redirect to {REDIRECTED_PATH}{}",
        id.as_deref().map(|id| format!(" ({})", crate::output::terminal_safe(id))).unwrap_or_default()
    ));
    receiver.book.followed(super::book::Redirected { id, at: Instant::now() });
    json_response(StatusCode::OK, &serde_json::json!({ "redirected": true }))
}

/// The body of a scripted answer, so a person reading the sender's log sees why it got it.
#[derive(serde::Serialize)]
struct Scripted {
    scripted: bool,
    event: usize,
    attempt: u32,
}

/// Answers nothing until the run ends. When the sender gives up first, hyper drops this future
/// with the connection, and the guard records when.
async fn hold(receiver: Arc<Receiver>, filed: Filed) -> Response<Full<Bytes>> {
    let mut guard = HoldGuard { receiver: Arc::clone(&receiver), filed, started: Instant::now(), released: false };
    let mut stopped = receiver.stopped.clone();
    let _ = stopped.wait_for(|stopped| *stopped).await;
    guard.released = true;
    receiver.book.end(filed.at, Ending::Outlasted);
    problem(
        StatusCode::SERVICE_UNAVAILABLE,
        "held",
        "Held on purpose",
        "check-sender held this attempt without an answer until its run ended",
    )
}

struct HoldGuard {
    receiver: Arc<Receiver>,
    filed: Filed,
    started: Instant,
    released: bool,
}

impl Drop for HoldGuard {
    fn drop(&mut self) {
        if !self.released {
            let now = Instant::now();
            self.receiver.book.end(self.filed.at, Ending::GaveUp(now));
            self.receiver.live.gave_up(&self.filed, now - self.started);
        }
    }
}

/// The body's top-level `id`, for schemes that carry none in a header.
fn body_id(body: &[u8]) -> Option<String> {
    #[derive(serde::Deserialize)]
    struct Envelope {
        id: Option<serde_json::Value>,
    }
    // serde reads a struct from an array too (`[1]`); only an object has a top-level id.
    if body.iter().find(|byte| !byte.is_ascii_whitespace()) != Some(&b'{') {
        return None;
    }
    let envelope: Envelope = serde_json::from_slice(body).ok()?;
    match envelope.id? {
        serde_json::Value::String(text) if !text.is_empty() => Some(text),
        serde_json::Value::Number(number) => Some(number.to_string()),
        _ => None,
    }
}

fn header_text(headers: &HeaderMap, name: http::HeaderName) -> Option<String> {
    headers.get(name).map(|value| String::from_utf8_lossy(value.as_bytes()).into_owned())
}

/// The journal line, in `webhook listen --record`'s format so `webhook replay` reads it. A held
/// attempt, which gets no answer, is recorded with status 0.
fn record(arrival: &Arrival, filed: &Filed, remote: SocketAddr, path: &str, headers: &HeaderMap) -> JournalRecord {
    let event_id = arrival
        .id
        .clone()
        .unwrap_or_else(|| format!("sha256:{}", hex::encode(<sha2::Sha256 as sha2::Digest>::digest(&arrival.body))));
    JournalRecord {
        received_at: crate::clock::rfc3339(arrival.received),
        remote: Some(remote.to_string()),
        method: "POST".to_string(),
        path: path.to_string(),
        headers: headers
            .iter()
            .map(|(name, value)| (name.as_str().to_string(), HeaderText::from_bytes(value.as_bytes())))
            .collect(),
        body: JournalBody::from_bytes(&arrival.body),
        verdict: JournalVerdict {
            valid: arrival.signature.matched && arrival.signature.problem.is_none(),
            scheme: arrival.signature.scheme.map(|kind| kind.to_string()),
            reason: arrival.signature.problem.clone(),
            code: None,
        },
        event_id,
        event_type: event_type(headers, &arrival.body),
        duplicate: filed.duplicate,
        attempt: filed.attempt_number,
        status: filed.step.status().map_or(0, |status| status.as_u16()),
        forward_error: None,
        forward: None,
        handshake: None,
    }
}

/// The event type: the provider's header (GitHub, Shopify), else the body's top-level `type`.
fn event_type(headers: &HeaderMap, body: &[u8]) -> Option<String> {
    #[derive(serde::Deserialize)]
    struct Typed {
        #[serde(rename = "type")]
        event_type: Option<serde_json::Value>,
    }
    let from_header = ["x-github-event", "shopify-topic", "x-shopify-topic"]
        .iter()
        .find_map(|name| headers.get(*name))
        .and_then(|value| value.to_str().ok())
        .filter(|value| !value.is_empty())
        .map(str::to_string);
    from_header.or_else(|| match serde_json::from_slice::<Typed>(body).ok()?.event_type? {
        serde_json::Value::String(text) if !text.is_empty() => Some(text),
        _ => None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_come_from_the_top_level_of_json_objects_only() {
        assert_eq!(body_id(br#"{"id":"evt_1","data":{"id":"x"}}"#).as_deref(), Some("evt_1"));
        assert_eq!(body_id(br#"{"id":42}"#).as_deref(), Some("42"));
        for none in [&b"{}"[..], b"[1]", b"{\"id\":\"\"}", b"{\"id\":{}}", b"not json", b""] {
            assert_eq!(body_id(none), None);
        }
    }
}
