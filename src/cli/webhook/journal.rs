//! `webhook journal`: its flags, and the config they become.
use std::path::PathBuf;

use clap::{Args, Subcommand};

use super::retry_args::DeliveryArgs;
use super::signing::SigningArgs;
use crate::http::url::parse_url;
use crate::output::{Format, Palette};
use crate::webhook::journal::diff::DiffConfig;
use crate::webhook::journal::inspect::{self, JournalFilter, ListConfig, StatusFilter};
use crate::webhook::replay::{Filter, ReplayConfig, ReplayScheme, ReplaySigning};
use crate::webhook::scheme::SchemeKind;

#[derive(Debug, Args)]
#[command(after_help = "Without an action, lists the deliveries (a line each: line number, time, event id and \
type, scheme, verdict, status answered, forward outcome). ID is an event id (its last delivery) or a line \
number from the list. Exit status: 0 done; 1 a replay not delivered; 2 could not run (no such file or ID).")]
pub struct JournalArgs {
    /// The journal `webhook listen --record` writes
    #[arg(value_name = "FILE")]
    pub file: PathBuf,

    #[command(subcommand)]
    pub action: Option<JournalAction>,

    // The filters are global: `webhook journal FILE list --status 5xx` reads as well as
    // `webhook journal FILE --status 5xx list`, as docs/listen.md shows them.
    /// Only deliveries whose event type matches this glob (`*` any run of characters, `?` one)
    #[arg(long = "type", value_name = "GLOB", global = true)]
    pub event_type: Option<String>,

    /// Only deliveries answered with this status (502) or class (5xx)
    #[arg(long, value_name = "S", value_parser = parse_status, global = true)]
    pub status: Option<StatusFilter>,

    /// Only deliveries received since this time (RFC 3339) or this long ago (10m, 2h)
    #[arg(long, value_name = "T", global = true)]
    pub since: Option<String>,

    /// Keep printing deliveries as a running listener appends them, until Ctrl-C
    #[arg(long, global = true)]
    pub follow: bool,

    /// Serve the inspector's page over this journal (live as a listener appends to it), at the URL
    /// printed as `inspector: URL`; on a port of its own at 127.0.0.1 unless ADDR is given
    #[arg(
        long,
        value_name = "ADDR",
        num_args = 0..=1,
        default_missing_value = "127.0.0.1:0",
        conflicts_with = "follow",
        value_parser = ui_address
    )]
    pub ui: Option<std::net::SocketAddr>,

    /// Compare FILE (a) with this second journal (b) as two series: events only in each, in both,
    /// delivered a different number of times, deliveries per event type, where their orders part.
    /// Exit 0 when the series are the same, 1 when they differ
    #[arg(long, value_name = "B", conflicts_with_all = ["follow", "ui"])]
    pub diff: Option<PathBuf>,

    /// With --ui: the page also compares FILE with this second journal, as --diff does
    #[arg(long, value_name = "B", requires = "ui")]
    pub compare: Option<PathBuf>,

    /// human: a line per delivery; json: the journal's own lines (schemas/journal-record.json)
    #[arg(long, value_enum, default_value_t = Format::Human, global = true)]
    pub format: Format,
}

#[derive(Debug, Subcommand)]
pub enum JournalAction {
    /// List the deliveries (the default)
    List,
    /// Print one delivery in full: headers, pretty body, the verification and the forward
    Show {
        #[arg(value_name = "ID")]
        id: String,
    },
    /// Re-deliver one delivery to URL, re-signed (as `webhook replay` does) or --verbatim
    Replay(Box<JournalReplayArgs>),
}

#[derive(Debug, Args)]
pub struct JournalReplayArgs {
    #[arg(value_name = "ID")]
    pub id: String,

    /// Where to deliver
    #[arg(value_name = "URL")]
    pub url: String,

    /// The scheme to re-sign with [default: the one the delivery was verified with]
    #[arg(long, value_enum)]
    pub scheme: Option<SchemeKind>,

    #[command(flatten)]
    pub signing: SigningArgs,

    /// Send the recorded headers unchanged, stale signature included (needs no secret)
    #[arg(long, conflicts_with_all = ["secret", "secret_file"])]
    pub verbatim: bool,

    #[command(flatten)]
    pub delivery: DeliveryArgs,
}

fn parse_status(text: &str) -> Result<StatusFilter, String> {
    StatusFilter::parse(text).map_err(|err| format!("{err:#}"))
}

/// What `webhook journal` does, as plain config.
#[derive(Debug)]
pub enum JournalConfig {
    List(ListConfig),
    Show {
        file: PathBuf,
        id: String,
        format: Format,
        palette: Palette,
    },
    Replay(Box<ReplayConfig>),
    /// `--diff B`: the two journals compared.
    Diff(DiffConfig),
    /// `--ui`: the inspector over the journal, until Ctrl-C.
    Ui {
        file: PathBuf,
        addr: std::net::SocketAddr,
        /// `--compare B`: the second journal the page compares with.
        compare: Option<PathBuf>,
    },
}

/// `--ui`'s address. Its value is optional, so `--ui show 3` gives it `show`: said as the mistake
/// it is (the page shows the whole journal), not as a bad socket address.
fn ui_address(value: &str) -> Result<std::net::SocketAddr, String> {
    value.parse().map_err(|_| {
        if ["list", "show", "replay"].contains(&value) {
            "--ui shows the whole journal in the inspector: leave out list, show and replay".to_string()
        } else {
            "not an address: give one as IP:PORT (127.0.0.1:8080; port 0 for any free one)".to_string()
        }
    })
}

impl JournalArgs {
    pub fn into_config(self, palette: Palette) -> anyhow::Result<JournalConfig> {
        let since = self.since.as_deref().map(|text| inspect::parse_since(text, chrono::Utc::now())).transpose()?;
        let filter = JournalFilter { event_type: self.event_type, status: self.status, since };
        if let Some(b) = self.diff {
            if self.action.is_some() {
                anyhow::bail!("--diff compares the whole journals: leave out list, show and replay");
            }
            return Ok(JournalConfig::Diff(DiffConfig { a: self.file, b, filter, format: self.format, palette }));
        }
        if let Some(addr) = self.ui {
            if self.action.is_some() {
                anyhow::bail!("--ui shows the whole journal in the inspector: leave out list, show and replay");
            }
            return Ok(JournalConfig::Ui { file: self.file, addr, compare: self.compare });
        }
        match self.action {
            None | Some(JournalAction::List) => Ok(JournalConfig::List(ListConfig {
                file: self.file,
                filter,
                follow: self.follow,
                format: self.format,
                palette,
            })),
            Some(JournalAction::Show { id }) => {
                Ok(JournalConfig::Show { file: self.file, id, format: self.format, palette })
            }
            Some(JournalAction::Replay(args)) => {
                // Damaged lines are said by the replay, which reads the file again.
                let ((line, record), _) = inspect::find(&self.file, &args.id)?;
                let url = parse_url(&args.url)?;
                let signing = if args.verbatim {
                    ReplaySigning::Verbatim
                } else {
                    // The recorded scheme, as `webhook replay` follows it: the options are checked
                    // against it here, the replay refuses a delivery that recorded none.
                    let recorded = record.verdict.scheme.as_deref().and_then(SchemeKind::from_name);
                    let scheme = args.signing.scheme_or_file(args.scheme)?;
                    let options = args.signing.scheme_options(scheme.or(recorded))?;
                    ReplaySigning::Resign {
                        scheme: scheme.map_or(ReplayScheme::Recorded, ReplayScheme::Given),
                        options,
                        secret: args.signing.secret_source()?,
                    }
                };
                Ok(JournalConfig::Replay(Box::new(ReplayConfig {
                    file: self.file,
                    url,
                    signing,
                    filter: Filter { lines: vec![line], ..Filter::default() },
                    // The user named this one delivery: replay it whatever its verdict was.
                    include_invalid: true,
                    rate: None,
                    // One delivery: there is no order to choose.
                    order: Default::default(),
                    delivery: args.delivery.into_options(None)?,
                    format: self.format,
                    palette,
                })))
            }
        }
    }
}
