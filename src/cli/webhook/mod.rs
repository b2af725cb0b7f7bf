//! `webhook`: the clap definitions, one file per command, and the dispatch that turns each into the
//! engine's config and runs it.
mod certified_args;
mod check;
mod check_sender;
mod journal;
mod listen;
mod order_args;
mod race;
mod replay;
mod retry_args;
mod schemes;
mod secret;
mod send;
mod sign;
pub(crate) mod signing;
mod verification;
mod verify;

use clap::{CommandFactory, Parser, Subcommand};
use clap_complete::Shell;

use crate::cli::block_on;
use crate::cli::suite_args::print_list;
use crate::exit::Outcome;
use crate::output::{ColorChoice, Palette};
use crate::webhook;

/// Sign, verify, deliver and replay webhooks, check receivers: every common signing scheme
#[derive(Debug, Parser)]
#[command(name = "webhook", version, propagate_version = true)]
pub struct WebhookCli {
    /// When to color the output
    #[arg(long, global = true, value_enum, default_value_t = ColorChoice::Auto, env = "WEBHOOK_COLOR")]
    pub color: ColorChoice,

    #[command(subcommand)]
    pub command: WebhookCommand,
}

#[derive(Debug, Subcommand)]
pub enum WebhookCommand {
    /// Sign a payload the way a provider would and print the headers, a curl command or a raw request
    Sign(sign::SignArgs),
    /// Check a received webhook's signature and say exactly why it fails
    Verify(verify::VerifyArgs),
    /// Print a new random signing secret in the scheme's usual form
    Secret(secret::SecretArgs),
    /// List the signing schemes --scheme takes: the built-in ones and the providers described as data
    Schemes(schemes::SchemesArgs),
    /// Deliver a signed event as a provider does: fresh signature per attempt, retries with backoff
    Send(send::SendArgs),
    /// Re-deliver what `webhook listen --record` journaled (or a JSON-lines file of events)
    Replay(replay::ReplayArgs),
    /// Fire identical copies of one signed delivery at a receiver at the same instant: processed once?
    Race(race::RaceArgs),
    /// Check that a receiver accepts valid deliveries and duplicates and refuses forged, altered and replayed ones
    Check(check::CheckArgs),
    /// Check a webhook sender: a scripted receiver fails on purpose, then grades its retries, signatures and ids
    CheckSender(check_sender::CheckSenderArgs),
    /// Receive webhooks locally: verify, de-duplicate, journal, forward, and fail on purpose
    Listen(listen::ListenArgs),
    /// Inspect what `webhook listen --record` journaled: list, filter, show one, replay one, follow
    Journal(journal::JournalArgs),
    /// Print a shell completion script
    Completions {
        #[arg(value_enum)]
        shell: Shell,
    },
}

/// Parses the process arguments, runs the command and returns the exit status.
pub(crate) fn main() -> i32 {
    crate::cli::parse_and_run(run)
}

pub(crate) fn run(cli: WebhookCli) -> anyhow::Result<Outcome> {
    let palette = Palette::for_stdout(cli.color);
    // send, replay, check and listen print from other tasks or threads as they go, so they take
    // stdout themselves; the others write their one answer through a lock.
    match cli.command {
        WebhookCommand::Sign(args) => webhook::sign::run(args.into_config()?, &mut std::io::stdout().lock()),
        WebhookCommand::Verify(args) => webhook::verify::run(args.into_config(palette)?, &mut std::io::stdout().lock()),
        WebhookCommand::Secret(args) => {
            webhook::scheme::new_secret::print_new(args.into_config()?, &mut std::io::stdout().lock())
        }
        WebhookCommand::Schemes(args) => {
            args.load_scheme_files()?;
            webhook::scheme::listing::print(args.format, palette, &mut std::io::stdout().lock())
        }
        WebhookCommand::Send(args) => match &args.list_events {
            Some(provider) => webhook::send::list_events(
                Some(provider.as_str()).filter(|name| !name.is_empty()),
                args.format,
                palette,
                &mut std::io::stdout().lock(),
            ),
            None => block_on(webhook::send::run(args.into_config(palette)?)),
        },
        WebhookCommand::Replay(args) => block_on(webhook::replay::run(args.into_config(palette)?)),
        WebhookCommand::Race(args) => block_on(webhook::race::run(args.into_config(palette)?)),
        WebhookCommand::Check(args) if args.suite.list => {
            print_list("webhook check", webhook::check::catalogue::CHECKS, args.format, palette)
        }
        WebhookCommand::Check(args) => block_on(webhook::check::run(args.into_config(palette)?)),
        WebhookCommand::CheckSender(args) if args.suite.list => {
            print_list("webhook check-sender", &webhook::check_sender::catalogue::SPECS, args.format, palette)
        }
        WebhookCommand::CheckSender(args) => block_on(webhook::check_sender::run(args.into_config(palette)?)),
        WebhookCommand::Listen(args) => block_on(webhook::listen::run(args.into_config(palette)?)),
        WebhookCommand::Journal(args) => match args.into_config(palette)? {
            journal::JournalConfig::List(config) => block_on(webhook::journal::inspect::list(config)),
            journal::JournalConfig::Show { file, id, format, palette } => {
                webhook::journal::inspect::show(&file, &id, format, palette, &mut std::io::stdout().lock())
            }
            journal::JournalConfig::Diff(config) => webhook::journal::diff::run(config),
            journal::JournalConfig::Replay(config) => block_on(webhook::replay::run(*config)),
            journal::JournalConfig::Ui { file, addr, compare } => {
                block_on(webhook::inspect::run_over_journal(file, addr, compare))
            }
        },
        WebhookCommand::Completions { shell } => {
            use std::io::Write;
            std::io::stdout().write_all(&crate::cli::completions::generate(shell, WebhookCli::command()))?;
            Ok(Outcome::Holds)
        }
    }
}
