//! What the receiver observed, grouped into events. An attempt joins the event whose id it carries,
//! or else the event whose body bytes it repeats, so a sender that mints a new id per retry shows
//! as one event under several ids instead of several events that were never retried.
use std::collections::HashMap;
use std::sync::Mutex;
use std::time::Instant;

use bytes::Bytes;
use chrono::{DateTime, Utc};

use super::script::{Script, Step};
use crate::sync::lock;
use crate::webhook::scheme::SchemeKind;

/// What the signature check found for one attempt.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Signature {
    /// The scheme the attempt was verified with (`None` when `--scheme auto` found none).
    pub scheme: Option<SchemeKind>,
    /// The signature matched the body (whatever the signed timestamp's age).
    pub matched: bool,
    /// Why it did not, or why the timestamp is outside the tolerance.
    pub problem: Option<String>,
    /// The signed timestamp, for timestamped schemes, when it could be read.
    pub timestamp: Option<i64>,
}

/// What arrived, before it is filed.
#[derive(Debug, Clone)]
pub(crate) struct Arrival {
    pub received: DateTime<Utc>,
    pub at: Instant,
    /// The event id it carries: the scheme's id header, else the body's top-level `id`.
    pub id: Option<String>,
    pub body: Bytes,
    pub signature: Signature,
    pub content_type: Option<String>,
    pub user_agent: Option<String>,
}

/// How an attempt ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Ending {
    /// Still waiting for its answer to go out, or held.
    Open,
    /// Answered, at this instant.
    Answered(Instant),
    /// Held, and the sender closed the connection at this instant.
    GaveUp(Instant),
    /// Held until the run ended: the sender never gave up.
    Outlasted,
}

/// One request, filed under its event.
#[derive(Debug, Clone)]
pub(crate) struct Attempt {
    pub arrival: Arrival,
    /// 1-based within its event.
    pub number: u32,
    pub step: Step,
    pub ending: Ending,
}

impl Attempt {
    /// When the sender learnt how this attempt went: its answer, or its own timeout.
    pub(crate) fn ended_at(&self) -> Option<Instant> {
        match self.ending {
            Ending::Answered(at) | Ending::GaveUp(at) => Some(at),
            Ending::Open | Ending::Outlasted => None,
        }
    }
}

/// One event and its attempts, in order of arrival.
#[derive(Debug, Clone, Default)]
pub(crate) struct Event {
    /// 1-based, in order of first arrival: which of the script's events it plays.
    pub number: usize,
    pub attempts: Vec<Attempt>,
}

impl Event {
    /// The distinct ids its attempts carried, in order of first appearance.
    pub(crate) fn ids(&self) -> Vec<&str> {
        let mut ids: Vec<&str> = Vec::new();
        for id in self.attempts.iter().filter_map(|attempt| attempt.arrival.id.as_deref()) {
            if !ids.contains(&id) {
                ids.push(id);
            }
        }
        ids
    }

    /// `event 2 (evt_abc)`, for evidence.
    pub(crate) fn name(&self) -> String {
        match self.ids().first() {
            Some(id) => format!("event {} ({})", self.number, crate::output::terminal_safe(id)),
            None => format!("event {}", self.number),
        }
    }
}

/// Where to find an attempt again to record how it ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct AttemptRef {
    pub event: usize,
    pub index: usize,
}

/// The attempt just filed: where it is and what to answer.
#[derive(Debug, Clone, Copy)]
pub(super) struct Filed {
    pub at: AttemptRef,
    /// 1-based.
    pub event_number: usize,
    pub attempt_number: u32,
    pub step: Step,
    /// An earlier attempt of this event was already answered 2xx.
    pub duplicate: bool,
}

/// A request that followed a scripted redirect to the path it named.
#[derive(Debug, Clone)]
pub(crate) struct Redirected {
    /// The event id it carried, if any.
    pub id: Option<String>,
    pub at: Instant,
}

/// Every event so far; shared by the request handlers and the supervisor.
pub(super) struct Book {
    script: Script,
    state: Mutex<State>,
    redirected: Mutex<Vec<Redirected>>,
}

#[derive(Default)]
struct State {
    events: Vec<Event>,
    by_id: HashMap<String, usize>,
    by_body: HashMap<[u8; 32], usize>,
}

impl Book {
    pub(super) fn new(script: Script) -> Book {
        Book { script, state: Mutex::new(State::default()), redirected: Mutex::default() }
    }

    fn state(&self) -> std::sync::MutexGuard<'_, State> {
        lock(&self.state)
    }

    /// Files an arrival under its event (a new one when neither its id nor its body was seen) and
    /// picks its scripted answer, in one critical section so two copies racing in get attempt
    /// numbers 1 and 2, never 1 and 1.
    pub(super) fn file(&self, arrival: Arrival) -> Filed {
        let hash = body_hash(&arrival.body);
        let mut state = self.state();
        let known =
            arrival.id.as_ref().and_then(|id| state.by_id.get(id)).or_else(|| state.by_body.get(&hash)).copied();
        let event = match known {
            Some(event) => event,
            None => {
                let number = state.events.len() + 1;
                state.events.push(Event { number, attempts: Vec::new() });
                number - 1
            }
        };
        if let Some(id) = &arrival.id {
            state.by_id.entry(id.clone()).or_insert(event);
        }
        state.by_body.entry(hash).or_insert(event);
        let entry = &mut state.events[event];
        let duplicate = entry.attempts.iter().any(|attempt| attempt.step.status().is_some_and(|s| s.is_success()));
        let attempt_number = u32::try_from(entry.attempts.len() + 1).unwrap_or(u32::MAX);
        let step = self.script.step(event, attempt_number);
        entry.attempts.push(Attempt { arrival, number: attempt_number, step, ending: Ending::Open });
        Filed {
            at: AttemptRef { event, index: entry.attempts.len() - 1 },
            event_number: event + 1,
            attempt_number,
            step,
            duplicate,
        }
    }

    /// Records how an attempt ended (the first ending counts).
    pub(super) fn end(&self, at: AttemptRef, ending: Ending) {
        let mut state = self.state();
        if let Some(attempt) = state.events.get_mut(at.event).and_then(|event| event.attempts.get_mut(at.index))
            && attempt.ending == Ending::Open
        {
            attempt.ending = ending;
        }
    }

    /// Whether the first `events` events have each reached their script's last step and that
    /// attempt has ended.
    pub(super) fn played_out(&self, events: usize) -> bool {
        let state = self.state();
        state.events.len() >= events
            && state.events.iter().take(events).enumerate().all(|(index, event)| {
                let last = self.script.steps(index);
                event.attempts.get(last - 1).is_some_and(|attempt| attempt.ending != Ending::Open)
            })
    }

    /// What each of the first `events` events is still waiting for, for the progress note.
    pub(super) fn waiting_for(&self, events: usize) -> Vec<String> {
        let state = self.state();
        (0..events)
            .filter_map(|index| {
                let steps = self.script.steps(index);
                match state.events.get(index) {
                    None => Some(format!("event {} has not arrived", index + 1)),
                    Some(event) if event.attempts.len() < steps => {
                        Some(format!("event {} awaits attempt {}", index + 1, event.attempts.len() + 1))
                    }
                    Some(_) => None,
                }
            })
            .collect()
    }

    /// Marks every attempt still held as outlasted, when the run ends.
    pub(super) fn close(&self) {
        let mut state = self.state();
        for attempt in state.events.iter_mut().flat_map(|event| event.attempts.iter_mut()) {
            if attempt.ending == Ending::Open {
                attempt.ending = Ending::Outlasted;
            }
        }
    }

    /// Whether nothing has arrived yet.
    pub(super) fn is_empty(&self) -> bool {
        self.state().events.is_empty()
    }

    pub(super) fn events(&self) -> Vec<Event> {
        self.state().events.clone()
    }

    /// Notes a request that followed a redirect (it is not an attempt of any event).
    pub(super) fn followed(&self, redirected: Redirected) {
        lock(&self.redirected).push(redirected);
    }

    pub(super) fn redirected(&self) -> Vec<Redirected> {
        lock(&self.redirected).clone()
    }
}

fn body_hash(body: &[u8]) -> [u8; 32] {
    let digest = ring::digest::digest(&ring::digest::SHA256, body);
    let mut hash = [0; 32];
    hash.copy_from_slice(digest.as_ref());
    hash
}

#[cfg(test)]
mod tests {
    use super::*;

    pub(super) fn arrival(id: Option<&str>, body: &str) -> Arrival {
        Arrival {
            received: Utc::now(),
            at: Instant::now(),
            id: id.map(str::to_string),
            body: Bytes::from(body.to_string()),
            signature: Signature { scheme: None, matched: true, problem: None, timestamp: None },
            content_type: None,
            user_agent: None,
        }
    }

    #[test]
    fn attempts_group_by_id_or_by_body() {
        let book = Book::new(Script::default());
        let first = book.file(arrival(Some("msg_1"), "{\"a\":1}"));
        // A new id for the same body: the same event, so it gets the script's next step.
        let renamed = book.file(arrival(Some("msg_2"), "{\"a\":1}"));
        // The same id with another body: still the same event.
        let changed = book.file(arrival(Some("msg_1"), "{\"a\":2}"));
        let other = book.file(arrival(Some("msg_3"), "{\"b\":1}"));
        assert_eq!((first.event_number, renamed.event_number, changed.event_number), (1, 1, 1));
        assert_eq!((renamed.attempt_number, changed.attempt_number), (2, 3));
        assert_eq!(renamed.step, Step::Hold);
        assert_eq!((other.event_number, other.attempt_number), (2, 1));
        let events = book.events();
        assert_eq!(events[0].ids(), ["msg_1", "msg_2"]);
        assert_eq!(events[0].name(), "event 1 (msg_1)");
    }

    #[test]
    fn an_event_plays_out_when_its_last_step_has_ended() {
        let book = Book::new(Script::parse("500,200;410").unwrap());
        let first = book.file(arrival(None, "one"));
        book.end(first.at, Ending::Answered(Instant::now()));
        assert!(!book.played_out(1));
        assert_eq!(book.waiting_for(2), ["event 1 awaits attempt 2", "event 2 has not arrived"]);
        let second = book.file(arrival(None, "one"));
        assert!(!book.played_out(1), "its answer has not gone out yet");
        book.end(second.at, Ending::Answered(Instant::now()));
        assert!(book.played_out(1) && !book.played_out(2));
        let third = book.file(arrival(None, "one"));
        assert!(third.duplicate, "attempt 2 was answered 200");
        let gone = book.file(arrival(None, "two"));
        book.end(gone.at, Ending::Answered(Instant::now()));
        assert!(book.played_out(2));
    }
}
