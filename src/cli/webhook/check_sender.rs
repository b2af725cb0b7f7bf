//! `webhook check-sender`: its flags, and the config they become.
use std::ffi::OsString;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

use anyhow::bail;
use clap::Args;

use super::signing::{SigningArgs, VerifyScheme};
use super::verification::PublicKeyArgs;
use crate::cli::suite_args::SuiteArgs;
use crate::conformance::SuiteFormat;
use crate::output::Palette;
use crate::webhook::check_sender::CheckSenderConfig;
use crate::webhook::check_sender::script::{DEFAULT_SCRIPT, Script};

#[derive(Debug, Args)]
#[command(after_help = "The sender under test delivers to the URL printed first (with -- SENDER_CMD it is \
run with WEBHOOK_URL set to it). Exit status: 0 every required check passed; 1 one failed; 2 could not run \
(bad usage, an unreadable secret, a busy port, a sender that cannot start, nothing delivered).")]
pub struct CheckSenderArgs {
    /// The address to receive on (port 0 picks a free one, printed on the first line)
    #[arg(long, default_value = "127.0.0.1:9000", value_name = "ADDR")]
    pub addr: SocketAddr,

    /// Receive on this path only (others get 404) [default: any path]
    #[arg(long, value_name = "PATH")]
    pub path: Option<String>,

    /// The scheme the sender signs with, or auto to pick it per attempt from the signature header
    #[arg(long, value_enum, default_value_t = VerifyScheme::Auto)]
    pub scheme: VerifyScheme,

    #[command(flatten)]
    pub signing: SigningArgs,

    #[command(flatten)]
    pub public_key: PublicKeyArgs,

    /// How far a signed timestamp may be from this receiver's clock (at most 24h)
    #[arg(long, default_value = "5m", value_parser = crate::cli::duration_at_most(crate::cli::DAY), allow_hyphen_values = true, value_name = "DUR")]
    pub tolerance: Duration,

    /// How each event's attempts are answered: statuses, STATUS:SECONDS for a Retry-After, hold
    /// for no answer until the sender gives up; `;` between events (later events get 200)
    #[arg(long, default_value = DEFAULT_SCRIPT, value_parser = Script::parse, value_name = "SCRIPT")]
    pub script: Script,

    /// How many events to wait for (at most 10000) [default: the number of events in the script]
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=10_000))]
    pub events: Option<u32>,

    /// The longest to wait for the sender and the script to play out (at most 24h)
    #[arg(long, default_value = "10m", value_parser = crate::cli::duration_at_most(crate::cli::DAY), allow_hyphen_values = true, value_name = "DUR")]
    pub timeout: Duration,

    /// Append every attempt to this JSON-lines journal, as webhook listen --record does
    #[arg(long, value_name = "FILE")]
    pub record: Option<PathBuf>,

    #[arg(long, value_enum, default_value_t = SuiteFormat::Human)]
    pub format: SuiteFormat,

    #[command(flatten)]
    pub suite: SuiteArgs,

    /// The sender to run, with WEBHOOK_URL set to this receiver
    #[arg(last = true, value_name = "SENDER_CMD")]
    pub sender: Vec<OsString>,
}

impl CheckSenderArgs {
    pub fn into_config(self, palette: Palette) -> anyhow::Result<CheckSenderConfig> {
        let selection =
            self.suite.selection("webhook check-sender", &crate::webhook::check_sender::catalogue::SPECS)?;
        let kind = self.signing.scheme_or_file(self.scheme.kind())?;
        let scheme_options = self.signing.scheme_options(kind)?;
        let secret = self.public_key.key_source(&self.signing, kind)?.load()?;
        if self.timeout.is_zero() {
            bail!("--timeout must be longer than 0");
        }
        let path = match self.path {
            Some(path) if !path.starts_with('/') => bail!("--path `{path}` must start with /"),
            path => path,
        };
        let events = self.events.map_or(self.script.len(), |events| events as usize);
        Ok(CheckSenderConfig {
            addr: self.addr,
            path,
            scheme: kind,
            scheme_options,
            secret,
            tolerance: self.tolerance,
            script: self.script,
            events,
            timeout: self.timeout,
            record: self.record,
            sender: self.sender,
            format: self.format,
            palette,
            quiet: false,
            selection,
        })
    }
}
