//! Edit, re-sign, replay: a delivery from the page, its body or headers edited, signed afresh with
//! its scheme (a fresh timestamp; the listener's secret, which the page never sees, or one typed
//! in), sent to the forward target or another local URL. What came back becomes a new row, linked
//! to the delivery it came from.
use bytes::Bytes;
use http::{HeaderName, HeaderValue, Request};
use serde::Deserialize;

use super::Inspector;
use crate::http::client::ClientOptions;
use crate::http::forwarding_client::ForwardingClient;
use crate::webhook::delivery::{Delivery, DeliveryBody};
use crate::webhook::journal::record::{
    HeaderText, JournalAnswer, JournalBody, JournalForward, JournalRecord, JournalVerdict,
};
use crate::webhook::scheme::{self, SchemeKind, SchemeOptions};
use crate::webhook::secret::Secret;

/// What re-signing needs from the listener: its secret (held here, never sent to the page), its
/// scheme's options, and where it forwards.
#[derive(Default)]
pub(crate) struct Signing {
    pub secret: Option<Secret>,
    pub options: SchemeOptions,
    pub forward_target: Option<String>,
}

/// What the page asks for.
#[derive(Deserialize)]
pub(super) struct ResendRequest {
    /// The row it came from.
    from: u64,
    headers: Vec<(String, String)>,
    body: String,
    /// The scheme to sign with, by name; none: sent as edited, unsigned.
    scheme: Option<String>,
    /// Another secret; empty or absent: the listener's.
    #[serde(default)]
    secret: Option<String>,
    /// Where to send it; empty or absent: the forward target.
    #[serde(default)]
    url: Option<String>,
    event_type: Option<String>,
}

/// Signs and sends what the page asked for; the new row's number, or why it could not be sent.
pub(super) async fn resend(inspector: &Inspector, request: ResendRequest) -> Result<u64, String> {
    let target = request
        .url
        .clone()
        .filter(|url| !url.trim().is_empty())
        .or_else(|| inspector.signing.forward_target.clone())
        .ok_or("give a URL to send to (this listener forwards nowhere)")?;
    let uri = crate::http::url::parse_url(&target).map_err(|err| format!("{err:#}"))?;
    let host = uri.host().unwrap_or_default().trim_matches(['[', ']']);
    let local = host == "localhost" || host.parse::<std::net::IpAddr>().is_ok_and(|ip| ip.is_loopback());
    if !local {
        return Err(format!("{target} is not on this machine: the inspector sends to local URLs only"));
    }
    let mut headers = http::HeaderMap::new();
    for (name, value) in &request.headers {
        let name =
            HeaderName::from_bytes(name.trim().as_bytes()).map_err(|_| format!("`{name}` is not a header name"))?;
        let value =
            HeaderValue::from_str(value.trim()).map_err(|_| format!("the value of {name} is not a header value"))?;
        // What the client sets itself.
        if name != http::header::HOST && name != http::header::CONTENT_LENGTH {
            headers.append(name, value);
        }
    }
    let body = Bytes::from(request.body.clone());
    let mut scheme_name = None;
    if let Some(name) = request.scheme.as_deref().filter(|name| !name.is_empty()) {
        let kind = SchemeKind::from_name(name).ok_or_else(|| format!("no scheme named {name}"))?;
        let secret = match request.secret.as_deref().filter(|secret| !secret.is_empty()) {
            Some(typed) => Secret::new(typed.as_bytes().to_vec()).map_err(|err| format!("{err:#}"))?,
            None => inspector.signing.secret.clone().ok_or("type a secret to sign with (this inspector holds none)")?,
        };
        let scheme = scheme::build(kind, &inspector.signing.options);
        let key = scheme.signing_key(&secret).map_err(|err| format!("{err:#}"))?;
        let delivery = Delivery {
            body: DeliveryBody::Bytes(body.clone()),
            id: scheme
                .delivery_id(&headers)
                .unwrap_or_else(|| crate::webhook::template::fresh_delivery_id_for(scheme.as_ref())),
            timestamp: crate::clock::unix_now(),
            event: request.event_type.clone(),
            url: Some(target.clone()),
        };
        for name in scheme.accepted_signature_headers() {
            headers.remove(name);
        }
        for (name, value) in scheme.sign(&delivery, &key).map_err(|err| format!("{err:#}"))? {
            headers.insert(name, value);
        }
        scheme_name = Some(kind.name().to_string());
    }
    let client = ForwardingClient::new(ClientOptions {
        timeout: std::time::Duration::from_secs(30),
        insecure: false,
        http2: false,
    })
    .map_err(|err| format!("{err:#}"))?;
    let mut outgoing = Request::new(body.clone());
    *outgoing.method_mut() = http::Method::POST;
    *outgoing.uri_mut() = uri;
    *outgoing.headers_mut() = headers.clone();
    let started = std::time::Instant::now();
    let sent = client.send(outgoing).await;
    let latency_ms = u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX);
    let pairs = |headers: &http::HeaderMap| -> Vec<(String, HeaderText)> {
        headers
            .iter()
            .map(|(name, value)| (name.as_str().to_string(), HeaderText::from_bytes(value.as_bytes())))
            .collect()
    };
    let (status, forward) = match &sent {
        Ok(exchange) => (
            exchange.status.as_u16(),
            JournalForward {
                url: target.clone(),
                status: Some(exchange.status.as_u16()),
                attempts: 1,
                error: None,
                delivered: exchange.status.is_success(),
                latency_ms: Some(latency_ms),
                answer: Some(JournalAnswer::capped(pairs(&exchange.headers), &exchange.body)),
            },
        ),
        Err(err) => (
            0,
            JournalForward {
                url: target.clone(),
                status: None,
                attempts: 1,
                error: Some(format!("{err:#}")),
                delivered: false,
                latency_ms: Some(latency_ms),
                answer: None,
            },
        ),
    };
    let record = JournalRecord {
        received_at: chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Millis, true),
        remote: None,
        method: "POST".to_string(),
        path: target,
        headers: pairs(&headers),
        body: JournalBody::from_bytes(&body),
        verdict: JournalVerdict { valid: scheme_name.is_some(), scheme: scheme_name, reason: None, code: None },
        event_id: format!("resent-from-{}", request.from),
        event_type: request.event_type,
        duplicate: false,
        attempt: 1,
        status,
        forward_error: None,
        forward: Some(forward),
        handshake: None,
    };
    Ok(inspector.push_resent(&record, request.from))
}
