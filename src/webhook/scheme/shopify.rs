//! `shopify`: `X-Shopify-Hmac-Sha256: <base64>` over the raw body, with `X-Shopify-Webhook-Id`
//! (the id to de-duplicate on) and `X-Shopify-Topic` for the event type.
use http::HeaderName;

use super::hmac::BodySignature;
use super::provider_body::BodySignedProvider;
use super::{Encoding, SchemeKind};

pub(crate) const SIGNATURE: HeaderName = HeaderName::from_static("x-shopify-hmac-sha256");
pub(crate) const WEBHOOK_ID: HeaderName = HeaderName::from_static("x-shopify-webhook-id");
pub(crate) const TOPIC: HeaderName = HeaderName::from_static("x-shopify-topic");

pub(crate) fn shopify() -> BodySignedProvider {
    BodySignedProvider {
        kind: SchemeKind::Shopify,
        signature: BodySignature { header: SIGNATURE, encoding: Encoding::Base64, prefix: "", exact_text: true },
        delivery_header: WEBHOOK_ID,
        event_header: TOPIC,
    }
}
