//! Why signing or verifying failed, precisely enough for a person to fix it and for `--format json`
//! to report it. None of these messages can contain the secret: they only ever hold header names,
//! header values a sender put on the wire, and timestamps.
use std::time::Duration;

/// Why a verification failed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum VerifyError {
    #[error("the {header} header is missing")]
    HeaderMissing { header: String },

    #[error("the {header} header is malformed: {reason}")]
    HeaderMalformed { header: String, reason: String },

    #[error("{}", describe_stale(*timestamp, *now, *tolerance, *signature_matched))]
    TimestampOutsideTolerance {
        timestamp: i64,
        now: i64,
        tolerance: Duration,
        /// Whether the signature over the timestamp matched: if so, the key and body are right
        /// and this is a replay or a clock problem.
        signature_matched: bool,
    },

    #[error("the body does not carry the signature as the provider lays it out: {reason}")]
    BodyMalformed { reason: String },

    /// One item of a batch whose items are signed one by one (Adyen) failed, so the batch does.
    #[error("{item} {reason}; a batch is valid only when every item is")]
    BatchItemRefused { item: String, reason: &'static str },

    #[error("the signature does not match{}", hint.as_ref().map(|hint| format!("; hint: {hint}")).unwrap_or_default())]
    SignatureMismatch {
        /// A common mistake that explains the mismatch, when one fits.
        hint: Option<String>,
    },

    #[error("--scheme {scheme} signs the URL the provider was given, and it is not known: give it with --url")]
    UrlRequired { scheme: String },

    /// The certificate URL the delivery names is not on the provider's host (or not https, or not
    /// a `.pem`): nothing was fetched from it.
    #[error("{reason}; nothing was fetched from it")]
    CertUrlRefused { reason: String },

    /// The certificate on the provider's host could not be had, or does not chain to a trusted root.
    #[error("{reason}")]
    CertificateUnavailable { reason: String },

    #[error("the body's SHA-256 is not the bodySHA256 the signed URL carries: the body is not the one that was signed")]
    BodyHashMismatch,
}

impl VerifyError {
    /// A stable machine-readable name for `--format json`.
    pub fn code(&self) -> &'static str {
        match self {
            VerifyError::HeaderMissing { .. } => "header_missing",
            VerifyError::HeaderMalformed { .. } => "header_malformed",
            VerifyError::BodyMalformed { .. } => "body_malformed",
            VerifyError::BatchItemRefused { .. } => "signature_mismatch",
            VerifyError::TimestampOutsideTolerance { .. } => "timestamp_outside_tolerance",
            VerifyError::SignatureMismatch { .. } => "signature_mismatch",
            VerifyError::UrlRequired { .. } => "url_required",
            VerifyError::BodyHashMismatch => "body_hash_mismatch",
            VerifyError::CertUrlRefused { .. } => "cert_url_refused",
            VerifyError::CertificateUnavailable { .. } => "certificate_unavailable",
        }
    }

    /// Whether the signature itself matched (only a stale timestamp can say yes).
    pub fn signature_matched(&self) -> bool {
        matches!(self, VerifyError::TimestampOutsideTolerance { signature_matched: true, .. })
    }

    #[cfg(test)]
    pub fn hint(&self) -> Option<&str> {
        match self {
            VerifyError::SignatureMismatch { hint } => hint.as_deref(),
            _ => None,
        }
    }

    pub(crate) fn missing(header: &http::HeaderName) -> VerifyError {
        VerifyError::HeaderMissing { header: super::spelled(header).into_owned() }
    }

    pub(crate) fn malformed(header: &http::HeaderName, reason: impl Into<String>) -> VerifyError {
        VerifyError::HeaderMalformed { header: super::spelled(header).into_owned(), reason: reason.into() }
    }
}

fn describe_stale(timestamp: i64, now: i64, tolerance: Duration, signature_matched: bool) -> String {
    let age = i128::from(now) - i128::from(timestamp);
    let distance =
        crate::units::format_duration(Duration::from_secs(u64::try_from(age.unsigned_abs()).unwrap_or(u64::MAX)));
    let when = if age >= 0 { format!("{distance} ago") } else { format!("{distance} in the future") };
    let tolerance = crate::units::format_duration(tolerance);
    if signature_matched {
        format!(
            "the signed timestamp {timestamp} is {when}, outside the {tolerance} tolerance; the signature itself \
             matches, so this is a replayed delivery or a clock out of sync (check both clocks, or widen --tolerance)"
        )
    } else {
        format!(
            "the signed timestamp {timestamp} is {when}, outside the {tolerance} tolerance, and the signature does not \
             match either"
        )
    }
}

/// Why signing failed.
#[derive(Debug, thiserror::Error)]
pub enum SignError {
    #[error("cannot read {body}")]
    ReadBody {
        body: String,
        #[source]
        source: std::io::Error,
    },

    #[error("the {what} `{value}` cannot be sent in the {header} header (only visible ASCII and spaces can)")]
    NotAHeaderValue { what: &'static str, value: String, header: String },

    #[error(
        "a whpk_ key is a public key and verifies only; sign with the whsk_ secret key of the pair (`webhook secret \
         --scheme standard --asymmetric` makes one)"
    )]
    PublicKeyCannotSign,

    #[error(
        "--scheme {scheme} signs with the sender's private key, and this key cannot sign (`webhook secret --scheme \
         {scheme}` makes a pair)"
    )]
    PrivateKeyNeeded { scheme: String },
    #[error(
        "{scheme} carries its signature inside the body, and this body carries none: sign it with `webhook sign` \
         or `webhook send`, which write it into the body"
    )]
    SignsInsideTheBody { scheme: String },

    #[error("--scheme {scheme} signs the URL the webhook is sent to: give it with --url URL")]
    UrlRequired { scheme: String },

    #[error("--scheme {scheme} cannot sign this delivery: {reason}")]
    NotSignable { scheme: String, reason: String },
}

/// `value` as a header value for `header`, or a [`SignError`] naming `what` it is.
pub(crate) fn to_header_value(
    what: &'static str,
    header: &http::HeaderName,
    value: String,
) -> Result<http::HeaderValue, SignError> {
    http::HeaderValue::from_str(&value).map_err(|_| SignError::NotAHeaderValue {
        what,
        // Refused because it holds a control character, which the message must not print raw.
        value: crate::output::terminal_safe(&value).into_owned(),
        header: super::spelled(header).into_owned(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stale_messages_say_whether_the_signature_matched() {
        let stale = |signature_matched| VerifyError::TimestampOutsideTolerance {
            timestamp: 100,
            now: 1_000,
            tolerance: Duration::from_secs(300),
            signature_matched,
        };
        assert!(stale(true).to_string().contains("15m ago"));
        assert!(stale(true).to_string().contains("signature itself matches"));
        assert!(stale(false).to_string().contains("does not match either"));
        let future = VerifyError::TimestampOutsideTolerance {
            timestamp: i64::MAX,
            now: i64::MIN,
            tolerance: Duration::ZERO,
            signature_matched: false,
        };
        assert!(future.to_string().contains("in the future"));
    }

    #[test]
    fn mismatch_carries_its_hint() {
        let err = VerifyError::SignatureMismatch { hint: Some("a newline".into()) };
        assert_eq!(err.to_string(), "the signature does not match; hint: a newline");
        assert_eq!(err.hint(), Some("a newline"));
    }
}
