//! Retries, timeouts and the proxy: the flags `webhook send` and `webhook replay` share.
use std::time::Duration;

use clap::Args;

use crate::cli::outbound_proxy::OutboundProxyArgs;
use crate::retry::{Backoff, RetryPolicy};
use crate::webhook::deliver::engine::DeliverOptions;
use crate::webhook::deliver::retry::{parse_schedule, parse_time_scale};

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
    /// Give up after this many attempts (exponential backoff) (at most 100)
    #[arg(long, value_name = "N", default_value_t = 5, value_parser = clap::value_parser!(u32).range(1..=100))]
    pub max_attempts: u32,

    /// The backoff cap before the first retry; it doubles for each further retry, and the wait
    /// is a random time below it (full jitter) (at most 24h)
    #[arg(long, value_name = "DUR", default_value = "1s", value_parser = crate::cli::duration_at_most(crate::cli::DAY), allow_hyphen_values = true)]
    pub backoff: Duration,

    /// The backoff cap never grows beyond this (at most 24h)
    #[arg(long, value_name = "DUR", default_value = "1h", value_parser = crate::cli::duration_at_most(crate::cli::DAY), allow_hyphen_values = true)]
    pub backoff_max: Duration,

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

    /// How long one attempt may take, connecting included (GitHub allows 10s) (at most 1h)
    #[arg(long, value_name = "DUR", default_value = "10s", value_parser = crate::cli::duration_at_most(crate::cli::HOUR), allow_hyphen_values = true)]
    pub timeout: Duration,

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
    pub fn into_options(self) -> anyhow::Result<DeliverOptions> {
        if self.timeout.is_zero() {
            anyhow::bail!("--timeout must be longer than 0");
        }
        if self.schedule.is_none() && self.backoff_max < self.backoff {
            anyhow::bail!(
                "--backoff-max {} is below --backoff {}: the cap would be lower than the first wait; give a --backoff-max of at least {}",
                crate::units::format_flag_duration(self.backoff_max),
                crate::units::format_flag_duration(self.backoff),
                crate::units::format_flag_duration(self.backoff)
            );
        }
        let backoff = match self.schedule {
            Some(Schedule(delays)) => Backoff::Schedule(delays),
            None => {
                Backoff::Exponential { max_attempts: self.max_attempts, initial: self.backoff, max: self.backoff_max }
            }
        };
        Ok(DeliverOptions {
            policy: RetryPolicy { backoff, time_scale: self.time_scale },
            timeout: self.timeout,
            insecure: self.insecure,
            proxies: self.proxy.resolve()?,
            budget: crate::http::budget::RequestBudget::at_most(self.max_requests),
        })
    }
}
