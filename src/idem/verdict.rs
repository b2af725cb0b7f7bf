//! The one place that decides what a set of answers to duplicate requests means: executed once,
//! executed more than once, answered inconsistently, or nothing to conclude from. `send`, `race`
//! and `check` all judge here, so they agree on what "executed twice" means.
//!
//! No green without evidence: a verdict that holds needs at least one 2xx answer and, for
//! duplicates, a resource id read from some answer; otherwise the verdict says what was missing.
use bytes::Bytes;
use http::HeaderMap;
use serde::Serialize;

use crate::http::client::Exchange;
use crate::http::content_encoding;
use crate::idem::request::IdSource;

/// The headers servers use to mark a replayed response (Stripe's, and the common variants).
pub const REPLAY_MARKERS: [&str; 3] = ["idempotent-replayed", "x-idempotent-replayed", "idempotency-replayed"];

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
}

impl Observed {
    pub fn answer(status: u16, headers: &HeaderMap, body: Bytes, ids: &IdSource) -> Observed {
        let decoded = content_encoding::decode(headers, body);
        let found = if (200..300).contains(&status) { ids.read(headers, &decoded.body) } else { None };
        Observed {
            status: Some(status),
            error: None,
            id_from: found.as_ref().map(|found| found.from.clone()),
            resource_id: found.map(|found| found.id),
            replayed: replay_marker(headers).is_some(),
            retry_after: header_text(headers, http::header::RETRY_AFTER),
            content_type: header_text(headers, http::header::CONTENT_TYPE),
            content_encoding: decoded.encoding,
            decode_error: decoded.error,
            body: decoded.body,
        }
    }

    pub fn from_exchange(exchange: &Exchange, ids: &IdSource) -> Observed {
        Observed::answer(exchange.status.as_u16(), &exchange.headers, exchange.body.clone(), ids)
    }

    pub fn failed(error: impl Into<String>) -> Observed {
        Observed {
            status: None,
            error: Some(error.into()),
            resource_id: None,
            id_from: None,
            replayed: false,
            retry_after: None,
            content_type: None,
            content_encoding: None,
            decode_error: None,
            body: Bytes::new(),
        }
    }

    fn is_success(&self) -> bool {
        self.status.is_some_and(|status| (200..300).contains(&status))
    }
}

fn header_text(headers: &HeaderMap, name: http::header::HeaderName) -> Option<String> {
    headers.get(name).map(|value| String::from_utf8_lossy(value.as_bytes()).into_owned())
}

/// The replay marker header present with the value `true`, if any.
pub fn replay_marker(headers: &HeaderMap) -> Option<&'static str> {
    REPLAY_MARKERS.into_iter().find(|name| {
        headers
            .get(*name)
            .and_then(|value| value.to_str().ok())
            .is_some_and(|value| value.trim().eq_ignore_ascii_case("true"))
    })
}

/// How many answers had each status, by status: `1 × 201, 19 × 409` (`no answer` last).
pub fn status_counts<'a>(answers: impl IntoIterator<Item = &'a Observed>) -> String {
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
pub enum Timing {
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
}

impl Verdict {
    /// What the verdict means for the exit status: `Some(Holds)`, `Some(ProblemFound)`, or `None`
    /// when the answers cannot support a conclusion (exit 2).
    pub fn outcome(&self) -> Option<crate::exit::Outcome> {
        use crate::exit::Outcome;
        match self {
            Verdict::Consistent | Verdict::AllExecuted => Some(Outcome::Holds),
            Verdict::ExecutedMoreThanOnce | Verdict::Inconsistent | Verdict::Collapsed => Some(Outcome::ProblemFound),
            Verdict::Errors | Verdict::NothingCreated | Verdict::CannotTell => None,
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
}

impl Judgement {
    pub fn holds(&self) -> bool {
        self.verdict.outcome() == Some(crate::exit::Outcome::Holds)
    }
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

/// Why the executions cannot be counted, and what to pass.
fn cannot_tell(ids: &IdSource) -> String {
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
pub fn judge_control(answers: &[Observed], ids: &IdSource) -> Judgement {
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
                "the server collapsed {collapsed} of {n} duplicates that had no shared key (it may fingerprint bodies): {}, {} distinct resource{}",
                status_counts(answers),
                resource_ids.len(),
                if resource_ids.len() == 1 { "" } else { "s" }
            )),
        )
    };
    Judgement {
        verdict,
        executions: resource_ids.len(),
        resource_ids,
        body_match: None,
        explanation,
        differences: Vec::new(),
        notes: reading_notes(answers),
    }
}

/// Judges the answers to duplicates of one logical request (same key, same body).
pub fn judge(answers: &[Observed], timing: Timing, ids: &IdSource) -> Judgement {
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
            match compare_bodies(&first.body, &answer.body) {
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
    Judgement { verdict, executions: resource_ids.len(), resource_ids, body_match, explanation, differences, notes }
}

/// `Ok` when the bodies match byte for byte or as JSON, else a short description of the first
/// difference.
pub fn compare_bodies(original: &[u8], other: &[u8]) -> Result<BodyMatch, String> {
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

fn shorten(text: &str) -> String {
    const LIMIT: usize = 60;
    if text.chars().count() <= LIMIT {
        text.to_string()
    } else {
        format!("{}…", text.chars().take(LIMIT).collect::<String>())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use http::HeaderValue;

    fn answer(status: u16, body: &str, replayed: bool) -> Observed {
        let mut headers = HeaderMap::new();
        if replayed {
            headers.insert("idempotent-replayed", HeaderValue::from_static("true"));
        }
        Observed::answer(status, &headers, Bytes::from(body.to_string()), &ids())
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
        );
        assert_eq!(j.verdict, Verdict::ExecutedMoreThanOnce);
        assert_eq!(j.resource_ids, ["a", "b", "c"]);
    }

    #[test]
    fn conflicts_are_fine_only_concurrently() {
        let answers = [answer(201, r#"{"id":"a"}"#, false), answer(409, "{}", false)];
        assert_eq!(judge(&answers, Timing::Concurrent, &ids()).verdict, Verdict::Consistent);
        let sequential = judge(&answers, Timing::Sequential, &ids());
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
        );
        assert_eq!(j.verdict, Verdict::Consistent);
        assert_eq!(j.body_match, Some(BodyMatch::EqualAsJson));
    }

    #[test]
    fn transport_failures_prevent_a_conclusion_unless_double_execution_is_proven() {
        let ok = answer(201, r#"{"id":"a"}"#, false);
        assert_eq!(
            judge(&[ok.clone(), Observed::failed("refused")], Timing::Concurrent, &ids()).verdict,
            Verdict::Errors
        );
        let twice = [ok, answer(201, r#"{"id":"b"}"#, false), Observed::failed("refused")];
        assert_eq!(judge(&twice, Timing::Concurrent, &ids()).verdict, Verdict::ExecutedMoreThanOnce);
    }

    #[test]
    fn uniform_rejections_are_nothing_created_not_consistent() {
        let j = judge(&[answer(401, "{}", false), answer(401, "{}", false)], Timing::Sequential, &ids());
        assert_eq!(j.verdict, Verdict::NothingCreated);
        assert_eq!(j.verdict.outcome(), None, "exit 2");
        assert_eq!(j.executions, 0);
        assert!(j.explanation.unwrap().contains("every answer was 401 Unauthorized"));
        let single = judge(&[answer(404, "", false)], Timing::Sequential, &ids());
        assert_eq!(single.verdict, Verdict::NothingCreated);
        let mixed = judge(&[answer(404, "", false), answer(409, "", false)], Timing::Concurrent, &ids());
        assert!(mixed.explanation.unwrap().contains("1 × 404, 1 × 409"));
    }

    #[test]
    fn success_without_any_id_cannot_be_counted() {
        let ok = r#"{"ok":true}"#;
        let j = judge(
            &[answer(201, ok, false), answer(201, ok, false), answer(201, ok, false)],
            Timing::Sequential,
            &ids(),
        );
        assert_eq!(j.verdict, Verdict::CannotTell);
        let explanation = j.explanation.unwrap();
        assert!(explanation.contains("--id-field") && explanation.contains("--id-header"), "{explanation}");
        assert_eq!(judge(&[answer(201, ok, false)], Timing::Sequential, &ids()).verdict, Verdict::Consistent);
    }

    #[test]
    fn ids_only_in_location_are_counted() {
        let j = judge(&[located("/payments/pay_1"), located("/payments/pay_2")], Timing::Sequential, &ids());
        assert_eq!(j.verdict, Verdict::ExecutedMoreThanOnce);
        assert!(j.notes.iter().any(|note| note.contains("Location")), "{:?}", j.notes);
        assert_eq!(judge(&[located("/p/1"), located("/p/1")], Timing::Sequential, &ids()).verdict, Verdict::Consistent);
    }

    #[test]
    fn one_and_one_point_zero_are_one_execution() {
        let j =
            judge(&[answer(201, r#"{"id":1}"#, false), answer(201, r#"{"id":1.0}"#, true)], Timing::Sequential, &ids());
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
        let j = judge(&answers, Timing::Sequential, &ids());
        assert_eq!(j.verdict, Verdict::Consistent);
        assert!(j.notes.iter().any(|note| note.contains("gzip")), "{:?}", j.notes);
    }

    #[test]
    fn controls_hold_when_every_duplicate_executed() {
        let all = [answer(201, r#"{"id":"a"}"#, false), answer(201, r#"{"id":"b"}"#, false)];
        let j = judge_control(&all, &ids());
        assert_eq!(j.verdict, Verdict::AllExecuted);
        assert_eq!(j.explanation.as_deref(), Some("as expected: all 2 executed (2 distinct resources)"));
        let collapsed =
            [answer(201, r#"{"id":"a"}"#, false), answer(201, r#"{"id":"a"}"#, true), answer(409, "", false)];
        let j = judge_control(&collapsed, &ids());
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
        let j = judge(&[answer(201, r#"{"id":"a"}"#, false), answer(500, "oops", false)], Timing::Concurrent, &ids());
        assert_eq!(j.verdict, Verdict::Inconsistent);
    }
}
