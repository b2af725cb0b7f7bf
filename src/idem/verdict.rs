//! The one place that decides what a set of answers to duplicate requests means: executed once,
//! executed more than once, answered inconsistently, or nothing to conclude from. `send`, `race`
//! and `check` all judge here, so they agree on what "executed twice" means.
//!
//! No green without evidence: a verdict that holds needs at least one 2xx answer and, for
//! duplicates, something that shows how many times the server executed: the count at
//! `--count-url`, a replay marker header, a 409 among concurrent duplicates, or a resource id the
//! server made (one that is not in the request). A matching id the client sent proves nothing (an
//! upsert keyed by the client's order number answers the same id however often it charges): that
//! verdict is `unconfirmed`, with the fix. The evidence a verdict rests on is in its `evidence`.
use std::time::Duration;

use bytes::Bytes;
use http::HeaderMap;
use serde::Serialize;

use crate::count::{Baseline, CountReading, Step};
use crate::evidence_level::{COUNT_REQUIRED, EvidenceLevel};
use crate::http::client::Exchange;
use crate::http::content_encoding;
use crate::idem::json_digest::digest_json;
use crate::idem::request::{FoundId, IdSource, RequestSpec};
use crate::text::{ellipsis, plural};

/// The headers servers use to mark a replayed response: Stripe's `Idempotent-Replayed`, and the
/// spellings idempotency middlewares send (`Idempotent-Replay` in several Express and ASGI ones,
/// `X-Is-Replay` in Laravel's replay package).
pub(crate) const REPLAY_MARKERS: [&str; 9] = [
    "idempotent-replayed",
    "idempotency-replayed",
    "x-idempotent-replayed",
    "x-idempotency-replayed",
    "idempotent-replay",
    "idempotency-replay",
    "x-idempotent-replay",
    "x-idempotency-replay",
    "x-is-replay",
];

/// Whether `name` is one of the true/false replay marker headers (not, say, Worldline's
/// timestamp of the first request).
pub(crate) fn is_boolean_replay_marker(name: &str) -> bool {
    REPLAY_MARKERS.iter().any(|known| known.eq_ignore_ascii_case(name))
}

/// The replay markers for messages: `Idempotent-Replayed, Idempotency-Replayed, …`.
pub(crate) fn replay_marker_names() -> String {
    REPLAY_MARKERS.iter().map(|name| crate::output::header_display_name(name)).collect::<Vec<_>>().join(", ")
}

/// One duplicate's answer, as the verdict sees it.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct Observed {
    /// `None` when no answer came (connection refused, timeout, protocol error).
    pub status: Option<u16>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// The created resource's id: from the body at `--id-field`, else `Location` or
    /// `Content-Location` (or `--id-header`).
    pub resource_id: Option<String>,
    /// Where `resource_id` was read (`body /id`, `Location`, …).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub id_from: Option<String>,
    /// The answer carried a replay marker header set to true.
    pub replayed: bool,
    /// Which replay marker header, lower-cased.
    #[serde(skip)]
    pub marker: Option<&'static str>,
    /// The `Retry-After` header, which a 409 for a request in flight should carry.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub retry_after: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub content_type: Option<String>,
    /// The `Content-Encoding` the body arrived in; the body here is decoded.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub content_encoding: Option<String>,
    /// Why an encoded body could not be decoded.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub decode_error: Option<String>,
    /// The body, decoded from its `Content-Encoding`.
    #[serde(skip)]
    pub body: Bytes,
    /// Hashes standing for `body` when the body itself was not kept (`idem proxy` holds a
    /// window's worth of answers): replays are then compared by digest.
    #[serde(skip)]
    pub body_digest: Option<BodyDigest>,
    /// How long the answer took (reported by the caller's record; here for the timing warning).
    #[serde(skip)]
    pub latency: Option<Duration>,
}

impl Observed {
    pub fn answer(status: u16, headers: &HeaderMap, body: Bytes, ids: &IdSource) -> Observed {
        let decoded = content_encoding::decode(headers, body);
        let found = if (200..300).contains(&status) { ids.read(headers, &decoded.body) } else { None };
        Observed::decoded(status, headers, decoded, found, None)
    }

    /// `answer` with its body's digest set, taken in the same pass over the body that reads the
    /// id: `idem proxy` keeps digests, not bodies, and reading each answer once, without building
    /// its JSON as a `serde_json::Value`, is a measurable share of its judged path.
    pub fn answer_digested(status: u16, headers: &HeaderMap, body: Bytes, ids: &IdSource) -> Observed {
        let decoded = content_encoding::decode(headers, body);
        let success = (200..300).contains(&status);
        // Only a 2xx answer's id is read (as `answer` does); other bodies are only hashed.
        let json = digest_json(&decoded.body, success.then_some(ids.field.as_str()));
        let (json_hash, body_id) = json.map_or((None, None), |json| (Some(json.hash), json.id));
        let found = if success { ids.read_with_body_id(headers, body_id) } else { None };
        let digest = BodyDigest::with_json_hash(&decoded.body, json_hash);
        Observed::decoded(status, headers, decoded, found, Some(digest))
    }

    fn decoded(
        status: u16,
        headers: &HeaderMap,
        decoded: content_encoding::Decoded,
        found: Option<FoundId>,
        body_digest: Option<BodyDigest>,
    ) -> Observed {
        let marker = replay_marker(headers);
        let (resource_id, id_from) = found.map_or((None, None), |found| (Some(found.id), Some(found.from)));
        Observed {
            status: Some(status),
            error: None,
            id_from,
            resource_id,
            replayed: marker.is_some(),
            marker,
            retry_after: header_text(headers, http::header::RETRY_AFTER),
            content_type: header_text(headers, http::header::CONTENT_TYPE),
            content_encoding: decoded.encoding,
            decode_error: decoded.error,
            body: decoded.body,
            body_digest,
            latency: None,
        }
    }

    pub fn from_exchange(exchange: &Exchange, ids: &IdSource) -> Observed {
        let mut observed = Observed::answer(exchange.status.as_u16(), &exchange.headers, exchange.body.clone(), ids);
        observed.latency = Some(exchange.latency);
        observed
    }

    /// `from_exchange` through `answer_digested`.
    pub fn from_exchange_digested(exchange: &Exchange, ids: &IdSource) -> Observed {
        let mut observed =
            Observed::answer_digested(exchange.status.as_u16(), &exchange.headers, exchange.body.clone(), ids);
        observed.latency = Some(exchange.latency);
        observed
    }

    pub fn failed(error: impl Into<String>) -> Observed {
        Observed {
            status: None,
            error: Some(error.into()),
            resource_id: None,
            id_from: None,
            replayed: false,
            marker: None,
            retry_after: None,
            content_type: None,
            content_encoding: None,
            decode_error: None,
            body: Bytes::new(),
            body_digest: None,
            latency: None,
        }
    }

    pub(crate) fn is_success(&self) -> bool {
        self.status.is_some_and(|status| (200..300).contains(&status))
    }
}

/// What a step of `requests` requests could have done to the count: with a key never used before
/// (`fresh_key`), or none, a 2xx among `answers` is an execution the count must show.
pub(crate) fn count_step(answers: &[Observed], requests: usize, fresh_key: bool) -> crate::count::Step {
    crate::count::Step {
        requests: requests as u64,
        must_rise: fresh_key && answers.iter().any(Observed::is_success),
        slowest: answers.iter().filter_map(|answer| answer.latency).max().unwrap_or_default(),
    }
}

fn header_text(headers: &HeaderMap, name: http::header::HeaderName) -> Option<String> {
    headers.get(name).map(|value| String::from_utf8_lossy(value.as_bytes()).into_owned())
}

/// The replay marker header present with the value `true`, if any.
/// The first marker in `REPLAY_MARKERS`' order wins, each read at its first value (as `get`
/// reads it). One pass over the answer's few headers: nine lookups by name, each parsing the name
/// and hashing it, were a visible part of the proxy's time per judged request.
pub(crate) fn replay_marker(headers: &HeaderMap) -> Option<&'static str> {
    let mut found: Option<usize> = None;
    let mut seen = 0u16;
    for (name, value) in headers {
        let Some(index) = REPLAY_MARKERS.iter().position(|marker| *marker == name.as_str()) else { continue };
        let first_value = seen & (1 << index) == 0;
        seen |= 1 << index;
        if first_value
            && found.is_none_or(|earlier| index < earlier)
            && value.to_str().is_ok_and(|value| value.trim().eq_ignore_ascii_case("true") || value.trim() == "1")
        {
            found = Some(index);
        }
    }
    found.map(|index| REPLAY_MARKERS[index])
}

/// How many answers had each status, by status: `1 × 201, 19 × 409` (`no answer` last).
pub(crate) fn status_counts<'a>(answers: impl IntoIterator<Item = &'a Observed>) -> String {
    let mut counts: std::collections::BTreeMap<Option<u16>, usize> = Default::default();
    for answer in answers {
        *counts.entry(answer.status).or_default() += 1;
    }
    let mut parts: Vec<String> =
        counts.iter().filter_map(|(status, count)| status.map(|s| format!("{count} × {s}"))).collect();
    if let Some(failed) = counts.get(&None) {
        parts.push(format!("{failed} × no answer"));
    }
    parts.join(", ")
}

/// How the duplicates were sent, which decides what a correct server may answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Timing {
    /// One after another, each after the previous answer: every answer must be the same.
    Sequential,
    /// At the same time: a duplicate may also get 409 while the original is in flight.
    Concurrent,
}

/// What the answers show.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum Verdict {
    /// At most one execution; every other answer is an identical replay (or, concurrently, a 409).
    Consistent,
    /// More than one distinct resource was created for one key.
    ExecutedMoreThanOnce,
    /// One resource, but answers that disagree with each other.
    Inconsistent,
    /// Some duplicates got no answer, so nothing can be concluded.
    Errors,
    /// No answer was a 2xx: nothing was created, so nothing about keys was tested (a typo in the
    /// URL, an expired token).
    NothingCreated,
    /// 2xx answers, but no resource id in any of them: how many times it executed is unknown.
    CannotTell,
    /// A control (`--distinct-keys`, `--no-key`): every duplicate executed, as it should.
    AllExecuted,
    /// A control: the server collapsed duplicates that shared no key (it may fingerprint bodies).
    Collapsed,
    /// The answers look consistent, but nothing in them shows how many times the server executed:
    /// the only id is one the client sent. Exit 2, with the fix (`--count-url`).
    Unconfirmed,
}

impl Verdict {
    /// What the verdict means for the exit status: `Some(Holds)`, `Some(ProblemFound)`, or `None`
    /// when the answers cannot support a conclusion (exit 2).
    pub fn outcome(&self) -> Option<crate::exit::Outcome> {
        use crate::exit::Outcome;
        match self {
            Verdict::Consistent | Verdict::AllExecuted => Some(Outcome::Holds),
            Verdict::ExecutedMoreThanOnce | Verdict::Inconsistent | Verdict::Collapsed => Some(Outcome::ProblemFound),
            Verdict::Errors | Verdict::NothingCreated | Verdict::CannotTell | Verdict::Unconfirmed => None,
        }
    }
}

/// How byte-for-byte the replays matched the original.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum BodyMatch {
    Identical,
    /// Equal once parsed as JSON, but not byte-identical (whitespace or key order differ).
    EqualAsJson,
}

#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct Judgement {
    pub verdict: Verdict,
    /// Distinct resource ids among the 2xx answers: how many times the request executed.
    pub executions: usize,
    pub resource_ids: Vec<String>,
    /// How replays compared with their original, when there were replays.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub body_match: Option<BodyMatch>,
    /// The sentence behind a verdict that is not a plain count: what was not created, what could
    /// not be read and what to pass, what a control showed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub explanation: Option<String>,
    /// What disagreed, one sentence each (answers are numbered from 1).
    pub differences: Vec<String>,
    /// Things worth knowing that do not change the verdict.
    pub notes: Vec<String>,
    /// What the verdict rests on (empty when it rests on nothing: `unconfirmed`, `cannot_tell`,
    /// `nothing_created`, `errors`, or a single answer; kept when `--require-count` made an
    /// answer-level verdict `unconfirmed`, to show what it had).
    pub evidence: Vec<Evidence>,
    /// The level of that evidence: `count` when the count at `--count-url` decided, `answer` when
    /// the answers alone did (they show a replay, not how many times the handler ran), `null`
    /// when nothing did.
    pub evidence_level: Option<EvidenceLevel>,
}

impl Judgement {
    /// Names the level of the evidence gathered, and, under `--require-count`, refuses a verdict
    /// that holds on the answers alone: it becomes `unconfirmed` (exit 2), evidence kept.
    fn name_level(&mut self, grounds: &Grounds) {
        self.evidence_level = if self.evidence.iter().any(|e| matches!(e, Evidence::Count { .. })) {
            Some(EvidenceLevel::Count)
        } else if self.evidence.is_empty() {
            None
        } else {
            Some(EvidenceLevel::Answer)
        };
        if grounds.require_count
            && self.verdict.outcome() == Some(crate::exit::Outcome::Holds)
            && self.evidence_level != Some(EvidenceLevel::Count)
        {
            self.verdict = Verdict::Unconfirmed;
            self.explanation = Some(format!("unconfirmed: {COUNT_REQUIRED}"));
        }
    }

    /// What showed the answer was replayed, for the answer-level ✓ (see [`replay_shown_by`]).
    pub(crate) fn replay_shown_by(&self) -> String {
        replay_shown_by(&self.evidence)
    }
}

/// What in `evidence` showed that the answer was replayed: `same server id`, `replay marker`,
/// `409`, joined with ` / ` (a count shows executions, not a replay, and is not named here).
pub(crate) fn replay_shown_by(evidence: &[Evidence]) -> String {
    let mut shown: Vec<&str> = Vec::new();
    for item in evidence {
        let what = match item {
            Evidence::ServerId { .. } => "same server id",
            Evidence::ReplayMarker { .. } => "replay marker",
            Evidence::Conflict { .. } => "409",
            Evidence::DistinctIds { .. } => "distinct ids",
            Evidence::Count { .. } => continue,
        };
        if !shown.contains(&what) {
            shown.push(what);
        }
    }
    shown.join(" / ")
}

/// One piece of evidence of how many times the server executed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum Evidence {
    /// The count at `--count-url` before and after: `after - before` executions. `after` is the
    /// count once it held still (`settled_after_ms` after the step's first read), with what the
    /// closing re-read found later (`late_executions`, counted in `after`); `reads`: the distinct
    /// values read after the step, in order.
    Count {
        source: String,
        before: u64,
        after: u64,
        executions: u64,
        settled_after_ms: u64,
        late_executions: u64,
        reads: Vec<u64>,
        /// The ledger this count is (`--count-url NAME=URL`), when several were read: the one
        /// that decided (a second execution, a doubt, or the most executions).
        #[serde(skip_serializing_if = "Option::is_none")]
        ledger: Option<String>,
        /// With several ledgers, every one's change over the step, in the order given.
        #[serde(skip_serializing_if = "Vec::is_empty")]
        ledgers: Vec<crate::count::LedgerCount>,
    },
    /// Answers (numbered from 1) that carried a replay marker header: the server recognised the key.
    ReplayMarker { header: String, answers: Vec<usize> },
    /// Concurrent duplicates (numbered from 1) refused with 409 while the first was in flight.
    Conflict { answers: Vec<usize> },
    /// The resource id is the server's own: it appears nowhere in the request, so one id means one
    /// execution.
    ServerId { id: String, from: String },
    /// Distinct resource ids for one request: each is an execution.
    DistinctIds { ids: Vec<String> },
}

impl Evidence {
    /// The count as evidence, or why it is none (see `CountChange::doubt`).
    pub(crate) fn of_count(count: &CountReading) -> Result<Evidence, &str> {
        Ok(Evidence::Count {
            source: count.source.clone(),
            before: count.change.before,
            after: count.change.after,
            executions: count.change.executions()?,
            settled_after_ms: count.change.settled_after_ms,
            late_executions: count.change.late_executions,
            reads: count.change.reads.clone(),
            ledger: count.ledger.clone(),
            ledgers: count.ledgers.clone(),
        })
    }

    /// A short phrase for the human output: `count 3 → 4 at GET …`, `Idempotent-Replayed on #2, #3`.
    pub fn phrase(&self) -> String {
        let numbers = |answers: &[usize]| answers.iter().map(|n| format!("#{n}")).collect::<Vec<_>>().join(", ");
        match self {
            Evidence::Count {
                source, before, after, executions, settled_after_ms, late_executions, ledgers, ..
            } => {
                let late = match late_executions {
                    0 => String::new(),
                    late => format!("; {} arrived after it was judged", plural(*late, "execution", "executions")),
                };
                if !ledgers.is_empty() {
                    return format!(
                        "the counts went {} (settled after {settled_after_ms} ms{late})",
                        crate::count::ledgers_phrase(ledgers)
                    );
                }
                format!(
                    "the count went {before} → {after} ({}) at {source} (settled after {settled_after_ms} ms{late})",
                    plural(*executions, "execution", "executions")
                )
            }
            Evidence::ReplayMarker { header, answers } => {
                format!("{} on {}", crate::output::header_display_name(header), numbers(answers))
            }
            Evidence::Conflict { answers } => format!("409 for {} while the first was in flight", numbers(answers)),
            Evidence::ServerId { id, from } => {
                format!("{} is the server's id ({from}, not in the request)", crate::output::terminal_safe(id))
            }
            Evidence::DistinctIds { ids } => format!("{} distinct resource ids", ids.len()),
        }
    }
}

/// What the tool knows besides the answers: what the client sent (an id made from it proves
/// nothing) and the count at `--count-url`, when given.
#[derive(Debug, Clone, Default)]
pub(crate) struct Grounds {
    /// Values the request carried, with where: body values, URL path segments and query values,
    /// the key.
    pub sent: Vec<(String, &'static str)>,
    /// The count that decides: the one ledger's, or with several the one [`CountReading::deciding`]
    /// picks (carrying every ledger's change).
    pub count: Option<CountReading>,
    /// Every ledger's reading, in the order given (for the closing re-read).
    pub readings: Vec<CountReading>,
    /// `--require-count`: a verdict that holds on the answers alone is `unconfirmed`.
    pub require_count: bool,
}

/// A judgement whose count could not be believed: judged on the answers alone, it never holds on
/// them (the user asked for the count's proof and the count proves nothing), while a problem the
/// answers prove on their own still stands. `doubt` says what was read and why it is no proof.
fn set_count_aside(judgement: &mut Judgement, doubt: &str) {
    match judgement.verdict.outcome() {
        Some(crate::exit::Outcome::ProblemFound) => judgement.notes.push(doubt.to_string()),
        _ if matches!(judgement.verdict, Verdict::Errors | Verdict::NothingCreated) => {
            judgement.notes.push(doubt.to_string())
        }
        _ => {
            judgement.verdict = Verdict::Unconfirmed;
            judgement.explanation = Some(doubt.to_string());
            judgement.evidence.clear();
        }
    }
}

impl Grounds {
    /// What the verdict knows besides the answers when `key` is sent with `spec`: the request's
    /// values, and the count's change since `before` (judged against what `step` could have done
    /// to it) when `--count-url` is given.
    pub(crate) async fn gather(
        spec: &RequestSpec,
        key: Option<&str>,
        before: Option<&[Baseline]>,
        step: Step,
    ) -> anyhow::Result<Grounds> {
        let mut grounds = Grounds::of(spec, key);
        if let Some(before) = before {
            let mut readings = Vec::with_capacity(spec.ledgers.len());
            for (ledger, before) in spec.ledgers.iter().zip(before) {
                readings.push(CountReading::new(ledger.change_since(*before, step).await?, ledger));
            }
            grounds.readings = readings.clone();
            grounds.count = CountReading::deciding(readings);
        }
        Ok(grounds)
    }

    /// The closing re-read after the run's last step (`before` and `step` as `gather` had them):
    /// executions that arrived after the step was judged on its settled count count as this
    /// step's.
    pub(crate) async fn close(
        &mut self,
        spec: &RequestSpec,
        before: Option<&[Baseline]>,
        step: Step,
    ) -> anyhow::Result<()> {
        let Some(before) = before else { return Ok(()) };
        // Every ledger is re-read, and the deciding one chosen again: a late email can make the
        // emails ledger the one that shows a second execution.
        let mut readings = Vec::with_capacity(self.readings.len());
        for ((ledger, before), reading) in spec.ledgers.iter().zip(before).zip(&self.readings) {
            readings.push(CountReading::new(ledger.closing(*before, &reading.change, step).await?, ledger));
        }
        self.readings = readings.clone();
        self.count = CountReading::deciding(readings);
        Ok(())
    }

    /// The values `spec` sends with `key`.
    pub(crate) fn of(spec: &RequestSpec, key: Option<&str>) -> Grounds {
        let mut sent = Vec::new();
        if let Ok(body) = serde_json::from_slice::<serde_json::Value>(&spec.body) {
            json_values(&body, &mut sent);
        } else {
            let text = String::from_utf8_lossy(&spec.body);
            for part in text.split(['&', '=', '\n', '\r', ' ', ',', ';']) {
                let part = part.trim();
                if !part.is_empty() {
                    sent.push((part.to_string(), "body"));
                }
            }
        }
        for segment in spec.url.path().split('/').filter(|s| !s.is_empty()) {
            sent.push((segment.to_string(), "URL"));
        }
        if let Some(query) = spec.url.query() {
            for value in query.split('&').filter_map(|pair| pair.split_once('=').map(|(_, v)| v)) {
                if !value.is_empty() {
                    sent.push((value.to_string(), "URL"));
                }
            }
        }
        if let Some(key) = key {
            sent.push((key.to_string(), "key"));
        }
        Grounds { sent, count: None, readings: Vec::new(), require_count: spec.require_count }
    }

    /// Where the request carried `id` (or the value it was made from: `ord_A-7` from `A-7`), if it did.
    pub(crate) fn sent_as(&self, id: &str) -> Option<(&str, &'static str)> {
        // A Location path names the resource by its last segment; the collection is the URL's.
        let core = if id.contains('/') { id.rsplit('/').find(|s| !s.is_empty()).unwrap_or(id) } else { id };
        self.sent
            .iter()
            .find(|(value, _)| value == core || (value.chars().count() >= 3 && contains_as_token(core, value)))
            .map(|(value, place)| (value.as_str(), *place))
    }
}

/// Every string and number in a JSON body, as the text an id made from it would contain.
fn json_values(value: &serde_json::Value, out: &mut Vec<(String, &'static str)>) {
    match value {
        serde_json::Value::String(text) if !text.is_empty() => out.push((text.clone(), "body")),
        serde_json::Value::Number(number) => out.push((number.to_string(), "body")),
        serde_json::Value::Array(items) => items.iter().for_each(|item| json_values(item, out)),
        serde_json::Value::Object(fields) => fields.values().for_each(|item| json_values(item, out)),
        _ => {}
    }
}

/// `needle` occurs in `haystack` bounded by its ends or by characters that are not letters or
/// digits (`A-7` in `ord_A-7`, not `12` in `pay_123`).
fn contains_as_token(haystack: &str, needle: &str) -> bool {
    haystack.match_indices(needle).any(|(start, _)| {
        let before = haystack[..start].chars().next_back();
        let after = haystack[start + needle.len()..].chars().next();
        before.is_none_or(|c| !c.is_alphanumeric()) && after.is_none_or(|c| !c.is_alphanumeric())
    })
}

/// The distinct resource ids among the 2xx answers, in order of appearance.
fn distinct_ids(answers: &[Observed]) -> Vec<String> {
    let mut ids: Vec<String> = Vec::new();
    for id in answers.iter().filter(|a| a.is_success()).filter_map(|a| a.resource_id.as_ref()) {
        if !ids.contains(id) {
            ids.push(id.clone());
        }
    }
    ids
}

/// Why no verdict can hold when nothing was created: `every answer was 401 Unauthorized`.
fn nothing_created(answers: &[Observed]) -> String {
    let statuses: Vec<u16> = answers.iter().filter_map(|a| a.status).collect();
    let first = statuses.first().copied().unwrap_or_default();
    let what = if statuses.iter().all(|status| *status == first) {
        let reason = http::StatusCode::from_u16(first).ok().and_then(|s| s.canonical_reason()).unwrap_or("");
        let every = if statuses.len() == 1 { "the answer was" } else { "every answer was" };
        format!("{every} {first} {reason}").trim_end().to_string()
    } else {
        format!("the answers were {}", status_counts(answers))
    };
    format!("nothing was created: {what} (check the URL, method, body and credentials)")
}

/// Why the executions cannot be counted, and what to pass (`idem send`/`race` and `idem check`'s
/// `create` say it alike, so one situation reads the same in both).
pub(crate) fn cannot_tell(ids: &IdSource) -> String {
    format!(
        "cannot tell how many times it executed: no resource id at {} in any 2xx answer; pass --id-field POINTER for the id in the body, or --id-header NAME for a header that names the resource",
        ids.describe()
    )
}

/// Notes every judgement carries about how the answers were read.
fn reading_notes(answers: &[Observed]) -> Vec<String> {
    let mut notes = Vec::new();
    let mut encodings: Vec<&str> = answers.iter().filter_map(|a| a.content_encoding.as_deref()).collect();
    encodings.dedup();
    if !encodings.is_empty() {
        notes.push(format!("answers were {}-encoded; judged on the decoded bodies", encodings.join("/")));
    }
    if let Some((index, error)) =
        answers.iter().enumerate().find_map(|(index, a)| a.decode_error.as_deref().map(|e| (index, e)))
    {
        notes.push(format!("#{}: {error}", index + 1));
    }
    let mut sources: Vec<&str> = answers.iter().filter_map(|a| a.id_from.as_deref()).collect();
    sources.dedup();
    if sources.iter().any(|source| !source.starts_with("body ")) {
        notes.push(format!("resource ids read from {}", sources.join(", ")));
    }
    notes
}

/// Judges a control (`--distinct-keys` or `--no-key`): the duplicates share no key, so every one
/// should execute. Collapsing them is the finding, not executing them.
pub(crate) fn judge_control(answers: &[Observed], ids: &IdSource, grounds: &Grounds) -> Judgement {
    let resource_ids = distinct_ids(answers);
    let n = answers.len();
    let failed = answers.iter().filter(|a| a.status.is_none()).count();
    let (verdict, explanation) = if failed > 0 {
        (Verdict::Errors, None)
    } else if !answers.iter().any(Observed::is_success) {
        (Verdict::NothingCreated, Some(nothing_created(answers)))
    } else if resource_ids.is_empty() && n > 1 {
        (Verdict::CannotTell, Some(cannot_tell(ids)))
    } else if resource_ids.len() >= n {
        (Verdict::AllExecuted, Some(format!("as expected: all {n} executed ({n} distinct resources)")))
    } else {
        let collapsed = n - resource_ids.len();
        (
            Verdict::Collapsed,
            Some(format!(
                "the server collapsed {collapsed} of {n} duplicates that had no shared key (it may fingerprint bodies): {}, {} distinct",
                status_counts(answers),
                plural(resource_ids.len(), "resource", "resources")
            )),
        )
    };
    let mut judgement = Judgement {
        verdict,
        executions: resource_ids.len(),
        resource_ids,
        body_match: None,
        explanation,
        differences: Vec::new(),
        notes: reading_notes(answers),
        evidence: Vec::new(),
        evidence_level: None,
    };
    ground_control(&mut judgement, answers, grounds);
    judgement.name_level(grounds);
    judgement
}

/// A control judged by the count when there is one; a collapse shown only by ids the client sent
/// is not a finding.
fn ground_control(judgement: &mut Judgement, answers: &[Observed], grounds: &Grounds) {
    let n = answers.len();
    if let Some(count) = &grounds.count {
        let evidence = match Evidence::of_count(count) {
            Ok(evidence) => evidence,
            Err(doubt) => {
                let doubt = doubt.to_string();
                ground_control(
                    judgement,
                    answers,
                    &Grounds { sent: grounds.sent.clone(), count: None, readings: Vec::new(), require_count: false },
                );
                set_count_aside(judgement, &doubt);
                return;
            }
        };
        let executions = count.change.executions().unwrap_or_default() as usize;
        judgement.evidence.push(evidence);
        if let Some(late) = late_note(count) {
            judgement.notes.push(late);
        }
        if !count.ledgers.is_empty() {
            judgement.notes.push(format!("every ledger: {}", crate::count::ledgers_phrase(&count.ledgers)));
        }
        if matches!(judgement.verdict, Verdict::Errors | Verdict::NothingCreated) {
            return;
        }
        judgement.executions = executions;
        if executions >= n {
            judgement.verdict = Verdict::AllExecuted;
            judgement.explanation = Some(format!("as expected: all {n} executed (the count rose by {executions})"));
        } else {
            judgement.verdict = Verdict::Collapsed;
            judgement.explanation = Some(format!(
                "the server collapsed duplicates that had no shared key: {n} requests, the count rose by {executions} ({})",
                count.source
            ));
        }
        return;
    }
    match judgement.verdict {
        Verdict::AllExecuted => judgement.evidence.push(Evidence::DistinctIds { ids: judgement.resource_ids.clone() }),
        Verdict::Collapsed => {
            let sent = judgement
                .resource_ids
                .iter()
                .find_map(|id| grounds.sent_as(id).map(|(v, place)| (id.clone(), v.to_string(), place)));
            match sent {
                Some((id, value, place)) => {
                    judgement.verdict = Verdict::Unconfirmed;
                    judgement.explanation = Some(format!(
                        "unconfirmed: the duplicates share the id {}, but it is made from your request {place} ({}), so it does not show how many times the server executed: give --count-url",
                        crate::output::terminal_safe(&id),
                        crate::output::terminal_safe(&value)
                    ));
                }
                None => judgement.evidence.push(Evidence::DistinctIds { ids: judgement.resource_ids.clone() }),
            }
        }
        _ => {}
    }
}

/// The line naming executions the closing re-read found after the step was judged, if any.
fn late_note(count: &CountReading) -> Option<String> {
    let change = &count.change;
    (change.late_executions > 0).then(|| {
        format!(
            "{} arrived after the count had settled at {} and the step was judged (the closing re-read found {} at \
             {}): the server went on working after it answered, and that work is this step's",
            plural(change.late_executions, "execution", "executions"),
            change.after - change.late_executions,
            change.after,
            count.source
        )
    })
}

/// Grounds a same-key judgement: the count decides executions when given; otherwise a
/// consistent verdict over duplicates needs a replay marker, a 409 among concurrent duplicates or
/// an id the server made, or it is `unconfirmed`.
fn ground_duplicates(judgement: &mut Judgement, answers: &[Observed], timing: Timing, grounds: &Grounds) {
    if let Some(count) = &grounds.count {
        let evidence = match Evidence::of_count(count) {
            Ok(evidence) => evidence,
            Err(doubt) => {
                let doubt = doubt.to_string();
                ground_duplicates(
                    judgement,
                    answers,
                    timing,
                    &Grounds { sent: grounds.sent.clone(), count: None, readings: Vec::new(), require_count: false },
                );
                set_count_aside(judgement, &doubt);
                return;
            }
        };
        let executions = count.change.executions().unwrap_or_default() as usize;
        judgement.evidence.push(evidence);
        if let Some(late) = late_note(count) {
            judgement.notes.push(late);
        }
        if !count.ledgers.is_empty() {
            judgement.notes.push(format!("every ledger: {}", crate::count::ledgers_phrase(&count.ledgers)));
        }
        let by_ids = judgement.resource_ids.len();
        let ids = judgement.resource_ids.join(", ");
        match judgement.verdict {
            Verdict::NothingCreated if executions == 1 => {
                judgement.notes.push(format!("no answer was a 2xx, yet the count rose by 1 ({})", count.source));
            }
            Verdict::NothingCreated | Verdict::Errors if executions <= 1 => {}
            _ if executions > 1 => {
                if by_ids != executions {
                    let named = match by_ids {
                        0 => "no resource id".to_string(),
                        1 => format!("one resource ({ids})"),
                        n => format!("{n} resources ({ids})"),
                    };
                    judgement.notes.push(format!(
                        "the count and the ids disagree: the answers name {named}, the count rose by {executions}; the count is what the server did"
                    ));
                }
                judgement.verdict = Verdict::ExecutedMoreThanOnce;
                judgement.explanation = Some(format!(
                    "the count rose by {executions} for one key ({} → {} at {}, {})",
                    count.change.before,
                    count.change.after,
                    count.source,
                    count.change.settling_words()
                ));
            }
            Verdict::ExecutedMoreThanOnce => {
                judgement.verdict = Verdict::Inconsistent;
                judgement.differences.push(format!(
                    "the count and the ids disagree: the answers name {by_ids} resources ({ids}), the count rose by {executions}"
                ));
            }
            Verdict::CannotTell => {
                judgement.verdict = Verdict::Consistent;
                judgement.explanation = None;
            }
            _ => {}
        }
        judgement.executions = executions;
        return;
    }
    match judgement.verdict {
        Verdict::ExecutedMoreThanOnce => {
            judgement.evidence.push(Evidence::DistinctIds { ids: judgement.resource_ids.clone() });
        }
        Verdict::Consistent => {
            for (index, answer) in answers.iter().enumerate() {
                if answer.replayed {
                    // One entry per header name, listing the answers that carried it.
                    let header = answer.marker.unwrap_or(REPLAY_MARKERS[0]).to_string();
                    match judgement
                        .evidence
                        .iter_mut()
                        .find(|e| matches!(e, Evidence::ReplayMarker { header: h, .. } if *h == header))
                    {
                        Some(Evidence::ReplayMarker { answers, .. }) => answers.push(index + 1),
                        _ => judgement.evidence.push(Evidence::ReplayMarker { header, answers: vec![index + 1] }),
                    }
                }
            }
            let conflicts: Vec<usize> =
                answers.iter().enumerate().filter(|(_, a)| a.status == Some(409)).map(|(i, _)| i + 1).collect();
            if timing == Timing::Concurrent && !conflicts.is_empty() {
                judgement.evidence.push(Evidence::Conflict { answers: conflicts });
            }
            let sent = judgement
                .resource_ids
                .first()
                .map(|id| (id.clone(), grounds.sent_as(id).map(|(v, p)| (v.to_string(), p))));
            if let Some((id, None)) = &sent {
                let from = answers.iter().find_map(|a| a.id_from.clone()).unwrap_or_default();
                judgement.evidence.push(Evidence::ServerId { id: id.clone(), from });
            }
            let marked = judgement.evidence.iter().any(|e| matches!(e, Evidence::ReplayMarker { .. }));
            if !marked
                && timing == Timing::Sequential
                && let Some(warning) = as_slow_as_the_first(answers)
            {
                judgement.notes.push(warning);
            }
            if answers.len() > 1
                && judgement.evidence.is_empty()
                && let Some((id, Some((value, place)))) = sent
            {
                judgement.verdict = Verdict::Unconfirmed;
                let made = if value == id {
                    String::new()
                } else {
                    format!(" (made from {})", crate::output::terminal_safe(&value))
                };
                judgement.explanation = Some(format!(
                    "unconfirmed: every answer names {}, but this id is in your request {place}{made}, so it does not show how many times the server executed: give --count-url URL (a GET that counts what the server created), or have the server mark replays ({})",
                    crate::output::terminal_safe(&id),
                    "Idempotent-Replayed: true"
                ));
            }
        }
        _ => {}
    }
}

/// The timing warning: every later answer took about as long as the first, which is how
/// re-execution looks (a replay from a store is usually much faster). Never a verdict on its own.
fn as_slow_as_the_first(answers: &[Observed]) -> Option<String> {
    let mut successes = answers.iter().filter(|a| a.is_success());
    let first = successes.next()?.latency?;
    let rest: Vec<Duration> = successes.map(|a| a.latency).collect::<Option<Vec<_>>>()?;
    if rest.is_empty() || first < Duration::from_millis(5) || rest.iter().any(|later| *later < first / 2) {
        return None;
    }
    let fastest = rest.iter().min().copied().unwrap_or(first);
    Some(format!(
        "warning: every answer took as long as the first ({} and at least {} for the others): a replay from a store is usually much faster, so the server may be executing every request",
        crate::units::format_duration(first),
        crate::units::format_duration(fastest)
    ))
}

/// Judges the answers to duplicates of one logical request (same key, same body).
pub(crate) fn judge(answers: &[Observed], timing: Timing, ids: &IdSource, grounds: &Grounds) -> Judgement {
    let resource_ids = distinct_ids(answers);
    let mut differences = Vec::new();
    let mut notes = reading_notes(answers);
    let mut body_match = None;

    // The first answer that carries the result everyone else should match: the first 2xx that is
    // not marked as a replay, else the first answer.
    let original = answers
        .iter()
        .position(|a| a.is_success() && !a.replayed)
        .or_else(|| answers.iter().position(Observed::is_success))
        .or_else(|| answers.iter().position(|a| a.status.is_some()));

    if let Some(original_index) = original {
        let first = &answers[original_index];
        for (index, answer) in answers.iter().enumerate() {
            if index == original_index {
                continue;
            }
            let Some(status) = answer.status else { continue };
            let number = index + 1;
            let original_number = original_index + 1;
            let original_status = first.status.unwrap_or_default();
            if timing == Timing::Concurrent && status == 409 {
                continue;
            }
            if status != original_status {
                differences
                    .push(format!("#{number} answered {status} where #{original_number} answered {original_status}"));
                continue;
            }
            if !answer.is_success() {
                continue;
            }
            if answer.resource_id != first.resource_id {
                // Different ids are counted as executions, not reported twice.
                if answer.resource_id.is_none() || first.resource_id.is_none() {
                    differences.push(format!(
                        "#{number} and #{original_number} disagree on whether there is a resource id at {}",
                        ids.describe()
                    ));
                }
                continue;
            }
            match compare_answer_bodies(first, answer) {
                Ok(matched) => {
                    body_match = Some(match (body_match, matched) {
                        (Some(BodyMatch::EqualAsJson), _) | (_, BodyMatch::EqualAsJson) => BodyMatch::EqualAsJson,
                        _ => BodyMatch::Identical,
                    })
                }
                Err(difference) => {
                    differences.push(format!("the body of #{number} differs from #{original_number}: {difference}"))
                }
            }
        }
        if first.is_success() && resource_ids.is_empty() && answers.len() == 1 {
            notes.push(format!("no resource id at {}", ids.describe()));
        }
    }
    if body_match == Some(BodyMatch::EqualAsJson) {
        notes.push("replays are equal as JSON but not byte-identical".to_string());
    }

    let failed = answers.iter().filter(|a| a.status.is_none()).count();
    let created = answers.iter().any(Observed::is_success);
    let (verdict, explanation) = if resource_ids.len() > 1 {
        (Verdict::ExecutedMoreThanOnce, None)
    } else if !created && failed == 0 {
        // Disagreeing refusals (a 404, then a 302) still created nothing: no key was tested.
        (Verdict::NothingCreated, Some(nothing_created(answers)))
    } else if !differences.is_empty() {
        (Verdict::Inconsistent, None)
    } else if failed > 0 {
        (Verdict::Errors, None)
    } else if resource_ids.is_empty() && answers.len() > 1 {
        // Identical bodies without an id prove nothing: a server that creates a new resource on
        // every request and answers `{"ok":true}` looks exactly like one that replays.
        (Verdict::CannotTell, Some(cannot_tell(ids)))
    } else {
        (Verdict::Consistent, None)
    };
    let mut judgement = Judgement {
        verdict,
        executions: resource_ids.len(),
        resource_ids,
        body_match,
        explanation,
        differences,
        notes,
        evidence: Vec::new(),
        evidence_level: None,
    };
    ground_duplicates(&mut judgement, answers, timing, grounds);
    judgement.name_level(grounds);
    judgement
}

/// What stands for a body that was not kept: its length, a hash of its bytes, and a hash of its
/// canonical JSON form when it is JSON (`json_digest`: object members in key order, numbers by
/// value), so that "equal as JSON" can still be told from "different".
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BodyDigest {
    pub len: usize,
    pub raw: u64,
    pub json: Option<u64>,
}

impl BodyDigest {
    pub fn of(body: &[u8]) -> BodyDigest {
        BodyDigest::with_json_hash(body, digest_json(body, None).map(|json| json.hash))
    }

    /// The digest of `body` whose canonical JSON hash (`None`: not JSON) the caller already has
    /// from `digest_json`, the one pass every digest's JSON hash comes from, so digests compare.
    fn with_json_hash(body: &[u8], json: Option<u64>) -> BodyDigest {
        BodyDigest { len: body.len(), raw: crate::run_hash::hash_of(body), json }
    }
}

/// Compares two answers' bodies: in full when both were kept, else by their digests.
fn compare_answer_bodies(original: &Observed, other: &Observed) -> Result<BodyMatch, String> {
    match (original.body_digest, other.body_digest) {
        (None, None) => compare_bodies(&original.body, &other.body),
        (left, right) => compare_digests(
            left.unwrap_or_else(|| BodyDigest::of(&original.body)),
            right.unwrap_or_else(|| BodyDigest::of(&other.body)),
        ),
    }
}

/// `compare_bodies` on digests: the same verdicts, but a JSON difference cannot be placed.
pub(crate) fn compare_digests(original: BodyDigest, other: BodyDigest) -> Result<BodyMatch, String> {
    if original.len == other.len && original.raw == other.raw {
        return Ok(BodyMatch::Identical);
    }
    match (original.json, other.json) {
        (Some(a), Some(b)) if a == b => Ok(BodyMatch::EqualAsJson),
        (Some(_), Some(_)) => Err(format!(
            "not equal as JSON ({} bytes against {} bytes; the proxy keeps hashes of bodies, so where they differ is not known)",
            original.len, other.len
        )),
        _ => Err(format!("{} bytes against {} bytes, not byte-identical", original.len, other.len)),
    }
}

/// `Ok` when the bodies match byte for byte or as JSON, else a short description of the first
/// difference.
pub(crate) fn compare_bodies(original: &[u8], other: &[u8]) -> Result<BodyMatch, String> {
    if original == other {
        return Ok(BodyMatch::Identical);
    }
    let parsed =
        (serde_json::from_slice::<serde_json::Value>(original), serde_json::from_slice::<serde_json::Value>(other));
    if let (Ok(a), Ok(b)) = parsed {
        return match first_json_difference(&a, &b, String::new()) {
            None => Ok(BodyMatch::EqualAsJson),
            Some(difference) => Err(difference),
        };
    }
    Err(format!("{} bytes against {} bytes, not byte-identical", original.len(), other.len()))
}

/// The first place two JSON values differ, as `at /pointer: a → b`.
fn first_json_difference(a: &serde_json::Value, b: &serde_json::Value, at: String) -> Option<String> {
    use serde_json::Value;
    match (a, b) {
        (Value::Object(left), Value::Object(right)) => {
            for (key, left_value) in left {
                let path = format!("{at}/{key}");
                match right.get(key) {
                    Some(right_value) => {
                        if let Some(found) = first_json_difference(left_value, right_value, path) {
                            return Some(found);
                        }
                    }
                    None => return Some(format!("{path} is missing")),
                }
            }
            right.keys().find(|key| !left.contains_key(*key)).map(|key| format!("{at}/{key} was added"))
        }
        (Value::Array(left), Value::Array(right)) if left.len() == right.len() => left
            .iter()
            .zip(right)
            .enumerate()
            .find_map(|(index, (l, r))| first_json_difference(l, r, format!("{at}/{index}"))),
        (Value::Number(left), Value::Number(right)) if same_number(left, right) => None,
        _ if a == b => None,
        _ => {
            let place = if at.is_empty() { "/".to_string() } else { at };
            Some(format!("at {place}: {} → {}", shorten(&a.to_string()), shorten(&b.to_string())))
        }
    }
}

/// JSON numbers are values, not spellings: `1` and `1.0` are the same number.
fn same_number(left: &serde_json::Number, right: &serde_json::Number) -> bool {
    if left == right {
        return true;
    }
    // Integers compare exactly; only when one side is written as a float do floats decide.
    (left.is_f64() || right.is_f64()) && left.as_f64().is_some_and(|l| right.as_f64() == Some(l))
}

/// A body or header as evidence quotes it: at most this many characters.
fn shorten(text: &str) -> String {
    ellipsis(text, 60)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::count::CountChange;
    use http::HeaderValue;

    fn answer(status: u16, body: &str, replayed: bool) -> Observed {
        let mut headers = HeaderMap::new();
        if replayed {
            headers.insert("idempotent-replayed", HeaderValue::from_static("true"));
        }
        Observed::answer(status, &headers, Bytes::from(body.to_string()), &ids())
    }

    fn g() -> Grounds {
        Grounds::default()
    }

    fn ids() -> IdSource {
        IdSource { field: "/id".to_string(), header: None }
    }

    fn located(location: &str) -> Observed {
        let mut headers = HeaderMap::new();
        headers.insert(http::header::LOCATION, HeaderValue::from_str(location).unwrap());
        Observed::answer(201, &headers, Bytes::new(), &ids())
    }

    #[test]
    fn identical_replays_are_consistent() {
        let body = r#"{"id":"pay_1","amount":5}"#;
        let j = judge(
            &[answer(201, body, false), answer(201, body, true), answer(201, body, true)],
            Timing::Sequential,
            &ids(),
            &g(),
        );
        assert_eq!(j.verdict, Verdict::Consistent);
        assert_eq!(j.executions, 1);
        assert_eq!(j.body_match, Some(BodyMatch::Identical));
    }

    #[test]
    fn distinct_ids_are_executions() {
        let j = judge(
            &[
                answer(201, r#"{"id":"a"}"#, false),
                answer(201, r#"{"id":"b"}"#, false),
                answer(201, r#"{"id":"c"}"#, false),
            ],
            Timing::Sequential,
            &ids(),
            &g(),
        );
        assert_eq!(j.verdict, Verdict::ExecutedMoreThanOnce);
        assert_eq!(j.resource_ids, ["a", "b", "c"]);
    }

    #[test]
    fn conflicts_are_fine_only_concurrently() {
        let answers = [answer(201, r#"{"id":"a"}"#, false), answer(409, "{}", false)];
        assert_eq!(judge(&answers, Timing::Concurrent, &ids(), &g()).verdict, Verdict::Consistent);
        let sequential = judge(&answers, Timing::Sequential, &ids(), &g());
        assert_eq!(sequential.verdict, Verdict::Inconsistent);
        assert_eq!(sequential.differences, ["#2 answered 409 where #1 answered 201"]);
    }

    #[test]
    fn a_replay_with_another_body_is_inconsistent_and_says_where() {
        let j = judge(
            &[
                answer(201, r#"{"id":"a","status":"pending"}"#, false),
                answer(201, r#"{"id":"a","status":"succeeded"}"#, true),
            ],
            Timing::Sequential,
            &ids(),
            &g(),
        );
        assert_eq!(j.verdict, Verdict::Inconsistent);
        assert_eq!(j.differences, [r#"the body of #2 differs from #1: at /status: "pending" → "succeeded""#]);
    }

    #[test]
    fn json_equal_replays_are_consistent_but_noted() {
        let j = judge(
            &[answer(200, r#"{"id":"a","n":1}"#, false), answer(200, r#"{"n":1, "id":"a"}"#, true)],
            Timing::Sequential,
            &ids(),
            &g(),
        );
        assert_eq!(j.verdict, Verdict::Consistent);
        assert_eq!(j.body_match, Some(BodyMatch::EqualAsJson));
    }

    #[test]
    fn transport_failures_prevent_a_conclusion_unless_double_execution_is_proven() {
        let ok = answer(201, r#"{"id":"a"}"#, false);
        assert_eq!(
            judge(&[ok.clone(), Observed::failed("refused")], Timing::Concurrent, &ids(), &g()).verdict,
            Verdict::Errors
        );
        let twice = [ok, answer(201, r#"{"id":"b"}"#, false), Observed::failed("refused")];
        assert_eq!(judge(&twice, Timing::Concurrent, &ids(), &g()).verdict, Verdict::ExecutedMoreThanOnce);
    }

    #[test]
    fn uniform_rejections_are_nothing_created_not_consistent() {
        let j = judge(&[answer(401, "{}", false), answer(401, "{}", false)], Timing::Sequential, &ids(), &g());
        assert_eq!(j.verdict, Verdict::NothingCreated);
        assert_eq!(j.verdict.outcome(), None, "exit 2");
        assert_eq!(j.executions, 0);
        assert!(j.explanation.unwrap().contains("every answer was 401 Unauthorized"));
        let single = judge(&[answer(404, "", false)], Timing::Sequential, &ids(), &g());
        assert_eq!(single.verdict, Verdict::NothingCreated);
        let mixed = judge(&[answer(404, "", false), answer(409, "", false)], Timing::Concurrent, &ids(), &g());
        assert!(mixed.explanation.unwrap().contains("1 × 404, 1 × 409"));
    }

    #[test]
    fn success_without_any_id_cannot_be_counted() {
        let ok = r#"{"ok":true}"#;
        let j = judge(
            &[answer(201, ok, false), answer(201, ok, false), answer(201, ok, false)],
            Timing::Sequential,
            &ids(),
            &g(),
        );
        assert_eq!(j.verdict, Verdict::CannotTell);
        let explanation = j.explanation.unwrap();
        assert!(explanation.contains("--id-field") && explanation.contains("--id-header"), "{explanation}");
        assert_eq!(judge(&[answer(201, ok, false)], Timing::Sequential, &ids(), &g()).verdict, Verdict::Consistent);
    }

    #[test]
    fn ids_only_in_location_are_counted() {
        let j = judge(&[located("/payments/pay_1"), located("/payments/pay_2")], Timing::Sequential, &ids(), &g());
        assert_eq!(j.verdict, Verdict::ExecutedMoreThanOnce);
        assert!(j.notes.iter().any(|note| note.contains("Location")), "{:?}", j.notes);
        assert_eq!(
            judge(&[located("/p/1"), located("/p/1")], Timing::Sequential, &ids(), &g()).verdict,
            Verdict::Consistent
        );
    }

    #[test]
    fn one_and_one_point_zero_are_one_execution() {
        let j = judge(
            &[answer(201, r#"{"id":1}"#, false), answer(201, r#"{"id":1.0}"#, true)],
            Timing::Sequential,
            &ids(),
            &g(),
        );
        assert_eq!(j.executions, 1);
        assert_eq!(j.verdict, Verdict::Consistent, "{:?}", j.differences);
    }

    #[test]
    fn gzip_answers_are_judged_decoded() {
        use std::io::Write;
        let gzip = |text: &str, level| {
            let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::new(level));
            encoder.write_all(text.as_bytes()).unwrap();
            Bytes::from(encoder.finish().unwrap())
        };
        let mut headers = HeaderMap::new();
        headers.insert(http::header::CONTENT_ENCODING, HeaderValue::from_static("gzip"));
        let body = r#"{"id":"pay_1"}"#;
        let answers = [
            Observed::answer(201, &headers, gzip(body, 1), &ids()),
            Observed::answer(201, &headers, gzip(body, 9), &ids()),
        ];
        assert_eq!(answers[0].resource_id.as_deref(), Some("pay_1"));
        let j = judge(&answers, Timing::Sequential, &ids(), &g());
        assert_eq!(j.verdict, Verdict::Consistent);
        assert!(j.notes.iter().any(|note| note.contains("gzip")), "{:?}", j.notes);
    }

    #[test]
    fn controls_hold_when_every_duplicate_executed() {
        let all = [answer(201, r#"{"id":"a"}"#, false), answer(201, r#"{"id":"b"}"#, false)];
        let j = judge_control(&all, &ids(), &g());
        assert_eq!(j.verdict, Verdict::AllExecuted);
        assert_eq!(j.explanation.as_deref(), Some("as expected: all 2 executed (2 distinct resources)"));
        let collapsed =
            [answer(201, r#"{"id":"a"}"#, false), answer(201, r#"{"id":"a"}"#, true), answer(409, "", false)];
        let j = judge_control(&collapsed, &ids(), &g());
        assert_eq!(j.verdict, Verdict::Collapsed);
        assert!(j.explanation.unwrap().starts_with("the server collapsed 2 of 3 duplicates that had no shared key"));
    }

    #[test]
    fn status_counts_are_sorted_by_status() {
        let answers = [answer(409, "", false), answer(201, "", false), answer(409, "", false), Observed::failed("x")];
        assert_eq!(status_counts(&answers), "1 × 201, 2 × 409, 1 × no answer");
    }

    #[test]
    fn server_errors_among_concurrent_duplicates_are_inconsistent() {
        let j =
            judge(&[answer(201, r#"{"id":"a"}"#, false), answer(500, "oops", false)], Timing::Concurrent, &ids(), &g());
        assert_eq!(j.verdict, Verdict::Inconsistent);
    }

    fn sent(body: &str) -> Grounds {
        let spec = RequestSpec::new(http::Method::POST, "http://127.0.0.1:1/orders", body.to_string()).unwrap();
        Grounds::of(&spec, Some("key-1"))
    }

    fn counted(before: u64, after: u64) -> Grounds {
        Grounds {
            sent: Vec::new(),
            count: Some(CountReading {
                change: CountChange {
                    before,
                    after,
                    settled_after_ms: 0,
                    reads: vec![after],
                    late_executions: 0,
                    doubt: None,
                },
                source: "GET /charges".into(),
                ledger: None,
                ledgers: Vec::new(),
            }),
            readings: Vec::new(),
            require_count: false,
        }
    }

    fn doubted(doubt: &str) -> Grounds {
        let change = CountChange {
            before: 5,
            after: 5,
            settled_after_ms: 0,
            reads: vec![5],
            late_executions: 0,
            doubt: Some(doubt.to_string()),
        };
        Grounds {
            sent: Vec::new(),
            count: Some(CountReading { change, source: "GET /charges".into(), ledger: None, ledgers: Vec::new() }),
            readings: Vec::new(),
            require_count: false,
        }
    }

    #[test]
    fn a_count_that_cannot_be_believed_never_holds_but_proven_problems_stand() {
        let body = r#"{"id":"pay_1"}"#;
        let replayed = [answer(201, body, false), answer(201, body, true)];
        let j = judge(&replayed, Timing::Sequential, &ids(), &doubted("unconfirmed: the count did not move (5 → 5)"));
        assert_eq!(j.verdict, Verdict::Unconfirmed);
        assert_eq!(j.explanation.as_deref(), Some("unconfirmed: the count did not move (5 → 5)"));
        assert!(j.evidence.is_empty(), "{:?}", j.evidence);
        let twice = [answer(201, r#"{"id":"a"}"#, false), answer(201, r#"{"id":"b"}"#, false)];
        let j = judge(&twice, Timing::Sequential, &ids(), &doubted("unconfirmed: it went down"));
        assert_eq!(j.verdict, Verdict::ExecutedMoreThanOnce, "the ids prove it on their own");
        assert!(j.notes.iter().any(|n| n == "unconfirmed: it went down"), "{:?}", j.notes);
        let control = judge_control(&twice, &ids(), &doubted("unconfirmed: it went down"));
        assert_eq!(control.verdict, Verdict::Unconfirmed);
    }

    #[test]
    fn an_id_made_from_the_request_is_unconfirmed_not_consistent() {
        let body = r#"{"id":"ord_A-7","amount":500}"#;
        let answers = [answer(201, body, false), answer(201, body, false), answer(201, body, false)];
        let j = judge(&answers, Timing::Sequential, &ids(), &sent(r#"{"order_id":"A-7","amount":500}"#));
        assert_eq!(j.verdict, Verdict::Unconfirmed);
        assert_eq!(j.verdict.outcome(), None, "exit 2");
        let explanation = j.explanation.unwrap();
        assert!(explanation.contains("this id is in your request body (made from A-7)"), "{explanation}");
        assert!(explanation.contains("give --count-url"), "{explanation}");
        assert!(j.evidence.is_empty());
    }

    #[test]
    fn a_server_id_a_marker_or_a_conflict_is_evidence() {
        let body = r#"{"id":"ord_9f2c1a","amount":500}"#;
        let plain = [answer(201, body, false), answer(201, body, false)];
        let j = judge(&plain, Timing::Sequential, &ids(), &sent(r#"{"order_id":"A-7","amount":500}"#));
        assert_eq!(j.verdict, Verdict::Consistent);
        assert_eq!(j.evidence, [Evidence::ServerId { id: "ord_9f2c1a".into(), from: "body /id".into() }]);
        let business = r#"{"id":"A-7"}"#;
        let marked = [answer(201, business, false), answer(201, business, true)];
        let j = judge(&marked, Timing::Sequential, &ids(), &sent(r#"{"order_id":"A-7"}"#));
        assert_eq!(j.verdict, Verdict::Consistent);
        assert_eq!(j.evidence, [Evidence::ReplayMarker { header: "idempotent-replayed".into(), answers: vec![2] }]);
        let raced = [answer(201, business, false), answer(409, "{}", false)];
        let j = judge(&raced, Timing::Concurrent, &ids(), &sent(r#"{"order_id":"A-7"}"#));
        assert_eq!(j.evidence, [Evidence::Conflict { answers: vec![2] }]);
    }

    #[test]
    fn the_count_decides_and_disagreements_are_named() {
        let body = r#"{"id":"ord_A-7"}"#;
        let answers = [answer(201, body, false), answer(201, body, true), answer(201, body, true)];
        let j = judge(&answers, Timing::Sequential, &ids(), &counted(4, 7));
        assert_eq!((j.verdict.clone(), j.executions), (Verdict::ExecutedMoreThanOnce, 3));
        assert!(j.notes.iter().any(|n| n.contains("the count and the ids disagree")), "{:?}", j.notes);
        let j = judge(&answers, Timing::Sequential, &ids(), &counted(4, 5));
        assert_eq!(j.verdict, Verdict::Consistent);
        assert!(matches!(j.evidence.as_slice(), [Evidence::Count { executions: 1, .. }]));
        let ok = [answer(201, r#"{"ok":true}"#, false), answer(201, r#"{"ok":true}"#, false)];
        assert_eq!(judge(&ok, Timing::Sequential, &ids(), &counted(0, 1)).verdict, Verdict::Consistent);
        let two = [answer(201, r#"{"id":"a"}"#, false), answer(201, r#"{"id":"b"}"#, false)];
        assert_eq!(judge(&two, Timing::Sequential, &ids(), &counted(0, 1)).verdict, Verdict::Inconsistent);
    }

    #[test]
    fn the_level_is_named_and_require_count_refuses_a_pass_on_the_answers_alone() {
        use crate::evidence_level::EvidenceLevel;
        let body = r#"{"id":"pay_1"}"#;
        let answers = [answer(201, body, false), answer(201, body, true)];
        let j = judge(&answers, Timing::Sequential, &ids(), &g());
        assert_eq!((j.verdict.clone(), j.evidence_level), (Verdict::Consistent, Some(EvidenceLevel::Answer)));
        assert_eq!(j.replay_shown_by(), "replay marker / same server id");
        let required = Grounds { require_count: true, ..g() };
        let j = judge(&answers, Timing::Sequential, &ids(), &required);
        assert_eq!(j.verdict, Verdict::Unconfirmed);
        assert!(j.explanation.unwrap().contains("ground truth was required (--require-count)"));
        assert_eq!(j.evidence_level, Some(EvidenceLevel::Answer), "what it had is kept");
        let j = judge(&answers, Timing::Sequential, &ids(), &Grounds { require_count: true, ..counted(4, 5) });
        assert_eq!((j.verdict, j.evidence_level), (Verdict::Consistent, Some(EvidenceLevel::Count)));
        let twice = [answer(201, r#"{"id":"a"}"#, false), answer(201, r#"{"id":"b"}"#, false)];
        let j = judge(&twice, Timing::Sequential, &ids(), &required);
        assert_eq!(j.verdict, Verdict::ExecutedMoreThanOnce, "a second execution the ids prove needs no count");
        assert_eq!(judge_control(&twice, &ids(), &required).verdict, Verdict::Unconfirmed);
    }

    #[test]
    fn ids_are_compared_as_tokens_not_substrings() {
        let grounds = sent(r#"{"order_id":"A-7","amount":1990}"#);
        assert_eq!(grounds.sent_as("ord_A-7"), Some(("A-7", "body")));
        assert_eq!(grounds.sent_as("/orders/A-7"), Some(("A-7", "body")));
        assert_eq!(grounds.sent_as("pay_19901"), None, "1990 is not a token of pay_19901");
        assert_eq!(grounds.sent_as("key-1"), Some(("key-1", "key")));
        assert_eq!(grounds.sent_as("pay_7"), None, "short values only match whole ids");
    }

    #[test]
    fn answers_as_slow_as_the_first_are_a_warning_only() {
        let slow = |ms| {
            let mut a = answer(201, r#"{"id":"A-7"}"#, false);
            a.latency = Some(Duration::from_millis(ms));
            a
        };
        assert!(as_slow_as_the_first(&[slow(30), slow(31), slow(29)]).unwrap().contains("warning"));
        assert!(as_slow_as_the_first(&[slow(30), slow(1)]).is_none());
        let j = judge(&[slow(30), slow(31)], Timing::Sequential, &ids(), &sent(r#"{"order_id":"A-7"}"#));
        assert!(j.notes.iter().any(|n| n.starts_with("warning: every answer took as long")), "{:?}", j.notes);
    }

    /// An answer as `idem proxy` keeps it: the body replaced by its digest.
    fn digested(mut observed: Observed) -> Observed {
        observed.body_digest = Some(BodyDigest::of(&observed.body));
        observed.body = Bytes::new();
        observed
    }

    #[test]
    fn digests_of_bodies_judge_replays_as_the_bodies_do() {
        let pairs = [
            (r#"{"id":"a","n":1}"#, r#"{"id":"a","n":1}"#),
            (r#"{"id":"a","n":1}"#, r#"{"n":1.0, "id":"a"}"#),
            (r#"{"id":"a","status":"pending"}"#, r#"{"id":"a","status":"succeeded"}"#),
            (r#"{"id":"a","list":[1,2]}"#, r#"{"id":"a","list":[2,1]}"#),
        ];
        for (original, replay) in pairs {
            let kept = [answer(200, original, false), answer(200, replay, true)];
            let full = judge(&kept, Timing::Sequential, &ids(), &g());
            let digests = kept.clone().map(digested);
            for answers in [[digests[0].clone(), digests[1].clone()], [kept[0].clone(), digests[1].clone()]] {
                let by_digest = judge(&answers, Timing::Sequential, &ids(), &g());
                assert_eq!(
                    (&by_digest.verdict, by_digest.body_match, by_digest.differences.len()),
                    (&full.verdict, full.body_match, full.differences.len()),
                    "{original} then {replay}"
                );
            }
        }
    }

    #[test]
    fn a_json_difference_judged_by_digest_says_it_cannot_be_placed() {
        let answers =
            [answer(200, r#"{"id":"a","n":1}"#, false), answer(200, r#"{"id":"a","n":2}"#, true)].map(digested);
        let j = judge(&answers, Timing::Sequential, &ids(), &g());
        assert_eq!(j.verdict, Verdict::Inconsistent);
        assert_eq!(
            j.differences,
            [
                "the body of #2 differs from #1: not equal as JSON (16 bytes against 16 bytes; the proxy keeps hashes of bodies, so where they differ is not known)"
            ]
        );
        let text = [answer(200, "ok", false), answer(200, "ok!", false)].map(digested);
        assert_eq!(
            compare_digests(text[0].body_digest.unwrap(), text[1].body_digest.unwrap()),
            Err("2 bytes against 3 bytes, not byte-identical".to_string())
        );
    }

    #[test]
    fn a_digested_answer_reads_the_id_and_digest_an_answer_does() {
        let mut located = HeaderMap::new();
        located.insert(http::header::LOCATION, HeaderValue::from_static("/payments/pay_9"));
        let bodies = [r#"{"id":"pay_1","n":1}"#, r#"{"id":2.0}"#, r#"{"id":null}"#, r#"{"n":1}"#, "not json", ""];
        for status in [201, 409] {
            for headers in [HeaderMap::new(), located.clone()] {
                for body in bodies {
                    let full = Observed::answer(status, &headers, Bytes::from(body), &ids());
                    let digested = Observed::answer_digested(status, &headers, Bytes::from(body), &ids());
                    assert_eq!(
                        (&digested.resource_id, &digested.id_from, digested.body_digest),
                        (&full.resource_id, &full.id_from, Some(BodyDigest::of(body.as_bytes()))),
                        "{status} {body} {headers:?}"
                    );
                }
            }
        }
    }
}
