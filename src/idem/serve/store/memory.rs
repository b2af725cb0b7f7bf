//! `--store memory`: the key table and the ledger in this process. One critical section per
//! claim makes it correct on one instance; nothing is shared, so two instances are two APIs.
use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use serde_json::Value;

use super::{Claim, Completion, Fingerprint, Lookup, ScopedKey, Store, StoreFuture, StoredResponse};
use crate::idem::serve::payments::{Ledger, Payment};
use crate::sync::lock;

#[derive(Debug)]
enum Entry {
    InFlight { fingerprint: Fingerprint, owner: String, lease_until: Instant },
    Completed { fingerprint: Fingerprint, response: StoredResponse, expires_at: Instant },
}

impl Entry {
    fn is_stale(&self, now: Instant) -> bool {
        match self {
            Entry::InFlight { lease_until, .. } => *lease_until <= now,
            Entry::Completed { expires_at, .. } => *expires_at <= now,
        }
    }
}

/// The key table alone: also the in-process half of `--mode local-lock`.
pub(super) struct MemoryKeys {
    entries: Mutex<HashMap<ScopedKey, Entry>>,
    /// The table size at which stale entries are swept next, guarded by the `entries` lock.
    next_sweep: std::sync::atomic::AtomicUsize,
    ttl: Duration,
}

/// How many entries may accumulate before stale ones are first swept.
const SWEEP_THRESHOLD: usize = 4096;

impl MemoryKeys {
    pub(super) fn new(ttl: Duration) -> MemoryKeys {
        MemoryKeys { entries: Mutex::new(HashMap::new()), next_sweep: SWEEP_THRESHOLD.into(), ttl }
    }

    fn entries(&self) -> std::sync::MutexGuard<'_, HashMap<ScopedKey, Entry>> {
        // A panic elsewhere cannot leave the map half-updated (every update is one insert or
        // remove), so a poisoned lock is still safe to use.
        lock(&self.entries)
    }

    /// Look and claim in one critical section.
    pub(super) fn claim(&self, key: &ScopedKey, fingerprint: Fingerprint, claim: &Claim) -> Lookup {
        let mut entries = self.entries();
        let found = Self::inspect(&mut entries, key, fingerprint);
        if found == Lookup::Fresh {
            // A sweep scans the whole table, so the next one waits until the table has doubled:
            // amortised O(1) per claim, where sweeping at every claim past the threshold made
            // each claim O(table) while keys were still fresh.
            let next_sweep = self.next_sweep.load(std::sync::atomic::Ordering::Relaxed);
            if entries.len() >= next_sweep {
                let now = Instant::now();
                entries.retain(|_, entry| !entry.is_stale(now));
                let next = (entries.len() * 2).max(SWEEP_THRESHOLD);
                self.next_sweep.store(next, std::sync::atomic::Ordering::Relaxed);
            }
            let lease_until = Instant::now() + claim.lease;
            entries.insert(key.clone(), Entry::InFlight { fingerprint, owner: claim.owner.clone(), lease_until });
        }
        found
    }

    pub(super) fn lookup(&self, key: &ScopedKey, fingerprint: Fingerprint) -> Lookup {
        Self::inspect(&mut self.entries(), key, fingerprint)
    }

    fn inspect(entries: &mut HashMap<ScopedKey, Entry>, key: &ScopedKey, fingerprint: Fingerprint) -> Lookup {
        if entries.get(key).is_some_and(|entry| entry.is_stale(Instant::now())) {
            entries.remove(key);
        }
        match entries.get(key) {
            None => Lookup::Fresh,
            Some(Entry::InFlight { fingerprint: stored, .. }) | Some(Entry::Completed { fingerprint: stored, .. })
                if *stored != fingerprint =>
            {
                Lookup::Mismatch
            }
            Some(Entry::InFlight { .. }) => Lookup::InFlight,
            Some(Entry::Completed { response, .. }) => Lookup::Replay(response.clone()),
        }
    }

    fn is_owner(entries: &HashMap<ScopedKey, Entry>, key: &ScopedKey, claim: &Claim) -> bool {
        matches!(entries.get(key), Some(Entry::InFlight { owner, .. }) if *owner == claim.owner)
    }

    pub(super) fn renew(&self, key: &ScopedKey, claim: &Claim) -> bool {
        let mut entries = self.entries();
        match entries.get_mut(key) {
            Some(Entry::InFlight { owner, lease_until, .. }) if *owner == claim.owner => {
                *lease_until = Instant::now() + claim.lease;
                true
            }
            _ => false,
        }
    }

    pub(super) fn release(&self, key: &ScopedKey, claim: &Claim) {
        let mut entries = self.entries();
        if Self::is_owner(&entries, key, claim) {
            entries.remove(key);
        }
    }

    /// Stores the answer for replay until the TTL runs out, unless another owner took the key
    /// over meanwhile (its own answer will be stored instead).
    pub(super) fn complete(&self, completion: Completion<'_>) {
        let mut entries = self.entries();
        let taken_over = match (completion.claim, entries.get(completion.key)) {
            (Some(claim), Some(Entry::InFlight { owner, .. })) => *owner != claim.owner,
            _ => false,
        };
        if !taken_over {
            let expires_at = Instant::now() + self.ttl;
            let entry = Entry::Completed {
                fingerprint: completion.fingerprint,
                response: completion.response.clone(),
                expires_at,
            };
            entries.insert(completion.key.clone(), entry);
        }
    }
}

/// `--store memory`.
pub(super) struct MemoryStore {
    keys: MemoryKeys,
    ledger: Ledger,
}

impl MemoryStore {
    pub(super) fn new(ttl: Duration) -> MemoryStore {
        MemoryStore { keys: MemoryKeys::new(ttl), ledger: Ledger::default() }
    }
}

impl Store for MemoryStore {
    fn claim<'a>(&'a self, key: &'a ScopedKey, fingerprint: Fingerprint, claim: &'a Claim) -> StoreFuture<'a, Lookup> {
        Box::pin(std::future::ready(Ok(self.keys.claim(key, fingerprint, claim))))
    }

    fn lookup<'a>(&'a self, key: &'a ScopedKey, fingerprint: Fingerprint) -> StoreFuture<'a, Lookup> {
        Box::pin(std::future::ready(Ok(self.keys.lookup(key, fingerprint))))
    }

    fn renew<'a>(&'a self, key: &'a ScopedKey, claim: &'a Claim) -> StoreFuture<'a, bool> {
        Box::pin(std::future::ready(Ok(self.keys.renew(key, claim))))
    }

    fn release<'a>(&'a self, key: &'a ScopedKey, claim: &'a Claim) -> StoreFuture<'a, ()> {
        self.keys.release(key, claim);
        Box::pin(std::future::ready(Ok(())))
    }

    fn commit<'a>(&'a self, payment: &'a Payment, completion: Option<Completion<'a>>) -> StoreFuture<'a, ()> {
        self.ledger.record(payment.clone());
        if let Some(completion) = completion {
            self.keys.complete(completion);
        }
        Box::pin(std::future::ready(Ok(())))
    }

    fn payment<'a>(&'a self, id: &'a str) -> StoreFuture<'a, Option<Value>> {
        let found = self.ledger.get(id).map(|payment| serde_json::to_value(payment).unwrap_or_default());
        Box::pin(std::future::ready(Ok(found)))
    }

    fn payments(&self) -> StoreFuture<'_, Vec<Value>> {
        let all = self.ledger.list().iter().map(|payment| serde_json::to_value(payment).unwrap_or_default()).collect();
        Box::pin(std::future::ready(Ok(all)))
    }
}

#[cfg(test)]
mod tests {
    use super::super::fingerprint;
    use super::*;
    use bytes::Bytes;

    fn key(k: &str) -> ScopedKey {
        ScopedKey { method: "POST".into(), path: "/payments".into(), key: k.into() }
    }

    fn claim(owner: &str, lease: Duration) -> Claim {
        Claim { owner: owner.into(), lease }
    }

    fn response() -> StoredResponse {
        StoredResponse {
            status: 201,
            content_type: "application/json".into(),
            location: None,
            body: Bytes::from_static(b"{}"),
        }
    }

    fn complete(keys: &MemoryKeys, k: &str, print: Fingerprint, by: Option<&Claim>) {
        let scoped = key(k);
        let response = response();
        keys.complete(Completion { key: &scoped, fingerprint: print, response: &response, claim: by });
    }

    #[test]
    fn claim_is_exclusive_until_completed() {
        let keys = MemoryKeys::new(Duration::from_secs(60));
        let print = fingerprint("POST", "/payments", b"{}");
        let mine = claim("a-1", Duration::from_secs(30));
        assert_eq!(keys.claim(&key("a"), print, &mine), Lookup::Fresh);
        assert_eq!(keys.claim(&key("a"), print, &claim("a-2", Duration::from_secs(30))), Lookup::InFlight);
        assert_eq!(keys.claim(&key("a"), fingerprint("POST", "/payments", b"{1}"), &mine), Lookup::Mismatch);
        complete(&keys, "a", print, Some(&mine));
        assert_eq!(keys.claim(&key("a"), print, &mine), Lookup::Replay(response()));
    }

    #[test]
    fn released_and_expired_keys_are_fresh_again() {
        let keys = MemoryKeys::new(Duration::ZERO);
        let print = fingerprint("POST", "/payments", b"");
        let mine = claim("a-1", Duration::from_secs(30));
        assert_eq!(keys.claim(&key("a"), print, &mine), Lookup::Fresh);
        keys.release(&key("a"), &claim("stranger", Duration::from_secs(30)));
        assert_eq!(keys.lookup(&key("a"), print), Lookup::InFlight, "only the owner releases");
        keys.release(&key("a"), &mine);
        assert_eq!(keys.claim(&key("a"), print, &mine), Lookup::Fresh);
        complete(&keys, "a", print, Some(&mine));
        assert_eq!(keys.claim(&key("a"), print, &mine), Lookup::Fresh);
    }

    #[test]
    fn a_lapsed_lease_is_taken_over_and_the_old_owner_cannot_renew_or_overwrite() {
        let keys = MemoryKeys::new(Duration::from_secs(60));
        let print = fingerprint("POST", "/payments", b"");
        let crashed = claim("a-1", Duration::ZERO);
        assert_eq!(keys.claim(&key("a"), print, &crashed), Lookup::Fresh);
        let taker = claim("b-1", Duration::from_secs(30));
        assert_eq!(keys.claim(&key("a"), print, &taker), Lookup::Fresh);
        assert!(!keys.renew(&key("a"), &crashed));
        assert!(keys.renew(&key("a"), &taker));
        complete(&keys, "a", print, Some(&crashed));
        assert_eq!(keys.lookup(&key("a"), print), Lookup::InFlight, "the late owner's answer is not stored");
        complete(&keys, "a", print, Some(&taker));
        assert_eq!(keys.lookup(&key("a"), print), Lookup::Replay(response()));
    }

    #[test]
    fn stale_entries_are_swept_once_the_table_outgrows_the_threshold() {
        let keys = MemoryKeys::new(Duration::ZERO);
        let print = fingerprint("POST", "/payments", b"");
        let lapsing = claim("a-1", Duration::ZERO);
        for n in 0..SWEEP_THRESHOLD + 1 {
            keys.claim(&key(&n.to_string()), print, &lapsing);
        }
        assert!(keys.entries().len() < SWEEP_THRESHOLD, "lapsed claims were swept");
    }

    #[test]
    fn lookup_never_claims() {
        let keys = MemoryKeys::new(Duration::from_secs(60));
        let print = fingerprint("POST", "/payments", b"");
        assert_eq!(keys.lookup(&key("a"), print), Lookup::Fresh);
        assert_eq!(keys.lookup(&key("a"), print), Lookup::Fresh);
    }
}
