//! `stripe`: `Stripe-Signature: t=<unix>,v1=<hex>` over `<t>.<body>`, keyed with the whole secret
//! string (`whsec_` included, not decoded). During secret rotation the header carries several `v1`
//! values and any match is valid; other versions (`v0`, test-mode leftovers) are ignored.
//!
//! The header is read exactly as stripe-python (`WebhookSignature.verify_header`) and stripe-node
//! read it, so a delivery is valid here when it is valid for a receiver built on them: items are
//! split on `,` and each on `=` with nothing trimmed (` v1=…` after a space is not a `v1`), the
//! first `t` counts, items that are neither `t` nor a version are ignored, the timestamp is an
//! integer and is signed as that integer (`t=0123` signs `123.`), each `v1` is compared as
//! lower-case hex text, and only timestamps older than the tolerance are refused.
use http::{HeaderName, HeaderValue};
use smallvec::SmallVec;

use super::mac::any_equal;
use super::received::{Future, check_entries, conclude, header_text};
use super::request::ReceivedRequest;
use super::{
    MAX_SIGNATURES, Scheme, SchemeKind, SignError, SigningKey, TimeWindow, Verified, VerifyError, to_header_value,
};
use crate::webhook::delivery::Delivery;

pub(crate) const SIGNATURE: HeaderName = HeaderName::from_static("stripe-signature");

/// `<t>.`, the bytes signed before the body, on the stack: every delivery needs one, and
/// formatting it cost more than parsing the header.
struct SignedPrefix {
    /// An i64 is at most 20 characters, and the dot.
    bytes: [u8; 21],
    len: usize,
}

impl std::ops::Deref for SignedPrefix {
    type Target = [u8];

    fn deref(&self) -> &[u8] {
        &self.bytes[..self.len]
    }
}

fn signed_prefix(timestamp: i64) -> SignedPrefix {
    let mut buffer = itoa::Buffer::new();
    let digits = buffer.format(timestamp).as_bytes();
    let mut bytes = [0u8; 21];
    bytes[..digits.len()].copy_from_slice(digits);
    bytes[digits.len()] = b'.';
    SignedPrefix { bytes, len: digits.len() + 1 }
}

/// The parts of a `Stripe-Signature` header that matter.
#[derive(Debug, PartialEq, Eq)]
struct ParsedHeader<'a> {
    timestamp: &'a str,
    /// Inline up to two (a rotation's old and new secret): no allocation for the usual header.
    v1: SmallVec<[&'a str; 2]>,
}

/// An item's name and its value up to the next `=`, as the libraries split it (`v1=a=b` is `a`).
/// By `memchr`, as the items are split too: `str::split` on a character spent ~0.8k instructions a
/// delivery on this header (callgrind), of which `memchr` saves ~0.5k.
fn name_value(item: &str) -> (&str, Option<&str>) {
    let Some(equals) = memchr::memchr(b'=', item.as_bytes()) else { return (item, None) };
    let (name, rest) = (&item[..equals], &item[equals + 1..]);
    (name, Some(memchr::memchr(b'=', rest.as_bytes()).map_or(rest, |end| &rest[..end])))
}

/// The items between commas, as `text.split(',')` yields them.
fn items(text: &str) -> impl Iterator<Item = &str> {
    let mut rest = Some(text);
    std::iter::from_fn(move || {
        let current = rest?;
        match memchr::memchr(b',', current.as_bytes()) {
            Some(comma) => {
                rest = Some(&current[comma + 1..]);
                Some(&current[..comma])
            }
            None => {
                rest = None;
                Some(current)
            }
        }
    })
}

/// One pass over the items (the header is read on every delivery); what it refuses, and in which
/// order, is the libraries': too many entries, then a `t` without a value, then a `v1` without one,
/// then a missing `t` or `v1`.
fn parse_header(text: &str) -> Result<ParsedHeader<'_>, VerifyError> {
    let mut timestamp = None;
    let mut timestamp_without_value = false;
    let mut v1 = SmallVec::new();
    let mut v1_without_value = false;
    let mut entries = 0;
    let mut spaced = false;
    for item in items(text) {
        let (name, value) = name_value(item);
        if name == "t" {
            if timestamp.is_none() && !timestamp_without_value {
                match value {
                    Some(value) => timestamp = Some(value),
                    None => timestamp_without_value = true,
                }
            }
            continue;
        }
        entries += 1;
        match (name, value) {
            // Past the cap the header is refused anyway: counted, not kept.
            ("v1", Some(value)) if v1.len() <= MAX_SIGNATURES => v1.push(value),
            ("v1", Some(_)) => {}
            ("v1", None) => v1_without_value = true,
            _ => spaced |= name != name.trim() && matches!(name.trim(), "t" | "v1"),
        }
    }
    check_entries(&SIGNATURE, entries)?;
    if timestamp_without_value {
        return Err(VerifyError::malformed(&SIGNATURE, "`t` has no `=` value"));
    }
    if v1_without_value {
        return Err(VerifyError::malformed(&SIGNATURE, "`v1` has no `=` value"));
    }
    // Stripe never sends spaces; someone who typed them in gets told why the item was not read.
    let spaces = if spaced {
        " (an item with a space before its name, as in `, v1=`, is not read by Stripe's libraries either; \
         remove the spaces after the commas)"
    } else {
        ""
    };
    let timestamp =
        timestamp.ok_or_else(|| VerifyError::malformed(&SIGNATURE, format!("it has no `t=` timestamp{spaces}")))?;
    if v1.is_empty() {
        return Err(VerifyError::malformed(
            &SIGNATURE,
            format!("it has no `v1=` signature (other versions are not checked){spaces}"),
        ));
    }
    Ok(ParsedHeader { timestamp, v1 })
}

/// The timestamp as Python's `int()` and JavaScript's `parseInt` read a plain decimal: spaces
/// around it and a sign are allowed, and leading zeros mean nothing.
fn parse_timestamp(text: &str) -> Result<i64, VerifyError> {
    text.trim()
        .parse()
        .map_err(|_| VerifyError::malformed(&SIGNATURE, format!("`t={text}` is not a Unix timestamp in seconds")))
}

#[derive(Debug, Clone, Copy)]
pub(crate) struct Stripe;

impl Scheme for Stripe {
    fn kind(&self) -> SchemeKind {
        SchemeKind::Stripe
    }

    fn is_timestamped(&self) -> bool {
        true
    }

    /// stripe-python checks `timestamp < time.time() - tolerance` and nothing else, as does
    /// stripe-node: a signature dated ahead of the clock is valid for them.
    fn accepts_future_timestamps(&self) -> bool {
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
        let timestamp = delivery.timestamp;
        let tag = key.tag_streaming(&signed_prefix(timestamp), &delivery.body)?;
        let value = format!("t={timestamp},v1={}", hex::encode(tag));
        Ok(vec![(SIGNATURE, to_header_value("signature", &SIGNATURE, value)?)])
    }

    fn verify_request(
        &self,
        request: &ReceivedRequest<'_>,
        key: &SigningKey,
        window: TimeWindow,
    ) -> Result<Verified, VerifyError> {
        let (headers, body) = (request.headers, request.body);
        let parsed = parse_header(header_text(headers, &SIGNATURE)?)?;
        let timestamp = parse_timestamp(parsed.timestamp)?;
        // One HMAC for the request, compared with every entry as text: the libraries compare the
        // lower-case hex they compute with each `v1` string, so `A1B2…` is not a match.
        let tag = key.tag(&[&signed_prefix(timestamp), body]);
        // Lower-case hex on the stack (hex::encode builds a String a char at a time).
        const HEX: &[u8; 16] = b"0123456789abcdef";
        let mut expected = [0u8; 64];
        for (pair, byte) in expected.chunks_exact_mut(2).zip(tag) {
            pair.copy_from_slice(&[HEX[usize::from(byte >> 4)], HEX[usize::from(byte & 0xf)]]);
        }
        let matched = any_equal(&expected, parsed.v1.iter().map(|value| value.as_bytes()));
        let note = conclude(window, Some(timestamp), Future::Accepted, matched)?;
        Ok(Verified { scheme: SchemeKind::Stripe, timestamp: Some(timestamp), id: None, note })
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use http::HeaderMap;

    use super::*;
    use crate::webhook::scheme::mac::tags_computed_by;

    const NOW: i64 = 1_700_000_000;

    fn signed(body: &[u8], timestamp: i64, extra: &str) -> HeaderMap {
        let key = SigningKey::from_bytes(b"whsec_test");
        let tag = hex::encode(key.tag(&[&signed_prefix(timestamp), body]));
        let mut headers = HeaderMap::new();
        headers.insert(SIGNATURE, HeaderValue::from_str(&format!("t={timestamp}{extra},v1={tag}")).unwrap());
        headers
    }

    fn verify(headers: &HeaderMap, body: &[u8]) -> Result<Verified, VerifyError> {
        let window = TimeWindow { now: NOW, tolerance: Duration::from_secs(300) };
        Stripe.verify(headers, body, &SigningKey::from_bytes(b"whsec_test"), window)
    }

    /// An item's name and value as `str::split` gives them (the oracle for `name_value`).
    fn name_value_by_split(item: &str) -> (&str, Option<&str>) {
        let mut parts = item.split('=');
        let name = parts.next().unwrap_or_default();
        (name, parts.next())
    }

    /// The header as it was read before, in several passes, split by `str::split`.
    fn parse_header_in_passes(text: &str) -> Result<ParsedHeader<'_>, VerifyError> {
        let items = crate::webhook::scheme::received::capped(
            &SIGNATURE,
            text.split(',').filter(|item| name_value_by_split(item).0 != "t").collect(),
        )?;
        let mut timestamp = None;
        let mut v1 = SmallVec::new();
        let mut spaced = false;
        for item in text.split(',') {
            let (name, value) = name_value_by_split(item);
            match name {
                "t" if timestamp.is_none() => {
                    timestamp = Some(value.ok_or_else(|| VerifyError::malformed(&SIGNATURE, "`t` has no `=` value"))?);
                }
                "t" => {}
                _ => spaced |= name != name.trim() && matches!(name.trim(), "t" | "v1"),
            }
        }
        for item in items {
            if let ("v1", value) = name_value_by_split(item) {
                v1.push(value.ok_or_else(|| VerifyError::malformed(&SIGNATURE, "`v1` has no `=` value"))?);
            }
        }
        // Stripe never sends spaces; someone who typed them in gets told why the item was not read.
        let spaces = if spaced {
            " (an item with a space before its name, as in `, v1=`, is not read by Stripe's libraries either; \
             remove the spaces after the commas)"
        } else {
            ""
        };
        let timestamp =
            timestamp.ok_or_else(|| VerifyError::malformed(&SIGNATURE, format!("it has no `t=` timestamp{spaces}")))?;
        if v1.is_empty() {
            return Err(VerifyError::malformed(
                &SIGNATURE,
                format!("it has no `v1=` signature (other versions are not checked){spaces}"),
            ));
        }
        Ok(ParsedHeader { timestamp, v1 })
    }

    #[test]
    fn one_pass_reads_and_refuses_every_header_as_the_passes_did() {
        let many = |entry: &str, count: usize| format!(",{entry}").repeat(count);
        let mut headers: Vec<String> = [
            "t=12,v1=aa,v0=bb,v1=cc,junk",
            "t=1,t=2,v1=a=b",
            "v1=aa",
            "t=1,v0=aa",
            "garbage",
            "t=1, v1=aa",
            " t=1,v1=a",
            "t,v1=a",
            "t=1,t,v1=a",
            "t,t=1,v1=a",
            "t=1,v1",
            "v1,t",
            "t=1,v1=a,v1",
            "",
            ",",
            "t=",
            "t=1,v1=",
            "=,==",
            "t=1,v1=a,  v1=b",
            "t=1,V1=a",
            "t=1,v1 =a",
            "t=1,v1=a,t=",
        ]
        .iter()
        .map(|header| header.to_string())
        .collect();
        for count in [15, 16, 17, 40] {
            headers.push(format!("t=1{}", many("v1=ab", count)));
            headers.push(format!("t=1,v1=ab{}", many("x", count)));
            headers.push(format!("t{}", many("v1", count)));
            headers.push(format!("t=1{}", many("t=2", count)));
        }
        for header in &headers {
            let (fast, reference) = (parse_header(header), parse_header_in_passes(header));
            assert_eq!(format!("{fast:?}"), format!("{reference:?}"), "{header:?}");
        }
    }

    #[test]
    fn items_and_names_are_split_as_str_split_splits_them() {
        for text in ["", ",", ",,", "a", "a,", ",a", "t=1,v1=ab", "=", "==", "a=b=c,=d,e=", "t=1,,v1=a,", "é=,=é"] {
            assert_eq!(items(text).collect::<Vec<_>>(), text.split(',').collect::<Vec<_>>(), "{text:?}");
            for item in text.split(',') {
                assert_eq!(name_value(item), name_value_by_split(item), "{item:?}");
            }
        }
    }

    #[test]
    fn the_signed_prefix_is_the_timestamp_as_text_and_a_dot() {
        for timestamp in [0, 7, -7, 10, NOW, -NOW, i64::MAX, i64::MIN] {
            assert_eq!(&*signed_prefix(timestamp), format!("{timestamp}.").as_bytes());
        }
    }

    #[test]
    fn headers_parse_with_rotation_and_other_versions() {
        let parsed = parse_header("t=12,v1=aa,v0=bb,v1=cc,junk").unwrap();
        assert_eq!(parsed, ParsedHeader { timestamp: "12", v1: SmallVec::from_slice(&["aa", "cc"]) });
        assert_eq!(
            parse_header("t=1,t=2,v1=a=b").unwrap(),
            ParsedHeader { timestamp: "1", v1: SmallVec::from_slice(&["a"]) }
        );
        assert!(matches!(parse_header("v1=aa"), Err(VerifyError::HeaderMalformed { .. })));
        assert!(matches!(parse_header("t=1,v0=aa"), Err(VerifyError::HeaderMalformed { .. })));
        assert!(matches!(parse_header("garbage"), Err(VerifyError::HeaderMalformed { .. })));
        let spaced = parse_header("t=1, v1=aa").unwrap_err().to_string();
        assert!(spaced.contains("remove the spaces after the commas"), "{spaced}");
    }

    #[test]
    fn future_timestamps_are_accepted_with_a_note_and_old_ones_refused() {
        let future = verify(&signed(b"{}", NOW + 600, ""), b"{}").unwrap();
        assert!(future.note.unwrap().contains("10m in the future"));
        assert_eq!(verify(&signed(b"{}", NOW + 300, ""), b"{}").unwrap().note, None);
        assert!(verify(&signed(b"{}", NOW - 300, ""), b"{}").is_ok());
        assert!(matches!(
            verify(&signed(b"{}", NOW - 301, ""), b"{}"),
            Err(VerifyError::TimestampOutsideTolerance { signature_matched: true, .. })
        ));
    }

    #[test]
    fn the_timestamp_is_signed_as_an_integer_and_hex_compared_as_lower_case_text() {
        let mut headers = signed(b"{}", NOW, "");
        let value = headers[&SIGNATURE].to_str().unwrap().replace("t=", "t=00");
        headers.insert(SIGNATURE, HeaderValue::from_str(&value).unwrap());
        assert!(verify(&headers, b"{}").is_ok(), "t=00… signs the integer, as the libraries do");
        let upper =
            value.replace(value.split("v1=").nth(1).unwrap(), &value.split("v1=").nth(1).unwrap().to_uppercase());
        headers.insert(SIGNATURE, HeaderValue::from_str(&upper).unwrap());
        assert!(matches!(verify(&headers, b"{}"), Err(VerifyError::SignatureMismatch { .. })));
    }

    #[test]
    fn one_hmac_per_request_however_many_entries() {
        let many = format!(",v1={}", "ab".repeat(32)).repeat(15);
        let headers = signed(b"body", NOW, &many);
        let computed = tags_computed_by(|| assert!(verify(&headers, b"body").is_ok()));
        assert_eq!(computed, 1, "one HMAC however many v1 entries");
    }

    #[test]
    fn too_many_entries_are_malformed() {
        let many = format!(",v1={}", "ab".repeat(32)).repeat(16);
        let err = verify(&signed(b"body", NOW, &many), b"body").unwrap_err();
        assert!(err.to_string().contains("17 signature entries; at most 16"), "{err}");
        let entries = format!(",v1={}", "ab".repeat(32)).repeat(1000);
        let headers = signed(b"body", NOW, &entries);
        let computed = tags_computed_by(|| assert!(verify(&headers, b"body").is_err()));
        assert_eq!(computed, 0, "refused before any HMAC");
    }
}
