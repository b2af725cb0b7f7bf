//! `idem race`: N duplicates of one request, synchronised to arrive at the same instant, judged by
//! the shared verdict; repeated over rounds with a fresh key each.
//!
//! One file per job: `round` chooses the synchronisation, sends through the shared engine
//! (`crate::race`: the HTTP/2 single-packet and HTTP/1.1 last-byte senders, the spread over
//! instances of `--also`, the exact waits of `--stagger`) and judges; `concurrent` is the
//! unsynchronised baseline, `report` what is printed.
pub(crate) mod concurrent;
pub(crate) mod report;
pub(crate) mod round;

pub(crate) use report::{RaceReport, RaceVerdict};
pub(crate) use round::{KeyMode, RoundReport, Spread, SyncMode, race_round, race_round_spread};

use std::io::Write;

use anyhow::bail;

use crate::exit::Outcome;
use crate::idem::key::KeyPolicy;
use crate::idem::request::RequestSpec;
use crate::output::{Palette, ReportFormat};

#[derive(Debug, Clone)]
pub(crate) struct RaceConfig {
    pub request: RequestSpec,
    pub n: usize,
    pub rounds: usize,
    pub sync: SyncMode,
    pub key_mode: KeyMode,
    /// `--stagger`: release the duplicates this far apart, in order, instead of together.
    pub stagger: Option<std::time::Duration>,
    pub format: ReportFormat,
    pub palette: Palette,
    /// `--also`: more instances of the same API; the duplicates are spread over all targets.
    pub also: Vec<http::Uri>,
    /// `--detail`: which round of several is printed in full.
    pub detail: report::RoundDetail,
}

/// Runs every round (a fresh key each), with a progress bar on a terminal.
pub(crate) async fn execute(config: &RaceConfig) -> anyhow::Result<RaceReport> {
    let spec = &config.request;
    if let report::RoundDetail::Number(n) = config.detail
        && n > config.rounds
    {
        bail!(
            "--detail {n}: there are only {} (--rounds {})",
            if config.rounds == 1 { "1 round".to_string() } else { format!("{} rounds", config.rounds) },
            config.rounds
        );
    }
    if config.rounds > 1 && matches!(spec.key_policy, KeyPolicy::Fixed(_)) && config.key_mode == KeyMode::Same {
        let key = config.request.key_named;
        bail!("{key} fixes the key, so every round after the first would only replay it; drop {key} or use --rounds 1");
    }
    spec.budget.announce(crate::http::budget::Needed::Exactly((config.n as u64).saturating_mul(config.rounds as u64)));
    // Read before the first round and after the last, so what the whole race created is measured.
    let ledger = crate::created::RunLedger::open(&spec.ledgers).await?;
    let progress = (config.rounds > 1).then(|| crate::output::progress_bar(config.rounds as u64, "racing"));
    let mut rounds = Vec::with_capacity(config.rounds);
    for number in 1..=config.rounds {
        let spread = Spread { also: config.also.clone(), stagger: config.stagger, closing: number == config.rounds };
        let raced = race_round_spread(spec, config.n, config.sync, config.key_mode, &spread).await;
        if let Err(err) = &raced
            && crate::http::budget::refusal_in(err).is_some()
        {
            if let Some(bar) = &progress {
                bar.finish_and_clear();
            }
            let done = stopped_after(&rounds);
            return Err(raced.unwrap_err().context(format!("round {number} of {} was not sent{done}", config.rounds)));
        }
        let mut round = raced?;
        round.round = number;
        rounds.push(round);
        if let Some(bar) = &progress {
            bar.inc(1);
        }
    }
    if let Some(bar) = progress {
        bar.finish_and_clear();
    }
    let mut report = RaceReport::new(
        spec.method.to_string(),
        spec.url.to_string(),
        spec.key_header.to_string(),
        config.n,
        config.sync,
        rounds,
    );
    report.also = config.also.iter().map(ToString::to_string).collect();
    report.key_in = spec.key_in();
    report.key_label = spec.key_label();
    if let Some(ledger) = &ledger {
        report.measure_created(&ledger.close().await);
    }
    Ok(report)
}

/// What the rounds run before --max-requests stopped the race showed, for its message.
fn stopped_after(rounds: &[RoundReport]) -> String {
    if rounds.is_empty() {
        return String::new();
    }
    let twice = rounds.iter().filter(|round| round.judgement.executions > 1).count();
    let mut ids = crate::created::CreatedIds::default();
    for answer in rounds.iter().flat_map(|round| &round.answers) {
        ids.add(answer.observed.status, answer.observed.resource_id.as_deref(), answer.observed.replayed);
    }
    format!(
        " ({} run before it: {} executed more than once{})",
        crate::text::plural(rounds.len(), "round", "rounds"),
        twice,
        crate::created::Created::before_stopping(&ids)
    )
}

pub(crate) async fn run(config: RaceConfig) -> anyhow::Result<Outcome> {
    let report = execute(&config).await?;
    let mut stdout = std::io::stdout().lock();
    match config.format {
        ReportFormat::Human => write!(stdout, "{}", report.render_human(config.palette, config.detail))?,
        ReportFormat::Html => write!(stdout, "{}", report.render_html())?,
        ReportFormat::Json => {
            // Serialised first so a closed stdout surfaces as the io::Error `exit` recognises.
            let document = crate::json_output::pretty(report::SCHEMA, &report)?;
            writeln!(stdout, "{document}")?;
        }
    }
    stdout.flush()?;
    match report.verdict {
        RaceVerdict::Safe | RaceVerdict::AsExpected => Ok(Outcome::Holds),
        RaceVerdict::ExecutedMoreThanOnce | RaceVerdict::Inconsistent | RaceVerdict::Collapsed => {
            Ok(Outcome::ProblemFound)
        }
        RaceVerdict::NothingCreated | RaceVerdict::CannotTell | RaceVerdict::Unconfirmed => {
            let explanation = report.telling_round().and_then(|round| round.judgement.explanation.clone());
            bail!("{}", explanation.unwrap_or_else(|| "the answers do not show how many times it executed".to_string()))
        }
        RaceVerdict::Errors => {
            let failed = report.telling_round().and_then(|round| {
                let errors: Vec<&str> = round.answers.iter().filter_map(|a| a.observed.error.as_deref()).collect();
                errors
                    .first()
                    .map(|first| format!("{} of {} answers never came: {first}", errors.len(), round.answers.len()))
            });
            bail!("{}", failed.unwrap_or_else(|| "some answers never came".to_string()))
        }
    }
}
