//! `handshake-answered` and `forged-handshake-refused`: a provider that validates an endpoint
//! before it sends events (Slack's `url_verification`, Zoom's `endpoint.url_validation`, re-sent
//! every 72 hours, Twitch's `webhook_callback_verification`) registers only a receiver that answers
//! its handshake as documented, and a receiver that echoes any challenge confirms an endpoint for
//! whoever asks. The handshake is signed like a delivery; the forged one with another secret.

use http::{HeaderName, HeaderValue};
use serde_json::{Value, json};

use super::catalogue::{FORGED_HANDSHAKE_REFUSED, HANDSHAKE_ANSWERED};
use super::probe::{Answer, Probe, describe, refusal, said, timed_send};
use crate::conformance::CheckResult;
use crate::webhook::deliver::engine::Message;
use crate::webhook::delivery::{fresh_id, unix_now};
use crate::webhook::handshake_answer::{Expected, judge};
use crate::webhook::scheme::mac::MacAlgorithm;

/// A provider's handshake: what is sent and what a receiver must answer.
struct Handshake {
    provider: &'static str,
    body: Value,
    headers: Vec<(HeaderName, HeaderValue)>,
    expected: Expected,
}

/// The handshake of the scheme's provider, if it has one this suite knows.
fn handshake_for(probe: &Probe) -> Option<Handshake> {
    let challenge = fresh_id("chl_");
    match probe.scheme.kind().name() {
        "slack" => Some(Handshake {
            provider: "Slack url_verification",
            body: json!({ "token": "Jhj5dZrVaK7ZwHHjRyZWjbDl", "challenge": challenge, "type": "url_verification" }),
            headers: Vec::new(),
            expected: Expected::Challenge(challenge),
        }),
        "twitch" => Some(Handshake {
            provider: "Twitch webhook_callback_verification",
            body: json!({
                "challenge": challenge,
                "subscription": { "id": fresh_id("sub_"), "status": "webhook_callback_verification_pending", "type": "channel.follow", "version": "2" },
            }),
            headers: vec![(
                HeaderName::from_static("twitch-eventsub-message-type"),
                HeaderValue::from_static("webhook_callback_verification"),
            )],
            expected: Expected::RawChallenge(challenge),
        }),
        "zoom" => {
            let encrypted = hex::encode(probe.key().digest(MacAlgorithm::HmacSha256, &[challenge.as_bytes()]));
            Some(Handshake {
                provider: "Zoom endpoint.url_validation",
                body: json!({ "payload": { "plainToken": challenge }, "event_ts": unix_now() * 1000, "event": "endpoint.url_validation" }),
                headers: Vec::new(),
                expected: Expected::ZoomToken { plain: challenge, encrypted },
            })
        }
        "discord" => Some(Handshake {
            provider: "Discord PING",
            body: json!({ "type": 1, "id": fresh_id(""), "application_id": "11235813" }),
            headers: Vec::new(),
            expected: Expected::Pong,
        }),
        _ => None,
    }
}

fn message(probe: &Probe, handshake: &Handshake, forged: bool) -> Message {
    // The provider's delivery id form and User-Agent, as its other probes carry them.
    let message = probe.other_delivery(handshake.body.to_string().into_bytes(), "handshake", handshake.headers.clone());
    if forged { probe.forged(&message) } else { message }
}

/// Both checks, or both skipped for a scheme whose provider has no handshake.
pub(super) async fn handshakes(probe: &Probe) -> anyhow::Result<Vec<CheckResult>> {
    let Some(handshake) = handshake_for(probe) else {
        let reason = format!(
            "--scheme {} has no endpoint handshake this suite sends (Slack, Discord, Twitch and Zoom have one)",
            probe.scheme.kind()
        );
        return Ok(vec![HANDSHAKE_ANSWERED.skipped(reason.clone()), FORGED_HANDSHAKE_REFUSED.skipped(reason)]);
    };
    let request = probe.request(&message(probe, &handshake, false), unix_now())?;
    let sent = timed_send(probe, request).await;
    let mut evidence = vec![format!("{} → {}", handshake.provider, describe(&sent.answer))];
    let mut finding = format!("answered the {} with {}", handshake.provider, said(&sent.answer));
    let held = match &sent.answer {
        Answer::Status(exchange) if exchange.status.is_success() => {
            let (held, why) = judge(&handshake.expected, exchange);
            finding = format!("{finding}: {why}");
            evidence.push(why);
            held
        }
        _ => {
            evidence.push("the provider needs a 2xx with the answer, or it does not register the endpoint".to_string());
            false
        }
    };
    let answered = HANDSHAKE_ANSWERED.judged(held, finding, evidence, sent.took);
    if !held {
        let reason = "the genuine handshake was not answered, so a refusal of a forged one shows nothing";
        return Ok(vec![answered, FORGED_HANDSHAKE_REFUSED.skipped(reason)]);
    }

    let forged = probe.request(&message(probe, &handshake, true), unix_now())?;
    let what = format!("{} signed with another secret", handshake.provider);
    let mut refused = refusal(FORGED_HANDSHAKE_REFUSED, probe, what, forged).await;
    if matches!(handshake.expected, Expected::Pong) {
        discord_wants_401(&mut refused);
    }
    Ok(vec![answered, refused])
}

/// Discord sends PINGs with invalid signatures on purpose, when the endpoint is saved and from
/// time to time after, and requires exactly 401: another refusal fails its endpoint check too.
fn discord_wants_401(refused: &mut CheckResult) {
    let other_refusal = refused.outcome == crate::conformance::CheckOutcome::Pass
        && !refused.evidence.iter().any(|line| line.contains("401"));
    if other_refusal {
        refused.outcome = crate::conformance::CheckOutcome::Fail;
        refused.fix = Some(FORGED_HANDSHAKE_REFUSED.fix);
        // The evidence's first line ends "→ 403 Forbidden in 1.2ms": the status, without the time.
        let answered = refused
            .evidence
            .first()
            .and_then(|line| line.rsplit_once(" → "))
            .map(|(_, said)| said.rsplit_once(" in ").map_or(said, |(status, _)| status));
        refused.finding =
            Some(format!("refused a forged Discord PING with {}, not 401", answered.unwrap_or("another 4xx")));
        refused.evidence.push("Discord requires 401 for an invalid signature, not another 4xx".to_string());
    }
    if refused.outcome != crate::conformance::CheckOutcome::Pass {
        refused.evidence.push(
            "Discord probes with invalid signatures and removes an interactions endpoint that accepts them".to_string(),
        );
    }
}
