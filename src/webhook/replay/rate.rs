//! `--rate`: how fast `webhook replay` starts deliveries (`10/s`, `30/m`, `100/h`, `1/5s`).
use std::time::Duration;

use crate::units::parse_duration;

/// At most `count` deliveries started per `per`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Rate {
    pub count: f64,
    pub per: Duration,
}

impl Rate {
    /// The least time between two starts.
    pub fn interval(self) -> Duration {
        Duration::try_from_secs_f64(self.per.as_secs_f64() / self.count).unwrap_or(Duration::MAX)
    }
}

/// Parses `N/s`, `N/m`, `N/h` or `N/DURATION`, N a positive number.
pub(crate) fn parse_rate(text: &str) -> Result<Rate, String> {
    let invalid = || format!("`{text}` is not a rate; write it like 10/s, 30/m, 100/h or 1/5s");
    let (count, unit) = text.trim().split_once('/').ok_or_else(invalid)?;
    let count: f64 = count.trim().parse().map_err(|_| invalid())?;
    if !(count.is_finite() && count > 0.0) {
        return Err(invalid());
    }
    let per = match unit.trim() {
        "s" | "sec" => Duration::from_secs(1),
        "m" | "min" => Duration::from_secs(60),
        "h" => Duration::from_secs(3_600),
        other => parse_duration(other).map_err(|_| invalid())?,
    };
    if per.is_zero() {
        return Err(invalid());
    }
    Ok(Rate { count, per })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rates_become_intervals() {
        assert_eq!(parse_rate("10/s").unwrap().interval(), Duration::from_millis(100));
        assert_eq!(parse_rate("30/m").unwrap().interval(), Duration::from_secs(2));
        assert_eq!(parse_rate("1/5s").unwrap().interval(), Duration::from_secs(5));
        assert_eq!(parse_rate("0.5/s").unwrap().interval(), Duration::from_secs(2));
        for bad in ["10", "0/s", "-1/s", "x/s", "1/fortnight", "1/0s", "inf/s"] {
            assert!(parse_rate(bad).is_err(), "{bad}");
        }
    }
}
