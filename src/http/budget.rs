//! `--max-requests N`: the one count of the requests a command sends to the user's target. Every
//! sender takes from the same budget before a request leaves (the plain client one at a time, the
//! race engine a whole round at once), so a run stops before the request that would exceed it,
//! whichever part of the command sends it. Clones share the count: a request spec cloned for a
//! check, an operation or a delivery task still draws on the command's one budget.
//!
//! Reads of `--count-url` are not the target and go through clients without a budget.
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use crate::text::plural;

/// The budget of one command run: unlimited unless `--max-requests` was given.
#[derive(Debug, Clone, Default)]
pub struct RequestBudget {
    shared: Option<Arc<Shared>>,
}

#[derive(Debug)]
struct Shared {
    limit: u64,
    sent: AtomicU64,
    /// How many requests the whole run needs, when the command can tell before it starts.
    needed: Mutex<Option<Needed>>,
    /// The first refusal, so a command that carries on after a refused request (a suite whose
    /// probe turns errors into evidence) can still report that the budget ended it.
    refusal: Mutex<Option<BudgetExhausted>>,
}

/// How many requests a full run sends: exactly this many, at least this many (answers decide the
/// rest), within a range (retries decide), or about this many (an estimate).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Needed {
    Exactly(u64),
    AtLeast(u64),
    Between(u64, u64),
    /// An estimate: what a correct API that answers quickly gets (`idem check`).
    About(u64),
}

/// A request the budget refused: nothing was sent.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BudgetExhausted {
    pub limit: u64,
    /// Requests sent before the refusal.
    pub sent: u64,
    /// Requests the refused step needed (a race round needs all its duplicates at once).
    pub wanted: u64,
    pub needed: Option<Needed>,
}

impl std::fmt::Display for BudgetExhausted {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "--max-requests {} reached: {} sent, and the next step needs {} more",
            self.limit,
            plural(self.sent, "request was", "requests were"),
            self.wanted
        )?;
        match self.needed {
            Some(Needed::Exactly(needed)) => {
                write!(f, "; the full run needs {}", plural(needed, "request", "requests"))
            }
            Some(Needed::AtLeast(needed)) => {
                write!(f, "; the full run needs at least {}", plural(needed, "request", "requests"))
            }
            Some(Needed::Between(least, most)) if least == most => {
                write!(f, "; the full run needs {}", plural(least, "request", "requests"))
            }
            Some(Needed::Between(least, most)) => write!(f, "; the full run needs {least} to {most} requests"),
            Some(Needed::About(needed)) => {
                write!(f, "; the full run needs about {}", plural(needed, "request", "requests"))
            }
            None => Ok(()),
        }?;
        write!(f, " (raise --max-requests to let it finish)")
    }
}

impl std::error::Error for BudgetExhausted {}

impl RequestBudget {
    /// No limit: the default.
    pub fn unlimited() -> RequestBudget {
        RequestBudget { shared: None }
    }

    /// At most `limit` requests; `None` is no limit.
    pub fn at_most(limit: Option<u64>) -> RequestBudget {
        RequestBudget {
            shared: limit.map(|limit| {
                Arc::new(Shared { limit, sent: AtomicU64::new(0), needed: Mutex::new(None), refusal: Mutex::new(None) })
            }),
        }
    }

    /// Tells the budget how many requests the whole run needs, for the message when it runs out.
    pub fn announce(&self, needed: Needed) {
        if let Some(shared) = &self.shared {
            *crate::sync::lock(&shared.needed) = Some(needed);
        }
    }

    /// Takes `count` requests from the budget, or refuses without taking any when that would go
    /// over the limit.
    pub fn take(&self, count: u64) -> Result<(), BudgetExhausted> {
        let Some(shared) = &self.shared else { return Ok(()) };
        let mut sent = shared.sent.load(Ordering::Relaxed);
        loop {
            if sent.saturating_add(count) > shared.limit {
                let refusal = BudgetExhausted {
                    limit: shared.limit,
                    sent,
                    wanted: count,
                    needed: *crate::sync::lock(&shared.needed),
                };
                crate::sync::lock(&shared.refusal).get_or_insert_with(|| refusal.clone());
                return Err(refusal);
            }
            match shared.sent.compare_exchange_weak(sent, sent + count, Ordering::Relaxed, Ordering::Relaxed) {
                Ok(_) => return Ok(()),
                Err(now) => sent = now,
            }
        }
    }

    /// `--max-requests`, when given.
    pub fn limit(&self) -> Option<u64> {
        self.shared.as_ref().map(|shared| shared.limit)
    }

    /// How many requests were taken so far.
    pub fn sent(&self) -> u64 {
        self.shared.as_ref().map_or(0, |shared| shared.sent.load(Ordering::Relaxed))
    }

    /// How many more requests may be sent (`u64::MAX` without a limit).
    pub fn remaining(&self) -> u64 {
        self.shared.as_ref().map_or(u64::MAX, |shared| shared.limit.saturating_sub(shared.sent.load(Ordering::Relaxed)))
    }

    /// The first request the budget refused, if any.
    pub fn refusal(&self) -> Option<BudgetExhausted> {
        self.shared.as_ref().and_then(|shared| crate::sync::lock(&shared.refusal).clone())
    }
}

/// The refusal somewhere in `err`'s chain, when the budget is what stopped it.
pub(crate) fn refusal_in(err: &anyhow::Error) -> Option<&BudgetExhausted> {
    err.chain().find_map(|cause| cause.downcast_ref::<BudgetExhausted>())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn takes_until_the_limit_and_refuses_a_step_that_would_pass_it() {
        let budget = RequestBudget::at_most(Some(5));
        budget.announce(Needed::Exactly(8));
        assert!(budget.take(2).is_ok());
        let shared = budget.clone();
        assert!(shared.take(2).is_ok());
        let refused = budget.take(2).unwrap_err();
        assert_eq!(refused, BudgetExhausted { limit: 5, sent: 4, wanted: 2, needed: Some(Needed::Exactly(8)) });
        assert_eq!(budget.sent(), 4, "a refused step takes nothing");
        assert!(budget.take(1).is_ok());
        assert_eq!(budget.remaining(), 0);
        assert_eq!(shared.refusal(), Some(refused.clone()), "the first refusal is kept");
        assert_eq!(
            refused.to_string(),
            "--max-requests 5 reached: 4 requests were sent, and the next step needs 2 more; the full run needs 8 \
             requests (raise --max-requests to let it finish)"
        );
    }

    #[test]
    fn no_limit_takes_everything() {
        let budget = RequestBudget::unlimited();
        assert!(budget.take(u64::MAX).is_ok());
        assert!(budget.take(1).is_ok());
        assert_eq!(budget.limit(), None);
        assert_eq!(budget.refusal(), None);
    }
}
