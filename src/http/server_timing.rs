//! The arrival stamp a server under test can put on its answers, so a client that raced
//! duplicates at it can tell how far apart they reached the server's handler (the spread the
//! published single-packet measurements are made of), not just how far apart it released them.
//!
//! `Server-Timing` (W3C Server Timing) carries named metrics with an optional `dur` (milliseconds)
//! and `desc` (a string). An arrival is a moment, not a duration, so it goes in `desc` as the Unix
//! time in nanoseconds: `Server-Timing: arrival;desc="1764700000123456789"`. Browsers' developer
//! tools show it as a metric named `arrival`; anything that does not know the name ignores it.
//! Clocks of different machines are not compared: only the arrivals of one server's answers are
//! subtracted from each other.
use std::time::{SystemTime, UNIX_EPOCH};

use http::header::{HeaderMap, HeaderValue};

/// The header's name.
pub(crate) const SERVER_TIMING: &str = "server-timing";
/// The metric's name.
const ARRIVAL: &str = "arrival";

/// The header value stamping an arrival at `at`.
pub(crate) fn arrival_value(at: SystemTime) -> HeaderValue {
    let nanos = at.duration_since(UNIX_EPOCH).map_or(0, |since| since.as_nanos());
    HeaderValue::from_str(&format!("{ARRIVAL};desc=\"{nanos}\"")).unwrap_or(HeaderValue::from_static("arrival"))
}

/// Adds the arrival stamp to an answer's headers (another `Server-Timing` the answer has stays).
pub(crate) fn stamp_arrival(headers: &mut HeaderMap, at: SystemTime) {
    headers.append(SERVER_TIMING, arrival_value(at));
}

/// The arrival an answer was stamped with, in nanoseconds since the Unix epoch: the `desc` of
/// the first `arrival` metric in its `Server-Timing` headers.
pub(crate) fn read_arrival(headers: &HeaderMap) -> Option<u128> {
    headers
        .get_all(SERVER_TIMING)
        .iter()
        .filter_map(|value| value.to_str().ok())
        .flat_map(|value| value.split(','))
        .find_map(|metric| {
            let mut parts = metric.split(';').map(str::trim);
            if !parts.next()?.eq_ignore_ascii_case(ARRIVAL) {
                return None;
            }
            parts.find_map(|param| {
                let (name, value) = param.split_once('=')?;
                name.trim().eq_ignore_ascii_case("desc").then(|| value.trim().trim_matches('"').parse().ok())?
            })
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn an_arrival_reads_back_among_other_metrics() {
        let at = UNIX_EPOCH + Duration::from_nanos(1_764_700_000_123_456_789);
        let mut headers = HeaderMap::new();
        headers.insert(SERVER_TIMING, HeaderValue::from_static("db;dur=53, cache;desc=\"hit\""));
        stamp_arrival(&mut headers, at);
        assert_eq!(read_arrival(&headers), Some(1_764_700_000_123_456_789));
        let mut one = HeaderMap::new();
        one.insert(SERVER_TIMING, HeaderValue::from_static("total;dur=1.2, Arrival; desc=42"));
        assert_eq!(read_arrival(&one), Some(42));
        assert_eq!(read_arrival(&HeaderMap::new()), None);
        one.insert(SERVER_TIMING, HeaderValue::from_static("arrival;dur=3"));
        assert_eq!(read_arrival(&one), None);
    }
}
