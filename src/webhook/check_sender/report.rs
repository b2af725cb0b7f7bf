//! The finished run: the suite report every check suite shares, plus what the receiver saw (the
//! events and their attempts) in `--format json`.
use serde::Serialize;

use super::book::{Ending, Event};
use crate::conformance::{SuiteFormat, SuiteReport, suite_schema};
use crate::exit::Outcome;
use crate::output::Palette;
use crate::units::millis;

#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub(crate) struct SenderReport {
    #[serde(flatten)]
    pub suite: SuiteReport,
    /// The URL the sender was told to deliver to.
    pub url: String,
    pub script: String,
    pub sender: Option<SenderSummary>,
    pub events: Vec<EventSummary>,
}

#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub(crate) struct SenderSummary {
    pub command: String,
    /// `exit status 0`, or `null` when it was still running at the end and was stopped.
    pub exit: Option<String>,
}

#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub(crate) struct EventSummary {
    pub event: usize,
    pub ids: Vec<String>,
    pub attempts: Vec<AttemptSummary>,
}

#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub(crate) struct AttemptSummary {
    pub attempt: u32,
    pub received_at: String,
    pub id: Option<String>,
    /// The scripted answer: a status, `STATUS:SECONDS` with Retry-After, or `hold`.
    pub step: String,
    pub signature_valid: bool,
    pub signature_problem: Option<String>,
    pub timestamp: Option<i64>,
    /// Since the previous attempt of the event ended (its answer, or the sender giving up).
    pub gap_ms: Option<f64>,
    /// For a held attempt: how long the sender waited before giving up (`null` if it never did).
    pub held_ms: Option<f64>,
    pub body_bytes: usize,
    pub content_type: Option<String>,
    pub user_agent: Option<String>,
}

impl SenderReport {
    pub(crate) fn outcome(&self) -> Outcome {
        self.suite.outcome()
    }

    pub(crate) fn render(&self, format: SuiteFormat, palette: Palette) -> String {
        match format {
            SuiteFormat::Human => format!("\n{}", self.suite.render_human(palette)),
            SuiteFormat::Json => {
                crate::json_output::pretty(&suite_schema(self.suite.suite), self).unwrap_or_default() + "\n"
            }
            SuiteFormat::Junit => self.suite.render_junit(),
        }
    }
}

pub(crate) fn summarise(events: &[Event]) -> Vec<EventSummary> {
    events
        .iter()
        .map(|event| EventSummary {
            event: event.number,
            ids: event.ids().into_iter().map(str::to_string).collect(),
            attempts: event
                .attempts
                .iter()
                .enumerate()
                .map(|(index, attempt)| {
                    let previous = index.checked_sub(1).and_then(|previous| event.attempts[previous].ended_at());
                    let arrival = &attempt.arrival;
                    AttemptSummary {
                        attempt: attempt.number,
                        received_at: crate::clock::rfc3339(arrival.received),
                        id: arrival.id.clone(),
                        step: attempt.step.to_string(),
                        signature_valid: arrival.signature.matched,
                        signature_problem: arrival.signature.problem.clone(),
                        timestamp: arrival.signature.timestamp,
                        gap_ms: previous.map(|ended| millis(arrival.at.saturating_duration_since(ended))),
                        held_ms: match attempt.ending {
                            Ending::GaveUp(at) => Some(millis(at.saturating_duration_since(arrival.at))),
                            _ => None,
                        },
                        body_bytes: arrival.body.len(),
                        content_type: arrival.content_type.clone(),
                        user_agent: arrival.user_agent.clone(),
                    }
                })
                .collect(),
        })
        .collect()
}
