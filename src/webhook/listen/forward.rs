//! `--forward-to`: passes a delivery on to the application being developed, byte for byte, and
//! brings its answer back so the sender sees what the application said.
//!
//! The delivery goes to exactly the URL given (the path it arrived on is not appended), with the
//! original method, body and headers, minus the hop-by-hop ones (RFC 9110 §7.6.1), `Host` (the
//! target's own is used) and `Content-Length` (recomputed by the client from the same bytes).
use std::time::{Duration, Instant};

use bytes::Bytes;
use http::header::{CONNECTION, CONTENT_LENGTH, CONTENT_TYPE, HOST};
use http::{HeaderMap, HeaderName, HeaderValue, Method, Request, StatusCode, Uri};

use crate::http::client::{ClientOptions, HttpClient};

/// Headers that describe one connection, not the message, so they are never passed on.
const HOP_BY_HOP: &[&str] = &[
    "connection",
    "keep-alive",
    "proxy-connection",
    "proxy-authenticate",
    "proxy-authorization",
    "te",
    "trailer",
    "transfer-encoding",
    "upgrade",
];

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
        *request.headers_mut() = passed_on(headers);
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

/// The headers to pass on: all of them in order, minus hop-by-hop ones, those the `Connection`
/// header names, `Host` and `Content-Length`.
fn passed_on(headers: &HeaderMap) -> HeaderMap {
    let named_by_connection: Vec<HeaderName> = headers
        .get_all(CONNECTION)
        .iter()
        .filter_map(|value| value.to_str().ok())
        .flat_map(|value| value.split(','))
        .filter_map(|name| HeaderName::from_bytes(name.trim().as_bytes()).ok())
        .collect();
    let mut kept = HeaderMap::with_capacity(headers.len());
    for (name, value) in headers {
        let dropped = HOP_BY_HOP.contains(&name.as_str())
            || name == HOST
            || name == CONTENT_LENGTH
            || named_by_connection.contains(name);
        if !dropped {
            kept.append(name.clone(), value.clone());
        }
    }
    kept
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hop_by_hop_headers_stay_behind() {
        let mut headers = HeaderMap::new();
        for (name, value) in [
            ("host", "127.0.0.1:9000"),
            ("connection", "keep-alive, x-private"),
            ("x-private", "hop"),
            ("transfer-encoding", "chunked"),
            ("content-length", "12"),
            ("stripe-signature", "t=1,v1=ab"),
            ("x-multi", "a"),
            ("x-multi", "b"),
        ] {
            headers.append(HeaderName::from_static(name), HeaderValue::from_static(value));
        }
        let kept = passed_on(&headers);
        let names: Vec<&str> = kept.keys().map(HeaderName::as_str).collect();
        assert_eq!(names, ["stripe-signature", "x-multi"]);
        assert_eq!(kept.get_all("x-multi").iter().count(), 2);
    }
}
