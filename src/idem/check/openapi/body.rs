//! Request bodies for an operation: the operation's own example first, then the schema's, else
//! a minimal valid instance generated from the JSON Schema. Every body is validated against its
//! schema before it is sent; one that cannot be made valid is a skip reason, never garbage sent.
use serde_json::{Map, Value, json};

use super::document::{Document, Version};

/// How deep generation follows nested schemas before it calls the schema recursive.
const MAX_DEPTH: usize = 32;

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
pub(crate) fn generate(document: &Document, schema: &Value) -> Result<Value, String> {
    Generator { document }.instance(schema, 0)
}

/// The schema's own `example`, `examples[0]` or `default`, when it has one (after `$ref`s).
pub(crate) fn schema_example(document: &Document, schema: &Value) -> Option<Value> {
    let (schema, _) = document.deref(schema).ok()?;
    own_example(schema)
}

fn own_example(schema: &Value) -> Option<Value> {
    schema
        .get("example")
        .or_else(|| schema.get("examples").and_then(Value::as_array).and_then(|examples| examples.first()))
        .or_else(|| schema.get("default"))
        .cloned()
}

/// Validates bodies against schemas of one document. The document is registered once, so every
/// operation's `$ref`s (recursive ones included) resolve without copying it.
pub(crate) struct BodyValidator<'a> {
    registry: jsonschema::Registry<'a>,
    draft: jsonschema::Draft,
}

/// The URI the document is registered under; schemas are referenced as `URI#/json/pointer`.
const DOCUMENT_URI: &str = "urn:idem:openapi";

impl<'a> BodyValidator<'a> {
    pub(crate) fn new(document: &'a Document) -> anyhow::Result<BodyValidator<'a>> {
        let draft = match document.version {
            // 3.0's schemas are draft 4 plus a few keywords (`nullable`, `example`) a draft-4
            // validator ignores; boolean exclusiveMinimum/exclusiveMaximum are draft 4's own.
            Version::V30 => jsonschema::Draft::Draft4,
            Version::V31 => jsonschema::Draft::Draft202012,
        };
        let registry = jsonschema::Registry::new()
            .draft(draft)
            .retrieve_known_draft_meta_schemas(false)
            .add(DOCUMENT_URI, &document.root)?
            .prepare()?;
        Ok(BodyValidator { registry, draft })
    }

    /// `Ok` when `body` is valid against the schema at `pointer` (a JSON pointer in the document),
    /// else the first few reasons.
    pub(crate) fn validate(&self, pointer: &str, body: &Value) -> Result<(), String> {
        // A JSON pointer may hold any character; a URI fragment only these, the rest escaped.
        let mut fragment = String::with_capacity(pointer.len());
        for byte in pointer.bytes() {
            if byte.is_ascii_alphanumeric() || b"-._~!$&'()*+,;=:@/?".contains(&byte) {
                fragment.push(char::from(byte));
            } else {
                fragment.push_str(&format!("%{byte:02X}"));
            }
        }
        let reference = json!({ "$ref": format!("{DOCUMENT_URI}#{fragment}") });
        let validator = jsonschema::options()
            .with_draft(self.draft)
            .with_registry(&self.registry)
            .should_validate_formats(true)
            .build(&reference)
            .map_err(|err| format!("its schema cannot be compiled: {err}"))?;
        let errors: Vec<String> =
            validator.iter_errors(body).take(3).map(|err| format!("{} at `{}`", err, err.instance_path())).collect();
        if errors.is_empty() { Ok(()) } else { Err(errors.join("; ")) }
    }
}

struct Generator<'a> {
    document: &'a Document,
}

impl Generator<'_> {
    fn instance(&self, schema: &Value, depth: usize) -> Result<Value, String> {
        if depth > MAX_DEPTH {
            return Err(format!(
                "the schema nests more than {MAX_DEPTH} levels deep (a required property that refers back to its own schema?)"
            ));
        }
        let (schema, _) = self.document.deref(schema).map_err(|err| format!("{err:#}"))?;
        let schema = match schema {
            Value::Bool(true) => return Ok(json!("idem")),
            Value::Bool(false) => return Err("a `false` schema admits no value".into()),
            Value::Object(schema) => schema,
            other => return Err(format!("`{other}` is not a schema")),
        };
        if let Some(value) = schema.get("const") {
            return Ok(value.clone());
        }
        if let Some(value) = own_example(&Value::Object(schema.clone())) {
            return Ok(value);
        }
        if let Some(choices) = schema.get("enum").and_then(Value::as_array) {
            return choices
                .iter()
                .find(|choice| !choice.is_null())
                .or(choices.first())
                .cloned()
                .ok_or_else(|| "an empty `enum` admits no value".to_string());
        }
        if let Some(parts) = schema.get("allOf").and_then(Value::as_array) {
            let merged = self.merge_all_of(schema, parts)?;
            return self.instance(&Value::Object(merged), depth + 1);
        }
        for keyword in ["oneOf", "anyOf"] {
            if let Some(alternatives) = schema.get(keyword).and_then(Value::as_array) {
                let mut reasons = Vec::new();
                for alternative in alternatives {
                    match self.instance(alternative, depth + 1) {
                        Ok(value) => return Ok(value),
                        Err(reason) => reasons.push(reason),
                    }
                }
                return Err(format!("no alternative of `{keyword}` can be generated: {}", reasons.join("; ")));
            }
        }
        match type_of(schema) {
            "object" => self.object(schema, depth),
            "array" => self.array(schema, depth),
            "string" => string(schema),
            "integer" => integer(schema, self.document.version),
            "number" => number(schema, self.document.version),
            "boolean" => Ok(json!(true)),
            "null" => Ok(Value::Null),
            other => Err(format!("the type `{other}` is not one JSON Schema knows")),
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
        for name in &required {
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
                    let value = self.instance(property, depth + 1).map_err(|reason| format!("`{name}`: {reason}"))?;
                    object.insert(name.clone(), value);
                }
            }
        }
        Ok(Value::Object(object))
    }

    fn array(&self, schema: &Map<String, Value>, depth: usize) -> Result<Value, String> {
        let count = schema.get("minItems").and_then(Value::as_u64).unwrap_or(0) as usize;
        let prefix = schema.get("prefixItems").and_then(Value::as_array);
        let items =
            schema.get("items").filter(|items| items.is_object() || items.is_boolean()).cloned().unwrap_or(json!({}));
        let unique = schema.get("uniqueItems").and_then(Value::as_bool).unwrap_or(false);
        let mut out = Vec::with_capacity(count);
        for index in 0..count {
            let item_schema = prefix.and_then(|prefix| prefix.get(index)).unwrap_or(&items);
            let mut item = self.instance(item_schema, depth + 1).map_err(|reason| format!("item {index}: {reason}"))?;
            if unique && out.contains(&item) {
                item = distinct(item, index).ok_or_else(|| {
                    format!("`uniqueItems` asks for {count} different items and only one value can be generated")
                })?;
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

/// Another value of the same kind, for `uniqueItems`.
fn distinct(value: Value, index: usize) -> Option<Value> {
    match value {
        Value::String(text) => Some(Value::String(format!("{text}{index}"))),
        Value::Number(number) => number.as_i64().map(|n| json!(n + index as i64)),
        _ => None,
    }
}

fn string(schema: &Map<String, Value>) -> Result<Value, String> {
    let min_length = schema.get("minLength").and_then(Value::as_u64).unwrap_or(0) as usize;
    let max_length = schema.get("maxLength").and_then(Value::as_u64).map(|max| max as usize);
    if let Some(pattern) = schema.get("pattern").and_then(Value::as_str) {
        let text = matching_string(pattern)?;
        return Ok(Value::String(text));
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
    Ok(Value::String(text))
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

fn integer(schema: &Map<String, Value>, version: Version) -> Result<Value, String> {
    let (low, high) = bounds(schema, version);
    let low = low.map(|(n, exclusive)| if exclusive { n.floor() as i64 + 1 } else { n.ceil() as i64 });
    let high = high.map(|(n, exclusive)| if exclusive { n.ceil() as i64 - 1 } else { n.floor() as i64 });
    let mut value = match (low, high) {
        (Some(low), _) => low,
        (None, Some(high)) if high < 1 => high,
        _ => 1,
    };
    if let Some(step) = schema.get("multipleOf").and_then(Value::as_i64).filter(|step| *step > 0) {
        value = value.div_euclid(step) * step + if value.rem_euclid(step) == 0 { 0 } else { step };
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
/// repetitions every quantifier allows, and a plain character of every class.
fn matching_string(pattern: &str) -> Result<String, String> {
    use regex_syntax::hir::{Class, Hir, HirKind};
    fn walk(hir: &Hir, out: &mut String) -> Result<(), String> {
        match hir.kind() {
            HirKind::Empty | HirKind::Look(_) => Ok(()),
            HirKind::Literal(literal) => {
                out.push_str(&String::from_utf8_lossy(&literal.0));
                Ok(())
            }
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
                for _ in 0..repetition.min {
                    walk(&repetition.sub, out)?;
                }
                Ok(())
            }
            HirKind::Capture(capture) => walk(&capture.sub, out),
            HirKind::Concat(parts) => parts.iter().try_for_each(|part| walk(part, out)),
            HirKind::Alternation(branches) => walk(branches.first().ok_or("an empty alternation")?, out),
        }
    }
    let hir = regex_syntax::ParserBuilder::new()
        .build()
        .parse(pattern)
        .map_err(|err| format!("the pattern `{pattern}` is beyond what idem generates from ({err})"))?;
    let mut out = String::new();
    walk(&hir, &mut out)?;
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
    fn an_instance_that_breaks_its_schema_is_caught_by_the_validator() {
        // maxLength below what the pattern needs: generated, then refused before it is sent.
        let document = document("3.1.0", json!({"type": "string", "pattern": "^abcdef$", "maxLength": 3}));
        let value = generate(&document, &json!({"$ref": "#/components/schemas/Body"})).unwrap();
        let validator = BodyValidator::new(&document).unwrap();
        let err = validator.validate("/components/schemas/Body", &value).unwrap_err();
        assert!(err.contains("longer than 3"), "{err}");
    }
}
