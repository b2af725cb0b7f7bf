//! The event-id table: how many times each event has arrived and whether one of those attempts
//! was accepted, which is what makes a later one a duplicate.
//!
//! The look and the claim happen in one critical section, as the idempotency design demands:
//! of several concurrent deliveries of one event exactly one is accepted for processing and the
//! others are duplicates, never two "firsts" (which would forward the event twice).
use std::collections::HashMap;
use std::sync::Mutex;

use ring::digest;
use serde::Deserialize;

/// Per event id: every attempt counts (including those answered 500 by `--fail-first` and those
/// refused as invalid, so a sender's retry count shows), but only an accepted attempt makes the
/// next one a duplicate: a receiver that answered 500 has not processed the event.
#[derive(Default)]
pub struct EventTable {
    events: Mutex<HashMap<String, EventState>>,
}

#[derive(Default)]
struct EventState {
    attempts: u32,
    progress: Progress,
}

#[derive(Default, Clone, Copy, PartialEq, Eq)]
enum Progress {
    /// No attempt accepted yet.
    #[default]
    Open,
    /// An attempt was accepted and has not been answered yet (it may still be forwarding).
    InFlight,
    /// An attempt was answered 2xx.
    Acknowledged,
}

/// One arrival of an event.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Attempt {
    /// 1 for the first arrival of this event id, 2 for the next, and so on.
    pub number: u32,
    /// Whether an earlier attempt was accepted (answered 2xx, or still being answered).
    pub duplicate: bool,
    /// Whether that earlier attempt is still in flight: its outcome is not known yet.
    pub original_in_flight: bool,
    /// Whether this attempt is the accepted one, which must report how it ended with
    /// [`EventTable::finish`] (or its [`Claim`] does it when dropped).
    pub claimed: bool,
}

impl EventTable {
    /// Counts an arrival of `event_id`. When no earlier attempt was accepted and `accepts` says
    /// this one will be (by its attempt number), it is claimed, atomically with the look.
    pub fn register(&self, event_id: &str, accepts: impl FnOnce(u32) -> bool) -> Attempt {
        let mut events = self.events.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        // Look up before inserting so a repeat (the common case under retries) does not allocate.
        let state = match events.get_mut(event_id) {
            Some(state) => state,
            None => events.entry(event_id.to_string()).or_default(),
        };
        state.attempts = state.attempts.saturating_add(1);
        let number = state.attempts;
        let duplicate = state.progress != Progress::Open;
        let original_in_flight = state.progress == Progress::InFlight;
        let claimed = !duplicate && accepts(number);
        if claimed {
            state.progress = Progress::InFlight;
        }
        Attempt { number, duplicate, original_in_flight, claimed }
    }

    /// Records how the claimed attempt of `event_id` ended: answered 2xx, or not (a forward that
    /// failed, a journal that could not be written), which reopens the event for a retry.
    pub fn finish(&self, event_id: &str, acknowledged: bool) {
        let mut events = self.events.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        if let Some(state) = events.get_mut(event_id) {
            if state.progress == Progress::InFlight {
                state.progress = if acknowledged { Progress::Acknowledged } else { Progress::Open };
            }
        }
    }
}

/// The claimed attempt's duty to report how it ended; dropped unfinished (the sender hung up
/// mid-forward), it reopens the event so the sender's retry is not mistaken for a duplicate.
pub struct Claim<'a> {
    table: &'a EventTable,
    event_id: &'a str,
    pending: bool,
}

impl<'a> Claim<'a> {
    pub fn new(table: &'a EventTable, event_id: &'a str, attempt: Attempt) -> Claim<'a> {
        Claim { table, event_id, pending: attempt.claimed }
    }

    pub fn finish(mut self, acknowledged: bool) {
        if self.pending {
            self.table.finish(self.event_id, acknowledged);
            self.pending = false;
        }
    }
}

impl Drop for Claim<'_> {
    fn drop(&mut self) {
        if self.pending {
            self.table.finish(self.event_id, false);
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
    fn attempts_count_and_only_accepted_ones_make_duplicates() {
        let table = EventTable::default();
        let accept_after_one = |number: u32| number > 1;
        // Answered 500 (fail-first): not claimed, so the retry is not a duplicate.
        let first = table.register("evt_1", accept_after_one);
        assert_eq!((first.number, first.duplicate, first.claimed), (1, false, false));
        let second = table.register("evt_1", accept_after_one);
        assert_eq!((second.number, second.duplicate, second.claimed), (2, false, true));
        // A concurrent copy while the second is in flight is a duplicate of an unfinished original.
        let concurrent = table.register("evt_1", accept_after_one);
        assert_eq!((concurrent.duplicate, concurrent.original_in_flight, concurrent.claimed), (true, true, false));
        table.finish("evt_1", true);
        let later = table.register("evt_1", accept_after_one);
        assert_eq!((later.number, later.duplicate, later.original_in_flight), (4, true, false));
        assert!(!table.register("evt_2", |_| true).duplicate);
    }

    #[test]
    fn a_claim_that_fails_or_is_dropped_reopens_the_event() {
        let table = EventTable::default();
        let attempt = table.register("evt_1", |_| true);
        Claim::new(&table, "evt_1", attempt).finish(false);
        let retry = table.register("evt_1", |_| true);
        assert!(!retry.duplicate && retry.claimed);
        drop(Claim::new(&table, "evt_1", retry));
        assert!(table.register("evt_1", |_| true).claimed, "a dropped claim reopens the event");
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
