//! Checking a delivery's signature: with the one scheme given, or (`--scheme auto`) with the
//! scheme whose signature header the request carries. A mismatch gets a hint when a common
//! mistake explains it, so the log says what to fix.
use std::time::Duration;

use http::HeaderMap;

use crate::webhook::scheme::{self, Scheme, SchemeKind, SchemeOptions, SigningKey, TimeWindow, VerifyError};
use crate::webhook::secret::Secret;
use crate::webhook::verify::hint;

/// The scheme and key, derived once at start-up.
pub enum Verifier {
    Fixed { scheme: Box<dyn Scheme>, key: SigningKey, secret: Secret },
    Auto { options: SchemeOptions, secret: Secret },
}

/// What checking one delivery found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Checked {
    pub scheme: Option<SchemeKind>,
    /// The delivery id the scheme's header carries (read even when the signature is wrong).
    pub delivery_id: Option<String>,
    /// Why the delivery is not authentic; `None` when it is.
    pub failure: Option<Failure>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Failure {
    /// Stable, for `--format json`: a [`VerifyError::code`], `no_scheme` or `bad_secret`.
    pub code: &'static str,
    pub reason: String,
}

impl Failure {
    fn from_error(err: &VerifyError) -> Failure {
        Failure { code: err.code(), reason: err.to_string() }
    }
}

impl Verifier {
    /// Derives the key for a fixed scheme now, so a secret the scheme cannot use stops the
    /// listener at start-up instead of failing every delivery.
    pub fn new(kind: Option<SchemeKind>, options: SchemeOptions, secret: Secret) -> anyhow::Result<Verifier> {
        Ok(match kind {
            Some(kind) => {
                let scheme = scheme::build(kind, &options);
                let key = scheme.key(&secret).map_err(|err| anyhow::anyhow!("--scheme {kind}: {err}"))?;
                Verifier::Fixed { scheme, key, secret }
            }
            None => Verifier::Auto { options, secret },
        })
    }

    /// The scheme's name for the banner.
    pub fn describe(&self) -> String {
        match self {
            Verifier::Fixed { scheme, .. } => scheme.kind().to_string(),
            Verifier::Auto { .. } => "auto".to_string(),
        }
    }

    pub fn check(&self, headers: &HeaderMap, body: &[u8], tolerance: Duration) -> Checked {
        let window = TimeWindow::around_now(tolerance);
        match self {
            Verifier::Fixed { scheme, key, secret } => check_with(scheme.as_ref(), key, secret, headers, body, window),
            Verifier::Auto { options, secret } => {
                let Some(scheme) = scheme::detect(headers, options) else {
                    let reason = format!(
                        "no signature header of a known scheme (looked for {}); pass --scheme to say which one the \
                         sender uses",
                        scheme::detectable_headers(options).join(", ")
                    );
                    return Checked {
                        scheme: None,
                        delivery_id: None,
                        failure: Some(Failure { code: "no_scheme", reason }),
                    };
                };
                match scheme.key(secret) {
                    Ok(key) => check_with(scheme.as_ref(), &key, secret, headers, body, window),
                    Err(err) => Checked {
                        scheme: Some(scheme.kind()),
                        delivery_id: scheme.delivery_id(headers),
                        failure: Some(Failure {
                            code: "bad_secret",
                            reason: format!("--scheme {}: {err}", scheme.kind()),
                        }),
                    },
                }
            }
        }
    }
}

fn check_with(
    scheme: &dyn Scheme,
    key: &SigningKey,
    secret: &Secret,
    headers: &HeaderMap,
    body: &[u8],
    window: TimeWindow,
) -> Checked {
    let failure = match scheme.verify(headers, body, key, window) {
        Ok(_) => None,
        Err(VerifyError::SignatureMismatch { hint: None }) => {
            // Only invalid deliveries pay for the hint's extra verifications.
            let hint = hint::diagnose(scheme, headers, body, secret, window);
            Some(Failure::from_error(&VerifyError::SignatureMismatch { hint }))
        }
        Err(err) => Some(Failure::from_error(&err)),
    };
    Checked { scheme: Some(scheme.kind()), delivery_id: scheme.delivery_id(headers), failure }
}
