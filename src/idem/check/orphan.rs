//! `expired-key-taken-once`: the orphan-record race. A key's record outlives its request by the
//! server's retention (or lease); once that has run out, the next request with the key executes
//! again, as it should, but only one of the retries that arrive together may. A layer that reads
//! the record, sees it expired, does the work and writes afterwards (or deletes the record, then
//! inserts its own) lets every one of them through. The duplicates are raced with the `idem race`
//! engine, and only the count shows how many executed.
use std::time::{Duration, Instant};

use anyhow::Context;

use super::catalogue::EXPIRED_KEY_TAKEN_ONCE;
use super::probe::Probe;
use crate::conformance::CheckResult;
use crate::evidence_level::EvidenceLevel;
use crate::idem::key::KeyPolicy;
use crate::idem::race::{KeyMode, Spread, SyncMode, race_round_spread};
use crate::idem::verdict::{Verdict, status_counts};
use crate::units::format_duration;

/// Waited beyond `--retention` before the race: a server's clock, the second its store rounds an
/// expiry to, or a sweep that runs now and then must not make a record still alive look expired.
pub(super) const EXPIRY_MARGIN: Duration = Duration::from_secs(1);

/// How long the check waits between the first request and the race, for `--retention`.
pub(super) fn wait_for(retention: Duration) -> Duration {
    retention + EXPIRY_MARGIN
}

pub(super) async fn expired_key_taken_once(
    probe: &mut Probe,
    retention: Option<Duration>,
    concurrency: usize,
) -> anyhow::Result<CheckResult> {
    let Some(retention) = retention else {
        return Ok(EXPIRED_KEY_TAKEN_ONCE.skipped(
            "give --retention DUR (how long the server keeps a key's record, or its lease): the check waits it out, then races duplicates with the expired key",
        ));
    };
    if probe.spec.ledgers.is_empty() {
        return Ok(EXPIRED_KEY_TAKEN_ONCE.skipped(
            "give --count-url URL (a GET that counts what the server created): only the count shows how many duplicates executed once the record expired",
        ));
    }
    let started = Instant::now();
    let key = probe.fresh_key();
    let first = probe.send(EXPIRED_KEY_TAKEN_ONCE.id, Some(&key), None, None).await?;
    if !first.status.is_success() {
        return Ok(EXPIRED_KEY_TAKEN_ONCE
            .skipped(format!("the first request with the key got {}, so no record was left to expire", first.status)));
    }
    let first_id = probe.id_of(&first).unwrap_or_else(|| "(no id)".to_string());
    let wait = wait_for(retention);
    let mut evidence = vec![
        format!("key {key}: #1 → {} {first_id}", first.status),
        format!(
            "waited {} (--retention {} plus a {} margin) for its record to expire",
            format_duration(wait),
            format_duration(retention),
            format_duration(EXPIRY_MARGIN)
        ),
    ];
    tokio::time::sleep(wait).await;

    let mut spec = probe.spec.clone();
    spec.key_policy = KeyPolicy::Fixed(key.clone());
    let round = race_round_spread(
        &spec,
        concurrency,
        SyncMode::Auto,
        KeyMode::Same,
        &Spread { also: probe.also.clone(), ..Spread::default() },
    )
    .await
    .with_context(|| format!("check `{}` could not race", EXPIRED_KEY_TAKEN_ONCE.id))?;
    probe.note_created(round.answers.iter().map(|answer| &answer.observed));
    let judgement = &round.judgement;
    evidence.push(format!(
        "{concurrency} duplicates with the expired key, sync {}: {}",
        round.sync.as_str(),
        status_counts(round.answers.iter().map(|answer| &answer.observed))
    ));
    evidence.extend(judgement.evidence.iter().map(|e| format!("evidence: {}", e.phrase())));
    evidence.extend(judgement.explanation.iter().cloned());
    evidence.extend(judgement.differences.iter().cloned());
    let counted = judgement.evidence_level == Some(EvidenceLevel::Count);
    let took = started.elapsed();
    let doubt = probe.count_doubt.as_deref();
    let result = match judgement.verdict {
        Verdict::ExecutedMoreThanOnce | Verdict::Inconsistent => {
            evidence.push(format!(
                "{} executions once the record expired: the duplicates each took the expired record over",
                judgement.executions
            ));
            let finding =
                format!("{concurrency} duplicates with an expired key executed {} times", judgement.executions);
            EXPIRED_KEY_TAKEN_ONCE.broken(finding, evidence, took)
        }
        // `create` showed the count to be no proof: nothing it says holds.
        _ if doubt.is_some() => {
            evidence.push(format!("{} (when `create` executed)", doubt.unwrap_or_default()));
            EXPIRED_KEY_TAKEN_ONCE.unconfirmed("the count cannot be believed since `create`", evidence, took)
        }
        Verdict::Consistent if counted && judgement.executions == 1 => EXPIRED_KEY_TAKEN_ONCE.held(evidence, took),
        Verdict::Consistent if counted && judgement.executions == 0 => {
            evidence.push(format!(
                "nothing executed: the record was still there after {}, so no expired record was raced; give the server's retention with --retention",
                format_duration(wait)
            ));
            let finding = format!(
                "{concurrency} duplicates {} after the key's record should have expired executed nothing",
                format_duration(wait)
            );
            EXPIRED_KEY_TAKEN_ONCE.unconfirmed(finding, evidence, took)
        }
        _ => {
            let finding = match counted {
                true => format!("{concurrency} duplicates with an expired key: {} executions", judgement.executions),
                false => format!("{concurrency} duplicates with an expired key, and no count of executions"),
            };
            EXPIRED_KEY_TAKEN_ONCE.unconfirmed(finding, evidence, took)
        }
    };
    Ok(if counted { result.at_level(EvidenceLevel::Count) } else { result })
}
