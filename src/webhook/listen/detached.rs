//! Deliveries handled apart from the connection they arrived on, so that a sender giving up does
//! not cancel a forward the application may already have processed, nor the journal line and
//! counts that say so; and what a stop does with them: no more forward retries, then wait until
//! each one is journaled.
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use tokio::sync::{Notify, watch};

pub(crate) struct Detached {
    running: Arc<Running>,
    /// Tells forwards to make no more retries.
    stopping: watch::Sender<bool>,
}

#[derive(Default)]
struct Running {
    count: AtomicUsize,
    /// Woken when the count drops to zero.
    none_left: Notify,
}

/// Held by a detached delivery while it runs.
pub(crate) struct DetachedDelivery {
    running: Arc<Running>,
}

impl Drop for DetachedDelivery {
    fn drop(&mut self) {
        if self.running.count.fetch_sub(1, Ordering::AcqRel) == 1 {
            self.running.none_left.notify_waiters();
        }
    }
}

impl Detached {
    /// With the receiving end forwards watch to learn that the listener stops.
    pub(crate) fn new() -> (Detached, watch::Receiver<bool>) {
        let (stopping, told) = watch::channel(false);
        (Detached { running: Arc::default(), stopping }, told)
    }

    pub(crate) fn begin(&self) -> DetachedDelivery {
        self.running.count.fetch_add(1, Ordering::AcqRel);
        DetachedDelivery { running: Arc::clone(&self.running) }
    }

    /// How many are running.
    pub(crate) fn running(&self) -> usize {
        self.running.count.load(Ordering::Acquire)
    }

    /// Stops forward retries and waits until every detached delivery has been journaled and
    /// counted. Each is bounded by the attempt it is making (--forward-timeout) or --delay.
    pub(crate) async fn finish(&self) {
        self.stopping.send_replace(true);
        loop {
            // Registered before looking, so a delivery ending in between is not missed.
            let none_left = self.running.none_left.notified();
            tokio::pin!(none_left);
            none_left.as_mut().enable();
            if self.running() == 0 {
                return;
            }
            none_left.await;
        }
    }
}
