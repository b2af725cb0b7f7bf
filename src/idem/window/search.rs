//! Which spacing to probe next: grow from 0 (0, 100 µs, 200 µs, 400 µs, … doubling, then `--max`)
//! while pairs still both execute, then bisect between the widest spacing that executed twice
//! and the narrowest that did not. Pure bookkeeping, so it is tested without a server.
use std::time::Duration;

use serde::Serialize;

/// The first spacing after 0.
const FIRST_STEP: Duration = Duration::from_micros(100);
/// Bisection stops when the bracket is this narrow, relative to its upper end…
const RELATIVE_RESOLUTION: f64 = 0.02;
/// …or this narrow in absolute terms, which sub-millisecond windows reach first.
const ABSOLUTE_RESOLUTION: Duration = Duration::from_micros(25);

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub(crate) enum Phase {
    /// Doubling the spacing while pairs still both execute.
    Grow,
    /// Narrowing the bracket.
    Bisect,
}

/// Where the search stands.
#[derive(Debug, Clone)]
pub(crate) struct Search {
    max: Duration,
    /// The widest spacing at which a pair executed twice.
    widest_twice: Option<Duration>,
    /// The narrowest spacing at which no pair executed twice.
    narrowest_once: Option<Duration>,
    /// The last spacing probed while growing.
    grown_to: Option<Duration>,
}

/// What the search concluded.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Conclusion {
    /// Even simultaneous duplicates executed once.
    NoWindow,
    /// Pairs executed twice up to `lower` apart and once at `upper`.
    Window { lower: Duration, upper: Duration },
    /// Pairs executed twice even `--max` apart.
    AtLeast(Duration),
}

impl Search {
    pub(crate) fn new(max: Duration) -> Search {
        Search { max, widest_twice: None, narrowest_once: None, grown_to: None }
    }

    /// The next spacing to probe and in which phase, or `None` when the search is over.
    pub(crate) fn next(&self) -> Option<(Duration, Phase)> {
        match (self.widest_twice, self.narrowest_once) {
            (_, None) => {
                let next = match self.grown_to {
                    None => Duration::ZERO,
                    Some(last) if last >= self.max => return None,
                    Some(last) if last.is_zero() => FIRST_STEP,
                    Some(last) => (last * 2).min(self.max),
                };
                Some((next, Phase::Grow))
            }
            (None, Some(_)) => None,
            (Some(lower), Some(upper)) => {
                let gap = upper.saturating_sub(lower);
                let resolution = upper.mul_f64(RELATIVE_RESOLUTION).max(ABSOLUTE_RESOLUTION);
                if gap <= resolution {
                    return None;
                }
                // Whole microseconds: finer than any timer can release.
                let middle = lower + gap / 2;
                Some((Duration::from_micros(middle.as_micros() as u64), Phase::Bisect))
            }
        }
    }

    /// Records what a step at `spacing` showed.
    pub(crate) fn record(&mut self, spacing: Duration, executed_twice: bool) {
        if self.narrowest_once.is_none() {
            self.grown_to = Some(spacing);
        }
        if executed_twice {
            self.widest_twice = Some(self.widest_twice.map_or(spacing, |w| w.max(spacing)));
        } else {
            self.narrowest_once = Some(self.narrowest_once.map_or(spacing, |n| n.min(spacing)));
        }
    }

    pub(crate) fn conclusion(&self) -> Conclusion {
        match (self.widest_twice, self.narrowest_once) {
            (None, _) => Conclusion::NoWindow,
            (Some(lower), Some(upper)) => Conclusion::Window { lower, upper },
            (Some(lower), None) => Conclusion::AtLeast(lower),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Runs the search against a server whose window is `window`: pairs closer than it execute twice.
    fn run(window: Duration, max: Duration) -> (Conclusion, Vec<(Duration, Phase)>) {
        let mut search = Search::new(max);
        let mut steps = Vec::new();
        while let Some((spacing, phase)) = search.next() {
            steps.push((spacing, phase));
            search.record(spacing, spacing < window);
            assert!(steps.len() < 60, "the search does not end: {steps:?}");
        }
        (search.conclusion(), steps)
    }

    #[test]
    fn grows_by_doubling_then_bisects_to_a_narrow_bracket() {
        let window = Duration::from_micros(1_000);
        let (conclusion, steps) = run(window, Duration::from_secs(2));
        let grown: Vec<u128> = steps.iter().filter(|s| s.1 == Phase::Grow).map(|s| s.0.as_micros()).collect();
        assert_eq!(grown, [0, 100, 200, 400, 800, 1600]);
        let Conclusion::Window { lower, upper } = conclusion else { panic!("{conclusion:?}") };
        assert!(lower < window && window <= upper, "{lower:?}..{upper:?}");
        assert!(upper - lower <= Duration::from_micros(25), "{lower:?}..{upper:?}");
    }

    #[test]
    fn wide_windows_are_bracketed_relative_to_their_size() {
        let window = Duration::from_millis(100);
        let (conclusion, steps) = run(window, Duration::from_secs(2));
        let Conclusion::Window { lower, upper } = conclusion else { panic!("{conclusion:?}") };
        assert!(lower < window && window <= upper);
        assert!((upper - lower) <= upper.mul_f64(0.02), "{lower:?}..{upper:?}");
        assert!(steps.len() <= 20, "{} steps", steps.len());
    }

    #[test]
    fn no_window_and_a_window_beyond_max() {
        assert_eq!(
            run(Duration::ZERO, Duration::from_secs(1)),
            (Conclusion::NoWindow, vec![(Duration::ZERO, Phase::Grow)])
        );
        let (conclusion, steps) = run(Duration::from_secs(10), Duration::from_millis(1));
        assert_eq!(conclusion, Conclusion::AtLeast(Duration::from_millis(1)));
        assert_eq!(steps.last().unwrap().0, Duration::from_millis(1), "--max itself is probed last");
    }
}
