//! Requests that differ from the user's in one known way, for the mismatch and scope checks.
use http::Method;
use serde_json::Value;

/// The user's body with one value changed, and a description of the change; `None` when there is
/// no body to vary.
pub(super) fn vary_body(body: &[u8]) -> Option<(Vec<u8>, String)> {
    if body.is_empty() {
        return None;
    }
    if let Ok(Value::Object(mut fields)) = serde_json::from_slice::<Value>(body) {
        // Change a value the server surely reads (an amount, a name) rather than add a field it
        // may reject as unknown, which would pass the check for the wrong reason.
        let number = fields.iter().find_map(|(name, value)| value.as_i64().map(|n| (name.clone(), n)));
        let description = if let Some((name, n)) = number {
            let changed = n.checked_add(1).unwrap_or(n - 1);
            fields.insert(name.clone(), Value::from(changed));
            format!("`{name}` {n} → {changed}")
        } else if let Some((name, text)) =
            fields.iter().find_map(|(name, value)| value.as_str().map(|t| (name.clone(), t.to_string())))
        {
            fields.insert(name.clone(), Value::from(format!("{text}-2")));
            format!("`{name}` \"{text}\" → \"{text}-2\"")
        } else {
            fields.insert("idem_check_variant".to_string(), Value::from(1));
            "added `idem_check_variant`".to_string()
        };
        let varied = serde_json::to_vec(&Value::Object(fields)).ok()?;
        return Some((varied, description));
    }
    let text = String::from_utf8_lossy(body);
    if text.contains('=') && !text.contains('{') {
        let mut varied = body.to_vec();
        varied.extend_from_slice(b"&idem_check_variant=1");
        return Some((varied, "added the form field `idem_check_variant=1`".to_string()));
    }
    let mut varied = body.to_vec();
    varied.extend_from_slice(b"-variant");
    Some((varied, "appended `-variant` to the body".to_string()))
}

/// Another method to try the same key with: PUT for a POST, POST otherwise.
pub(super) fn other_method(method: &Method) -> Method {
    if method == Method::POST { Method::PUT } else { Method::POST }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_bodies_change_their_first_number() {
        let (body, description) = vary_body(br#"{"amount":1990,"currency":"RUB"}"#).unwrap();
        assert_eq!(body, br#"{"amount":1991,"currency":"RUB"}"#);
        assert_eq!(description, "`amount` 1990 → 1991");
    }

    #[test]
    fn other_bodies() {
        assert_eq!(vary_body(br#"{"name":"x"}"#).unwrap().0, br#"{"name":"x-2"}"#);
        assert_eq!(vary_body(br#"{"ok":true}"#).unwrap().0, br#"{"ok":true,"idem_check_variant":1}"#);
        assert_eq!(vary_body(b"a=1").unwrap().0, b"a=1&idem_check_variant=1");
        assert_eq!(vary_body(b"").map(|v| v.0), None);
    }
}
