//! Keeping a claim alive while its work runs: the owner renews its lease every third of it, so
//! a live owner never loses the key and a crashed one loses it within one lease.
use std::future::Future;

use super::{Claim, ScopedKey, Store};

/// Runs `work`, renewing `claim` on `key` until it finishes. A renewal that fails (store down) or
/// finds the claim gone (the lease ran out and another duplicate took over) does not stop the
/// work: a payment half-made is worse than one made twice, and the commit is what checks
/// ownership.
pub(crate) async fn hold<F: Future>(store: &dyn Store, key: &ScopedKey, claim: &Claim, work: F) -> F::Output {
    let period = claim.lease / 3;
    if period.is_zero() {
        return work.await;
    }
    let mut renewals = tokio::time::interval_at(tokio::time::Instant::now() + period, period);
    renewals.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    tokio::pin!(work);
    loop {
        tokio::select! {
            output = &mut work => return output,
            _ = renewals.tick() => {
                let _ = store.renew(key, claim).await;
            }
        }
    }
}
