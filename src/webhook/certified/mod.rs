//! The providers that sign with the key of a certificate they publish on their own host (AWS SNS,
//! PayPal): a sender signs with the RSA key (`crypto::key_pair::LocalCa` makes a local CA, key and
//! certificate for tests and offline use), a receiver fetches the certificate from the URL the delivery
//! names, but only from the provider's host (`crypto::cert_url`'s rule, checked before anything is
//! fetched: the forgery where a receiver trusts a certificate from any URL), checks its chain to the
//! web PKI or a `--trust-ca` root, and verifies the signature with its key over the provider's
//! string to sign (`canonical::sns`, `canonical::paypal`).
//!
//! On the command line through `scheme::certified`, which fits them to the scheme engine: SNS signs
//! into the body (`Scheme::sign_body`) and both verify after an asynchronous fetch
//! (`Scheme::prefetch`, then the synchronous verdict with the certificate it got).
pub(crate) mod paypal;
pub(crate) mod sns;

use crate::webhook::canonical::CanonicalError;
use crate::webhook::crypto::KeyError;
use crate::webhook::crypto::cert_url::CertUrlError;

/// Why a certificate-signed delivery was not signed or did not verify. Names fields, headers and
/// the certificate URL (public, from the delivery), never a key.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CertifiedError {
    #[error(transparent)]
    Canonical(#[from] CanonicalError),
    #[error(transparent)]
    CertUrl(#[from] CertUrlError),
    #[error(transparent)]
    Key(#[from] KeyError),
    #[error("the {field} is malformed: {reason}")]
    Malformed { field: String, reason: String },
    #[error("the {field} is missing")]
    Missing { field: String },
    #[error("the signature does not match the certificate's key")]
    SignatureMismatch,
}

impl CertifiedError {
    pub(crate) fn malformed(field: impl Into<String>, reason: impl Into<String>) -> CertifiedError {
        CertifiedError::Malformed { field: field.into(), reason: reason.into() }
    }
}
