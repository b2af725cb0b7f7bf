//! `duplicate-accepted`, `duplicate-processed-once` and `concurrent-duplicates-processed-once`:
//! providers deliver at least once, so the same delivery again, later or at the same instant,
//! must get a 2xx and must not be processed again.
use std::time::{Duration, Instant};

use super::catalogue::{
    CONCURRENT_DUPLICATES_ANSWERED_5XX, CONCURRENT_DUPLICATES_PROCESSED_ONCE, DUPLICATE_ACCEPTED,
    DUPLICATE_PROCESSED_ONCE,
};
use super::probe::{Answer, Probe, describe, said, timed_send};
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
    let finding = format!("the same delivery again got {}", said(&sent.answer));
    Ok(DUPLICATE_ACCEPTED.judged(accepted, finding, evidence, sent.took))
}

/// `duplicate-processed-once`, from the receiver's count before the first delivery and after the
/// duplicate: one rise is one processing.
pub(crate) async fn processed_once(
    count: &crate::count::CountSource,
    baseline: crate::count::Baseline,
    first: &Message,
    started: Instant,
    slowest: Duration,
) -> anyhow::Result<CheckResult> {
    // Two deliveries, the first accepted: the count rose by one or two, or it shows nothing.
    // Receivers acknowledge first and process afterwards as a rule: the count is judged once it
    // holds still, and the closing re-read (the later checks send more deliveries, so it comes
    // now) finds a duplicate processed later still.
    let step = crate::count::Step { requests: 2, must_rise: true, slowest };
    let settled = count.change_since(baseline, step).await?;
    let change = count.closing(baseline, &settled, step).await?;
    let mut evidence = vec![format!(
        "delivery {} sent twice: the count went {} → {} at {} {}",
        first.delivery_id,
        change.before,
        change.after,
        count.describe(),
        change.settling_phrase()
    )];
    if change.late_executions > 0 {
        evidence.push(format!(
            "{} came after the count had settled at {}",
            crate::text::plural(change.late_executions, "processing", "processings"),
            settled.after
        ));
    }
    let took = started.elapsed();
    Ok(match change.executions() {
        Ok(1) => {
            evidence.push("processed once: the duplicate was recognised".to_string());
            DUPLICATE_PROCESSED_ONCE.held(evidence, took)
        }
        Err(doubt) => {
            evidence.push(doubt.to_string());
            let finding = format!(
                "a delivery sent twice: the count went {} → {}, which cannot be believed",
                change.before, change.after
            );
            DUPLICATE_PROCESSED_ONCE.unconfirmed(finding, evidence, took)
        }
        // No rise for an accepted delivery is doubted by `judge` (`must_rise`); said here too.
        Ok(0) => {
            evidence.push("unconfirmed: the count did not rise for an accepted delivery".to_string());
            let finding = format!("a delivery accepted twice left the count at {}", change.after);
            DUPLICATE_PROCESSED_ONCE.unconfirmed(finding, evidence, took)
        }
        Ok(n) => {
            evidence.push(format!(
                "processed {n} times: the duplicate was processed again; de-duplicate on the delivery id before \
                 doing the work"
            ));
            let finding = format!(
                "processed {n} times: one delivery sent twice, the count went {} → {}",
                change.before, change.after
            );
            DUPLICATE_PROCESSED_ONCE.broken(finding, evidence, took)
        }
    })
}

/// `concurrent-duplicates-processed-once`: `copies` identical copies of one fresh event (same
/// delivery id, same signature, signed once) released together by the race engine; the receiver's
/// count must rise by one. A copy answered with a 5xx when it rose by one is a warning: processed
/// once, but the provider will deliver that copy again.
pub(crate) async fn concurrent_processed_once(
    probe: &Probe,
    count: &crate::count::CountSource,
    copies: usize,
    http2: bool,
) -> anyhow::Result<CheckResult> {
    let started = Instant::now();
    let message = probe.event();
    let request = probe.request(&message, unix_now())?;
    let requests = vec![request; copies];
    // The copies leave together or not at all; a refusal ends the suite with exit status 2.
    probe.budget.take(copies as u64)?;
    let baseline = count.baseline().await?;
    let together = match crate::race::together::release(&probe.race_target(), http2, &requests).await {
        Ok(together) => together,
        // The rest of the suite still stands: this check alone could not be judged.
        Err(err) => {
            let evidence = vec![format!(
                "could not release {copies} copies of delivery {} together: {err:#}",
                message.delivery_id
            )];
            let finding = format!("{copies} copies could not be released together");
            return Ok(CONCURRENT_DUPLICATES_PROCESSED_ONCE.unconfirmed(finding, evidence, started.elapsed()));
        }
    };
    let tally = crate::race::together::Tally::of(&together.answers);
    let acknowledged = tally.within(200..300);
    let step = crate::count::Step { requests: copies as u64, must_rise: acknowledged > 0, slowest: together.slowest() };
    let change = count.change_since(baseline, step).await?;
    let (before, after) = (change.before, change.after);
    let mut evidence = vec![
        format!(
            "{copies} identical copies of delivery {} released together ({} sync: {}) → {}",
            message.delivery_id,
            together.sync.as_str(),
            crate::race::together::ReleaseSummary::from(&together.release).describe(together.sync, copies),
            tally.describe()
        ),
        format!("the count went {before} → {after} at {}", count.describe()),
    ];
    let took = started.elapsed();
    let server_errors = tally.within(500..600);
    Ok(match change.executions() {
        Err(doubt) => {
            evidence.push(doubt.to_string());
            let finding = format!(
                "{copies} copies released together: the count went {before} → {after}, which cannot be believed"
            );
            CONCURRENT_DUPLICATES_PROCESSED_ONCE.unconfirmed(finding, evidence, took)
        }
        Ok(0) => {
            evidence.push(format!(
                "unconfirmed: the count did not rise, and {} of {copies} copies got a 2xx, so nothing shows the \
                 event was processed at all",
                acknowledged
            ));
            let finding =
                format!("{copies} copies released together, {acknowledged} got a 2xx, and the count did not rise");
            CONCURRENT_DUPLICATES_PROCESSED_ONCE.unconfirmed(finding, evidence, took)
        }
        Ok(1) if server_errors > 0 => {
            evidence.push(format!(
                "processed once, but {} answered with a 5xx, which the provider delivers again",
                crate::text::plural(server_errors, "copy was", "copies were")
            ));
            let finding = format!("processed once, but {server_errors} of {copies} copies were answered with a 5xx");
            CONCURRENT_DUPLICATES_ANSWERED_5XX.broken(finding, evidence, took)
        }
        Ok(1) => {
            evidence.push("processed once: the copies that arrived together were recognised".to_string());
            CONCURRENT_DUPLICATES_PROCESSED_ONCE.held(evidence, took)
        }
        Ok(n) => {
            evidence.push(format!(
                "processed {n} times: copies that arrived together each passed the \"already seen?\" check before \
                 any of them recorded the id"
            ));
            let finding = format!("processed {n} times: {copies} copies of one delivery released together");
            CONCURRENT_DUPLICATES_PROCESSED_ONCE.broken(finding, evidence, took)
        }
    })
}
