//! `shopify`: `X-Shopify-Hmac-Sha256: <base64>` over the raw body, with `X-Shopify-Webhook-Id`
//! (the id to de-duplicate on) and `X-Shopify-Topic` for the event type. Shopify now also sends
//! the same headers without their `X-` (`shopify-hmac-sha256`, `shopify-webhook-id`,
//! `shopify-topic`), and its libraries read those first (shopify-api-ruby's
//! `test_process_with_new_format_headers`, @shopify/shopify-api's events webhooks), so a request
//! carrying either form verifies; signing writes the `X-` form every Shopify library reads.
use http::HeaderName;

use super::hmac::BodySignature;
use super::provider_body::BodySignedProvider;
use super::{Encoding, SchemeKind};

pub(crate) const SIGNATURE: HeaderName = HeaderName::from_static("x-shopify-hmac-sha256");
pub(crate) const WEBHOOK_ID: HeaderName = HeaderName::from_static("x-shopify-webhook-id");
pub(crate) const TOPIC: HeaderName = HeaderName::from_static("x-shopify-topic");
/// The unprefixed names of the same headers.
pub(crate) const UNPREFIXED_SIGNATURE: HeaderName = HeaderName::from_static("shopify-hmac-sha256");
pub(crate) const UNPREFIXED_WEBHOOK_ID: HeaderName = HeaderName::from_static("shopify-webhook-id");
pub(crate) const UNPREFIXED_TOPIC: HeaderName = HeaderName::from_static("shopify-topic");

pub(crate) fn shopify() -> BodySignedProvider {
    BodySignedProvider {
        kind: SchemeKind::Shopify,
        signature: BodySignature {
            header: SIGNATURE,
            encoding: Encoding::Base64,
            prefix: "",
            alias: Some(UNPREFIXED_SIGNATURE),
            exact_text: true,
        },
        delivery_header: WEBHOOK_ID,
        delivery_alias: Some(UNPREFIXED_WEBHOOK_ID),
        event_header: TOPIC,
    }
}
