//! Why a signature that does not match might still be right: the common mistakes, each tried in
//! turn. A hint is only given when a variant actually verifies, so it is never a guess.
use std::io;

use serde_json::ser::{Formatter, PrettyFormatter, Serializer};

use crate::webhook::scheme::{KeyForm, ReceivedRequest, Scheme, SigningKey, TimeWindow, VerifyError};
use crate::webhook::secret::Secret;

/// Bodies larger than this get no re-serialisation hints: each try is a full parse and HMAC.
const MAX_HINT_BODY: usize = 8 * 1024 * 1024;

/// A hint for a failed verification, when one of the common mistakes explains it.
pub(crate) fn diagnose(
    scheme: &dyn Scheme,
    request: &ReceivedRequest<'_>,
    secret: &Secret,
    window: TimeWindow,
) -> Option<String> {
    let body = request.body;
    let fits =
        |key: &SigningKey, body: &[u8]| signature_fits(scheme.verify_request(&request.with_body(body), key, window));
    if let Some(hint) = secret_form_hint(scheme, secret, body, &fits) {
        return Some(hint);
    }
    let key = scheme.verifying_key(secret).ok()?;
    newline_hint(body, |candidate| fits(&key, candidate))
        .or_else(|| reserialisation_hint(body, |candidate| fits(&key, candidate)))
}

/// Whether the signature matched, whatever the timestamp says.
fn signature_fits(result: Result<crate::webhook::scheme::Verified, VerifyError>) -> bool {
    match result {
        Ok(_) => true,
        Err(err) => err.signature_matched(),
    }
}

/// The sender keyed the HMAC with the other form of the secret (decoded vs as given).
fn secret_form_hint(
    scheme: &dyn Scheme,
    secret: &Secret,
    body: &[u8],
    fits: &impl Fn(&SigningKey, &[u8]) -> bool,
) -> Option<String> {
    let used = scheme.key_form();
    let other = match used {
        KeyForm::Raw => KeyForm::WhsecBase64,
        KeyForm::WhsecBase64 => KeyForm::Raw,
        KeyForm::Hex => KeyForm::Raw,
    };
    let key = other.derive(secret).ok()?;
    fits(&key, body).then(|| {
        format!(
            "the signature matches when the key is {}, but --scheme {} keys with {}; the sender and the receiver \
             disagree on how the secret is decoded",
            other.describe(),
            scheme.kind(),
            used.describe()
        )
    })
}

/// A newline was added to or lost from the end of the body after signing.
fn newline_hint(body: &[u8], fits: impl Fn(&[u8]) -> bool) -> Option<String> {
    if let Some(stripped) = body.strip_suffix(b"\n") {
        let stripped = stripped.strip_suffix(b"\r").unwrap_or(stripped);
        if fits(stripped) {
            return Some(
                "the signature matches this body without its trailing newline: a newline was added after signing \
                 (echo, a text editor and heredocs add one); verify the exact bytes that were sent"
                    .to_string(),
            );
        }
    }
    for ending in [&b"\n"[..], b"\r\n"] {
        if fits(&[body, ending].concat()) {
            return Some(
                "the signature matches this body with a trailing newline: the sender signed one that was lost on the \
                 way (shell $(…) and trimming strip it); verify the exact bytes that were sent"
                    .to_string(),
            );
        }
    }
    None
}

/// The body is JSON and was re-serialised (parsed and encoded again) between signing and verifying.
fn reserialisation_hint(body: &[u8], fits: impl Fn(&[u8]) -> bool) -> Option<String> {
    if body.len() > MAX_HINT_BODY {
        return None;
    }
    let value: serde_json::Value = serde_json::from_slice(body).ok()?;
    for (style, text) in reserialisations(&value) {
        for ending in [&b""[..], b"\n"] {
            let candidate = [text.as_slice(), ending].concat();
            if candidate != body && fits(&candidate) {
                return Some(format!(
                    "the signature matches the same JSON written {style}: the body was parsed and re-serialised \
                     between sending and verifying (a framework's JSON parser, json.dumps, or a pretty-printer); \
                     verify the raw bytes as received"
                ));
            }
        }
    }
    None
}

/// The ways JSON libraries commonly write a document, each with the name a person recognises:
/// compact (serde, `JSON.stringify`), pretty-printed, Python's `json.dumps` default (`", "` and
/// `": "` separators, non-ASCII escaped as `\uXXXX`), sorted keys, ASCII-escaped unicode.
pub(crate) fn reserialisations(value: &serde_json::Value) -> Vec<(&'static str, Vec<u8>)> {
    let mut styles = Vec::new();
    let sorted = sort_keys(value);
    if let Some(spaced) = write_with(value, SpacedFormatter) {
        styles.push((
            "as Python's json.dumps writes it by default (`, ` and `: ` separators, non-ASCII as \\uXXXX)",
            ascii_escaped(&spaced),
        ));
        styles.push(("with `, ` and `: ` separators (Python's json.dumps with ensure_ascii=False)", spaced));
    }
    if let Ok(compact) = serde_json::to_vec(value) {
        styles.push(("compactly with non-ASCII escaped as \\uXXXX", ascii_escaped(&compact)));
        styles.push(("compactly (no spaces)", compact));
    }
    if let Ok(pretty) = serde_json::to_vec_pretty(value) {
        styles.push(("pretty-printed with 2-space indents", pretty));
    }
    if let Some(four) = write_with(value, PrettyFormatter::with_indent(b"    ")) {
        styles.push(("pretty-printed with 4-space indents", four));
    }
    if let Some(spaced) = write_with(&sorted, SpacedFormatter) {
        styles.push(("with sorted keys as Python's json.dumps(sort_keys=True) writes it", ascii_escaped(&spaced)));
    }
    if let Ok(compact) = serde_json::to_vec(&sorted) {
        styles.push(("compactly with sorted keys", compact));
    }
    styles
}

/// The same document with every key sorted, at every depth.
fn sort_keys(value: &serde_json::Value) -> serde_json::Value {
    match value {
        serde_json::Value::Object(fields) => {
            let mut keys: Vec<&String> = fields.keys().collect();
            keys.sort();
            serde_json::Value::Object(keys.into_iter().map(|k| (k.clone(), sort_keys(&fields[k]))).collect())
        }
        serde_json::Value::Array(items) => serde_json::Value::Array(items.iter().map(sort_keys).collect()),
        other => other.clone(),
    }
}

/// Every non-ASCII character written as `\uXXXX` (surrogate pairs beyond the BMP), as Python's
/// `ensure_ascii` does. In serialised JSON they can only be inside strings, so this is exact.
fn ascii_escaped(json: &[u8]) -> Vec<u8> {
    let text = String::from_utf8_lossy(json);
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if c.is_ascii() {
            out.push(c);
        } else {
            let mut units = [0u16; 2];
            for unit in c.encode_utf16(&mut units) {
                out.push_str(&format!("\\u{unit:04x}"));
            }
        }
    }
    out.into_bytes()
}

fn write_with(value: &serde_json::Value, formatter: impl Formatter) -> Option<Vec<u8>> {
    let mut out = Vec::new();
    serde::Serialize::serialize(value, &mut Serializer::with_formatter(&mut out, formatter)).ok()?;
    Some(out)
}

/// One line, `, ` between items and `: ` after keys, as Python's `json.dumps` writes by default.
struct SpacedFormatter;

impl Formatter for SpacedFormatter {
    fn begin_array_value<W: ?Sized + io::Write>(&mut self, writer: &mut W, first: bool) -> io::Result<()> {
        if first { Ok(()) } else { writer.write_all(b", ") }
    }

    fn begin_object_key<W: ?Sized + io::Write>(&mut self, writer: &mut W, first: bool) -> io::Result<()> {
        if first { Ok(()) } else { writer.write_all(b", ") }
    }

    fn begin_object_value<W: ?Sized + io::Write>(&mut self, writer: &mut W) -> io::Result<()> {
        writer.write_all(b": ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn python_style_json() {
        let value: serde_json::Value = serde_json::from_str(r#"{"a":[1,2],"b":{"c":null}}"#).unwrap();
        assert_eq!(write_with(&value, SpacedFormatter).unwrap(), br#"{"a": [1, 2], "b": {"c": null}}"#);
    }

    #[test]
    fn python_default_escapes_non_ascii_and_sorted_keys_are_named() {
        let value: serde_json::Value = serde_json::from_str(r#"{"b":"café ✓ 😀","a":1}"#).unwrap();
        let styles = reserialisations(&value);
        let (name, python) = &styles[0];
        assert!(name.contains("json.dumps writes it by default"), "{name}");
        assert_eq!(python, br#"{"b": "caf\u00e9 \u2713 \ud83d\ude00", "a": 1}"#);
        let sorted = styles.iter().find(|(name, _)| name.contains("sort_keys")).unwrap();
        assert!(sorted.1.starts_with(br#"{"a": 1"#));
    }

    #[test]
    fn newline_hints_only_when_a_variant_fits() {
        let signed = b"{\"a\":1}".to_vec();
        let fits = |candidate: &[u8]| candidate == signed.as_slice();
        assert!(newline_hint(b"{\"a\":1}\n", fits).unwrap().contains("without its trailing newline"));
        assert!(newline_hint(b"{\"a\":1}\r\n", fits).unwrap().contains("without"));
        let signed_with_newline = b"x\n".to_vec();
        assert!(newline_hint(b"x", |c: &[u8]| c == signed_with_newline.as_slice()).unwrap().contains("with a"));
        assert!(newline_hint(b"y", fits).is_none());
    }

    #[test]
    fn reserialisation_hints_name_the_style() {
        let signed = b"{\"a\": 1, \"b\": [true]}".to_vec();
        let hint = reserialisation_hint(br#"{"a":1,"b":[true]}"#, |c: &[u8]| c == signed.as_slice()).unwrap();
        assert!(hint.contains("json.dumps"));
        let pretty = b"{\n  \"a\": 1\n}\n".to_vec();
        let hint = reserialisation_hint(br#"{"a":1}"#, |c: &[u8]| c == pretty.as_slice()).unwrap();
        assert!(hint.contains("2-space"));
        assert!(reserialisation_hint(b"not json", |_: &[u8]| true).is_none());
    }
}
