//! Reading what a received request carries: header text, signed timestamps, and the final verdict
//! that combines the signature check with the timestamp window.
use http::{HeaderMap, HeaderName};

use super::{TimeWindow, VerifyError};

/// The header's value as text, or why it cannot be read.
pub fn header_text<'h>(headers: &'h HeaderMap, name: &HeaderName) -> Result<&'h str, VerifyError> {
    let value = headers.get(name).ok_or_else(|| VerifyError::missing(name))?;
    let text = value.to_str().map_err(|_| VerifyError::malformed(name, "it holds bytes that are not visible ASCII"))?;
    Ok(text.trim())
}

/// A signed Unix timestamp, in seconds.
pub fn parse_timestamp(name: &HeaderName, text: &str) -> Result<i64, VerifyError> {
    text.trim()
        .parse()
        .map_err(|_| VerifyError::malformed(name, format!("`{text}` is not a Unix timestamp in seconds")))
}

/// The verdict once the signature has been compared: a timestamp outside the window wins (and says
/// whether the signature matched), then a mismatch.
pub fn conclude(window: TimeWindow, timestamp: Option<i64>, signature_matched: bool) -> Result<(), VerifyError> {
    if let Some(timestamp) = timestamp {
        if !window.contains(timestamp) {
            return Err(VerifyError::TimestampOutsideTolerance {
                timestamp,
                now: window.now,
                tolerance: window.tolerance,
                signature_matched,
            });
        }
    }
    if signature_matched { Ok(()) } else { Err(VerifyError::SignatureMismatch { hint: None }) }
}
