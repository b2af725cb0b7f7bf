//! `effect-then-failure`: the server executes, then the answer is lost (the connection is cut
//! before it comes back) or the server fails after the work (a 5xx). The client retries with the
//! same key; the count must show one execution and the retries must end in the replay of it. A
//! layer that deletes its key record in an error handler, or releases its claim on a 5xx, executes
//! every retry again.
use std::time::{Duration, Instant};

use anyhow::Context;
use tokio::io::AsyncWriteExt;

use super::catalogue::EFFECT_THEN_FAILURE;
use super::probe::{Probe, believed};
use crate::conformance::CheckResult;
use crate::count::Step;
use crate::evidence_level::EvidenceLevel;
use crate::http::client::Exchange;
use crate::idem::verdict::Grounds;

/// Retries after the cut request: enough for a first request that runs a few seconds to finish
/// (409s meanwhile), few enough that a server executing every retry is not charged much.
pub(super) const MAX_RETRIES: usize = 8;
/// The first retry waits this long, doubling up to `MAX_BACKOFF`.
const FIRST_BACKOFF: Duration = Duration::from_millis(100);
const MAX_BACKOFF: Duration = Duration::from_secs(1);
/// How long the cut request stays open after its last byte is written, so the server has read it
/// before the connection goes: the answer is lost, not the request.
const LINGER: Duration = Duration::from_millis(20);

pub(super) async fn effect_then_failure(probe: &mut Probe) -> anyhow::Result<CheckResult> {
    if probe.spec.ledgers.is_empty() {
        return Ok(EFFECT_THEN_FAILURE.skipped(
            "give --count-url URL (a GET that counts what the server created): only the count shows whether a request whose answer was lost executed twice",
        ));
    }
    let started = Instant::now();
    let key = probe.fresh_key();
    let before = probe.spec.count_before().await?;
    send_and_hang_up(probe, &key).await?;
    let mut evidence = vec![format!("key {key}: #1 sent, then the connection was cut before the answer")];

    let (statuses, settled, slowest) = retry_until_answered(probe, &key).await?;
    let mut sent = 1 + statuses.len() as u64;
    evidence.push(format!("retries with the key: {}", tally(&statuses)));
    let ended_with = settled.as_ref().filter(|answer| answer.status.is_success()).map(|answer| probe.id_of(answer));
    let mut faithful = false;
    // What the client was left with, should the count show one execution.
    let ending = match (&ended_with, &settled) {
        (Some(Some(_)), _) => "the key then answered another resource than the retry got".to_string(),
        (Some(None), _) => "the retry succeeded without a resource id".to_string(),
        (None, Some(answer)) => format!("the retries ended with {}", answer.status),
        (None, None) => format!("no result after {MAX_RETRIES} retries"),
    };
    match ended_with {
        Some(Some(id)) => {
            // The retry's answer must be the first execution's, and stay so.
            let again = probe.send(EFFECT_THEN_FAILURE.id, Some(&key), None, None).await?;
            sent += 1;
            let again_id = probe.id_of(&again).filter(|_| again.status.is_success());
            faithful = again_id.as_deref() == Some(id.as_str());
            evidence.push(format!(
                "the key again → {} {}{}",
                again.status,
                again_id.as_deref().unwrap_or("(no id)"),
                if faithful { " (the same resource)" } else { ": not the resource the retry got" }
            ));
        }
        Some(None) => evidence.push("the retry succeeded without a resource id (see --id-field)".to_string()),
        None => evidence.push(match &settled {
            Some(answer) => format!("the retries ended with {}: the client never learns the result", answer.status),
            None => format!("after {MAX_RETRIES} retries the key still gets no result: the client never learns it"),
        }),
    }
    let step = Step { requests: sent, must_rise: true, slowest };
    let grounds = Grounds::gather(&probe.spec, Some(&key), before.as_deref(), step).await?;
    let Some(count) = grounds.count else {
        return Ok(EFFECT_THEN_FAILURE.skipped("the count could not be read"));
    };
    evidence.push(count.went_phrase(""));
    let took = started.elapsed();
    match believed(&count, probe.count_doubt.as_deref()) {
        Err(doubt) => {
            evidence.push(doubt);
            let finding = format!("the count after the lost answer cannot be believed ({} retries)", statuses.len());
            Ok(EFFECT_THEN_FAILURE.unconfirmed(finding, evidence, took))
        }
        Ok(executions) => {
            if executions != 1 {
                evidence.push(format!(
                    "{executions} executions for one key: {}",
                    if executions == 0 { "nothing was created" } else { "the retries executed again" }
                ));
            }
            let finding = match executions {
                1 => format!("executed once, but {ending}"),
                _ => format!(
                    "executed {executions} times for one key after the answer was lost and {} retries",
                    statuses.len()
                ),
            };
            Ok(EFFECT_THEN_FAILURE
                .judged(executions == 1 && faithful, finding, evidence, took)
                .at_level(EvidenceLevel::Count))
        }
    }
}

/// Sends the request with `key` over a connection of its own (HTTP/1.1) and closes it without
/// reading the answer: the server may execute, the client never learns the result.
async fn send_and_hang_up(probe: &Probe, key: &str) -> anyhow::Result<()> {
    probe.spec.budget.take(1)?;
    let request = probe.spec.build(Some(key))?;
    let connector = crate::race::connect::Connector::new(&probe.spec.race_target(), &[b"http/1.1"])?;
    let mut connected = connector.connect().await.context("check `effect-then-failure` could not connect")?;
    let bytes = crate::race::h1_last_byte::serialize(&request);
    connected.stream.write_all(&bytes).await.context("check `effect-then-failure` could not send")?;
    connected.stream.flush().await.context("check `effect-then-failure` could not send")?;
    tokio::time::sleep(LINGER).await;
    drop(connected);
    Ok(())
}

/// Retries with `key`, backing off, until an answer settles it (a 2xx, or a 4xx other than 409)
/// or `MAX_RETRIES` are sent. A 409 (still in flight), a 5xx or no answer is retried, as clients
/// do. Returns each retry's status, the settling answer and the slowest answer's latency.
async fn retry_until_answered(
    probe: &mut Probe,
    key: &str,
) -> anyhow::Result<(Vec<String>, Option<Exchange>, Duration)> {
    let mut backoff = FIRST_BACKOFF;
    let mut statuses = Vec::new();
    let mut slowest = Duration::ZERO;
    for _ in 0..MAX_RETRIES {
        tokio::time::sleep(backoff).await;
        backoff = (backoff * 2).min(MAX_BACKOFF);
        match probe.send(EFFECT_THEN_FAILURE.id, Some(key), None, None).await {
            Ok(answer) => {
                slowest = slowest.max(answer.latency);
                statuses.push(answer.status.as_u16().to_string());
                if answer.status.is_success() || (answer.status.is_client_error() && answer.status.as_u16() != 409) {
                    return Ok((statuses, Some(answer), slowest));
                }
            }
            Err(err) if crate::http::budget::refusal_in(&err).is_some() => return Err(err),
            Err(_) => statuses.push("no answer".to_string()),
        }
    }
    Ok((statuses, None, slowest))
}

/// `409, 409, 201`, runs counted: `2 × 409, 1 × 201`.
fn tally(statuses: &[String]) -> String {
    let mut runs: Vec<(&str, usize)> = Vec::new();
    for status in statuses {
        match runs.last_mut() {
            Some((last, n)) if *last == status.as_str() => *n += 1,
            _ => runs.push((status, 1)),
        }
    }
    runs.iter().map(|(status, n)| format!("{n} × {status}")).collect::<Vec<_>>().join(", ")
}
