//! `idem proxy`: a reverse proxy the client under test talks to instead of the API. It forwards
//! requests and answers unchanged, except where a fault applies (a lost answer, a timeout, a
//! reset, an injected status, a delay), groups attempts into the client's logical operations and
//! judges what the client did next: same key and body, or a second charge.
mod answer;
mod by_number;
mod client_command;
pub(crate) mod fault;
mod forward;
#[cfg(test)]
mod held_bytes;
pub(crate) mod judge;
pub(crate) mod operations;
pub(crate) mod print;
mod records;

use std::net::SocketAddr;
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use anyhow::bail;
use http::{HeaderName, Uri};
use hyper::service::service_fn;

use client_command::ClientCommand;
pub(crate) use client_command::PROXY_URL_VARIABLE;
use fault::{Fault, FaultPlan, Matcher, Selection};
use forward::ProxyState;
use judge::{ProxyReport, RunVerdict};
use operations::Operations;

use crate::exit::Outcome;
use crate::http::client::ClientOptions;
use crate::http::forwarding_client::ForwardingClient;
use crate::http::forwarding_lane::ForwardingLane;
use crate::http::forwarding_loop;
use crate::http::server::{ServerTask, StopSignal, Timeouts};
use crate::http::url::Redacted;
use crate::live_log::Taken;
use crate::output::{Format, Palette, print_best_effort};

/// How long `--operations N` waits for a last retry once nothing happens any more.
const SETTLE: Duration = Duration::from_secs(10);

#[derive(Debug, Clone)]
pub struct ProxyConfig {
    pub upstream: Uri,
    pub addr: SocketAddr,
    /// Serve HTTPS with a generated certificate.
    pub tls: bool,
    /// Accept any certificate from an https upstream.
    pub insecure: bool,
    pub upstream_timeout: Duration,
    /// How long a client may stay silent, trickle a request head or stall a body.
    pub timeouts: Timeouts,
    pub fault: Fault,
    pub selection: Selection,
    pub seed: Option<u64>,
    pub matcher: Matcher,
    pub window: Duration,
    /// `--window-ops`: at most this many operations held open; past it the oldest is folded.
    pub window_ops: Option<usize>,
    pub key_header: HeaderName,
    pub id_field: String,
    /// Stop once this many operations have ended.
    pub operations: Option<usize>,
    /// The client under test, run with `IDEM_PROXY_URL`; empty for none.
    pub client_command: Vec<String>,
    pub format: Format,
    pub palette: Palette,
    /// `--count-url`: the upstream's count, read when the proxy starts and when the run ends.
    pub count: Option<crate::count::CountSource>,
    /// `--require-count`: a safe run without the upstream's count is not accepted (exit 2).
    pub require_count: bool,
}

impl ProxyConfig {
    /// The defaults of the command line in front of `upstream`, on a free loopback port: for the
    /// demo and tests.
    pub fn local(upstream: &str) -> anyhow::Result<ProxyConfig> {
        Ok(ProxyConfig {
            upstream: crate::http::url::parse_url(upstream)?,
            addr: SocketAddr::from(([127, 0, 0, 1], 0)),
            tls: false,
            insecure: false,
            upstream_timeout: Duration::from_secs(30),
            timeouts: Timeouts::default(),
            fault: Fault::LoseAnswer,
            selection: Selection::First(1),
            seed: None,
            matcher: Matcher::default(),
            window: Duration::from_secs(120),
            window_ops: None,
            key_header: HeaderName::from_static("idempotency-key"),
            id_field: crate::idem::request::DEFAULT_ID_FIELD.to_string(),
            operations: None,
            client_command: Vec::new(),
            format: Format::Human,
            palette: Palette::plain(),
            count: None,
            require_count: false,
        })
    }
}

/// A proxy running on the current runtime.
pub struct RunningProxy {
    addr: SocketAddr,
    tls: bool,
    state: Arc<ProxyState>,
    task: ServerTask,
    /// The upstream's count over the run (`--count-url`), once read at the end.
    count: Option<crate::count::CountReading>,
}

impl RunningProxy {
    pub fn local_addr(&self) -> SocketAddr {
        self.addr
    }

    /// The proxy's base URL, what clients use instead of the API's.
    pub fn url(&self) -> String {
        let scheme = if self.tls { "https" } else { "http" };
        format!("{scheme}://{}", self.addr)
    }

    /// The judgement of everything so far.
    pub fn report(&self) -> ProxyReport {
        report_of(&self.state, self.count.as_ref())
    }

    /// The upstream's count before and after the run, for the judgement.
    pub fn set_count(&mut self, count: crate::count::CountReading) {
        self.count = Some(count);
    }

    /// How many operations are held in memory (open, not yet judged and folded).
    pub fn open_operations(&self) -> usize {
        self.state.operations.lock().map(|ops| ops.open_count()).unwrap_or(0)
    }

    /// Resolves once `count` operations exist and each has ended with an answer the client got,
    /// or nothing has happened for a while after that many began.
    pub async fn operations_ended(&self, count: usize) {
        let mut progress = self.state.progress.subscribe();
        loop {
            let (enough, all_ended) = self
                .state
                .operations
                .lock()
                .map(|ops| {
                    // Folded operations went idle for a whole window: nothing more will join them.
                    let enough = ops.started() >= count;
                    let ended = enough
                        && ops.open().iter().take_while(|op| op.number <= count).all(|op| {
                            op.attempts.last().is_some_and(|a| {
                                a.finished.is_some()
                                    && a.client_status.is_some()
                                    && a.fault.is_none_or(|f| !f.calls_for_a_retry())
                            })
                        });
                    (enough, ended)
                })
                .unwrap_or((false, false));
            if enough && all_ended {
                return;
            }
            match tokio::time::timeout(SETTLE, progress.changed()).await {
                Ok(Ok(())) => continue,
                Ok(Err(_)) => return,
                Err(_) if enough => return,
                Err(_) => continue,
            }
        }
    }

    /// Stops: held answers are dropped, requests in flight finish, the live printer is released.
    pub async fn shutdown(self) -> ProxyReport {
        let RunningProxy { state, task, count, .. } = self;
        state.stopping.send_replace(true);
        task.stop().await;
        if let Ok(mut events) = state.events.lock() {
            events.take();
        }
        report_of(&state, count.as_ref())
    }
}

fn report_of(state: &ProxyState, count: Option<&crate::count::CountReading>) -> ProxyReport {
    // The folded operations were judged when they were dropped; the open ones are judged now.
    let (mut tally, open) = state
        .operations
        .lock()
        .map(|ops| (ops.folded().clone(), ops.open().into_iter().cloned().collect::<Vec<_>>()))
        .unwrap_or_default();
    // The count over the run decides an operation's executions only when the run had one, and
    // only a count that can be believed.
    let count = count.filter(|count| count.change.doubt.is_none());
    let count_decides = count.filter(|_| tally.totals.operations == 0);
    let (_, open) = judge::judge_run_counted(&open, &state.id_field, count_decides);
    for report in open {
        tally.add(report);
    }
    let (verdict, operations, totals) = tally.into_run();
    ProxyReport {
        verdict,
        operations,
        totals,
        passed_through: state.passed_through.load(Ordering::Relaxed),
        upstream_failures: state.upstream_failures.load(Ordering::Relaxed),
        last_upstream_error: state.last_upstream_error.lock().ok().and_then(|last| last.clone()),
        client_exit: None,
        lines_not_shown: state.not_shown.load(Ordering::Relaxed),
        count: count.and_then(|count| crate::idem::verdict::Evidence::of_count(count).ok()),
    }
}

/// Binds and starts forwarding. `events` receives each attempt as it finishes (for live lines);
/// when it is full, attempts are counted (`ProxyReport::lines_not_shown`) instead of queued.
pub async fn start(
    config: &ProxyConfig,
    events: Option<std::sync::mpsc::SyncSender<print::ProxyEvent>>,
) -> anyhow::Result<RunningProxy> {
    match config.upstream.scheme_str() {
        Some("http") | Some("https") => {}
        _ => bail!("--upstream {} must be an http:// or https:// URL", Redacted(&config.upstream)),
    }
    let client = ForwardingClient::new(ClientOptions {
        timeout: config.upstream_timeout,
        insecure: config.insecure,
        http2: false,
    })?;
    let (listener, addr) = crate::http::server::bind(config.addr).await?;
    if forwarding_loop::is_own_address(&config.upstream, addr).await {
        bail!(
            "--upstream {} is this proxy's own address ({addr}): every request would be forwarded to itself, again and \
             again; give the API's address instead",
            Redacted(&config.upstream)
        );
    }
    let tls = crate::http::tls::acceptor(config.tls)?;
    let via = forwarding_loop::via_name("idem-proxy");
    let state = Arc::new(ProxyState {
        upstream: config.upstream.clone(),
        via_hop: forwarding_loop::hop_value(&via),
        via,
        body_progress: config.timeouts.body_progress,
        client,
        matcher: config.matcher.clone(),
        key_header: config.key_header.clone(),
        id_field: config.id_field.clone(),
        ids: crate::idem::request::IdSource { field: config.id_field.clone(), header: None },
        operations: Mutex::new(
            Operations::new(config.window).with_id_field(&config.id_field).with_max_open(config.window_ops),
        ),
        plan: Mutex::new(FaultPlan::new(config.fault, config.selection, config.seed)),
        events: Mutex::new(events),
        not_shown: Default::default(),
        progress: tokio::sync::watch::Sender::new(0),
        stopping: tokio::sync::watch::Sender::new(false),
        passed_through: Default::default(),
        forwarded: Default::default(),
        upstream_failures: Default::default(),
        last_upstream_error: Mutex::new(None),
        loops: Default::default(),
        stalled: Default::default(),
    });
    let service_state = Arc::clone(&state);
    // Each connection stays on one worker thread with its upstream connection (see
    // connection_workers.rs): the judged path's cost against nginx's.
    let workers = crate::http::connection_workers::ConnectionWorkers::per_core()?;
    let task = ServerTask::spawn_whole_requests(listener, tls, config.timeouts, Some(workers), move |_remote| {
        let state = Arc::clone(&service_state);
        // Each client connection gets its own upstream connection, driven by the task serving it.
        let lane = Arc::new(ForwardingLane::new(state.client.clone()));
        service_fn(move |request| forward::handle(Arc::clone(&state), Arc::clone(&lane), request))
    });
    Ok(RunningProxy { addr, tls: config.tls, state, task, count: None })
}

/// `idem proxy`: forwards until Ctrl-C, `--operations N` or the client command's exit, then
/// judges.
pub(crate) async fn run(config: ProxyConfig) -> anyhow::Result<Outcome> {
    let stop = StopSignal::register()?;
    let (events, printed) = std::sync::mpsc::sync_channel::<print::ProxyEvent>(PRINT_QUEUE);
    let count_before = match &config.count {
        Some(count) => Some(count.baseline().await?),
        None => None,
    };
    let mut proxy = start(&config, Some(events)).await?;
    let palette = config.palette;
    let upstream = Redacted(&config.upstream).to_string();
    match config.format {
        Format::Human => print_best_effort(&print::banner(&proxy.url(), &upstream, &config.fault.name(), palette)),
        Format::Json => print_best_effort(
            &print::ProxyLine::Listening { url: proxy.url(), upstream: upstream.clone(), fault: config.fault }
                .to_json(),
        ),
    }
    let printer = spawn_printer(printed, Arc::clone(&proxy.state), config.format, palette);

    let mut client = match config.client_command.as_slice() {
        [] => None,
        command => Some(ClientCommand::spawn(command, &proxy.url())?),
    };
    let client_finished = async {
        match client.as_mut() {
            Some(client) => Some(client.wait().await),
            None => std::future::pending().await,
        }
    };
    let operations_ended = async {
        match config.operations {
            Some(count) => proxy.operations_ended(count).await,
            None => std::future::pending().await,
        }
    };
    let client_exit = tokio::select! {
        _ = stop.wait() => None,
        exit = client_finished => exit,
        _ = operations_ended => None,
    };
    // Ctrl-C, SIGTERM, --operations or its own exit: the client and what it left running stop here.
    if let Some(client) = client.as_mut() {
        client.stop().await;
    }
    let client_exit = client_exit.transpose()?;
    let mut count_doubt = None;
    if let (Some(count), Some(before)) = (&config.count, count_before) {
        // The client's keys may have been used before the run, so a count that stays put is no
        // sign of a lie here; one that falls, jumps or moves by itself is.
        let requests = proxy.state.forwarded.load(Ordering::Relaxed);
        // The proxy knows no answer's latency here: the adaptive interval's floor applies.
        let step = crate::count::Step { requests, must_rise: false, slowest: std::time::Duration::ZERO };
        let settled = count.change_since(before, step).await?;
        // The run ends here: what the upstream does later is this run's, by the closing re-read.
        let change = count.closing(before, &settled, step).await?;
        count_doubt = change.doubt.clone();
        proxy.set_count(crate::count::CountReading::new(change, count));
    }
    let state = Arc::clone(&proxy.state);
    let mut report = proxy.shutdown().await;
    report.client_exit = client_exit;
    let _ = printer.join();
    match config.format {
        Format::Human => print_best_effort(&format!("\n{}", print::summary(&report, palette))),
        Format::Json => print_best_effort(&print::ProxyLine::Summary { summary: &report }.to_json()),
    }
    let count_missing = config.require_count && config.count.is_none();
    outcome(&report, &state, &upstream, count_doubt, count_missing)
}

/// Live lines waiting for the printer; beyond this they are counted, not queued (see
/// `ProxyState::report`).
const PRINT_QUEUE: usize = 4096;

/// The thread that prints each attempt as it ends, with the loop every live log of the crate
/// shares (`live_log::print_queue`): a write per batch of lines, not per line, and when stdout
/// cannot keep up and the queue is full, attempts are counted instead and the printer says how
/// many it left out. Refusals are JSON lines; a person reads them in the stderr warning.
fn spawn_printer(
    printed: std::sync::mpsc::Receiver<print::ProxyEvent>,
    state: Arc<ProxyState>,
    format: Format,
    palette: crate::output::Palette,
) -> std::thread::JoinHandle<()> {
    std::thread::spawn(move || {
        crate::live_log::print_queue(
            printed,
            &state.not_shown,
            |event| live_line(event, format, palette).map_or(Taken::Nothing, Taken::Line),
            &|count| not_shown_line(count, format),
        );
    })
}

/// An event as a live line; `None` for what a person reads elsewhere (a refusal is a stderr
/// warning in human output).
fn live_line(event: print::ProxyEvent, format: Format, palette: crate::output::Palette) -> Option<String> {
    match (event, format) {
        (print::ProxyEvent::Attempt(attempt), Format::Human) => Some(print::attempt_line(&attempt, palette)),
        (print::ProxyEvent::Attempt(attempt), Format::Json) => {
            Some(print::ProxyLine::Attempt(print::AttemptLine::new(&attempt)).to_json())
        }
        (print::ProxyEvent::Refused(_), Format::Human) => None,
        (print::ProxyEvent::Refused(refused), Format::Json) => Some(print::ProxyLine::Refused(refused).to_json()),
    }
}

/// The line that says how many live lines were left out since the last such line.
fn not_shown_line(count: u64, format: Format) -> String {
    match format {
        Format::Human => format!(
            "… {count} line(s) not shown: the terminal could not keep up (every attempt is still judged and counted)"
        ),
        Format::Json => print::ProxyLine::NotShown { count }.to_json(),
    }
}

/// The exit status the run earns, after its report is printed: a forwarding loop or an upstream
/// that failed requests is exit 2 (the client could not be judged fairly), then the verdict.
fn outcome(
    report: &ProxyReport,
    state: &ProxyState,
    upstream: &str,
    count_doubt: Option<String>,
    count_missing: bool,
) -> anyhow::Result<Outcome> {
    let loops = state.loops.load(Ordering::Relaxed);
    if loops > 0 {
        bail!(
            "{loops} request(s) came back to this proxy through --upstream {} (a forwarding loop, answered 508 Loop \
             Detected); point --upstream at the API itself",
            upstream
        );
    }
    let stalled = state.stalled.load(Ordering::Relaxed);
    if stalled > 0 {
        eprintln!("note: {stalled} request body(ies) stalled past --idle-timeout and were answered 408, not judged");
    }
    if report.upstream_failures > 0 {
        let last = report.last_upstream_error.as_deref().unwrap_or("no answer");
        // "Is it running?" only when it could not be reached; an upstream that answered garbage is.
        let (did, hint) = if last.contains("cannot connect") {
            ("did not answer", " (is it running?)")
        } else {
            ("gave no usable answer to", "")
        };
        bail!(
            "the upstream {upstream} {did} {} request(s), so the client could not be judged fairly: {last}{hint}",
            report.upstream_failures,
        );
    }
    match report.verdict {
        // The user asked for the count's proof, and the count proves nothing.
        RunVerdict::Safe if count_doubt.is_some() => bail!("{}", count_doubt.unwrap_or_default()),
        // `--require-count`: the answers show replays, not how many times the upstream executed.
        RunVerdict::Safe if count_missing => bail!("{}", crate::evidence_level::COUNT_REQUIRED),
        RunVerdict::Safe => Ok(Outcome::Holds),
        RunVerdict::ClientMistakes => Ok(Outcome::ProblemFound),
        RunVerdict::NoOperations => bail!(
            "no request the proxy judges reached it (by default every request but GET, HEAD and OPTIONS); is the client using {PROXY_URL_VARIABLE} or the proxy's address?"
        ),
    }
}
