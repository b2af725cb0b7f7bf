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

/// The most a count answer may hold. A count is a number or a short JSON document; a listing of
/// every charge a server ever made is not one, and parsed whole it would cost memory many times
/// its size.
pub(crate) const MAX_COUNT_BODY: usize = 1024 * 1024;

/// How long a count that must rise but has not gets before it is read once more: a server that
/// answers first and records afterwards may not have counted yet.
const LATE_COUNT: Duration = Duration::from_millis(300);

/// The count read twice before a step, with nothing sent in between: a count that moves then
/// (one that counts its own reads, or that other traffic changes) cannot tell what the step did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Baseline {
    pub first: u64,
    pub second: u64,
}

/// What a step could have done to the count, to judge whether its change is believable.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Step {
    /// How many requests the step sent: a count of executions cannot rise by more.
    pub requests: u64,
    /// A request with a key never used before (or with no key) got a 2xx, so the server executed
    /// at least once and the count must have risen.
    pub must_rise: bool,
}

/// The count before and after one step, and why it cannot be believed, if it cannot.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct CountChange {
    pub before: u64,
    pub after: u64,
    /// Why this change does not show what the step did (it went down, rose by more than the
    /// requests sent, stayed put after an execution, or moved with nothing sent), with what was
    /// read. `None`: it can be believed.
    #[serde(skip)]
    pub doubt: Option<String>,
}

impl CountChange {
    /// Judges the count read `after` a step against the `baseline` read before it; `source`
    /// names where it was read, for the doubt.
    pub fn judge(baseline: Baseline, after: u64, step: Step, source: &str) -> CountChange {
        let before = baseline.second;
        let doubt = if baseline.first != baseline.second {
            Some(format!(
                "unconfirmed: the count at {source} moved with nothing sent ({} → {} between two reads before the \
                 step), so its change cannot be put down to the requests; does it count its own reads, or does \
                 other traffic reach it? Give a --count-url that only this endpoint's executions change",
                baseline.first, baseline.second
            ))
        } else if after < before {
            Some(format!(
                "unconfirmed: the count at {source} went down ({before} → {after}); a count of executions only \
                 rises: is --count-url the count of what this endpoint creates, and --count-pointer the number in it?"
            ))
        } else if after - before > step.requests {
            Some(format!(
                "unconfirmed: the count at {source} rose by {} ({before} → {after}), more than the {} request{} \
                 sent, so it counts something else too: give a --count-url that only this endpoint's executions \
                 change",
                after - before,
                step.requests,
                if step.requests == 1 { "" } else { "s" }
            ))
        } else if step.must_rise && after == before {
            Some(format!(
                "unconfirmed: the count at {source} did not move ({before} → {after}) though a request with a new \
                 key got a 2xx, which the server executes; is --count-url the count of what this endpoint creates \
                 (give --count-pointer for the number or array in its answer)?"
            ))
        } else {
            None
        };
        CountChange { before, after, doubt }
    }

    /// How many times the step executed, by the count; the doubt instead when the count cannot
    /// show it.
    pub fn executions(&self) -> Result<u64, &str> {
        match &self.doubt {
            Some(doubt) => Err(doubt),
            None => Ok(self.after - self.before),
        }
    }
}

/// The count before and after the step, and where it was read.
#[derive(Debug, Clone)]
pub struct CountReading {
    pub change: CountChange,
    /// `GET http://…/charges at /count`.
    pub source: String,
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
        let exchange = client.send_capped(request, MAX_COUNT_BODY).await.context("--count-url gave no count")?;
        if !exchange.status.is_success() {
            bail!(
                "--count-url {} answered {}, not a 2xx with the count (check the URL and its credentials; -H headers are sent with it)",
                self.shown_url,
                exchange.status
            );
        }
        let body = crate::http::content_encoding::decode(&exchange.headers, exchange.body).body;
        if body.len() > MAX_COUNT_BODY {
            bail!(
                "--count-url {} answered a body that decodes to more than the {} limit for a count; point it at a count, \
                 not a listing",
                self.shown_url,
                crate::units::format_size(MAX_COUNT_BODY as u64)
            );
        }
        count_in(&body, &self.pointer).map_err(|err| anyhow!("--count-url {}: {err}", self.shown_url))
    }

    /// The count before a step: read twice, so a count that moves by itself shows.
    pub async fn baseline(&self) -> anyhow::Result<Baseline> {
        let first = self.read().await?;
        let second = self.read().await?;
        Ok(Baseline { first, second })
    }

    /// The count after a step, judged against `baseline`. A count the step must have raised that
    /// has not risen is read once more after a pause, for a server that counts after answering.
    pub async fn change_since(&self, baseline: Baseline, step: Step) -> anyhow::Result<CountChange> {
        let mut after = self.read().await?;
        if step.must_rise && after == baseline.second && baseline.first == baseline.second {
            tokio::time::sleep(LATE_COUNT).await;
            after = self.read().await?;
        }
        Ok(CountChange::judge(baseline, after, step, &self.describe()))
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

/// The count in a JSON body at `pointer`: a non-negative integer, or an array's length. Read as
/// the body is parsed, without building the document: a listing of half a million charges costs
/// its own bytes, not a tree of values many times their size.
pub(crate) fn count_in(body: &[u8], pointer: &str) -> Result<u64, String> {
    let tokens: Vec<String> =
        pointer.split('/').skip(1).map(|token| token.replace("~1", "/").replace("~0", "~")).collect();
    let not_json =
        |err: serde_json::Error| format!("the answer is not JSON ({err}); the count must be a JSON number or array");
    let mut json = serde_json::Deserializer::from_slice(body);
    let found = serde::de::DeserializeSeed::deserialize(AtPointer { tokens: &tokens }, &mut json).map_err(not_json)?;
    json.end().map_err(not_json)?;
    let at = if pointer.is_empty() { "the body" } else { pointer };
    match found {
        None => Err(format!("nothing at {at} (give --count-pointer to the number or array)")),
        Some(Found::Count(count)) => Ok(count),
        Some(Found::Number(number)) => Err(format!("{at} is {number}, not a count (a whole number from 0)")),
        Some(Found::Other(kind)) => {
            Err(format!("{at} is {kind}, not a number or an array (give --count-pointer to the number or array)"))
        }
    }
}

/// What sits at the pointer.
enum Found {
    /// A whole number from 0, or an array's length.
    Count(u64),
    /// A number that is no count (negative, fractional, too large), as written.
    Number(String),
    /// Anything else: `a string`, `an object`.
    Other(&'static str),
}

/// Walks one JSON value towards the rest of the pointer (`tokens`), skipping what is off the
/// path unparsed; `None` when nothing is at the pointer.
struct AtPointer<'a> {
    tokens: &'a [String],
}

impl AtPointer<'_> {
    fn at_target(&self) -> bool {
        self.tokens.is_empty()
    }

    /// A value that is not a container: found when the pointer ends here, else nothing is at it.
    fn leaf(&self, found: Found) -> Option<Found> {
        self.at_target().then_some(found)
    }
}

impl<'de> serde::de::DeserializeSeed<'de> for AtPointer<'_> {
    type Value = Option<Found>;

    fn deserialize<D: serde::Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> serde::de::Visitor<'de> for AtPointer<'_> {
    type Value = Option<Found>;

    fn expecting(&self, formatter: &mut std::fmt::Formatter) -> std::fmt::Result {
        formatter.write_str("a JSON value")
    }

    fn visit_u64<E>(self, count: u64) -> Result<Self::Value, E> {
        Ok(self.leaf(Found::Count(count)))
    }

    fn visit_i64<E>(self, number: i64) -> Result<Self::Value, E> {
        Ok(self.leaf(match u64::try_from(number) {
            Ok(count) => Found::Count(count),
            Err(_) => Found::Number(number.to_string()),
        }))
    }

    fn visit_f64<E>(self, number: f64) -> Result<Self::Value, E> {
        // 4.0 is a count; beyond 9e15 a float no longer holds every whole number exactly.
        Ok(self.leaf(if number >= 0.0 && number.fract() == 0.0 && number < 9e15 {
            Found::Count(number as u64)
        } else {
            Found::Number(number.to_string())
        }))
    }

    fn visit_bool<E>(self, _: bool) -> Result<Self::Value, E> {
        Ok(self.leaf(Found::Other("a boolean")))
    }

    fn visit_str<E>(self, _: &str) -> Result<Self::Value, E> {
        Ok(self.leaf(Found::Other("a string")))
    }

    fn visit_unit<E>(self) -> Result<Self::Value, E> {
        Ok(self.leaf(Found::Other("null")))
    }

    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut items: A) -> Result<Self::Value, A::Error> {
        use serde::de::IgnoredAny;
        let wanted = match self.tokens.split_first() {
            None => None,
            // An array index is digits alone (no sign, no leading zero but 0 itself).
            Some((token, _))
                if token == "0" || (!token.starts_with('0') && token.bytes().all(|b| b.is_ascii_digit())) =>
            {
                token.parse::<u64>().ok()
            }
            Some(_) => Some(u64::MAX),
        };
        let mut length = 0u64;
        let mut found = None;
        loop {
            let item = if Some(length) == wanted {
                match items.next_element_seed(AtPointer { tokens: &self.tokens[1..] })? {
                    Some(at) => {
                        found = at;
                        true
                    }
                    None => false,
                }
            } else {
                items.next_element::<IgnoredAny>()?.is_some()
            };
            if !item {
                break;
            }
            length += 1;
        }
        Ok(if self.at_target() { Some(Found::Count(length)) } else { found })
    }

    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut fields: A) -> Result<Self::Value, A::Error> {
        use serde::de::IgnoredAny;
        let mut found = None;
        while let Some(name) = fields.next_key::<std::borrow::Cow<'de, str>>()? {
            match self.tokens.split_first() {
                // A repeated name: the last one counts, as a parsed document would keep it.
                Some((token, rest)) if *token == name => found = fields.next_value_seed(AtPointer { tokens: rest })?,
                _ => {
                    fields.next_value::<IgnoredAny>()?;
                }
            }
        }
        Ok(if self.at_target() { Some(Found::Other("an object")) } else { found })
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
        assert_eq!(count_in(br#"{"data":{"a/b":[[1],[2,3]]}}"#, "/data/a~1b/1"), Ok(2));
        assert_eq!(count_in(br#"{"n":1,"n":7}"#, "/n"), Ok(7), "the last of a repeated name");
        assert!(count_in(br#"{"n":[1]}"#, "/n/01").unwrap_err().contains("nothing at /n/01"));
        assert!(count_in(br#"{"n":{}}"#, "/n").unwrap_err().contains("an object"));
        assert!(count_in(br#"{"n":1.5}"#, "/n").unwrap_err().contains("1.5, not a count"));
        assert!(count_in(br#"{"n":1} x"#, "/n").unwrap_err().contains("not JSON"));
        assert_eq!(count_in(b"18446744073709551615", ""), Ok(u64::MAX));
    }

    fn change(first: u64, second: u64, after: u64, requests: u64, must_rise: bool) -> CountChange {
        CountChange::judge(Baseline { first, second }, after, Step { requests, must_rise }, "GET /count")
    }

    #[test]
    fn a_believable_change_counts_the_executions() {
        assert_eq!(change(2, 2, 5, 5, true).executions(), Ok(3));
        assert_eq!(change(7, 7, 7, 1, false).executions(), Ok(0), "a replay need not move the count");
    }

    #[test]
    fn a_count_that_lies_is_doubted_with_what_was_read() {
        let down = change(1000, 1000, 999, 3, true);
        assert!(down.executions().unwrap_err().contains("went down (1000 → 999)"), "{down:?}");
        let wrapped = change(u64::MAX, u64::MAX, 0, 3, true);
        assert!(wrapped.executions().unwrap_err().contains("went down (18446744073709551615 → 0)"));
        let jump = change(0, 0, 1_000_000, 3, true);
        assert!(jump.executions().unwrap_err().contains("rose by 1000000 (0 → 1000000), more than the 3 requests"));
        let still = change(5, 5, 5, 3, true);
        assert!(still.executions().unwrap_err().contains("did not move (5 → 5)"), "{still:?}");
        let by_itself = change(5, 6, 9, 3, true);
        assert!(by_itself.executions().unwrap_err().contains("moved with nothing sent (5 → 6"), "{by_itself:?}");
    }
}
