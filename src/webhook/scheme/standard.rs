//! `standard`: Standard Webhooks (and Svix, the same scheme under `svix-` header names).
//! `webhook-signature: v1,<base64>` over `<id>.<timestamp>.<body>`, keyed with the base64-decoded
//! `whsec_` secret. The signature header is a space-separated list (several during secret
//! rotation, other versions possible); any `v1` match is valid.
use http::{HeaderMap, HeaderName, HeaderValue};

use super::received::{conclude, header_text, parse_timestamp};
use super::{
    BASE64, KeyForm, Scheme, SchemeKind, SignError, SigningKey, TimeWindow, Verified, VerifyError, to_header_value,
};
use crate::webhook::delivery::Delivery;
use base64::Engine;

/// The three header names, which differ between the Standard Webhooks and Svix spellings.
#[derive(Debug, Clone)]
pub struct StandardWebhooks {
    id: HeaderName,
    timestamp: HeaderName,
    signature: HeaderName,
}

fn signed_prefix(id: &str, timestamp: &str) -> Vec<u8> {
    format!("{id}.{timestamp}.").into_bytes()
}

const VERSION: &str = "v1";

impl StandardWebhooks {
    pub fn standard() -> StandardWebhooks {
        StandardWebhooks {
            id: HeaderName::from_static("webhook-id"),
            timestamp: HeaderName::from_static("webhook-timestamp"),
            signature: HeaderName::from_static("webhook-signature"),
        }
    }

    pub fn svix() -> StandardWebhooks {
        StandardWebhooks {
            id: HeaderName::from_static("svix-id"),
            timestamp: HeaderName::from_static("svix-timestamp"),
            signature: HeaderName::from_static("svix-signature"),
        }
    }

    /// The decodable `v1` signatures in the header.
    fn v1_candidates(&self, text: &str) -> Result<Vec<Vec<u8>>, VerifyError> {
        let mut v1 = Vec::new();
        let mut versions = Vec::new();
        for entry in text.split_ascii_whitespace() {
            let (version, encoded) = entry.split_once(',').ok_or_else(|| {
                VerifyError::malformed(&self.signature, format!("`{entry}` is not `<version>,<base64>`"))
            })?;
            if version == VERSION {
                v1.push(encoded);
            } else {
                versions.push(version);
            }
        }
        if v1.is_empty() {
            let found = if versions.is_empty() { "none".to_string() } else { versions.join(", ") };
            return Err(VerifyError::malformed(&self.signature, format!("it has no v1 signature (found {found})")));
        }
        // An entry that is not base64 cannot match; it is not an error while another one might.
        let decoded: Vec<Vec<u8>> = v1.iter().filter_map(|encoded| BASE64.decode(encoded).ok()).collect();
        if decoded.is_empty() {
            return Err(VerifyError::malformed(&self.signature, "no v1 signature is valid base64"));
        }
        Ok(decoded)
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
        self.signature.clone()
    }

    fn delivery_id_header(&self) -> Option<HeaderName> {
        Some(self.id.clone())
    }

    fn sign(&self, delivery: &Delivery, key: &SigningKey) -> Result<Vec<(HeaderName, HeaderValue)>, SignError> {
        let timestamp = delivery.timestamp.to_string();
        let id = to_header_value("delivery id", &self.id, delivery.id.clone())?;
        let tag = key.tag_streaming(&signed_prefix(&delivery.id, &timestamp), &delivery.body)?;
        let signature = format!("{VERSION},{}", BASE64.encode(tag));
        Ok(vec![
            (self.signature.clone(), to_header_value("signature", &self.signature, signature)?),
            (self.id.clone(), id),
            (self.timestamp.clone(), to_header_value("timestamp", &self.timestamp, timestamp)?),
        ])
    }

    fn verify(
        &self,
        headers: &HeaderMap,
        body: &[u8],
        key: &SigningKey,
        window: TimeWindow,
    ) -> Result<Verified, VerifyError> {
        let id = header_text(headers, &self.id)?;
        let timestamp_text = header_text(headers, &self.timestamp)?;
        let timestamp = parse_timestamp(&self.timestamp, timestamp_text)?;
        let candidates = self.v1_candidates(header_text(headers, &self.signature)?)?;
        let prefix = signed_prefix(id, timestamp_text);
        // Check every candidate so timing does not reveal which one matched.
        let matched =
            candidates.iter().fold(false, |found, candidate| key.matches(&[&prefix, body], candidate) | found);
        conclude(window, Some(timestamp), matched)?;
        Ok(Verified { scheme: SchemeKind::Standard, timestamp: Some(timestamp), id: Some(id.to_string()) })
    }
}
