//! `webhook send|replay|check`: the clap definitions of the commands that talk to a receiver, and
//! their translation into the engine's config structs.
use std::path::PathBuf;
use std::time::Duration;

use clap::Args;

use crate::cli::webhook::{PayloadArgs, SigningArgs};
use crate::conformance::SuiteFormat;
use crate::http::request::parse_url;
use crate::output::{Format, Palette};
use crate::units::parse_duration;
use crate::webhook::check::CheckConfig;
use crate::webhook::deliver::DeliverOptions;
use crate::webhook::replay::{Filter, Rate, ReplayConfig, ReplaySigning, parse_rate};
use crate::webhook::retry::{Backoff, RetryPolicy, parse_schedule, parse_time_scale};
use crate::webhook::scheme::{self, SchemeKind};
use crate::webhook::send::SendConfig;

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
    /// Give up after this many attempts (exponential backoff)
    #[arg(long, value_name = "N", default_value_t = 5, value_parser = clap::value_parser!(u32).range(1..))]
    pub max_attempts: u32,

    /// The backoff cap before the first retry; it doubles for each further retry, and the wait
    /// is a random time below it (full jitter)
    #[arg(long, value_name = "DUR", default_value = "1s", value_parser = parse_duration)]
    pub backoff: Duration,

    /// The backoff cap never grows beyond this
    #[arg(long, value_name = "DUR", default_value = "1h", value_parser = parse_duration)]
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

    /// How long one attempt may take, connecting included (GitHub allows 10s)
    #[arg(long, value_name = "DUR", default_value = "10s", value_parser = parse_duration)]
    pub timeout: Duration,

    /// Accept any TLS certificate (self-signed local receivers)
    #[arg(short = 'k', long)]
    pub insecure: bool,
}

impl DeliveryArgs {
    pub fn into_options(self) -> anyhow::Result<DeliverOptions> {
        if self.timeout.is_zero() {
            anyhow::bail!("--timeout must be longer than 0");
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
        })
    }
}

#[derive(Debug, Args)]
#[command(after_help = "Exit status: 0 delivered; 1 not delivered after the last attempt or stopped by \
410 Gone (a refused connection or a timeout is retried, as providers do, and named on every attempt \
line); 2 could not run (bad usage, an unreadable body or secret).")]
pub struct SendArgs {
    /// Where to deliver (http or https; http:// is assumed without a scheme)
    #[arg(value_name = "URL")]
    pub url: String,

    #[command(flatten)]
    pub payload: PayloadArgs,

    /// The signing scheme
    #[arg(long, value_enum, default_value_t = SchemeKind::Hmac)]
    pub scheme: SchemeKind,

    #[command(flatten)]
    pub signing: SigningArgs,

    /// Use this delivery id (and envelope event id) instead of a fresh one
    #[arg(long, value_name = "ID")]
    pub id: Option<String>,

    /// Deliver the same event this many times, as a provider's duplicate deliveries do
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=10_000))]
    pub times: u32,

    /// How many of the --times deliveries run at once
    #[arg(long, value_name = "C", default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=1_000))]
    pub concurrency: u32,

    #[command(flatten)]
    pub delivery: DeliveryArgs,

    #[arg(long, value_enum, default_value_t = Format::Human)]
    pub format: Format,
}

impl SendArgs {
    pub fn into_config(self, palette: Palette) -> anyhow::Result<SendConfig> {
        let url = parse_url(&self.url)?;
        let options = self.signing.scheme_options(Some(self.scheme))?;
        Ok(SendConfig {
            url,
            scheme: scheme::build(self.scheme, &options),
            secret: self.signing.secret_source()?,
            payload: self.payload.source()?,
            id: self.id,
            delivery: self.delivery.into_options()?,
            times: self.times as usize,
            concurrency: self.concurrency as usize,
            format: self.format,
            palette,
        })
    }
}

#[derive(Debug, Args)]
#[command(after_help = "Entries are delivered one after another in file order, each with the retries \
of `webhook send`; a 410 Gone stops the replay. Exit status: 0 every selected entry delivered; 1 some \
not delivered; 2 could not run (bad usage, an unreadable or malformed file, nothing selected).")]
pub struct ReplayArgs {
    /// The journal of `webhook listen --record`, or a JSON-lines file of events (one JSON object
    /// per line, its `id` and `type` taken as the event's)
    #[arg(value_name = "FILE")]
    pub file: PathBuf,

    /// Where to deliver (http or https; http:// is assumed without a scheme)
    #[arg(value_name = "URL")]
    pub url: String,

    /// The signing scheme to re-sign with
    #[arg(long, value_enum, default_value_t = SchemeKind::Hmac)]
    pub scheme: SchemeKind,

    #[command(flatten)]
    pub signing: SigningArgs,

    /// Sign every entry again with a fresh timestamp, keeping the recorded delivery id (the default)
    #[arg(long, help_heading = "Replay")]
    pub resign: bool,

    /// Send the recorded headers unchanged, stale signature included, to check that the receiver
    /// refuses a replay (needs no secret)
    #[arg(long, conflicts_with_all = ["resign", "secret", "secret_file"], help_heading = "Replay")]
    pub verbatim: bool,

    /// Only entries of this event type (repeatable)
    #[arg(long, value_name = "TYPE", help_heading = "Replay")]
    pub event_type: Vec<String>,

    /// Only the entry with this event id (repeatable)
    #[arg(long, value_name = "ID", help_heading = "Replay")]
    pub id: Vec<String>,

    /// With re-signing, also replay deliveries the listener recorded as invalid (they become valid)
    #[arg(long, conflicts_with = "verbatim", help_heading = "Replay")]
    pub include_invalid: bool,

    /// Start at most this many deliveries per second, minute or hour: 10/s, 30/m, 100/h, 1/5s
    #[arg(long, value_name = "N/UNIT", value_parser = parse_rate, help_heading = "Replay")]
    pub rate: Option<Rate>,

    #[command(flatten)]
    pub delivery: DeliveryArgs,

    #[arg(long, value_enum, default_value_t = Format::Human)]
    pub format: Format,
}

impl ReplayArgs {
    pub fn into_config(self, palette: Palette) -> anyhow::Result<ReplayConfig> {
        let url = parse_url(&self.url)?;
        let signing = if self.verbatim {
            ReplaySigning::Verbatim
        } else {
            let options = self.signing.scheme_options(Some(self.scheme))?;
            ReplaySigning::Resign {
                scheme: scheme::build(self.scheme, &options),
                options,
                secret: self.signing.secret_source()?,
            }
        };
        Ok(ReplayConfig {
            file: self.file,
            url,
            signing,
            filter: Filter { event_types: self.event_type, ids: self.id },
            include_invalid: self.include_invalid,
            rate: self.rate,
            delivery: self.delivery.into_options()?,
            format: self.format,
            palette,
        })
    }
}

#[derive(Debug, Args)]
pub struct CheckArgs {
    /// The receiver to check (http or https; http:// is assumed without a scheme)
    #[arg(value_name = "URL")]
    pub url: String,

    /// The signing scheme the receiver verifies
    #[arg(long, value_enum, default_value_t = SchemeKind::Hmac)]
    pub scheme: SchemeKind,

    #[command(flatten)]
    pub signing: SigningArgs,

    /// The receiver's timestamp tolerance; stale and future deliveries are signed 10 minutes or
    /// twice this from now, whichever is further
    #[arg(long, value_name = "DUR", default_value = "5m", value_parser = parse_duration)]
    pub tolerance: Duration,

    /// How long each request may take before it counts as unanswered
    #[arg(long, value_name = "DUR", default_value = "10s", value_parser = parse_duration)]
    pub timeout: Duration,

    /// Accept any TLS certificate (self-signed local receivers)
    #[arg(short = 'k', long)]
    pub insecure: bool,

    #[arg(long, value_enum, default_value_t = SuiteFormat::Human)]
    pub format: SuiteFormat,
}

impl CheckArgs {
    pub fn into_config(self, palette: Palette) -> anyhow::Result<CheckConfig> {
        let url = parse_url(&self.url)?;
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
            insecure: self.insecure,
            format: self.format,
            palette,
        })
    }
}
