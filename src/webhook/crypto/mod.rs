//! The asymmetric keys and certificates of the providers that sign webhooks with them, as small
//! function sets the signing schemes call: no scheme knowledge here, only key forms and operations.
//!
//! One convention for every asymmetric provider: the sender signs with its PRIVATE key (in PEM, or
//! in the provider's own form such as Discord's hex Ed25519 seed) and the receiver verifies with
//! what it holds, the PUBLIC key as the provider shows it (Discord: hex; SendGrid: base64 DER
//! SubjectPublicKeyInfo) or, for AWS SNS and PayPal, an X.509 certificate fetched from a URL on the
//! provider's host (`cert_url`) and checked against a trust root (`certificate`).
//!
//! - `ed25519`: Discord's keys (hex seed / PKCS#8 PEM; hex public key).
//! - `ecdsa_p256`: SendGrid's keys (PKCS#8 or SEC1 PEM; base64 DER SPKI; base64 DER signatures).
//! - `rsa`: RSA PKCS#1 v1.5 with SHA-1 or SHA-256 signing (PKCS#8 or PKCS#1 PEM), and key generation.
//! - `certificate`: X.509 certificate chains verified to a trust root, and signatures verified with
//!   the leaf's public key.
//! - `cert_url`: the certificate URL allow-lists of SNS and PayPal, and the fetcher with its cache.
//! - `key_pair`: `webhook secret`'s pairs ({secret, public}) and the local CA of sns/paypal.
//! - `pem`: reading and writing PEM blocks.
pub(crate) mod cert_url;
pub(crate) mod certificate;
pub(crate) mod ecdsa_p256;
pub(crate) mod ed25519;
pub(crate) mod key_pair;
pub(crate) mod pem;
pub(crate) mod rsa;

/// Why a key cannot be used. The messages name the form that was expected and never include the key.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum KeyError {
    #[error("the {what} is not {expected}")]
    Form { what: &'static str, expected: &'static str },
    #[error("the {what} was rejected: {reason}")]
    Rejected { what: &'static str, reason: String },
}

impl KeyError {
    pub(crate) fn form(what: &'static str, expected: &'static str) -> KeyError {
        KeyError::Form { what, expected }
    }

    pub(crate) fn rejected(what: &'static str, reason: impl ToString) -> KeyError {
        KeyError::Rejected { what, reason: reason.to_string() }
    }
}
