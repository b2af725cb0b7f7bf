//! `webhook check`: its flags, and the config they become.
use std::time::Duration;

use anyhow::Context;
use clap::Args;

use super::signing::SigningArgs;
use crate::cli::outbound_proxy::OutboundProxyArgs;
use crate::cli::suite_args::SuiteArgs;
use crate::conformance::SuiteFormat;
use crate::http::url::parse_url;
use crate::output::Palette;
use crate::webhook::check::CheckConfig;
use crate::webhook::scheme::{self, SchemeKind};

#[derive(Debug, Args)]
pub struct CheckArgs {
    /// The receiver to check (http or https; http:// is assumed without a scheme)
    #[arg(value_name = "URL", required_unless_present = "list")]
    pub url: Option<String>,

    /// The signing scheme the receiver verifies
    #[arg(long, value_enum, default_value_t = SchemeKind::Hmac)]
    pub scheme: SchemeKind,

    #[command(flatten)]
    pub signing: SigningArgs,

    /// The receiver's timestamp tolerance; stale and future deliveries are signed 10 minutes or
    /// twice this from now, whichever is further
    #[arg(long, value_name = "DUR", default_value = "5m", value_parser = crate::cli::positive_duration, allow_hyphen_values = true)]
    pub tolerance: Duration,

    /// How long each request may take before it counts as unanswered
    #[arg(long, value_name = "DUR", default_value = "10s", value_parser = crate::cli::positive_duration, allow_hyphen_values = true)]
    pub timeout: Duration,

    /// How fast the valid delivery must be acknowledged for fast-ack (Slack retries after 3s,
    /// GitHub gives up after 10s)
    #[arg(long, value_name = "DUR", default_value = "3s", value_parser = crate::cli::positive_duration, allow_hyphen_values = true)]
    pub ack_within: Duration,

    /// Accept any TLS certificate (self-signed local receivers)
    #[arg(short = 'k', long)]
    pub insecure: bool,

    #[command(flatten)]
    pub proxy: OutboundProxyArgs,

    #[arg(long, value_enum, default_value_t = SuiteFormat::Human)]
    pub format: SuiteFormat,

    #[command(flatten)]
    pub suite: SuiteArgs,
}

impl CheckArgs {
    pub fn into_config(self, palette: Palette) -> anyhow::Result<CheckConfig> {
        let selection = self.suite.selection("webhook check", crate::webhook::check::suite::CHECKS)?;
        let url = parse_url(self.url.as_deref().context("give the receiver's URL")?)?;
        if self.timeout.is_zero() {
            anyhow::bail!("--timeout must be longer than 0");
        }
        let options = self.signing.scheme_options(Some(self.scheme))?;
        Ok(CheckConfig {
            url,
            scheme: scheme::build(self.scheme, &options),
            secret: self.signing.secret_source()?,
            tolerance: self.tolerance,
            timeout: self.timeout,
            ack_within: self.ack_within,
            insecure: self.insecure,
            proxies: self.proxy.resolve()?,
            format: self.format,
            palette,
            selection,
        })
    }
}
