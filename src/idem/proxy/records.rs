//! What the proxy keeps of each request and each logical operation: the records `operations.rs`
//! indexes and `judge.rs` reads. A leaf, so the index and the judge both import it and not each
//! other.
use std::hash::{Hash, Hasher};
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
pub struct Route {
    pub method: Method,
    pub path: Box<str>,
    /// A hash of method and path: the routes' index key, and the start of every fingerprint.
    pub(super) hash: u64,
}

/// What the proxy saw of one attempt. A window's worth of these is held (about 100k at 20k
/// requests/s with `--window 5s`), so the method and path are shared, the key is the one copy
/// the key index also points to, and the upstream's answer is one allocation.
#[derive(Debug, Clone)]
pub struct Attempt {
    pub operation: usize,
    /// 1-based within its operation.
    pub number: u32,
    /// The status the client was given; `None` when its connection was closed instead.
    pub client_status: Option<u16>,
    pub arrived: Instant,
    pub time: DateTime<Utc>,
    pub route: Arc<Route>,
    pub key: Option<Arc<str>>,
    pub body_hash: u64,
    pub body_len: usize,
    pub fault: Option<Fault>,
    /// What the upstream answered, when the request was forwarded (an error when it could not be
    /// reached). `None` until known, and for faults that do not forward.
    pub upstream: Option<UpstreamAnswer>,
    /// The wait the client was asked for by a `Retry-After` (seconds or an HTTP-date, read by
    /// crate::retry as a client reads it).
    pub client_retry_after: Option<Duration>,
    /// When the client got its answer or lost its connection; `None` while in flight.
    pub finished: Option<Instant>,
}

impl Attempt {
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
    pub(super) queued: Instant,
}

impl Operation {
    /// When it last saw activity: its last attempt's arrival or finish; `None` while that attempt
    /// is in flight.
    pub(super) fn last_activity(&self) -> Option<Instant> {
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
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    route.hash.hash(&mut hasher);
    body_hash.hash(&mut hasher);
    hasher.finish()
}
