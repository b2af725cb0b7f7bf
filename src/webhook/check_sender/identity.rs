//! What makes a delivery trustworthy and de-duplicable: a valid signature, one event id per event,
//! the same body on every attempt.
use super::probe::{SenderFinding, SenderObservation, bounded};
use crate::output::terminal_safe;

pub(super) fn signed(observed: &SenderObservation) -> SenderFinding {
    let mut bad = Vec::new();
    let mut schemes: Vec<String> = Vec::new();
    let mut total = 0;
    for (event, attempt) in observed.attempts() {
        total += 1;
        if let Some(kind) = attempt.arrival.signature.scheme
            && !schemes.contains(&kind.to_string())
        {
            schemes.push(kind.to_string());
        }
        if !attempt.arrival.signature.matched {
            let problem = attempt.arrival.signature.problem.as_deref().unwrap_or("no valid signature");
            bad.push(format!("{} attempt {}: {}", event.name(), attempt.number, terminal_safe(problem)));
        }
    }
    if total == 0 {
        return SenderFinding::Skipped("no attempt arrived".to_string());
    }
    if bad.is_empty() {
        let schemes = if schemes.is_empty() { String::new() } else { format!(" ({})", schemes.join(", ")) };
        return SenderFinding::Held(vec![format!("all {total} attempts carried a valid signature{schemes}")]);
    }
    let finding = format!("{} of {total} attempts carried no valid signature", bad.len());
    let mut evidence = vec![finding.clone()];
    evidence.extend(bad);
    SenderFinding::broken(finding, bounded(evidence))
}

pub(super) fn event_id_stable(observed: &SenderObservation) -> SenderFinding {
    if observed.events.is_empty() {
        return SenderFinding::Skipped("no attempt arrived".to_string());
    }
    let mut bad = Vec::new();
    let mut good = Vec::new();
    for event in &observed.events {
        let ids = event.ids();
        let without = event.attempts.iter().filter(|attempt| attempt.arrival.id.is_none()).count();
        let shown: Vec<String> = ids.iter().map(|id| terminal_safe(id).into_owned()).collect();
        if ids.len() > 1 {
            bad.push(format!(
                "event {}: the same body arrived under {} ids: {}",
                event.number,
                ids.len(),
                shown.join(", ")
            ));
        } else if ids.is_empty() {
            bad.push(format!(
                "event {}: no attempt carried an event id (no id header for the scheme, no top-level `id` in the body)",
                event.number
            ));
        } else if without > 0 {
            bad.push(format!("{}: {without} of {} attempts carried no event id", event.name(), event.attempts.len()));
        } else {
            good.push(format!("{}: {} attempt(s) under one id", event.name(), event.attempts.len()));
        }
    }
    if bad.is_empty() {
        return SenderFinding::Held(bounded(good));
    }
    let finding = format!("{} of {} events were not under one event id: {}", bad.len(), observed.events.len(), bad[0]);
    SenderFinding::broken(finding, bounded(bad))
}

pub(super) fn body_stable(observed: &SenderObservation) -> SenderFinding {
    let mut bad = Vec::new();
    let mut retries = 0;
    for event in &observed.events {
        let Some(first) = event.attempts.first() else { continue };
        for attempt in &event.attempts[1..] {
            retries += 1;
            let (one, other) = (&first.arrival.body, &attempt.arrival.body);
            if one != other {
                let from = one.iter().zip(other.iter()).position(|(a, b)| a != b).unwrap_or(one.len().min(other.len()));
                bad.push(format!(
                    "{} attempt {} differs from attempt 1 ({} vs {} bytes, from byte {from})",
                    event.name(),
                    attempt.number,
                    other.len(),
                    one.len()
                ));
            }
        }
    }
    if retries == 0 {
        return SenderFinding::Skipped("no event was sent more than once".to_string());
    }
    if bad.is_empty() {
        SenderFinding::Held(vec![format!("all {retries} retries repeated their event's body byte for byte")])
    } else {
        let finding = format!("{} of {retries} retries changed their event's body: {}", bad.len(), bad[0]);
        SenderFinding::broken(finding, bounded(bad))
    }
}

#[cfg(test)]
mod tests {
    use std::time::Instant;

    use super::super::probe::fixtures::{answer, event, observed, spec};
    use super::super::probe::{SenderEnd, SenderFinding};
    use super::*;

    #[test]
    fn a_new_id_per_attempt_is_named_with_every_id() {
        let start = Instant::now();
        let mut first = spec(0.0, answer(500));
        first.id = Some("msg_a");
        let mut second = spec(1.0, answer(200));
        second.id = Some("msg_b");
        let seen = observed(vec![event(1, start, vec![first, second])], SenderEnd::External);
        let SenderFinding::Broken { evidence, .. } = event_id_stable(&seen) else { panic!("must fail") };
        assert_eq!(evidence, ["event 1: the same body arrived under 2 ids: msg_a, msg_b"]);
        assert!(matches!(body_stable(&seen), SenderFinding::Held(_)));
    }

    #[test]
    fn a_changed_body_is_located() {
        let start = Instant::now();
        let mut second = spec(1.0, answer(200));
        second.body = "{\"id\":\"evt_1\",\"attempt\":2}";
        let seen = observed(vec![event(1, start, vec![spec(0.0, answer(500)), second])], SenderEnd::External);
        let SenderFinding::Broken { evidence, .. } = body_stable(&seen) else { panic!("must fail") };
        assert_eq!(evidence, ["event 1 (evt_1) attempt 2 differs from attempt 1 (26 vs 14 bytes, from byte 13)"]);
        assert!(matches!(event_id_stable(&seen), SenderFinding::Held(_)));
    }

    #[test]
    fn events_without_any_id_fail() {
        let mut only = spec(0.0, answer(200));
        only.id = None;
        let seen = observed(vec![event(1, Instant::now(), vec![only])], SenderEnd::External);
        assert!(matches!(event_id_stable(&seen), SenderFinding::Broken { .. }));
        assert!(matches!(body_stable(&seen), SenderFinding::Skipped(_)));
    }
}
