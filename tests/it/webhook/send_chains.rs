//! `webhook send --event stripe:checkout.session.completed --chain`: the events around one payment,
//! in the order Stripe creates them, each parsed by the official stripe SDK's `construct_event`
//! in a receiver built on it, their ids linked as Stripe links them.
use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};

use serde_json::Value;

use crate::support::KillOnDrop;
use crate::support::apps::app_path;
use crate::support::reference_libraries::references;
use crate::support::run::Run;

const SECRET: &str = "whsec_chains_test_secret";

/// Sends the chain of `spec` to a receiver on the stripe SDK; what the SDK parsed, event by event.
fn chain_parsed_by_stripe(spec: &str, extra: &[&str]) -> (Value, Vec<Value>) {
    let installed = references();
    let mut child = KillOnDrop::new(
        Command::new(installed.python())
            .arg(app_path("stripe_sdk_receiver.py"))
            .env("WEBHOOK_SECRET", SECRET)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .spawn()
            .unwrap(),
    );
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let port: u16 = lines.next().unwrap().unwrap().trim().parse().unwrap();
    let url = format!("http://127.0.0.1:{port}/stripe");
    let (code, report) =
        Run::webhook(["send", &url, "--event", spec, "--chain", "--secret", SECRET, "--format", "json"])
            .args(extra)
            .code_and_json();
    assert_eq!(code, 0, "{report:#}");
    let count = report["chain"].as_array().unwrap().len();
    let parsed: Vec<Value> =
        (0..count).map(|_| serde_json::from_str(&lines.next().unwrap().unwrap()).unwrap()).collect();
    for event in &parsed {
        assert_eq!(event["error"], Value::Null, "construct_event refused one: {event}");
    }
    (report, parsed)
}

#[test]
fn a_checkout_chain_arrives_in_stripes_order_with_its_ids_linked() {
    let (report, parsed) = chain_parsed_by_stripe("stripe:checkout.session.completed", &[]);
    let types: Vec<&str> = parsed.iter().map(|event| event["type"].as_str().unwrap()).collect();
    assert_eq!(
        types,
        ["payment_intent.created", "payment_intent.succeeded", "charge.succeeded", "checkout.session.completed"]
    );
    assert_eq!(report["chain"], serde_json::json!(types));
    assert_eq!(report["event_type"], "checkout.session.completed", "the report names the event asked for");
    let (created, succeeded, charge, session) = (&parsed[0], &parsed[1], &parsed[2], &parsed[3]);
    let intent = created["object_id"].as_str().unwrap();
    assert!(intent.starts_with("pi_"));
    assert_eq!(succeeded["object_id"], intent, "one PaymentIntent");
    assert_eq!(charge["payment_intent"], intent, "the charge's payment_intent is the intent");
    assert_eq!(session["payment_intent"], intent, "the session's payment_intent is the intent");
    assert_eq!(succeeded["latest_charge"], charge["object_id"], "the intent's latest_charge is the charge");
    assert_eq!(created["latest_charge"], Value::Null, "a new intent has no charge yet");
    assert_eq!(
        parsed.iter().map(|event| event["sdk_class"].as_str().unwrap()).collect::<Vec<_>>(),
        ["PaymentIntent", "PaymentIntent", "Charge", "Session"]
    );
    let customers: Vec<&Value> = parsed.iter().map(|event| &event["customer"]).collect();
    assert!(customers.iter().all(|customer| *customer == customers[0]), "one customer: {customers:?}");
    let times: Vec<i64> = parsed.iter().map(|event| event["created"].as_i64().unwrap()).collect();
    assert!(times.windows(2).all(|pair| pair[0] < pair[1]), "created increases: {times:?}");
    let mut ids: Vec<&str> = parsed.iter().map(|event| event["id"].as_str().unwrap()).collect();
    assert!(ids.iter().all(|id| id.starts_with("evt_")));
    ids.sort_unstable();
    ids.dedup();
    assert_eq!(ids.len(), 4, "an event id each");
}

#[test]
fn a_payment_intent_chain_applies_set_to_every_event() {
    let (_, parsed) = chain_parsed_by_stripe("stripe:payment_intent.succeeded", &["--set", "data.object.amount=4200"]);
    let types: Vec<&str> = parsed.iter().map(|event| event["type"].as_str().unwrap()).collect();
    assert_eq!(types, ["payment_intent.created", "payment_intent.succeeded", "charge.succeeded"]);
    assert!(parsed.iter().all(|event| event["amount"] == 4200), "{parsed:?}");
    assert_eq!(parsed[2]["payment_intent"], parsed[1]["object_id"]);
}

#[test]
fn chain_refuses_an_event_without_one() {
    let (code, _, stderr) =
        Run::webhook(["send", "http://127.0.0.1:9/", "--event", "stripe:invoice.paid", "--chain", "--secret", SECRET])
            .finish()
            .parts();
    assert_eq!(code, 2);
    assert!(stderr.contains("has no chain") && stderr.contains("stripe:checkout.session.completed"), "{stderr}");
}
