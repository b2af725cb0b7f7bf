//! `webhook send --handshake`: before the first event, the provider's endpoint handshake, judged as
//! the provider judges the answer (a provider registers, or keeps, only an endpoint that answers
//! it as documented); a receiver that fails it gets no events, as from the provider, and the
//! command exits 2 saying why. `webhook listen` answers every one of these (listen/handshake.rs is
//! the receiving side).
//!
//! - Slack `url_verification` (signed POST): the `challenge` back, as JSON or plain text.
//! - Discord PING (signed POST, `{"type":1}`): PONG, `{"type":1}`.
//! - Zoom `endpoint.url_validation` (signed POST): `{plainToken, encryptedToken}`, the token's
//!   HMAC-SHA256 under the secret token, hex.
//! - Twitch `webhook_callback_verification` (signed POST): exactly the challenge as the body.
//! - Meta `GET ?hub.mode=subscribe&hub.verify_token=…&hub.challenge=…` (`--verify-token`): the
//!   challenge as the body.
//! - Dropbox `GET ?challenge=…`: the challenge as the body.
//!
//! And, named with `--handshake=KIND` since no signing scheme stands for them (their deliveries are
//! authenticated otherwise, or the receiver's own secret answers them):
//! - Microsoft Graph `POST ?validationToken=…`: the token, URL-decoded, as a `text/plain` body
//!   within 10 seconds (learn.microsoft.com, "Receive change notifications through webhooks").
//! - Azure Event Grid `SubscriptionValidation` (`aeg-event-type`): `{"validationResponse": code}`
//!   (learn.microsoft.com, "Endpoint validation with Event Grid events").
//! - CloudEvents webhook abuse protection, `OPTIONS` with `WebHook-Request-Origin`: a 2xx with
//!   `WebHook-Allowed-Origin` naming that origin or `*` (CloudEvents "HTTP 1.1 Web Hooks" §4).
//! - X (Twitter) CRC `GET ?crc_token=…`: `{"response_token": "sha256=" + base64(HMAC-SHA256 of the
//!   token under the consumer secret)}`, the secret being `--secret` (developer.x.com, "Securing
//!   webhooks").
use std::sync::Arc;
use std::time::Duration;

use anyhow::Context;
use bytes::Bytes;
use http::{HeaderValue, Method, Request, Uri};
use serde_json::{Value, json};

use crate::http::client::{Exchange, HttpClient};
use crate::ids::fresh_id;
use crate::webhook::deliver::engine::Message;
use crate::webhook::delivery::unix_now;
use crate::webhook::handshake_answer::{Expected, judge};
use crate::webhook::scheme::mac::MacAlgorithm;
use crate::webhook::scheme::{Scheme, SigningKey};

/// The providers `--handshake` knows, by scheme name.
pub(crate) const PROVIDERS: &str = "slack, discord, zoom, twitch, meta (with --verify-token), dropbox";

/// What `--handshake[=KIND]` takes: `provider` (the scheme's provider's, the default) or one by name.
pub(crate) const KINDS: &[&str] = &[
    "provider",
    "slack",
    "discord",
    "zoom",
    "twitch",
    "meta",
    "dropbox",
    "graph",
    "event-grid",
    "cloudevents",
    "x-crc",
];

/// Microsoft Graph drops a subscription whose validation is not answered within this.
const GRAPH_DEADLINE: Duration = Duration::from_secs(10);

/// One handshake: its name, the request, and the answer it needs.
struct Handshake {
    name: &'static str,
    request: Request<Bytes>,
    expected: Expected,
}

/// The handshake performed and what came back, for the report.
#[derive(Debug, Clone, serde::Serialize, schemars::JsonSchema)]
pub(crate) struct HandshakeReport {
    /// `slack-url-verification`, `discord-ping`, `zoom-url-validation`, `twitch-callback-verification`,
    /// `meta-subscribe`, `dropbox-challenge`, `graph-validation`, `event-grid-validation`,
    /// `cloudevents-abuse-protection`, `x-crc`.
    pub name: &'static str,
    pub status: u16,
    /// What the provider would make of the answer.
    pub verdict: String,
}

/// Performs the handshake `kind` names (one of [`KINDS`]; `provider` is `scheme`'s provider's)
/// against `url`. `Ok(report)` when the receiver answered as the provider requires; an error (exit
/// 2) naming what it answered otherwise, or when the provider has no handshake.
pub(crate) async fn perform(
    client: &HttpClient,
    url: &Uri,
    kind: &str,
    scheme: &Arc<dyn Scheme>,
    key: &SigningKey,
    verify_token: Option<&str>,
) -> anyhow::Result<HandshakeReport> {
    let handshake = build(url, kind, scheme, key, verify_token)?;
    let name = handshake.name;
    let exchange: Exchange =
        client.send(handshake.request).await.with_context(|| format!("the {name} handshake was not answered"))?;
    let status = exchange.status.as_u16();
    let (held, verdict) = if exchange.status.is_success() {
        judge(&handshake.expected, &exchange)
    } else {
        (false, format!("it answered {status}; the provider needs a 2xx with the answer"))
    };
    if !held {
        anyhow::bail!(
            "the receiver failed the {name} handshake: {verdict}; the provider would not register this endpoint, so no \
             event was sent"
        );
    }
    Ok(HandshakeReport { name, status, verdict })
}

fn build(
    url: &Uri,
    kind: &str,
    scheme: &Arc<dyn Scheme>,
    key: &SigningKey,
    verify_token: Option<&str>,
) -> anyhow::Result<Handshake> {
    let challenge = fresh_id("chl_");
    let signed = |body: Value, headers: &[(&'static str, &'static str)]| -> anyhow::Result<Request<Bytes>> {
        let mut message = Message::signed(
            Bytes::from(body.to_string()),
            "handshake",
            None,
            &crate::webhook::template::fresh_delivery_id_for(scheme.as_ref()),
            Arc::clone(scheme),
            key.clone(),
        );
        for (name, value) in headers {
            message.headers.insert(*name, HeaderValue::from_static(value));
        }
        message.request(url, unix_now())
    };
    let unsigned = |method: Method, query: Option<String>| -> anyhow::Result<http::request::Builder> {
        let uri: Uri = match query {
            Some(query) => {
                let separator = if url.query().is_some() { '&' } else { '?' };
                format!("{url}{separator}{query}").parse().context("the handshake's URL")?
            }
            None => url.clone(),
        };
        Ok(Request::builder().method(method).uri(uri))
    };
    let get = |query: String| -> anyhow::Result<Request<Bytes>> {
        unsigned(Method::GET, Some(query))?.body(Bytes::new()).context("the handshake's request")
    };
    let provider = scheme.kind().name();
    let kind = if kind == "provider" { provider } else { kind };
    Ok(match kind {
        "slack" => Handshake {
            name: "slack-url-verification",
            request: signed(
                json!({ "token": "Jhj5dZrVaK7ZwHHjRyZWjbDl", "challenge": challenge, "type": "url_verification" }),
                &[],
            )?,
            expected: Expected::Challenge(challenge),
        },
        "discord" => Handshake {
            name: "discord-ping",
            request: signed(json!({ "type": 1, "id": fresh_id(""), "application_id": "11235813" }), &[])?,
            expected: Expected::Pong,
        },
        "zoom" => {
            let encrypted = hex::encode(key.digest(MacAlgorithm::HmacSha256, &[challenge.as_bytes()]));
            Handshake {
                name: "zoom-url-validation",
                request: signed(
                    json!({ "payload": { "plainToken": challenge }, "event_ts": unix_now() * 1000, "event": "endpoint.url_validation" }),
                    &[],
                )?,
                expected: Expected::ZoomToken { plain: challenge, encrypted },
            }
        }
        "twitch" => Handshake {
            name: "twitch-callback-verification",
            request: signed(
                json!({
                    "challenge": challenge,
                    "subscription": { "id": uuid::Uuid::new_v4().to_string(), "status": "webhook_callback_verification_pending", "type": "channel.follow", "version": "2" },
                }),
                &[("twitch-eventsub-message-type", "webhook_callback_verification")],
            )?,
            expected: Expected::RawChallenge(challenge),
        },
        "meta" => {
            let Some(token) = verify_token else {
                anyhow::bail!(
                    "--handshake with --scheme meta needs --verify-token, the token Meta sends with its challenge"
                );
            };
            // Meta's challenge is a number.
            let challenge = u32::from_le_bytes(rand::random::<[u8; 4]>()).to_string();
            let query = format!(
                "hub.mode=subscribe&hub.verify_token={}&hub.challenge={challenge}",
                crate::http::url::percent_encode_component(token)
            );
            Handshake { name: "meta-subscribe", request: get(query)?, expected: Expected::RawChallenge(challenge) }
        }
        "dropbox" => Handshake {
            name: "dropbox-challenge",
            request: get(format!("challenge={challenge}"))?,
            expected: Expected::RawChallenge(challenge),
        },
        "graph" => {
            // Graph's token is text with spaces and colons, URL-encoded in the query.
            let token = format!("Validation: Testing client application reachability for subscription {challenge}");
            let query = format!("validationToken={}", crate::http::url::percent_encode_component(&token));
            Handshake {
                name: "graph-validation",
                request: unsigned(Method::POST, Some(query))?
                    .header(http::header::CONTENT_TYPE, "text/plain; charset=utf-8")
                    .body(Bytes::new())
                    .context("the handshake's request")?,
                expected: Expected::PlainTextInTime { token, deadline: GRAPH_DEADLINE },
            }
        }
        "event-grid" => {
            let code = uuid::Uuid::new_v4().to_string().to_uppercase();
            let event = json!([{
                "id": uuid::Uuid::new_v4().to_string(),
                "topic": "/subscriptions/00000000-0000-0000-0000-000000000000/resourceGroups/idem/providers/Microsoft.EventGrid/topics/idem",
                "subject": "",
                "data": { "validationCode": code },
                "eventType": "Microsoft.EventGrid.SubscriptionValidationEvent",
                "eventTime": crate::clock::rfc3339(chrono::Utc::now()),
                "metadataVersion": "1",
                "dataVersion": "2"
            }]);
            Handshake {
                name: "event-grid-validation",
                request: unsigned(Method::POST, None)?
                    .header(http::header::CONTENT_TYPE, "application/json")
                    .header("aeg-event-type", "SubscriptionValidation")
                    .body(Bytes::from(event.to_string()))
                    .context("the handshake's request")?,
                expected: Expected::Member { name: "validationResponse", value: code },
            }
        }
        "cloudevents" => {
            let origin = "eventemitter.example.com".to_string();
            Handshake {
                name: "cloudevents-abuse-protection",
                request: unsigned(Method::OPTIONS, None)?
                    .header("webhook-request-origin", origin.as_str())
                    .header("webhook-request-rate", "120")
                    .body(Bytes::new())
                    .context("the handshake's request")?,
                expected: Expected::AllowedOrigin(origin),
            }
        }
        "x-crc" => {
            let answer = base64::Engine::encode(
                &base64::engine::general_purpose::STANDARD,
                key.digest(MacAlgorithm::HmacSha256, &[challenge.as_bytes()]),
            );
            Handshake {
                name: "x-crc",
                request: get(format!("crc_token={challenge}"))?,
                expected: Expected::Member { name: "response_token", value: format!("sha256={answer}") },
            }
        }
        other => anyhow::bail!(
            "--handshake: --scheme {other} has no endpoint handshake; the providers with one are {PROVIDERS}, and \
             --handshake=graph, event-grid, cloudevents or x-crc names one without a scheme"
        ),
    })
}
