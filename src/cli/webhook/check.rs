//! `webhook check`: its flags, and the config they become.
use std::time::Duration;

use anyhow::Context;
use clap::Args;

use super::signing::SigningArgs;
use crate::cli::count_args::CountArgs;
use crate::cli::outbound_proxy::OutboundProxyArgs;
use crate::cli::suite_args::SuiteArgs;
use crate::conformance::SuiteFormat;
use crate::http::url::parse_url;
use crate::output::Palette;
use crate::webhook::check::CheckConfig;
use crate::webhook::check::payload::CheckPayload;
use crate::webhook::scheme::{self, SchemeKind};

#[derive(Debug, Args)]
pub struct CheckArgs {
    /// The receiver to check (http or https; http:// is assumed without a scheme)
    #[arg(value_name = "URL", required_unless_present = "list")]
    pub url: Option<String>,

    /// The signing scheme the receiver verifies (required: signing with another would make every
    /// rejection pass for the wrong reason)
    #[arg(long, value_enum)]
    pub scheme: Option<SchemeKind>,

    #[command(flatten)]
    pub count: CountArgs,

    /// How many identical copies of one delivery concurrent-duplicates-processed-once releases
    /// together (at least 2, at most 1000)
    #[arg(short = 'n', long = "concurrency", value_name = "N", default_value_t = 10, value_parser = clap::value_parser!(u32).range(2..=1000))]
    pub concurrency: u32,

    /// The receiver speaks HTTP/2 with prior knowledge on http:// (h2c): the concurrent copies go
    /// as one HTTP/2 single packet (on https, ALPN decides)
    #[arg(long)]
    pub http2: bool,

    #[command(flatten)]
    pub signing: SigningArgs,

    /// Valid deliveries are events of this type (the receiver must handle it) [default: webhook.check]
    #[arg(long, value_name = "TYPE", help_heading = "Payload")]
    pub event: Option<String>,

    /// Valid deliveries carry this body (DATA, @file or @-; a JSON object's top-level id is made
    /// fresh per delivery); with --event, the JSON for the envelope's `data`
    #[arg(short = 'd', long = "data", value_name = "DATA", help_heading = "Payload")]
    pub data: Option<String>,

    /// The receiver's timestamp tolerance; stale and future deliveries are signed 10 minutes or
    /// twice this from now, whichever is further (at most 24h)
    #[arg(long, value_name = "DUR", default_value = "5m", value_parser = crate::cli::duration_at_most(crate::cli::DAY), allow_hyphen_values = true)]
    pub tolerance: Duration,

    /// How long each request may take before it counts as unanswered (at most 1h)
    #[arg(long, value_name = "DUR", default_value = "10s", value_parser = crate::cli::duration_at_most(crate::cli::HOUR), allow_hyphen_values = true)]
    pub timeout: Duration,

    /// How fast the valid delivery must be acknowledged for fast-ack (Slack retries after 3s,
    /// GitHub gives up after 10s) (at most 1m)
    #[arg(long, value_name = "DUR", default_value = "3s", value_parser = crate::cli::duration_at_most(crate::cli::MINUTE), allow_hyphen_values = true)]
    pub ack_within: Duration,

    /// Accept any TLS certificate (self-signed local receivers)
    #[arg(short = 'k', long)]
    pub insecure: bool,

    /// Send at most this many requests to the receiver (--count-url reads not counted): the
    /// suite stops before the one that would exceed it, with exit status 2
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub max_requests: Option<u64>,

    #[command(flatten)]
    pub proxy: OutboundProxyArgs,

    #[arg(long, value_enum, default_value_t = SuiteFormat::Human)]
    pub format: SuiteFormat,

    #[command(flatten)]
    pub suite: SuiteArgs,
}

impl CheckArgs {
    pub fn into_config(self, palette: Palette) -> anyhow::Result<CheckConfig> {
        let selection = self.suite.selection("webhook check", crate::webhook::check::catalogue::CHECKS)?;
        let url = parse_url(self.url.as_deref().context("give the receiver's URL")?)?;
        if self.timeout.is_zero() {
            anyhow::bail!("--timeout must be longer than 0");
        }
        let Some(kind) = self.signing.scheme_or_file(self.scheme)? else {
            anyhow::bail!(
                "name the receiver's signing scheme with --scheme (hmac, github, stripe, standard, slack or shopify): \
                 signed with a scheme the receiver does not use, every delivery is refused and every rejection \
                 check passes for the wrong reason"
            );
        };
        let options = self.signing.scheme_options(Some(kind))?;
        Ok(CheckConfig {
            url,
            scheme: scheme::build(kind, &options),
            count: self.count.into_source("webhook check", &http::HeaderMap::new(), self.timeout, self.insecure)?,
            concurrency: self.concurrency as usize,
            http2: self.http2,
            secret: self.signing.secret_source()?,
            payload: CheckPayload::from_flags(self.event, self.data.as_deref())?,
            tolerance: self.tolerance,
            timeout: self.timeout,
            ack_within: self.ack_within,
            insecure: self.insecure,
            proxies: self.proxy.resolve()?,
            format: self.format,
            palette,
            selection,
            budget: crate::http::budget::RequestBudget::at_most(self.max_requests),
            webhook_id: options.certified.webhook_id.clone(),
        })
    }
}
