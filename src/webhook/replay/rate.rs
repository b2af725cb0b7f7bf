//! `--rate`: how fast `webhook replay` starts deliveries (`10/s`, `30/m`, `100/h`, `1/5s`).
use std::time::Duration;

use crate::units::{parse_duration, parse_duration_at_most};

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
/// The longest unit a rate may be counted over, and the most deliveries counted per unit: a
/// rate of 1/999999h would stop the replay for good.
const MAX_PER: Duration = Duration::from_secs(3_600);
const MAX_COUNT: f64 = 100_000.0;

pub(crate) fn parse_rate(text: &str) -> Result<Rate, String> {
    let invalid = || format!("`{text}` is not a rate; write it like 10/s, 30/m, 100/h or 1/5s");
    let (count, unit) = text.trim().split_once('/').ok_or_else(invalid)?;
    let count: f64 = count.trim().parse().map_err(|_| invalid())?;
    if !(count.is_finite() && count > 0.0) {
        return Err(invalid());
    }
    if count > MAX_COUNT {
        return Err(format!("`{text}`: at most {MAX_COUNT} deliveries per unit"));
    }
    let per = match unit.trim() {
        "s" | "sec" => Duration::from_secs(1),
        "m" | "min" => Duration::from_secs(60),
        "h" => Duration::from_secs(3_600),
        other => parse_duration_at_most(other, MAX_PER).map_err(|err| {
            if parse_duration(other).is_ok() { format!("`{text}`: the unit {err}") } else { invalid() }
        })?,
    };
    if per.is_zero() {
        return Err(invalid());
    }
    let rate = Rate { count, per };
    if rate.interval() > MAX_PER {
        return Err(format!("`{text}` starts fewer than one delivery an hour; at most 1h between two starts"));
    }
    Ok(rate)
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
