//! HMAC-SHA256, the primitive under every scheme: keys derived from a secret, tags over a signed
//! prefix followed by the body (streamed when it is a file), and constant-time comparison.
use std::fmt;
use std::sync::Arc;

use base64::Engine;
use base64::alphabet;
use base64::engine::{DecodePaddingMode, GeneralPurpose, GeneralPurposeConfig};
use hmac::{Hmac, Mac};
use sha2::{Sha256, Sha512};
use subtle::ConstantTimeEq;

use super::SignError;
use super::ed25519::{AsymmetricKey, AsymmetricKeyError};
use super::provider_key::{KeyHalfError, ProviderKey};
use crate::webhook::delivery::DeliveryBody;
use crate::webhook::secret::Secret;

/// Standard base64 that encodes with padding (what every provider sends) and decodes with or
/// without it (what people paste).
pub const BASE64: GeneralPurpose = GeneralPurpose::new(
    &alphabet::STANDARD,
    GeneralPurposeConfig::new().with_decode_padding_mode(DecodePaddingMode::Indifferent),
);

/// How `whsec_` secrets are decoded: as the reference libraries decode them. standardwebhooks
/// (Python, which svix delegates to) appends `==` and calls `b64decode`; the Node library's
/// base64 takes the text as it is. Both accept a secret without its padding and a last digit
/// whose unused low bits are not zero (`whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaS` keys with the 23
/// bytes of `…LaLaS=`), so this engine does too. Only the standard alphabet is read: Python
/// silently drops other characters (a URL-safe `-` or `_`, a space) and so keys with other bytes
/// than the sender's, which is refused here rather than followed.
const WHSEC_BASE64: GeneralPurpose = GeneralPurpose::new(
    &alphabet::STANDARD,
    GeneralPurposeConfig::new()
        .with_decode_padding_mode(DecodePaddingMode::Indifferent)
        .with_decode_allow_trailing_bits(true),
);

/// How a scheme turns the secret string into HMAC key bytes. Getting this wrong is the most common
/// reason a correct signature does not verify, so it is explicit, and `verify` tries the other form
/// to say so.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KeyForm {
    /// The secret's bytes as given, a `whsec_` prefix included (Stripe, GitHub, Slack, Shopify).
    Raw,
    /// `whsec_` stripped (when present) and the rest base64-decoded (Standard Webhooks, Svix); or a
    /// `whsk_`/`whpk_` Ed25519 key for Standard Webhooks' `v1a`.
    WhsecBase64,
    /// Hex digits decoded to the key bytes (Adyen's HMAC key, as its Customer Area shows it).
    Hex,
}

const WHSEC_PREFIX: &str = "whsec_";

impl KeyForm {
    pub fn derive(self, secret: &Secret) -> Result<SigningKey, SecretError> {
        match self {
            KeyForm::Raw => Ok(SigningKey::from_bytes(secret.expose())),
            KeyForm::WhsecBase64 => {
                let text = secret.expose();
                if let Some(asymmetric) = AsymmetricKey::parse(text) {
                    // The HMAC half keys with the text as given and checks no `v1` entry: a
                    // `whsk_`/`whpk_` key is for `v1a` only (`SigningKey::asymmetric`).
                    let mut key = SigningKey::from_bytes(text);
                    key.asymmetric = Some(Arc::new(asymmetric?));
                    return Ok(key);
                }
                let encoded = text.strip_prefix(WHSEC_PREFIX.as_bytes()).unwrap_or(text);
                let key = WHSEC_BASE64.decode(encoded).map_err(|_| SecretError::NotBase64)?;
                if key.is_empty() {
                    return Err(SecretError::EmptyKey);
                }
                Ok(SigningKey::from_bytes(&key))
            }
            KeyForm::Hex => {
                let key = hex::decode(secret.expose().trim_ascii()).map_err(|_| SecretError::NotHex)?;
                if key.is_empty() {
                    return Err(SecretError::EmptyKey);
                }
                Ok(SigningKey::from_bytes(&key))
            }
        }
    }

    pub fn describe(self) -> &'static str {
        match self {
            KeyForm::Raw => "the secret string as given (a whsec_ prefix included, not decoded)",
            KeyForm::WhsecBase64 => "the secret with whsec_ stripped and the rest base64-decoded",
            KeyForm::Hex => "the secret's hex digits decoded to bytes",
        }
    }
}

/// Why a secret cannot key a scheme. The messages never include the secret.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SecretError {
    #[error(
        "the secret is not `whsec_` followed by base64, which this scheme needs (it signs with the decoded bytes); \
         copy the whole secret from the sender, or make one with `webhook secret --scheme standard`"
    )]
    NotBase64,
    #[error(
        "the secret is not hex digits, which this scheme needs (it signs with the decoded bytes); copy the whole HMAC \
         key from the sender"
    )]
    NotHex,
    #[error("the secret decodes to no key bytes at all; copy the whole secret from the sender")]
    EmptyKey,
    #[error(transparent)]
    Asymmetric(#[from] AsymmetricKeyError),
    /// A key-pair scheme was given the half the command does not use (or a key it cannot read as it).
    #[error(transparent)]
    KeyHalf(#[from] KeyHalfError),
}

/// An HMAC-SHA256 key ready to sign or verify: the keyed state after the key block, cloned for
/// every tag so the key is hashed once, at start-up. `Debug` shows nothing of the key.
#[derive(Clone)]
pub struct SigningKey {
    keyed: Hmac<Sha256>,
    /// The key bytes, for the hashes other than SHA-256 a described scheme may name (keyed per
    /// tag: those schemes are rarer, and one extra key block per request is cheap).
    bytes: Arc<[u8]>,
    /// A Standard Webhooks `whsk_`/`whpk_` key: the scheme then signs and verifies `v1a` entries
    /// with it, and `v1` ones not at all (the key cannot check them).
    asymmetric: Option<Arc<AsymmetricKey>>,
    /// The private or public key of a described key-pair scheme (Discord, SendGrid); its HMAC
    /// half is keyed with nothing and never used.
    provider: Option<Arc<ProviderKey>>,
}

/// An HMAC-SHA256 tag.
pub(super) type Tag = [u8; 32];

impl fmt::Debug for SigningKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("SigningKey(<redacted>)")
    }
}

impl SigningKey {
    pub fn from_bytes(key: &[u8]) -> SigningKey {
        // HMAC takes a key of any length (longer ones are hashed first), so this cannot fail.
        let keyed =
            <Hmac<Sha256> as Mac>::new_from_slice(key).unwrap_or_else(|_| unreachable!("HMAC accepts any key length"));
        SigningKey { keyed, bytes: Arc::from(key), asymmetric: None, provider: None }
    }

    /// The key of a described key-pair scheme.
    pub(crate) fn from_provider_key(key: ProviderKey) -> SigningKey {
        SigningKey { provider: Some(Arc::new(key)), ..SigningKey::from_bytes(&[]) }
    }

    /// The key-pair half, when this is a described key-pair scheme's key.
    pub(crate) fn provider_key(&self) -> Option<&ProviderKey> {
        self.provider.as_deref()
    }

    /// The tag under `algorithm` over `prefix`, the body, then `suffix` (a file body streamed).
    pub fn digest_streaming(
        &self,
        algorithm: MacAlgorithm,
        prefix: &[u8],
        body: &DeliveryBody,
        suffix: &[u8],
    ) -> Result<Vec<u8>, SignError> {
        let mut context = self.context(algorithm);
        context.update(prefix);
        body.for_each_chunk(|chunk| context.update(chunk))
            .map_err(|source| SignError::ReadBody { body: body.describe(), source })?;
        context.update(suffix);
        Ok(context.finish())
    }

    /// The tag under `algorithm` over the concatenation of `parts`.
    pub fn digest(&self, algorithm: MacAlgorithm, parts: &[&[u8]]) -> Vec<u8> {
        let mut context = self.context(algorithm);
        for part in parts {
            context.update(part);
        }
        context.finish()
    }

    fn context(&self, algorithm: MacAlgorithm) -> MacContext {
        #[cfg(test)]
        count_tag();
        match algorithm {
            MacAlgorithm::HmacSha256 => MacContext::Sha256(self.keyed.clone()),
            MacAlgorithm::HmacSha512 => MacContext::Sha512(
                <Hmac<Sha512> as Mac>::new_from_slice(&self.bytes)
                    .unwrap_or_else(|_| unreachable!("HMAC accepts any key length")),
            ),
            MacAlgorithm::HmacSha1 => MacContext::Sha1(ring::hmac::Context::with_key(&ring::hmac::Key::new(
                ring::hmac::HMAC_SHA1_FOR_LEGACY_USE_ONLY,
                &self.bytes,
            ))),
        }
    }

    /// The secret's bytes, for a scheme whose header carries the secret itself (a shared token).
    pub(super) fn secret_bytes(&self) -> &[u8] {
        &self.bytes
    }

    /// The Ed25519 key, when this is a `whsk_`/`whpk_` key.
    pub fn asymmetric(&self) -> Option<&AsymmetricKey> {
        self.asymmetric.as_deref()
    }

    /// The tag over `prefix` followed by the body, streaming a file body chunk by chunk.
    pub fn tag_streaming(&self, prefix: &[u8], body: &DeliveryBody) -> Result<Tag, SignError> {
        #[cfg(test)]
        count_tag();
        let mut context = self.keyed.clone();
        context.update(prefix);
        body.for_each_chunk(|chunk| context.update(chunk))
            .map_err(|source| SignError::ReadBody { body: body.describe(), source })?;
        Ok(context.finalize().into_bytes().into())
    }

    /// The tag over the concatenation of `parts`, without copying them together.
    pub fn tag(&self, parts: &[&[u8]]) -> Tag {
        #[cfg(test)]
        count_tag();
        let mut context = self.keyed.clone();
        for part in parts {
            context.update(part);
        }
        context.finalize().into_bytes().into()
    }

    #[cfg(test)]
    /// True when `candidate` is the tag over `parts`, compared in constant time so a forger learns
    /// nothing from how long a rejection takes.
    pub fn matches(&self, parts: &[&[u8]], candidate: &[u8]) -> bool {
        any_equal(&self.tag(parts), [candidate])
    }
}

/// Whether any candidate equals `expected`. Each comparison is constant-time and every candidate
/// is compared (no early exit), so timing reveals neither how much of a forgery was right nor
/// which entry matched. The caller computes `expected` once per request: a header with many
/// entries must not cost one HMAC over the body per entry.
pub(super) fn any_equal<'c>(expected: &[u8], candidates: impl IntoIterator<Item = &'c [u8]>) -> bool {
    candidates.into_iter().fold(false, |found, candidate| bool::from(expected.ct_eq(candidate)) | found)
}

#[cfg(test)]
thread_local! {
    /// HMAC computations on this thread, so tests can prove a verification computes one.
    static TAGS_COMPUTED: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

#[cfg(test)]
fn count_tag() {
    TAGS_COMPUTED.with(|count| count.set(count.get() + 1));
}

/// How many HMACs `run` computed (on this thread).
#[cfg(test)]
pub(super) fn tags_computed_by(run: impl FnOnce()) -> usize {
    let before = TAGS_COMPUTED.with(std::cell::Cell::get);
    run();
    TAGS_COMPUTED.with(std::cell::Cell::get) - before
}

/// The MAC a scheme signs with. SHA-1 only because providers still use it (Twilio, Intercom,
/// Vercel): a receiver must check what its sender sends.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum MacAlgorithm {
    HmacSha1,
    HmacSha256,
    HmacSha512,
}

impl MacAlgorithm {
    pub fn name(self) -> &'static str {
        match self {
            MacAlgorithm::HmacSha1 => "HMAC-SHA1",
            MacAlgorithm::HmacSha256 => "HMAC-SHA256",
            MacAlgorithm::HmacSha512 => "HMAC-SHA512",
        }
    }
}

/// One tag being computed.
enum MacContext {
    Sha1(ring::hmac::Context),
    Sha256(Hmac<Sha256>),
    Sha512(Hmac<Sha512>),
}

impl MacContext {
    fn update(&mut self, data: &[u8]) {
        match self {
            MacContext::Sha1(context) => context.update(data),
            MacContext::Sha256(context) => context.update(data),
            MacContext::Sha512(context) => context.update(data),
        }
    }

    fn finish(self) -> Vec<u8> {
        match self {
            MacContext::Sha1(context) => context.sign().as_ref().to_vec(),
            MacContext::Sha256(context) => context.finalize().into_bytes().to_vec(),
            MacContext::Sha512(context) => context.finalize().into_bytes().to_vec(),
        }
    }
}

/// How a tag is written in a header.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Default,
    clap::ValueEnum,
    serde::Serialize,
    serde::Deserialize,
    schemars::JsonSchema,
)]
#[serde(rename_all = "lowercase")]
pub enum Encoding {
    /// Lower-case hex digits
    #[default]
    Hex,
    /// Standard base64 with padding
    Base64,
}

impl Encoding {
    pub fn encode(self, tag: &[u8]) -> String {
        match self {
            Encoding::Hex => hex::encode(tag),
            Encoding::Base64 => BASE64.encode(tag),
        }
    }

    /// Decodes a tag as written in a header; `None` when it is not in this encoding.
    pub fn decode(self, text: &str) -> Option<Vec<u8>> {
        match self {
            Encoding::Hex => hex::decode(text).ok(),
            Encoding::Base64 => BASE64.decode(text).ok(),
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Encoding::Hex => "hex",
            Encoding::Base64 => "base64",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn secret(text: &str) -> Secret {
        Secret::new(text.as_bytes().to_vec()).unwrap()
    }

    #[test]
    fn whsec_secrets_decode_with_or_without_prefix() {
        let with = KeyForm::WhsecBase64.derive(&secret("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw")).unwrap();
        let without = KeyForm::WhsecBase64.derive(&secret("MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw")).unwrap();
        assert_eq!(with.tag(&[b"x"]).as_ref(), without.tag(&[b"x"]).as_ref());
        assert_eq!(KeyForm::WhsecBase64.derive(&secret("whsec_not base64!")).unwrap_err(), SecretError::NotBase64);
        assert_eq!(KeyForm::WhsecBase64.derive(&secret("whsec_")).unwrap_err(), SecretError::EmptyKey);
    }

    #[test]
    fn unpadded_whsec_secrets_key_as_their_padded_form() {
        // standardwebhooks' test_signature_verification_with_unpadded_secret: one and two `=`
        // missing, each last digit carrying non-zero unused bits.
        for (unpadded, padded) in [
            ("MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaS", "MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaS="),
            ("MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSwBr", "MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSwBr=="),
        ] {
            let unpadded = KeyForm::WhsecBase64.derive(&secret(&format!("whsec_{unpadded}"))).unwrap();
            let padded = KeyForm::WhsecBase64.derive(&secret(padded)).unwrap();
            assert_eq!(unpadded.tag(&[b"x"]).as_ref(), padded.tag(&[b"x"]).as_ref());
        }
        // What Python drops silently and Node refuses is refused: a URL-safe or spaced secret.
        for refused in ["whsec_ab-_cd", "whsec_ab cd", "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSwB"] {
            assert_eq!(KeyForm::WhsecBase64.derive(&secret(refused)).unwrap_err(), SecretError::NotBase64, "{refused}");
        }
    }

    #[test]
    fn streaming_and_parts_agree() {
        let key = SigningKey::from_bytes(b"k");
        let streamed = key.tag_streaming(b"1.", &DeliveryBody::Bytes("body".into())).unwrap();
        assert_eq!(streamed.as_ref(), key.tag(&[b"1.", b"body"]).as_ref());
        assert!(key.matches(&[b"1.body"], streamed.as_ref()));
        assert!(!key.matches(&[b"1.body"], &streamed.as_ref()[1..]));
    }

    #[test]
    fn encodings_round_trip() {
        for encoding in [Encoding::Hex, Encoding::Base64] {
            assert_eq!(encoding.decode(&encoding.encode(b"\x00\xff tag")).unwrap(), b"\x00\xff tag");
        }
        assert_eq!(Encoding::Hex.decode("zz"), None);
        assert_eq!(Encoding::Base64.decode("a!"), None);
    }
}
