//! Retries, timeouts and the proxy: the flags `webhook send` and `webhook replay` share.
use std::time::Duration;

use clap::Args;

use crate::cli::outbound_proxy::OutboundProxyArgs;
use crate::retry::{Backoff, DEFAULT_BACKOFF_MAX, RetryPolicy};
use crate::webhook::deliver::engine::{DEFAULT_TIMEOUT, DeliverOptions};
use crate::webhook::deliver::personality::{self, Personality};
use crate::webhook::deliver::retry::{parse_schedule, parse_time_scale};

/// `--max-attempts` and `--backoff` unless given (and no provider's schedule applies).
const DEFAULT_MAX_ATTEMPTS: u32 = 5;
const DEFAULT_BACKOFF: Duration = Duration::from_secs(1);

/// `--schedule`, parsed: the delay before each attempt.
#[derive(Debug, Clone, PartialEq)]
pub struct Schedule(pub Vec<Duration>);

fn schedule_arg(text: &str) -> Result<Schedule, String> {
    parse_schedule(text).map(Schedule)
}

/// Retries and timeouts, shared by `send` and `replay`.
#[derive(Debug, Clone, Args)]
#[command(next_help_heading = "Delivery")]
pub struct DeliveryArgs {
    /// Deliver as this provider does: its retry schedule and timeout (unless --schedule,
    /// --max-attempts, --backoff or --timeout say otherwise), its User-Agent, retry headers and
    /// delivery ids. GitHub never retries; Slack retries at once, after 1m and 5m, with
    /// X-Slack-Retry-Num/-Reason, without waiting past 3s for the attempt before [default: the
    /// provider of --event PROVIDER:TYPE]
    #[arg(long = "as", value_name = "PROVIDER", value_parser = clap::builder::PossibleValuesParser::new(personality::NAMES))]
    pub as_provider: Option<String>,

    /// Give up after this many attempts (exponential backoff) (at most 100) [default: 5, or the
    /// provider's count with --as or --event PROVIDER:TYPE]
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=100))]
    pub max_attempts: Option<u32>,

    /// The backoff cap before the first retry; it doubles for each further retry, and the wait
    /// is a random time below it (full jitter) (at most 24h) [default: 1s]
    #[arg(long, value_name = "DUR", value_parser = crate::cli::duration_at_most(crate::cli::DAY), allow_hyphen_values = true)]
    pub backoff: Option<Duration>,

    /// The backoff cap never grows beyond this (at most 24h) [default: 1h]
    #[arg(long, value_name = "DUR", value_parser = crate::cli::duration_at_most(crate::cli::DAY), allow_hyphen_values = true)]
    pub backoff_max: Option<Duration>,

    /// The delay before each attempt instead of backoff, e.g. 0s,5s,5m,30m (one attempt per
    /// delay); `standard` is the Standard Webhooks schedule (0s,5s,5m,30m,2h,5h,10h,14h,20h,24h),
    /// `stripe-test` three attempts over three hours (0s,1h,2h) like Stripe's test mode
    #[arg(long, value_name = "DELAYS", value_parser = schedule_arg,
          conflicts_with_all = ["max_attempts", "backoff", "backoff_max"])]
    pub schedule: Option<Schedule>,

    /// Multiply every wait (backoff, schedule, Retry-After) by this factor; 0.001 turns hours
    /// into seconds for a local run
    #[arg(long, value_name = "FACTOR", default_value = "1", value_parser = parse_time_scale)]
    pub time_scale: f64,

    /// How long one attempt may take, connecting included (at most 1h) [default: 10s, as GitHub
    /// allows, or the provider's with --as or --event PROVIDER:TYPE: Slack's 3s]
    #[arg(long, value_name = "DUR", value_parser = crate::cli::duration_at_most(crate::cli::HOUR), allow_hyphen_values = true)]
    pub timeout: Option<Duration>,

    /// Accept any TLS certificate (self-signed local receivers)
    #[arg(short = 'k', long)]
    pub insecure: bool,

    /// Send at most this many requests, attempts and retries included: the run stops before the
    /// one that would exceed it, with exit status 2
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub max_requests: Option<u64>,

    #[command(flatten)]
    pub proxy: OutboundProxyArgs,
}

impl DeliveryArgs {
    /// The provider `--as` names, else `default` (the provider of `--event PROVIDER:TYPE`).
    pub fn personality(&self, default: Option<&'static Personality>) -> Option<&'static Personality> {
        self.as_provider.as_deref().and_then(personality::named).or(default)
    }

    /// The delivery options, as the provider (`--as`, else `default`) delivers where no flag says otherwise: a flag of the
    /// retry policy (`--schedule`, `--max-attempts`, `--backoff`, `--backoff-max`) replaces the
    /// provider's schedule, and `--timeout` its timeout.
    pub fn into_options(self, default: Option<&'static Personality>) -> anyhow::Result<DeliverOptions> {
        let personality = self.personality(default);
        let timeout = self.timeout.or(personality.and_then(|p| p.timeout)).unwrap_or(DEFAULT_TIMEOUT);
        if timeout.is_zero() {
            anyhow::bail!("--timeout must be longer than 0");
        }
        let initial = self.backoff.unwrap_or(DEFAULT_BACKOFF);
        let max = self.backoff_max.unwrap_or(DEFAULT_BACKOFF_MAX);
        if self.schedule.is_none() && max < initial {
            anyhow::bail!(
                "--backoff-max {} is below --backoff {}: the cap would be lower than the first wait; give a --backoff-max of at least {}",
                crate::units::format_flag_duration(max),
                crate::units::format_flag_duration(initial),
                crate::units::format_flag_duration(initial)
            );
        }
        let flags_set_policy = self.max_attempts.is_some() || self.backoff.is_some() || self.backoff_max.is_some();
        let provider_schedule = personality.and_then(Personality::delays).filter(|_| !flags_set_policy);
        let backoff = match (self.schedule, provider_schedule) {
            (Some(Schedule(delays)), _) | (None, Some(delays)) => Backoff::Schedule(delays),
            (None, None) => {
                Backoff::Exponential { max_attempts: self.max_attempts.unwrap_or(DEFAULT_MAX_ATTEMPTS), initial, max }
            }
        };
        Ok(DeliverOptions {
            policy: RetryPolicy { backoff, time_scale: self.time_scale },
            timeout,
            insecure: self.insecure,
            proxies: self.proxy.resolve()?,
            budget: crate::http::budget::RequestBudget::at_most(self.max_requests),
            personality,
        })
    }
}
