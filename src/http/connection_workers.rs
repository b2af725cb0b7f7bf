//! Threads that serve accepted connections, one single-threaded runtime each, the way nginx's
//! worker processes do: a connection is handed to one worker when accepted and stays there, so its
//! requests, its timers and (for `idem proxy`) its upstream connection are all driven by one thread
//! and never cross to another.
//!
//! Why: on tokio's multi-threaded runtime a connection's wake-ups go through the work-stealing
//! scheduler's shared queues and wake parked threads, which `cargo bench --bench proxy` showed as a
//! share of every forwarded request's cost beside nginx. A server whose requests are independent of
//! each other (the proxy's only shared state is behind its own locks) loses nothing by pinning.
use std::future::Future;
use std::pin::Pin;
use std::sync::atomic::{AtomicUsize, Ordering};

use anyhow::Context;
use tokio::sync::mpsc;

type Job = Pin<Box<dyn Future<Output = ()> + Send>>;

/// The worker threads, fed round-robin. Dropping this lets each worker finish once its
/// connections have ended (the server's stop has already drained them).
pub(crate) struct ConnectionWorkers {
    queues: Vec<mpsc::UnboundedSender<Job>>,
    next: AtomicUsize,
}

impl ConnectionWorkers {
    /// One worker per core this process may use.
    pub(crate) fn per_core() -> anyhow::Result<ConnectionWorkers> {
        ConnectionWorkers::start(std::thread::available_parallelism().map_or(1, usize::from))
    }

    pub(crate) fn start(count: usize) -> anyhow::Result<ConnectionWorkers> {
        let mut queues = Vec::with_capacity(count);
        for index in 0..count.max(1) {
            let runtime = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .context("cannot start a connection worker's runtime")?;
            let (queue, mut jobs) = mpsc::unbounded_channel::<Job>();
            std::thread::Builder::new()
                .name(format!("connections-{index}"))
                .spawn(move || {
                    runtime.block_on(async move {
                        let mut running = tokio::task::JoinSet::new();
                        while let Some(job) = jobs.recv().await {
                            running.spawn(job);
                            // Finished connections' handles, collected as new ones come.
                            while running.try_join_next().is_some() {}
                        }
                        // The server has stopped and waited for its connections (up to its drain
                        // timeout): those still open are dropped with the set, as a runtime's
                        // would be.
                    });
                })
                .context("cannot start a connection worker thread")?;
            queues.push(queue);
        }
        Ok(ConnectionWorkers { queues, next: AtomicUsize::new(0) })
    }

    /// Runs `job` (a connection's whole life) on the next worker. The job's first poll happens
    /// there, so a socket it registers (`TcpStream::from_std`) belongs to that worker's reactor.
    pub(crate) fn run(&self, job: impl Future<Output = ()> + Send + 'static) {
        let index = self.next.fetch_add(1, Ordering::Relaxed) % self.queues.len();
        // A worker is only gone once this is dropped: sending cannot fail before.
        let _ = self.queues[index].send(Box::pin(job));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn jobs_run_on_the_workers_threads_in_turn() {
        let workers = ConnectionWorkers::start(2).unwrap();
        let (sent, mut names) = mpsc::unbounded_channel();
        for _ in 0..4 {
            let sent = sent.clone();
            workers.run(async move {
                let name = std::thread::current().name().map(str::to_string);
                // A timer works there: the worker's runtime has its own driver.
                tokio::time::sleep(std::time::Duration::from_millis(1)).await;
                let _ = sent.send(name);
            });
        }
        let mut seen = Vec::new();
        for _ in 0..4 {
            seen.push(names.recv().await.flatten().unwrap());
        }
        seen.sort();
        assert_eq!(seen, ["connections-0", "connections-0", "connections-1", "connections-1"]);
    }
}
