//! `hmac`: the generic scheme most in-house senders use, `X-Signature: sha256=<hex>` over the raw
//! body (`providers/hmac.json`), with the header name, the encoding and the prefix adjustable.
use http::HeaderName;

use super::Encoding;

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
