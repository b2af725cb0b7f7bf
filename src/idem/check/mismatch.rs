//! `mismatch-rejected` and `mismatch-is-422`: the same key with another body is refused, with 422.
use std::time::{Duration, Instant};

use http::StatusCode;

use super::catalogue::{MISMATCH_422, MISMATCH_REJECTED};
use super::probe::{Original, Probe, excerpt};
use super::variant::vary_body;
use crate::conformance::CheckResult;

/// `mismatch-rejected` and `mismatch-is-422`.
pub(super) async fn mismatch(probe: &mut Probe, original: &Original) -> anyhow::Result<Vec<CheckResult>> {
    let Some((varied, change)) = vary_body(&probe.spec.body) else {
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
    }
    let rejected = answer.status.is_client_error();
    let rejected_result = MISMATCH_REJECTED.judged(rejected, evidence, started.elapsed());
    let is_422 = if rejected {
        MISMATCH_422.judged(
            answer.status == StatusCode::UNPROCESSABLE_ENTITY,
            vec![format!("answered {}", answer.status)],
            Duration::ZERO,
        )
    } else {
        MISMATCH_422.skipped("the mismatch was not rejected")
    };
    Ok(vec![rejected_result, is_422])
}
