//! Reading a journal (or any JSON-lines file of events) back, a line at a time, as `webhook
//! journal` and `webhook replay` do: memory stays bounded by the longest line, not the file.
use std::fs::{File, OpenOptions};
use std::io::{BufRead, BufReader, Read};
use std::os::unix::fs::OpenOptionsExt;
use std::path::Path;

use anyhow::{Context, bail};

use super::record::JournalRecord;

/// One line of a JSON-lines file, with its text as written (replay sends an event line's bytes
/// unchanged, which re-serializing the parsed value would not guarantee).
#[derive(Debug)]
pub(crate) struct JsonLine {
    /// 1-based.
    pub number: usize,
    /// The line without its line ending or surrounding whitespace.
    pub text: String,
    pub value: serde_json::Value,
}

/// What reading a JSON-lines file found besides its lines: lines that could not be read (each
/// named and described, the first [`NAMED_SKIPS`] of them), and notes that lose nothing (a
/// byte-order mark ignored).
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub(crate) struct ReadIssues {
    /// Lines skipped: data that could not be replayed (the first [`NAMED_SKIPS`]).
    pub skipped: Vec<String>,
    /// How many lines were skipped in all, named or not.
    pub skipped_total: usize,
    /// Things said but harmless.
    pub notes: Vec<String>,
}

/// How many skipped lines are described one by one; the rest are counted. A file of garbage has
/// a line per newline, and a sentence for each of millions would cost more than the file.
pub(crate) const NAMED_SKIPS: usize = 100;

impl ReadIssues {
    /// Records a skipped line, described while fewer than [`NAMED_SKIPS`] are.
    pub(crate) fn skip(&mut self, described: impl FnOnce() -> String) {
        self.skipped_total += 1;
        if self.skipped.len() < NAMED_SKIPS {
            self.skipped.push(described());
        }
    }

    /// The sentence for the skipped lines not described, if any.
    pub(crate) fn unnamed(&self) -> Option<String> {
        let more = self.skipped_total - self.skipped.len();
        (more > 0).then(|| format!("skipped {more} more damaged lines (only the first {NAMED_SKIPS} are named)"))
    }

    /// Everything, skipped lines first, one sentence each.
    pub(crate) fn all(&self) -> Vec<String> {
        self.skipped.iter().cloned().chain(self.unnamed()).chain(self.notes.iter().cloned()).collect()
    }
}

/// The longest line read: a journaled body is at most 64 MiB, and base64 makes it 4/3 of that.
pub(crate) const MAX_LINE: usize = 96 * 1024 * 1024;

/// The UTF-8 byte-order mark some editors put at the start of a file.
const BOM: &[u8] = b"\xef\xbb\xbf";

/// Opens `path` for reading if it is a regular file. Opened without blocking first, then looked
/// at: a FIFO would block the open until a writer came (Ctrl-C included), and a device such as
/// /dev/urandom never ends.
pub(crate) fn open_regular(path: &Path) -> anyhow::Result<File> {
    let file = OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK)
        .open(path)
        .with_context(|| format!("cannot open `{}`", path.display()))?;
    let metadata = file.metadata().with_context(|| format!("cannot read `{}`", path.display()))?;
    if !metadata.is_file() {
        let what = if metadata.is_dir() { "a directory" } else { "not a regular file (a FIFO, socket or device)" };
        bail!(
            "`{}` is {what}: give the journal file `webhook listen --record` wrote, or a JSON-lines file of events",
            path.display()
        );
    }
    Ok(file)
}

/// A JSON-lines file read a line at a time.
pub(crate) struct LineReader {
    reader: BufReader<File>,
    path: std::path::PathBuf,
    buffer: Vec<u8>,
    /// The number of the last line read.
    number: usize,
    /// The byte offset just past the last line that ended with a line feed.
    complete_end: u64,
    /// Bytes read so far.
    read: u64,
    pub notes: Vec<String>,
}

/// One line as read: its text, or why it was skipped.
pub(crate) enum Line<'a> {
    Text {
        number: usize,
        text: &'a str,
        /// Whether it ended with a line feed (the last line of a file being written may not yet).
        ended: bool,
    },
    /// Not text: binary data, NUL bytes. Described, naming the line.
    Skipped { described: String },
}

impl LineReader {
    pub(crate) fn open(path: &Path) -> anyhow::Result<LineReader> {
        Ok(LineReader {
            reader: BufReader::with_capacity(256 * 1024, open_regular(path)?),
            path: path.to_path_buf(),
            buffer: Vec::new(),
            number: 0,
            complete_end: 0,
            read: 0,
            notes: Vec::new(),
        })
    }

    /// The byte offset just past the last line read that ended with a line feed.
    pub(crate) fn complete_end(&self) -> u64 {
        self.complete_end
    }

    /// How many lines ended with a line feed up to [`complete_end`](Self::complete_end).
    pub(crate) fn lines_read(&self) -> usize {
        self.number
    }

    /// The next line that is not blank, or `None` at the end of the file.
    pub(crate) fn next_line(&mut self) -> anyhow::Result<Option<Line<'_>>> {
        loop {
            self.buffer.clear();
            // One line may hold at most a journaled body's worth (the listener's --max-body is far
            // below this); a file without line ends (a binary dump) must not fill memory.
            let read = (&mut self.reader)
                .take(MAX_LINE as u64 + 1)
                .read_until(b'\n', &mut self.buffer)
                .with_context(|| format!("cannot read `{}`", self.path.display()))?;
            if read == 0 {
                return Ok(None);
            }
            self.read += read as u64;
            let number = self.number + 1;
            if self.buffer.len() > MAX_LINE {
                bail!(
                    "`{}` line {number} is longer than {} MiB without a line end: not a journal or a JSON-lines file \
                     of events",
                    self.path.display(),
                    MAX_LINE / (1024 * 1024)
                );
            }
            let ended = self.buffer.last() == Some(&b'\n');
            if ended {
                self.number = number;
                self.complete_end = self.read;
            }
            let start = if number == 1 && self.buffer.starts_with(BOM) {
                self.notes.push(format!(
                    "`{}` starts with a UTF-8 byte-order mark (an editor added it); ignored it",
                    self.path.display()
                ));
                BOM.len()
            } else {
                0
            };
            match std::str::from_utf8(&self.buffer[start..]) {
                Ok(text) if text.trim().is_empty() => continue,
                Ok(_) => {}
                Err(_) => {
                    let described = skipped(&self.path, number, &describe_binary(&self.buffer[start..]));
                    return Ok(Some(Line::Skipped { described }));
                }
            }
            // Checked as UTF-8 just above; the borrow is taken again outside the loop's reuse of
            // the buffer.
            let text = std::str::from_utf8(&self.buffer[start..]).unwrap_or_default().trim();
            return Ok(Some(Line::Text { number, text, ended }));
        }
    }
}

/// Why `text` (line `number` of `path`) is not JSON, for a warning.
pub(crate) fn describe_not_json(
    path: &Path,
    number: usize,
    text: &str,
    ended: bool,
    err: &serde_json::Error,
) -> String {
    let what = if text.chars().all(|c| c == '\0') {
        format!("{} NUL bytes (space zero-filled by a crash or preallocated), not JSON", text.len())
    } else if text.chars().any(|c| c.is_control() && c != '\t') {
        describe_binary(text.as_bytes())
    } else if !ended {
        format!("incomplete ({err}): the last line, without its line feed, probably torn by a crash")
    } else {
        format!("not JSON ({err})")
    };
    skipped(path, number, &what)
}

/// Why line `number` of `path`, which is JSON, is not a journal record.
pub(crate) fn describe_not_a_record(path: &Path, number: usize, err: &serde_json::Error) -> String {
    skipped(path, number, &format!("not a journal record ({err})"))
}

fn skipped(path: &Path, number: usize, what: &str) -> String {
    format!("skipped line {number} of `{}`: it is {what}", path.display())
}

fn describe_binary(bytes: &[u8]) -> String {
    if bytes.iter().all(|byte| *byte == 0 || *byte == b'\n') {
        return format!("{} NUL bytes (space zero-filled by a crash or preallocated), not JSON", bytes.len());
    }
    format!("binary data ({} bytes that are not JSON text); is this the right file?", bytes.len())
}

/// Reads a JSON-lines file, keeping each line's text. Blank lines are ignored; a line that is not
/// JSON is skipped and described (torn by a crash, binary data, NUL bytes), so one damaged line
/// does not cost every other entry.
pub(crate) fn read_json_lines(path: &Path) -> anyhow::Result<(Vec<JsonLine>, ReadIssues)> {
    let mut reader = LineReader::open(path)?;
    let mut lines = Vec::new();
    let mut issues = ReadIssues::default();
    while let Some(line) = reader.next_line()? {
        match line {
            Line::Skipped { described, .. } => issues.skip(|| described),
            Line::Text { number, text, ended } => match serde_json::from_str::<serde_json::Value>(text) {
                Ok(value) => lines.push(JsonLine { number, text: text.to_string(), value }),
                Err(err) => issues.skip(|| describe_not_json(path, number, text, ended, &err)),
            },
        }
    }
    issues.notes.append(&mut reader.notes);
    Ok((lines, issues))
}

/// Reads a journal written by `webhook listen`, with what was skipped or noted, joined. A line
/// that is JSON but not a journal record (`{}`) is skipped and named like any damaged line.
pub fn read_journal(path: &Path) -> anyhow::Result<(Vec<JournalRecord>, Option<String>)> {
    let mut reader = LineReader::open(path)?;
    let mut records = Vec::new();
    let mut issues = ReadIssues::default();
    while let Some(line) = reader.next_line()? {
        match line {
            Line::Skipped { described, .. } => issues.skip(|| described),
            Line::Text { number, text, ended } => match parse_record(path, number, text, ended) {
                Ok(record) => records.push(record),
                Err(described) => issues.skip(|| described),
            },
        }
    }
    issues.notes.append(&mut reader.notes);
    let all = issues.all();
    let warning = (!all.is_empty()).then(|| all.join("; "));
    Ok((records, warning))
}

/// Line `number` as a journal record, or why it is not one.
pub(crate) fn parse_record(path: &Path, number: usize, text: &str, ended: bool) -> Result<JournalRecord, String> {
    serde_json::from_str::<JournalRecord>(text).map_err(|err| {
        match serde_json::from_str::<serde::de::IgnoredAny>(text) {
            Ok(_) => describe_not_a_record(path, number, &err),
            Err(not_json) => describe_not_json(path, number, text, ended, &not_json),
        }
    })
}
