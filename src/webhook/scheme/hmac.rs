//! `hmac`: the generic scheme most in-house senders use, `X-Signature: sha256=<hex>` over the raw
//! body, with the header name, the encoding and the prefix adjustable. Also the body-only
//! signature that GitHub and Shopify are variants of.
use http::{HeaderMap, HeaderName, HeaderValue};

use super::mac::any_equal;
use super::received::{Future, conclude, header_text};
use super::{Encoding, Scheme, SchemeKind, SignError, SigningKey, TimeWindow, Verified, VerifyError, to_header_value};
use crate::webhook::delivery::{Delivery, DeliveryBody};

/// The adjustable parts of the generic scheme.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HmacOptions {
    pub header: HeaderName,
    pub encoding: Encoding,
    /// Written before the encoded tag, e.g. `sha256=`; may be empty.
    pub prefix: String,
}

pub(crate) const DEFAULT_HEADER: &str = "x-signature";
pub(crate) const DEFAULT_PREFIX: &str = "sha256=";

impl Default for HmacOptions {
    fn default() -> HmacOptions {
        HmacOptions {
            header: HeaderName::from_static(DEFAULT_HEADER),
            encoding: Encoding::Hex,
            prefix: DEFAULT_PREFIX.to_string(),
        }
    }
}

/// A signature over the raw body alone: `<prefix><encoded tag>` in one header.
#[derive(Debug, Clone)]
pub(super) struct BodySignature<'a> {
    pub header: HeaderName,
    pub encoding: Encoding,
    pub prefix: &'a str,
    /// Another name the provider's libraries read the signature from, before `header` when both
    /// are present (Shopify's `shopify-hmac-sha256`: shopify-api-ruby and @shopify/shopify-api
    /// read it first). Signing still writes `header`.
    pub alias: Option<HeaderName>,
    /// Compare the text as the provider's library does (GitHub's and Shopify's compare the
    /// lower-case hex or padded base64 they compute with the header, so `A1…` or a missing `=`
    /// is a mismatch); otherwise compare the decoded bytes, for in-house senders that differ in
    /// case or padding.
    pub exact_text: bool,
}

impl BodySignature<'_> {
    pub(super) fn header_value(&self, key: &SigningKey, body: &DeliveryBody) -> Result<HeaderValue, SignError> {
        let tag = key.tag_streaming(b"", body)?;
        to_header_value(
            "signature prefix",
            &self.header,
            format!("{}{}", self.prefix, self.encoding.encode(tag.as_ref())),
        )
    }

    /// The header the signature is read from: the alias when the request carries it, else `header`.
    fn received_under(&self, headers: &HeaderMap) -> &HeaderName {
        self.alias.as_ref().filter(|alias| headers.contains_key(*alias)).unwrap_or(&self.header)
    }

    /// Whether the header holds the body's signature; `Err` when it is missing or unreadable.
    pub(super) fn matches(&self, headers: &HeaderMap, body: &[u8], key: &SigningKey) -> Result<bool, VerifyError> {
        let name = self.received_under(headers);
        if let Some(alias) = &self.alias
            && !headers.contains_key(name)
        {
            // Both names are missing: say both, so a receiver behind a proxy that renames
            // headers knows either would do.
            return Err(VerifyError::HeaderMissing {
                header: format!("{} or {}", super::spelled(&self.header), super::spelled(alias)),
            });
        }
        let text = header_text(headers, name)?;
        let encoded = text
            .strip_prefix(self.prefix)
            .ok_or_else(|| VerifyError::malformed(name, format!("`{text}` does not start with `{}`", self.prefix)))?;
        let candidate = self
            .encoding
            .decode(encoded)
            .ok_or_else(|| VerifyError::malformed(name, format!("`{encoded}` is not {}", self.encoding.name())))?;
        let tag = key.tag(&[body]);
        Ok(if self.exact_text {
            any_equal(self.encoding.encode(tag.as_ref()).as_bytes(), [encoded.as_bytes()])
        } else {
            any_equal(tag.as_ref(), [candidate.as_slice()])
        })
    }
}

#[derive(Debug, Clone)]
pub(crate) struct GenericHmac {
    options: HmacOptions,
}

impl GenericHmac {
    pub(crate) fn new(options: HmacOptions) -> GenericHmac {
        GenericHmac { options }
    }

    fn signature(&self) -> BodySignature<'_> {
        BodySignature {
            header: self.options.header.clone(),
            encoding: self.options.encoding,
            prefix: &self.options.prefix,
            alias: None,
            exact_text: false,
        }
    }
}

impl Scheme for GenericHmac {
    fn kind(&self) -> SchemeKind {
        SchemeKind::Hmac
    }

    fn is_timestamped(&self) -> bool {
        false
    }

    fn signature_header(&self) -> HeaderName {
        self.options.header.clone()
    }

    fn delivery_id_header(&self) -> Option<HeaderName> {
        None
    }

    fn sign(&self, delivery: &Delivery, key: &SigningKey) -> Result<Vec<(HeaderName, HeaderValue)>, SignError> {
        Ok(vec![(self.options.header.clone(), self.signature().header_value(key, &delivery.body)?)])
    }

    fn verify(
        &self,
        headers: &HeaderMap,
        body: &[u8],
        key: &SigningKey,
        window: TimeWindow,
    ) -> Result<Verified, VerifyError> {
        let matched = self.signature().matches(headers, body, key)?;
        let note = conclude(window, None, Future::Refused, matched)?;
        Ok(Verified { scheme: SchemeKind::Hmac, timestamp: None, id: None, note })
    }
}
