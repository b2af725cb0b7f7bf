//! The payload options shared by `webhook sign|verify|send`: a body given as is (`-d DATA|@file|@-`),
//! an event envelope built from `--event TYPE [--data JSON]`, or a provider's event from its
//! template (`--event PROVIDER:TYPE`); `--set`/`--unset` change either generated body.
use anyhow::Context;
use bytes::Bytes;
use http::{HeaderName, HeaderValue};
use serde_json::{Value, json};

use crate::http::body::BodySource;
use crate::webhook::delivery::DeliveryBody;
use crate::webhook::scheme::SchemeKind;
use crate::webhook::template::{self, Override};

/// Where the payload comes from, as given on the command line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PayloadSource {
    /// `-d DATA|@file|@-`: these exact bytes.
    Body(BodySource),
    /// `--event TYPE [--data JSON]`: an envelope around the data.
    Event { event_type: String, data: Option<BodySource>, overrides: Vec<Override> },
    /// `--event PROVIDER:TYPE`: the provider's event from its bundled template.
    Template { spec: String, overrides: Vec<Override> },
}

impl PayloadSource {
    /// The scheme of the provider whose template builds the body, if one does.
    pub fn provider_scheme(&self) -> Option<SchemeKind> {
        match self {
            PayloadSource::Template { spec, .. } => template::provider_scheme(spec),
            _ => None,
        }
    }
}

impl PayloadSource {
    /// How the provider whose template builds the body delivers, if the tool knows it.
    pub fn provider_personality(&self) -> Option<&'static crate::webhook::deliver::personality::Personality> {
        match self {
            PayloadSource::Template { spec, .. } => crate::webhook::deliver::personality::of_event(spec),
            _ => None,
        }
    }
}

/// What a provider template adds besides the body: its ids and its own headers.
#[derive(Debug, Clone)]
pub struct ProviderParts {
    pub event_id: String,
    pub delivery_id: String,
    pub headers: Vec<(HeaderName, HeaderValue)>,
}

/// The payload, ready to sign.
#[derive(Debug, Clone)]
pub struct Payload {
    pub body: DeliveryBody,
    pub event: Option<String>,
    /// True when the body was built here (an event envelope), so the user has not seen it yet.
    pub generated: bool,
    /// Set when a provider template built the body.
    pub provider: Option<ProviderParts>,
}

impl PayloadSource {
    /// Reads or builds the body. A file body stays a file so it can be streamed; `event_id` and
    /// `created` fill the envelope; a template draws its own ids unless `pinned` (`--id`) is given.
    pub fn load(self, event_id: &str, created: i64, pinned: Option<&str>) -> anyhow::Result<Payload> {
        match self {
            PayloadSource::Body(BodySource::File(path)) => {
                // Fail now, before anything is printed, rather than halfway through streaming.
                std::fs::File::open(&path)
                    .with_context(|| format!("cannot read the body from `{}`", path.display()))?;
                Ok(Payload { body: DeliveryBody::File(path), event: None, generated: false, provider: None })
            }
            PayloadSource::Body(source) => {
                let body = DeliveryBody::Bytes(Bytes::from(source.read()?));
                Ok(Payload { body, event: None, generated: false, provider: None })
            }
            PayloadSource::Event { event_type, data, overrides } => {
                let data = match data {
                    Some(source) => {
                        let bytes = source.read()?;
                        serde_json::from_slice(&bytes)
                            .context("--data must be JSON with --event (it becomes the envelope's `data`)")?
                    }
                    None => json!({}),
                };
                let mut body = envelope_value(&event_type, event_id, created, data);
                for change in &overrides {
                    change.apply(&mut body)?;
                }
                let body = body.to_string().into_bytes();
                Ok(Payload {
                    body: DeliveryBody::Bytes(body.into()),
                    event: Some(event_type),
                    generated: true,
                    provider: None,
                })
            }
            PayloadSource::Template { spec, overrides } => {
                let event = template::provider_event(&spec, pinned, created, &overrides)?;
                Ok(Payload {
                    body: DeliveryBody::Bytes(event.body.into()),
                    event: Some(event.event_type),
                    generated: true,
                    provider: Some(ProviderParts {
                        event_id: event.event_id,
                        delivery_id: event.delivery_id,
                        headers: event.headers,
                    }),
                })
            }
        }
    }
}

/// `{"id":…,"type":…,"created":…,"data":…}`, compact, keys in that order (the shape Stripe and most
/// providers use).
pub(crate) fn envelope(event_type: &str, id: &str, created: i64, data: Value) -> Vec<u8> {
    envelope_value(event_type, id, created, data).to_string().into_bytes()
}

fn envelope_value(event_type: &str, id: &str, created: i64, data: Value) -> Value {
    json!({ "id": id, "type": event_type, "created": created, "data": data })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn envelopes_wrap_the_data_in_order() {
        let source = PayloadSource::Event {
            event_type: "invoice.paid".into(),
            data: Some(BodySource::Inline(r#"{"amount": 5}"#.into())),
            overrides: vec![],
        };
        let payload = source.load("evt_1", 42, None).unwrap();
        let DeliveryBody::Bytes(body) = payload.body else { panic!("an envelope is built in memory") };
        assert_eq!(&body[..], br#"{"id":"evt_1","type":"invoice.paid","created":42,"data":{"amount":5}}"#);
        assert_eq!(payload.event.as_deref(), Some("invoice.paid"));
        assert!(payload.generated);
    }

    #[test]
    fn event_data_must_be_json() {
        let source = PayloadSource::Event {
            event_type: "x".into(),
            data: Some(BodySource::Inline("nope".into())),
            overrides: vec![],
        };
        let err = source.load("evt_1", 1, None).unwrap_err();
        assert!(format!("{err:#}").contains("--data must be JSON"));
    }

    #[test]
    fn missing_body_files_fail_before_signing() {
        let err = PayloadSource::Body(BodySource::File("/no/such/body".into())).load("e", 1, None).unwrap_err();
        assert!(format!("{err:#}").contains("/no/such/body"));
    }
}
