//! What the receiving side saw of the sender, as the checks read it: the events and their
//! attempts (filed by `book`), how the sender command ended, the secret's form, and how a check
//! says what it found. The checks' one input and output; it imports no check group.
use std::time::Duration;

pub(crate) use super::book::{Attempt, Ending, Event, Redirected};
pub(crate) use super::script::Step;
use crate::conformance::{CheckResult, CheckSpec};
use crate::units::format_duration;

/// A retry within this long of the failure counts as immediate (`backoff-grows`,
/// `throttles-after-429`).
pub(crate) const IMMEDIATE: Duration = Duration::from_millis(100);

/// Where the sender command stood when the run ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum SenderEnd {
    /// No `-- SENDER_CMD`: the sender runs elsewhere, so a missing retry may only be late.
    External,
    /// It exited, with this description of its status: whatever it did not send, it never will.
    Exited(String),
    /// It was still running at the end of `--timeout`, and was stopped.
    StillRunning,
}

/// Everything the checks judge.
#[derive(Debug, Clone)]
pub(crate) struct SenderObservation {
    pub events: Vec<Event>,
    pub sender: SenderEnd,
    /// How long the run waited, for "not within …" evidence.
    pub waited: Duration,
    /// The receiver's timestamp tolerance.
    pub tolerance: Duration,
    /// Requests that followed a scripted redirect.
    pub redirected: Vec<Redirected>,
    /// `--scheme` (`None`: auto).
    pub scheme: Option<crate::webhook::scheme::SchemeKind>,
    /// What the secret is, for `secret-length`.
    pub secret: SecretForm,
}

impl SenderObservation {
    /// Why an expected attempt did not come: a verdict when the sender has exited, a skip reason
    /// otherwise. `Err` holds the skip reason.
    pub(crate) fn missing(&self, what: &str) -> Result<String, String> {
        match &self.sender {
            SenderEnd::Exited(status) => Ok(format!("{what}, and the sender exited ({status})")),
            SenderEnd::External | SenderEnd::StillRunning => Err(format!(
                "{what} within {}: the sender's schedule may be longer; pass --timeout",
                format_duration(self.waited)
            )),
        }
    }

    /// From the first attempt's arrival to the end of the last one (its answer, the sender giving
    /// up, or its arrival when it is still open).
    pub(crate) fn span(&self) -> Duration {
        let first = self.attempts().map(|(_, attempt)| attempt.arrival.at).min();
        let last = self.attempts().map(|(_, attempt)| attempt.ended_at().unwrap_or(attempt.arrival.at)).max();
        match (first, last) {
            (Some(first), Some(last)) => last.saturating_duration_since(first),
            _ => Duration::ZERO,
        }
    }

    pub(crate) fn attempts(&self) -> impl Iterator<Item = (&Event, &Attempt)> {
        self.events.iter().flat_map(|event| event.attempts.iter().map(move |attempt| (event, attempt)))
    }
}

/// A check's finding before it becomes a result: a broken one states what was seen, with its
/// numbers, in one line (`finding`) besides the evidence.
pub(crate) enum SenderFinding {
    Held(Vec<String>),
    Broken { finding: String, evidence: Vec<String> },
    Skipped(String),
}

impl SenderFinding {
    pub(crate) fn broken(finding: impl Into<String>, evidence: Vec<String>) -> SenderFinding {
        SenderFinding::Broken { finding: finding.into(), evidence }
    }

    pub(crate) fn result(self, spec: &CheckSpec) -> CheckResult {
        match self {
            SenderFinding::Held(evidence) => spec.held(evidence, Duration::ZERO),
            SenderFinding::Broken { finding, evidence } => spec.broken(finding, evidence, Duration::ZERO),
            SenderFinding::Skipped(reason) => spec.skipped(reason),
        }
    }
}

/// At most this many evidence lines per check; the rest are counted.
const MAX_EVIDENCE: usize = 6;

pub(crate) fn bounded(mut lines: Vec<String>) -> Vec<String> {
    if lines.len() > MAX_EVIDENCE {
        let more = lines.len() - (MAX_EVIDENCE - 1);
        lines.truncate(MAX_EVIDENCE - 1);
        lines.push(format!("… and {more} more"));
    }
    lines
}

/// What the secret the receiver checks with is, for `secret-length`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum SecretForm {
    /// `whsec_` + base64 (or bare base64) of this many bytes.
    Decoded(usize),
    /// A `whsk_`/`whpk_` Ed25519 key: its size is fixed.
    Asymmetric,
    /// Not base64: not a Standard Webhooks secret at all.
    NotBase64,
}

impl SecretForm {
    pub(crate) fn of(secret: &[u8]) -> SecretForm {
        use crate::webhook::scheme::ed25519::{PUBLIC_PREFIX, SECRET_PREFIX};
        use base64::Engine;
        if secret.starts_with(SECRET_PREFIX.as_bytes()) || secret.starts_with(PUBLIC_PREFIX.as_bytes()) {
            return SecretForm::Asymmetric;
        }
        let encoded = secret.strip_prefix(b"whsec_").unwrap_or(secret);
        match crate::webhook::scheme::BASE64.decode(encoded) {
            Ok(bytes) => SecretForm::Decoded(bytes.len()),
            Err(_) => SecretForm::NotBase64,
        }
    }
}

#[cfg(test)]
pub(crate) mod fixtures {
    //! Hand-built observations: each check is tested against the situation it judges, without
    //! sockets or sleeps.
    use std::time::{Duration, Instant};

    use bytes::Bytes;
    use chrono::Utc;

    use super::super::book::{Arrival, Attempt, Ending, Event, Signature};
    use super::super::script::Step;
    use super::{SenderEnd, SenderObservation};

    /// One attempt: `at` seconds after the start, answered (or given up on) `took` seconds later.
    pub(crate) struct Spec {
        pub at: f64,
        pub took: f64,
        pub step: Step,
        pub id: Option<&'static str>,
        pub body: &'static str,
        pub timestamp: Option<i64>,
    }

    pub(crate) fn spec(at: f64, step: Step) -> Spec {
        Spec { at, took: 0.001, step, id: Some("evt_1"), body: "{\"id\":\"evt_1\"}", timestamp: None }
    }

    pub(crate) fn answer(status: u16) -> Step {
        Step::Answer { status: http::StatusCode::from_u16(status).unwrap(), retry_after: None }
    }

    pub(crate) fn event(number: usize, start: Instant, specs: Vec<Spec>) -> Event {
        let attempts = specs
            .into_iter()
            .enumerate()
            .map(|(index, spec)| {
                let at = start + Duration::from_secs_f64(spec.at);
                let ended = at + Duration::from_secs_f64(spec.took);
                Attempt {
                    arrival: Arrival {
                        received: Utc::now(),
                        at,
                        id: spec.id.map(str::to_string),
                        body: Bytes::from_static(spec.body.as_bytes()),
                        signature: Signature { scheme: None, matched: true, problem: None, timestamp: spec.timestamp },
                        content_type: Some("application/json".into()),
                        user_agent: Some("test/1".into()),
                    },
                    number: u32::try_from(index + 1).unwrap(),
                    step: spec.step,
                    ending: match spec.step {
                        Step::Hold => Ending::GaveUp(ended),
                        Step::Answer { .. } => Ending::Answered(ended),
                    },
                }
            })
            .collect();
        Event { number, attempts }
    }

    pub(crate) fn observed(events: Vec<Event>, sender: SenderEnd) -> SenderObservation {
        SenderObservation {
            events,
            sender,
            waited: Duration::from_secs(10),
            tolerance: Duration::from_secs(300),
            redirected: Vec::new(),
            scheme: None,
            secret: super::SecretForm::Decoded(32),
        }
    }
}
