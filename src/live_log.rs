//! The live log of a server (`idem serve`'s request lines, `webhook listen`'s deliveries), printed
//! without ever slowing a request down: handlers hand each entry to a bounded queue and a printer
//! thread renders and writes them. When the terminal cannot keep up and the queue is full,
//! handlers count the entry instead of waiting, and the printer says every so often how many it
//! skipped. Memory stays bounded however slow stdout is.
use std::io::Write;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError, SyncSender, TrySendError, sync_channel};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use crate::sync::lock;

/// Entries waiting for the printer; beyond this they are counted, not queued.
const QUEUE: usize = 4096;
/// How long a busy printer waits between batches: short enough to feel live, long enough that
/// handlers never have to wake it.
const BATCH_INTERVAL: Duration = Duration::from_millis(10);
/// How often the printer reports skipped entries.
const REPORT_EVERY: Duration = Duration::from_secs(1);

enum Message<T> {
    /// Text that must not be skipped (a banner).
    Text(String),
    Entry(T),
    Stop,
}

/// How the printer turns entries into lines.
pub(crate) struct Printer<T> {
    /// The thread's name, for debuggers.
    pub name: &'static str,
    pub render: Box<dyn Fn(T) -> String + Send>,
    /// The line that says how many entries were skipped since the last such line.
    pub skipped: Box<dyn Fn(u64) -> String + Send>,
}

/// The front end every handler shares.
pub(crate) struct LiveLog<T> {
    sender: Option<SyncSender<Message<T>>>,
    not_shown: Arc<AtomicU64>,
    printer: std::sync::Mutex<Option<JoinHandle<()>>>,
}

impl<T: Send + 'static> LiveLog<T> {
    /// Shows nothing (in-process servers).
    pub(crate) fn quiet() -> LiveLog<T> {
        LiveLog { sender: None, not_shown: Arc::default(), printer: std::sync::Mutex::new(None) }
    }

    /// Starts the printer thread, writing to stdout.
    pub(crate) fn printing(printer: Printer<T>) -> anyhow::Result<LiveLog<T>> {
        let (sender, receiver) = sync_channel(QUEUE);
        let not_shown = Arc::new(AtomicU64::new(0));
        let counted = Arc::clone(&not_shown);
        let thread = std::thread::Builder::new()
            .name(printer.name.into())
            .spawn(move || print_until_stopped(receiver, &counted, &printer))
            .map_err(|err| anyhow::anyhow!("cannot start the printer thread: {err}"))?;
        Ok(LiveLog { sender: Some(sender), not_shown, printer: std::sync::Mutex::new(Some(thread)) })
    }

    pub(crate) fn is_quiet(&self) -> bool {
        self.sender.is_none()
    }

    /// Queues text that must not be skipped (the banner), waiting for room if need be.
    pub(crate) fn text(&self, text: String) {
        if let Some(sender) = &self.sender {
            let _ = sender.send(Message::Text(text));
        }
    }

    /// Queues an entry unless the queue is full, in which case it is only counted: a slow terminal
    /// must never hold up an answer.
    pub(crate) fn offer(&self, entry: T) {
        if let Some(sender) = &self.sender
            && let Err(TrySendError::Full(_)) = sender.try_send(Message::Entry(entry))
        {
            self.not_shown.fetch_add(1, Ordering::Relaxed);
        }
    }

    /// Entries counted instead of shown.
    pub(crate) fn not_shown(&self) -> u64 {
        self.not_shown.load(Ordering::Relaxed)
    }

    /// Prints what is queued, then stops the printer. Blocks: call it off the async runtime.
    pub(crate) fn finish(&self) {
        if let Some(sender) = &self.sender {
            let _ = sender.send(Message::Stop);
        }
        let printer = lock(&self.printer).take();
        if let Some(printer) = printer {
            let _ = printer.join();
        }
    }
}

fn print_until_stopped<T>(receiver: Receiver<Message<T>>, not_shown: &AtomicU64, printer: &Printer<T>) {
    print_queue(
        receiver,
        not_shown,
        |message| match message {
            Message::Stop => Taken::Stop,
            Message::Text(text) => Taken::Line(text),
            Message::Entry(entry) => Taken::Line((printer.render)(entry)),
        },
        &printer.skipped,
    );
}

/// What the printer makes of a message taken off its queue.
pub(crate) enum Taken {
    Line(String),
    /// Nothing to print (a message shown elsewhere).
    Nothing,
    /// Print what came before, then stop.
    Stop,
}

/// The printer's loop, for any bounded queue whose senders count what did not fit in
/// `not_shown`: prints until `take` says stop or every sender is gone, a write per batch, and
/// says every so often (and at the end) how many were left out, in the words of `skipped`.
pub(crate) fn print_queue<M>(
    receiver: Receiver<M>,
    not_shown: &AtomicU64,
    take: impl Fn(M) -> Taken,
    skipped: &dyn Fn(u64) -> String,
) {
    // Buffered, flushed once per batch: one write per burst instead of per line.
    let mut out = std::io::BufWriter::new(std::io::stdout());
    let mut reported = 0;
    let mut last_report = Instant::now();
    let mut busy = false;
    'printing: loop {
        // While entries keep coming, poll at a short interval instead of parking on the channel:
        // a parked printer costs every handler a wake-up (a futex syscall and a context switch)
        // per entry, which under load costs more than printing does.
        let mut next = if busy {
            std::thread::sleep(BATCH_INTERVAL);
            receiver.try_recv().ok()
        } else {
            match receiver.recv_timeout(REPORT_EVERY) {
                Ok(message) => Some(message),
                Err(RecvTimeoutError::Timeout) => None,
                Err(RecvTimeoutError::Disconnected) => break,
            }
        };
        busy = next.is_some();
        while let Some(message) = next {
            match take(message) {
                Taken::Stop => break 'printing,
                // A closed stdout must not take the server down: the display is best effort.
                Taken::Line(text) => {
                    let _ = writeln!(out, "{text}");
                }
                Taken::Nothing => {}
            }
            next = receiver.try_recv().ok();
        }
        if last_report.elapsed() >= REPORT_EVERY {
            report_skipped(&mut out, not_shown, &mut reported, skipped);
            last_report = Instant::now();
        }
        let _ = out.flush();
    }
    report_skipped(&mut out, not_shown, &mut reported, skipped);
    let _ = out.flush();
}

/// The skipped line, for those skipped since the last report.
fn report_skipped(out: &mut impl Write, not_shown: &AtomicU64, reported: &mut u64, skipped: &dyn Fn(u64) -> String) {
    let total = not_shown.load(Ordering::Relaxed);
    let count = total.saturating_sub(*reported);
    if count == 0 {
        return;
    }
    *reported = total;
    let _ = writeln!(out, "{}", skipped(count));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn skipped_entries_are_reported_once() {
        let printer: Printer<u8> =
            Printer {
                name: "test", render: Box::new(|n| n.to_string()), skipped: Box::new(|n| format!("… {n} more"))
            };
        let counter = AtomicU64::new(5);
        let (mut out, mut reported) = (Vec::new(), 0);
        report_skipped(&mut out, &counter, &mut reported, &printer.skipped);
        report_skipped(&mut out, &counter, &mut reported, &printer.skipped);
        assert_eq!(String::from_utf8(out).unwrap(), "… 5 more\n");
    }

    #[test]
    fn a_full_queue_counts_instead_of_waiting() {
        let (sender, _receiver) = sync_channel(QUEUE);
        let log = LiveLog { sender: Some(sender), not_shown: Arc::default(), printer: std::sync::Mutex::new(None) };
        for n in 0..QUEUE + 7 {
            log.offer(n);
        }
        assert_eq!(log.not_shown(), 7);
    }
}
