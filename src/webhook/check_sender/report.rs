//! The finished run: the suite report every check suite shares, plus what the receiver saw (the
//! events and their attempts) in `--format json`.
use serde::Serialize;

use super::book::{Ending, Event};
use crate::conformance::{SuiteFormat, SuiteReport, suite_schema};
use crate::exit::Outcome;
use crate::html_report::svg::{self, Mark};
use crate::html_report::{Cell, HtmlReport, Tone, escape};
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
            SuiteFormat::Html => self.render_html(),
        }
    }

    /// The suite's page, with the sender's attempts drawn over time: a lane per event, a mark per
    /// attempt, coloured by the answer scripted for it (red when its signature did not hold).
    fn render_html(&self) -> String {
        let mut report = self.suite.html_report();
        let times: Vec<Option<chrono::DateTime<chrono::FixedOffset>>> = self
            .events
            .iter()
            .flat_map(|event| &event.attempts)
            .map(|attempt| chrono::DateTime::parse_from_rfc3339(&attempt.received_at).ok())
            .collect();
        let first = times.iter().flatten().min().copied();
        let lanes: Vec<(String, Vec<Mark>)> = self
            .events
            .iter()
            .map(|event| {
                let marks = event
                    .attempts
                    .iter()
                    .map(|attempt| {
                        let at = chrono::DateTime::parse_from_rfc3339(&attempt.received_at).ok();
                        let at_ms = match (at, first) {
                            (Some(at), Some(first)) => (at - first).num_microseconds().unwrap_or(0) as f64 / 1000.0,
                            _ => 0.0,
                        };
                        let status = attempt.step.split(':').next().and_then(|status| status.parse::<u16>().ok());
                        let tone = match (attempt.signature_valid, status) {
                            (false, _) => Tone::Bad,
                            (true, None) => Tone::Warn,
                            (true, status) => Tone::of_status(status),
                        };
                        let signature = match &attempt.signature_problem {
                            None if attempt.signature_valid => "signature valid".to_string(),
                            None => "signature invalid".to_string(),
                            Some(problem) => format!("signature: {problem}"),
                        };
                        let label = format!(
                            "attempt {} at {}: answered {}, {signature}",
                            attempt.attempt, attempt.received_at, attempt.step
                        );
                        Mark { at_ms, tone, label }
                    })
                    .collect();
                (format!("event {}", event.event), marks)
            })
            .collect();
        let mut section = String::new();
        if lanes.iter().all(|(_, marks)| marks.is_empty()) {
            section.push_str("<p class=\"note\">No attempt arrived.</p>\n");
        } else {
            section.push_str(&svg::attempts("the sender's attempts over time", &lanes));
        }
        let rows = self
            .events
            .iter()
            .flat_map(|event| event.attempts.iter().map(move |attempt| (event.event, attempt)))
            .map(|(event, attempt)| {
                let signature = if attempt.signature_valid {
                    Cell::Text("valid".into(), Tone::Good)
                } else {
                    Cell::Text(attempt.signature_problem.clone().unwrap_or_else(|| "invalid".into()), Tone::Bad)
                };
                (
                    vec![("event", event.to_string())],
                    vec![
                        Cell::text(event.to_string()),
                        Cell::text(attempt.attempt.to_string()),
                        Cell::text(attempt.received_at.clone()),
                        Cell::text(attempt.id.clone().unwrap_or_default()),
                        Cell::text(attempt.step.clone()),
                        signature,
                        Cell::text(attempt.gap_ms.map(|gap| format!("{gap:.0} ms")).unwrap_or_default()),
                    ],
                )
            })
            .collect();
        section.push_str(&HtmlReport::table(
            &["event", "attempt", "received", "delivery id", "answered", "signature", "after the previous"],
            rows,
        ));
        if let Some(sender) = &self.sender {
            let exit = sender.exit.as_deref().unwrap_or("still running at the end, stopped");
            let _ = std::fmt::Write::write_fmt(
                &mut section,
                format_args!(
                    "<p class=\"note\">sender: <code>{}</code> ({})</p>\n",
                    escape(&sender.command),
                    escape(exit)
                ),
            );
        }
        report.section("Attempts", &section);
        report.finish()
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
