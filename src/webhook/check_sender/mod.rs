//! `webhook check-sender`: a conformance suite for the sending side. A receiver on a local port
//! answers each event's attempts as a script says (`500,hold,429:3,200;410;200` by default), the
//! sender under test delivers to it (run as `-- SENDER_CMD` with `WEBHOOK_URL` set, or configured
//! by hand), and the checks grade what it did: signatures, stable ids and bodies, retries,
//! backoff, Retry-After, stopping, timestamps, headers.
//!
//! The suite's files have the roles every suite folder has: `catalogue` (every check's spec and
//! the function that judges it), `probe` (what the receiving side saw, as the checks read it),
//! one file per group of checks about one of the sender's duties (`identity`: signature, event
//! id, body; `retries`: after a 5xx, after no answer, backoff, Retry-After; `stops`: after 2xx
//! and 410; `timestamps`; `headers`; `sender_mistakes`: redirects, throttling, the secret's
//! length), and this entry point. The receiving side behind the probe: `script` parses the
//! script, `receiver` answers by it, `book` groups attempts into events, `signature` verifies
//! them, `live` prints a line per attempt; `supervise` runs the sender command; `report` is the
//! result.
mod book;
pub(crate) mod catalogue;
mod headers;
mod identity;
mod live;
mod probe;
mod receiver;
pub(crate) mod report;
mod retries;
pub(crate) mod script;
mod sender_mistakes;
mod signature;
mod stops;
mod supervise;
mod timestamps;

use std::ffi::OsString;
use std::future::Future;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::bail;
use hyper::service::service_fn;
use tokio::sync::watch;

use crate::conformance::{CheckOutcome, CheckResult, Selection, SuiteFormat, SuiteReport};
use crate::exit::Outcome;
use crate::http::server::{ServerTask, StopSignal};
use crate::output::Palette;
use crate::units::format_duration;
use crate::webhook::journal::writer::JournalWriter;
use crate::webhook::scheme::{SchemeKind, SchemeOptions};
use crate::webhook::secret::Secret;
use book::Book;
use live::Live;
use probe::{SecretForm, SenderEnd, SenderObservation};
use receiver::Receiver;
use report::{SenderReport, SenderSummary};
use script::Script;
use supervise::SenderProcess;

pub(crate) use supervise::URL_ENV;

/// How often the run looks whether the script has played out.
const POLL: Duration = Duration::from_millis(25);

/// Without a sender command, how long to keep listening once the script has played out, for the
/// attempts that should not come (after a 2xx, after a 410).
const GRACE: Duration = Duration::from_secs(2);

/// Once the sender and everything it started are gone, how long the receiver still takes to file
/// what they sent before they went (requests already in its socket).
const LAST_ARRIVALS: Duration = Duration::from_millis(250);

/// How often a run whose sender exited looks whether what it left in the background still runs
/// (a walk over /proc, so not at every poll).
const BACKGROUND_POLL: Duration = Duration::from_millis(250);

/// Everything `webhook check-sender` was told, as plain values.
#[derive(Debug, Clone)]
pub struct CheckSenderConfig {
    pub addr: SocketAddr,
    /// Receive on this path only (others get 404); any path when `None`.
    pub path: Option<String>,
    /// `None` detects the scheme per attempt from its signature header.
    pub scheme: Option<SchemeKind>,
    pub scheme_options: SchemeOptions,
    pub secret: Secret,
    pub tolerance: Duration,
    pub script: Script,
    /// How many events to wait for.
    pub events: usize,
    /// The longest the run waits, for the sender and the script together.
    pub timeout: Duration,
    pub record: Option<PathBuf>,
    /// The sender to run, with `WEBHOOK_URL` set; empty when it runs elsewhere.
    pub sender: Vec<OsString>,
    pub format: SuiteFormat,
    pub palette: Palette,
    /// No live lines (in-process runs).
    pub quiet: bool,
    /// `--only`, `--skip`, `--expect-fail`, `--strict`, `--junit-warnings`.
    pub(crate) selection: Selection,
}

/// Why the waiting ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum WaitEnd {
    PlayedOut,
    TimedOut,
    Interrupted,
    /// The sender exited with a failure before anything arrived.
    SenderFailed,
    /// The sender exited, and nothing it started still runs: nothing more can arrive.
    SenderGone,
}

/// `webhook check-sender`: runs the suite, prints the report, and exits 0 when every required
/// check passed, 1 when one failed. Ctrl-C ends the wait early and grades what was seen.
pub(crate) async fn run(config: CheckSenderConfig) -> anyhow::Result<Outcome> {
    let stop = StopSignal::register()?;
    let (format, palette) = (config.format, config.palette);
    let report = execute(config, stop.wait()).await?;
    let mut stdout = std::io::stdout().lock();
    std::io::Write::write_all(&mut stdout, report.render(format, palette).as_bytes())?;
    std::io::Write::flush(&mut stdout)?;
    // Nothing judged, or required checks unconfirmed: exit 2, as every suite does.
    if let Some(reason) = report.suite.unconfirmed_reason() {
        bail!("{reason}");
    }
    Ok(report.outcome())
}

/// Runs the receiver (and the sender command) until the script has played out, `--timeout` passes
/// or `interrupted` resolves, then judges. An error means the suite could not run: the port is
/// taken, the journal cannot be opened, the sender cannot start, or nothing arrived at all.
pub(crate) async fn execute(
    config: CheckSenderConfig,
    interrupted: impl Future<Output = ()>,
) -> anyhow::Result<SenderReport> {
    let verifier = signature::Verifier::new(config.scheme, config.scheme_options.clone(), config.secret.clone())?;
    let journal = open_journal(config.record.as_deref())?;
    let (listener, addr) = crate::http::server::bind(config.addr).await?;
    let url = format!("http://{addr}{}", config.path.as_deref().unwrap_or("/"));
    let live = Live { palette: config.palette, to_stderr: config.format != SuiteFormat::Human, quiet: config.quiet };
    let scheme = verifier.describe();
    announce(live, &config, &url, &scheme);

    let (stop_holds, stopped) = watch::channel(false);
    let receiver = Arc::new(Receiver {
        path: config.path.clone(),
        verifier,
        tolerance: config.tolerance,
        book: Book::new(config.script.clone()),
        journal,
        live,
        stopped,
    });
    let shared = Arc::clone(&receiver);
    let server = ServerTask::spawn(listener, None, move |remote| {
        let receiver = Arc::clone(&shared);
        service_fn(move |request| receiver::handle(Arc::clone(&receiver), remote, request))
    });
    let started = Instant::now();
    let mut sender = match config.sender.is_empty() {
        true => None,
        false => {
            let process = SenderProcess::spawn(&config.sender, &url, &config.secret)?;
            live.line(&config.palette.dim(&format!("running the sender: {} ({URL_ENV}={url})", process.shown)));
            Some(process)
        }
    };

    let end = wait(&receiver.book, &mut sender, &config, live, started, interrupted).await;
    // Release held attempts before stopping the server, so its drain does not wait on them.
    let _ = stop_holds.send(true);
    server.stop().await;
    receiver.book.close();
    let sender_end = match &mut sender {
        None => SenderEnd::External,
        Some(process) => stop_sender(process, end, started, config.timeout, live).await,
    };
    if let Some(journal) = &receiver.journal {
        let _ = journal.sync();
    }
    let waited = started.elapsed();
    let events = receiver.book.events();
    if events.is_empty() {
        let why = why_nothing_arrived(&sender_end, end, waited);
        bail!("no webhook arrived at {url}: {why}; is the sender configured to deliver to that URL ({URL_ENV})?");
    }
    let observed = SenderObservation {
        events,
        sender: sender_end.clone(),
        waited,
        tolerance: config.tolerance,
        redirected: receiver.book.redirected(),
        scheme: config.scheme,
        secret: SecretForm::of(config.secret.expose()),
    };
    Ok(sender_report(&config, url, &scheme, sender.as_ref(), &sender_end, &observed))
}

/// The `--record` journal, opened for appending; a torn last line it repaired is a warning.
fn open_journal(record: Option<&std::path::Path>) -> anyhow::Result<Option<JournalWriter>> {
    let Some(path) = record else { return Ok(None) };
    let (writer, repair) = JournalWriter::open(path, false)?;
    if let Some(repair) = repair {
        eprintln!("warning: {repair}");
    }
    Ok(Some(writer))
}

/// The opening lines: where to deliver, and what the run waits for.
fn announce(live: Live, config: &CheckSenderConfig, url: &str, scheme: &str) {
    live.line(&format!(
        "{} {url}  (scheme {scheme}, tolerance {})",
        config.palette.bold("webhook check-sender: deliver webhooks to"),
        format_duration(config.tolerance)
    ));
    live.line(&config.palette.dim(&format!(
        "script {}: waiting for {} event(s), up to {}",
        config.script,
        config.events,
        format_duration(config.timeout)
    )));
}

/// Stops the sender command and what it left in the background, and says how it ended.
async fn stop_sender(
    process: &mut SenderProcess,
    end: WaitEnd,
    started: Instant,
    timeout: Duration,
    live: Live,
) -> SenderEnd {
    if let Some(status) = process.exited() {
        // What it left running in the background goes too.
        process.stop().await;
        return SenderEnd::Exited(supervise::describe(status));
    }
    process.stop().await;
    // Said as it happened: a Ctrl-C or SIGTERM after 1s is not a sender still running after the
    // whole --timeout.
    let said = match end {
        WaitEnd::Interrupted => format!("interrupted after {}; stopped the sender", format_duration(started.elapsed())),
        WaitEnd::TimedOut => format!("the sender was still running after {}; stopped it", format_duration(timeout)),
        WaitEnd::PlayedOut | WaitEnd::SenderFailed | WaitEnd::SenderGone => {
            "the sender was still running once the script had played out; stopped it".to_string()
        }
    };
    live.line(&said);
    SenderEnd::StillRunning
}

/// Why the run saw no webhook at all, for the error that says the suite could not run.
fn why_nothing_arrived(sender_end: &SenderEnd, end: WaitEnd, waited: Duration) -> String {
    match (sender_end, end) {
        (SenderEnd::Exited(status), _) => format!("the sender exited ({status}) without delivering"),
        (_, WaitEnd::Interrupted) => "interrupted".to_string(),
        _ => format!("nothing within {}", format_duration(waited)),
    }
}

/// Judges what was observed and puts the verdicts with what was run into the report.
fn sender_report(
    config: &CheckSenderConfig,
    url: String,
    scheme: &str,
    sender: Option<&SenderProcess>,
    sender_end: &SenderEnd,
    observed: &SenderObservation,
) -> SenderReport {
    let target = match sender {
        Some(process) => format!("{} (--scheme {scheme}, script {}) ← {}", url, config.script, process.shown),
        None => format!("{url} (--scheme {scheme}, script {})", config.script),
    };
    SenderReport {
        suite: SuiteReport::new("webhook check-sender", target, judge(observed))
            .with_every_check(&catalogue::SPECS)
            .select(&config.selection, &[]),
        url,
        script: config.script.to_string(),
        sender: sender.map(|process| SenderSummary {
            command: process.shown.clone(),
            exit: match sender_end {
                SenderEnd::Exited(status) => Some(status.clone()),
                _ => None,
            },
        }),
        events: report::summarise(&observed.events),
    }
}

/// Every check of the catalogue, in its order. Each is graded after the fact, so its duration is
/// the span of the events it judged: from the first attempt's arrival to the last attempt's end.
fn judge(observed: &SenderObservation) -> Vec<CheckResult> {
    let span = observed.span();
    catalogue::CHECKS
        .iter()
        .map(|check| {
            let mut result = (check.judge)(observed).result(&check.spec);
            if result.outcome != CheckOutcome::Skip {
                result.duration = span;
            }
            result
        })
        .collect()
}

/// Waits until the sender (if any) has exited and the first `--events` events have played out,
/// or the timeout passes, or the run is interrupted.
async fn wait(
    book: &Book,
    sender: &mut Option<SenderProcess>,
    config: &CheckSenderConfig,
    live: Live,
    started: Instant,
    interrupted: impl Future<Output = ()>,
) -> WaitEnd {
    let deadline = started + config.timeout;
    let mut interrupted = std::pin::pin!(interrupted);
    let mut background_looked = Instant::now();
    loop {
        let now = Instant::now();
        if now >= deadline {
            return WaitEnd::TimedOut;
        }
        let sender_done = sender.as_ref().is_none_or(|process| process.exited().is_some());
        if sender_done && book.played_out(config.events) {
            if sender.is_none() {
                tokio::select! {
                    _ = &mut interrupted => return WaitEnd::Interrupted,
                    _ = tokio::time::sleep(GRACE.min(deadline - now)) => {}
                }
            }
            return WaitEnd::PlayedOut;
        }
        // An exited sender delivers more only through what it left running (a queue worker it
        // started); with nothing left, waiting for the rest of --timeout would wait for nothing.
        if let Some(process) = sender.as_mut().filter(|process| process.exited().is_some())
            && background_looked.elapsed() >= BACKGROUND_POLL
        {
            background_looked = Instant::now();
            if !process.anything_running() {
                return sender_gone(book, config, live).await;
            }
        }
        tokio::select! {
            _ = &mut interrupted => return WaitEnd::Interrupted,
            status = sender_exit(sender) => {
                // A sender that failed before delivering anything (a typo, a missing flag) will not
                // deliver later: report that now rather than after the whole --timeout.
                if status.is_some_and(|status| !status.success()) && book.is_empty() {
                    return WaitEnd::SenderFailed;
                }
                if sender.as_mut().is_some_and(|process| !process.anything_running()) {
                    return sender_gone(book, config, live).await;
                }
                if !book.played_out(config.events) {
                    live.line(&format!(
                        "the sender exited ({}); waiting up to {} more for the script: {}",
                        status.map_or_else(|| "no exit status".to_string(), supervise::describe),
                        format_duration(deadline.saturating_duration_since(Instant::now())),
                        book.waiting_for(config.events).join(", ")
                    ));
                }
            }
            _ = tokio::time::sleep(POLL) => {}
        }
    }
}

/// The end of a run whose sender is gone with nothing left running: the last requests it sent are
/// filed, and what the script still waited for is said.
async fn sender_gone(book: &Book, config: &CheckSenderConfig, live: Live) -> WaitEnd {
    tokio::time::sleep(LAST_ARRIVALS).await;
    if !book.played_out(config.events) {
        live.line(&format!(
            "the sender exited and left nothing running, so nothing more can arrive; judging what did (the script \
             still waited for: {})",
            book.waiting_for(config.events).join(", ")
        ));
    }
    WaitEnd::SenderGone
}

/// Resolves when a running sender exits; never for none, or one that already has.
async fn sender_exit(sender: &mut Option<SenderProcess>) -> Option<std::process::ExitStatus> {
    match sender {
        Some(process) if process.exited().is_none() => process.wait().await,
        _ => std::future::pending().await,
    }
}
