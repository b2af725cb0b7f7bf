//! An OpenAPI document: read from a file or a URL, JSON or YAML, version 3.0 or 3.1, with its
//! local `$ref`s followed on demand.
use std::io::Read;

use anyhow::{Context, bail};
use bytes::Bytes;
use http::{Method, Request, Uri};
use serde_json::Value;

use super::nesting;
use crate::http::client::{ClientOptions, HttpClient};
use crate::http::url::{Redacted, parse_url};

/// The largest spec read, from a file, stdin or a URL alike: published specs of whole payment
/// APIs are a few MiB.
const MAX_SPEC_BYTES: u64 = 32 * 1024 * 1024;

/// How many `$ref`s one lookup may follow before it is called a loop.
const MAX_REF_HOPS: usize = 64;

/// Which OpenAPI the document is: it decides the JSON Schema dialect of its schemas.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Version {
    /// OpenAPI 3.0: an extended subset of JSON Schema draft 4 (`nullable`, boolean `exclusiveMinimum`).
    V30,
    /// OpenAPI 3.1: JSON Schema draft 2020-12.
    V31,
}

#[derive(Debug, Clone)]
pub(crate) struct Document {
    pub root: Value,
    pub version: Version,
    /// The spec's URL when it was fetched: relative `servers` entries resolve against it.
    pub fetched_from: Option<Uri>,
}

impl Document {
    /// Reads SPEC: an http(s) URL is fetched, `-` is stdin, anything else is a file path. Its
    /// size and nesting are checked before any parser runs. `flag` is how the user gave it
    /// (`--openapi `, `--source NAME=`), so that a refusal names what they typed.
    pub(crate) async fn load(source: &str, flag: &str, insecure: bool) -> anyhow::Result<Document> {
        let (text, fetched_from) = if source.starts_with("http://") || source.starts_with("https://") {
            let url = parse_url(source).with_context(|| format!("{flag}{}", Redacted(source)))?;
            (fetch(&url, insecure).await?, Some(url))
        } else if source == "-" {
            (read_capped(std::io::stdin().lock(), None, "from stdin")?, None)
        } else {
            let file =
                std::fs::File::open(source).with_context(|| format!("cannot read the OpenAPI document {source}"))?;
            // A regular file's size is known: refused before a byte is read.
            let size = file.metadata().ok().filter(|meta| meta.is_file()).map(|meta| meta.len());
            (read_capped(file, size, source)?, None)
        };
        if text.len() as u64 > MAX_SPEC_BYTES {
            bail!("{}", too_large(source));
        }
        nesting::check(&text).with_context(|| format!("{} cannot be read", Redacted(source)))?;
        let root = parse(&text).with_context(|| format!("{} is neither JSON nor YAML", Redacted(source)))?;
        Document::from_value(root, source, fetched_from)
    }

    pub(crate) fn from_value(root: Value, source: &str, fetched_from: Option<Uri>) -> anyhow::Result<Document> {
        let version = version_of(&root).with_context(|| format!("{source} is not an OpenAPI 3 document"))?;
        Ok(Document { root, version, fetched_from })
    }

    /// `value`, or what its `$ref` points at, followed until a value without `$ref`, together with
    /// the JSON pointer of where it was found (`None` when `value` itself had no `$ref`).
    pub(crate) fn deref<'a>(&'a self, mut value: &'a Value) -> anyhow::Result<(&'a Value, Option<String>)> {
        let mut pointer = None;
        for _ in 0..MAX_REF_HOPS {
            let Some(reference) = value.get("$ref").and_then(Value::as_str) else {
                return Ok((value, pointer));
            };
            let target = local_pointer(reference)?;
            value = self
                .root
                .pointer(&target)
                .with_context(|| format!("`$ref: {reference}` points at nothing in the document"))?;
            pointer = Some(target);
        }
        bail!("more than {MAX_REF_HOPS} `$ref`s in a row: a reference loop")
    }
}

/// The refusal of a document over [`MAX_SPEC_BYTES`], the same whatever it was read from.
fn too_large(source: &str) -> String {
    format!(
        "the OpenAPI document {} is larger than {}, the most idem reads (from a file, stdin or a URL alike)",
        Redacted(source),
        crate::http::body::format_size(MAX_SPEC_BYTES)
    )
}

/// Reads `reader` to its end, refusing more than [`MAX_SPEC_BYTES`]; a `known_size` (a
/// file's) over it is refused before a byte is read.
fn read_capped(reader: impl std::io::Read, known_size: Option<u64>, source: &str) -> anyhow::Result<Vec<u8>> {
    if known_size.is_some_and(|size| size > MAX_SPEC_BYTES) {
        bail!("{}", too_large(source));
    }
    let mut text = Vec::with_capacity(known_size.unwrap_or(0) as usize);
    reader
        .take(MAX_SPEC_BYTES + 1)
        .read_to_end(&mut text)
        .with_context(|| format!("cannot read the OpenAPI document {source}"))?;
    if text.len() as u64 > MAX_SPEC_BYTES {
        bail!("{}", too_large(source));
    }
    Ok(text)
}

/// The JSON pointer of a reference within the document (`#/components/schemas/Payment`).
/// References to other documents are refused: the spec must be bundled into one file.
pub(crate) fn local_pointer(reference: &str) -> anyhow::Result<String> {
    match reference.strip_prefix('#') {
        Some(pointer) if pointer.is_empty() || pointer.starts_with('/') => Ok(decode_fragment(pointer)),
        _ => bail!(
            "`$ref: {reference}` points outside this document; remote and file references are not followed \
             (bundle the spec into one file first, e.g. with `redocly bundle`)"
        ),
    }
}

/// A URI fragment's percent-escapes, decoded (`#/paths/~1payments` stays a JSON pointer).
fn decode_fragment(fragment: &str) -> String {
    let bytes = fragment.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%'
            && i + 2 < bytes.len()
            && let Some(byte) =
                std::str::from_utf8(&bytes[i + 1..i + 3]).ok().and_then(|hex| u8::from_str_radix(hex, 16).ok())
        {
            out.push(byte);
            i += 3;
            continue;
        }
        out.push(bytes[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

fn version_of(root: &Value) -> anyhow::Result<Version> {
    if let Some(swagger) = root.get("swagger").and_then(Value::as_str) {
        bail!(
            "it is a Swagger {swagger} document; idem reads OpenAPI 3.0 and 3.1. Convert it first \
             (e.g. `npx swagger2openapi spec.json -o openapi.json`)"
        );
    }
    let Some(version) = root.get("openapi").and_then(Value::as_str) else {
        bail!("it has no `openapi` field naming its version");
    };
    match version.split('.').take(2).collect::<Vec<_>>().as_slice() {
        ["3", "0"] => Ok(Version::V30),
        ["3", "1"] => Ok(Version::V31),
        _ => bail!("it is OpenAPI {version}; idem reads OpenAPI 3.0 and 3.1"),
    }
}

/// JSON when it parses as JSON, else YAML (a superset of JSON for documents like these). YAML
/// mapping keys that are numbers or booleans (`200:` under `responses`) become strings.
pub(crate) fn parse(text: &[u8]) -> anyhow::Result<Value> {
    if let Ok(value) = serde_json::from_slice(text) {
        return Ok(value);
    }
    let text = std::str::from_utf8(text).context("the document is not UTF-8")?;
    let yaml: serde_yaml_ng::Value = serde_yaml_ng::from_str(text).context("YAML")?;
    yaml_to_json(yaml)
}

fn yaml_to_json(yaml: serde_yaml_ng::Value) -> anyhow::Result<Value> {
    use serde_yaml_ng::Value as Yaml;
    Ok(match yaml {
        Yaml::Null => Value::Null,
        Yaml::Bool(b) => Value::Bool(b),
        Yaml::Number(n) => serde_json::to_value(&n).context("a YAML number JSON cannot hold")?,
        Yaml::String(s) => Value::String(s),
        Yaml::Sequence(items) => Value::Array(items.into_iter().map(yaml_to_json).collect::<anyhow::Result<_>>()?),
        Yaml::Mapping(map) => {
            let mut object = serde_json::Map::new();
            for (key, value) in map {
                let key = match key {
                    Yaml::String(s) => s,
                    Yaml::Number(n) => n.to_string(),
                    Yaml::Bool(b) => b.to_string(),
                    other => bail!("a YAML mapping key that is not a scalar: {other:?}"),
                };
                object.insert(key, yaml_to_json(value)?);
            }
            Value::Object(object)
        }
        Yaml::Tagged(tagged) => yaml_to_json(tagged.value)?,
    })
}

async fn fetch(url: &Uri, insecure: bool) -> anyhow::Result<Vec<u8>> {
    let client =
        HttpClient::new(ClientOptions { timeout: std::time::Duration::from_secs(30), insecure, http2: false })?;
    let request = Request::builder()
        .method(Method::GET)
        .uri(url.clone())
        .header(http::header::ACCEPT, "application/json, application/yaml;q=0.9, */*;q=0.5")
        .body(Bytes::new())?;
    let exchange =
        client.send(request).await.with_context(|| format!("cannot fetch the OpenAPI document {}", Redacted(url)))?;
    if !exchange.status.is_success() {
        bail!("fetching the OpenAPI document {} answered {}", Redacted(url), exchange.status);
    }
    // The client holds at most its own response limit; the spec's is the same for every source.
    if exchange.body.len() as u64 > MAX_SPEC_BYTES {
        bail!("{}", too_large(&url.to_string()));
    }
    Ok(exchange.body.to_vec())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn yaml_with_numeric_keys_reads_as_json_with_string_keys() {
        let value = parse(
            b"openapi: 3.1.0\npaths:\n  /p:\n    post:\n      responses:\n        201:\n          description: ok\n",
        )
        .unwrap();
        assert_eq!(value["paths"]["/p"]["post"]["responses"]["201"]["description"], "ok");
        assert_eq!(version_of(&value).unwrap(), Version::V31);
    }

    #[test]
    fn swagger_and_unknown_versions_are_refused_with_the_reason() {
        let swagger = version_of(&json!({"swagger": "2.0"})).unwrap_err().to_string();
        assert!(swagger.contains("Swagger 2.0") && swagger.contains("3.0 and 3.1"), "{swagger}");
        assert!(version_of(&json!({"openapi": "4.0.0"})).is_err());
        assert!(version_of(&json!({"info": {}})).is_err());
        assert_eq!(version_of(&json!({"openapi": "3.0.3"})).unwrap(), Version::V30);
    }

    #[test]
    fn refs_are_followed_and_loops_and_remote_refs_are_errors() {
        let root = json!({
            "openapi": "3.1.0",
            "components": {"schemas": {
                "A": {"$ref": "#/components/schemas/B"},
                "B": {"type": "string"},
                "Loop": {"$ref": "#/components/schemas/Loop"},
                "a/b": {"type": "integer"}
            }}
        });
        let document = Document::from_value(root, "t", None).unwrap();
        let to_a = json!({"$ref": "#/components/schemas/A"});
        let (value, at) = document.deref(&to_a).unwrap();
        assert_eq!((value, at.as_deref()), (&json!({"type": "string"}), Some("/components/schemas/B")));
        let escaped = json!({"$ref": "#/components/schemas/a~1b"});
        let (value, _) = document.deref(&escaped).unwrap();
        assert_eq!(value["type"], "integer");
        assert!(
            document.deref(&json!({"$ref": "#/components/schemas/Loop"})).unwrap_err().to_string().contains("loop")
        );
        let remote = document.deref(&json!({"$ref": "other.yaml#/X"})).unwrap_err().to_string();
        assert!(remote.contains("outside this document"), "{remote}");
        assert!(document.deref(&json!({"$ref": "#/nothing"})).is_err());
    }
}
