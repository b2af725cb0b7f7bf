//! The JSON Schemas under `schemas/`: generated from the Rust types and checked fresh like
//! `completions/` (`REGENERATE=1 cargo test generated` rewrites them), valid draft 2020-12, and
//! strict enough that a document breaking its schema is caught (the validators every test uses
//! are in `support/schemas.rs`).
use std::path::Path;

use idem::testing::cli::schemas;
use serde_json::Value;

use crate::support::schemas::{document, validate};

#[test]
fn generated_schemas_are_fresh() {
    let dir = crate::support::schemas::schemas_dir();
    let mut expected = Vec::new();
    for file in schemas::all() {
        crate::support::generated_files::check_fresh(&dir.join(&file.file_name), &file.render());
        expected.push(file.file_name);
    }
    crate::support::generated_files::check_holds_exactly(&dir, expected, "files no document has");
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
