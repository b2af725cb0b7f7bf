//! Requests that differ from the user's in one known way, for the mismatch and scope checks.
use http::Method;
use serde_json::Value;

use crate::idem::key_carrier::KeyCarrier;

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

/// Where the request's own content lives in a body whose envelope is the protocol's: a GraphQL
/// request's `variables` (the query text is the operation, and the key's directive is in it), a
/// JSON-RPC call's tool payload or params (its `id` numbers the call, and `meta` holds the key and
/// the API version). `None`: the whole body is the content.
fn content_pointer(carrier: &KeyCarrier, body: &Value) -> Option<&'static str> {
    match carrier {
        KeyCarrier::Graphql => Some("/variables"),
        KeyCarrier::JsonRpcMeta if body.pointer("/params/arguments/payload").is_some() => {
            Some("/params/arguments/payload")
        }
        KeyCarrier::JsonRpcMeta => Some("/params"),
        KeyCarrier::Header | KeyCarrier::BodyField(_) | KeyCarrier::Query(_) => None,
    }
}

/// `change` (`vary_body`, or another change a check makes) applied to the part of `body` that is
/// the request's content for this carrier, the envelope left alone: changing a JSON-RPC call's
/// `id` or a GraphQL query's text changes nothing the server deduplicates on, or breaks the request.
pub(super) fn change_content(
    carrier: &KeyCarrier,
    body: &[u8],
    change: impl Fn(&[u8]) -> Option<(Vec<u8>, String)>,
) -> Option<(Vec<u8>, String)> {
    let Some(mut json) = serde_json::from_slice::<Value>(body).ok() else { return change(body) };
    let Some(pointer) = content_pointer(carrier, &json) else { return change(body) };
    let content = json.pointer_mut(pointer)?;
    let (changed, description) = change(&serde_json::to_vec(content).ok()?)?;
    *content = serde_json::from_slice(&changed).ok()?;
    Some((serde_json::to_vec(&json).ok()?, format!("{description} in {}", &pointer[1..].replace('/', "."))))
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

    #[test]
    fn graphql_and_json_rpc_bodies_change_their_content_not_their_envelope() {
        let graphql = br#"{"query":"mutation { refundCreate(amount: 1) { id } }","variables":{"input":{"orderId":"o"},"amount":5}}"#;
        let (body, change) = change_content(&KeyCarrier::Graphql, graphql, vary_body).unwrap();
        let json: Value = serde_json::from_slice(&body).unwrap();
        assert_eq!(json["variables"]["amount"], 6);
        assert_eq!(json["query"], "mutation { refundCreate(amount: 1) { id } }");
        assert_eq!(change, "`amount` 5 → 6 in variables");
        let call = br#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"arguments":{"meta":{"v":"1"},"payload":{"qty":1}}}}"#;
        let (body, change) = change_content(&KeyCarrier::JsonRpcMeta, call, vary_body).unwrap();
        let json: Value = serde_json::from_slice(&body).unwrap();
        assert_eq!((json["id"].clone(), json["params"]["arguments"]["payload"]["qty"].clone()), (1.into(), 2.into()));
        assert_eq!(change, "`qty` 1 → 2 in params.arguments.payload");
        assert_eq!(change_content(&KeyCarrier::Graphql, br#"{"query":"mutation { a }"}"#, vary_body), None);
        let plain = change_content(&KeyCarrier::Header, br#"{"amount":1}"#, vary_body).unwrap();
        assert_eq!(plain.0, br#"{"amount":2}"#);
    }
}
