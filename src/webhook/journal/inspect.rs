//! `webhook journal FILE`: what a listener journaled, for a person. `list` (the default) prints a
//! line per delivery (time, event id and type, scheme, verdict, status answered, forward outcome)
//! with filters; `show ID` prints one delivery in full; `--follow` keeps printing deliveries as a
//! running listener appends them. `replay ID URL` is `webhook replay` of that one line.
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::{Context, bail};
use chrono::{DateTime, Utc};

use super::reader::{read_journal, read_json_lines};
use super::record::JournalRecord;
use crate::exit::Outcome;
use crate::output::{Format, Palette, indent, render_body, terminal_safe};

/// Which deliveries `list` and `--follow` show.
#[derive(Debug, Clone, Default)]
pub struct JournalFilter {
    /// `--type GLOB`: the event type matches (a delivery without one never does).
    pub event_type: Option<String>,
    /// `--status`: the status answered, exactly (`500`) or by class (`5xx`).
    pub status: Option<StatusFilter>,
    /// `--since`: received at or after this time.
    pub since: Option<DateTime<Utc>>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StatusFilter {
    Exact(u16),
    /// The hundreds digit: 2 for `2xx`.
    Class(u16),
}

impl StatusFilter {
    pub fn parse(text: &str) -> anyhow::Result<StatusFilter> {
        let lower = text.trim().to_ascii_lowercase();
        if let Some(class) = lower.strip_suffix("xx").and_then(|digit| digit.parse::<u16>().ok()) {
            if (1..=5).contains(&class) {
                return Ok(StatusFilter::Class(class));
            }
        }
        match lower.parse::<u16>() {
            Ok(status) if (100..=599).contains(&status) => Ok(StatusFilter::Exact(status)),
            _ => bail!("--status `{text}` is not a status (200, 502) or a class (2xx, 5xx)"),
        }
    }

    fn matches(self, status: u16) -> bool {
        match self {
            StatusFilter::Exact(exact) => status == exact,
            StatusFilter::Class(class) => status / 100 == class,
        }
    }
}

/// `--since`: an RFC 3339 time, or a duration meaning that long ago (`10m`, `2h`).
pub(crate) fn parse_since(text: &str, now: DateTime<Utc>) -> anyhow::Result<DateTime<Utc>> {
    if let Ok(time) = DateTime::parse_from_rfc3339(text) {
        return Ok(time.with_timezone(&Utc));
    }
    let ago = crate::units::parse_duration(text).map_err(|_| {
        anyhow::anyhow!("--since `{text}` is neither a time (2026-12-01T14:00:00Z) nor a duration ago (10m, 2h)")
    })?;
    let ago = chrono::Duration::from_std(ago).context("--since is too far back")?;
    Ok(now - ago)
}

impl JournalFilter {
    pub fn keeps(&self, record: &JournalRecord) -> bool {
        let type_ok = self.event_type.as_deref().is_none_or(|pattern| {
            record.event_type.as_deref().is_some_and(|found| crate::webhook::listen::glob_matches(pattern, found))
        });
        let status_ok = self.status.is_none_or(|filter| filter.matches(record.status));
        let since_ok = self.since.is_none_or(|since| {
            DateTime::parse_from_rfc3339(&record.received_at).is_ok_and(|time| time.with_timezone(&Utc) >= since)
        });
        type_ok && status_ok && since_ok
    }
}

#[derive(Debug, Clone)]
pub struct ListConfig {
    pub file: PathBuf,
    pub filter: JournalFilter,
    pub follow: bool,
    pub format: Format,
    pub palette: Palette,
}

/// `webhook journal FILE [--follow]`.
pub(crate) async fn list(config: ListConfig) -> anyhow::Result<Outcome> {
    let (lines, issues) = read_json_lines(&config.file)?;
    for skipped in &issues.skipped {
        eprintln!("warning: {}", terminal_safe(skipped));
    }
    let mut shown = 0;
    let mut out = std::io::stdout().lock();
    for line in &lines {
        let Ok(record) = serde_json::from_value::<JournalRecord>(line.value.clone()) else { continue };
        if config.filter.keeps(&record) {
            print_record(&mut out, line.number, &record, config.format, config.palette)?;
            shown += 1;
        }
    }
    if config.format == Format::Human && !config.follow {
        let summary = format!("{shown} of {} deliveries shown", lines.len());
        writeln!(out, "{}", config.palette.dim(&summary))?;
    }
    out.flush()?;
    drop(out);
    if config.follow {
        follow(&config, lines.len()).await?;
    }
    Ok(Outcome::Holds)
}

/// Polls the file for whole lines appended after the first `seen` lines and prints those the
/// filter keeps, until Ctrl-C. A line still being written (no line feed yet) waits for its end.
async fn follow(config: &ListConfig, seen: usize) -> anyhow::Result<()> {
    let stop = crate::http::server::StopSignal::register()?;
    let mut offset = offset_after_lines(&config.file, seen)?;
    let mut number = seen;
    let mut stopping = std::pin::pin!(stop.wait());
    loop {
        tokio::select! {
            () = &mut stopping => return Ok(()),
            () = tokio::time::sleep(Duration::from_millis(200)) => {}
        }
        let bytes = std::fs::read(&config.file).with_context(|| format!("cannot read `{}`", config.file.display()))?;
        if (bytes.len() as u64) < offset {
            // Truncated or replaced: start again from its beginning.
            offset = 0;
            number = 0;
        }
        let fresh = &bytes[offset as usize..];
        let Some(end) = fresh.iter().rposition(|byte| *byte == b'\n') else { continue };
        let mut out = std::io::stdout().lock();
        for line in fresh[..=end].split(|byte| *byte == b'\n').filter(|line| !line.is_empty()) {
            number += 1;
            let Ok(record) = serde_json::from_slice::<JournalRecord>(line) else { continue };
            if config.filter.keeps(&record) {
                print_record(&mut out, number, &record, config.format, config.palette)?;
            }
        }
        out.flush()?;
        offset += end as u64 + 1;
    }
}

/// The byte offset just after the first `lines` line feeds.
fn offset_after_lines(path: &Path, lines: usize) -> anyhow::Result<u64> {
    let bytes = std::fs::read(path).with_context(|| format!("cannot read `{}`", path.display()))?;
    let mut seen = 0;
    for (at, byte) in bytes.iter().enumerate() {
        if *byte == b'\n' {
            seen += 1;
            if seen == lines {
                return Ok(at as u64 + 1);
            }
        }
    }
    Ok(bytes.len() as u64)
}

/// One line per delivery: `#3 14:33:19.123 evt_1 invoice.paid stripe ✓ valid → 200 forward 200 ×1`.
fn print_record(
    out: &mut impl Write,
    line: usize,
    record: &JournalRecord,
    format: Format,
    palette: Palette,
) -> anyhow::Result<()> {
    if format == Format::Json {
        writeln!(out, "{}", crate::json_output::line(super::record::SCHEMA, record)?)?;
        return Ok(());
    }
    let verdict = if record.verdict.valid {
        palette.green("✓ valid")
    } else {
        palette.red(&format!("✗ {}", record.verdict.code.as_deref().unwrap_or("invalid")))
    };
    let forward = match &record.forward {
        None => String::new(),
        Some(forward) => {
            let outcome = match forward.status {
                Some(status) => palette.status(status),
                None => palette.red("failed"),
            };
            format!("  forward {outcome} ×{}", forward.attempts)
        }
    };
    let duplicate = if record.duplicate { palette.yellow(" duplicate") } else { String::new() };
    writeln!(
        out,
        "{} {}  {}  {}  {}  {verdict}{duplicate}  → {}{forward}",
        palette.dim(&format!("#{line}")),
        record.received_at,
        terminal_safe(&record.event_id),
        terminal_safe(record.event_type.as_deref().unwrap_or("-")),
        terminal_safe(record.verdict.scheme.as_deref().unwrap_or("-")),
        palette.status(record.status),
    )?;
    Ok(())
}

/// The journal line `id` names: the last delivery of that event id, else line number `id`.
pub(crate) fn find(path: &Path, id: &str) -> anyhow::Result<(usize, JournalRecord)> {
    let (lines, _) = read_json_lines(path)?;
    let records: Vec<(usize, JournalRecord)> = lines
        .into_iter()
        .filter_map(|line| Some((line.number, serde_json::from_value::<JournalRecord>(line.value).ok()?)))
        .collect();
    if let Some(found) = records.iter().rev().find(|(_, record)| record.event_id == id) {
        return Ok(found.clone());
    }
    let number = id.trim_start_matches('#').parse::<usize>().ok();
    if let Some(found) = records.iter().find(|(line, _)| Some(*line) == number) {
        return Ok(found.clone());
    }
    bail!(
        "`{}` holds no delivery with event id `{}` (nor is it a line number: `webhook journal {}` lists them)",
        path.display(),
        terminal_safe(id),
        path.display()
    )
}

/// `webhook journal FILE show ID`: the delivery in full.
pub(crate) fn show(
    path: &Path,
    id: &str,
    format: Format,
    palette: Palette,
    out: &mut impl Write,
) -> anyhow::Result<Outcome> {
    // Reading the whole journal once also says when it is damaged.
    let (_, warning) = read_journal(path)?;
    if let Some(warning) = warning {
        eprintln!("warning: {}", terminal_safe(&warning));
    }
    let (line, record) = find(path, id)?;
    if format == Format::Json {
        writeln!(out, "{}", crate::json_output::line(super::record::SCHEMA, &record)?)?;
        return Ok(Outcome::Holds);
    }
    let label = |text: &str| palette.bold(text);
    writeln!(out, "{} line {line} of {}", label("delivery"), path.display())?;
    writeln!(out, "  received  {} from {}", record.received_at, record.remote.as_deref().unwrap_or("?"))?;
    writeln!(out, "  request   {} {}", record.method, terminal_safe(&record.path))?;
    writeln!(
        out,
        "  event     {} {}",
        terminal_safe(&record.event_id),
        terminal_safe(record.event_type.as_deref().unwrap_or("(no type)"))
    )?;
    let attempt = if record.duplicate {
        format!("attempt {}, a duplicate", record.attempt)
    } else {
        format!("attempt {}", record.attempt)
    };
    writeln!(out, "  answered  {} ({attempt})", palette.status(record.status))?;
    writeln!(out, "{}", label("verification"))?;
    writeln!(out, "  scheme    {}", record.verdict.scheme.as_deref().unwrap_or("none matched"))?;
    if record.verdict.valid {
        writeln!(out, "  verdict   {}", palette.green("✓ valid signature"))?;
    } else {
        let code = record.verdict.code.as_deref().unwrap_or("invalid");
        writeln!(out, "  verdict   {}", palette.red(&format!("✗ {code}")))?;
        if let Some(reason) = &record.verdict.reason {
            writeln!(out, "  reason    {}", terminal_safe(reason))?;
        }
    }
    if let Some(forward) = &record.forward {
        writeln!(out, "{}", label("forward"))?;
        writeln!(out, "  to        {}", terminal_safe(&forward.url))?;
        let status = forward.status.map_or_else(|| palette.red("no answer"), |status| palette.status(status));
        let outcome = if forward.delivered { palette.green("delivered") } else { palette.red("not delivered") };
        writeln!(out, "  outcome   {status} after {} attempt(s), {outcome}", forward.attempts)?;
        if let Some(error) = &forward.error {
            writeln!(out, "  error     {}", terminal_safe(error))?;
        }
    }
    writeln!(out, "{} ({})", label("headers"), record.headers.len())?;
    for (name, value) in &record.headers {
        let name = crate::webhook::scheme::spelled(
            &http::HeaderName::from_bytes(name.as_bytes()).unwrap_or(http::header::HOST),
        );
        writeln!(out, "  {}: {}", terminal_safe(&name), terminal_safe(&value.lossy()))?;
    }
    let body = record.body.to_bytes()?;
    writeln!(out, "{} ({} bytes)", label("body"), body.len())?;
    let pretty = match serde_json::from_slice::<serde_json::Value>(&body) {
        Ok(value) => serde_json::to_string_pretty(&value).unwrap_or_default(),
        Err(_) => render_body(&body),
    };
    writeln!(out, "{}", indent(&crate::output::terminal_safe_lines(&pretty), 2))?;
    out.flush()?;
    Ok(Outcome::Holds)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn status_filters_take_codes_and_classes() {
        assert_eq!(StatusFilter::parse("5xx").unwrap(), StatusFilter::Class(5));
        assert_eq!(StatusFilter::parse("502").unwrap(), StatusFilter::Exact(502));
        assert!(StatusFilter::parse("6xx").is_err() && StatusFilter::parse("abc").is_err());
        assert!(StatusFilter::Class(2).matches(204) && !StatusFilter::Exact(200).matches(201));
    }

    #[test]
    fn since_takes_a_time_or_a_duration_ago() {
        let now = DateTime::parse_from_rfc3339("2026-12-01T14:00:00Z").unwrap().with_timezone(&Utc);
        assert_eq!(parse_since("10m", now).unwrap().to_rfc3339(), "2026-12-01T13:50:00+00:00");
        assert_eq!(parse_since("2026-12-01T13:00:00Z", now).unwrap().to_rfc3339(), "2026-12-01T13:00:00+00:00");
        assert!(parse_since("yesterday", now).is_err());
    }
}
