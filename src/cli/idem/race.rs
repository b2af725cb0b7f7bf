//! `idem race`: its flags, and what they become.
use std::time::Duration;

use crate::cli::count_args::{CountArgs, RequireCountArgs};
use crate::cli::request_args::RequestArgs;
use crate::idem::race::report::RoundDetail;
use crate::idem::race::{KeyMode, RaceConfig, SyncMode};
use crate::output::{ColorChoice, Palette, ReportFormat};

use super::{AlsoArgs, with_count};

#[derive(Debug, clap::Args)]
#[command(after_help = "Connects directly, never through a proxy: a proxy would serialise the duplicates. \
--proxy is refused, and HTTPS_PROXY, HTTP_PROXY and ALL_PROXY are ignored.")]
#[command(mut_arg("proxy", |arg| arg.help("Refused: idem race connects directly (a proxy would serialise the duplicates)")))]
#[command(mut_arg("noproxy", |arg| arg.help("No effect: idem race reaches every host directly")))]
pub struct RaceArgs {
    #[command(flatten)]
    pub request: RequestArgs,

    #[command(flatten)]
    pub count: CountArgs,

    #[command(flatten)]
    pub require_count: RequireCountArgs,

    /// Duplicates per round (at most 1000)
    #[arg(short = 'n', long = "requests", default_value_t = 20, value_parser = clap::value_parser!(u32).range(1..=1_000))]
    pub n: u32,

    /// Rounds to run, each with a fresh key (at most 100000)
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=100_000))]
    pub rounds: u32,

    /// Which round of several to print in full: worst (most executions, then most 2xx answers),
    /// first, last, or a round number
    #[arg(long, default_value = "worst", value_parser = RoundDetail::parse, value_name = "ROUND")]
    pub detail: RoundDetail,

    /// How the duplicates are made to arrive together
    #[arg(long, value_enum, default_value_t = SyncMode::Auto)]
    pub sync: SyncMode,

    /// Give every duplicate its own key (a control: each should execute)
    #[arg(long, conflicts_with_all = ["key", "no_key"])]
    pub distinct_keys: bool,

    /// Release the duplicates this far apart, in order (#1, #2 DUR later, …), instead of together (at most 10s)
    #[arg(long, value_parser = crate::cli::duration_at_most(crate::cli::SECOND * 10), allow_hyphen_values = true, value_name = "DUR")]
    pub stagger: Option<Duration>,

    #[command(flatten)]
    pub targets: AlsoArgs,

    #[arg(long, value_enum, default_value_t = ReportFormat::Human)]
    pub format: ReportFormat,
}

impl RaceArgs {
    pub(crate) fn into_config(self, color: ColorChoice) -> anyhow::Result<RaceConfig> {
        let args = self;
        let key_mode = if args.distinct_keys {
            KeyMode::Distinct
        } else if args.request.no_key {
            KeyMode::None
        } else {
            KeyMode::Same
        };
        let request = with_count(args.request.into_direct_spec("race")?, args.count, args.require_count)?;
        let also = args.targets.urls(&request)?;
        let config = RaceConfig {
            request,
            also,
            n: args.n as usize,
            rounds: args.rounds as usize,
            sync: args.sync,
            key_mode,
            stagger: args.stagger.filter(|stagger| !stagger.is_zero()),
            detail: args.detail,
            format: args.format,
            palette: Palette::for_stdout(color),
        };
        Ok(config)
    }
}
