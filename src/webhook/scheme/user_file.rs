//! `--scheme-file FILE`: a scheme a user describes, in the JSON the built-in providers are written
//! in (`providers/*.json`), checked as strictly as they are and then run by the same engine. A bad
//! file stops the command (exit 2) naming the field that is wrong.
use std::path::Path;

use anyhow::{Context, bail};
use serde_json::Value;

use super::SchemeKind;
use super::builtin;
use super::description::SchemeDescription;

/// A description is a few hundred bytes; anything near this is not one.
const MAX_FILE: u64 = 64 * 1024;

/// Reads, checks and registers the scheme `path` describes.
pub(crate) fn load(path: &Path) -> anyhow::Result<SchemeKind> {
    let shown = path.display();
    let size = std::fs::metadata(path).with_context(|| format!("--scheme-file: cannot read `{shown}`"))?.len();
    if size > MAX_FILE {
        bail!("--scheme-file `{shown}` is {size} bytes; a scheme description is at most 64 KiB");
    }
    let text = std::fs::read_to_string(path).with_context(|| format!("--scheme-file: cannot read `{shown}`"))?;
    let value: Value = serde_json::from_str(&text).with_context(|| format!("--scheme-file `{shown}` is not JSON"))?;
    let description: SchemeDescription = match serde_json::from_value(value.clone()) {
        Ok(description) => description,
        Err(err) => match blame(&value) {
            Some(field) => bail!("--scheme-file `{shown}`: `{field}`: {err}"),
            None => bail!("--scheme-file `{shown}`: {err}"),
        },
    };
    check_name(&description.name).map_err(|reason| anyhow::anyhow!("--scheme-file `{shown}`: `name`: {reason}"))?;
    builtin::register(description)
        .map_err(|err| anyhow::anyhow!("--scheme-file `{shown}`: `{}`: {}", err.field, err.reason))
}

fn check_name(name: &str) -> Result<(), String> {
    let well_formed = !name.is_empty()
        && name.len() <= 64
        && name.bytes().all(|byte| byte.is_ascii_lowercase() || byte.is_ascii_digit() || byte == b'-');
    if !well_formed {
        return Err(format!(
            "`{}` is not a scheme name: lower-case letters, digits and `-`, at most 64",
            name.escape_debug()
        ));
    }
    if name == "auto" || SchemeKind::every().iter().any(|kind| kind.name() == name) {
        return Err(format!("`{name}` is a built-in scheme's name; give yours another"));
    }
    Ok(())
}

/// A description with every field filled in and valid, to find which field of a bad one is
/// wrong: serde's message says what was wrong ("unknown variant `hexx`") but not where.
fn reference() -> Value {
    serde_json::json!({
        "name": "reference",
        "summary": "a valid description",
        "signature": { "name": "X-Signature", "also_read": ["X-Sig"], "encoding": "hex", "prefix": "", "compare": "text" },
        "id_header": { "name": "X-Id", "also_read": [] },
        "event_header": { "name": "X-Event", "also_read": [] },
        "signed": "body",
        "algorithm": "hmac-sha256",
        "timestamp": { "name": "X-Timestamp", "form": "unix-seconds", "future": "refused" },
        "secret": "raw",
        "source": "here",
    })
}

/// The field (`signature.encoding`, `algorithm`) whose value, replaced by a valid one, makes the
/// description parse; `None` when no single field does (a missing or unknown field, which serde's
/// message names itself).
fn blame(value: &Value) -> Option<String> {
    let reference = reference();
    let parses = |candidate: &Value| serde_json::from_value::<SchemeDescription>(candidate.clone()).is_ok();
    let object = value.as_object()?;
    for (key, field) in object {
        let Some(valid) = reference.get(key) else { continue };
        let mut repaired = value.clone();
        repaired[key] = valid.clone();
        if !parses(&repaired) {
            continue;
        }
        if let (Some(inner), Some(valid_inner)) = (field.as_object(), valid.as_object()) {
            for inner_key in inner.keys() {
                let Some(valid_leaf) = valid_inner.get(inner_key) else { continue };
                let mut repaired = value.clone();
                repaired[key][inner_key] = valid_leaf.clone();
                if parses(&repaired) {
                    return Some(format!("{key}.{inner_key}"));
                }
            }
        }
        return Some(key.clone());
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_wrong_field_is_named() {
        let mut value = reference();
        value["signature"]["encoding"] = Value::from("hexx");
        assert_eq!(blame(&value).as_deref(), Some("signature.encoding"));
        let mut value = reference();
        value["algorithm"] = Value::from("hmac-sha384");
        assert_eq!(blame(&value).as_deref(), Some("algorithm"));
        assert!(serde_json::from_value::<SchemeDescription>(reference()).is_ok());
    }
}
