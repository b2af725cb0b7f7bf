//! `--event PROVIDER:TYPE` for the providers beyond Stripe, GitHub, Shopify and Slack: each
//! template is sent to a receiver that keeps the request, and judged by the provider's own SDK
//! where one is pinned (paddle-python-sdk and squareup parse the event with their models and
//! verify it; hubspot-api-client and discord-interactions verify it), else by `webhook verify`
//! with the provider's scheme.
use std::sync::{Arc, Mutex};

use base64::Engine;
use serde_json::{Value, json};

use crate::support::provider_sdks::Sdks;
use crate::support::run::Run;
use crate::support::{CustomServer, Reply};

const SECRET: &str = "provider_templates_test_secret";

/// What the receiver got.
struct Received {
    url: String,
    headers: http::HeaderMap,
    body: bytes::Bytes,
    report: Value,
}

fn header(received: &Received, name: &str) -> String {
    received.headers.get(name).unwrap_or_else(|| panic!("no {name}")).to_str().unwrap().to_string()
}

/// `webhook send URL --event SPEC --secret SECRET` to a receiver answering 200; the one request.
fn send(spec: &str, secret: &str) -> Received {
    let seen: Arc<Mutex<Vec<(http::HeaderMap, bytes::Bytes)>>> = Arc::default();
    let log = Arc::clone(&seen);
    let server = CustomServer::start(move |request| {
        log.lock().unwrap().push((request.headers, request.body));
        Reply::json(200, "{}")
    });
    let url = server.url("/hooks/in");
    let (code, report) =
        Run::webhook(["send", &url, "--event", spec, "--secret", secret, "--format", "json"]).code_and_json();
    assert_eq!(code, 0, "{spec}: {report:#}");
    let (headers, body) = seen.lock().unwrap().pop().unwrap_or_else(|| panic!("{spec}: nothing arrived"));
    Received { url, headers, body, report }
}

fn b64(bytes: &[u8]) -> String {
    base64::engine::general_purpose::STANDARD.encode(bytes)
}

/// `webhook verify --scheme SCHEME` of what arrived, with every header it carried.
fn verified_by_our_scheme(scheme: &str, received: &Received) -> bool {
    let dir = tempfile::tempdir().unwrap();
    let body = dir.path().join("body");
    std::fs::write(&body, &received.body).unwrap();
    let mut args: Vec<String> = ["verify", "--scheme", scheme, "--secret", SECRET, "--url", &received.url]
        .into_iter()
        .map(String::from)
        .collect();
    args.push("-d".into());
    args.push(format!("@{}", body.display()));
    for (name, value) in &received.headers {
        if name.as_str().starts_with(|c: char| c.is_ascii_alphabetic()) && name != "host" {
            args.push("-H".into());
            args.push(format!("{name}: {}", value.to_str().unwrap()));
        }
    }
    let (code, _, _) = Run::webhook(args).finish().parts();
    code == 0
}

#[test]
fn paddle_and_square_events_are_read_by_their_sdks_models_and_signatures_verified() {
    let mut sdks = Sdks::start();

    let paddle = send("paddle:customer.created", SECRET);
    let parsed = sdks.ask("paddle", "parse", json!({"body_b64": b64(&paddle.body)}));
    assert_eq!(parsed["entity"], "Customer", "the SDK read the data as a Customer: {parsed}");
    assert_eq!(parsed["event_type"], "customer.created", "{parsed}");
    assert!(parsed["id"].as_str().unwrap().starts_with("ctm_01"), "{parsed}");
    let verify =
        json!({"secret": SECRET, "header": header(&paddle, "paddle-signature"), "body_b64": b64(&paddle.body)});
    assert!(sdks.verifies("paddle", verify), "paddle-python-sdk's Verifier accepts the delivery");

    let square = send("square:payment.created", SECRET);
    let parsed = sdks.ask("square", "parse", json!({"body_b64": b64(&square.body)}));
    assert_eq!(parsed["type"], "payment.created", "{parsed}");
    assert_eq!((parsed["amount"].as_i64(), parsed["currency"].as_str()), (Some(1000), Some("USD")), "{parsed}");
    assert_eq!(parsed["status"], "APPROVED", "{parsed}");
    assert_eq!(parsed["event_id"], square.report["event_id"], "{parsed}");
    let verify = json!({
        "key": SECRET,
        "url": square.url,
        "body_b64": b64(&square.body),
        "signature": header(&square, "x-square-hmacsha256-signature"),
    });
    assert!(sdks.verifies("square", verify), "squareup's verify_signature accepts the delivery");
}

#[test]
fn hubspot_and_discord_templates_are_verified_by_their_sdks() {
    let mut sdks = Sdks::start();
    let hubspot = send("hubspot:contact.creation", SECRET);
    let events: Value = serde_json::from_slice(&hubspot.body).unwrap();
    assert_eq!(events[0]["subscriptionType"], "contact.creation", "HubSpot sends an array of events");
    assert!(events[0]["occurredAt"].as_i64().unwrap() > 1_000_000_000_000, "milliseconds");
    let verify = json!({
        "secret": SECRET,
        "body_b64": b64(&hubspot.body),
        "uri": hubspot.url,
        "method": "POST",
        "version": "v3",
        "timestamp": header(&hubspot, "x-hubspot-request-timestamp"),
        "signature": header(&hubspot, "x-hubspot-signature-v3"),
    });
    assert!(sdks.verifies("hubspot", verify), "hubspot-api-client's v3 signature matches");

    let pair = Run::webhook(["secret", "--scheme", "discord", "--format", "json"]).json();
    let discord = send("discord:APPLICATION_AUTHORIZED", pair["secret"].as_str().unwrap());
    let event: Value = serde_json::from_slice(&discord.body).unwrap();
    assert_eq!((event["type"].as_i64(), event["event"]["type"].as_str()), (Some(1), Some("APPLICATION_AUTHORIZED")));
    let verify = json!({
        "public": pair["public"],
        "timestamp": header(&discord, "x-signature-timestamp"),
        "body_b64": b64(&discord.body),
        "signature": header(&discord, "x-signature-ed25519"),
    });
    assert!(sdks.verifies("discord", verify), "discord-interactions' verify_key accepts the delivery");
}

#[test]
fn the_other_new_providers_templates_carry_their_headers_and_verify_with_their_schemes() {
    // (spec, scheme, a header the provider sends, what it holds)
    let cases = [
        ("gitlab:push", "gitlab", "x-gitlab-event", "Push Hook"),
        ("linear:Issue", "linear", "linear-event", "Issue"),
        ("zoom:meeting.started", "zoom", "x-zm-signature", "v0="),
        ("twitch:channel.follow", "twitch", "twitch-eventsub-subscription-type", "channel.follow"),
        ("meta:whatsapp.messages", "meta", "x-hub-signature-256", "sha256="),
        ("sentry:issue", "sentry", "sentry-hook-resource", "issue"),
        ("calendly:invitee.created", "calendly", "calendly-webhook-signature", "t="),
        ("mux:video.asset.ready", "mux", "mux-signature", "t="),
        ("woocommerce:order.created", "woocommerce", "x-wc-webhook-topic", "order.created"),
    ];
    for (spec, scheme, name, value) in cases {
        let received = send(spec, SECRET);
        assert_eq!(received.report["scheme"], scheme, "{spec}: the template's provider signs");
        assert!(header(&received, name).starts_with(value), "{spec}: {name}: {}", header(&received, name));
        assert!(verified_by_our_scheme(scheme, &received), "{spec} verifies with --scheme {scheme}");
        let body: Value = serde_json::from_slice(&received.body).unwrap();
        let text = body.to_string();
        assert!(!text.contains("{{"), "{spec}: a placeholder left: {text}");
    }
    let twitch = send("twitch:channel.follow", SECRET);
    assert_eq!(header(&twitch, "twitch-eventsub-message-type"), "notification");
    assert_eq!(header(&twitch, "twitch-eventsub-message-id").len(), 36, "a UUID message id");
}

#[test]
fn list_events_names_the_new_providers() {
    let listed = Run::webhook(["send", "--list-events", "--format", "json"]).json();
    let providers: Vec<&str> =
        listed["templates"].as_array().unwrap().iter().map(|t| t["provider"].as_str().unwrap()).collect();
    for provider in [
        "gitlab",
        "linear",
        "paddle",
        "square",
        "zoom",
        "twitch",
        "meta",
        "hubspot",
        "sentry",
        "calendly",
        "mux",
        "discord",
        "woocommerce",
    ] {
        assert!(providers.contains(&provider), "{provider} in {providers:?}");
    }
}
