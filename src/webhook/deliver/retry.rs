//! `webhook send` and `webhook replay`'s side of the shared retry policy (crate::retry): the
//! provider schedules (`--schedule standard`, `stripe-test`) and the parsing of `--schedule` and
//! `--time-scale`.
use std::time::Duration;

use crate::units::parse_duration;

/// The Standard Webhooks specification's example schedule: immediately, 5s, 5m, 30m, 2h, 5h,
/// 10h, 14h, 20h, 24h (ten attempts over about three days).
pub(crate) const STANDARD_SCHEDULE: [u64; 10] = [0, 5, 300, 1_800, 7_200, 18_000, 36_000, 50_400, 72_000, 86_400];

/// Stripe's test mode retries "three times over a few hours". Stripe does not publish exact
/// delays, so this preset is our reading: attempts immediately, after 1h and after 2h more
/// (three attempts, three hours in all).
pub(crate) const STRIPE_TEST_SCHEDULE: [u64; 3] = [0, 3_600, 7_200];

/// Parses `--schedule`: `standard`, `stripe-test`, or delays separated by commas (`0s,5s,5m`).
pub(crate) fn parse_schedule(text: &str) -> Result<Vec<Duration>, String> {
    let preset = |seconds: &[u64]| seconds.iter().map(|s| Duration::from_secs(*s)).collect();
    match text.trim() {
        "standard" => return Ok(preset(&STANDARD_SCHEDULE)),
        "stripe-test" => return Ok(preset(&STRIPE_TEST_SCHEDULE)),
        _ => {}
    }
    let delays = text
        .split(',')
        .map(|part| {
            parse_duration(part).map_err(|err| {
                format!("{err}; --schedule takes delays separated by commas (0s,5s,5m), or standard, or stripe-test")
            })
        })
        .collect::<Result<Vec<_>, _>>()?;
    if delays.is_empty() {
        return Err("the schedule is empty".to_string());
    }
    if delays.len() > MAX_SCHEDULE_ATTEMPTS {
        return Err(format!(
            "the schedule has {} delays; at most {MAX_SCHEDULE_ATTEMPTS} attempts are allowed",
            delays.len()
        ));
    }
    if let Some(long) = delays.iter().find(|delay| **delay > MAX_SCHEDULE_DELAY) {
        return Err(format!(
            "a delay of {} is longer than any provider waits; each --schedule delay is at most 7 days",
            crate::units::format_duration(*long)
        ));
    }
    Ok(delays)
}

/// The most attempts a `--schedule` may list (Standard Webhooks uses 10, providers fewer than 20).
pub(crate) const MAX_SCHEDULE_ATTEMPTS: usize = 100;
/// The longest single `--schedule` delay (providers retry over about three days).
pub(crate) const MAX_SCHEDULE_DELAY: Duration = Duration::from_secs(7 * 24 * 3_600);
/// The `--time-scale` range: from a millionth (days into a fraction of a second) to a thousand.
pub(crate) const TIME_SCALE_RANGE: std::ops::RangeInclusive<f64> = 0.000_001..=1_000.0;

/// Parses `--time-scale`: a positive, finite factor within [`TIME_SCALE_RANGE`].
pub(crate) fn parse_time_scale(text: &str) -> Result<f64, String> {
    match text.trim().parse::<f64>() {
        Ok(factor) if TIME_SCALE_RANGE.contains(&factor) => Ok(factor),
        Ok(factor) if factor.is_finite() && factor > 0.0 => {
            Err(format!("--time-scale {text} is out of range; give a factor from 0.000001 to 1000"))
        }
        _ => Err(format!("`{text}` is not a time scale; give a positive factor such as 1, 0.1 or 0.001")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::retry::{Backoff, RetryPolicy};
    use rand::SeedableRng;
    use rand::rngs::StdRng;

    fn rng() -> StdRng {
        StdRng::seed_from_u64(7)
    }

    #[test]
    fn schedules_give_the_delay_before_each_attempt_scaled() {
        let policy = RetryPolicy { backoff: Backoff::Schedule(parse_schedule("0s,2s,4s").unwrap()), time_scale: 0.001 };
        assert_eq!(policy.max_attempts(), 3);
        let waits: Vec<Duration> = (1..=3).map(|k| policy.planned_wait(k, &mut rng()).wait).collect();
        assert_eq!(waits, [Duration::ZERO, Duration::from_millis(2), Duration::from_millis(4)]);
        assert_eq!(policy.retry_after_wait(Duration::from_secs(30)).wait, Duration::from_millis(30));
    }

    #[test]
    fn presets_and_bad_schedules() {
        assert_eq!(parse_schedule("standard").unwrap().len(), 10);
        assert_eq!(parse_schedule("standard").unwrap()[9], Duration::from_secs(24 * 3_600));
        assert_eq!(parse_schedule("stripe-test").unwrap().len(), 3);
        assert!(parse_schedule("0s,soon").unwrap_err().contains("`soon` is not a duration"));
        assert!(parse_schedule("").is_err());
        assert!(parse_time_scale("0").is_err() && parse_time_scale("nan").is_err());
        assert_eq!(parse_time_scale("0.001"), Ok(0.001));
        assert!(parse_time_scale("1e300").unwrap_err().contains("out of range"));
        assert!(parse_time_scale("1e-300").unwrap_err().contains("out of range"));
        assert!(parse_schedule("0s,999999h").unwrap_err().contains("at most 7 days"));
        assert!(parse_schedule(&vec!["1s"; 101].join(",")).unwrap_err().contains("at most 100"));
    }
}
