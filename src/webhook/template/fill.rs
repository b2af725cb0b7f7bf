//! Fills a template's placeholders with fresh values, so every send is a new event: `{{now}}`
//! (Unix seconds; a number when it is the whole string), `{{now_iso}}` (RFC 3339), `{{event}}`,
//! `{{event_id}}`, `{{delivery_id}}`, `{{id:PREFIX}}` (PREFIX and 24 random letters and digits),
//! `{{uuid}}` and `{{sha}}` (40 hex digits). The same placeholder gets the same value throughout
//! one event (a charge's `payment_intent` is the payment intent's `id`); `{{uuid:NAME}}` and
//! `{{sha:NAME}}` name further distinct values. Anything else in braces (Shopify's
//! `${{amount}}` money format) is left as it is.
use std::collections::HashMap;

use serde_json::Value;

use crate::ids::fresh_id;

pub(super) struct Fill<'a> {
    pub event: &'a str,
    pub event_id: &'a str,
    pub delivery_id: &'a str,
    pub now: i64,
    drawn: HashMap<String, String>,
}

impl<'a> Fill<'a> {
    pub(super) fn new(event: &'a str, event_id: &'a str, delivery_id: &'a str, now: i64) -> Fill<'a> {
        Fill { event, event_id, delivery_id, now, drawn: HashMap::new() }
    }

    /// Replaces the placeholders everywhere in `value`.
    pub(super) fn value(&mut self, value: &mut Value) {
        match value {
            Value::String(text) if text == "{{now}}" => *value = Value::from(self.now),
            Value::String(text) if text == "{{now_ms}}" => *value = Value::from(self.now.saturating_mul(1000)),
            Value::String(text) => *text = self.text(text),
            Value::Array(items) => items.iter_mut().for_each(|item| self.value(item)),
            Value::Object(fields) => fields.values_mut().for_each(|field| self.value(field)),
            _ => {}
        }
    }

    /// `text` with every known placeholder replaced.
    pub(super) fn text(&mut self, text: &str) -> String {
        let mut out = String::with_capacity(text.len());
        let mut rest = text;
        while let Some(start) = rest.find("{{") {
            let Some(end) = rest[start + 2..].find("}}") else { break };
            let inner = &rest[start + 2..start + 2 + end];
            out.push_str(&rest[..start]);
            match self.placeholder(inner) {
                Some(filled) => out.push_str(&filled),
                None => out.push_str(&rest[start..start + 4 + end]),
            }
            rest = &rest[start + 4 + end..];
        }
        out.push_str(rest);
        out
    }

    fn placeholder(&mut self, inner: &str) -> Option<String> {
        let fresh = match inner {
            "now" => return Some(self.now.to_string()),
            "now_ms" => return Some(self.now.saturating_mul(1000).to_string()),
            "now_iso" => {
                let time = chrono::DateTime::from_timestamp(self.now, 0).unwrap_or_default();
                return Some(time.to_rfc3339_opts(chrono::SecondsFormat::Secs, true));
            }
            "event" => return Some(self.event.to_string()),
            "event_id" => return Some(self.event_id.to_string()),
            "delivery_id" => return Some(self.delivery_id.to_string()),
            _ if inner == "uuid" || inner.starts_with("uuid:") => || uuid::Uuid::new_v4().to_string(),
            _ if inner == "sha" || inner.starts_with("sha:") => || hex::encode(rand::random::<[u8; 20]>()),
            _ => {
                let prefix = inner.strip_prefix("id:")?;
                if !prefix.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
                    return None;
                }
                return Some(self.drawn.entry(inner.to_string()).or_insert_with(|| fresh_id(prefix)).clone());
            }
        };
        Some(self.drawn.entry(inner.to_string()).or_insert_with(fresh).clone())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn placeholders_are_filled_once_per_event_and_unknown_braces_stay() {
        let mut fill = Fill::new("push", "evt_1", "d-1", 1_700_000_000);
        let mut value = json!({
            "id": "{{event_id}}", "created": "{{now}}", "a": "{{id:pi_}}", "b": "{{id:pi_}}", "c": "{{id:ch_}}",
            "secret": "{{id:pi_}}_secret_x", "money": "${{amount}}", "when": "{{now_iso}}", "ts": "{{now}}.0002",
            "u": ["{{uuid}}", "{{uuid}}", "{{uuid:other}}"], "open": "{{now", "d": "{{delivery_id}}/{{event}}"
        });
        fill.value(&mut value);
        assert_eq!(value["id"], "evt_1");
        assert_eq!(value["created"], 1_700_000_000);
        assert_eq!(value["a"], value["b"]);
        assert!(value["a"].as_str().unwrap().starts_with("pi_") && value["a"] != value["c"]);
        assert_eq!(value["secret"], format!("{}_secret_x", value["a"].as_str().unwrap()));
        assert_eq!(value["money"], "${{amount}}");
        assert_eq!(value["when"], "2023-11-14T22:13:20Z");
        assert_eq!(value["ts"], "1700000000.0002");
        assert_eq!(value["u"][0], value["u"][1]);
        assert_ne!(value["u"][0], value["u"][2]);
        assert_eq!(value["open"], "{{now");
        assert_eq!(value["d"], "d-1/push");
    }
}
