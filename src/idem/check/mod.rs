//! `idem check`: does this endpoint handle Idempotency-Key correctly? One command, a verdict per
//! check, an exit status for CI.
mod race_window;
mod suite;
mod variant;

pub(crate) use suite::CHECKS;

use crate::conformance::{CheckOutcome, Selection, SuiteFormat, SuiteReport};
use crate::exit::Outcome;
use crate::idem::request::RequestSpec;
use crate::output::Palette;

#[derive(Debug, Clone)]
pub(crate) struct CheckConfig {
    pub request: RequestSpec,
    /// How many concurrent duplicates `concurrent-once` sends.
    pub concurrency: usize,
    /// The endpoint is expected to refuse requests without a key.
    pub require_key: bool,
    /// The widest spacing `race-window` probes; `None` leaves the check out.
    pub window_max: Option<std::time::Duration>,
    pub format: SuiteFormat,
    pub palette: Palette,
    /// `--also`: more instances of the same API. `concurrent-once` spreads its duplicates over
    /// every target and `retry-replays` sends the retry to the first of these.
    pub also: Vec<http::Uri>,
    /// `--only`, `--skip`, `--expect-fail`, `--strict`, `--junit-warnings`.
    pub selection: Selection,
}

/// Runs every check against the endpoint. An error means the suite could not run (no answer).
pub(crate) async fn execute(config: &CheckConfig) -> anyhow::Result<SuiteReport> {
    let mut probe = suite::Probe::new(config.request.clone())?;
    probe.also = config.also.clone();
    let mut target = format!("{} {}", config.request.method, config.request.url);
    if !config.also.is_empty() {
        let also: Vec<String> = config.also.iter().map(ToString::to_string).collect();
        target.push_str(&format!(" (also {})", also.join(", ")));
    }
    let mut checks = Vec::new();
    let (created, original) = suite::create(&mut probe).await?;
    checks.push(created);
    match &original {
        Some(original) => {
            checks.extend(suite::retry(&mut probe, original).await?);
            checks.extend(suite::mismatch(&mut probe, original).await?);
            // The race is the costly part: left out, it is not run.
            if config.selection.runs_any(&[
                suite::CONCURRENT_ONCE,
                suite::CONFLICT_RETRY_AFTER,
                race_window::RACE_WINDOW,
            ]) {
                checks.extend(suite::concurrent(&mut probe, config.concurrency).await?);
            } else {
                checks.extend([suite::CONCURRENT_ONCE, suite::CONFLICT_RETRY_AFTER].map(|spec| spec.skipped("")));
            }
            let raced_twice =
                checks.iter().any(|c| c.id == suite::CONCURRENT_ONCE.id && c.outcome == CheckOutcome::Fail);
            if let (true, Some(max)) = (raced_twice, config.window_max) {
                checks.push(race_window::race_window(&probe.spec, max).await);
            }
        }
        None => {
            let reason = "`create` did not yield a resource, so there is nothing to compare with";
            for spec in [
                suite::RETRY,
                suite::REPLAY_MARKED,
                suite::MISMATCH_REJECTED,
                suite::MISMATCH_422,
                suite::CONCURRENT_ONCE,
                suite::CONFLICT_RETRY_AFTER,
            ] {
                checks.push(spec.skipped(reason));
            }
        }
    }
    checks.push(suite::missing_key(&mut probe, config.require_key).await?);
    match &original {
        Some(original) => {
            checks.push(suite::new_key_creates(&mut probe, original).await?);
            checks.push(suite::key_scoped(&mut probe, original).await?);
        }
        None => {
            let reason = "`create` did not yield a resource, so there is nothing to compare with";
            checks.push(suite::NEW_KEY_CREATES.skipped(reason));
            checks.push(suite::KEY_SCOPED.skipped(reason));
        }
    }
    checks.push(suite::problem_json(&probe));
    Ok(SuiteReport::new("idem check", target, checks).select(&config.selection, &[suite::CREATE.id]))
}

pub(crate) async fn run(config: CheckConfig) -> anyhow::Result<Outcome> {
    let result = execute(&config).await;
    let target = format!("{} {}", config.request.method, config.request.url);
    crate::conformance::finish_suite(result, "idem check", target, config.format, config.palette)
}
