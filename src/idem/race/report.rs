//! What `idem race` prints: the aggregate over rounds, for people and as JSON.
//!
//! `idem race --format json` prints one document (schemas/idem-race.json):
//!
//! - `schema`: `idem-race/1`.
//! - `method`, `url`, `key_header`, `key_in`: the request raced and where its key went; `also` (only with `--also`): the other
//!   targets the duplicates were spread over, round-robin.
//! - `n`: duplicates per round; `sync_requested`: the `--sync` value (`auto`, `single-packet`,
//!   `last-byte`, `none`).
//! - `verdict`: `safe` (every round executed at most once and answered consistently),
//!   `executed_more_than_once`, `inconsistent`, `errors` (some answers never came),
//!   `nothing_created` (no 2xx answer in a round), `cannot_tell` (2xx answers but no resource id in
//!   the body at `--id-field`, `Location`, `Content-Location` or `--id-header`), `unconfirmed`
//!   (consistent answers, but the only evidence is an id the request itself carried: give
//!   `--count-url`); for the controls
//!   (`--distinct-keys`, `--no-key`) `as_expected` (every duplicate executed) or `collapsed` (the
//!   server collapsed duplicates that shared no key). Exit status 0 for `safe` and `as_expected`,
//!   1 for `executed_more_than_once`, `inconsistent` and `collapsed`, 2 for the rest.
//! - `evidence_level`: what the rounds that held rest on: `count` (the count at `--count-url`
//!   showed one execution each) or `answer` (the answers showed a replay: a server id, a replay
//!   marker, a 409; executions were not counted); `null` when no round held. With
//!   `--require-count` a round that holds on the answers alone is `unconfirmed` (exit 2).
//! - `summary`: `rounds`, and how many were `safe`, `executed_more_than_once`, `inconsistent`,
//!   `errors`, `nothing_created`, `cannot_tell`, `as_expected`, `collapsed`, `unconfirmed`; `worst_executions`
//!   (most distinct resources created in a round);
//!   `release_spread_us` and `latency_spread_ms` as `{p50, p90, max}` over the rounds (`null` when
//!   not measured: `--sync none` has no release); `server_spread_us` as `{median, sigma, rounds}`
//!   over the rounds whose answers carried the server's arrival stamps (`null` when none did).
//! - `created`: what the whole race created, `{basis, resources, source, ledgers, note}`: `count`
//!   (the `--count-url` ledger's rise from before the first round to after the last), `ids`
//!   (distinct resource ids in the 2xx answers, a lower bound) or `unknown` (`resources` null).
//! - `rounds`: one object per round:
//!   - `round` (from 1), `sync` (what was used, never `auto`), `sync_reason` (why),
//!   - `key_mode` (`same`, `distinct`, `none`), `key` (the shared key, or `null`),
//!   - `release`: `{writes, bytes, spread_us}`: write calls that carried the final bytes (1 for a
//!     single packet), their total size, and the time from the first to the last; `null` for
//!     `--sync none`. With `--stagger` also `stagger_us` (as asked) and `spacings_us` (the
//!     achieved spacing between consecutive releases, measured on the client). Where several
//!     connections were released together (last-byte, `--also`) also `batch` (`io_uring`,
//!     `send-loop` or `sequential`) and `finished_after_batch` (connections whose bytes the
//!     submission did not take in full, finished right after it),
//!   - `latency_spread_ms`: slowest minus fastest answer,
//!   - `server_spread_us`: the last arrival minus the first as the server stamped them
//!     (`Server-Timing: arrival;desc="<Unix ns>"`, sent by `idem serve` and `webhook listen`);
//!     `null` when fewer than two answers carried a stamp,
//!   - `targets` (only with `--also`): every target's host:port, in spreading order; the release
//!     `spread_us` is then the batched submission's, from before its first send to after its last,
//!   - `answers`: `{number, key (only with --distinct-keys), status (null if no answer), error
//!     (only when no answer), resource_id, replayed, latency_ms, target (host:port, only with
//!     --also)}` per duplicate,
//!   - `judgement`: the shared verdict, `{verdict: {kind}, executions, resource_ids, body_match,
//!     explanation, differences, notes, evidence, evidence_level}`, as in `idem send`; `evidence`
//!     lists what the verdict rests on, each `{kind: count|replay-marker|conflict|server-id|
//!     distinct-ids, …}`, and `evidence_level` its level (`count`, `answer` or `null`).
use std::time::Duration;

use serde::Serialize;

use super::round::{RoundReport, SyncMode};
use crate::evidence_level::{ANSWER_REPLAYED, COUNTED, EvidenceLevel, NOT_COUNTED};
use crate::html_report::svg::{self, Lane};
use crate::html_report::{Cell, HtmlReport, Tone, escape};
use crate::idem::print::render_round;
use crate::idem::verdict::Verdict;
use crate::output::Palette;
use crate::text::plural;
use crate::units::format_duration;

/// The `schema` value of `idem race --format json`.
pub(crate) const SCHEMA: &str = "idem-race/1";

#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub(crate) struct RaceReport {
    pub method: String,
    pub url: String,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub also: Vec<String>,
    pub key_header: String,
    /// `--key-in`: where each round's key went (`key_header` is only sent with `header:`).
    pub key_in: String,
    /// What names the key on the human lines: the header, or where `--key-in` put it.
    #[serde(skip)]
    #[schemars(skip)]
    pub key_label: String,
    pub n: usize,
    pub sync_requested: SyncMode,
    pub verdict: RaceVerdict,
    /// What the rounds that held rest on: `count` when the count showed each of them executed
    /// once, `answer` when any rested on the answers alone (a replay shown, executions not
    /// counted), `null` when no round held.
    pub evidence_level: Option<EvidenceLevel>,
    pub summary: RaceTally,
    pub rounds: Vec<RoundReport>,
    /// How many resources the race created over every round: by the count at `--count-url`, by
    /// distinct ids in the 2xx answers (at least), or unknown.
    pub created: crate::created::Created,
}

/// The verdict over all rounds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub(crate) enum RaceVerdict {
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
    /// Consistent answers, but nothing showed how many times it executed (the id is the
    /// client's): give `--count-url`.
    Unconfirmed,
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
            RaceVerdict::Unconfirmed => Verdict::Unconfirmed,
        }
    }

    /// Worst first: a proven double execution outweighs everything; anything that leaves the
    /// question open outweighs a pass.
    const BY_SEVERITY: [RaceVerdict; 9] = [
        RaceVerdict::ExecutedMoreThanOnce,
        RaceVerdict::Collapsed,
        RaceVerdict::Inconsistent,
        RaceVerdict::Errors,
        RaceVerdict::NothingCreated,
        RaceVerdict::CannotTell,
        RaceVerdict::Unconfirmed,
        RaceVerdict::Safe,
        RaceVerdict::AsExpected,
    ];
}

/// The rounds counted by what each one showed, and the spreads across them.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub(crate) struct RaceTally {
    pub rounds: usize,
    pub safe: usize,
    pub executed_more_than_once: usize,
    pub inconsistent: usize,
    pub errors: usize,
    pub nothing_created: usize,
    pub cannot_tell: usize,
    pub as_expected: usize,
    pub collapsed: usize,
    pub unconfirmed: usize,
    pub worst_executions: usize,
    #[serde(rename = "release_spread_us", serialize_with = "Percentiles::as_us")]
    #[schemars(with = "Option<PercentileNumbers>")]
    pub release_spread: Option<Percentiles>,
    #[serde(rename = "latency_spread_ms", serialize_with = "Percentiles::as_ms")]
    #[schemars(with = "Option<PercentileNumbers>")]
    pub latency_spread: Option<Percentiles>,
    /// The rounds' server-side spreads (`server_spread_us`): median and σ over the rounds that
    /// measured one; `null` when no answer carried a `Server-Timing` arrival stamp.
    #[serde(rename = "server_spread_us")]
    pub server_spread: Option<SpreadOverRounds>,
}

/// A spread measured in several rounds: its median and standard deviation, in microseconds.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, schemars::JsonSchema)]
pub(crate) struct SpreadOverRounds {
    pub median: f64,
    /// The population standard deviation over the rounds (0 for one round).
    pub sigma: f64,
    /// How many rounds measured it.
    pub rounds: usize,
}

impl SpreadOverRounds {
    pub(crate) fn of(spreads: Vec<Duration>) -> Option<SpreadOverRounds> {
        let mut micros: Vec<f64> = spreads.into_iter().map(crate::units::micros).collect();
        if micros.is_empty() {
            return None;
        }
        micros.sort_by(f64::total_cmp);
        let n = micros.len();
        let median = if n % 2 == 1 { micros[n / 2] } else { (micros[n / 2 - 1] + micros[n / 2]) / 2.0 };
        let mean = micros.iter().sum::<f64>() / n as f64;
        let sigma = (micros.iter().map(|m| (m - mean).powi(2)).sum::<f64>() / n as f64).sqrt();
        let tenth = |value: f64| (value * 10.0).round() / 10.0;
        Some(SpreadOverRounds { median: tenth(median), sigma: tenth(sigma), rounds: n })
    }
}

/// `Percentiles` as JSON shows them, in the unit the field's name says.
#[derive(schemars::JsonSchema)]
#[allow(dead_code)] // describes the JSON only; never built
struct PercentileNumbers {
    p50: f64,
    p90: f64,
    max: f64,
}

/// p50, p90 and the maximum of a duration over the rounds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Percentiles {
    pub p50: Duration,
    pub p90: Duration,
    pub max: Duration,
}

impl Percentiles {
    /// Nearest-rank percentiles; `None` for no values.
    pub(crate) fn of(mut values: Vec<Duration>) -> Option<Percentiles> {
        if values.is_empty() {
            return None;
        }
        values.sort();
        let rank = |p: f64| values[((p * values.len() as f64).ceil() as usize).clamp(1, values.len()) - 1];
        Some(Percentiles { p50: rank(0.5), p90: rank(0.9), max: values[values.len() - 1] })
    }

    /// `{p50, p90, max}` in `unit`, or `null`.
    fn serialize_in<S: serde::Serializer>(
        percentiles: &Option<Percentiles>,
        unit: fn(Duration) -> f64,
        serializer: S,
    ) -> Result<S::Ok, S::Error> {
        percentiles
            .map(|p| serde_json::json!({ "p50": unit(p.p50), "p90": unit(p.p90), "max": unit(p.max) }))
            .serialize(serializer)
    }

    fn as_us<S: serde::Serializer>(percentiles: &Option<Percentiles>, serializer: S) -> Result<S::Ok, S::Error> {
        Percentiles::serialize_in(percentiles, crate::units::micros, serializer)
    }

    fn as_ms<S: serde::Serializer>(percentiles: &Option<Percentiles>, serializer: S) -> Result<S::Ok, S::Error> {
        Percentiles::serialize_in(percentiles, crate::units::millis, serializer)
    }
}

impl RaceReport {
    pub(crate) fn new(
        method: String,
        url: String,
        key_header: String,
        n: usize,
        sync: SyncMode,
        rounds: Vec<RoundReport>,
    ) -> RaceReport {
        let count = |verdict: Verdict| rounds.iter().filter(|r| r.judgement.verdict == verdict).count();
        let summary = RaceTally {
            rounds: rounds.len(),
            safe: count(Verdict::Consistent),
            executed_more_than_once: count(Verdict::ExecutedMoreThanOnce),
            inconsistent: count(Verdict::Inconsistent),
            errors: count(Verdict::Errors),
            nothing_created: count(Verdict::NothingCreated),
            cannot_tell: count(Verdict::CannotTell),
            as_expected: count(Verdict::AllExecuted),
            collapsed: count(Verdict::Collapsed),
            unconfirmed: count(Verdict::Unconfirmed),
            worst_executions: rounds.iter().map(|r| r.judgement.executions).max().unwrap_or(0),
            release_spread: Percentiles::of(
                rounds.iter().filter_map(|r| r.release.as_ref().map(|r| r.spread)).collect(),
            ),
            latency_spread: Percentiles::of(rounds.iter().filter_map(|r| r.latency_spread).collect()),
            server_spread: SpreadOverRounds::of(rounds.iter().filter_map(|r| r.server_spread).collect()),
        };
        let verdict = RaceVerdict::BY_SEVERITY
            .into_iter()
            .find(|verdict| rounds.iter().any(|r| r.judgement.verdict == verdict.round_verdict()))
            .unwrap_or(RaceVerdict::Safe);
        let evidence_level = EvidenceLevel::weakest(
            rounds
                .iter()
                .filter(|r| r.judgement.verdict.outcome() == Some(crate::exit::Outcome::Holds))
                .filter_map(|r| r.judgement.evidence_level),
        );
        let created = crate::created::Created::measure(&[], &created_ids(&rounds));
        RaceReport {
            created,
            method,
            url,
            also: Vec::new(),
            key_in: format!("header:{}", crate::output::header_display_name(&key_header)),
            key_label: crate::output::header_display_name(&key_header),
            key_header,
            n,
            sync_requested: sync,
            verdict,
            evidence_level,
            summary,
            rounds,
        }
    }

    /// Every round's resources by the ids its answers carried, with the count at `--count-url`
    /// over the whole race when `readings` has it.
    pub(crate) fn measure_created(&mut self, readings: &[crate::count::CountReading]) {
        self.created = crate::created::Created::measure(readings, &created_ids(&self.rounds));
    }

    /// The first round that shows the verdict (the worst execution count first).
    pub(crate) fn telling_round(&self) -> Option<&RoundReport> {
        if matches!(self.verdict, RaceVerdict::Safe | RaceVerdict::AsExpected) {
            return self.rounds.first();
        }
        let wanted = self.verdict.round_verdict();
        self.rounds.iter().filter(|r| r.judgement.verdict == wanted).max_by_key(|r| r.judgement.executions)
    }

    /// The round `--detail` asks for, and how to name it: `worst` is the round with the most
    /// executions, then the most 2xx answers (the first such); `N` counts from 1.
    pub(crate) fn detailed_round(&self, detail: RoundDetail) -> Option<(&RoundReport, String)> {
        let total = self.rounds.len();
        let successes = |r: &RoundReport| {
            r.answers.iter().filter(|a| a.observed.status.is_some_and(|s| (200..300).contains(&s))).count()
        };
        match detail {
            RoundDetail::Worst => {
                let worst = self.rounds.iter().rev().max_by_key(|r| (r.judgement.executions, successes(r)))?;
                let label = format!(
                    "round {} of {total}, the worst (most executions, then most 2xx answers; --detail first|last|N for another)",
                    worst.round
                );
                Some((worst, label))
            }
            RoundDetail::First => self.rounds.first().map(|r| (r, format!("round {} of {total}, the first", r.round))),
            RoundDetail::Last => self.rounds.last().map(|r| (r, format!("round {} of {total}, the last", r.round))),
            RoundDetail::Number(n) => self
                .rounds
                .get(n.checked_sub(1)?)
                .map(|r| (r, format!("round {} of {total}, as --detail asked", r.round))),
        }
    }

    /// The human rendering: one round in full, or the aggregate and the round `detail` names.
    pub(crate) fn render_human(&self, palette: Palette, detail: RoundDetail) -> String {
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
            out.push_str(&render_round(first, &self.key_label, palette));
            out.push_str(&format!("{}\n", self.created.line(palette)));
            return out;
        }
        let s = &self.summary;
        if first.key_mode == super::round::KeyMode::Same {
            out.push_str(&format!(
                "{}: {} safe, {} executed more than once (worst: {}), {} inconsistent, {} without a verdict\n",
                plural(s.rounds, "round", "rounds"),
                s.safe,
                s.executed_more_than_once,
                plural(s.worst_executions, "execution", "executions"),
                s.inconsistent,
                s.errors + s.nothing_created + s.cannot_tell + s.unconfirmed
            ));
        } else {
            out.push_str(&format!(
                "{}: {} as expected (every duplicate executed), {} collapsed, {} without a verdict\n",
                plural(s.rounds, "control round", "control rounds"),
                s.as_expected,
                s.collapsed,
                s.errors + s.nothing_created + s.cannot_tell + s.unconfirmed
            ));
        }
        if self.verdict == RaceVerdict::Safe {
            let level = match self.evidence_level {
                Some(EvidenceLevel::Count) => format!("each safe round {COUNTED}"),
                _ => format!("safe rounds: {ANSWER_REPLAYED}; {NOT_COUNTED}"),
            };
            out.push_str(&format!("{}\n", palette.dim(&level)));
        }
        for (what, spread) in [("release", s.release_spread), ("latency", s.latency_spread)] {
            if let Some(p) = spread {
                out.push_str(&format!(
                    "{what} spread: p50 {}, p90 {}, max {}\n",
                    format_duration(p.p50),
                    format_duration(p.p90),
                    format_duration(p.max)
                ));
            }
        }
        match s.server_spread {
            Some(spread) => out.push_str(&format!(
                "server spread (arrivals the server stamped): median {}, σ {} over {}\n",
                format_duration(Duration::from_nanos((spread.median * 1000.0) as u64)),
                format_duration(Duration::from_nanos((spread.sigma * 1000.0) as u64)),
                plural(spread.rounds, "round", "rounds")
            )),
            None if !self.rounds.is_empty() => out.push_str(&format!(
                "{}\n",
                palette.dim("server spread: not measured (no answer carried a Server-Timing arrival stamp)")
            )),
            None => {}
        }
        if let Some((round, label)) = self.detailed_round(detail) {
            out.push_str(&format!("\n{label}:\n"));
            out.push_str(&crate::output::indent(&render_round(round, &self.key_label, palette), 2));
            out.push('\n');
        }
        out.push_str(&format!("{}\n", self.created.line(palette)));
        out
    }
}

/// The ids every round's answers carried.
fn created_ids(rounds: &[RoundReport]) -> crate::created::CreatedIds {
    let mut ids = crate::created::CreatedIds::default();
    for answer in rounds.iter().flat_map(|round| &round.answers) {
        ids.add(answer.observed.status, answer.observed.resource_id.as_deref(), answer.observed.replayed);
    }
    ids
}

impl RaceReport {
    /// `--format html`: the verdict, the rounds as a table, the telling round's answers as a table
    /// and drawn as a timeline (each duplicate from its release to its answer; where the server
    /// received it is not known from the client's side).
    pub(crate) fn render_html(&self) -> String {
        let target = format!("{} {} × {}", self.method, self.url, self.n);
        let mut report = HtmlReport::new("idem race", &target);
        let tone = match self.verdict {
            RaceVerdict::Safe | RaceVerdict::AsExpected => Tone::Good,
            RaceVerdict::ExecutedMoreThanOnce | RaceVerdict::Inconsistent | RaceVerdict::Collapsed => Tone::Bad,
            _ => Tone::Warn,
        };
        let worst = plural(self.summary.worst_executions, "execution", "executions");
        report.verdict(&format!("{} (worst round: {worst})", snake_words(&self.verdict)), tone);
        let rows = self
            .rounds
            .iter()
            .map(|round| {
                let tone = match round.judgement.verdict.outcome() {
                    Some(crate::exit::Outcome::Holds) => Tone::Good,
                    Some(crate::exit::Outcome::ProblemFound) => Tone::Bad,
                    _ => Tone::Warn,
                };
                let statuses: Vec<String> = round
                    .answers
                    .iter()
                    .map(|answer| answer.observed.status.map_or("no answer".to_string(), |status| status.to_string()))
                    .collect();
                (
                    vec![("round", round.round.to_string()), ("verdict", snake_words(&round.judgement.verdict))],
                    vec![
                        Cell::text(round.round.to_string()),
                        Cell::Text(snake_words(&round.judgement.verdict), tone),
                        Cell::text(round.judgement.executions.to_string()),
                        Cell::text(round.sync.as_str()),
                        Cell::text(statuses.join(" ")),
                        Cell::text(round.judgement.explanation.clone().unwrap_or_default()),
                    ],
                )
            })
            .collect();
        report
            .section("Rounds", &HtmlReport::table(&["round", "verdict", "executions", "sync", "answers", "why"], rows));
        if let Some(round) = self.telling_round() {
            let mut section = String::new();
            let mut sent = 0.0;
            let lanes: Vec<Lane> = round
                .answers
                .iter()
                .enumerate()
                .map(|(index, answer)| {
                    if index > 0 {
                        sent += round
                            .release
                            .as_ref()
                            .and_then(|release| release.spacings.get(index - 1))
                            .map_or(0.0, |spacing| spacing.as_secs_f64() * 1000.0);
                    }
                    let status = answer.observed.status;
                    let mut note = status.map_or("no answer".to_string(), |status| status.to_string());
                    if answer.observed.replayed {
                        note.push_str(" replayed");
                    }
                    if let Some(id) = &answer.observed.resource_id {
                        note.push_str(&format!(" {id}"));
                    }
                    Lane {
                        label: format!("#{}", answer.number),
                        sent_ms: sent,
                        answered_ms: answer.latency.map(|latency| sent + latency.as_secs_f64() * 1000.0),
                        tone: Tone::of_status(status),
                        note,
                    }
                })
                .collect();
            section.push_str(&svg::timeline(
                &format!("round {}: each duplicate from release to answer", round.round),
                &lanes,
            ));
            let rows = round
                .answers
                .iter()
                .map(|answer| {
                    let status = answer.observed.status;
                    (
                        vec![("answer", answer.number.to_string())],
                        vec![
                            Cell::text(format!("#{}", answer.number)),
                            Cell::Text(
                                status.map_or("no answer".to_string(), |s| s.to_string()),
                                Tone::of_status(status),
                            ),
                            Cell::text(if answer.observed.replayed { "replayed" } else { "" }),
                            Cell::text(answer.observed.resource_id.clone().unwrap_or_default()),
                            Cell::text(answer.latency.map(format_duration).unwrap_or_default()),
                            Cell::text(answer.observed.error.clone().unwrap_or_default()),
                        ],
                    )
                })
                .collect();
            section
                .push_str(&HtmlReport::table(&["duplicate", "status", "replay", "resource", "latency", "error"], rows));
            let remarks: Vec<String> =
                round.judgement.differences.iter().chain(&round.judgement.notes).cloned().collect();
            if !remarks.is_empty() {
                section.push_str(&HtmlReport::list(&remarks));
            }
            section.push_str(&format!(
                "<p class=\"note\">sync {} ({})</p>\n",
                escape(round.sync.as_str()),
                escape(&round.sync_reason)
            ));
            report.section(&format!("Round {} in full", round.round), &section);
        }
        report.finish()
    }
}

/// A value's serde name (`executed_more_than_once`, or the `kind` of a tagged one) in words.
fn snake_words(value: &impl Serialize) -> String {
    match serde_json::to_value(value) {
        Ok(serde_json::Value::String(name)) => name.replace(['_', '-'], " "),
        Ok(serde_json::Value::Object(fields)) => {
            fields.get("kind").and_then(|kind| kind.as_str()).unwrap_or_default().replace(['_', '-'], " ")
        }
        _ => String::new(),
    }
}

/// `--detail`: which round of several `idem race` prints in full.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum RoundDetail {
    /// The most executions, then the most 2xx answers.
    #[default]
    Worst,
    First,
    Last,
    /// Counting from 1.
    Number(usize),
}

impl RoundDetail {
    pub fn parse(text: &str) -> Result<RoundDetail, String> {
        match text {
            "worst" => Ok(RoundDetail::Worst),
            "first" => Ok(RoundDetail::First),
            "last" => Ok(RoundDetail::Last),
            number => match number.parse::<usize>() {
                Ok(n) if n >= 1 => Ok(RoundDetail::Number(n)),
                _ => Err(format!("`{text}`: write worst, first, last or a round number from 1")),
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nearest_rank_percentiles() {
        let ms = Duration::from_millis;
        let p = Percentiles::of((1..=10).map(ms).collect()).unwrap();
        assert_eq!((p.p50, p.p90, p.max), (ms(5), ms(9), ms(10)));
        assert!(Percentiles::of(Vec::new()).is_none());
        assert_eq!(Percentiles::of(vec![ms(3)]).unwrap().p90, ms(3));
    }
}
