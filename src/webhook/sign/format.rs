//! The shapes `webhook sign` prints: header lines, a ready curl command, a raw HTTP/1.1 request
//! (which `webhook verify --request` reads back), or one JSON document.
use std::borrow::Cow;
use std::io::{Read, Write};

use anyhow::Context;
use http::Uri;
use serde::Serialize;
use serde_json::{Map, Value};

use super::signed::Signed;
use crate::http::body::looks_like_json;
use crate::text::shell_quote;
use crate::webhook::delivery::DeliveryBody;
use crate::webhook::scheme::{SchemeKind, spelled};

/// What `webhook sign` prints. curl and raw HTTP carry their destination, so "curl without a URL"
/// cannot be asked for: the command line turns `--format` and `--url` into one of these.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SignOutput {
    /// `Name: value` lines (then a blank line and the body when --event built it)
    Headers,
    /// One JSON document: scheme, id, timestamp, headers, body
    Json,
    /// A curl command that sends the signed request to this URL
    Curl(Uri),
    /// The whole raw HTTP/1.1 request to this URL, as `webhook verify --request` reads it
    Http(Uri),
}

pub(super) fn write(signed: &Signed<'_>, output: &SignOutput, out: &mut impl Write) -> anyhow::Result<()> {
    match output {
        SignOutput::Headers => write_headers(signed, out),
        SignOutput::Json => write_json(signed, out),
        SignOutput::Curl(url) => write_curl(signed, url, out),
        SignOutput::Http(url) => write_http(signed, url, out),
    }
}

fn header_lines(signed: &Signed<'_>) -> Vec<String> {
    signed
        .headers
        .iter()
        .map(|(name, value)| format!("{}: {}", spelled(name), String::from_utf8_lossy(value.as_bytes())))
        .collect()
}

fn write_headers(signed: &Signed<'_>, out: &mut impl Write) -> anyhow::Result<()> {
    for line in header_lines(signed) {
        writeln!(out, "{line}")?;
    }
    if signed.generated
        && let DeliveryBody::Bytes(body) = &signed.delivery.body
    {
        writeln!(out)?;
        out.write_all(body)?;
        // The newline is for the terminal; it is not part of the signed body.
        writeln!(out)?;
    }
    Ok(())
}

/// `webhook sign --format json`: what was signed and the headers that carry the signature.
#[derive(Debug, Serialize, schemars::JsonSchema)]
pub(crate) struct SignDocument {
    pub scheme: SchemeKind,
    /// The delivery id, for schemes with an id header; `null` otherwise.
    pub id: Option<String>,
    /// The signed UNIX timestamp, for timestamped schemes; `null` otherwise.
    pub timestamp: Option<i64>,
    /// The event type (`--event`), `null` without one.
    pub event: Option<String>,
    /// The headers to send, spelled as the provider does.
    pub headers: Map<String, Value>,
    /// The signed body as text; `null` for a body read from a file (the caller has it) or one that
    /// is not UTF-8 (a JSON string cannot carry it without loss).
    pub body: Option<String>,
}

/// The `schema` value of `webhook sign --format json`.
pub(crate) const SCHEMA: &str = "webhook-sign/1";

fn write_json(signed: &Signed<'_>, out: &mut impl Write) -> anyhow::Result<()> {
    let scheme = signed.scheme;
    let headers: Map<String, Value> = signed
        .headers
        .iter()
        .map(|(name, value)| (spelled(name).into_owned(), String::from_utf8_lossy(value.as_bytes()).into()))
        .collect();
    let body = match &signed.delivery.body {
        DeliveryBody::Bytes(bytes) => std::str::from_utf8(bytes).ok().map(str::to_string),
        DeliveryBody::File(_) => None,
    };
    let document = SignDocument {
        scheme: scheme.kind(),
        id: scheme.delivery_id_header().map(|_| signed.delivery.id.clone()),
        timestamp: scheme.is_timestamped().then_some(signed.delivery.timestamp),
        event: signed.delivery.event.clone(),
        headers,
        body,
    };
    crate::json_output::write_pretty(&mut *out, SCHEMA, &document)?;
    writeln!(out)?;
    Ok(())
}

fn write_curl(signed: &Signed<'_>, url: &Uri, out: &mut impl Write) -> anyhow::Result<()> {
    let mut words = vec![format!("curl -X POST {}", shell_quote(&url.to_string()))];
    if let Some(content_type) = content_type(&signed.delivery.body)? {
        words.push(format!("-H {}", shell_quote(&format!("Content-Type: {content_type}"))));
    }
    for line in header_lines(signed) {
        words.push(format!("-H {}", shell_quote(&line)));
    }
    match &signed.delivery.body {
        // --data-binary @file sends the file's bytes untouched, the bytes that were signed.
        DeliveryBody::File(path) => {
            words.push(format!("--data-binary {}", shell_quote(&format!("@{}", path.display()))));
        }
        // --data-raw, unlike -d, gives `@` no meaning, so a body that starts with one is sent as is.
        DeliveryBody::Bytes(bytes) => {
            let text = std::str::from_utf8(bytes).ok().filter(|text| !text.contains('\0')).context(
                "this body has bytes a command line cannot carry; save it to a file and sign it with -d @file",
            )?;
            words.push(format!("--data-raw {}", shell_quote(text)));
        }
    }
    writeln!(out, "{}", words.join(" \\\n  "))?;
    Ok(())
}

fn write_http(signed: &Signed<'_>, url: &Uri, out: &mut impl Write) -> anyhow::Result<()> {
    let body = body_bytes(&signed.delivery.body)?;
    let target = url.path_and_query().map(|target| target.as_str()).unwrap_or("/");
    let host = url.authority().map(|authority| authority.as_str()).unwrap_or_default();
    let mut head = format!("POST {target} HTTP/1.1\r\nHost: {host}\r\n");
    let lines = header_lines(signed);
    // A provider's template brings its own User-Agent (GitHub-Hookshot/…) and Content-Type: one
    // of each, as the provider sends them.
    let given = |name: &str| {
        lines.iter().any(|line| line.split(':').next().is_some_and(|given| given.trim().eq_ignore_ascii_case(name)))
    };
    if !given("user-agent") {
        head.push_str(&format!("User-Agent: webhook/{}\r\n", env!("CARGO_PKG_VERSION")));
    }
    if looks_like_json(&body) && !given("content-type") {
        head.push_str("Content-Type: application/json\r\n");
    }
    head.push_str(&format!("Content-Length: {}\r\n", body.len()));
    for line in lines {
        head.push_str(&line);
        head.push_str("\r\n");
    }
    head.push_str("\r\n");
    out.write_all(head.as_bytes())?;
    out.write_all(&body)?;
    Ok(())
}

fn body_bytes(body: &DeliveryBody) -> anyhow::Result<Cow<'_, [u8]>> {
    match body {
        DeliveryBody::Bytes(bytes) => Ok(Cow::Borrowed(bytes)),
        DeliveryBody::File(path) => Ok(Cow::Owned(
            std::fs::read(path).with_context(|| format!("cannot read the body from `{}`", path.display()))?,
        )),
    }
}

/// The Content-Type a JSON body gets. A file is judged by its first non-blank byte rather than
/// read whole: the curl command streams it, so reading a large file only for this would defeat that.
fn content_type(body: &DeliveryBody) -> anyhow::Result<Option<&'static str>> {
    let is_json = match body {
        DeliveryBody::Bytes(bytes) => looks_like_json(bytes),
        DeliveryBody::File(path) => {
            let mut start = [0u8; 4096];
            let read = std::fs::File::open(path)
                .and_then(|mut file| file.read(&mut start))
                .with_context(|| format!("cannot read the body from `{}`", path.display()))?;
            matches!(start[..read].iter().find(|byte| !byte.is_ascii_whitespace()), Some(b'{' | b'['))
        }
    };
    Ok(is_json.then_some("application/json"))
}
