//! Command-line parsing: clap derive structs, each turned into a plain config struct before any
//! work starts, so the engine never sees a parsed command line. The one piece of clap the engine
//! modules know is `ValueEnum` on the closed sets they define themselves (schemes, sync and key
//! modes, formats), so a flag's accepted values and the engine's enum cannot drift apart.
pub(crate) mod completions;
pub(crate) mod count_args;
pub(crate) mod idem;
pub mod man;
pub(crate) mod outbound_proxy;
pub(crate) mod request_args;
pub mod schemas;
pub(crate) mod suite_args;
pub(crate) mod webhook;

use std::future::Future;
use std::time::Duration;

use crate::exit::{self, Outcome};

/// Units for the bounds of duration flags (`duration_at_most(HOUR)`).
pub(crate) const SECOND: Duration = Duration::from_secs(1);
pub(crate) const MINUTE: Duration = Duration::from_secs(60);
pub(crate) const HOUR: Duration = Duration::from_secs(3_600);
pub(crate) const DAY: Duration = Duration::from_secs(86_400);

/// The bound of every size flag: a body held in memory past this is no longer a test input.
pub(crate) const MAX_SIZE_FLAG: u64 = 1 << 30;

/// A duration flag's parser: like `parse_duration`, with a plain word for a negative value (the
/// flag is declared with `allow_hyphen_values`, so clap hands `-1s` here instead of suggesting
/// `-- -1s`), and an upper bound, so that no value switches the flag's protection off (a lease
/// of 999999999999h keeps a crashed owner's key behind 409 for ever). The flag's help says
/// "at most" the bound (a test in this module checks every flag).
pub(crate) fn duration_at_most(
    max: Duration,
) -> impl Fn(&str) -> Result<Duration, String> + Clone + Send + Sync + 'static {
    move |text: &str| {
        if text.trim_start().starts_with('-') {
            return Err(format!("`{text}`: durations are positive; write it like 250ms, 5s, 2m or 24h"));
        }
        crate::units::parse_duration_at_most(text, max)
    }
}

/// A size flag's parser, at most [`MAX_SIZE_FLAG`].
pub(crate) fn bounded_size(text: &str) -> Result<u64, String> {
    crate::units::parse_size_at_most(text, MAX_SIZE_FLAG)
}

/// Parses the process arguments into `C`, runs `run` and returns the exit status. clap prints help
/// and version on stdout with status 0, and usage errors on stderr with status 2.
pub(crate) fn parse_and_run<C: clap::Parser>(run: impl FnOnce(C) -> anyhow::Result<Outcome>) -> i32 {
    match C::try_parse() {
        Ok(cli) => exit::finish(run(cli)),
        Err(err) => {
            match unexpected_value(&err) {
                Some(value) => eprint!("{}", redact_value(&err.to_string(), &value)),
                None => {
                    let _ = err.print();
                }
            }
            if let Some(note) = from_environment(&C::command(), &err) {
                eprintln!("note: {note}");
            }
            if err.use_stderr() { exit::COULD_NOT_RUN } else { 0 }
        }
    }
}

/// A refused value that came from an environment variable (`IDEM_ADDR`, `WEBHOOK_SECRET`, …)
/// rather than the command line: clap names the flag, which the user never typed.
fn from_environment(command: &clap::Command, err: &clap::Error) -> Option<String> {
    use clap::error::{ContextKind, ContextValue};
    let Some(ContextValue::String(shown)) = err.get(ContextKind::InvalidArg) else { return None };
    let (long, variable) = env_arg(command, shown)?;
    std::env::var_os(&variable)?;
    let typed = std::env::args_os().any(|arg| {
        let arg = arg.to_string_lossy();
        arg == format!("--{long}") || arg.starts_with(&format!("--{long}="))
    });
    (!typed).then(|| {
        format!("that value comes from {variable} (from the environment), not --{long}: fix or unset {variable}")
    })
}

/// The long name and variable of the argument clap shows as `shown` (`--addr <ADDR>`), searched
/// through every subcommand.
fn env_arg(command: &clap::Command, shown: &str) -> Option<(String, String)> {
    for arg in command.get_arguments() {
        if let (Some(long), Some(variable)) = (arg.get_long(), arg.get_env())
            && shown.split([' ', '=']).next() == Some(&format!("--{long}"))
        {
            return Some((long.to_string(), variable.to_string_lossy().into_owned()));
        }
    }
    command.get_subcommands().find_map(|sub| env_arg(sub, shown))
}

/// A stray positional value clap would echo back: often a secret typed without `--secret`, so it
/// is not printed.
fn unexpected_value(err: &clap::Error) -> Option<String> {
    use clap::error::{ContextKind, ContextValue};
    if err.kind() != clap::error::ErrorKind::UnknownArgument {
        return None;
    }
    match err.get(ContextKind::InvalidArg) {
        Some(ContextValue::String(value)) if !value.starts_with('-') => Some(value.clone()),
        _ => None,
    }
}

/// The message with the value hidden where it stands as a whole word: a short value (`s`) is not
/// hidden inside the words of clap's usage line.
fn redact_value(message: &str, value: &str) -> String {
    let hidden = format!("<hidden, {} characters>", value.chars().count());
    crate::command_line::hide_whole_words(message, &[value], &hidden)
}

/// Runs an async command body on a fresh multi-threaded runtime.
pub(crate) fn block_on<T>(future: impl Future<Output = anyhow::Result<T>>) -> anyhow::Result<T> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|err| anyhow::anyhow!("cannot start the async runtime: {err}"))?;
    runtime.block_on(future)
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(Debug, Parser)]
    struct OnlyFlags {
        #[arg(long)]
        secret: Option<String>,
    }

    #[test]
    fn a_stray_positional_value_is_not_echoed() {
        let err = OnlyFlags::try_parse_from(["t", "whsec_topsecret"]).unwrap_err();
        assert_eq!(unexpected_value(&err).as_deref(), Some("whsec_topsecret"));
        let shown = redact_value(&err.to_string(), "whsec_topsecret");
        assert!(!shown.contains("topsecret") && shown.contains("<hidden, 15 characters>"), "{shown}");
        // A one-letter value is hidden where it stands, not inside `Usage` or `--secret`.
        let err = OnlyFlags::try_parse_from(["t", "s"]).unwrap_err();
        let shown = redact_value(&err.to_string(), "s");
        assert!(shown.contains("'<hidden, 1 characters>'") && shown.contains("Usage: t"), "{shown}");
    }

    #[test]
    fn negative_durations_are_named_as_such() {
        let parse = duration_at_most(HOUR);
        assert!(parse("-1s").unwrap_err().contains("durations are positive"));
        assert_eq!(parse("2s"), Ok(Duration::from_secs(2)));
        assert!(parse("2h").unwrap_err().contains("longer than 1h"));
    }

    /// Every duration, count and size flag of both tools says its bound in its help, so a user
    /// learns it before a refusal does.
    #[test]
    fn every_bounded_flag_documents_its_bound() {
        use clap::CommandFactory;
        use std::any::TypeId;
        let bounded = [
            TypeId::of::<Duration>(),
            TypeId::of::<u32>(),
            TypeId::of::<u64>(),
            TypeId::of::<usize>(),
            TypeId::of::<i64>(),
        ];
        fn walk(command: &clap::Command, path: &str, bounded: &[TypeId], missing: &mut Vec<String>) {
            for arg in command.get_arguments() {
                let id = arg.get_id().as_str();
                // A seed is a name for a sequence, not an amount.
                if id == "seed" || !bounded.iter().any(|ty| arg.get_value_parser().type_id() == *ty) {
                    continue;
                }
                let help = arg.get_help().map(|help| help.to_string()).unwrap_or_default();
                if !help.contains("at most") {
                    missing.push(format!("{path} --{id}"));
                }
            }
            for sub in command.get_subcommands() {
                walk(sub, &format!("{path} {}", sub.get_name()), bounded, missing);
            }
        }
        let mut missing = Vec::new();
        walk(&crate::cli::idem::IdemCli::command(), "idem", &bounded, &mut missing);
        walk(&crate::cli::webhook::WebhookCli::command(), "webhook", &bounded, &mut missing);
        assert!(missing.is_empty(), "flags whose help does not say their bound: {missing:?}");
    }
}
