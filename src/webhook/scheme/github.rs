//! `github`: `X-Hub-Signature-256: sha256=<hex>` over the raw body, with a fresh
//! `X-GitHub-Delivery` id and the `X-GitHub-Event` type. No timestamp is signed, so a replay
//! cannot be told apart by its signature; receivers de-duplicate on the delivery id.
use http::HeaderName;

use super::hmac::BodySignature;
use super::provider_body::BodySignedProvider;
use super::{Encoding, SchemeKind};

pub(crate) const SIGNATURE: HeaderName = HeaderName::from_static("x-hub-signature-256");
pub(crate) const DELIVERY: HeaderName = HeaderName::from_static("x-github-delivery");
pub(crate) const EVENT: HeaderName = HeaderName::from_static("x-github-event");

pub(crate) fn github() -> BodySignedProvider {
    BodySignedProvider {
        kind: SchemeKind::Github,
        signature: BodySignature {
            header: SIGNATURE,
            encoding: Encoding::Hex,
            prefix: "sha256=",
            alias: None,
            exact_text: true,
        },
        delivery_header: DELIVERY,
        delivery_alias: None,
        event_header: EVENT,
    }
}
