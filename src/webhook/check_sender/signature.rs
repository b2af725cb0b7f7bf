//! Checking each attempt's signature with the one scheme given, or (`--scheme auto`) with the scheme
//! whose signature header it carries. The signature and the signed time are reported apart: a
//! stale timestamp under a matching signature is the `timestamp-skew` check's business, not
//! `signed`'s.
use std::time::Duration;

use super::book::Signature;
use crate::webhook::scheme::{
    self, ReceivedRequest, Scheme, SchemeKind, SchemeOptions, SigningKey, TimeWindow, VerifyError,
};
use crate::webhook::secret::Secret;

/// The scheme and key, derived once at start-up.
pub(super) enum Verifier {
    Fixed { scheme: Box<dyn Scheme>, key: SigningKey },
    Auto { options: SchemeOptions, secret: Secret },
}

impl Verifier {
    /// Derives the key for a fixed scheme now, so a secret the scheme cannot use is a usage error
    /// before anything is started.
    pub(super) fn new(kind: Option<SchemeKind>, options: SchemeOptions, secret: Secret) -> anyhow::Result<Verifier> {
        Ok(match kind {
            Some(kind) => {
                let scheme = scheme::build(kind, &options);
                let key = scheme.verifying_key(&secret).map_err(|err| anyhow::anyhow!("--scheme {kind}: {err}"))?;
                Verifier::Fixed { scheme, key }
            }
            None => Verifier::Auto { options, secret },
        })
    }

    pub(super) fn describe(&self) -> String {
        match self {
            Verifier::Fixed { scheme, .. } => scheme.kind().to_string(),
            Verifier::Auto { .. } => "auto".to_string(),
        }
    }

    /// The signature verdict and the event id the scheme's header carries, if it has one.
    pub(super) fn check(&self, request: &ReceivedRequest<'_>, tolerance: Duration) -> (Signature, Option<String>) {
        let headers = request.headers;
        let window = TimeWindow::around_now(tolerance);
        match self {
            Verifier::Fixed { scheme, key } => check_with(scheme.as_ref(), key, request, window),
            Verifier::Auto { options, secret } => {
                let Some(scheme) = scheme::detect(headers, options) else {
                    let problem = format!(
                        "no signature header of a known scheme (looked for {})",
                        scheme::detectable_headers(options).join(", ")
                    );
                    let signature = Signature { scheme: None, matched: false, problem: Some(problem), timestamp: None };
                    return (signature, None);
                };
                match scheme.verifying_key(secret) {
                    Ok(key) => check_with(scheme.as_ref(), &key, request, window),
                    Err(err) => {
                        let problem = Some(format!("--scheme {}: {err}", scheme.kind()));
                        let signature =
                            Signature { scheme: Some(scheme.kind()), matched: false, problem, timestamp: None };
                        (signature, scheme.delivery_id(headers))
                    }
                }
            }
        }
    }
}

fn check_with(
    scheme: &dyn Scheme,
    key: &SigningKey,
    request: &ReceivedRequest<'_>,
    window: TimeWindow,
) -> (Signature, Option<String>) {
    let headers = request.headers;
    let kind = Some(scheme.kind());
    let signature = match scheme.verify_request(request, key, window) {
        Ok(verified) => Signature { scheme: kind, matched: true, problem: None, timestamp: verified.timestamp },
        Err(err @ VerifyError::TimestampOutsideTolerance { timestamp, signature_matched, .. }) => Signature {
            scheme: kind,
            matched: signature_matched,
            problem: Some(err.to_string()),
            timestamp: Some(timestamp),
        },
        Err(err) => Signature { scheme: kind, matched: false, problem: Some(err.to_string()), timestamp: None },
    };
    (signature, scheme.delivery_id(headers).filter(|id| !id.is_empty()))
}
