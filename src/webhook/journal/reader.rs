//! Reading a journal (or any JSON-lines file of events) back, as `webhook replay` does.
use std::fs::File;
use std::io::{BufRead, BufReader};
use std::path::Path;

use anyhow::{Context, bail};

use super::record::JournalRecord;

/// One line of a JSON-lines file, with its text as written (replay sends an event line's bytes
/// unchanged, which re-serializing the parsed value would not guarantee).
#[derive(Debug)]
pub struct JsonLine {
    /// 1-based.
    pub number: usize,
    /// The line without its line ending or surrounding whitespace.
    pub text: String,
    pub value: serde_json::Value,
}

/// Reads a JSON-lines file, keeping each line's text. Blank lines are ignored; a line that is not
/// JSON is an error unless it is the last one, which a crash may have torn.
pub fn read_json_lines(path: &Path) -> anyhow::Result<(Vec<JsonLine>, Option<String>)> {
    let file = File::open(path).with_context(|| format!("cannot open `{}`", path.display()))?;
    let mut reader = BufReader::new(file);
    let mut lines = Vec::new();
    let mut pending_error: Option<(usize, String)> = None;
    let mut buffer = Vec::new();
    let mut number = 0;
    loop {
        buffer.clear();
        let read =
            reader.read_until(b'\n', &mut buffer).with_context(|| format!("cannot read `{}`", path.display()))?;
        if read == 0 {
            break;
        }
        number += 1;
        if let Some((bad_line, reason)) = pending_error.take() {
            bail!("`{}` line {bad_line} is not JSON ({reason})", path.display());
        }
        let text = String::from_utf8_lossy(&buffer);
        if text.trim().is_empty() {
            continue;
        }
        // A bad line is only an error once another line follows it: the last one may be torn.
        match serde_json::from_str::<serde_json::Value>(text.trim()) {
            Ok(value) => lines.push(JsonLine { number, text: text.trim().to_string(), value }),
            Err(err) => pending_error = Some((number, err.to_string())),
        }
    }
    let warning = pending_error.map(|(line, reason)| {
        format!(
            "skipped line {line}, the last of `{}`: it is incomplete ({reason}), probably torn by a crash",
            path.display()
        )
    });
    Ok((lines, warning))
}

/// Reads a journal written by `webhook listen`.
pub fn read_journal(path: &Path) -> anyhow::Result<(Vec<JournalRecord>, Option<String>)> {
    let (lines, warning) = read_json_lines(path)?;
    let records = lines
        .into_iter()
        .map(|JsonLine { number, value, .. }| {
            serde_json::from_value(value)
                .with_context(|| format!("`{}` line {number} is not a journal record", path.display()))
        })
        .collect::<anyhow::Result<Vec<_>>>()?;
    Ok((records, warning))
}
