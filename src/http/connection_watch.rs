//! The watch kept over each served connection: whether a request is in a handler, and since when
//! none has been, read by a watchdog task that tells the connection to close once it has been
//! idle too long, or to finish its requests in flight when the server stops. Shared by hyper's
//! connections (`server.rs`) and the plain HTTP/1.1 path (`h1_server.rs`).
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::sync::{oneshot, watch};

use crate::sync::lock;

/// What a connection's watchdog tells the connection.
pub(crate) enum Control {
    /// No request has been in a handler for the idle timeout: close now.
    Idle,
    /// The server is stopping: finish the requests in flight, then close.
    Stop,
}

/// Starts watching a new connection: its activity, which its server marks requests in, and the
/// receiver its watchdog (a task of its own, on the current runtime) tells when to close.
pub(crate) fn watch_connection(
    idle: Duration,
    stopping: watch::Receiver<()>,
) -> (Arc<Activity>, oneshot::Receiver<Control>) {
    let activity = Arc::new(Activity::new());
    let (control, controlled) = oneshot::channel();
    tokio::spawn(watchdog(Arc::clone(&activity), idle, stopping, control));
    (activity, controlled)
}

/// Watches a connection from a task of its own: tells it to close once it has had no request in a
/// handler for `idle`, or to finish when the server stops; ends when the connection does.
async fn watchdog(
    activity: Arc<Activity>,
    idle: Duration,
    mut stopping: watch::Receiver<()>,
    mut control: oneshot::Sender<Control>,
) {
    let order = tokio::select! {
        () = control.closed() => return,
        () = activity.idle_for(idle) => Control::Idle,
        // Sent, or the server gone without sending it: either way it is stopping.
        _ = stopping.changed() => Control::Stop,
    };
    let _ = control.send(order);
}

/// Whether a connection has requests being handled, and since when it has had none.
pub(crate) struct Activity {
    active: AtomicUsize,
    idle_since: Mutex<tokio::time::Instant>,
}

impl Activity {
    fn new() -> Activity {
        Activity { active: AtomicUsize::new(0), idle_since: Mutex::new(tokio::time::Instant::now()) }
    }

    pub(crate) fn begin(self: &Arc<Self>) -> ActiveRequest {
        self.active.fetch_add(1, Ordering::SeqCst);
        ActiveRequest { activity: Arc::clone(self) }
    }

    /// Completes once the connection has had no request in a handler for `limit` in a row.
    async fn idle_for(&self, limit: Duration) {
        loop {
            if self.active.load(Ordering::SeqCst) > 0 {
                tokio::time::sleep(limit).await;
                continue;
            }
            let deadline = *lock(&self.idle_since) + limit;
            if tokio::time::Instant::now() >= deadline {
                return;
            }
            tokio::time::sleep_until(deadline).await;
        }
    }
}

/// A request in a handler; dropped when its response is ready (or the handler is cancelled).
pub(crate) struct ActiveRequest {
    activity: Arc<Activity>,
}

impl Drop for ActiveRequest {
    fn drop(&mut self) {
        let mut idle_since = lock(&self.activity.idle_since);
        if self.activity.active.fetch_sub(1, Ordering::SeqCst) == 1 {
            *idle_since = tokio::time::Instant::now();
        }
    }
}
