//! What `webhook replay` reads: a journal of `webhook listen --record`, or any JSON-lines file of
//! events (a line that is a JSON object but not a journal record is an event body, its `id` and
//! `type` the event id and type), and how each entry becomes a message to deliver.
use std::path::Path;
use std::sync::Arc;

use anyhow::{Context, bail};
use bytes::Bytes;
use http::{HeaderMap, HeaderName, HeaderValue, Method};
use serde_json::Value;

use crate::http::hop_by_hop::message_headers;
use crate::webhook::deliver::engine::{Message, Signing, default_headers};
use crate::webhook::journal::reader::{ReadIssues, read_json_lines};
use crate::webhook::journal::record::JournalRecord;
use crate::webhook::scheme::{self, Scheme, SchemeOptions, SigningKey};

/// One thing to replay.
#[derive(Debug, Clone)]
pub struct Entry {
    /// 1-based line of the file.
    pub line: usize,
    pub method: Method,
    pub body: Bytes,
    /// The recorded headers minus hop-by-hop ones, Host and Content-Length; `None` for an event
    /// line, which has no headers.
    pub headers: Option<HeaderMap>,
    pub event_id: Option<String>,
    pub event_type: Option<String>,
    /// Whether the listener found the recorded signature valid; `None` for an event line.
    pub recorded_valid: Option<bool>,
    /// The scheme the listener verified it with (`verdict.scheme`), which re-signs it when
    /// `--scheme` is not given; `None` for an event line, or a record verified with none.
    pub recorded_scheme: Option<String>,
    /// Whether this delivery failed as its sender saw it (the listener answered other than 2xx)
    /// or as the application did (its forward was not delivered); `None` for an event line.
    pub recorded_failed: Option<bool>,
}

/// How entries are signed.
#[derive(Debug, Clone)]
pub(crate) enum ReplayMode {
    /// Signed again with a fresh timestamp; the recorded delivery id is kept. `stale_headers` are
    /// the recorded signature headers to drop (every scheme's, see `stale_signature_headers`).
    Resign { scheme: Arc<dyn Scheme>, key: Box<SigningKey>, stale_headers: Vec<HeaderName> },
    /// The recorded headers as they were, stale signature included.
    Verbatim,
}

/// `--event-type` and `--id`: an entry is kept when it matches one of each given list;
/// `--failed` and `--latest-per-event` then choose among the copies of each event.
#[derive(Debug, Clone, Default)]
pub struct Filter {
    /// Globs, as `webhook journal --type` and `webhook listen --route` read them (`*` any run of
    /// characters, `?` one): `customer.subscription.*`.
    pub event_types: Vec<String>,
    pub ids: Vec<String>,
    /// Only these 1-based lines (`webhook journal FILE replay ID`); every line when empty.
    pub lines: Vec<usize>,
    /// Only events whose last recorded delivery failed.
    pub failed: bool,
    /// One copy of each event: its last recorded delivery.
    pub latest_per_event: bool,
}

impl Filter {
    /// The entries to replay, in file order: those `keeps` keeps, then, with `--failed`, only
    /// events whose last delivery failed, and with `--latest-per-event` only that last copy (the
    /// Stripe CLI's `events resend` habit: each failed event once). A journal is appended in the
    /// order deliveries arrived, so an event's last line is its latest delivery.
    pub fn select(&self, entries: Vec<Entry>) -> anyhow::Result<Vec<Entry>> {
        let kept: Vec<Entry> = entries.into_iter().filter(|entry| self.keeps(entry)).collect();
        if self.failed
            && let Some(event_line) = kept.iter().find(|entry| entry.recorded_failed.is_none())
        {
            bail!(
                "--failed reads the answers a journal recorded, and line {} is an event, not a journal record of                  `webhook listen --record`",
                event_line.line
            );
        }
        if !self.failed && !self.latest_per_event {
            return Ok(kept);
        }
        // Each event's last line, and whether that delivery failed; an entry without an event id
        // is an event of its own.
        let mut last: std::collections::HashMap<&str, (usize, bool)> = std::collections::HashMap::new();
        for entry in &kept {
            if let Some(id) = &entry.event_id {
                last.insert(id, (entry.line, entry.recorded_failed == Some(true)));
            }
        }
        let chosen: Vec<usize> = kept
            .iter()
            .filter(|entry| {
                let (last_line, last_failed) = match &entry.event_id {
                    Some(id) => last[id.as_str()],
                    None => (entry.line, entry.recorded_failed == Some(true)),
                };
                (!self.failed || last_failed) && (!self.latest_per_event || entry.line == last_line)
            })
            .map(|entry| entry.line)
            .collect();
        Ok(kept.into_iter().filter(|entry| chosen.contains(&entry.line)).collect())
    }

    pub fn keeps(&self, entry: &Entry) -> bool {
        let type_ok = self.event_types.is_empty()
            || entry.event_type.as_ref().is_some_and(|found| {
                self.event_types.iter().any(|pattern| crate::webhook::listen::glob_matches(pattern, found))
            });
        let id_ok = self.ids.is_empty() || entry.event_id.as_ref().is_some_and(|found| self.ids.contains(found));
        let line_ok = self.lines.is_empty() || self.lines.contains(&entry.line);
        type_ok && id_ok && line_ok
    }
}

/// The most headers a recorded delivery may carry to be replayed. The listener records what its
/// HTTP server accepted (100 headers at most by default); a record with tens of thousands was
/// written by hand or damaged, and would overflow the HTTP library's header map.
pub(crate) const MAX_RECORDED_HEADERS: usize = 1_000;

/// The most bytes of header names and values a recorded delivery may carry to be replayed:
/// receivers refuse a request head far smaller (commonly 8 to 64 KiB).
pub(crate) const MAX_RECORDED_HEADER_BYTES: usize = 1 << 20;

/// Reads every entry of `path`, with what was skipped (damaged lines) or noted. A line that
/// cannot be replayed (not JSON, not an object, in a journal not a record, or a record that cannot
/// become a request) is skipped with a warning naming it; the other lines are read on.
pub(crate) fn read_entries(path: &Path) -> anyhow::Result<(Vec<Entry>, ReadIssues)> {
    let (lines, mut issues) = read_json_lines(path)?;
    // Both keys mark a journal record. In a journal, a line without them is a damaged record
    // (`{}`), not an event to deliver.
    let is_record = |value: &Value| value.get("received_at").is_some() && value.get("headers").is_some();
    let journal = lines.iter().any(|line| is_record(&line.value));
    let mut entries = Vec::with_capacity(lines.len());
    for line in lines {
        let skip = |what: String| format!("skipped line {} of `{}`: {what}", line.number, path.display());
        let Value::Object(fields) = &line.value else {
            issues.skip(|| skip("it is neither a journal record nor a JSON object event".to_string()));
            continue;
        };
        if is_record(&line.value) || journal {
            let read = serde_json::from_value::<JournalRecord>(line.value)
                .map_err(|err| format!("it is not a journal record ({err})"))
                .and_then(|record| match &record.handshake {
                    // The listener answered it itself; sent to an application it would be a
                    // request no provider makes.
                    Some(handshake) => Err(format!("it is a handshake ({handshake}), not an event")),
                    None => from_record(line.number, record).map_err(|err| format!("{err:#}")),
                });
            match read {
                Ok(entry) => entries.push(entry),
                Err(why) => issues.skip(|| skip(why)),
            }
            continue;
        }
        let text = |key: &str| fields.get(key).and_then(Value::as_str).map(str::to_string);
        entries.push(Entry {
            line: line.number,
            method: Method::POST,
            event_id: text("id"),
            event_type: text("type"),
            body: Bytes::from(line.text.into_bytes()),
            headers: None,
            recorded_valid: None,
            recorded_scheme: None,
            recorded_failed: None,
        });
    }
    Ok((entries, issues))
}

fn from_record(line: usize, record: JournalRecord) -> anyhow::Result<Entry> {
    let method = Method::from_bytes(record.method.as_bytes()).with_context(|| {
        format!("the recorded method `{}` is not an HTTP method", crate::output::terminal_safe(&record.method))
    })?;
    if record.headers.len() > MAX_RECORDED_HEADERS {
        bail!(
            "it records {} headers, more than the {MAX_RECORDED_HEADERS} a replay sends (a listener records at most \
             what its HTTP server accepts, 100 by default): written by hand or damaged",
            record.headers.len()
        );
    }
    let mut headers = HeaderMap::new();
    let mut header_bytes = 0;
    for (name, value) in &record.headers {
        let name = HeaderName::from_bytes(name.as_bytes()).with_context(|| {
            format!("the recorded header name `{}` is not valid", crate::output::terminal_safe(name))
        })?;
        let value = HeaderValue::from_bytes(&value.to_bytes()?)
            .with_context(|| format!("the recorded value of `{name}` cannot be sent in a header"))?;
        header_bytes += name.as_str().len() + value.len();
        if header_bytes > MAX_RECORDED_HEADER_BYTES {
            bail!(
                "its headers hold more than {} KiB, more than a receiver accepts in a request head",
                MAX_RECORDED_HEADER_BYTES / 1024
            );
        }
        headers.append(name, value);
    }
    let headers = message_headers(&headers);
    let forward_failed = record.forward.as_ref().is_some_and(|forward| !forward.delivered);
    let recorded_failed = Some(!(200..300).contains(&record.status) || forward_failed);
    Ok(Entry {
        line,
        method,
        body: Bytes::from(record.body.to_bytes()?),
        headers: Some(headers),
        event_id: Some(record.event_id),
        event_type: record.event_type,
        recorded_valid: Some(record.verdict.valid),
        recorded_scheme: record.verdict.scheme,
        recorded_failed,
    })
}

/// Every scheme's signature header: an old signature left beside the new one could be picked up
/// by a receiver that detects the scheme from the headers.
pub(crate) fn stale_signature_headers(options: &SchemeOptions) -> Vec<HeaderName> {
    scheme::every_signature_header(options)
        .iter()
        .filter_map(|name| HeaderName::from_bytes(name.to_ascii_lowercase().as_bytes()).ok())
        .collect()
}

/// The message that replays `entry`.
pub(crate) fn message(entry: &Entry, mode: &ReplayMode) -> anyhow::Result<Message> {
    let event_id = entry.event_id.clone();
    match mode {
        ReplayMode::Verbatim => {
            let Some(headers) = entry.headers.clone() else {
                bail!(
                    "line {} is an event, not a journal record: --verbatim has no recorded headers to send; use --resign",
                    entry.line
                );
            };
            let id = event_id.unwrap_or_else(|| format!("line {}", entry.line));
            Ok(Message {
                method: entry.method.clone(),
                body: entry.body.clone(),
                delivery_id: id.clone(),
                event_id: id,
                event_type: entry.event_type.clone(),
                headers,
                signing: Signing::Verbatim,
            })
        }
        ReplayMode::Resign { scheme, key, stale_headers } => {
            let mut headers = entry.headers.clone().unwrap_or_else(|| default_headers(&entry.body));
            // The recorded delivery id, so the receiver sees a redelivery of the same message;
            // a journal's content-hash id is not one a provider would send.
            let delivery_id = scheme
                .delivery_id(&headers)
                .or_else(|| event_id.clone().filter(|id| !id.starts_with("sha256:")))
                .unwrap_or_else(|| crate::webhook::template::fresh_delivery_id_for(scheme.as_ref()));
            for name in stale_headers {
                headers.remove(name);
            }
            Ok(Message {
                method: entry.method.clone(),
                body: entry.body.clone(),
                event_id: event_id.unwrap_or_else(|| delivery_id.clone()),
                delivery_id,
                event_type: entry.event_type.clone(),
                headers,
                signing: Signing::Fresh { scheme: Arc::clone(scheme), key: SigningKey::clone(key) },
            })
        }
    }
}
