//! `race-window`, advisory, after `concurrent-once` failed: how far apart can duplicates arrive
//! and still both execute? Measured with `idem window`'s engine, bounded by `--window-max`. The
//! width says how urgent the failure is: microseconds need a synchronised attack, hundreds of
//! milliseconds are every double-click.
use std::time::{Duration, Instant};

use super::catalogue::RACE_WINDOW;
use crate::conformance::CheckResult;
use crate::idem::request::RequestSpec;
use crate::idem::window::report::RAISE_MAX;
use crate::idem::window::{self, WindowVerdict};
use crate::units::format_duration;

/// Measures the window of the endpoint `spec` describes, with fresh keys.
/// An error only when --max-requests stopped it: the suite stops there too.
pub(super) async fn race_window(spec: &RequestSpec, max: Duration) -> anyhow::Result<CheckResult> {
    let started = Instant::now();
    Ok(match window::measure(spec, max, 3, |_| {}).await {
        Err(err) if crate::http::budget::refusal_in(&err).is_some() => {
            return Err(err.context(format!("check `{}` stopped", RACE_WINDOW.id)));
        }
        Err(err) => RACE_WINDOW.skipped(format!("the window could not be measured: {err:#}")),
        Ok(report) => {
            let mut evidence = Vec::new();
            let finding = match &report.window {
                Some(w) if w.upper.is_some() => format!(
                    "duplicates {} apart both executed: window ≈ {}",
                    format_duration(w.lower),
                    format_duration(w.estimate)
                ),
                Some(w) => format!("duplicates even {} apart both executed (--window-max)", format_duration(w.lower)),
                None => "duplicates both executed, window not measured".to_string(),
            };
            if let Some(w) = report.window {
                evidence.push(match w.upper {
                    Some(upper) => format!(
                        "pairs executed twice {} apart and once {} apart (window ≈ {}, {} steps)",
                        format_duration(w.lower),
                        format_duration(upper),
                        format_duration(w.estimate),
                        report.steps.len()
                    ),
                    None => format!("pairs executed twice even {} apart (--window-max)", format_duration(w.lower)),
                });
            }
            // The engine speaks as `idem window`; here its widest spacing is --window-max.
            evidence.push(report.meaning.replace(RAISE_MAX, "raise --window-max to find the edge"));
            RACE_WINDOW.judged(report.verdict == WindowVerdict::NoWindow, finding, evidence, started.elapsed())
        }
    })
}
