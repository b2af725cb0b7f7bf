//! The forward goes through `ForwardingClient` (hyper-util), not reqwest, because the delivery's
//! headers must reach the application unchanged with nothing added but `Via`, and reqwest adds
//! `Accept: */*`: the test `behind_proxy::forwarders_add_no_headers_of_their_own` proves it.
//!
//! `--forward-to`: passes a delivery on to the application being developed, byte for byte, and
//! brings its answer back so the sender sees what the application said.
//!
//! The delivery goes to exactly the URL given (the path it arrived on is not appended), with the
//! original method, body and headers, minus the hop-by-hop ones (RFC 9110 §7.6.1), `Host` (the
//! target's own is used) and `Content-Length` (recomputed by the client from the same bytes).
//!
//! Each forward adds this listener's name to `Via` (RFC 9110 §7.6.3), so a delivery that comes
//! back (a target that leads to the listener again, directly or through other listeners) is
//! refused instead of multiplying; a target that is the listener's own address is refused at
//! start-up.
use std::time::{Duration, Instant};

use bytes::Bytes;
use std::net::SocketAddr;

use anyhow::bail;
use http::header::CONTENT_TYPE;
use http::{HeaderMap, HeaderValue, Method, Request, StatusCode, Uri};

use crate::http::client::ClientOptions;
use crate::http::forwarding_client::ForwardingClient;
use crate::http::forwarding_loop;
use crate::http::hop_by_hop::message_headers;

pub(super) struct Forwarder {
    client: ForwardingClient,
    target: Uri,
}

/// What the target made of a delivery.
#[derive(Debug, Clone)]
pub(super) enum Forwarded {
    Answered {
        status: StatusCode,
        content_type: Option<HeaderValue>,
        body: Bytes,
        latency: Duration,
    },
    /// The target could not be reached or did not answer in time.
    Failed {
        error: String,
        latency: Duration,
    },
}

impl Forwarded {
    pub(super) fn latency(&self) -> Duration {
        match self {
            Forwarded::Answered { latency, .. } | Forwarded::Failed { latency, .. } => *latency,
        }
    }
}

impl Forwarder {
    pub(super) fn new(target: Uri, timeout: Duration) -> anyhow::Result<Forwarder> {
        let client = ForwardingClient::new(ClientOptions { timeout, insecure: false, http2: false })?;
        Ok(Forwarder { client, target })
    }

    pub(super) fn target(&self) -> &Uri {
        &self.target
    }

    pub(super) async fn forward(&self, method: &Method, headers: &HeaderMap, body: Bytes, via: &str) -> Forwarded {
        let started = Instant::now();
        let mut request = Request::new(body);
        *request.method_mut() = method.clone();
        *request.uri_mut() = self.target.clone();
        *request.headers_mut() = message_headers(headers);
        forwarding_loop::add_hop(request.headers_mut(), via);
        match self.client.send(request).await {
            Ok(exchange) => Forwarded::Answered {
                status: exchange.status,
                content_type: exchange.headers.get(CONTENT_TYPE).cloned(),
                body: exchange.body,
                latency: started.elapsed(),
            },
            Err(err) => Forwarded::Failed { error: format!("{err:#}"), latency: started.elapsed() },
        }
    }
}

/// Refuses a forward target that is this listener itself: every delivery would come straight
/// back and be forwarded again.
pub(super) async fn refuse_self(target: &Uri, own: SocketAddr) -> anyhow::Result<()> {
    if forwarding_loop::is_own_address(target, own).await {
        bail!(
            "--forward-to {} is this listener's own address ({own}): every delivery would be forwarded to \
             itself, again and again; forward to the application's port instead",
            crate::http::url::Redacted(target)
        );
    }
    Ok(())
}
