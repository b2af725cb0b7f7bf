//! The plain HTTP client of the client commands (`idem send`, `idem check`, `webhook send`,
//! `replay`, `check`), on reqwest: HTTP/1.1 or HTTP/2, TLS by rustls with ring, through the proxy
//! the user configured, whole responses with their latency.
//!
//! reqwest is set up to hide nothing the verdicts depend on: no automatic decompression (the
//! evidence names the `Content-Encoding`, `content_encoding` decodes it), no redirects followed
//! (a 303 to the created resource is an answer to judge) and no retries of its own (a retried
//! POST is exactly what these tools count).
use std::time::{Duration, Instant};

use anyhow::anyhow;
use bytes::{Bytes, BytesMut};
use http::{HeaderMap, Request, StatusCode, Version};

use crate::http::budget::RequestBudget;
use crate::http::outbound_proxy::Proxies;
use crate::http::tls;

/// Responses larger than this are refused rather than held in memory.
pub(crate) const MAX_RESPONSE_BODY: usize = 64 * 1024 * 1024;

/// How the client connects.
#[derive(Debug, Clone, Copy)]
pub struct ClientOptions {
    pub timeout: Duration,
    pub insecure: bool,
    /// HTTP/2 only: prior knowledge on http://, h2 alone in ALPN on https://.
    pub http2: bool,
}

/// One request and its whole response.
#[derive(Debug, Clone)]
pub struct Exchange {
    pub status: StatusCode,
    pub version: Version,
    pub headers: HeaderMap,
    pub body: Bytes,
    /// From sending the request to the last byte of the response body.
    pub latency: Duration,
}

impl Exchange {
    /// The answer whose head is `parts` and whose whole body is `body`, to a request sent at
    /// `started`.
    pub(crate) fn answered(parts: http::response::Parts, body: Bytes, started: std::time::Instant) -> Exchange {
        Exchange {
            status: parts.status,
            version: parts.version,
            headers: parts.headers,
            body,
            latency: started.elapsed(),
        }
    }
}

#[derive(Clone)]
pub struct HttpClient {
    inner: reqwest::Client,
    timeout: Duration,
    proxies: Proxies,
    /// HTTP/2 with prior knowledge on http:// (`--http2`), for the advice when that fails.
    http2: bool,
    /// `--max-requests`: taken from before each request; unlimited unless `with_budget` set one.
    budget: RequestBudget,
}

impl HttpClient {
    /// A client that connects directly, whatever the proxy variables say (in-process callers,
    /// tests, and the race engine's plain mode).
    pub fn new(options: ClientOptions) -> anyhow::Result<HttpClient> {
        HttpClient::with_proxies(options, Proxies::direct())
    }

    /// A client that goes through `proxies` (resolved from `--proxy`, `--noproxy` and the
    /// environment by the command).
    pub fn with_proxies(options: ClientOptions, proxies: Proxies) -> anyhow::Result<HttpClient> {
        // reqwest leaves a preconfigured rustls config as it is, ALPN included.
        let alpn: &[&[u8]] = if options.http2 { &[tls::ALPN_H2] } else { &[tls::ALPN_H2, tls::ALPN_HTTP11] };
        let tls_config = tls::client_config(options.insecure, alpn)?;
        let mut builder = reqwest::Client::builder()
            .tls_backend_preconfigured(tls_config)
            .redirect(reqwest::redirect::Policy::none())
            .retry(reqwest::retry::never())
            .referer(false)
            .tcp_nodelay(true)
            .connect_timeout(options.timeout);
        if options.http2 {
            builder = builder.http2_prior_knowledge();
        }
        builder = proxies.configure(builder)?;
        let inner = builder.build().map_err(|err| anyhow!("cannot set up the HTTP client: {}", error_chain(&err)))?;
        Ok(HttpClient {
            inner,
            timeout: options.timeout,
            proxies,
            http2: options.http2,
            budget: RequestBudget::unlimited(),
        })
    }

    /// This client, sending only what `budget` allows: a request over it is refused before it
    /// leaves, with a `BudgetExhausted` error.
    pub fn with_budget(mut self, budget: RequestBudget) -> HttpClient {
        self.budget = budget;
        self
    }

    /// Sends `request` and reads the whole response, within the timeout.
    pub async fn send(&self, request: Request<Bytes>) -> anyhow::Result<Exchange> {
        self.send_capped(request, MAX_RESPONSE_BODY).await
    }

    /// `send`, refusing a response body over `limit` bytes as soon as it passes it (read as it
    /// arrives, never held whole).
    pub async fn send_capped(&self, request: Request<Bytes>, limit: usize) -> anyhow::Result<Exchange> {
        // Refused as it is, without the "POST url failed" context: nothing was sent.
        self.budget.take(1)?;
        let target = format!("{} {}", request.method(), crate::http::url::Redacted(request.uri()));
        let proxy = self.proxies.route_for(request.uri()).map(|proxy| {
            format!(
                " through the proxy {} (from {}; bypass it with --noproxy or NO_PROXY)",
                proxy.shown(),
                proxy.source()
            )
        });
        let started = Instant::now();
        let exchange = tokio::time::timeout(self.timeout, self.exchange(request, started, limit))
            .await
            .map_err(|_| anyhow!("no complete answer within {}", crate::units::format_duration(self.timeout)))
            .and_then(|result| result);
        exchange.map_err(|err| err.context(format!("{target} failed{}", proxy.unwrap_or_default())))
    }

    async fn exchange(&self, request: Request<Bytes>, started: Instant, limit: usize) -> anyhow::Result<Exchange> {
        let request = reqwest::Request::try_from(request)
            .map_err(|err| anyhow!("cannot send this request: {}", error_chain(&err)))?;
        let http2 = self.http2 && request.url().scheme() == "http";
        let mut response = self.inner.execute(request).await.map_err(|err| describe_client_error(err, http2))?;
        let status = response.status();
        let version = response.version();
        let headers = std::mem::take(response.headers_mut());
        let mut body = BytesMut::new();
        while let Some(chunk) =
            response.chunk().await.map_err(|err| anyhow!("cannot read the response body: {}", error_chain(&err)))?
        {
            if body.len() + chunk.len() > limit {
                return Err(anyhow!(
                    "it answered with a body over the {} limit",
                    crate::units::format_size(limit as u64)
                ));
            }
            body.extend_from_slice(&chunk);
        }
        Ok(Exchange { status, version, headers, body: body.freeze(), latency: started.elapsed() })
    }
}

/// What a server (an upstream, an API) that answered something unusable did, in its terms, rather than hyper's
/// "invalid HTTP version parsed" (which reads like a failure to connect).
pub(crate) fn describe_bad_answer(err: &hyper::Error) -> Option<String> {
    if err.is_parse_status() {
        Some("it answered with an invalid status (not a three-digit code from 100 to 999)".to_string())
    } else if err.is_parse_too_large() {
        Some("it answered with a response head over hyper's limit of about 400 KiB".to_string())
    } else if err.is_parse() {
        Some(format!("it answered with something that is not HTTP ({err})"))
    } else if err.is_incomplete_message() {
        Some("it closed the connection before a complete answer".to_string())
    } else {
        None
    }
}

/// reqwest's own message repeats the URL ("error sending request for url (…)"), which `send`
/// already names; the useful part is in its sources.
fn describe_client_error(err: reqwest::Error, http2: bool) -> anyhow::Error {
    let mut source: Option<&(dyn std::error::Error + 'static)> = std::error::Error::source(&err);
    while let Some(cause) = source {
        if let Some(described) = cause.downcast_ref::<hyper::Error>().and_then(describe_bad_answer) {
            return anyhow!(described);
        }
        source = cause.source();
    }
    let server = err
        .url()
        .and_then(|url| Some(format!("{}:{}", url.host_str()?, url.port_or_known_default()?)))
        .unwrap_or_default();
    if let Some(described) = crate::http::connect_error::describe(&err, &server, http2) {
        return anyhow!("{described}");
    }
    let message = error_chain(&err);
    if err.is_connect() { anyhow!("cannot connect: {message}") } else { anyhow!("{message}") }
}

/// The sources of `err` joined with ": ", or `err` itself when it has none. hyper-util's link says
/// only "client error (Connect)" and is left out.
fn error_chain(err: &(dyn std::error::Error + 'static)) -> String {
    let mut message = String::new();
    let mut source = err.source();
    while let Some(cause) = source {
        source = cause.source();
        if cause.is::<hyper_util::client::legacy::Error>() && source.is_some() {
            continue;
        }
        if !message.is_empty() {
            message.push_str(": ");
        }
        message.push_str(&cause.to_string());
    }
    if message.is_empty() { err.to_string() } else { message }
}
