//! `webhook race`: its flags, and the config they become.
use std::time::Duration;

use clap::Args;

use super::signing::{PayloadArgs, SigningArgs};
use crate::cli::count_args::CountArgs;
use crate::http::url::{parse_url, split_credentials};
use crate::output::{Palette, ReportFormat};
use crate::webhook::race::RaceConfig;
use crate::webhook::scheme::{self, SchemeKind};

#[derive(Debug, Args)]
#[command(after_help = "Exit status: 0 every round's copies were processed once by the --count-url count, or \
nothing was counted (without --count-url the answers are printed and executions are not judged); 1 some round's \
copies were processed more than once; 2 could not run or judge (bad usage, an unreachable receiver, no copy \
answered, a count that does not show what the copies did).")]
pub struct RaceArgs {
    /// The receiver (http or https; http:// is assumed without a scheme)
    #[arg(value_name = "URL")]
    pub url: String,

    #[command(flatten)]
    pub payload: PayloadArgs,

    /// The signing scheme the receiver verifies [default: the template's provider with --event
    /// PROVIDER:TYPE]
    #[arg(long, value_enum)]
    pub scheme: Option<SchemeKind>,

    #[command(flatten)]
    pub signing: SigningArgs,

    /// Use this delivery id (and envelope event id) instead of a fresh one per round
    #[arg(long, value_name = "ID")]
    pub id: Option<String>,

    /// Identical copies released together per round (at least 2, at most 1000)
    #[arg(short = 'n', long = "requests", value_name = "N", default_value_t = 10, value_parser = clap::value_parser!(u32).range(2..=1_000))]
    pub n: u32,

    /// Rounds to run, each with a fresh delivery (at most 10000)
    #[arg(long, value_name = "R", default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=10_000))]
    pub rounds: u32,

    /// Send at most this many copies in all (--count-url reads not counted): the race stops before
    /// the round that would exceed it, with exit status 2
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub max_requests: Option<u64>,

    #[command(flatten)]
    pub count: CountArgs,

    /// The receiver speaks HTTP/2 with prior knowledge on http:// (h2c): the copies go as one HTTP/2
    /// single packet (on https, ALPN decides)
    #[arg(long)]
    pub http2: bool,

    /// Accept any TLS certificate (self-signed local receivers)
    #[arg(short = 'k', long)]
    pub insecure: bool,

    /// How long each copy's answer may take (at most 1h)
    #[arg(long, value_name = "DUR", default_value = "10s", value_parser = crate::cli::duration_at_most(crate::cli::HOUR), allow_hyphen_values = true)]
    pub timeout: Duration,

    #[arg(long, value_enum, default_value_t = ReportFormat::Human)]
    pub format: ReportFormat,
}

impl RaceArgs {
    pub fn into_config(self, palette: Palette) -> anyhow::Result<RaceConfig> {
        // As curl: `user:password@` in the URL is Basic auth, and never printed.
        let (url, credentials) = split_credentials(parse_url(&self.url)?)?;
        if self.timeout.is_zero() {
            anyhow::bail!("--timeout must be longer than 0");
        }
        if let Some(id) = &self.id {
            super::send::check_id(id)?;
        }
        let payload = self.payload.source()?;
        let Some(kind) = self.signing.scheme_or_file(self.scheme)?.or(payload.provider_scheme()) else {
            anyhow::bail!(
                "name the receiver's signing scheme with --scheme (hmac, github, stripe, standard, slack or shopify): \
                 copies it cannot verify are refused, and a race of refusals shows nothing"
            );
        };
        let options = self.signing.scheme_options(Some(kind))?;
        Ok(RaceConfig {
            url,
            credentials,
            scheme: scheme::build(kind, &options).into(),
            secret: self.signing.secret_source()?,
            payload,
            id: self.id,
            copies: self.n as usize,
            rounds: self.rounds as usize,
            count: self.count.into_source("webhook race", &http::HeaderMap::new(), self.timeout, self.insecure)?,
            http2: self.http2,
            insecure: self.insecure,
            timeout: self.timeout,
            format: self.format,
            palette,
            budget: {
                let budget = crate::http::budget::RequestBudget::at_most(self.max_requests);
                budget.announce(crate::http::budget::Needed::Exactly(u64::from(self.n) * u64::from(self.rounds)));
                budget
            },
        })
    }
}
