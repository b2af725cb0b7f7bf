//! The request options shared by `idem send`, `race`, `window` and `check`.
use std::time::Duration;

use anyhow::Context;
use clap::Args;
use http::Method;
use http::header::{AUTHORIZATION, CONTENT_TYPE, HeaderMap, HeaderName, HeaderValue};

use crate::cli::outbound_proxy::OutboundProxyArgs;
use crate::http::body::{BodySource, looks_like_json};
use crate::http::header::parse_header_line;
use crate::http::outbound_proxy::Proxies;
use crate::http::url::{parse_url, split_credentials};
use crate::idem::key::{KeyFormat, KeyPolicy};
use crate::idem::key_carrier::KeyCarrier;
use crate::idem::request::{DEFAULT_ID_FIELD, DEFAULT_KEY_HEADER, RequestSpec};

#[derive(Debug, Clone, Args)]
pub struct RequestArgs {
    /// The endpoint, e.g. http://127.0.0.1:8080/payments (http:// is assumed when no scheme is given)
    #[arg(required = true)]
    pub url: Option<String>,

    /// HTTP method
    #[arg(short = 'X', long, default_value = "POST", help_heading = "Request")]
    pub method: String,

    /// A request header, 'Name: value' (repeatable)
    #[arg(short = 'H', long = "header", value_name = "HEADER", help_heading = "Request")]
    pub headers: Vec<String>,

    /// The body: DATA, @file, or @- for stdin. JSON bodies get Content-Type: application/json
    #[arg(short = 'd', long = "data", value_name = "DATA", help_heading = "Request")]
    pub data: Option<String>,

    /// The largest body -d reads (it is held in memory to be sent again) (at most 1GiB)
    #[arg(long, default_value = "64MiB", value_parser = crate::cli::bounded_size, value_name = "SIZE", help_heading = "Request")]
    pub max_body: u64,

    /// Use this idempotency key instead of a fresh one (or set IDEM_KEY)
    #[arg(long, conflicts_with = "no_key", help_heading = "Idempotency key")]
    pub key: Option<String>,

    /// The format of generated keys
    #[arg(long, value_enum, default_value_t = KeyFormat::Uuid4, help_heading = "Idempotency key")]
    pub key_format: KeyFormat,

    /// The header that carries the key [default: Idempotency-Key; idem check: the --profile's]
    #[arg(long, value_name = "NAME", help_heading = "Idempotency key")]
    pub key_header: Option<String>,

    /// Where the key goes: header:NAME, body:/json/pointer (a member of the JSON body), query:NAME,
    /// graphql (an @idempotent(key:) directive on the mutation's field) or jsonrpc-meta (the
    /// JSON-RPC request's meta.idempotency_key, as ACP's MCP binding) [default:
    /// header:Idempotency-Key]
    #[arg(long, value_name = "WHERE", conflicts_with = "key_header", help_heading = "Idempotency key")]
    pub key_in: Option<String>,

    /// Send no key at all (a control)
    #[arg(long, help_heading = "Idempotency key")]
    pub no_key: bool,

    /// JSON pointer to the created resource's id in a response body
    #[arg(long, default_value = DEFAULT_ID_FIELD, value_name = "POINTER", help_heading = "Idempotency key")]
    pub id_field: String,

    /// The header naming the created resource when the body has no id [default: Location, then
    /// Content-Location]
    #[arg(long, value_name = "NAME", help_heading = "Idempotency key")]
    pub id_header: Option<String>,

    /// Give up on an answer after this long (at most 1h)
    #[arg(long, default_value = "30s", value_parser = crate::cli::duration_at_most(crate::cli::HOUR), allow_hyphen_values = true,
          value_name = "DUR", help_heading = "Connection")]
    pub timeout: Duration,

    /// Accept any TLS certificate (self-signed, expired, wrong host)
    #[arg(short = 'k', long, help_heading = "Connection")]
    pub insecure: bool,

    /// HTTP/2: prior knowledge on http://, h2 only in ALPN on https://
    #[arg(long, help_heading = "Connection")]
    pub http2: bool,

    /// Send at most this many requests to the target (--count-url reads not counted): the run
    /// stops before the request that would exceed it, with exit status 2
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..), help_heading = "Request")]
    pub max_requests: Option<u64>,

    #[command(flatten)]
    pub proxy: OutboundProxyArgs,
}

const KEY_ENV: &str = "IDEM_KEY";
const KEY_FLAG: &str = "--key";
const KEY_FROM_ENV: &str = "IDEM_KEY (from the environment)";

/// Why `idem race` and `idem window` connect directly.
pub(crate) const DIRECT_ONLY_REASON: &str = "a proxy would serialise the duplicates (it forwards them over its own \
connections, one after another), so the race would test the proxy instead of the API";

impl RequestArgs {
    /// Reads the body, checks every flag and builds the request spec, sent through the proxy that
    /// `--proxy`, `--noproxy` and the environment name.
    pub fn into_spec(self) -> anyhow::Result<RequestSpec> {
        let proxies = self.proxy.resolve()?;
        let mut spec = self.into_direct_spec_unchecked()?;
        spec.proxies = proxies;
        Ok(spec)
    }

    /// The request spec for a command that connects directly (`race`, `window`): `--proxy` is
    /// refused with the reason, and the proxy variables are not read.
    pub fn into_direct_spec(self, command: &str) -> anyhow::Result<RequestSpec> {
        if self.proxy.names_a_proxy() {
            anyhow::bail!(
                "idem {command} connects directly and does not take --proxy: {DIRECT_ONLY_REASON}. Drop --proxy \
                 and run it where the API is reachable without one (HTTPS_PROXY, HTTP_PROXY and ALL_PROXY are \
                 ignored too)"
            );
        }
        self.into_direct_spec_unchecked()
    }

    fn into_direct_spec_unchecked(self) -> anyhow::Result<RequestSpec> {
        let method = Method::from_bytes(self.method.to_ascii_uppercase().as_bytes())
            .with_context(|| format!("`{}` is not an HTTP method", self.method))?;
        // Only `idem check --openapi` goes without a URL (clap requires it everywhere else): each
        // operation's request gets its own.
        let (url, credentials) = match &self.url {
            Some(url) => split_credentials(parse_url(url)?)?,
            None => (http::Uri::default(), None),
        };
        let mut headers = HeaderMap::new();
        for line in &self.headers {
            let (name, value) = parse_header_line(line)?;
            headers.append(name, value);
        }
        // As curl: credentials in the URL are Basic auth, unless -H gives an Authorization.
        if let Some(credentials) = credentials.filter(|_| !headers.contains_key(AUTHORIZATION)) {
            headers.insert(AUTHORIZATION, credentials.authorization()?);
        }
        let body = match &self.data {
            Some(data) => BodySource::parse(data).read_capped(self.max_body, Some("--max-body SIZE"))?,
            None => Vec::new(),
        };
        if self.timeout.is_zero() {
            anyhow::bail!("--timeout must be longer than 0 (it is how long to wait for each answer)");
        }
        if !headers.contains_key(CONTENT_TYPE) && !body.is_empty() {
            // Labelled for what it is, never left untyped: JSON, text, or bytes.
            let content_type = if looks_like_json(&body) {
                "application/json"
            } else if std::str::from_utf8(&body).is_ok() {
                "text/plain; charset=utf-8"
            } else {
                "application/octet-stream"
            };
            headers.insert(CONTENT_TYPE, HeaderValue::from_static(content_type));
        }
        let (key_carrier, header_named) = match &self.key_in {
            Some(text) => KeyCarrier::parse(text)?,
            None => (KeyCarrier::Header, None),
        };
        let (key_header_text, key_header_flag) = match &header_named {
            Some(name) => (name.as_str(), "--key-in header:"),
            None => (self.key_header.as_deref().unwrap_or(DEFAULT_KEY_HEADER), "--key-header"),
        };
        let key_header = HeaderName::from_bytes(key_header_text.as_bytes())
            .with_context(|| format!("`{key_header_text}` is not a valid header name for {key_header_flag}"))?;
        // IDEM_KEY is read here rather than by clap, so errors and notes can say where the key came from.
        let (key, key_named) = match self.key {
            Some(key) => (Some(key), KEY_FLAG),
            None => match std::env::var(KEY_ENV).ok().filter(|_| !self.no_key) {
                Some(key) => (Some(key), KEY_FROM_ENV),
                None => (None, KEY_FLAG),
            },
        };
        let key_policy = match (self.no_key, key) {
            (true, _) => KeyPolicy::Omit,
            (false, Some(key)) => {
                if key.trim().is_empty() {
                    anyhow::bail!("{key_named} is empty; give a key, or drop it for a fresh one per request");
                }
                if key_carrier == KeyCarrier::Header {
                    HeaderValue::from_str(&key).with_context(|| {
                        format!("{key_named} `{}` cannot be sent in a header", crate::output::terminal_safe(&key))
                    })?;
                }
                KeyPolicy::Fixed(key)
            }
            (false, None) => KeyPolicy::Generate(self.key_format),
        };
        if !self.id_field.is_empty() && !self.id_field.starts_with('/') {
            anyhow::bail!("--id-field `{}` is not a JSON pointer; write it like /id or /data/id", self.id_field);
        }
        let id_header = match &self.id_header {
            Some(name) => Some(
                HeaderName::from_bytes(name.as_bytes())
                    .with_context(|| format!("`{name}` is not a valid header name for --id-header"))?,
            ),
            None => None,
        };
        let spec = RequestSpec {
            method,
            url,
            headers,
            body: body.into(),
            key_policy,
            key_header,
            key_carrier,
            timeout: self.timeout,
            insecure: self.insecure,
            http2: self.http2,
            proxies: Proxies::direct(),
            id_field: self.id_field,
            id_header,
            ledgers: Vec::new(),
            require_count: false,
            key_named,
            budget: crate::http::budget::RequestBudget::at_most(self.max_requests),
        };
        // A body or URL that cannot carry the key is refused now, before any request is sent.
        if spec.key_carrier != KeyCarrier::Header && !matches!(spec.key_policy, KeyPolicy::Omit) {
            let sample = spec.key_policy.next_key().unwrap_or_default();
            spec.build(Some(&sample))?;
        }
        Ok(spec)
    }
}
