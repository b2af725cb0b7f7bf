//! `slack`: `X-Slack-Signature: v0=<hex>` over `v0:<timestamp>:<body>`, with the timestamp in
//! `X-Slack-Request-Timestamp`. Slack carries no delivery id.
//!
//! As slack_sdk's `SignatureVerifier` judges it: the timestamp is an integer signed as the text
//! it is sent as, the window is open five minutes both ways, and the whole header is compared
//! with `v0=` and the lower-case hex it computes (so upper-case hex is not a match).
use http::{HeaderMap, HeaderName, HeaderValue};

use super::mac::any_equal;
use super::received::{Future, conclude, header_text, parse_timestamp};
use super::{Scheme, SchemeKind, SignError, SigningKey, TimeWindow, Verified, VerifyError, to_header_value};
use crate::webhook::delivery::Delivery;

pub(crate) const SIGNATURE: HeaderName = HeaderName::from_static("x-slack-signature");
pub(crate) const TIMESTAMP: HeaderName = HeaderName::from_static("x-slack-request-timestamp");

const VERSION_PREFIX: &str = "v0=";

fn signed_prefix(timestamp: &str) -> Vec<u8> {
    format!("v0:{timestamp}:").into_bytes()
}

#[derive(Debug, Clone, Copy)]
pub(crate) struct Slack;

impl Scheme for Slack {
    fn kind(&self) -> SchemeKind {
        SchemeKind::Slack
    }

    fn is_timestamped(&self) -> bool {
        true
    }

    fn signature_header(&self) -> HeaderName {
        SIGNATURE
    }

    fn delivery_id_header(&self) -> Option<HeaderName> {
        None
    }

    fn sign(&self, delivery: &Delivery, key: &SigningKey) -> Result<Vec<(HeaderName, HeaderValue)>, SignError> {
        let timestamp = delivery.timestamp.to_string();
        let tag = key.tag_streaming(&signed_prefix(&timestamp), &delivery.body)?;
        Ok(vec![
            (SIGNATURE, to_header_value("signature", &SIGNATURE, format!("{VERSION_PREFIX}{}", hex::encode(tag)))?),
            (TIMESTAMP, to_header_value("timestamp", &TIMESTAMP, timestamp)?),
        ])
    }

    fn verify(
        &self,
        headers: &HeaderMap,
        body: &[u8],
        key: &SigningKey,
        window: TimeWindow,
    ) -> Result<Verified, VerifyError> {
        let timestamp_text = header_text(headers, &TIMESTAMP)?;
        let timestamp = parse_timestamp(&TIMESTAMP, timestamp_text)?;
        let signature = header_text(headers, &SIGNATURE)?;
        let encoded = signature.strip_prefix(VERSION_PREFIX).ok_or_else(|| {
            VerifyError::malformed(&SIGNATURE, format!("`{signature}` does not start with `{VERSION_PREFIX}`"))
        })?;
        if !encoded.bytes().all(|byte| byte.is_ascii_hexdigit()) {
            return Err(VerifyError::malformed(&SIGNATURE, format!("`{encoded}` is not hex")));
        }
        // Slack signs the timestamp as it appears in the header, so sign those exact bytes.
        let expected = hex::encode(key.tag(&[&signed_prefix(timestamp_text), body]));
        let matched = any_equal(expected.as_bytes(), [encoded.as_bytes()]);
        let note = conclude(window, Some(timestamp), Future::Refused, matched)?;
        Ok(Verified { scheme: SchemeKind::Slack, timestamp: Some(timestamp), id: None, note })
    }
}
