//! The JSON Schemas (draft 2020-12) of every `--format json` document and JSON line both tools
//! print, and of the journal record: generated from the Rust types that are serialised, with the
//! `schema` field `json_output` puts first added as a constant. The same schemas are committed
//! under `schemas/` and a test keeps them fresh (`REGENERATE=1 cargo test generated`).
use schemars::generate::SchemaSettings;
use serde_json::{Map, Value, json};

use crate::conformance::{Catalogue, SuiteReport, suite_schema};
use crate::idem::check::openapi::{self, report::OpenApiReport};
use crate::idem::check::plan_report::{self, PlanReport};
use crate::idem::{proxy, race, send, serve, window};
use crate::webhook::check_sender::report::SenderReport;
use crate::webhook::journal::record::{self as journal, JournalRecord};
use crate::webhook::{listen, replay, sign, verify};

/// One committed schema file.
#[derive(Debug, Clone)]
pub struct SchemaFile {
    /// The file name under `schemas/`: the `schema` value without its version, `.json`.
    pub file_name: String,
    /// The `schema` value every document of this kind starts with, e.g. `idem-send/1`.
    pub schema_id: String,
    /// What prints it, e.g. `idem send --format json`.
    pub printed_by: &'static str,
    pub schema: Value,
}

impl SchemaFile {
    /// The file's bytes: pretty JSON and a final newline.
    pub fn render(&self) -> Vec<u8> {
        let mut text = serde_json::to_string_pretty(&self.schema).unwrap_or_default();
        text.push('\n');
        text.into_bytes()
    }
}

/// Every schema, in the order docs/json-output.md lists them.
pub fn all() -> Vec<SchemaFile> {
    vec![
        file::<send::SendReport>(send::SCHEMA, "idem send --format json"),
        file::<race::report::RaceReport>(race::report::SCHEMA, "idem race --format json"),
        file::<window::WindowReport>(window::report::SCHEMA, "idem window --format json"),
        file::<SuiteReport>(&suite_schema("idem check"), "idem check --format json"),
        file::<Catalogue>(&Catalogue::schema("idem check"), "idem check --list --format json"),
        file::<OpenApiReport>(openapi::SCHEMA, "idem check --openapi SPEC --format json"),
        file::<PlanReport>(plan_report::SCHEMA, "idem check --plan --format json"),
        file::<crate::idem::run::report::RunReport>(crate::idem::run::report::SCHEMA, "idem run --format json"),
        file::<proxy::print::ProxyLine>(proxy::print::LINE_SCHEMA, "idem proxy --format json (each line)"),
        file::<serve::ServeLine>(serve::LINE_SCHEMA, "idem serve --format json (each line)"),
        file::<sign::SignDocument>(sign::SCHEMA, "webhook sign --format json"),
        file::<verify::VerifyReport>(verify::SCHEMA, "webhook verify --format json"),
        file::<crate::webhook::scheme::new_secret::SecretDocument>(
            crate::webhook::scheme::new_secret::SCHEMA,
            "webhook secret --format json",
        ),
        file::<crate::webhook::scheme::listing::SchemeList>(
            crate::webhook::scheme::listing::SCHEMA,
            "webhook schemes --format json",
        ),
        file::<crate::webhook::send::SendReport>(crate::webhook::send::SCHEMA, "webhook send --format json"),
        file::<crate::webhook::send::TemplateList>(
            crate::webhook::send::TEMPLATES_SCHEMA,
            "webhook send --list-events --format json",
        ),
        file::<replay::ReplayReport>(replay::SCHEMA, "webhook replay --format json"),
        file::<crate::webhook::race::RaceReport>(crate::webhook::race::SCHEMA, "webhook race --format json"),
        file::<SuiteReport>(&suite_schema("webhook check"), "webhook check --format json"),
        file::<SenderReport>(&suite_schema("webhook check-sender"), "webhook check-sender --format json"),
        file::<Catalogue>(&Catalogue::schema("webhook check"), "webhook check --list --format json"),
        file::<Catalogue>(&Catalogue::schema("webhook check-sender"), "webhook check-sender --list --format json"),
        file::<listen::ListenLine>(listen::LINE_SCHEMA, "webhook listen --format json (each line)"),
        file::<crate::webhook::journal::diff::JournalDiff>(
            crate::webhook::journal::diff::SCHEMA,
            "webhook journal A --diff B --format json",
        ),
        file::<JournalRecord>(journal::SCHEMA, "webhook listen --record FILE (each line)"),
    ]
}

fn file<T: schemars::JsonSchema>(schema_id: &str, printed_by: &'static str) -> SchemaFile {
    let generated = SchemaSettings::draft2020_12().for_serialize().into_generator().into_root_schema_for::<T>();
    let name = schema_id.split('/').next().unwrap_or(schema_id);
    SchemaFile {
        file_name: format!("{name}.json"),
        schema_id: schema_id.to_string(),
        printed_by,
        schema: tagged(generated.to_value(), schema_id, printed_by),
    }
}

/// The generated schema with the `schema` property first and required, and a title naming what
/// prints it. A document type gets it beside its own properties; a line type (an enum, `oneOf`)
/// gets it at the top level, where it applies to every kind of line.
fn tagged(generated: Value, schema_id: &str, printed_by: &str) -> Value {
    let Value::Object(mut generated) = generated else { return generated };
    let tag = json!({
        "description": "The name and version of this document's shape; a change of shape changes it.",
        "const": schema_id,
    });
    let mut properties = Map::new();
    properties.insert("schema".to_string(), tag);
    if let Some(Value::Object(own)) = generated.remove("properties") {
        properties.extend(own);
    }
    let mut required = vec![Value::from("schema")];
    if let Some(Value::Array(own)) = generated.remove("required") {
        required.extend(own);
    }
    let mut schema = Map::new();
    for key in ["$schema", "title", "description", "type"] {
        if let Some(value) = generated.remove(key) {
            schema.insert(key.to_string(), value);
        }
    }
    schema.insert("title".to_string(), Value::from(printed_by));
    schema.insert("properties".to_string(), Value::Object(properties));
    schema.insert("required".to_string(), Value::Array(required));
    schema.extend(generated);
    Value::Object(schema)
}
