//! Reading a journal (or any JSON-lines file of events) back, as `webhook replay` does.
use std::fs::File;
use std::io::{BufRead, BufReader, Read};
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
/// named and described), and notes that lose nothing (a byte-order mark ignored).
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub(crate) struct ReadIssues {
    /// Lines skipped: data that could not be replayed.
    pub skipped: Vec<String>,
    /// Things said but harmless.
    pub notes: Vec<String>,
}

impl ReadIssues {
    /// Everything, skipped lines first, one sentence each.
    pub(crate) fn all(&self) -> Vec<String> {
        self.skipped.iter().chain(&self.notes).cloned().collect()
    }
}

/// The longest line read: a journaled body is at most 64 MiB, and base64 makes it 4/3 of that.
const MAX_LINE: usize = 96 * 1024 * 1024;

/// The UTF-8 byte-order mark some editors put at the start of a file.
const BOM: &[u8] = b"\xef\xbb\xbf";

/// Reads a JSON-lines file, keeping each line's text. Blank lines are ignored; a line that is not
/// JSON is skipped and described (torn by a crash, binary data, NUL bytes), so one damaged line
/// does not cost every other entry.
pub(crate) fn read_json_lines(path: &Path) -> anyhow::Result<(Vec<JsonLine>, ReadIssues)> {
    let file = File::open(path).with_context(|| format!("cannot open `{}`", path.display()))?;
    let mut reader = BufReader::new(file);
    let mut lines = Vec::new();
    let mut issues = ReadIssues::default();
    let mut buffer = Vec::new();
    let mut number = 0;
    loop {
        buffer.clear();
        // One line may hold at most a journaled body's worth (the listener's --max-body is far
        // below this); a file without line ends (/dev/zero, a binary dump) must not fill memory.
        let read = (&mut reader)
            .take(MAX_LINE as u64 + 1)
            .read_until(b'\n', &mut buffer)
            .with_context(|| format!("cannot read `{}`", path.display()))?;
        if read == 0 {
            break;
        }
        number += 1;
        if buffer.len() > MAX_LINE {
            bail!(
                "`{}` line {number} is longer than {} MiB without a line end: not a journal or a JSON-lines file \
                 of events",
                path.display(),
                MAX_LINE / (1024 * 1024)
            );
        }
        let ended = buffer.last() == Some(&b'\n');
        let mut bytes = &buffer[..];
        if number == 1 && bytes.starts_with(BOM) {
            bytes = &bytes[BOM.len()..];
            issues.notes.push(format!(
                "`{}` starts with a UTF-8 byte-order mark (an editor added it); ignored it",
                path.display()
            ));
        }
        let text = match std::str::from_utf8(bytes) {
            Ok(text) => text.trim(),
            Err(_) => {
                issues.skipped.push(skipped(path, number, &describe_binary(bytes)));
                continue;
            }
        };
        if text.is_empty() {
            continue;
        }
        match serde_json::from_str::<serde_json::Value>(text) {
            Ok(value) => lines.push(JsonLine { number, text: text.to_string(), value }),
            Err(err) => {
                let what = if text.chars().all(|c| c == '\0') {
                    format!("{} NUL bytes (space zero-filled by a crash or preallocated), not JSON", text.len())
                } else if text.chars().any(|c| c.is_control() && c != '\t') {
                    describe_binary(bytes)
                } else if !ended {
                    format!("incomplete ({err}): the last line, without its line feed, probably torn by a crash")
                } else {
                    format!("not JSON ({err})")
                };
                issues.skipped.push(skipped(path, number, &what));
            }
        }
    }
    Ok((lines, issues))
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

/// Reads a journal written by `webhook listen`, with what was skipped or noted, joined.
pub fn read_journal(path: &Path) -> anyhow::Result<(Vec<JournalRecord>, Option<String>)> {
    let (lines, issues) = read_json_lines(path)?;
    let all = issues.all();
    let warning = (!all.is_empty()).then(|| all.join("; "));
    let records = lines
        .into_iter()
        .map(|JsonLine { number, value, .. }| {
            serde_json::from_value(value)
                .with_context(|| format!("`{}` line {number} is not a journal record", path.display()))
        })
        .collect::<anyhow::Result<Vec<_>>>()?;
    Ok((records, warning))
}
