//! Reading what a received request carries: header text, signed timestamps, and the final verdict
//! that combines the signature check with the timestamp window.
use http::{HeaderMap, HeaderName};

use super::{TimeWindow, VerifyError};

/// The header's value as text, or why it cannot be read.
pub(super) fn header_text<'h>(headers: &'h HeaderMap, name: &HeaderName) -> Result<&'h str, VerifyError> {
    let value = headers.get(name).ok_or_else(|| VerifyError::missing(name))?;
    let text = value.to_str().map_err(|_| VerifyError::malformed(name, "it holds bytes that are not visible ASCII"))?;
    Ok(text.trim())
}

/// A signed Unix timestamp, in seconds.
pub(super) fn parse_timestamp(name: &HeaderName, text: &str) -> Result<i64, VerifyError> {
    text.trim()
        .parse()
        .map_err(|_| VerifyError::malformed(name, format!("`{text}` is not a Unix timestamp in seconds")))
}

/// How a scheme treats a timestamp ahead of the clock.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Future {
    /// Outside the tolerance is outside, in either direction.
    Refused,
    /// Only timestamps older than the tolerance are refused, as the provider's library does.
    Accepted,
}

/// The verdict once the signature has been compared: a timestamp outside the window wins (and says
/// whether the signature matched), then a mismatch. `Ok` carries a note when a timestamp beyond
/// the tolerance in the future was accepted.
pub(super) fn conclude(
    window: TimeWindow,
    timestamp: Option<i64>,
    future: Future,
    signature_matched: bool,
) -> Result<Option<String>, VerifyError> {
    let mut note = None;
    if let Some(timestamp) = timestamp {
        let admitted = match future {
            Future::Refused => window.contains(timestamp),
            Future::Accepted => window.not_too_old(timestamp),
        };
        if !admitted {
            return Err(VerifyError::TimestampOutsideTolerance {
                timestamp,
                now: window.now,
                tolerance: window.tolerance,
                signature_matched,
            });
        }
        if !window.contains(timestamp) && signature_matched {
            let ahead = std::time::Duration::from_secs(u64::try_from(-window.age(timestamp)).unwrap_or(u64::MAX));
            note = Some(format!(
                "the signed timestamp {timestamp} is {} in the future, beyond the {} tolerance; accepted because \
                 the provider's own library accepts future timestamps (check the sender's clock)",
                crate::units::format_duration(ahead),
                crate::units::format_duration(window.tolerance)
            ));
        }
    }
    if signature_matched { Ok(note) } else { Err(VerifyError::SignatureMismatch { hint: None }) }
}

/// The signature entries of a header, refused as malformed past [`super::MAX_SIGNATURES`].
pub(super) fn capped<'t>(name: &HeaderName, entries: Vec<&'t str>) -> Result<Vec<&'t str>, VerifyError> {
    check_entries(name, entries.len())?;
    Ok(entries)
}

/// [`capped`] for a header whose entries were counted rather than collected.
pub(super) fn check_entries(name: &HeaderName, count: usize) -> Result<(), VerifyError> {
    if count > super::MAX_SIGNATURES {
        return Err(VerifyError::malformed(
            name,
            format!(
                "it carries {count} signature entries; at most {} are read (a provider sends one per active secret)",
                super::MAX_SIGNATURES
            ),
        ));
    }
    Ok(())
}

/// An empty header is as good as none: the providers' libraries refuse it the same way.
pub(super) fn non_empty<'h>(name: &HeaderName, text: &'h str) -> Result<&'h str, VerifyError> {
    if text.is_empty() { Err(VerifyError::malformed(name, "it is empty")) } else { Ok(text) }
}
