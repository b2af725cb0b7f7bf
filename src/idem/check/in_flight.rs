//! Checks that speak while the first request is still running: `lease-outlives-work` (a claim
//! whose lease ends before the work lets a later retry execute again) and `mismatch-in-flight`
//! (another body with the same key, answered 409 and later executed, or executed at once).
use std::time::{Duration, Instant};

use bytes::Bytes;
use http::StatusCode;
use tokio::task::JoinHandle;

use super::catalogue::{LEASE_OUTLIVES_WORK, MISMATCH_IN_FLIGHT};
use super::probe::{Probe, excerpt, send_decoded};
use super::profile::{MismatchAnswer, Profile};
use super::variant::{change_content, vary_body};
use crate::conformance::CheckResult;
use crate::http::client::Exchange;
use crate::units::format_duration;

/// The delays after the first request at which `lease-outlives-work` retries: growing, so short
/// and long leases are both caught, up to `--max-work`. With `--work-hint` one more retry lands
/// late in the work, where a lease shorter than the work has run out.
pub(super) fn retry_delays(work_hint: Option<Duration>, max_work: Duration) -> Vec<Duration> {
    const LADDER_MS: [u64; 8] = [10, 100, 1_000, 5_000, 10_000, 20_000, 30_000, 60_000];
    let limit = match work_hint {
        Some(hint) => hint.mul_f64(0.9).min(max_work),
        None => max_work,
    };
    let mut delays: Vec<Duration> =
        LADDER_MS.iter().map(|ms| Duration::from_millis(*ms)).filter(|delay| *delay <= limit).collect();
    if let Some(hint) = work_hint {
        delays.push(hint.mul_f64(0.75).min(max_work));
    }
    delays.sort();
    delays.dedup();
    delays
}

/// Sends the first request on a task of its own, so the check can speak while it runs.
fn spawn_first(probe: &Probe, check: &'static str, key: &str) -> anyhow::Result<JoinHandle<anyhow::Result<Exchange>>> {
    let request = probe.spec.build(Some(key))?;
    let client = probe.client.clone();
    Ok(tokio::spawn(async move { send_decoded(&client, check, request).await }))
}

async fn first_answer(handle: JoinHandle<anyhow::Result<Exchange>>) -> anyhow::Result<Exchange> {
    handle.await.map_err(|err| anyhow::anyhow!("the first request's task failed: {err}"))?
}

/// One retry sent while the first was in flight.
struct Retry {
    at: Duration,
    answer: Result<Exchange, String>,
}

/// `lease-outlives-work`.
pub(super) async fn lease_outlives_work(
    probe: &mut Probe,
    work_hint: Option<Duration>,
    max_work: Duration,
) -> anyhow::Result<CheckResult> {
    let started = Instant::now();
    let key = probe.fresh_key();
    let first = spawn_first(probe, LEASE_OUTLIVES_WORK.id, &key)?;
    let (retries, first) =
        retry_while_first_runs(probe, &key, first, started, retry_delays(work_hint, max_work)).await?;
    let took = started.elapsed();
    let first = match first {
        Ok(first) if first.status.is_success() => first,
        Ok(first) => {
            return Ok(LEASE_OUTLIVES_WORK.skipped(format!(
                "could not judge: the first request got {} ({})",
                first.status,
                excerpt(&first.body)
            )));
        }
        Err(err) => {
            return Ok(LEASE_OUTLIVES_WORK.skipped(format!("could not judge: the first request failed: {err:#}")));
        }
    };
    let Some(first_id) = probe.id_of(&first) else {
        return Ok(LEASE_OUTLIVES_WORK.skipped(format!(
            "could not judge: the first answer has no resource id ({}); set --id-field",
            excerpt(&first.body)
        )));
    };
    if retries.is_empty() {
        return Ok(LEASE_OUTLIVES_WORK.skipped(format!(
            "could not judge: the first request finished in {} (key {key} → {} {first_id}), before the first retry at 10 ms; \
use a slower request and tell idem how long it takes with --work-hint DUR",
            format_duration(took),
            first.status
        )));
    }
    let mut evidence = vec![format!("#1 key {key} → {} {first_id}, took {}", first.status, format_duration(took))];
    let mut executed_again = Vec::new();
    for retry in &retries {
        evidence.push(retry_line(probe, retry, &first_id, &mut executed_again));
    }
    // After the work, the key must replay the first answer, not the second execution's.
    let request = probe.spec.build(Some(&key))?;
    if let Ok(after) = send_decoded(&probe.client, LEASE_OUTLIVES_WORK.id, request).await {
        let id = probe.id_of(&after).filter(|_| after.status.is_success());
        if let Some(id) = id.as_ref().filter(|id| **id != first_id) {
            executed_again.push(id.clone());
        }
        evidence.push(format!("after #1 finished → {} {}", after.status, id.as_deref().unwrap_or("(no id)")));
    }
    executed_again.dedup();
    let held = executed_again.is_empty();
    if !held {
        evidence.push(format!(
            "executed {} times: {first_id}, {}",
            executed_again.len() + 1,
            executed_again.join(", ")
        ));
    }
    let finding = format!(
        "executed {} times for one key retried while the first request ran {}",
        executed_again.len() + 1,
        format_duration(took)
    );
    Ok(LEASE_OUTLIVES_WORK.judged(held, finding, evidence, started.elapsed()))
}

/// Retries with `key` at each delay after `started` until the first request ends, then waits for
/// it. Returns the retries and the first's answer; the first's task failing while the retries ran
/// is an error of the check.
async fn retry_while_first_runs(
    probe: &mut Probe,
    key: &str,
    mut first: JoinHandle<anyhow::Result<Exchange>>,
    started: Instant,
    delays: Vec<Duration>,
) -> anyhow::Result<(Vec<Retry>, anyhow::Result<Exchange>)> {
    let mut retries = Vec::new();
    let mut first_done = None;
    for delay in delays {
        tokio::select! {
            result = &mut first => { first_done = Some(result); break; }
            _ = tokio::time::sleep_until((started + delay).into()) => {}
        }
        let request = probe.spec.build(Some(key))?;
        let at = started.elapsed();
        let answer =
            send_decoded(&probe.client, LEASE_OUTLIVES_WORK.id, request).await.map_err(|err| format!("{err:#}"));
        if let Ok(answer) = &answer {
            probe.note_errors(LEASE_OUTLIVES_WORK.id, answer.status, &answer.headers);
        }
        retries.push(Retry { at, answer });
    }
    let first = match first_done {
        Some(joined) => joined.map_err(|err| anyhow::anyhow!("the first request's task failed: {err}"))?,
        None => first_answer(first).await,
    };
    Ok((retries, first))
}

/// The evidence line for one retry; a retry that executed again adds its id to `executed_again`.
fn retry_line(probe: &Probe, retry: &Retry, first_id: &str, executed_again: &mut Vec<String>) -> String {
    let answer = match &retry.answer {
        Err(err) => return format!("retry at {} → no answer: {err}", format_duration(retry.at)),
        Ok(answer) => answer,
    };
    let id = probe.id_of(answer).filter(|_| answer.status.is_success());
    let note = match &id {
        Some(id) if *id == first_id => " (the replay)".to_string(),
        Some(id) => {
            executed_again.push(id.clone());
            format!(": executed a second time while {first_id} was still running")
        }
        None if answer.status == StatusCode::CONFLICT => " (in flight)".to_string(),
        None => String::new(),
    };
    format!(
        "retry at {} → {}{}{note}",
        format_duration(retry.at),
        answer.status,
        id.as_deref().map(|id| format!(" {id}")).unwrap_or_default()
    )
}

/// `mismatch-in-flight`.
pub(super) async fn mismatch_in_flight(probe: &mut Probe, profile: Profile) -> anyhow::Result<CheckResult> {
    let Some((varied, change)) = change_content(&probe.spec.key_carrier, &probe.spec.body, vary_body) else {
        return Ok(MISMATCH_IN_FLIGHT.skipped("the request has no body to vary (give one with -d)"));
    };
    let varied = Bytes::from(varied);
    let started = Instant::now();
    let key = probe.fresh_key();
    let mut first = spawn_first(probe, MISMATCH_IN_FLIGHT.id, &key)?;
    // Long enough for the first to have claimed the key on a local server, short of most work.
    tokio::select! {
        result = &mut first => {
            let took = started.elapsed();
            let status = match result {
                Ok(Ok(answer)) => answer.status.to_string(),
                _ => "no answer".to_string(),
            };
            return Ok(MISMATCH_IN_FLIGHT.skipped(format!(
                "could not judge: the first request finished in {} ({status}) before the other body was sent; use a slower request",
                format_duration(took)
            )));
        }
        _ = tokio::time::sleep(Duration::from_millis(10)) => {}
    }
    let request = probe.spec.build_varied(Some(&key), None, Some(varied.clone()))?;
    let during = probe.send_request(MISMATCH_IN_FLIGHT.id, request).await?;
    let first = first_answer(first).await?;
    let first_id = probe.id_of(&first).filter(|_| first.status.is_success());
    let mut evidence = vec![
        format!("#1 key {key} → {} {}", first.status, first_id.as_deref().unwrap_or("(no id)")),
        format!("while #1 ran, same key, body changed ({change}) → {}", during.status),
    ];
    let mut executed = probe.id_of(&during).filter(|_| during.status.is_success());
    let mut last = during.status;
    if during.status == StatusCode::CONFLICT {
        let request = probe.spec.build_varied(Some(&key), None, Some(varied))?;
        let after = probe.send_request(MISMATCH_IN_FLIGHT.id, request).await?;
        evidence.push(format!("after #1 finished, the changed body again → {}", after.status));
        executed = executed.or_else(|| probe.id_of(&after).filter(|_| after.status.is_success()));
        last = after.status;
    }
    let replayed_first = executed.is_some() && executed == first_id;
    let rules = profile.rules();
    // A 409 while #1 runs is the in-flight answer; the contract's answer to the changed body is
    // the one after #1 finished.
    let held_status = match rules.mismatch.status {
        Some(_) => rules.accepts_mismatch_status(last),
        None => last.is_client_error() && last != StatusCode::CONFLICT,
    };
    if let Some(id) = &executed {
        if replayed_first {
            evidence.push(format!("the changed body was answered with #1's stored answer {id}"));
        } else {
            evidence.push(format!("the changed body was executed: {id}"));
        }
    }
    let held = match rules.mismatch.answer {
        MismatchAnswer::Reject => executed.is_none() && held_status,
        // PayPal and Worldline answer a changed body with the first request's answer.
        MismatchAnswer::Replay => replayed_first,
        MismatchAnswer::RejectOrReplay => replayed_first || (executed.is_none() && last.is_client_error()),
    };
    let mut finding = String::new();
    if !held {
        let expected = match (rules.mismatch.answer, rules.mismatch.status) {
            (MismatchAnswer::Replay, _) => "#1's answer, replayed".to_string(),
            (MismatchAnswer::RejectOrReplay, _) => "a 4xx or #1's answer, replayed".to_string(),
            (MismatchAnswer::Reject, Some(status)) => status.to_string(),
            (MismatchAnswer::Reject, None) => "a 4xx other than 409".to_string(),
        };
        evidence.push(format!("expected {expected} in the end (--profile {})", profile.name()));
        finding = match executed.as_deref().filter(|_| !replayed_first) {
            Some(id) => format!("a changed body sent while #1 ran was executed: {id}"),
            None => format!("a changed body sent while #1 ran ended with {last}, expected {expected}"),
        };
    }
    Ok(MISMATCH_IN_FLIGHT.judged(held, finding, evidence, started.elapsed()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn delays_grow_up_to_the_limit_and_a_hint_adds_one_late_in_the_work() {
        let ms = |v: &[Duration]| v.iter().map(|d| d.as_millis() as u64).collect::<Vec<_>>();
        assert_eq!(ms(&retry_delays(None, Duration::from_secs(30))), [10, 100, 1_000, 5_000, 10_000, 20_000, 30_000]);
        assert_eq!(ms(&retry_delays(Some(Duration::from_secs(1)), Duration::from_secs(30))), [10, 100, 750]);
        assert_eq!(ms(&retry_delays(None, Duration::from_millis(50))), [10]);
    }
}
