//! Arazzo runtime expressions (`$inputs.x`, `$steps.id.outputs.y`, `$response.body#/id`,
//! `$response.header.Location`, `$statusCode`, `$url`, `$method`, …) and `{$…}` inside strings:
//! how the values of one step reach the next.
use anyhow::{Context, bail};
use http::HeaderMap;
use serde_json::{Map, Value};

/// The request a step sent and the answer it got, as expressions read them.
#[derive(Debug, Clone, Default)]
pub(crate) struct Exchanged {
    pub url: String,
    pub method: String,
    pub request_headers: HeaderMap,
    pub query: Vec<(String, String)>,
    pub path: Vec<(String, String)>,
    pub request_body: Option<Value>,
    pub status: u16,
    pub response_headers: HeaderMap,
    /// The JSON body, or the text as a string when it is not JSON.
    pub response_body: Value,
}

/// Everything an expression may read at one point of a run.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Scope<'a> {
    pub inputs: &'a Map<String, Value>,
    /// `stepId → {"outputs": {…}}` of the steps run so far in this workflow.
    pub steps: &'a Map<String, Value>,
    /// `workflowId → {"outputs": {…}}` of the workflows run so far.
    pub workflows: &'a Map<String, Value>,
    /// `name → url` of the source descriptions.
    pub sources: &'a [(String, String)],
    /// The step's request and answer, once it has one.
    pub exchanged: Option<&'a Exchanged>,
}

/// The prefixes that make a string a runtime expression rather than a literal.
const PREFIXES: &[&str] = &[
    "$url",
    "$method",
    "$statusCode",
    "$request.",
    "$response.",
    "$inputs.",
    "$outputs.",
    "$steps.",
    "$workflows.",
    "$sourceDescriptions.",
    "$components.",
    "$self",
];

/// Whether `text` as a whole is a runtime expression.
pub(crate) fn is_expression(text: &str) -> bool {
    PREFIXES.iter().any(|prefix| text.starts_with(prefix))
}

impl Scope<'_> {
    /// The value of one runtime expression; `Ok(None)` when it names a value that is not there
    /// (a body without that member, a header not sent).
    pub(crate) fn evaluate(&self, expression: &str) -> anyhow::Result<Option<Value>> {
        let (path, pointer) = match expression.split_once('#') {
            Some((path, pointer)) => (path, Some(pointer)),
            None => (expression, None),
        };
        let value = self.evaluate_path(path).with_context(|| format!("the runtime expression `{expression}`"))?;
        Ok(match (value, pointer) {
            (Some(value), Some(pointer)) => {
                if !(pointer.is_empty() || pointer.starts_with('/')) {
                    bail!("the runtime expression `{expression}`: `#{pointer}` is not a JSON pointer");
                }
                value.pointer(pointer).cloned()
            }
            (value, _) => value,
        })
    }

    fn evaluate_path(&self, path: &str) -> anyhow::Result<Option<Value>> {
        let exchanged = || self.exchanged.context("it reads the step's request or answer, which is not there yet");
        match path {
            "$url" => return Ok(Some(Value::from(exchanged()?.url.clone()))),
            "$method" => return Ok(Some(Value::from(exchanged()?.method.clone()))),
            "$statusCode" => return Ok(Some(Value::from(exchanged()?.status))),
            "$request.body" => return Ok(exchanged()?.request_body.clone()),
            "$response.body" => return Ok(Some(exchanged()?.response_body.clone())),
            _ => {}
        }
        if let Some(name) = path.strip_prefix("$request.header.") {
            return Ok(header(&exchanged()?.request_headers, name));
        }
        if let Some(name) = path.strip_prefix("$response.header.") {
            return Ok(header(&exchanged()?.response_headers, name));
        }
        if let Some(name) = path.strip_prefix("$request.query.") {
            return Ok(named(&exchanged()?.query, name));
        }
        if let Some(name) = path.strip_prefix("$request.path.") {
            return Ok(named(&exchanged()?.path, name));
        }
        if let Some(rest) = path.strip_prefix("$inputs.") {
            return Ok(dotted(self.inputs, rest));
        }
        if let Some(rest) = path.strip_prefix("$steps.") {
            return Ok(dotted(self.steps, rest));
        }
        if let Some(rest) = path.strip_prefix("$workflows.") {
            return Ok(dotted(self.workflows, rest));
        }
        if let Some(rest) = path.strip_prefix("$sourceDescriptions.") {
            let Some(name) = rest.strip_suffix(".url") else {
                bail!("only $sourceDescriptions.NAME.url is readable");
            };
            return Ok(self.sources.iter().find(|(n, _)| n == name).map(|(_, url)| Value::from(url.clone())));
        }
        if path.starts_with("$components.") || path.starts_with("$self") || path.starts_with("$outputs.") {
            bail!("this expression is not supported yet by idem run in a step (only in workflow outputs for $outputs)");
        }
        bail!("it is not a runtime expression idem run knows")
    }

    /// `value` with its expressions replaced: a string that is wholly an expression becomes its
    /// value (any JSON type); `{$…}` inside a string becomes the value's text; objects and arrays
    /// are walked. A value that is not there is an error naming it.
    pub(crate) fn resolve(&self, value: &Value) -> anyhow::Result<Value> {
        Ok(match value {
            Value::String(text) if is_expression(text.trim()) => self.required(text.trim())?,
            Value::String(text) => Value::String(self.interpolate(text)?),
            Value::Array(items) => {
                Value::Array(items.iter().map(|item| self.resolve(item)).collect::<anyhow::Result<_>>()?)
            }
            Value::Object(members) => Value::Object(
                members
                    .iter()
                    .map(|(name, value)| Ok((name.clone(), self.resolve(value)?)))
                    .collect::<anyhow::Result<_>>()?,
            ),
            other => other.clone(),
        })
    }

    /// The value of an expression that must be there.
    pub(crate) fn required(&self, expression: &str) -> anyhow::Result<Value> {
        self.evaluate(expression)?.with_context(|| format!("the runtime expression `{expression}` names nothing"))
    }

    /// `text` with every `{$…}` replaced by its value's text (a string as it is, anything else as JSON).
    pub(crate) fn interpolate(&self, text: &str) -> anyhow::Result<String> {
        let mut out = String::with_capacity(text.len());
        let mut rest = text;
        while let Some(start) = rest.find("{$") {
            let Some(length) = rest[start..].find('}') else { break };
            out.push_str(&rest[..start]);
            let expression = &rest[start + 1..start + length];
            out.push_str(&as_text(&self.required(expression)?));
            rest = &rest[start + length + 1..];
        }
        out.push_str(rest);
        Ok(out)
    }
}

/// A value as it goes into a URL, a header or a string: a string as it is, anything else as JSON.
pub(crate) fn as_text(value: &Value) -> String {
    match value {
        Value::String(text) => text.clone(),
        other => other.to_string(),
    }
}

fn header(headers: &HeaderMap, name: &str) -> Option<Value> {
    let value = headers.get(name)?;
    Some(Value::from(String::from_utf8_lossy(value.as_bytes()).into_owned()))
}

fn named(pairs: &[(String, String)], name: &str) -> Option<Value> {
    pairs.iter().find(|(n, _)| n == name).map(|(_, value)| Value::from(value.clone()))
}

/// `a.b.c` walked through objects (and array indexes).
fn dotted(root: &Map<String, Value>, path: &str) -> Option<Value> {
    let mut parts = path.split('.');
    let mut value = root.get(parts.next()?)?;
    for part in parts {
        value = match value {
            Value::Object(members) => members.get(part)?,
            Value::Array(items) => items.get(part.parse::<usize>().ok()?)?,
            _ => return None,
        };
    }
    Some(value.clone())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn with<T>(f: impl FnOnce(Scope<'_>) -> T) -> T {
        let inputs = json!({"customer": {"name": "Ada"}, "amount": 500}).as_object().unwrap().clone();
        let steps = json!({"create-customer": {"outputs": {"customerId": "cus_1"}}}).as_object().unwrap().clone();
        let workflows = Map::new();
        let mut response_headers = HeaderMap::new();
        response_headers.insert("location", "/customers/cus_1".parse().unwrap());
        let exchanged = Exchanged {
            url: "http://127.0.0.1:1/customers".into(),
            method: "POST".into(),
            status: 201,
            response_headers,
            response_body: json!({"id": "cus_1", "items": [{"id": "a"}]}),
            ..Exchanged::default()
        };
        let sources = [("api".to_string(), "./api.yaml".to_string())];
        f(Scope {
            inputs: &inputs,
            steps: &steps,
            workflows: &workflows,
            sources: &sources,
            exchanged: Some(&exchanged),
        })
    }

    #[test]
    fn the_specification_s_expressions_read_their_values() {
        with(|scope| {
            assert_eq!(scope.required("$statusCode").unwrap(), json!(201));
            assert_eq!(scope.required("$method").unwrap(), json!("POST"));
            assert_eq!(scope.required("$response.body#/items/0/id").unwrap(), json!("a"));
            assert_eq!(scope.required("$response.header.Location").unwrap(), json!("/customers/cus_1"));
            assert_eq!(scope.required("$inputs.customer.name").unwrap(), json!("Ada"));
            assert_eq!(scope.required("$steps.create-customer.outputs.customerId").unwrap(), json!("cus_1"));
            assert_eq!(scope.required("$sourceDescriptions.api.url").unwrap(), json!("./api.yaml"));
            assert_eq!(scope.evaluate("$response.body#/missing").unwrap(), None);
        })
    }

    #[test]
    fn payloads_take_values_whole_and_inside_strings() {
        with(|scope| {
            let payload = json!({"customer": "$steps.create-customer.outputs.customerId", "amount": "$inputs.amount",
                "memo": "for {$inputs.customer.name} ({$inputs.amount})", "fixed": "$5 off"});
            assert_eq!(
                scope.resolve(&payload).unwrap(),
                json!({"customer": "cus_1", "amount": 500, "memo": "for Ada (500)", "fixed": "$5 off"})
            );
            let err = format!("{:#}", scope.resolve(&json!("$inputs.nothing")).unwrap_err());
            assert!(err.contains("`$inputs.nothing` names nothing"), "{err}");
        })
    }
}
