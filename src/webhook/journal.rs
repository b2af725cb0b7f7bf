//! The delivery journal: one JSON line per delivery `webhook listen` received, appended before the
//! delivery is acknowledged, and read back by `webhook replay`.
//!
//! A line looks like this (wrapped here):
//! ```text
//! {"received_at":"2026-11-29T13:17:00.123Z","remote":"127.0.0.1:50514","method":"POST",
//!  "path":"/webhooks","headers":[["content-type","application/json"],["stripe-signature","t=…"]],
//!  "body":"{\"id\":\"evt_1\",…}","verdict":{"valid":true,"scheme":"stripe","reason":null},
//!  "event_id":"evt_1","event_type":"payment.succeeded","duplicate":false,"attempt":1,"status":200}
//! ```
//! A body that is not UTF-8 is stored as `"body_base64"` instead of `"body"`.
use std::fs::{File, OpenOptions};
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::sync::{Condvar, Mutex};

use anyhow::{Context, bail};
use base64::Engine;
use base64::engine::general_purpose::STANDARD as BASE64;
use serde::{Deserialize, Serialize};

/// One delivery, as journaled.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct JournalRecord {
    /// RFC 3339, UTC, milliseconds.
    pub received_at: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub remote: Option<String>,
    pub method: String,
    /// The path and query, as requested.
    pub path: String,
    /// Every header in the order received, names lower-case, as `[name, value]` pairs (values
    /// that are not UTF-8 are stored lossily).
    pub headers: Vec<(String, String)>,
    #[serde(flatten)]
    pub body: JournalBody,
    pub verdict: JournalVerdict,
    /// What de-duplication keyed on: the scheme's delivery id, else the body's top-level `id`,
    /// else `sha256:` and the body's hash.
    pub event_id: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub event_type: Option<String>,
    pub duplicate: bool,
    /// 1 for the first delivery of this event id, 2 for the first redelivery, and so on.
    pub attempt: u32,
    /// The status the listener answered with.
    pub status: u16,
}

/// The body: text when it is UTF-8, base64 otherwise, so the journal stays valid JSON lines and
/// every byte survives.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum JournalBody {
    #[serde(rename = "body")]
    Text(String),
    #[serde(rename = "body_base64")]
    Base64(String),
}

impl JournalBody {
    pub fn from_bytes(bytes: &[u8]) -> JournalBody {
        match std::str::from_utf8(bytes) {
            Ok(text) => JournalBody::Text(text.to_string()),
            Err(_) => JournalBody::Base64(BASE64.encode(bytes)),
        }
    }

    pub fn to_bytes(&self) -> anyhow::Result<Vec<u8>> {
        match self {
            JournalBody::Text(text) => Ok(text.as_bytes().to_vec()),
            JournalBody::Base64(encoded) => BASE64.decode(encoded).context("body_base64 is not valid base64"),
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct JournalVerdict {
    pub valid: bool,
    /// The scheme the delivery was verified with.
    #[serde(default)]
    pub scheme: Option<String>,
    /// Why it was invalid.
    #[serde(default)]
    pub reason: Option<String>,
}

/// The initial buffer for one serialised line: a 1 KiB body, its headers and the rest fit.
const LINE_CAPACITY: usize = 2048;

/// Appends records with group commit: concurrent appends queue their lines, one of them writes
/// the whole batch in a single `write` (and one `fsync`), and every append returns once its own
/// line is in the file. Lines never interleave because only one batch is written at a time, and
/// under load the disk sees a few large writes instead of one per delivery.
pub struct JournalWriter {
    queue: Mutex<Queue>,
    /// Wakes blocking appends when a batch is written.
    written: Condvar,
    /// Wakes async appends when a batch is written.
    batch_done: tokio::sync::Notify,
    file: Mutex<File>,
    path: PathBuf,
    fsync: bool,
}

/// The lines waiting to be written, numbered so each append knows when its own is done.
#[derive(Default)]
struct Queue {
    pending: Vec<u8>,
    /// The number of the last line queued.
    queued: u64,
    /// Every line up to this number has been written (or has failed, see `broken`).
    written: u64,
    /// Whether an append is writing a batch right now.
    writing: bool,
    /// The first line a write failed for, and why. A failed write may leave a torn line in the
    /// middle of the file, so that line and every later one fail: appending after it would only
    /// bury the tear.
    broken: Option<(u64, std::io::ErrorKind, String)>,
}

impl JournalWriter {
    /// Opens `path` for appending (creating it); `fsync` makes every append durable before it
    /// returns, surviving power loss, at the cost of a disk flush per batch.
    pub fn open(path: &Path, fsync: bool) -> anyhow::Result<JournalWriter> {
        let file = OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .with_context(|| format!("cannot open the journal `{}` for appending", path.display()))?;
        Ok(JournalWriter {
            queue: Mutex::new(Queue::default()),
            written: Condvar::new(),
            batch_done: tokio::sync::Notify::new(),
            file: Mutex::new(file),
            path: path.to_path_buf(),
            fsync,
        })
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Whether appends wait for the disk (so callers on an async runtime can move them off it).
    pub fn fsyncs(&self) -> bool {
        self.fsync
    }

    /// Appends one record. When this returns `Ok`, the line is in the kernel (and on disk with
    /// `fsync`): a crash of this process cannot lose it. Blocks while another batch is written.
    pub fn append(&self, record: &JournalRecord) -> std::io::Result<()> {
        let mine = self.enqueue(record)?;
        let mut queue = self.lock_queue();
        loop {
            if queue.written >= mine {
                return broken_error(&queue, mine).map_or(Ok(()), Err);
            }
            if queue.writing {
                queue = self.written.wait(queue).unwrap_or_else(|poisoned| poisoned.into_inner());
                continue;
            }
            // Nobody is writing: this append writes everything queued so far, its own line included.
            let batch = take_batch(&mut queue);
            drop(queue);
            self.write_and_release(batch);
            queue = self.lock_queue();
        }
    }

    /// [`append`](Self::append) for async callers on a runtime, with the same guarantee. The
    /// append that finds nobody writing yields once before it writes, so the other deliveries
    /// its worker thread has ready queue their lines first and go out in the same `write`: under
    /// load, one system call journals many deliveries. Use it without `fsync` only: the write
    /// runs on the runtime's thread, and a disk flush there would stall other connections.
    pub async fn append_async(&self, record: &JournalRecord) -> std::io::Result<()> {
        let mine = self.enqueue(record)?;
        loop {
            // Registered before looking, so a batch finishing in between is not missed.
            let notified = self.batch_done.notified();
            tokio::pin!(notified);
            notified.as_mut().enable();
            let someone_writing = {
                let queue = self.lock_queue();
                if queue.written >= mine {
                    return broken_error(&queue, mine).map_or(Ok(()), Err);
                }
                queue.writing
            };
            if someone_writing {
                notified.await;
                continue;
            }
            tokio::task::yield_now().await;
            let batch = {
                let mut queue = self.lock_queue();
                if queue.writing || queue.written >= mine {
                    // Another append took the lead while this one yielded.
                    continue;
                }
                take_batch(&mut queue)
            };
            self.write_and_release(batch);
        }
    }

    /// Queues the record's line and returns its number.
    fn enqueue(&self, record: &JournalRecord) -> std::io::Result<u64> {
        // Sized for a typical delivery up front: growing from serde_json's default takes several
        // reallocations per line, which shows under load.
        let mut line = Vec::with_capacity(LINE_CAPACITY);
        serde_json::to_writer(&mut line, record).map_err(std::io::Error::other)?;
        line.push(b'\n');
        let mut queue = self.lock_queue();
        if let Some(err) = broken_error(&queue, queue.queued + 1) {
            return Err(err);
        }
        queue.pending.extend_from_slice(&line);
        queue.queued += 1;
        Ok(queue.queued)
    }

    /// Writes a batch taken by [`take_batch`] and wakes every append waiting for it.
    fn write_and_release(&self, batch: Batch) {
        let result = self.write_batch(&batch.bytes);
        let mut queue = self.lock_queue();
        queue.writing = false;
        queue.written = batch.last;
        if let Err(err) = result {
            if queue.broken.is_none() {
                queue.broken = Some((batch.first, err.kind(), err.to_string()));
            }
        }
        // Hand the buffer back so the next batch does not allocate.
        if queue.pending.is_empty() {
            queue.pending = batch.bytes;
            queue.pending.clear();
        }
        drop(queue);
        self.written.notify_all();
        self.batch_done.notify_waiters();
    }

    fn write_batch(&self, batch: &[u8]) -> std::io::Result<()> {
        let mut file = self.file.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        file.write_all(batch)?;
        if self.fsync {
            file.sync_data()?;
        }
        Ok(())
    }

    fn lock_queue(&self) -> std::sync::MutexGuard<'_, Queue> {
        self.queue.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Writes any line still queued (one whose async append was abandoned mid-way, say by a client
    /// hanging up) and flushes to disk; a clean shutdown calls this even without `fsync`.
    pub fn sync(&self) -> std::io::Result<()> {
        let mut queue = self.lock_queue();
        while queue.writing || !queue.pending.is_empty() {
            if queue.writing {
                queue = self.written.wait(queue).unwrap_or_else(|poisoned| poisoned.into_inner());
                continue;
            }
            let batch = take_batch(&mut queue);
            drop(queue);
            self.write_and_release(batch);
            queue = self.lock_queue();
        }
        drop(queue);
        self.file.lock().unwrap_or_else(|poisoned| poisoned.into_inner()).sync_all()
    }
}

/// The lines one append writes for everyone, numbered `first..=last`.
struct Batch {
    bytes: Vec<u8>,
    first: u64,
    last: u64,
}

/// Marks the queue as being written and takes everything queued.
fn take_batch(queue: &mut Queue) -> Batch {
    queue.writing = true;
    Batch { bytes: std::mem::take(&mut queue.pending), first: queue.written + 1, last: queue.queued }
}

/// The error for line `line` when a write at or before it failed.
fn broken_error(queue: &Queue, line: u64) -> Option<std::io::Error> {
    let (first, kind, message) = queue.broken.as_ref()?;
    (line >= *first).then(|| std::io::Error::new(*kind, format!("an earlier journal write failed: {message}")))
}

/// The lines of a JSON-lines file, parsed; a torn last line (a crash mid-append) is skipped with
/// a warning rather than failing the whole read.
#[derive(Debug)]
pub struct JsonLines {
    /// Each parsed line with its 1-based line number.
    pub lines: Vec<(usize, serde_json::Value)>,
    /// Set when a trailing partial line was skipped.
    pub warning: Option<String>,
}

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

/// Reads a JSON-lines file. Blank lines are ignored; a line that is not JSON is an error unless it
/// is the last one, which a crash may have torn.
pub fn read_json_lines(path: &Path) -> anyhow::Result<JsonLines> {
    let (lines, warning) = read_json_lines_with_text(path)?;
    Ok(JsonLines { lines: lines.into_iter().map(|line| (line.number, line.value)).collect(), warning })
}

/// `read_json_lines`, keeping each line's text.
pub fn read_json_lines_with_text(path: &Path) -> anyhow::Result<(Vec<JsonLine>, Option<String>)> {
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
    let parsed = read_json_lines(path)?;
    let records = parsed
        .lines
        .into_iter()
        .map(|(number, value)| {
            serde_json::from_value(value)
                .with_context(|| format!("`{}` line {number} is not a journal record", path.display()))
        })
        .collect::<anyhow::Result<Vec<_>>>()?;
    Ok((records, parsed.warning))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(body: &[u8]) -> JournalRecord {
        JournalRecord {
            received_at: "2026-11-29T13:17:00.123Z".into(),
            remote: Some("127.0.0.1:1".into()),
            method: "POST".into(),
            path: "/hook".into(),
            headers: vec![("content-type".into(), "application/json".into())],
            body: JournalBody::from_bytes(body),
            verdict: JournalVerdict { valid: true, scheme: Some("hmac".into()), reason: None },
            event_id: "evt_1".into(),
            event_type: Some("payment.succeeded".into()),
            duplicate: false,
            attempt: 1,
            status: 200,
        }
    }

    #[test]
    fn records_round_trip_with_text_and_binary_bodies() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("journal.jsonl");
        let writer = JournalWriter::open(&path, true).unwrap();
        writer.append(&record(br#"{"id":"evt_1"}"#)).unwrap();
        writer.append(&record(&[0xff, 0x00, 0x80])).unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(text.contains(r#""body":"{\"id\":\"evt_1\"}""#), "{text}");
        assert!(text.contains(r#""body_base64":"/wCA""#), "{text}");
        let (records, warning) = read_journal(&path).unwrap();
        assert_eq!(warning, None);
        assert_eq!(records[1].body.to_bytes().unwrap(), [0xff, 0x00, 0x80]);
        assert_eq!(records[0], record(br#"{"id":"evt_1"}"#));
    }

    #[test]
    fn concurrent_appends_never_interleave_and_all_land() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("journal.jsonl");
        let writer = std::sync::Arc::new(JournalWriter::open(&path, false).unwrap());
        let threads: Vec<_> = (0..8)
            .map(|thread| {
                let writer = std::sync::Arc::clone(&writer);
                std::thread::spawn(move || {
                    for n in 0..200 {
                        let mut line = record(&vec![b'x'; 100 + n]);
                        line.event_id = format!("evt_{thread}_{n}");
                        writer.append(&line).unwrap();
                    }
                })
            })
            .collect();
        for thread in threads {
            thread.join().unwrap();
        }
        let (records, warning) = read_journal(&path).unwrap();
        assert_eq!(warning, None);
        let ids: std::collections::HashSet<String> = records.into_iter().map(|record| record.event_id).collect();
        assert_eq!(ids.len(), 8 * 200);
    }

    #[test]
    fn async_appends_batch_and_all_land() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("journal.jsonl");
        let writer = std::sync::Arc::new(JournalWriter::open(&path, false).unwrap());
        let runtime = tokio::runtime::Builder::new_multi_thread().worker_threads(2).build().unwrap();
        runtime.block_on(async {
            let tasks: Vec<_> = (0..32)
                .map(|task| {
                    let writer = std::sync::Arc::clone(&writer);
                    tokio::spawn(async move {
                        for n in 0..50 {
                            let mut line = record(b"{}");
                            line.event_id = format!("evt_{task}_{n}");
                            writer.append_async(&line).await.unwrap();
                            // Mixed with blocking appends, which share the queue.
                            if n % 10 == 0 {
                                line.event_id.push_str("_sync");
                                writer.append(&line).unwrap();
                            }
                        }
                    })
                })
                .collect();
            for task in tasks {
                task.await.unwrap();
            }
        });
        let (records, warning) = read_journal(&path).unwrap();
        assert_eq!(warning, None);
        let ids: std::collections::HashSet<String> = records.into_iter().map(|record| record.event_id).collect();
        assert_eq!(ids.len(), 32 * 55);
    }

    #[test]
    fn a_torn_last_line_is_skipped_with_a_warning_but_a_torn_middle_is_an_error() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("journal.jsonl");
        let whole = serde_json::to_string(&record(b"x")).unwrap();
        std::fs::write(&path, format!("{whole}\n{}", &whole[..whole.len() / 2])).unwrap();
        let (records, warning) = read_journal(&path).unwrap();
        assert_eq!(records.len(), 1);
        assert!(warning.unwrap().contains("line 2"));
        std::fs::write(&path, format!("{}\n{whole}\n", &whole[..10])).unwrap();
        assert!(format!("{:#}", read_journal(&path).unwrap_err()).contains("line 1"));
    }
}
