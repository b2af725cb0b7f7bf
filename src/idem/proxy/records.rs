//! What the proxy keeps of each request and each logical operation: the records `operations.rs`
//! indexes and `judge.rs` reads. A leaf, so the index and the judge both import it and not each
//! other.
use std::hash::Hash;
use std::num::NonZeroU64;
use std::sync::Arc;
use std::time::{Duration, Instant};

use chrono::{DateTime, Utc};
use http::Method;
use smallvec::SmallVec;

use crate::idem::proxy::answer::UpstreamAnswer;
use crate::idem::proxy::fault::Fault;

/// The method and path of a request. A load test sends to a handful of routes, so attempts
/// share one copy of each (`Operations::route`) instead of holding their own.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct Route {
    pub method: Method,
    pub path: Box<str>,
    /// A hash of method and path: the routes' index key, and the start of every fingerprint.
    pub(super) hash: u64,
}

/// What the proxy saw of one attempt. A window's worth of these is held (about 190k at 38k
/// requests/s with `--window 5s`), so each keeps only what the judge reads: the method and path
/// are shared, the key and the body are hashes (the key with a short display form), times are
/// offsets from the run's start, and the upstream's answer is digests, not a copy of its body.
#[derive(Debug, Clone)]
pub struct Attempt {
    pub key: Option<Key>,
    pub body_hash: u64,
    pub arrived: Stamp,
    /// When the client got its answer or lost its connection; `None` while in flight.
    pub finished: Option<Stamp>,
    /// The wait the client was asked for by a `Retry-After` (seconds or an HTTP-date, read by
    /// crate::retry as a client reads it), in milliseconds (`client_retry_after`).
    client_retry_after_ms: Option<u32>,
    /// What the upstream answered, when the request was forwarded (an error when it could not be
    /// reached). `None` until known, and for faults that do not forward.
    pub upstream: Option<UpstreamAnswer>,
    pub fault: Option<Fault>,
    /// The request body's length (saturating at 4 GiB; the proxy refuses bodies over 64 MiB).
    pub body_len: u32,
    /// 1-based within its operation.
    pub number: u32,
    /// The status the client was given; `None` when its connection was closed instead.
    pub client_status: Option<u16>,
}

/// A moment of the run: microseconds since its start (`Clock`), plus one so that `None` costs
/// nothing in an `Option<Stamp>`. 8 bytes where an `Instant` is 16.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Stamp(NonZeroU64);

impl Stamp {
    fn from_micros(micros: u64) -> Stamp {
        Stamp(NonZeroU64::MIN.saturating_add(micros))
    }

    fn micros(self) -> u64 {
        self.0.get() - 1
    }

    /// The time from `earlier` to this, zero when `earlier` is later.
    pub fn saturating_duration_since(self, earlier: Stamp) -> Duration {
        Duration::from_micros(self.micros().saturating_sub(earlier.micros()))
    }
}

/// The run's start, which stamps are counted from, as an `Instant` and as the wall clock.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Clock {
    start: Instant,
    start_time: DateTime<Utc>,
}

impl Clock {
    pub(crate) fn starting_now() -> Clock {
        Clock { start: Instant::now(), start_time: Utc::now() }
    }

    /// `at` as a stamp of this run (the start when `at` is earlier).
    pub(crate) fn stamp(&self, at: Instant) -> Stamp {
        Stamp::from_micros(u64::try_from(at.saturating_duration_since(self.start).as_micros()).unwrap_or(u64::MAX))
    }

    /// The wall-clock time of a stamp.
    pub(crate) fn time_of(&self, stamp: Stamp) -> DateTime<Utc> {
        self.start_time + Duration::from_micros(stamp.micros())
    }
}

/// An idempotency key as the proxy keeps it: a 64-bit hash, which is identity enough within a
/// run, and its first bytes for display. Reports show keys shortened (`short_key`): a 36-byte
/// UUID held in full would be a third of an attempt.
#[derive(Debug, Clone, Copy)]
pub struct Key {
    /// The hash, as two halves: aligned to 4 bytes, the key packs with the attempt's other small
    /// fields (8 bytes less per attempt).
    hash: [u32; 2],
    /// Up to `KEY_SHOWN` bytes of the key, cut at a character boundary.
    shown: [u8; KEY_SHOWN],
    shown_len: u8,
    /// Whether `shown` is the whole key.
    whole: bool,
}

/// How many bytes of a key are kept to show it: a short key in full, a long one as its first 8
/// characters and an ellipsis (`short_key`).
const KEY_SHOWN: usize = 10;

impl Key {
    pub fn of(key: &str) -> Key {
        let mut end = key.len().min(KEY_SHOWN);
        while !key.is_char_boundary(end) {
            end -= 1;
        }
        let mut shown = [0; KEY_SHOWN];
        shown[..end].copy_from_slice(&key.as_bytes()[..end]);
        let hash = hash_key(key);
        Key { hash: [hash as u32, (hash >> 32) as u32], shown, shown_len: end as u8, whole: end == key.len() }
    }

    /// The key's 64-bit hash: its identity in the key index.
    pub fn hash(&self) -> u64 {
        u64::from(self.hash[0]) | (u64::from(self.hash[1]) << 32)
    }

    /// The key for lines and reports: whole when it is at most 10 bytes, else its first 8
    /// characters and an ellipsis.
    pub fn shown(&self) -> String {
        // Always valid: cut at a character boundary of a `str`.
        let kept = std::str::from_utf8(&self.shown[..usize::from(self.shown_len)]).unwrap_or_default();
        if self.whole { kept.to_string() } else { format!("{}…", kept.chars().take(8).collect::<String>()) }
    }
}

impl PartialEq for Key {
    fn eq(&self, other: &Key) -> bool {
        self.hash == other.hash
    }
}

impl Eq for Key {}

/// The key index's hash of a key.
pub(super) fn hash_key(key: &str) -> u64 {
    crate::run_hash::hash_of(key)
}

impl Attempt {
    /// A new attempt, arrived at `arrived`, not yet answered.
    pub(super) fn new(key: Option<Key>, body: &[u8], body_hash: u64, number: u32, arrived: Stamp) -> Attempt {
        Attempt {
            key,
            body_hash,
            arrived,
            finished: None,
            client_retry_after_ms: None,
            upstream: None,
            fault: None,
            body_len: u32::try_from(body.len()).unwrap_or(u32::MAX),
            number,
            client_status: None,
        }
    }

    /// The wait the client was asked for by a `Retry-After`.
    pub fn client_retry_after(&self) -> Option<Duration> {
        self.client_retry_after_ms.map(|ms| Duration::from_millis(u64::from(ms)))
    }

    pub fn set_client_retry_after(&mut self, wait: Option<Duration>) {
        self.client_retry_after_ms = wait.map(|wait| u32::try_from(wait.as_millis()).unwrap_or(u32::MAX));
    }

    /// Whether the client has reason to send this request again: a fault it should retry, no
    /// answer yet from a faulted attempt, or an answer that is not a success.
    pub(super) fn awaits_retry(&self) -> bool {
        if self.fault.is_some_and(Fault::calls_for_a_retry) {
            return true;
        }
        match (self.finished, self.client_status) {
            (Some(_), Some(status)) => !(200..300).contains(&status),
            (Some(_), None) => true,
            // Still in flight: a request sent again now is a retry only if this one was delayed
            // on purpose (the client may have given up on it).
            (None, _) => matches!(self.fault, Some(Fault::Delay(_))),
        }
    }
}

/// One logical operation: the attempts the client made for one intent (most make one, kept
/// inline).
#[derive(Debug, Clone)]
pub(crate) struct Operation {
    pub number: usize,
    pub route: Arc<Route>,
    pub attempts: SmallVec<[Attempt; 1]>,
    /// The time of its entry in the expiry queue that stands for it (older entries are stale).
    pub(super) queued: Stamp,
}

impl Operation {
    /// When it last saw activity: its last attempt's arrival or finish; `None` while that attempt
    /// is in flight.
    pub(super) fn last_activity(&self) -> Option<Stamp> {
        let last = self.attempts.last()?;
        last.finished.map(|finished| finished.max(last.arrived))
    }

    /// Its index entry: method, path and the body of its last attempt.
    pub(super) fn fingerprint(&self) -> u64 {
        fingerprint(&self.route, self.attempts.last().map_or(0, |a| a.body_hash))
    }
}

/// The index key of "the same request": method, path (the route's hash, already made) and body.
pub(super) fn fingerprint(route: &Route, body_hash: u64) -> u64 {
    crate::run_hash::hash_of(&(route.hash, body_hash))
}
