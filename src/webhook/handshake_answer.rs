//! Whether a receiver answered a provider's endpoint handshake as the provider documents it, and
//! what the provider would say of the answer: the one judge of `webhook send --handshake` and of
//! `webhook check`'s `handshake-answered` (`webhook listen`'s answers are listen/handshake.rs).
use std::time::Duration;

use serde_json::Value;

use crate::http::client::Exchange;

/// What a receiver must answer a handshake with.
pub(crate) enum Expected {
    /// The challenge as the body's `challenge` member, or as the whole body (Slack).
    Challenge(String),
    /// Exactly the challenge as the body, nothing else (Twitch, Meta, Dropbox).
    RawChallenge(String),
    /// Discord's PONG, `{"type":1}`.
    Pong,
    /// Zoom's `{plainToken, encryptedToken}`, the token's HMAC-SHA256 under the secret, hex.
    ZoomToken { plain: String, encrypted: String },
    /// Exactly the token as a `text/plain` body, in time (Microsoft Graph).
    PlainTextInTime { token: String, deadline: Duration },
    /// One string member of a JSON body (Event Grid's `validationResponse`, X's `response_token`).
    Member { name: &'static str, value: String },
    /// `WebHook-Allowed-Origin` naming the origin, or `*` (CloudEvents).
    AllowedOrigin(String),
}

/// Whether a 2xx `exchange` is the answer `expected` names, and what the provider would say of
/// it. The receiver's body is quoted shortened and terminal-safe: it is the receiver's text.
pub(crate) fn judge(expected: &Expected, exchange: &Exchange) -> (bool, String) {
    let body = &exchange.body[..];
    let text = String::from_utf8_lossy(body);
    let json: Option<Value> = serde_json::from_slice(body).ok();
    let got = |key: &str| json.as_ref().and_then(|v| v.get(key)?.as_str().map(str::to_string));
    let shown = |limit: usize| crate::output::terminal_safe(&crate::text::ellipsis(&text, limit)).to_string();
    match expected {
        Expected::Challenge(challenge) => {
            let held = text.trim() == challenge || got("challenge").as_deref() == Some(challenge.as_str());
            let why = if held {
                "the challenge came back".into()
            } else {
                format!("expected the challenge {challenge} back, got {}", shown(120))
            };
            (held, why)
        }
        Expected::RawChallenge(challenge) => {
            let held = text == challenge.as_str();
            let why = if held {
                "the challenge came back as the body".into()
            } else {
                format!("expected exactly the challenge {challenge} as the body, got {}", shown(120))
            };
            (held, why)
        }
        Expected::Pong => {
            let held = json.as_ref().and_then(|v| v.get("type")?.as_u64()) == Some(1);
            let why = if held {
                "PONG ({\"type\":1}) came back".into()
            } else {
                format!("expected {{\"type\":1}}, got {}", shown(120))
            };
            (held, why)
        }
        Expected::ZoomToken { plain, encrypted } => {
            let held = got("plainToken").as_deref() == Some(plain.as_str())
                && got("encryptedToken").as_deref() == Some(encrypted.as_str());
            let why = if held {
                "plainToken and its encryptedToken (HMAC-SHA256 under the secret token) came back".into()
            } else {
                format!(
                    "expected {{\"plainToken\":\"{plain}\",\"encryptedToken\":\"{encrypted}\"}}, got {}",
                    shown(160)
                )
            };
            (held, why)
        }
        Expected::PlainTextInTime { token, deadline } => {
            let content_type =
                exchange.headers.get(http::header::CONTENT_TYPE).and_then(|v| v.to_str().ok()).unwrap_or("none");
            let why = if text != token.as_str() {
                format!("expected exactly the decoded validationToken as the body, got {}", shown(120))
            } else if !content_type.to_ascii_lowercase().starts_with("text/plain") {
                format!("the token came back as {content_type}; Graph needs text/plain")
            } else if exchange.latency > *deadline {
                format!(
                    "the token came back after {}; Graph needs it within {}",
                    crate::units::format_duration(exchange.latency),
                    crate::units::format_duration(*deadline)
                )
            } else {
                return (true, "the validationToken came back as text/plain in time".into());
            };
            (false, why)
        }
        Expected::Member { name, value } => {
            let held = got(name).as_deref() == Some(value.as_str());
            let why = if held {
                format!("{name} came back as required")
            } else {
                format!("expected {{\"{name}\": \"{value}\"}}, got {}", shown(120))
            };
            (held, why)
        }
        Expected::AllowedOrigin(origin) => {
            let allowed = exchange.headers.get("webhook-allowed-origin").and_then(|v| v.to_str().ok());
            let held = allowed.is_some_and(|allowed| allowed == "*" || allowed.eq_ignore_ascii_case(origin));
            let why = match allowed {
                _ if held => format!("WebHook-Allowed-Origin allows {origin}"),
                Some(other) => format!("WebHook-Allowed-Origin is {other}, not {origin} or *"),
                None => "no WebHook-Allowed-Origin header: the sender may not deliver".to_string(),
            };
            (held, why)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn answer(body: &'static str, content_type: &'static str, latency: Duration) -> Exchange {
        let mut headers = http::HeaderMap::new();
        headers.insert(http::header::CONTENT_TYPE, http::HeaderValue::from_static(content_type));
        Exchange {
            status: http::StatusCode::OK,
            version: http::Version::HTTP_11,
            headers,
            body: bytes::Bytes::from_static(body.as_bytes()),
            latency,
        }
    }

    #[test]
    fn each_answer_is_judged_as_its_provider_documents_it() {
        let quick = Duration::from_millis(5);
        let slack = Expected::Challenge("chl_1".into());
        assert!(judge(&slack, &answer("{\"challenge\":\"chl_1\"}", "application/json", quick)).0);
        assert!(judge(&slack, &answer("chl_1\n", "text/plain", quick)).0, "Slack takes it as text too");
        let twitch = Expected::RawChallenge("chl_2".into());
        assert!(!judge(&twitch, &answer("{\"challenge\":\"chl_2\"}", "application/json", quick)).0);
        assert!(!judge(&twitch, &answer("chl_2\n", "text/plain", quick)).0, "exactly the challenge");
        assert!(judge(&Expected::Pong, &answer("{\"type\":1}", "application/json", quick)).0);
        let zoom = Expected::ZoomToken { plain: "p".into(), encrypted: "e".into() };
        let (held, why) =
            judge(&zoom, &answer("{\"plainToken\":\"p\",\"encryptedToken\":\"x\"}", "application/json", quick));
        assert!(!held && why.contains("encryptedToken"), "{why}");
        let graph = Expected::PlainTextInTime { token: "t".into(), deadline: Duration::from_secs(10) };
        assert!(judge(&graph, &answer("t", "text/plain; charset=utf-8", quick)).0);
        let (held, why) = judge(&graph, &answer("t", "text/plain", Duration::from_secs(11)));
        assert!(!held && why.contains("after 11") && why.contains("Graph needs it within 10"), "{why}");
        let (held, why) = judge(&graph, &answer("t", "application/json", quick));
        assert!(!held && why.contains("Graph needs text/plain"), "{why}");
        // The receiver's text is quoted terminal-safe: no escape sequence reaches a terminal.
        let (_, why) = judge(&Expected::Pong, &answer("\u{1b}[2J", "text/plain", quick));
        assert!(!why.contains('\u{1b}'), "{why:?}");
    }
}
