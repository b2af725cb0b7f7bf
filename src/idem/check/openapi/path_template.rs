//! An OpenAPI path key (`/payments/{id}/capture`): checked before anything is sent, since it is
//! set after the target's path prefix and must stay a path: it starts with `/`, holds no query
//! or fragment, and its `{parameter}` braces pair up. Filled in, its characters that a URL path
//! cannot hold are percent-encoded.

/// `Ok` when `key` is a path template a request can be made from, else what is wrong with it.
pub(crate) fn check(key: &str) -> Result<(), String> {
    if !key.starts_with('/') {
        return Err(format!(
            "the path key `{key}` does not start with `/`: OpenAPI path keys are paths that follow the server URL \
             (`/payments`); fix the document"
        ));
    }
    if key.contains('?') {
        return Err(format!(
            "the path key `{key}` holds a query (`?`): a path key is a path; declare query parameters with \
             `in: query` instead"
        ));
    }
    if key.contains('#') {
        return Err(format!("the path key `{key}` holds a fragment (`#`), which is never sent: remove it"));
    }
    let mut rest = key;
    while let Some(at) = rest.find(['{', '}']) {
        if rest[at..].starts_with('}') {
            return Err(format!("the path key `{key}` is a malformed template: a `}}` without its `{{`"));
        }
        let after = &rest[at + 1..];
        let Some(end) = after.find(['{', '}', '/']).filter(|end| after[*end..].starts_with('}')) else {
            return Err(format!("the path key `{key}` is a malformed template: a `{{` without its `}}`"));
        };
        if end == 0 {
            return Err(format!("the path key `{key}` is a malformed template: `{{}}` names no parameter"));
        }
        rest = &after[end + 1..];
    }
    Ok(())
}

/// `path` with every byte a URL path cannot hold percent-encoded (spaces, non-ASCII, `"<>\^`{|}`);
/// `%XX` escapes already there are kept, a `%` that starts none is encoded.
pub(crate) fn encode(path: &str) -> String {
    let bytes = path.as_bytes();
    let mut out = String::with_capacity(path.len());
    for (index, &byte) in bytes.iter().enumerate() {
        let escape_follows =
            byte == b'%' && bytes.get(index + 1..index + 3).is_some_and(|hex| hex.iter().all(u8::is_ascii_hexdigit));
        if byte.is_ascii_alphanumeric() || b"-._~!$&'()*+,;=:@/".contains(&byte) || escape_follows {
            out.push(char::from(byte));
        } else {
            out.push_str(&format!("%{byte:02X}"));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn path_keys_that_are_not_paths_or_not_templates_say_what_is_wrong() {
        for key in ["/payments", "/payments/{id}/capture", "/a/{x}.{y}", "/", "/@host:1/x"] {
            assert_eq!(check(key), Ok(()), "{key}");
        }
        let cases = [
            ("@127.0.0.1:18402/stolen", "does not start with `/`"),
            ("2/stolen", "does not start with `/`"),
            (".localhost/stolen", "does not start with `/`"),
            ("", "does not start with `/`"),
            ("/p?admin=1", "holds a query"),
            ("/p#x", "holds a fragment"),
            ("/{", "malformed template: a `{` without its `}`"),
            ("/{a/b}", "malformed template: a `{` without its `}`"),
            ("/{a{b}}", "malformed template: a `{` without its `}`"),
            ("/a}", "malformed template: a `}` without its `{`"),
            ("/{}", "`{}` names no parameter"),
        ];
        for (key, complaint) in cases {
            let err = check(key).unwrap_err();
            assert!(err.contains(complaint) && err.contains(&format!("`{key}`")), "{key}: {err}");
        }
    }

    #[test]
    fn characters_a_path_cannot_hold_are_encoded_and_escapes_kept() {
        assert_eq!(encode("/a b/ü/%2F/%zz/x:y@z"), "/a%20b/%C3%BC/%2F/%25zz/x:y@z");
        assert_eq!(encode("/{x}|\"<>"), "/%7Bx%7D%7C%22%3C%3E");
    }
}
