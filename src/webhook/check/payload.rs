//! What the valid deliveries of `webhook check` carry: the suite's own event by default, or what
//! the user's receiver handles (`--event TYPE [--data JSON]`, or `-d BODY` as is). Read from the
//! flags in one place ([`CheckPayload::from_flags`]) so other payload forms plug in beside these.
use anyhow::Context;
use http::{HeaderName, HeaderValue};
use serde_json::{Map, Value, json};

use crate::http::body::BodySource;
use crate::webhook::delivery::fresh_id;
use crate::webhook::payload::envelope;
use crate::webhook::scheme::SchemeKind;
use crate::webhook::template;

/// The event type the suite sends when none is chosen.
pub(crate) const DEFAULT_TYPE: &str = "webhook.check";
/// The amount in the suite's own event; the tampered body changes it.
pub(crate) const AMOUNT: i64 = 1990;

#[derive(Debug, Clone, PartialEq)]
pub enum CheckPayload {
    /// `{"id","type":"webhook.check","created","data":{"amount":1990,"currency":"usd"}}`.
    Default,
    /// `--event TYPE [--data JSON]`: the envelope of that type around that data.
    Event { event_type: String, data: Value },
    /// `-d BODY`: these bytes; a JSON object's top-level `id` is made fresh per delivery.
    Body(Vec<u8>),
    /// `--event PROVIDER:TYPE`: the provider's template, body and headers (`X-Shopify-Shop-Domain`,
    /// GitHub's `User-Agent`…), filled afresh for each delivery, so a receiver that routes or
    /// refuses on those headers sees what the provider would send. `by_scheme`: not chosen with
    /// `--event` but the default of a `--scheme` whose deliveries name their event in a header
    /// ([`CheckPayload::for_scheme`]).
    Provider { spec: String, by_scheme: bool },
}

impl CheckPayload {
    /// `--event` and `-d`/`--data` as given: `-d` alone is the body, with `--event` it is the
    /// envelope's `data`.
    pub fn from_flags(event: Option<String>, data: Option<&str>) -> anyhow::Result<CheckPayload> {
        let read = |text: &str| BodySource::parse(text).read().context("cannot read -d/--data");
        match (event, data) {
            (None, None) => Ok(CheckPayload::Default),
            (None, Some(data)) => Ok(CheckPayload::Body(read(data)?)),
            // A provider template (`stripe:invoice.paid`), filled once here so an unknown one is a
            // usage error before anything is sent.
            (Some(spec), None) if spec.contains(':') => {
                crate::webhook::template::provider_event(&spec, None, crate::clock::unix_now(), &[])?;
                Ok(CheckPayload::Provider { spec, by_scheme: false })
            }
            (Some(spec), Some(_)) if spec.contains(':') => {
                anyhow::bail!(
                    "--event {spec} is a provider template: change its fields with webhook send --set, not -d"
                )
            }
            (Some(event_type), data) => {
                if event_type.trim().is_empty() {
                    anyhow::bail!("--event needs an event type, e.g. --event invoice.paid");
                }
                let data = match data {
                    Some(data) => serde_json::from_slice(&read(data)?)
                        .context("--data must be JSON with --event (it becomes the envelope's `data`)")?,
                    None => json!({}),
                };
                Ok(CheckPayload::Event { event_type, data })
            }
        }
    }

    /// What the deliveries carry under `scheme`. Nothing chosen, a scheme that names the event in
    /// a header (GitHub's `X-GitHub-Event`, Shopify's `X-Shopify-Topic`, GitLab's, Linear's, …)
    /// gets its provider's template, the created event of its pair (`github:issues`): the suite's
    /// own `webhook.check` is no event that provider sends, and a receiver that refuses event
    /// names it does not know would refuse every probe for that reason alone. Schemes whose event
    /// is named in the body (Stripe, Standard Webhooks, Slack, hmac) keep the suite's own event,
    /// whose body no serialiser reproduces.
    pub(crate) fn for_scheme(self, scheme: SchemeKind) -> CheckPayload {
        if self != CheckPayload::Default {
            return self;
        }
        let names_event_in_a_header =
            scheme.description().is_some_and(|description| description.event_header.is_some());
        let Some(provider) = template::provider_of(scheme).filter(|_| names_event_in_a_header) else { return self };
        let spec = match template::related_pair(provider, None) {
            Some(pair) => pair.created_spec(),
            None => match template::list(Some(provider)).ok().and_then(|events| events.into_iter().next()) {
                Some(first) => format!("{provider}:{}", first.event),
                None => return self,
            },
        };
        CheckPayload::Provider { spec, by_scheme: true }
    }

    /// The provider and event type of a provider template (`github`, `issues`).
    pub(crate) fn provider_template(&self) -> Option<(&str, &str)> {
        match self {
            CheckPayload::Provider { spec, .. } => spec.split_once(':'),
            _ => None,
        }
    }

    /// The event type the deliveries carry, when there is one to read.
    pub(crate) fn event_type(&self) -> Option<String> {
        match self {
            CheckPayload::Default => Some(DEFAULT_TYPE.to_string()),
            CheckPayload::Event { event_type, .. } => Some(event_type.clone()),
            CheckPayload::Body(body) => {
                let value: Value = serde_json::from_slice(body).ok()?;
                value.get("type").and_then(Value::as_str).map(str::to_string)
            }
            CheckPayload::Provider { spec, .. } => spec.split_once(':').map(|(_, event)| event.to_string()),
        }
    }

    /// One delivery: its body, with `event_id` where the body has an id, and the headers its
    /// provider sends besides the signature's (none unless the payload is a provider template).
    pub(crate) fn delivery(&self, event_id: &str, created: i64) -> (Vec<u8>, Vec<(HeaderName, HeaderValue)>) {
        match self {
            CheckPayload::Provider { spec, .. } => {
                match crate::webhook::template::provider_event(spec, Some(event_id), created, &[]) {
                    Ok(event) => (event.body, event.headers),
                    // `from_flags` filled this template already; filling it again cannot fail
                    // unless the templates changed under us, and then the suite's own event goes.
                    Err(_) => (CheckPayload::Default.body(event_id, created), Vec::new()),
                }
            }
            _ => (self.body(event_id, created), Vec::new()),
        }
    }

    /// One delivery's body, with `event_id` where the body has an id.
    pub(crate) fn body(&self, event_id: &str, created: i64) -> Vec<u8> {
        match self {
            CheckPayload::Provider { .. } => self.delivery(event_id, created).0,
            CheckPayload::Default => {
                envelope(DEFAULT_TYPE, event_id, created, json!({ "amount": AMOUNT, "currency": "usd" }))
            }
            CheckPayload::Event { event_type, data } => envelope(event_type, event_id, created, data.clone()),
            CheckPayload::Body(body) => match serde_json::from_slice::<Map<String, Value>>(body) {
                Ok(mut object) if object.contains_key("id") => {
                    object.insert("id".into(), Value::from(event_id));
                    Value::Object(object).to_string().into_bytes()
                }
                _ => body.clone(),
            },
        }
    }

    /// A body of type `event_type` about `object_id`, shaped like the chosen payload where it is
    /// an object (so a receiver that needs its provider's fields still finds them).
    pub(crate) fn body_of_type(&self, event_type: &str, event_id: &str, created: i64, object_id: &str) -> Vec<u8> {
        let mut value: Value = serde_json::from_slice(&self.body(event_id, created)).unwrap_or(Value::Null);
        let Some(object) = value.as_object_mut() else {
            return envelope(event_type, event_id, created, json!({ "id": object_id }));
        };
        object.insert("type".into(), Value::from(event_type));
        match object.get_mut("data").and_then(Value::as_object_mut) {
            Some(data) => {
                data.insert("id".into(), Value::from(object_id));
            }
            None => {
                object.insert("data".into(), json!({ "id": object_id }));
            }
        }
        value.to_string().into_bytes()
    }

    /// `body` changed after signing: the amount of the suite's own event, else a field added at
    /// the front of a JSON object, else the first byte flipped.
    pub(crate) fn tampered(&self, body: &[u8]) -> Vec<u8> {
        let text = String::from_utf8_lossy(body);
        let amount = format!("\"amount\":{AMOUNT}");
        if matches!(self, CheckPayload::Default) && text.contains(&amount) {
            return text.replacen(&amount, "\"amount\":1", 1).into_bytes();
        }
        if let Some(rest) = text.strip_prefix('{') {
            let separator = if rest.trim_start().starts_with('}') { "" } else { "," };
            return format!("{{\"tampered\":true{separator}{rest}").into_bytes();
        }
        let mut changed = body.to_vec();
        match changed.first_mut() {
            Some(first) => *first ^= 0x20,
            None => changed.push(b' '),
        }
        changed
    }

    /// Says what the deliveries carry, for the report's evidence.
    pub(crate) fn describe(&self) -> String {
        match self {
            CheckPayload::Default => format!("the suite's own {DEFAULT_TYPE} event"),
            CheckPayload::Event { event_type, .. } => format!("{event_type} events (--event)"),
            CheckPayload::Body(body) => format!("the -d body ({} bytes)", body.len()),
            CheckPayload::Provider { spec, by_scheme: false } => {
                format!("{spec} events, with the provider's headers (--event)")
            }
            CheckPayload::Provider { spec, by_scheme: true } => {
                format!("{spec} events, with the provider's headers (the default of its --scheme)")
            }
        }
    }
}

/// An event type no receiver can know: the spec's `[a-zA-Z0-9_]` segments, unique per run.
pub(crate) fn unknown_type() -> String {
    format!("idem_check.unknown_{}", fresh_id("").to_lowercase())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flags_choose_the_payload() {
        assert_eq!(CheckPayload::from_flags(None, None).unwrap(), CheckPayload::Default);
        let stripe = CheckPayload::from_flags(Some("stripe:invoice.paid".into()), None).unwrap();
        let template: Value = serde_json::from_slice(&stripe.body("evt_7", 5)).unwrap();
        assert_eq!((template["object"].as_str(), template["type"].as_str()), (Some("event"), Some("invoice.paid")));
        assert_eq!(template["id"], "evt_7", "each delivery's own id");
        assert_eq!(stripe.event_type().as_deref(), Some("invoice.paid"));
        let shopify = CheckPayload::from_flags(Some("shopify:orders/create".into()), None).unwrap();
        let (_, headers) = shopify.delivery("d-1", 5);
        assert!(headers.iter().any(|(name, _)| name == "x-shopify-shop-domain"), "{headers:?}");
        assert!(CheckPayload::from_flags(Some("stripe:invoice.paid".into()), Some("{}")).is_err());
        assert!(CheckPayload::from_flags(Some("nosuch:thing".into()), None).is_err());
        let event = CheckPayload::from_flags(Some("invoice.paid".into()), Some(r#"{"n":1}"#)).unwrap();
        let body: Value = serde_json::from_slice(&event.body("evt_1", 5)).unwrap();
        assert_eq!(body["type"], "invoice.paid");
        assert_eq!(body["data"]["n"], 1);
        assert!(CheckPayload::from_flags(Some("x".into()), Some("not json")).is_err());
        let raw = CheckPayload::from_flags(None, Some(r#"{"id":"evt_0","type":"a.b"}"#)).unwrap();
        assert_eq!(raw.event_type().as_deref(), Some("a.b"));
        let body: Value = serde_json::from_slice(&raw.body("evt_9", 5)).unwrap();
        assert_eq!(body["id"], "evt_9");
        assert_eq!(CheckPayload::Body(b"plain".to_vec()).body("evt_9", 5), b"plain");
    }

    #[test]
    fn tampered_bodies_differ_and_typed_bodies_keep_the_shape() {
        for payload in [
            CheckPayload::Default,
            CheckPayload::Body(br#"{"id":"x"}"#.to_vec()),
            CheckPayload::Body(b"{}".to_vec()),
            CheckPayload::Body(b"text".to_vec()),
        ] {
            let body = payload.body("evt_1", 1);
            assert_ne!(payload.tampered(&body), body, "{payload:?}");
        }
        let typed = CheckPayload::Default.body_of_type("customer.updated", "evt_2", 1, "obj_1");
        let value: Value = serde_json::from_slice(&typed).unwrap();
        assert_eq!((value["type"].as_str(), value["data"]["id"].as_str()), (Some("customer.updated"), Some("obj_1")));
        assert_eq!(value["data"]["amount"], AMOUNT);
        assert!(unknown_type().starts_with("idem_check.unknown_"));
    }
}
