//! `idem`: clap definitions and their translation into the engine's config structs, one file
//! per command.
use anyhow::bail;
use clap::{CommandFactory, Parser, Subcommand};
use clap_complete::Shell;

use crate::cli::block_on;
use crate::cli::count_args::{CountArgs, RequireCountArgs};
use crate::demo::DemoConfig;
use crate::exit::Outcome;
use crate::http::url::parse_target_url;
use crate::idem::request::RequestSpec;
use crate::output::{ColorChoice, Palette};

mod check;
mod openapi;
mod proxy;
mod race;
mod run;
mod send;
mod serve;
mod window;

pub(crate) use check::CheckArgs;
use check::CheckCommand;
pub(crate) use openapi::OpenApiArgs;
pub(crate) use proxy::ProxyArgs;
pub(crate) use race::RaceArgs;
pub(crate) use run::RunArgs;
pub(crate) use send::SendArgs;
pub(crate) use serve::ServeArgs;
pub(crate) use window::WindowArgs;

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
    /// Measure how far apart two duplicates (one key) can arrive and both still execute
    Window(WindowArgs),
    /// Run an Idempotency-Key conformance suite against an endpoint (exit 0 when every required check passes)
    Check(Box<CheckArgs>),
    /// Run the workflows of an Arazzo description, probing every keyed step (retry, race, lost answer, mismatch)
    Run(Box<RunArgs>),
    /// Run a reference payments API that handles Idempotency-Key (correctly, or broken on purpose)
    Serve(ServeArgs),
    /// Stand between a client and its API, lose answers on purpose, and judge how the client retries
    Proxy(Box<ProxyArgs>),
    /// Tell the whole story on this machine: reference servers, retries, verdicts
    Demo,
    /// Print a shell completion script
    Completions {
        #[arg(value_enum)]
        shell: Shell,
    },
}

/// More instances of the same API, as a load balancer would spread requests over them.
#[derive(Debug, clap::Args)]
pub struct AlsoArgs {
    /// Another instance of the same endpoint (repeatable): duplicates are spread round-robin over all targets
    #[arg(long = "also", value_name = "URL")]
    pub also: Vec<String>,
}

impl AlsoArgs {
    /// The `--also` URLs, each on the primary URL's scheme (the synchronisation is chosen once
    /// for every target).
    pub fn urls(&self, primary: &RequestSpec) -> anyhow::Result<Vec<http::Uri>> {
        self.also
            .iter()
            .map(|text| {
                let url = parse_target_url(text, "--also")?;
                if url.scheme_str() != primary.url.scheme_str() {
                    bail!(
                        "--also {url} uses another scheme than {}; every target must be http:// or every one https://",
                        primary.url
                    );
                }
                Ok(url)
            })
            .collect()
    }
}

/// The spec with `--count-url`, read with the request's own headers (auth) and connection flags.
pub(crate) fn with_count(
    mut spec: RequestSpec,
    count: CountArgs,
    require: RequireCountArgs,
) -> anyhow::Result<RequestSpec> {
    spec.ledgers = count.into_ledgers(&spec.headers, spec.timeout, spec.insecure)?;
    spec.require_count = require.require_count;
    Ok(spec)
}

/// Parses the process arguments, runs the command and returns the exit status.
pub(crate) fn main() -> i32 {
    crate::cli::parse_and_run(run)
}

pub(crate) fn run(cli: IdemCli) -> anyhow::Result<Outcome> {
    let color = cli.color;
    match cli.command {
        IdemCommand::Send(args) => block_on(crate::idem::send::run(args.into_config(color)?)),
        IdemCommand::Race(args) => block_on(crate::idem::race::run(args.into_config(color)?)),
        IdemCommand::Window(args) => block_on(crate::idem::window::run(args.into_config(color)?)),
        IdemCommand::Check(args) => match args.into_config(color)? {
            CheckCommand::List(format, None) => crate::cli::suite_args::print_catalogue(
                crate::idem::check::Profile::plain_catalogue(),
                format,
                Palette::for_stdout(color),
            ),
            CheckCommand::List(format, Some(profile)) => {
                crate::cli::suite_args::print_catalogue(profile.catalogue(), format, Palette::for_stdout(color))
            }
            CheckCommand::Endpoint(config) => block_on(crate::idem::check::run(*config)),
            CheckCommand::OpenApi(config) => block_on(crate::idem::check::openapi::run(*config)),
        },
        IdemCommand::Run(args) => block_on(crate::idem::run::run(args.into_config(color)?)),
        IdemCommand::Serve(args) => block_on(crate::idem::serve::run(args.into_config(color))),
        IdemCommand::Proxy(args) => block_on(crate::idem::proxy::run(args.into_config(Palette::for_stdout(color))?)),
        IdemCommand::Demo => block_on(crate::demo::run(DemoConfig { palette: Palette::for_stdout(color) })),
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
    use crate::idem::race::SyncMode;

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
