//! `shopify`: `X-Shopify-Hmac-Sha256: <base64>` over the raw body, with `X-Shopify-Webhook-Id`
//! (the id to de-duplicate on) and `X-Shopify-Topic` for the event type.
use http::{HeaderMap, HeaderName, HeaderValue};

use super::hmac::BodySignature;
use super::received::conclude;
use super::{Encoding, Scheme, SchemeKind, SignError, SigningKey, TimeWindow, Verified, VerifyError, to_header_value};
use crate::webhook::delivery::Delivery;

pub const SIGNATURE: HeaderName = HeaderName::from_static("x-shopify-hmac-sha256");
pub const WEBHOOK_ID: HeaderName = HeaderName::from_static("x-shopify-webhook-id");
pub const TOPIC: HeaderName = HeaderName::from_static("x-shopify-topic");

fn body_signature() -> BodySignature<'static> {
    BodySignature { header: SIGNATURE, encoding: Encoding::Base64, prefix: "" }
}

#[derive(Debug, Clone, Copy)]
pub struct Shopify;

impl Scheme for Shopify {
    fn kind(&self) -> SchemeKind {
        SchemeKind::Shopify
    }

    fn is_timestamped(&self) -> bool {
        false
    }

    fn signature_header(&self) -> HeaderName {
        SIGNATURE
    }

    fn delivery_id_header(&self) -> Option<HeaderName> {
        Some(WEBHOOK_ID)
    }

    fn sign(&self, delivery: &Delivery, key: &SigningKey) -> Result<Vec<(HeaderName, HeaderValue)>, SignError> {
        let mut headers = vec![
            (SIGNATURE, body_signature().header_value(key, &delivery.body)?),
            (WEBHOOK_ID, to_header_value("delivery id", &WEBHOOK_ID, delivery.id.clone())?),
        ];
        if let Some(event) = &delivery.event {
            headers.push((TOPIC, to_header_value("event type", &TOPIC, event.clone())?));
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
        Ok(Verified { scheme: SchemeKind::Shopify, timestamp: None, id: self.delivery_id(headers) })
    }
}
