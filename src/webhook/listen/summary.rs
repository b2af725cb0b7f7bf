//! The counts a listener keeps while it runs and prints when it stops.
use std::collections::BTreeMap;
use std::sync::Mutex;

use serde::Serialize;

use crate::output::{Palette, terminal_safe};
use crate::sync::lock;
use crate::text::plural;

/// The key for deliveries whose event type is unknown.
pub(crate) const UNTYPED: &str = "(none)";

/// What the listener saw. Deliveries are POSTs whose body was read and checked (each one is
/// journaled); rejected requests are the others (wrong path or method, too large, unreadable).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct ListenerTally {
    pub received: u64,
    pub valid: u64,
    pub invalid: u64,
    pub duplicates: u64,
    /// Deliveries the forward target answered 2xx.
    pub forwarded: u64,
    /// Deliveries the forward target answered with a status other than 2xx (the application
    /// got them and said it failed: a 500 is not a delivery done).
    pub forward_errors: u64,
    /// Deliveries the forward target did not answer (answered 502).
    pub forward_failed: u64,
    /// Attempts answered 500 by `--fail-first`.
    pub failed_on_purpose: u64,
    pub rejected: u64,
    pub journaled: u64,
    pub journal_errors: u64,
    /// Lines the printer skipped because the terminal could not keep up.
    pub not_shown: u64,
    /// Deliveries per event type; those without one count under `(none)`.
    pub by_event_type: BTreeMap<String, u64>,
}

/// One delivery's contribution to the counts.
pub(super) struct Counted<'a> {
    pub valid: bool,
    pub duplicate: bool,
    pub forwarded: Option<ForwardResult>,
    pub failed_on_purpose: bool,
    pub journaled: Option<bool>,
    pub event_type: Option<&'a str>,
}

/// How a forward ended, for the counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum ForwardResult {
    /// The application answered 2xx.
    Accepted,
    /// The application answered, with an error status.
    AppError,
    /// The application did not answer (the sender got 502).
    Unreached,
}

#[derive(Default)]
pub(super) struct Counter {
    summary: Mutex<ListenerTally>,
}

impl Counter {
    pub(super) fn delivery(&self, counted: Counted<'_>) {
        let mut summary = lock(&self.summary);
        summary.received += 1;
        if counted.valid {
            summary.valid += 1;
        } else {
            summary.invalid += 1;
        }
        summary.duplicates += u64::from(counted.duplicate);
        match counted.forwarded {
            Some(ForwardResult::Accepted) => summary.forwarded += 1,
            Some(ForwardResult::AppError) => summary.forward_errors += 1,
            Some(ForwardResult::Unreached) => summary.forward_failed += 1,
            None => {}
        }
        summary.failed_on_purpose += u64::from(counted.failed_on_purpose);
        match counted.journaled {
            Some(true) => summary.journaled += 1,
            Some(false) => summary.journal_errors += 1,
            None => {}
        }
        let event_type = counted.event_type.unwrap_or(UNTYPED);
        match summary.by_event_type.get_mut(event_type) {
            Some(count) => *count += 1,
            None => {
                summary.by_event_type.insert(event_type.to_string(), 1);
            }
        }
    }

    pub(super) fn rejected(&self) {
        lock(&self.summary).rejected += 1;
    }

    pub(super) fn snapshot(&self) -> ListenerTally {
        lock(&self.summary).clone()
    }
}

impl ListenerTally {
    /// For example:
    /// ```text
    /// summary: 12 deliveries: 9 valid, 3 invalid, 2 duplicates, 4 forwarded, 1 answered with an error by the app, 1 failed on purpose; 1 rejected request
    ///   by event type: invoice.paid 4, payment.succeeded 5, (none) 3
    ///   journal: 12 lines
    /// ```
    pub fn render_human(&self, palette: Palette) -> String {
        let mut parts = vec![format!("{} valid", self.valid), format!("{} invalid", self.invalid)];
        parts.push(plural(self.duplicates, "duplicate", "duplicates"));
        if self.forwarded + self.forward_errors + self.forward_failed > 0 {
            parts.push(format!("{} forwarded", self.forwarded));
        }
        if self.forward_errors > 0 {
            parts.push(format!("{} answered with an error by the app", self.forward_errors));
        }
        if self.forward_failed > 0 {
            parts.push(format!("{} not forwarded (target down)", self.forward_failed));
        }
        if self.failed_on_purpose > 0 {
            parts.push(format!("{} failed on purpose", self.failed_on_purpose));
        }
        let mut text = format!(
            "{} {}: {}; {}",
            palette.bold("summary:"),
            plural(self.received, "delivery", "deliveries"),
            parts.join(", "),
            plural(self.rejected, "rejected request", "rejected requests"),
        );
        if !self.by_event_type.is_empty() {
            let mut types: Vec<(&String, &u64)> = self.by_event_type.iter().collect();
            // Most frequent first; the untyped ones last.
            types.sort_by_key(|(name, count)| (name.as_str() == UNTYPED, std::cmp::Reverse(**count)));
            // Event types come off the network, unverified.
            let listed: Vec<String> =
                types.iter().map(|(name, count)| format!("{} {count}", terminal_safe(name))).collect();
            text.push_str(&format!("\n  by event type: {}", listed.join(", ")));
        }
        if self.journaled + self.journal_errors > 0 {
            text.push_str(&format!("\n  journal: {}", plural(self.journaled, "line", "lines")));
            if self.journal_errors > 0 {
                text.push_str(&palette.red(&format!(", {} FAILED to append (answered 500)", self.journal_errors)));
            }
        }
        if self.not_shown > 0 {
            text.push_str(&format!(
                "\n  {} not shown (the terminal could not keep up)",
                plural(self.not_shown, "delivery", "deliveries")
            ));
        }
        text
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_add_up_and_render() {
        let counter = Counter::default();
        let delivery = |valid, duplicate, event_type| Counted {
            valid,
            duplicate,
            forwarded: Some(if duplicate { ForwardResult::AppError } else { ForwardResult::Accepted }),
            failed_on_purpose: false,
            journaled: Some(true),
            event_type,
        };
        counter.delivery(delivery(true, false, Some("invoice.paid")));
        counter.delivery(delivery(true, true, Some("invoice.paid")));
        counter.delivery(delivery(false, false, None));
        counter.rejected();
        counter.delivery(delivery(false, false, Some("\x1b[2Kfake")));
        let summary = counter.snapshot();
        assert_eq!((summary.received, summary.valid, summary.invalid, summary.duplicates), (4, 2, 2, 1));
        let text = summary.render_human(Palette::plain());
        assert!(
            text.starts_with(
                "summary: 4 deliveries: 2 valid, 2 invalid, 1 duplicate, 3 forwarded, 1 answered with an error by the app; 1 rejected request"
            ),
            "{text}"
        );
        assert!(text.contains("by event type: invoice.paid 2, \\u{1b}[2Kfake 1, (none) 1"), "{text}");
        assert!(!text.contains('\x1b'), "{text}");
        assert!(text.contains("journal: 4 lines"), "{text}");
    }
}
