//! Every way the tools read or write a time, in one place: the local time of day on log lines, RFC
//! 3339 in journals and JSON, Unix seconds for signatures, and HTTP dates (`Retry-After`) parsed in
//! all three forms RFC 9110 §5.6.7 says a recipient must accept.
use std::time::{Duration, SystemTime};

use chrono::{DateTime, Local, NaiveDateTime, SecondsFormat, Utc};

/// `14:03:07.125`: the time of day on a live log line, in the reader's time zone.
pub(crate) fn time_of_day(time: DateTime<Utc>) -> String {
    time.with_timezone(&Local).format("%H:%M:%S%.3f").to_string()
}

/// `2026-11-29T13:17:00.123Z`: a timestamp in a journal or a JSON document.
pub(crate) fn rfc3339(time: DateTime<Utc>) -> String {
    time.to_rfc3339_opts(SecondsFormat::Millis, true)
}

/// Now, in Unix seconds (what timestamped signature schemes sign).
pub fn unix_now() -> i64 {
    Utc::now().timestamp()
}

/// An HTTP-date in any of the three forms RFC 9110 §5.6.7 lists: IMF-fixdate (`Sun, 06 Nov 1994
/// 08:49:37 GMT`, what current servers send), and the obsolete RFC 850 (`Sunday, 06-Nov-94 08:49:37
/// GMT`) and asctime (`Sun Nov  6 08:49:37 1994`) forms, which recipients must still accept.
pub(crate) fn parse_http_date(text: &str) -> Option<SystemTime> {
    let text = text.trim();
    let parsed = NaiveDateTime::parse_from_str(text, "%a, %d %b %Y %H:%M:%S GMT")
        .or_else(|_| parse_rfc850(text))
        .or_else(|_| NaiveDateTime::parse_from_str(&collapse_spaces(text), "%a %b %d %H:%M:%S %Y"))
        .ok()?;
    let seconds = u64::try_from(parsed.and_utc().timestamp()).ok()?;
    Some(SystemTime::UNIX_EPOCH + Duration::from_secs(seconds))
}

/// RFC 850 dates carry a two-digit year; RFC 9110 says to read one that appears to be more than 50
/// years in the future as the most recent past year with those digits.
fn parse_rfc850(text: &str) -> chrono::ParseResult<NaiveDateTime> {
    let parsed = NaiveDateTime::parse_from_str(text, "%A, %d-%b-%y %H:%M:%S GMT")?;
    let fifty_years_ahead = Utc::now().naive_utc() + chrono::Duration::days(50 * 365);
    if parsed > fifty_years_ahead {
        if let Some(earlier) = parsed.checked_sub_months(chrono::Months::new(1200)) {
            return Ok(earlier);
        }
    }
    Ok(parsed)
}

/// asctime pads a one-digit day with a space (`Nov  6`); chrono's `%d` wants no padding there.
fn collapse_spaces(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(seconds: u64) -> Option<SystemTime> {
        Some(SystemTime::UNIX_EPOCH + Duration::from_secs(seconds))
    }

    #[test]
    fn http_dates_are_read_in_all_three_forms() {
        // RFC 9110's own example: 784111777 is Sun, 06 Nov 1994 08:49:37 GMT.
        assert_eq!(parse_http_date("Sun, 06 Nov 1994 08:49:37 GMT"), at(784_111_777));
        assert_eq!(parse_http_date("Sunday, 06-Nov-94 08:49:37 GMT"), at(784_111_777));
        assert_eq!(parse_http_date("Sun Nov  6 08:49:37 1994"), at(784_111_777));
        assert_eq!(parse_http_date("Thu, 01 Jan 2099 00:00:00 GMT"), at(4_070_908_800));
    }

    #[test]
    fn other_text_is_not_a_date() {
        for text in ["", "120", "tomorrow", "Sun, 06 Nov 1994 08:49:37 PST", "Sun, 32 Nov 1994 08:49:37 GMT"] {
            assert_eq!(parse_http_date(text), None, "{text}");
        }
    }

    #[test]
    fn journal_times_are_rfc3339_with_milliseconds() {
        let time = DateTime::from_timestamp_millis(1_795_957_500_123).unwrap();
        assert_eq!(rfc3339(time), "2026-11-29T13:05:00.123Z");
        assert_eq!(time_of_day(time).len(), "11:05:00.123".len());
    }
}
