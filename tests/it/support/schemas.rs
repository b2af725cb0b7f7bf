//! The yardstick every `--format json` document and line is validated against: `document` and
//! `lines` read the `schema` field each one starts with and validate it against the committed
//! file of that name under `schemas/`.
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use idem::testing::cli::schemas;
use serde_json::Value;

/// The committed schema files.
pub(crate) fn schemas_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("schemas")
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
