//! `duplicate-accepted` and `duplicate-processed-once`: providers deliver at least once, so the
//! same delivery again must get a 2xx and must not be processed again.
use std::time::{Duration, Instant};

use super::catalogue::{DUPLICATE_ACCEPTED, DUPLICATE_PROCESSED_ONCE};
use super::probe::{Answer, Probe, describe, timed_send};
use crate::conformance::CheckResult;
use crate::webhook::deliver::engine::Message;
use crate::webhook::delivery::unix_now;

/// The same event again (same delivery id and body), freshly signed.
pub(crate) async fn duplicate(probe: &Probe, first: &Message) -> anyhow::Result<CheckResult> {
    let sent = timed_send(probe, probe.request(first, unix_now())?).await;
    let accepted = matches!(&sent.answer, Answer::Status(exchange) if exchange.status.is_success());
    let mut evidence = vec![format!("delivery {} again → {}", first.delivery_id, describe(&sent.answer))];
    if let Answer::Status(exchange) = &sent.answer {
        if exchange.status.is_server_error() {
            evidence.push("a 5xx makes the provider retry the duplicate again and again".to_string());
        } else if exchange.status.is_client_error() {
            evidence.push("answer 2xx to an event already processed, without processing it again".to_string());
        }
    }
    Ok(DUPLICATE_ACCEPTED.judged(accepted, evidence, sent.took))
}

/// `duplicate-processed-once`, from the receiver's count before the first delivery and after the
/// duplicate: one rise is one processing.
pub(crate) async fn processed_once(
    count: &crate::count::CountSource,
    baseline: crate::count::Baseline,
    first: &Message,
    started: Instant,
) -> anyhow::Result<CheckResult> {
    let before = baseline.second;
    let mut after = count.read().await?;
    if after >= before && after - before < 2 {
        // A receiver that answers first and works afterwards may not have counted yet.
        tokio::time::sleep(Duration::from_millis(300)).await;
        after = count.read().await?;
    }
    // Two deliveries, the first accepted: the count rose by one or two, or it shows nothing.
    let step = crate::count::Step { requests: 2, must_rise: true };
    let change = crate::count::CountChange::judge(baseline, after, step, &count.describe());
    let mut evidence = vec![format!(
        "delivery {} sent twice: the count went {before} → {after} at {}",
        first.delivery_id,
        count.describe()
    )];
    let took = started.elapsed();
    Ok(match change.executions() {
        Ok(1) => {
            evidence.push("processed once: the duplicate was recognised".to_string());
            DUPLICATE_PROCESSED_ONCE.judged(true, evidence, took)
        }
        Err(doubt) => {
            evidence.push(doubt.to_string());
            DUPLICATE_PROCESSED_ONCE.unconfirmed(evidence, took)
        }
        // No rise for an accepted delivery is doubted by `judge` (`must_rise`); said here too.
        Ok(0) => {
            evidence.push("unconfirmed: the count did not rise for an accepted delivery".to_string());
            DUPLICATE_PROCESSED_ONCE.unconfirmed(evidence, took)
        }
        Ok(n) => {
            evidence.push(format!(
                "processed {n} times: the duplicate was processed again; de-duplicate on the delivery id before \
                 doing the work"
            ));
            DUPLICATE_PROCESSED_ONCE.judged(false, evidence, took)
        }
    })
}
