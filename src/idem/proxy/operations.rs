//! Grouping attempts into logical operations, as the client meant them: attempts with the same key
//! belong together; an attempt without a key, or with a key not seen before, continues the latest
//! operation with the same method, path and body if that operation is waiting for a retry (its
//! last attempt was faulted or not answered 2xx) and was last tried within the window. Otherwise
//! it starts a new operation, so two deliberate payments with the same body are not mistaken for
//! a retry.
//!
//! A proxy in front of a load test sees millions of operations, so each request costs the same
//! however many came before: the open operations are indexed by key and by fingerprint (method,
//! path, body), and an operation idle for longer than the window (nothing arrived or finished)
//! can no longer be continued, so it is judged, folded into the run's tally and dropped.
use std::collections::VecDeque;
use std::collections::hash_map::Entry;
use std::sync::Arc;
use std::time::{Duration, Instant};

use bytes::Bytes;
use http::Method;
use smallvec::SmallVec;

use crate::idem::proxy::by_number::ByNumber;
use crate::idem::proxy::fault::Fault;
use crate::idem::proxy::judge::{self, Tally};
use crate::idem::proxy::records::{Attempt, Clock, Key, Operation, Route, Stamp, fingerprint};

/// An attempt still in flight keeps its operation open for this long past the window (a held
/// answer, a slow upstream); one whose handler never finished (the client went away mid-request)
/// is folded after that, so it cannot hold memory for ever.
const IN_FLIGHT_GRACE: Duration = Duration::from_secs(600);

/// The tables' maps: keyed by numbers and by hashes already made, so foldhash rather than
/// SipHash, which was a visible part of every judged request's time.
type HashMap<K, V> = std::collections::HashMap<K, V, foldhash::fast::RandomState>;

/// How many distinct routes are shared before the unused ones are let go.
const ROUTES_KEPT: usize = 1024;

/// A new attempt's place: its operation and its number there.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Placement {
    pub operation: usize,
    pub number: u32,
    /// The attempt reused its operation's key with another body: the finding will quote the
    /// upstream's answer, so its body's start is kept.
    pub quote_body: bool,
}

/// The request as it arrived, before a fault is chosen.
pub(crate) struct Arrival<'a> {
    pub method: &'a Method,
    pub path: &'a str,
    pub key: Option<&'a str>,
    pub body: &'a Bytes,
}

/// The operations of the run: the open ones in full, the folded ones as a tally.
#[derive(Debug)]
pub(crate) struct Operations {
    window: Duration,
    /// `--window-ops`: at most this many operations open; past it the oldest is folded.
    max_open: Option<usize>,
    /// The run's start, which attempts' times count from.
    clock: Clock,
    /// The response field that holds the resource id, for judging folded operations.
    id_field: String,
    /// The open operations, by number. Boxed: the ring holds a window's worth of them and
    /// doubles as that grows, and a doubling of 8-byte slots costs a few MB where inline
    /// operations cost tens (`cargo bench --bench proxy`'s RSS growth).
    open: ByNumber<Box<Operation>>,
    /// Each key of an open operation (its hash), to the operation.
    by_key: HashMap<u64, usize>,
    /// Open operations that may be continued without their key, by `Operation::fingerprint`:
    /// each is listed under its current fingerprint until its last attempt is answered in a way
    /// that ends it (2xx) or it is folded. Several only when requests with the same body overlap.
    by_fingerprint: HashMap<u64, Listed>,
    /// (time, operation) in the order queued: the next operations that may have gone idle.
    expiry: VecDeque<(Stamp, usize)>,
    /// The routes attempts share, by a hash of method and path.
    routes: HashMap<u64, Arc<Route>>,
    /// Operations started so far (the last number given).
    started: usize,
    /// The operations folded so far, judged.
    folded: Tally,
}

impl Operations {
    pub(crate) fn new(window: Duration) -> Operations {
        Operations {
            window,
            max_open: None,
            clock: Clock::starting_now(),
            id_field: crate::idem::request::DEFAULT_ID_FIELD.to_string(),
            open: ByNumber::default(),
            by_key: HashMap::default(),
            by_fingerprint: HashMap::default(),
            expiry: VecDeque::new(),
            routes: HashMap::default(),
            started: 0,
            folded: Tally::default(),
        }
    }

    /// Judges folded operations reading resource ids at `id_field` (the default is `/id`).
    pub(crate) fn with_id_field(mut self, id_field: &str) -> Operations {
        self.id_field = id_field.to_string();
        self
    }

    /// Holds at most `max_open` operations open (`--window-ops`): past it, the oldest is folded
    /// whether or not it went idle.
    pub(crate) fn with_max_open(mut self, max_open: Option<usize>) -> Operations {
        self.max_open = max_open;
        self
    }

    /// The run's clock, which attempts' stamps count from.
    pub(crate) fn clock(&self) -> &Clock {
        &self.clock
    }

    /// Places a new attempt (fault still unknown) and records it. Folds the operations that went
    /// idle first; the work is the same however many operations came before.
    pub(crate) fn arrive(&mut self, arrival: Arrival<'_>, now: Instant) -> Placement {
        let now = self.clock.stamp(now);
        self.fold_idle(now);
        let body_hash = hash_body(arrival.body);
        let route = self.route(arrival.method, arrival.path);
        let key = arrival.key.map(Key::of);
        let number = match self.find_operation(&arrival, key.as_ref(), &route, body_hash, now) {
            Some(number) => number,
            None => {
                self.started += 1;
                let number = self.started;
                // The route moves in: its count is shared by every worker thread, and each change
                // to it is a cache line passed between them.
                self.open.insert(number, Box::new(Operation { number, route, attempts: SmallVec::new(), queued: now }));
                number
            }
        };
        let Some(operation) = self.open.get_mut(number) else {
            // Cannot happen: the number was just found or inserted.
            return Placement { operation: number, number: 1, quote_body: false };
        };
        let previous_fingerprint = operation.attempts.last().map(|_| operation.fingerprint());
        let attempt_number = u32::try_from(operation.attempts.len() + 1).unwrap_or(u32::MAX);
        // The judge's BodyChanged: the first attempt's key, another body.
        let quote_body = operation
            .attempts
            .first()
            .is_some_and(|first| key.is_some() && first.key == key && first.body_hash != body_hash);
        operation.attempts.push(Attempt::new(key, arrival.body, body_hash, attempt_number, now));
        operation.queued = now;
        if let Some(key) = key {
            self.by_key.entry(key.hash()).or_insert(number);
        }
        if let Some(previous) = previous_fingerprint {
            unlist(&mut self.by_fingerprint, previous, number);
        }
        // Listed under its fingerprint only once it awaits a retry (a fault that calls for one,
        // `fault_decided`, or an answer that is not a success, `finished`): until then no request
        // can continue it without its key, and under load the list of requests in flight with
        // one body was walked by every arrival.
        self.expiry.push_back((now, number));
        self.fold_oldest_past_the_limit();
        Placement { operation: number, number: attempt_number, quote_body }
    }

    /// Called once an attempt's outcome is recorded: an operation its answer ended (a 2xx, not
    /// faulted) can no longer be continued without its key, so it leaves the fingerprint index
    /// now rather than when the next request with its body looks (under load, most never come).
    ///
    /// Its idle time counts from this finish: it is queued again now, behind everything that
    /// arrived before, so the expiry queue stays in time order. (Queued only at its arrival, an
    /// operation answered a millisecond later was found not yet idle when its entry came up, put
    /// back at the end of the queue with its old time and folded a second window later: the
    /// proxy held twice the operations `--window` promises.)
    pub(crate) fn finished(&mut self, placement: Placement) {
        let Some(operation) = self.open.get_mut(placement.operation) else { return };
        let Some(last) = operation.attempts.last() else { return };
        let Some(finished) = last.finished else { return };
        if last.number != placement.number {
            // An earlier attempt, finished after a later one arrived: the later one keeps it.
            return;
        }
        let awaits_retry = last.awaits_retry();
        if finished > operation.queued {
            operation.queued = finished;
            self.expiry.push_back((finished, placement.operation));
        }
        let fingerprint = operation.fingerprint();
        if awaits_retry {
            list(&mut self.by_fingerprint, fingerprint, placement.operation);
        } else {
            unlist(&mut self.by_fingerprint, fingerprint, placement.operation);
        }
    }

    /// Records the fault decided for a new attempt; one that calls for a retry (or a delay, which
    /// the client may give up on) makes the operation one a request without its key may continue.
    pub(crate) fn fault_decided(&mut self, placement: Placement, fault: Option<Fault>) {
        let Some(operation) = self.open.get_mut(placement.operation) else { return };
        let Some(index) = (placement.number as usize).checked_sub(1) else { return };
        let Some(attempt) = operation.attempts.get_mut(index) else { return };
        attempt.fault = fault;
        if attempt.awaits_retry() {
            let fingerprint = operation.fingerprint();
            list(&mut self.by_fingerprint, fingerprint, placement.operation);
        }
    }

    /// `--window-ops`: folds the oldest operations (by their last activity) past the limit.
    fn fold_oldest_past_the_limit(&mut self) {
        let Some(limit) = self.max_open else { return };
        while self.open.len() > limit {
            let Some((queued, number)) = self.expiry.pop_front() else { return };
            if self.open.get(number).is_some_and(|op| op.queued == queued) {
                self.fold(number);
            }
        }
    }

    /// The shared copy of this method and path.
    fn route(&mut self, method: &Method, path: &str) -> Arc<Route> {
        let hash = crate::run_hash::hash_of(&(method.as_str(), path));
        if let Some(route) = self.routes.get(&hash)
            && route.method == *method
            && *route.path == *path
        {
            return Arc::clone(route);
        }
        if self.routes.len() >= ROUTES_KEPT {
            // Many distinct paths (ids in them): keep only the routes open attempts still hold.
            self.routes.retain(|_, route| Arc::strong_count(route) > 1);
        }
        let route = Arc::new(Route { method: method.clone(), path: path.into(), hash });
        self.routes.insert(hash, Arc::clone(&route));
        route
    }

    fn find_operation(
        &mut self,
        arrival: &Arrival<'_>,
        key: Option<&Key>,
        route: &Route,
        body_hash: u64,
        now: Stamp,
    ) -> Option<usize> {
        if let Some(&number) = key.and_then(|key| self.by_key.get(&key.hash())) {
            return Some(number);
        }
        let fingerprint = fingerprint(route, body_hash);
        let candidates = self.by_fingerprint.get_mut(&fingerprint)?;
        let (open, window) = (&self.open, self.window);
        let mut latest = None;
        let any_left = candidates.retain(|number| {
            let Some(op) = open.get(number) else { return false };
            let Some(last) = op.attempts.last() else { return false };
            if op.route.method != *arrival.method || *op.route.path != *arrival.path || last.body_hash != body_hash {
                // Another request whose fingerprint collides: it stays listed, it does not match.
                return true;
            }
            // Answered in a way that ends it: only an attempt with its key can join it now.
            if last.finished.is_some() && !last.awaits_retry() {
                return false;
            }
            if now.saturating_duration_since(last.arrived) <= window && last.awaits_retry() {
                latest = latest.max(Some(number));
            }
            true
        });
        if !any_left {
            self.by_fingerprint.remove(&fingerprint);
        }
        latest
    }

    /// Judges and drops the operations idle for longer than the window: no attempt can join them
    /// any more (a key that comes back later starts a new operation).
    fn fold_idle(&mut self, now: Stamp) {
        while let Some(&(queued, number)) = self.expiry.front() {
            if now.saturating_duration_since(queued) <= self.window {
                break;
            }
            self.expiry.pop_front();
            let Some(op) = self.open.get_mut(number) else { continue };
            if op.queued != queued {
                // A later entry stands for it.
                continue;
            }
            let idle_since = match op.last_activity() {
                Some(last) => last,
                None => {
                    let arrived = op.attempts.last().map_or(queued, |a| a.arrived);
                    if now.saturating_duration_since(arrived) > self.window + IN_FLIGHT_GRACE { arrived } else { now }
                }
            };
            if now.saturating_duration_since(idle_since) > self.window {
                self.fold(number);
            } else {
                op.queued = idle_since;
                self.expiry.push_back((idle_since, number));
            }
        }
    }

    fn fold(&mut self, number: usize) {
        let Some(op) = self.open.remove(number) else { return };
        for key in op.attempts.iter().filter_map(|a| a.key) {
            if self.by_key.get(&key.hash()) == Some(&number) {
                self.by_key.remove(&key.hash());
            }
        }
        unlist(&mut self.by_fingerprint, op.fingerprint(), number);
        if !self.folded.add_without_judging(&op) {
            self.folded.add(judge::judge_operation(&op, &self.id_field));
        }
    }

    /// The method and path of an open operation, shared.
    pub(crate) fn route_of(&self, operation: usize) -> Option<Arc<Route>> {
        self.open.get(operation).map(|op| Arc::clone(&op.route))
    }

    /// The attempt at `placement`, to record what happened to it; `None` once its operation was
    /// folded.
    pub(crate) fn attempt_mut(&mut self, placement: Placement) -> Option<&mut Attempt> {
        self.open.get_mut(placement.operation)?.attempts.get_mut((placement.number as usize).checked_sub(1)?)
    }

    /// The open operations (not yet folded), in order.
    pub(crate) fn open(&self) -> Vec<&Operation> {
        let mut open: Vec<&Operation> = self.open.values().map(Box::as_ref).collect();
        open.sort_unstable_by_key(|op| op.number);
        open
    }

    /// How many operations are open: held in memory, not yet folded.
    pub(crate) fn open_count(&self) -> usize {
        self.open.len()
    }

    /// How many operations have begun, folded or not.
    pub(crate) fn started(&self) -> usize {
        self.started
    }

    /// The operations folded so far, judged.
    pub(crate) fn folded(&self) -> &Tally {
        &self.folded
    }
}

/// The operations listed under one fingerprint: almost always one, so held without a list.
#[derive(Debug)]
enum Listed {
    One(usize),
    Many(Vec<usize>),
}

impl Listed {
    fn push(&mut self, number: usize) {
        match self {
            Listed::One(first) => *self = Listed::Many(vec![*first, number]),
            Listed::Many(numbers) => numbers.push(number),
        }
    }

    fn contains(&self, number: usize) -> bool {
        match self {
            Listed::One(only) => *only == number,
            Listed::Many(numbers) => numbers.contains(&number),
        }
    }

    /// Keeps the operations `keep` says to, in order; whether any are left.
    fn retain(&mut self, mut keep: impl FnMut(usize) -> bool) -> bool {
        match self {
            Listed::One(number) => keep(*number),
            Listed::Many(numbers) => {
                numbers.retain(|&number| keep(number));
                match numbers[..] {
                    [] => false,
                    [only] => {
                        *self = Listed::One(only);
                        true
                    }
                    _ => true,
                }
            }
        }
    }

    #[cfg(test)]
    fn len(&self) -> usize {
        match self {
            Listed::One(_) => 1,
            Listed::Many(numbers) => numbers.len(),
        }
    }
}

/// Lists `number` under `fingerprint`, once.
fn list(by_fingerprint: &mut HashMap<u64, Listed>, fingerprint: u64, number: usize) {
    match by_fingerprint.entry(fingerprint) {
        Entry::Occupied(mut listed) => {
            if !listed.get().contains(number) {
                listed.get_mut().push(number);
            }
        }
        Entry::Vacant(vacant) => {
            vacant.insert(Listed::One(number));
        }
    }
}

/// Removes `number` from the operations listed under `fingerprint`.
fn unlist(by_fingerprint: &mut HashMap<u64, Listed>, fingerprint: u64, number: usize) {
    if let Some(listed) = by_fingerprint.get_mut(&fingerprint)
        && !listed.retain(|n| n != number)
    {
        by_fingerprint.remove(&fingerprint);
    }
}

/// A fingerprint of a body: enough to tell "the same body" from "another body" within one run.
fn hash_body(body: &[u8]) -> u64 {
    crate::run_hash::hash_of(body)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn arrive(ops: &mut Operations, key: Option<&str>, body: &str, now: Instant) -> Placement {
        let body = Bytes::from(body.to_string());
        ops.arrive(Arrival { method: &Method::POST, path: "/payments", key, body: &body }, now)
    }

    fn finish(ops: &mut Operations, at: Placement, fault: Option<Fault>, status: Option<u16>, now: Instant) {
        let now = ops.clock().stamp(now);
        let attempt = ops.attempt_mut(at).unwrap();
        attempt.fault = fault;
        attempt.client_status = status;
        attempt.finished = Some(now);
        ops.finished(at);
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

    #[test]
    fn an_operation_is_folded_a_window_after_its_answer_not_two() {
        let mut ops = Operations::new(Duration::from_secs(5));
        let start = Instant::now();
        // Each answered 3 ms after it arrived, while the next ones arrive, in time order as the
        // proxy records them.
        let mut in_flight = VecDeque::new();
        for n in 0..10_000u64 {
            let now = start + Duration::from_millis(n);
            while let Some(&(due, at)) = in_flight.front()
                && due <= now
            {
                finish(&mut ops, at, None, Some(201), due);
                in_flight.pop_front();
            }
            let at = arrive(&mut ops, Some(&format!("key-{n}")), &format!("body {n}"), now);
            in_flight.push_back((now + Duration::from_millis(3), at));
        }
        // 10 s of traffic, one request a millisecond, a 5 s window counted from each answer:
        // about 5,000 held (the last 5 s, the 3 ms in flight and the one just arrived). Folded a
        // second window late, all 10,000 would be.
        assert!(ops.open_count() <= 5_005, "{} open", ops.open_count());
        assert!(ops.expiry.len() <= 2 * 5_005, "{} queued", ops.expiry.len());
    }

    #[test]
    fn idle_operations_are_judged_folded_and_dropped() {
        let mut ops = Operations::new(Duration::from_secs(5));
        let start = Instant::now();
        for n in 0..10_000u64 {
            let now = start + Duration::from_millis(n);
            let at = arrive(&mut ops, Some(&format!("key-{n}")), &format!("body {n}"), now);
            finish(&mut ops, at, None, Some(201), now);
        }
        // 10 s of traffic with a 5 s window: about the last 5 s are open, the rest folded.
        let later = start + Duration::from_millis(10_000);
        assert!(ops.open_count() <= 5_001, "{} open", ops.open_count());
        assert_eq!(ops.open_count() + ops.folded().totals.operations as usize, 10_000);
        assert_eq!(ops.started(), 10_000);
        // The indexes hold only the open operations.
        assert_eq!(ops.by_key.len(), ops.open_count());
        assert!(ops.by_fingerprint.values().map(Listed::len).sum::<usize>() <= ops.open_count());
        // Once everything went idle, one more arrival folds it all.
        arrive(&mut ops, None, "last", later + Duration::from_secs(6));
        assert_eq!((ops.open_count(), ops.folded().totals.operations), (1, 10_000));
        assert_eq!(ops.folded().totals.not_faulted, 10_000);
        assert_eq!(ops.expiry.len(), 1);
    }

    #[test]
    fn a_key_that_comes_back_after_the_window_starts_a_new_operation() {
        let mut ops = Operations::new(Duration::from_secs(1));
        let now = Instant::now();
        let first = arrive(&mut ops, Some("k1"), "a", now);
        finish(&mut ops, first, None, Some(201), now);
        let again = arrive(&mut ops, Some("k1"), "a", now + Duration::from_secs(3));
        assert_eq!((again.operation, again.number), (2, 1));
        assert_eq!(ops.folded().totals.operations, 1);
    }

    #[test]
    fn an_attempt_in_flight_keeps_its_operation_open() {
        let mut ops = Operations::new(Duration::from_secs(1));
        let now = Instant::now();
        let held = arrive(&mut ops, Some("k1"), "a", now);
        arrive(&mut ops, Some("k2"), "b", now + Duration::from_secs(3));
        assert_eq!(ops.open_count(), 2, "an unanswered attempt is not folded");
        finish(&mut ops, held, Some(Fault::Delay(Duration::from_secs(3))), Some(201), now + Duration::from_secs(4));
        // Folded once idle a window after it finished, not before.
        arrive(&mut ops, Some("k3"), "c", now + Duration::from_millis(4_500));
        assert!(ops.attempt_mut(held).is_some());
        arrive(&mut ops, Some("k4"), "d", now + Duration::from_secs(6));
        assert!(ops.attempt_mut(held).is_none());
        assert_eq!((ops.folded().totals.operations, ops.open_count()), (1, 3), "the others are still in flight");
    }

    #[test]
    fn overlapping_requests_with_one_body_continue_the_latest_waiting_operation() {
        let mut ops = Operations::new(Duration::from_secs(120));
        let now = Instant::now();
        // Many in flight with the same body and no key: none waits for a retry yet.
        let in_flight: Vec<Placement> = (0..50).map(|_| arrive(&mut ops, None, "same", now)).collect();
        assert_eq!(in_flight.last().map(|p| p.operation), Some(50));
        finish(&mut ops, in_flight[9], Some(Fault::LoseAnswer), None, now);
        finish(&mut ops, in_flight[19], Some(Fault::Reset), None, now);
        for &done in &in_flight[30..] {
            finish(&mut ops, done, None, Some(201), now);
        }
        let retry = arrive(&mut ops, None, "same", now + Duration::from_millis(300));
        assert_eq!((retry.operation, retry.number), (20, 2));
        let retry = arrive(&mut ops, None, "same", now + Duration::from_millis(300));
        assert_eq!((retry.operation, retry.number), (10, 2));
        // Only an operation awaiting a retry is listed: the two took theirs (in flight again), the
        // answered ones left and the ones in flight were never listed, so no arrival walks them.
        assert_eq!(ops.by_fingerprint.values().map(Listed::len).sum::<usize>(), 0);
    }

    #[test]
    fn window_ops_folds_the_oldest_operations_past_the_count() {
        let mut ops = Operations::new(Duration::from_secs(120)).with_max_open(Some(100));
        let now = Instant::now();
        let first = arrive(&mut ops, Some("key-0"), "body 0", now);
        for n in 1..1_000u64 {
            let at = arrive(&mut ops, Some(&format!("key-{n}")), &format!("body {n}"), now + Duration::from_millis(n));
            finish(&mut ops, at, None, Some(201), now + Duration::from_millis(n));
        }
        assert_eq!((ops.open_count(), ops.folded().totals.operations, ops.started()), (100, 900, 1_000));
        assert!(ops.attempt_mut(first).is_none(), "the oldest went first, in flight or not");
        assert_eq!(ops.open().first().map(|op| op.number), Some(901));
        assert_eq!(ops.by_key.len(), 100);
        // The key of a folded operation starts a new one; a key still open joins its operation.
        assert_eq!(arrive(&mut ops, Some("key-5"), "body 5", now + Duration::from_secs(2)).operation, 1_001);
        let again = arrive(&mut ops, Some("key-999"), "body 999", now + Duration::from_secs(2));
        assert_eq!((again.operation, again.number), (1_000, 2));
    }

    #[test]
    fn an_answered_operation_leaves_the_fingerprint_index_at_once() {
        let mut ops = Operations::new(Duration::from_secs(120));
        let now = Instant::now();
        for n in 0..1_000u64 {
            let at = arrive(&mut ops, Some(&format!("key-{n}")), &format!("body {n}"), now);
            finish(&mut ops, at, None, Some(201), now);
        }
        let lost = arrive(&mut ops, Some("lost"), "body lost", now);
        finish(&mut ops, lost, Some(Fault::LoseAnswer), None, now);
        assert_eq!(ops.by_fingerprint.len(), 1, "only the operation waiting for a retry");
    }
}
