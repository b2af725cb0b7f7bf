//! The payload options shared by `webhook sign|verify|send`: a body given as is (`-d DATA|@file|@-`),
//! or an event envelope built from `--event TYPE [--data JSON]`.
use anyhow::Context;
use bytes::Bytes;
use serde_json::{Value, json};

use crate::http::body::BodySource;
use crate::webhook::delivery::DeliveryBody;

/// Where the payload comes from, as given on the command line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PayloadSource {
    /// `-d DATA|@file|@-`: these exact bytes.
    Body(BodySource),
    /// `--event TYPE [--data JSON]`: an envelope around the data.
    Event { event_type: String, data: Option<BodySource> },
}

/// The payload, ready to sign.
#[derive(Debug, Clone)]
pub struct Payload {
    pub body: DeliveryBody,
    pub event: Option<String>,
    /// True when the body was built here (an event envelope), so the user has not seen it yet.
    pub generated: bool,
}

impl PayloadSource {
    /// Reads or builds the body. A file body stays a file so it can be streamed; `event_id` and
    /// `created` fill the envelope.
    pub fn load(self, event_id: &str, created: i64) -> anyhow::Result<Payload> {
        match self {
            PayloadSource::Body(BodySource::File(path)) => {
                // Fail now, before anything is printed, rather than halfway through streaming.
                std::fs::File::open(&path)
                    .with_context(|| format!("cannot read the body from `{}`", path.display()))?;
                Ok(Payload { body: DeliveryBody::File(path), event: None, generated: false })
            }
            PayloadSource::Body(source) => {
                Ok(Payload { body: DeliveryBody::Bytes(Bytes::from(source.read()?)), event: None, generated: false })
            }
            PayloadSource::Event { event_type, data } => {
                let data = match data {
                    Some(source) => {
                        let bytes = source.read()?;
                        serde_json::from_slice(&bytes)
                            .context("--data must be JSON with --event (it becomes the envelope's `data`)")?
                    }
                    None => json!({}),
                };
                let body = envelope(&event_type, event_id, created, data);
                Ok(Payload { body: DeliveryBody::Bytes(body.into()), event: Some(event_type), generated: true })
            }
        }
    }
}

/// `{"id":…,"type":…,"created":…,"data":…}`, compact, keys in that order (the shape Stripe and most
/// providers use).
pub(crate) fn envelope(event_type: &str, id: &str, created: i64, data: Value) -> Vec<u8> {
    json!({ "id": id, "type": event_type, "created": created, "data": data }).to_string().into_bytes()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn envelopes_wrap_the_data_in_order() {
        let source = PayloadSource::Event {
            event_type: "invoice.paid".into(),
            data: Some(BodySource::Inline(r#"{"amount": 5}"#.into())),
        };
        let payload = source.load("evt_1", 42).unwrap();
        let DeliveryBody::Bytes(body) = payload.body else { panic!("an envelope is built in memory") };
        assert_eq!(&body[..], br#"{"id":"evt_1","type":"invoice.paid","created":42,"data":{"amount":5}}"#);
        assert_eq!(payload.event.as_deref(), Some("invoice.paid"));
        assert!(payload.generated);
    }

    #[test]
    fn event_data_must_be_json() {
        let source = PayloadSource::Event { event_type: "x".into(), data: Some(BodySource::Inline("nope".into())) };
        let err = source.load("evt_1", 1).unwrap_err();
        assert!(format!("{err:#}").contains("--data must be JSON"));
    }

    #[test]
    fn missing_body_files_fail_before_signing() {
        let err = PayloadSource::Body(BodySource::File("/no/such/body".into())).load("e", 1).unwrap_err();
        assert!(format!("{err:#}").contains("/no/such/body"));
    }
}
