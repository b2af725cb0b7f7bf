//! Validation of the `Idempotency-Key` header value as the reference server accepts it.

/// Keys longer than this are refused (the IETF draft leaves the limit to the server; 255 is what
/// the big payment APIs use).
pub(super) const MAX_KEY_LEN: usize = 255;

/// The key carried by a header value: 1 to 255 visible ASCII characters, or the same as a quoted
/// structured-header string (`"…"`, where spaces and `\"` escapes are allowed).
pub(super) fn parse_key(raw: &[u8]) -> Result<String, String> {
    let key = if raw.len() >= 2 && raw[0] == b'"' && raw[raw.len() - 1] == b'"' {
        unquote(&raw[1..raw.len() - 1])?
    } else {
        if let Some(bad) = raw.iter().find(|byte| !(0x21..=0x7e).contains(*byte)) {
            return Err(format!("the key contains the byte 0x{bad:02x}; only visible ASCII characters are allowed"));
        }
        String::from_utf8_lossy(raw).into_owned()
    };
    match key.len() {
        0 => Err("the key is empty".to_string()),
        len if len > MAX_KEY_LEN => Err(format!("the key is {len} characters long; at most {MAX_KEY_LEN} are allowed")),
        _ => Ok(key),
    }
}

/// Who is calling, for scoping keys: a digest of the `Authorization` header (never the
/// credential itself, which the store would otherwise keep), or `anonymous`.
pub(super) fn caller_of(headers: &http::HeaderMap) -> String {
    match headers.get(http::header::AUTHORIZATION) {
        None => "anonymous".to_string(),
        Some(value) => {
            let digest = ring::digest::digest(&ring::digest::SHA256, value.as_bytes());
            format!("caller-{}", hex::encode(&digest.as_ref()[..8]))
        }
    }
}

/// The body as the fingerprint sees it: JSON in a canonical form (keys sorted, no whitespace), so
/// a client that re-serialises its body on retry still sends "the same request".
pub(super) fn canonical_body(body: &[u8]) -> Vec<u8> {
    fn sort(value: serde_json::Value) -> serde_json::Value {
        match value {
            serde_json::Value::Object(fields) => {
                let mut fields: Vec<_> = fields.into_iter().map(|(name, value)| (name, sort(value))).collect();
                fields.sort_by(|a, b| a.0.cmp(&b.0));
                serde_json::Value::Object(fields.into_iter().collect())
            }
            serde_json::Value::Array(items) => serde_json::Value::Array(items.into_iter().map(sort).collect()),
            other => other,
        }
    }
    match serde_json::from_slice::<serde_json::Value>(body) {
        Ok(value) => serde_json::to_vec(&sort(value)).unwrap_or_else(|_| body.to_vec()),
        Err(_) => body.to_vec(),
    }
}

/// The inside of a structured-header string: printable ASCII, with `\\` and `\"` escapes.
fn unquote(inner: &[u8]) -> Result<String, String> {
    let mut key = String::with_capacity(inner.len());
    let mut bytes = inner.iter();
    while let Some(&byte) = bytes.next() {
        match byte {
            b'\\' => match bytes.next() {
                Some(&escaped @ (b'\\' | b'"')) => key.push(escaped as char),
                _ => return Err("the quoted key has an invalid escape; only \\\\ and \\\" are allowed".to_string()),
            },
            b'"' => return Err("the quoted key has an unescaped quote inside".to_string()),
            0x20..=0x7e => key.push(byte as char),
            other => return Err(format!("the key contains the byte 0x{other:02x}; only printable ASCII is allowed")),
        }
    }
    Ok(key)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_and_quoted_keys() {
        assert_eq!(parse_key(b"8e03978e-40d5-43e8-bc93-6894a57f9324").unwrap(), "8e03978e-40d5-43e8-bc93-6894a57f9324");
        assert_eq!(parse_key(b"\"a key\"").unwrap(), "a key");
        assert_eq!(parse_key(br#""say \"hi\"""#).unwrap(), "say \"hi\"");
        assert_eq!(parse_key(b"\"abc\"").unwrap(), parse_key(b"abc").unwrap());
    }

    #[test]
    fn equal_json_has_one_canonical_form() {
        assert_eq!(
            canonical_body(br#"{ "b": 1, "a": {"d":2,"c":3} }"#),
            canonical_body(br#"{"a":{"c":3,"d":2},"b":1}"#)
        );
        assert_ne!(canonical_body(br#"{"a":1}"#), canonical_body(br#"{"a":2}"#));
    }

    #[test]
    fn callers_are_told_apart_without_keeping_the_credential() {
        let mut headers = http::HeaderMap::new();
        assert_eq!(caller_of(&headers), "anonymous");
        headers.insert(http::header::AUTHORIZATION, http::HeaderValue::from_static("Bearer a"));
        let a = caller_of(&headers);
        headers.insert(http::header::AUTHORIZATION, http::HeaderValue::from_static("Bearer b"));
        assert_ne!(a, caller_of(&headers));
        assert!(!a.contains("Bearer"));
    }

    #[test]
    fn invalid_keys() {
        assert!(parse_key(b"").is_err());
        assert!(parse_key(b"\"\"").is_err());
        assert!(parse_key(b"has space").is_err());
        assert!(parse_key("caf\u{e9}".as_bytes()).is_err());
        assert!(parse_key(&[b'a'; 256]).is_err());
        assert!(parse_key(&[b'a'; 255]).is_ok());
        assert!(parse_key(b"\"bad\\n\"").is_err());
    }
}
