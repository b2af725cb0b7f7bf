//! Whether and when the sender tries again: after a 5xx, after getting no answer, with waits that
//! grow, and no sooner than a Retry-After asks.
use std::time::Duration;

use super::probe::{Attempt, Ending, Event, IMMEDIATE, SenderFinding, SenderObservation, Step, bounded};
use crate::units::format_duration;

/// Full jitter draws each wait at random below a growing cap, so one wait may come out shorter
/// than the last; only a wait under half the previous one counts as shrinking.
const JITTER_TOLERANCE: f64 = 0.5;

/// A sender measures Retry-After from when it read the answer, a little after the receiver sent it;
/// this much early still counts as honouring it.
const RETRY_AFTER_SLACK: Duration = Duration::from_millis(50);

/// The providers' range for how long a sender waits for an answer.
pub(super) const SENDER_TIMEOUT_RANGE: (Duration, Duration) = (Duration::from_secs(5), Duration::from_secs(30));

/// The attempt after `attempt` in its event, and how long after `attempt` ended it arrived.
fn follow_up<'e>(event: &'e Event, attempt: &Attempt) -> Option<(&'e Attempt, Option<Duration>)> {
    let next = event.attempts.get(usize::try_from(attempt.number).ok()?)?;
    let gap = attempt.ended_at().map(|ended| next.arrival.at.saturating_duration_since(ended));
    Some((next, gap))
}

fn after(gap: Option<Duration>) -> String {
    gap.map_or_else(String::new, |gap| format!(" {} later", format_duration(gap)))
}

pub(super) fn after_5xx(observed: &SenderObservation) -> SenderFinding {
    let mut retried = Vec::new();
    let mut missing = Vec::new();
    for event in &observed.events {
        for attempt in &event.attempts {
            let Some(status) = attempt.step.status().filter(|status| status.is_server_error()) else { continue };
            match follow_up(event, attempt) {
                Some((next, gap)) => retried.push(format!(
                    "{}: {} on attempt {}, attempt {} came{}",
                    event.name(),
                    status.as_u16(),
                    attempt.number,
                    next.number,
                    after(gap)
                )),
                None => missing.push(format!(
                    "{} was answered {} on attempt {} and never sent again",
                    event.name(),
                    status.as_u16(),
                    attempt.number
                )),
            }
        }
    }
    judge_follow_ups(
        observed,
        retried,
        missing,
        "answered 5xx",
        "no attempt was answered 5xx (does the script have a 500?)",
    )
}

/// Held when every situation was followed by a retry; broken when one was not and the sender has
/// exited; skipped when nothing could be seen yet.
fn judge_follow_ups(
    observed: &SenderObservation,
    retried: Vec<String>,
    missing: Vec<String>,
    situation: &str,
    no_situation: &str,
) -> SenderFinding {
    if retried.is_empty() && missing.is_empty() {
        return SenderFinding::Skipped(no_situation.to_string());
    }
    let Some(first_missing) = missing.first() else {
        return SenderFinding::Held(bounded(retried));
    };
    match observed.missing(first_missing) {
        Ok(_) => {
            let finding = format!(
                "{} of {} attempts {situation} were never sent again: {first_missing}",
                missing.len(),
                missing.len() + retried.len()
            );
            let evidence = missing.iter().filter_map(|line| observed.missing(line).ok()).collect();
            SenderFinding::broken(finding, bounded(evidence))
        }
        // Not seen yet: what was retried still holds; with nothing retried there is no verdict.
        Err(reason) if retried.is_empty() => SenderFinding::Skipped(reason),
        Err(reason) => {
            let mut evidence = retried;
            evidence.push(reason);
            SenderFinding::Held(bounded(evidence))
        }
    }
}

/// The held attempts, each with its event.
fn held(observed: &SenderObservation) -> impl Iterator<Item = (&Event, &Attempt)> {
    observed.attempts().filter(|(_, attempt)| attempt.step == Step::Hold)
}

fn no_hold(observed: &SenderObservation) -> String {
    let reached = observed.events.iter().map(|event| event.attempts.len()).max().unwrap_or(0);
    format!(
        "no attempt was held: the script has no hold, or the sender never reached it (at most {reached} attempt(s) of an \
         event arrived)"
    )
}

pub(super) fn after_timeout(observed: &SenderObservation) -> SenderFinding {
    let mut retried = Vec::new();
    let mut missing = Vec::new();
    let mut outlasted = Vec::new();
    for (event, attempt) in held(observed) {
        let Ending::GaveUp(gave_up) = attempt.ending else {
            outlasted.push(format!(
                "{} attempt {} got no answer and the sender was still waiting for one after {}",
                event.name(),
                attempt.number,
                format_duration(observed.waited)
            ));
            continue;
        };
        let waited = gave_up.saturating_duration_since(attempt.arrival.at);
        match follow_up(event, attempt) {
            Some((next, gap)) => retried.push(format!(
                "{} attempt {} got no answer; the sender gave up after {} and sent attempt {}{}",
                event.name(),
                attempt.number,
                format_duration(waited),
                next.number,
                after(gap)
            )),
            None => missing.push(format!(
                "{} attempt {} got no answer; the sender gave up after {} and never sent it again",
                event.name(),
                attempt.number,
                format_duration(waited)
            )),
        }
    }
    if retried.is_empty() && missing.is_empty() {
        return match outlasted.first() {
            Some(line) => SenderFinding::Skipped(format!("{line}: it never timed out, so it never had to retry")),
            None => SenderFinding::Skipped(no_hold(observed)),
        };
    }
    judge_follow_ups(observed, retried, missing, "left without an answer", "")
}

pub(super) fn sender_timeout(observed: &SenderObservation) -> SenderFinding {
    let (shortest, longest) = SENDER_TIMEOUT_RANGE;
    let mut good = Vec::new();
    let mut bad = Vec::new();
    for (event, attempt) in held(observed) {
        match attempt.ending {
            Ending::GaveUp(at) => {
                let waited = at.saturating_duration_since(attempt.arrival.at);
                let line = format!(
                    "{} attempt {}: the sender gave up after {}",
                    event.name(),
                    attempt.number,
                    format_duration(waited)
                );
                if waited < shortest {
                    bad.push(format!("{line}, sooner than the {} providers allow", format_duration(shortest)));
                } else if waited > longest {
                    bad.push(format!("{line}, longer than the {} providers allow", format_duration(longest)));
                } else {
                    good.push(line);
                }
            }
            _ => bad.push(format!(
                "{} attempt {}: the sender was still waiting after {} (no timeout, or one longer than {})",
                event.name(),
                attempt.number,
                format_duration(observed.waited),
                format_duration(longest)
            )),
        }
    }
    if good.is_empty() && bad.is_empty() {
        return SenderFinding::Skipped(no_hold(observed));
    }
    if bad.is_empty() {
        return SenderFinding::Held(bounded(good));
    }
    let finding = format!(
        "{} of {} held attempts ended outside the {}–{} providers wait: {}",
        bad.len(),
        bad.len() + good.len(),
        format_duration(shortest),
        format_duration(longest),
        bad[0]
    );
    SenderFinding::broken(finding, bounded(bad))
}

/// The sender's own waits in one event: the gap before each retry that followed a failure the
/// sender chose the wait for (not a Retry-After, which the receiver chose).
fn backoff_gaps(event: &Event) -> Vec<(u32, Duration)> {
    event
        .attempts
        .iter()
        .filter(|attempt| match attempt.step {
            Step::Hold => true,
            Step::Answer { status, retry_after } => {
                retry_after.is_none() && !status.is_success() && status != http::StatusCode::GONE
            }
        })
        .filter_map(|attempt| match follow_up(event, attempt)? {
            (next, Some(gap)) => Some((next.number, gap)),
            (_, None) => None,
        })
        .collect()
}

pub(super) fn backoff_grows(observed: &SenderObservation) -> SenderFinding {
    let mut good = Vec::new();
    let mut bad = Vec::new();
    for event in &observed.events {
        let gaps = backoff_gaps(event);
        if gaps.is_empty() {
            continue;
        }
        let shown: Vec<String> =
            gaps.iter().map(|(number, gap)| format!("{} before attempt {number}", format_duration(*gap))).collect();
        let mut problems = Vec::new();
        if let Some((2, first)) = gaps.first()
            && *first < IMMEDIATE
        {
            problems.push(format!("the first retry came {} after the failure (immediate)", format_duration(*first)));
        }
        for pair in gaps.windows(2) {
            let ((_, before), (number, now)) = (pair[0], pair[1]);
            if now.as_secs_f64() < before.as_secs_f64() * JITTER_TOLERANCE {
                problems.push(format!(
                    "the wait before attempt {number} ({}) is under half the one before it ({})",
                    format_duration(now),
                    format_duration(before)
                ));
            }
        }
        let line = format!("{}: {}", event.name(), shown.join(", "));
        if problems.is_empty() {
            good.push(line);
        } else {
            bad.push(format!("{line}: {}", problems.join("; ")));
        }
    }
    if good.is_empty() && bad.is_empty() {
        return SenderFinding::Skipped(
            "no event was retried after a failure, so there is no backoff to see".to_string(),
        );
    }
    if bad.is_empty() {
        return SenderFinding::Held(bounded(good));
    }
    let finding = format!("{} of {} retried events did not back off: {}", bad.len(), bad.len() + good.len(), bad[0]);
    SenderFinding::broken(finding, bounded(bad))
}

pub(super) fn honours_retry_after(observed: &SenderObservation) -> SenderFinding {
    let mut good = Vec::new();
    let mut bad = Vec::new();
    let mut unanswered = Vec::new();
    for event in &observed.events {
        for attempt in &event.attempts {
            let Step::Answer { status, retry_after: Some(asked) } = attempt.step else { continue };
            let said = format!("{} with Retry-After: {}", status.as_u16(), asked.as_secs());
            match follow_up(event, attempt) {
                Some((next, Some(gap))) => {
                    let line = format!(
                        "{}: {said} on attempt {}, attempt {} came {} later",
                        event.name(),
                        attempt.number,
                        next.number,
                        format_duration(gap)
                    );
                    if gap + RETRY_AFTER_SLACK >= asked { good.push(line) } else { bad.push(line) }
                }
                _ => unanswered.push(format!("{}: no attempt followed the {said}", event.name())),
            }
        }
    }
    if good.is_empty() && bad.is_empty() {
        return SenderFinding::Skipped(unanswered.into_iter().next().unwrap_or_else(|| {
            "no attempt was answered with a Retry-After: the script has no step like 429:3, or the sender never \
                     reached it"
                .to_string()
        }));
    }
    if bad.is_empty() {
        return SenderFinding::Held(bounded(good));
    }
    let finding =
        format!("{} of {} retries came sooner than Retry-After asked: {}", bad.len(), bad.len() + good.len(), bad[0]);
    SenderFinding::broken(finding, bounded(bad))
}

#[cfg(test)]
mod tests {
    use std::time::Instant;

    use super::super::probe::Ending;
    use super::super::probe::fixtures::{answer, event, observed, spec};
    use super::super::probe::{SenderEnd, SenderFinding};
    use super::*;

    fn retry_after(status: u16, seconds: u64) -> Step {
        Step::Answer {
            status: http::StatusCode::from_u16(status).unwrap(),
            retry_after: Some(Duration::from_secs(seconds)),
        }
    }

    /// The default script's first event, played by a sender that waits `gaps` after each failure
    /// and gives up on the hold after `timeout` seconds.
    fn played(gaps: [f64; 3], timeout: f64) -> super::super::probe::Event {
        let second = gaps[0];
        let third = second + timeout + gaps[1];
        let fourth = third + gaps[2];
        let mut hold = spec(second, Step::Hold);
        hold.took = timeout;
        event(
            1,
            Instant::now(),
            vec![spec(0.0, answer(500)), hold, spec(third, retry_after(429, 3)), spec(fourth, answer(200))],
        )
    }

    #[test]
    fn a_sender_with_growing_backoff_passes_every_retry_check() {
        let seen = observed(vec![played([0.5, 1.0, 3.2], 10.0)], SenderEnd::Exited("exit status 0".into()));
        for finding in [
            after_5xx(&seen),
            after_timeout(&seen),
            sender_timeout(&seen),
            backoff_grows(&seen),
            honours_retry_after(&seen),
        ] {
            assert!(matches!(finding, SenderFinding::Held(_)));
        }
    }

    #[test]
    fn immediate_retries_and_an_ignored_retry_after_are_flagged() {
        let seen = observed(vec![played([0.001, 0.001, 0.001], 1.0)], SenderEnd::Exited("exit status 0".into()));
        let SenderFinding::Broken { evidence: backoff, .. } = backoff_grows(&seen) else { panic!("backoff must warn") };
        assert!(backoff[0].contains("immediate"), "{backoff:?}");
        let SenderFinding::Broken { evidence: retry, .. } = honours_retry_after(&seen) else {
            panic!("Retry-After must warn")
        };
        assert!(retry[0].contains("429 with Retry-After: 3"), "{retry:?}");
        let SenderFinding::Broken { evidence: timeout, .. } = sender_timeout(&seen) else { panic!("1s is too short") };
        assert!(timeout[0].contains("gave up after 1.00s, sooner than the 5.00s"), "{timeout:?}");
        assert!(matches!(after_5xx(&seen), SenderFinding::Held(_)));
    }

    #[test]
    fn shrinking_waits_are_flagged_beyond_the_jitter_tolerance() {
        let seen = observed(vec![played([2.0, 0.5, 3.2], 10.0)], SenderEnd::External);
        let SenderFinding::Broken { evidence, .. } = backoff_grows(&seen) else { panic!("must warn") };
        assert!(evidence[0].contains("under half the one before it"), "{evidence:?}");
        assert!(matches!(
            backoff_grows(&observed(vec![played([2.0, 1.5, 3.2], 10.0)], SenderEnd::External)),
            SenderFinding::Held(_)
        ));
    }

    #[test]
    fn a_missing_retry_fails_only_once_the_sender_has_exited() {
        let lone = || event(1, Instant::now(), vec![spec(0.0, answer(500))]);
        let exited = observed(vec![lone()], SenderEnd::Exited("exit status 0".into()));
        let SenderFinding::Broken { evidence, .. } = after_5xx(&exited) else { panic!("must fail") };
        assert!(evidence[0].contains("never sent again, and the sender exited (exit status 0)"), "{evidence:?}");
        let SenderFinding::Skipped(reason) = after_5xx(&observed(vec![lone()], SenderEnd::External)) else {
            panic!("must skip")
        };
        assert!(reason.contains("pass --timeout"), "{reason}");
    }

    #[test]
    fn a_sender_that_never_gives_up_is_named() {
        let mut hold = event(1, Instant::now(), vec![spec(0.0, answer(500)), spec(0.5, Step::Hold)]);
        hold.attempts[1].ending = Ending::Outlasted;
        let seen = observed(vec![hold], SenderEnd::StillRunning);
        assert!(matches!(after_timeout(&seen), SenderFinding::Skipped(reason) if reason.contains("never timed out")));
        assert!(matches!(sender_timeout(&seen), SenderFinding::Broken { .. }));
    }
}
