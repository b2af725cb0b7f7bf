//! From a document to a plan: which operations are tested (those that declare the key header,
//! filtered in Schemathesis' vocabulary), and for each the URL, headers and body to send, or the
//! reason it is skipped.
use http::{HeaderName, HeaderValue, Method};
use serde_json::Value;

use super::body::{self, BodyOrigin, BodyValidator, DocumentBudget};
use super::count::{self, DeclaredCount};
use super::document::Document;
use super::key_location::{DeclaredKey, declared_key, without_key_member};
use super::path_template;
use crate::http::url::percent_encode_component;
use crate::idem::key_carrier::KeyCarrier;

/// The methods an OpenAPI path item may hold, in the order the specification lists them.
const METHODS: [&str; 8] = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];

/// What a filter looks at.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum FilterOn {
    Path,
    Method,
    OperationId,
    Tag,
}

#[derive(Debug, Clone)]
pub(crate) enum Pattern {
    Exact(String),
    Regex(regex::Regex),
}

impl Pattern {
    fn matches(&self, on: FilterOn, value: &str) -> bool {
        match self {
            Pattern::Exact(exact) if on == FilterOn::Method => exact.eq_ignore_ascii_case(value),
            Pattern::Exact(exact) => exact == value,
            Pattern::Regex(regex) => regex.is_match(value),
        }
    }
}

/// One `--include-…` or `--exclude-…` flag.
#[derive(Debug, Clone)]
pub(crate) struct Filter {
    pub on: FilterOn,
    pub include: bool,
    pub pattern: Pattern,
}

/// Which operations are tested. As in Schemathesis: includes of one kind are alternatives (any
/// may match), kinds combine (each must match), and an exclude that matches removes.
#[derive(Debug, Clone, Default)]
pub(crate) struct OperationSelection {
    pub filters: Vec<Filter>,
    pub include_deprecated: bool,
    /// Also test every POST and PATCH that does not declare the key header.
    pub all_unsafe: bool,
    /// The key header's name (`--key-header`).
    pub key_header: String,
    /// `--key-in` or `--key-header` as the user gave them: then the document is only read for
    /// that place, never for another.
    pub user_carrier: Option<KeyCarrier>,
    /// `--param name=value`: path, query and header parameter values.
    pub params: Vec<(String, String)>,
    /// Header names the user sends with `-H` (so a required header parameter is covered).
    pub given_headers: Vec<HeaderName>,
    /// `--id-field` when the user gave one; otherwise each operation's response schema decides.
    pub id_field: Option<String>,
}

/// One operation of the document, chosen or not.
#[derive(Debug, Clone)]
pub(crate) struct Operation {
    pub method: Method,
    /// The path template, as the document writes it (`/payments/{id}/capture`).
    pub path: String,
    pub operation_id: Option<String>,
    pub declares_key: bool,
    pub plan: Result<Planned, String>,
    /// Its `x-idem-count-url` and `x-idem-count-pointer`, if it has them.
    pub count: DeclaredCount,
}

/// What to send for a chosen operation.
#[derive(Debug, Clone)]
pub(crate) struct Planned {
    /// The path with its parameters filled in, and the query string.
    pub path_and_query: String,
    pub headers: Vec<(HeaderName, HeaderValue)>,
    pub body: Option<(String, Value)>,
    pub body_origin: Option<BodyOrigin>,
    /// Where the created resource's id sits in a 2xx answer.
    pub id_field: String,
    /// Where the document puts the key (`None`: tested with `--all-unsafe`, the key where the
    /// command line puts it).
    pub key: Option<DeclaredKey>,
}

/// What every operation's body is generated and checked with.
struct Bodies<'a> {
    validator: BodyValidator<'a>,
    budget: DocumentBudget,
}

/// Every operation of the document in document order, each chosen (with its plan) or skipped
/// (with the reason).
pub(crate) fn plan(document: &Document, selection: &OperationSelection) -> anyhow::Result<Vec<Operation>> {
    let bodies = Bodies { validator: BodyValidator::new(document)?, budget: DocumentBudget::new() };
    let mut operations = Vec::new();
    let Some(paths) = document.root.get("paths").and_then(Value::as_object) else {
        return Ok(operations);
    };
    // A path key that is not a path could reshape the URL it is set in: the whole document is
    // refused before anything is sent, naming the key.
    for path in paths.keys() {
        path_template::check(path).map_err(anyhow::Error::msg)?;
    }
    for (path, item) in paths {
        let (item, item_pointer) = document.deref(item)?;
        let item_pointer = item_pointer.unwrap_or_else(|| format!("/paths/{}", escape(path)));
        for method_name in METHODS {
            let Some(operation) = item.get(method_name) else { continue };
            let method = Method::from_bytes(method_name.to_ascii_uppercase().as_bytes())?;
            let operation_id = operation.get("operationId").and_then(Value::as_str).map(str::to_string);
            let parameters = match parameters(document, item, operation) {
                Ok(parameters) => parameters,
                Err(err) => {
                    let plan = Err(format!("{err:#}"));
                    operations.push(Operation {
                        method,
                        path: path.clone(),
                        operation_id,
                        declares_key: false,
                        plan,
                        count: DeclaredCount::default(),
                    });
                    continue;
                }
            };
            let key = |only_that| declared_key(document, operation, &parameters, &selection.key_header, only_that);
            let declared = match &selection.user_carrier {
                None => key(false),
                Some(KeyCarrier::Header) => key(true),
                Some(carrier) => key(false).filter(|key| key.carrier == *carrier),
            };
            let declares_key = declared.is_some();
            let plan = match chosen(selection, &method, path, operation, declares_key) {
                Err(reason) => Err(reason),
                Ok(()) => {
                    let pointer = format!("{item_pointer}/{method_name}");
                    // The key's own parameter is not filled with its example: the carrier sends the key.
                    let parameters: Vec<Value> = (parameters.iter())
                        .filter(|p| !declared.as_ref().is_some_and(|key| key.is_parameter(p)))
                        .cloned()
                        .collect();
                    plan_one(document, &bodies, selection, path, operation, &pointer, &parameters)
                        .map(|planned| with_declared_key(planned, declared))
                }
            };
            let count = count::declared(operation);
            operations.push(Operation { method, path: path.clone(), operation_id, declares_key, plan, count });
        }
    }
    Ok(operations)
}

/// `Ok` when the operation is to be tested, else why not.
fn chosen(
    selection: &OperationSelection,
    method: &Method,
    path: &str,
    operation: &Value,
    declares_key: bool,
) -> Result<(), String> {
    let unsafe_method = *method == Method::POST || *method == Method::PATCH;
    if !(declares_key || selection.all_unsafe && unsafe_method) {
        return Err(if unsafe_method {
            format!("declares no {} header (--all-unsafe tests it anyway)", selection.key_header)
        } else {
            format!("declares no {} header", selection.key_header)
        });
    }
    if operation.get("deprecated").and_then(Value::as_bool) == Some(true) && !selection.include_deprecated {
        return Err("deprecated (--include-deprecated tests it)".into());
    }
    let operation_id = operation.get("operationId").and_then(Value::as_str).unwrap_or("");
    let tags: Vec<&str> =
        operation.get("tags").and_then(Value::as_array).into_iter().flatten().filter_map(Value::as_str).collect();
    let values = |on: FilterOn| -> Vec<&str> {
        match on {
            FilterOn::Path => vec![path],
            FilterOn::Method => vec![method.as_str()],
            FilterOn::OperationId => vec![operation_id],
            FilterOn::Tag => tags.clone(),
        }
    };
    for on in [FilterOn::Path, FilterOn::Method, FilterOn::OperationId, FilterOn::Tag] {
        let name = filter_name(on);
        let includes: Vec<&Filter> = selection.filters.iter().filter(|f| f.on == on && f.include).collect();
        if !includes.is_empty() && !includes.iter().any(|f| values(on).iter().any(|v| f.pattern.matches(on, v))) {
            return Err(format!("not matched by {}", flag_names(&includes, "include", name)));
        }
        let excluding: Vec<&Filter> = selection
            .filters
            .iter()
            .filter(|f| f.on == on && !f.include && values(on).iter().any(|v| f.pattern.matches(on, v)))
            .collect();
        if !excluding.is_empty() {
            return Err(format!("matched by {}", flag_names(&excluding, "exclude", name)));
        }
    }
    Ok(())
}

/// The flags these filters came from: `--include-path`, `--include-path-regex` or both.
fn flag_names(filters: &[&Filter], side: &str, name: &str) -> String {
    let exact = filters.iter().any(|f| matches!(f.pattern, Pattern::Exact(_)));
    let regex = filters.iter().any(|f| matches!(f.pattern, Pattern::Regex(_)));
    match (exact, regex) {
        (true, true) => format!("--{side}-{name} or --{side}-{name}-regex"),
        (false, true) => format!("--{side}-{name}-regex"),
        _ => format!("--{side}-{name}"),
    }
}

pub(crate) fn filter_name(on: FilterOn) -> &'static str {
    match on {
        FilterOn::Path => "path",
        FilterOn::Method => "method",
        FilterOn::OperationId => "operation-id",
        FilterOn::Tag => "tag",
    }
}

/// The operation's parameters: the path item's, overridden by the operation's own of the same
/// name and location; `$ref`s followed.
fn parameters(document: &Document, item: &Value, operation: &Value) -> anyhow::Result<Vec<Value>> {
    let mut out: Vec<Value> = Vec::new();
    for list in [item.get("parameters"), operation.get("parameters")] {
        for parameter in list.and_then(Value::as_array).into_iter().flatten() {
            let (parameter, _) = document.deref(parameter)?;
            let same = |p: &Value| p.get("name") == parameter.get("name") && p.get("in") == parameter.get("in");
            out.retain(|p| !same(p));
            out.push(parameter.clone());
        }
    }
    Ok(out)
}

fn plan_one(
    document: &Document,
    bodies: &Bodies<'_>,
    selection: &OperationSelection,
    path: &str,
    operation: &Value,
    pointer: &str,
    parameters: &[Value],
) -> Result<Planned, String> {
    let mut filled_path = path.to_string();
    let mut query = Vec::new();
    let mut headers = Vec::new();
    for parameter in parameters {
        let name = parameter.get("name").and_then(Value::as_str).unwrap_or("");
        let location = parameter.get("in").and_then(Value::as_str).unwrap_or("");
        let required = location == "path" || parameter.get("required").and_then(Value::as_bool) == Some(true);
        if location == "header" && name.eq_ignore_ascii_case(&selection.key_header) {
            continue;
        }
        if location == "header" && selection.given_headers.iter().any(|h| h.as_str().eq_ignore_ascii_case(name)) {
            continue;
        }
        let value = selection
            .params
            .iter()
            .find(|(given, _)| given == name)
            .map(|(_, value)| value.clone())
            .or_else(|| parameter_example(document, parameter));
        let Some(value) = value else {
            if required {
                let how =
                    if location == "header" { format!("-H '{name}: VALUE'") } else { format!("--param {name}=VALUE") };
                return Err(format!("the {location} parameter `{name}` has no example: give {how}"));
            }
            continue;
        };
        match location {
            "path" => filled_path = filled_path.replace(&format!("{{{name}}}"), &percent_encode_component(&value)),
            "query" => query.push(format!("{}={}", percent_encode_component(name), percent_encode_component(&value))),
            "header" => {
                let header = HeaderName::from_bytes(name.as_bytes())
                    .map_err(|_| format!("the header parameter `{name}` is not a valid header name"))?;
                let value = HeaderValue::from_str(&value)
                    .map_err(|_| format!("the example of the header parameter `{name}` cannot be sent in a header"))?;
                headers.push((header, value));
            }
            _ => {}
        }
    }
    if let Some(start) = filled_path.find('{') {
        let end = filled_path[start..].find('}').map_or(filled_path.len(), |end| start + end + 1);
        return Err(format!(
            "the path parameter `{}` is not declared: give --param {}=VALUE",
            &filled_path[start..end],
            filled_path[start..end].trim_matches(|c| c == '{' || c == '}')
        ));
    }
    let filled_path = path_template::encode(&filled_path);
    let path_and_query = if query.is_empty() { filled_path } else { format!("{filled_path}?{}", query.join("&")) };
    let (body, body_origin) = match request_body(document, bodies, operation, pointer)? {
        Some((content_type, value, origin)) => (Some((content_type, value)), Some(origin)),
        None => (None, None),
    };
    let id_field =
        selection.id_field.clone().or_else(|| id_field_of(document, operation)).unwrap_or_else(|| "/id".into());
    Ok(Planned { path_and_query, headers, body, body_origin, id_field, key: None })
}

/// The plan with the key where the document puts it, the document's example of a body key taken out.
fn with_declared_key(mut planned: Planned, key: Option<DeclaredKey>) -> Planned {
    if let (Some(key), Some((_, body))) = (&key, &mut planned.body) {
        without_key_member(key, body);
    }
    planned.key = key;
    planned
}

/// A parameter's example: its own `example`, its first `examples` value, or its schema's
/// example, default or first enum value.
fn parameter_example(document: &Document, parameter: &Value) -> Option<String> {
    let example =
        parameter.get("example").cloned().or_else(|| first_example(document, parameter.get("examples"))).or_else(
            || {
                let schema = parameter.get("schema")?;
                body::schema_example(document, schema).or_else(|| {
                    let (schema, _) = document.deref(schema).ok()?;
                    schema.get("enum").and_then(Value::as_array).and_then(|values| values.first()).cloned()
                })
            },
        )?;
    Some(match example {
        Value::String(text) => text,
        other => other.to_string(),
    })
}

/// The `value` of the first entry of an OpenAPI `examples` map (entries may be `$ref`s).
fn first_example(document: &Document, examples: Option<&Value>) -> Option<Value> {
    let (_, first) = examples?.as_object()?.iter().next()?;
    let (first, _) = document.deref(first).ok()?;
    first.get("value").cloned()
}

/// The JSON body to send: (content type, value, origin), `None` when the operation takes no
/// body, or why none can be sent.
fn request_body(
    document: &Document,
    bodies: &Bodies<'_>,
    operation: &Value,
    pointer: &str,
) -> Result<Option<(String, Value, BodyOrigin)>, String> {
    let Some(request_body) = operation.get("requestBody") else { return Ok(None) };
    let (request_body, landed) = document.deref(request_body).map_err(|err| format!("{err:#}"))?;
    let body_pointer = landed.unwrap_or_else(|| format!("{pointer}/requestBody"));
    let required = request_body.get("required").and_then(Value::as_bool) == Some(true);
    let content = request_body.get("content").and_then(Value::as_object);
    let json_media = content.and_then(|content| {
        content
            .iter()
            .find(|(kind, _)| is_json(kind))
            .or_else(|| content.iter().find(|(kind, _)| kind.ends_with("+json")))
    });
    let Some((content_type, media)) = json_media else {
        if !required {
            return Ok(None);
        }
        let kinds: Vec<&String> = content.map(|c| c.keys().collect()).unwrap_or_default();
        return Err(format!(
            "its body is {}, and idem generates JSON bodies only",
            if kinds.is_empty() {
                "undescribed".to_string()
            } else {
                kinds.iter().map(|k| k.as_str()).collect::<Vec<_>>().join(", ")
            }
        ));
    };
    let schema_pointer = format!("{body_pointer}/content/{}/schema", escape(content_type));
    let schema = media.get("schema").cloned().unwrap_or(Value::Bool(true));
    let mut candidates: Vec<(Value, BodyOrigin)> = Vec::new();
    if let Some(example) = media.get("example").cloned().or_else(|| first_example(document, media.get("examples"))) {
        candidates.push((example, BodyOrigin::OperationExample));
    }
    if let Some(example) = body::schema_example(document, &schema) {
        candidates.push((example, BodyOrigin::SchemaExample));
    }
    let mut reasons = Vec::new();
    match body::generate_within(document, &schema, &bodies.budget) {
        Ok(generated) => candidates.push((generated, BodyOrigin::Generated)),
        Err(reason) => reasons.push(format!("no body can be generated from its schema: {reason}")),
    }
    let has_schema = media.get("schema").is_some();
    for (candidate, origin) in candidates {
        let verdict = if has_schema { bodies.validator.validate(&schema_pointer, &candidate) } else { Ok(()) };
        match verdict {
            Ok(()) => return Ok(Some((content_type.clone(), candidate, origin))),
            Err(reason) => {
                reasons.push(format!("the {} does not validate against its schema: {reason}", origin_name(origin)))
            }
        }
    }
    Err(body::bounded_reason(reasons.join("; ")))
}

fn origin_name(origin: BodyOrigin) -> &'static str {
    match origin {
        BodyOrigin::OperationExample => "operation's example",
        BodyOrigin::SchemaExample => "schema's example",
        BodyOrigin::Generated => "generated body",
    }
}

fn is_json(content_type: &str) -> bool {
    content_type.split(';').next().is_some_and(|kind| kind.trim().eq_ignore_ascii_case("application/json"))
}

/// The first string `id` property the operation's 2xx answer declares, as a JSON pointer
/// (`/id`, `/data/id`), looked for breadth first a few levels deep.
fn id_field_of(document: &Document, operation: &Value) -> Option<String> {
    let responses = operation.get("responses")?.as_object()?;
    let mut codes: Vec<&String> = responses.keys().filter(|code| code.starts_with('2')).collect();
    codes.sort_by_key(|code| (code.as_str() != "201", code.as_str() != "200", code.to_string()));
    for code in codes {
        let (response, _) = document.deref(&responses[code.as_str()]).ok()?;
        let Some(content) = response.get("content").and_then(Value::as_object) else { continue };
        let Some((_, media)) = content.iter().find(|(kind, _)| is_json(kind) || kind.ends_with("+json")) else {
            continue;
        };
        let Some(schema) = media.get("schema") else { continue };
        let mut level = vec![(String::new(), schema.clone())];
        for _ in 0..3 {
            let mut next = Vec::new();
            for (prefix, schema) in level {
                let Ok((schema, _)) = document.deref(&schema) else { continue };
                let parts: Vec<Value> = std::iter::once(schema.clone())
                    .chain(schema.get("allOf").and_then(Value::as_array).into_iter().flatten().cloned())
                    .collect();
                for part in parts {
                    let Ok((part, _)) = document.deref(&part) else { continue };
                    let Some(properties) = part.get("properties").and_then(Value::as_object) else { continue };
                    if let Some(id) = properties.get("id")
                        && document.deref(id).ok().and_then(|(id, _)| id.get("type").cloned())
                            == Some(Value::from("string"))
                    {
                        return Some(format!("{prefix}/id"));
                    }
                    for (name, property) in properties {
                        next.push((format!("{prefix}/{}", escape(name)), property.clone()));
                    }
                }
            }
            level = next;
        }
    }
    None
}

/// A key as a JSON pointer segment.
pub(crate) fn escape(key: &str) -> String {
    key.replace('~', "~0").replace('/', "~1")
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn spec() -> Document {
        let key = json!({"name": "Idempotency-Key", "in": "header", "required": false, "schema": {"type": "string"}});
        let body = |schema: Value| json!({"required": true, "content": {"application/json": {"schema": schema}}});
        let root = json!({
            "openapi": "3.1.0",
            "info": {"title": "t", "version": "1"},
            "paths": {
                "/payments": {
                    "post": {"operationId": "createPayment", "tags": ["payments"], "parameters": [{"$ref": "#/components/parameters/Key"}],
                             "requestBody": body(json!({"$ref": "#/components/schemas/NewPayment"})),
                             "responses": {"201": {"description": "", "content": {"application/json": {"schema": {
                                 "type": "object", "properties": {"data": {"type": "object", "properties": {"id": {"type": "string"}}}}}}}}}},
                    "get": {"operationId": "listPayments", "responses": {}}
                },
                "/payments/{id}/capture": {
                    "parameters": [{"name": "id", "in": "path", "required": true, "schema": {"type": "string"}}],
                    "post": {"operationId": "capture", "tags": ["payments"], "parameters": [key.clone()], "responses": {}}
                },
                "/refunds": {
                    "post": {"operationId": "createRefund", "tags": ["refunds"], "parameters": [key.clone()],
                             "requestBody": {"content": {"application/json": {"example": {"payment": "pay_1"},
                                 "schema": {"type": "object", "required": ["payment"], "properties": {"payment": {"type": "string"}}}}}},
                             "responses": {}},
                    "patch": {"operationId": "updateRefund", "responses": {}}
                },
                "/legacy": {"post": {"operationId": "legacy", "deprecated": true, "parameters": [key.clone()], "responses": {}}},
                "/upload": {"post": {"operationId": "upload", "parameters": [key],
                    "requestBody": {"required": true, "content": {"multipart/form-data": {}}}, "responses": {}}}
            },
            "components": {
                "parameters": {"Key": {"name": "Idempotency-Key", "in": "header", "schema": {"type": "string"}}},
                "schemas": {"NewPayment": {"type": "object", "required": ["amount"], "properties": {"amount": {"type": "integer", "minimum": 100}}}}
            }
        });
        Document::from_value(root, "test", None).unwrap()
    }

    fn selection() -> OperationSelection {
        OperationSelection { key_header: "Idempotency-Key".into(), ..OperationSelection::default() }
    }

    fn by_id<'a>(operations: &'a [Operation], id: &str) -> &'a Operation {
        operations.iter().find(|op| op.operation_id.as_deref() == Some(id)).unwrap()
    }

    #[test]
    fn operations_that_declare_the_key_are_planned_and_the_rest_say_why_not() {
        let operations = plan(&spec(), &selection()).unwrap();
        assert_eq!(operations.len(), 7);
        let create = by_id(&operations, "createPayment").plan.as_ref().unwrap();
        assert_eq!(create.path_and_query, "/payments");
        assert_eq!(create.body, Some(("application/json".into(), json!({"amount": 100}))));
        assert_eq!(create.body_origin, Some(BodyOrigin::Generated));
        assert_eq!(create.id_field, "/data/id");
        let refund = by_id(&operations, "createRefund").plan.as_ref().unwrap();
        assert_eq!(refund.body_origin, Some(BodyOrigin::OperationExample));
        assert_eq!(by_id(&operations, "listPayments").plan.as_ref().unwrap_err(), "declares no Idempotency-Key header");
        assert!(by_id(&operations, "updateRefund").plan.as_ref().unwrap_err().contains("--all-unsafe"));
        assert!(by_id(&operations, "legacy").plan.as_ref().unwrap_err().contains("deprecated"));
        assert!(by_id(&operations, "capture").plan.as_ref().unwrap_err().contains("--param id=VALUE"));
        assert!(by_id(&operations, "upload").plan.as_ref().unwrap_err().contains("multipart/form-data"));
    }

    #[test]
    fn params_filters_and_all_unsafe_change_the_plan() {
        let mut chosen = selection();
        chosen.params = vec![("id".into(), "pay 1".into())];
        chosen.all_unsafe = true;
        chosen.include_deprecated = true;
        let operations = plan(&spec(), &chosen).unwrap();
        assert_eq!(by_id(&operations, "capture").plan.as_ref().unwrap().path_and_query, "/payments/pay%201/capture");
        assert!(by_id(&operations, "updateRefund").plan.is_ok());
        assert!(by_id(&operations, "legacy").plan.is_ok());

        let mut filtered = selection();
        filtered.filters = vec![
            Filter { on: FilterOn::Tag, include: true, pattern: Pattern::Exact("payments".into()) },
            Filter {
                on: FilterOn::Path,
                include: false,
                pattern: Pattern::Regex(regex::Regex::new("capture$").unwrap()),
            },
        ];
        let operations = plan(&spec(), &filtered).unwrap();
        assert!(by_id(&operations, "createPayment").plan.is_ok());
        assert_eq!(by_id(&operations, "capture").plan.as_ref().unwrap_err(), "matched by --exclude-path-regex");
        assert_eq!(by_id(&operations, "createRefund").plan.as_ref().unwrap_err(), "not matched by --include-tag");

        let mut by_method = selection();
        by_method.filters =
            vec![Filter { on: FilterOn::Method, include: true, pattern: Pattern::Exact("patch".into()) }];
        by_method.all_unsafe = true;
        let operations = plan(&spec(), &by_method).unwrap();
        assert!(by_id(&operations, "updateRefund").plan.is_ok());
        assert!(by_id(&operations, "createPayment").plan.is_err());
    }

    #[test]
    fn a_thousand_operations_are_planned() {
        let mut paths = serde_json::Map::new();
        for i in 0..1000 {
            paths.insert(
                format!("/things{i}"),
                json!({"post": {"operationId": format!("create{i}"),
                    "parameters": [{"$ref": "#/components/parameters/Key"}],
                    "requestBody": {"content": {"application/json": {"schema": {"$ref": "#/components/schemas/NewPayment"}}}},
                    "responses": {"201": {"description": ""}}}}),
            );
        }
        let mut document = spec();
        document.root["paths"] = Value::Object(paths);
        let operations = plan(&document, &selection()).unwrap();
        assert_eq!(operations.iter().filter(|op| op.plan.is_ok()).count(), 1000);
    }
}
