//! `webhook listen`: a local receiver that verifies each delivery's signature, de-duplicates by
//! event id, journals every delivery before answering, forwards to the application under
//! development, and misbehaves on purpose (`--status`, `--fail-first`, `--delay`) so a sender's
//! retries can be tested. HTTP/1.1 and h2c on one port.
//!
//! In-process, for the demo and tests:
//! ```no_run
//! # async fn demo() -> anyhow::Result<()> {
//! use idem::testing::listen::{self, ListenConfig};
//! use idem::testing::scheme::{SchemeKind, Secret};
//! let mut config = ListenConfig::local(SchemeKind::Stripe, Secret::new(b"whsec_test".to_vec())?);
//! config.fail_first = 1;
//! let listener = listen::start(&config).await?;
//! println!("send webhooks to {}", listener.url("/webhooks"));
//! let summary = listener.shutdown().await;
//! println!("{} received", summary.received);
//! # Ok(()) }
//! ```
mod dedupe;
mod detached;
mod display;
mod envelope;
pub(crate) mod forward;
pub(crate) mod handshake;
mod receive;
pub(crate) mod summary;

pub(crate) use display::{LINE_SCHEMA, ListenLine, ListeningLine};
pub(crate) use forward::glob_matches;
pub(crate) use forward::{ForwardRetry, Route};
pub(crate) use summary::ListenerTally;

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use anyhow::Context;
use http::{StatusCode, Uri};
use hyper::service::service_fn;

use crate::exit::Outcome;
use crate::http::server::{ServerTask, StopSignal, Timeouts};
use crate::http::url::Redacted;
use crate::output::{Format, Palette, print_best_effort};
use crate::webhook::inspect::{Inspector, RunningInspector};
use crate::webhook::journal::writer::JournalWriter;
use crate::webhook::scheme::SchemeOptions;
use crate::webhook::scheme::ed25519::AsymmetricKey;
use crate::webhook::secret::Secret;
use crate::webhook::verify::verifier::{SchemeSelection, Verifier};
use display::{Display, Style};
use receive::Receiver;

/// Everything `webhook listen` was told, as plain values.
#[derive(Debug, Clone)]
pub struct ListenConfig {
    pub addr: SocketAddr,
    /// Accept deliveries on this path only (others get 404); any path when `None`.
    pub path: Option<String>,
    /// The signing scheme, or auto among named ones (locked onto by the first valid delivery).
    pub scheme: SchemeSelection,
    pub scheme_options: SchemeOptions,
    pub secret: Secret,
    /// `--verify-token`: the token Meta's subscription check must carry.
    pub verify_token: Option<String>,
    /// `--confirm-subscriptions` (--scheme sns): visit an authentic SubscriptionConfirmation's
    /// SubscribeURL, on SNS's host only.
    pub confirm_subscriptions: bool,
    /// `--public-url`: the URL (or origin) the provider was given, for schemes that sign the URL;
    /// `None`: the local URL each request arrives at.
    pub public_url: Option<Uri>,
    pub tolerance: Duration,
    /// Record and answer invalid deliveries as if they were valid (and forward them).
    pub accept_invalid: bool,
    pub max_body: u64,
    /// The journal: a JSON line per delivery, appended before answering.
    pub record: Option<PathBuf>,
    pub fsync: bool,
    /// Pass valid deliveries on to exactly this URL and answer with its answer (the route `*`,
    /// after `routes`).
    pub forward_to: Option<Uri>,
    /// `--route GLOB=URL`: the first whose pattern matches the event type gets the delivery.
    pub routes: Vec<Route>,
    pub forward_timeout: Duration,
    pub forward_retry: ForwardRetry,
    /// Forward over HTTP/2 (prior knowledge on http://, ALPN on https://).
    pub forward_http2: bool,
    /// Answer 200 once journaled whatever the forward target said (else its answer is passed back).
    pub ack_always: bool,
    /// `--re-sign`: forward signed with this local secret, after verifying the provider's.
    pub re_sign: Option<Secret>,
    /// `--print-secret`: show the `--re-sign` secret in the banner, for the application's config.
    pub print_secret: bool,
    /// `--include-body`: the body in each `--format json` line.
    pub include_body: bool,
    /// Do not forward an event that was already acknowledged; acknowledge the repeat directly.
    pub dedupe: bool,
    /// How long an event id is remembered after its first authentic delivery.
    pub dedupe_window: Duration,
    /// How many event ids are remembered at most; the oldest is forgotten first.
    pub dedupe_max: usize,
    /// Answer accepted deliveries with this status.
    pub status: Option<StatusCode>,
    /// Answer the first N attempts of each event id with 500.
    pub fail_first: u32,
    /// Wait this long before answering.
    pub delay: Duration,
    /// How long a connection may stay silent, a TLS handshake or a request body stall.
    pub timeouts: Timeouts,
    pub output: Output,
    /// `--ui [ADDR]`: serve the inspector's page on this address (a port of its own).
    pub ui: Option<SocketAddr>,
    /// `--ui-path /_idem`: the inspector under this path of the listener's own port instead.
    pub ui_path: Option<String>,
}

/// Where deliveries are shown.
#[derive(Debug, Clone, Copy)]
pub enum Output {
    /// Nowhere: only counted (in-process listeners).
    Quiet,
    /// A line per delivery on stdout, headers and body too with `verbose`.
    Print { format: Format, palette: Palette, verbose: bool },
}

impl ListenConfig {
    /// `--route`s in order, then `--forward-to` as the route for every other event type.
    pub fn all_routes(&self) -> Vec<Route> {
        let mut routes = self.routes.clone();
        if let Some(target) = &self.forward_to {
            routes.push(Route { pattern: "*".to_string(), target: target.clone() });
        }
        routes
    }

    /// The defaults of `webhook listen` on a free loopback port, quiet: for the demo and tests.
    pub fn local(scheme: impl Into<SchemeSelection>, secret: Secret) -> ListenConfig {
        ListenConfig {
            addr: SocketAddr::from(([127, 0, 0, 1], 0)),
            path: None,
            scheme: scheme.into(),
            scheme_options: SchemeOptions::default(),
            secret,
            verify_token: None,
            confirm_subscriptions: false,
            public_url: None,
            tolerance: Duration::from_secs(300),
            accept_invalid: false,
            max_body: 1 << 20,
            record: None,
            fsync: false,
            forward_to: None,
            routes: Vec::new(),
            forward_timeout: Duration::from_secs(30),
            forward_retry: ForwardRetry { retries: 0, backoff: Duration::from_millis(500) },
            forward_http2: false,
            ack_always: false,
            re_sign: None,
            print_secret: false,
            include_body: false,
            dedupe: false,
            dedupe_window: dedupe::DEFAULT_WINDOW,
            dedupe_max: dedupe::DEFAULT_MAX_ENTRIES,
            status: None,
            fail_first: 0,
            delay: Duration::ZERO,
            timeouts: Timeouts::default(),
            output: Output::Quiet,
            ui: None,
            ui_path: None,
        }
    }
}

/// A listener running on the current runtime.
pub struct RunningListener {
    addr: SocketAddr,
    receiver: Arc<Receiver>,
    task: ServerTask,
    inspector: Option<RunningInspector>,
}

impl RunningListener {
    pub fn local_addr(&self) -> SocketAddr {
        self.addr
    }

    /// The URL of `path` on this listener.
    pub fn url(&self, path: &str) -> String {
        format!("http://{}{path}", self.addr)
    }

    /// The inspector's URL, token included (`--ui`).
    pub fn inspector_url(&self) -> Option<&str> {
        self.inspector.as_ref().map(|inspector| inspector.url.as_str())
    }

    /// Counts so far.
    pub fn summary(&self) -> ListenerTally {
        summary_of(&self.receiver)
    }

    /// How many event ids the de-duplication table holds (only authentic deliveries add one).
    pub fn remembered_events(&self) -> usize {
        self.receiver.events.len()
    }

    /// Stops accepting, lets deliveries in flight finish (up to a few seconds), then waits for
    /// those whose sender left (no more forward retries, the attempt under way finishes), flushes
    /// the journal to disk, prints what the display still holds, and returns the counts.
    pub async fn shutdown(self) -> ListenerTally {
        let RunningListener { receiver, task, inspector, .. } = self;
        task.stop().await;
        if let Some(inspector) = inspector {
            inspector.stop().await;
        }
        receiver.detached.finish().await;
        let finishing = Arc::clone(&receiver);
        let _ = tokio::task::spawn_blocking(move || {
            if let Some(journal) = &finishing.journal {
                // Best effort: every append already reached the kernel, this adds the disk.
                let _ = journal.sync();
            }
            finishing.display.finish();
        })
        .await;
        summary_of(&receiver)
    }
}

fn summary_of(receiver: &Receiver) -> ListenerTally {
    let mut summary = receiver.counter.snapshot();
    summary.not_shown = receiver.display.not_shown();
    summary
}

/// Binds and starts receiving; the first line shown is the banner with the URL.
pub async fn start(config: &ListenConfig) -> anyhow::Result<RunningListener> {
    let verifier =
        Verifier::new(&config.scheme, config.scheme_options.clone(), config.secret.clone())?.locking_on_first_valid();
    let sns_confirmer = match config.confirm_subscriptions {
        true => Some(config.scheme_options.certified.fetcher(crate::webhook::crypto::cert_url::CertProvider::Sns)?),
        false => None,
    };
    let journal = match &config.record {
        Some(path) => {
            let (writer, repair) = JournalWriter::open(path, config.fsync)?;
            if let (Some(repair), Output::Print { .. }) = (repair, config.output) {
                eprintln!("warning: {repair}");
            }
            Some(Arc::new(writer))
        }
        None => None,
    };
    let routes = config.all_routes();
    let (detached, stopping) = detached::Detached::new();
    let forwarder = match routes.is_empty() {
        false => Some(forward::Forwarder::new(
            routes.clone(),
            config.forward_timeout,
            config.forward_http2,
            config.forward_retry,
            stopping,
        )?),
        true => None,
    };
    let re_sign = match &config.re_sign {
        Some(secret) => {
            // A secret the scheme cannot use is a usage error now, not a 500 on every delivery.
            refuse_public_key(secret)?;
            if let SchemeSelection::Fixed(kind) = &config.scheme {
                crate::webhook::scheme::build(*kind, &config.scheme_options)
                    .signing_key(secret)
                    .with_context(|| format!("--re-sign: the local secret does not suit --scheme {kind}"))?;
            }
            Some(receive::ReSign { secret: secret.clone(), options: config.scheme_options.clone() })
        }
        None => None,
    };
    let (listener, addr) = crate::http::server::bind(config.addr).await?;
    for route in &routes {
        forward::refuse_self(&route.target, addr).await?;
    }
    let display = match config.output {
        Output::Quiet => Display::quiet(),
        Output::Print { format, palette, verbose } => {
            Display::printing(Style { format, palette, verbose, journaling: journal.is_some() })?
        }
    };
    // Queued before the first connection is accepted, so the banner is always the first line.
    display.text(banner(config, addr, &verifier.describe()));
    let receiver = Arc::new(Receiver {
        path: config.path.clone(),
        verifier,
        public_url: config.public_url.clone(),
        local_addr: addr,
        tolerance: config.tolerance,
        accept_invalid: config.accept_invalid,
        max_body: config.max_body,
        status: config.status,
        fail_first: config.fail_first,
        delay: config.delay,
        body_progress: config.timeouts.body_progress,
        dedupe: config.dedupe,
        events: dedupe::EventTable::new(config.dedupe_window, config.dedupe_max),
        hints: Arc::new(tokio::sync::Semaphore::new(HINT_WORKERS)),
        via: crate::http::forwarding_loop::via_name("webhook-listen"),
        journal,
        forwarder,
        ack_always: config.ack_always,
        include_body: config.include_body,
        re_sign,
        display,
        counter: summary::Counter::default(),
        detached,
        inspector: (config.ui.is_some() || config.ui_path.is_some()).then(|| {
            Inspector::new(crate::webhook::inspect::Signing {
                secret: Some(config.secret.clone()),
                options: config.scheme_options.clone(),
                forward_target: routes.first().map(|route| route.target.to_string()),
            })
        }),
        handshakes: handshake::HandshakeConfig {
            verify_token: config.verify_token.clone(),
            secret: Some(config.secret.clone()),
            sns_confirmer: sns_confirmer.map(Arc::new),
        },
    });
    let shared = Arc::clone(&receiver);
    let mounted = match (&receiver.inspector, &config.ui_path) {
        (Some(inspector), Some(prefix)) => {
            Some(Arc::new(crate::webhook::inspect::MountedInspector::new(Arc::clone(inspector), addr, prefix)))
        }
        _ => None,
    };
    let running_inspector = match (&receiver.inspector, config.ui, &mounted) {
        (Some(inspector), Some(ui), _) => Some(crate::webhook::inspect::serve(Arc::clone(inspector), ui).await?),
        (Some(_), None, Some(mounted)) => Some(mounted.running()),
        _ => None,
    };
    if let (Some(running), Output::Print { .. }) = (&running_inspector, &config.output) {
        eprintln!("inspector: {}", running.url);
    }
    let task = match mounted {
        None => ServerTask::spawn_with(listener, None, config.timeouts, None, move |remote| {
            let receiver = Arc::clone(&shared);
            service_fn(move |request| receive::handle(Arc::clone(&receiver), remote, request))
        }),
        // A service of its own, so a listener without --ui-path answers exactly as before.
        Some(mounted) => ServerTask::spawn_with(listener, None, config.timeouts, None, move |remote| {
            let (receiver, mounted) = (Arc::clone(&shared), Arc::clone(&mounted));
            service_fn(move |request| {
                let (receiver, mounted) = (Arc::clone(&receiver), Arc::clone(&mounted));
                async move {
                    if mounted.claims(request.uri().path()) {
                        mounted.handle(request).await.map(|answer| answer.map(http_body_util::Either::Right))
                    } else {
                        receive::handle(receiver, remote, request)
                            .await
                            .map(|answer| answer.map(http_body_util::Either::Left))
                    }
                }
            })
        }),
    };
    Ok(RunningListener { addr, receiver, task, inspector: running_inspector })
}

/// Refuses a `whpk_` key for `--re-sign`: a public key verifies but cannot sign, so every forward
/// would fail. Checked whatever the scheme (with `--scheme auto` no key is built at start-up).
fn refuse_public_key(secret: &Secret) -> anyhow::Result<()> {
    if let Some(Ok(AsymmetricKey::Public(_))) = AsymmetricKey::parse(secret.expose()) {
        anyhow::bail!(
            "--re-sign got a whpk_ key, the public half of an Ed25519 pair: it verifies signatures but cannot make \
             them; give the whsk_ secret key of the pair instead (`webhook secret --scheme standard --asymmetric` \
             makes a pair)"
        );
    }
    Ok(())
}

/// Hints worked out at once for invalid deliveries; the rest of a forged flood gets none.
const HINT_WORKERS: usize = 1;

/// `webhook listen`: receives until Ctrl-C, then prints the summary. Exits 1 when any delivery
/// had an invalid signature (even if `--accept-invalid` answered it 2xx), 0 otherwise.
pub(crate) async fn run(config: ListenConfig) -> anyhow::Result<Outcome> {
    let stop = StopSignal::register()?;
    let listener = start(&config).await?;
    stop.wait().await;
    let summary = listener.shutdown().await;
    if let Output::Print { format, palette, .. } = config.output {
        match format {
            Format::Human => print_best_effort(&format!("\n{}", summary.render_human(palette))),
            Format::Json => print_best_effort(&ListenLine::Summary { summary: &summary }.to_json()),
        }
    }
    Ok(if summary.invalid > 0 { Outcome::ProblemFound } else { Outcome::Holds })
}

/// The start-up lines: where to send webhooks first (tests read the port from it), then what the
/// listener does with them.
fn banner(config: &ListenConfig, addr: SocketAddr, scheme: &str) -> String {
    let url = format!("http://{addr}{}", config.path.as_deref().unwrap_or("/"));
    let Output::Print { format, palette, .. } = config.output else {
        return String::new();
    };
    let misbehaviour = misbehaviour(config);
    if format == Format::Json {
        let listening = ListeningLine {
            url,
            addr: addr.to_string(),
            scheme: scheme.to_string(),
            journal: config.record.as_ref().map(|path| path.display().to_string()),
            forward_to: config.forward_to.as_ref().map(|target| Redacted(target).to_string()),
            routes: config
                .all_routes()
                .iter()
                .map(|route| format!("{}={}", route.pattern, Redacted(&route.target)))
                .collect(),
            misbehaviour,
        };
        return ListenLine::Listening(&listening).to_json();
    }
    let mut lines = vec![format!(
        "{} {url} (scheme {scheme}, tolerance {})",
        palette.bold("webhook listen on"),
        crate::units::format_duration(config.tolerance)
    )];
    if let Some(path) = &config.record {
        let durability = if config.fsync { ", fsync on every append" } else { "" };
        lines.push(format!("journal: {}{durability}", path.display()));
    }
    let routes = config.all_routes();
    if !routes.is_empty() {
        let dedupe = if config.dedupe { " (duplicates answered here, not forwarded)" } else { "" };
        for route in &routes {
            lines.push(format!("forwarding {} to {}{dedupe}", route.pattern, Redacted(&route.target)));
        }
        let mut how = Vec::new();
        if config.forward_retry.retries > 0 {
            how.push(format!(
                "{} retries from {}",
                config.forward_retry.retries,
                crate::units::format_duration(config.forward_retry.backoff)
            ));
        }
        if config.forward_http2 {
            how.push("HTTP/2".to_string());
        }
        how.push(if config.ack_always {
            "acknowledged once journaled (--ack-always)".to_string()
        } else {
            "the application's status passed back (502 down, 504 timed out)".to_string()
        });
        lines.push(format!("forwards: {}", how.join(", ")));
    }
    if let Some(secret) = &config.re_sign {
        if config.print_secret {
            lines.push(format!(
                "re-signing forwards with the local secret {}",
                String::from_utf8_lossy(secret.expose())
            ));
        } else {
            lines.push("re-signing forwards with the local --re-sign secret (--print-secret shows it)".to_string());
        }
    }
    if !misbehaviour.is_empty() {
        lines.push(format!("{} {}", palette.yellow("misbehaving on purpose:"), misbehaviour.join(", ")));
    }
    lines.push(palette.dim("Ctrl-C stops the listener and prints a summary"));
    lines.join("\n")
}

fn misbehaviour(config: &ListenConfig) -> Vec<String> {
    let mut parts = Vec::new();
    if let Some(status) = config.status {
        parts.push(format!("every answer is {}", status.as_u16()));
    }
    if config.fail_first > 0 {
        parts.push(format!("the first {} attempt(s) of each event get 500", config.fail_first));
    }
    if !config.delay.is_zero() {
        parts.push(format!("answers wait {}", crate::units::format_duration(config.delay)));
    }
    if config.accept_invalid {
        parts.push("invalid signatures are accepted".to_string());
    }
    parts
}
