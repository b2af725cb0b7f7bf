//! Appending records to the journal: many request handlers at once, one line each, never
//! interleaved, on disk before the delivery is acknowledged.
//!
//! The file holds exactly the lines whose appends succeeded: a write that fails (a full disk) is
//! cut off again, so the next delivery is not glued onto a fragment and is tried afresh instead of
//! failing until a restart; a fragment left by a crash is repaired when the journal is opened.
use std::collections::VecDeque;
use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::{Condvar, Mutex};

use anyhow::{Context, bail};

use super::record::{JournalRecord, ReceivedRecord, SCHEMA as RECORD_SCHEMA};
use super::tail::repair_tail;
use crate::sync::lock;

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
    file: Mutex<Appender>,
    path: PathBuf,
    fsync: bool,
}

/// The file and how much of it is whole lines.
struct Appender {
    file: File,
    /// The length up to the end of the last line written successfully.
    good_len: u64,
    /// A failed write may have left a fragment past `good_len` that could not be cut off yet.
    torn: bool,
}

/// How many failed batches are remembered for the appends still to learn their outcome.
const FAILURES_KEPT: usize = 1024;

/// The largest buffer kept for the next batches once written: a burst of big bodies does not pin
/// its memory for ever.
const KEPT_BUFFER: usize = 1 << 20;

/// The lines waiting to be written, numbered so each append knows when its own is done.
#[derive(Default)]
struct Queue {
    pending: Vec<u8>,
    /// An empty buffer to queue lines in while `pending` is written: the two take turns, so under
    /// load lines are queued into room already there instead of a buffer grown afresh per batch.
    spare: Vec<u8>,
    /// The number of the last line queued.
    queued: u64,
    /// Every line up to this number has been written (or has failed, see `failures`).
    written: u64,
    /// Whether an append is writing a batch right now.
    writing: bool,
    /// How many blocking appends (or syncs) wait on `written` for the batch being written.
    blocked: usize,
    /// The batches whose write failed, as line ranges, and why; the most recent last.
    failures: VecDeque<(u64, u64, std::io::ErrorKind, String)>,
}

impl JournalWriter {
    /// Opens `path` for appending (creating it); `fsync` makes every append durable before it
    /// returns, surviving power loss, at the cost of a disk flush per batch. Refuses what is not
    /// a regular file (a FIFO would block here until a reader came). A last line without its line
    /// feed, left by a crash or a full disk, is repaired first; what was done is returned to be said.
    pub fn open(path: &Path, fsync: bool) -> anyhow::Result<(JournalWriter, Option<String>)> {
        if let Ok(metadata) = std::fs::metadata(path)
            && !metadata.is_file()
        {
            bail!(
                "the journal `{}` is not a regular file (a FIFO, device or directory); --record needs a file it \
                     can append to",
                path.display()
            );
        }
        let file = OpenOptions::new()
            .create(true)
            .append(true)
            .read(true)
            .open(path)
            .with_context(|| format!("cannot open the journal `{}` for appending", path.display()))?;
        let repair = repair_tail(&file, path)?;
        let good_len = file.metadata().with_context(|| format!("cannot read `{}`", path.display()))?.len();
        let writer = JournalWriter {
            queue: Mutex::new(Queue::default()),
            written: Condvar::new(),
            batch_done: tokio::sync::Notify::new(),
            file: Mutex::new(Appender { file, good_len, torn: false }),
            path: path.to_path_buf(),
            fsync,
        };
        Ok((writer, repair))
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
        self.wait_written_blocking(mine)
    }

    /// [`append`](Self::append) for a line already written (without its line feed).
    pub fn append_line(&self, line: &[u8]) -> std::io::Result<()> {
        let mine = self.enqueue_with(|pending| {
            pending.extend_from_slice(line);
            Ok(())
        })?;
        self.wait_written_blocking(mine)
    }

    /// Blocks until line `mine` is written, writing the batch itself when nobody else is.
    fn wait_written_blocking(&self, mine: u64) -> std::io::Result<()> {
        let mut queue = self.lock_queue();
        loop {
            if queue.written >= mine {
                return failure_of(&queue, mine).map_or(Ok(()), Err);
            }
            if queue.writing {
                queue = self.wait_for_batch(queue);
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
        self.wait_written(mine).await
    }

    /// [`append_async`](Self::append_async) for the listener's borrowed record: its line is
    /// written straight into the queue, with no copy of the headers, the body or the line.
    pub async fn append_received_async(&self, record: &ReceivedRecord<'_>) -> std::io::Result<()> {
        let mine = self.enqueue_with(|pending| {
            record.write_line(pending);
            Ok(())
        })?;
        self.wait_written(mine).await
    }

    /// Waits until line `mine` is written, writing the batch itself when nobody else is.
    async fn wait_written(&self, mine: u64) -> std::io::Result<()> {
        let mut woken = false;
        loop {
            // Once woken (or after writing a batch), looked at first without registering: the
            // append whose line that batch held (the usual case) returns without touching the
            // notifier's list at all. Just queued, the line is seldom written yet.
            if woken && let Some(result) = self.outcome(mine) {
                return result;
            }
            woken = true;
            // Registered before looking again, so a batch finishing in between is not missed.
            let notified = self.batch_done.notified();
            tokio::pin!(notified);
            notified.as_mut().enable();
            let someone_writing = {
                let queue = self.lock_queue();
                if queue.written >= mine {
                    return failure_of(&queue, mine).map_or(Ok(()), Err);
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

    /// How the append of line `mine` ended, once it has.
    fn outcome(&self, mine: u64) -> Option<std::io::Result<()>> {
        let queue = self.lock_queue();
        (queue.written >= mine).then(|| failure_of(&queue, mine).map_or(Ok(()), Err))
    }

    /// Queues the record's line and returns its number.
    fn enqueue(&self, record: &JournalRecord) -> std::io::Result<u64> {
        self.enqueue_with(|pending| {
            crate::json_output::write_line(pending, RECORD_SCHEMA, record).map_err(std::io::Error::other)
        })
    }

    /// Queues the line `write` puts straight into the queue (no copy of it first) and returns its
    /// number; a line that cannot be written leaves no trace.
    fn enqueue_with(&self, write: impl FnOnce(&mut Vec<u8>) -> std::io::Result<()>) -> std::io::Result<u64> {
        let mut queue = self.lock_queue();
        let start = queue.pending.len();
        if let Err(err) = write(&mut queue.pending) {
            queue.pending.truncate(start);
            return Err(err);
        }
        queue.pending.push(b'\n');
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
            if queue.failures.len() == FAILURES_KEPT {
                queue.failures.pop_front();
            }
            queue.failures.push_back((batch.first, batch.last, err.kind(), err.to_string()));
        }
        // Hand the buffer back so the next batches do not allocate.
        let mut bytes = batch.bytes;
        if bytes.capacity() <= KEPT_BUFFER {
            bytes.clear();
            if queue.pending.is_empty() && queue.pending.capacity() < bytes.capacity() {
                queue.pending = bytes;
            } else if queue.spare.capacity() < bytes.capacity() {
                queue.spare = bytes;
            }
        }
        // std's `notify_all` makes a system call whether or not anyone waits, and the listener's
        // appends are all async: only a blocked append is worth one.
        let wake_blocked = queue.blocked > 0;
        drop(queue);
        if wake_blocked {
            self.written.notify_all();
        }
        self.batch_done.notify_waiters();
    }

    /// Blocks until the batch being written is done, counted in `blocked` meanwhile so the
    /// writer knows to wake it (it reads the count under the same lock, so no wake is missed).
    fn wait_for_batch<'a>(&self, mut queue: std::sync::MutexGuard<'a, Queue>) -> std::sync::MutexGuard<'a, Queue> {
        queue.blocked += 1;
        let mut queue = self.written.wait(queue).unwrap_or_else(|poisoned| poisoned.into_inner());
        queue.blocked -= 1;
        queue
    }

    /// Writes whole lines after the last good one, or nothing: on failure the file is cut back to
    /// its last whole line (now, or before the next batch if that fails too).
    fn write_batch(&self, batch: &[u8]) -> std::io::Result<()> {
        let mut appender = lock(&self.file);
        let appender = &mut *appender;
        if appender.torn {
            appender.file.set_len(appender.good_len)?;
            appender.torn = false;
        }
        let result =
            appender.file.write_all(batch).and_then(|()| if self.fsync { appender.file.sync_data() } else { Ok(()) });
        match result {
            Ok(()) => {
                appender.good_len += batch.len() as u64;
                Ok(())
            }
            Err(err) => {
                appender.torn = appender.file.set_len(appender.good_len).is_err();
                Err(err)
            }
        }
    }

    fn lock_queue(&self) -> std::sync::MutexGuard<'_, Queue> {
        lock(&self.queue)
    }

    /// Writes any line still queued (one whose async append was abandoned mid-way, say by a client
    /// hanging up) and flushes to disk; a clean shutdown calls this even without `fsync`.
    pub fn sync(&self) -> std::io::Result<()> {
        let mut queue = self.lock_queue();
        while queue.writing || !queue.pending.is_empty() {
            if queue.writing {
                queue = self.wait_for_batch(queue);
                continue;
            }
            let batch = take_batch(&mut queue);
            drop(queue);
            self.write_and_release(batch);
            queue = self.lock_queue();
        }
        drop(queue);
        lock(&self.file).file.sync_all()
    }

    /// Swaps the file handle, so a test can make writes fail the way a full disk does.
    #[cfg(test)]
    fn replace_file(&self, file: File) -> File {
        std::mem::replace(&mut lock(&self.file).file, file)
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
    let spare = std::mem::take(&mut queue.spare);
    Batch { bytes: std::mem::replace(&mut queue.pending, spare), first: queue.written + 1, last: queue.queued }
}

/// The error for line `line` when the batch it was written in failed.
fn failure_of(queue: &Queue, line: u64) -> Option<std::io::Error> {
    let (_, _, kind, message) =
        queue.failures.iter().rev().find(|(first, last, ..)| (*first..=*last).contains(&line))?;
    Some(std::io::Error::new(*kind, message.clone()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::webhook::journal::reader::read_journal;
    use crate::webhook::journal::record::{JournalBody, JournalVerdict};

    fn record(id: &str) -> JournalRecord {
        JournalRecord {
            received_at: "2026-11-29T13:17:00.123Z".into(),
            remote: None,
            method: "POST".into(),
            path: "/".into(),
            headers: Vec::new(),
            body: JournalBody::from_bytes(b"{}"),
            verdict: JournalVerdict { valid: true, scheme: None, reason: None, code: None },
            event_id: id.into(),
            event_type: None,
            duplicate: false,
            attempt: 1,
            status: 200,
            forward_error: None,
            forward: None,
            handshake: None,
        }
    }

    #[test]
    fn a_failed_write_fails_its_delivery_only_and_the_next_one_is_written() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("journal.jsonl");
        let (writer, repair) = JournalWriter::open(&path, false).unwrap();
        assert_eq!(repair, None);
        writer.append(&record("evt_1")).unwrap();
        // A handle that cannot write fails the append like a full disk does.
        let writable = writer.replace_file(File::open(&path).unwrap());
        assert!(writer.append(&record("evt_2")).is_err());
        writer.replace_file(writable);
        writer.append(&record("evt_3")).expect("the journal recovers without a restart");
        let (records, warning) = read_journal(&path).unwrap();
        assert_eq!(warning, None);
        let ids: Vec<&str> = records.iter().map(|record| record.event_id.as_str()).collect();
        assert_eq!(ids, ["evt_1", "evt_3"]);
    }

    #[test]
    fn what_is_not_a_regular_file_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let err = JournalWriter::open(dir.path(), false).err().unwrap();
        assert!(format!("{err:#}").contains("not a regular file"), "{err:#}");
    }
}
