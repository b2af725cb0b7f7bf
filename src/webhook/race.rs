//! `webhook race URL`: `idem race` for receivers. Each round signs one delivery (a fresh event
//! unless `--id` pins it), fires N identical copies of it (same ids, same signature) so they
//! arrive at the same instant, and reads the receiver's count before and after (re-read until it
//! settles, and once more after the last round): a receiver that checks "seen this id?", works,
//! then records the id runs the work once per copy.
//!
//! The copies go through the shared race engine (`crate::race`): the HTTP/2 single packet where
//! the receiver speaks h2 or h2c, else the HTTP/1.1 last byte.
use std::io::Write;
use std::sync::Arc;
use std::time::Duration;

use anyhow::bail;
use http::Uri;
use serde::Serialize;

use crate::count::{CountChange, CountSource, Step};
use crate::exit::Outcome;
use crate::html_report::svg;
use crate::html_report::{Cell, HtmlReport, Tone};
use crate::output::{Palette, ReportFormat};
use crate::race::connect::Target;
use crate::race::together::{self, ReleaseSummary, Sync, Tally};
use crate::text::plural;
use crate::webhook::delivery::unix_now;
use crate::webhook::payload::PayloadSource;
use crate::webhook::scheme::{Scheme, SchemeKind};
use crate::webhook::secret::SecretSource;
use crate::webhook::send::{signed_message, signing_key};

#[derive(Debug)]
pub struct RaceConfig {
    /// Without credentials: those are in `credentials`, so the URL can be printed.
    pub url: Uri,
    /// `user:password@` from the URL, sent as Basic auth with every copy.
    pub credentials: Option<crate::http::url::Credentials>,
    pub scheme: Arc<dyn Scheme>,
    pub secret: SecretSource,
    pub payload: PayloadSource,
    /// `--id`: pins the delivery id (and the envelope's event id); fresh each round when `None`.
    pub id: Option<String>,
    /// `-n`: identical copies per round.
    pub copies: usize,
    pub rounds: usize,
    /// `--count-url`: the receiver's count of processed deliveries; without it nothing shows
    /// how many copies were processed.
    pub count: Option<CountSource>,
    /// `--http2`: HTTP/2 with prior knowledge on http:// (h2c).
    pub http2: bool,
    pub insecure: bool,
    pub timeout: Duration,
    pub format: ReportFormat,
    pub palette: Palette,
    /// `--max-requests`: each round takes its copies at once, so a round is sent whole or not at all.
    pub budget: crate::http::budget::RequestBudget,
}

/// The `schema` value of `webhook race --format json` (schemas/webhook-race.json).
pub(crate) const SCHEMA: &str = "webhook-race/1";

/// The `--format json` document.
#[derive(Debug, Serialize, schemars::JsonSchema)]
pub(crate) struct RaceReport {
    pub url: String,
    pub scheme: SchemeKind,
    /// `-n`: identical copies per round.
    pub copies: usize,
    pub rounds: Vec<RaceRound>,
    /// The most times one round's delivery was processed, by the count (`null` without
    /// `--count-url`, or when no round's count could be believed).
    pub most_executions: Option<u64>,
    pub verdict: RaceVerdict,
    /// The verdict in a sentence.
    pub explanation: String,
}

/// One round: one delivery, its copies' answers, the release, and the count.
#[derive(Debug, Serialize, schemars::JsonSchema)]
pub(crate) struct RaceRound {
    pub round: usize,
    pub event_id: String,
    pub delivery_id: String,
    /// How the copies were made to arrive together.
    pub sync: Sync,
    /// Why that synchronisation.
    pub sync_reason: String,
    /// The copies' answers, counted by status.
    pub answers: Tally,
    pub release: ReleaseSummary,
    /// The count before and after (`null` without `--count-url`).
    pub count: Option<CountChange>,
    /// How many times the delivery was processed, by the count (`null` without `--count-url` or
    /// when the count cannot be believed: see `doubt`).
    pub executions: Option<u64>,
    /// Why the count does not show what the copies did, when it does not.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub doubt: Option<String>,
}

/// What the rounds show.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub(crate) enum RaceVerdict {
    /// Every round's delivery was processed exactly once, by the count (exit 0).
    ExecutedOnce,
    /// Some round's delivery was processed more than once, by the count (exit 1).
    ExecutedMoreThanOnce,
    /// No `--count-url`: the answers are reported, the executions are not known (exit 0).
    NotCounted,
    /// The count could not show what the copies did, or no copy was answered (exit 2).
    Unconfirmed,
}

/// `message` as `--scheme`'s provider delivers: a body not from a template (`-d`, `--event TYPE`)
/// gets one User-Agent, the provider's; a template brings it itself. (The delivery id already has
/// the provider's form: `signed_message` makes it with `fresh_delivery_id_for`.)
fn provider_shaped(
    mut message: crate::webhook::deliver::engine::Message,
    config: &RaceConfig,
) -> crate::webhook::deliver::engine::Message {
    if config.payload.provider_scheme().is_some() {
        return message;
    }
    let kind = config.scheme.kind();
    if let Some(agent) = crate::webhook::template::user_agent(kind)
        && let Ok(agent) = http::HeaderValue::from_str(&agent)
    {
        message.headers.insert(http::header::USER_AGENT, agent);
    }
    message
}

/// Runs every round. An error means the race could not run (no secret, receiver unreachable).
pub(crate) async fn execute(config: &RaceConfig) -> anyhow::Result<RaceReport> {
    let scheme = &config.scheme;
    if config.rounds > 1 && config.id.is_some() {
        bail!(
            "--id pins the delivery, so every round after the first would repeat one the receiver has already \
             seen; drop --id or use --rounds 1"
        );
    }
    let key = signing_key(scheme.as_ref(), config.secret.clone())?;
    let target = Target { url: config.url.clone(), insecure: config.insecure, timeout: config.timeout };
    let progress = (config.rounds > 1).then(|| crate::output::progress_bar(config.rounds as u64, "racing"));
    let mut rounds = Vec::with_capacity(config.rounds);
    for number in 1..=config.rounds {
        let message = provider_shaped(
            signed_message(
                scheme,
                &key,
                config.payload.clone(),
                config.id.as_deref(),
                config.credentials.as_ref(),
                None,
            )?,
            config,
        );
        // Signed once: every copy carries the same signature, as a provider's retry of a delivery
        // still in flight or a queue's redelivery does.
        let request = message.request(&config.url, unix_now())?;
        let requests = vec![request; config.copies];
        let baseline = match &config.count {
            Some(count) => Some(count.baseline().await?),
            None => None,
        };
        config.budget.take(config.copies as u64).map_err(|refusal| {
            anyhow::Error::new(refusal).context(format!("round {number} of {} was not sent", config.rounds))
        })?;
        let released = together::release(&target, config.http2, &requests).await?;
        let answers = Tally::of(&released.answers);
        let step = Step {
            requests: config.copies as u64,
            must_rise: answers.within(200..300) > 0,
            slowest: released.slowest(),
        };
        let count = match (&config.count, baseline) {
            (Some(count), Some(baseline)) => {
                let change = count.change_since(baseline, step).await?;
                // The last round gets the closing re-read, as `idem race`'s does: a receiver that
                // acknowledges and processes later may process a copy after the count settled, and
                // that copy is this round's (an earlier round's late copy shows in the next one).
                Some(match number == config.rounds {
                    true => count.closing(baseline, &change, step).await?,
                    false => change,
                })
            }
            _ => None,
        };
        let (executions, doubt) = match count.as_ref().map(CountChange::executions) {
            Some(Ok(n)) => (Some(n), None),
            Some(Err(doubt)) => (None, Some(doubt.to_string())),
            None => (None, None),
        };
        rounds.push(RaceRound {
            round: number,
            event_id: message.event_id,
            delivery_id: message.delivery_id,
            sync: released.sync,
            sync_reason: released.reason,
            release: ReleaseSummary::from(&released.release),
            answers,
            count,
            executions,
            doubt,
        });
        if let Some(bar) = &progress {
            bar.inc(1);
        }
    }
    if let Some(bar) = progress {
        bar.finish_and_clear();
    }
    let (verdict, explanation) = judge(&rounds, config.copies, config.count.is_some());
    Ok(RaceReport {
        url: config.url.to_string(),
        scheme: scheme.kind(),
        copies: config.copies,
        most_executions: rounds.iter().filter_map(|round| round.executions).max(),
        rounds,
        verdict,
        explanation,
    })
}

/// The verdict over every round: one round processed more than once is the bug, whatever the
/// others show; otherwise every round must show exactly one execution.
fn judge(rounds: &[RaceRound], copies: usize, counted: bool) -> (RaceVerdict, String) {
    let doubled: Vec<&RaceRound> = rounds.iter().filter(|round| round.executions.is_some_and(|n| n > 1)).collect();
    if let Some(worst) = doubled.iter().max_by_key(|round| round.executions) {
        let most = worst.executions.unwrap_or_default();
        let which = if rounds.len() == 1 {
            String::new()
        } else {
            format!(" (the most in one round; {} of {} rounds processed more than one)", doubled.len(), rounds.len())
        };
        return (
            RaceVerdict::ExecutedMoreThanOnce,
            format!(
                "{most} of {copies} identical copies arriving together were processed{which}: each passed the \
                 receiver's \"already seen?\" check before any recorded the delivery id; claim the id atomically \
                 before the work (a unique insert, SET NX, or a lock held from the check to the record)"
            ),
        );
    }
    if let Some(silent) = rounds.iter().find(|round| round.answers.statuses.is_empty()) {
        let first = silent.answers.unanswered.first().map(String::as_str).unwrap_or("no answer");
        return (
            RaceVerdict::Unconfirmed,
            format!("no copy was answered in round {}: {first}; is the receiver running?", silent.round),
        );
    }
    if !counted {
        return (
            RaceVerdict::NotCounted,
            "executions not counted: give --count-url (a GET on the receiver that returns how many deliveries it \
             processed); 2xx answers do not show how many copies were processed"
                .to_string(),
        );
    }
    if let Some(doubted) = rounds.iter().find(|round| round.executions.is_none()) {
        let doubt = doubted.doubt.clone().unwrap_or_else(|| "the count could not be read".to_string());
        return (RaceVerdict::Unconfirmed, format!("round {}: {doubt}", doubted.round));
    }
    if let Some(none) = rounds.iter().find(|round| round.executions == Some(0)) {
        return (
            RaceVerdict::Unconfirmed,
            format!(
                "unconfirmed: the count did not move in round {} and no copy got a 2xx ({}); does the receiver \
                 accept this delivery (--scheme, the secret, the payload)?",
                none.round,
                none.answers.describe()
            ),
        );
    }
    let rounds_text = if rounds.len() == 1 { String::new() } else { format!(" in each of {} rounds", rounds.len()) };
    (RaceVerdict::ExecutedOnce, format!("{copies} identical copies arriving together were processed once{rounds_text}"))
}

pub(crate) async fn run(config: RaceConfig) -> anyhow::Result<Outcome> {
    let report = execute(&config).await?;
    let mut stdout = std::io::stdout().lock();
    match config.format {
        ReportFormat::Human => write!(stdout, "{}", render_human(&report, config.palette))?,
        ReportFormat::Html => write!(stdout, "{}", render_html(&report))?,
        ReportFormat::Json => {
            // Serialised first so a closed stdout surfaces as the io::Error `exit` recognises.
            let document = crate::json_output::pretty(SCHEMA, &report)?;
            writeln!(stdout, "{document}")?;
        }
    }
    stdout.flush()?;
    match report.verdict {
        RaceVerdict::ExecutedOnce | RaceVerdict::NotCounted => Ok(Outcome::Holds),
        RaceVerdict::ExecutedMoreThanOnce => Ok(Outcome::ProblemFound),
        RaceVerdict::Unconfirmed => bail!("{}", report.explanation),
    }
}

/// `--format html`: the verdict, each round's copies by answer (drawn, then as a table) with the
/// count of executions.
fn render_html(report: &RaceReport) -> String {
    let target = format!("POST {} (--scheme {}) × {}", report.url, report.scheme, report.copies);
    let mut html = HtmlReport::new("webhook race", &target);
    let tone = match report.verdict {
        RaceVerdict::ExecutedOnce => Tone::Good,
        RaceVerdict::ExecutedMoreThanOnce => Tone::Bad,
        RaceVerdict::NotCounted | RaceVerdict::Unconfirmed => Tone::Warn,
    };
    html.verdict(&report.explanation, tone);
    let bars: Vec<svg::Bar> = report
        .rounds
        .iter()
        .map(|round| {
            let mut parts: Vec<(String, usize, Tone)> = round
                .answers
                .statuses
                .iter()
                .map(|(status, count)| (status.to_string(), *count, Tone::of_status(Some(*status))))
                .collect();
            if !round.answers.unanswered.is_empty() {
                parts.push(("no answer".to_string(), round.answers.unanswered.len(), Tone::Bad));
            }
            (format!("round {}", round.round), parts)
        })
        .collect();
    let mut section = svg::stacked("each round's copies by their answer", &bars);
    let rows = report
        .rounds
        .iter()
        .map(|round| {
            let answers: Vec<String> =
                round.answers.statuses.iter().map(|(status, count)| format!("{status} ×{count}")).collect();
            let executions = round.executions.map_or("not counted".to_string(), |n| n.to_string());
            let tone = match round.executions {
                Some(1) => Tone::Good,
                Some(_) => Tone::Bad,
                None => Tone::Neutral,
            };
            (
                vec![("round", round.round.to_string())],
                vec![
                    Cell::text(round.round.to_string()),
                    Cell::text(round.event_id.clone()),
                    Cell::text(answers.join(", ")),
                    Cell::Text(executions, tone),
                    Cell::text(round.doubt.clone().unwrap_or_default()),
                ],
            )
        })
        .collect();
    section.push_str(&HtmlReport::table(&["round", "event id", "answers", "executions", "doubt"], rows));
    html.section("Rounds", &section);
    html.finish()
}

/// The report as people read it: what was raced, a line per round, the verdict.
fn render_human(report: &RaceReport, palette: Palette) -> String {
    let mut out = String::new();
    let rounds = plural(report.rounds.len(), "round", "rounds");
    out.push_str(&format!(
        "{} {}  {}\n",
        palette.bold("POST"),
        report.url,
        palette.dim(&format!("{}, {} identical copies per round, {rounds}", report.scheme, report.copies))
    ));
    if let Some(first) = report.rounds.first() {
        out.push_str(&palette.dim(&format!("sync: {} ({})", first.sync.as_str(), first.sync_reason)));
        out.push('\n');
    }
    for round in &report.rounds {
        let executions = match (&round.count, round.executions) {
            (Some(count), Some(n)) => {
                let text = format!("executed {} (count {} → {})", times(n), count.before, count.after);
                if n > 1 { palette.red(&text) } else { text }
            }
            (Some(count), None) => format!("count {} → {}: unconfirmed", count.before, count.after),
            (None, _) => "executions not counted".to_string(),
        };
        out.push_str(&format!(
            "round {}  {}  {}  {executions}\n",
            round.round,
            round.event_id,
            round.answers.describe()
        ));
        out.push_str(&palette.dim(&format!("  release: {}", round.release.describe(round.sync, report.copies))));
        out.push('\n');
        let server_errors = round.answers.within(500..600);
        if server_errors > 0 && round.executions == Some(1) {
            out.push_str(&palette.yellow(&format!(
                "  ! {} answered with a 5xx: the provider delivers {} again; answer 2xx to a copy whose id another \
                 copy has claimed",
                plural(server_errors, "copy was", "copies were"),
                if server_errors == 1 { "it" } else { "them" }
            )));
            out.push('\n');
        }
    }
    let verdict = match report.verdict {
        RaceVerdict::ExecutedOnce => palette.green("✓ executed once (counted):"),
        RaceVerdict::ExecutedMoreThanOnce => {
            palette.red(&format!("✗ executed {}:", times(report.most_executions.unwrap_or_default())))
        }
        RaceVerdict::NotCounted => palette.yellow("?"),
        RaceVerdict::Unconfirmed => palette.red("✗ no verdict:"),
    };
    out.push_str(&format!("{verdict} {}\n", report.explanation));
    out
}

/// `once`, `twice`, `3 times`.
fn times(n: u64) -> String {
    match n {
        1 => "once".to_string(),
        2 => "twice".to_string(),
        n => format!("{n} times"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A round of `copies` copies all answered `status`, with the count's verdict on it.
    fn round(number: usize, status: u16, copies: usize, counted: Option<Result<u64, &str>>) -> RaceRound {
        let mut answers = Tally::default();
        answers.statuses.insert(status, copies);
        let (count, executions, doubt) = match counted {
            Some(Ok(n)) => {
                let change = CountChange {
                    before: 0,
                    after: n,
                    settled_after_ms: 0,
                    reads: vec![n],
                    late_executions: 0,
                    doubt: None,
                };
                (Some(change), Some(n), None)
            }
            Some(Err(doubt)) => {
                let change = CountChange {
                    before: 0,
                    after: 0,
                    settled_after_ms: 0,
                    reads: vec![0],
                    late_executions: 0,
                    doubt: Some(doubt.to_string()),
                };
                (Some(change), None, Some(doubt.to_string()))
            }
            None => (None, None, None),
        };
        RaceRound {
            round: number,
            event_id: format!("evt_{number}"),
            delivery_id: format!("msg_{number}"),
            sync: Sync::LastByte,
            sync_reason: String::new(),
            answers,
            release: ReleaseSummary {
                writes: copies,
                bytes: copies,
                spread: Duration::ZERO,
                batch: None,
                finished_after_batch: None,
            },
            count,
            executions,
            doubt,
        }
    }

    #[test]
    fn one_round_processed_more_than_once_decides_whatever_the_others_show() {
        let rounds = [round(1, 200, 10, Some(Err("unconfirmed: the count went down"))), round(2, 200, 10, Some(Ok(3)))];
        let (verdict, explanation) = judge(&rounds, 10, true);
        assert_eq!(verdict, RaceVerdict::ExecutedMoreThanOnce);
        assert!(explanation.starts_with("3 of 10 identical copies"), "{explanation}");
        assert!(explanation.contains("1 of 2 rounds processed more than one"), "{explanation}");
    }

    #[test]
    fn a_count_that_cannot_be_believed_is_unconfirmed_with_its_doubt() {
        let rounds = [round(1, 200, 10, Some(Ok(1))), round(2, 200, 10, Some(Err("unconfirmed: it moved")))];
        assert_eq!(judge(&rounds, 10, true), (RaceVerdict::Unconfirmed, "round 2: unconfirmed: it moved".to_string()));
        let refused = [round(1, 401, 10, Some(Ok(0)))];
        let (verdict, explanation) = judge(&refused, 10, true);
        assert_eq!(verdict, RaceVerdict::Unconfirmed);
        assert!(explanation.contains("no copy got a 2xx (10 × 401)"), "{explanation}");
    }

    #[test]
    fn once_in_every_round_holds_and_no_count_is_said_as_such() {
        let rounds = [round(1, 200, 10, Some(Ok(1))), round(2, 200, 10, Some(Ok(1)))];
        let (verdict, explanation) = judge(&rounds, 10, true);
        assert_eq!(verdict, RaceVerdict::ExecutedOnce);
        assert!(explanation.ends_with("processed once in each of 2 rounds"), "{explanation}");
        let (verdict, explanation) = judge(&[round(1, 200, 10, None)], 10, false);
        assert_eq!(verdict, RaceVerdict::NotCounted);
        assert!(explanation.starts_with("executions not counted: give --count-url"), "{explanation}");
    }

    #[test]
    fn a_round_with_no_answer_at_all_leaves_nothing_to_judge() {
        let mut silent = round(1, 200, 0, None);
        silent.answers = Tally { statuses: Default::default(), unanswered: vec!["no answer within 10s".into(); 3] };
        let (verdict, explanation) = judge(&[silent], 3, false);
        assert_eq!(verdict, RaceVerdict::Unconfirmed);
        assert!(explanation.contains("no copy was answered in round 1: no answer within 10s"), "{explanation}");
    }
}
