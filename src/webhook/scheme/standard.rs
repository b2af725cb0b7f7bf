//! `standard`: Standard Webhooks (and Svix, the same scheme under `svix-` header names).
//! `webhook-signature: v1,<base64>` over `<id>.<timestamp>.<body>`, keyed with the base64-decoded
//! `whsec_` secret. The signature header is a space-separated list (several during secret
//! rotation, other versions possible); any `v1` match is valid.
//!
//! Read as the reference libraries read it (standardwebhooks for Python and JavaScript, and
//! svix): either header family is accepted, header by header, whichever names the scheme signs
//! with (svix's library takes `svix-*` and falls back to `webhook-*`); the timestamp may carry a
//! fraction (`1614265330.0`) and is signed as its integer part; each `v1` is compared as the
//! base64 text the library computes (padded); entries of other versions, or that are not
//! `<version>,<signature>` at all, are skipped; the window is open both ways.
//!
//! With a `whsk_` or `whpk_` key (see `ed25519.rs`) the scheme is the spec's asymmetric one: it
//! signs `v1a,<base64 of the Ed25519 signature>` over the same content, and verifies the `v1a`
//! entries of a header, skipping the `v1` ones that key cannot check (a header may carry both).
use http::{HeaderMap, HeaderName, HeaderValue};

use super::ed25519::{self, AsymmetricKey};
use super::mac::any_equal;
use super::received::{Future, capped, conclude, header_text, non_empty};
use super::request::ReceivedRequest;
use super::{
    BASE64, KeyForm, Scheme, SchemeKind, SignError, SigningKey, TimeWindow, Verified, VerifyError, to_header_value,
};
use crate::webhook::delivery::Delivery;
use base64::Engine;

/// One family of the three header names.
#[derive(Debug, Clone)]
struct Names {
    id: HeaderName,
    timestamp: HeaderName,
    signature: HeaderName,
}

impl Names {
    fn standard() -> Names {
        Names {
            id: HeaderName::from_static("webhook-id"),
            timestamp: HeaderName::from_static("webhook-timestamp"),
            signature: HeaderName::from_static("webhook-signature"),
        }
    }

    fn svix() -> Names {
        Names {
            id: HeaderName::from_static("svix-id"),
            timestamp: HeaderName::from_static("svix-timestamp"),
            signature: HeaderName::from_static("svix-signature"),
        }
    }
}

/// The names it signs with, and the other family it also reads.
#[derive(Debug, Clone)]
pub(crate) struct StandardWebhooks {
    own: Names,
    other: Names,
}

fn signed_prefix(id: &str, timestamp: i64) -> Vec<u8> {
    format!("{id}.{timestamp}.").into_bytes()
}

const VERSION: &str = "v1";

/// A timestamp as both libraries read one: digits, optionally a fraction (Python's `float()` and
/// JavaScript's `parseInt` both take `1614265330.0`), meaning its integer part.
fn parse_timestamp(name: &HeaderName, text: &str) -> Result<i64, VerifyError> {
    let (whole, fraction) = text.split_once('.').unwrap_or((text, ""));
    let digits = |part: &str| part.bytes().all(|byte| byte.is_ascii_digit());
    match whole.parse::<i64>() {
        Ok(seconds) if !whole.is_empty() && digits(whole) && digits(fraction) => Ok(seconds),
        _ => Err(VerifyError::malformed(name, format!("`{text}` is not a Unix timestamp in seconds"))),
    }
}

impl StandardWebhooks {
    pub(crate) fn standard() -> StandardWebhooks {
        StandardWebhooks { own: Names::standard(), other: Names::svix() }
    }

    pub(crate) fn svix() -> StandardWebhooks {
        StandardWebhooks { own: Names::svix(), other: Names::standard() }
    }

    /// The header's name and text, under the scheme's own name or else the other family's.
    fn read<'h>(
        &self,
        headers: &'h HeaderMap,
        pick: fn(&Names) -> &HeaderName,
    ) -> Result<(HeaderName, &'h str), VerifyError> {
        let own = pick(&self.own);
        let name =
            if headers.contains_key(own) || !headers.contains_key(pick(&self.other)) { own } else { pick(&self.other) };
        let text = non_empty(name, header_text(headers, name)?)?;
        Ok((name.clone(), text))
    }

    /// The signatures of `wanted` (`v1` or `v1a`) in the header, as written.
    fn candidates<'t>(name: &HeaderName, text: &'t str, wanted: &str) -> Result<Vec<&'t str>, VerifyError> {
        let mut matching = Vec::new();
        let mut versions = Vec::new();
        for entry in capped(name, text.split_ascii_whitespace().collect())? {
            match entry.split_once(',') {
                Some((version, encoded)) if version == wanted => matching.push(encoded),
                Some((version, _)) => versions.push(version),
                None => versions.push(entry),
            }
        }
        if matching.is_empty() {
            let found = if versions.is_empty() { "none".to_string() } else { versions.join(", ") };
            let key = if wanted == VERSION { "" } else { " (a whsk_/whpk_ key checks v1a entries only)" };
            return Err(VerifyError::malformed(name, format!("it has no {wanted} signature (found {found}){key}")));
        }
        Ok(matching)
    }

    /// Whether any `v1a` entry is the key's Ed25519 signature over the signed content.
    fn any_v1a_valid(
        name: &HeaderName,
        text: &str,
        key: &AsymmetricKey,
        signed: &[&[u8]],
    ) -> Result<bool, VerifyError> {
        let candidates = Self::candidates(name, text, ed25519::VERSION)?;
        let decoded: Vec<Result<Vec<u8>, String>> =
            candidates.iter().map(|encoded| Self::v1a_signature(encoded)).collect();
        // A header whose every v1a entry cannot be a signature is malformed, not a mismatch: the
        // sender wrote something else there, and "does not match" would send the user hunting
        // for a wrong key.
        if let [Err(why), ..] = decoded.as_slice()
            && decoded.iter().all(Result::is_err)
        {
            return Err(VerifyError::malformed(name, format!("its v1a entry {why}")));
        }
        let message = signed.concat();
        // Every entry is checked (no early exit), as the HMAC comparison does.
        Ok(decoded.iter().fold(false, |found, signature| {
            let valid = signature.as_ref().is_ok_and(|signature| key.verifies(&message, signature));
            valid | found
        }))
    }

    /// A `v1a` entry's signature bytes, or why the entry cannot be one.
    fn v1a_signature(encoded: &str) -> Result<Vec<u8>, String> {
        match BASE64.decode(encoded) {
            Err(_) => Err("is not base64".to_string()),
            Ok(bytes) if bytes.len() == ed25519::SIGNATURE_LEN => Ok(bytes),
            Ok(bytes) => Err(format!(
                "decodes to {} bytes; an Ed25519 signature is {} (88 base64 characters)",
                bytes.len(),
                ed25519::SIGNATURE_LEN
            )),
        }
    }
}

impl Scheme for StandardWebhooks {
    fn kind(&self) -> SchemeKind {
        SchemeKind::Standard
    }

    fn key_form(&self) -> KeyForm {
        KeyForm::WhsecBase64
    }

    fn is_timestamped(&self) -> bool {
        true
    }

    fn signature_header(&self) -> HeaderName {
        self.own.signature.clone()
    }

    fn delivery_id_header(&self) -> Option<HeaderName> {
        Some(self.own.id.clone())
    }

    fn delivery_id(&self, headers: &HeaderMap) -> Option<String> {
        let (_, id) = self.read(headers, |names| &names.id).ok()?;
        Some(id.to_string())
    }

    fn sign(&self, delivery: &Delivery, key: &SigningKey) -> Result<Vec<(HeaderName, HeaderValue)>, SignError> {
        let names = &self.own;
        let id = to_header_value("delivery id", &names.id, delivery.id.clone())?;
        let prefix = signed_prefix(&delivery.id, delivery.timestamp);
        let signature = match key.asymmetric() {
            Some(asymmetric) => {
                let mut message = prefix;
                delivery
                    .body
                    .for_each_chunk(|chunk| message.extend_from_slice(chunk))
                    .map_err(|source| SignError::ReadBody { body: delivery.body.describe(), source })?;
                let signature = asymmetric.sign(&message).ok_or(SignError::PublicKeyCannotSign)?;
                format!("{},{}", ed25519::VERSION, BASE64.encode(signature))
            }
            None => format!("{VERSION},{}", BASE64.encode(key.tag_streaming(&prefix, &delivery.body)?)),
        };
        Ok(vec![
            (names.signature.clone(), to_header_value("signature", &names.signature, signature)?),
            (names.id.clone(), id),
            (names.timestamp.clone(), to_header_value("timestamp", &names.timestamp, delivery.timestamp.to_string())?),
        ])
    }

    fn verify_request(
        &self,
        request: &ReceivedRequest<'_>,
        key: &SigningKey,
        window: TimeWindow,
    ) -> Result<Verified, VerifyError> {
        let (headers, body) = (request.headers, request.body);
        let (signature_name, signature) = self.read(headers, |names| &names.signature)?;
        let (_, id) = self.read(headers, |names| &names.id)?;
        let (timestamp_name, timestamp_text) = self.read(headers, |names| &names.timestamp)?;
        let timestamp = parse_timestamp(&timestamp_name, timestamp_text)?;
        let signed: [&[u8]; 2] = [&signed_prefix(id, timestamp), body];
        if let Some(asymmetric) = key.asymmetric() {
            let matched = Self::any_v1a_valid(&signature_name, signature, asymmetric, &signed)?;
            let note = conclude(window, Some(timestamp), Future::Refused, matched)?;
            return Ok(Verified {
                scheme: SchemeKind::Standard,
                timestamp: Some(timestamp),
                id: Some(id.to_string()),
                note,
            });
        }
        let candidates = Self::candidates(&signature_name, signature, VERSION)?;
        // One HMAC for the request, compared with every entry as the padded base64 the libraries
        // write (the JavaScript one compares the text; an unpadded entry matches in neither).
        let expected = BASE64.encode(key.tag(&signed));
        let matched = any_equal(expected.as_bytes(), candidates.iter().map(|encoded| encoded.as_bytes()));
        let note = conclude(window, Some(timestamp), Future::Refused, matched)?;
        Ok(Verified { scheme: SchemeKind::Standard, timestamp: Some(timestamp), id: Some(id.to_string()), note })
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;
    use crate::webhook::scheme::mac::tags_computed_by;

    const NOW: i64 = 1_614_265_330;

    fn key() -> SigningKey {
        SigningKey::from_bytes(b"standard key")
    }

    fn headers(prefix: &str, timestamp: &str, signature_entries: &str) -> HeaderMap {
        let tag = BASE64.encode(key().tag(&[&signed_prefix("msg_1", NOW), b"{}"]));
        let mut headers = HeaderMap::new();
        let name = |suffix: &str| HeaderName::from_bytes(format!("{prefix}{suffix}").as_bytes()).unwrap();
        headers.insert(name("id"), HeaderValue::from_static("msg_1"));
        headers.insert(name("timestamp"), HeaderValue::from_str(timestamp).unwrap());
        let value = signature_entries.replace("VALID", &format!("v1,{tag}"));
        headers.insert(name("signature"), HeaderValue::from_str(&value).unwrap());
        headers
    }

    fn verify(scheme: &StandardWebhooks, headers: &HeaderMap) -> Result<Verified, VerifyError> {
        scheme.verify(headers, b"{}", &key(), TimeWindow { now: NOW, tolerance: Duration::from_secs(300) })
    }

    #[test]
    fn either_header_family_verifies_under_either_name() {
        for scheme in [StandardWebhooks::standard(), StandardWebhooks::svix()] {
            for prefix in ["webhook-", "svix-"] {
                let headers = headers(prefix, &NOW.to_string(), "VALID");
                assert_eq!(verify(&scheme, &headers).unwrap().id.as_deref(), Some("msg_1"), "{prefix}");
                assert_eq!(scheme.delivery_id(&headers).as_deref(), Some("msg_1"));
            }
        }
    }

    #[test]
    fn what_the_reference_libraries_accept_is_accepted() {
        let scheme = StandardWebhooks::standard();
        for (timestamp, entries) in [
            ("1614265330.0", "VALID"),
            ("1614265330.", "VALID"),
            ("1614265330", "v2,abc VALID"),
            ("1614265330", "v0=abc VALID v1,xyz="),
            ("1614265330", "v1,AAAA  VALID"),
        ] {
            assert!(verify(&scheme, &headers("webhook-", timestamp, entries)).is_ok(), "{timestamp} {entries}");
        }
        for (timestamp, entries) in [("1614265330.5x", "VALID"), ("1e9", "VALID"), ("", "VALID"), ("-1", "VALID")] {
            let err = verify(&scheme, &headers("webhook-", timestamp, entries)).unwrap_err();
            assert!(matches!(err, VerifyError::HeaderMalformed { .. }), "{timestamp}: {err}");
        }
        let unpadded = headers("webhook-", "1614265330", "VALID")
            .get("webhook-signature")
            .unwrap()
            .to_str()
            .unwrap()
            .trim_end_matches('=')
            .to_string();
        let err = verify(&scheme, &headers("webhook-", "1614265330", &unpadded)).unwrap_err();
        assert!(matches!(err, VerifyError::SignatureMismatch { .. }), "{err}");
    }

    #[test]
    fn one_hmac_per_request_and_at_most_sixteen_entries() {
        let scheme = StandardWebhooks::standard();
        let fifteen = format!("{}VALID", "v1,AAAA ".repeat(15));
        let headers_15 = headers("webhook-", "1614265330", &fifteen);
        let computed = tags_computed_by(|| assert!(verify(&scheme, &headers_15).is_ok()));
        assert_eq!(computed, 1);
        let seventeen = format!("{}VALID", "v1,AAAA ".repeat(16));
        let err = verify(&scheme, &headers("webhook-", "1614265330", &seventeen)).unwrap_err();
        assert!(err.to_string().contains("17 signature entries"), "{err}");
    }
}
