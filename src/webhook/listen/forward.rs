//! `--forward-to`: passes a delivery on to the application being developed, byte for byte, and
//! brings its answer back so the sender sees what the application said.
//!
//! The delivery goes to exactly the URL given (the path it arrived on is not appended), with the
//! original method, body and headers, minus the hop-by-hop ones (RFC 9110 §7.6.1), `Host` (the
//! target's own is used) and `Content-Length` (recomputed by the client from the same bytes).
use std::time::{Duration, Instant};

use bytes::Bytes;
use http::header::CONTENT_TYPE;
use http::{HeaderMap, HeaderValue, Method, Request, StatusCode, Uri};

use crate::http::client::{ClientOptions, HttpClient};
use crate::http::hop_by_hop::message_headers;

pub struct Forwarder {
    client: HttpClient,
    target: Uri,
}

/// What the target made of a delivery.
#[derive(Debug, Clone)]
pub enum Forwarded {
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
    pub fn latency(&self) -> Duration {
        match self {
            Forwarded::Answered { latency, .. } | Forwarded::Failed { latency, .. } => *latency,
        }
    }
}

impl Forwarder {
    pub fn new(target: Uri, timeout: Duration) -> anyhow::Result<Forwarder> {
        let client = HttpClient::new(ClientOptions { timeout, insecure: false, http2: false })?;
        Ok(Forwarder { client, target })
    }

    pub fn target(&self) -> &Uri {
        &self.target
    }

    pub async fn forward(&self, method: &Method, headers: &HeaderMap, body: Bytes) -> Forwarded {
        let started = Instant::now();
        let mut request = Request::new(body);
        *request.method_mut() = method.clone();
        *request.uri_mut() = self.target.clone();
        *request.headers_mut() = message_headers(headers);
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
