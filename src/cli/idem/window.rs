//! `idem window`: its flags, and what they become.
use std::time::Duration;

use crate::cli::count_args::{CountArgs, RequireCountArgs};
use crate::cli::request_args::RequestArgs;
use crate::idem::window::WindowConfig;
use crate::output::{ColorChoice, Palette, ReportFormat};

use super::with_count;

#[derive(Debug, clap::Args)]
#[command(after_help = "Connects directly, never through a proxy: a proxy would serialise the duplicates. \
--proxy is refused, and HTTPS_PROXY, HTTP_PROXY and ALL_PROXY are ignored.")]
#[command(mut_arg("proxy", |arg| arg.help("Refused: idem window connects directly (a proxy would serialise the duplicates)")))]
#[command(mut_arg("noproxy", |arg| arg.help("No effect: idem window reaches every host directly")))]
pub struct WindowArgs {
    #[command(flatten)]
    pub request: RequestArgs,

    #[command(flatten)]
    pub count: CountArgs,

    #[command(flatten)]
    pub require_count: RequireCountArgs,

    /// The widest spacing probed (at most 1m)
    #[arg(long, default_value = "2s", value_parser = crate::cli::duration_at_most(crate::cli::MINUTE), allow_hyphen_values = true, value_name = "DUR")]
    pub max: Duration,

    /// Pairs per spacing; a spacing executed twice if any pair did (at most 100)
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u32).range(1..=100))]
    pub probes: u32,

    #[arg(long, value_enum, default_value_t = ReportFormat::Human)]
    pub format: ReportFormat,
}

impl WindowArgs {
    pub(crate) fn into_config(self, color: ColorChoice) -> anyhow::Result<WindowConfig> {
        let args = self;
        if args.max.is_zero() {
            anyhow::bail!("--max must be more than 0, e.g. --max 500ms");
        }
        let config = WindowConfig {
            request: with_count(args.request.into_direct_spec("window")?, args.count, args.require_count)?,
            max: args.max,
            probes: args.probes as usize,
            format: args.format,
            palette: Palette::for_stdout(color),
        };
        Ok(config)
    }
}
