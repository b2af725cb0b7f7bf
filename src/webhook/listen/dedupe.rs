//! The event-id table: how many times each event has arrived and whether one of those attempts
//! was accepted, which is what makes a later one a duplicate.
//!
//! The look and the claim happen in one critical section, as the idempotency design demands:
//! of several concurrent deliveries of one event exactly one is accepted for processing and the
//! others are duplicates, never two "firsts" (which would forward the event twice).
//!
//! Only authentic deliveries reach the table: a forgery neither claims an id nor counts against
//! one, so forged requests cannot grow it or make a real event look like a duplicate. It is
//! bounded all the same: an entry expires `window` after the event first arrived, and beyond
//! `max_entries` the oldest is forgotten first.
use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use ring::digest;

use crate::sync::lock;
use crate::webhook::scheme::SchemeKind;

pub(super) use super::envelope::Envelope;

/// How long an event is remembered by default: providers retry for hours to days, and most
/// redeliveries come within the first day.
pub(super) const DEFAULT_WINDOW: Duration = Duration::from_secs(24 * 60 * 60);
/// How many events are remembered by default: about 20 MB at most.
pub(super) const DEFAULT_MAX_ENTRIES: usize = 100_000;

/// Per event: every authentic attempt counts (including those answered 500 by `--fail-first`, so a
/// sender's retry count shows), but only an accepted attempt makes the next one a duplicate: a
/// receiver that answered 500 has not processed the event.
pub(super) struct EventTable {
    inner: Mutex<Inner>,
    window: Duration,
    max_entries: usize,
}

#[derive(Default)]
struct Inner {
    /// Hashed with foldhash, not SipHash: a delivery looks its id up two or three times, and
    /// SipHash was a thousand instructions of it. The seed is random per process, so a sender
    /// cannot pick colliding ids without seeing the table.
    events: HashMap<Arc<str>, EventState, foldhash::fast::RandomState>,
    /// Keys in the order they were first seen, for expiry and eviction; each key is here once.
    order: VecDeque<(Instant, Arc<str>)>,
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
pub(super) struct Attempt {
    /// 1 for the first authentic arrival of this event, 2 for the next, and so on; 0 for a delivery
    /// that was not counted (an invalid signature).
    pub number: u32,
    /// Whether an earlier attempt was accepted (answered 2xx, or still being answered).
    pub duplicate: bool,
    /// Whether that earlier attempt is still in flight: its outcome is not known yet.
    pub original_in_flight: bool,
    /// Whether this attempt is the accepted one, which must report how it ended with
    /// [`EventTable::finish`] (or its [`Claim`] does it when dropped).
    pub claimed: bool,
}

impl Attempt {
    /// A delivery the table did not see: it claims nothing and repeats nothing.
    pub(super) const UNCOUNTED: Attempt =
        Attempt { number: 0, duplicate: false, original_in_flight: false, claimed: false };
}

impl Default for EventTable {
    fn default() -> EventTable {
        EventTable::new(DEFAULT_WINDOW, DEFAULT_MAX_ENTRIES)
    }
}

impl EventTable {
    pub(super) fn new(window: Duration, max_entries: usize) -> EventTable {
        EventTable { inner: Mutex::default(), window, max_entries: max_entries.max(1) }
    }

    /// Counts an arrival of `key`. When no earlier attempt was accepted and `accepts` says
    /// this one will be (by its attempt number), it is claimed, atomically with the look.
    #[cfg(test)]
    fn register(&self, key: &str, accepts: impl FnOnce(u32) -> bool) -> Attempt {
        self.register_at(key, Instant::now(), accepts)
    }

    /// [`register`](Self::register) for an arrival at `now` (the listener's reading of the clock
    /// when the request came).
    pub(super) fn register_at(&self, key: &str, now: Instant, accepts: impl FnOnce(u32) -> bool) -> Attempt {
        let mut inner = lock(&self.inner);
        inner.forget_expired(now, self.window);
        // A repeat (the common case under retries) is one lookup and allocates nothing.
        if let Some(state) = inner.events.get_mut(key) {
            return state.count(accepts);
        }
        while inner.order.len() >= self.max_entries {
            inner.forget_oldest();
        }
        let mut state = EventState::default();
        let attempt = state.count(accepts);
        let key: Arc<str> = Arc::from(key);
        inner.order.push_back((now, Arc::clone(&key)));
        inner.events.insert(key, state);
        attempt
    }

    /// Records how the claimed attempt of `key` ended: answered 2xx, or not (a forward that
    /// failed, a journal that could not be written), which reopens the event for a retry.
    pub(super) fn finish(&self, key: &str, acknowledged: bool) {
        let mut inner = lock(&self.inner);
        if let Some(state) = inner.events.get_mut(key)
            && state.progress == Progress::InFlight
        {
            state.progress = if acknowledged { Progress::Acknowledged } else { Progress::Open };
        }
    }

    /// How many events are remembered.
    pub(super) fn len(&self) -> usize {
        lock(&self.inner).events.len()
    }
}

impl EventState {
    /// Counts one more attempt, claiming it when no earlier one was accepted and `accepts` says
    /// this one will be.
    fn count(&mut self, accepts: impl FnOnce(u32) -> bool) -> Attempt {
        self.attempts = self.attempts.saturating_add(1);
        let number = self.attempts;
        let duplicate = self.progress != Progress::Open;
        let original_in_flight = self.progress == Progress::InFlight;
        let claimed = !duplicate && accepts(number);
        if claimed {
            self.progress = Progress::InFlight;
        }
        Attempt { number, duplicate, original_in_flight, claimed }
    }
}

impl Inner {
    fn forget_expired(&mut self, now: Instant, window: Duration) {
        while self.order.front().is_some_and(|(first_seen, _)| now.saturating_duration_since(*first_seen) >= window) {
            self.forget_oldest();
        }
    }

    fn forget_oldest(&mut self) {
        if let Some((_, key)) = self.order.pop_front() {
            self.events.remove(&key);
        }
    }
}

/// The claimed attempt's duty to report how it ended; dropped unfinished (the sender hung up
/// mid-forward), it reopens the event so the sender's retry is not mistaken for a duplicate.
pub(super) struct Claim<'a> {
    table: &'a EventTable,
    key: &'a str,
    pending: bool,
}

impl<'a> Claim<'a> {
    pub(super) fn new(table: &'a EventTable, key: &'a str, attempt: Attempt) -> Claim<'a> {
        Claim { table, key, pending: attempt.claimed }
    }

    pub(super) fn finish(mut self, acknowledged: bool) {
        if self.pending {
            self.table.finish(self.key, acknowledged);
            self.pending = false;
        }
    }
}

impl Drop for Claim<'_> {
    fn drop(&mut self) {
        if self.pending {
            self.table.finish(self.key, false);
        }
    }
}

/// Where an event id was read from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum IdSource {
    /// The scheme's delivery-id header (`X-GitHub-Delivery`, `webhook-id`, …).
    Header,
    /// The body's top-level `id`.
    Body,
    /// The hash of the body.
    Hash,
}

/// The id de-duplication keys on: the scheme's delivery id, else the body's top-level `id`, else
/// `sha256:` and the hex of the body's hash (so byte-identical redeliveries still match).
pub(super) fn event_id(delivery_id: Option<String>, envelope: &mut Envelope, body: &[u8]) -> (String, IdSource) {
    if let Some(id) = delivery_id.filter(|id| !id.is_empty()) {
        return (id, IdSource::Header);
    }
    if let Some(id) = envelope.id() {
        return (id, IdSource::Body);
    }
    (format!("sha256:{}", hex::encode(digest::digest(&digest::SHA256, body))), IdSource::Hash)
}

/// The table key: the id, namespaced by the scheme that judged the delivery and where the id came
/// from, so a GitHub delivery `1001`, a Shopify one `1001` and a body `{"id":1001}` stay three events.
pub(super) fn table_key(scheme: Option<SchemeKind>, source: IdSource, id: &str) -> String {
    let scheme = scheme.map_or("none", SchemeKind::name);
    let source = match source {
        IdSource::Header => "header",
        IdSource::Body => "body",
        IdSource::Hash => "hash",
    };
    // Pushed rather than `format!`ed: this runs for every delivery.
    let mut key = String::with_capacity(scheme.len() + source.len() + id.len() + 2);
    for part in [scheme, "/", source, "/", id] {
        key.push_str(part);
    }
    key
}

#[cfg(test)]
mod tests {
    use serde::Deserialize;

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
        let mut envelope = Envelope::read(body);
        assert_eq!(event_id(Some("msg_1".into()), &mut envelope, body), ("msg_1".to_string(), IdSource::Header));
        assert_eq!(event_id(None, &mut envelope, body), ("evt_9".to_string(), IdSource::Body));
        assert_eq!(envelope.event_type().as_deref(), Some("invoice.paid"));
        assert_eq!(event_id(None, &mut Envelope::read(br#"{"id":42}"#), b"").0, "42");
        let (hashed, source) = event_id(None, &mut Envelope::read(b"not json"), b"not json");
        assert!(hashed.starts_with("sha256:") && hashed.len() == 7 + 64, "{hashed}");
        assert_eq!(source, IdSource::Hash);
        for odd in [&b"[1,2]"[..], b"{\"id\":", b"{\"id\":{}}", b"\xff\xfe", b""] {
            assert!(event_id(None, &mut Envelope::read(odd), odd).0.starts_with("sha256:"));
        }
    }

    /// The envelope as it was read before: whole `serde_json::Value`s for `id` and `type`.
    #[derive(Default, Deserialize)]
    struct ValueEnvelope {
        #[serde(default)]
        id: Option<serde_json::Value>,
        #[serde(default, rename = "type")]
        event_type: Option<serde_json::Value>,
    }

    impl ValueEnvelope {
        fn read(body: &[u8]) -> (Option<String>, Option<String>) {
            let starts_as_object = body.iter().find(|byte| !byte.is_ascii_whitespace()) == Some(&b'{');
            let envelope: ValueEnvelope = if starts_as_object {
                serde_json::from_slice(body).unwrap_or_default()
            } else {
                ValueEnvelope::default()
            };
            let id = match envelope.id {
                Some(serde_json::Value::String(text)) if !text.is_empty() => Some(text),
                Some(serde_json::Value::Number(number)) => Some(number.to_string()),
                _ => None,
            };
            let event_type = match envelope.event_type {
                Some(serde_json::Value::String(text)) if !text.is_empty() => Some(text),
                _ => None,
            };
            (id, event_type)
        }
    }

    #[test]
    fn the_envelope_reads_and_refuses_exactly_what_reading_values_did() {
        let deep = format!("{}{}", "[".repeat(200), "]".repeat(200));
        let mut bodies: Vec<Vec<u8>> = [
            &br#"{"id":"evt_1","type":"a.b"}"#[..],
            br#" {"type":"a.b","data":{"id":"inner","type":"x"},"id":"evt_\u0041\n"}"#,
            br#"{"id":7,"type":7}"#,
            br#"{"id":-7,"type":""}"#,
            br#"{"id":1.5}"#,
            br#"{"id":1e3}"#,
            br#"{"id":-0}"#,
            br#"{"id":-0.0}"#,
            br#"{"id":18446744073709551615}"#,
            br#"{"id":18446744073709551616}"#,
            br#"{"id":1e400}"#,
            br#"{"id":""}"#,
            br#"{"id":null,"type":null}"#,
            br#"{"id":true,"type":false}"#,
            br#"{"id":{"a":[1,{"b":null}]},"type":["x"]}"#,
            br#"{"id":{"a":"\ud800"},"type":"t"}"#,
            b"{\"id\":{\"a\":\"\xff\"},\"type\":\"t\"}",
            b"{\"id\":[\"\xff\"],\"type\":\"t\"}",
            b"{\"id\":\"e\",\"other\":\"\xff\"}",
            br#"{"id":"a","id":"b"}"#,
            br#"{"type":"a","type":"b","id":"c"}"#,
            br#"{"id":"a"} trailing"#,
            br#"{"id":"a""#,
            br#"{"id":"a",}"#,
            br#"{"id":01}"#,
            b"{\"id\":\"tab\tinside\"}",
            br#"[{"id":"a"}]"#,
            b"",
        ]
        .iter()
        .map(|body| body.to_vec())
        .collect();
        // Nesting past serde_json's depth limit, inside `id` and elsewhere.
        bodies.push(format!(r#"{{"id":"a","x":{}}}"#, deep).into_bytes());
        bodies.push(format!(r#"{{"id":{},"type":"t"}}"#, deep).into_bytes());
        for body in &bodies {
            let mut envelope = Envelope::read(body);
            assert_eq!(
                (envelope.id(), envelope.event_type()),
                ValueEnvelope::read(body),
                "{}",
                String::from_utf8_lossy(body)
            );
        }
    }

    /// A body shaped as `cargo bench --bench listen` sends them (a Stripe-style event of about 1 KiB).
    fn bench_body() -> Vec<u8> {
        format!(
            r#"{{"id":"evt_bench_00000001","type":"payment_intent.succeeded","created":1796158552,"data":{{"object":{{"amount":1,"currency":"eur","description":"{}"}}}}}}"#,
            "x".repeat(880)
        )
        .into_bytes()
    }

    /// Not a check but a driver for counting instructions per read (the envelope read, its id and
    /// type taken and dropped), e.g. `valgrind --tool=callgrind --toggle-collect='*envelope_reads*'
    /// TEST_BINARY envelope_read_driver --ignored --exact`: 1,000 reads of the bench's body.
    #[test]
    #[ignore = "a driver for callgrind, not a check"]
    fn envelope_read_driver() {
        assert_eq!(envelope_reads(&bench_body(), 1000), 1000);
    }

    #[inline(never)]
    fn envelope_reads(body: &[u8], times: usize) -> usize {
        let mut found = 0;
        for _ in 0..times {
            let mut envelope = Envelope::read(std::hint::black_box(body));
            found += usize::from(envelope.id().is_some() && envelope.event_type().is_some());
        }
        found
    }

    #[test]
    fn ids_from_different_schemes_and_places_are_different_events() {
        let github = table_key(Some(SchemeKind::Github), IdSource::Header, "1001");
        let shopify = table_key(Some(SchemeKind::Shopify), IdSource::Header, "1001");
        let body = table_key(Some(SchemeKind::Hmac), IdSource::Body, "1001");
        let table = EventTable::default();
        for key in [&github, &shopify, &body] {
            assert!(!table.register(key, |_| true).duplicate, "{key}");
        }
        assert_eq!(table.len(), 3);
    }

    #[test]
    fn entries_expire_after_the_window_and_the_oldest_go_first_beyond_the_maximum() {
        let table = EventTable::new(Duration::from_secs(60), 3);
        let start = Instant::now();
        table.register_at("a", start, |_| true);
        table.finish("a", true);
        assert!(table.register_at("a", start + Duration::from_secs(59), |_| true).duplicate);
        let later = table.register_at("a", start + Duration::from_secs(60), |_| true);
        assert!(!later.duplicate && later.number == 1, "expired, so a new event");
        for key in ["b", "c", "d"] {
            table.register_at(key, start + Duration::from_secs(61), |_| true);
        }
        assert_eq!(table.len(), 3);
        // "a" was the oldest: evicted to make room for "d".
        assert_eq!(table.register_at("a", start + Duration::from_secs(62), |_| true).number, 1);
    }
}
