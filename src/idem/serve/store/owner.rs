//! Who holds a claim, and for how long: every claim carries a token unique across instances and
//! a lease, so a store can tell the owner's own renewal and commit from a stranger's.
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use rand::Rng;
use rand::distr::Alphanumeric;

/// One request's claim on a key.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Claim {
    /// `<instance>-<sequence>`: the instance part is random per process, so two instances (or one
    /// restarted) never hand out the same token.
    pub owner: String,
    /// How long the claim holds without renewal.
    pub lease: Duration,
}

/// Hands out claim tokens for one server process.
pub(crate) struct Owners {
    instance: String,
    next: AtomicU64,
    lease: Duration,
}

impl Owners {
    pub(crate) fn new(lease: Duration) -> Owners {
        let instance: String = rand::rng().sample_iter(&Alphanumeric).take(12).map(char::from).collect();
        Owners { instance, next: AtomicU64::new(1), lease }
    }

    pub(crate) fn claim(&self) -> Claim {
        let sequence = self.next.fetch_add(1, Ordering::Relaxed);
        Claim { owner: format!("{}-{sequence}", self.instance), lease: self.lease }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_differ_within_and_across_instances() {
        let (a, b) = (Owners::new(Duration::from_secs(1)), Owners::new(Duration::from_secs(1)));
        let (first, second) = (a.claim(), a.claim());
        assert_ne!(first.owner, second.owner);
        assert_ne!(first.owner, b.claim().owner);
        assert_eq!(first.lease, Duration::from_secs(1));
    }
}
