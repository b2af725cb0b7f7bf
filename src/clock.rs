//! Every way the tools read or write a time, in one place: the local time of day on log lines, RFC
//! 3339 in journals and JSON, Unix seconds for signatures, and HTTP dates (`Retry-After`) parsed in
//! all three forms RFC 9110 §5.6.7 says a recipient must accept.
use std::time::SystemTime;

use chrono::{DateTime, Local, SecondsFormat, Utc};

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
/// GMT`) and asctime (`Sun Nov  6 08:49:37 1994`) forms, which recipients must still accept; the
/// `httpdate` crate reads all three. It reads an RFC 850 two-digit year 00-69 as 2000-2069 and
/// 70-99 as 1970-1999, which agrees with RFC 9110's rule (a year more than 50 years ahead is the
/// most recent past one) until 2069. Dates before 1970 are not read: no `Retry-After` needs them.
pub(crate) fn parse_http_date(text: &str) -> Option<SystemTime> {
    httpdate::parse_http_date(text.trim()).ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

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
        assert_eq!(parse_http_date("  Sun, 06 Nov 1994 08:49:37 GMT\t"), at(784_111_777));
        // RFC 850's two-digit years: 00-69 are this century.
        assert_eq!(parse_http_date("Thursday, 01-Jan-37 00:00:00 GMT"), at(2_114_380_800));
    }

    #[test]
    fn other_text_is_not_a_date() {
        for text in [
            "",
            "120",
            "tomorrow",
            "Sun, 06 Nov 1994 08:49:37 PST",
            "Sun, 32 Nov 1994 08:49:37 GMT",
            "Sun, 06 Nov 1994 25:49:37 GMT",
        ] {
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
