//! `retry-replays` (a sequential retry with the same key is answered from the store, not executed
//! again) and `replay-marked` (that answer says it is a replay).
use std::time::{Duration, Instant};

use super::catalogue::{REPLAY_MARKED, RETRY};
use super::probe::{Original, Probe, believed};
use super::profile::ProfileRules;
use crate::conformance::{CheckOutcome, CheckResult};
use crate::count::Step;
use crate::evidence_level::{ANSWER_REPLAYED, COUNTED, EvidenceLevel, NOT_COUNTED};
use crate::idem::verdict::{BodyMatch, Grounds, compare_bodies, replay_marker, replay_marker_names};

/// `retry-replays` and `replay-marked`.
pub(super) async fn retry(
    probe: &mut Probe,
    original: &Original,
    rules: &'static ProfileRules,
) -> anyhow::Result<Vec<CheckResult>> {
    let started = Instant::now();
    // A replay must not depend on which instance stored the original.
    let elsewhere = probe.also.first().cloned();
    let before = probe.spec.count_before().await?;
    let retry = probe.send_to(elsewhere.as_ref(), RETRY.id, Some(&original.key), None, None).await?;
    // The key was used by `create`: a replay rightly leaves the count where it was.
    let step = Step { requests: 1, must_rise: false, slowest: retry.latency.max(original.exchange.latency) };
    let grounds = Grounds::gather(&probe.spec, Some(&original.key), before.as_deref(), step).await?;
    let id = probe.id_of(&retry);
    let mut evidence = vec![format!(
        "#1 {} {}, retry {} {}",
        original.exchange.status,
        original.id,
        retry.status,
        id.as_deref().unwrap_or("(no id)")
    )];
    let same_status = retry.status == original.exchange.status;
    let same_id = id.as_deref() == Some(original.id.as_str());
    let body = compare_bodies(&original.exchange.body, &retry.body);
    // The first answer's id and body came back: whatever its status, the answer was replayed.
    let same_answer = same_id && body.is_ok();
    if !same_status && same_answer {
        evidence.push(format!(
            "the replay changed the status: {} → {}, with the first answer's id and body; clients that branch on {} vs {} see a different outcome",
            original.exchange.status,
            retry.status,
            original.exchange.status.as_u16(),
            retry.status.as_u16()
        ));
    } else if !same_status {
        evidence.push(format!("the status changed: {} → {}", original.exchange.status, retry.status));
    }
    if id.is_some() && !same_id {
        evidence.push(format!(
            "a second resource was created: {} and {}",
            original.id,
            id.as_deref().unwrap_or_default()
        ));
    }
    match &body {
        Ok(BodyMatch::Identical) => evidence.push("the body is byte-identical".to_string()),
        Ok(BodyMatch::EqualAsJson) => evidence.push("the body is equal as JSON, not byte-identical".to_string()),
        Err(difference) => evidence.push(format!("the body differs: {difference}")),
    }
    if let Some(url) = &elsewhere {
        evidence.push(format!("the retry went to the other instance, {url}"));
    }
    let marker = replay_marker(&retry.headers);
    let took = started.elapsed();
    // What the retry got instead of the first answer, when it did not get it.
    let answered = format!(
        "the retry answered {} {} where #1 got {} {}",
        retry.status,
        id.as_deref().unwrap_or("(no id)"),
        original.exchange.status,
        original.id
    );
    let not_replayed = match (&id, &body) {
        (Some(second), _) if !same_id => format!("the retry created a second resource: {} and {second}", original.id),
        (_, Err(_)) if same_id => format!("{answered}, with another body"),
        _ => answered,
    };
    // A replay that changed only the status is a warning, not a failure: the draft's enforcement
    // rules (§2.6) are SHOULDs ("respond with the result of the previously completed operation"),
    // and a status is not an execution. A second execution is what fails this check.
    let replay_result = |evidence: Vec<String>, level: EvidenceLevel| {
        let result = match same_status {
            true => RETRY.held(evidence, took),
            false => status_changed(original.exchange.status, retry.status, evidence, took),
        };
        result.at_level(level)
    };
    // A matching answer is a replay only with evidence that the server recognised the key.
    let retry_result = match &grounds.count {
        Some(count) => {
            evidence.push(count.went_phrase(" on the retry"));
            let executions = match believed(count, probe.count_doubt.as_deref()) {
                Ok(executions) => executions,
                // A different answer fails on its own; a matching one is a replay only by the count.
                Err(_) if !same_answer => return Ok(retry_failed_and_unmarked(not_replayed, evidence, took)),
                Err(doubt) => {
                    evidence.push(doubt);
                    let finding =
                        format!("the retry got the first answer ({}), but the count cannot be believed", original.id);
                    return Ok(vec![
                        RETRY.unconfirmed(finding, evidence, took),
                        REPLAY_MARKED.skipped("the retry was not judged"),
                    ]);
                }
            };
            if executions > 0 && same_answer {
                // Either the id only looks the same because the request carries it, or the layer
                // answered from its store and let the handler run anyway.
                let why = match grounds.sent_as(&original.id) {
                    Some(_) => format!("the id {} comes from the request", original.id),
                    None => format!(
                        "the first answer (id {}) was replayed{} and the work ran again behind it",
                        original.id,
                        if marker.is_some() { ", marked as a replay," } else { "" }
                    ),
                };
                evidence.push(format!(
                    "the retry executed again (the count rose by {executions}) though its answer matches the first: {why}"
                ));
            }
            if same_answer && executions == 0 {
                evidence.push(format!("{COUNTED}: the count did not move on the retry"));
                replay_result(evidence, EvidenceLevel::Count)
            } else {
                let finding = match (executions, same_answer) {
                    (0, _) => format!("{not_replayed}; the count did not move"),
                    (_, true) => format!(
                        "the retry got the first answer ({}) but executed again: the count rose by {executions}",
                        original.id
                    ),
                    (_, false) => format!("{not_replayed}; the count rose by {executions}"),
                };
                RETRY.broken(finding, evidence, took).at_level(EvidenceLevel::Count)
            }
        }
        None if !same_answer => RETRY.broken(not_replayed, evidence, took).at_level(EvidenceLevel::Answer),
        None => match (marker, grounds.sent_as(&original.id)) {
            (Some(header), _) => {
                evidence.push(format!("marked as a replay ({header}: true)"));
                evidence.push(format!("{ANSWER_REPLAYED} (replay marker); {NOT_COUNTED}"));
                replay_result(evidence, EvidenceLevel::Answer)
            }
            (None, None) => {
                evidence.push(format!("{} is the server's id (not in the request)", original.id));
                evidence.push(format!("{ANSWER_REPLAYED} (same server id); {NOT_COUNTED}"));
                replay_result(evidence, EvidenceLevel::Answer)
            }
            (None, Some((value, place))) => {
                if let Some(warning) = as_slow_as_the_first(original.exchange.latency, retry.latency) {
                    evidence.push(warning);
                }
                let made = if value == original.id { String::new() } else { format!(" (made from {value})") };
                evidence.push(format!(
                    "unconfirmed: the id {} is in your request {place}{made}, so it does not show how many times the server executed: give --count-url URL (a GET that counts what the server created)",
                    original.id
                ));
                let finding = format!("the retry got the id {} again, which your request carries {place}", original.id);
                RETRY.unconfirmed(finding, evidence, took)
            }
        },
    };
    // Passed, or warned for a changed status only: either way the answer was replayed.
    let replayed = matches!(retry_result.outcome, CheckOutcome::Pass | CheckOutcome::Warn);

    let marked = if !replayed && same_answer {
        // The answer came back, but the count shows the handler ran again: not "not a replay".
        REPLAY_MARKED.skipped("the answer was replayed but the handler ran again (see retry-replays)")
    } else if !replayed {
        REPLAY_MARKED.skipped("the retry was not a replay")
    } else {
        match (rules.replay_marker.header.as_deref(), marker) {
            (Some(named), _) => {
                let mut marked = profile_marker(&retry.headers, named, &rules.name);
                if marked.fix.is_some() {
                    marked.fix = rules.replay_marker.fix.as_deref();
                }
                marked
            }
            (None, Some(header)) => REPLAY_MARKED.held(vec![format!("{header}: true")], Duration::ZERO),
            (None, None) => REPLAY_MARKED.broken(
                format!("the replay of {} carried no replay marker", original.id),
                vec![format!("none of {}", replay_marker_names())],
                Duration::ZERO,
            ),
        }
    };
    Ok(vec![retry_result, marked])
}

/// `replay-marked` under a profile that names its marker: Stripe's and ACP's `Idempotent-Replayed`
/// must say `true`; Worldline's `X-GCS-Idempotence-Request-Timestamp` carries the first request's
/// time, so any value is the marker.
fn profile_marker(headers: &http::HeaderMap, named: &str, profile: &str) -> CheckResult {
    let value = headers.get(named).map(|value| String::from_utf8_lossy(value.as_bytes()).trim().to_string());
    let boolean = crate::idem::verdict::is_boolean_replay_marker(named);
    let held = match &value {
        Some(value) if boolean => value.eq_ignore_ascii_case("true") || value == "1",
        Some(value) => !value.is_empty(),
        None => false,
    };
    let (finding, evidence) = match value {
        Some(value) => (format!("the replay's {named} is {value:?}, not true"), format!("{named}: {value}")),
        None => (
            format!("the replay carried no {named} header"),
            format!("no {named} header (--profile {profile} names it)"),
        ),
    };
    REPLAY_MARKED.judged(held, finding, vec![evidence], Duration::ZERO)
}

/// `retry-replays` failed on the answers alone, and `replay-marked` with nothing to judge.
fn retry_failed_and_unmarked(finding: String, evidence: Vec<String>, took: Duration) -> Vec<CheckResult> {
    vec![RETRY.broken(finding, evidence, took), REPLAY_MARKED.skipped("the retry was not a replay")]
}

/// Why a replay under another status matters, in place of the check's own (which speaks of a
/// second execution the evidence does not show).
const STATUS_CHANGED_WHY: &str = "the retry got the first answer's resource back under another status: clients that \
branch on the status (201 created, 200 found) see a different outcome for one operation; the draft (§2.6) says a \
retry SHOULD get the result of the first execution";

/// `retry-replays` when the answer was replayed under another status: a warning (see `retry`).
fn status_changed(
    first: http::StatusCode,
    retry: http::StatusCode,
    evidence: Vec<String>,
    took: Duration,
) -> CheckResult {
    let finding = format!("the replay changed the status: {first} → {retry}, the same resource");
    let mut result = RETRY.warned(finding, evidence, took);
    result.why = STATUS_CHANGED_WHY;
    result
}

/// The timing warning of `retry-replays`: the retry took as long as the first execution.
fn as_slow_as_the_first(first: Duration, retry: Duration) -> Option<String> {
    (first >= Duration::from_millis(5) && retry >= first / 2).then(|| {
        format!(
            "warning: the retry took as long as the first ({} against {}): a replay from a store is usually much faster",
            crate::units::format_duration(retry),
            crate::units::format_duration(first)
        )
    })
}
