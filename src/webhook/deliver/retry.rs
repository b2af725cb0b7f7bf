//! The retry policy of `webhook send` and `webhook replay`: how many attempts, and how long to wait
//! before each. Pure functions of the attempt number (and a random source for the jitter), so the
//! policy is tested without sleeping.
//!
//! Two shapes, as providers have them:
//! - exponential backoff with full jitter (AWS's "Exponential Backoff And Jitter"): before attempt
//!   k ≥ 2 wait a uniformly random time in `[0, min(cap, initial × 2^(k-2))]`, so a crowd of senders
//!   retrying the same receiver spreads out instead of arriving in waves;
//! - an explicit schedule: the delay before each attempt, like Standard Webhooks' and Stripe's.
//!
//! A `Retry-After` answer replaces the computed wait. Every wait is multiplied by the time scale,
//! which shrinks a schedule of hours to milliseconds for local runs.
use std::time::{Duration, SystemTime};

use http::HeaderValue;
use rand::Rng;
use serde::Serialize;

use crate::units::parse_duration;

/// The Standard Webhooks specification's example schedule: immediately, 5s, 5m, 30m, 2h, 5h,
/// 10h, 14h, 20h, 24h (ten attempts over about three days).
pub(crate) const STANDARD_SCHEDULE: [u64; 10] = [0, 5, 300, 1_800, 7_200, 18_000, 36_000, 50_400, 72_000, 86_400];

/// Stripe's test mode retries "three times over a few hours". Stripe does not publish exact
/// delays, so this preset is our reading: attempts immediately, after 1h and after 2h more
/// (three attempts, three hours in all).
pub(crate) const STRIPE_TEST_SCHEDULE: [u64; 3] = [0, 3_600, 7_200];

/// `--backoff-max` unless given: also the `Retry-After` ceiling under a `--schedule`.
pub(crate) const DEFAULT_BACKOFF_MAX: Duration = Duration::from_secs(3_600);

/// How waits are computed.
#[derive(Debug, Clone, PartialEq)]
pub enum Backoff {
    /// Full-jitter exponential backoff.
    Exponential { max_attempts: u32, initial: Duration, max: Duration },
    /// The delay before each attempt; its length is the number of attempts.
    Schedule(Vec<Duration>),
}

/// Why a wait lasts as long as it does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum WaitSource {
    /// The first attempt of an exponential policy goes at once.
    First,
    /// A random point below the exponential cap.
    Backoff,
    /// The explicit schedule.
    Schedule,
    /// The receiver's `Retry-After`.
    RetryAfter,
    /// The receiver's `Retry-After`, cut to the ceiling (`--backoff-max`, or the longest
    /// `--schedule` delay): a `Retry-After` of a year must not stall a delivery for a year.
    RetryAfterClamped,
}

/// The wait before one attempt, as planned (already scaled).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PlannedWait {
    pub wait: Duration,
    pub source: WaitSource,
    /// For backoff waits, the (scaled) upper bound the jitter was drawn under; for a clamped
    /// `Retry-After`, the (scaled) wait the receiver asked for.
    pub cap: Option<Duration>,
}

/// A complete retry policy.
#[derive(Debug, Clone, PartialEq)]
pub struct RetryPolicy {
    pub backoff: Backoff,
    /// Multiplies every wait, Retry-After included (1.0 for real time, 0.001 for tests).
    pub time_scale: f64,
}

impl Default for RetryPolicy {
    /// Five attempts, backoff from 1s capped at 1h, in real time.
    fn default() -> RetryPolicy {
        RetryPolicy {
            backoff: Backoff::Exponential {
                max_attempts: 5,
                initial: Duration::from_secs(1),
                max: DEFAULT_BACKOFF_MAX,
            },
            time_scale: 1.0,
        }
    }
}

impl RetryPolicy {
    /// How many attempts a delivery gets at most.
    pub fn max_attempts(&self) -> u32 {
        match &self.backoff {
            Backoff::Exponential { max_attempts, .. } => *max_attempts,
            Backoff::Schedule(delays) => u32::try_from(delays.len()).unwrap_or(u32::MAX),
        }
    }

    /// The unscaled upper bound of the wait before `attempt` (1-based) for exponential backoff:
    /// `min(max, initial × 2^(attempt-2))`, zero for the first attempt.
    pub fn exponential_cap(initial: Duration, max: Duration, attempt: u32) -> Duration {
        if attempt <= 1 {
            return Duration::ZERO;
        }
        // 2^31 × any initial already exceeds every sensible cap; saturate rather than overflow.
        let doublings = (attempt - 2).min(31);
        initial.saturating_mul(1u32 << doublings).min(max)
    }

    /// The wait before `attempt` (1-based), scaled. `rng` draws the jitter.
    pub fn planned_wait(&self, attempt: u32, rng: &mut impl Rng) -> PlannedWait {
        match &self.backoff {
            Backoff::Exponential { initial, max, .. } => {
                if attempt <= 1 {
                    return PlannedWait { wait: Duration::ZERO, source: WaitSource::First, cap: None };
                }
                let cap = self.scale(Self::exponential_cap(*initial, *max, attempt));
                let wait = Duration::from_nanos(rng.random_range(0..=duration_nanos(cap)));
                PlannedWait { wait, source: WaitSource::Backoff, cap: Some(cap) }
            }
            Backoff::Schedule(delays) => {
                let index = usize::try_from(attempt.saturating_sub(1)).unwrap_or(usize::MAX);
                let delay = delays.get(index).copied().unwrap_or(Duration::ZERO);
                PlannedWait { wait: self.scale(delay), source: WaitSource::Schedule, cap: None }
            }
        }
    }

    /// The wait a `Retry-After` asks for, scaled; it replaces the planned one, but never exceeds
    /// the longest wait the policy itself would make (`--backoff-max`, or the longest delay of the
    /// schedule).
    pub fn retry_after_wait(&self, retry_after: Duration) -> PlannedWait {
        let asked = self.scale(retry_after);
        let ceiling = self.scale(self.longest_wait());
        if asked > ceiling {
            return PlannedWait { wait: ceiling, source: WaitSource::RetryAfterClamped, cap: Some(asked) };
        }
        PlannedWait { wait: asked, source: WaitSource::RetryAfter, cap: None }
    }

    /// The longest wait a `Retry-After` may impose, unscaled: `--backoff-max`; with a schedule
    /// (which has no `--backoff-max`), its longest delay or the default `--backoff-max` of an
    /// hour, whichever is longer.
    pub fn longest_wait(&self) -> Duration {
        match &self.backoff {
            Backoff::Exponential { max, .. } => *max,
            Backoff::Schedule(delays) => {
                delays.iter().copied().max().unwrap_or(Duration::ZERO).max(DEFAULT_BACKOFF_MAX)
            }
        }
    }

    /// `duration` × the time scale, saturating at about 584 years rather than panicking.
    pub fn scale(&self, duration: Duration) -> Duration {
        Duration::try_from_secs_f64(duration.as_secs_f64() * self.time_scale).unwrap_or(Duration::MAX)
    }
}

fn duration_nanos(duration: Duration) -> u64 {
    u64::try_from(duration.as_nanos()).unwrap_or(u64::MAX)
}

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

/// The wait a `Retry-After` header asks for: delay-seconds, or an HTTP-date (a date in the past
/// means no wait). `None` when the value is neither (RFC 9110 §10.2.3).
pub(crate) fn parse_retry_after(value: &HeaderValue, now: SystemTime) -> Option<Duration> {
    let text = value.to_str().ok()?.trim();
    if let Ok(seconds) = text.parse::<u64>() {
        return Some(Duration::from_secs(seconds));
    }
    let date = crate::clock::parse_http_date(text)?;
    Some(date.duration_since(now).unwrap_or(Duration::ZERO))
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use rand::rngs::StdRng;

    fn rng() -> StdRng {
        StdRng::seed_from_u64(7)
    }

    #[test]
    fn exponential_caps_double_from_the_initial_wait_up_to_the_maximum() {
        let (initial, max) = (Duration::from_secs(1), Duration::from_secs(10));
        let caps: Vec<u64> = (1..=7).map(|k| RetryPolicy::exponential_cap(initial, max, k).as_secs()).collect();
        assert_eq!(caps, [0, 1, 2, 4, 8, 10, 10]);
        assert_eq!(RetryPolicy::exponential_cap(initial, Duration::MAX, 200), initial * (1 << 31));
    }

    #[test]
    fn full_jitter_stays_under_the_scaled_cap_and_the_first_attempt_is_immediate() {
        let policy = RetryPolicy {
            backoff: Backoff::Exponential {
                max_attempts: 6,
                initial: Duration::from_secs(2),
                max: Duration::from_secs(5),
            },
            time_scale: 0.5,
        };
        let mut rng = rng();
        assert_eq!(policy.planned_wait(1, &mut rng).wait, Duration::ZERO);
        let mut distinct = std::collections::HashSet::new();
        for attempt in 2..=6 {
            for _ in 0..200 {
                let planned = policy.planned_wait(attempt, &mut rng);
                let cap = planned.cap.unwrap();
                assert_eq!(
                    cap,
                    policy.scale(RetryPolicy::exponential_cap(Duration::from_secs(2), Duration::from_secs(5), attempt))
                );
                assert!(planned.wait <= cap && cap <= Duration::from_millis(2_500));
                distinct.insert(planned.wait);
            }
        }
        assert!(distinct.len() > 100, "the jitter is random");
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

    #[test]
    fn retry_after_is_clamped_to_the_longest_wait_of_the_policy() {
        let policy = RetryPolicy {
            backoff: Backoff::Exponential {
                max_attempts: 3,
                initial: Duration::from_secs(1),
                max: Duration::from_secs(60),
            },
            time_scale: 0.5,
        };
        let asked = policy.retry_after_wait(Duration::from_secs(86_400_000));
        assert_eq!(asked.source, WaitSource::RetryAfterClamped);
        assert_eq!((asked.wait, asked.cap), (Duration::from_secs(30), Some(Duration::from_secs(43_200_000))));
        assert_eq!(policy.retry_after_wait(Duration::from_secs(10)).source, WaitSource::RetryAfter);
        let schedule = RetryPolicy { backoff: Backoff::Schedule(parse_schedule("0s,5s").unwrap()), time_scale: 1.0 };
        assert_eq!(schedule.retry_after_wait(Duration::from_secs(30)).wait, Duration::from_secs(30));
        assert_eq!(schedule.retry_after_wait(Duration::from_secs(86_400)).wait, DEFAULT_BACKOFF_MAX);
    }

    #[test]
    fn retry_after_reads_seconds_and_http_dates() {
        let now = SystemTime::UNIX_EPOCH + Duration::from_secs(784_111_777); // Sun, 06 Nov 1994 08:49:37 GMT
        let value = |text: &'static str| HeaderValue::from_static(text);
        assert_eq!(parse_retry_after(&value("120"), now), Some(Duration::from_secs(120)));
        assert_eq!(parse_retry_after(&value("Sun, 06 Nov 1994 08:50:07 GMT"), now), Some(Duration::from_secs(30)));
        assert_eq!(parse_retry_after(&value("Sun, 06 Nov 1994 08:00:00 GMT"), now), Some(Duration::ZERO));
        assert_eq!(parse_retry_after(&value("soon"), now), None);
        assert_eq!(parse_retry_after(&value("-5"), now), None);
    }
}
