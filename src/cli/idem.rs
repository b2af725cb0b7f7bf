//! `idem`: clap definitions and their translation into the engine's config structs.
use std::net::SocketAddr;
use std::time::Duration;

use clap::{CommandFactory, Parser, Subcommand};
use clap_complete::Shell;

use crate::cli::request_args::RequestArgs;
use crate::cli::{block_on, positive_duration};
use crate::conformance::SuiteFormat;
use crate::demo::{self, DemoConfig};
use crate::exit::Outcome;
use crate::idem::check::{self, CheckConfig};
use crate::idem::race::{self, KeyMode, RaceConfig, SyncMode};
use crate::idem::send::{self, SendConfig};
use crate::idem::serve::{self, Mode, ServeConfig};
use crate::output::{ColorChoice, Format, Palette};
use crate::units::parse_size;

/// Test how an HTTP API handles the Idempotency-Key header: does a retried POST execute once?
#[derive(Debug, Parser)]
#[command(name = "idem", version, propagate_version = true)]
pub struct IdemCli {
    /// When to color the output
    #[arg(long, global = true, value_enum, default_value_t = ColorChoice::Auto, env = "IDEM_COLOR")]
    pub color: ColorChoice,

    #[command(subcommand)]
    pub command: IdemCommand,
}

#[derive(Debug, Subcommand)]
pub enum IdemCommand {
    /// Send a request with an idempotency key, optionally repeated, and judge the answers
    Send(SendArgs),
    /// Fire synchronised concurrent duplicates (one key) to expose race conditions
    Race(RaceArgs),
    /// Run an Idempotency-Key conformance suite against an endpoint (exit 0 when every required check passes)
    Check(CheckArgs),
    /// Run a reference payments API that handles Idempotency-Key (correctly, or broken on purpose)
    Serve(ServeArgs),
    /// Tell the whole story on this machine: reference servers, retries, verdicts
    Demo,
    /// Print a shell completion script
    Completions {
        #[arg(value_enum)]
        shell: Shell,
    },
}

#[derive(Debug, clap::Args)]
pub struct SendArgs {
    #[command(flatten)]
    pub request: RequestArgs,

    /// Send the same request this many times with the same key, then judge the answers
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=10_000))]
    pub repeat: u32,

    /// Wait this long between repeats
    #[arg(long, default_value = "0", value_parser = positive_duration, allow_hyphen_values = true, value_name = "DUR")]
    pub interval: Duration,

    #[arg(long, value_enum, default_value_t = Format::Human)]
    pub format: Format,
}

#[derive(Debug, clap::Args)]
pub struct RaceArgs {
    #[command(flatten)]
    pub request: RequestArgs,

    /// Duplicates per round
    #[arg(short = 'n', long = "requests", default_value_t = 20, value_parser = clap::value_parser!(u32).range(1..=1_000))]
    pub n: u32,

    /// Rounds to run, each with a fresh key
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=100_000))]
    pub rounds: u32,

    /// How the duplicates are made to arrive together
    #[arg(long, value_enum, default_value_t = SyncMode::Auto)]
    pub sync: SyncMode,

    /// Give every duplicate its own key (a control: each should execute)
    #[arg(long, conflicts_with_all = ["key", "no_key"])]
    pub distinct_keys: bool,

    #[arg(long, value_enum, default_value_t = Format::Human)]
    pub format: Format,
}

#[derive(Debug, clap::Args)]
pub struct CheckArgs {
    #[command(flatten)]
    pub request: RequestArgs,

    /// How many concurrent duplicates the concurrency check sends
    #[arg(short = 'n', long = "concurrency", default_value_t = 20, value_parser = clap::value_parser!(u32).range(2..=1000))]
    pub concurrency: u32,

    /// The endpoint must refuse a request without a key with 400
    #[arg(long)]
    pub require_key: bool,

    #[arg(long, value_enum, default_value_t = SuiteFormat::Human)]
    pub format: SuiteFormat,
}

#[derive(Debug, clap::Args)]
pub struct ServeArgs {
    /// Where to listen; port 0 picks a free port and prints it
    #[arg(long, default_value = "127.0.0.1:8080", env = "IDEM_ADDR")]
    pub addr: SocketAddr,

    /// How keys are handled: correct, or one of the deliberately broken modes
    #[arg(long, value_enum, default_value_t = Mode::Correct)]
    pub mode: Mode,

    /// Simulated time a payment takes, so duplicates can overlap
    #[arg(long, default_value = "50ms", value_parser = positive_duration, allow_hyphen_values = true, value_name = "DUR")]
    pub work: Duration,

    /// How long a completed key's response is kept for replay
    #[arg(long, default_value = "24h", value_parser = positive_duration, allow_hyphen_values = true, value_name = "DUR")]
    pub ttl: Duration,

    /// Answer a POST without an idempotency key with 400
    #[arg(long)]
    pub require_key: bool,

    /// Largest request body accepted
    #[arg(long, default_value = "1MiB", value_parser = parse_size, value_name = "SIZE")]
    pub max_body: u64,

    /// Serve HTTPS (ALPN h2 and http/1.1) with a self-signed certificate generated at start-up
    #[arg(long)]
    pub tls: bool,

    /// Log format: a colored line per request, or JSON lines
    #[arg(long, value_enum, default_value_t = Format::Human)]
    pub format: Format,
}

/// Parses the process arguments, runs the command and returns the exit status.
pub fn main() -> i32 {
    crate::cli::parse_and_run(run)
}

pub fn run(cli: IdemCli) -> anyhow::Result<Outcome> {
    match cli.command {
        IdemCommand::Send(args) => {
            let config = SendConfig {
                request: args.request.into_spec()?,
                repeat: args.repeat,
                interval: args.interval,
                format: args.format,
                palette: Palette::for_stdout(cli.color),
                pretty: std::io::IsTerminal::is_terminal(&std::io::stdout()),
            };
            block_on(send::run(config))
        }
        IdemCommand::Race(args) => {
            let key_mode = if args.distinct_keys {
                KeyMode::Distinct
            } else if args.request.no_key {
                KeyMode::None
            } else {
                KeyMode::Same
            };
            let config = RaceConfig {
                request: args.request.into_spec()?,
                n: args.n as usize,
                rounds: args.rounds as usize,
                sync: args.sync,
                key_mode,
                format: args.format,
                palette: Palette::for_stdout(cli.color),
            };
            block_on(race::run(config))
        }
        IdemCommand::Check(args) => {
            let config = CheckConfig {
                request: args.request.into_spec()?,
                concurrency: args.concurrency as usize,
                require_key: args.require_key,
                format: args.format,
                palette: Palette::for_stdout(cli.color),
            };
            block_on(check::run(config))
        }
        IdemCommand::Serve(args) => {
            let config = ServeConfig {
                addr: args.addr,
                mode: args.mode,
                work: args.work,
                ttl: args.ttl,
                require_key: args.require_key,
                max_body: args.max_body,
                tls: args.tls,
                log_format: args.format,
                palette: Palette::for_stdout(cli.color),
            };
            block_on(serve::run(config))
        }
        IdemCommand::Demo => block_on(demo::run(DemoConfig { palette: Palette::for_stdout(cli.color) })),
        IdemCommand::Completions { shell } => {
            use std::io::Write;
            let script = crate::cli::completions::generate(shell, IdemCli::command());
            std::io::stdout().write_all(&script)?;
            Ok(Outcome::Holds)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_command_line_definition_is_consistent() {
        IdemCli::command().debug_assert();
    }

    #[test]
    fn race_flags_become_a_key_mode() {
        let cli = IdemCli::try_parse_from(["idem", "race", "localhost:1/p", "-n", "5", "--distinct-keys"]).unwrap();
        let IdemCommand::Race(args) = cli.command else { panic!("not race") };
        assert_eq!((args.n, args.distinct_keys, args.sync), (5, true, SyncMode::Auto));
        assert!(IdemCli::try_parse_from(["idem", "race", "u", "--distinct-keys", "--no-key"]).is_err());
        assert!(IdemCli::try_parse_from(["idem", "race", "u", "-n", "0"]).is_err());
    }
}
