//! The 64-bit hashes that stand for keys, bodies, routes and answers within one run of the proxy
//! and the verdicts: never stored, never shown, only compared with each other.
//!
//! foldhash rather than std's SipHash: the proxy hashes every judged request's key, body and
//! answer, and under load that was a visible part of its time (`cargo bench --bench proxy`). The
//! seed is fixed, so a hash is the same for the whole run, as identity needs; nothing here faces
//! input chosen to collide (the client under test is not attacking the proxy).
use std::hash::{BuildHasher, Hash};

const SEED: u64 = 0x1de3_7a1e_5eed_0001;

/// The hash of `value`.
pub(crate) fn hash_of<T: Hash + ?Sized>(value: &T) -> u64 {
    state().hash_one(value)
}

/// A hasher to feed in parts, for a hash of several values.
pub(crate) fn hasher() -> impl std::hash::Hasher {
    state().build_hasher()
}

fn state() -> foldhash::quality::FixedState {
    foldhash::quality::FixedState::with_seed(SEED)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::hash::Hasher;

    #[test]
    fn a_value_hashes_alike_every_time_and_unlike_another() {
        assert_eq!(hash_of("bench-1"), hash_of("bench-1"));
        assert_ne!(hash_of("bench-1"), hash_of("bench-2"));
        let mut parts = hasher();
        "bench-1".hash(&mut parts);
        assert_eq!(parts.finish(), hash_of("bench-1"));
    }
}
