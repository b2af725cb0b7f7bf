//! Grouping attempts into logical operations, as the client meant them: attempts with the same key
//! belong together; an attempt without a key, or with a key not seen before, continues the latest
//! operation with the same method, path and body if that operation is waiting for a retry (its
//! last attempt was faulted or not answered 2xx) and was last tried within the window. Otherwise
//! it starts a new operation, so two deliberate payments with the same body are not mistaken for
//! a retry.
use std::hash::{Hash, Hasher};
use std::time::{Duration, Instant};

use bytes::Bytes;
use chrono::{DateTime, Utc};
use http::Method;

use crate::idem::proxy::fault::Fault;
use crate::idem::verdict::Observed;

/// What the proxy saw of one attempt.
#[derive(Debug, Clone)]
pub struct Attempt {
    /// 1-based across the run.
    pub sequence: u64,
    pub operation: usize,
    /// 1-based within its operation.
    pub number: u32,
    pub arrived: Instant,
    pub time: DateTime<Utc>,
    pub method: Method,
    pub path: String,
    pub key: Option<String>,
    pub body_hash: u64,
    pub body_len: usize,
    pub fault: Option<Fault>,
    /// What the upstream answered, when the request was forwarded (`Observed::failed` when it
    /// could not be reached). `None` until known, and for faults that do not forward.
    pub upstream: Option<Observed>,
    /// The status the client was given; `None` when its connection was closed instead.
    pub client_status: Option<u16>,
    /// The wait the client was asked for by a `Retry-After` (seconds or an HTTP-date, read by
    /// crate::retry as a client reads it).
    pub client_retry_after: Option<Duration>,
    /// When the client got its answer or lost its connection; `None` while in flight.
    pub finished: Option<Instant>,
}

impl Attempt {
    /// Whether the client has reason to send this request again: a fault it should retry, no
    /// answer yet from a faulted attempt, or an answer that is not a success.
    fn awaits_retry(&self) -> bool {
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

/// One logical operation: the attempts the client made for one intent.
#[derive(Debug, Clone)]
pub struct Operation {
    pub number: usize,
    pub method: Method,
    pub path: String,
    pub attempts: Vec<Attempt>,
}

/// A new attempt's place: its operation, its number there and its sequence in the run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Placement {
    pub operation: usize,
    pub number: u32,
    pub sequence: u64,
}

/// The request as it arrived, before a fault is chosen.
pub struct Arrival<'a> {
    pub method: &'a Method,
    pub path: &'a str,
    pub key: Option<&'a str>,
    pub body: &'a Bytes,
}

/// Every operation of the run.
#[derive(Debug)]
pub struct Operations {
    window: Duration,
    operations: Vec<Operation>,
    sequence: u64,
}

impl Operations {
    pub fn new(window: Duration) -> Operations {
        Operations { window, operations: Vec::new(), sequence: 0 }
    }

    /// Places a new attempt (fault still unknown) and records it.
    pub fn arrive(&mut self, arrival: Arrival<'_>, now: Instant) -> Placement {
        let body_hash = hash_body(arrival.body);
        let index = self.find_operation(&arrival, body_hash, now).unwrap_or_else(|| {
            self.operations.push(Operation {
                number: self.operations.len() + 1,
                method: arrival.method.clone(),
                path: arrival.path.to_string(),
                attempts: Vec::new(),
            });
            self.operations.len() - 1
        });
        self.sequence += 1;
        let operation = &mut self.operations[index];
        let number = u32::try_from(operation.attempts.len() + 1).unwrap_or(u32::MAX);
        operation.attempts.push(Attempt {
            sequence: self.sequence,
            operation: operation.number,
            number,
            arrived: now,
            time: Utc::now(),
            method: arrival.method.clone(),
            path: arrival.path.to_string(),
            key: arrival.key.map(str::to_string),
            body_hash,
            body_len: arrival.body.len(),
            fault: None,
            upstream: None,
            client_status: None,
            client_retry_after: None,
            finished: None,
        });
        Placement { operation: operation.number, number, sequence: self.sequence }
    }

    fn find_operation(&self, arrival: &Arrival<'_>, body_hash: u64, now: Instant) -> Option<usize> {
        if let Some(key) = arrival.key {
            let by_key =
                self.operations.iter().rposition(|op| op.attempts.iter().any(|a| a.key.as_deref() == Some(key)));
            if by_key.is_some() {
                return by_key;
            }
        }
        self.operations.iter().rposition(|op| {
            let Some(last) = op.attempts.last() else { return false };
            op.method == *arrival.method
                && op.path == arrival.path
                && last.body_hash == body_hash
                && now.saturating_duration_since(last.arrived) <= self.window
                && last.awaits_retry()
        })
    }

    /// The attempt at `placement`, to record what happened to it.
    pub fn attempt_mut(&mut self, placement: Placement) -> Option<&mut Attempt> {
        self.operations.get_mut(placement.operation.checked_sub(1)?)?.attempts.get_mut(placement.number as usize - 1)
    }

    pub fn all(&self) -> &[Operation] {
        &self.operations
    }
}

/// A fingerprint of a body: enough to tell "the same body" from "another body" within one run.
fn hash_body(body: &[u8]) -> u64 {
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    body.hash(&mut hasher);
    hasher.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn arrive(ops: &mut Operations, key: Option<&str>, body: &str, now: Instant) -> Placement {
        let body = Bytes::from(body.to_string());
        ops.arrive(Arrival { method: &Method::POST, path: "/payments", key, body: &body }, now)
    }

    fn finish(ops: &mut Operations, at: Placement, fault: Option<Fault>, status: Option<u16>, now: Instant) {
        let attempt = ops.attempt_mut(at).unwrap();
        attempt.fault = fault;
        attempt.client_status = status;
        attempt.finished = Some(now);
    }

    #[test]
    fn the_same_key_is_the_same_operation() {
        let mut ops = Operations::new(Duration::from_secs(120));
        let now = Instant::now();
        let first = arrive(&mut ops, Some("k1"), "a", now);
        finish(&mut ops, first, None, Some(201), now);
        // Even a success does not split a key: a second send with it is a duplicate.
        let second = arrive(&mut ops, Some("k1"), "a", now);
        assert_eq!((second.operation, second.number), (1, 2));
    }

    #[test]
    fn a_new_key_after_a_lost_answer_continues_the_operation() {
        let mut ops = Operations::new(Duration::from_secs(120));
        let now = Instant::now();
        let first = arrive(&mut ops, Some("k1"), "a", now);
        finish(&mut ops, first, Some(Fault::LoseAnswer), None, now);
        let retry = arrive(&mut ops, Some("k2"), "a", now + Duration::from_millis(300));
        assert_eq!((retry.operation, retry.number), (1, 2));
        let other_body = arrive(&mut ops, Some("k3"), "b", now);
        assert_eq!(other_body.operation, 2);
    }

    #[test]
    fn a_new_key_after_a_success_is_a_new_intent() {
        let mut ops = Operations::new(Duration::from_secs(120));
        let now = Instant::now();
        let first = arrive(&mut ops, None, "a", now);
        finish(&mut ops, first, None, Some(201), now);
        assert_eq!(arrive(&mut ops, None, "a", now).operation, 2);
    }

    #[test]
    fn the_window_bounds_how_late_a_retry_may_come() {
        let mut ops = Operations::new(Duration::from_secs(1));
        let now = Instant::now();
        let first = arrive(&mut ops, None, "a", now);
        finish(&mut ops, first, Some(Fault::Reset), None, now);
        assert_eq!(arrive(&mut ops, None, "a", now + Duration::from_secs(5)).operation, 2);
    }
}
