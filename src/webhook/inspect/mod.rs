//! The inspector: `webhook listen --ui [ADDR]` and `webhook journal FILE --ui [ADDR]` serve a page
//! (its assets compiled in: no CDN, no build step, works offline) that lists deliveries live over
//! server-sent events, with filters and a detail view of each (headers, pretty body, the signature's
//! diagnosis, the forward's answer, the journal line).
//!
//! Safe by default: it binds loopback (a port of its own) unless given another address, which is
//! warned about; every request needs the random token in the URL it prints (as Jupyter does), and
//! a Host header naming the address bound (no DNS rebinding); a request that changes anything must
//! come from the page's own origin (no CSRF); the page talks to its own origin only. Signature
//! headers are shown (they are not secrets); the listener's secret never reaches the inspector.
mod journal_source;
mod resend;
mod server;

pub(crate) use resend::Signing;

use std::net::SocketAddr;
use std::sync::{Arc, Mutex};

use tokio::sync::broadcast;

use crate::http::server::ServerTask;
use crate::webhook::journal::record::JournalRecord;

/// How many deliveries the inspector holds; older ones leave the page (the journal keeps them).
const KEPT: usize = 5_000;

/// The deliveries shown, numbered as they came, and the feed of new ones.
pub(crate) struct Inspector {
    deliveries: Mutex<Deliveries>,
    feed: broadcast::Sender<Arc<str>>,
    /// What re-signing a delivery from the page needs.
    signing: Signing,
    /// `journal A --ui --compare B`: the two journals the page compares.
    compare: std::sync::OnceLock<(std::path::PathBuf, std::path::PathBuf)>,
}

#[derive(Default)]
struct Deliveries {
    next: u64,
    /// Each as the JSON the page reads: `{"n": …, "line": …, "record": {journal record}}`.
    shown: std::collections::VecDeque<Arc<str>>,
}

impl Inspector {
    pub(crate) fn new(signing: Signing) -> Arc<Inspector> {
        Arc::new(Inspector {
            deliveries: Mutex::default(),
            feed: broadcast::channel(1024).0,
            signing,
            compare: std::sync::OnceLock::new(),
        })
    }

    /// Adds a delivery (`line`: its line in the journal, when it has one) and sends it to every
    /// open page.
    pub(crate) fn push(&self, record: &JournalRecord, line: Option<usize>) {
        self.add(record, line, None);
    }

    /// Adds what was sent from the page, linked to row `origin`; its row number.
    fn push_resent(&self, record: &JournalRecord, origin: u64) -> u64 {
        self.add(record, None, Some(origin))
    }

    fn add(&self, record: &JournalRecord, line: Option<usize>, origin: Option<u64>) -> u64 {
        let mut deliveries = self.deliveries.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        deliveries.next += 1;
        let n = deliveries.next;
        let item = serde_json::json!({ "n": n, "line": line, "origin": origin, "record": record });
        let item: Arc<str> = Arc::from(item.to_string());
        if deliveries.shown.len() == KEPT {
            deliveries.shown.pop_front();
        }
        deliveries.shown.push_back(Arc::clone(&item));
        // No page open is no error.
        let _ = self.feed.send(item);
        n
    }

    /// Every delivery held, as one JSON array.
    fn all(&self) -> String {
        let deliveries = self.deliveries.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        let mut out = String::from("[");
        for (index, item) in deliveries.shown.iter().enumerate() {
            if index > 0 {
                out.push(',');
            }
            out.push_str(item);
        }
        out.push(']');
        out
    }
}

/// A running inspector: its URL (token included) and its server (none when mounted on the
/// listener's port).
pub(crate) struct RunningInspector {
    pub url: String,
    task: Option<ServerTask>,
}

impl RunningInspector {
    pub(crate) async fn stop(self) {
        if let Some(task) = self.task {
            task.stop().await;
        }
    }
}

/// The inspector under a path of another server's port (`webhook listen --ui-path /_idem`): every
/// request whose path is the prefix or under it is the inspector's, token-guarded as on a port of
/// its own; the rest is the server's.
pub(crate) struct MountedInspector {
    site: Arc<server::Site>,
    url: String,
}

impl MountedInspector {
    /// `prefix` starts with `/` and does not end with one; `bound` is the server's address.
    pub(crate) fn new(inspector: Arc<Inspector>, bound: SocketAddr, prefix: &str) -> MountedInspector {
        let token = crate::ids::fresh_id("");
        let url = format!("http://{bound}{prefix}/?token={token}");
        MountedInspector { site: Arc::new(server::Site { inspector, token, bound, prefix: prefix.to_string() }), url }
    }

    pub(crate) fn running(&self) -> RunningInspector {
        RunningInspector { url: self.url.clone(), task: None }
    }

    /// Whether a request to `path` is the inspector's.
    pub(crate) fn claims(&self, path: &str) -> bool {
        path.strip_prefix(self.site.prefix.as_str()).is_some_and(|rest| rest.is_empty() || rest.starts_with('/'))
    }

    pub(crate) async fn handle(
        &self,
        request: hyper::Request<hyper::body::Incoming>,
    ) -> Result<server::Answer, std::convert::Infallible> {
        server::handle(Arc::clone(&self.site), request).await
    }
}

/// `webhook journal FILE --ui`: the inspector over the journal, live, until Ctrl-C.
pub(crate) async fn run_over_journal(
    file: std::path::PathBuf,
    addr: SocketAddr,
    compare: Option<std::path::PathBuf>,
) -> anyhow::Result<crate::exit::Outcome> {
    // Refused before anything is served: no such file, a directory, a FIFO.
    drop(crate::webhook::journal::reader::open_regular(&file)?);
    if let Some(other) = &compare {
        drop(crate::webhook::journal::reader::open_regular(other)?);
    }
    let stop = crate::http::server::StopSignal::register()?;
    let inspector = Inspector::new(Signing::default());
    if let Some(other) = compare {
        let _ = inspector.compare.set((file.clone(), other));
    }
    let running = serve(Arc::clone(&inspector), addr).await?;
    println!("inspector: {}", running.url);
    let followed = journal_source::follow_journal(&file, inspector);
    tokio::select! {
        () = stop.wait() => {}
        ended = followed => ended?,
    }
    running.stop().await;
    Ok(crate::exit::Outcome::Holds)
}

/// Serves `inspector` on `addr` (loopback unless the user gave another address: warned about).
pub(crate) async fn serve(inspector: Arc<Inspector>, addr: SocketAddr) -> anyhow::Result<RunningInspector> {
    if !addr.ip().is_loopback() {
        eprintln!(
            "warning: the inspector listens on {addr}, beyond this machine: anyone who can reach it and has its URL \
             (token included) sees every delivery"
        );
    }
    let (listener, bound) = crate::http::server::bind(addr).await?;
    let token = crate::ids::fresh_id("");
    let url = format!("http://{bound}/?token={token}");
    let shared = Arc::new(server::Site { inspector, token, bound, prefix: String::new() });
    let task = ServerTask::spawn(listener, None, move |_remote| {
        let site = Arc::clone(&shared);
        hyper::service::service_fn(move |request| server::handle(Arc::clone(&site), request))
    });
    Ok(RunningInspector { url, task: Some(task) })
}
