//! One upstream connection kept for one inbound connection of a forwarder, and driven by the task
//! that serves it: the request read from the client, written upstream, the answer read back and
//! written to the client all happen in one task, on one thread, with no hand-over.
//!
//! Why: through the pooled [`ForwardingClient`] each request crossed two tasks (the serving
//! connection's and the upstream connection's, woken through channels, often on the other worker
//! thread) and a pool's lock. On a small host that hand-over, not the judging, was what kept
//! `idem proxy` well below nginx, which serves a connection and its upstream in one event loop the
//! same way. `cargo bench --bench proxy` measures it.
//!
//! A lane is used by one request at a time: an HTTP/1.1 client sends its requests one after
//! another, so its lane always serves it. A request that finds the lane busy (concurrent streams of
//! an HTTP/2 client) goes through the pool, as does everything to an `https://` upstream or over
//! HTTP/2 (TLS and ALPN stay the pool's). An upstream that closed the lane's connection while it
//! was idle is noticed before the next request, which then opens a new one; a request the
//! connection refused before writing it is sent again on a new connection, as the pool does.
use std::future::Future;
use std::pin::Pin;
use std::sync::Mutex;
use std::task::{Context, Poll};
use std::time::Instant;

use anyhow::anyhow;
use bytes::Bytes;
use http::header::HOST;
use http::{HeaderValue, Request, Uri};
use http_body_util::Full;
use hyper::client::conn::http1;
use hyper_util::rt::TokioIo;
use tokio::net::TcpStream;
use tower_service::Service;

use crate::http::client::Exchange;
use crate::http::forwarding_client::{ForwardingClient, collect_within_limit, describe_chain};

type Sender = http1::SendRequest<Full<Bytes>>;
type Driver = http1::Connection<TokioIo<TcpStream>, Full<Bytes>>;

/// An open HTTP/1.1 connection to the upstream: the handle requests are sent through, and the
/// connection itself, which only moves when polled.
struct Upstream {
    sender: Sender,
    /// `None` once the connection has ended.
    driver: Option<Driver>,
}

enum Held {
    /// No connection yet, or the last one ended.
    Empty,
    /// Boxed: hyper's connection state is some 700 bytes, moved in and out for each request.
    Idle(Box<Upstream>),
    /// A request is using the connection.
    InUse,
}

/// The upstream connection of one inbound connection (see the module's notes).
pub(crate) struct ForwardingLane {
    client: ForwardingClient,
    held: Mutex<Held>,
}

/// What a request found in the lane.
enum Taken {
    Connection(Box<Upstream>),
    Nothing,
    Busy,
}

impl ForwardingLane {
    pub(crate) fn new(client: ForwardingClient) -> ForwardingLane {
        ForwardingLane { client, held: Mutex::new(Held::Empty) }
    }

    /// Sends `request` (with an absolute URI) and reads the whole answer, within the client's
    /// timeout: on the lane when it is free and the upstream is plain HTTP/1.1, through the pool
    /// otherwise.
    pub(crate) async fn send(&self, request: Request<Bytes>) -> anyhow::Result<Exchange> {
        if !self.client.lanes_apply(request.uri()) {
            return self.client.send(request).await;
        }
        let taken = match self.held.lock() {
            Ok(mut held) => match std::mem::replace(&mut *held, Held::InUse) {
                Held::Idle(upstream) => Taken::Connection(upstream),
                Held::Empty => Taken::Nothing,
                Held::InUse => Taken::Busy,
            },
            Err(_) => Taken::Busy,
        };
        let existing = match taken {
            Taken::Busy => return self.client.send(request).await,
            Taken::Connection(upstream) => Some(upstream),
            Taken::Nothing => None,
        };
        // Gives the lane back when this request ends, however it ends (a client that goes away
        // drops this future half-way, and the connection with it).
        let mut giving_back = GiveBack { lane: self, upstream: None };
        let started = Instant::now();
        let method = request.method().clone();
        let upstream_uri = request.uri().clone();
        let exchange = tokio::time::timeout(
            self.client.timeout(),
            self.exchange(existing, &upstream_uri, prepared(request), started, &mut giving_back.upstream),
        )
        .await
        .map_err(|_| anyhow!("no complete answer within {}", crate::units::format_duration(self.client.timeout())))
        .and_then(|result| result);
        // Named only when it failed: formatting it for every request was a visible cost.
        anyhow::Context::with_context(exchange, || {
            format!("{method} {} failed", crate::http::url::Redacted(&upstream_uri))
        })
    }

    /// The exchange on `existing` when it is still open, else on a new connection to
    /// `upstream_uri`; a request that a reused connection refused before writing it is sent once
    /// more on a new one.
    async fn exchange(
        &self,
        existing: Option<Box<Upstream>>,
        upstream_uri: &Uri,
        request: Request<Full<Bytes>>,
        started: Instant,
        kept: &mut Option<Box<Upstream>>,
    ) -> anyhow::Result<Exchange> {
        let mut upstream = match existing.and_then(still_open) {
            Some(upstream) => upstream,
            None => self.connect(upstream_uri).await?,
        };
        let (parts, body) = match exchange_on(&mut upstream, request).await {
            Ok(answer) => answer,
            Err(Refused::Unsent(request)) => {
                upstream = self.connect(upstream_uri).await?;
                exchange_on(&mut upstream, *request).await.map_err(Refused::into_error)?
            }
            Err(refused) => return Err(refused.into_error()),
        };
        if upstream.driver.is_some() && !upstream.sender.is_closed() {
            *kept = Some(upstream);
        }
        Ok(Exchange::answered(parts, body, started))
    }

    async fn connect(&self, uri: &Uri) -> anyhow::Result<Box<Upstream>> {
        // The host and port only: HttpConnector reads nothing else.
        let mut connector = self.client.http_connector();
        let stream = connector.call(uri.clone()).await.map_err(|err| describe_chain(&err, true))?;
        let (sender, driver) = http1::handshake(stream).await.map_err(|err| describe_chain(&err, true))?;
        Ok(Box::new(Upstream { sender, driver: Some(driver) }))
    }
}

/// Puts the connection back into the lane when the request using it ends (or an empty lane when it
/// ended with the request).
struct GiveBack<'a> {
    lane: &'a ForwardingLane,
    upstream: Option<Box<Upstream>>,
}

impl Drop for GiveBack<'_> {
    fn drop(&mut self) {
        if let Ok(mut held) = self.lane.held.lock() {
            *held = match self.upstream.take() {
                Some(upstream) => Held::Idle(upstream),
                None => Held::Empty,
            };
        }
    }
}

/// The request as an HTTP/1.1 connection sends it: origin-form, with `Host` from the URI when the
/// client sent none (what the pool does).
fn prepared(request: Request<Bytes>) -> Request<Full<Bytes>> {
    let (mut parts, body) = request.into_parts();
    if !parts.headers.contains_key(HOST)
        && let Some(host) = host_of(&parts.uri)
    {
        parts.headers.insert(HOST, host);
    }
    let mut origin_form = http::uri::Parts::default();
    origin_form.path_and_query =
        Some(parts.uri.path_and_query().cloned().unwrap_or_else(|| http::uri::PathAndQuery::from_static("/")));
    if let Ok(uri) = Uri::from_parts(origin_form) {
        parts.uri = uri;
    }
    Request::from_parts(parts, Full::new(body))
}

/// `host[:port]`, the port left out when it is the scheme's default.
fn host_of(uri: &Uri) -> Option<HeaderValue> {
    let host = uri.host()?;
    let default_port = if uri.scheme_str() == Some("https") { 443 } else { 80 };
    let value = match uri.port_u16() {
        Some(port) if port != default_port => format!("{host}:{port}"),
        _ => host.to_string(),
    };
    HeaderValue::from_str(&value).ok()
}

/// The connection, if it has not ended while idle: the upstream may have closed it since the last
/// request, which only polling the connection notices.
fn still_open(mut upstream: Box<Upstream>) -> Option<Box<Upstream>> {
    let driver = upstream.driver.as_mut()?;
    let waker = std::task::Waker::noop();
    if Pin::new(driver).poll(&mut Context::from_waker(waker)).is_ready() {
        return None;
    }
    (!upstream.sender.is_closed() && upstream.sender.is_ready()).then_some(upstream)
}

/// Why an exchange on a connection failed.
enum Refused {
    /// The connection refused the request before writing any of it: it can go out on another.
    Unsent(Box<Request<Full<Bytes>>>),
    Failed(anyhow::Error),
}

impl Refused {
    fn into_error(self) -> anyhow::Error {
        match self {
            Refused::Unsent(_) => anyhow!("the upstream closed the connection before the request could be sent"),
            Refused::Failed(err) => err,
        }
    }
}

/// Sends the request on `upstream` and reads the whole answer, driving the connection meanwhile.
async fn exchange_on(
    upstream: &mut Upstream,
    request: Request<Full<Bytes>>,
) -> Result<(http::response::Parts, Bytes), Refused> {
    let Upstream { sender, driver } = upstream;
    let answer = async {
        let response = sender.try_send_request(request).await.map_err(|mut err| match err.take_message() {
            Some(request) => Refused::Unsent(Box::new(request)),
            None => Refused::Failed(describe_chain(err.error(), false)),
        })?;
        let (parts, body) = response.into_parts();
        let body = collect_within_limit(body).await.map_err(Refused::Failed)?;
        Ok((parts, body))
    };
    Driven { work: std::pin::pin!(answer), driver }.await
}

/// Polls `work` and, beside it, the connection it needs moving; once the connection ends (the
/// upstream closed it), `work` alone, which then finishes with what had arrived or fails.
struct Driven<'a, W> {
    work: Pin<&'a mut W>,
    driver: &'a mut Option<Driver>,
}

impl<W: Future> Future for Driven<'_, W> {
    type Output = W::Output;

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<W::Output> {
        loop {
            if let Poll::Ready(output) = self.work.as_mut().poll(cx) {
                return Poll::Ready(output);
            }
            let Some(driver) = self.driver.as_mut() else { return Poll::Pending };
            match Pin::new(driver).poll(cx) {
                Poll::Pending => return Poll::Pending,
                // Ended: dropped, which fails whatever `work` still waits for, and `work` is
                // polled once more to see it.
                Poll::Ready(_) => *self.driver = None,
            }
        }
    }
}
