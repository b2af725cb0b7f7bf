//! What `idem race` prints: the aggregate over rounds, for people and as JSON.
//!
//! `idem race --format json` prints one document (schemas/idem-race.json):
//!
//! - `schema`: `idem-race/1`.
//! - `method`, `url`, `key_header`: the request raced; `also` (only with `--also`): the other
//!   targets the duplicates were spread over, round-robin.
//! - `n`: duplicates per round; `sync_requested`: the `--sync` value (`auto`, `single-packet`,
//!   `last-byte`, `none`).
//! - `verdict`: `safe` (every round executed at most once and answered consistently),
//!   `executed_more_than_once`, `inconsistent`, `errors` (some answers never came),
//!   `nothing_created` (no 2xx answer in a round), `cannot_tell` (2xx answers but no resource id in
//!   the body at `--id-field`, `Location`, `Content-Location` or `--id-header`); for the controls
//!   (`--distinct-keys`, `--no-key`) `as_expected` (every duplicate executed) or `collapsed` (the
//!   server collapsed duplicates that shared no key). Exit status 0 for `safe` and `as_expected`,
//!   1 for `executed_more_than_once`, `inconsistent` and `collapsed`, 2 for the rest.
//! - `summary`: `rounds`, and how many were `safe`, `executed_more_than_once`, `inconsistent`,
//!   `errors`, `nothing_created`, `cannot_tell`, `as_expected`, `collapsed`; `worst_executions`
//!   (most distinct resources created in a round);
//!   `release_spread_us` and `latency_spread_ms` as `{p50, p90, max}` over the rounds (`null` when
//!   not measured: `--sync none` has no release).
//! - `rounds`: one object per round:
//!   - `round` (from 1), `sync` (what was used, never `auto`), `sync_reason` (why),
//!   - `key_mode` (`same`, `distinct`, `none`), `key` (the shared key, or `null`),
//!   - `release`: `{writes, bytes, spread_us}`: write calls that carried the final bytes (1 for a
//!     single packet), their total size, and the time from the first to the last; `null` for
//!     `--sync none`. With `--stagger` also `stagger_us` (as asked) and `spacings_us` (the
//!     achieved spacing between consecutive releases, measured on the client),
//!   - `latency_spread_ms`: slowest minus fastest answer,
//!   - `targets` (only with `--also`): every target's host:port, in spreading order; the release
//!     `spread_us` then runs from the first target's final write to the last one's,
//!   - `answers`: `{number, key (only with --distinct-keys), status (null if no answer), error
//!     (only when no answer), resource_id, replayed, latency_ms, target (host:port, only with
//!     --also)}` per duplicate,
//!   - `judgement`: the shared verdict, `{verdict: {kind}, executions, resource_ids, body_match,
//!     explanation, differences, notes}`, as in `idem send`.
use std::time::Duration;

use serde::Serialize;

use super::round::{RoundReport, SyncMode};
use crate::idem::send::render_judgement;
use crate::idem::verdict::Verdict;
use crate::output::Palette;
use crate::units::format_duration;

/// The `schema` value of `idem race --format json`.
pub const SCHEMA: &str = "idem-race/1";

#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct RaceReport {
    pub method: String,
    pub url: String,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub also: Vec<String>,
    pub key_header: String,
    pub n: usize,
    pub sync_requested: SyncMode,
    pub verdict: RaceVerdict,
    pub summary: Summary,
    pub rounds: Vec<RoundReport>,
}

/// The verdict over all rounds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum RaceVerdict {
    Safe,
    ExecutedMoreThanOnce,
    Inconsistent,
    Errors,
    NothingCreated,
    CannotTell,
    /// A control round: every duplicate executed.
    AsExpected,
    /// A control round: the server collapsed duplicates that shared no key.
    Collapsed,
}

impl RaceVerdict {
    /// The round verdict this aggregate stands for.
    fn round_verdict(self) -> Verdict {
        match self {
            RaceVerdict::Safe => Verdict::Consistent,
            RaceVerdict::ExecutedMoreThanOnce => Verdict::ExecutedMoreThanOnce,
            RaceVerdict::Inconsistent => Verdict::Inconsistent,
            RaceVerdict::Errors => Verdict::Errors,
            RaceVerdict::NothingCreated => Verdict::NothingCreated,
            RaceVerdict::CannotTell => Verdict::CannotTell,
            RaceVerdict::AsExpected => Verdict::AllExecuted,
            RaceVerdict::Collapsed => Verdict::Collapsed,
        }
    }

    /// Worst first: a proven double execution outweighs everything; anything that leaves the
    /// question open outweighs a pass.
    const BY_SEVERITY: [RaceVerdict; 8] = [
        RaceVerdict::ExecutedMoreThanOnce,
        RaceVerdict::Collapsed,
        RaceVerdict::Inconsistent,
        RaceVerdict::Errors,
        RaceVerdict::NothingCreated,
        RaceVerdict::CannotTell,
        RaceVerdict::Safe,
        RaceVerdict::AsExpected,
    ];
}

#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct Summary {
    pub rounds: usize,
    pub safe: usize,
    pub executed_more_than_once: usize,
    pub inconsistent: usize,
    pub errors: usize,
    pub nothing_created: usize,
    pub cannot_tell: usize,
    pub as_expected: usize,
    pub collapsed: usize,
    pub worst_executions: usize,
    pub release_spread_us: Option<Percentiles>,
    pub latency_spread_ms: Option<Percentiles>,
}

#[derive(Debug, Clone, Copy, Serialize, schemars::JsonSchema)]
pub struct Percentiles {
    pub p50: f64,
    pub p90: f64,
    pub max: f64,
}

impl Percentiles {
    /// Nearest-rank percentiles; `None` for no values.
    pub fn of(mut values: Vec<f64>) -> Option<Percentiles> {
        if values.is_empty() {
            return None;
        }
        values.sort_by(f64::total_cmp);
        let rank = |p: f64| values[((p * values.len() as f64).ceil() as usize).clamp(1, values.len()) - 1];
        Some(Percentiles { p50: rank(0.5), p90: rank(0.9), max: values[values.len() - 1] })
    }
}

impl RaceReport {
    pub fn new(
        method: String,
        url: String,
        key_header: String,
        n: usize,
        sync: SyncMode,
        rounds: Vec<RoundReport>,
    ) -> RaceReport {
        let count = |verdict: Verdict| rounds.iter().filter(|r| r.judgement.verdict == verdict).count();
        let summary = Summary {
            rounds: rounds.len(),
            safe: count(Verdict::Consistent),
            executed_more_than_once: count(Verdict::ExecutedMoreThanOnce),
            inconsistent: count(Verdict::Inconsistent),
            errors: count(Verdict::Errors),
            nothing_created: count(Verdict::NothingCreated),
            cannot_tell: count(Verdict::CannotTell),
            as_expected: count(Verdict::AllExecuted),
            collapsed: count(Verdict::Collapsed),
            worst_executions: rounds.iter().map(|r| r.judgement.executions).max().unwrap_or(0),
            release_spread_us: Percentiles::of(
                rounds.iter().filter_map(|r| r.release.as_ref().map(|r| r.spread_us)).collect(),
            ),
            latency_spread_ms: Percentiles::of(rounds.iter().filter_map(|r| r.latency_spread_ms).collect()),
        };
        let verdict = RaceVerdict::BY_SEVERITY
            .into_iter()
            .find(|verdict| rounds.iter().any(|r| r.judgement.verdict == verdict.round_verdict()))
            .unwrap_or(RaceVerdict::Safe);
        RaceReport { method, url, also: Vec::new(), key_header, n, sync_requested: sync, verdict, summary, rounds }
    }

    /// The first round that shows the verdict (the worst execution count first).
    pub fn telling_round(&self) -> Option<&RoundReport> {
        if matches!(self.verdict, RaceVerdict::Safe | RaceVerdict::AsExpected) {
            return self.rounds.first();
        }
        let wanted = self.verdict.round_verdict();
        self.rounds.iter().filter(|r| r.judgement.verdict == wanted).max_by_key(|r| r.judgement.executions)
    }

    /// The human rendering: one round in full, or the aggregate and the telling round.
    pub fn render_human(&self, palette: Palette) -> String {
        let mut out = format!("{} {} × {}\n", self.method, self.url, self.n);
        if !self.also.is_empty() {
            out.push_str(&format!("spread round-robin over {} and {}\n", self.url, self.also.join(", ")));
        }
        let Some(first) = self.rounds.first() else { return out };
        out.push_str(&format!(
            "sync: {} {}\n",
            palette.bold(first.sync.as_str()),
            palette.dim(&format!("({})", first.sync_reason))
        ));
        if self.rounds.len() == 1 {
            out.push_str(&render_round(first, &self.key_header, palette));
            return out;
        }
        let s = &self.summary;
        if first.key_mode == super::round::KeyMode::Same {
            out.push_str(&format!(
                "{} rounds: {} safe, {} executed more than once (worst: {} executions), {} inconsistent, {} without a verdict\n",
                s.rounds,
                s.safe,
                s.executed_more_than_once,
                s.worst_executions,
                s.inconsistent,
                s.errors + s.nothing_created + s.cannot_tell
            ));
        } else {
            out.push_str(&format!(
                "{} control rounds: {} as expected (every duplicate executed), {} collapsed, {} without a verdict\n",
                s.rounds,
                s.as_expected,
                s.collapsed,
                s.errors + s.nothing_created + s.cannot_tell
            ));
        }
        if let Some(p) = s.release_spread_us {
            out.push_str(&format!(
                "release spread: p50 {}, p90 {}, max {}\n",
                micros(p.p50),
                micros(p.p90),
                micros(p.max)
            ));
        }
        if let Some(p) = s.latency_spread_ms {
            out.push_str(&format!(
                "latency spread: p50 {}, p90 {}, max {}\n",
                millis(p.p50),
                millis(p.p90),
                millis(p.max)
            ));
        }
        if let Some(round) = self.telling_round() {
            out.push_str(&format!("\nround {}:\n", round.round));
            out.push_str(&crate::output::indent(&render_round(round, &self.key_header, palette), 2));
            out.push('\n');
        }
        out
    }
}

fn render_round(round: &RoundReport, key_header: &str, palette: Palette) -> String {
    let mut out = String::new();
    match &round.key {
        Some(key) => {
            out.push_str(&format!("{}: {}\n", crate::output::header_display_name(key_header), palette.bold(key)))
        }
        None if round.key_mode == super::round::KeyMode::Distinct => {
            out.push_str("a distinct key per request (control)\n")
        }
        None => out.push_str(&format!("{}\n", palette.dim("no idempotency key (control)"))),
    }
    for answer in &round.answers {
        let record = crate::idem::send::AttemptRecord {
            number: answer.number,
            observed: answer.observed.clone(),
            latency_ms: answer.latency_ms,
            body: serde_json::Value::Null,
            headers: Default::default(),
        };
        let line = crate::idem::send::attempt_line(&record, palette);
        match &answer.target {
            Some(target) => out.push_str(&format!("  {line}  {}\n", palette.dim(&format!("← {target}")))),
            None => out.push_str(&format!("  {line}\n")),
        }
    }
    let across = match round.targets.len() {
        0 | 1 => String::new(),
        targets => format!(" across {targets} targets"),
    };
    let release = match &round.release {
        Some(r) if r.stagger_us.is_some() => staggered_release(r),
        Some(r) if round.sync == SyncMode::SinglePacket => format!(
            "release: {} final frames in {}{across} ({} bytes), spread {}",
            round.answers.len(),
            if r.writes == 1 { "one write".to_string() } else { format!("{} writes", r.writes) },
            r.bytes,
            micros(r.spread_us)
        ),
        Some(r) if !across.is_empty() => {
            format!("release: {} final bytes in {} writes{across}, spread {}", r.bytes, r.writes, micros(r.spread_us))
        }
        Some(r) => format!("release: {} final bytes in {} writes, spread {}", r.bytes, r.writes, micros(r.spread_us)),
        None => "release: not synchronised".to_string(),
    };
    let latency = round.latency_spread_ms.map(|ms| format!("; latency spread {}", millis(ms))).unwrap_or_default();
    out.push_str(&format!("{}\n", palette.dim(&format!("{release}{latency}"))));
    out.push_str(&render_judgement(&round.judgement, round.answers.len(), palette));
    out.push('\n');
    out
}

/// `--stagger`: what was asked for and what the client achieved.
fn staggered_release(release: &super::round::ReleaseRecord) -> String {
    let asked = spacing(release.stagger_us.unwrap_or_default());
    let spacings = release.spacings_us.as_deref().unwrap_or_default();
    let achieved = if spacings.len() <= 6 {
        spacings.iter().map(|us| spacing(*us)).collect::<Vec<_>>().join(", ")
    } else {
        let mut sorted = spacings.to_vec();
        sorted.sort_by(f64::total_cmp);
        format!(
            "min {}, median {}, max {}",
            spacing(sorted[0]),
            spacing(sorted[sorted.len() / 2]),
            spacing(sorted[sorted.len() - 1])
        )
    };
    format!("release: staggered {asked} apart, one write per request; achieved spacings {achieved}")
}

/// A spacing precise enough to show how close to the asked value it came.
fn spacing(us: f64) -> String {
    if us < 1_000.0 {
        format!("{us:.1}µs")
    } else if us < 1_000_000.0 {
        format!("{:.3}ms", us / 1_000.0)
    } else {
        format!("{:.3}s", us / 1_000_000.0)
    }
}

fn micros(us: f64) -> String {
    if us < 1000.0 { format!("{us:.0}µs") } else { millis(us / 1000.0) }
}

fn millis(ms: f64) -> String {
    format_duration(Duration::from_secs_f64(ms.max(0.0) / 1000.0))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nearest_rank_percentiles() {
        let p = Percentiles::of((1..=10).map(f64::from).collect()).unwrap();
        assert_eq!((p.p50, p.p90, p.max), (5.0, 9.0, 10.0));
        assert!(Percentiles::of(Vec::new()).is_none());
        assert_eq!(Percentiles::of(vec![3.0]).unwrap().p90, 3.0);
    }
}
