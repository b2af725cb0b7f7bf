//! `idem window`: how far apart can two duplicates with one key arrive and both still execute?
//! Pairs with a fresh key each, the second released a growing spacing after the first through
//! `idem race`'s engine (`--stagger`), then a bisection to the edge. The width decides how urgent
//! a race is: 200 µs is hit only by synchronised attacks, 300 ms by every double-click.
//!
//! `search` picks the spacings, `probe` runs the pairs (and retakes the ones a stall disturbed),
//! `report` prints.
pub(crate) mod probe;
pub(crate) mod report;
pub(crate) mod search;

pub(crate) use report::{WindowReport, WindowVerdict};

use std::io::Write;
use std::time::Duration;

use anyhow::bail;

use crate::evidence_level::EvidenceLevel;
use crate::exit::Outcome;
use crate::idem::key::KeyPolicy;
use crate::idem::request::RequestSpec;
use crate::idem::verdict::Evidence;
use crate::output::{Palette, ReportFormat};
use probe::Prober;
use report::Step;
use search::Search;

#[derive(Debug, Clone)]
pub(crate) struct WindowConfig {
    pub request: RequestSpec,
    /// The widest spacing probed.
    pub max: Duration,
    /// Pairs per step; a step executed twice if any of them did.
    pub probes: usize,
    pub format: ReportFormat,
    pub palette: Palette,
}

/// Measures the window, calling `on_step` after each step. An error means it could not be
/// measured (no answer, a fixed key).
pub(crate) async fn measure(
    spec: &RequestSpec,
    max: Duration,
    probes: usize,
    mut on_step: impl FnMut(&Step),
) -> anyhow::Result<WindowReport> {
    match spec.key_policy {
        KeyPolicy::Fixed(_) => {
            let key = spec.key_named;
            bail!("{key} fixes the key, but every pair needs a fresh one; drop {key}")
        }
        KeyPolicy::Omit => bail!("idem window measures duplicates that share a key; drop --no-key"),
        KeyPolicy::Generate(_) => {}
    }
    if probes == 0 {
        bail!("--probes must be at least 1");
    }
    // Read before the first pair and after the last, so what the whole measurement created is measured.
    let ledger = crate::created::RunLedger::open(&spec.ledgers).await?;
    let mut prober = Prober::new(spec.clone());
    let mut search = Search::new(max);
    let mut steps = Vec::new();
    while let Some((spacing, phase)) = search.next() {
        let mut records = Vec::with_capacity(probes);
        // Any pair executing twice settles the step, so the rest are not sent.
        while records.len() < probes && !records.iter().any(probe::ProbeRecord::executed_twice) {
            records.push(prober.probe(spacing).await?);
        }
        let executed_twice = records.iter().any(probe::ProbeRecord::executed_twice);
        search.record(spacing, executed_twice);
        let step = Step { phase, spacing, executed_twice, probes: records };
        on_step(&step);
        steps.push(step);
    }
    let (verdict, window, meaning) = WindowReport::conclude(search.conclusion());
    // The verdict rests on the first step (spacing 0) when there is no window, on the widest
    // spacing that executed twice otherwise.
    let deciding = match verdict {
        WindowVerdict::NoWindow => steps.first(),
        _ => steps.iter().filter(|step| step.executed_twice).max_by_key(|step| step.spacing),
    };
    let evidence = deciding
        .and_then(|step| step.probes.iter().find(|p| p.executed_twice() == step.executed_twice))
        .map(|probe| probe.evidence.clone())
        .unwrap_or_default();
    let evidence_level = if evidence.iter().any(|e| matches!(e, Evidence::Count { .. })) {
        Some(EvidenceLevel::Count)
    } else {
        (!evidence.is_empty()).then_some(EvidenceLevel::Answer)
    };
    let meaning = match verdict {
        WindowVerdict::NoWindow => {
            WindowReport::no_window_meaning(evidence_level, &crate::idem::verdict::replay_shown_by(&evidence))
        }
        _ => meaning,
    };
    let readings = match &ledger {
        Some(ledger) => ledger.close().await,
        None => Vec::new(),
    };
    let created = crate::created::Created::measure(&readings, &prober.created_ids);
    let (sync, sync_reason) = prober.sync.map_or((None, None), |(sync, reason)| (Some(sync), Some(reason)));
    Ok(WindowReport {
        method: spec.method.to_string(),
        url: spec.url.to_string(),
        key_header: spec.key_header.to_string(),
        key_in: spec.key_in(),
        sync,
        sync_reason,
        max,
        probes_per_step: probes,
        verdict,
        window,
        meaning,
        evidence,
        evidence_level,
        steps,
        created,
    })
}

/// `idem window`: the steps as they go (human) or one document at the end (JSON).
pub(crate) async fn run(config: WindowConfig) -> anyhow::Result<Outcome> {
    let palette = config.palette;
    let human = config.format == ReportFormat::Human;
    if human {
        let mut stdout = std::io::stdout().lock();
        writeln!(
            stdout,
            "{} {}: how far apart can two duplicates arrive and both execute?",
            config.request.method, config.request.url
        )?;
        writeln!(
            stdout,
            "{}",
            palette.dim(&format!(
                "pairs with a fresh key each, {} per step (a step executed twice if any did), up to {} apart",
                config.probes,
                crate::units::format_duration(config.max)
            ))
        )?;
        stdout.flush()?;
    }
    let mut printed = Ok(());
    let report = measure(&config.request, config.max, config.probes, |step| {
        if human && printed.is_ok() {
            let mut stdout = std::io::stdout().lock();
            printed = stdout.write_all(report::render_step(step, palette).as_bytes()).and_then(|()| stdout.flush());
        }
    })
    .await?;
    printed?;
    let mut stdout = std::io::stdout().lock();
    match config.format {
        ReportFormat::Human => {
            if let (Some(sync), Some(reason)) = (report.sync, &report.sync_reason) {
                writeln!(stdout, "{}", palette.dim(&format!("sync: {} ({reason})", sync.as_str())))?;
            }
            write!(stdout, "{}", report.render_conclusion(palette))?;
            writeln!(stdout, "{}", report.created.line(palette))?;
        }
        ReportFormat::Html => write!(stdout, "{}", report.render_html())?,
        ReportFormat::Json => {
            // Serialised first so a closed stdout surfaces as the io::Error `exit` recognises.
            let document = crate::json_output::pretty(report::SCHEMA, &report)?;
            writeln!(stdout, "{document}")?;
        }
    }
    stdout.flush()?;
    Ok(match report.verdict {
        WindowVerdict::NoWindow => Outcome::Holds,
        WindowVerdict::Window | WindowVerdict::WindowAtLeastMax => Outcome::ProblemFound,
    })
}
