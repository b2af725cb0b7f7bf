//! `idem send`: its flags, and what they become.
use std::time::Duration;

use anyhow::bail;

use crate::cli::count_args::{CountArgs, RequireCountArgs};
use crate::cli::request_args::RequestArgs;
use crate::idem::request::RequestSpec;
use crate::idem::send::SendConfig;
use crate::idem::send_retry::{RetryOn, SendRetry};
use crate::output::{ColorChoice, Format, Palette};
use crate::retry::RetryPolicy;

use super::with_count;

#[derive(Debug, clap::Args)]
pub struct SendArgs {
    #[command(flatten)]
    pub request: RequestArgs,

    #[command(flatten)]
    pub count: CountArgs,

    #[command(flatten)]
    pub require_count: RequireCountArgs,

    /// Send the same request this many times with the same key, then judge the answers (at most 10000)
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=10_000))]
    pub repeat: u32,

    /// Wait this long between repeats (at most 1h)
    #[arg(long, default_value = "0", value_parser = crate::cli::duration_at_most(crate::cli::HOUR), allow_hyphen_values = true, value_name = "DUR")]
    pub interval: Duration,

    #[command(flatten)]
    pub retry: SendRetryArgs,

    /// Insist that -d is JSON: refuse (exit 2) a body that does not parse, instead of sending it as text/plain
    #[arg(long, help_heading = "Request")]
    pub json: bool,

    #[arg(long, value_enum, default_value_t = Format::Human)]
    pub format: Format,
}

/// What `idem send` says before sending a request that is probably not what was meant: a POST
/// with no body, a -d that is not JSON. An error when --json insists on JSON.
fn send_notes(spec: &RequestSpec, insist_on_json: bool) -> anyhow::Result<Vec<String>> {
    let mut notes = Vec::new();
    let method = &spec.method;
    if spec.body.is_empty() {
        if insist_on_json {
            bail!("--json insists on a JSON body, and there is none: give one with -d");
        }
        if matches!(*method, http::Method::POST | http::Method::PUT | http::Method::PATCH) {
            notes
                .push(format!("this {method} has no body; give one with -d '{{\"amount\":1990}}' or -d @payment.json"));
        }
        return Ok(notes);
    }
    if let Err(err) = serde_json::from_slice::<serde::de::IgnoredAny>(&spec.body) {
        if insist_on_json {
            bail!(
                "-d is not JSON ({err}), and --json insists on JSON: fix the body (keys and strings in double quotes)"
            );
        }
        let content_type = spec.headers.get(http::header::CONTENT_TYPE).and_then(|v| v.to_str().ok()).unwrap_or("none");
        notes.push(format!(
            "-d is not JSON ({err}), so it is sent as Content-Type: {content_type}; write keys and strings in double \
             quotes, or pass --json to refuse a body that does not parse"
        ));
    }
    Ok(notes)
}

/// `idem send --max-attempts`: how a correct client retries a lost or failed answer.
#[derive(Debug, clap::Args)]
#[command(next_help_heading = "Retries")]
#[command(group(clap::ArgGroup::new("retrying").args(["max_attempts", "retry"]).multiple(false)))]
pub struct SendRetryArgs {
    /// Send each request up to N times in all: a lost or failed answer is retried with the same key and body (at most 101)
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=101))]
    pub max_attempts: Option<u32>,

    /// The older way to say --max-attempts, counting retries: --retry N is N+1 attempts (at most 100)
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(0..=100))]
    pub retry: Option<u32>,

    /// What is retried: any of 5xx, 429, timeout, connection, comma-separated
    #[arg(long, value_name = "LIST", default_value = "5xx,429,timeout,connection", value_parser = RetryOn::parse, requires = "retrying")]
    pub retry_on: RetryOn,

    /// The first retry waits a random time up to this, doubling for each further retry (full jitter); a Retry-After (seconds or HTTP-date) replaces it (at most 10m)
    #[arg(long, value_name = "DUR", default_value = "200ms", value_parser = crate::cli::duration_at_most(crate::cli::MINUTE * 10), allow_hyphen_values = true, requires = "retrying")]
    pub backoff: Duration,

    /// No wait, backoff or Retry-After, is longer than this (at most 24h)
    #[arg(long, value_name = "DUR", default_value = "5m", value_parser = crate::cli::duration_at_most(crate::cli::DAY), allow_hyphen_values = true, requires = "retrying")]
    pub backoff_max: Duration,

    /// Reproduce the classic bug on purpose: a fresh key for every retry
    #[arg(long, requires = "retrying")]
    pub new_key_per_retry: bool,
}

impl SendRetryArgs {
    /// The attempts asked for: `--max-attempts N`, or `--retry N` as N+1; 1 when neither.
    fn attempts(&self) -> u32 {
        match (self.max_attempts, self.retry) {
            (Some(attempts), _) => attempts,
            (None, Some(retries)) => retries.saturating_add(1),
            (None, None) => 1,
        }
    }

    pub fn into_policy(self, announce: Option<Palette>) -> Option<SendRetry> {
        let attempts = self.attempts();
        (attempts > 1).then_some(SendRetry {
            policy: RetryPolicy::exponential(attempts, self.backoff, self.backoff_max),
            on: self.retry_on,
            new_key_per_retry: self.new_key_per_retry,
            announce,
        })
    }
}

impl SendArgs {
    /// The engine's config; notes on a request that is probably not what was meant go to stderr
    /// first (a POST without a body, a -d that is not JSON).
    pub(crate) fn into_config(self, color: ColorChoice) -> anyhow::Result<SendConfig> {
        let args = self;
        let request = args.request.into_spec()?;
        for note in send_notes(&request, args.json)? {
            eprintln!("note: {note}");
        }
        let config = SendConfig {
            request: with_count(request, args.count, args.require_count)?,
            repeat: args.repeat,
            interval: args.interval,
            format: args.format,
            palette: Palette::for_stdout(color),
            pretty: std::io::IsTerminal::is_terminal(&std::io::stdout()),
            retry: args.retry.into_policy((args.format == Format::Human).then(|| Palette::for_stderr(color))),
        };
        Ok(config)
    }
}
