//! The request spec shared by `idem send`, `race` and `check`: what to send, before any key is
//! chosen, so every logical request can get its own key.
use std::time::Duration;

use anyhow::Context;
use bytes::Bytes;
use http::header::{CONTENT_LOCATION, CONTENT_TYPE, HeaderMap, HeaderName, HeaderValue, LOCATION};
use http::{Method, Request, Uri};

use crate::http::outbound_proxy::Proxies;
use crate::http::url::parse_url;
use crate::idem::key::KeyPolicy;
use crate::idem::key_carrier::KeyCarrier;

/// The default `--key-header`.
pub(crate) const DEFAULT_KEY_HEADER: &str = "Idempotency-Key";
/// The default `--id-field`: where the created resource's id sits in a JSON response.
pub(crate) const DEFAULT_ID_FIELD: &str = "/id";

/// Everything about a request except the key value, which each logical request draws afresh.
#[derive(Debug, Clone)]
pub struct RequestSpec {
    pub method: Method,
    pub url: Uri,
    /// The user's `-H` headers, plus an implied `Content-Type` for JSON bodies.
    pub headers: HeaderMap,
    pub body: Bytes,
    pub key_policy: KeyPolicy,
    pub key_header: HeaderName,
    /// `--key-in`: where the key goes (a header by default, named by `key_header`).
    pub key_carrier: KeyCarrier,
    pub timeout: Duration,
    pub insecure: bool,
    /// HTTP/2 with prior knowledge on http://, HTTP/2 only in ALPN on https://.
    pub http2: bool,
    /// The proxies of `send` and `check`'s plain requests; the race engines always connect directly.
    pub proxies: Proxies,
    /// JSON pointer to the created resource's id in a response body.
    pub id_field: String,
    /// `--id-header`: the header that names the created resource when the body does not
    /// (`None`: `Location`, then `Content-Location`).
    pub id_header: Option<HeaderName>,
    /// `--count-url`: the server's counts of side effects (one, or several named ledgers), each
    /// read before and after each step.
    pub ledgers: Vec<crate::count::CountSource>,
    /// `--require-count`: a ✓ the answers alone support (no count) is not accepted (exit 2).
    pub require_count: bool,
    /// Where a fixed key came from, for errors and notes: `--key`, or `IDEM_KEY (from the environment)`.
    pub key_named: &'static str,
    /// `--max-requests`: shared by every clone of this spec, so the whole command draws on one count.
    pub budget: crate::http::budget::RequestBudget,
}

impl RequestSpec {
    /// A spec with the defaults of the command line, for in-process callers (demo, tests).
    pub fn new(method: Method, url: &str, body: impl Into<Bytes>) -> anyhow::Result<RequestSpec> {
        let body = body.into();
        let mut headers = HeaderMap::new();
        if crate::http::body::looks_like_json(&body) {
            headers.insert(CONTENT_TYPE, HeaderValue::from_static("application/json"));
        }
        Ok(RequestSpec {
            method,
            url: parse_url(url)?,
            headers,
            body,
            key_policy: KeyPolicy::Generate(Default::default()),
            key_header: HeaderName::from_static("idempotency-key"),
            key_carrier: KeyCarrier::Header,
            timeout: Duration::from_secs(30),
            insecure: false,
            http2: false,
            proxies: Proxies::direct(),
            id_field: DEFAULT_ID_FIELD.to_string(),
            id_header: None,
            ledgers: Vec::new(),
            require_count: false,
            key_named: "--key",
            budget: Default::default(),
        })
    }

    /// The request to send with `key`, carried where `--key-in` says (or with no key when `None`).
    pub fn build(&self, key: Option<&str>) -> anyhow::Result<Request<Bytes>> {
        self.build_varied(key, None, None)
    }

    /// `build` to another URL or with another body (a check's variation of the request), the key
    /// placed in them: replacing the URL or body after `build` would drop a key carried there.
    pub fn build_varied(
        &self,
        key: Option<&str>,
        url: Option<&Uri>,
        body: Option<Bytes>,
    ) -> anyhow::Result<Request<Bytes>> {
        let mut url = url.unwrap_or(&self.url).clone();
        let mut body = body.unwrap_or_else(|| self.body.clone());
        if let Some(key) = key {
            self.key_carrier.place(key, &mut url, &mut body)?;
        }
        let mut request =
            Request::builder().method(self.method.clone()).uri(url).body(body).context("cannot build the request")?;
        *request.headers_mut() = self.headers.clone();
        if let Some(key) = key.filter(|_| self.key_carrier == KeyCarrier::Header) {
            let value =
                HeaderValue::from_str(key).with_context(|| format!("the key `{key}` cannot be sent in a header"))?;
            request.headers_mut().insert(self.key_header.clone(), value);
        }
        Ok(request)
    }

    /// `--key-in` as the reports give it: `header:Idempotency-Key`, `body:/idempotency_key`, …
    pub fn key_in(&self) -> String {
        self.key_carrier.describe(self.key_header.as_str())
    }

    /// What names the key on the human key line: the header, or where the key went.
    pub fn key_label(&self) -> String {
        self.key_carrier.label(self.key_header.as_str())
    }

    /// Whether the URL is https.
    pub fn is_https(&self) -> bool {
        self.url.scheme_str() == Some("https")
    }

    /// Where the race engine connects for this request.
    pub(crate) fn race_target(&self) -> crate::race::connect::Target {
        crate::race::connect::Target { url: self.url.clone(), insecure: self.insecure, timeout: self.timeout }
    }

    /// Every ledger's count before a step (each read until it holds still), in the order of
    /// `ledgers`; `None` without `--count-url`.
    pub async fn count_before(&self) -> anyhow::Result<Option<Vec<crate::count::Baseline>>> {
        if self.ledgers.is_empty() {
            return Ok(None);
        }
        let mut baselines = Vec::with_capacity(self.ledgers.len());
        for ledger in &self.ledgers {
            baselines.push(ledger.baseline().await?);
        }
        Ok(Some(baselines))
    }

    /// Whether a key this spec draws is one no request has carried before: a generated key, not
    /// the user's `--key` (which an earlier run may have used).
    pub fn draws_fresh_keys(&self) -> bool {
        !matches!(self.key_policy, KeyPolicy::Fixed(_))
    }

    /// Where the created resource's id is read from in an answer.
    pub fn id_source(&self) -> IdSource {
        IdSource { field: self.id_field.clone(), header: self.id_header.clone() }
    }
}

/// Where a created resource's id is read: the JSON body at `field`, else the header (`Location`,
/// then `Content-Location`, unless `--id-header` names another). Servers that answer `201` with
/// an empty body and a `Location` are common; without reading it, every execution looks the same.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IdSource {
    pub field: String,
    pub header: Option<HeaderName>,
}

/// An id found in an answer, and where.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FoundId {
    pub id: String,
    /// `body /id`, `Location`, …: printed with the evidence.
    pub from: String,
}

impl IdSource {
    /// The id in this answer, if any source has one.
    pub fn read(&self, headers: &HeaderMap, body: &[u8]) -> Option<FoundId> {
        let body_id = serde_json::from_slice(body).ok().and_then(|body| resource_id_in(&body, &self.field));
        self.read_with_body_id(headers, body_id)
    }

    /// `read` for a caller that has already looked for the id in the body at `field` (`body_id`:
    /// what it found there, if anything): the proxy reads it in the same pass as its digest.
    pub fn read_with_body_id(&self, headers: &HeaderMap, body_id: Option<String>) -> Option<FoundId> {
        if let Some(id) = body_id {
            return Some(FoundId { id, from: format!("body {}", self.field) });
        }
        // Borrowed, not collected: the proxy comes here for every answer without an id in its body.
        let default_names = [LOCATION, CONTENT_LOCATION];
        let names: &[HeaderName] = match &self.header {
            Some(name) => std::slice::from_ref(name),
            None => &default_names,
        };
        names.iter().find_map(|name| {
            let value = headers.get(name)?.to_str().ok()?.trim();
            let id = if *name == LOCATION || *name == CONTENT_LOCATION { location_path(value) } else { value };
            (!id.is_empty())
                .then(|| FoundId { id: id.to_string(), from: crate::output::header_display_name(name.as_str()) })
        })
    }

    /// The sources, for messages: `/id in the body, Location or Content-Location`.
    pub fn describe(&self) -> String {
        match &self.header {
            Some(name) => {
                format!("{} in the body or {}", self.field, crate::output::header_display_name(name.as_str()))
            }
            None => format!("{} in the body, Location or Content-Location", self.field),
        }
    }
}

/// The path of a `Location` value, so `/payments/pay_1` and `https://api.example/payments/pay_1`
/// name the same resource.
fn location_path(value: &str) -> &str {
    let without_scheme = match value.split_once("://") {
        Some((_, rest)) => rest.find('/').map_or("", |slash| &rest[slash..]),
        None => value,
    };
    let end = without_scheme.find(['?', '#']).unwrap_or(without_scheme.len());
    &without_scheme[..end]
}

/// The resource id at `pointer` in a JSON body: a string as is, a number in one canonical form,
/// so ids are compared as JSON values (`1` and `1.0` are the same id).
fn resource_id_in(value: &serde_json::Value, pointer: &str) -> Option<String> {
    match value.pointer(pointer)? {
        serde_json::Value::String(id) => Some(id.clone()),
        serde_json::Value::Number(id) => Some(canonical_number(id)),
        _ => None,
    }
}

/// A JSON number written one way: integers without a fraction, whatever form they arrived in
/// (the same form as `json_digest`'s ids).
fn canonical_number(number: &serde_json::Number) -> String {
    if number.is_f64()
        && let Some(float) = number.as_f64()
    {
        return crate::idem::json_digest::canonical_float(float);
    }
    number.to_string()
}

#[cfg(test)]
mod tests {
    /// `resource_id_in` on a body's text.
    fn resource_id(body: &[u8], pointer: &str) -> Option<String> {
        resource_id_in(&serde_json::from_slice(body).ok()?, pointer)
    }

    use super::*;

    #[test]
    fn ids_come_from_the_pointer() {
        assert_eq!(resource_id(br#"{"id":"pay_1"}"#, "/id").as_deref(), Some("pay_1"));
        assert_eq!(resource_id(br#"{"data":{"id":7}}"#, "/data/id").as_deref(), Some("7"));
        assert_eq!(resource_id(br#"{"id":null}"#, "/id"), None);
        assert_eq!(resource_id(b"not json", "/id"), None);
    }

    #[test]
    fn numeric_ids_compare_as_json_values() {
        assert_eq!(resource_id(br#"{"id":1}"#, "/id"), resource_id(br#"{"id":1.0}"#, "/id"));
        assert_eq!(resource_id(br#"{"id":1e0}"#, "/id").as_deref(), Some("1"));
        assert_eq!(resource_id(br#"{"id":1.5}"#, "/id").as_deref(), Some("1.5"));
        assert_ne!(resource_id(br#"{"id":1}"#, "/id"), resource_id(br#"{"id":2.0}"#, "/id"));
    }

    #[test]
    fn ids_fall_back_to_location_then_content_location() {
        let source = IdSource { field: "/id".into(), header: None };
        let mut headers = HeaderMap::new();
        headers.insert(CONTENT_LOCATION, HeaderValue::from_static("/payments/pay_9"));
        assert_eq!(source.read(&headers, b"").unwrap().from, "Content-Location");
        headers.insert(LOCATION, HeaderValue::from_static("https://api.example/payments/pay_1?x=1"));
        let found = source.read(&headers, b"").unwrap();
        assert_eq!((found.id.as_str(), found.from.as_str()), ("/payments/pay_1", "Location"));
        let found = source.read(&headers, br#"{"id":"pay_2"}"#).unwrap();
        assert_eq!((found.id.as_str(), found.from.as_str()), ("pay_2", "body /id"));
        let custom = IdSource { field: "/id".into(), header: Some(HeaderName::from_static("x-resource-id")) };
        assert_eq!(custom.read(&headers, b""), None, "--id-header replaces the default headers");
        headers.insert("x-resource-id", HeaderValue::from_static("42"));
        assert_eq!(custom.read(&headers, b"").unwrap().id, "42");
    }

    #[test]
    fn build_sets_the_key_header_and_json_type() {
        let spec = RequestSpec::new(Method::POST, "http://127.0.0.1:1/p", r#"{"amount":1}"#).unwrap();
        let request = spec.build(Some("k1")).unwrap();
        assert_eq!(request.headers()["idempotency-key"], "k1");
        assert_eq!(request.headers()[CONTENT_TYPE], "application/json");
        assert!(spec.build(None).unwrap().headers().get("idempotency-key").is_none());
        assert!(spec.build(Some("bad\nkey")).is_err());
    }

    #[test]
    fn a_key_carried_in_the_body_or_query_sends_no_key_header() {
        let mut spec = RequestSpec::new(Method::POST, "http://127.0.0.1:1/p", r#"{"amount":1}"#).unwrap();
        spec.key_carrier = KeyCarrier::BodyField("/idempotency_key".into());
        let request = spec.build(Some("k1")).unwrap();
        assert!(request.headers().get("idempotency-key").is_none());
        assert_eq!(request.body().as_ref(), br#"{"amount":1,"idempotency_key":"k1"}"#);
        assert_eq!(spec.build(None).unwrap().body().as_ref(), br#"{"amount":1}"#, "no key, no member");
        spec.key_carrier = KeyCarrier::Query("key".into());
        assert_eq!(spec.build(Some("k2")).unwrap().uri().to_string(), "http://127.0.0.1:1/p?key=k2");
    }
}
