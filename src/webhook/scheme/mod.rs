//! Webhook signing schemes behind one trait, so `sign`, `verify`, `send`, `replay`, `listen` and
//! `check` all sign and verify the same way. A scheme is data: `description.rs` says what one is
//! made of, `described.rs` signs and verifies by it, and the built-ins are files in `providers/`
//! (`builtin.rs`). Stripe's and Standard Webhooks' lists of signatures and `v1a` keep their own
//! files until the description can state them.
//!
//! Typical use by a receiver:
//! ```no_run
//! # use idem::testing::scheme::{self, SchemeKind, SchemeOptions, Secret, TimeWindow};
//! # fn demo(headers: &http::HeaderMap, body: &[u8], secret: &Secret) -> anyhow::Result<()> {
//! let scheme = scheme::build(SchemeKind::Stripe, &SchemeOptions::default());
//! let key = scheme.key(secret)?; // once, at start-up: a bad secret is a usage error
//! let window = TimeWindow::around_now(std::time::Duration::from_secs(300));
//! match scheme.verify(headers, body, &key, window) {
//!     Ok(verified) => println!("valid, delivery id {:?}", verified.id),
//!     Err(err) => println!("rejected: {err}"),
//! }
//! # Ok(()) }
//! ```
pub(crate) mod alias;
mod builtin;
pub(crate) mod certified;
mod described;
pub(crate) mod description;
pub(crate) mod ed25519;
pub(crate) mod error;
pub(crate) mod hmac;
pub(crate) mod listing;
pub(crate) mod mac;
pub(crate) mod new_secret;
pub(crate) mod provider_key;
mod received;
pub(crate) mod request;
pub(crate) mod standard;
pub(crate) mod stripe;
pub(crate) mod user_file;

use std::fmt;
use std::time::Duration;

use http::{HeaderMap, HeaderName, HeaderValue};
use serde::Serialize;

use error::to_header_value;
pub(crate) use error::{SignError, VerifyError};
pub(crate) use hmac::HmacOptions;
pub(crate) use mac::{BASE64, Encoding, KeyForm, SecretError, SigningKey};
pub use request::ReceivedRequest;

/// The most signature entries one header may carry. Providers send one per active secret (two
/// during a rotation); a header with hundreds is an attack on the verifier's CPU, refused as
/// malformed before any comparison.
pub(crate) const MAX_SIGNATURES: usize = 16;

pub(crate) use certified::CertifiedOptions;

use crate::webhook::crypto::cert_url::CertProvider;
use crate::webhook::delivery::Delivery;
use crate::webhook::secret::Secret;

/// The signing schemes, by the name `--scheme` takes: the six the tool was built with, and the
/// providers described in `providers/` (`webhook schemes` lists them all).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SchemeKind {
    /// X-Signature: sha256=<hex> over the body (header, encoding and prefix adjustable)
    Hmac,
    /// X-Hub-Signature-256: sha256=<hex> over the body, with X-GitHub-Delivery and X-GitHub-Event
    Github,
    /// Stripe-Signature: t=<unix>,v1=<hex> over "<t>.<body>"
    Stripe,
    /// Standard Webhooks (Svix): webhook-id, webhook-timestamp, webhook-signature: v1,<base64>
    Standard,
    /// X-Slack-Signature: v0=<hex> over "v0:<timestamp>:<body>"
    Slack,
    /// X-Shopify-Hmac-Sha256: <base64> over the body, with X-Shopify-Webhook-Id
    Shopify,
    /// A provider described as data (`providers/*.json`).
    Provider(ProviderId),
    /// A provider's name for another scheme (`alias.rs`): Svix, Clerk, Resend, Replicate and
    /// OpenAI send Standard Webhooks.
    Alias(AliasId),
    /// A provider that signs with the key of a certificate it publishes on its own host (AWS SNS,
    /// PayPal: `certified.rs`).
    Certified(CertProvider),
}

/// Which alias of `alias::ALIASES` a [`SchemeKind::Alias`] is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct AliasId(pub(crate) u16);

/// Which built-in provider description a [`SchemeKind::Provider`] is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ProviderId(pub(crate) u16);

impl SchemeKind {
    /// A fresh delivery id in the form this provider sends: a UUID in GitHub's `X-GitHub-Delivery`
    /// and Shopify's `X-Shopify-Webhook-Id`, else `msg_…` (Standard Webhooks' form). A receiver
    /// that validates the id refuses a probe for the wrong reason when the form is another's.
    pub(crate) fn fresh_delivery_id(self) -> String {
        match self {
            SchemeKind::Github | SchemeKind::Shopify => uuid::Uuid::new_v4().to_string(),
            _ => crate::ids::fresh_id("msg_"),
        }
    }

    /// The schemes with code of their own or a description of their own, without the providers.
    pub const ALL: [SchemeKind; 6] = [
        SchemeKind::Hmac,
        SchemeKind::Github,
        SchemeKind::Stripe,
        SchemeKind::Standard,
        SchemeKind::Slack,
        SchemeKind::Shopify,
    ];

    /// Every scheme `--scheme` takes, the providers after the six.
    pub fn every() -> &'static [SchemeKind] {
        static EVERY: std::sync::OnceLock<Vec<SchemeKind>> = std::sync::OnceLock::new();
        EVERY.get_or_init(|| {
            let aliases = (0..alias::ALIASES.len()).map(|index| {
                SchemeKind::Alias(AliasId(u16::try_from(index).unwrap_or_else(|_| unreachable!("5 aliases"))))
            });
            let certified = [CertProvider::Sns, CertProvider::Paypal].map(SchemeKind::Certified);
            SchemeKind::ALL.into_iter().chain(builtin::providers()).chain(certified).chain(aliases).collect()
        })
    }

    /// The scheme `--scheme NAME` names.
    pub fn from_name(name: &str) -> Option<SchemeKind> {
        SchemeKind::every().iter().copied().chain(builtin::registered()).find(|kind| kind.name() == name)
    }

    pub fn name(self) -> &'static str {
        match self {
            SchemeKind::Hmac => "hmac",
            SchemeKind::Github => "github",
            SchemeKind::Stripe => "stripe",
            SchemeKind::Standard => "standard",
            SchemeKind::Slack => "slack",
            SchemeKind::Shopify => "shopify",
            SchemeKind::Provider(id) => &builtin::provider_description(id).name,
            SchemeKind::Alias(id) => id.alias().name,
            SchemeKind::Certified(CertProvider::Sns) => "sns",
            SchemeKind::Certified(CertProvider::Paypal) => "paypal",
        }
    }

    /// One line saying what the scheme signs and where, for `--help` and `webhook schemes`.
    pub fn summary(self) -> &'static str {
        match self {
            SchemeKind::Stripe => "Stripe-Signature: t=<unix>,v1=<hex> over \"<t>.<body>\"",
            SchemeKind::Standard => {
                "Standard Webhooks (Svix): webhook-id, webhook-timestamp, webhook-signature: v1,<base64> (or v1a, Ed25519)"
            }
            SchemeKind::Provider(id) => &builtin::provider_description(id).summary,
            SchemeKind::Alias(id) => id.alias().summary,
            SchemeKind::Certified(CertProvider::Sns) => {
                "AWS SNS: the JSON message's Signature (RSA, SHA-1 for SignatureVersion 1, SHA-256 for 2) over its \
                 fields, verified with the certificate at its SigningCertURL, fetched from sns.<region>.amazonaws.com"
            }
            SchemeKind::Certified(CertProvider::Paypal) => {
                "PayPal: PAYPAL-TRANSMISSION-SIG (RSA SHA-256) over \"<transmission id>|<time>|<webhook id>|<crc32 of \
                 body>\", verified with the certificate at PAYPAL-CERT-URL, fetched from PayPal's API host"
            }
            described => builtin::description(described).map_or("", |description| description.summary.as_str()),
        }
    }

    /// The description the scheme runs on, when it is described as data.
    pub(crate) fn description(self) -> Option<&'static description::SchemeDescription> {
        match self {
            SchemeKind::Provider(id) => Some(builtin::provider_description(id)),
            other => builtin::description(other),
        }
    }

    /// The scheme this is another name for, when it is an alias.
    pub(crate) fn alias_of(self) -> Option<SchemeKind> {
        match self {
            SchemeKind::Alias(id) => Some(id.alias().of),
            _ => None,
        }
    }
}

impl AliasId {
    pub(crate) fn alias(self) -> &'static alias::Alias {
        // An `AliasId` is only ever made from an index of the list.
        &alias::ALIASES[usize::from(self.0)]
    }
}

impl clap::ValueEnum for SchemeKind {
    fn value_variants<'a>() -> &'a [SchemeKind] {
        SchemeKind::every()
    }

    fn to_possible_value(&self) -> Option<clap::builder::PossibleValue> {
        Some(clap::builder::PossibleValue::new(self.name()).help(self.summary()))
    }
}

impl Serialize for SchemeKind {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.name())
    }
}

impl schemars::JsonSchema for SchemeKind {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "SchemeKind".into()
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        let names: Vec<&str> = SchemeKind::every().iter().map(|kind| kind.name()).collect();
        schemars::json_schema!({
            "description": "The signing scheme, by the name `--scheme` takes (`webhook schemes` lists them)",
            "type": "string",
            "enum": names,
        })
    }
}

impl fmt::Display for SchemeKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The knobs some schemes have; the defaults are each provider's own behaviour.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SchemeOptions {
    /// Header, encoding and prefix of the generic `hmac` scheme.
    pub hmac: HmacOptions,
    /// Standard Webhooks under Svix's header names (`svix-id`, `svix-timestamp`, `svix-signature`).
    pub svix: bool,
    /// The certificate URL, PayPal's webhook id and where certificates are fetched from (SNS, PayPal).
    pub certified: std::sync::Arc<CertifiedOptions>,
}

/// The timestamp check: a signed timestamp is accepted when it is within `tolerance` of `now`, in
/// either direction (a sender's clock may run ahead), or, for schemes whose provider library only
/// refuses old timestamps (Stripe), anywhere from `now - tolerance` on: see
/// [`Scheme::accepts_future_timestamps`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TimeWindow {
    /// Unix seconds.
    pub now: i64,
    pub tolerance: Duration,
}

impl TimeWindow {
    pub fn around_now(tolerance: Duration) -> TimeWindow {
        TimeWindow { now: crate::webhook::delivery::unix_now(), tolerance }
    }

    /// Seconds between `timestamp` and now, positive when the timestamp is in the past.
    pub fn age(self, timestamp: i64) -> i128 {
        i128::from(self.now) - i128::from(timestamp)
    }

    pub fn contains(self, timestamp: i64) -> bool {
        self.age(timestamp).unsigned_abs() <= u128::from(self.tolerance.as_secs())
    }

    /// Whether `timestamp` is no older than the tolerance (however far in the future it is).
    pub fn not_too_old(self, timestamp: i64) -> bool {
        self.age(timestamp) <= i128::from(self.tolerance.as_secs())
    }
}

/// What a successful verification established.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Verified {
    pub scheme: SchemeKind,
    /// The signed timestamp, for timestamped schemes.
    pub timestamp: Option<i64>,
    /// The delivery id the request carries, if the scheme has one.
    pub id: Option<String>,
    /// Something unusual that was accepted because the provider's own library accepts it (a
    /// timestamp far in the future for Stripe), worth telling the person looking.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

/// One signing scheme. Implementations are cheap, immutable and shareable across threads, so a
/// server can hold one `Box<dyn Scheme>` for every request.
pub trait Scheme: fmt::Debug + Send + Sync {
    fn kind(&self) -> SchemeKind;

    /// How the secret becomes HMAC key bytes.
    fn key_form(&self) -> KeyForm {
        KeyForm::Raw
    }

    /// The key for `secret`; derive it once (at start-up) and reuse it for every delivery.
    fn key(&self, secret: &Secret) -> Result<SigningKey, SecretError> {
        self.key_form().derive(secret)
    }

    /// The key a sender signs with: for a key-pair scheme, the private key only (a public key
    /// is refused, saying so); for a shared secret, [`key`](Self::key).
    fn signing_key(&self, secret: &Secret) -> Result<SigningKey, SecretError> {
        self.key(secret)
    }

    /// The key a receiver verifies with: for a key-pair scheme, the public key only (a private
    /// key is refused, saying so); for a shared secret, [`key`](Self::key).
    fn verifying_key(&self, secret: &Secret) -> Result<SigningKey, SecretError> {
        self.key(secret)
    }

    /// Whether the scheme signs a timestamp (so replays can be refused after the tolerance).
    fn is_timestamped(&self) -> bool;

    /// Whether a timestamp further in the future than the tolerance is accepted, because the
    /// provider's own library accepts it (stripe-python and stripe-node refuse only timestamps
    /// older than the tolerance). A receiver built on that library does the same, so refusing
    /// here would call valid deliveries invalid.
    fn accepts_future_timestamps(&self) -> bool {
        false
    }

    /// The header that carries the signature; its presence identifies the scheme.
    fn signature_header(&self) -> HeaderName;

    /// Every name the signature is read from, [`signature_header`](Self::signature_header)
    /// first: Shopify's libraries also read `shopify-hmac-sha256`.
    fn accepted_signature_headers(&self) -> Vec<HeaderName> {
        vec![self.signature_header()]
    }

    /// The signature header carries the shared secret itself (GitLab's `X-Gitlab-Token`), not a
    /// MAC: there is no prefix or encoding to find in it, the whole value is the token.
    fn sends_the_secret_itself(&self) -> bool {
        false
    }

    /// Whether the request carries this scheme's signature under any name it is read from.
    fn carries_signature(&self, headers: &HeaderMap) -> bool {
        self.accepted_signature_headers().iter().any(|name| headers.contains_key(name))
    }

    /// The header that carries the delivery id receivers de-duplicate on, if the scheme has one.
    fn delivery_id_header(&self) -> Option<HeaderName>;

    /// The delivery id a received request carries, if the scheme has one and it is readable text.
    fn delivery_id(&self, headers: &HeaderMap) -> Option<String> {
        let value = headers.get(self.delivery_id_header()?)?;
        value.to_str().ok().map(str::to_string)
    }

    /// For a scheme that writes its signature INTO the body (AWS SNS's message fields): the body
    /// as signed, which is sent in place of `delivery`'s and then given to [`sign`](Self::sign)
    /// for the headers. `None` for the schemes that sign into headers only.
    fn sign_body(&self, _delivery: &Delivery, _key: &SigningKey) -> Result<Option<bytes::Bytes>, SignError> {
        Ok(None)
    }

    /// The asynchronous step before a verdict, for the schemes that verify with something fetched
    /// over the network (SNS's and PayPal's certificates): fetches it, or records why it could not,
    /// so that [`verify_request`](Self::verify_request) judges synchronously right after. Nothing
    /// for the others.
    fn prefetch<'a>(
        &'a self,
        _request: &ReceivedRequest<'a>,
    ) -> std::pin::Pin<Box<dyn std::future::Future<Output = ()> + Send + 'a>> {
        Box::pin(std::future::ready(()))
    }

    /// The headers to send with `delivery`, signature first. Reads a file body in chunks.
    fn sign(&self, delivery: &Delivery, key: &SigningKey) -> Result<Vec<(HeaderName, HeaderValue)>, SignError>;

    /// Checks a received POST by its headers and body alone ([`verify_request`](Self::verify_request)
    /// without a method or URL: what `webhook verify` without `--url` and the suites' probes have).
    fn verify(
        &self,
        headers: &HeaderMap,
        body: &[u8],
        key: &SigningKey,
        window: TimeWindow,
    ) -> Result<Verified, VerifyError> {
        self.verify_request(&ReceivedRequest::post(headers, body), key, window)
    }

    /// Whether the scheme signs the request's URL, so signing needs `--url` and verifying needs
    /// the URL the provider was given.
    fn signs_url(&self) -> bool {
        false
    }

    /// Checks a received request: its headers and body, and its method and URL for the schemes that
    /// sign them. The signature is checked before the timestamp's age so a stale request can say
    /// whether its signature matched (a replay or clock problem, not a wrong key). A mismatch
    /// carries no hint here; `webhook::verify::hint` adds one when a common mistake fits.
    fn verify_request(
        &self,
        request: &ReceivedRequest<'_>,
        key: &SigningKey,
        window: TimeWindow,
    ) -> Result<Verified, VerifyError>;
}

/// The scheme for `kind`, with `options` applied where they mean something.
pub fn build(kind: SchemeKind, options: &SchemeOptions) -> Box<dyn Scheme> {
    match kind {
        SchemeKind::Hmac => Box::new(generic_hmac(&options.hmac)),
        SchemeKind::Stripe => Box::new(stripe::Stripe),
        SchemeKind::Standard => Box::new(if options.svix {
            standard::StandardWebhooks::svix()
        } else {
            standard::StandardWebhooks::standard()
        }),
        SchemeKind::Github | SchemeKind::Slack | SchemeKind::Shopify => Box::new(described(kind)),
        SchemeKind::Provider(id) => Box::new(builtin::provider_scheme(id).clone()),
        SchemeKind::Alias(id) => {
            let alias = id.alias();
            match alias.of {
                SchemeKind::Standard if alias.svix_headers || options.svix => {
                    Box::new(standard::StandardWebhooks::svix())
                }
                SchemeKind::Standard => Box::new(standard::StandardWebhooks::standard()),
                other => build(other, options),
            }
        }
        SchemeKind::Certified(provider) => Box::new(certified::CertifiedScheme::new(provider, &options.certified)),
    }
}

/// A built-in described scheme.
fn described(kind: SchemeKind) -> described::DescribedScheme {
    builtin::scheme(kind).unwrap_or_else(|| unreachable!("{kind} is a described built-in")).clone()
}

/// The generic `hmac` scheme: its description with the header, encoding and prefix the user chose.
fn generic_hmac(options: &HmacOptions) -> described::DescribedScheme {
    let mut description =
        builtin::description(SchemeKind::Hmac).unwrap_or_else(|| unreachable!("hmac is a described built-in")).clone();
    description.signature.name = options.header.as_str().to_string();
    description.signature.encoding = options.encoding;
    description.signature.prefix = options.prefix.clone();
    // The header is a `HeaderName` and the prefix was checked as header text by the command line.
    described::DescribedScheme::new(SchemeKind::Hmac, &description)
        .unwrap_or_else(|err| unreachable!("the hmac options were checked: {err}"))
}

/// Every scheme there is: the six, then the described providers.
fn all_schemes(options: &SchemeOptions) -> Vec<Box<dyn Scheme>> {
    let mut schemes: Vec<Box<dyn Scheme>> = vec![
        Box::new(standard::StandardWebhooks::standard()),
        Box::new(standard::StandardWebhooks::svix()),
        Box::new(stripe::Stripe),
        Box::new(described(SchemeKind::Github)),
        Box::new(described(SchemeKind::Slack)),
        Box::new(described(SchemeKind::Shopify)),
    ];
    schemes.extend(builtin::providers().map(|kind| build(kind, options)));
    schemes.push(Box::new(generic_hmac(&options.hmac)));
    schemes
}

/// Every scheme `detect` looks for, most specific first: the six built-ins, then the described
/// providers whose signature header is theirs alone, then the generic `hmac` header last because
/// other providers' requests may carry an `X-Signature` too. A provider whose header another
/// scheme shares is left to `--scheme`: Meta's `X-Hub-Signature-256` is GitHub's (which GitHub's
/// `X-GitHub-Event` marks, Meta's deliveries carry nothing of their own), and Intercom and
/// Bitbucket both sign in `X-Hub-Signature`.
fn candidates(options: &SchemeOptions) -> Vec<Box<dyn Scheme>> {
    let schemes = all_schemes(options);
    let headers: Vec<Vec<HeaderName>> = schemes.iter().map(|scheme| scheme.accepted_signature_headers()).collect();
    let shared = |index: usize| {
        headers[index]
            .iter()
            .any(|name| headers.iter().enumerate().any(|(other, names)| other != index && names.contains(name)))
    };
    let built_in = |scheme: &dyn Scheme| !matches!(scheme.kind(), SchemeKind::Provider(_));
    schemes
        .into_iter()
        .enumerate()
        .filter(|(index, scheme)| built_in(scheme.as_ref()) || !shared(*index))
        .map(|(_, scheme)| scheme)
        .collect()
}

/// Every signature header of every scheme, detected or not: what a replay removes before it signs
/// afresh, so no receiver picks up an old signature beside the new one.
pub(crate) fn every_signature_header(options: &SchemeOptions) -> Vec<String> {
    let mut names: Vec<String> = Vec::new();
    for name in all_schemes(options).iter().flat_map(|scheme| scheme.accepted_signature_headers()) {
        let name = spelled(&name).into_owned();
        if !names.contains(&name) {
            names.push(name);
        }
    }
    names
}

/// The scheme whose signature header the request carries (`--scheme auto`).
pub fn detect(headers: &HeaderMap, options: &SchemeOptions) -> Option<Box<dyn Scheme>> {
    candidates(options).into_iter().find(|scheme| scheme.carries_signature(headers))
}

/// The signature headers `detect` looks for, for the error when none is present, and every one a
/// replay drops before it signs afresh.
pub(crate) fn detectable_headers(options: &SchemeOptions) -> Vec<String> {
    candidates(options)
        .iter()
        .flat_map(|scheme| scheme.accepted_signature_headers())
        .map(|name| spelled(&name).into_owned())
        .collect()
}

/// Header names as the providers' documentation spells them. HTTP names are case-insensitive and
/// the `http` crate stores them lower-case, but people compare output against the docs.
const DOCUMENTED_SPELLINGS: &[&str] = &[
    "X-Hub-Signature-256",
    "X-GitHub-Delivery",
    "X-GitHub-Event",
    "Stripe-Signature",
    "webhook-id",
    "webhook-timestamp",
    "webhook-signature",
    "svix-id",
    "svix-timestamp",
    "svix-signature",
    "X-Slack-Signature",
    "X-Slack-Request-Timestamp",
    "X-Shopify-Hmac-Sha256",
    "X-Shopify-Webhook-Id",
    "X-Shopify-Topic",
    "shopify-hmac-sha256",
    "shopify-webhook-id",
    "shopify-topic",
    "x-amz-sns-message-type",
    "x-amz-sns-message-id",
    "x-amz-sns-topic-arn",
    "PAYPAL-TRANSMISSION-ID",
    "PAYPAL-TRANSMISSION-TIME",
    "PAYPAL-TRANSMISSION-SIG",
    "PAYPAL-CERT-URL",
    "PAYPAL-AUTH-ALGO",
];

/// `name` as documented, or in Title-Case for names we do not know.
pub(crate) fn spelled(name: &HeaderName) -> std::borrow::Cow<'static, str> {
    if let Some(known) = DOCUMENTED_SPELLINGS.iter().find(|known| known.eq_ignore_ascii_case(name.as_str())) {
        return std::borrow::Cow::Borrowed(known);
    }
    // A described provider's headers are written in its description as its documentation spells them.
    for description in SchemeKind::every().iter().filter_map(|kind| kind.description()) {
        let names = [&description.signature.name]
            .into_iter()
            .chain(&description.signature.also_read)
            .chain(description.id_header.iter().flat_map(|id| [&id.name].into_iter().chain(&id.also_read)))
            .chain(description.event_header.iter().flat_map(|event| [&event.name].into_iter().chain(&event.also_read)))
            .chain(description.timestamp.iter().map(|timestamp| &timestamp.name));
        if let Some(known) = names.into_iter().find(|known| known.eq_ignore_ascii_case(name.as_str())) {
            return std::borrow::Cow::Borrowed(known.as_str());
        }
    }
    std::borrow::Cow::Owned(crate::output::header_display_name(name.as_str()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn detection_follows_the_signature_header() {
        let options = SchemeOptions::default();
        for kind in SchemeKind::ALL {
            let scheme = build(kind, &options);
            let mut headers = HeaderMap::new();
            headers.insert(scheme.signature_header(), HeaderValue::from_static("x"));
            assert_eq!(detect(&headers, &options).map(|found| found.kind()), Some(kind));
        }
        let mut headers = HeaderMap::new();
        headers.insert("svix-signature", HeaderValue::from_static("x"));
        let svix = detect(&headers, &options).unwrap();
        assert_eq!(svix.delivery_id_header().unwrap(), "svix-id");
        let mut headers = HeaderMap::new();
        headers.insert("shopify-hmac-sha256", HeaderValue::from_static("x"));
        assert_eq!(detect(&headers, &options).map(|found| found.kind()), Some(SchemeKind::Shopify));
        assert!(detect(&HeaderMap::new(), &options).is_none());
    }

    #[test]
    fn providers_are_detected_by_a_signature_header_of_their_own() {
        let options = SchemeOptions::default();
        for kind in builtin::providers() {
            let scheme = build(kind, &options);
            let mut headers = HeaderMap::new();
            headers.insert(scheme.signature_header(), HeaderValue::from_static("x"));
            let found = detect(&headers, &options).map(|found| found.kind().name());
            match kind.name() {
                // X-Hub-Signature-256 is GitHub's too; X-Hub-Signature is Intercom's and Bitbucket's.
                "meta" => assert_eq!(found, Some("github")),
                "intercom" | "bitbucket" => assert_eq!(found, None),
                // Signed inside the body: no header of their own to detect them by.
                "mailgun" | "adyen" => assert_eq!(found, None),
                name => assert_eq!(found, Some(name)),
            }
        }
        let every = every_signature_header(&options);
        for name in ["X-Hub-Signature", "X-Twilio-Signature", "X-HubSpot-Signature-v3", "Stripe-Signature"] {
            assert!(every.iter().any(|header| header == name), "{name}: {every:?}");
        }
        assert!(!detectable_headers(&options).iter().any(|header| header == "X-Hub-Signature"));
    }

    #[test]
    fn names_are_spelled_as_documented() {
        assert_eq!(spelled(&HeaderName::from_static("x-github-delivery")), "X-GitHub-Delivery");
        assert_eq!(spelled(&HeaderName::from_static("webhook-id")), "webhook-id");
        assert_eq!(spelled(&HeaderName::from_static("x-my-sig")), "X-My-Sig");
        assert_eq!(spelled(&HeaderName::from_static("x-zm-signature")), "x-zm-signature");
        assert_eq!(spelled(&HeaderName::from_static("twitch-eventsub-message-id")), "Twitch-Eventsub-Message-Id");
    }

    #[test]
    fn the_window_is_symmetric() {
        let window = TimeWindow { now: 1_000, tolerance: Duration::from_secs(300) };
        assert!(window.contains(700) && window.contains(1_300));
        assert!(!window.contains(699) && !window.contains(1_301));
        assert!(!window.contains(i64::MIN) && !window.contains(i64::MAX));
    }

    #[test]
    fn only_some_schemes_are_timestamped() {
        let timestamped: Vec<SchemeKind> = SchemeKind::ALL
            .into_iter()
            .filter(|kind| build(*kind, &SchemeOptions::default()).is_timestamped())
            .collect();
        assert_eq!(timestamped, [SchemeKind::Stripe, SchemeKind::Standard, SchemeKind::Slack]);
    }
}
