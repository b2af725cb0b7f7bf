//! The checks, judged from what the receiver observed once the run is over. Each file holds the
//! checks about one of the sender's duties: `identity` (signature, event id, body), `retries`
//! (after a 5xx, after no answer, backoff, Retry-After), `stops` (after 2xx and 410),
//! `timestamps`, `headers`.
mod headers;
mod identity;
mod retries;
mod sender_mistakes;
mod stops;
mod timestamps;

use std::time::Duration;

use super::book::{Attempt, Event, Redirected};
use crate::conformance::{CheckOutcome, CheckResult, CheckSpec, Level};
use crate::units::format_duration;
pub(crate) use sender_mistakes::SecretForm;

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
pub(crate) struct Observed {
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

impl Observed {
    /// Why an expected attempt did not come: a verdict when the sender has exited, a skip reason
    /// otherwise. `Err` holds the skip reason.
    fn missing(&self, what: &str) -> Result<String, String> {
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
    fn span(&self) -> Duration {
        let first = self.attempts().map(|(_, attempt)| attempt.arrival.at).min();
        let last = self.attempts().map(|(_, attempt)| attempt.ended_at().unwrap_or(attempt.arrival.at)).max();
        match (first, last) {
            (Some(first), Some(last)) => last.saturating_duration_since(first),
            _ => Duration::ZERO,
        }
    }

    fn attempts(&self) -> impl Iterator<Item = (&Event, &Attempt)> {
        self.events.iter().flat_map(|event| event.attempts.iter().map(move |attempt| (event, attempt)))
    }
}

/// A check's finding before it becomes a result.
enum Finding {
    Held(Vec<String>),
    Broken(Vec<String>),
    Skipped(String),
}

impl Finding {
    fn result(self, spec: &CheckSpec) -> CheckResult {
        match self {
            Finding::Held(evidence) => spec.judged(true, evidence, Duration::ZERO),
            Finding::Broken(evidence) => spec.judged(false, evidence, Duration::ZERO),
            Finding::Skipped(reason) => spec.skipped(reason),
        }
    }
}

/// At most this many evidence lines per check; the rest are counted.
const MAX_EVIDENCE: usize = 6;

fn bounded(mut lines: Vec<String>) -> Vec<String> {
    if lines.len() > MAX_EVIDENCE {
        let more = lines.len() - (MAX_EVIDENCE - 1);
        lines.truncate(MAX_EVIDENCE - 1);
        lines.push(format!("… and {more} more"));
    }
    lines
}

pub(crate) const SIGNED: CheckSpec = CheckSpec {
    id: "signed",
    title: "every attempt carries a valid signature for the scheme",
    why: "a receiver must refuse unsigned and mis-signed deliveries, so they are never processed",
    level: Level::Required,
    fix: "sign every attempt with the receiver's secret over the exact body bytes sent, in the scheme's header format",
};
pub(crate) const EVENT_ID_STABLE: CheckSpec = CheckSpec {
    id: "event-id-stable",
    title: "every attempt of one event carries the same event id",
    why: "receivers de-duplicate retries by the event id; a new id per attempt makes every retry a new event",
    level: Level::Required,
    fix: "mint the event id once when the event is created and send that id on every retry (the svix / Standard Webhooks `webhook-id`)",
};
pub(crate) const BODY_STABLE: CheckSpec = CheckSpec {
    id: "body-stable",
    title: "every attempt of one event carries the same body bytes",
    why: "a retry is the same event again; a receiver that saw the first copy must be able to trust the second",
    level: Level::Required,
    fix: "serialise the event once and send the same bytes on every retry; do not re-render it per attempt",
};
pub(crate) const RETRIES_AFTER_5XX: CheckSpec = CheckSpec {
    id: "retries-after-5xx",
    title: "a 5xx answer is followed by another attempt",
    why: "a 5xx says the receiver failed this time; without a retry the event is lost",
    level: Level::Required,
    fix: "treat any 5xx (and 429) as a failed attempt and schedule a retry with backoff",
};
pub(crate) const RETRIES_AFTER_TIMEOUT: CheckSpec = CheckSpec {
    id: "retries-after-timeout",
    title: "an attempt that got no answer is retried",
    why: "a receiver that hangs or crashes mid-request never answers; the sender must time out and try again",
    level: Level::Required,
    fix: "set a request timeout (5–30s) and schedule a retry when it fires or the connection drops",
};
pub(crate) const SENDER_TIMEOUT: CheckSpec = CheckSpec {
    id: "sender-timeout",
    title: "the sender waits between 5s and 30s for an answer before giving up",
    why: "providers allow 5s (Standard Webhooks suggests it) to 30s; sooner fails slow receivers, later stalls the queue",
    level: Level::Advisory,
    fix: "give each attempt between 5s and 30s to be answered (e.g. requests' timeout=, axios' timeout:, Go's http.Client.Timeout)",
};
pub(crate) const BACKOFF_GROWS: CheckSpec = CheckSpec {
    id: "backoff-grows",
    title: "the waits between attempts do not shrink, and the first retry is not immediate",
    why: "a receiver that is down needs time to recover; retries that come at once or faster add load to an outage",
    level: Level::Advisory,
    fix: "wait before the first retry and grow the wait (exponential backoff with jitter: e.g. 5s, 30s, 2m, …)",
};
pub(crate) const HONOURS_RETRY_AFTER: CheckSpec = CheckSpec {
    id: "honours-retry-after",
    title: "after a Retry-After answer the next attempt comes no sooner than asked",
    why: "429 and 503 with Retry-After are the receiver asking for time (RFC 9110 §10.2.3)",
    level: Level::Advisory,
    fix: "read Retry-After (seconds or an HTTP date) on 429 and 503 and wait at least that long before the next attempt",
};
pub(crate) const STOPS_AFTER_2XX: CheckSpec = CheckSpec {
    id: "stops-after-2xx",
    title: "no further attempt after a 2xx answer",
    why: "a 2xx acknowledges the event; sending it again makes the receiver process or de-duplicate it for nothing",
    level: Level::Required,
    fix: "mark the event delivered on any 2xx and stop retrying it",
};
pub(crate) const STOPS_AFTER_410: CheckSpec = CheckSpec {
    id: "stops-after-410",
    title: "no further attempt after 410 Gone",
    why: "410 says the endpoint is gone for good (Standard Webhooks, Svix: disable the endpoint)",
    level: Level::Advisory,
    fix: "on 410 Gone stop retrying and disable the endpoint",
};
pub(crate) const FRESH_TIMESTAMP: CheckSpec = CheckSpec {
    id: "fresh-timestamp",
    title: "each retry is signed afresh, with the time it is sent",
    why: "a retry that re-sends the first signature ages out of the receiver's replay window and is refused",
    level: Level::Advisory,
    fix: "sign each attempt at the time it is sent (a new timestamp and signature per retry), not once at creation",
};
pub(crate) const TIMESTAMP_SKEW: CheckSpec = CheckSpec {
    id: "timestamp-skew",
    title: "the signed time is within the tolerance of the receiver's clock",
    why: "receivers refuse timestamps outside their window (5 minutes for Stripe and Standard Webhooks)",
    level: Level::Required,
    fix: "sign with the current time from a synchronised clock (NTP), in seconds since the epoch",
};
pub(crate) const CONTENT_TYPE_JSON: CheckSpec = CheckSpec {
    id: "content-type-json",
    title: "JSON bodies are sent as application/json",
    why: "frameworks pick their body parser by Content-Type; a wrong one can turn the body into a form or nothing",
    level: Level::Advisory,
    fix: "send JSON bodies with `Content-Type: application/json`",
};
pub(crate) const IDENTIFIES_ITSELF: CheckSpec = CheckSpec {
    id: "identifies-itself",
    title: "a User-Agent is sent",
    why: "receivers and their firewalls tell webhook traffic apart by it; providers name theirs",
    level: Level::Advisory,
    fix: "send a User-Agent naming your service and version, e.g. `Acme-Webhooks/1.2`",
};

/// Every check of `webhook check-sender`, in the order they are reported: `--list`, the man page
/// and the ids `--only`, `--skip` and `--expect-fail` accept. A new check is one more entry here.
pub(crate) const CHECKS: &[CheckSpec] = &[
    SIGNED,
    EVENT_ID_STABLE,
    BODY_STABLE,
    RETRIES_AFTER_5XX,
    RETRIES_AFTER_TIMEOUT,
    SENDER_TIMEOUT,
    BACKOFF_GROWS,
    HONOURS_RETRY_AFTER,
    STOPS_AFTER_2XX,
    STOPS_AFTER_410,
    FRESH_TIMESTAMP,
    TIMESTAMP_SKEW,
    CONTENT_TYPE_JSON,
    IDENTIFIES_ITSELF,
    sender_mistakes::REDIRECT_NOT_FOLLOWED,
    sender_mistakes::THROTTLES_AFTER_429,
    sender_mistakes::SECRET_LENGTH,
];

/// Every check, in the order. Each is graded after the fact, so its duration is the span
/// of the events it judged: from the first attempt's arrival to the last attempt's end.
pub(crate) fn judge(observed: &Observed) -> Vec<CheckResult> {
    let mut results = vec![
        identity::signed(observed).result(&SIGNED),
        identity::event_id_stable(observed).result(&EVENT_ID_STABLE),
        identity::body_stable(observed).result(&BODY_STABLE),
        retries::after_5xx(observed).result(&RETRIES_AFTER_5XX),
        retries::after_timeout(observed).result(&RETRIES_AFTER_TIMEOUT),
        retries::sender_timeout(observed).result(&SENDER_TIMEOUT),
        retries::backoff_grows(observed).result(&BACKOFF_GROWS),
        retries::honours_retry_after(observed).result(&HONOURS_RETRY_AFTER),
        stops::after_status(observed, |status| status.is_success(), "a 2xx").result(&STOPS_AFTER_2XX),
        stops::after_status(observed, |status| status == http::StatusCode::GONE, "410").result(&STOPS_AFTER_410),
        timestamps::fresh(observed).result(&FRESH_TIMESTAMP),
        timestamps::skew(observed).result(&TIMESTAMP_SKEW),
        headers::content_type_json(observed).result(&CONTENT_TYPE_JSON),
        headers::identifies_itself(observed).result(&IDENTIFIES_ITSELF),
        sender_mistakes::redirect_not_followed(observed).result(&sender_mistakes::REDIRECT_NOT_FOLLOWED),
        sender_mistakes::throttles_after_429(observed).result(&sender_mistakes::THROTTLES_AFTER_429),
        sender_mistakes::secret_length(observed).result(&sender_mistakes::SECRET_LENGTH),
    ];
    let span = observed.span();
    for result in results.iter_mut().filter(|result| result.outcome != CheckOutcome::Skip) {
        result.duration = span;
    }
    results
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
    use super::{Observed, SenderEnd};

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

    pub(crate) fn observed(events: Vec<Event>, sender: SenderEnd) -> Observed {
        Observed {
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
