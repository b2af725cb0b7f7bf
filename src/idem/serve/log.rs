//! The server's request log (a line per request, human or JSON) and the shutdown summary.
//!
//! With `--format json` every line is one JSON object, `schema` first
//! (`idem-serve-line/1`, schemas/idem-serve-line.json): a `listening` line, a line per request
//! (without `event`), and a `summary` line at shutdown.
use std::collections::BTreeMap;
use std::sync::Mutex;
use std::time::Duration;

use serde::Serialize;

use crate::live_log::{LiveLog, Printer};
use crate::output::{Format, Palette};
use crate::sync::lock;
use crate::text::{ellipsis, plural};
use crate::units::format_duration;

/// The `schema` value of every `idem serve --format json` line.
pub(crate) const LINE_SCHEMA: &str = "idem-serve-line/1";

/// One line of `idem serve --format json`.
#[derive(Debug, Serialize, schemars::JsonSchema)]
#[serde(tag = "event", rename_all = "snake_case")]
pub(crate) enum ServeLine<'a> {
    /// The first line: where the server listens and how it behaves.
    Listening {
        server: &'a Banner,
        /// What is deliberately broken in this `--mode`; `null` for `correct`.
        warning: Option<&'static str>,
    },
    /// The last line, at shutdown.
    Summary { summary: &'a ServeTally },
    /// Request lines the terminal could not keep up with, counted instead of printed.
    NotShown { count: u64 },
    /// One request; these lines carry no `event`.
    #[serde(untagged)]
    Request(&'a RequestLine),
}

impl ServeLine<'_> {
    /// The line as printed, `schema` first.
    pub(crate) fn to_json(&self) -> String {
        crate::json_output::line(LINE_SCHEMA, self).unwrap_or_default()
    }
}

/// How the server was started, for the `listening` line.
#[derive(Debug, Serialize, schemars::JsonSchema)]
pub(crate) struct Banner {
    pub url: String,
    pub mode: super::Mode,
    pub store: String,
    pub lease_ms: f64,
    pub work_ms: f64,
    pub require_key: bool,
    pub tls: bool,
}

/// What the server did with a request.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum RequestOutcome {
    Created,
    Replayed,
    InProgress,
    Mismatch,
    MissingKey,
    Invalid,
    TooLarge,
    Read,
    NotFound,
    MethodNotAllowed,
    StoreUnavailable,
    // `--mode delete-on-error`: the payment was made, then the request failed (500).
    FailedAfterCharge,
}

impl RequestOutcome {
    pub fn as_str(self) -> &'static str {
        match self {
            RequestOutcome::Created => "created",
            RequestOutcome::Replayed => "replayed",
            RequestOutcome::InProgress => "in-progress",
            RequestOutcome::Mismatch => "mismatch",
            RequestOutcome::MissingKey => "missing-key",
            RequestOutcome::Invalid => "invalid",
            RequestOutcome::TooLarge => "too-large",
            RequestOutcome::Read => "read",
            RequestOutcome::NotFound => "not-found",
            RequestOutcome::MethodNotAllowed => "method-not-allowed",
            RequestOutcome::StoreUnavailable => "store-unavailable",
            RequestOutcome::FailedAfterCharge => "failed-after-charge",
        }
    }
}

/// One request, as logged.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub(crate) struct RequestLine {
    pub time: String,
    pub method: String,
    pub path: String,
    pub key: Option<String>,
    pub status: u16,
    pub outcome: RequestOutcome,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub payment_id: Option<String>,
    #[serde(rename = "latency_ms", serialize_with = "crate::units::as_ms")]
    #[schemars(with = "f64")]
    pub latency: Duration,
}

impl RequestLine {
    fn render_human(&self, palette: Palette) -> String {
        let key = match &self.key {
            Some(key) => ellipsis(key, 12),
            None => "-".to_string(),
        };
        let outcome = match self.outcome {
            RequestOutcome::Created => palette.green("created"),
            RequestOutcome::Replayed => palette.cyan("replayed"),
            RequestOutcome::InProgress | RequestOutcome::Mismatch => palette.yellow(self.outcome.as_str()),
            RequestOutcome::Read => self.outcome.as_str().to_string(),
            _ => palette.red(self.outcome.as_str()),
        };
        let latency = format_duration(self.latency);
        let payment = self.payment_id.as_deref().map(|id| format!("  {}", palette.dim(id))).unwrap_or_default();
        format!(
            "{} {:<4} {:<24} key {:<13} {} {:<12} {:>8}{payment}",
            palette.dim(&self.time),
            self.method,
            self.path,
            key,
            palette.status(self.status),
            outcome,
            latency
        )
    }
}

/// Counts for the shutdown summary.
#[derive(Debug, Clone, Default, Serialize, schemars::JsonSchema)]
pub struct ServeTally {
    pub requests: u64,
    pub outcomes: BTreeMap<RequestOutcome, u64>,
    pub payments_created: usize,
}

impl ServeTally {
    pub fn count(&self, outcome: RequestOutcome) -> u64 {
        self.outcomes.get(&outcome).copied().unwrap_or(0)
    }

    pub fn render_human(&self, palette: Palette) -> String {
        let outcomes: Vec<String> =
            self.outcomes.iter().map(|(outcome, count)| format!("{count} {}", outcome.as_str())).collect();
        let payments = plural(self.payments_created, "payment created", "payments created");
        format!(
            "{} {} requests ({}), {payments}",
            palette.bold("summary:"),
            self.requests,
            if outcomes.is_empty() { "none".to_string() } else { outcomes.join(", ") },
        )
    }
}

/// Counts every request and, when printing is on, hands the line to the shared bounded live log,
/// so a slow terminal neither stalls a request nor grows memory.
pub(crate) struct RequestLog {
    counts: Mutex<ServeTally>,
    printer: LiveLog<RequestLine>,
}

impl RequestLog {
    /// A log that only counts (in-process servers for the demo and tests).
    pub(crate) fn counting() -> RequestLog {
        RequestLog { counts: Mutex::new(ServeTally::default()), printer: LiveLog::quiet() }
    }

    /// A log that also prints each line on stdout; `finish` prints what is left.
    pub(crate) fn printing(format: Format, palette: Palette) -> anyhow::Result<RequestLog> {
        let printer = LiveLog::printing(Printer {
            name: "serve-log",
            render: Box::new(move |line: RequestLine| match format {
                Format::Human => line.render_human(palette),
                Format::Json => ServeLine::Request(&line).to_json(),
            }),
            skipped: Box::new(move |skipped| match format {
                Format::Json => ServeLine::NotShown { count: skipped }.to_json(),
                Format::Human => palette.dim(&format!("… {skipped} more requests not shown")),
            }),
        })?;
        Ok(RequestLog { counts: Mutex::new(ServeTally::default()), printer })
    }

    /// Prints what is queued, then stops the printer. Blocks: call it off the async runtime.
    pub(crate) fn finish(&self) {
        self.printer.finish();
    }

    pub(crate) fn record(&self, line: RequestLine) {
        {
            let mut counts = lock(&self.counts);
            counts.requests += 1;
            *counts.outcomes.entry(line.outcome).or_default() += 1;
        }
        self.printer.offer(line);
    }

    pub(crate) fn summary(&self) -> ServeTally {
        lock(&self.counts).clone()
    }
}
