//! The idempotency store: which keys were claimed, by which request, and the response to replay.
//!
//! `claim` is the correct design: one critical section that either inserts the key as in flight or
//! reports what is already there. `lookup` followed later by `complete` is the naive design kept on
//! purpose for `--mode naive`: duplicates that arrive between the two both execute.
use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use bytes::Bytes;

/// A key is scoped to the method and path it was first used on.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct ScopedKey {
    pub method: String,
    pub path: String,
    pub key: String,
}

/// SHA-256 over method, path and body: "the same request".
pub type Fingerprint = [u8; 32];

pub fn fingerprint(method: &str, path: &str, body: &[u8]) -> Fingerprint {
    let mut context = ring::digest::Context::new(&ring::digest::SHA256);
    for part in [method.as_bytes(), b"\0", path.as_bytes(), b"\0", body] {
        context.update(part);
    }
    let mut out = [0u8; 32];
    out.copy_from_slice(context.finish().as_ref());
    out
}

/// A response kept for replay, byte for byte.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoredResponse {
    pub status: u16,
    pub content_type: &'static str,
    pub location: Option<String>,
    pub body: Bytes,
}

#[derive(Debug)]
enum Entry {
    InFlight { fingerprint: Fingerprint },
    Completed { fingerprint: Fingerprint, response: StoredResponse, expires_at: Instant },
}

/// What the store says about an incoming request's key.
#[derive(Debug, PartialEq, Eq)]
pub enum Lookup {
    /// The key is new (or expired): this request may execute.
    Fresh,
    /// The original request with this key is still executing.
    InFlight,
    /// The key was used for a different request (method, path or body differ).
    Mismatch,
    /// The original completed: answer with its response.
    Replay(StoredResponse),
}

pub struct KeyStore {
    entries: Mutex<HashMap<ScopedKey, Entry>>,
    ttl: Duration,
}

/// How many entries may accumulate before expired ones are swept.
const SWEEP_THRESHOLD: usize = 4096;

impl KeyStore {
    pub fn new(ttl: Duration) -> KeyStore {
        KeyStore { entries: Mutex::new(HashMap::new()), ttl }
    }

    fn entries(&self) -> std::sync::MutexGuard<'_, HashMap<ScopedKey, Entry>> {
        // A panic elsewhere cannot leave the map half-updated (every update is one insert or
        // remove), so a poisoned lock is still safe to use.
        self.entries.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// The correct design: look and claim in one critical section. `Fresh` means the caller now
    /// owns the key and must `complete` or `release` it.
    pub fn claim(&self, key: &ScopedKey, fingerprint: Fingerprint) -> Lookup {
        let mut entries = self.entries();
        let found = Self::inspect(&mut entries, key, fingerprint);
        if found == Lookup::Fresh {
            if entries.len() >= SWEEP_THRESHOLD {
                let now = Instant::now();
                entries.retain(|_, entry| !matches!(entry, Entry::Completed { expires_at, .. } if *expires_at <= now));
            }
            entries.insert(key.clone(), Entry::InFlight { fingerprint });
        }
        found
    }

    /// The naive design's first half: look, without claiming.
    pub fn lookup(&self, key: &ScopedKey, fingerprint: Fingerprint) -> Lookup {
        Self::inspect(&mut self.entries(), key, fingerprint)
    }

    fn inspect(entries: &mut HashMap<ScopedKey, Entry>, key: &ScopedKey, fingerprint: Fingerprint) -> Lookup {
        let expired =
            matches!(entries.get(key), Some(Entry::Completed { expires_at, .. }) if *expires_at <= Instant::now());
        if expired {
            entries.remove(key);
        }
        match entries.get(key) {
            None => Lookup::Fresh,
            Some(Entry::InFlight { fingerprint: stored }) | Some(Entry::Completed { fingerprint: stored, .. })
                if *stored != fingerprint =>
            {
                Lookup::Mismatch
            }
            Some(Entry::InFlight { .. }) => Lookup::InFlight,
            Some(Entry::Completed { response, .. }) => Lookup::Replay(response.clone()),
        }
    }

    /// Stores the response for replay until the TTL runs out.
    pub fn complete(&self, key: ScopedKey, fingerprint: Fingerprint, response: StoredResponse) {
        let expires_at = Instant::now() + self.ttl;
        self.entries().insert(key, Entry::Completed { fingerprint, response, expires_at });
    }

    /// Gives up a claim whose request did not complete, so a retry can execute.
    pub fn release(&self, key: &ScopedKey) {
        let mut entries = self.entries();
        if matches!(entries.get(key), Some(Entry::InFlight { .. })) {
            entries.remove(key);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(k: &str) -> ScopedKey {
        ScopedKey { method: "POST".into(), path: "/payments".into(), key: k.into() }
    }

    fn response() -> StoredResponse {
        StoredResponse {
            status: 201,
            content_type: "application/json",
            location: None,
            body: Bytes::from_static(b"{}"),
        }
    }

    #[test]
    fn claim_is_exclusive_until_completed() {
        let store = KeyStore::new(Duration::from_secs(60));
        let print = fingerprint("POST", "/payments", b"{}");
        assert_eq!(store.claim(&key("a"), print), Lookup::Fresh);
        assert_eq!(store.claim(&key("a"), print), Lookup::InFlight);
        assert_eq!(store.claim(&key("a"), fingerprint("POST", "/payments", b"{1}")), Lookup::Mismatch);
        store.complete(key("a"), print, response());
        assert_eq!(store.claim(&key("a"), print), Lookup::Replay(response()));
    }

    #[test]
    fn released_and_expired_keys_are_fresh_again() {
        let store = KeyStore::new(Duration::ZERO);
        let print = fingerprint("POST", "/payments", b"");
        assert_eq!(store.claim(&key("a"), print), Lookup::Fresh);
        store.release(&key("a"));
        assert_eq!(store.claim(&key("a"), print), Lookup::Fresh);
        store.complete(key("a"), print, response());
        assert_eq!(store.claim(&key("a"), print), Lookup::Fresh);
    }

    #[test]
    fn lookup_never_claims() {
        let store = KeyStore::new(Duration::from_secs(60));
        let print = fingerprint("POST", "/payments", b"");
        assert_eq!(store.lookup(&key("a"), print), Lookup::Fresh);
        assert_eq!(store.lookup(&key("a"), print), Lookup::Fresh);
    }

    #[test]
    fn fingerprints_cover_method_path_and_body() {
        let base = fingerprint("POST", "/a", b"x");
        assert_ne!(base, fingerprint("PUT", "/a", b"x"));
        assert_ne!(base, fingerprint("POST", "/b", b"x"));
        assert_ne!(base, fingerprint("POST", "/a", b"y"));
    }
}
