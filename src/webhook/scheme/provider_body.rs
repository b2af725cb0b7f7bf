//! The shape GitHub and Shopify share: an HMAC over the raw body alone in one header, the
//! delivery id and the event type in headers of their own, no timestamp. One implementation,
//! configured by each provider's file with its header names and encoding.
use http::{HeaderMap, HeaderName, HeaderValue};

use super::hmac::BodySignature;
use super::received::{Future, conclude};
use super::{Scheme, SchemeKind, SignError, SigningKey, TimeWindow, Verified, VerifyError, to_header_value};
use crate::webhook::delivery::Delivery;

#[derive(Debug, Clone)]
pub(crate) struct BodySignedProvider {
    pub(super) kind: SchemeKind,
    pub(super) signature: BodySignature<'static>,
    /// Carries the delivery id receivers de-duplicate on.
    pub(super) delivery_header: HeaderName,
    /// Another name of that header, read first when present (Shopify's `shopify-webhook-id`).
    pub(super) delivery_alias: Option<HeaderName>,
    /// Carries the event type, when the delivery has one.
    pub(super) event_header: HeaderName,
}

impl Scheme for BodySignedProvider {
    fn kind(&self) -> SchemeKind {
        self.kind
    }

    fn is_timestamped(&self) -> bool {
        false
    }

    fn signature_header(&self) -> HeaderName {
        self.signature.header.clone()
    }

    fn accepted_signature_headers(&self) -> Vec<HeaderName> {
        [Some(self.signature.header.clone()), self.signature.alias.clone()].into_iter().flatten().collect()
    }

    fn delivery_id_header(&self) -> Option<HeaderName> {
        Some(self.delivery_header.clone())
    }

    fn delivery_id(&self, headers: &HeaderMap) -> Option<String> {
        let name =
            self.delivery_alias.as_ref().filter(|alias| headers.contains_key(*alias)).unwrap_or(&self.delivery_header);
        headers.get(name)?.to_str().ok().map(str::to_string)
    }

    fn sign(&self, delivery: &Delivery, key: &SigningKey) -> Result<Vec<(HeaderName, HeaderValue)>, SignError> {
        let mut headers = vec![
            (self.signature.header.clone(), self.signature.header_value(key, &delivery.body)?),
            (self.delivery_header.clone(), to_header_value("delivery id", &self.delivery_header, delivery.id.clone())?),
        ];
        if let Some(event) = &delivery.event {
            headers
                .push((self.event_header.clone(), to_header_value("event type", &self.event_header, event.clone())?));
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
        let matched = self.signature.matches(headers, body, key)?;
        let note = conclude(window, None, Future::Refused, matched)?;
        Ok(Verified { scheme: self.kind, timestamp: None, id: self.delivery_id(headers), note })
    }
}
