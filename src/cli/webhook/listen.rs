//! `webhook listen`: its flags, and the config they become.
use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

use anyhow::{Context, bail};
use http::StatusCode;

use super::verification::{Verification, VerificationArgs};
use crate::http::server::Timeouts;
use crate::http::url::parse_url;
use crate::output::{Format, Palette};
use crate::webhook::crypto::cert_url::CertProvider;
use crate::webhook::listen::{self, ForwardRetry, ListenConfig, Route};
use crate::webhook::scheme::SchemeKind;
use crate::webhook::secret::{Secret, parse_secret_arg};
use crate::webhook::verify::verifier::SchemeSelection;

#[derive(Debug, clap::Args)]
pub struct ListenArgs {
    /// The address to listen on (port 0 picks a free one, printed on the first line)
    #[arg(long, default_value = "127.0.0.1:9000", value_name = "ADDR")]
    pub addr: SocketAddr,

    /// Receive on this path only (others get 404) [default: any path]
    #[arg(long, value_name = "PATH")]
    pub path: Option<String>,

    #[command(flatten)]
    pub verification: VerificationArgs,

    /// The URL the provider was given, for schemes that sign it (twilio, square, hubspot): a whole
    /// webhook URL is signed as is; an origin (https://abc.tunnel.example) gets each request's path
    /// and query [default: the local URL the request arrived at]
    #[arg(long, value_name = "URL")]
    pub public_url: Option<String>,

    /// Answer deliveries with an invalid signature 2xx anyway (still recorded and shown as invalid)
    #[arg(long)]
    pub accept_invalid: bool,

    /// The verify token of Meta's subscription check (GET ?hub.mode=subscribe&hub.verify_token=…):
    /// the challenge is answered only to this token, 403 otherwise
    #[arg(long, value_name = "TOKEN", help_heading = "Handshakes")]
    pub verify_token: Option<String>,

    /// --scheme sns: confirm the subscription of an authentic SubscriptionConfirmation by visiting
    /// its SubscribeURL, only on SNS's host (through --trust-ca and --connect-to when given)
    #[arg(long, help_heading = "Handshakes")]
    pub confirm_subscriptions: bool,

    /// --verify-token read from a file (a trailing newline is dropped), out of `ps` and shell history
    #[arg(long, value_name = "FILE", conflicts_with = "verify_token", help_heading = "Handshakes")]
    pub verify_token_file: Option<PathBuf>,

    /// Bodies larger than this get 413 (at most 1GiB)
    #[arg(long, default_value = "1MiB", value_parser = crate::cli::bounded_size, value_name = "SIZE")]
    pub max_body: u64,

    /// Serve the inspector: a page listing deliveries live, at the URL printed as `inspector: URL`
    /// (its token included); on a port of its own at 127.0.0.1 unless ADDR is given
    #[arg(long, value_name = "ADDR", num_args = 0..=1, default_missing_value = "127.0.0.1:0", help_heading = "Journal")]
    pub ui: Option<std::net::SocketAddr>,

    /// Serve the inspector under this path of the listener's own address instead (e.g. /_idem),
    /// token-guarded the same; a delivery to it is refused, never taken for a webhook
    #[arg(long, value_name = "PREFIX", conflicts_with = "ui", help_heading = "Journal")]
    pub ui_path: Option<String>,

    /// Append every delivery to this JSON-lines journal before answering it (webhook replay reads it)
    #[arg(long, value_name = "FILE", help_heading = "Journal")]
    pub record: Option<PathBuf>,

    /// Flush each append to disk before answering, so even a power loss keeps acknowledged deliveries
    #[arg(long, requires = "record", help_heading = "Journal")]
    pub fsync: bool,

    /// Pass each accepted delivery on to exactly this URL and answer with its status and body (the
    /// route for every event type no --route claims)
    #[arg(long, value_name = "URL", help_heading = "Forwarding")]
    pub forward_to: Option<String>,

    /// Forward deliveries whose event type matches GLOB (`*` any run of characters, `?` one) to URL;
    /// repeatable, the first match wins, '*=URL' takes the rest (unmatched ones are acknowledged here)
    #[arg(long, value_name = "GLOB=URL", value_parser = parse_route, help_heading = "Forwarding")]
    pub route: Vec<Route>,

    /// Retry a forward that got no answer, a 5xx or a 429 this many times (at most 20), waiting
    /// --forward-backoff, then twice as long each time (at most 10s)
    #[arg(long, value_name = "N", default_value_t = 0, value_parser = clap::value_parser!(u32).range(0..=20), help_heading = "Forwarding")]
    pub forward_retries: u32,

    /// The wait before the first forward retry (at most 1m)
    #[arg(long, default_value = "500ms", value_parser = crate::cli::duration_at_most(crate::cli::MINUTE), allow_hyphen_values = true, value_name = "DUR", help_heading = "Forwarding")]
    pub forward_backoff: Duration,

    /// Acknowledge every accepted delivery 200 once journaled, whatever the forward target answered
    /// [default: pass the application's status back; 502 when it is down, 504 when it timed out]
    #[arg(long, help_heading = "Forwarding")]
    pub ack_always: bool,

    /// Forward over HTTP/2: prior knowledge (h2c) on http://, ALPN on https://
    #[arg(long, help_heading = "Forwarding")]
    pub forward_http2: bool,

    /// Verify the provider's signature, then forward signed again with this local secret (same
    /// scheme), so the application never holds the provider's secret
    #[arg(long, value_name = "SECRET", value_parser = parse_secret_arg, allow_hyphen_values = true, help_heading = "Forwarding")]
    pub re_sign: Option<Secret>,

    /// --re-sign's secret read from a file (a trailing newline is dropped), out of `ps` and shell
    /// history
    #[arg(long, value_name = "FILE", conflicts_with = "re_sign", help_heading = "Forwarding")]
    pub re_sign_file: Option<PathBuf>,

    /// Print the --re-sign secret in the start-up lines, for the application's configuration
    #[arg(long, help_heading = "Forwarding")]
    pub print_secret: bool,

    /// How long the forward target may take to answer before the sender gets 504 (at most 1h)
    #[arg(long, default_value = "30s", value_parser = crate::cli::duration_at_most(crate::cli::HOUR), allow_hyphen_values = true, value_name = "DUR", help_heading = "Forwarding")]
    pub forward_timeout: Duration,

    /// Answer a repeat of an acknowledged event directly instead of forwarding it again
    #[arg(long, help_heading = "Forwarding")]
    pub dedupe: bool,

    /// Remember an event id this long after its first valid delivery (at most 168h, a week)
    #[arg(long, default_value = "24h", value_parser = crate::cli::duration_at_most(crate::cli::DAY * 7), allow_hyphen_values = true, value_name = "DUR", help_heading = "Forwarding")]
    pub dedupe_window: Duration,

    /// Remember at most this many event ids; the oldest is forgotten first (at most 10000000)
    #[arg(long, value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=10_000_000), default_value_t = 100_000, value_name = "N", help_heading = "Forwarding")]
    pub dedupe_max: usize,

    /// Answer accepted deliveries with this status (e.g. 500 to make a sender retry)
    #[arg(long, value_name = "CODE", value_parser = parse_status, help_heading = "Misbehaviour")]
    pub status: Option<StatusCode>,

    /// Answer the first N attempts of each event id with 500; later attempts succeed (at most 1000)
    #[arg(long, value_parser = clap::value_parser!(u32).range(0..=1_000), value_name = "N", default_value_t = 0, help_heading = "Misbehaviour")]
    pub fail_first: u32,

    /// Wait this long before answering (to trip a sender's timeout) (at most 1h)
    #[arg(long, value_parser = crate::cli::duration_at_most(crate::cli::HOUR), allow_hyphen_values = true, value_name = "DUR", help_heading = "Misbehaviour")]
    pub delay: Option<Duration>,

    /// Close a connection after this long without a request being handled (silent, idle between
    /// requests, or still sending its headers); a request body stalling this long fails too (at most 1h)
    #[arg(long, default_value = "10s", value_parser = crate::cli::duration_at_most(crate::cli::HOUR), allow_hyphen_values = true, value_name = "DUR")]
    pub idle_timeout: Duration,

    /// Show each delivery's headers and body too
    #[arg(short, long)]
    pub verbose: bool,

    /// human: a colored line per delivery; json: a JSON line per delivery (see docs/json-output.md)
    #[arg(long, value_enum, default_value_t = Format::Human)]
    pub format: Format,

    /// With --format json: put each delivery's body in its line too
    #[arg(long)]
    pub include_body: bool,
}

fn parse_route(text: &str) -> Result<Route, String> {
    Route::parse(text).map_err(|err| format!("{err:#}"))
}

/// A final HTTP status a listener can answer with.
fn parse_status(text: &str) -> Result<StatusCode, String> {
    text.trim()
        .parse::<u16>()
        .ok()
        .filter(|code| (200..=599).contains(code))
        .and_then(|code| StatusCode::from_u16(code).ok())
        .ok_or_else(|| format!("`{text}` is not a final HTTP status; give a number from 200 to 599"))
}

impl ListenArgs {
    pub fn into_config(self, palette: Palette) -> anyhow::Result<ListenConfig> {
        let Verification { scheme, options: scheme_options, secret, tolerance } =
            self.verification.into_verification()?;
        if self.max_body == 0 {
            bail!("--max-body 0 would refuse every delivery with a body; give a size such as 64KiB or 1MiB");
        }
        if self.idle_timeout.is_zero() {
            bail!("--idle-timeout 0 would close every connection at once; give a duration such as 10s");
        }
        if self.dedupe_max == 0 || self.dedupe_window.is_zero() {
            bail!("--dedupe-window and --dedupe-max must be above 0: nothing remembered, every repeat looks new");
        }
        let sns = SchemeSelection::Fixed(SchemeKind::Certified(CertProvider::Sns));
        if self.confirm_subscriptions && scheme != sns {
            bail!("--confirm-subscriptions confirms AWS SNS subscriptions: it goes with --scheme sns");
        }
        let secret = secret.load()?;
        let forward_to = self.forward_to.as_deref().map(parse_url).transpose().context("--forward-to")?;
        if self.dedupe && forward_to.is_none() && self.route.is_empty() {
            bail!("--dedupe keeps repeats from being forwarded: it needs --forward-to or --route");
        }
        if self.forward_retries > 0 && forward_to.is_none() && self.route.is_empty() {
            bail!("--forward-retries retries forwards: it needs --forward-to or --route");
        }
        let ui_path = match self.ui_path {
            Some(prefix) => Some(checked_ui_path(&prefix, self.path.as_deref())?),
            None => None,
        };
        let path = match self.path {
            Some(path) if !path.starts_with('/') => bail!("--path `{path}` must start with /"),
            path => path,
        };
        let re_sign = match (self.re_sign, &self.re_sign_file) {
            (None, Some(file)) => Some(Secret::from_file(file).context("--re-sign-file")?),
            (given, _) => given,
        };
        if self.print_secret && re_sign.is_none() {
            bail!("--print-secret prints the --re-sign secret: it needs --re-sign or --re-sign-file");
        }
        let verify_token = super::signing::verify_token(self.verify_token, self.verify_token_file.as_deref())?;
        Ok(ListenConfig {
            addr: self.addr,
            path,
            scheme,
            scheme_options,
            secret,
            verify_token,
            confirm_subscriptions: self.confirm_subscriptions,
            public_url: self.public_url.as_deref().map(parse_url).transpose().context("--public-url")?,
            tolerance,
            accept_invalid: self.accept_invalid,
            max_body: self.max_body,
            record: self.record,
            fsync: self.fsync,
            forward_to,
            routes: self.route,
            forward_timeout: self.forward_timeout,
            forward_retry: ForwardRetry { retries: self.forward_retries, backoff: self.forward_backoff },
            forward_http2: self.forward_http2,
            ack_always: self.ack_always,
            re_sign,
            print_secret: self.print_secret,
            include_body: self.include_body,
            dedupe: self.dedupe,
            dedupe_window: self.dedupe_window,
            dedupe_max: self.dedupe_max,
            status: self.status,
            fail_first: self.fail_first,
            delay: self.delay.unwrap_or_default(),
            timeouts: Timeouts { idle: self.idle_timeout, body_progress: self.idle_timeout, ..Timeouts::default() },
            output: listen::Output::Print { format: self.format, palette, verbose: self.verbose },
            ui: self.ui,
            ui_path,
        })
    }
}

/// `--ui-path`: `/` and a name, without a trailing `/`, a query or a fragment, and apart from
/// `--path` (deliveries there would reach the inspector).
fn checked_ui_path(prefix: &str, path: Option<&str>) -> anyhow::Result<String> {
    let trimmed = prefix.trim_end_matches('/');
    if !trimmed.starts_with('/') || trimmed.len() < 2 || trimmed.contains(['?', '#', ' ']) {
        bail!("--ui-path `{prefix}` must be a path such as /_idem: a / and a name, no query");
    }
    if let Some(path) = path {
        // --path is matched exactly: it collides when it is the prefix or under it.
        if path.strip_prefix(trimmed).is_some_and(|rest| rest.is_empty() || rest.starts_with('/')) {
            bail!("--ui-path `{prefix}` overlaps --path `{path}`: deliveries and the inspector need paths apart");
        }
    }
    Ok(trimmed.to_string())
}
