//! `--key-in`: where the idempotency key travels. Most APIs read a header, but some read the key
//! from the request itself: Square takes `idempotency_key` in the JSON body, Shopify's Admin
//! GraphQL API (mandatory from 2026-04 for refunds and inventory adjustments) takes an
//! `@idempotent(key: "…")` directive on the mutation's field, and the Agentic Commerce Protocol's
//! MCP binding carries it in the tool call's `meta.idempotency_key`. Each logical request's key is
//! written where its API reads it, afresh for every request.
use anyhow::{Context, bail};
use bytes::Bytes;
use http::Uri;
use serde_json::Value;

/// Where the key goes. A header's name lives in `RequestSpec::key_header`, so `--key-header`
/// and every check that reads the header name keep working unchanged.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum KeyCarrier {
    /// `header:NAME` (the default, `Idempotency-Key`).
    #[default]
    Header,
    /// `body:/json/pointer`: a string member of the JSON body, intermediate objects created.
    BodyField(String),
    /// `query:NAME`: a query parameter, percent-encoded.
    Query(String),
    /// `graphql`: an `@idempotent(key: "…")` directive on the mutation's top-level field.
    Graphql,
    /// `jsonrpc-meta`: the JSON-RPC request's `meta.idempotency_key` (ACP's MCP binding).
    JsonRpcMeta,
}

/// What `--key-in` accepts, for messages.
pub(crate) const KEY_IN_FORMS: &str = "header:NAME, body:/json/pointer, query:NAME, graphql or jsonrpc-meta";

impl KeyCarrier {
    /// Parses `--key-in`: the carrier, and the header name when it is `header:NAME`.
    pub fn parse(text: &str) -> anyhow::Result<(KeyCarrier, Option<String>)> {
        let (kind, rest) = match text.split_once(':') {
            Some((kind, rest)) => (kind, Some(rest)),
            None => (text, None),
        };
        match (kind, rest) {
            ("header", Some(name)) if !name.is_empty() => Ok((KeyCarrier::Header, Some(name.to_string()))),
            ("body", Some(pointer)) if pointer.starts_with('/') && pointer.len() > 1 => {
                Ok((KeyCarrier::BodyField(pointer.to_string()), None))
            }
            ("body", _) => {
                bail!("--key-in `{text}`: body: takes a JSON pointer to where the key goes, like body:/idempotency_key")
            }
            ("query", Some(name)) if !name.is_empty() => Ok((KeyCarrier::Query(name.to_string()), None)),
            ("graphql", None) => Ok((KeyCarrier::Graphql, None)),
            ("jsonrpc-meta", None) => Ok((KeyCarrier::JsonRpcMeta, None)),
            _ => bail!("--key-in `{text}` is not one of {KEY_IN_FORMS}"),
        }
    }

    /// The `--key-in` form, as the JSON reports give it: `header:Idempotency-Key`, `body:/key`, …
    pub fn describe(&self, key_header: &str) -> String {
        match self {
            KeyCarrier::Header => format!("header:{}", crate::output::header_display_name(key_header)),
            KeyCarrier::BodyField(pointer) => format!("body:{pointer}"),
            KeyCarrier::Query(name) => format!("query:{name}"),
            KeyCarrier::Graphql => "graphql".to_string(),
            KeyCarrier::JsonRpcMeta => "jsonrpc-meta".to_string(),
        }
    }

    /// What precedes the key on the human key line: the header's name, or where the key went.
    pub fn label(&self, key_header: &str) -> String {
        match self {
            KeyCarrier::Header => crate::output::header_display_name(key_header),
            KeyCarrier::BodyField(pointer) => format!("Key (body {pointer})"),
            KeyCarrier::Query(name) => format!("Key (query {name})"),
            KeyCarrier::Graphql => "Key (@idempotent)".to_string(),
            KeyCarrier::JsonRpcMeta => "Key (JSON-RPC meta.idempotency_key)".to_string(),
        }
    }

    /// Writes `key` into the URL or body where this carrier puts it (a header is set by the caller).
    pub fn place(&self, key: &str, url: &mut Uri, body: &mut Bytes) -> anyhow::Result<()> {
        match self {
            KeyCarrier::Header => {}
            KeyCarrier::Query(name) => *url = with_query_parameter(url, name, key)?,
            KeyCarrier::BodyField(pointer) => {
                let mut json = json_body(body, &format!("--key-in body:{pointer}"))?;
                set_at_pointer(&mut json, pointer, Value::String(key.to_string()))?;
                *body = Bytes::from(serde_json::to_vec(&json)?);
            }
            KeyCarrier::Graphql => {
                let mut json = json_body(body, "--key-in graphql")?;
                let query = json
                    .get("query")
                    .and_then(Value::as_str)
                    .context("--key-in graphql needs a GraphQL request body: a JSON object with a \"query\" string")?;
                let rewritten = crate::idem::graphql_directive::with_idempotent_key(query, key)?;
                json["query"] = Value::String(rewritten);
                *body = Bytes::from(serde_json::to_vec(&json)?);
            }
            KeyCarrier::JsonRpcMeta => {
                let mut json = json_body(body, "--key-in jsonrpc-meta")?;
                if json.get("jsonrpc").and_then(Value::as_str) != Some("2.0") || json.get("method").is_none() {
                    bail!(
                        "--key-in jsonrpc-meta needs a JSON-RPC 2.0 request body: an object with \"jsonrpc\": \
                         \"2.0\" and a \"method\""
                    );
                }
                let method = json.get("method").and_then(Value::as_str).map(str::to_string);
                let pointer = jsonrpc_meta_pointer(method.as_deref());
                set_at_pointer(&mut json, &pointer, Value::String(key.to_string())).context("--key-in jsonrpc-meta")?;
                *body = Bytes::from(serde_json::to_vec(&json)?);
            }
        }
        Ok(())
    }
}

/// Where ACP's MCP binding (agentic-commerce-protocol, docs/mcp-binding.md, "Header Mapping")
/// puts the `Idempotency-Key` header: `meta.idempotency_key` of the tool's arguments. An MCP tool
/// call is `{"method": "tools/call", "params": {"name": …, "arguments": {"meta": …, "payload": …}}}`,
/// so the key goes to `params.arguments.meta`; any other JSON-RPC method has no `arguments`, and
/// the key goes to `params.meta` beside its other parameters.
fn jsonrpc_meta_pointer(method: Option<&str>) -> String {
    match method {
        Some("tools/call") => "/params/arguments/meta/idempotency_key".to_string(),
        _ => "/params/meta/idempotency_key".to_string(),
    }
}

fn json_body(body: &[u8], flag: &str) -> anyhow::Result<Value> {
    if body.is_empty() {
        bail!("{flag} writes the key into a JSON body, and there is none: give one with -d");
    }
    serde_json::from_slice(body)
        .map_err(|error| anyhow::anyhow!("{flag} needs a JSON body, and -d is not JSON: {error}"))
}

/// Sets `value` at `pointer`, creating the objects on the way; a step through anything but an
/// object (an array, a string, …) is refused, since overwriting it would change the request.
fn set_at_pointer(json: &mut Value, pointer: &str, value: Value) -> anyhow::Result<()> {
    let mut here = json;
    let tokens: Vec<String> =
        pointer.split('/').skip(1).map(|token| token.replace("~1", "/").replace("~0", "~")).collect();
    let mut walked = String::new();
    for (index, token) in tokens.iter().enumerate() {
        let Value::Object(object) = here else {
            let at = if walked.is_empty() { "the body".to_string() } else { walked.clone() };
            bail!("cannot put the key at {pointer}: {at} is not a JSON object");
        };
        walked.push('/');
        walked.push_str(token);
        if index + 1 == tokens.len() {
            object.insert(token.clone(), value);
            return Ok(());
        }
        here = object.entry(token.clone()).or_insert_with(|| Value::Object(Default::default()));
    }
    unreachable!("a pointer that starts with / has at least one token")
}

/// The URL with `name=value` appended to its query, both percent-encoded.
fn with_query_parameter(url: &Uri, name: &str, value: &str) -> anyhow::Result<Uri> {
    use percent_encoding::{NON_ALPHANUMERIC, utf8_percent_encode};
    // Unreserved characters stay as they are, so a UUID reads the same in the URL.
    const COMPONENT: &percent_encoding::AsciiSet =
        &NON_ALPHANUMERIC.remove(b'-').remove(b'_').remove(b'.').remove(b'~');
    let parameter = format!("{}={}", utf8_percent_encode(name, COMPONENT), utf8_percent_encode(value, COMPONENT));
    let path = url.path();
    let path_and_query = match url.query() {
        Some(query) if !query.is_empty() => format!("{path}?{query}&{parameter}"),
        _ => format!("{path}?{parameter}"),
    };
    let mut parts = url.clone().into_parts();
    parts.path_and_query = Some(path_and_query.parse().context("cannot add the key to the URL's query")?);
    Uri::from_parts(parts).context("cannot add the key to the URL's query")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn placed(carrier: &KeyCarrier, body: &str) -> anyhow::Result<Value> {
        let mut url: Uri = "http://127.0.0.1:1/p".parse().unwrap();
        let mut body = Bytes::from(body.to_string());
        carrier.place("k-1", &mut url, &mut body)?;
        Ok(serde_json::from_slice(&body).unwrap())
    }

    #[test]
    fn parses_every_form_and_refuses_others() {
        assert_eq!(KeyCarrier::parse("header:X-Key").unwrap(), (KeyCarrier::Header, Some("X-Key".into())));
        assert_eq!(KeyCarrier::parse("body:/a/b").unwrap().0, KeyCarrier::BodyField("/a/b".into()));
        assert_eq!(KeyCarrier::parse("query:key").unwrap().0, KeyCarrier::Query("key".into()));
        assert_eq!(KeyCarrier::parse("graphql").unwrap().0, KeyCarrier::Graphql);
        assert_eq!(KeyCarrier::parse("jsonrpc-meta").unwrap().0, KeyCarrier::JsonRpcMeta);
        for bad in ["body:key", "body:", "header:", "cookie:k", "graphql:x", ""] {
            assert!(KeyCarrier::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn body_pointer_creates_objects_and_refuses_non_objects() {
        let carrier = KeyCarrier::BodyField("/a/b".into());
        assert_eq!(placed(&carrier, r#"{"x":1}"#).unwrap(), serde_json::json!({"x":1,"a":{"b":"k-1"}}));
        assert!(placed(&carrier, r#"{"a":[1]}"#).unwrap_err().to_string().contains("/a is not a JSON object"));
        assert!(placed(&carrier, "amount=1").unwrap_err().to_string().contains("not JSON"));
        assert!(placed(&KeyCarrier::BodyField("/k".into()), "[1]").is_err());
    }

    #[test]
    fn query_parameter_is_appended_percent_encoded() {
        let mut url: Uri = "http://127.0.0.1:1/p?a=1".parse().unwrap();
        KeyCarrier::Query("idempotency key".into()).place("k 1&x", &mut url, &mut Bytes::new()).unwrap();
        assert_eq!(url.to_string(), "http://127.0.0.1:1/p?a=1&idempotency%20key=k%201%26x");
    }

    #[test]
    fn jsonrpc_meta_follows_the_mcp_binding() {
        let tool_call = r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"create_checkout_session","arguments":{"meta":{"api_version":"2026-01-30"},"payload":{}}}}"#;
        let json = placed(&KeyCarrier::JsonRpcMeta, tool_call).unwrap();
        assert_eq!(
            json["params"]["arguments"]["meta"],
            serde_json::json!({"api_version":"2026-01-30","idempotency_key":"k-1"})
        );
        let plain = placed(&KeyCarrier::JsonRpcMeta, r#"{"jsonrpc":"2.0","id":1,"method":"pay"}"#).unwrap();
        assert_eq!(plain["params"]["meta"]["idempotency_key"], "k-1");
        assert!(placed(&KeyCarrier::JsonRpcMeta, r#"{"method":"pay"}"#).is_err());
        assert!(placed(&KeyCarrier::JsonRpcMeta, r#"{"jsonrpc":"2.0","method":"pay","params":[1]}"#).is_err());
    }
}
