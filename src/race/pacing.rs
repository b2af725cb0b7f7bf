//! Waiting for an exact instant, for `--stagger`. tokio's timer ticks in whole milliseconds (a
//! 100 µs sleep takes 1–2 ms), so a staggered release sleeps on the timer until `SPIN_MARGIN`
//! before its moment and spins on `Instant` for the last stretch: sub-millisecond spacings come
//! out exact, at the price of one busy core for at most `SPIN_MARGIN` per release.
use std::time::{Duration, Instant};

/// How long before a release the timer hands over to spinning: one timer tick of lateness plus
/// room for a busy scheduler.
pub(crate) const SPIN_MARGIN: Duration = Duration::from_millis(2);

/// When the coarse wait for `moment` should end.
pub(crate) fn coarse_deadline(moment: Instant) -> Instant {
    moment.checked_sub(SPIN_MARGIN).unwrap_or(moment)
}

/// Returns at `moment` or just after, never before.
pub(crate) async fn wait_until(moment: Instant) {
    let coarse = coarse_deadline(moment);
    if coarse > Instant::now() {
        tokio::time::sleep_until(coarse.into()).await;
    }
    spin_until(moment);
}

/// Busy-waits until `moment`: the last stretch, where a timer would be late.
pub(crate) fn spin_until(moment: Instant) {
    while Instant::now() < moment {
        std::hint::spin_loop();
    }
}

/// The release moment of duplicate `index` (from 0) when the first goes at `first`.
pub(crate) fn moment(first: Instant, stagger: Duration, index: usize) -> Instant {
    first + stagger.saturating_mul(u32::try_from(index).unwrap_or(u32::MAX))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn never_early_and_sub_millisecond_waits_are_not_rounded_to_a_timer_tick() {
        for wanted in [Duration::from_micros(100), Duration::from_micros(700), Duration::from_millis(4)] {
            let start = Instant::now();
            wait_until(start + wanted).await;
            let waited = start.elapsed();
            assert!(waited >= wanted, "{waited:?} < {wanted:?}");
        }
    }
}
