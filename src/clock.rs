//! Every way the tools read or write a time, in one place: the local time of day on log lines, RFC
//! 3339 in journals and JSON, Unix seconds for signatures, and HTTP dates (`Retry-After`) parsed in
//! all three forms RFC 9110 §5.6.7 says a recipient must accept.
use std::cell::Cell;
use std::time::SystemTime;

use chrono::{DateTime, Datelike, Local, Offset, SecondsFormat, TimeZone, Timelike, Utc};

/// `14:03:07.125`: the time of day on a live log line, in the reader's time zone.
///
/// A listener prints one per delivery, so this is on the hot path: the zone's offset is looked up
/// once per minute (offsets change on minute boundaries) and the digits are written by hand.
pub(crate) fn time_of_day(time: DateTime<Utc>) -> String {
    let mut text = String::with_capacity(12);
    push_time_of_day(&mut text, time);
    text
}

/// `time_of_day`, pushed onto `text` (a live line being built, without a string of its own).
pub(crate) fn push_time_of_day(text: &mut String, time: DateTime<Utc>) {
    if time.nanosecond() >= 1_000_000_000 {
        // A leap second: rare enough for chrono's general formatting.
        text.push_str(&time.with_timezone(&Local).format("%H:%M:%S%.3f").to_string());
        return;
    }
    let seconds = time.timestamp() + i64::from(local_offset_at(time));
    let of_day = seconds.rem_euclid(86_400) as u32;
    push_2(text, of_day / 3600);
    text.push(':');
    push_2(text, of_day / 60 % 60);
    text.push(':');
    push_2(text, of_day % 60);
    text.push('.');
    push_3(text, time.nanosecond() / 1_000_000);
}

thread_local! {
    /// The last minute (Unix time / 60) the local offset was looked up for, and that offset.
    static LOCAL_OFFSET: Cell<(i64, i32)> = const { Cell::new((i64::MIN, 0)) };
}

/// The reader's UTC offset in seconds at `time`, looked up again when the minute changes.
fn local_offset_at(time: DateTime<Utc>) -> i32 {
    let minute = time.timestamp().div_euclid(60);
    LOCAL_OFFSET.with(|cached| {
        let (at, offset) = cached.get();
        if at == minute {
            return offset;
        }
        let offset = Local.offset_from_utc_datetime(&time.naive_utc()).fix().local_minus_utc();
        cached.set((minute, offset));
        offset
    })
}

/// `2026-11-29T13:17:00.123Z`: a timestamp in a journal or a JSON document.
pub(crate) fn rfc3339(time: DateTime<Utc>) -> String {
    if time.nanosecond() >= 1_000_000_000 || !(0..=9999).contains(&time.year()) {
        // A leap second, or a year chrono writes with a sign: its general formatting.
        return time.to_rfc3339_opts(SecondsFormat::Millis, true);
    }
    // The journal writes one per delivery: the same text as chrono's, written by hand.
    let mut text = String::with_capacity(24);
    let year = time.year() as u32;
    push_2(&mut text, year / 100);
    push_2(&mut text, year % 100);
    text.push('-');
    push_2(&mut text, time.month());
    text.push('-');
    push_2(&mut text, time.day());
    text.push('T');
    push_2(&mut text, time.hour());
    text.push(':');
    push_2(&mut text, time.minute());
    text.push(':');
    push_2(&mut text, time.second());
    text.push('.');
    push_3(&mut text, time.nanosecond() / 1_000_000);
    text.push('Z');
    text
}

/// `n` (below 100) as two digits.
fn push_2(text: &mut String, n: u32) {
    text.push(char::from(b'0' + (n / 10 % 10) as u8));
    text.push(char::from(b'0' + (n % 10) as u8));
}

/// `n` (below 1000) as three digits.
fn push_3(text: &mut String, n: u32) {
    text.push(char::from(b'0' + (n / 100 % 10) as u8));
    push_2(text, n % 100);
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

    #[test]
    fn hand_written_times_read_as_chrono_writes_them() {
        let samples =
            [0_i64, 1_000_000_123, 1_764_600_000_999, 1_798_761_599_500, 951_782_400_000, -1_000, 253_402_300_799_999];
        for millis in samples.into_iter().chain((0..2000).map(|n| 1_764_000_000_000 + n * 86_399_937)) {
            let time = DateTime::<Utc>::from_timestamp_millis(millis).unwrap();
            assert_eq!(rfc3339(time), time.to_rfc3339_opts(SecondsFormat::Millis, true), "{millis}");
            assert_eq!(time_of_day(time), time.with_timezone(&Local).format("%H:%M:%S%.3f").to_string(), "{millis}");
        }
        let far = DateTime::<Utc>::from_timestamp_millis(253_402_300_800_000).unwrap();
        assert_eq!(rfc3339(far), far.to_rfc3339_opts(SecondsFormat::Millis, true));
    }

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
