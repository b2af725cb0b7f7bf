//! Where an operation's document says the idempotency key lives: a header parameter, a query
//! parameter or a member of the JSON request body. Read conservatively: a name must say
//! "idempotency" (or be one of the few headers listed below) before it is taken for the key, so a
//! document that names neither is left to `--key-in` or `--all-unsafe`.
use serde_json::Value;

use super::document::Document;
use crate::idem::key_carrier::KeyCarrier;

/// Header names that carry an idempotency key without saying "idempotency" in them, each with
/// the API that documents it so.
const KEY_HEADERS_BY_ANOTHER_NAME: &[(&str, &str)] = &[
    // PayPal REST APIs: "PayPal-Request-Id … The server stores keys for … to make the call idempotent".
    ("PayPal-Request-Id", "PayPal"),
];

/// The body members taken for the key when the request body's JSON schema declares them at its
/// top level (Square's `idempotency_key`, and its camelCase spelling).
const KEY_MEMBERS: &[&str] = &["idempotency_key", "idempotencyKey"];

/// The key's place as the document declares it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct DeclaredKey {
    pub carrier: KeyCarrier,
    /// The header's name as the document writes it, for `KeyCarrier::Header`.
    pub header: Option<String>,
}

impl DeclaredKey {
    /// Whether `parameter` is the key itself (so it is not filled with its example as well).
    pub(crate) fn is_parameter(&self, parameter: &Value) -> bool {
        let name = parameter.get("name").and_then(Value::as_str).unwrap_or("");
        match (&self.carrier, parameter.get("in").and_then(Value::as_str)) {
            (KeyCarrier::Header, Some("header")) => {
                self.header.as_deref().is_some_and(|h| h.eq_ignore_ascii_case(name))
            }
            (KeyCarrier::Query(query), Some("query")) => query == name,
            _ => false,
        }
    }
}

fn says_idempotency(name: &str) -> bool {
    name.to_ascii_lowercase().contains("idempoten")
}

/// Where the document puts the key of this operation. `key_header` is the header the user named
/// (`--key-header`, `--key-in header:`, or the default `Idempotency-Key`), which wins over any
/// other header; `only_that` (the user named it, or gave another `--key-in`) leaves the rest
/// unread, so a document never overrides the command line.
pub(crate) fn declared_key(
    document: &Document,
    operation: &Value,
    parameters: &[Value],
    key_header: &str,
    only_that: bool,
) -> Option<DeclaredKey> {
    let named = |location: &str, matches: &dyn Fn(&str) -> bool| {
        parameters.iter().find_map(|parameter| {
            let name = parameter.get("name").and_then(Value::as_str)?;
            (parameter.get("in").and_then(Value::as_str) == Some(location) && matches(name)).then(|| name.to_string())
        })
    };
    if let Some(name) = named("header", &|name| name.eq_ignore_ascii_case(key_header)) {
        return Some(DeclaredKey { carrier: KeyCarrier::Header, header: Some(name) });
    }
    if only_that {
        return None;
    }
    let known = |name: &str| {
        says_idempotency(name) || KEY_HEADERS_BY_ANOTHER_NAME.iter().any(|(known, _)| known.eq_ignore_ascii_case(name))
    };
    if let Some(name) = named("header", &known) {
        return Some(DeclaredKey { carrier: KeyCarrier::Header, header: Some(name) });
    }
    if let Some(name) = named("query", &says_idempotency) {
        return Some(DeclaredKey { carrier: KeyCarrier::Query(name), header: None });
    }
    let members = body_members(document, operation);
    KEY_MEMBERS
        .iter()
        .find(|member| members.iter().any(|m| m == *member))
        .map(|member| DeclaredKey { carrier: KeyCarrier::BodyField(format!("/{member}")), header: None })
}

/// The top-level property names of the operation's JSON request body schema.
fn body_members(document: &Document, operation: &Value) -> Vec<String> {
    let Some(body) = operation.get("requestBody") else { return Vec::new() };
    let Ok((body, _)) = document.deref(body) else { return Vec::new() };
    let schemas = body.get("content").and_then(Value::as_object).into_iter().flatten().filter_map(|(kind, media)| {
        let json = kind.starts_with("application/json") || kind.contains("+json");
        json.then(|| media.get("schema")).flatten()
    });
    let mut members = Vec::new();
    for schema in schemas {
        let Ok((schema, _)) = document.deref(schema) else { continue };
        let properties = schema.get("properties").and_then(Value::as_object);
        members.extend(properties.into_iter().flatten().map(|(name, _)| name.clone()));
    }
    members
}

/// The JSON body without the key's member: the carrier writes a fresh key there for every
/// request, and a request without a key must not carry the document's example of one.
pub(crate) fn without_key_member(key: &DeclaredKey, body: &mut Value) {
    if let (KeyCarrier::BodyField(pointer), Value::Object(members)) = (&key.carrier, body) {
        members.remove(&pointer[1..]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn declared(operation: Value, key_header: &str, only_that: bool) -> Option<String> {
        let document = Document::from_value(json!({"openapi": "3.1.0", "paths": {}}), "test", None).unwrap();
        let parameters: Vec<Value> = operation.get("parameters").and_then(Value::as_array).cloned().unwrap_or_default();
        declared_key(&document, &operation, &parameters, key_header, only_that)
            .map(|key| key.carrier.describe(key.header.as_deref().unwrap_or_default()))
    }

    #[test]
    fn the_key_is_read_from_headers_queries_and_bodies_that_say_idempotency() {
        let header = |name: &str| json!({"parameters": [{"name": name, "in": "header"}]});
        assert_eq!(declared(header("Idempotency-Key"), "Idempotency-Key", false).unwrap(), "header:Idempotency-Key");
        assert_eq!(
            declared(header("X-Idempotency-Key"), "Idempotency-Key", false).unwrap(),
            "header:X-Idempotency-Key"
        );
        assert_eq!(
            declared(header("PayPal-Request-Id"), "Idempotency-Key", false).unwrap(),
            "header:PayPal-Request-Id"
        );
        assert_eq!(declared(header("X-Request-Id"), "Idempotency-Key", false), None, "a request id is not a key");
        let query = json!({"parameters": [{"name": "idempotency_key", "in": "query"}]});
        assert_eq!(declared(query, "Idempotency-Key", false).unwrap(), "query:idempotency_key");
        let body = json!({"requestBody": {"content": {"application/json": {"schema": {"type": "object",
            "properties": {"amount": {"type": "integer"}, "idempotency_key": {"type": "string"}}}}}}});
        assert_eq!(declared(body.clone(), "Idempotency-Key", false).unwrap(), "body:/idempotency_key");
        // A header the user named is the only one read.
        assert_eq!(declared(body, "Idempotency-Key", true), None);
        assert_eq!(declared(header("X-Idempotency-Key"), "Idempotency-Key", true), None);
    }

    #[test]
    fn the_key_member_leaves_the_planned_body() {
        let key = DeclaredKey { carrier: KeyCarrier::BodyField("/idempotency_key".into()), header: None };
        let mut body = json!({"amount": 1, "idempotency_key": "example"});
        without_key_member(&key, &mut body);
        assert_eq!(body, json!({"amount": 1}));
    }
}
