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
use std::sync::Arc;

use anyhow::Context;
use bytes::Bytes;
use http::{HeaderValue, Method, Request, Uri};
use serde_json::{Value, json};

use crate::http::client::{Exchange, HttpClient};
use crate::ids::fresh_id;
use crate::webhook::deliver::engine::Message;
use crate::webhook::delivery::unix_now;
use crate::webhook::scheme::mac::MacAlgorithm;
use crate::webhook::scheme::{Scheme, SigningKey};

/// The providers `--handshake` knows, by scheme name.
pub(crate) const PROVIDERS: &str = "slack, discord, zoom, twitch, meta (with --verify-token), dropbox";

/// What a receiver must answer.
enum Expected {
    /// The challenge as the body's `challenge` member, or as the whole body (Slack).
    Challenge(String),
    /// Exactly the challenge as the body (Twitch, Meta, Dropbox).
    RawChallenge(String),
    /// Discord's PONG.
    Pong,
    /// Zoom's token and its HMAC.
    ZoomToken { plain: String, encrypted: String },
}

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
    /// `meta-subscribe`, `dropbox-challenge`.
    pub name: &'static str,
    pub status: u16,
    /// What the provider would make of the answer.
    pub verdict: String,
}

/// Performs the handshake of `scheme`'s provider against `url`. `Ok(report)` when the receiver
/// answered as the provider requires; an error (exit 2) naming what it answered otherwise, or when
/// the provider has no handshake.
pub(crate) async fn perform(
    client: &HttpClient,
    url: &Uri,
    scheme: &Arc<dyn Scheme>,
    key: &SigningKey,
    verify_token: Option<&str>,
) -> anyhow::Result<HandshakeReport> {
    let handshake = build(url, scheme, key, verify_token)?;
    let name = handshake.name;
    let exchange: Exchange =
        client.send(handshake.request).await.with_context(|| format!("the {name} handshake was not answered"))?;
    let status = exchange.status.as_u16();
    let (held, verdict) = if exchange.status.is_success() {
        judge(&handshake.expected, &exchange.body)
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
            &fresh_id("msg_"),
            Arc::clone(scheme),
            key.clone(),
        );
        for (name, value) in headers {
            message.headers.insert(*name, HeaderValue::from_static(value));
        }
        message.request(url, unix_now())
    };
    let get = |query: String| -> anyhow::Result<Request<Bytes>> {
        let separator = if url.query().is_some() { '&' } else { '?' };
        let uri: Uri = format!("{url}{separator}{query}").parse().context("the handshake's URL")?;
        Request::builder().method(Method::GET).uri(uri).body(Bytes::new()).context("the handshake's request")
    };
    Ok(match scheme.kind().name() {
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
        other => anyhow::bail!(
            "--handshake: --scheme {other} has no endpoint handshake; the providers with one are {PROVIDERS}"
        ),
    })
}

/// Whether `body` is the answer `expected` names, and what the provider would say of it.
fn judge(expected: &Expected, body: &[u8]) -> (bool, String) {
    let text = String::from_utf8_lossy(body);
    let json: Option<Value> = serde_json::from_slice(body).ok();
    let got = |key: &str| json.as_ref().and_then(|v| v.get(key)?.as_str().map(str::to_string));
    let shown = || crate::output::terminal_safe(&crate::text::ellipsis(&text, 120)).to_string();
    match expected {
        Expected::Challenge(challenge) => {
            let held = text.trim() == challenge || got("challenge").as_deref() == Some(challenge.as_str());
            (
                held,
                if held {
                    "the challenge came back".into()
                } else {
                    format!("expected the challenge {challenge} back, got {}", shown())
                },
            )
        }
        Expected::RawChallenge(challenge) => {
            let held = text == challenge.as_str();
            let why = if held {
                "the challenge came back as the body".into()
            } else {
                format!("expected exactly {challenge} as the body, got {}", shown())
            };
            (held, why)
        }
        Expected::Pong => {
            let held = json.as_ref().and_then(|v| v.get("type")?.as_u64()) == Some(1);
            (
                held,
                if held {
                    "PONG ({\"type\":1}) came back".into()
                } else {
                    format!("expected {{\"type\":1}}, got {}", shown())
                },
            )
        }
        Expected::ZoomToken { plain, encrypted } => {
            let held = got("plainToken").as_deref() == Some(plain.as_str())
                && got("encryptedToken").as_deref() == Some(encrypted.as_str());
            let why = if held {
                "plainToken and its encryptedToken (HMAC-SHA256 under the secret token) came back".into()
            } else {
                format!("expected plainToken {plain} with encryptedToken {encrypted}, got {}", shown())
            };
            (held, why)
        }
    }
}
