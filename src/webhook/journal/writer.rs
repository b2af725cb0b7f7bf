//! Appending records to the journal: many request handlers at once, one line each, never
//! interleaved, on disk before the delivery is acknowledged.
use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::{Condvar, Mutex};

use anyhow::Context;

use super::record::JournalRecord;

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
