//! The JSON Schemas under `schemas/`: generated from the Rust types and checked fresh like
//! `completions/` (`REGENERATE=1 cargo test generated` rewrites them), valid draft 2020-12, and
//! the yardstick every `--format json` document and line is validated against: `document` and
//! `lines` below read the `schema` field each one starts with and validate it against the
//! committed file of that name.
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use idem::testing::cli::schemas;
use serde_json::Value;

fn schemas_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("schemas")
}

#[test]
fn generated_schemas_are_fresh() {
    let dir = schemas_dir();
    let mut expected = Vec::new();
    for file in schemas::all() {
        crate::completions::check_fresh(&dir.join(&file.file_name), &file.render());
        expected.push(file.file_name);
    }
    crate::completions::check_holds_exactly(&dir, expected, "files no document has");
}

#[test]
fn generated_schemas_are_draft_2020_12_and_name_their_document() {
    for file in schemas::all() {
        let schema = &file.schema;
        assert_eq!(schema["$schema"], "https://json-schema.org/draft/2020-12/schema", "{}", file.file_name);
        if let Err(err) = jsonschema::meta::validate(schema) {
            panic!("{} is not a valid JSON Schema: {err}", file.file_name);
        }
        assert_eq!(schema["properties"]["schema"]["const"], file.schema_id.as_str(), "{}", file.file_name);
        assert_eq!(schema["required"][0], "schema", "{}", file.file_name);
        let (name, version) = file.schema_id.split_once('/').expect("NAME/VERSION");
        assert_eq!(format!("{name}.json"), file.file_name);
        assert!(version.parse::<u32>().is_ok(), "{} has no numeric version", file.schema_id);
    }
}

#[test]
fn generated_schemas_are_listed_in_the_json_output_page() {
    let page = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/json-output.md")).unwrap();
    for file in schemas::all() {
        let link = format!("(../schemas/{})", file.file_name);
        assert!(page.contains(&link), "docs/json-output.md does not link {link}");
        assert!(
            page.contains(&format!("`{}`", file.schema_id)),
            "docs/json-output.md does not name {}",
            file.schema_id
        );
    }
}

#[test]
fn a_document_that_breaks_its_schema_is_caught() {
    let stdout = crate::support::webhook()
        .args(["sign", "--scheme", "stripe", "--secret", "s3cr3t", "-d", "{}", "--timestamp", "1700000000"])
        .args(["--format", "json"])
        .assert()
        .code(0)
        .get_output()
        .stdout
        .clone();
    let good = document(&stdout);
    assert_eq!(good["schema"], "webhook-sign/1");
    let caught = |value: Value| std::panic::catch_unwind(|| validate(&value)).is_err();
    let mut missing = good.clone();
    missing.as_object_mut().unwrap().remove("headers");
    assert!(caught(missing), "a required field is missing");
    let mut mistyped = good.clone();
    mistyped["timestamp"] = Value::from("soon");
    assert!(caught(mistyped), "a field has the wrong type");
    let mut unknown = good.clone();
    unknown["surprise"] = Value::from(1);
    assert!(caught(unknown), "a field the schema does not describe");
    let mut renamed = good.clone();
    renamed["schema"] = Value::from("webhook-sign/2");
    assert!(caught(renamed), "a version without a schema file");
    let mut moved = serde_json::Map::new();
    for (name, value) in good.as_object().unwrap().iter().filter(|(name, _)| *name != "schema") {
        moved.insert(name.clone(), value.clone());
    }
    moved.insert("schema".to_string(), good["schema"].clone());
    assert!(caught(Value::Object(moved)), "`schema` is not first");
}

/// A validator for each committed schema file, by `schema` value. Stricter than the published
/// file in one way: a field the schema does not describe fails here (published, it would be
/// allowed, so adding a field stays compatible for scripts), so output and schema cannot drift
/// apart unnoticed.
fn validators() -> &'static HashMap<String, jsonschema::Validator> {
    static VALIDATORS: OnceLock<HashMap<String, jsonschema::Validator>> = OnceLock::new();
    VALIDATORS.get_or_init(|| {
        schemas::all()
            .into_iter()
            .map(|file| {
                let path = schemas_dir().join(&file.file_name);
                let text = std::fs::read_to_string(&path).unwrap_or_else(|err| panic!("{}: {err}", path.display()));
                let mut committed: Value = serde_json::from_str(&text).expect("a schema file is JSON");
                committed["unevaluatedProperties"] = Value::Bool(false);
                let validator = jsonschema::draft202012::new(&committed)
                    .unwrap_or_else(|err| panic!("{} does not compile: {err}", path.display()));
                (file.schema_id, validator)
            })
            .collect()
    })
}

/// Checks one parsed document or line: `schema` is its first field, and it validates against
/// the committed schema of that name.
pub(crate) fn validate(value: &Value) {
    let object = value.as_object().unwrap_or_else(|| panic!("not a JSON object: {value}"));
    let (first, schema_id) = object.iter().next().unwrap_or_else(|| panic!("an empty object"));
    assert_eq!(first, "schema", "`schema` is not the first field of {value}");
    let schema_id = schema_id.as_str().unwrap_or_else(|| panic!("`schema` is not a string in {value}"));
    let validator = validators().get(schema_id).unwrap_or_else(|| panic!("no schema file for `{schema_id}`"));
    let errors: Vec<String> =
        validator.iter_errors(value).map(|err| format!("{} at {}", err, err.instance_path())).collect();
    assert!(errors.is_empty(), "this {schema_id} document breaks its schema:\n{}\n{value:#}", errors.join("\n"));
}

/// Parses a command's `--format json` output (one document) and validates it; returns it.
pub(crate) fn document(stdout: &[u8]) -> Value {
    let value: Value = serde_json::from_slice(stdout)
        .unwrap_or_else(|err| panic!("not one JSON document ({err}): {}", String::from_utf8_lossy(stdout)));
    validate(&value);
    value
}

/// Parses JSON-lines output (or a journal) and validates every line; returns them.
pub(crate) fn lines(stdout: &[u8]) -> Vec<Value> {
    String::from_utf8_lossy(stdout)
        .lines()
        .filter(|line| !line.trim().is_empty())
        .map(|line| {
            let value: Value =
                serde_json::from_str(line).unwrap_or_else(|err| panic!("not a JSON line ({err}): {line}"));
            validate(&value);
            value
        })
        .collect()
}

/// An `assert_cmd` predicate: stdout is one `--format json` document valid against its schema
/// (it panics with the violations otherwise).
pub(crate) fn valid_document() -> impl predicates::Predicate<[u8]> {
    predicates::function::function(|stdout: &[u8]| {
        document(stdout);
        true
    })
}
