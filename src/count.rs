//! `--count-url URL [--count-pointer PTR]`: the ground truth a user can give. A GET before and
//! after each step reads how many side effects the server has (charges, orders, processed
//! deliveries); the difference is how many times it executed, whatever ids the answers show.
//! Shared by `idem send|race|window|check|proxy` and `webhook check`.
use std::time::Duration;

use anyhow::{Context, anyhow, bail};
use bytes::Bytes;
use http::{HeaderMap, Method, Request, Uri};
use serde::Serialize;

use crate::http::client::{ClientOptions, HttpClient};

/// Where the count is read, and how.
#[derive(Debug, Clone)]
pub struct CountSource {
    /// Without its userinfo, which goes as Basic auth in `headers`.
    pub url: Uri,
    /// The URL as given with its password hidden (`http://user:***@…`), for every message.
    pub shown_url: String,
    /// JSON pointer to a number, or to an array whose length counts; empty: the whole body.
    pub pointer: String,
    /// The user's `-H` headers (an `Authorization` applies to the count too).
    pub headers: HeaderMap,
    pub timeout: Duration,
    pub insecure: bool,
}

/// The count before and after one step.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct CountChange {
    pub before: u64,
    pub after: u64,
}

impl CountChange {
    /// How many times the step executed, by the count.
    pub fn executions(&self) -> u64 {
        self.after.saturating_sub(self.before)
    }
}

impl CountSource {
    pub fn new(
        url: &str,
        pointer: Option<String>,
        headers: HeaderMap,
        timeout: Duration,
        insecure: bool,
    ) -> anyhow::Result<CountSource> {
        let url = crate::http::url::parse_url(url).context("--count-url")?;
        let shown_url = crate::http::url::Redacted(&url).to_string();
        // Its userinfo is sent as Basic auth, as curl does (reqwest would drop it), in place of an
        // Authorization from -H, since it names the count's own credentials.
        let (url, credentials) = crate::http::url::split_credentials(url).context("--count-url")?;
        let pointer = pointer.unwrap_or_default();
        if !pointer.is_empty() && !pointer.starts_with('/') {
            bail!(
                "--count-pointer `{pointer}` is not a JSON pointer; write it like /count or /data (empty: the whole body)"
            );
        }
        // The body headers of the request do not belong on a GET.
        let mut headers = headers;
        headers.remove(http::header::CONTENT_TYPE);
        headers.remove(http::header::CONTENT_LENGTH);
        if let Some(credentials) = credentials {
            headers.insert(http::header::AUTHORIZATION, credentials.authorization()?);
        }
        Ok(CountSource { url, shown_url, pointer, headers, timeout, insecure })
    }

    /// The count now: a GET, a 2xx with JSON, the number (or array length) at the pointer.
    pub async fn read(&self) -> anyhow::Result<u64> {
        let client = HttpClient::new(ClientOptions { timeout: self.timeout, insecure: self.insecure, http2: false })?;
        let mut request = Request::builder()
            .method(Method::GET)
            .uri(self.url.clone())
            .body(Bytes::new())
            .context("cannot build the --count-url request")?;
        *request.headers_mut() = self.headers.clone();
        let exchange = client.send(request).await.context("--count-url got no answer")?;
        if !exchange.status.is_success() {
            bail!(
                "--count-url {} answered {}, not a 2xx with the count (check the URL and its credentials; -H headers are sent with it)",
                self.shown_url,
                exchange.status
            );
        }
        let body = crate::http::content_encoding::decode(&exchange.headers, exchange.body).body;
        count_in(&body, &self.pointer).map_err(|err| anyhow!("--count-url {}: {err}", self.shown_url))
    }

    /// Where the count comes from, for messages: `GET http://…/charges (/count)`.
    pub fn describe(&self) -> String {
        if self.pointer.is_empty() {
            format!("GET {}", self.shown_url)
        } else {
            format!("GET {} at {}", self.shown_url, self.pointer)
        }
    }
}

/// The count in a JSON body at `pointer`: a non-negative integer, or an array's length.
pub(crate) fn count_in(body: &[u8], pointer: &str) -> Result<u64, String> {
    let value: serde_json::Value = serde_json::from_slice(body)
        .map_err(|err| format!("the answer is not JSON ({err}); the count must be a JSON number or array"))?;
    let at = if pointer.is_empty() { "the body" } else { pointer };
    match value.pointer(pointer) {
        None => Err(format!("nothing at {at} (give --count-pointer to the number or array)")),
        Some(serde_json::Value::Array(items)) => Ok(items.len() as u64),
        Some(serde_json::Value::Number(number)) => match (number.as_u64(), number.as_f64()) {
            (Some(count), _) => Ok(count),
            (None, Some(float)) if float >= 0.0 && float.fract() == 0.0 && float < 9e15 => Ok(float as u64),
            _ => Err(format!("{at} is {number}, not a count (a whole number from 0)")),
        },
        Some(other) => Err(format!(
            "{at} is {}, not a number or an array (give --count-pointer to the number or array)",
            json_type(other)
        )),
    }
}

fn json_type(value: &serde_json::Value) -> &'static str {
    match value {
        serde_json::Value::Null => "null",
        serde_json::Value::Bool(_) => "a boolean",
        serde_json::Value::String(_) => "a string",
        serde_json::Value::Object(_) => "an object",
        serde_json::Value::Array(_) => "an array",
        serde_json::Value::Number(_) => "a number",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_are_numbers_or_array_lengths() {
        assert_eq!(count_in(b"3", ""), Ok(3));
        assert_eq!(count_in(br#"{"charges":[1,2]}"#, "/charges"), Ok(2));
        assert_eq!(count_in(br#"{"n":4.0}"#, "/n"), Ok(4));
        assert!(count_in(br#"{"n":-1}"#, "/n").is_err());
        assert!(count_in(br#"{"n":"3"}"#, "/n").unwrap_err().contains("a string"));
        assert!(count_in(br#"{"n":3}"#, "/m").unwrap_err().contains("nothing at /m"));
        assert!(count_in(b"<html>", "").unwrap_err().contains("not JSON"));
    }

    #[test]
    fn executions_never_go_negative() {
        assert_eq!(CountChange { before: 5, after: 3 }.executions(), 0);
        assert_eq!(CountChange { before: 2, after: 5 }.executions(), 3);
    }
}
