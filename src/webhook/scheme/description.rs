//! A signing scheme written down as data: which headers carry what, what bytes are signed, with
//! which algorithm, how the tag is written and how the secret becomes a key. The built-in
//! providers are such descriptions (`providers/*.json`), and `described.rs` is the one signer and
//! verifier that reads them, so a new provider is a file, not a module.
//!
//! "What is signed" ([`Signed`]) and "the algorithm" ([`Algorithm`]) are enums a new kind is added
//! to (URL and sorted form parameters, fields of the body, Ed25519, ECDSA, RSA) without touching
//! the rest of the description.
use serde::{Deserialize, Serialize};

use super::mac::{Encoding, MacAlgorithm};

/// One scheme, as a provider's documentation states it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct SchemeDescription {
    /// The name `--scheme` takes (lower-case letters, digits and `-`).
    pub(crate) name: String,
    /// One line for `webhook schemes`: the header and what is signed.
    pub(crate) summary: String,
    pub(crate) signature: SignatureHeader,
    /// The delivery id receivers de-duplicate on, if the provider sends one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) id_header: Option<NamedHeader>,
    /// The event type, if the provider names it in a header.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) event_header: Option<NamedHeader>,
    pub(crate) signed: Signed,
    pub(crate) algorithm: Algorithm,
    /// The signed timestamp, for schemes that sign one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) timestamp: Option<TimestampHeader>,
    #[serde(default)]
    pub(crate) secret: SecretForm,
    /// Where the rules were read (the provider's documentation or library), for people checking.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) source: Option<String>,
}

/// A header, and other names the same value may arrive under.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct NamedHeader {
    /// The name written when signing, spelled as the provider documents it.
    pub(crate) name: String,
    /// Other names read when verifying, before `name` when the request carries them (a provider
    /// that renamed its headers and whose libraries read the new name first).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub(crate) also_read: Vec<String>,
}

/// The header that carries the signature and how the tag is written in it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct SignatureHeader {
    /// Empty when the signature travels in the body (`signed: {"fields": …}`).
    #[serde(default)]
    pub(crate) name: String,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub(crate) also_read: Vec<String>,
    /// How the tag is written (hex when not said; a shared token has no tag to write).
    #[serde(default)]
    pub(crate) encoding: Encoding,
    /// Text before the encoded tag (`sha256=`, `v0=`); may be empty.
    #[serde(default)]
    pub(crate) prefix: String,
    #[serde(default)]
    pub(crate) compare: Compare,
    /// The header is a list of `key=value` items (`t=…,v1=…`, `ts=…;h1=…`) carrying the signed
    /// timestamp and one signature or several (one per active secret, as during a rotation).
    /// The timestamp is then read from the list, so the scheme has no `timestamp` header.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) list: Option<SignatureList>,
}

/// A signature header in list form: `<timestamp>=<unix>` and `<signature>=<tag>` items between
/// `separator`s. Items of other keys (another version, as Stripe's `v0`) are ignored.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct SignatureList {
    /// Between items: `,` (Calendly, Mux) or `;` (Paddle).
    pub(crate) separator: String,
    /// The key of the item holding the signed timestamp, in Unix seconds (`t`, `ts`).
    pub(crate) timestamp: String,
    /// The key of each item holding a signature (`v1`, `h1`); any one matching is enough.
    pub(crate) signature: String,
}

/// How a received tag is compared with the expected one.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub(crate) enum Compare {
    /// The text as the provider's library compares it: the lower-case hex or padded base64 it
    /// computes, so `A1…` or a missing `=` is a mismatch.
    #[default]
    Text,
    /// The decoded bytes, for in-house senders that differ in case or padding.
    Bytes,
}

/// What bytes the signature covers.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub(crate) enum Signed {
    /// The raw body alone.
    Body,
    /// Text with placeholders: `{body}` (exactly once), `{timestamp}` (as sent in the timestamp
    /// header), `{id}` (the id header's value), `{url}` (the URL the provider was given, as
    /// given) and `{method}` (`POST`). `v0:{timestamp}:{body}` is Slack's, `{url}{body}` Square's.
    Template(String),
    /// Twilio's: the URL followed by each form parameter's name and value, sorted by name then
    /// value, a repeated identical pair once; a JSON body instead through the `bodySHA256` query
    /// parameter of the URL, whose value must be the body's SHA-256 (the URL alone is signed).
    /// Verifying tries the URL without its port and with the default port, as Twilio's library.
    UrlAndSortedForm,
    /// Nothing: the header carries a shared token (the `shared-token` algorithm), which proves
    /// who knows the secret but not that the body is the one sent.
    Nothing,
    /// Fields of the JSON body: the signature and what it covers travel in the body, as the
    /// provider lays them out (`canonical/<provider>.rs` reads them); no header carries it.
    Fields(BodyFields),
}

/// The providers whose signature is a field of the body.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub(crate) enum BodyFields {
    /// `signature.{timestamp, token, signature}`: hex HMAC of timestamp + token.
    Mailgun,
    /// Each `notificationItems[].NotificationRequestItem` signed on its own, base64, in its
    /// `additionalData.hmacSignature`; a batch is valid only when every item is.
    Adyen,
}

/// The signing algorithm.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub(crate) enum Algorithm {
    HmacSha1,
    HmacSha256,
    HmacSha512,
    /// Ed25519 with the sender's private key; receivers verify with the public key (Discord: hex).
    Ed25519,
    /// ECDSA P-256 with SHA-256, DER signatures; receivers verify with the public key (SendGrid:
    /// base64 DER SubjectPublicKeyInfo).
    EcdsaP256,
    /// No MAC: the signature header carries the secret itself (GitLab's `X-Gitlab-Token`),
    /// compared in constant time. `signed` must be `nothing`.
    SharedToken,
}

impl Algorithm {
    /// The MAC of a shared-secret algorithm; `None` for a key pair's and a shared token.
    pub(crate) fn mac(self) -> Option<MacAlgorithm> {
        match self {
            Algorithm::HmacSha1 => Some(MacAlgorithm::HmacSha1),
            Algorithm::HmacSha256 => Some(MacAlgorithm::HmacSha256),
            Algorithm::HmacSha512 => Some(MacAlgorithm::HmacSha512),
            Algorithm::Ed25519 | Algorithm::EcdsaP256 | Algorithm::SharedToken => None,
        }
    }
}

/// The header that carries the signed timestamp.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct TimestampHeader {
    pub(crate) name: String,
    #[serde(default)]
    pub(crate) form: TimestampForm,
    /// Whether a timestamp ahead of the clock by more than the tolerance is accepted, because
    /// the provider's own library accepts it.
    #[serde(default)]
    pub(crate) future: FutureTimestamps,
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub(crate) enum TimestampForm {
    #[default]
    UnixSeconds,
    UnixMilliseconds,
    /// `2026-12-02T14:41:12Z` (Twitch), signed as the text sent; fractions of a second are read.
    Rfc3339,
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub(crate) enum FutureTimestamps {
    /// Outside the tolerance is outside, in either direction.
    #[default]
    Refused,
    /// Only timestamps older than the tolerance are refused.
    Accepted,
}

/// How the secret becomes key bytes.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub(crate) enum SecretForm {
    /// The secret's bytes as given.
    #[default]
    Raw,
    /// `whsec_` stripped and the rest base64-decoded (Standard Webhooks).
    WhsecBase64,
    /// Hex digits decoded to the key bytes (Adyen's HMAC key).
    Hex,
}

/// Why a description cannot be used, naming the field.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{field}: {reason}")]
pub(crate) struct DescriptionError {
    pub(crate) field: String,
    pub(crate) reason: String,
}

impl DescriptionError {
    pub(crate) fn new(field: impl Into<String>, reason: impl Into<String>) -> DescriptionError {
        DescriptionError { field: field.into(), reason: reason.into() }
    }
}
