//! The OpenAPI documents a workflow's `sourceDescriptions` name, read from files beside the
//! workflow (a URL only when the command line gives it, `--source NAME=URL`), and each step's
//! operation found in them: method, path, parameters, where the key goes, and its count.
use std::path::Path;

use anyhow::{Context, bail};
use http::{Method, Uri};
use serde_json::Value;

use super::document::{Arazzo, OperationRef, Step};
use crate::idem::check::openapi::count::{DeclaredCount, declared};
use crate::idem::check::openapi::document::Document;
use crate::idem::check::openapi::key_location::{DeclaredKey, declared_key};
use crate::idem::check::openapi::target::{self, Target};
use crate::idem::key_carrier::KeyCarrier;
use crate::idem::request::DEFAULT_KEY_HEADER;

const METHODS: [&str; 8] = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];

/// One source description, read, with where its requests go.
pub(crate) struct Source {
    pub name: String,
    /// Where it was read from, as `$sourceDescriptions.NAME.url` gives it.
    pub url: String,
    pub document: Document,
    pub target: Target,
}

/// A step's operation, found in its source.
#[derive(Debug, Clone)]
pub(crate) struct Operation {
    pub method: Method,
    /// The path template as the document writes it: `/customers/{customerId}/charges`.
    pub path: String,
    pub operation_id: Option<String>,
    pub base: Uri,
    /// Where the document puts the key, when it declares one.
    pub key: Option<DeclaredKey>,
    pub count: DeclaredCount,
    /// `x-idem: true` on the operation.
    pub marked: bool,
}

impl Operation {
    /// Whether idem probes this step: an unsafe method whose operation declares the key, or a
    /// step or operation marked `x-idem: true` (a step's `x-idem: false` leaves it alone).
    pub(crate) fn keyed(&self, step: &Step) -> bool {
        match step.idem_mark {
            Some(mark) => mark,
            None => self.marked || (!self.method.is_safe() && self.key.is_some()),
        }
    }

    /// Where the key goes: as the document declares it, else the `Idempotency-Key` header.
    pub(crate) fn key_carrier(&self) -> (KeyCarrier, String) {
        match &self.key {
            Some(DeclaredKey { carrier: KeyCarrier::Header, header }) => {
                (KeyCarrier::Header, header.clone().unwrap_or_else(|| DEFAULT_KEY_HEADER.to_string()))
            }
            Some(DeclaredKey { carrier, .. }) => (carrier.clone(), DEFAULT_KEY_HEADER.to_string()),
            None => (KeyCarrier::Header, DEFAULT_KEY_HEADER.to_string()),
        }
    }
}

/// Reads every source description. `given` are the `--source NAME=LOCATION` of the command line.
pub(crate) async fn load(
    arazzo: &Arazzo,
    workflow_file: &Path,
    given: &[(String, String)],
    base_url: Option<&str>,
    insecure: bool,
) -> anyhow::Result<Vec<Source>> {
    for (name, _) in given {
        if !arazzo.sources.iter().any(|source| &source.name == name) {
            bail!("--source {name}=…: the workflow has no source description named `{name}`");
        }
    }
    let directory = workflow_file.parent().unwrap_or(Path::new("."));
    let mut sources = Vec::new();
    for source in &arazzo.sources {
        let flag = format!("--source {}=", source.name);
        let location = match given.iter().find(|(name, _)| *name == source.name) {
            Some((_, location)) => location.clone(),
            None if source.url.contains("://") => bail!(
                "source `{}` is the URL {}: idem run reads a URL only when the command line names it; give --source {}=URL (or a file path)",
                source.name,
                crate::http::url::Redacted(source.url.as_str()),
                source.name
            ),
            None => directory.join(&source.url).to_string_lossy().into_owned(),
        };
        let document = Document::load(&location, &flag, insecure)
            .await
            .with_context(|| format!("source description `{}`", source.name))?;
        // As `--openapi` does: a document chooses no host the user did not name; `idem run` has no
        // `--allow-remote`, so `--base-url` is how a user names one.
        let target = target::resolve(base_url, target::Remote::Refused, &document)
            .with_context(|| format!("source description `{}`", source.name))?;
        sources.push(Source { name: source.name.clone(), url: source.url.clone(), document, target });
    }
    Ok(sources)
}

/// The operation a step calls.
pub(crate) fn resolve(sources: &[Source], step: &Step) -> anyhow::Result<Operation> {
    match &step.operation {
        OperationRef::Id { source, id } => {
            let mut found = Vec::new();
            for candidate in sources.iter().filter(|s| source.as_ref().is_none_or(|name| *name == s.name)) {
                for (path, method, operation) in operations(&candidate.document) {
                    if operation.get("operationId").and_then(Value::as_str) == Some(id.as_str()) {
                        found.push((candidate, path, method));
                    }
                }
            }
            if let Some(name) = source
                && !sources.iter().any(|s| &s.name == name)
            {
                bail!("step `{}`: no source description is named `{name}`", step.id);
            }
            match found.as_slice() {
                [(source, path, method)] => operation(source, path, method),
                [] => bail!("step `{}`: no operation has the operationId `{id}` in the source descriptions", step.id),
                _ => bail!(
                    "step `{}`: the operationId `{id}` is in several source descriptions; write $sourceDescriptions.NAME.{id}",
                    step.id
                ),
            }
        }
        OperationRef::Path { source, pointer } => {
            let source = sources
                .iter()
                .find(|s| &s.name == source)
                .with_context(|| format!("step `{}`: no source description is named `{source}`", step.id))?;
            let mut parts = pointer.trim_start_matches('/').splitn(3, '/');
            let (_, path, method) = (parts.next(), parts.next().unwrap_or(""), parts.next());
            let path = unescape(path);
            let item = source
                .document
                .root
                .get("paths")
                .and_then(|paths| paths.get(&path))
                .with_context(|| format!("step `{}`: the operationPath points at no path `{path}`", step.id))?;
            let method = match method {
                Some(method) => method.to_string(),
                // The specification's own example points at a path item: its only operation.
                None => {
                    let methods: Vec<&str> = METHODS.into_iter().filter(|m| item.get(*m).is_some()).collect();
                    match methods.as_slice() {
                        [only] => only.to_string(),
                        _ => bail!(
                            "step `{}`: the operationPath points at the path `{path}`, which has {} operations; end it with the method (…/post)",
                            step.id,
                            methods.len()
                        ),
                    }
                }
            };
            if !METHODS.contains(&method.as_str()) || item.get(&method).is_none() {
                bail!("step `{}`: the path `{path}` has no `{method}` operation", step.id);
            }
            operation(source, &path, &method)
        }
    }
}

fn operations(document: &Document) -> Vec<(String, String, &Value)> {
    let mut found = Vec::new();
    for (path, item) in document.root.get("paths").and_then(Value::as_object).into_iter().flatten() {
        for method in METHODS {
            if let Some(operation) = item.get(method) {
                found.push((path.clone(), method.to_string(), operation));
            }
        }
    }
    found
}

fn operation(source: &Source, path: &str, method: &str) -> anyhow::Result<Operation> {
    let document = &source.document;
    let item = &document.root["paths"][path];
    let (item, _) = document.deref(item)?;
    let operation = &item[method];
    let mut parameters: Vec<Value> = Vec::new();
    for parameter in item.get("parameters").and_then(Value::as_array).into_iter().flatten() {
        parameters.push(document.deref(parameter)?.0.clone());
    }
    for parameter in operation.get("parameters").and_then(Value::as_array).into_iter().flatten() {
        let parameter = document.deref(parameter)?.0.clone();
        // An operation's parameter overrides the path item's of the same name and place.
        parameters.retain(|p| !(p.get("name") == parameter.get("name") && p.get("in") == parameter.get("in")));
        parameters.push(parameter);
    }
    Ok(Operation {
        method: Method::from_bytes(method.to_ascii_uppercase().as_bytes()).context("a method")?,
        path: path.to_string(),
        operation_id: operation.get("operationId").and_then(Value::as_str).map(str::to_string),
        base: source.target.base.clone(),
        key: declared_key(document, operation, &parameters, DEFAULT_KEY_HEADER, false),
        count: declared(operation),
        marked: operation.get("x-idem").and_then(Value::as_bool) == Some(true),
    })
}

/// A JSON pointer segment unescaped: `~1` is `/`, `~0` is `~`.
fn unescape(segment: &str) -> String {
    segment.replace("~1", "/").replace("~0", "~")
}
