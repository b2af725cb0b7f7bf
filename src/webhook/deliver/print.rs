//! The human output of `webhook send` and `webhook replay`: one line per attempt as it ends, and
//! the line that sums up a delivery.
use std::io::Write;

use crate::output::Palette;
use crate::retry::{PlannedWait, WaitSource};
use crate::units::format_duration;
use crate::webhook::deliver::engine::{AttemptReport, DeliveryOutcome, DeliveryReport, describe_status};

/// Prints attempt lines to stdout as they happen (from any task: each line is one write).
#[derive(Debug, Clone, Copy)]
pub(crate) struct AttemptLines {
    pub palette: Palette,
    pub max_attempts: u32,
}

impl AttemptLines {
    /// `label` tells concurrent deliveries apart (`#2`); a closed stdout is not worth failing a
    /// delivery over, so write errors are dropped here and surface at the summary.
    pub(crate) fn print(&self, label: &str, attempt: &AttemptReport, next: Option<&PlannedWait>) {
        let line = self.line(label, attempt, next);
        let _ = std::io::stdout().lock().write_all(line.as_bytes());
    }

    pub(crate) fn line(&self, label: &str, attempt: &AttemptReport, next: Option<&PlannedWait>) -> String {
        let palette = self.palette;
        let answer = match (attempt.status, &attempt.error) {
            (Some(status), _) => {
                let latency = attempt
                    .latency
                    .map(|latency| format!("  {}", palette.dim(&format_duration(latency))))
                    .unwrap_or_default();
                format!("{}{latency}", paint_status(palette, status))
            }
            (None, Some(error)) => palette.red(error),
            (None, None) => palette.red("no answer"),
        };
        let then = match (attempt.status, next) {
            (Some(200..=299), _) => palette.green("delivered"),
            (Some(410), _) => palette.red("endpoint gone, not retrying"),
            (_, Some(next)) => {
                let why = match (next.source, next.cap) {
                    (WaitSource::RetryAfter, _) => " (Retry-After)".to_string(),
                    (WaitSource::RetryAfterClamped, Some(asked)) => {
                        format!(" (Retry-After asked for {}, clamped to --backoff-max)", format_duration(asked))
                    }
                    _ => String::new(),
                };
                // When, on the reader's clock: a retry an hour away is easier to wait for by the time.
                let at = chrono::Utc::now() + chrono::Duration::from_std(next.wait).unwrap_or(chrono::Duration::MAX);
                let at = crate::clock::time_of_day(at);
                let at = at.split('.').next().unwrap_or_default();
                format!("retry in {} (at {at}){why}", format_duration(next.wait))
            }
            (_, None) => palette.red("no attempts left"),
        };
        let label = if label.is_empty() { String::new() } else { format!("{} ", palette.dim(label)) };
        format!("  {label}attempt {}/{}  {answer}  {then}\n", attempt.attempt, self.max_attempts)
    }
}

/// `delivered on attempt 3/5 in 1.52s`, or why not.
pub(crate) fn summary(report: &DeliveryReport, max_attempts: u32, palette: Palette) -> String {
    let attempts = report.attempts.len();
    let took = format_duration(report.took);
    match report.outcome {
        DeliveryOutcome::Delivered => {
            palette.green(&format!("delivered on attempt {attempts}/{max_attempts} in {took}"))
        }
        DeliveryOutcome::Gone => palette.red("not delivered: the endpoint answered 410 Gone, so retrying stopped"),
        DeliveryOutcome::Exhausted => palette.red(&format!(
            "not delivered: {} in {took}, the last with: {}",
            match attempts {
                1 => "the one attempt failed".to_string(),
                n => format!("all {n} attempts failed"),
            },
            report.last_failure().unwrap_or_else(|| "no answer".to_string())
        )),
    }
}

fn paint_status(palette: Palette, status: u16) -> String {
    let text = describe_status(status);
    match status {
        200..=299 => palette.green(&text),
        400..=499 => palette.yellow(&text),
        _ => palette.red(&text),
    }
}
