//! `create` (the first execution every other check compares with) and `new-key-creates` (a second
//! fresh key really creates a second resource, so a replay is not a cache answering everything alike).
use std::time::Instant;

use super::catalogue::{CREATE, NEW_KEY_CREATES};
use super::probe::{Original, Probe, believed, excerpt};
use crate::conformance::CheckResult;
use crate::count::Step;
use crate::evidence_level::EvidenceLevel;
use crate::idem::request::FoundId;
use crate::idem::verdict::Grounds;

/// How `create`'s evidence begins when the id came from a header, not the body's pointer (an
/// `--openapi` operation's line repeats it).
pub(crate) const ID_NOT_IN_BODY: &str = "no id at";

pub(super) async fn create(probe: &mut Probe) -> anyhow::Result<(CheckResult, Option<Original>)> {
    let (result, original, _, _) = create_keeping_answer(probe).await?;
    Ok((result, original))
}

/// `create`, also returning the answer and its key whatever they were (`idem run` continues its
/// workflow with the answer, and judges a refused one by the step's own criteria).
pub(super) async fn create_keeping_answer(
    probe: &mut Probe,
) -> anyhow::Result<(CheckResult, Option<Original>, crate::http::client::Exchange, String)> {
    let started = Instant::now();
    let key = probe.fresh_key();
    let before = probe.spec.count_before().await?;
    let exchange = probe.send(CREATE.id, Some(&key), None, None).await?;
    let status = exchange.status;
    let found = probe.found_id(&exchange);
    let mut evidence = vec![format!("key {key} → {status}")];
    // The first execution is where a count shows whether it counts this endpoint's executions:
    // one that does not rise for it cannot show that a retry did not execute either.
    // With several ledgers, each must count this execution: the first doubt is the one kept.
    let step = Step { requests: 1, must_rise: status.is_success(), slowest: exchange.latency };
    for (count, before) in probe.spec.ledgers.iter().zip(before.iter().flatten()) {
        let change = count.change_since(*before, step).await?;
        evidence.push(format!(
            "the count went {} → {} at {} {}",
            change.before,
            change.after,
            count.describe(),
            change.settling_phrase()
        ));
        if let Some(doubt) = &change.doubt {
            evidence.push(doubt.clone());
        }
        if probe.count_doubt.is_none() {
            probe.count_doubt = change.doubt;
        }
    }
    let original = match (status.is_success(), found) {
        (true, Some(FoundId { id, from })) => {
            evidence.push(format!("resource id {id} (from {from})"));
            // The id was not where it was looked for first (--id-field, or where an OpenAPI
            // document says): say where it came from instead, so a wrong pointer is not silent.
            if !from.starts_with("body ") {
                evidence.push(format!("{ID_NOT_IN_BODY} {} in the body: read from {from}", probe.spec.id_field));
            }
            Some(Original { key: key.clone(), exchange: exchange.clone(), id })
        }
        (true, None) => {
            evidence.push(format!("the answer: {}", excerpt(&exchange.body)));
            // A 2xx without an id is no failure of the endpoint: it may well have created, but
            // nothing here can tell (exit 2, as `idem send` says for the same answer).
            evidence.push(crate::idem::verdict::cannot_tell(&probe.spec.id_source()));
            None
        }
        (false, _) => {
            evidence.push(format!("the endpoint refused the request: {}", excerpt(&exchange.body)));
            None
        }
    };
    let result = match (status.is_success(), &original) {
        (true, None) => CREATE.unconfirmed(
            format!("answered {status} without a resource id: cannot tell what it created"),
            evidence,
            started.elapsed(),
        ),
        _ => CREATE.judged(
            original.is_some(),
            format!("refused the first request with {status}"),
            evidence,
            started.elapsed(),
        ),
    };
    let answer = match &original {
        Some(original) => original.exchange.clone(),
        None => exchange,
    };
    Ok((result, original, answer, key))
}

/// `new-key-creates`.
pub(super) async fn new_key_creates(probe: &mut Probe, original: &Original) -> anyhow::Result<CheckResult> {
    let started = Instant::now();
    let key = probe.fresh_key();
    let before = probe.spec.count_before().await?;
    let answer = probe.send(NEW_KEY_CREATES.id, Some(&key), None, None).await?;
    let step = Step { requests: 1, must_rise: answer.status.is_success(), slowest: answer.latency };
    let grounds = Grounds::gather(&probe.spec, Some(&key), before.as_deref(), step).await?;
    let id = probe.id_of(&answer);
    let mut evidence = vec![format!("key {key} → {} {}", answer.status, id.as_deref().unwrap_or("(no id)"))];
    if let Some(count) = &grounds.count {
        // The count says what the server did, whatever id it answered with.
        evidence.push(count.went_phrase(""));
        let executions = match believed(count, probe.count_doubt.as_deref()) {
            Ok(executions) => executions,
            Err(doubt) if answer.status.is_success() => {
                evidence.push(doubt);
                let finding = format!("a new key answered {}, but the count cannot be believed", answer.status);
                return Ok(NEW_KEY_CREATES.unconfirmed(finding, evidence, started.elapsed()));
            }
            Err(_) => 0,
        };
        let created = answer.status.is_success() && executions >= 1;
        if !created {
            evidence.push(format!("a new key created nothing: {}", excerpt(&answer.body)));
        }
        let finding = format!("a new key answered {}; executions counted: {executions}", answer.status);
        return Ok(NEW_KEY_CREATES
            .judged(created, finding, evidence, started.elapsed())
            .at_level(EvidenceLevel::Count));
    }
    let same_sent_id = id.as_deref() == Some(original.id.as_str()) && grounds.sent_as(&original.id).is_some();
    if answer.status.is_success() && same_sent_id {
        evidence.push(format!(
            "unconfirmed: the new key got the same id {}, which is in your request, so it does not show whether the server created a second resource: give --count-url URL (a GET that counts what the server created)",
            original.id
        ));
        let finding = format!("a new key got the id {} again, which the request itself carried", original.id);
        return Ok(NEW_KEY_CREATES.unconfirmed(finding, evidence, started.elapsed()));
    }
    let created = answer.status.is_success() && id.as_ref().is_some_and(|id| *id != original.id);
    if !created {
        if id.as_deref() == Some(original.id.as_str()) {
            evidence.push(format!(
                "a new key got the first resource {} back: the endpoint answers without creating",
                original.id
            ));
        } else {
            evidence.push(excerpt(&answer.body));
        }
    }
    let finding = match id.as_deref() {
        Some(same) if same == original.id => {
            format!("a new key answered {} with the first resource {same} again", answer.status)
        }
        Some(other) => format!("a new key answered {} with {other}", answer.status),
        None => format!("a new key answered {} with no id", answer.status),
    };
    Ok(NEW_KEY_CREATES.judged(created, finding, evidence, started.elapsed()))
}
