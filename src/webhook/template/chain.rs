//! `webhook send --event stripe:checkout.session.completed --chain`: the events Stripe sends around
//! one payment, in the order Stripe creates them, with their ids linked as Stripe links them (the
//! session's `payment_intent` is the intent's `id` is the charge's `payment_intent`; the intent's
//! `latest_charge` is the charge's `id`; one customer), `created` increasing by a second per event
//! and each event its own `evt_` id. Stripe does not promise to deliver events in that order
//! ("Stripe doesn't guarantee the delivery of events in the order that they're generated",
//! https://docs.stripe.com/webhooks#event-ordering): the chain is the order they are generated in,
//! which a receiver must cope with arriving otherwise.
use serde_json::Value;

use super::{Override, ProviderEvent, provider_event};
use crate::ids::fresh_id;

/// The chains, by the event asked for: the events of one card payment, as they are generated
/// (Stripe's "Payment status updates" and "Fulfill orders" pages:
/// https://docs.stripe.com/payments/payment-intents/verifying-status,
/// https://docs.stripe.com/checkout/fulfillment).
const CHAINS: [(&str, &[&str]); 2] = [
    (
        "stripe:checkout.session.completed",
        &["payment_intent.created", "payment_intent.succeeded", "charge.succeeded", "checkout.session.completed"],
    ),
    ("stripe:payment_intent.succeeded", &["payment_intent.created", "payment_intent.succeeded", "charge.succeeded"]),
];

/// The events of the chain `spec` starts, in order, created at `now`, `now + 1`, ...; `overrides`
/// (`--set`/`--unset`) apply to every one of them, after the links.
pub(crate) fn chain(spec: &str, now: i64, overrides: &[Override]) -> anyhow::Result<Vec<ProviderEvent>> {
    let Some((_, events)) = CHAINS.iter().find(|(start, _)| start.eq_ignore_ascii_case(spec)) else {
        anyhow::bail!(
            "--chain follows {}; `{}` has no chain",
            CHAINS.iter().map(|(start, _)| *start).collect::<Vec<_>>().join(" and "),
            crate::output::terminal_safe(spec)
        );
    };
    let intent = fresh_id("pi_");
    let charge = fresh_id("ch_");
    let session = fresh_id("cs_test_");
    let customer = fresh_id("cus_");
    let set = |path: &str, value: &str| Override::Set { path: path.to_string(), value: Value::from(value) };
    events
        .iter()
        .zip(0..)
        .map(|(event, offset)| {
            let mut links = vec![set("data.object.customer", &customer)];
            match event.split('.').next() {
                Some("payment_intent") => {
                    links.push(set("data.object.id", &intent));
                    // One intent: created once, whatever event shows it.
                    links.push(Override::Set { path: "data.object.created".into(), value: Value::from(now) });
                    if *event != "payment_intent.created" {
                        links.push(set("data.object.latest_charge", &charge));
                    }
                }
                Some("charge") => {
                    links.push(set("data.object.id", &charge));
                    links.push(set("data.object.payment_intent", &intent));
                }
                _ => {
                    links.push(set("data.object.id", &session));
                    links.push(set("data.object.payment_intent", &intent));
                }
            }
            links.extend(overrides.iter().cloned());
            provider_event(&format!("stripe:{event}"), None, now + offset, &links)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn body(event: &ProviderEvent) -> Value {
        serde_json::from_slice(&event.body).unwrap()
    }

    #[test]
    fn a_checkout_chain_links_its_ids_in_the_order_stripe_generates_them() {
        let events = chain("stripe:checkout.session.completed", 1_700_000_000, &[]).unwrap();
        let types: Vec<&str> = events.iter().map(|event| event.event_type.as_str()).collect();
        assert_eq!(
            types,
            ["payment_intent.created", "payment_intent.succeeded", "charge.succeeded", "checkout.session.completed"]
        );
        let bodies: Vec<Value> = events.iter().map(body).collect();
        let intent = &bodies[0]["data"]["object"]["id"];
        assert!(intent.as_str().unwrap().starts_with("pi_"));
        assert_eq!(&bodies[1]["data"]["object"]["id"], intent);
        assert_eq!(&bodies[2]["data"]["object"]["payment_intent"], intent);
        assert_eq!(&bodies[3]["data"]["object"]["payment_intent"], intent);
        assert_eq!(bodies[1]["data"]["object"]["latest_charge"], bodies[2]["data"]["object"]["id"]);
        let created: Vec<i64> = bodies.iter().map(|body| body["created"].as_i64().unwrap()).collect();
        assert_eq!(created, [1_700_000_000, 1_700_000_001, 1_700_000_002, 1_700_000_003]);
        let mut ids: Vec<&str> = events.iter().map(|event| event.event_id.as_str()).collect();
        ids.sort_unstable();
        ids.dedup();
        assert_eq!(ids.len(), 4);
        assert!(chain("stripe:invoice.paid", 1, &[]).unwrap_err().to_string().contains("has no chain"));
    }
}
