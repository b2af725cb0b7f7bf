//! `idem serve`: a reference payments API that handles `Idempotency-Key` correctly, or broken on
//! purpose, over HTTP/1.1 and h2c on one port (and HTTPS with ALPN h2 under `--tls`).
mod handler;
mod key;
mod log;
mod payments;
mod store;

pub use handler::{KEY_HEADER, REPLAYED_HEADER};
pub use log::{RequestOutcome, Summary};

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use anyhow::Context;
use hyper::service::service_fn;
use hyper_util::rt::{TokioExecutor, TokioIo, TokioTimer};
use hyper_util::server::conn::auto;
use hyper_util::server::graceful::GracefulShutdown;
use tokio::net::TcpListener;
use tokio::sync::oneshot;

use crate::exit::Outcome;
use crate::output::{Format, Palette};
use handler::AppState;

/// How the server handles idempotency keys.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Mode {
    /// Claims each key atomically: 409 while in flight, 422 for another body, replays afterwards
    #[default]
    Correct,
    /// DELIBERATELY BROKEN: looks the key up, does the work, then stores it, so concurrent duplicates all execute
    Naive,
    /// DELIBERATELY BROKEN: ignores keys, so every retry executes again
    None,
}

impl Mode {
    pub fn as_str(self) -> &'static str {
        match self {
            Mode::Correct => "correct",
            Mode::Naive => "naive",
            Mode::None => "none",
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
        }
    }
}

#[derive(Debug, Clone)]
pub struct ServeConfig {
    pub addr: SocketAddr,
    pub mode: Mode,
    pub work: Duration,
    pub ttl: Duration,
    pub require_key: bool,
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
            require_key: false,
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
    stop: Option<oneshot::Sender<()>>,
    accept_loop: tokio::task::JoinHandle<()>,
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

    /// Counts so far.
    pub fn summary(&self) -> Summary {
        let mut summary = self.state.log.summary();
        summary.payments_created = self.state.ledger.count();
        summary
    }

    /// Stops accepting, lets requests in flight finish (up to a few seconds) and returns the counts.
    pub async fn shutdown(mut self) -> Summary {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        let _ = (&mut self.accept_loop).await;
        self.summary()
    }
}

/// How long shutdown waits for requests in flight.
const DRAIN_TIMEOUT: Duration = Duration::from_secs(5);

/// Binds and starts serving. Without `log`, requests are only counted (in-process use).
pub async fn start(config: &ServeConfig, log: log::RequestLog) -> anyhow::Result<RunningServer> {
    let listener = TcpListener::bind(config.addr).await.with_context(|| format!("cannot listen on {}", config.addr))?;
    let addr = listener.local_addr().context("cannot read the bound address")?;
    let tls = if config.tls {
        let (server_config, _) = crate::http::tls::self_signed_server_config()?;
        Some(tokio_rustls::TlsAcceptor::from(Arc::new(server_config)))
    } else {
        None
    };
    let state = Arc::new(AppState {
        mode: config.mode,
        work: config.work,
        require_key: config.require_key,
        max_body: config.max_body,
        keys: store::KeyStore::new(config.ttl),
        ledger: payments::Ledger::default(),
        log,
    });
    let (stop_sender, stop) = oneshot::channel();
    let accept_loop = tokio::spawn(accept_loop(listener, tls, Arc::clone(&state), stop));
    Ok(RunningServer { addr, tls: config.tls, state, stop: Some(stop_sender), accept_loop })
}

async fn accept_loop(
    listener: TcpListener,
    tls: Option<tokio_rustls::TlsAcceptor>,
    state: Arc<AppState>,
    mut stop: oneshot::Receiver<()>,
) {
    let graceful = GracefulShutdown::new();
    let mut builder = auto::Builder::new(TokioExecutor::new());
    // A client that never finishes its headers must not hold a connection forever.
    builder.http1().timer(TokioTimer::new()).header_read_timeout(Duration::from_secs(30));
    loop {
        let (stream, _) = tokio::select! {
            _ = &mut stop => break,
            accepted = listener.accept() => match accepted {
                Ok(accepted) => accepted,
                Err(_) => {
                    // Out of file descriptors and the like: back off instead of spinning.
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
        };
        let _ = stream.set_nodelay(true);
        let service_state = Arc::clone(&state);
        let service = service_fn(move |request| handler::handle(Arc::clone(&service_state), request));
        let builder = builder.clone();
        let watcher = graceful.watcher();
        let tls = tls.clone();
        tokio::spawn(async move {
            match tls {
                Some(acceptor) => {
                    // A failed handshake only concerns that client.
                    if let Ok(stream) = acceptor.accept(stream).await {
                        let connection = builder.serve_connection(TokioIo::new(stream), service);
                        let _ = watcher.watch(connection.into_owned()).await;
                    }
                }
                None => {
                    let connection = builder.serve_connection(TokioIo::new(stream), service);
                    let _ = watcher.watch(connection.into_owned()).await;
                }
            }
        });
    }
    drop(listener);
    let _ = tokio::time::timeout(DRAIN_TIMEOUT, graceful.shutdown()).await;
}

/// Starts a quiet in-process server (requests counted, not printed).
pub async fn start_quiet(config: &ServeConfig) -> anyhow::Result<RunningServer> {
    start(config, log::RequestLog::counting()).await
}

/// `idem serve`: serves until Ctrl-C, then prints the summary.
pub async fn run(config: ServeConfig) -> anyhow::Result<Outcome> {
    let (log, writer) = log::RequestLog::printing(config.log_format, config.palette);
    let server = start(&config, log).await?;
    let palette = config.palette;
    let banner = Banner {
        url: server.url("/payments"),
        mode: config.mode,
        work_ms: crate::units::millis(config.work),
        require_key: config.require_key,
        tls: config.tls,
    };
    match config.log_format {
        Format::Human => {
            println!(
                "{} {} (mode {}, work {})",
                palette.bold("idem serve listening on"),
                banner.url,
                config.mode.as_str(),
                crate::units::format_duration(config.work)
            );
            if let Some(warning) = config.mode.warning() {
                println!("{} {warning}", palette.red("WARNING:"));
            }
            println!("{}", palette.dim("Ctrl-C stops the server and prints a summary"));
        }
        Format::Json => println!(
            "{}",
            serde_json::json!({ "event": "listening", "server": banner, "warning": config.mode.warning() })
        ),
    }
    tokio::signal::ctrl_c().await.context("cannot wait for Ctrl-C")?;
    let summary = server.shutdown().await;
    // The server's request log is dropped with the server state once every connection is done;
    // wait for the writer to print what it holds before the summary.
    let _ = tokio::time::timeout(Duration::from_secs(2), writer).await;
    match config.log_format {
        Format::Human => println!("\n{}", summary.render_human(palette)),
        Format::Json => println!("{}", serde_json::json!({ "event": "summary", "summary": summary })),
    }
    Ok(Outcome::Holds)
}

#[derive(serde::Serialize)]
struct Banner {
    url: String,
    mode: Mode,
    work_ms: f64,
    require_key: bool,
    tls: bool,
}
