//! The webhooks `idem run`'s steps expect (`x-idem-expect-webhook`), received by an embedded
//! `webhook listen` that journals every delivery with its verdict. The one place where `idem run`
//! reaches the webhook half: `idem/` and `webhook/` never import each other, so what both need
//! meets here, at the top level.
use std::net::SocketAddr;
use std::path::PathBuf;

use anyhow::{Context, bail};

use crate::webhook::listen::{self, ListenConfig, RunningListener};
use crate::webhook::scheme::SchemeKind;
use crate::webhook::secret::Secret;

/// A delivery the listener received: its event type and whether its signature held.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Received {
    pub event_type: Option<String>,
    pub valid: bool,
}

/// A running listener and its journal (a temporary file, removed when dropped).
pub(crate) struct WebhookInbox {
    listener: Option<RunningListener>,
    journal: PathBuf,
    /// The scheme and secret it verifies with: every expectation of a run must name the same.
    pub scheme: String,
    secret: String,
}

impl WebhookInbox {
    /// Starts a listener on `addr` that verifies with `scheme` (a `webhook listen --scheme` name)
    /// and `secret`.
    pub(crate) async fn start(addr: SocketAddr, scheme: &str, secret: &str) -> anyhow::Result<WebhookInbox> {
        let kind = <SchemeKind as clap::ValueEnum>::from_str(scheme, true).map_err(|_| {
            anyhow::anyhow!("`{scheme}` is not a signing scheme webhook listen knows (see webhook schemes)")
        })?;
        let journal = std::env::temp_dir().join(format!("{}.jsonl", crate::ids::fresh_id("idem-run-webhooks-")));
        let mut config = ListenConfig::local(kind, Secret::new(secret.as_bytes().to_vec())?);
        config.addr = addr;
        config.record = Some(journal.clone());
        let listener = listen::start(&config).await.with_context(|| format!("--listen {addr}"))?;
        Ok(WebhookInbox { listener: Some(listener), journal, scheme: scheme.to_string(), secret: secret.to_string() })
    }

    /// Whether `secret` is the one this listener verifies with (compared, never shown).
    pub(crate) fn verifies_with(&self, scheme: &str, secret: &str) -> bool {
        self.scheme.eq_ignore_ascii_case(scheme) && self.secret == secret
    }

    /// Every delivery so far, in the order received (handshakes left out).
    pub(crate) fn received(&self) -> anyhow::Result<Vec<Received>> {
        if !self.journal.exists() {
            return Ok(Vec::new());
        }
        let (records, _) = crate::webhook::journal::reader::read_journal(&self.journal)?;
        Ok(records
            .into_iter()
            .filter(|record| record.handshake.is_none())
            .map(|record| Received { event_type: record.event_type, valid: record.verdict.valid })
            .collect())
    }

    pub(crate) async fn stop(mut self) {
        if let Some(listener) = self.listener.take() {
            listener.shutdown().await;
        }
    }
}

impl Drop for WebhookInbox {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.journal);
    }
}

/// `--listen ADDR` as an address: the loopback unless the user names another interface.
pub(crate) fn listen_addr(text: &str) -> anyhow::Result<SocketAddr> {
    let addr: SocketAddr =
        text.parse().with_context(|| format!("--listen `{text}` is not HOST:PORT (127.0.0.1:9000)"))?;
    if addr.port() == 0 {
        bail!("--listen needs a fixed port (the API under test is told where to deliver before the run starts)");
    }
    Ok(addr)
}
