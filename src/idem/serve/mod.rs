//! `idem serve`: a reference payments API that handles `Idempotency-Key` correctly, or broken on
//! purpose, over HTTP/1.1 and h2c on one port (and HTTPS with ALPN h2 under `--tls`).
mod declines;
mod expired_records;
mod handler;
mod key;
pub(crate) mod log;
mod payments;
pub(crate) mod store;

use log::Banner;
pub(crate) use log::{LINE_SCHEMA, RequestOutcome, ServeLine, ServeTally};
pub(crate) use store::{RedisAddress, StoreLocation};

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use anyhow::Context;
use hyper::service::service_fn;

use crate::exit::Outcome;
use crate::http::server::ServerTask;
use crate::http::server::StopSignal;
use crate::output::{Format, Palette, print_best_effort};
use handler::AppState;

/// How the server handles idempotency keys.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum, serde::Serialize, schemars::JsonSchema)]
// kebab-case, as `--mode` spells them: `local-lock`.
#[serde(rename_all = "kebab-case")]
pub enum Mode {
    /// Claims each key atomically: 409 while in flight, 422 for another body, replays afterwards
    #[default]
    Correct,
    /// DELIBERATELY BROKEN: looks the key up, does the work, then stores it, so concurrent duplicates all execute
    Naive,
    /// DELIBERATELY BROKEN: ignores keys, so every retry executes again
    None,
    /// DELIBERATELY BROKEN: claims under an in-process lock, writes the shared store after the work, so duplicates sent to two instances both execute
    LocalLock,
    /// DELIBERATELY BROKEN: keys the store by the header value alone (not the caller, method or path) and fingerprints raw bytes, so caller B gets caller A's payment
    Unscoped,
    /// DELIBERATELY BROKEN: the claim's lease is half the --work and never renewed, so a retry late in the work executes again
    ShortLease,
    /// DELIBERATELY BROKEN: an in-flight claim never expires, so after a crash (SQLite, Redis) every retry gets 409
    StickyLock,
    /// DELIBERATELY BROKEN: replays the stored body and status without the Location header
    DropsHeaders,
    /// DELIBERATELY BROKEN: fails after the payment is committed (500) and deletes the key record in its error handler, so every retry charges again
    DeleteOnError,
    /// DELIBERATELY BROKEN: keeps a declined payment (4xx) by caller and endpoint for a minute and answers it to the caller's next payments, new keys included
    StickyDecline,
    /// DELIBERATELY BROKEN: a key whose record expired (--ttl) is taken over by read-then-write, so duplicates that arrive together after expiry all execute
    OrphanTakeover,
}

impl Mode {
    pub fn as_str(self) -> &'static str {
        match self {
            Mode::Correct => "correct",
            Mode::Naive => "naive",
            Mode::None => "none",
            Mode::LocalLock => "local-lock",
            Mode::Unscoped => "unscoped",
            Mode::ShortLease => "short-lease",
            Mode::StickyLock => "sticky-lock",
            Mode::DropsHeaders => "drops-headers",
            Mode::DeleteOnError => "delete-on-error",
            Mode::StickyDecline => "sticky-decline",
            Mode::OrphanTakeover => "orphan-takeover",
        }
    }

    /// What is wrong with a deliberately broken mode, for the start-up banner.
    pub fn warning(self) -> Option<&'static str> {
        match self {
            Mode::Correct => None,
            Mode::Naive => Some(
                "deliberately broken: keys are looked up, then stored after the work, so concurrent duplicates all execute",
            ),
            Mode::None => Some("deliberately broken: keys are ignored, so every retry charges again"),
            Mode::LocalLock => Some(
                "deliberately broken: keys are claimed under a lock in this process only and the answer written to the store after the work, so duplicates sent to two instances both execute",
            ),
            Mode::Unscoped => Some(
                "deliberately broken: keys are stored by the header value alone, so another caller or another endpoint with the same key gets this answer",
            ),
            Mode::ShortLease => Some(
                "deliberately broken: a claim's lease is half the --work and never renewed, so a retry late in the work charges again",
            ),
            Mode::StickyLock => Some(
                "deliberately broken: an in-flight claim never expires, so after a crash every retry with its key gets 409",
            ),
            Mode::DropsHeaders => Some("deliberately broken: replays drop the Location header"),
            Mode::DeleteOnError => Some(
                "deliberately broken: every payment is committed, then answered 500 and its key record deleted, so every retry charges again",
            ),
            Mode::StickyDecline => Some(
                "deliberately broken: a declined payment is answered again to the same caller's next payments for a minute, so a corrected retry with a new key is blocked",
            ),
            Mode::OrphanTakeover => Some(
                "deliberately broken: a key whose record expired (--ttl) is read, seen expired and executed without a claim, its record written after the work, so duplicates arriving together after expiry all charge",
            ),
        }
    }
}

/// `--lease`: long enough for any payment to finish, short enough that a crashed instance's keys
/// come back soon.
pub(crate) const DEFAULT_LEASE: Duration = Duration::from_secs(30);

#[derive(Debug, Clone)]
pub struct ServeConfig {
    pub addr: SocketAddr,
    pub mode: Mode,
    pub work: Duration,
    pub ttl: Duration,
    /// Where keys and payments live (`--store`).
    pub store: StoreLocation,
    /// How long a claim holds without renewal (`--lease`).
    pub lease: Duration,
    pub require_key: bool,
    /// `--any-path`: a POST to any path creates a payment, as POST /payments does (each path its
    /// own key scope), so a whole API's OpenAPI document can be tried against this server.
    pub any_path: bool,
    /// `--mode-on PATH`: `mode` applies to this endpoint only; the others are correct.
    pub mode_on: Option<String>,
    pub max_body: u64,
    pub tls: bool,
    pub log_format: Format,
    pub palette: Palette,
}

impl ServeConfig {
    /// The defaults of `idem serve`, on a free loopback port: for the demo and tests.
    pub fn local(mode: Mode) -> ServeConfig {
        ServeConfig {
            addr: SocketAddr::from(([127, 0, 0, 1], 0)),
            mode,
            work: Duration::from_millis(50),
            ttl: Duration::from_secs(24 * 3600),
            store: StoreLocation::Memory,
            lease: DEFAULT_LEASE,
            require_key: false,
            any_path: false,
            mode_on: None,
            max_body: 1 << 20,
            tls: false,
            log_format: Format::Human,
            palette: Palette::plain(),
        }
    }
}

/// A server running on the current runtime.
pub struct RunningServer {
    addr: SocketAddr,
    tls: bool,
    state: Arc<AppState>,
    task: ServerTask,
}

impl RunningServer {
    pub fn local_addr(&self) -> SocketAddr {
        self.addr
    }

    /// The URL of `path` on this server.
    pub fn url(&self, path: &str) -> String {
        let scheme = if self.tls { "https" } else { "http" };
        format!("{scheme}://{}{path}", self.addr)
    }

    /// Counts so far. Payments are this instance's own (other instances sharing its store
    /// count theirs; `GET /payments` lists them all).
    pub fn summary(&self) -> ServeTally {
        summary_of(&self.state)
    }

    /// Stops accepting, lets requests in flight finish (up to a few seconds) and returns the counts.
    pub async fn shutdown(self) -> ServeTally {
        let RunningServer { state, task, .. } = self;
        task.stop().await;
        let finishing = Arc::clone(&state);
        let _ = tokio::task::spawn_blocking(move || finishing.log.finish()).await;
        summary_of(&state)
    }
}

fn summary_of(state: &AppState) -> ServeTally {
    let mut summary = state.log.summary();
    // Every created answer is one payment this instance recorded.
    // (--mode delete-on-error records its payment, then fails the request.)
    summary.payments_created =
        (summary.count(RequestOutcome::Created) + summary.count(RequestOutcome::FailedAfterCharge)) as usize;
    summary
}

/// Binds and starts serving. Without `log`, requests are only counted (in-process use).
pub(crate) async fn start(config: &ServeConfig, log: log::RequestLog) -> anyhow::Result<RunningServer> {
    let (listener, addr) = crate::http::server::bind(config.addr).await?;
    let tls = crate::http::tls::acceptor(config.tls)?;
    if config.lease.is_zero() {
        anyhow::bail!("--lease must be longer than 0: a claim that lapses at once protects nothing");
    }
    let shared = store::open(&config.store, config.ttl)
        .await
        .with_context(|| format!("cannot open the store `{}`", config.store))?;
    if config.mode_on.is_some() && config.mode == Mode::LocalLock {
        anyhow::bail!("--mode-on cannot narrow --mode local-lock: its lock wraps the store every endpoint shares");
    }
    if let Some(path) = config.mode_on.as_deref().filter(|path| !path.starts_with('/')) {
        anyhow::bail!("--mode-on `{path}` is not a path; write it like /payments");
    }
    let store = if config.mode == Mode::LocalLock { store::local_lock(shared) } else { shared };
    let state = Arc::new(AppState {
        mode: config.mode,
        mode_on: config.mode_on.as_deref().map(|path| path.trim_end_matches('/').to_string()),
        work: config.work,
        require_key: config.require_key,
        any_path: config.any_path,
        max_body: config.max_body,
        store,
        owners: store::owner::Owners::new(config.lease),
        log,
        declines: Default::default(),
        expired_records: expired_records::ExpiredRecords::new(config.ttl),
    });
    let service_state = Arc::clone(&state);
    let task = ServerTask::spawn(listener, tls, move |_remote| {
        let state = Arc::clone(&service_state);
        service_fn(move |request| handler::handle(Arc::clone(&state), request))
    });
    Ok(RunningServer { addr, tls: config.tls, state, task })
}

/// Starts a quiet in-process server (requests counted, not printed).
pub async fn start_quiet(config: &ServeConfig) -> anyhow::Result<RunningServer> {
    start(config, log::RequestLog::counting()).await
}

/// `idem serve`: serves until Ctrl-C, then prints the summary.
pub(crate) async fn run(config: ServeConfig) -> anyhow::Result<Outcome> {
    let stop = StopSignal::register()?;
    let log = log::RequestLog::printing(config.log_format, config.palette)?;
    let server = start(&config, log).await?;
    let palette = config.palette;
    let banner = Banner {
        url: server.url("/payments"),
        mode: config.mode,
        store: config.store.to_string(),
        lease_ms: crate::units::millis(config.lease),
        work_ms: crate::units::millis(config.work),
        require_key: config.require_key,
        tls: config.tls,
    };
    match config.log_format {
        Format::Human => {
            print_best_effort(&format!(
                "{} {} (mode {}{}, store {}, work {})",
                palette.bold("idem serve listening on"),
                banner.url,
                config.mode.as_str(),
                config.mode_on.as_deref().map(|path| format!(" on {path} only")).unwrap_or_default(),
                banner.store,
                crate::units::format_duration(config.work)
            ));
            if let Some(warning) = config.mode.warning() {
                print_best_effort(&format!("{} {warning}", palette.red("WARNING:")));
            }
            print_best_effort(&palette.dim("Ctrl-C stops the server and prints a summary"));
        }
        Format::Json => {
            print_best_effort(&ServeLine::Listening { server: &banner, warning: config.mode.warning() }.to_json())
        }
    }
    stop.wait().await;
    let summary = server.shutdown().await;
    match config.log_format {
        Format::Human => print_best_effort(&format!("\n{}", summary.render_human(palette))),
        Format::Json => print_best_effort(&ServeLine::Summary { summary: &summary }.to_json()),
    }
    Ok(Outcome::Holds)
}
