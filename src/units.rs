//! Parsing of the human units used on the command line: durations (`250ms`, `5s`, `2m`, `24h`)
//! and sizes (`64KiB`, `1MiB`, `1000`).
use std::time::Duration;

/// Parses a duration such as `250ms`, `5s`, `2m` or `1h30m`. A bare `0` is accepted, any other bare
/// number is refused because its unit would be a guess.
pub(crate) fn parse_duration(text: &str) -> Result<Duration, String> {
    let text = text.trim();
    if text == "0" {
        return Ok(Duration::ZERO);
    }
    humantime::parse_duration(text)
        .map_err(|err| format!("`{text}` is not a duration ({err}); write it like 250ms, 5s, 2m or 24h"))
}

/// [`parse_duration`] refusing anything longer than `max`: a flag whose protection (a timeout, a
/// lease, an idle limit) a huge value would switch off names its bound instead.
pub(crate) fn parse_duration_at_most(text: &str, max: Duration) -> Result<Duration, String> {
    let duration = parse_duration(text)?;
    if duration > max {
        return Err(format!(
            "`{}` is longer than {}, the most this flag accepts",
            text.trim(),
            format_flag_duration(max)
        ));
    }
    Ok(duration)
}

/// A duration as a flag would be written: `10s`, `24h`, `90s`, `250ms` (the largest whole unit).
pub(crate) fn format_flag_duration(duration: Duration) -> String {
    let millis = duration.as_millis();
    match millis {
        0 => "0".to_string(),
        _ if millis.is_multiple_of(3_600_000) => format!("{}h", millis / 3_600_000),
        _ if millis.is_multiple_of(60_000) => format!("{}m", millis / 60_000),
        _ if millis.is_multiple_of(1_000) => format!("{}s", millis / 1_000),
        _ if duration.subsec_micros().is_multiple_of(1_000) => format!("{millis}ms"),
        _ => format_duration(duration),
    }
}

/// [`parse_size`] refusing anything larger than `max`.
pub(crate) fn parse_size_at_most(text: &str, max: u64) -> Result<u64, String> {
    let size = parse_size(text)?;
    if size > max {
        return Err(format!("`{}` is larger than {}, the most this flag accepts", text.trim(), format_size(max)));
    }
    Ok(size)
}

/// A size for people in the largest binary unit that divides it: `64MiB`, `1GiB`, `1500` bytes.
pub(crate) fn format_size(bytes: u64) -> String {
    for (unit, shift) in [("GiB", 30), ("MiB", 20), ("KiB", 10)] {
        if bytes >= 1 << shift && bytes.is_multiple_of(1 << shift) {
            return format!("{}{unit}", bytes >> shift);
        }
    }
    format!("{bytes} bytes")
}

/// Parses a size such as `64KiB`, `1MiB`, `10MB` or a plain number of bytes.
pub(crate) fn parse_size(text: &str) -> Result<u64, String> {
    let trimmed = text.trim();
    let split = trimmed.find(|c: char| !c.is_ascii_digit()).unwrap_or(trimmed.len());
    let (digits, unit) = trimmed.split_at(split);
    let invalid = || format!("`{text}` is not a size; write it like 1000, 64KiB or 1MiB");
    let number: u64 = digits.parse().map_err(|_| invalid())?;
    let multiplier: u64 = match unit.trim().to_ascii_lowercase().as_str() {
        "" | "b" => 1,
        "k" | "kb" => 1_000,
        "kib" => 1 << 10,
        "m" | "mb" => 1_000_000,
        "mib" => 1 << 20,
        "g" | "gb" => 1_000_000_000,
        "gib" => 1 << 30,
        _ => return Err(invalid()),
    };
    number.checked_mul(multiplier).ok_or_else(invalid)
}

/// Formats a duration for people, the one format every output uses: `850µs`, `12.3ms`, `1.52s`,
/// `3m05s`, `10m`, `1h30m`.
pub(crate) fn format_duration(duration: Duration) -> String {
    let micros = duration.as_micros();
    if micros < 1_000 {
        format!("{micros}µs")
    } else if micros < 100_000 && !micros.is_multiple_of(1_000) {
        format!("{:.1}ms", micros as f64 / 1_000.0)
    } else if micros < 1_000_000 {
        format!("{}ms", micros / 1_000)
    } else if micros < 60_000_000 {
        format!("{:.2}s", micros as f64 / 1_000_000.0)
    } else {
        // Whole seconds from a minute up, without trailing zero parts: 10m, 15m29s, 1h, 1h30m.
        let total = duration.as_secs();
        match (total / 3600, total % 3600 / 60, total % 60) {
            (0, minutes, 0) => format!("{minutes}m"),
            (0, minutes, seconds) => format!("{minutes}m{seconds:02}s"),
            (hours, 0, 0) => format!("{hours}h"),
            (hours, minutes, 0) => format!("{hours}h{minutes:02}m"),
            (hours, minutes, seconds) => format!("{hours}h{minutes:02}m{seconds:02}s"),
        }
    }
}

/// Milliseconds with microsecond precision, for JSON reports (`0.896`, not `0.8964519999999999`).
pub(crate) fn millis(duration: Duration) -> f64 {
    (duration.as_secs_f64() * 1_000_000.0).round() / 1_000.0
}

/// Reports hold `Duration`s; JSON shows them as numbers in the unit the field's name says
/// (`latency_ms`, `spread_us`), rounded so `0.896` does not print as `0.8964519999999999`. Use with
/// `#[serde(serialize_with = "crate::units::as_ms")]` and its siblings.
pub(crate) fn as_ms<S: serde::Serializer>(duration: &Duration, serializer: S) -> Result<S::Ok, S::Error> {
    serializer.serialize_f64(millis(*duration))
}

/// `as_ms` for an optional duration (`null` when absent).
pub(crate) fn as_ms_opt<S: serde::Serializer>(duration: &Option<Duration>, serializer: S) -> Result<S::Ok, S::Error> {
    match duration {
        Some(duration) => serializer.serialize_some(&millis(*duration)),
        None => serializer.serialize_none(),
    }
}

/// Microseconds, with a tenth of a microsecond kept.
pub(crate) fn micros(duration: Duration) -> f64 {
    (duration.as_secs_f64() * 10_000_000.0).round() / 10.0
}

/// A duration as microseconds in JSON (`spread_us`).
pub(crate) fn as_us<S: serde::Serializer>(duration: &Duration, serializer: S) -> Result<S::Ok, S::Error> {
    serializer.serialize_f64(micros(*duration))
}

/// `as_us` for an optional duration.
pub(crate) fn as_us_opt<S: serde::Serializer>(duration: &Option<Duration>, serializer: S) -> Result<S::Ok, S::Error> {
    match duration {
        Some(duration) => serializer.serialize_some(&micros(*duration)),
        None => serializer.serialize_none(),
    }
}

/// `as_us` for a list of durations.
pub(crate) fn as_us_list<S: serde::Serializer>(durations: &[Duration], serializer: S) -> Result<S::Ok, S::Error> {
    serializer.collect_seq(durations.iter().map(|duration| micros(*duration)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_read_like_the_design_notes() {
        assert_eq!(parse_duration("250ms"), Ok(Duration::from_millis(250)));
        assert_eq!(parse_duration("5s"), Ok(Duration::from_secs(5)));
        assert_eq!(parse_duration("2m"), Ok(Duration::from_secs(120)));
        assert_eq!(parse_duration("24h"), Ok(Duration::from_secs(86_400)));
        assert_eq!(parse_duration("0"), Ok(Duration::ZERO));
        assert!(parse_duration("5").is_err());
        assert!(parse_duration("fast").is_err());
    }

    #[test]
    fn sizes_accept_binary_and_decimal_units() {
        assert_eq!(parse_size("64KiB"), Ok(65_536));
        assert_eq!(parse_size("1MiB"), Ok(1_048_576));
        assert_eq!(parse_size("10MB"), Ok(10_000_000));
        assert_eq!(parse_size("1000"), Ok(1000));
        assert!(parse_size("lots").is_err());
        assert!(parse_size("99999999999999999999GiB").is_err());
    }

    #[test]
    fn bounded_values_name_their_bound() {
        let day = Duration::from_secs(86_400);
        assert_eq!(parse_duration_at_most("24h", day), Ok(day));
        let err = parse_duration_at_most("999999999999h", day).unwrap_err();
        assert!(err.contains("longer than 24h"), "{err}");
        assert_eq!(parse_size_at_most("1MiB", 1 << 30), Ok(1 << 20));
        let err = parse_size_at_most("2GiB", 1 << 30).unwrap_err();
        assert!(err.contains("larger than 1GiB"), "{err}");
        assert_eq!(format_size(1500), "1500 bytes");
        assert_eq!(format_flag_duration(Duration::from_secs(10)), "10s");
        assert_eq!(format_flag_duration(Duration::from_secs(90)), "90s");
        assert_eq!(format_flag_duration(Duration::from_millis(1500)), "1500ms");
    }

    #[test]
    fn durations_format_for_people() {
        assert_eq!(format_duration(Duration::from_micros(850)), "850µs");
        assert_eq!(format_duration(Duration::from_micros(12_345)), "12.3ms");
        assert_eq!(format_duration(Duration::from_millis(250)), "250ms");
        assert_eq!(format_duration(Duration::from_millis(50)), "50ms");
        assert_eq!(format_duration(Duration::from_millis(1_520)), "1.52s");
        assert_eq!(format_duration(Duration::from_secs(185)), "3m05s");
        assert_eq!(format_duration(Duration::from_secs(600)), "10m");
        assert_eq!(format_duration(Duration::from_secs(3600)), "1h");
        assert_eq!(format_duration(Duration::from_secs(5400)), "1h30m");
        assert_eq!(format_duration(Duration::from_secs(3661)), "1h01m01s");
    }
}
