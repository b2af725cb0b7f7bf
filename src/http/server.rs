//! The accept loop every server of this crate shares (`idem serve`, `webhook listen`,
//! `idem proxy`): HTTP/1.1 and h2c on one port (HTTPS with ALPN when given a TLS acceptor),
//! timeouts so that clients which say nothing cannot hold connections (and file descriptors) for
//! long, and a graceful stop that lets requests in flight finish.
//!
//! The timeouts: a TLS handshake must finish within `handshake`; a connection with no request
//! being handled (just opened, between keep-alive requests, or trickling a request head) is
//! closed after `idle` (the watch in `connection_watch.rs`); a request body that delivers no bytes
//! for `body_progress` fails (see [`read_body`](crate::http::request_body::read_body)). A failing
//! `accept` (out of file descriptors) is said once per burst, and the loop carries on.
use std::future::Future;
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::Arc;
use std::time::Duration;

use crate::http::connection_watch::{ActiveRequest, Activity, Control, watch_connection};
use crate::http::connection_workers::ConnectionWorkers;
use crate::http::h1_server::{self, Served, ServedBody};
use crate::http::request_body::BODY_PROGRESS_TIMEOUT;
use anyhow::Context;
use bytes::Bytes;
use http::{Request, Response};
use http_body_util::Full;
use hyper::body::{Body, Incoming};
use hyper::service::Service;
use hyper_util::rt::{TokioExecutor, TokioIo};
use hyper_util::server::conn::auto;
use hyper_util::server::graceful::GracefulConnection;
use tokio::net::TcpListener;
use tokio::sync::{oneshot, watch};

/// Binds `addr` and says which address it got (port 0 picks a free one), with the error every server
/// of the crate gives when the port is taken.
pub(crate) async fn bind(addr: SocketAddr) -> anyhow::Result<(TcpListener, SocketAddr)> {
    let listener = TcpListener::bind(addr)
        .await
        .with_context(|| format!("cannot listen on {addr} (pick another --addr, or port 0 for any free one)"))?;
    let bound = listener.local_addr().context("cannot read the bound address")?;
    Ok((listener, bound))
}

type BoxError = Box<dyn std::error::Error + Send + Sync>;

/// How long a stop waits for requests in flight before dropping their connections.
pub(crate) const DRAIN_TIMEOUT: Duration = Duration::from_secs(5);

/// How often running out of descriptors is said while it lasts.
const ACCEPT_WARNING_EVERY: Duration = Duration::from_secs(10);

/// How long clients may take over each stage before their connection is closed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Timeouts {
    /// The TLS handshake, from accepting the connection.
    pub handshake: Duration,
    /// A connection with no request being handled: silent, idle between requests, or still
    /// sending a request head.
    pub idle: Duration,
    /// A request body delivering no bytes (handlers read bodies with
    /// [`read_body_within`](crate::http::request_body::read_body_within)).
    pub body_progress: Duration,
}

impl Default for Timeouts {
    fn default() -> Timeouts {
        Timeouts {
            handshake: Duration::from_secs(10),
            idle: Duration::from_secs(10),
            body_progress: BODY_PROGRESS_TIMEOUT,
        }
    }
}

/// A server accepting on its own task.
pub(crate) struct ServerTask {
    stop: Option<oneshot::Sender<()>>,
    task: tokio::task::JoinHandle<()>,
}

impl ServerTask {
    /// Accepts connections on `listener` until stopped; `make_service` builds the service for each
    /// connection from the client's address.
    pub(crate) fn spawn<F, S, B>(
        listener: TcpListener,
        tls: Option<tokio_rustls::TlsAcceptor>,
        make_service: F,
    ) -> ServerTask
    where
        F: Fn(SocketAddr) -> S + Send + 'static,
        S: Service<Request<Incoming>, Response = Response<B>> + Send + Sync + 'static,
        S::Future: Send + 'static,
        S::Error: Into<BoxError>,
        B: Body + Send + 'static,
        B::Data: Send,
        B::Error: Into<BoxError>,
    {
        ServerTask::spawn_with(listener, tls, Timeouts::default(), None, make_service)
    }

    /// [`spawn`](Self::spawn) with other timeouts and, with `workers`, each connection served on
    /// one of their threads rather than on the runtime that accepts it.
    pub(crate) fn spawn_with<F, S, B>(
        listener: TcpListener,
        tls: Option<tokio_rustls::TlsAcceptor>,
        timeouts: Timeouts,
        workers: Option<ConnectionWorkers>,
        make_service: F,
    ) -> ServerTask
    where
        F: Fn(SocketAddr) -> S + Send + 'static,
        S: Service<Request<Incoming>, Response = Response<B>> + Send + Sync + 'static,
        S::Future: Send + 'static,
        S::Error: Into<BoxError>,
        B: Body + Send + 'static,
        B::Data: Send,
        B::Error: Into<BoxError>,
    {
        ServerTask::spawn_serving(listener, tls, timeouts, workers, make_service, |accepted, stream| {
            Box::pin(accepted.serve(stream))
        })
    }

    /// [`spawn_with`](Self::spawn_with) for a service that takes each request's body whole: plain
    /// HTTP/1.1 connections are served by [`h1_server`], everything else (TLS, HTTP/2, what that
    /// path hands over) by hyper as for the other servers.
    pub(crate) fn spawn_whole_requests<F, S>(
        listener: TcpListener,
        tls: Option<tokio_rustls::TlsAcceptor>,
        timeouts: Timeouts,
        workers: Option<ConnectionWorkers>,
        make_service: F,
    ) -> ServerTask
    where
        F: Fn(SocketAddr) -> S + Send + 'static,
        S: Service<Request<ServedBody>, Response = Response<Full<Bytes>>> + Send + Sync + 'static,
        S::Future: Send + 'static,
        S::Error: Into<BoxError> + Send,
    {
        ServerTask::spawn_serving(listener, tls, timeouts, workers, make_service, |accepted, stream| {
            Box::pin(accepted.serve_whole_requests(stream))
        })
    }

    fn spawn_serving<F, S>(
        listener: TcpListener,
        tls: Option<tokio_rustls::TlsAcceptor>,
        timeouts: Timeouts,
        workers: Option<ConnectionWorkers>,
        make_service: F,
        serve: ServeConnection<S>,
    ) -> ServerTask
    where
        F: Fn(SocketAddr) -> S + Send + 'static,
        S: Send + 'static,
    {
        let (stop, stopped) = oneshot::channel();
        let task = tokio::spawn(accept_loop(listener, tls, timeouts, workers, make_service, serve, stopped));
        ServerTask { stop: Some(stop), task }
    }

    /// Stops accepting and waits (up to [`DRAIN_TIMEOUT`]) for the requests in flight.
    pub(crate) async fn stop(mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        let _ = (&mut self.task).await;
    }
}

/// How an accepted connection is served, to its end.
type ServeConnection<S> = fn(Accepted<S>, tokio::net::TcpStream) -> Pin<Box<dyn Future<Output = ()> + Send>>;

async fn accept_loop<F, S>(
    listener: TcpListener,
    tls: Option<tokio_rustls::TlsAcceptor>,
    timeouts: Timeouts,
    workers: Option<ConnectionWorkers>,
    make_service: F,
    serve: ServeConnection<S>,
    mut stop: oneshot::Receiver<()>,
) where
    F: Fn(SocketAddr) -> S,
    S: Send + 'static,
{
    // Sent once when the server stops; every open connection holds a receiver until it ends, so
    // `closed` says when the last one has.
    let (stopping, _) = watch::channel(());
    // No `header_read_timeout`: the connection's watchdog (`Activity::idle_for`) already closes a
    // connection that has no request in a handler for `idle`, which a head being trickled is, and
    // hyper's own limit armed a timer (and boxed it) for every request.
    let builder = auto::Builder::new(TokioExecutor::new());
    // When accept last failed loudly, and whether it has been said that it works again since.
    let mut last_warned: Option<tokio::time::Instant> = None;
    let mut warned = false;
    loop {
        let (stream, remote) = tokio::select! {
            _ = &mut stop => break,
            accepted = listener.accept() => match accepted {
                Ok(accepted) => accepted,
                Err(err) => {
                    // Out of file descriptors and the like: said once per burst (at most every
                    // ACCEPT_WARNING_EVERY, as a burst frees a descriptor now and then), not per
                    // attempt, and survived by backing off instead of spinning.
                    if last_warned.is_none_or(|at| at.elapsed() >= ACCEPT_WARNING_EVERY) {
                        eprintln!("warning: cannot accept connections: {}", describe_accept_error(&err));
                        last_warned = Some(tokio::time::Instant::now());
                        warned = true;
                    }
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
        };
        if warned {
            eprintln!("note: accepting connections again");
            warned = false;
        }
        let _ = stream.set_nodelay(true);
        let accepted = Accepted {
            service: make_service(remote),
            builder: builder.clone(),
            tls: tls.clone(),
            timeouts,
            open: stopping.subscribe(),
        };
        match &workers {
            None => {
                tokio::spawn(serve(accepted, stream));
            }
            Some(workers) => {
                // The socket moves to the worker's reactor: let go of here, taken up there.
                let Ok(stream) = stream.into_std() else { continue };
                workers.run(async move {
                    if let Ok(stream) = tokio::net::TcpStream::from_std(stream) {
                        serve(accepted, stream).await;
                    }
                });
            }
        }
    }
    drop(listener);
    let _ = stopping.send(());
    let _ = tokio::time::timeout(DRAIN_TIMEOUT, stopping.closed()).await;
}

/// An accepted connection's service and what serving it needs, until it is served on a runtime.
struct Accepted<S> {
    service: S,
    builder: auto::Builder<TokioExecutor>,
    tls: Option<tokio_rustls::TlsAcceptor>,
    timeouts: Timeouts,
    /// Held until the connection ends, so the server's stop can wait for it.
    open: watch::Receiver<()>,
}

impl<S, B> Accepted<S>
where
    S: Service<Request<Incoming>, Response = Response<B>> + Send + Sync + 'static,
    S::Future: Send + 'static,
    S::Error: Into<BoxError>,
    B: Body + Send + 'static,
    B::Data: Send,
    B::Error: Into<BoxError>,
{
    /// Serves the connection to its end, its watchdog beside it on the same runtime.
    async fn serve(self, stream: tokio::net::TcpStream) {
        let Accepted { service, builder, tls, timeouts, open } = self;
        let (activity, controlled) = watch_connection(timeouts.idle, open.clone());
        let service = Tracked { inner: Arc::new(service), activity };
        let _open = open;
        match tls {
            Some(acceptor) => {
                // A failed or stalled handshake only concerns that client.
                let Ok(Ok(stream)) = tokio::time::timeout(timeouts.handshake, acceptor.accept(stream)).await else {
                    return;
                };
                serve(builder.serve_connection(TokioIo::new(stream), service), controlled).await;
            }
            None => serve(builder.serve_connection(TokioIo::new(stream), service), controlled).await,
        }
    }
}

impl<S> Accepted<S>
where
    S: Service<Request<ServedBody>, Response = Response<Full<Bytes>>> + Send + Sync + 'static,
    S::Future: Send + 'static,
    S::Error: Into<BoxError> + Send,
{
    /// Serves a plain connection's requests in [`h1_server`] until one needs hyper, then the
    /// rest of it with hyper; a TLS connection with hyper from the start.
    async fn serve_whole_requests(self, stream: tokio::net::TcpStream) {
        let Accepted { service, builder, tls, timeouts, open } = self;
        if tls.is_some() {
            return Accepted { service: IncomingAs(service), builder, tls, timeouts, open }.serve(stream).await;
        }
        let (activity, controlled) = watch_connection(timeouts.idle, open.clone());
        let _open = open;
        let served = h1_server::serve(stream, &service, &activity, controlled, timeouts.body_progress).await;
        if let Served::HandOver { stream, control } = served {
            let service = Tracked { inner: Arc::new(IncomingAs(service)), activity };
            serve(builder.serve_connection(TokioIo::new(stream), service), control).await;
        }
    }
}

/// A whole-request service as hyper's server calls it, the body read by the service.
struct IncomingAs<S>(S);

impl<S> Service<Request<Incoming>> for IncomingAs<S>
where
    S: Service<Request<ServedBody>>,
{
    type Response = S::Response;
    type Error = S::Error;
    type Future = S::Future;

    fn call(&self, request: Request<Incoming>) -> Self::Future {
        self.0.call(request.map(ServedBody::Streaming))
    }
}

/// Runs a connection until it ends or its watchdog says otherwise. Only the connection and a
/// one-shot receiver are polled when the connection wakes: the timers and the stop signal are the
/// watchdog's, in a task of its own, so a request costs no timer poll (polled here with the
/// connection they cost `webhook listen` ~0.9k instructions a delivery, by callgrind).
async fn serve<C: GracefulConnection>(connection: C, control: oneshot::Receiver<Control>) {
    tokio::pin!(connection);
    let order = tokio::select! {
        biased;
        _ = connection.as_mut() => return,
        order = control => order,
    };
    if let Ok(Control::Stop) = order {
        connection.as_mut().graceful_shutdown();
        let _ = connection.await;
    }
}

fn describe_accept_error(err: &std::io::Error) -> String {
    // EMFILE and ENFILE: the process's or the system's file-descriptor limit.
    if matches!(err.raw_os_error(), Some(23 | 24)) {
        return format!(
            "{err}: every file descriptor is in use; connections are refused until some close (raise the limit with \
             `ulimit -n`)"
        );
    }
    err.to_string()
}

/// The connection's service, counting the requests in its handler.
struct Tracked<S> {
    inner: Arc<S>,
    activity: Arc<Activity>,
}

impl<S, B> Service<Request<Incoming>> for Tracked<S>
where
    S: Service<Request<Incoming>, Response = Response<B>> + Send + Sync + 'static,
    S::Future: Send + 'static,
{
    type Response = Response<B>;
    type Error = S::Error;
    type Future = TrackedFuture<S::Future>;

    fn call(&self, request: Request<Incoming>) -> Self::Future {
        let active = Some(self.activity.begin());
        TrackedFuture { inner: self.inner.call(request), active }
    }
}

pin_project_lite::pin_project! {
    /// A handler's future, its request counted as in a handler until it completes or is dropped.
    /// Not boxed: hyper keeps it inside the connection's future, so it costs a request no
    /// allocation of its own.
    struct TrackedFuture<F> {
        #[pin]
        inner: F,
        active: Option<ActiveRequest>,
    }
}

impl<F: Future> Future for TrackedFuture<F> {
    type Output = F::Output;

    fn poll(self: Pin<&mut Self>, context: &mut std::task::Context<'_>) -> std::task::Poll<F::Output> {
        let this = self.project();
        let output = std::task::ready!(this.inner.poll(context));
        // Out of the handler as soon as it has answered, not when hyper drops the future.
        this.active.take();
        std::task::Poll::Ready(output)
    }
}

/// Ctrl-C (SIGINT), or SIGTERM from a process manager or CI. Registered before the port is
/// bound: a signal sent right after the banner appears must stop the server cleanly, not kill it
/// with the default handler.
pub(crate) struct StopSignal {
    #[cfg(unix)]
    interrupt: tokio::signal::unix::Signal,
    #[cfg(unix)]
    terminate: tokio::signal::unix::Signal,
}

impl StopSignal {
    #[cfg(unix)]
    pub(crate) fn register() -> anyhow::Result<StopSignal> {
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
    pub(crate) async fn wait(mut self) {
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

#[cfg(test)]
mod tests {
    use std::collections::VecDeque;
    use std::convert::Infallible;
    use std::task::{Context, Poll};

    use std::sync::atomic::{AtomicUsize, Ordering};

    use hyper::body::Frame;

    use super::*;
    use crate::http::request_body::read_body;

    /// A body that yields the frames it was given, one per poll.
    struct Frames(VecDeque<Frame<Bytes>>);

    impl Body for Frames {
        type Data = Bytes;
        type Error = Infallible;

        fn poll_frame(mut self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<Option<Result<Frame<Bytes>, Infallible>>> {
            Poll::Ready(self.0.pop_front().map(Ok))
        }
    }

    fn frames(parts: &[&'static [u8]]) -> Frames {
        Frames(parts.iter().map(|part| Frame::data(Bytes::from_static(part))).collect())
    }

    /// How many requests the handler has started and answered.
    #[derive(Default)]
    struct Handled {
        started: AtomicUsize,
        answered: AtomicUsize,
    }

    /// A server whose handler takes `work` to answer `done`.
    async fn slow_server(idle: Duration, work: Duration, handled: Arc<Handled>) -> (ServerTask, SocketAddr) {
        let (listener, addr) = bind(SocketAddr::from(([127, 0, 0, 1], 0))).await.unwrap();
        let timeouts = Timeouts { idle, ..Timeouts::default() };
        let server = ServerTask::spawn_with(listener, None, timeouts, None, move |_| {
            let handled = Arc::clone(&handled);
            hyper::service::service_fn(move |_: Request<Incoming>| {
                let handled = Arc::clone(&handled);
                async move {
                    handled.started.fetch_add(1, Ordering::SeqCst);
                    tokio::time::sleep(work).await;
                    handled.answered.fetch_add(1, Ordering::SeqCst);
                    Ok::<_, Infallible>(Response::new(http_body_util::Full::new(Bytes::from_static(b"done"))))
                }
            })
        });
        (server, addr)
    }

    const REQUEST: &[u8] = b"POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n";

    /// Reads until the answer's body, `done`, has come (or 10 s pass, which fails the test).
    async fn read_answer(stream: &mut tokio::net::TcpStream) -> String {
        use tokio::io::AsyncReadExt;
        let mut text = Vec::new();
        let read = async {
            while !text.ends_with(b"done") {
                let mut chunk = [0; 1024];
                let count = stream.read(&mut chunk).await.unwrap();
                assert!(count > 0, "closed before the answer: {:?}", String::from_utf8_lossy(&text));
                text.extend_from_slice(&chunk[..count]);
            }
        };
        tokio::time::timeout(Duration::from_secs(10), read).await.expect("an answer");
        String::from_utf8_lossy(&text).into_owned()
    }

    /// Reads until the peer closes (or 10 s pass, which fails the test that expected a close).
    async fn read_to_close(stream: &mut tokio::net::TcpStream) -> String {
        use tokio::io::AsyncReadExt;
        let mut text = Vec::new();
        tokio::time::timeout(Duration::from_secs(10), stream.read_to_end(&mut text))
            .await
            .expect("the server closes the connection")
            .unwrap();
        String::from_utf8_lossy(&text).into_owned()
    }

    #[tokio::test]
    async fn a_stop_lets_the_request_in_flight_finish_and_closes_the_idle_connections() {
        use tokio::io::AsyncWriteExt;
        let handled = Arc::new(Handled::default());
        let work = Duration::from_millis(300);
        let (server, addr) = slow_server(Duration::from_secs(30), work, Arc::clone(&handled)).await;
        // A keep-alive connection, idle once answered.
        let mut idle = tokio::net::TcpStream::connect(addr).await.unwrap();
        idle.write_all(REQUEST).await.unwrap();
        assert!(read_answer(&mut idle).await.starts_with("HTTP/1.1 200"));
        let mut busy = tokio::net::TcpStream::connect(addr).await.unwrap();
        busy.write_all(REQUEST).await.unwrap();
        while handled.started.load(Ordering::SeqCst) < 2 {
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
        let stopped = tokio::spawn(server.stop());
        assert_eq!(read_to_close(&mut idle).await, "", "the idle connection is closed, nothing more said");
        let answer = read_to_close(&mut busy).await;
        assert!(answer.starts_with("HTTP/1.1 200") && answer.ends_with("done"), "{answer}");
        stopped.await.unwrap();
        assert_eq!(handled.answered.load(Ordering::SeqCst), 2);
    }

    #[tokio::test]
    async fn a_connection_is_closed_after_the_idle_timeout_but_not_while_a_request_is_handled() {
        use tokio::io::AsyncWriteExt;
        let handled = Arc::new(Handled::default());
        // A handler working three times the idle timeout.
        let (server, addr) =
            slow_server(Duration::from_millis(200), Duration::from_millis(600), Arc::clone(&handled)).await;
        let mut silent = tokio::net::TcpStream::connect(addr).await.unwrap();
        assert_eq!(read_to_close(&mut silent).await, "");
        // The busy connection keeps its request; once answered it is idle and closed in its turn.
        let mut busy = tokio::net::TcpStream::connect(addr).await.unwrap();
        busy.write_all(REQUEST).await.unwrap();
        let answer = read_to_close(&mut busy).await;
        assert!(answer.starts_with("HTTP/1.1 200") && answer.ends_with("done"), "{answer}");
        assert_eq!(handled.answered.load(Ordering::SeqCst), 1);
        server.stop().await;
    }

    #[tokio::test]
    async fn a_body_is_read_whole_in_one_frame_without_a_copy_and_in_several_joined() {
        let single = Bytes::from_static(b"{\"id\":\"evt_1\"}");
        let read = read_body(Frames(VecDeque::from([Frame::data(single.clone())]))).await.unwrap();
        assert_eq!((read.as_ptr(), read.len()), (single.as_ptr(), single.len()), "the frame itself, not a copy");
        assert_eq!(read_body(frames(&[b"ab", b"", b"cd", b"e"])).await.unwrap(), Bytes::from_static(b"abcde"));
        assert_eq!(read_body(frames(&[b"", b"abc"])).await.unwrap(), Bytes::from_static(b"abc"));
        assert_eq!(read_body(frames(&[])).await.unwrap(), Bytes::new());
        let mut with_trailers = frames(&[b"ab", b"c"]);
        with_trailers.0.push_back(Frame::trailers(http::HeaderMap::new()));
        assert_eq!(read_body(with_trailers).await.unwrap(), Bytes::from_static(b"abc"));
    }
}
