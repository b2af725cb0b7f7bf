//! `github`: `X-Hub-Signature-256: sha256=<hex>` over the raw body, with a fresh
//! `X-GitHub-Delivery` id and the `X-GitHub-Event` type. No timestamp is signed, so a replay
//! cannot be told apart by its signature; receivers de-duplicate on the delivery id.
use http::{HeaderMap, HeaderName, HeaderValue};

use super::hmac::BodySignature;
use super::received::conclude;
use super::{Encoding, Scheme, SchemeKind, SignError, SigningKey, TimeWindow, Verified, VerifyError, to_header_value};
use crate::webhook::delivery::Delivery;

pub const SIGNATURE: HeaderName = HeaderName::from_static("x-hub-signature-256");
pub const DELIVERY: HeaderName = HeaderName::from_static("x-github-delivery");
pub const EVENT: HeaderName = HeaderName::from_static("x-github-event");

fn body_signature() -> BodySignature<'static> {
    BodySignature { header: SIGNATURE, encoding: Encoding::Hex, prefix: "sha256=" }
}

#[derive(Debug, Clone, Copy)]
pub struct Github;

impl Scheme for Github {
    fn kind(&self) -> SchemeKind {
        SchemeKind::Github
    }

    fn is_timestamped(&self) -> bool {
        false
    }

    fn signature_header(&self) -> HeaderName {
        SIGNATURE
    }

    fn delivery_id_header(&self) -> Option<HeaderName> {
        Some(DELIVERY)
    }

    fn sign(&self, delivery: &Delivery, key: &SigningKey) -> Result<Vec<(HeaderName, HeaderValue)>, SignError> {
        let mut headers = vec![
            (SIGNATURE, body_signature().header_value(key, &delivery.body)?),
            (DELIVERY, to_header_value("delivery id", &DELIVERY, delivery.id.clone())?),
        ];
        if let Some(event) = &delivery.event {
            headers.push((EVENT, to_header_value("event type", &EVENT, event.clone())?));
        }
        Ok(headers)
    }

    fn verify(
        &self,
        headers: &HeaderMap,
        body: &[u8],
        key: &SigningKey,
        window: TimeWindow,
    ) -> Result<Verified, VerifyError> {
        let matched = body_signature().matches(headers, body, key)?;
        conclude(window, None, matched)?;
        Ok(Verified { scheme: SchemeKind::Github, timestamp: None, id: self.delivery_id(headers) })
    }
}
