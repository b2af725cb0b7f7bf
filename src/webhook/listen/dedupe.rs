//! The event-id table: how many times each event has arrived and whether one of those attempts
//! was acknowledged, which is what makes a later one a duplicate.
use std::collections::HashMap;
use std::sync::Mutex;

use ring::digest;
use serde::Deserialize;

/// Per event id: every attempt counts (including those answered 500 by `--fail-first` and those
/// refused as invalid, so a sender's retry count shows), but only an acknowledged (2xx) attempt
/// makes the next one a duplicate: a receiver that answered 500 has not processed the event.
#[derive(Default)]
pub struct EventTable {
    events: Mutex<HashMap<String, EventState>>,
}

#[derive(Default)]
struct EventState {
    attempts: u32,
    acknowledged: bool,
}

/// One arrival of an event.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Attempt {
    /// 1 for the first arrival of this event id, 2 for the next, and so on.
    pub number: u32,
    /// Whether an earlier attempt was acknowledged with 2xx.
    pub duplicate: bool,
}

impl EventTable {
    /// Counts an arrival of `event_id`.
    pub fn register(&self, event_id: &str) -> Attempt {
        let mut events = self.events.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        // Look up before inserting so a repeat (the common case under retries) does not allocate.
        let state = match events.get_mut(event_id) {
            Some(state) => state,
            None => events.entry(event_id.to_string()).or_default(),
        };
        state.attempts = state.attempts.saturating_add(1);
        Attempt { number: state.attempts, duplicate: state.acknowledged }
    }

    /// Records that an attempt of `event_id` was answered 2xx.
    pub fn acknowledge(&self, event_id: &str) {
        let mut events = self.events.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        if let Some(state) = events.get_mut(event_id) {
            state.acknowledged = true;
        }
    }
}

/// What a JSON body says about itself at the top level; anything else in it is skipped unparsed.
#[derive(Debug, Default, Deserialize)]
pub struct Envelope {
    #[serde(default)]
    id: Option<serde_json::Value>,
    #[serde(default, rename = "type")]
    event_type: Option<serde_json::Value>,
}

impl Envelope {
    /// The envelope of a JSON object body; nothing for other bodies.
    pub fn read(body: &[u8]) -> Envelope {
        let starts_as_object = body.iter().find(|byte| !byte.is_ascii_whitespace()) == Some(&b'{');
        if !starts_as_object {
            return Envelope::default();
        }
        serde_json::from_slice(body).unwrap_or_default()
    }

    /// The top-level `id`, when it is a non-empty string or a number.
    pub fn id(&self) -> Option<String> {
        scalar_text(self.id.as_ref()?)
    }

    /// The top-level `type`, when it is a non-empty string.
    pub fn event_type(&self) -> Option<String> {
        match self.event_type.as_ref()? {
            serde_json::Value::String(text) if !text.is_empty() => Some(text.clone()),
            _ => None,
        }
    }
}

fn scalar_text(value: &serde_json::Value) -> Option<String> {
    match value {
        serde_json::Value::String(text) if !text.is_empty() => Some(text.clone()),
        serde_json::Value::Number(number) => Some(number.to_string()),
        _ => None,
    }
}

/// The id de-duplication keys on: the scheme's delivery id, else the body's top-level `id`, else
/// `sha256:` and the hex of the body's hash (so byte-identical redeliveries still match).
pub fn event_id(delivery_id: Option<String>, envelope: &Envelope, body: &[u8]) -> String {
    delivery_id
        .filter(|id| !id.is_empty())
        .or_else(|| envelope.id())
        .unwrap_or_else(|| format!("sha256:{}", hex::encode(digest::digest(&digest::SHA256, body))))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn attempts_count_and_only_acknowledged_ones_make_duplicates() {
        let table = EventTable::default();
        assert_eq!(table.register("evt_1"), Attempt { number: 1, duplicate: false });
        // Answered 500 (fail-first): the retry is not a duplicate yet.
        assert_eq!(table.register("evt_1"), Attempt { number: 2, duplicate: false });
        table.acknowledge("evt_1");
        assert_eq!(table.register("evt_1"), Attempt { number: 3, duplicate: true });
        assert_eq!(table.register("evt_2"), Attempt { number: 1, duplicate: false });
    }

    #[test]
    fn event_ids_fall_back_from_header_to_body_id_to_hash() {
        let body = br#"{"id":"evt_9","type":"invoice.paid","data":{"id":"inner"}}"#;
        let envelope = Envelope::read(body);
        assert_eq!(event_id(Some("msg_1".into()), &envelope, body), "msg_1");
        assert_eq!(event_id(None, &envelope, body), "evt_9");
        assert_eq!(envelope.event_type().as_deref(), Some("invoice.paid"));
        assert_eq!(event_id(None, &Envelope::read(br#"{"id":42}"#), b""), "42");
        let hashed = event_id(None, &Envelope::read(b"not json"), b"not json");
        assert!(hashed.starts_with("sha256:") && hashed.len() == 7 + 64, "{hashed}");
        for odd in [&b"[1,2]"[..], b"{\"id\":", b"{\"id\":{}}", b"\xff\xfe", b""] {
            assert!(event_id(None, &Envelope::read(odd), odd).starts_with("sha256:"));
        }
    }
}
