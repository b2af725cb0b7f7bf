//! Whether the sender stops when told to: after a 2xx (delivered) and after 410 (gone).
use http::StatusCode;

use super::probe::{SenderFinding, SenderObservation, bounded};
use crate::units::format_duration;

/// `stops-after-2xx`: nothing after the answer that delivered the event.
pub(super) fn after_2xx(observed: &SenderObservation) -> SenderFinding {
    after_status(observed, |status| status.is_success(), "a 2xx")
}

/// `stops-after-410`: nothing after the answer that said the endpoint is gone.
pub(super) fn after_410(observed: &SenderObservation) -> SenderFinding {
    after_status(observed, |status| status == StatusCode::GONE, "410")
}

/// Judges that no attempt of an event followed the first answer `matches` accepts (`what` names it
/// in the evidence).
fn after_status(observed: &SenderObservation, matches: impl Fn(StatusCode) -> bool, what: &str) -> SenderFinding {
    let mut good = Vec::new();
    let mut bad = Vec::new();
    for event in &observed.events {
        let told = event.attempts.iter().position(|attempt| attempt.step.status().is_some_and(&matches));
        let Some(index) = told else { continue };
        let attempt = &event.attempts[index];
        let status = attempt.step.status().map_or(0, |status| status.as_u16());
        let more = event.attempts.len() - index - 1;
        if more == 0 {
            good.push(format!("{}: {status} on attempt {}, nothing after it", event.name(), attempt.number));
        } else {
            bad.push(format!(
                "{}: {status} on attempt {}, and it was sent {more} more time(s)",
                event.name(),
                attempt.number
            ));
        }
    }
    if good.is_empty() && bad.is_empty() {
        return SenderFinding::Skipped(format!(
            "no attempt was answered {what} within {}",
            format_duration(observed.waited)
        ));
    }
    if bad.is_empty() {
        return SenderFinding::Held(bounded(good));
    }
    let finding =
        format!("{} of {} events answered {what} were sent again: {}", bad.len(), bad.len() + good.len(), bad[0]);
    SenderFinding::broken(finding, bounded(bad))
}

#[cfg(test)]
mod tests {
    use std::time::Instant;

    use super::super::probe::SenderEnd;
    use super::super::probe::fixtures::{answer, event, observed, spec};
    use super::*;

    #[test]
    fn attempts_after_a_410_are_counted() {
        let gone =
            event(2, Instant::now(), vec![spec(0.0, answer(410)), spec(0.2, answer(410)), spec(0.4, answer(410))]);
        let seen = observed(vec![gone], SenderEnd::Exited("exit status 1".into()));
        let SenderFinding::Broken { evidence, .. } = after_status(&seen, |s| s == StatusCode::GONE, "410") else {
            panic!()
        };
        assert_eq!(evidence, ["event 2 (evt_1): 410 on attempt 1, and it was sent 2 more time(s)"]);
        assert!(matches!(after_status(&seen, |s| s.is_success(), "a 2xx"), SenderFinding::Skipped(_)));
    }
}
