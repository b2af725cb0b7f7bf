//! What `idem window` prints: each step as it goes, the estimate and what it means in practice;
//! or one JSON document.
//!
//! `idem window --format json` (schemas/idem-window.json):
//!
//! - `schema`: `idem-window/1`.
//! - `method`, `url`, `key_header`, `key_in`: the request probed and where its key went; `sync`, `sync_reason`: how pairs were
//!   released (`single-packet` or `last-byte`, as `idem race` chooses).
//! - `max_us`, `probes_per_step`: `--max` and `--probes`.
//! - `verdict`: `no_window` (even simultaneous duplicates executed once, or got the answer
//!   replayed when not counted; exit 0), `window` (exit 1),
//!   or `window_at_least_max` (pairs `--max` apart still both executed; exit 1).
//! - `window`: `{estimate_us, lower_us, upper_us}`: pairs executed twice `lower_us` apart and once
//!   `upper_us` apart; the estimate is the middle. `upper_us` is `null` with
//!   `window_at_least_max`; `window` is `null` with `no_window`.
//! - `meaning`: the sentence the human output ends with.
//! - `evidence`: what the verdict rests on, from the probe that decided it: `{kind: count|
//!   replay-marker|conflict|server-id|distinct-ids, …}` as in `idem race`. A pair that shows
//!   nothing (no 2xx, no id, or only an id the request carried) stops the measurement with exit 2.
//! - `evidence_level`: `count` when the deciding probe was counted at `--count-url`, `answer`
//!   when its answers alone decided (a replay shown, executions not counted; `no_window` then
//!   says "answer replayed", not "executed once"), `null` when nothing did. With
//!   `--require-count` a pair that holds on the answers alone stops the measurement (exit 2).
//! - `steps`: in order, `{phase (grow|bisect), spacing_us, executed_twice, probes}`, each probe
//!   `{executions, statuses, spacing_us (achieved), first_latency_ms, retakes, evidence}`.
use std::time::Duration;

use serde::Serialize;

use super::probe::ProbeRecord;
use super::search::{Conclusion, Phase};
use crate::evidence_level::{ANSWER_REPLAYED, COUNTED, EvidenceLevel, NOT_COUNTED};
use crate::html_report::svg::{self, Point};
use crate::html_report::{Cell, HtmlReport, Tone};
use crate::idem::race::SyncMode;
use crate::idem::verdict::Evidence;
use crate::output::Palette;
use crate::units::format_duration;

/// How `idem window` says to probe wider; `idem check`'s race-window names its own flag
/// (`--window-max`) in its place.
pub(crate) const RAISE_MAX: &str = "raise --max to find the edge";

#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub(crate) struct Step {
    pub phase: Phase,
    #[serde(rename = "spacing_us", serialize_with = "crate::units::as_us")]
    #[schemars(with = "f64")]
    pub spacing: Duration,
    /// Whether any probe of the step executed twice.
    pub executed_twice: bool,
    pub probes: Vec<ProbeRecord>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub(crate) enum WindowVerdict {
    NoWindow,
    Window,
    WindowAtLeastMax,
}

#[derive(Debug, Clone, Copy, Serialize, schemars::JsonSchema)]
pub(crate) struct Estimate {
    #[serde(rename = "estimate_us", serialize_with = "crate::units::as_us")]
    #[schemars(with = "f64")]
    pub estimate: Duration,
    #[serde(rename = "lower_us", serialize_with = "crate::units::as_us")]
    #[schemars(with = "f64")]
    pub lower: Duration,
    #[serde(rename = "upper_us", serialize_with = "crate::units::as_us_opt")]
    #[schemars(with = "Option<f64>")]
    pub upper: Option<Duration>,
}

/// The `schema` value of `idem window --format json`.
pub(crate) const SCHEMA: &str = "idem-window/1";

#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub(crate) struct WindowReport {
    pub method: String,
    pub url: String,
    pub key_header: String,
    /// `--key-in`: where each probe's key went (`key_header` is only sent with `header:`).
    pub key_in: String,
    pub sync: Option<SyncMode>,
    pub sync_reason: Option<String>,
    #[serde(rename = "max_us", serialize_with = "crate::units::as_us")]
    #[schemars(with = "f64")]
    pub max: Duration,
    pub probes_per_step: usize,
    pub verdict: WindowVerdict,
    pub window: Option<Estimate>,
    pub meaning: String,
    /// What the verdict rests on: the evidence of the probe that decided it (as in `idem race`).
    pub evidence: Vec<crate::idem::verdict::Evidence>,
    /// The level of that evidence: `count` (the count showed it) or `answer` (the answers did:
    /// a replay shown, executions not counted); `null` when there is none.
    pub evidence_level: Option<EvidenceLevel>,
    pub steps: Vec<Step>,
    /// How many resources the measurement created over every pair (retaken ones too): by the
    /// count at `--count-url`, by distinct ids in the 2xx answers (at least), or unknown.
    pub created: crate::created::Created,
}

impl WindowReport {
    /// The verdict, estimate and meaning of a finished search.
    pub(crate) fn conclude(conclusion: Conclusion) -> (WindowVerdict, Option<Estimate>, String) {
        const PRACTICE: &str = "a retry after a timeout shorter than that, or a double-click faster than that, \
                                charges twice; a correct server keeps this at 0";
        match conclusion {
            Conclusion::NoWindow => (
                WindowVerdict::NoWindow,
                None,
                "no window: even duplicates released together executed once".to_string(),
            ),
            Conclusion::Window { lower, upper } => {
                let estimate = (lower + upper) / 2;
                (
                    WindowVerdict::Window,
                    Some(Estimate { estimate, lower, upper: Some(upper) }),
                    format!("duplicates up to ≈{} apart both execute: {PRACTICE}", format_duration(estimate)),
                )
            }
            Conclusion::AtLeast(max) => (
                WindowVerdict::WindowAtLeastMax,
                Some(Estimate { estimate: max, lower: max, upper: None }),
                format!(
                    "duplicates even {} apart both execute (the widest spacing probed; {RAISE_MAX}): {PRACTICE}",
                    format_duration(max)
                ),
            ),
        }
    }

    /// The sentence of `no_window`, at the level of its evidence: only a count shows that the
    /// duplicates executed once; answers show that the answer was replayed.
    pub(crate) fn no_window_meaning(level: Option<EvidenceLevel>, shown_by: &str) -> String {
        match level {
            Some(EvidenceLevel::Count) => format!("no window: even duplicates released together {COUNTED}"),
            _ if shown_by.is_empty() => format!("no window: duplicates released together got the {ANSWER_REPLAYED}"),
            _ => format!("no window: duplicates released together got the {ANSWER_REPLAYED} ({shown_by})"),
        }
    }

    /// The estimate as a duration, when there is a window.
    pub(crate) fn estimate(&self) -> Option<Duration> {
        self.window.map(|w| w.estimate)
    }

    /// The closing lines of the human output.
    pub(crate) fn render_conclusion(&self, palette: Palette) -> String {
        match (self.verdict, self.window) {
            (WindowVerdict::NoWindow, _) | (_, None) => {
                let evidence = self.evidence.iter().map(|e| e.phrase()).collect::<Vec<_>>().join("; ");
                let evidence =
                    if evidence.is_empty() { evidence } else { format!("\n  {} {evidence}", palette.dim("evidence:")) };
                let not_counted = match (self.verdict, self.evidence_level) {
                    (WindowVerdict::NoWindow, Some(EvidenceLevel::Answer)) => {
                        format!("\n  {} {NOT_COUNTED}", palette.dim("note:"))
                    }
                    _ => String::new(),
                };
                format!("{} {}{evidence}{not_counted}\n", palette.green("✓"), self.meaning)
            }
            (WindowVerdict::Window, Some(w)) => format!(
                "{} window ≈ {} (executed twice {} apart, once {} apart)\n  {}\n",
                palette.red("✗"),
                palette.bold(&format_duration(w.estimate)),
                format_duration(w.lower),
                w.upper.map(format_duration).unwrap_or_default(),
                self.meaning
            ),
            (WindowVerdict::WindowAtLeastMax, Some(w)) => {
                format!(
                    "{} window ≥ {}\n  {}\n",
                    palette.red("✗"),
                    palette.bold(&format_duration(w.estimate)),
                    self.meaning
                )
            }
        }
    }
}

impl WindowReport {
    /// `--format html`: the verdict, the curve (pairs executed twice against the delay between
    /// them, one point per step) and the steps as a table.
    pub(crate) fn render_html(&self) -> String {
        let target = format!("{} {}", self.method, self.url);
        let mut report = HtmlReport::new("idem window", &target);
        let verdict = match (self.verdict, self.window) {
            (WindowVerdict::Window, Some(w)) => format!("✗ window ≈ {}: {}", format_duration(w.estimate), self.meaning),
            (WindowVerdict::WindowAtLeastMax, Some(w)) => {
                format!("✗ window ≥ {}: {}", format_duration(w.estimate), self.meaning)
            }
            _ => format!("✓ {}", self.meaning),
        };
        let tone = if self.verdict == WindowVerdict::NoWindow { Tone::Good } else { Tone::Bad };
        report.verdict(&verdict, tone);
        let points: Vec<Point> = self
            .steps
            .iter()
            .map(|step| Point {
                x_ms: step.spacing.as_secs_f64() * 1000.0,
                y: step.probes.iter().filter(|probe| probe.executions > 1).count() as f64,
                of: step.probes.len() as f64,
            })
            .collect();
        let mut section = svg::curve("pairs executed twice against the delay between them", &points);
        let rows = self
            .steps
            .iter()
            .map(|step| {
                let twice = step.probes.iter().filter(|probe| probe.executions > 1).count();
                let statuses: Vec<String> = step
                    .probes
                    .iter()
                    .map(|probe| {
                        let statuses: Vec<String> =
                            probe.statuses.iter().map(|s| s.map_or("—".to_string(), |s| s.to_string())).collect();
                        format!("{} ({})", statuses.join("+"), format_duration(probe.spacing))
                    })
                    .collect();
                let phase = match step.phase {
                    Phase::Grow => "grow",
                    Phase::Bisect => "bisect",
                };
                let (outcome, tone) =
                    if step.executed_twice { ("executed twice", Tone::Bad) } else { ("executed once", Tone::Good) };
                (
                    vec![("spacing-us", step.spacing.as_micros().to_string()), ("twice", twice.to_string())],
                    vec![
                        Cell::text(phase),
                        Cell::text(format_duration(step.spacing)),
                        Cell::Text(outcome.to_string(), tone),
                        Cell::text(format!("{twice} of {}", step.probes.len())),
                        Cell::text(statuses.join("  ")),
                    ],
                )
            })
            .collect();
        section.push_str(&HtmlReport::table(
            &["phase", "delay", "outcome", "pairs twice", "answers (achieved delay)"],
            rows,
        ));
        report.section("Steps", &section);
        report.finish()
    }
}

/// One step as a line: spacing, what happened, each probe's statuses and achieved spacing.
pub(crate) fn render_step(step: &Step, palette: Palette) -> String {
    // A pair that executed once by the count says so; one whose answers alone showed a replay
    // says only that.
    let counted = step.probes.iter().all(|p| p.evidence.iter().any(|e| matches!(e, Evidence::Count { .. })));
    let outcome = match (step.executed_twice, counted) {
        (true, _) => palette.red("executed twice "),
        (false, true) => palette.green("executed once  "),
        (false, false) => palette.green(ANSWER_REPLAYED),
    };
    let probes: Vec<String> = step
        .probes
        .iter()
        .map(|probe| {
            let statuses: Vec<String> =
                probe.statuses.iter().map(|s| s.map_or("—".to_string(), |s| s.to_string())).collect();
            let retaken = if probe.retakes > 0 { format!(", {} retaken", probe.retakes) } else { String::new() };
            format!("{} ({}{retaken})", statuses.join("+"), format_duration(probe.spacing))
        })
        .collect();
    let phase = match step.phase {
        Phase::Grow => "grow  ",
        Phase::Bisect => "bisect",
    };
    format!(
        "  {} {:>8}  {outcome}  {}\n",
        palette.dim(phase),
        format_duration(step.spacing),
        palette.dim(&probes.join("  "))
    )
}
