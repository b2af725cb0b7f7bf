//! What `webhook check` sends with: the receiver's URL, the right key and a wrong one, and answers
//! told apart as a status, a timeout or no answer at all.
use std::sync::Arc;
use std::time::Duration;

use anyhow::Context;
use bytes::Bytes;
use http::{Request, Uri};
use serde_json::json;

use crate::http::client::{ClientOptions, Exchange, HttpClient};
use crate::http::outbound_proxy::Proxies;
use crate::webhook::deliver::engine::Message;
use crate::webhook::delivery::{fresh_id, unix_now};
use crate::webhook::payload::envelope;
use crate::webhook::scheme::new_secret;
use crate::webhook::scheme::{Scheme, SigningKey};
use crate::webhook::secret::Secret;

/// The amount in the check's event; the tampered body changes it.
const AMOUNT: i64 = 1990;

/// The body of [`Probe::raw_event`].
pub(super) fn raw_body(event_id: &str, created: i64) -> String {
    format!(
        "{{\n  \"id\": \"{event_id}\",\n  \"type\": \"webhook.check\",\n  \"created\": {created},\n  \"data\": {{\n    \
         \"zeta\": true,\n    \"amount\": {AMOUNT},\n    \"rate\": 1.0,\n    \"10\": \"ten\",\n    \
         \"description\": \"café ✓ \\u2713\",\n    \"receipt_url\": \"https:\\/\\/example.com\\/receipts\\/1\",\n    \
         \"alpha\": null\n  }}\n}}\n"
    )
}

/// One answer to a check's request.
#[derive(Debug)]
pub(crate) enum Answer {
    Status(Exchange),
    /// No complete answer within the timeout.
    TimedOut(Duration),
    /// No answer: the connection was refused or broke.
    Failed(String),
}

pub(crate) struct Probe {
    pub url: Uri,
    pub scheme: Arc<dyn Scheme>,
    key: SigningKey,
    /// A key from another secret of the same form, for forged signatures.
    wrong_key: SigningKey,
    client: HttpClient,
    pub timeout: Duration,
}

impl Probe {
    pub(crate) fn new(
        url: Uri,
        scheme: Arc<dyn Scheme>,
        key: SigningKey,
        timeout: Duration,
        insecure: bool,
        proxies: Proxies,
    ) -> anyhow::Result<Probe> {
        let wrong_secret = Secret::new(new_secret::generate(scheme.kind())?.into_bytes())?;
        let wrong_key = scheme.key(&wrong_secret).context("cannot make a wrong key to forge signatures with")?;
        // The client's own limit is a backstop: `send` times each request itself, to tell a slow
        // receiver from one that cannot be reached.
        let options = ClientOptions { timeout: timeout + Duration::from_secs(5), insecure, http2: false };
        let client = HttpClient::with_proxies(options, proxies)?;
        Ok(Probe { url, scheme, key, wrong_key, client, timeout })
    }

    /// A fresh event, signed with the right key.
    pub(crate) fn event(&self) -> Message {
        let event_id = fresh_id("evt_");
        let body = envelope("webhook.check", &event_id, unix_now(), json!({ "amount": AMOUNT, "currency": "usd" }));
        let delivery_id = fresh_id("msg_");
        Message::signed(
            body,
            &event_id,
            Some("webhook.check".into()),
            &delivery_id,
            Arc::clone(&self.scheme),
            self.key.clone(),
        )
    }

    /// A fresh event whose body no JSON parse-and-serialise round trip reproduces: two-space
    /// indents, `café ✓` unescaped next to an escaped `\u2713`, escaped slashes, `1.0`, and keys
    /// neither sorted nor in the order a JavaScript object keeps (`"10"` would move first).
    /// Python's `json.dumps`, `JSON.stringify` and serde all write it differently, so a receiver
    /// that verifies what its framework re-serialised refuses it.
    pub(crate) fn raw_event(&self) -> Message {
        let event_id = fresh_id("evt_");
        let body = raw_body(&event_id, unix_now());
        let delivery_id = fresh_id("msg_");
        Message::signed(
            body,
            &event_id,
            Some("webhook.check".into()),
            &delivery_id,
            Arc::clone(&self.scheme),
            self.key.clone(),
        )
    }

    /// The same event signed with a key from another secret.
    pub(crate) fn forged(&self, message: &Message) -> Message {
        let mut forged = message.clone();
        forged.signing = crate::webhook::deliver::engine::Signing::Fresh {
            scheme: Arc::clone(&self.scheme),
            key: self.wrong_key.clone(),
        };
        forged
    }

    /// `message`'s body with the amount changed, as an attacker (or a proxy) would after signing.
    pub(crate) fn tampered_body(message: &Message) -> Bytes {
        let text = String::from_utf8_lossy(&message.body);
        Bytes::from(text.replacen(&format!("\"amount\":{AMOUNT}"), "\"amount\":1", 1).into_bytes())
    }

    pub(crate) fn request(&self, message: &Message, timestamp: i64) -> anyhow::Result<Request<Bytes>> {
        message.request(&self.url, timestamp)
    }

    pub(crate) async fn send(&self, request: Request<Bytes>) -> Answer {
        match tokio::time::timeout(self.timeout, self.client.send(request)).await {
            Ok(Ok(exchange)) => Answer::Status(exchange),
            Ok(Err(err)) => Answer::Failed(err.chain().skip(1).map(ToString::to_string).collect::<Vec<_>>().join(": ")),
            Err(_) => Answer::TimedOut(self.timeout),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_raw_body_is_json_that_no_round_trip_reproduces() {
        let body = raw_body("evt_1", 1_700_000_000);
        let value: serde_json::Value = serde_json::from_str(&body).unwrap();
        assert_eq!(value["data"]["description"], "café ✓ ✓");
        assert_eq!(value["data"]["receipt_url"], "https://example.com/receipts/1");
        assert!(body.contains("  \"id\": \"evt_1\"") && body.contains(r"\/") && body.contains("1.0"));
        for rewritten in [serde_json::to_string(&value).unwrap(), serde_json::to_string_pretty(&value).unwrap()] {
            assert_ne!(rewritten, body);
            assert_ne!(rewritten + "\n", body);
        }
    }
}
