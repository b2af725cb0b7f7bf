//! One journal record: one JSON line per delivery `webhook listen` received, appended before the
//! delivery is acknowledged, and read back by `webhook replay`.
//!
//! A line looks like this (wrapped here):
//! ```text
//! {"schema":"journal-record/1","received_at":"2026-11-29T13:17:00.123Z","remote":"127.0.0.1:50514","method":"POST",
//!  "path":"/webhooks","headers":[["content-type","application/json"],["stripe-signature","t=…"]],
//!  "body":"{\"id\":\"evt_1\",…}","verdict":{"valid":true,"scheme":"stripe","reason":null},
//!  "event_id":"evt_1","event_type":"payment.succeeded","duplicate":false,"attempt":1,"status":200}
//! ```
//! A body that is not UTF-8 is stored as `"body_base64"` instead of `"body"`, and a header value
//! that is not UTF-8 as `{"base64":"…"}` instead of a string, so every byte survives a replay.
//! `schema` names the shape (schemas/journal-record.json); records written before it existed lack
//! it and still read back.
use anyhow::Context;
use base64::Engine;
use base64::engine::general_purpose::STANDARD as BASE64;
use serde::{Deserialize, Serialize};

use crate::json_text::{Stop, first_stop};

/// The schema's name, a macro so that [`LINE_START`] is built from it as well.
macro_rules! schema {
    () => {
        "journal-record/1"
    };
}

/// The `schema` value every journal line starts with.
pub(crate) const SCHEMA: &str = schema!();

/// One delivery, as journaled.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema, Deserialize)]
pub struct JournalRecord {
    /// RFC 3339, UTC, milliseconds.
    pub received_at: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub remote: Option<String>,
    pub method: String,
    /// The path and query, as requested.
    pub path: String,
    /// Every header in the order received, names lower-case, as `[name, value]` pairs.
    pub headers: Vec<(String, HeaderText)>,
    #[serde(flatten)]
    pub body: JournalBody,
    pub verdict: JournalVerdict,
    /// What de-duplication keyed on: the scheme's delivery id, else the body's top-level `id`,
    /// else `sha256:` and the body's hash.
    pub event_id: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub event_type: Option<String>,
    pub duplicate: bool,
    /// 1 for the first delivery of this event id, 2 for the first redelivery, and so on.
    pub attempt: u32,
    /// The status the listener answered with.
    pub status: u16,
    /// Why the forward target did not answer (the delivery was answered 502 or 504).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub forward_error: Option<String>,
    /// What the forward (`--forward-to`, `--route`) came to, retries included; absent when the
    /// delivery was not forwarded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub forward: Option<JournalForward>,
    /// The handshake this request was (`slack-url-verification`, `meta-subscribe`, …), answered
    /// by the listener itself; no event, and `webhook replay` leaves it out.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub handshake: Option<String>,
}

/// A delivery's forward, as journaled.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema, Deserialize)]
pub struct JournalForward {
    /// The route's target.
    pub url: String,
    /// The target's last answer; `null` when it could not be reached or timed out.
    pub status: Option<u16>,
    /// How many times it was tried (1 + the retries used).
    pub attempts: u32,
    /// Why the last attempt got no answer.
    pub error: Option<String>,
    /// Whether the target finally answered 2xx.
    pub delivered: bool,
    /// How long the forward took, retries included, in milliseconds (absent in lines written
    /// before it was recorded).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub latency_ms: Option<u64>,
    /// The application's last answer, when it answered one the listener passed back.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub answer: Option<JournalAnswer>,
}

/// The application's answer to a forward: what `webhook journal show` and the inspector show of it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema, Deserialize)]
pub struct JournalAnswer {
    /// Every header in the order received, names lower-case, as `[name, value]` pairs.
    pub headers: Vec<(String, HeaderText)>,
    /// The body's first [`JournalAnswer::KEPT`] bytes (`body`, or `body_base64` when not UTF-8).
    #[serde(flatten)]
    pub body: JournalBody,
    /// The whole body's length in bytes: more than `body` holds when it was cut.
    pub bytes: u64,
}

impl JournalAnswer {
    /// How much of an answer's body is journaled: a webhook's answer is an acknowledgement, and a
    /// journal line per delivery should stay a line, not a copy of whatever the application said.
    pub const KEPT: usize = 16 * 1024;

    /// The answer with its body cut to [`JournalAnswer::KEPT`] bytes; text is cut at a character
    /// boundary so a cut answer stays text.
    pub fn capped(headers: Vec<(String, HeaderText)>, body: &[u8]) -> JournalAnswer {
        let mut end = body.len().min(Self::KEPT);
        // Cut inside a character: the whole characters before it are kept, so text stays text.
        if let Err(err) = std::str::from_utf8(&body[..end])
            && err.error_len().is_none()
        {
            end = err.valid_up_to();
        }
        JournalAnswer { headers, body: JournalBody::from_bytes(&body[..end]), bytes: body.len() as u64 }
    }
}

/// A header value as received: text when it is UTF-8, else its bytes in base64.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema, Deserialize)]
#[serde(untagged)]
pub enum HeaderText {
    Text(String),
    Binary { base64: String },
}

impl HeaderText {
    pub fn from_bytes(bytes: &[u8]) -> HeaderText {
        match std::str::from_utf8(bytes) {
            Ok(text) => HeaderText::Text(text.to_string()),
            Err(_) => HeaderText::Binary { base64: BASE64.encode(bytes) },
        }
    }

    pub fn to_bytes(&self) -> anyhow::Result<Vec<u8>> {
        match self {
            HeaderText::Text(text) => Ok(text.as_bytes().to_vec()),
            HeaderText::Binary { base64 } => {
                BASE64.decode(base64).context("a header's base64 value is not valid base64")
            }
        }
    }

    /// The value for a person: the text, or the bytes with what is not UTF-8 replaced.
    pub fn lossy(&self) -> String {
        match self {
            HeaderText::Text(text) => text.clone(),
            HeaderText::Binary { .. } => String::from_utf8_lossy(&self.to_bytes().unwrap_or_default()).into_owned(),
        }
    }
}

impl PartialEq<&str> for HeaderText {
    fn eq(&self, other: &&str) -> bool {
        matches!(self, HeaderText::Text(text) if text == other)
    }
}

/// The body: text when it is UTF-8, base64 otherwise, so the journal stays valid JSON lines and
/// every byte survives.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema, Deserialize)]
pub enum JournalBody {
    #[serde(rename = "body")]
    Text(String),
    #[serde(rename = "body_base64")]
    Base64(String),
}

impl JournalBody {
    pub fn from_bytes(bytes: &[u8]) -> JournalBody {
        match std::str::from_utf8(bytes) {
            Ok(text) => JournalBody::Text(text.to_string()),
            Err(_) => JournalBody::Base64(BASE64.encode(bytes)),
        }
    }

    pub fn to_bytes(&self) -> anyhow::Result<Vec<u8>> {
        match self {
            JournalBody::Text(text) => Ok(text.as_bytes().to_vec()),
            JournalBody::Base64(encoded) => BASE64.decode(encoded).context("body_base64 is not valid base64"),
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema, Deserialize)]
pub struct JournalVerdict {
    pub valid: bool,
    /// The scheme the delivery was verified with.
    #[serde(default)]
    pub scheme: Option<String>,
    /// Why it was invalid, with the hint when one explains it.
    #[serde(default)]
    pub reason: Option<String>,
    /// The failure's stable code (as `webhook verify --format json` reports it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub code: Option<String>,
}

/// One delivery as the listener journals it, borrowing what the request already holds (headers,
/// body, ids) instead of copying them into a [`JournalRecord`]: written straight into the
/// journal's queue, a line per delivery, byte for byte the line serde writes for the equivalent
/// `JournalRecord` (a test holds the two to that).
pub struct ReceivedRecord<'a> {
    pub received_at: &'a str,
    pub remote: Option<std::net::SocketAddr>,
    pub method: &'a str,
    pub path: &'a str,
    pub headers: &'a http::HeaderMap,
    pub body: &'a [u8],
    pub valid: bool,
    pub scheme: Option<&'a str>,
    pub reason: Option<&'a str>,
    pub code: Option<&'a str>,
    pub event_id: &'a str,
    pub event_type: Option<&'a str>,
    pub duplicate: bool,
    pub attempt: u32,
    pub status: u16,
    pub forward_error: Option<&'a str>,
    pub forward: Option<&'a JournalForward>,
    pub handshake: Option<&'a str>,
}

impl ReceivedRecord<'_> {
    /// Appends the record's JSON line (no line feed) to `out`.
    pub fn write_line(&self, out: &mut Vec<u8>) {
        out.reserve(self.body.len() + 256 + 64 * self.headers.len());
        out.extend_from_slice(LINE_START.as_bytes());
        json_plain_string(out, self.received_at);
        if let Some(remote) = self.remote {
            out.extend_from_slice(b",\"remote\":\"");
            // An address has nothing to escape.
            write_socket_addr(out, remote);
            out.push(b'"');
        }
        out.extend_from_slice(b",\"method\":");
        json_plain_string(out, self.method);
        out.extend_from_slice(b",\"path\":");
        json_string(out, self.path);
        out.extend_from_slice(b",\"headers\":[");
        for (index, (name, value)) in self.headers.iter().enumerate() {
            if index > 0 {
                out.push(b',');
            }
            // A header name is a token (the http crate admits no other): nothing in it to escape.
            out.extend_from_slice(b"[\"");
            out.extend_from_slice(name.as_str().as_bytes());
            out.extend_from_slice(b"\",");
            if !json_string_if_utf8(out, value.as_bytes()) {
                out.extend_from_slice(b"{\"base64\":\"");
                out.extend_from_slice(BASE64.encode(value.as_bytes()).as_bytes());
                out.extend_from_slice(b"\"}");
            }
            out.push(b']');
        }
        out.push(b']');
        out.extend_from_slice(b",\"body\":");
        if !json_string_if_utf8(out, self.body) {
            out.truncate(out.len() - b",\"body\":".len());
            out.extend_from_slice(b",\"body_base64\":\"");
            out.extend_from_slice(BASE64.encode(self.body).as_bytes());
            out.push(b'"');
        }
        out.extend_from_slice(b",\"verdict\":{\"valid\":");
        json_bool(out, self.valid);
        out.extend_from_slice(b",\"scheme\":");
        match self.scheme {
            Some(scheme) => json_plain_string(out, scheme),
            None => out.extend_from_slice(b"null"),
        }
        out.extend_from_slice(b",\"reason\":");
        json_optional_string(out, self.reason);
        if let Some(code) = self.code {
            out.extend_from_slice(b",\"code\":");
            json_string(out, code);
        }
        out.extend_from_slice(b"},\"event_id\":");
        json_string(out, self.event_id);
        if let Some(event_type) = self.event_type {
            out.extend_from_slice(b",\"event_type\":");
            json_string(out, event_type);
        }
        out.extend_from_slice(b",\"duplicate\":");
        json_bool(out, self.duplicate);
        out.extend_from_slice(b",\"attempt\":");
        json_number(out, u64::from(self.attempt));
        out.extend_from_slice(b",\"status\":");
        json_number(out, u64::from(self.status));
        if let Some(error) = self.forward_error {
            out.extend_from_slice(b",\"forward_error\":");
            json_string(out, error);
        }
        if let Some(forward) = self.forward {
            out.extend_from_slice(b",\"forward\":{\"url\":");
            json_string(out, &forward.url);
            out.extend_from_slice(b",\"status\":");
            match forward.status {
                Some(status) => json_number(out, u64::from(status)),
                None => out.extend_from_slice(b"null"),
            }
            out.extend_from_slice(b",\"attempts\":");
            json_number(out, u64::from(forward.attempts));
            out.extend_from_slice(b",\"error\":");
            json_optional_string(out, forward.error.as_deref());
            out.extend_from_slice(b",\"delivered\":");
            json_bool(out, forward.delivered);
            if let Some(latency) = forward.latency_ms {
                out.extend_from_slice(b",\"latency_ms\":");
                json_number(out, latency);
            }
            if let Some(answer) = &forward.answer {
                write_answer(out, answer);
            }
            out.push(b'}');
        }
        if let Some(handshake) = self.handshake {
            out.extend_from_slice(b",\"handshake\":");
            json_string(out, handshake);
        }
        out.push(b'}');
    }
}

/// `,"answer":{…}` as serde writes a [`JournalAnswer`] (forwards are rare next to deliveries; this
/// keeps the line written in one pass all the same).
fn write_answer(out: &mut Vec<u8>, answer: &JournalAnswer) {
    out.extend_from_slice(b",\"answer\":{\"headers\":[");
    for (index, (name, value)) in answer.headers.iter().enumerate() {
        if index > 0 {
            out.push(b',');
        }
        out.push(b'[');
        json_string(out, name);
        out.push(b',');
        match value {
            HeaderText::Text(text) => json_string(out, text),
            HeaderText::Binary { base64 } => {
                out.extend_from_slice(b"{\"base64\":");
                json_string(out, base64);
                out.push(b'}');
            }
        }
        out.push(b']');
    }
    out.push(b']');
    match &answer.body {
        JournalBody::Text(text) => {
            out.extend_from_slice(b",\"body\":");
            json_string(out, text);
        }
        JournalBody::Base64(encoded) => {
            out.extend_from_slice(b",\"body_base64\":");
            json_string(out, encoded);
        }
    }
    out.extend_from_slice(b",\"bytes\":");
    json_number(out, answer.bytes);
    out.push(b'}');
}

fn json_bool(out: &mut Vec<u8>, value: bool) {
    out.extend_from_slice(if value { b"true" } else { b"false" });
}

pub(crate) fn json_number(out: &mut Vec<u8>, value: u64) {
    out.extend_from_slice(itoa::Buffer::new().format(value).as_bytes());
}

/// `127.0.0.1:50514` as `Display` writes it; an IPv4 address by hand (formatting one costs more
/// than the rest of the line's numbers together), IPv6 through `Display`.
fn write_socket_addr(out: &mut Vec<u8>, addr: std::net::SocketAddr) {
    match addr {
        std::net::SocketAddr::V4(v4) => {
            for (index, octet) in v4.ip().octets().into_iter().enumerate() {
                if index > 0 {
                    out.push(b'.');
                }
                json_number(out, u64::from(octet));
            }
            out.push(b':');
            json_number(out, u64::from(v4.port()));
        }
        std::net::SocketAddr::V6(v6) => {
            let _ = std::io::Write::write_fmt(out, format_args!("{v6}"));
        }
    }
}

fn json_optional_string(out: &mut Vec<u8>, value: Option<&str>) {
    match value {
        Some(text) => json_string(out, text),
        None => out.extend_from_slice(b"null"),
    }
}

/// How every line starts: the schema, and the key of the time that follows it.
const LINE_START: &str = concat!("{\"schema\":\"", schema!(), "\",\"received_at\":");

/// `text` as a JSON string, as [`json_string`] writes it; for text that seldom holds anything to
/// escape (a time, a method, a scheme's name), checked here, inline, which costs a short string
/// less than a call into the escaper.
#[inline(always)]
fn json_plain_string(out: &mut Vec<u8>, text: &str) {
    if !text.bytes().any(|byte| Stop::AtEscape.at(byte)) {
        out.reserve(text.len() + 2);
        out.push(b'"');
        out.extend_from_slice(text.as_bytes());
        out.push(b'"');
    } else {
        json_string(out, text);
    }
}

/// `text` as a JSON string, escaped exactly as serde_json escapes it (`\"`, `\\`, the short forms
/// of \b \f \n \r \t, `\u00XX` for the other control characters, everything else as is).
pub(crate) fn json_string(out: &mut Vec<u8>, text: &str) {
    out.reserve(text.len() + SHORT_RUN + 2);
    out.push(b'"');
    escape_from(out, text.as_bytes(), 0, Stop::AtEscape);
    out.push(b'"');
}

/// `bytes` as a JSON string, as [`json_string`] writes them, when they are UTF-8; when they are
/// not, nothing is written and the answer is `false`. One pass does both jobs for the common
/// case, ASCII: the first non-ASCII byte starts a character, so the rest is checked as UTF-8 once
/// and then escaped without stopping at non-ASCII bytes again.
pub(crate) fn json_string_if_utf8(out: &mut Vec<u8>, bytes: &[u8]) -> bool {
    let start = out.len();
    out.reserve(bytes.len() + SHORT_RUN + 2);
    out.push(b'"');
    if let Some(non_ascii) = escape_from(out, bytes, 0, Stop::AtEscapeOrNonAscii) {
        if std::str::from_utf8(&bytes[non_ascii..]).is_err() {
            out.truncate(start);
            return false;
        }
        escape_from(out, bytes, non_ascii, Stop::AtEscape);
    }
    out.push(b'"');
    true
}

/// A run between two escapes this short or shorter is copied as a fixed-size block and the output
/// cut back, which costs less than a call into `memcpy` (a body has a quote every few bytes).
const SHORT_RUN: usize = 16;

/// Writes `bytes[from..]` escaped, a run at a time. With [`Stop::AtEscapeOrNonAscii`] it returns
/// the offset of the first non-ASCII byte instead of going past it.
fn escape_from(out: &mut Vec<u8>, bytes: &[u8], from: usize, stop: Stop) -> Option<usize> {
    let mut start = from;
    loop {
        let rest = bytes.get(start..).unwrap_or_default();
        let run = first_stop(rest, stop).unwrap_or(rest.len());
        match rest.first_chunk::<SHORT_RUN>() {
            Some(block) if run <= SHORT_RUN => {
                out.extend_from_slice(block);
                out.truncate(out.len() - SHORT_RUN + run);
            }
            _ => out.extend_from_slice(&rest[..run]),
        }
        let end = start + run;
        let &byte = bytes.get(end)?;
        if byte >= 0x80 {
            return Some(end);
        }
        write_escape(out, byte);
        start = end + 1;
    }
}

/// The escape of a byte that needs one.
#[inline(always)]
fn write_escape(out: &mut Vec<u8>, byte: u8) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    let short = match byte {
        b'"' => b'"',
        b'\\' => b'\\',
        0x08 => b'b',
        0x0c => b'f',
        b'\n' => b'n',
        b'\r' => b'r',
        b'\t' => b't',
        _ => {
            out.extend_from_slice(&[
                b'\\',
                b'u',
                b'0',
                b'0',
                HEX[usize::from(byte >> 4)],
                HEX[usize::from(byte & 0xf)],
            ]);
            return;
        }
    };
    out.extend_from_slice(&[b'\\', short]);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn escaped(text: &str) -> String {
        let mut out = Vec::new();
        json_string(&mut out, text);
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn strings_are_escaped_as_serde_json_escapes_them() {
        let mut samples: Vec<String> = vec![
            String::new(),
            "plain text longer than one word of eight bytes".into(),
            r#"{"id":"evt_1","data":{"a":"b\"c"}}"#.into(),
            "back\\slash, tab\t, cr\r, lf\n, bell\x07, nul\0, esc\x1b, del\x7f, unit\x1f!".into(),
            "ünïcödé → ✓ and \u{2028} \u{202e} 😀".into(),
        ];
        // Every byte value below 0x80 at every offset within a word.
        for byte in 0u8..0x80 {
            for offset in 0..9 {
                samples.push(format!("{}{}{}", "x".repeat(offset), char::from(byte), "y".repeat(17 - offset)));
            }
        }
        for sample in &samples {
            assert_eq!(escaped(sample), serde_json::to_string(sample).unwrap(), "{sample:?}");
        }
    }

    #[test]
    fn several_escapes_in_one_word_and_text_after_them_are_escaped_as_serde_escapes_them() {
        for sample in [
            "\"\"\\\u{1}\u{7f}\u{e9}\"\n\t\r\u{8}\u{c}\u{1f} x",
            "\u{e9}\u{e9}\u{e9}\"\u{20}\u{21}\u{1f}\u{20}",
            "{\"id\":\"evt_1\",\"a\":[\"\",\"\\\\\"],\"b\":\"\u{0}\u{0}\"}",
        ] {
            assert_eq!(escaped(sample), serde_json::to_string(sample).unwrap(), "{sample:?}");
        }
    }

    proptest::proptest! {
        #[test]
        fn any_text_is_escaped_as_serde_escapes_it(text in ".*") {
            proptest::prop_assert_eq!(escaped(&text), serde_json::to_string(&text).unwrap());
        }

        /// Dense with what needs escaping, next to multi-byte characters and bytes just above 0x20
        /// (where a borrow from a flagged byte could flag a neighbour falsely).
        #[test]
        fn text_dense_with_escapes_is_escaped_as_serde_escapes_it(text in "[\"\\\\\\x00-\\x1f !#a\u{e9}\u{2028}]{0,40}") {
            proptest::prop_assert_eq!(escaped(&text), serde_json::to_string(&text).unwrap());
        }
    }

    /// What `json_string_if_utf8` wrote after a prefix it must leave alone, or `None` when it
    /// said the bytes are not UTF-8 (and then it must have written nothing).
    fn escaped_if_utf8(bytes: &[u8]) -> Option<String> {
        let mut out = b"prefix".to_vec();
        let written = json_string_if_utf8(&mut out, bytes);
        let text = String::from_utf8(out).unwrap();
        let escaped = text.strip_prefix("prefix").unwrap().to_string();
        if !written {
            assert_eq!(escaped, "", "nothing is written for bytes that are not UTF-8");
        }
        written.then_some(escaped)
    }

    /// What the journal wrote before: UTF-8 checked first, then escaped by serde.
    fn escaped_by_serde_if_utf8(bytes: &[u8]) -> Option<String> {
        std::str::from_utf8(bytes).ok().map(|text| serde_json::to_string(text).unwrap())
    }

    #[test]
    fn every_byte_at_every_offset_of_two_blocks_is_escaped_or_refused_as_before() {
        for byte in 0..=u8::MAX {
            for offset in 0..34 {
                let mut bytes = vec![b'a'; 40];
                bytes[offset] = byte;
                assert_eq!(escaped_if_utf8(&bytes), escaped_by_serde_if_utf8(&bytes), "{byte:#x} at {offset}");
                // After a multi-byte character, so the byte is judged by the UTF-8 check's pass.
                let mut after = "é".as_bytes().to_vec();
                after.extend_from_slice(&bytes);
                assert_eq!(escaped_if_utf8(&after), escaped_by_serde_if_utf8(&after), "{byte:#x} after é");
            }
        }
    }

    proptest::proptest! {
        #[test]
        fn any_bytes_are_escaped_or_refused_as_before(bytes in proptest::collection::vec(proptest::num::u8::ANY, 0..80)) {
            proptest::prop_assert_eq!(escaped_if_utf8(&bytes), escaped_by_serde_if_utf8(&bytes));
        }

        /// Text (mostly valid UTF-8, with long runs) with one arbitrary byte put somewhere.
        #[test]
        fn text_with_one_odd_byte_is_escaped_or_refused_as_before(
            text in "[a-z\"\\\\\n\u{e9}\u{2028}😀]{0,60}",
            byte in proptest::num::u8::ANY,
            at in 0usize..61,
        ) {
            let mut bytes = text.into_bytes();
            let at = at.min(bytes.len());
            bytes.insert(at, byte);
            proptest::prop_assert_eq!(escaped_if_utf8(&bytes), escaped_by_serde_if_utf8(&bytes));
        }
    }

    #[test]
    fn addresses_are_written_as_display_writes_them() {
        for addr in
            ["0.0.0.0:0", "127.0.0.1:50514", "255.255.255.255:65535", "10.0.20.3:8", "[::1]:443", "[2001:db8::1]:8080"]
        {
            let addr: std::net::SocketAddr = addr.parse().unwrap();
            let mut out = Vec::new();
            write_socket_addr(&mut out, addr);
            assert_eq!(String::from_utf8(out).unwrap(), addr.to_string());
        }
    }

    fn headers() -> http::HeaderMap {
        let mut headers = http::HeaderMap::new();
        headers.insert("content-type", http::HeaderValue::from_static("application/json"));
        headers.append("x-many", http::HeaderValue::from_static("one"));
        headers.append("x-many", http::HeaderValue::from_static("two \"quoted\""));
        headers.insert("stripe-signature", http::HeaderValue::from_static("t=1,v1=abc"));
        headers.insert("x-binary", http::HeaderValue::from_bytes(&[0xff, b'a', 0x80]).unwrap());
        headers
    }

    /// The borrowed record and the owned one it stands for.
    fn pair<'a>(
        headers: &'a http::HeaderMap,
        body: &'a [u8],
        forward: Option<&'a JournalForward>,
        failed: bool,
    ) -> (ReceivedRecord<'a>, JournalRecord) {
        let received = ReceivedRecord {
            // Text that seldom needs escaping is checked, not trusted: the failed record's has some.
            received_at: if failed { "2026-11-29\t13:17:00\"Z" } else { "2026-11-29T13:17:00.123Z" },
            remote: if failed { None } else { Some(std::net::SocketAddr::from(([127, 0, 0, 1], 50514))) },
            method: if failed { "P\\ST\u{7f}" } else { "POST" },
            path: "/webhooks?x=\"1\"",
            headers,
            body,
            valid: !failed,
            scheme: Some(if failed { "str\"ipe" } else { "stripe" }),
            reason: failed.then_some("the signature does not match (hint: \"re-serialised\")"),
            code: failed.then_some("signature_mismatch"),
            event_id: "evt_\u{1}1",
            event_type: (!failed).then_some("payment_intent.succeeded"),
            duplicate: failed,
            attempt: if failed { 4_000_000_000 } else { 1 },
            status: if failed { 401 } else { 200 },
            forward_error: failed.then_some("connection refused"),
            forward,
            handshake: failed.then_some("slack-url-\"verification"),
        };
        let owned = JournalRecord {
            received_at: received.received_at.into(),
            remote: received.remote.map(|remote| remote.to_string()),
            method: received.method.into(),
            path: received.path.into(),
            headers: headers
                .iter()
                .map(|(name, value)| (name.as_str().to_string(), HeaderText::from_bytes(value.as_bytes())))
                .collect(),
            body: JournalBody::from_bytes(body),
            verdict: JournalVerdict {
                valid: received.valid,
                scheme: received.scheme.map(str::to_string),
                reason: received.reason.map(str::to_string),
                code: received.code.map(str::to_string),
            },
            event_id: received.event_id.into(),
            event_type: received.event_type.map(str::to_string),
            duplicate: received.duplicate,
            attempt: received.attempt,
            status: received.status,
            forward_error: received.forward_error.map(str::to_string),
            forward: forward.cloned(),
            handshake: received.handshake.map(str::to_string),
        };
        (received, owned)
    }

    #[test]
    fn answers_are_cut_to_what_is_kept_and_text_stays_text() {
        // `é` is two bytes, after one `a`: the cut falls inside a character.
        let long = format!("a{}", "é".repeat(JournalAnswer::KEPT));
        let answer = JournalAnswer::capped(Vec::new(), long.as_bytes());
        assert_eq!(answer.bytes, long.len() as u64);
        let JournalBody::Text(kept) = &answer.body else { panic!("{answer:?}") };
        assert_eq!(kept.len(), JournalAnswer::KEPT - 1);
        let short = JournalAnswer::capped(Vec::new(), b"{\"ok\":true}");
        assert_eq!((short.body, short.bytes), (JournalBody::Text("{\"ok\":true}".into()), 11));
        let odd = vec![0xffu8; JournalAnswer::KEPT + 5];
        let answer = JournalAnswer::capped(Vec::new(), &odd);
        assert_eq!(answer.body.to_bytes().unwrap().len(), JournalAnswer::KEPT);
    }

    #[test]
    fn a_borrowed_record_is_written_byte_for_byte_as_serde_writes_the_owned_one() {
        let headers = headers();
        let forwards = [
            JournalForward {
                url: "http://127.0.0.1:3000/hook".into(),
                status: Some(201),
                attempts: 1,
                error: None,
                delivered: true,
                latency_ms: Some(12),
                answer: Some(JournalAnswer::capped(
                    vec![
                        ("content-type".into(), HeaderText::Text("application/json".into())),
                        ("x-odd".into(), HeaderText::Binary { base64: "/wCA".into() }),
                    ],
                    br#"{"ok":"\"yes\""}"#,
                )),
            },
            JournalForward {
                url: "http://127.0.0.1:3000/hook".into(),
                status: Some(500),
                attempts: 2,
                error: None,
                delivered: false,
                latency_ms: None,
                answer: Some(JournalAnswer::capped(Vec::new(), &[0xff, 0x00])),
            },
            JournalForward {
                url: "http://x/".into(),
                status: None,
                attempts: 3,
                error: Some("timed out".into()),
                delivered: false,
                latency_ms: Some(30_000),
                answer: None,
            },
        ];
        let bodies: [&[u8]; 4] =
            [br#"{"id":"evt_1","type":"a.b","n":[1,2]}"#, b"", &[0xff, 0x00, 0x80], "caf\u{e9}\n".as_bytes()];
        for body in bodies {
            for forward in [None, Some(&forwards[0]), Some(&forwards[1]), Some(&forwards[2])] {
                for failed in [false, true] {
                    let (received, owned) = pair(&headers, body, forward, failed);
                    let mut fast = Vec::new();
                    received.write_line(&mut fast);
                    let mut reference = Vec::new();
                    crate::json_output::write_line(&mut reference, SCHEMA, &owned).unwrap();
                    assert_eq!(String::from_utf8_lossy(&fast), String::from_utf8_lossy(&reference));
                    let read: JournalRecord = serde_json::from_slice(&fast).unwrap();
                    assert_eq!(read, owned);
                }
            }
        }
    }
}
