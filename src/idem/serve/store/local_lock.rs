//! `--mode local-lock`, DELIBERATELY BROKEN: the claim is an in-process lock (this instance's
//! own key table), the shared store is only looked at under it and written after the work. On
//! one instance that is correct; two instances each hold their own lock, so a duplicate sent to
//! each executes on both. The bug teams meet when they scale out a mutex-guarded handler.
use std::sync::Arc;
use std::time::Duration;

use serde_json::Value;

use super::memory::MemoryKeys;
use super::{Claim, Completion, Fingerprint, Lookup, ScopedKey, Store, StoreFuture};
use crate::idem::serve::payments::Payment;

pub(super) struct LocalLockStore {
    local: MemoryKeys,
    shared: Arc<dyn Store>,
}

impl LocalLockStore {
    pub(super) fn new(shared: Arc<dyn Store>) -> LocalLockStore {
        // Local entries never complete (the answer goes to the shared store), so no TTL applies.
        LocalLockStore { local: MemoryKeys::new(Duration::ZERO), shared }
    }
}

impl Store for LocalLockStore {
    fn claim<'a>(&'a self, key: &'a ScopedKey, fingerprint: Fingerprint, claim: &'a Claim) -> StoreFuture<'a, Lookup> {
        Box::pin(async move {
            let local = self.local.claim(key, fingerprint, claim);
            if local != Lookup::Fresh {
                return Ok(local);
            }
            // Locked here; a completed answer from any instance is replayed.
            match self.shared.lookup(key, fingerprint).await {
                Ok(Lookup::Fresh) => Ok(Lookup::Fresh),
                other => {
                    self.local.release(key, claim);
                    other
                }
            }
        })
    }

    fn lookup<'a>(&'a self, key: &'a ScopedKey, fingerprint: Fingerprint) -> StoreFuture<'a, Lookup> {
        self.shared.lookup(key, fingerprint)
    }

    fn renew<'a>(&'a self, key: &'a ScopedKey, claim: &'a Claim) -> StoreFuture<'a, bool> {
        Box::pin(std::future::ready(Ok(self.local.renew(key, claim))))
    }

    fn release<'a>(&'a self, key: &'a ScopedKey, claim: &'a Claim) -> StoreFuture<'a, ()> {
        self.local.release(key, claim);
        Box::pin(std::future::ready(Ok(())))
    }

    fn commit<'a>(&'a self, payment: &'a Payment, completion: Option<Completion<'a>>) -> StoreFuture<'a, ()> {
        Box::pin(async move {
            // The shared store never saw a claim, so the answer is written unconditionally.
            let shared = completion.map(|completion| Completion { claim: None, ..completion });
            let committed = self.shared.commit(payment, shared).await;
            if let Some(Completion { key, claim: Some(claim), .. }) = completion {
                self.local.release(key, claim);
            }
            committed
        })
    }

    fn payment<'a>(&'a self, id: &'a str) -> StoreFuture<'a, Option<Value>> {
        self.shared.payment(id)
    }

    fn payments(&self) -> StoreFuture<'_, Vec<Value>> {
        self.shared.payments()
    }
}
