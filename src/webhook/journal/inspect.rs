//! `webhook journal FILE`: what a listener journaled, for a person. `list` (the default) prints a
//! line per delivery (time, event id and type, scheme, verdict, status answered, forward outcome)
//! with filters; `show ID` prints one delivery in full; `--follow` keeps printing deliveries as a
//! running listener appends them, through rotation, truncation and removal of the file. `replay ID
//! URL` is `webhook replay` of that one line.
use std::io::Write;
use std::os::unix::fs::{FileExt, MetadataExt};
use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::{Context, bail};
use chrono::{DateTime, Utc};

use super::reader::{Line, LineReader, MAX_LINE, NAMED_SKIPS, ReadIssues, open_regular, parse_record};
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
        if let Some(class) = lower.strip_suffix("xx").and_then(|digit| digit.parse::<u16>().ok())
            && (1..=5).contains(&class)
        {
            return Ok(StatusFilter::Class(class));
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

/// `webhook journal FILE [--follow]`. The file is read a line at a time (a journal of hundreds of
/// megabytes costs the memory of its longest line), and a damaged line is skipped with a warning
/// naming it, the first [`NAMED_SKIPS`] of them; the rest are counted.
pub(crate) async fn list(config: ListConfig) -> anyhow::Result<Outcome> {
    let mut reader = LineReader::open(&config.file)?;
    let mut warnings = Warnings::default();
    let (mut shown, mut deliveries) = (0, 0);
    let mut out = std::io::stdout().lock();
    while let Some(line) = reader.next_line()? {
        let (number, text, ended) = match line {
            Line::Text { number, text, ended } => (number, text, ended),
            Line::Skipped { described, .. } => {
                warnings.say(described);
                continue;
            }
        };
        // Followed, the last line may still be being written: --follow reads it once it ends.
        if config.follow && !ended {
            break;
        }
        match parse_record(&config.file, number, text, ended) {
            Ok(record) => {
                deliveries += 1;
                if config.filter.keeps(&record) {
                    print_record(&mut out, number, &record, config.format, config.palette)?;
                    shown += 1;
                }
            }
            Err(described) => warnings.say(described),
        }
    }
    for note in &reader.notes {
        eprintln!("note: {}", terminal_safe(note));
    }
    warnings.finish();
    if config.format == Format::Human && !config.follow {
        let summary = format!("{shown} of {deliveries} deliveries shown");
        writeln!(out, "{}", config.palette.dim(&summary))?;
    }
    out.flush()?;
    drop(out);
    if config.follow {
        let from = Position { offset: reader.complete_end(), line: reader.lines_read() };
        drop(reader);
        follow(&config, from).await?;
    }
    Ok(Outcome::Holds)
}

/// Warnings about skipped lines, said as they are found: the first [`NAMED_SKIPS`] by line, the
/// rest counted and said at the end.
#[derive(Default)]
struct Warnings {
    said: usize,
    unsaid: usize,
}

impl Warnings {
    fn say(&mut self, warning: String) {
        if self.said < NAMED_SKIPS {
            eprintln!("warning: {}", terminal_safe(&warning));
            self.said += 1;
        } else {
            self.unsaid += 1;
        }
    }

    fn finish(&mut self) {
        if self.unsaid > 0 {
            eprintln!("warning: skipped {} more damaged lines (only the first {NAMED_SKIPS} are named)", self.unsaid);
            self.unsaid = 0;
        }
    }
}

/// Where following resumes: the byte just past the last whole line, and that line's number.
#[derive(Debug, Clone, Copy)]
struct Position {
    offset: u64,
    line: usize,
}

/// How often a followed journal is looked at for new lines.
const FOLLOW_POLL: Duration = Duration::from_millis(200);

/// Prints the whole lines appended after `from` that the filter keeps, until Ctrl-C, reading only
/// what was appended. A line still being written (no line feed yet) waits for its end. When the
/// file is rotated (replaced by a new file at the same path), what was appended to the old file
/// is read to its end first, then the new one from its start; when it is truncated, it is read
/// again from its start; when it is removed, the follow waits for the path to come back.
async fn follow(config: &ListConfig, from: Position) -> anyhow::Result<()> {
    let stop = crate::http::server::StopSignal::register()?;
    let mut stopping = std::pin::pin!(stop.wait());
    let mut followed = Some(Followed::open(&config.file, from)?);
    let mut warnings = Warnings::default();
    let mut said_missing = false;
    loop {
        if let Some(current) = followed.as_mut() {
            current.read_new_lines(config, &mut warnings)?;
        }
        match std::fs::metadata(&config.file) {
            Err(err) if err.kind() == std::io::ErrorKind::NotFound => {
                if !said_missing {
                    eprintln!(
                        "note: `{}` was removed or renamed; waiting for it to appear again (Ctrl-C stops)",
                        config.file.display()
                    );
                    said_missing = true;
                }
            }
            Err(err) => return Err(err).with_context(|| format!("cannot read `{}`", config.file.display())),
            Ok(metadata) => {
                let replaced = followed.as_ref().is_none_or(|current| !current.is(&metadata));
                if replaced {
                    if let Some(old) = followed.take() {
                        old.finish(config, &mut warnings)?;
                    }
                    if !said_missing {
                        eprintln!(
                            "note: `{}` was replaced; following the new file from its start",
                            config.file.display()
                        );
                    }
                    said_missing = false;
                    followed = Some(Followed::open(&config.file, Position { offset: 0, line: 0 })?);
                    continue;
                }
                if let Some(current) = followed.as_mut().filter(|current| metadata.len() < current.offset) {
                    eprintln!("note: `{}` was truncated; following it from its start", config.file.display());
                    current.restart();
                    continue;
                }
            }
        }
        tokio::select! {
            () = &mut stopping => return Ok(()),
            () = tokio::time::sleep(FOLLOW_POLL) => {}
        }
    }
}

/// A followed file: its open handle (which keeps reading the old file after a rotation), how far
/// it was read, and a line begun but not yet ended.
struct Followed {
    file: std::fs::File,
    identity: (u64, u64),
    offset: u64,
    line: usize,
    partial: Vec<u8>,
    /// A line longer than [`MAX_LINE`] is being skipped up to its end.
    skipping: bool,
}

impl Followed {
    fn open(path: &Path, from: Position) -> anyhow::Result<Followed> {
        let file = open_regular(path)?;
        let metadata = file.metadata().with_context(|| format!("cannot read `{}`", path.display()))?;
        Ok(Followed {
            file,
            identity: (metadata.dev(), metadata.ino()),
            offset: from.offset,
            line: from.line,
            partial: Vec::new(),
            skipping: false,
        })
    }

    /// Whether `metadata` is of this very file (not a new one at the same path).
    fn is(&self, metadata: &std::fs::Metadata) -> bool {
        (metadata.dev(), metadata.ino()) == self.identity
    }

    fn restart(&mut self) {
        (self.offset, self.line, self.skipping) = (0, 0, false);
        self.partial.clear();
    }

    /// Reads what was appended since the last read and prints its whole lines.
    fn read_new_lines(&mut self, config: &ListConfig, warnings: &mut Warnings) -> anyhow::Result<()> {
        let mut chunk = vec![0u8; 256 * 1024];
        let mut out = std::io::stdout().lock();
        loop {
            let read = self
                .file
                .read_at(&mut chunk, self.offset)
                .with_context(|| format!("cannot read `{}`", config.file.display()))?;
            if read == 0 {
                break;
            }
            self.offset += read as u64;
            let mut rest = &chunk[..read];
            while let Some(end) = rest.iter().position(|byte| *byte == b'\n') {
                let piece = &rest[..end];
                rest = &rest[end + 1..];
                self.line += 1;
                if std::mem::take(&mut self.skipping) {
                    self.partial.clear();
                    continue;
                }
                self.partial.extend_from_slice(piece);
                let line = std::mem::take(&mut self.partial);
                self.print_line(&mut out, config, warnings, &line)?;
            }
            if !self.skipping {
                self.partial.extend_from_slice(rest);
                if self.partial.len() > MAX_LINE {
                    warnings.say(format!(
                        "skipped line {} of `{}`: it is longer than {} MiB",
                        self.line + 1,
                        config.file.display(),
                        MAX_LINE / (1024 * 1024)
                    ));
                    self.partial = Vec::new();
                    self.skipping = true;
                }
            }
        }
        out.flush()?;
        Ok(())
    }

    fn print_line(
        &self,
        out: &mut impl Write,
        config: &ListConfig,
        warnings: &mut Warnings,
        bytes: &[u8],
    ) -> anyhow::Result<()> {
        let text = match std::str::from_utf8(bytes) {
            Ok(text) => text.trim(),
            Err(_) => {
                warnings.say(format!(
                    "skipped line {} of `{}`: it is not UTF-8 text",
                    self.line,
                    config.file.display()
                ));
                return Ok(());
            }
        };
        if text.is_empty() {
            return Ok(());
        }
        match parse_record(&config.file, self.line, text, true) {
            Ok(record) if config.filter.keeps(&record) => {
                print_record(out, self.line, &record, config.format, config.palette)?;
            }
            Ok(_) => {}
            Err(described) => warnings.say(described),
        }
        Ok(())
    }

    /// The file was replaced: reads what was appended to it before, and says when its last line
    /// never ended (the writer stopped mid-line).
    fn finish(mut self, config: &ListConfig, warnings: &mut Warnings) -> anyhow::Result<()> {
        self.read_new_lines(config, warnings)?;
        if !self.partial.is_empty() {
            warnings.say(format!(
                "skipped line {} of the file `{}` was before it was replaced: it never ended",
                self.line + 1,
                config.file.display()
            ));
        }
        Ok(())
    }
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

/// The journal line `id` names: the last delivery of that event id, else line number `id`; with
/// the warnings about damaged lines met on the way. Read a line at a time, keeping one record.
pub(crate) fn find(path: &Path, id: &str) -> anyhow::Result<((usize, JournalRecord), ReadIssues)> {
    let number = id.trim_start_matches('#').parse::<usize>().ok();
    let mut reader = LineReader::open(path)?;
    let mut issues = ReadIssues::default();
    let (mut by_id, mut by_number) = (None, None);
    while let Some(line) = reader.next_line()? {
        let (line, text, ended) = match line {
            Line::Text { number, text, ended } => (number, text, ended),
            Line::Skipped { described, .. } => {
                issues.skip(|| described);
                continue;
            }
        };
        match parse_record(path, line, text, ended) {
            Ok(record) if record.event_id == id => by_id = Some((line, record)),
            Ok(record) if Some(line) == number => by_number = Some((line, record)),
            Ok(_) => {}
            Err(described) => issues.skip(|| described),
        }
    }
    issues.notes.append(&mut reader.notes);
    match by_id.or(by_number) {
        Some(found) => Ok((found, issues)),
        None => bail!(
            "`{}` holds no delivery with event id `{}` (nor is it a line number: `webhook journal {}` lists them)",
            path.display(),
            terminal_safe(id),
            path.display()
        ),
    }
}

/// `webhook journal FILE show ID`: the delivery in full.
pub(crate) fn show(
    path: &Path,
    id: &str,
    format: Format,
    palette: Palette,
    out: &mut impl Write,
) -> anyhow::Result<Outcome> {
    let ((line, record), issues) = find(path, id)?;
    // Said, not fatal: a damaged line elsewhere does not hide this delivery.
    for warning in issues.all() {
        eprintln!("warning: {}", terminal_safe(&warning));
    }
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
        let latency = forward.latency_ms.map(|ms| format!(" in {ms} ms")).unwrap_or_default();
        writeln!(out, "  outcome   {status} after {} attempt(s){latency}, {outcome}", forward.attempts)?;
        if let Some(error) = &forward.error {
            writeln!(out, "  error     {}", terminal_safe(error))?;
        }
        if let Some(answer) = &forward.answer {
            writeln!(out, "{} ({})", label("answer headers"), answer.headers.len())?;
            print_headers(out, &answer.headers)?;
            let body = answer.body.to_bytes()?;
            let cut = if body.len() as u64 == answer.bytes {
                String::new()
            } else {
                format!(", the first {} kept", body.len())
            };
            writeln!(out, "{} ({} bytes{cut})", label("answer body"), answer.bytes)?;
            print_body(out, &body)?;
        }
    }
    writeln!(out, "{} ({})", label("headers"), record.headers.len())?;
    print_headers(out, &record.headers)?;
    let body = record.body.to_bytes()?;
    writeln!(out, "{} ({} bytes)", label("body"), body.len())?;
    print_body(out, &body)?;
    out.flush()?;
    Ok(Outcome::Holds)
}

/// Headers as sent, a line each, names in their usual spelling.
fn print_headers(out: &mut impl Write, headers: &[(String, super::record::HeaderText)]) -> anyhow::Result<()> {
    for (name, value) in headers {
        let name = crate::webhook::scheme::spelled(
            &http::HeaderName::from_bytes(name.as_bytes()).unwrap_or(http::header::HOST),
        );
        writeln!(out, "  {}: {}", terminal_safe(&name), terminal_safe(&value.lossy()))?;
    }
    Ok(())
}

/// A body, pretty-printed when it is JSON, indented.
fn print_body(out: &mut impl Write, body: &[u8]) -> anyhow::Result<()> {
    let pretty = match serde_json::from_slice::<serde_json::Value>(body) {
        Ok(value) => serde_json::to_string_pretty(&value).unwrap_or_default(),
        Err(_) => render_body(body),
    };
    writeln!(out, "{}", indent(&crate::output::terminal_safe_lines(&pretty), 2))?;
    Ok(())
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
