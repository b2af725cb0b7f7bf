//! `stripe`: `Stripe-Signature: t=<unix>,v1=<hex>` over `<t>.<body>`, keyed with the whole secret
//! string (`whsec_` included, not decoded). During secret rotation the header carries several `v1`
//! values and any match is valid; other versions (`v0`, test-mode leftovers) are ignored.
use http::{HeaderMap, HeaderName, HeaderValue};

use super::received::{conclude, header_text, parse_timestamp};
use super::{Scheme, SchemeKind, SignError, SigningKey, TimeWindow, Verified, VerifyError, to_header_value};
use crate::webhook::delivery::Delivery;

pub const SIGNATURE: HeaderName = HeaderName::from_static("stripe-signature");

fn signed_prefix(timestamp: &str) -> Vec<u8> {
    format!("{timestamp}.").into_bytes()
}

/// The parts of a `Stripe-Signature` header that matter.
#[derive(Debug, PartialEq, Eq)]
struct ParsedHeader<'a> {
    timestamp: &'a str,
    v1: Vec<&'a str>,
}

fn parse_header(text: &str) -> Result<ParsedHeader<'_>, VerifyError> {
    let mut timestamp = None;
    let mut v1 = Vec::new();
    for item in text.split(',').map(str::trim).filter(|item| !item.is_empty()) {
        let (name, value) = item.split_once('=').ok_or_else(|| {
            VerifyError::malformed(&SIGNATURE, format!("`{item}` is not a `name=value` pair (expected t=…,v1=…)"))
        })?;
        match name {
            "t" if timestamp.is_none() => timestamp = Some(value),
            "v1" => v1.push(value),
            _ => {}
        }
    }
    let timestamp = timestamp.ok_or_else(|| VerifyError::malformed(&SIGNATURE, "it has no `t=` timestamp"))?;
    if v1.is_empty() {
        return Err(VerifyError::malformed(&SIGNATURE, "it has no `v1=` signature (other versions are not checked)"));
    }
    Ok(ParsedHeader { timestamp, v1 })
}

#[derive(Debug, Clone, Copy)]
pub struct Stripe;

impl Scheme for Stripe {
    fn kind(&self) -> SchemeKind {
        SchemeKind::Stripe
    }

    fn is_timestamped(&self) -> bool {
        true
    }

    fn signature_header(&self) -> HeaderName {
        SIGNATURE
    }

    /// Stripe puts the event id in the body, not in a header.
    fn delivery_id_header(&self) -> Option<HeaderName> {
        None
    }

    fn sign(&self, delivery: &Delivery, key: &SigningKey) -> Result<Vec<(HeaderName, HeaderValue)>, SignError> {
        let timestamp = delivery.timestamp.to_string();
        let tag = key.tag_streaming(&signed_prefix(&timestamp), &delivery.body)?;
        let value = format!("t={timestamp},v1={}", hex::encode(tag));
        Ok(vec![(SIGNATURE, to_header_value("signature", &SIGNATURE, value)?)])
    }

    fn verify(
        &self,
        headers: &HeaderMap,
        body: &[u8],
        key: &SigningKey,
        window: TimeWindow,
    ) -> Result<Verified, VerifyError> {
        let parsed = parse_header(header_text(headers, &SIGNATURE)?)?;
        let timestamp = parse_timestamp(&SIGNATURE, parsed.timestamp)?;
        let candidates: Vec<Vec<u8>> = parsed.v1.iter().filter_map(|value| hex::decode(value).ok()).collect();
        if candidates.is_empty() {
            return Err(VerifyError::malformed(&SIGNATURE, "no `v1=` value is hex"));
        }
        let prefix = signed_prefix(parsed.timestamp);
        // Check every candidate, not just until the first match, so timing does not reveal which one
        // matched.
        let matched =
            candidates.iter().fold(false, |found, candidate| key.matches(&[&prefix, body], candidate) | found);
        conclude(window, Some(timestamp), matched)?;
        Ok(Verified { scheme: SchemeKind::Stripe, timestamp: Some(timestamp), id: None })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn headers_parse_with_rotation_and_other_versions() {
        let parsed = parse_header("t=12,v1=aa, v0=bb,v1=cc").unwrap();
        assert_eq!(parsed, ParsedHeader { timestamp: "12", v1: vec!["aa", "cc"] });
        assert!(matches!(parse_header("v1=aa"), Err(VerifyError::HeaderMalformed { .. })));
        assert!(matches!(parse_header("t=1,v0=aa"), Err(VerifyError::HeaderMalformed { .. })));
        assert!(matches!(parse_header("garbage"), Err(VerifyError::HeaderMalformed { .. })));
    }
}
