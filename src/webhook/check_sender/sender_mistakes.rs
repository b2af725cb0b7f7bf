//! What senders get wrong in following Standard Webhooks' status-code etiquette and its secret
//! rules: a 3xx is a failure, not a redirect to follow; 429, 502 and 504 ask the sender to slow
//! down; a symmetric secret is 24 to 64 bytes.
use std::time::Duration;

use http::StatusCode;

use super::probe::{Attempt, Event, IMMEDIATE, SecretForm, SenderFinding, SenderObservation, Step, bounded};
use crate::units::format_duration;
use crate::webhook::scheme::SchemeKind;

/// The spec's bounds on a symmetric secret, in bytes.
const SECRET_BYTES: (usize, usize) = (24, 64);

/// The attempt after `attempt` in its event.
fn next<'e>(event: &'e Event, attempt: &Attempt) -> Option<&'e Attempt> {
    event.attempts.get(usize::try_from(attempt.number).ok()?)
}

pub(super) fn redirect_not_followed(observed: &SenderObservation) -> SenderFinding {
    let mut good = Vec::new();
    let mut bad = Vec::new();
    let mut pending = Vec::new();
    for event in &observed.events {
        for attempt in &event.attempts {
            let Some(status) = attempt.step.status().filter(StatusCode::is_redirection) else { continue };
            let ids = event.ids();
            let followed = observed.redirected.iter().any(|redirected| {
                redirected.at >= attempt.arrival.at && redirected.id.as_deref().is_none_or(|id| ids.contains(&id))
            });
            let said = format!("{}: {} on attempt {}", event.name(), status.as_u16(), attempt.number);
            match (followed, next(event, attempt)) {
                (true, _) => bad.push(format!("{said}: the sender followed it to the Location it named")),
                (false, Some(retry)) => {
                    good.push(format!("{said}: not followed; attempt {} came to the original URL", retry.number));
                }
                (false, None) => match observed.missing(&format!("{said}: not followed, but never tried again")) {
                    Ok(line) => bad.push(line),
                    Err(reason) => pending.push(reason),
                },
            }
        }
    }
    if good.is_empty() && bad.is_empty() {
        return SenderFinding::Skipped(pending.into_iter().next().unwrap_or_else(|| {
            "no attempt was answered 3xx: give the script a step like 307 (e.g. --script '307,200')".to_string()
        }));
    }
    if bad.is_empty() {
        return SenderFinding::Held(bounded(good));
    }
    let finding =
        format!("{} of {} redirects were followed or never retried: {}", bad.len(), bad.len() + good.len(), bad[0]);
    SenderFinding::broken(finding, bounded(bad))
}

/// Whether a status asks the sender to slow down.
fn throttling(status: StatusCode) -> bool {
    matches!(status.as_u16(), 429 | 502 | 504)
}

/// The gap between an attempt's end and the next attempt's arrival.
fn gap(attempt: &Attempt, next: &Attempt) -> Option<Duration> {
    attempt.ended_at().map(|ended| next.arrival.at.saturating_duration_since(ended))
}

pub(super) fn throttles_after_429(observed: &SenderObservation) -> SenderFinding {
    let mut good = Vec::new();
    let mut bad = Vec::new();
    for event in &observed.events {
        for (index, attempt) in event.attempts.iter().enumerate() {
            let Step::Answer { status, retry_after } = attempt.step else { continue };
            if !throttling(status) {
                continue;
            }
            let Some(waited) = next(event, attempt).and_then(|retry| gap(attempt, retry)) else { continue };
            // The sender's own wait before the throttled attempt, if it was itself a retry.
            let before = index.checked_sub(1).and_then(|previous| gap(&event.attempts[previous], attempt));
            let (enough, wanted) = match (retry_after, before) {
                (Some(asked), _) => {
                    (waited + Duration::from_millis(50) >= asked, format!("Retry-After {}", asked.as_secs()))
                }
                (None, Some(before)) => (
                    waited >= IMMEDIATE && waited >= before.mul_f64(0.5),
                    format!("about the {} before", format_duration(before)),
                ),
                (None, None) => (waited >= IMMEDIATE, "a backoff, not an immediate retry".to_string()),
            };
            let line = format!(
                "{}: {} on attempt {}, attempt {} came {} later (wanted {wanted})",
                event.name(),
                status.as_u16(),
                attempt.number,
                attempt.number + 1,
                format_duration(waited)
            );
            if enough { good.push(line) } else { bad.push(line) }
        }
    }
    if good.is_empty() && bad.is_empty() {
        return SenderFinding::Skipped(
            "no retry followed a 429, 502 or 504: give the script such a step (e.g. --script '502,429:2,200')"
                .to_string(),
        );
    }
    if bad.is_empty() {
        return SenderFinding::Held(bounded(good));
    }
    let finding =
        format!("{} of {} retries after 429, 502 or 504 came too soon: {}", bad.len(), bad.len() + good.len(), bad[0]);
    SenderFinding::broken(finding, bounded(bad))
}

pub(super) fn secret_length(observed: &SenderObservation) -> SenderFinding {
    let standard = match observed.scheme {
        Some(SchemeKind::Standard) => true,
        Some(other) => {
            return SenderFinding::Skipped(format!("a Standard Webhooks rule; --scheme {other} sets no length"));
        }
        None => observed.attempts().any(|(_, attempt)| attempt.arrival.signature.scheme == Some(SchemeKind::Standard)),
    };
    if !standard {
        return SenderFinding::Skipped("a Standard Webhooks rule, and no attempt was signed that way".to_string());
    }
    let (shortest, longest) = SECRET_BYTES;
    match observed.secret {
        SecretForm::Asymmetric => SenderFinding::Skipped(
            "an Ed25519 key pair (whsk_/whpk_) has its fixed size; the rule is for whsec_ secrets".into(),
        ),
        SecretForm::NotBase64 => SenderFinding::broken(
            "the secret is not whsec_ and base64",
            vec!["the secret is not whsec_ followed by base64, so it is no Standard Webhooks secret".to_string()],
        ),
        SecretForm::Decoded(bytes) if (shortest..=longest).contains(&bytes) => {
            SenderFinding::Held(vec![format!("the secret decodes to {bytes} bytes ({shortest} to {longest} allowed)")])
        }
        SecretForm::Decoded(bytes) => SenderFinding::broken(
            format!("the secret decodes to {bytes} bytes, outside {shortest} to {longest}"),
            vec![format!("the secret decodes to {bytes} bytes; the spec wants {shortest} to {longest}")],
        ),
    }
}

#[cfg(test)]
mod tests {
    use std::time::Instant;

    use super::super::probe::Redirected;
    use super::super::probe::SenderEnd;
    use super::super::probe::fixtures::{answer, event, observed, spec};
    use super::*;

    fn exited() -> SenderEnd {
        SenderEnd::Exited("exit status 0".into())
    }

    #[test]
    fn a_followed_redirect_or_a_missing_retry_fails_and_a_retry_passes() {
        let start = Instant::now();
        let retried = observed(vec![event(1, start, vec![spec(0.0, answer(307)), spec(1.0, answer(200))])], exited());
        assert!(matches!(redirect_not_followed(&retried), SenderFinding::Held(_)));
        let mut followed = retried.clone();
        followed.redirected.push(Redirected { id: Some("evt_1".into()), at: start + Duration::from_millis(10) });
        let SenderFinding::Broken { evidence, .. } = redirect_not_followed(&followed) else { panic!("must fail") };
        assert!(evidence[0].contains("followed it"), "{evidence:?}");
        let lone = observed(vec![event(1, start, vec![spec(0.0, answer(307))])], exited());
        assert!(matches!(redirect_not_followed(&lone), SenderFinding::Broken { .. }));
        let running = observed(vec![event(1, start, vec![spec(0.0, answer(307))])], SenderEnd::External);
        assert!(matches!(redirect_not_followed(&running), SenderFinding::Skipped(_)));
        let none = observed(vec![event(1, start, vec![spec(0.0, answer(200))])], exited());
        assert!(matches!(redirect_not_followed(&none), SenderFinding::Skipped(reason) if reason.contains("307")));
    }

    #[test]
    fn throttling_needs_a_wait_after_429_502_and_504() {
        let start = Instant::now();
        let patient = observed(
            vec![event(1, start, vec![spec(0.0, answer(502)), spec(1.0, answer(504)), spec(3.0, answer(200))])],
            exited(),
        );
        assert!(matches!(throttles_after_429(&patient), SenderFinding::Held(_)));
        let hasty = observed(
            vec![event(1, start, vec![spec(0.0, answer(502)), spec(2.0, answer(429)), spec(2.01, answer(200))])],
            exited(),
        );
        let SenderFinding::Broken { evidence, .. } = throttles_after_429(&hasty) else { panic!("must warn") };
        assert!(evidence[0].contains("429 on attempt 2"), "{evidence:?}");
    }

    #[test]
    fn secret_lengths_follow_the_spec() {
        use base64::Engine;
        let encoded = |bytes: usize| format!("whsec_{}", crate::webhook::scheme::BASE64.encode(vec![1u8; bytes]));
        assert_eq!(SecretForm::of(encoded(24).as_bytes()), SecretForm::Decoded(24));
        assert_eq!(SecretForm::of(b"whsk_abc"), SecretForm::Asymmetric);
        assert_eq!(SecretForm::of(b"not base64!"), SecretForm::NotBase64);
        let mut seen = observed(vec![], exited());
        seen.scheme = Some(SchemeKind::Standard);
        for (bytes, held) in [(23, false), (24, true), (64, true), (65, false)] {
            seen.secret = SecretForm::of(encoded(bytes).as_bytes());
            assert_eq!(matches!(secret_length(&seen), SenderFinding::Held(_)), held, "{bytes}");
        }
        seen.scheme = Some(SchemeKind::Github);
        assert!(matches!(secret_length(&seen), SenderFinding::Skipped(_)));
    }
}
