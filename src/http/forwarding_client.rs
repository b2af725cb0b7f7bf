//! The client of the two forwarders (`idem proxy`'s and `webhook listen --forward-to`'s upstream
//! calls), on hyper-util rather than reqwest because a forwarder must pass headers on unchanged and
//! add none, and reqwest adds `Accept: */*` to every request that has none (proven by
//! `behind_proxy::forwarders_add_no_headers_of_their_own` in tests/it, which fails on reqwest).
//! It always connects directly: a forwarder's upstream is the application on this machine.
use std::time::{Duration, Instant};

use anyhow::{Context, anyhow};
use bytes::Bytes;
use http::Request;
use http_body_util::{BodyExt, Full, Limited};
use hyper::body::Incoming;
use hyper_rustls::HttpsConnector;
use hyper_util::client::legacy::Client;
use hyper_util::client::legacy::connect::HttpConnector;
use hyper_util::rt::TokioExecutor;

use crate::http::client::{ClientOptions, Exchange, MAX_RESPONSE_BODY};
use crate::http::tls;

/// Sends requests exactly as given (plus `Host` when missing, and the body's length).
#[derive(Clone)]
pub(crate) struct ForwardingClient {
    inner: Client<HttpsConnector<HttpConnector>, Full<Bytes>>,
    /// The plain-TCP connector under `inner`, for a lane's own connections.
    http: HttpConnector,
    http2_only: bool,
    timeout: Duration,
}

impl ForwardingClient {
    pub(crate) fn new(options: ClientOptions) -> anyhow::Result<ForwardingClient> {
        // hyper-rustls fills in ALPN itself from the versions enabled below.
        let tls_config = tls::client_config(options.insecure, &[])?;
        let mut http = HttpConnector::new();
        http.enforce_http(false);
        http.set_nodelay(true);
        http.set_connect_timeout(Some(options.timeout));
        let builder = hyper_rustls::HttpsConnectorBuilder::new().with_tls_config(tls_config).https_or_http();
        let connector = if options.http2 {
            builder.enable_http2().wrap_connector(http.clone())
        } else {
            builder.enable_http1().enable_http2().wrap_connector(http.clone())
        };
        let inner = Client::builder(TokioExecutor::new()).http2_only(options.http2).build(connector);
        Ok(ForwardingClient { inner, http, http2_only: options.http2, timeout: options.timeout })
    }

    pub(crate) fn timeout(&self) -> Duration {
        self.timeout
    }

    /// A connector for plain TCP with this client's settings (connect timeout, no Nagle).
    pub(crate) fn http_connector(&self) -> HttpConnector {
        self.http.clone()
    }

    /// Whether a request to `uri` may go over a client connection's own upstream connection rather
    /// than the pool: plain HTTP/1.1 only, as TLS and HTTP/2 negotiation stay the pool's.
    pub(crate) fn lanes_apply(&self, uri: &http::Uri) -> bool {
        !self.http2_only && uri.scheme_str() == Some("http")
    }

    /// Sends `request` and reads the whole response (up to [`MAX_RESPONSE_BODY`]), within the
    /// timeout.
    pub(crate) async fn send(&self, request: Request<Bytes>) -> anyhow::Result<Exchange> {
        self.send_reading(request, collect_within_limit).await
    }

    /// Sends `request` and reads the response body with `read_body`, all within the timeout: for
    /// a caller that holds answers to a tighter bound than [`MAX_RESPONSE_BODY`] (a gateway that
    /// keeps many at once).
    pub(crate) async fn send_reading<F, Fut>(&self, request: Request<Bytes>, read_body: F) -> anyhow::Result<Exchange>
    where
        F: FnOnce(Incoming) -> Fut,
        Fut: Future<Output = anyhow::Result<Bytes>>,
    {
        let method = request.method().clone();
        let uri = request.uri().clone();
        let started = Instant::now();
        let exchange = tokio::time::timeout(self.timeout, self.exchange(request, started, read_body))
            .await
            .map_err(|_| anyhow!("no complete answer within {}", crate::units::format_duration(self.timeout)))
            .and_then(|result| result);
        // Named only when it failed: a forwarder sends many, and formatting each was a visible cost.
        exchange.with_context(|| format!("{method} {} failed", crate::http::url::Redacted(&uri)))
    }

    async fn exchange<F, Fut>(
        &self,
        request: Request<Bytes>,
        started: Instant,
        read_body: F,
    ) -> anyhow::Result<Exchange>
    where
        F: FnOnce(Incoming) -> Fut,
        Fut: Future<Output = anyhow::Result<Bytes>>,
    {
        let request = request.map(Full::new);
        let response = self.inner.request(request).await.map_err(describe_client_error)?;
        let (parts, body) = response.into_parts();
        let body = read_body(body).await?;
        Ok(Exchange::answered(parts, body, started))
    }
}

/// The whole body, refused past [`MAX_RESPONSE_BODY`].
async fn collect_within_limit(body: Incoming) -> anyhow::Result<Bytes> {
    Ok(Limited::new(body, MAX_RESPONSE_BODY)
        .collect()
        .await
        .map_err(|err| {
            if err.downcast_ref::<http_body_util::LengthLimitError>().is_some() {
                anyhow!(
                    "it answered with a body over the {} limit",
                    crate::http::body::format_size(MAX_RESPONSE_BODY as u64)
                )
            } else {
                anyhow!("cannot read the response body: {err}")
            }
        })?
        .to_bytes())
}

/// hyper-util's error says only "client error (Connect)"; the useful part is in its sources.
fn describe_client_error(err: hyper_util::client::legacy::Error) -> anyhow::Error {
    match std::error::Error::source(&err) {
        Some(cause) => describe_chain(cause, err.is_connect()),
        None => anyhow!("{err}"),
    }
}

/// What went wrong, from an error and its sources: a bad answer or a failed connection in the
/// user's terms where it is one, else every message of the chain; `connecting` when it happened
/// while connecting.
pub(crate) fn describe_chain(err: &(dyn std::error::Error + 'static), connecting: bool) -> anyhow::Error {
    let mut source = Some(err);
    while let Some(cause) = source {
        if let Some(described) = cause.downcast_ref::<hyper::Error>().and_then(crate::http::client::describe_bad_answer)
        {
            return anyhow!(described);
        }
        source = cause.source();
    }
    if let Some(described) = crate::http::connect_error::describe(err, "", false) {
        return anyhow!("{described}");
    }
    let mut message = err.to_string();
    let mut source = err.source();
    while let Some(cause) = source {
        message.push_str(": ");
        message.push_str(&cause.to_string());
        source = cause.source();
    }
    if connecting { anyhow!("cannot connect: {message}") } else { anyhow!("{message}") }
}
