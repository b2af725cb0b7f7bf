//! The accept loop every server of this crate shares (`idem serve`, `webhook listen`): HTTP/1.1 and
//! h2c on one port (HTTPS with ALPN when given a TLS acceptor), a timeout for clients that never
//! finish their headers, and a graceful stop that lets requests in flight finish.
use std::net::SocketAddr;
use std::time::Duration;

use anyhow::Context;
use http::{Request, Response};
use hyper::body::{Body, Incoming};
use hyper::service::Service;
use hyper_util::rt::{TokioExecutor, TokioIo, TokioTimer};
use hyper_util::server::conn::auto;
use hyper_util::server::graceful::GracefulShutdown;
use tokio::net::TcpListener;
use tokio::sync::oneshot;

type BoxError = Box<dyn std::error::Error + Send + Sync>;

/// How long a stop waits for requests in flight before dropping their connections.
pub const DRAIN_TIMEOUT: Duration = Duration::from_secs(5);

/// How long a client may take to send its request headers. A client that never finishes them
/// only holds its own connection, never the others, and is cut off after this.
const HEADER_READ_TIMEOUT: Duration = Duration::from_secs(30);

/// A server accepting on its own task.
pub struct ServerTask {
    stop: Option<oneshot::Sender<()>>,
    task: tokio::task::JoinHandle<()>,
}

impl ServerTask {
    /// Accepts connections on `listener` until stopped; `make_service` builds the service for each
    /// connection from the client's address.
    pub fn spawn<F, S, B>(listener: TcpListener, tls: Option<tokio_rustls::TlsAcceptor>, make_service: F) -> ServerTask
    where
        F: Fn(SocketAddr) -> S + Send + 'static,
        S: Service<Request<Incoming>, Response = Response<B>> + Send + 'static,
        S::Future: Send + 'static,
        S::Error: Into<BoxError>,
        B: Body + Send + 'static,
        B::Data: Send,
        B::Error: Into<BoxError>,
    {
        let (stop, stopped) = oneshot::channel();
        let task = tokio::spawn(accept_loop(listener, tls, make_service, stopped));
        ServerTask { stop: Some(stop), task }
    }

    /// Stops accepting and waits (up to [`DRAIN_TIMEOUT`]) for the requests in flight.
    pub async fn stop(mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        let _ = (&mut self.task).await;
    }
}

async fn accept_loop<F, S, B>(
    listener: TcpListener,
    tls: Option<tokio_rustls::TlsAcceptor>,
    make_service: F,
    mut stop: oneshot::Receiver<()>,
) where
    F: Fn(SocketAddr) -> S,
    S: Service<Request<Incoming>, Response = Response<B>> + Send + 'static,
    S::Future: Send + 'static,
    S::Error: Into<BoxError>,
    B: Body + Send + 'static,
    B::Data: Send,
    B::Error: Into<BoxError>,
{
    let graceful = GracefulShutdown::new();
    let mut builder = auto::Builder::new(TokioExecutor::new());
    builder.http1().timer(TokioTimer::new()).header_read_timeout(HEADER_READ_TIMEOUT);
    loop {
        let (stream, remote) = tokio::select! {
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
        let service = make_service(remote);
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

/// Ctrl-C (SIGINT), or SIGTERM from a process manager or CI. Registered before the port is
/// bound: a signal sent right after the banner appears must stop the server cleanly, not kill it
/// with the default handler.
pub struct StopSignal {
    #[cfg(unix)]
    interrupt: tokio::signal::unix::Signal,
    #[cfg(unix)]
    terminate: tokio::signal::unix::Signal,
}

impl StopSignal {
    #[cfg(unix)]
    pub fn register() -> anyhow::Result<StopSignal> {
        use tokio::signal::unix::{SignalKind, signal};
        Ok(StopSignal {
            interrupt: signal(SignalKind::interrupt()).context("cannot listen for Ctrl-C")?,
            terminate: signal(SignalKind::terminate()).context("cannot listen for SIGTERM")?,
        })
    }

    #[cfg(not(unix))]
    pub fn register() -> anyhow::Result<StopSignal> {
        Ok(StopSignal {})
    }

    #[cfg(unix)]
    pub async fn wait(mut self) {
        tokio::select! {
            _ = self.interrupt.recv() => {}
            _ = self.terminate.recv() => {}
        }
    }

    #[cfg(not(unix))]
    pub async fn wait(self) {
        // Nothing else to wait for if the handler cannot be installed: stop at once.
        let _ = tokio::signal::ctrl_c().await;
    }
}
