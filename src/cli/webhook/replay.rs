//! `webhook replay`: its flags, and the config they become.
use std::path::PathBuf;

use clap::Args;

use super::order_args::OrderArgs;
use super::retry_args::DeliveryArgs;
use super::signing::SigningArgs;
use crate::http::url::parse_url;
use crate::output::{Format, Palette};
use crate::webhook::replay::{Filter, Rate, ReplayConfig, ReplayScheme, ReplaySigning, parse_rate};
use crate::webhook::scheme::SchemeKind;

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

    /// The signing scheme to re-sign with [default: the one each journal line recorded; a line
    /// that recorded none, or a file of events, needs --scheme]
    #[arg(long, value_enum)]
    pub scheme: Option<SchemeKind>,

    #[command(flatten)]
    pub signing: SigningArgs,

    /// Sign every entry again with a fresh timestamp, keeping the recorded delivery id (the default)
    #[arg(long, help_heading = "Replay")]
    pub resign: bool,

    /// Send the recorded headers unchanged, stale signature included, to check that the receiver
    /// refuses a replay (needs no secret)
    #[arg(long, conflicts_with_all = ["resign", "secret", "secret_file"], help_heading = "Replay")]
    pub verbatim: bool,

    /// Only entries whose event type matches this glob, as `webhook journal --type` reads it (`*`
    /// any run of characters, `?` one: 'customer.subscription.*'; repeatable)
    #[arg(long, value_name = "GLOB", help_heading = "Replay")]
    pub event_type: Vec<String>,

    /// Only events whose last recorded delivery failed (the listener answered other than 2xx, or
    /// its forward was not delivered); a journal only
    #[arg(long, help_heading = "Replay")]
    pub failed: bool,

    /// One copy of each event, its latest delivery (with --failed: each failed event once, as the
    /// Stripe CLI's `events resend` does)
    #[arg(long, help_heading = "Replay")]
    pub latest_per_event: bool,

    /// Only the entry with this event id (repeatable)
    #[arg(long, value_name = "ID", help_heading = "Replay")]
    pub id: Vec<String>,

    /// With re-signing, also replay deliveries the listener recorded as invalid (they become valid)
    #[arg(long, conflicts_with = "verbatim", help_heading = "Replay")]
    pub include_invalid: bool,

    /// Start at most this many deliveries per second, minute or hour: 10/s, 30/m, 100/h, 1/5s (at most 1h between two starts)
    #[arg(long, value_name = "N/UNIT", value_parser = parse_rate, help_heading = "Replay")]
    pub rate: Option<Rate>,

    #[command(flatten)]
    pub delivery: DeliveryArgs,

    #[command(flatten)]
    pub order: OrderArgs,

    #[arg(long, value_enum, default_value_t = Format::Human)]
    pub format: Format,
}

impl ReplayArgs {
    pub fn into_config(self, palette: Palette) -> anyhow::Result<ReplayConfig> {
        let url = parse_url(&self.url)?;
        let signing = if self.verbatim {
            ReplaySigning::Verbatim
        } else {
            // Without --scheme every scheme's options may apply: each line brings its own.
            let scheme = self.signing.scheme_or_file(self.scheme)?;
            let options = self.signing.scheme_options(scheme)?;
            ReplaySigning::Resign {
                scheme: scheme.map_or(ReplayScheme::Recorded, ReplayScheme::Given),
                options,
                secret: self.signing.secret_source()?,
            }
        };
        Ok(ReplayConfig {
            order: self.order.into_options()?,
            file: self.file,
            url,
            signing,
            filter: Filter {
                event_types: self.event_type,
                ids: self.id,
                lines: Vec::new(),
                failed: self.failed,
                latest_per_event: self.latest_per_event,
            },
            include_invalid: self.include_invalid,
            rate: self.rate,
            delivery: self.delivery.into_options(None)?,
            format: self.format,
            palette,
        })
    }
}
