//! The one place that decides what a set of answers to duplicate requests means: executed once,
//! executed more than once, or answered inconsistently. `send`, `race` and `check` all judge here,
//! so they agree on what "executed twice" means.
use bytes::Bytes;
use http::HeaderMap;
use serde::Serialize;

use crate::http::client::Exchange;
use crate::idem::request::resource_id;

/// The headers servers use to mark a replayed response (Stripe's, and the common variants).
pub const REPLAY_MARKERS: [&str; 3] = ["idempotent-replayed", "x-idempotent-replayed", "idempotency-replayed"];

/// One duplicate's answer, as the verdict sees it.
#[derive(Debug, Clone, Serialize)]
pub struct Observed {
    /// `None` when no answer came (connection refused, timeout, protocol error).
    pub status: Option<u16>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// The created resource's id, read from the body at `--id-field`.
    pub resource_id: Option<String>,
    /// The answer carried a replay marker header set to true.
    pub replayed: bool,
    /// The `Retry-After` header, which a 409 for a request in flight should carry.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub retry_after: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub content_type: Option<String>,
    #[serde(skip)]
    pub body: Bytes,
}

impl Observed {
    pub fn answer(status: u16, headers: &HeaderMap, body: Bytes, id_field: &str) -> Observed {
        Observed {
            status: Some(status),
            error: None,
            resource_id: if (200..300).contains(&status) { resource_id(&body, id_field) } else { None },
            replayed: replay_marker(headers).is_some(),
            retry_after: header_text(headers, http::header::RETRY_AFTER),
            content_type: header_text(headers, http::header::CONTENT_TYPE),
            body,
        }
    }

    pub fn from_exchange(exchange: &Exchange, id_field: &str) -> Observed {
        Observed::answer(exchange.status.as_u16(), &exchange.headers, exchange.body.clone(), id_field)
    }

    pub fn failed(error: impl Into<String>) -> Observed {
        Observed {
            status: None,
            error: Some(error.into()),
            resource_id: None,
            replayed: false,
            retry_after: None,
            content_type: None,
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
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
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
}

/// How byte-for-byte the replays matched the original.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum BodyMatch {
    Identical,
    /// Equal once parsed as JSON, but not byte-identical (whitespace or key order differ).
    EqualAsJson,
}

#[derive(Debug, Clone, Serialize)]
pub struct Judgement {
    pub verdict: Verdict,
    /// Distinct resource ids among the 2xx answers: how many times the request executed.
    pub executions: usize,
    pub resource_ids: Vec<String>,
    /// How replays compared with their original, when there were replays.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub body_match: Option<BodyMatch>,
    /// What disagreed, one sentence each (answers are numbered from 1).
    pub differences: Vec<String>,
    /// Things worth knowing that do not change the verdict.
    pub notes: Vec<String>,
}

impl Judgement {
    pub fn holds(&self) -> bool {
        self.verdict == Verdict::Consistent
    }
}

/// Judges the answers to duplicates of one logical request (same key, same body).
pub fn judge(answers: &[Observed], timing: Timing, id_field: &str) -> Judgement {
    let mut resource_ids: Vec<String> = Vec::new();
    for id in answers.iter().filter(|a| a.is_success()).filter_map(|a| a.resource_id.as_ref()) {
        if !resource_ids.contains(id) {
            resource_ids.push(id.clone());
        }
    }
    let mut differences = Vec::new();
    let mut notes = Vec::new();
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
                        "#{number} and #{original_number} disagree on whether there is a resource id at {id_field}"
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
        if !first.is_success() && !answers.iter().any(Observed::is_success) {
            notes.push(format!(
                "nothing was created: the answers were {} (is the request valid for this endpoint?)",
                first.status.unwrap_or_default()
            ));
        } else if first.is_success() && resource_ids.is_empty() {
            notes.push(format!(
                "no resource id at {id_field} in the 2xx answers, so executions are judged by the bodies alone (set --id-field)"
            ));
        }
    }
    if body_match == Some(BodyMatch::EqualAsJson) {
        notes.push("replays are equal as JSON but not byte-identical".to_string());
    }

    let failed = answers.iter().filter(|a| a.status.is_none()).count();
    let verdict = if resource_ids.len() > 1 {
        Verdict::ExecutedMoreThanOnce
    } else if !differences.is_empty() {
        Verdict::Inconsistent
    } else if failed > 0 {
        Verdict::Errors
    } else {
        Verdict::Consistent
    };
    Judgement { verdict, executions: resource_ids.len(), resource_ids, body_match, differences, notes }
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
        _ if a == b => None,
        _ => {
            let place = if at.is_empty() { "/".to_string() } else { at };
            Some(format!("at {place}: {} → {}", shorten(&a.to_string()), shorten(&b.to_string())))
        }
    }
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
        Observed::answer(status, &headers, Bytes::from(body.to_string()), "/id")
    }

    #[test]
    fn identical_replays_are_consistent() {
        let body = r#"{"id":"pay_1","amount":5}"#;
        let j = judge(
            &[answer(201, body, false), answer(201, body, true), answer(201, body, true)],
            Timing::Sequential,
            "/id",
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
            "/id",
        );
        assert_eq!(j.verdict, Verdict::ExecutedMoreThanOnce);
        assert_eq!(j.resource_ids, ["a", "b", "c"]);
    }

    #[test]
    fn conflicts_are_fine_only_concurrently() {
        let answers = [answer(201, r#"{"id":"a"}"#, false), answer(409, "{}", false)];
        assert_eq!(judge(&answers, Timing::Concurrent, "/id").verdict, Verdict::Consistent);
        let sequential = judge(&answers, Timing::Sequential, "/id");
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
            "/id",
        );
        assert_eq!(j.verdict, Verdict::Inconsistent);
        assert_eq!(j.differences, [r#"the body of #2 differs from #1: at /status: "pending" → "succeeded""#]);
    }

    #[test]
    fn json_equal_replays_are_consistent_but_noted() {
        let j = judge(
            &[answer(200, r#"{"id":"a","n":1}"#, false), answer(200, r#"{"n":1, "id":"a"}"#, true)],
            Timing::Sequential,
            "/id",
        );
        assert_eq!(j.verdict, Verdict::Consistent);
        assert_eq!(j.body_match, Some(BodyMatch::EqualAsJson));
    }

    #[test]
    fn transport_failures_prevent_a_conclusion_unless_double_execution_is_proven() {
        let ok = answer(201, r#"{"id":"a"}"#, false);
        assert_eq!(
            judge(&[ok.clone(), Observed::failed("refused")], Timing::Concurrent, "/id").verdict,
            Verdict::Errors
        );
        let twice = [ok, answer(201, r#"{"id":"b"}"#, false), Observed::failed("refused")];
        assert_eq!(judge(&twice, Timing::Concurrent, "/id").verdict, Verdict::ExecutedMoreThanOnce);
    }

    #[test]
    fn uniform_rejections_are_consistent_with_a_note() {
        let j = judge(&[answer(400, "{}", false), answer(400, "{}", false)], Timing::Sequential, "/id");
        assert_eq!(j.verdict, Verdict::Consistent);
        assert_eq!(j.executions, 0);
        assert!(j.notes[0].contains("nothing was created"));
    }

    #[test]
    fn status_counts_are_sorted_by_status() {
        let answers = [answer(409, "", false), answer(201, "", false), answer(409, "", false), Observed::failed("x")];
        assert_eq!(status_counts(&answers), "1 × 201, 2 × 409, 1 × no answer");
    }

    #[test]
    fn server_errors_among_concurrent_duplicates_are_inconsistent() {
        let j = judge(&[answer(201, r#"{"id":"a"}"#, false), answer(500, "oops", false)], Timing::Concurrent, "/id");
        assert_eq!(j.verdict, Verdict::Inconsistent);
    }
}
