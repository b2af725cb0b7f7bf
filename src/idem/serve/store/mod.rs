//! Where the key → result table and the payments ledger live, and the claim protocol every
//! store follows, so one instance or many behave as one API.
//!
//! The protocol, per request that carries a key:
//! 1. `claim` looks and claims in one atomic step. `Fresh` means this request now owns the key
//!    for a lease; anything else is the answer (409 in flight, 422 reused, or the replay).
//! 2. While the work runs, the owner renews its lease (`lease::hold`). An owner that crashed
//!    stops renewing, its lease runs out, and a later duplicate may take the key over.
//! 3. `commit` records the payment and, for a keyed request, the answer to replay, together,
//!    and only while the claim is still this owner's.
//!
//! `lookup` (claim nothing) is the naive design, kept for `--mode naive`.
mod entry;
pub(super) mod lease;
mod local_lock;
pub(crate) mod location;
mod memory;
pub(super) mod owner;
mod redis;
mod resp;
mod sqlite;

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::time::Duration;

use bytes::Bytes;
use serde_json::Value;

pub(crate) use location::{RedisAddress, StoreLocation};
pub(super) use owner::Claim;

use super::payments::Payment;

/// A key is scoped to the method and path it was first used on.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(super) struct ScopedKey {
    pub method: String,
    pub path: String,
    pub key: String,
}

impl ScopedKey {
    /// One string for stores keyed by strings. Methods and paths hold no spaces, so the key,
    /// which may, comes last and the join cannot be ambiguous.
    pub(super) fn joined(&self) -> String {
        format!("{} {} {}", self.method, self.path, self.key)
    }
}

/// SHA-256 over method, path and body: "the same request".
pub(super) type Fingerprint = [u8; 32];

pub(super) fn fingerprint(method: &str, path: &str, body: &[u8]) -> Fingerprint {
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
pub(super) struct StoredResponse {
    pub status: u16,
    pub content_type: String,
    pub location: Option<String>,
    pub body: Bytes,
}

/// What the store says about an incoming request's key.
#[derive(Debug, PartialEq, Eq)]
pub(super) enum Lookup {
    /// The key is new, expired, or its owner's lease ran out: this request may execute.
    Fresh,
    /// The original request with this key is still executing.
    InFlight,
    /// The key was used for a different request (method, path or body differ).
    Mismatch,
    /// The original completed: answer with its response.
    Replay(StoredResponse),
}

/// The answer a keyed request produced, to store with its payment.
#[derive(Debug, Clone, Copy)]
pub(super) struct Completion<'a> {
    pub key: &'a ScopedKey,
    pub fingerprint: Fingerprint,
    pub response: &'a StoredResponse,
    /// The claim the work ran under; `None` writes unconditionally (the broken modes, which
    /// never claimed).
    pub claim: Option<&'a Claim>,
}

/// The store could not be reached or answered nonsense: the request gets a 503, the server
/// keeps running.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub(super) struct StoreError(pub String);

impl StoreError {
    pub(super) fn new(context: impl std::fmt::Display, cause: impl std::fmt::Display) -> StoreError {
        StoreError(format!("{context}: {cause}"))
    }
}

pub(super) type StoreFuture<'a, T> = Pin<Box<dyn Future<Output = Result<T, StoreError>> + Send + 'a>>;

/// The key table and the ledger. Boxed futures keep the trait object-safe, so the server holds
/// one `Arc<dyn Store>` whatever `--store` said.
pub(super) trait Store: Send + Sync {
    /// Looks and claims in one atomic step (see the module docs).
    fn claim<'a>(&'a self, key: &'a ScopedKey, fingerprint: Fingerprint, claim: &'a Claim) -> StoreFuture<'a, Lookup>;

    /// Looks without claiming: the naive design's first half.
    fn lookup<'a>(&'a self, key: &'a ScopedKey, fingerprint: Fingerprint) -> StoreFuture<'a, Lookup>;

    /// Extends the lease of a claim this owner still holds; `false` when it no longer does.
    fn renew<'a>(&'a self, key: &'a ScopedKey, claim: &'a Claim) -> StoreFuture<'a, bool>;

    /// Gives up a claim whose work did not complete, so a retry can execute.
    fn release<'a>(&'a self, key: &'a ScopedKey, claim: &'a Claim) -> StoreFuture<'a, ()>;

    /// Records the payment and, with a completion, the answer to replay, in one step.
    fn commit<'a>(&'a self, payment: &'a Payment, completion: Option<Completion<'a>>) -> StoreFuture<'a, ()>;

    /// One payment, as the API shows it.
    fn payment<'a>(&'a self, id: &'a str) -> StoreFuture<'a, Option<Value>>;

    /// Every payment, oldest first.
    fn payments(&self) -> StoreFuture<'_, Vec<Value>>;
}

/// Opens the store `location` names; completed answers are kept for `ttl`.
pub(super) async fn open(location: &StoreLocation, ttl: Duration) -> anyhow::Result<Arc<dyn Store>> {
    Ok(match location {
        StoreLocation::Memory => Arc::new(memory::MemoryStore::new(ttl)),
        StoreLocation::Sqlite(path) => Arc::new(sqlite::SqliteStore::open(path, ttl).await?),
        StoreLocation::Redis(address) => Arc::new(redis::RedisStore::connect(address.clone(), ttl).await?),
    })
}

/// `--mode local-lock`: claims in this process only, in front of the shared `store`.
pub(super) fn local_lock(store: Arc<dyn Store>) -> Arc<dyn Store> {
    Arc::new(local_lock::LocalLockStore::new(store))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fingerprints_cover_method_path_and_body() {
        let base = fingerprint("POST", "/a", b"x");
        assert_ne!(base, fingerprint("PUT", "/a", b"x"));
        assert_ne!(base, fingerprint("POST", "/b", b"x"));
        assert_ne!(base, fingerprint("POST", "/a", b"y"));
    }
}
