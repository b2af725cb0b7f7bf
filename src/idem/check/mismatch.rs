//! `mismatch-rejected` and `mismatch-is-422`: the same key with another body is never executed;
//! it is refused with the profile's status (422 under the draft, 409 under UCP, any 4xx under
//! Stripe), or, where the profile says so (PayPal, Worldline), answered with the first answer.
use std::time::{Duration, Instant};

use http::StatusCode;

use super::catalogue::{MISMATCH_422, MISMATCH_REJECTED};
use super::probe::{Original, Probe, excerpt};
use super::profile::{MismatchAnswer, ProfileRules};
use super::variant::{change_content, vary_body};
use crate::conformance::CheckResult;
use crate::idem::key_carrier::KeyCarrier;

/// `mismatch-rejected` and `mismatch-is-422`.
pub(super) async fn mismatch(
    probe: &mut Probe,
    original: &Original,
    rules: &'static ProfileRules,
) -> anyhow::Result<Vec<CheckResult>> {
    let Some((varied, change)) = change_content(&probe.spec.key_carrier, &probe.spec.body, vary_body) else {
        let reason = "the request has no body to vary (give one with -d)";
        return Ok(vec![MISMATCH_REJECTED.skipped(reason), MISMATCH_422.skipped(reason)]);
    };
    let started = Instant::now();
    let answer = probe.send(MISMATCH_REJECTED.id, Some(&original.key), None, Some(varied.into())).await?;
    let mut evidence = vec![format!("same key, body changed ({change}) → {}", answer.status)];
    let id = probe.id_of(&answer);
    let replayed_old = answer.status.is_success() && answer.body == original.exchange.body;
    let sent_id = crate::idem::verdict::Grounds::of(&probe.spec, Some(&original.key)).sent_as(&original.id).is_some();
    if replayed_old && sent_id {
        // An id made from the request is the same whether the server replayed or executed again.
        evidence.push(format!(
            "answered with the first answer's body ({}): it replayed the old answer or executed the changed request (the id is in your request, so the answers cannot tell which); either way it was not refused",
            original.id
        ));
    } else if replayed_old {
        evidence.push(format!("the old response was replayed ({}) for a different request", original.id));
    } else if let Some(id) = id.filter(|_| answer.status.is_success()) {
        evidence.push(format!("the changed request was executed: {id}"));
    } else if !answer.status.is_client_error() {
        evidence.push(format!("expected a 4xx: {}", excerpt(&answer.body)));
    } else if probe.spec.key_carrier != KeyCarrier::Header {
        // A key carried in the request itself is rewritten into the changed body, and an API
        // that found none there would refuse it too: the answer shows which refusal it was.
        evidence.push(format!("refused: {}", excerpt(&answer.body)));
    }
    let status = answer.status;
    let mut finding = if replayed_old {
        format!("a changed body under the same key answered {status} with the first answer's body ({})", original.id)
    } else if let Some(id) = probe.id_of(&answer).filter(|_| status.is_success()) {
        format!("a changed body under the same key was executed: {status} {id}")
    } else if !status.is_client_error() {
        format!("a changed body under the same key answered {status}, not a 4xx")
    } else {
        format!("a changed body under the same key was refused with {status}")
    };
    let rejected = answer.status.is_client_error();
    let held = match rules.mismatch.answer {
        // A 422 rule is judged by `mismatch-is-422` at the profile's level (a SHOULD in the draft);
        // another named status (UCP's 409) is part of this check.
        MismatchAnswer::Reject
            if rejected && rules.mismatch.status != Some(422) && !rules.accepts_mismatch_status(answer.status) =>
        {
            evidence.push(format!(
                "refused, but --profile {} asks for {} ({})",
                rules.name,
                rules.mismatch_status_phrase(),
                rules.mismatch.source
            ));
            finding = format!(
                "refused a changed body with {status}; --profile {} asks for {}",
                rules.name,
                rules.mismatch_status_phrase()
            );
            false
        }
        MismatchAnswer::Reject => rejected,
        MismatchAnswer::RejectOrReplay => rejected || replayed_old,
        // The first answer again is what these contracts promise; a refusal is not.
        MismatchAnswer::Replay => {
            let held = replayed_old;
            if !held {
                evidence.push(format!(
                    "--profile {} expects the first answer ({}) replayed: {}",
                    rules.name, original.id, rules.mismatch.source
                ));
                finding = format!(
                    "a changed body under the same key answered {status}, not the first answer ({}) replayed",
                    original.id
                );
            }
            held
        }
    };
    let mut rejected_result = MISMATCH_REJECTED.judged(held, finding, evidence, started.elapsed());
    if let (Some(fix), Some(_)) = (&rules.mismatch.fix, rejected_result.fix) {
        rejected_result.fix = Some(fix.as_str());
    }
    let is_422 = match (rules.mismatch.answer, rules.mismatch.status) {
        (MismatchAnswer::Reject, Some(422) | None) if rejected => MISMATCH_422.judged(
            answer.status == StatusCode::UNPROCESSABLE_ENTITY,
            format!("refused a changed body with {}, not 422", answer.status),
            vec![format!("answered {}", answer.status)],
            Duration::ZERO,
        ),
        (MismatchAnswer::Reject, Some(422) | None) => MISMATCH_422.skipped("the mismatch was not rejected"),
        _ => MISMATCH_422.skipped(format!(
            "not judged under --profile {}: {}",
            rules.name,
            rules.requirement(MISMATCH_REJECTED.id).unwrap_or_default()
        )),
    };
    Ok(vec![rejected_result, is_422])
}
