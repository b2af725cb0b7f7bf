//! `webhook replay FILE URL`: re-deliver what `webhook listen --record` journaled (or a JSON-lines
//! file of events), one entry after another in file order, each with the retries of `send`.
//! Re-signed by default, with `--scheme` or else the scheme each line recorded (`signers.rs`);
//! `--verbatim` sends the recorded headers unchanged to check that a receiver refuses a stale
//! replayed signature. The body bytes are sent exactly as recorded.
//!
//! A 410 Gone stops the whole replay: the endpoint is gone for every later entry too, which is how
//! providers treat it (they disable the endpoint).
mod rate;
mod signers;
pub(crate) mod source;

use std::io::Write;
use std::path::PathBuf;
use std::time::Instant;

use anyhow::Context;
use http::Uri;
use serde::Serialize;

pub(crate) use rate::{Rate, parse_rate};
pub(crate) use signers::ReplayScheme;
pub(crate) use source::{Entry, Filter};

use crate::exit::Outcome;
use crate::output::{Format, Palette, terminal_safe};
use crate::text::plural;
use crate::webhook::deliver::engine::{
    DeliverOptions, Deliverer, DeliveryOutcome, DeliveryReport, Message, RunDelivery,
};
use crate::webhook::deliver::print::{self as attempt_lines, AttemptLines};
use crate::webhook::scheme::{SchemeKind, SchemeOptions};
use crate::webhook::secret::SecretSource;
use signers::{SchemeFrom, Signers};
use source::ReplayMode;

/// How entries are signed, before the secret is read.
#[derive(Debug)]
pub enum ReplaySigning {
    Resign { scheme: ReplayScheme, options: SchemeOptions, secret: SecretSource },
    Verbatim,
}

#[derive(Debug)]
pub struct ReplayConfig {
    pub file: PathBuf,
    pub url: Uri,
    pub signing: ReplaySigning,
    pub filter: Filter,
    /// Re-sign deliveries the listener recorded as invalid too (they would become valid).
    pub include_invalid: bool,
    pub rate: Option<Rate>,
    /// `--order`, `--seed`: the order the selected entries go out in.
    pub order: crate::webhook::order::OrderOptions,
    pub delivery: DeliverOptions,
    pub format: Format,
    pub palette: Palette,
}

/// The `schema` value of `webhook replay --format json` (schemas/webhook-replay.json).
pub(crate) const SCHEMA: &str = "webhook-replay/1";

/// The `--format json` document.
#[derive(Debug, Serialize, schemars::JsonSchema)]
pub(crate) struct ReplayReport {
    pub file: String,
    pub url: String,
    /// `resign` or `verbatim`.
    #[schemars(extend("enum" = ["resign", "verbatim"]))]
    pub mode: &'static str,
    /// The scheme entries were re-signed with: `--scheme`'s, or the one every entry recorded
    /// (`null` with --verbatim, or when the entries recorded different schemes: each delivery
    /// names its own).
    pub scheme: Option<SchemeKind>,
    /// Where the scheme came from: `flag` (--scheme) or `journal` (each line's recorded scheme);
    /// `null` with --verbatim.
    pub scheme_from: Option<SchemeFrom>,
    /// The provider whose deliveries these imitate (`--as`: retries, timeout, User-Agent, retry
    /// headers); `null` for the tool's own behaviour.
    pub behaves_as: Option<&'static str>,
    /// Entries in the file, and how many the filters kept.
    pub entries: usize,
    pub selected: usize,
    /// Entries the filters kept but that were recorded with an invalid signature and skipped,
    /// because re-signing them would turn a forgery into a valid delivery (`--include-invalid`).
    pub skipped_invalid: usize,
    pub delivered: usize,
    /// Entries not attempted because an earlier one was answered 410 Gone.
    pub not_attempted: usize,
    /// `delivered` when every selected entry got a 2xx and no line was skipped, else `not-delivered`.
    #[schemars(with = "String", extend("enum" = ["delivered", "not-delivered"]))]
    pub outcome: RunDelivery,
    /// Lines of the file that could not be read and were skipped (torn, binary, not JSON), each
    /// named and described; any makes the replay exit 1.
    pub skipped_lines: Vec<String>,
    /// What was read but noted (a byte-order mark ignored).
    pub notes: Vec<String>,
    pub deliveries: Vec<ReplayedEntry>,
}

#[derive(Debug, Serialize, schemars::JsonSchema)]
pub(crate) struct ReplayedEntry {
    /// The entry's 1-based line in the file.
    pub line: usize,
    /// The scheme this entry was re-signed with (`null` with --verbatim).
    pub scheme: Option<SchemeKind>,
    #[serde(flatten)]
    pub report: DeliveryReport,
}

pub(crate) async fn run(config: ReplayConfig) -> anyhow::Result<Outcome> {
    let (entries, issues) = source::read_entries(&config.file)?;
    for skipped in issues.skipped.iter().chain(&issues.unnamed()) {
        eprintln!("warning: {}", terminal_safe(skipped));
    }
    for note in &issues.notes {
        eprintln!("note: {}", terminal_safe(note));
    }
    let total = entries.len();
    let mut selected: Vec<Entry> = config.filter.select(entries)?;
    let matched = selected.len();
    let resigning = matches!(config.signing, ReplaySigning::Resign { .. });
    if resigning && !config.include_invalid {
        selected.retain(|entry| entry.recorded_valid != Some(false));
    }
    let skipped_invalid = matched - selected.len();
    if skipped_invalid > 0 {
        eprintln!(
            "note: skipped {skipped_invalid} deliveries recorded with an invalid signature: re-signing would make them \
             valid (--include-invalid replays them anyway, --verbatim replays them as they were)"
        );
    }
    if selected.is_empty() {
        return Err(nothing_to_replay(&config.file, total, matched, issues.skipped_total > 0));
    }
    if let Some(seed) = config.order.arrange(&mut selected) {
        eprintln!("note: shuffled {} entries with --seed {seed} (give it again to repeat this order)", selected.len());
    }
    let signers = signers(config.signing, &selected, &config.file)?;
    // Every message is built before the first is sent, so a bad entry stops the replay before it
    // has half happened.
    let mut messages = Vec::with_capacity(selected.len());
    for entry in &selected {
        let (kind, mode) = match &signers {
            Some(signers) => {
                let (kind, mode) = signers.for_entry(entry, &config.file)?;
                (Some(kind), mode)
            }
            None => (None, &ReplayMode::Verbatim),
        };
        messages.push(Signed { scheme: kind, message: source::message(entry, mode)? });
    }
    let scheme_from = signers.as_ref().map(Signers::scheme_from);
    let one_scheme = |signed: &[Signed]| {
        let first = signed.first()?.scheme?;
        signed.iter().all(|each| each.scheme == Some(first)).then_some(first)
    };
    let scheme = one_scheme(&messages);

    let human = config.format == Format::Human;
    let deliverer = Deliverer::new(config.url.clone(), &config.delivery)?.with_wait_bar(human);
    let least = messages.len() as u64;
    let most = least.saturating_mul(u64::from(deliverer.policy().max_attempts().max(1)));
    config.delivery.budget.announce(crate::http::budget::Needed::Between(least, most));
    let lines = human.then(|| Lines {
        attempts: AttemptLines { palette: config.palette, max_attempts: deliverer.policy().max_attempts() },
        scheme_from,
    });
    let deliveries = deliver_in_turn(&deliverer, &selected, &messages, config.rate, lines).await?;

    let delivered = deliveries.iter().filter(|entry| entry.report.delivered).count();
    let not_attempted = selected.len() - deliveries.len();
    // A skipped line is data that was not replayed: never "everything delivered". Unless lines
    // were named (`webhook journal FILE replay ID`): a damaged line elsewhere was not asked for.
    let skipped_matters = issues.skipped_total > 0 && config.filter.lines.is_empty();
    let outcome = if delivered == selected.len() && !skipped_matters { Outcome::Holds } else { Outcome::ProblemFound };
    let mut stdout = std::io::stdout().lock();
    match config.format {
        Format::Json => {
            let report = ReplayReport {
                file: config.file.display().to_string(),
                url: crate::http::url::Redacted(&config.url).to_string(),
                mode: if scheme_from.is_some() { "resign" } else { "verbatim" },
                scheme,
                scheme_from,
                behaves_as: config.delivery.personality.map(|personality| personality.name),
                entries: total,
                selected: selected.len(),
                skipped_invalid,
                delivered,
                not_attempted,
                outcome: RunDelivery::of(outcome),
                skipped_lines: issues.skipped.clone(),
                notes: issues.unnamed().into_iter().chain(issues.notes.iter().cloned()).collect(),
                deliveries,
            };
            // Serialised first so a closed stdout surfaces as the io::Error `exit` recognises.
            let document = crate::json_output::pretty(SCHEMA, &report)?;
            writeln!(stdout, "{document}")?;
        }
        Format::Human => {
            let signed_with = match (scheme_from, scheme) {
                (None, _) => String::new(),
                (Some(SchemeFrom::Flag), Some(kind)) => format!(" re-signed with --scheme {kind}"),
                (Some(SchemeFrom::Journal), Some(kind)) => format!(" re-signed with {kind}, the scheme recorded"),
                (Some(_), None) => " re-signed, each with the scheme it recorded".to_string(),
            };
            let summary =
                human_summary(selected.len(), total, &signed_with, delivered, not_attempted, issues.skipped_total);
            let summary =
                if outcome == Outcome::Holds { config.palette.green(&summary) } else { config.palette.red(&summary) };
            writeln!(stdout, "{summary}")?;
        }
    }
    stdout.flush()?;
    Ok(outcome)
}

/// The error for a replay with no entry left to send, saying which step left none.
fn nothing_to_replay(file: &std::path::Path, total: usize, matched: usize, lines_skipped: bool) -> anyhow::Error {
    let why = match (total, matched) {
        (0, _) if lines_skipped => " it could read (every line was skipped, see above)",
        (0, _) => "",
        (_, 0) if lines_skipped => {
            " it could read and the filters matched none of them (lines were skipped, see above: the one asked for may \
             be among them)"
        }
        (_, 0) => " and the filters (--event-type, --id, --failed, --latest-per-event) matched none",
        _ => " and every one the filters kept was recorded as invalid",
    };
    anyhow::anyhow!(
        "nothing to replay: {} holds {total} entr{}{why}",
        file.display(),
        if total == 1 { "y" } else { "ies" },
    )
}

/// The signers of a re-signed replay (the secret loaded, a key per scheme the entries need), or
/// `None` for `--verbatim`.
fn signers(signing: ReplaySigning, entries: &[Entry], file: &std::path::Path) -> anyhow::Result<Option<Signers>> {
    match signing {
        ReplaySigning::Resign { scheme, options, secret } => {
            Signers::for_entries(scheme, &options, &secret.load()?, entries, file).map(Some)
        }
        ReplaySigning::Verbatim => Ok(None),
    }
}

/// An entry's message, and the scheme it was re-signed with (`None` verbatim).
struct Signed {
    scheme: Option<SchemeKind>,
    message: Message,
}

/// What the human output prints as it goes: each attempt, and where each line's scheme came from.
#[derive(Clone, Copy)]
struct Lines {
    attempts: AttemptLines,
    scheme_from: Option<SchemeFrom>,
}

/// Delivers the entries one after another, no faster than `rate`, printing each one's attempts
/// when `lines` is given (human output); stops after a 410 Gone.
async fn deliver_in_turn(
    deliverer: &Deliverer,
    selected: &[Entry],
    messages: &[Signed],
    rate: Option<Rate>,
    lines: Option<Lines>,
) -> anyhow::Result<Vec<ReplayedEntry>> {
    let mut deliveries = Vec::with_capacity(messages.len());
    let mut last_start: Option<Instant> = None;
    for (entry, Signed { scheme, message }) in selected.iter().zip(messages) {
        if let (Some(rate), Some(last)) = (rate, last_start) {
            tokio::time::sleep_until((last + rate.interval()).into()).await;
        }
        last_start = Some(Instant::now());
        if let Some(lines) = lines {
            let event = [message.event_type.as_deref(), Some(message.event_id.as_str())];
            let event: Vec<&str> = event.into_iter().flatten().collect();
            let heading = lines.attempts.palette.bold(&format!("line {}", entry.line));
            let signed_with = match (scheme, lines.scheme_from) {
                (Some(kind), Some(SchemeFrom::Journal)) => format!(" · {kind}, as recorded"),
                (Some(kind), _) => format!(" · --scheme {kind}"),
                (None, _) => String::new(),
            };
            // The event's type and id were recorded off the network.
            writeln!(std::io::stdout().lock(), "{heading} {}{signed_with}", terminal_safe(&event.join(" ")))?;
        }
        let observer = |_: &_, attempt: &_, next: Option<&_>| {
            if let Some(lines) = lines {
                lines.attempts.print("", attempt, next);
            }
        };
        let report = deliverer.deliver(message, &observer).await.with_context(|| {
            format!(
                "the replay stopped at line {} ({} of {} entries replayed before it)",
                entry.line,
                deliveries.len(),
                messages.len()
            )
        })?;
        if let Some(lines) = lines {
            let summary = attempt_lines::summary(&report, lines.attempts.max_attempts, lines.attempts.palette);
            writeln!(std::io::stdout().lock(), "  {summary}")?;
        }
        let gone = report.outcome == DeliveryOutcome::Gone;
        deliveries.push(ReplayedEntry { line: entry.line, scheme: *scheme, report });
        if gone {
            break;
        }
    }
    Ok(deliveries)
}

/// The human summary line: how many went out (and with which scheme), were delivered, were cut
/// short or unreadable.
fn human_summary(
    selected: usize,
    total: usize,
    signed_with: &str,
    delivered: usize,
    not_attempted: usize,
    skipped: usize,
) -> String {
    let mut summary = format!("replayed {selected} of {total} entries{signed_with}: {delivered} delivered");
    if not_attempted > 0 {
        summary.push_str(&format!(", {not_attempted} not attempted after 410 Gone"));
    }
    if skipped > 0 {
        summary.push_str(&format!(", {} skipped", plural(skipped, "unreadable line", "unreadable lines")));
    }
    summary
}
