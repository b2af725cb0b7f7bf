//! One retry policy for both tools: `idem send --retry`/`--max-attempts`, `webhook send` and
//! `webhook replay`, and what `idem proxy` expects of a client's retries. Pure functions of the
//! attempt number (and a random source for the jitter), so the policy is tested without sleeping.
//!
//! Attempts are counted from 1 (the first try); a policy of N attempts retries N-1 times. Two
//! shapes of waiting:
//! - exponential backoff with full jitter (AWS's "Exponential Backoff And Jitter"): before attempt
//!   k ≥ 2 wait a uniformly random time in `[0, min(max, initial × 2^(k-2))]`, so a crowd of
//!   clients retrying the same server spreads out instead of arriving in waves;
//! - an explicit schedule: the delay before each attempt, like Standard Webhooks' and Stripe's.
//!
//! A `Retry-After` answer (delay-seconds or an HTTP-date) replaces the computed wait, cut to the
//! policy's maximum so a `Retry-After` of a year cannot stall a run. Every wait is multiplied by
//! the time scale, which shrinks a schedule of hours to milliseconds for local runs.
use std::time::{Duration, SystemTime};

use http::HeaderValue;
use rand::Rng;
use serde::Serialize;

/// A retry that comes sooner than this after the previous answer had no backoff worth the name.
/// Full jitter can draw a wait this short once in a while, so judges flag it only when every
/// retry of an operation is this quick.
pub(crate) const IMMEDIATE: Duration = Duration::from_millis(50);

/// `webhook send --backoff-max` unless given: also the `Retry-After` ceiling under a schedule.
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
    /// Exponential backoff over `max_attempts` attempts, from `initial` capped at `max`, in real
    /// time.
    pub fn exponential(max_attempts: u32, initial: Duration, max: Duration) -> RetryPolicy {
        RetryPolicy { backoff: Backoff::Exponential { max_attempts, initial, max }, time_scale: 1.0 }
    }

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

/// The `Retry-After` of an answer's headers, read as [`parse_retry_after`] does, now.
pub(crate) fn retry_after_of(headers: &http::HeaderMap) -> Option<Duration> {
    parse_retry_after(headers.get(http::header::RETRY_AFTER)?, SystemTime::now())
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use rand::rngs::StdRng;

    fn rng() -> StdRng {
        StdRng::seed_from_u64(7)
    }

    fn parse_schedule(text: &str) -> Result<Vec<Duration>, String> {
        text.split(',').map(crate::units::parse_duration).collect()
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
