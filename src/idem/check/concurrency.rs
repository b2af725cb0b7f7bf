//! `concurrent-once` and `conflict-retry-after`: concurrent duplicates, fired with the `idem race`
//! engine, execute at most once, and a 409 for one in flight says when to retry.
use std::time::{Duration, Instant};

use anyhow::Context;
use http::{HeaderMap, StatusCode};

use super::catalogue::{CONCURRENT_ONCE, CONFLICT_RETRY_AFTER};
use super::probe::Probe;
use crate::conformance::CheckResult;
use crate::evidence_level::{ANSWER_REPLAYED, COUNTED, EvidenceLevel, NOT_COUNTED};
use crate::idem::key::KeyPolicy;
use crate::idem::race::{KeyMode, Spread, SyncMode, race_round_spread};
use crate::idem::verdict::{Observed, Verdict, status_counts};

/// `concurrent-once` and `conflict-retry-after`, with the `idem race` engine.
pub(super) async fn concurrent(probe: &mut Probe, n: usize) -> anyhow::Result<Vec<CheckResult>> {
    let started = Instant::now();
    let mut spec = probe.spec.clone();
    // A generated key, which the round knows to be fresh (so a count that does not rise is doubted).
    spec.key_policy = match &probe.spec.key_policy {
        KeyPolicy::Generate(format) => KeyPolicy::Generate(*format),
        _ => KeyPolicy::Generate(Default::default()),
    };
    let round = race_round_spread(
        &spec,
        n,
        SyncMode::Auto,
        KeyMode::Same,
        &Spread { also: probe.also.clone(), ..Spread::default() },
    )
    .await
    .with_context(|| format!("check `{}` could not race", CONCURRENT_ONCE.id))?;
    let answers: Vec<&Observed> = round.answers.iter().map(|answer| &answer.observed).collect();
    probe.note_created(answers.iter().copied());
    for answer in &answers {
        if let Some(status) = answer.status.and_then(|s| StatusCode::from_u16(s).ok()) {
            let mut headers = HeaderMap::new();
            if let Some(value) = answer.content_type.as_deref().and_then(|t| t.parse().ok()) {
                headers.insert(http::header::CONTENT_TYPE, value);
            }
            probe.note_errors(CONCURRENT_ONCE.id, status, &headers);
        }
    }
    let judgement = &round.judgement;
    let mut evidence = vec![format!(
        "{n} duplicates, sync {} ({}): {}",
        round.sync.as_str(),
        round.sync_reason,
        status_counts(answers.iter().copied())
    )];
    match judgement.verdict {
        Verdict::Consistent => {
            // Only a count shows one execution; the answers show that one answer was replayed.
            let counted = judgement.evidence_level == Some(EvidenceLevel::Count);
            evidence.push(match (judgement.resource_ids.as_slice(), counted) {
                ([], _) => "no resource was created".to_string(),
                (ids, true) => format!("{COUNTED}: {}", ids.join(", ")),
                (ids, false) => format!("{ANSWER_REPLAYED} ({}): {}", judgement.replay_shown_by(), ids.join(", ")),
            });
            evidence.extend(judgement.evidence.iter().map(|e| format!("evidence: {}", e.phrase())));
            if !counted {
                evidence.push(NOT_COUNTED.to_string());
            }
        }
        Verdict::ExecutedMoreThanOnce => evidence.push(match &judgement.explanation {
            Some(explanation) => format!("executed {} times: {explanation}", judgement.executions),
            // The finding above it already says how many times and how many resources.
            None => format!("the resources: {}", judgement.resource_ids.join(", ")),
        }),
        Verdict::NothingCreated | Verdict::CannotTell | Verdict::Unconfirmed => {
            evidence.push(judgement.explanation.clone().unwrap_or_default())
        }
        Verdict::Inconsistent | Verdict::Errors | Verdict::AllExecuted | Verdict::Collapsed => {}
    }
    evidence.extend(judgement.differences.iter().cloned());
    if judgement.verdict == Verdict::Errors {
        let failed = answers.iter().filter_map(|a| a.error.as_deref()).collect::<Vec<_>>();
        evidence.push(format!(
            "{} duplicates got no answer: {}",
            failed.len(),
            failed.first().copied().unwrap_or_default()
        ));
    }
    evidence.extend(judgement.notes.iter().filter(|note| note.starts_with("the count and the ids")).cloned());
    let counts = status_counts(answers.iter().copied());
    let once = if let (Some(doubt), Verdict::Consistent) = (&probe.count_doubt, &judgement.verdict) {
        evidence.push(format!("{doubt} (when `create` executed)"));
        let finding = format!("{n} duplicates answered consistently ({counts}), but the count cannot be believed");
        CONCURRENT_ONCE.unconfirmed(finding, evidence, started.elapsed())
    } else {
        let finding = race_finding(judgement, n, &answers, &counts);
        match &judgement.verdict {
            Verdict::Unconfirmed => CONCURRENT_ONCE.unconfirmed(finding, evidence, started.elapsed()),
            verdict => CONCURRENT_ONCE.judged(*verdict == Verdict::Consistent, finding, evidence, started.elapsed()),
        }
    };
    // A count `create` showed to be no proof leaves the check without a level.
    let once = match judgement.evidence_level {
        Some(level) if probe.count_doubt.is_none() => once.at_level(level),
        _ => once,
    };

    let conflicts: Vec<&&Observed> = answers.iter().filter(|a| a.status == Some(409)).collect();
    let retry_after = if conflicts.is_empty() {
        CONFLICT_RETRY_AFTER.skipped("no duplicate was answered 409")
    } else {
        let missing = conflicts.iter().filter(|a| a.retry_after.is_none()).count();
        let evidence = match missing {
            0 => format!(
                "all {} answers 409 carry Retry-After ({})",
                conflicts.len(),
                conflicts[0].retry_after.as_deref().unwrap_or_default()
            ),
            _ => format!("{missing} of {} answers 409 carry no Retry-After", conflicts.len()),
        };
        let finding = format!("{missing} of {} answers 409 carried no Retry-After", conflicts.len());
        CONFLICT_RETRY_AFTER.judged(missing == 0, finding, vec![evidence], Duration::ZERO)
    };
    Ok(vec![once, retry_after])
}

/// What `n` concurrent duplicates with one key showed, when it is not one execution.
fn race_finding(judgement: &crate::idem::verdict::Judgement, n: usize, answers: &[&Observed], counts: &str) -> String {
    match judgement.verdict {
        Verdict::ExecutedMoreThanOnce if judgement.resource_ids.len() > 1 => format!(
            "executed {} times: {} distinct resources for one key",
            judgement.executions,
            judgement.resource_ids.len()
        ),
        Verdict::ExecutedMoreThanOnce => format!("{n} duplicates executed {} times for one key", judgement.executions),
        Verdict::Errors => {
            let failed = answers.iter().filter(|a| a.error.is_some()).count();
            format!("{failed} of {n} duplicates got no answer")
        }
        Verdict::NothingCreated => format!("none of {n} duplicates was created: {counts}"),
        Verdict::CannotTell => format!("{n} duplicates answered without a resource id: {counts}"),
        Verdict::Unconfirmed => {
            format!("{n} duplicates answered consistently ({counts}), with only the id the request carries")
        }
        Verdict::Consistent | Verdict::Inconsistent | Verdict::AllExecuted | Verdict::Collapsed => {
            format!("{n} duplicates for one key got answers that disagree: {counts}")
        }
    }
}
