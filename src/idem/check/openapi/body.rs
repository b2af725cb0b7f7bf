//! Request bodies for an operation: the operation's own example first, then the schema's, else
//! a minimal valid instance generated from the JSON Schema. Every body is validated against its
//! schema before it is sent; one that cannot be made valid is a skip reason, never garbage sent.
use std::cell::{Cell, OnceCell, RefCell};
use std::collections::HashMap;

use serde_json::{Map, Value, json};

use super::document::{Document, Version};
use crate::http::url::percent_encode_fragment;

/// How deep generation follows nested schemas before it calls the schema recursive.
const MAX_DEPTH: usize = 32;

/// The largest body generated: request bodies are payments and orders, not files, and a
/// document's `minItems`, `minLength` or pattern quantifier must not decide how much memory
/// idem takes.
pub(crate) const MAX_BODY_BYTES: usize = 1024 * 1024;

/// How many schemas one body's generation may visit: alternatives nested in alternatives
/// (`anyOf` of `anyOf`s through `$ref`s) multiply, and a small document could otherwise ask
/// for millions.
const MAX_STEPS: usize = 100_000;

/// The longest reason kept (in characters): nested alternatives each add their own.
const MAX_REASON_CHARS: usize = 1000;

/// `reason`, cut to [`MAX_REASON_CHARS`] with a note saying so.
pub(crate) fn bounded_reason(reason: String) -> String {
    match reason.char_indices().nth(MAX_REASON_CHARS) {
        None => reason,
        Some((end, _)) => format!("{}… (cut at {MAX_REASON_CHARS} characters)", &reason[..end]),
    }
}

/// The refusal of a body that grows past [`MAX_BODY_BYTES`].
fn too_large() -> String {
    format!("the body would be larger than {}, the most idem generates", max_body())
}

/// "1 MiB", for messages.
fn max_body() -> String {
    crate::http::body::format_size(MAX_BODY_BYTES as u64)
}

/// Where a body came from, for the report.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub(crate) enum BodyOrigin {
    /// The media type's `example` or first `examples` entry.
    OperationExample,
    /// The schema's own `example`, `examples` or `default`.
    SchemaExample,
    /// Generated from the schema: required properties, types, enums, formats, bounds, patterns.
    Generated,
}

/// A minimal instance of `schema` (which may be a `$ref`), or why none can be made.
#[cfg(test)]
pub(crate) fn generate(document: &Document, schema: &Value) -> Result<Value, String> {
    generate_within(document, schema, &DocumentBudget::new())
}

/// [`generate`], drawing its steps from the whole document's allowance as well as its own.
pub(crate) fn generate_within(document: &Document, schema: &Value, budget: &DocumentBudget) -> Result<Value, String> {
    let generator =
        Generator { document, budget, steps: Cell::new(0), bytes: Cell::new(0), exhausted: OnceCell::new() };
    // Once the steps run out, that is the reason, whichever alternative was being tried.
    generator.instance(schema, 0).map_err(|reason| bounded_reason(generator.exhausted.into_inner().unwrap_or(reason)))
}

/// How many schemas the bodies of a whole document may visit: each operation's body has its
/// own allowance ([`MAX_STEPS`]), and this keeps a document of many operations that each
/// nest alternatives from multiplying it.
pub(crate) struct DocumentBudget {
    allowance: usize,
    steps_left: Cell<usize>,
}

/// [`DocumentBudget`]'s allowance: ten operations' worth of the worst case.
const MAX_DOCUMENT_STEPS: usize = 10 * MAX_STEPS;

impl DocumentBudget {
    pub(crate) fn new() -> DocumentBudget {
        DocumentBudget::with_allowance(MAX_DOCUMENT_STEPS)
    }

    fn with_allowance(allowance: usize) -> DocumentBudget {
        DocumentBudget { allowance, steps_left: Cell::new(allowance) }
    }

    fn take_step(&self) -> Result<(), String> {
        let left = self.steps_left.get();
        if left == 0 {
            return Err(format!(
                "the document's bodies together took more than {} steps to generate; the rest are not generated \
                 (test fewer operations at a time with the --include-… filters)",
                self.allowance
            ));
        }
        self.steps_left.set(left - 1);
        Ok(())
    }
}

/// The schema's own `example`, `examples[0]` or `default`, when it has one (after `$ref`s).
pub(crate) fn schema_example(document: &Document, schema: &Value) -> Option<Value> {
    let (schema, _) = document.deref(schema).ok()?;
    own_example(schema.as_object()?).cloned()
}

fn own_example(schema: &Map<String, Value>) -> Option<&Value> {
    schema
        .get("example")
        .or_else(|| schema.get("examples").and_then(Value::as_array).and_then(|examples| examples.first()))
        .or_else(|| schema.get("default"))
}

/// Validates bodies against schemas of one document with `boon`, a JSON Schema validator that
/// compiles a schema to a table and interprets it (drafts 4 to 2020-12, formats asserted). The
/// document is registered once, so every operation's `$ref`s (recursive ones included) resolve
/// against it, and each schema is compiled once however many candidates it judges.
pub(crate) struct BodyValidator<'a> {
    document: &'a Document,
    compiled: RefCell<Compiled>,
}

/// The compiler holding the document and the schemas compiled from it so far, by pointer.
struct Compiled {
    compiler: boon::Compiler,
    schemas: boon::Schemas,
    by_pointer: HashMap<String, Result<boon::SchemaIndex, String>>,
}

/// How many subschemas a body's schema may unfold into (each `$ref` followed once per path, each
/// alternative counted) before it is validated: a validator tries every alternative of an `anyOf`
/// that fails, so thirty nested `anyOf`s of two `$ref`s cost 2^30 evaluations of one example.
const MAX_VALIDATION_UNFOLD: usize = 100_000;

/// The URI the document is registered under; schemas are referenced as `URI#/json/pointer`.
const DOCUMENT_URI: &str = "urn:idem:openapi";

/// How many of a body's validation errors a reason names.
const ERRORS_NAMED: usize = 3;

impl<'a> BodyValidator<'a> {
    pub(crate) fn new(document: &'a Document) -> anyhow::Result<BodyValidator<'a>> {
        let mut compiler = boon::Compiler::new();
        compiler.set_default_draft(match document.version {
            // 3.0's schemas are draft 4 plus a few keywords (`nullable`, `example`) a draft-4
            // validator ignores; boolean exclusiveMinimum/exclusiveMaximum are draft 4's own.
            Version::V30 => boon::Draft::V4,
            Version::V31 => boon::Draft::V2020_12,
        });
        // A body that is no email where the schema says `format: email` is refused by the
        // server as surely as a wrong type: formats are assertions here, in every draft.
        compiler.enable_format_assertions();
        let mut root = document.root.clone();
        drop_uncheckable_patterns(&mut root, &mut PatternCheck::default());
        compiler
            .add_resource(DOCUMENT_URI, root)
            .map_err(|err| anyhow::anyhow!("the document cannot be read as JSON Schema: {err}"))?;
        Ok(BodyValidator {
            document,
            compiled: RefCell::new(Compiled { compiler, schemas: boon::Schemas::new(), by_pointer: HashMap::new() }),
        })
    }

    /// Refuses, before any validator runs, a schema whose unfolding passes
    /// [`MAX_VALIDATION_UNFOLD`]. A `$ref` already being followed on the current path counts once:
    /// a recursive schema is walked as deep as the instance, which is finite.
    fn check_unfolding(&self, pointer: &str) -> Result<(), String> {
        let Some(schema) = self.document.root.pointer(pointer) else { return Ok(()) };
        let mut left = MAX_VALIDATION_UNFOLD;
        let mut following = Vec::new();
        if unfold(&self.document.root, schema, &mut following, &mut left) {
            Ok(())
        } else {
            Err(format!(
                "its schema unfolds into more than {MAX_VALIDATION_UNFOLD} subschemas (alternatives nested through \
                 `$ref`s), too many to validate a body against in bounded time"
            ))
        }
    }

    /// `Ok` when `body` is valid against the schema at `pointer` (a JSON pointer in the document),
    /// else the first few reasons.
    pub(crate) fn validate(&self, pointer: &str, body: &Value) -> Result<(), String> {
        self.check_unfolding(pointer)?;
        let mut compiled = self.compiled.borrow_mut();
        let Compiled { compiler, schemas, by_pointer } = &mut *compiled;
        let index = by_pointer
            .entry(pointer.to_string())
            .or_insert_with(|| {
                // A JSON pointer may hold any character; a URI fragment only some, the rest escaped.
                let location = format!("{DOCUMENT_URI}#{}", percent_encode_fragment(pointer));
                compiler.compile(&location, schemas).map_err(|err| format!("its schema cannot be compiled: {err:#}"))
            })
            .clone()?;
        match schemas.validate(body, index) {
            Ok(()) => Ok(()),
            Err(error) => {
                let mut reasons = Vec::new();
                leaf_reasons(&error, &mut reasons);
                Err(reasons.join("; "))
            }
        }
    }
}

/// Removes, from the validator's copy of the document, each `pattern` the validator cannot run:
/// ECMA regular expressions with lookaround or backreferences, which `boon` (on the `regex`
/// crate, linear time) refuses, and which would otherwise make the whole schema uncompilable and
/// its operation skipped. The generator never produces a string for such a pattern itself (it
/// refuses them), so what goes unchecked is only a document's own example against that pattern.
/// Values (`const`, `enum`, examples, defaults) are data, not schemas, and are left alone.
fn drop_uncheckable_patterns(value: &mut Value, patterns: &mut PatternCheck) {
    match value {
        Value::Object(map) => {
            if let Some(Value::String(pattern)) = map.get("pattern")
                && !patterns.is_checkable(pattern)
            {
                map.remove("pattern");
            }
            for (keyword, child) in map.iter_mut() {
                if !matches!(keyword.as_str(), "const" | "enum" | "example" | "examples" | "default") {
                    drop_uncheckable_patterns(child, patterns);
                }
            }
        }
        Value::Array(items) => items.iter_mut().for_each(|item| drop_uncheckable_patterns(item, patterns)),
        _ => {}
    }
}

/// Asks `boon` itself whether it compiles a pattern, so the answer is exactly its own; one
/// compiler for the document (the meta-schema is compiled once) and each pattern asked once.
#[derive(Default)]
struct PatternCheck {
    compiler: boon::Compiler,
    schemas: boon::Schemas,
    answers: HashMap<String, bool>,
}

impl PatternCheck {
    fn is_checkable(&mut self, pattern: &str) -> bool {
        if let Some(answer) = self.answers.get(pattern) {
            return *answer;
        }
        // `boon` reports a pattern whose compiled program passes the `regex` crate's size limit
        // as a bug of its own (a debug assertion), so that one is measured here first.
        let too_big = matches!(regex::Regex::new(pattern), Err(regex::Error::CompiledTooBig(_)));
        let probe = format!("urn:idem:pattern:{}", self.answers.len());
        let answer = !too_big
            && self.compiler.add_resource(&probe, json!({"type": "string", "pattern": pattern})).is_ok()
            && self.compiler.compile(&probe, &mut self.schemas).is_ok();
        self.answers.insert(pattern.to_string(), answer);
        answer
    }
}

/// The first [`ERRORS_NAMED`] innermost errors of a validation error's tree, each with where in
/// the body it is: the innermost say what is wrong (`missing properties 'amount'`), their parents
/// only that something below failed.
fn leaf_reasons(error: &boon::ValidationError, reasons: &mut Vec<String>) {
    if reasons.len() >= ERRORS_NAMED {
        return;
    }
    if error.causes.is_empty() {
        reasons.push(format!("{} at `{}`", error.kind, error.instance_location));
    }
    for cause in &error.causes {
        leaf_reasons(cause, reasons);
    }
}

/// Walks `schema`'s subschemas, counting each visit against `left`; `false` once it runs out.
fn unfold<'v>(root: &'v Value, schema: &'v Value, following: &mut Vec<&'v str>, left: &mut usize) -> bool {
    if *left == 0 {
        return false;
    }
    *left -= 1;
    let Value::Object(keywords) = schema else { return true };
    if let Some(reference) = keywords.get("$ref").and_then(Value::as_str) {
        let target = reference.strip_prefix('#').and_then(|pointer| root.pointer(pointer));
        if let Some(target) = target.filter(|_| !following.contains(&reference)) {
            following.push(reference);
            let within = unfold(root, target, following, left);
            following.pop();
            if !within {
                return false;
            }
        }
    }
    for (keyword, value) in keywords {
        let children: Vec<&Value> = match (keyword.as_str(), value) {
            ("anyOf" | "oneOf" | "allOf" | "prefixItems" | "items", Value::Array(list)) => list.iter().collect(),
            ("properties" | "patternProperties" | "dependentSchemas", Value::Object(map)) => map.values().collect(),
            (
                "items"
                | "additionalProperties"
                | "not"
                | "if"
                | "then"
                | "else"
                | "contains"
                | "propertyNames"
                | "unevaluatedItems"
                | "unevaluatedProperties"
                | "additionalItems",
                Value::Object(_),
            ) => vec![value],
            _ => continue,
        };
        for child in children {
            if !unfold(root, child, following, left) {
                return false;
            }
        }
    }
    true
}

struct Generator<'a> {
    document: &'a Document,
    budget: &'a DocumentBudget,
    /// Schemas visited so far, against [`MAX_STEPS`].
    steps: Cell<usize>,
    /// The size of the JSON generated so far (a close estimate), against [`MAX_BODY_BYTES`]:
    /// charged before a value is built, so a refused one is never allocated.
    bytes: Cell<usize>,
    /// Set when the steps (its own or the document's) run out: generation stops there, no
    /// further alternative is tried.
    exhausted: OnceCell<String>,
}

impl Generator<'_> {
    fn charge(&self, bytes: usize) -> Result<(), String> {
        let total = self.bytes.get().saturating_add(bytes);
        self.bytes.set(total);
        if total > MAX_BODY_BYTES {
            return Err(too_large());
        }
        Ok(())
    }

    /// Charges a value taken whole from the document (`const`, `example`, `enum`).
    fn charge_value(&self, value: &Value) -> Result<(), String> {
        let room = MAX_BODY_BYTES.saturating_sub(self.bytes.get());
        match json_size_within(value, room) {
            Some(size) => self.charge(size),
            None => self.charge(room.saturating_add(1)),
        }
    }

    /// A value taken from the document, once charged.
    fn taken(&self, value: &Value) -> Result<Value, String> {
        self.charge_value(value)?;
        Ok(value.clone())
    }

    fn instance(&self, schema: &Value, depth: usize) -> Result<Value, String> {
        self.steps.set(self.steps.get() + 1);
        let out_of_steps = if self.steps.get() > MAX_STEPS {
            Some(format!(
                "generating it visits more than {MAX_STEPS} schemas (alternatives nested in alternatives, or \
                 very many items?)"
            ))
        } else {
            self.budget.take_step().err()
        };
        if let Some(reason) = out_of_steps {
            let _ = self.exhausted.set(reason.clone());
            return Err(reason);
        }
        if depth > MAX_DEPTH {
            return Err(format!(
                "the schema nests more than {MAX_DEPTH} levels deep (a required property that refers back to its own schema?)"
            ));
        }
        let (schema, _) = self.document.deref(schema).map_err(|err| format!("{err:#}"))?;
        let schema = match schema {
            Value::Bool(true) => return self.taken(&json!("idem")),
            Value::Bool(false) => return Err("a `false` schema admits no value".into()),
            Value::Object(schema) => schema,
            other => return Err(bounded_reason(format!("`{other}` is not a schema"))),
        };
        if let Some(value) = schema.get("const") {
            return self.taken(value);
        }
        if let Some(value) = own_example(schema) {
            return self.taken(value);
        }
        if let Some(choices) = schema.get("enum").and_then(Value::as_array) {
            let choice = choices.iter().find(|choice| !choice.is_null()).or(choices.first());
            return match choice {
                Some(choice) => self.taken(choice),
                None => Err("an empty `enum` admits no value".to_string()),
            };
        }
        if let Some(parts) = schema.get("allOf").and_then(Value::as_array) {
            let merged = self.merge_all_of(schema, parts)?;
            return self.instance(&Value::Object(merged), depth + 1);
        }
        for keyword in ["oneOf", "anyOf"] {
            if let Some(alternatives) = schema.get(keyword).and_then(Value::as_array) {
                let mut reasons = String::new();
                let mut untold = 0;
                for alternative in alternatives {
                    // A failed alternative's partial value is dropped: its size is given back.
                    let spent = self.bytes.get();
                    match self.instance(alternative, depth + 1) {
                        Ok(value) => return Ok(value),
                        Err(reason) if self.exhausted.get().is_some() => return Err(reason),
                        Err(reason) if reasons.len() < MAX_REASON_CHARS => {
                            if !reasons.is_empty() {
                                reasons.push_str("; ");
                            }
                            reasons.push_str(&reason);
                        }
                        Err(_) => untold += 1,
                    }
                    self.bytes.set(spent);
                }
                let more = if untold > 0 { format!(" (and {untold} more)") } else { String::new() };
                return Err(bounded_reason(format!("no alternative of `{keyword}` can be generated: {reasons}{more}")));
            }
        }
        match type_of(schema) {
            "object" => self.object(schema, depth),
            "array" => self.array(schema, depth),
            "string" => {
                let room = MAX_BODY_BYTES.saturating_sub(self.bytes.get());
                let text = string(schema, room)?;
                self.charge(text.len() + 2)?;
                Ok(Value::String(text))
            }
            "integer" => self.taken(&integer(schema, self.document.version)?),
            "number" => self.taken(&number(schema, self.document.version)?),
            "boolean" => self.taken(&json!(true)),
            "null" => self.taken(&Value::Null),
            other => Err(bounded_reason(format!("the type `{other}` is not one JSON Schema knows"))),
        }
    }

    /// `allOf` as one schema: properties and required lists joined, other keywords of later
    /// parts winning (enough for the usual "base object plus extension" use).
    fn merge_all_of(&self, schema: &Map<String, Value>, parts: &[Value]) -> Result<Map<String, Value>, String> {
        let mut merged = schema.clone();
        merged.remove("allOf");
        for part in parts {
            let (part, _) = self.document.deref(part).map_err(|err| format!("{err:#}"))?;
            let Some(part) = part.as_object() else { continue };
            for (keyword, value) in part {
                match (keyword.as_str(), merged.get_mut(keyword)) {
                    ("properties", Some(Value::Object(properties))) => {
                        if let Value::Object(more) = value {
                            properties.extend(more.clone());
                        }
                    }
                    ("required", Some(Value::Array(required))) => {
                        if let Value::Array(more) = value {
                            required.extend(
                                more.iter().filter(|name| !required.contains(name)).cloned().collect::<Vec<_>>(),
                            );
                        }
                    }
                    _ => {
                        merged.insert(keyword.clone(), value.clone());
                    }
                }
            }
        }
        Ok(merged)
    }

    fn object(&self, schema: &Map<String, Value>, depth: usize) -> Result<Value, String> {
        let properties = schema.get("properties").and_then(Value::as_object);
        let required: Vec<&str> =
            schema.get("required").and_then(Value::as_array).into_iter().flatten().filter_map(Value::as_str).collect();
        let mut object = Map::new();
        self.charge(2)?;
        for name in &required {
            self.charge(name.len() + 4)?;
            let property = properties
                .and_then(|properties| properties.get(*name))
                .or_else(|| schema.get("additionalProperties").filter(|extra| extra.is_object()))
                .cloned()
                .unwrap_or(json!({}));
            let value = self.instance(&property, depth + 1).map_err(|reason| format!("`{name}`: {reason}"))?;
            object.insert((*name).to_string(), value);
        }
        let min_properties = schema.get("minProperties").and_then(Value::as_u64).unwrap_or(0) as usize;
        if let Some(properties) = properties {
            for (name, property) in properties {
                if object.len() >= min_properties {
                    break;
                }
                if !object.contains_key(name) {
                    self.charge(name.len() + 4)?;
                    let value = self.instance(property, depth + 1).map_err(|reason| format!("`{name}`: {reason}"))?;
                    object.insert(name.clone(), value);
                }
            }
        }
        Ok(Value::Object(object))
    }

    fn array(&self, schema: &Map<String, Value>, depth: usize) -> Result<Value, String> {
        let count = schema.get("minItems").and_then(Value::as_u64).unwrap_or(0);
        // Every item takes at least two bytes (`0,`): refused before a single one is made.
        if count > (MAX_BODY_BYTES / 2) as u64 {
            return Err(format!(
                "`minItems: {count}` asks for more items than fit in a body of {}, the most idem generates",
                max_body()
            ));
        }
        let count = count as usize;
        self.charge(2 + count)?;
        let prefix = schema.get("prefixItems").and_then(Value::as_array);
        let items =
            schema.get("items").filter(|items| items.is_object() || items.is_boolean()).cloned().unwrap_or(json!({}));
        let unique = schema.get("uniqueItems").and_then(Value::as_bool).unwrap_or(false);
        let mut out = Vec::with_capacity(count.min(1024));
        // The items so far as JSON text, so uniqueness is checked in constant time per item.
        let mut seen = std::collections::HashSet::new();
        for index in 0..count {
            let item_schema = prefix.and_then(|prefix| prefix.get(index)).unwrap_or(&items);
            let mut item = self.instance(item_schema, depth + 1).map_err(|reason| format!("item {index}: {reason}"))?;
            if unique && !seen.insert(item.to_string()) {
                self.charge(20)?;
                item = distinct(item, index).ok_or_else(|| {
                    format!("`uniqueItems` asks for {count} different items and only one value can be generated")
                })?;
                seen.insert(item.to_string());
            }
            out.push(item);
        }
        Ok(Value::Array(out))
    }
}

/// The schema's type: its `type` (the first that is not `null` when it lists several), else the
/// one its keywords imply.
fn type_of(schema: &Map<String, Value>) -> &str {
    match schema.get("type") {
        Some(Value::String(kind)) => kind,
        Some(Value::Array(kinds)) => kinds
            .iter()
            .filter_map(Value::as_str)
            .find(|kind| *kind != "null")
            .or(kinds.first().and_then(Value::as_str))
            .unwrap_or("null"),
        _ if schema.contains_key("properties") || schema.contains_key("required") => "object",
        _ if schema.contains_key("items") || schema.contains_key("prefixItems") => "array",
        _ if schema.contains_key("minimum") || schema.contains_key("maximum") => "number",
        _ => "string",
    }
}

/// The size of `value` as compact JSON (a close estimate), or `None` once it passes `limit`:
/// a large value is not walked to its end.
fn json_size_within(value: &Value, limit: usize) -> Option<usize> {
    let mut size = 0usize;
    let mut pending = vec![value];
    while let Some(value) = pending.pop() {
        size += match value {
            Value::Null | Value::Bool(_) => 5,
            Value::Number(_) => 24,
            Value::String(text) => text.len() + 2,
            Value::Array(items) => {
                pending.extend(items);
                2 + items.len()
            }
            Value::Object(map) => {
                pending.extend(map.values());
                2 + map.keys().map(|key| key.len() + 4).sum::<usize>()
            }
        };
        if size > limit {
            return None;
        }
    }
    Some(size)
}

/// Another value of the same kind, for `uniqueItems`.
fn distinct(value: Value, index: usize) -> Option<Value> {
    match value {
        Value::String(text) => Some(Value::String(format!("{text}{index}"))),
        Value::Number(number) => number.as_i64()?.checked_add(i64::try_from(index).ok()?).map(|n| json!(n)),
        _ => None,
    }
}

/// A string for the schema, at most `room` bytes long (the rest of the body's allowance).
fn string(schema: &Map<String, Value>, room: usize) -> Result<String, String> {
    let min_length = schema.get("minLength").and_then(Value::as_u64).unwrap_or(0);
    if min_length > MAX_BODY_BYTES as u64 {
        return Err(format!(
            "`minLength: {min_length}` asks for a string longer than fits in a body of {}, the most idem generates",
            max_body()
        ));
    }
    if min_length > room as u64 {
        return Err(too_large());
    }
    let min_length = min_length as usize;
    let max_length = schema.get("maxLength").and_then(Value::as_u64).map(|max| max as usize);
    if let Some(pattern) = schema.get("pattern").and_then(Value::as_str) {
        return matching_string(pattern, room);
    }
    let now = chrono::Utc::now();
    let mut text = match schema.get("format").and_then(Value::as_str).unwrap_or("") {
        "date-time" => now.format("%Y-%m-%dT%H:%M:%SZ").to_string(),
        "date" => now.format("%Y-%m-%d").to_string(),
        "time" => now.format("%H:%M:%SZ").to_string(),
        "uuid" => uuid::Uuid::new_v4().to_string(),
        "email" | "idn-email" => "idem@example.com".into(),
        "uri" | "url" | "iri" | "uri-reference" | "iri-reference" => "https://example.com/idem".into(),
        "hostname" | "idn-hostname" => "example.com".into(),
        "ipv4" => "192.0.2.1".into(),
        "ipv6" => "2001:db8::1".into(),
        "byte" => "aWRlbQ==".into(),
        "duration" => "PT1S".into(),
        _ => "idem".into(),
    };
    if text.chars().count() < min_length {
        text.extend(std::iter::repeat_n('x', min_length - text.chars().count()));
    }
    if let Some(max) = max_length
        && text.chars().count() > max
    {
        text = text.chars().take(max).collect();
    }
    Ok(text)
}

/// The lower and upper bounds of a number schema, with whether each is exclusive, in both the
/// 3.0 (boolean `exclusiveMinimum` beside `minimum`) and the 3.1 (numeric) spellings.
/// A bound of a number schema: its value, and whether the bound itself is excluded.
type Bound = Option<(f64, bool)>;

fn bounds(schema: &Map<String, Value>, version: Version) -> (Bound, Bound) {
    let bound = |inclusive: &str, exclusive: &str| -> Bound {
        let plain = schema.get(inclusive).and_then(Value::as_f64);
        match (version, schema.get(exclusive)) {
            (_, Some(Value::Number(n))) => n.as_f64().map(|n| (n, true)),
            (Version::V30, Some(Value::Bool(true))) => plain.map(|n| (n, true)),
            _ => plain.map(|n| (n, false)),
        }
    };
    (bound("minimum", "exclusiveMinimum"), bound("maximum", "exclusiveMaximum"))
}

/// The largest magnitude an integer bound may have: beyond it `as i64` would saturate and the
/// arithmetic below could overflow.
const INTEGER_BOUND: f64 = 9.0e18;

fn integer(schema: &Map<String, Value>, version: Version) -> Result<Value, String> {
    let (low, high) = bounds(schema, version);
    for (bound, _) in low.iter().chain(high.iter()) {
        if !bound.is_finite() || bound.abs() > INTEGER_BOUND {
            return Err(format!("the bound {bound} lies beyond what idem generates integers within (±9e18)"));
        }
    }
    let low = low.map(|(n, exclusive)| if exclusive { n.floor() as i64 + 1 } else { n.ceil() as i64 });
    let high = high.map(|(n, exclusive)| if exclusive { n.ceil() as i64 - 1 } else { n.floor() as i64 });
    let mut value = match (low, high) {
        (Some(low), _) => low,
        (None, Some(high)) if high < 1 => high,
        _ => 1,
    };
    if let Some(step) = schema.get("multipleOf").and_then(Value::as_i64).filter(|step| *step > 0) {
        // The next multiple at or above `value`, refused rather than wrapped when it is past i64.
        let remainder = value.rem_euclid(step);
        if remainder != 0 {
            value = value.checked_add(step - remainder).ok_or_else(|| {
                format!("no multiple of {step} at least {value} fits in a 64-bit integer (`multipleOf: {step}`)")
            })?;
        }
    }
    match high {
        Some(high) if value > high => {
            Err(format!("no integer lies between the bounds (at least {value}, at most {high})"))
        }
        _ => Ok(json!(value)),
    }
}

fn number(schema: &Map<String, Value>, version: Version) -> Result<Value, String> {
    if schema.get("multipleOf").and_then(Value::as_f64).is_some_and(|step| step.fract() == 0.0) {
        return integer(schema, version);
    }
    let (low, high) = bounds(schema, version);
    let value = match (low, high) {
        (Some((low, false)), _) => low,
        (Some((low, true)), Some((high, _))) => (low + high) / 2.0,
        (Some((low, true)), None) => low + 1.0,
        (None, Some((high, _))) if high < 1.0 => high - 1.0,
        _ => 1.0,
    };
    match high {
        Some((high, exclusive)) if value > high || (exclusive && value >= high) => {
            Err(format!("no number lies between the bounds (at most {high})"))
        }
        _ => Ok(serde_json::Number::from_f64(value).map(Value::Number).unwrap_or(json!(1))),
    }
}

/// A string the regular expression matches: the first branch of every alternation, the least
/// repetitions every quantifier allows, and a plain character of every class; refused when it
/// would be longer than `limit` bytes (`a{4294967295}`).
fn matching_string(pattern: &str, limit: usize) -> Result<String, String> {
    use regex_syntax::hir::{Class, Hir, HirKind};
    /// Why the string is refused; the pattern is named by the caller.
    const TOO_LONG: &str = "too long";
    fn walk(hir: &Hir, out: &mut String, limit: usize) -> Result<(), String> {
        match hir.kind() {
            HirKind::Empty | HirKind::Look(_) => Ok(()),
            HirKind::Literal(literal) => {
                if out.len() + literal.0.len() > limit {
                    return Err(TOO_LONG.into());
                }
                out.push_str(&String::from_utf8_lossy(&literal.0));
                Ok(())
            }
            // A class gives one character, at most four bytes.
            HirKind::Class(_) if out.len() + 4 > limit => Err(TOO_LONG.into()),
            HirKind::Class(Class::Unicode(class)) => {
                let contains = |c: char| class.ranges().iter().any(|r| r.start() <= c && c <= r.end());
                let pick = ['a', 'A', '0', '_', '-', ' ', '.'].into_iter().find(|c| contains(*c));
                let pick = pick.or_else(|| class.ranges().iter().map(|r| r.start()).find(|c| !c.is_control()));
                out.push(pick.ok_or("a character class with only control characters")?);
                Ok(())
            }
            HirKind::Class(Class::Bytes(class)) => {
                let byte = class.ranges().first().map(|r| r.start()).ok_or("an empty byte class")?;
                out.push(char::from(byte));
                Ok(())
            }
            HirKind::Repetition(repetition) => {
                if repetition.min == 0 {
                    return Ok(());
                }
                // The walk is deterministic: the sub-expression gives the same text each time,
                // made once and repeated when the total fits (an empty one is not repeated at
                // all, so `(){4294967295}` costs nothing).
                let mut once = String::new();
                walk(&repetition.sub, &mut once, limit - out.len())?;
                if once.is_empty() {
                    return Ok(());
                }
                let total = once.len().checked_mul(repetition.min as usize).ok_or(TOO_LONG)?;
                if out.len() + total > limit {
                    return Err(TOO_LONG.into());
                }
                for _ in 0..repetition.min {
                    out.push_str(&once);
                }
                Ok(())
            }
            HirKind::Capture(capture) => walk(&capture.sub, out, limit),
            HirKind::Concat(parts) => parts.iter().try_for_each(|part| walk(part, out, limit)),
            HirKind::Alternation(branches) => walk(branches.first().ok_or("an empty alternation")?, out, limit),
        }
    }
    let shown = bounded_reason(pattern.to_string());
    let hir = regex_syntax::ParserBuilder::new()
        .build()
        .parse(pattern)
        .map_err(|err| bounded_reason(format!("the pattern `{shown}` is beyond what idem generates from ({err})")))?;
    let mut out = String::new();
    walk(&hir, &mut out, limit).map_err(|reason| {
        if reason == TOO_LONG {
            format!(
                "the pattern `{shown}` asks for a string longer than fits in a body of {}, the most idem generates",
                max_body()
            )
        } else {
            reason
        }
    })?;
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A 3.1 document whose `components/schemas/Body` is `schema`.
    fn document(version: &str, schema: Value) -> Document {
        let root = json!({"openapi": version, "info": {}, "paths": {}, "components": {"schemas": {"Body": schema}}});
        Document::from_value(root, "test", None).unwrap()
    }

    /// Generates an instance of the schema and checks it validates.
    fn generated(version: &str, schema: Value) -> Value {
        let document = document(version, schema);
        let value = generate(&document, &json!({"$ref": "#/components/schemas/Body"})).unwrap();
        let validator = BodyValidator::new(&document).unwrap();
        validator.validate("/components/schemas/Body", &value).unwrap_or_else(|err| panic!("{value}: {err}"));
        value
    }

    #[test]
    fn every_supported_keyword_gives_a_valid_instance() {
        let cases = [
            json!({"type": "object", "required": ["amount", "currency"], "properties": {
                "amount": {"type": "integer", "minimum": 50, "maximum": 99999999},
                "currency": {"type": "string", "enum": ["eur", "usd"]},
                "note": {"type": "string"}}}),
            json!({"const": "fixed"}),
            json!({"type": "string", "format": "date-time"}),
            json!({"type": "string", "format": "date"}),
            json!({"type": "string", "format": "uuid"}),
            json!({"type": "string", "format": "email"}),
            json!({"type": "string", "format": "uri"}),
            json!({"type": "string", "format": "ipv4"}),
            json!({"type": "string", "minLength": 10, "maxLength": 12}),
            json!({"type": "string", "maxLength": 2}),
            json!({"type": "string", "pattern": "^[A-Z]{3}-\\d{4}$"}),
            json!({"type": "string", "pattern": "^(pi|pm)_[a-zA-Z0-9]+$"}),
            json!({"type": "integer", "exclusiveMinimum": 0, "multipleOf": 5}),
            json!({"type": "integer", "maximum": -3}),
            json!({"type": "number", "minimum": 0.5, "maximum": 0.75}),
            json!({"type": "number", "exclusiveMinimum": 0, "exclusiveMaximum": 1}),
            json!({"type": "boolean"}),
            json!({"type": ["null", "string"], "format": "email"}),
            json!({"type": "array", "minItems": 3, "uniqueItems": true, "items": {"type": "string"}}),
            json!({"type": "array", "items": {"type": "integer"}}),
            json!({"oneOf": [{"type": "string", "pattern": "(?=x)"}, {"type": "integer", "minimum": 7}]}),
            json!({"anyOf": [{"type": "object", "required": ["a"], "properties": {"a": {"type": "boolean"}}}]}),
            json!({"allOf": [
                {"type": "object", "required": ["id"], "properties": {"id": {"type": "string", "format": "uuid"}}},
                {"required": ["kind"], "properties": {"kind": {"const": "refund"}}}]}),
            json!({"type": "object", "minProperties": 1, "properties": {"optional": {"type": "integer"}}}),
            json!({"type": "object", "required": ["meta"], "additionalProperties": {"type": "string"}}),
            json!({"type": "string", "example": "from-the-schema"}),
            json!({"type": "integer", "default": 42}),
        ];
        for schema in cases {
            generated("3.1.0", schema);
        }
        let payment = generated(
            "3.1.0",
            json!({"type": "object", "required": ["amount", "currency"], "properties": {
            "amount": {"type": "integer", "minimum": 50}, "currency": {"enum": ["eur"]}}}),
        );
        assert_eq!(payment, json!({"amount": 50, "currency": "eur"}));
        assert_eq!(generated("3.1.0", json!({"type": "integer", "exclusiveMinimum": 0, "multipleOf": 5})), json!(5));
    }

    #[test]
    fn openapi_3_0_keywords_are_read_as_3_0_means_them() {
        assert_eq!(generated("3.0.3", json!({"type": "integer", "minimum": 0, "exclusiveMinimum": true})), json!(1));
        generated("3.0.3", json!({"type": "string", "nullable": true, "example": "x"}));
        generated(
            "3.0.3",
            json!({"type": "object", "required": ["when"], "properties": {
            "when": {"type": "string", "format": "date-time"}}}),
        );
    }

    /// The validator agrees with the `jsonschema` crate (the one it replaced, kept for the tests)
    /// on every keyword idem generates for and on the formats it asserts, in both drafts.
    #[test]
    fn the_validator_agrees_with_the_jsonschema_crate() {
        let cases = [
            (
                json!({"type": "object", "required": ["amount"], "properties": {"amount": {"type": "integer", "minimum": 50}}}),
                vec![json!({"amount": 50}), json!({"amount": 49}), json!({}), json!({"amount": "50"}), json!([])],
            ),
            (
                json!({"type": "string", "format": "date-time"}),
                vec![json!("2026-12-02T10:00:00Z"), json!("2026-13-02"), json!("yesterday")],
            ),
            (
                json!({"type": "string", "format": "date"}),
                vec![json!("2026-12-02"), json!("2026-02-30"), json!("12/02/2026")],
            ),
            (
                json!({"type": "string", "format": "uuid"}),
                vec![json!("0b0a7e84-5d3c-4a1e-9c54-3f7f3b1c2d9e"), json!("0b0a7e84")],
            ),
            (json!({"type": "string", "format": "email"}), vec![json!("a@example.com"), json!("not an email")]),
            (json!({"type": "string", "format": "ipv4"}), vec![json!("127.0.0.1"), json!("256.0.0.1")]),
            (json!({"type": "string", "format": "uri"}), vec![json!("https://example.com/a?b"), json!("no scheme")]),
            (
                json!({"type": "string", "minLength": 2, "maxLength": 3, "pattern": "^[a-zé]+$"}),
                vec![json!("ab"), json!("é€"), json!("a"), json!("abcd"), json!("AB")],
            ),
            (
                json!({"type": "number", "minimum": 0.5, "multipleOf": 0.5}),
                vec![json!(0.5), json!(0), json!(0.75), json!(1)],
            ),
            (json!({"type": ["null", "integer"], "maximum": 3}), vec![json!(null), json!(3), json!(4), json!(2.5)]),
            (
                json!({"type": "array", "minItems": 1, "uniqueItems": true, "items": {"enum": ["a", "b"]}}),
                vec![json!(["a"]), json!(["a", "a"]), json!([]), json!(["c"])],
            ),
            (
                json!({"oneOf": [{"type": "integer"}, {"type": "number", "maximum": 1}]}),
                vec![json!(5), json!(0.5), json!(1), json!("x")],
            ),
            (
                json!({"anyOf": [{"required": ["a"]}, {"required": ["b"]}], "not": {"required": ["c"]}}),
                vec![json!({"a": 1}), json!({"b": 1, "c": 1}), json!({})],
            ),
            (
                json!({"type": "object", "additionalProperties": false, "properties": {"a": {}}}),
                vec![json!({"a": 1}), json!({"b": 1})],
            ),
            (
                json!({"allOf": [{"$ref": "#/components/schemas/Amount"}, {"maximum": 10}]}),
                vec![json!(5), json!(11), json!(-1)],
            ),
        ];
        for version in ["3.0.3", "3.1.0"] {
            for (schema, instances) in &cases {
                let root = json!({"openapi": version, "info": {}, "paths": {}, "components": {"schemas": {
                    "Body": schema, "Amount": {"type": "integer", "minimum": 0}}}});
                let document = Document::from_value(root.clone(), "test", None).unwrap();
                let ours = BodyValidator::new(&document).unwrap();
                // Draft 4 defines no `uuid` or `date` format, so the reference ignores them there;
                // idem asserts them in 3.0 documents too, as the servers they describe do, and is
                // compared with the reference's 2020-12 reading of them.
                let newer_format = matches!(schema["format"].as_str(), Some("uuid" | "date"));
                let draft = if version == "3.0.3" && !newer_format {
                    jsonschema::Draft::Draft4
                } else {
                    jsonschema::Draft::Draft202012
                };
                let mut reference_schema = schema.clone();
                reference_schema["components"] = root["components"].clone();
                let reference = jsonschema::options()
                    .with_draft(draft)
                    .should_validate_formats(true)
                    .build(&reference_schema)
                    .unwrap();
                for instance in instances {
                    assert_eq!(
                        ours.validate("/components/schemas/Body", instance).is_ok(),
                        reference.is_valid(instance),
                        "{version} {schema} on {instance}"
                    );
                }
            }
        }
    }

    /// A lookaround pattern (beyond a linear-time regex engine) anywhere in the document leaves
    /// the rest of its schemas checked, its own schema included.
    #[test]
    fn a_pattern_the_validator_cannot_run_leaves_the_rest_of_the_schema_checked() {
        let document = document(
            "3.1.0",
            json!({"type": "object", "required": ["password", "amount"], "properties": {
                "password": {"type": "string", "pattern": "^(?=.*[A-Z]).{8,}$"},
                "amount": {"type": "integer", "minimum": 1}}}),
        );
        let validator = BodyValidator::new(&document).unwrap();
        assert!(validator.validate("/components/schemas/Body", &json!({"password": "Secret123", "amount": 5})).is_ok());
        let err =
            validator.validate("/components/schemas/Body", &json!({"password": "Secret123", "amount": 0})).unwrap_err();
        assert!(err.contains("must be >=1"), "{err}");
        assert!(validator.validate("/components/schemas/Body", &json!({"password": 7, "amount": 5})).is_err());
    }

    #[test]
    fn a_recursive_schema_validates_through_its_refs() {
        let document = document(
            "3.1.0",
            json!({"type": "object", "required": ["name"], "properties": {
            "name": {"type": "string"}, "child": {"$ref": "#/components/schemas/Body"}}}),
        );
        let value = generate(&document, &json!({"$ref": "#/components/schemas/Body"})).unwrap();
        let validator = BodyValidator::new(&document).unwrap();
        assert!(validator.validate("/components/schemas/Body", &value).is_ok());
        assert!(validator.validate("/components/schemas/Body", &json!({"name": "a", "child": {}})).is_err());
    }

    /// Thirty nested `anyOf`s of two `$ref`s: a validator would try 2^30 alternatives for one
    /// example that fits none; the unfolding bound refuses it first.
    #[test]
    fn a_schema_that_unfolds_exponentially_is_refused_before_validation() {
        let mut schemas = serde_json::Map::new();
        for level in 0..30 {
            let next = json!({"$ref": format!("#/components/schemas/L{}", level + 1)});
            schemas.insert(format!("L{level}"), json!({"anyOf": [next.clone(), next]}));
        }
        schemas.insert("L30".into(), json!({"type": "string"}));
        let root = json!({"openapi": "3.1.0", "info": {}, "paths": {}, "components": {"schemas": schemas}});
        let document = Document::from_value(root, "test", None).unwrap();
        let validator = BodyValidator::new(&document).unwrap();
        let reason = validator.validate("/components/schemas/L0", &json!({"a": 1})).unwrap_err();
        assert!(reason.contains("unfolds into more than 100000 subschemas"), "{reason}");
        // Ten levels (2^10 paths) are validated as before.
        assert!(validator.validate("/components/schemas/L20", &json!("text")).is_ok());
        assert!(validator.validate("/components/schemas/L20", &json!(1)).is_err());
    }

    #[test]
    fn schemas_under_paths_with_any_characters_are_found() {
        let root = json!({"openapi": "3.1.0", "paths": {"/a/{id} ü%x": {"post": {"schema": {"type": "integer", "minimum": 3}}}}});
        let document = Document::from_value(root, "test", None).unwrap();
        let validator = BodyValidator::new(&document).unwrap();
        let pointer = "/paths/~1a~1{id} ü%x/post/schema";
        assert!(validator.validate(pointer, &json!(3)).is_ok());
        assert!(validator.validate(pointer, &json!(2)).is_err());
    }

    #[test]
    fn unsatisfiable_schemas_give_a_reason_not_a_panic() {
        let cases = [
            (json!({"type": "integer", "minimum": 10, "maximum": 5}), "between the bounds"),
            (json!({"enum": []}), "empty `enum`"),
            (json!(false), "admits no value"),
            (
                json!({"type": "object", "required": ["self"], "properties": {"self": {"$ref": "#/components/schemas/Body"}}}),
                "levels deep",
            ),
            (json!({"type": "string", "pattern": "(?<=a)b"}), "beyond what idem generates"),
            (json!({"type": "array", "minItems": 2, "uniqueItems": true, "items": {"type": "boolean"}}), "uniqueItems"),
            (json!({"oneOf": [{"enum": []}, false]}), "no alternative"),
            (json!({"type": "frog"}), "not one JSON Schema knows"),
        ];
        for (schema, reason) in cases {
            let document = document("3.1.0", schema.clone());
            let err = generate(&document, &json!({"$ref": "#/components/schemas/Body"})).unwrap_err();
            assert!(err.contains(reason), "{schema}: {err}");
        }
    }

    #[test]
    fn sizes_the_document_asks_for_are_refused_before_they_are_made() {
        let cases = [
            (
                json!({"type": "array", "minItems": 100_000_000u64}),
                "`minItems: 100000000` asks for more items than fit in a body of 1 MiB",
            ),
            (json!({"type": "array", "minItems": 1u64 << 62}), "`minItems: 4611686018427387904` asks for more items"),
            (
                json!({"type": "string", "pattern": "^a{4294967295}$"}),
                "asks for a string longer than fits in a body of 1 MiB",
            ),
            (json!({"type": "string", "pattern": "((a{1000}){1000}){1000}"}), "asks for a string longer"),
            (json!({"type": "string", "minLength": 2_000_000}), "`minLength: 2000000` asks for a string longer"),
            (
                json!({"type": "array", "minItems": 20_000, "items": {"type": "string", "minLength": 100}}),
                "larger than 1 MiB, the most idem generates",
            ),
            (
                json!({"type": "integer", "minimum": 9_000_000_000_000_000_000u64, "multipleOf": 7_000_000_000_000_000_000u64}),
                "no multiple of 7000000000000000000 at least 9000000000000000000 fits in a 64-bit integer",
            ),
            (json!({"type": "integer", "maximum": -1e300}), "beyond what idem generates integers within"),
        ];
        for (schema, reason) in cases {
            let document = document("3.1.0", schema.clone());
            let err = generate(&document, &json!({"$ref": "#/components/schemas/Body"})).unwrap_err();
            assert!(err.contains(reason), "{schema}: {err}");
        }
        // Repetitions of nothing cost nothing; a big array of small items is still made.
        let empty_repeated =
            document("3.1.0", json!({"type": "string", "pattern": "^(?:(?:){4294967295}){4294967295}x$"}));
        assert_eq!(generate(&empty_repeated, &json!({"$ref": "#/components/schemas/Body"})), Ok(json!("x")));
        let many = generated(
            "3.1.0",
            json!({"type": "array", "minItems": 5_000, "uniqueItems": true, "items": {"type": "integer"}}),
        );
        assert_eq!(many.as_array().unwrap().len(), 5_000);
        // An alternative that grew too large gives its share back to the next one.
        let two_large = json!({"type": "array", "minItems": 2, "items": {"type": "string", "minLength": 600_000}});
        let one_large = json!({"type": "string", "minLength": 900_000});
        let chosen = generated("3.1.0", json!({"anyOf": [two_large, one_large]}));
        assert_eq!(chosen.as_str().map(str::len), Some(900_000));
    }

    #[test]
    fn alternatives_nested_in_alternatives_stop_at_the_step_bound_with_a_short_reason() {
        let mut schemas = serde_json::Map::new();
        for level in 0..40 {
            let next = json!({"$ref": format!("#/components/schemas/L{}", level + 1)});
            schemas.insert(format!("L{level}"), json!({"anyOf": [next.clone(), next]}));
        }
        schemas.insert("L40".into(), json!(false));
        let root = json!({"openapi": "3.1.0", "paths": {}, "components": {"schemas": schemas}});
        let document = Document::from_value(root, "test", None).unwrap();
        let err = generate(&document, &json!({"$ref": "#/components/schemas/L0"})).unwrap_err();
        assert!(err.starts_with("generating it visits more than 100000 schemas"), "{err}");
        assert!(err.len() <= MAX_REASON_CHARS + 50, "{} bytes", err.len());
        // Shared by the document: once it is spent, later operations' bodies stop at once.
        let budget = DocumentBudget::with_allowance(1000);
        let first = generate_within(&document, &json!({"$ref": "#/components/schemas/L0"}), &budget).unwrap_err();
        assert!(first.starts_with("the document's bodies together took more than 1000 steps"), "{first}");
        let spent = generate_within(&document, &json!({"type": "integer"}), &budget).unwrap_err();
        assert!(spent.starts_with("the document's bodies together took more than 1000 steps"), "{spent}");
        let long = bounded_reason("é".repeat(5000));
        assert!(long.ends_with("… (cut at 1000 characters)") && long.chars().count() < 1100, "{long}");
    }

    #[test]
    fn an_instance_that_breaks_its_schema_is_caught_by_the_validator() {
        // maxLength below what the pattern needs: generated, then refused before it is sent.
        let document = document("3.1.0", json!({"type": "string", "pattern": "^abcdef$", "maxLength": 3}));
        let value = generate(&document, &json!({"$ref": "#/components/schemas/Body"})).unwrap();
        let validator = BodyValidator::new(&document).unwrap();
        let err = validator.validate("/components/schemas/Body", &value).unwrap_err();
        assert!(err.contains("length must be <=3"), "{err}");
    }
}
