//! `--set PATH=VALUE` and `--unset PATH` on a JSON body: PATH is dotted (`data.object.amount`),
//! a number indexes an array (`lines.data.0.amount`), and VALUE is JSON when it parses as JSON
//! (`5000`, `true`, `null`, `{"a":1}`, `"5000"` for a string of digits), else the text itself.
use anyhow::{Context, bail};
use serde_json::Value;

/// One change to a generated body, in the order given.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Override {
    Set { path: String, value: Value },
    Unset { path: String },
}

impl Override {
    /// `PATH=VALUE` of `--set`.
    pub fn parse_set(text: &str) -> anyhow::Result<Override> {
        let (path, value) = text
            .split_once('=')
            .with_context(|| format!("--set `{}` needs PATH=VALUE, e.g. data.object.amount=5000", shortened(text)))?;
        segments(path)?;
        let value = serde_json::from_str(value).unwrap_or_else(|_| Value::String(value.to_string()));
        Ok(Override::Set { path: path.to_string(), value })
    }

    pub fn parse_unset(path: &str) -> anyhow::Result<Override> {
        segments(path)?;
        Ok(Override::Unset { path: path.to_string() })
    }

    pub fn apply(&self, body: &mut Value) -> anyhow::Result<()> {
        match self {
            Override::Set { path, value } => set(body, path, value.clone()).with_context(|| format!("--set {path}")),
            Override::Unset { path } => unset(body, path).with_context(|| format!("--unset {path}")),
        }
    }
}

/// The most segments a `--set`/`--unset` path may have. Every segment may create one level of
/// nesting, and a body nested tens of thousands of levels deep overflows the stack when it is
/// written or dropped (serde_json recurses); no provider's event comes near 64 levels.
pub(crate) const MAX_SEGMENTS: usize = 64;

fn segments(path: &str) -> anyhow::Result<Vec<&str>> {
    // Counted before anything is split or echoed: the path may be megabytes long.
    let count = path.bytes().filter(|byte| *byte == b'.').count() + 1;
    if count > MAX_SEGMENTS {
        bail!(
            "the path `{}` has {count} segments; a --set/--unset path has at most {MAX_SEGMENTS} (no event is nested \
             deeper)",
            shortened(path)
        );
    }
    let segments: Vec<&str> = path.split('.').collect();
    if segments.iter().any(|segment| segment.is_empty()) {
        bail!("`{}` is not a dotted path such as data.object.amount (a segment is empty)", shortened(path));
    }
    Ok(segments)
}

/// `text` as an error quotes it: its start when it is long, control characters escaped.
fn shortened(text: &str) -> String {
    crate::output::terminal_safe(&crate::text::ellipsis(text, 60)).into_owned()
}

/// The container that holds the last segment, creating missing objects on the way.
fn parent<'a>(mut at: &'a mut Value, path: &[&str], create: bool) -> anyhow::Result<&'a mut Value> {
    for (depth, segment) in path.iter().enumerate() {
        let here = path[..=depth].join(".");
        if !(at.is_object() || at.is_array()) {
            bail!("`{}` is {}, which has no fields", path[..depth].join("."), kind(at));
        }
        at = match at {
            Value::Object(fields) => {
                if create {
                    fields.entry(*segment).or_insert_with(|| Value::Object(Default::default()))
                } else {
                    fields.get_mut(*segment).with_context(|| format!("the body has no `{here}`"))?
                }
            }
            Value::Array(items) => {
                let length = items.len();
                let index: usize =
                    segment.parse().with_context(|| format!("`{here}`: an array is indexed by a number"))?;
                items.get_mut(index).with_context(|| format!("`{here}`: the array has {length} items"))?
            }
            _ => bail!("`{here}` cannot be reached"),
        };
    }
    Ok(at)
}

/// The value at dotted `path` in `body`, if there is one.
pub(crate) fn get<'a>(body: &'a Value, path: &str) -> Option<&'a Value> {
    path.split('.').try_fold(body, |at, segment| match at {
        Value::Object(fields) => fields.get(segment),
        Value::Array(items) => items.get(segment.parse::<usize>().ok()?),
        _ => None,
    })
}

fn set(body: &mut Value, path: &str, value: Value) -> anyhow::Result<()> {
    let segments = segments(path)?;
    let (last, before) = segments.split_last().context("an empty path")?;
    match parent(body, before, true)? {
        Value::Object(fields) => {
            fields.insert((*last).to_string(), value);
        }
        Value::Array(items) => {
            let index: usize = last.parse().with_context(|| format!("`{path}`: an array is indexed by a number"))?;
            match index.cmp(&items.len()) {
                std::cmp::Ordering::Less => items[index] = value,
                std::cmp::Ordering::Equal => items.push(value),
                std::cmp::Ordering::Greater => bail!("`{path}`: the array has {} items", items.len()),
            }
        }
        other => bail!("`{}` is {}, which has no fields", before.join("."), kind(other)),
    }
    Ok(())
}

fn unset(body: &mut Value, path: &str) -> anyhow::Result<()> {
    let segments = segments(path)?;
    let (last, before) = segments.split_last().context("an empty path")?;
    let removed = match parent(body, before, false)? {
        // shift_remove keeps the other fields in the provider's order.
        Value::Object(fields) => fields.shift_remove(*last).is_some(),
        Value::Array(items) => match last.parse::<usize>() {
            Ok(index) if index < items.len() => {
                items.remove(index);
                true
            }
            _ => false,
        },
        _ => false,
    };
    if !removed {
        bail!("the body has no `{path}`");
    }
    Ok(())
}

fn kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn apply(body: &mut Value, change: anyhow::Result<Override>) -> anyhow::Result<()> {
        change?.apply(body)
    }

    #[test]
    fn set_parses_json_or_keeps_text_and_creates_objects() {
        let mut body = json!({"data": {"object": {"amount": 1, "currency": "usd", "lines": [{"a": 1}]}}});
        apply(&mut body, Override::parse_set("data.object.amount=5000")).unwrap();
        apply(&mut body, Override::parse_set("data.object.currency=eur")).unwrap();
        apply(&mut body, Override::parse_set("data.object.metadata.order=\"42\"")).unwrap();
        apply(&mut body, Override::parse_set("data.object.lines.0.a={\"b\":true}")).unwrap();
        apply(&mut body, Override::parse_set("data.object.note=a=b")).unwrap();
        assert_eq!(body["data"]["object"]["amount"], 5000);
        assert_eq!(body["data"]["object"]["currency"], "eur");
        assert_eq!(body["data"]["object"]["metadata"]["order"], "42");
        assert_eq!(body["data"]["object"]["lines"][0]["a"]["b"], true);
        assert_eq!(body["data"]["object"]["note"], "a=b");
        let keys: Vec<&String> = body["data"]["object"].as_object().unwrap().keys().collect();
        assert_eq!(keys, ["amount", "currency", "lines", "metadata", "note"], "order kept");
    }

    #[test]
    fn unset_removes_in_place_and_names_what_is_missing() {
        let mut body = json!({"a": 1, "b": {"c": 2}, "d": 3});
        apply(&mut body, Override::parse_unset("b.c")).unwrap();
        apply(&mut body, Override::parse_unset("a")).unwrap();
        assert_eq!(body.to_string(), r#"{"b":{},"d":3}"#);
        let err = apply(&mut body, Override::parse_unset("b.x")).unwrap_err();
        assert!(format!("{err:#}").contains("no `b.x`"), "{err:#}");
    }

    #[test]
    fn bad_paths_are_refused_with_the_reason() {
        assert!(Override::parse_set("novalue").is_err());
        assert!(Override::parse_set("a..b=1").is_err());
        let deepest = vec!["a"; MAX_SEGMENTS].join(".");
        assert!(Override::parse_set(&format!("{deepest}=1")).is_ok());
        let err = Override::parse_unset(&format!("{deepest}.b")).unwrap_err();
        assert!(format!("{err:#}").contains("at most 64"), "{err:#}");
        let mut body = json!({"a": "text", "l": [1]});
        let err = apply(&mut body, Override::parse_set("a.b=1")).unwrap_err();
        assert!(format!("{err:#}").contains("`a` is a string"), "{err:#}");
        let err = apply(&mut body, Override::parse_set("l.5=1")).unwrap_err();
        assert!(format!("{err:#}").contains("has 1 items"), "{err:#}");
    }
}
