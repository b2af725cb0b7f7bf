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
//! connection took none of is sent again on a new connection, as the pool does. The connection
//! itself is spoken directly ([`H1Connection`]), not through hyper's client.
use std::sync::Mutex;
use std::time::Instant;

use anyhow::anyhow;
use bytes::Bytes;
use http::header::VIA;
use http::{HeaderMap, HeaderValue, Method, Request, Uri};
use tower_service::Service;

use crate::http::client::Exchange;
use crate::http::forwarding_client::{ForwardingClient, describe_chain};
use crate::http::h1_connection::{Answer, ExchangeError, H1Connection};
use crate::http::hop_by_hop::{message_header_fields, message_headers};

/// A request to forward, as the client sent it: on the lane its message headers (the client
/// connection's own left out) and this hop's `Via` go straight onto the wire, with no request
/// built in between; only the pool is given a [`Request`].
pub(crate) struct Forwarded<'a> {
    pub method: &'a Method,
    /// The upstream's absolute URI for it.
    pub uri: Uri,
    /// The headers as the client sent them.
    pub headers: &'a HeaderMap,
    /// This forwarder's `Via` hop, appended.
    pub hop: Option<&'a HeaderValue>,
    pub body: Bytes,
}

impl Forwarded<'_> {
    fn into_request(self) -> anyhow::Result<Request<Bytes>> {
        let mut request = Request::builder().method(self.method.clone()).uri(self.uri).body(self.body)?;
        let headers = request.headers_mut();
        *headers = message_headers(self.headers);
        if let Some(hop) = self.hop {
            headers.append(VIA, hop.clone());
        }
        Ok(request)
    }
}

enum Held {
    /// No connection yet, or the last one ended.
    Empty,
    Idle(H1Connection),
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
    Connection(H1Connection),
    Nothing,
    Busy,
}

impl ForwardingLane {
    pub(crate) fn new(client: ForwardingClient) -> ForwardingLane {
        ForwardingLane { client, held: Mutex::new(Held::Empty) }
    }

    /// Sends `request` and reads the whole answer, within the client's timeout: on the lane when
    /// it is free and the upstream is plain HTTP/1.1, through the pool otherwise.
    pub(crate) async fn send(&self, request: Forwarded<'_>) -> anyhow::Result<Exchange> {
        if !self.client.lanes_apply(&request.uri) {
            return self.client.send(request.into_request()?).await;
        }
        let taken = match self.held.lock() {
            Ok(mut held) => match std::mem::replace(&mut *held, Held::InUse) {
                Held::Idle(connection) => Taken::Connection(connection),
                Held::Empty => Taken::Nothing,
                Held::InUse => Taken::Busy,
            },
            Err(_) => Taken::Busy,
        };
        let existing = match taken {
            Taken::Busy => return self.client.send(request.into_request()?).await,
            Taken::Connection(connection) => Some(connection),
            Taken::Nothing => None,
        };
        // Gives the lane back when this request ends, however it ends (a client that goes away
        // drops this future half-way, and the connection with it).
        let mut giving_back = GiveBack { lane: self, connection: None };
        let started = Instant::now();
        let exchange = tokio::time::timeout(
            self.client.timeout(),
            self.exchange(existing, &request, started, &mut giving_back.connection),
        )
        .await
        .map_err(|_| anyhow!("no complete answer within {}", crate::units::format_duration(self.client.timeout())))
        .and_then(|result| result);
        // Named only when it failed: formatting it for every request was a visible cost.
        anyhow::Context::with_context(exchange, || {
            format!("{} {} failed", request.method, crate::http::url::Redacted(&request.uri))
        })
    }

    /// The exchange on `existing` when it is still open, else on a new connection to the
    /// upstream; a request that a reused connection took none of is sent once more on a new one.
    async fn exchange(
        &self,
        existing: Option<H1Connection>,
        request: &Forwarded<'_>,
        started: Instant,
        kept: &mut Option<H1Connection>,
    ) -> anyhow::Result<Exchange> {
        let mut connection = match existing.filter(H1Connection::still_open) {
            Some(connection) => connection,
            None => self.connect(&request.uri).await?,
        };
        let answer = match send_on(&mut connection, request).await {
            Ok(answer) => answer,
            Err(ExchangeError::Unsent) => {
                connection = self.connect(&request.uri).await?;
                send_on(&mut connection, request).await.map_err(|err| match err {
                    ExchangeError::Unsent => {
                        anyhow!("the upstream closed the connection before the request could be sent")
                    }
                    ExchangeError::Failed(err) => err,
                })?
            }
            Err(ExchangeError::Failed(err)) => return Err(err),
        };
        if answer.reusable {
            *kept = Some(connection);
        }
        Ok(Exchange::answered(answer.parts, answer.body, started))
    }

    async fn connect(&self, uri: &Uri) -> anyhow::Result<H1Connection> {
        // The host and port only: HttpConnector reads nothing else.
        let mut connector = self.client.http_connector();
        let stream = connector.call(uri.clone()).await.map_err(|err| describe_chain(&err, true))?;
        Ok(H1Connection::new(stream.into_inner()))
    }
}

/// Sends `request` on `connection`: its message headers, then this hop's `Via`.
async fn send_on(connection: &mut H1Connection, request: &Forwarded<'_>) -> Result<Answer, ExchangeError> {
    let fields = message_header_fields(request.headers).chain(request.hop.map(|hop| (&VIA, hop)));
    connection.exchange(request.method, &request.uri, fields, &request.body).await
}

/// Puts the connection back into the lane when the request using it ends (or an empty lane when it
/// ended with the request).
struct GiveBack<'a> {
    lane: &'a ForwardingLane,
    connection: Option<H1Connection>,
}

impl Drop for GiveBack<'_> {
    fn drop(&mut self) {
        if let Ok(mut held) = self.lane.held.lock() {
            *held = match self.connection.take() {
                Some(connection) => Held::Idle(connection),
                None => Held::Empty,
            };
        }
    }
}
