//! `crash-recovers`: the server dies (SIGKILL) while a request is in flight and comes back. Retries
//! with the same key must end in one execution; a claim that survives the crash with no lease to
//! run out answers 409 until its TTL (days, in one production report).
use std::time::{Duration, Instant};

use anyhow::Context;

use super::catalogue::CRASH_RECOVERS;
use super::probe::{Probe, send_decoded};
use super::server_cmd::ServerCommand;
use crate::conformance::CheckResult;
use crate::http::client::Exchange;
use crate::units::format_duration;

/// The first retry after the restart waits this long, doubling up to `MAX_BACKOFF`.
const FIRST_BACKOFF: Duration = Duration::from_millis(100);
const MAX_BACKOFF: Duration = Duration::from_secs(2);

pub(super) async fn crash_recovers(
    probe: &mut Probe,
    server: Option<&mut ServerCommand>,
    work_hint: Option<Duration>,
    stuck_for: Duration,
) -> anyhow::Result<CheckResult> {
    let Some(server) = server else {
        return Ok(CRASH_RECOVERS.skipped(
            "give the command that starts the server with --server-cmd 'CMD' (idem starts it, kills it mid-request and restarts it)",
        ));
    };
    let started = Instant::now();
    let key = probe.fresh_key();
    // Halfway through the work when its length is known; otherwise soon after the server has it.
    let kill_after = work_hint.map(|hint| hint / 2).unwrap_or(Duration::from_millis(100));
    if let Err(exited) = server.ensure_running() {
        return Ok(CRASH_RECOVERS.skipped(format!("could not judge: {exited}, before idem killed it")));
    }
    let first = match kill_mid_request(probe, server, &key, kill_after).await? {
        Ok(first) => first,
        Err(could_not_judge) => return Ok(could_not_judge),
    };
    let mut evidence = vec![format!(
        "key {key}: killed {} with SIGKILL {} after sending; #1 got {first}",
        server.describe(),
        format_duration(kill_after)
    )];
    let up_after = server.start().await.context("check `crash-recovers` could not restart the server")?;
    evidence.push(format!("restarted; it listened again after {}", format_duration(up_after)));

    let retrying = Instant::now();
    let (statuses, ended) = retry_until_settled(probe, &key, stuck_for).await?;
    // Answers from a server whose command has exited are not the restarted server's.
    if let Err(exited) = server.ensure_running() {
        return Ok(CRASH_RECOVERS.skipped(format!("could not judge: {exited} after the restart")));
    }
    let tally = statuses.iter().map(|(status, n)| format!("{n} × {status}")).collect::<Vec<_>>().join(", ");
    let Some(ended) = ended else {
        let conflicts: usize = statuses.iter().filter(|(status, _)| status == "409").map(|(_, n)| n).sum();
        let total: usize = statuses.iter().map(|(_, n)| n).sum();
        if conflicts == total && total > 0 {
            evidence.push(format!(
                "retries over {} (--stuck-for): {tally}: the key is stuck in flight after the crash",
                format_duration(retrying.elapsed())
            ));
            let finding = format!(
                "after a crash mid-request the key answered 409 to all {total} retries over {}",
                format_duration(retrying.elapsed())
            );
            return Ok(CRASH_RECOVERS.broken(finding, evidence, started.elapsed()));
        }
        return Ok(CRASH_RECOVERS.skipped(format!(
            "could not judge: retries over {} got {tally}, neither a stuck 409 nor an execution",
            format_duration(retrying.elapsed())
        )));
    };
    let id = probe.id_of(&ended).filter(|_| ended.status.is_success());
    evidence.push(format!(
        "retries after the restart: {tally}; ended {} after the restart with {} {}",
        format_duration(retrying.elapsed()),
        ended.status,
        id.as_deref().unwrap_or("(no id)")
    ));
    let Some(id) = id else {
        evidence.push("the key was refused after the crash, so the request can never complete".to_string());
        let finding = format!("after a crash mid-request the retries ended with {}: {tally}", ended.status);
        return Ok(CRASH_RECOVERS.broken(finding, evidence, started.elapsed()));
    };
    // One execution: the key now replays what it executed.
    let request = probe.spec.build(Some(&key))?;
    let again = send_decoded(&probe.client, CRASH_RECOVERS.id, request).await?;
    let again_id = probe.id_of(&again).filter(|_| again.status.is_success());
    let once = again_id.as_deref() == Some(id.as_str());
    evidence.push(format!(
        "the key again → {} {}{}",
        again.status,
        again_id.as_deref().unwrap_or("(no id)"),
        if once { " (the replay): answer replayed" } else { ": not a replay of the recovered execution" }
    ));
    let finding = format!(
        "after a crash the retry got {id}, then the key answered {} {}",
        again.status,
        again_id.as_deref().unwrap_or("with no id")
    );
    Ok(CRASH_RECOVERS.judged(once, finding, evidence, started.elapsed()))
}

/// Sends the request with `key` and kills the server `kill_after` later, while it is (presumably)
/// executing. Says what that first request got; a request that ended before the kill, or as it
/// landed, makes the check unjudgeable (the inner `Err`).
async fn kill_mid_request(
    probe: &Probe,
    server: &mut ServerCommand,
    key: &str,
    kill_after: Duration,
) -> anyhow::Result<Result<String, CheckResult>> {
    let request = probe.spec.build(Some(key))?;
    let client = probe.client.clone();
    let mut first = tokio::spawn(async move { send_decoded(&client, CRASH_RECOVERS.id, request).await });
    tokio::select! {
        result = &mut first => {
            let status = match result {
                Ok(Ok(answer)) => answer.status.to_string(),
                Ok(Err(err)) => format!("no answer: {err:#}"),
                Err(err) => err.to_string(),
            };
            return Ok(Err(CRASH_RECOVERS.skipped(format!(
                "could not judge: the request ended ({status}) within {} before the server was killed; \
    use a slower request and give its duration with --work-hint DUR",
                format_duration(kill_after)
            ))));
        }
        _ = tokio::time::sleep(kill_after) => {}
    }
    server.kill_hard().await;
    Ok(match first.await {
        // It finished as the kill landed: nothing was cut off mid-request, so what follows shows
        // nothing about recovering from a crash.
        Ok(Ok(answer)) => Err(CRASH_RECOVERS.skipped(format!(
            "could not judge: the request was answered ({}) as the server was killed {} after it was sent, so \
             the kill did not cut it off; use a slower request and give its duration with --work-hint DUR",
            answer.status,
            format_duration(kill_after)
        ))),
        Ok(Err(err)) => Ok(format!("no answer ({})", err.root_cause())),
        Err(err) => Ok(format!("no answer ({err})")),
    })
}

/// Retries with `key`, backing off, until an answer settles it (a 2xx, or a 4xx other than 409)
/// or `stuck_for` passes. Returns the statuses in the order they came, runs counted
/// (`4 × 409, 1 × 201`), and the settling answer if there was one.
async fn retry_until_settled(
    probe: &mut Probe,
    key: &str,
    stuck_for: Duration,
) -> anyhow::Result<(Vec<(String, usize)>, Option<Exchange>)> {
    let retrying = Instant::now();
    let mut backoff = FIRST_BACKOFF;
    let mut statuses: Vec<(String, usize)> = Vec::new();
    let note = |statuses: &mut Vec<(String, usize)>, status: String| match statuses.last_mut() {
        Some((last, n)) if *last == status => *n += 1,
        _ => statuses.push((status, 1)),
    };
    while retrying.elapsed() < stuck_for {
        let request = probe.spec.build(Some(key))?;
        match send_decoded(&probe.client, CRASH_RECOVERS.id, request).await {
            Ok(answer) => {
                probe.note_errors(CRASH_RECOVERS.id, answer.status, &answer.headers);
                note(&mut statuses, answer.status.as_u16().to_string());
                if answer.status.is_success() || (answer.status.is_client_error() && answer.status.as_u16() != 409) {
                    return Ok((statuses, Some(answer)));
                }
            }
            Err(err) if crate::http::budget::refusal_in(&err).is_some() => return Err(err),
            Err(_) => note(&mut statuses, "no answer".to_string()),
        }
        tokio::time::sleep(backoff.min(stuck_for.saturating_sub(retrying.elapsed()))).await;
        backoff = (backoff * 2).min(MAX_BACKOFF);
    }
    Ok((statuses, None))
}
