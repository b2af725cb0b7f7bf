//! Handshakes: what a provider sends to prove an endpoint is the one it was given, before (or
//! besides) its events. A local receiver that cannot answer them cannot even be registered, so
//! `webhook listen` answers each as its provider documents it:
//!
//! - Slack `url_verification` (signed): the `challenge` back.
//! - Discord PING (`{"type":1}`, signed with Ed25519): `{"type":1}`; a bad signature gets 401, which
//!   Discord's endpoint check also sends on purpose.
//! - Zoom `endpoint.url_validation` (signed): `{plainToken, encryptedToken}`, the token's
//!   HMAC-SHA256 under the secret token, in hex.
//! - Twitch `webhook_callback_verification` (signed): the raw `challenge`, as text/plain.
//! - Meta `GET ?hub.mode=subscribe&hub.verify_token=…&hub.challenge=…`: the challenge when the
//!   token is `--verify-token`, 403 otherwise.
//! - Microsoft Graph `POST ?validationToken=…`: the token, decoded, as text/plain.
//! - Azure Event Grid `aeg-event-type: SubscriptionValidation`: `{"validationResponse": code}`.
//! - CloudEvents webhook `OPTIONS` with `WebHook-Request-Origin`: `WebHook-Allowed-Origin` (and
//!   `WebHook-Allowed-Rate: *`).
//! - AWS SNS `SubscriptionConfirmation` (signed): acknowledged, its `SubscribeURL` shown; the
//!   subscription is confirmed by whoever visits that URL, which the listener never does itself.
//! - Dropbox `GET ?challenge=…`: the challenge, as text/plain with `X-Content-Type-Options: nosniff`.
//! - X (Twitter) CRC `GET ?crc_token=…`: `{"response_token": "sha256=" + base64(HMAC-SHA256)}`
//!   under the consumer secret.
//!
//! A signed handshake is answered only when its signature holds: answering a forged Slack or
//! Twitch challenge would confirm an endpoint for whoever sent it.
use base64::Engine;
use bytes::Bytes;
use http::header::{ALLOW, CONTENT_TYPE};
use http::request::Parts;
use http::{HeaderValue, Method, Response, StatusCode};
use http_body_util::Full;
use serde_json::{Value, json};

use crate::webhook::scheme::SigningKey;
use crate::webhook::scheme::mac::MacAlgorithm;
use crate::webhook::secret::Secret;

/// What the handshakes need besides the request: `--verify-token` (Meta) and the listener's
/// secret (Zoom's secret token, X's consumer secret).
#[derive(Debug, Clone, Default)]
pub(crate) struct HandshakeConfig {
    pub verify_token: Option<String>,
    pub secret: Option<Secret>,
    /// `--confirm-subscriptions`: the fetcher that visits an authentic SNS SubscriptionConfirmation's
    /// SubscribeURL, on SNS's host only (and through `--trust-ca`/`--connect-to`).
    pub sns_confirmer: Option<std::sync::Arc<crate::webhook::crypto::cert_url::CertFetcher>>,
}

/// A handshake answered, for the live line and the journal.
pub(super) struct Answered {
    /// `slack-url-verification`, `meta-subscribe`, …
    pub name: &'static str,
    pub response: Response<Full<Bytes>>,
    /// What was answered, or why it was refused, in a few words.
    pub note: String,
    /// A URL to visit before the answer is final (an SNS SubscribeURL, with `--confirm-subscriptions`).
    pub visit: Option<String>,
}

impl Answered {
    fn new(name: &'static str, response: Response<Full<Bytes>>, note: impl Into<String>) -> Answered {
        Answered { name, response, note: note.into(), visit: None }
    }

    /// Visits the SubscribeURL when there is one to visit, and says in the note what came of it.
    pub(super) async fn confirm(&mut self, config: &HandshakeConfig) {
        let (Some(url), Some(confirmer)) = (self.visit.take(), &config.sns_confirmer) else { return };
        self.note = match confirmer.visit(&url).await {
            Ok(status) if status.is_success() => {
                format!("subscription confirmed: GET SubscribeURL {url} answered {status}")
            }
            Ok(status) => format!("subscription not confirmed: GET SubscribeURL {url} answered {status}"),
            Err(err) => format!("subscription not confirmed: {err}"),
        };
    }
}

/// The handshakes recognised before the body is read: the ones on GET and OPTIONS, and Microsoft
/// Graph's, which names itself in the query.
pub(super) fn before_body(config: &HandshakeConfig, parts: &Parts) -> Option<Answered> {
    let query = query_pairs(parts);
    let param = |name: &str| query.iter().find(|(key, _)| key == name).map(|(_, value)| value.as_str());
    if parts.method == Method::OPTIONS {
        let origin = parts.headers.get("webhook-request-origin")?.to_str().ok()?.to_string();
        let mut response = empty(StatusCode::OK);
        let headers = response.headers_mut();
        headers.insert("webhook-allowed-origin", HeaderValue::from_str(&origin).ok()?);
        headers.insert("webhook-allowed-rate", HeaderValue::from_static("*"));
        headers.insert(ALLOW, HeaderValue::from_static("POST, OPTIONS"));
        return Some(Answered::new("cloudevents-abuse-protection", response, format!("allowed origin {origin}")));
    }
    if parts.method == Method::POST
        && let Some(token) = param("validationToken")
    {
        return Some(Answered::new("graph-validation", text(StatusCode::OK, token), "validationToken echoed"));
    }
    if parts.method != Method::GET {
        return None;
    }
    if param("hub.mode") == Some("subscribe") {
        return Some(meta_subscribe(config, param("hub.verify_token"), param("hub.challenge")));
    }
    if let Some(challenge) = param("challenge") {
        let mut response = text(StatusCode::OK, challenge);
        response.headers_mut().insert("x-content-type-options", HeaderValue::from_static("nosniff"));
        return Some(Answered::new("dropbox-challenge", response, "challenge echoed"));
    }
    if let Some(token) = param("crc_token") {
        let Some(secret) = &config.secret else {
            let reason = "an X CRC check needs the consumer secret: give it with --secret";
            return Some(Answered::new("x-crc", text(StatusCode::FORBIDDEN, reason), reason));
        };
        let digest = hmac_sha256(secret.expose(), token.as_bytes());
        let answer =
            json!({ "response_token": format!("sha256={}", base64::engine::general_purpose::STANDARD.encode(digest)) });
        return Some(Answered::new("x-crc", json_answer(&answer), "response_token sent"));
    }
    None
}

/// The handshakes that come as a POST body, once the signature was judged (`authentic`).
pub(super) fn after_signature(
    config: &HandshakeConfig,
    parts: &Parts,
    body: &[u8],
    authentic: bool,
) -> Option<Answered> {
    let header = |name: &str| parts.headers.get(name).and_then(|value| value.to_str().ok());
    if header("twitch-eventsub-message-type") == Some("webhook_callback_verification") {
        let challenge = json_body(body).and_then(|v| v.get("challenge")?.as_str().map(str::to_string));
        return Some(signed("twitch-callback-verification", authentic, || match challenge {
            Some(challenge) => {
                Answered::new("twitch-callback-verification", text(StatusCode::OK, &challenge), "challenge echoed")
            }
            None => {
                refused("twitch-callback-verification", StatusCode::BAD_REQUEST, "the verification has no challenge")
            }
        }));
    }
    if header("aeg-event-type").is_some_and(|kind| kind.eq_ignore_ascii_case("SubscriptionValidation")) {
        let code = json_body(body).and_then(|v| {
            let first = if v.is_array() { v.get(0)? } else { &v };
            first.pointer("/data/validationCode")?.as_str().map(str::to_string)
        });
        return Some(match code {
            Some(code) => Answered::new(
                "event-grid-validation",
                json_answer(&json!({ "validationResponse": code })),
                "validationCode answered",
            ),
            None => refused(
                "event-grid-validation",
                StatusCode::BAD_REQUEST,
                "the validation event has no data.validationCode",
            ),
        });
    }
    if header("x-amz-sns-message-type") == Some("SubscriptionConfirmation") {
        let url = json_body(body).and_then(|v| v.get("SubscribeURL")?.as_str().map(str::to_string));
        return Some(signed("sns-subscription-confirmation", authentic, || {
            let note = match &url {
                Some(_) if config.sns_confirmer.is_some() => "confirming".to_string(),
                Some(url) => format!(
                    "not confirmed by the listener: visit SubscribeURL {url} to confirm (or listen with \
                     --confirm-subscriptions)"
                ),
                None => "the confirmation has no SubscribeURL".to_string(),
            };
            let mut answered = Answered::new("sns-subscription-confirmation", empty(StatusCode::OK), note);
            answered.visit = url.filter(|_| config.sns_confirmer.is_some());
            answered
        }));
    }
    let value = json_body(body)?;
    if value.get("type").and_then(Value::as_str) == Some("url_verification") {
        let challenge = value.get("challenge").and_then(Value::as_str).map(str::to_string);
        return Some(signed("slack-url-verification", authentic, || match challenge {
            Some(challenge) => Answered::new(
                "slack-url-verification",
                json_answer(&json!({ "challenge": challenge })),
                "challenge echoed",
            ),
            None => refused("slack-url-verification", StatusCode::BAD_REQUEST, "the url_verification has no challenge"),
        }));
    }
    if value.get("type").and_then(Value::as_u64) == Some(1) && parts.headers.contains_key("x-signature-ed25519") {
        return Some(signed("discord-ping", authentic, || {
            Answered::new("discord-ping", json_answer(&json!({ "type": 1 })), "PONG")
        }));
    }
    if value.get("event").and_then(Value::as_str) == Some("endpoint.url_validation") {
        let plain = value.pointer("/payload/plainToken").and_then(Value::as_str).map(str::to_string);
        return Some(signed("zoom-url-validation", authentic, || zoom_validation(config, plain)));
    }
    None
}

fn meta_subscribe(config: &HandshakeConfig, token: Option<&str>, challenge: Option<&str>) -> Answered {
    const NAME: &str = "meta-subscribe";
    let Some(expected) = &config.verify_token else {
        return refused(
            NAME,
            StatusCode::FORBIDDEN,
            "a Meta subscription check needs --verify-token, the token set in the app dashboard",
        );
    };
    let matches =
        token.is_some_and(|token| bool::from(subtle::ConstantTimeEq::ct_eq(token.as_bytes(), expected.as_bytes())));
    match (matches, challenge) {
        (true, Some(challenge)) => Answered::new(NAME, text(StatusCode::OK, challenge), "hub.challenge echoed"),
        (true, None) => refused(NAME, StatusCode::BAD_REQUEST, "the subscription check has no hub.challenge"),
        (false, _) => refused(NAME, StatusCode::FORBIDDEN, "hub.verify_token is not --verify-token"),
    }
}

fn zoom_validation(config: &HandshakeConfig, plain: Option<String>) -> Answered {
    const NAME: &str = "zoom-url-validation";
    let Some(plain) = plain else {
        return refused(NAME, StatusCode::BAD_REQUEST, "the validation has no payload.plainToken");
    };
    let Some(secret) = &config.secret else {
        return refused(
            NAME,
            StatusCode::FORBIDDEN,
            "a Zoom URL validation needs the secret token: give it with --secret",
        );
    };
    let encrypted = hex::encode(hmac_sha256(secret.expose(), plain.as_bytes()));
    Answered::new(
        NAME,
        json_answer(&json!({ "plainToken": plain, "encryptedToken": encrypted })),
        "plainToken encrypted",
    )
}

/// A signed handshake: answered by `answer` when the signature holds, 401 otherwise.
fn signed(name: &'static str, authentic: bool, answer: impl FnOnce() -> Answered) -> Answered {
    if authentic {
        answer()
    } else {
        refused(name, StatusCode::UNAUTHORIZED, "the signature does not hold, so the handshake is not answered")
    }
}

fn refused(name: &'static str, status: StatusCode, reason: &str) -> Answered {
    Answered::new(name, text(status, reason), reason)
}

/// The schemes' own HMAC (`SigningKey`), over one message.
fn hmac_sha256(key: &[u8], message: &[u8]) -> Vec<u8> {
    SigningKey::from_bytes(key).digest(MacAlgorithm::HmacSha256, &[message])
}

fn json_body(body: &[u8]) -> Option<Value> {
    serde_json::from_slice(body).ok()
}

fn query_pairs(parts: &Parts) -> Vec<(String, String)> {
    let Some(query) = parts.uri.query() else { return Vec::new() };
    query
        .split('&')
        .filter(|pair| !pair.is_empty())
        .map(|pair| {
            let (name, value) = pair.split_once('=').unwrap_or((pair, ""));
            (decode(name), decode(value))
        })
        .collect()
}

/// A query component, `+` as a space (form encoding, which these providers use).
fn decode(text: &str) -> String {
    let spaced = text.replace('+', " ");
    percent_encoding::percent_decode_str(&spaced).decode_utf8_lossy().into_owned()
}

fn text(status: StatusCode, body: &str) -> Response<Full<Bytes>> {
    let mut response = Response::new(Full::new(Bytes::copy_from_slice(body.as_bytes())));
    *response.status_mut() = status;
    response.headers_mut().insert(CONTENT_TYPE, HeaderValue::from_static("text/plain; charset=utf-8"));
    response
}

fn json_answer(value: &Value) -> Response<Full<Bytes>> {
    let mut response = Response::new(Full::new(Bytes::from(value.to_string())));
    response.headers_mut().insert(CONTENT_TYPE, HeaderValue::from_static("application/json"));
    response
}

fn empty(status: StatusCode) -> Response<Full<Bytes>> {
    let mut response = Response::new(Full::new(Bytes::new()));
    *response.status_mut() = status;
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parts(method: Method, uri: &str, headers: &[(&str, &str)]) -> Parts {
        let mut builder = http::Request::builder().method(method).uri(uri);
        for (name, value) in headers {
            builder = builder.header(*name, *value);
        }
        builder.body(()).unwrap().into_parts().0
    }

    fn body_of(answered: &Answered) -> String {
        use http_body_util::BodyExt;
        let runtime = tokio::runtime::Builder::new_current_thread().build().unwrap();
        let body = runtime.block_on(answered.response.body().clone().collect()).unwrap();
        String::from_utf8(body.to_bytes().to_vec()).unwrap()
    }

    #[test]
    fn zoom_encrypts_the_plain_token_with_the_secret_token_as_its_docs_show() {
        // Zoom's documentation: HMAC-SHA256 of plainToken under the webhook secret token, hex.
        let config =
            HandshakeConfig { secret: Some(Secret::new(b"secret-token".to_vec()).unwrap()), ..Default::default() };
        let body = br#"{"payload":{"plainToken":"qgg8vlvZRS6UYooatFL8Aw"},"event_ts":1654503849680,"event":"endpoint.url_validation"}"#;
        let answered = after_signature(&config, &parts(Method::POST, "/", &[]), body, true).unwrap();
        let value: Value = serde_json::from_str(&body_of(&answered)).unwrap();
        assert_eq!(value["plainToken"], "qgg8vlvZRS6UYooatFL8Aw");
        assert_eq!(value["encryptedToken"], hex::encode(hmac_sha256(b"secret-token", b"qgg8vlvZRS6UYooatFL8Aw")));
        let forged = after_signature(&config, &parts(Method::POST, "/", &[]), body, false).unwrap();
        assert_eq!(forged.response.status(), StatusCode::UNAUTHORIZED);
    }

    #[test]
    fn meta_answers_the_challenge_only_for_the_verify_token() {
        let config = HandshakeConfig { verify_token: Some("tok".into()), ..Default::default() };
        let good = parts(Method::GET, "/?hub.mode=subscribe&hub.verify_token=tok&hub.challenge=1158201444", &[]);
        let answered = before_body(&config, &good).unwrap();
        assert_eq!((answered.response.status(), body_of(&answered).as_str()), (StatusCode::OK, "1158201444"));
        let bad = parts(Method::GET, "/?hub.mode=subscribe&hub.verify_token=nope&hub.challenge=1", &[]);
        assert_eq!(before_body(&config, &bad).unwrap().response.status(), StatusCode::FORBIDDEN);
        let none = HandshakeConfig::default();
        assert_eq!(before_body(&none, &good).unwrap().response.status(), StatusCode::FORBIDDEN);
    }

    #[test]
    fn x_crc_is_the_base64_hmac_of_the_token_under_the_consumer_secret() {
        let config = HandshakeConfig { secret: Some(Secret::new(b"consumer".to_vec()).unwrap()), ..Default::default() };
        let answered = before_body(&config, &parts(Method::GET, "/?crc_token=abc%2B1", &[])).unwrap();
        let expected = base64::engine::general_purpose::STANDARD.encode(hmac_sha256(b"consumer", b"abc+1"));
        assert_eq!(body_of(&answered), format!("{{\"response_token\":\"sha256={expected}\"}}"));
    }

    #[test]
    fn an_ordinary_delivery_is_no_handshake() {
        let config = HandshakeConfig::default();
        assert!(before_body(&config, &parts(Method::POST, "/hooks?x=1", &[])).is_none());
        assert!(
            after_signature(&config, &parts(Method::POST, "/", &[]), br#"{"type":"invoice.paid"}"#, true).is_none()
        );
        assert!(after_signature(&config, &parts(Method::POST, "/", &[]), br#"{"type":1}"#, true).is_none());
    }
}
