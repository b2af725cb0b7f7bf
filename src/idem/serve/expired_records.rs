//! `--mode orphan-takeover`: the layer's own note of when it stored each key's answer, read the
//! way a layer that keeps its records past their expiry and checks `expires_at` in its code reads
//! it (a DynamoDB item waits for TTL deletion long after it expired). A request whose record it
//! finds expired is taken to be new and executes without claiming the key; the record is written
//! again only after the work, so every duplicate that reads it meanwhile executes too.
use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use super::store::ScopedKey;
use crate::sync::lock;

/// Records kept at most: past this the note is forgotten, which only makes the mode behave as
/// `correct` does for the keys it forgot (a long run of a deliberately broken mode must not grow
/// without bound).
const MAX_RECORDS: usize = 100_000;

pub(super) struct ExpiredRecords {
    stored_at: Mutex<HashMap<ScopedKey, Instant>>,
    ttl: Duration,
}

impl ExpiredRecords {
    pub(super) fn new(ttl: Duration) -> ExpiredRecords {
        ExpiredRecords { stored_at: Mutex::new(HashMap::new()), ttl }
    }

    /// The key's answer was stored once and has expired since: the broken layer sees an orphan
    /// record it may overwrite.
    pub(super) fn expired(&self, key: &ScopedKey) -> bool {
        lock(&self.stored_at).get(key).is_some_and(|stored| stored.elapsed() >= self.ttl)
    }

    /// The key's answer was stored now.
    pub(super) fn stored(&self, key: &ScopedKey) {
        let mut stored_at = lock(&self.stored_at);
        if stored_at.len() >= MAX_RECORDS {
            stored_at.clear();
        }
        stored_at.insert(key.clone(), Instant::now());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(k: &str) -> ScopedKey {
        ScopedKey { method: "POST".into(), path: "/payments".into(), key: k.into() }
    }

    #[test]
    fn a_record_is_expired_once_the_ttl_has_passed_since_it_was_stored() {
        let records = ExpiredRecords::new(Duration::ZERO);
        assert!(!records.expired(&key("a")), "a key never stored has no record to take over");
        records.stored(&key("a"));
        assert!(records.expired(&key("a")));
        let kept = ExpiredRecords::new(Duration::from_secs(3600));
        kept.stored(&key("a"));
        assert!(!kept.expired(&key("a")));
    }
}
