//! Parsing of the human units used on the command line: durations (`250ms`, `5s`, `2m`, `24h`)
//! and sizes (`64KiB`, `1MiB`, `1000`).
use std::time::Duration;

/// Parses a duration such as `250ms`, `5s`, `2m` or `1h30m`. A bare `0` is accepted, any other bare
/// number is refused because its unit would be a guess.
pub fn parse_duration(text: &str) -> Result<Duration, String> {
    let text = text.trim();
    if text == "0" {
        return Ok(Duration::ZERO);
    }
    humantime::parse_duration(text)
        .map_err(|err| format!("`{text}` is not a duration ({err}); write it like 250ms, 5s, 2m or 24h"))
}

/// Parses a size such as `64KiB`, `1MiB`, `10MB` or a plain number of bytes.
pub fn parse_size(text: &str) -> Result<u64, String> {
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

/// Formats a duration for people: `850µs`, `12.3ms`, `1.52s`, `3m05s`.
pub fn format_duration(duration: Duration) -> String {
    let micros = duration.as_micros();
    if micros < 1_000 {
        format!("{micros}µs")
    } else if micros < 100_000 && micros % 1_000 != 0 {
        format!("{:.1}ms", micros as f64 / 1_000.0)
    } else if micros < 1_000_000 {
        format!("{}ms", micros / 1_000)
    } else if micros < 60_000_000 {
        format!("{:.2}s", micros as f64 / 1_000_000.0)
    } else {
        let seconds = duration.as_secs();
        format!("{}m{:02}s", seconds / 60, seconds % 60)
    }
}

/// Milliseconds with microsecond precision, for JSON reports (`0.896`, not `0.8964519999999999`).
pub fn millis(duration: Duration) -> f64 {
    (duration.as_secs_f64() * 1_000_000.0).round() / 1_000.0
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
    fn durations_format_for_people() {
        assert_eq!(format_duration(Duration::from_micros(850)), "850µs");
        assert_eq!(format_duration(Duration::from_micros(12_345)), "12.3ms");
        assert_eq!(format_duration(Duration::from_millis(250)), "250ms");
        assert_eq!(format_duration(Duration::from_millis(50)), "50ms");
        assert_eq!(format_duration(Duration::from_millis(1_520)), "1.52s");
        assert_eq!(format_duration(Duration::from_secs(185)), "3m05s");
    }
}
