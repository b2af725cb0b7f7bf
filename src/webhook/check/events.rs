//! `unknown-event-acknowledged` and `out-of-order-accepted`: what receivers get wrong about which
//! events arrive and when. Standard Webhooks says to acknowledge what you ignore: a receiver that
//! answers an unknown type with an error is retried, then disabled, by its provider (reported in
//! several projects). Providers do not promise order; an `updated` may arrive before its `created`.
use std::time::Instant;

use super::catalogue::{OUT_OF_ORDER_ACCEPTED, UNKNOWN_EVENT_ACKNOWLEDGED};
use super::payload::unknown_type;
use super::probe::{Answer, Probe, said};
use crate::conformance::CheckResult;
use crate::webhook::delivery::{fresh_id, unix_now};

fn succeeded(answer: &Answer) -> bool {
    matches!(answer, Answer::Status(exchange) if exchange.status.is_success())
}

/// One correctly signed delivery of a type made up for this run.
pub(crate) async fn unknown_event(probe: &Probe) -> anyhow::Result<CheckResult> {
    let event_type = unknown_type();
    let message = probe.typed_event(&event_type, &fresh_id("obj_"));
    let started = Instant::now();
    let answer = probe.send(probe.request(&message, unix_now())?).await;
    let acknowledged = succeeded(&answer);
    let mut evidence = vec![format!("event {} of type {event_type} → {}", message.event_id, said(&answer))];
    if !acknowledged {
        evidence
            .push("the provider retries a refused event and, after enough failures, disables the endpoint".to_string());
    }
    let finding = format!("refused an event of unknown type {event_type}: {}", said(&answer));
    Ok(UNKNOWN_EVENT_ACKNOWLEDGED.judged(acknowledged, finding, evidence, started.elapsed()))
}

/// The object of the related pair: the chosen event type's first part (`invoice` of
/// `invoice.paid`), else `customer`.
fn object_name(probe: &Probe) -> String {
    probe
        .payload
        .event_type()
        .and_then(|event_type| event_type.rsplit_once('.').map(|(object, _)| object.to_string()))
        .filter(|object| !object.is_empty() && *object != "webhook")
        .unwrap_or_else(|| "customer".to_string())
}

/// The update, then the creation, of one object. When the payload is a provider template with a
/// pair in the templates' data (`template::pairs`), they are that provider's own events (GitHub's
/// `issues` edited, then opened; Shopify's `orders/updated`, then `orders/create`), carried as it
/// carries them; otherwise `<object>.updated`, then `<object>.created`, in the chosen payload's
/// shape. When the `created` is refused too, the refusals are not about order (a `created` is
/// never early): the receiver does not handle these events, so ordering could not be judged and
/// the check is skipped with the fix.
pub(crate) async fn out_of_order(probe: &Probe) -> anyhow::Result<CheckResult> {
    let started = Instant::now();
    let mut evidence = Vec::new();
    let mut accepted = Vec::with_capacity(2);
    let (object, created_shown, fix) = match probe.related_pair() {
        Some(pair) => {
            let events = pair.events(unix_now())?;
            evidence.push(format!(
                "{}'s own created/updated pair for one object: {} sent before {}",
                pair.provider, pair.updated.shown, pair.created.shown
            ));
            for (shown, event) in [(pair.updated.shown, events.updated), (pair.created.shown, events.created)] {
                let message = probe.provider_message(event);
                let answer = probe.send(probe.request(&message, unix_now())?).await;
                accepted.push(succeeded(&answer));
                evidence.push(format!(
                    "{shown} of object {} (delivery {}) → {}",
                    events.object_id,
                    message.delivery_id,
                    said(&answer)
                ));
            }
            let fix = format!(
                "give --event {}:TYPE of an object the receiver handles (the pair of that type's object is sent)",
                pair.provider
            );
            (pair.object.to_string(), pair.created.shown.to_string(), fix)
        }
        None => {
            let object = object_name(probe);
            let object_id = fresh_id("obj_");
            if let Some((provider, _)) = probe.payload.provider_template() {
                evidence.push(format!(
                    "{provider}'s templates hold no created/updated pair: the generic {object}.updated and \
                     {object}.created were sent"
                ));
            }
            for suffix in ["updated", "created"] {
                let event_type = format!("{object}.{suffix}");
                let message = probe.typed_event(&event_type, &object_id);
                let answer = probe.send(probe.request(&message, unix_now())?).await;
                accepted.push(succeeded(&answer));
                evidence.push(format!("{event_type} of {object_id} (event {}) → {}", message.event_id, said(&answer)));
            }
            let fix = "give an event type the receiver handles with --event TYPE (its object's .updated and \
                       .created are sent)"
                .to_string();
            (object.clone(), format!("{object}.created"), fix)
        }
    };
    if accepted == [false, false] {
        return Ok(OUT_OF_ORDER_ACCEPTED.skipped(format!(
            "could not judge ordering: both were refused, the {created_shown} as well as the early update, so the \
             refusals are not about their order (does the receiver handle {object} events?) ({}); {fix}",
            evidence.join("; ")
        )));
    }
    // The evidence has a line per delivery, in the order sent: the refused ones are the finding.
    let refused: Vec<&str> =
        evidence.iter().zip(&accepted).filter(|(_, accepted)| !**accepted).map(|(line, _)| line.as_str()).collect();
    let finding = format!("refused out of order: {}", refused.join("; "));
    Ok(OUT_OF_ORDER_ACCEPTED.judged(accepted == [true, true], finding, evidence, started.elapsed()))
}
