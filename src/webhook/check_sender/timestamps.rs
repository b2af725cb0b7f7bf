//! Signed timestamps (Stripe, Standard Webhooks, Slack): close to the receiver's clock, and
//! renewed on every retry.
use std::time::Duration;

use super::probe::{SenderFinding, SenderObservation, bounded};
use crate::units::format_duration;
use crate::webhook::scheme::{self, SchemeOptions};

/// Signed times are whole seconds, so an honest signature lags its real send time by up to a
/// second; a retry whose signed time lags by more than this re-used an older signature.
const FRESH_SLACK: Duration = Duration::from_millis(1_500);

/// Why there are no timestamps to judge.
fn untimestamped(observed: &SenderObservation) -> String {
    let kinds: Vec<String> = {
        let mut kinds = Vec::new();
        for (_, attempt) in observed.attempts() {
            if let Some(kind) = attempt.arrival.signature.scheme
                && !kinds.contains(&kind)
            {
                kinds.push(kind);
            }
        }
        kinds
            .into_iter()
            .filter(|kind| !scheme::build(*kind, &SchemeOptions::default()).is_timestamped())
            .map(|kind| kind.to_string())
            .collect()
    };
    if kinds.is_empty() {
        "no attempt carried a readable signed timestamp".to_string()
    } else {
        format!("--scheme {} signs no timestamp", kinds.join(", "))
    }
}

pub(super) fn fresh(observed: &SenderObservation) -> SenderFinding {
    let mut good = Vec::new();
    let mut bad = Vec::new();
    let mut any_timestamp = false;
    for event in &observed.events {
        let Some(first) = event.attempts.first() else { continue };
        let Some(first_signed) = first.arrival.signature.timestamp else { continue };
        any_timestamp = true;
        // The latest retry that came late enough to tell a fresh signature from a re-sent one.
        let mut judged = None;
        for attempt in &event.attempts[1..] {
            let Some(signed) = attempt.arrival.signature.timestamp else { continue };
            let elapsed = attempt.arrival.at.saturating_duration_since(first.arrival.at);
            if elapsed <= FRESH_SLACK {
                continue;
            }
            let signed_later = signed.saturating_sub(first_signed);
            let lag = elapsed.as_secs_f64() - signed_later as f64;
            let line = format!(
                "{} attempt {} arrived {} after attempt 1 and was signed {signed_later}s after it",
                event.name(),
                attempt.number,
                format_duration(elapsed)
            );
            if lag > FRESH_SLACK.as_secs_f64() {
                bad.push(format!(
                    "{line} (signed at {signed}): an earlier signature was sent again, and a receiver's replay window \
                     refuses it once it ages out"
                ));
            } else {
                judged = Some(line);
            }
        }
        good.extend(judged);
    }
    if !any_timestamp {
        return SenderFinding::Skipped(untimestamped(observed));
    }
    if good.is_empty() && bad.is_empty() {
        return SenderFinding::Skipped(format!(
            "no retry came more than {} after its event's first attempt: too soon to tell a fresh signature from a \
             re-sent one",
            format_duration(FRESH_SLACK)
        ));
    }
    if bad.is_empty() {
        return SenderFinding::Held(bounded(good));
    }
    let finding = format!(
        "{} of {} late retries re-sent an earlier signature: {}",
        bad.len(),
        bad.len() + good.len(),
        bad[0].split(" (signed at").next().unwrap_or_default()
    );
    SenderFinding::broken(finding, bounded(bad))
}

pub(super) fn skew(observed: &SenderObservation) -> SenderFinding {
    let tolerance = i64::try_from(observed.tolerance.as_secs()).unwrap_or(i64::MAX);
    let mut worst: Option<i64> = None;
    let mut bad = Vec::new();
    let mut count = 0;
    for (event, attempt) in observed.attempts() {
        let Some(signed) = attempt.arrival.signature.timestamp else { continue };
        count += 1;
        let age = attempt.arrival.received.timestamp().saturating_sub(signed);
        if worst.is_none_or(|worst| age.unsigned_abs() > worst.unsigned_abs()) {
            worst = Some(age);
        }
        if age.unsigned_abs() > tolerance.unsigned_abs() {
            let when = if age >= 0 { "behind" } else { "ahead of" };
            bad.push(format!(
                "{} attempt {}: signed at {signed}, {}s {when} this receiver's clock",
                event.name(),
                attempt.number,
                age.unsigned_abs()
            ));
        }
    }
    let Some(worst) = worst else {
        return SenderFinding::Skipped(untimestamped(observed));
    };
    let tolerance = format_duration(observed.tolerance);
    if bad.is_empty() {
        return SenderFinding::Held(vec![format!(
            "{count} signed times, at most {}s from this receiver's clock (tolerance {tolerance})",
            worst.unsigned_abs()
        )]);
    }
    let finding = format!(
        "{} of {count} signed times are outside the {tolerance} tolerance, the worst {}s off",
        bad.len(),
        worst.unsigned_abs()
    );
    let mut evidence = vec![format!("{} of {count} signed times are outside the {tolerance} tolerance", bad.len())];
    evidence.extend(bad);
    SenderFinding::broken(finding, bounded(evidence))
}

#[cfg(test)]
mod tests {
    use std::time::Instant;

    use super::super::probe::SenderEnd;
    use super::super::probe::fixtures::{answer, event, observed, spec};
    use super::*;

    fn signed_event(timestamps: [i64; 3]) -> super::super::probe::Event {
        let now = chrono::Utc::now().timestamp();
        let specs = [0.0, 1.0, 3.0]
            .into_iter()
            .zip(timestamps)
            .map(|(at, offset)| {
                let mut attempt = spec(at, answer(500));
                attempt.timestamp = Some(now + offset);
                attempt
            })
            .collect();
        event(1, Instant::now(), specs)
    }

    #[test]
    fn a_resent_signature_is_caught_once_retries_come_late_enough() {
        let fresh_one = observed(vec![signed_event([0, 1, 3])], SenderEnd::External);
        assert!(matches!(fresh(&fresh_one), SenderFinding::Held(_)));
        let resent = observed(vec![signed_event([0, 0, 0])], SenderEnd::External);
        let SenderFinding::Broken { evidence, .. } = fresh(&resent) else { panic!("must warn") };
        assert!(
            evidence[0].contains("attempt 3 arrived 3.00s after attempt 1 and was signed 0s after it"),
            "{evidence:?}"
        );
        assert!(matches!(skew(&resent), SenderFinding::Held(_)));
    }

    #[test]
    fn skew_beyond_the_tolerance_fails() {
        let skewed = observed(vec![signed_event([-600, -599, -597])], SenderEnd::External);
        let SenderFinding::Broken { evidence, .. } = skew(&skewed) else { panic!("must fail") };
        assert!(evidence[0].starts_with("3 of 3 signed times"), "{evidence:?}");
        assert!(evidence[1].contains("600s behind"), "{evidence:?}");
        let unsigned = observed(vec![event(1, Instant::now(), vec![spec(0.0, answer(200))])], SenderEnd::External);
        assert!(matches!(skew(&unsigned), SenderFinding::Skipped(_)));
    }
}
