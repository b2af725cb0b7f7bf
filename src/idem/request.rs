//! The request spec shared by `idem send`, `race` and `check`: what to send, before any key is
//! chosen, so every logical request can get its own key.
use std::time::Duration;

use anyhow::Context;
use bytes::Bytes;
use http::header::{CONTENT_TYPE, HeaderMap, HeaderName, HeaderValue};
use http::{Method, Request, Uri};

use crate::http::url::parse_url;
use crate::idem::key::KeyPolicy;

/// The default `--key-header`.
pub const DEFAULT_KEY_HEADER: &str = "Idempotency-Key";
/// The default `--id-field`: where the created resource's id sits in a JSON response.
pub const DEFAULT_ID_FIELD: &str = "/id";

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
    pub timeout: Duration,
    pub insecure: bool,
    /// HTTP/2 with prior knowledge on http://, HTTP/2 only in ALPN on https://.
    pub http2: bool,
    /// JSON pointer to the created resource's id in a response body.
    pub id_field: String,
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
            timeout: Duration::from_secs(30),
            insecure: false,
            http2: false,
            id_field: DEFAULT_ID_FIELD.to_string(),
        })
    }

    /// The request to send with `key` (or without a key header when `None`).
    pub fn build(&self, key: Option<&str>) -> anyhow::Result<Request<Bytes>> {
        let mut request = Request::builder()
            .method(self.method.clone())
            .uri(self.url.clone())
            .body(self.body.clone())
            .context("cannot build the request")?;
        *request.headers_mut() = self.headers.clone();
        if let Some(key) = key {
            let value =
                HeaderValue::from_str(key).with_context(|| format!("the key `{key}` cannot be sent in a header"))?;
            request.headers_mut().insert(self.key_header.clone(), value);
        }
        Ok(request)
    }

    /// Whether the URL is https.
    pub fn is_https(&self) -> bool {
        self.url.scheme_str() == Some("https")
    }
}

/// The resource id at `pointer` in a JSON body: a string as is, a number as written.
pub fn resource_id(body: &[u8], pointer: &str) -> Option<String> {
    let value: serde_json::Value = serde_json::from_slice(body).ok()?;
    match value.pointer(pointer)? {
        serde_json::Value::String(id) => Some(id.clone()),
        serde_json::Value::Number(id) => Some(id.to_string()),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_come_from_the_pointer() {
        assert_eq!(resource_id(br#"{"id":"pay_1"}"#, "/id").as_deref(), Some("pay_1"));
        assert_eq!(resource_id(br#"{"data":{"id":7}}"#, "/data/id").as_deref(), Some("7"));
        assert_eq!(resource_id(br#"{"id":null}"#, "/id"), None);
        assert_eq!(resource_id(b"not json", "/id"), None);
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
}
