//! The line per attempt while the suite runs, as `webhook listen` prints one per delivery. They go
//! to stdout with `--format human` and to stderr otherwise, so a JSON or JUnit report on stdout
//! stays one clean document.
use std::io::Write;
use std::time::Duration;

use chrono::{DateTime, Utc};

use super::book::{Arrival, Filed};
use super::script::Step;
use crate::output::{Palette, terminal_safe};
use crate::units::format_duration;

#[derive(Debug, Clone, Copy)]
pub(super) struct Live {
    pub palette: Palette,
    pub to_stderr: bool,
    /// In-process runs (the demo) print nothing while they run.
    pub quiet: bool,
}

impl Live {
    pub(super) fn line(&self, text: &str) {
        if self.quiet {
            return;
        }
        // Best effort: a closed terminal must not stop the receiver answering.
        if self.to_stderr {
            let _ = writeln!(std::io::stderr().lock(), "{text}");
        } else {
            let mut stdout = std::io::stdout().lock();
            let _ = writeln!(stdout, "{text}").and_then(|()| stdout.flush());
        }
    }

    /// `13:17:00.123 event 1 attempt 2  ✓ signed  msg_1 → 500`
    pub(super) fn attempt(&self, arrival: &Arrival, filed: &Filed) {
        if self.quiet {
            return;
        }
        let palette = self.palette;
        let signed = if arrival.signature.matched {
            palette.green("✓ signed")
        } else {
            let problem = arrival.signature.problem.as_deref().unwrap_or("not signed");
            palette.red(&format!("✗ {}", terminal_safe(problem)))
        };
        let id = arrival.id.as_deref().map_or_else(|| "(no id)".to_string(), |id| terminal_safe(id).into_owned());
        let answer = match filed.step {
            Step::Hold => palette.yellow("hold (no answer until the sender gives up)"),
            Step::Answer { status, retry_after } => {
                let retry = retry_after.map(|wait| format!(" Retry-After: {}", wait.as_secs())).unwrap_or_default();
                format!("{}{retry}", palette.status(status.as_u16()))
            }
        };
        let again = if filed.duplicate { palette.cyan("  (already acknowledged)") } else { String::new() };
        self.line(&format!(
            "{} event {} attempt {:<2} {signed}  {id} → {answer}{again}",
            palette.dim(&clock(arrival.received)),
            filed.event_number,
            filed.attempt_number,
        ));
    }

    /// `13:17:01.123 event 1 attempt 2  the sender gave up after 1.00s`
    pub(super) fn gave_up(&self, filed: &Filed, waited: Duration) {
        self.line(&format!(
            "{} event {} attempt {:<2} {}",
            self.palette.dim(&clock(Utc::now())),
            filed.event_number,
            filed.attempt_number,
            self.palette.yellow(&format!("the sender gave up after {}", format_duration(waited)))
        ));
    }
}

fn clock(time: DateTime<Utc>) -> String {
    crate::clock::time_of_day(time)
}
