//! `--event PROVIDER:TYPE`: provider-shaped events from the bundled templates, sent to receivers
//! that judge them as the provider's own code would (the official `stripe` SDK's
//! `construct_event`, GitHub's and Shopify's documented HMACs, Slack's and Standard Webhooks'
//! schemes), and `--set`/`--unset`.
use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::sync::{Arc, Mutex};

use base64::Engine;
use hmac::{Hmac, Mac};
use serde_json::Value;
use sha2::Sha256;

use crate::support::apps::app_path;
use crate::support::reference_libraries::references;
use crate::support::{CustomServer, KillOnDrop, Reply, SeenRequest, webhook};

const SECRET: &str = "whsec_templates_test_secret";
const STANDARD_SECRET: &str = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";

#[test]
fn a_stripe_template_is_parsed_by_the_official_sdk_with_its_overrides() {
    let installed = references();
    // A receiver on the official stripe SDK: it prints what `construct_event` parsed, a JSON line each.
    let script = app_path("stripe_sdk_receiver.py");
    let mut child = KillOnDrop::new(
        Command::new(installed.python())
            .arg(&script)
            .env("WEBHOOK_SECRET", SECRET)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .spawn()
            .unwrap(),
    );
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let port: u16 = lines.next().unwrap().unwrap().trim().parse().unwrap();
    let url = format!("http://127.0.0.1:{port}/stripe");

    let mut parsed = Vec::new();
    for _ in 0..2 {
        let output = webhook()
            .args(["send", &url, "--event", "stripe:payment_intent.succeeded", "--secret", SECRET])
            .args(["--set", "data.object.amount=4200", "--set", "data.object.metadata.order_id=A-17"])
            .args(["--unset", "data.object.customer", "--max-attempts", "1", "--format", "json"])
            .output()
            .unwrap();
        let event: Value = serde_json::from_str(&lines.next().unwrap().unwrap()).unwrap();
        assert_eq!(event["error"], Value::Null, "{event}");
        assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stdout));
        let report: Value = serde_json::from_slice(&output.stdout).unwrap();
        assert_eq!(report["scheme"], "stripe", "the template's provider picks the scheme");
        assert_eq!(report["event_id"], event["id"], "the report names the event the SDK parsed");
        parsed.push(event);
    }
    let event = &parsed[0];
    assert_eq!(event["type"], "payment_intent.succeeded");
    assert_eq!(event["object"], "event");
    assert_eq!(event["api_version"], "2024-06-20");
    assert_eq!(event["livemode"], false);
    assert!(event["id"].as_str().unwrap().starts_with("evt_"));
    assert!(event["object_id"].as_str().unwrap().starts_with("pi_"));
    assert!(event["request_id"].as_str().unwrap().starts_with("req_"));
    assert_eq!(event["object_object"], "payment_intent");
    assert_eq!(event["sdk_class"], "PaymentIntent", "the SDK recognises the object");
    assert_eq!(event["amount"], 4200);
    assert_eq!(event["metadata"]["order_id"], "A-17");
    assert_eq!(event["customer"], "absent");
    let now = idem::testing::delivery::unix_now();
    assert!((now - event["created"].as_i64().unwrap()).abs() < 120);
    assert_ne!(parsed[0]["id"], parsed[1]["id"], "fresh event ids per send");
    assert_ne!(parsed[0]["object_id"], parsed[1]["object_id"], "fresh object ids per send");
}

type Seen = Arc<Mutex<Vec<(http::HeaderMap, bytes::Bytes)>>>;

fn recording_receiver() -> (CustomServer, Seen) {
    let seen: Seen = Arc::default();
    let record = Arc::clone(&seen);
    let server = CustomServer::start(move |request: SeenRequest| {
        record.lock().unwrap().push((request.headers, request.body));
        Reply::json(200, "{}")
    });
    (server, seen)
}

fn send(url: &str, event: &str, extra: &[&str]) {
    let output = webhook()
        .args(["send", url, "--event", event, "--secret", SECRET, "--max-attempts", "1"])
        .args(extra)
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
}

fn header<'a>(headers: &'a http::HeaderMap, name: &str) -> &'a str {
    headers.get(name).unwrap_or_else(|| panic!("no {name} header")).to_str().unwrap()
}

fn hmac_sha256(body: &[u8]) -> Vec<u8> {
    let mut mac = Hmac::<Sha256>::new_from_slice(SECRET.as_bytes()).unwrap();
    mac.update(body);
    mac.finalize().into_bytes().to_vec()
}

#[test]
fn github_templates_verify_with_githubs_documented_scheme_and_carry_its_headers() {
    let (server, seen) = recording_receiver();
    for event in ["push", "pull_request", "issues", "release", "workflow_run", "ping"] {
        send(&server.url("/gh"), &format!("github:{event}"), &[]);
    }
    send(&server.url("/gh"), "github:issues", &["--set", "action=closed", "--set", "issue.state=closed"]);
    let seen = seen.lock().unwrap();
    assert_eq!(seen.len(), 7);
    let mut deliveries = std::collections::HashSet::new();
    for ((headers, body), event) in
        seen.iter().zip(["push", "pull_request", "issues", "release", "workflow_run", "ping", "issues"])
    {
        // GitHub's documented check: HMAC-SHA256 of the raw body with the secret, hex, after `sha256=`.
        assert_eq!(header(headers, "x-hub-signature-256"), format!("sha256={}", hex::encode(hmac_sha256(body))));
        assert_eq!(header(headers, "x-github-event"), event);
        let delivery = header(headers, "x-github-delivery");
        assert!(uuid::Uuid::parse_str(delivery).is_ok(), "{delivery}");
        assert!(deliveries.insert(delivery.to_string()), "a fresh delivery id per send");
        assert!(header(headers, "user-agent").starts_with("GitHub-Hookshot/"));
        header(headers, "x-github-hook-id");
        assert_eq!(header(headers, "x-github-hook-installation-target-type"), "repository");
        let body: Value = serde_json::from_slice(body).unwrap();
        assert_eq!(body["repository"]["full_name"], "octocat/Hello-World");
        assert!(body["sender"]["login"].is_string());
    }
    let push: Value = serde_json::from_slice(&seen[0].1).unwrap();
    assert_eq!(push["ref"], "refs/heads/main");
    assert_eq!(push["after"], push["head_commit"]["id"]);
    assert_eq!(push["after"].as_str().unwrap().len(), 40);
    let closed: Value = serde_json::from_slice(&seen[6].1).unwrap();
    assert_eq!((closed["action"].as_str(), closed["issue"]["state"].as_str()), (Some("closed"), Some("closed")));
}

#[test]
fn shopify_templates_carry_the_topic_and_shop_headers_and_the_documented_hmac() {
    let (server, seen) = recording_receiver();
    let topics = ["orders/create", "orders/paid", "refunds/create", "app/uninstalled"];
    for topic in topics {
        send(&server.url("/shopify"), &format!("shopify:{topic}"), &[]);
    }
    let seen = seen.lock().unwrap();
    for ((headers, body), topic) in seen.iter().zip(topics) {
        let expected = base64::engine::general_purpose::STANDARD.encode(hmac_sha256(body));
        assert_eq!(header(headers, "x-shopify-hmac-sha256"), expected);
        assert_eq!(header(headers, "x-shopify-topic"), topic);
        assert!(uuid::Uuid::parse_str(header(headers, "x-shopify-webhook-id")).is_ok());
        assert!(uuid::Uuid::parse_str(header(headers, "x-shopify-event-id")).is_ok());
        assert_eq!(header(headers, "x-shopify-shop-domain"), "idem-test.myshopify.com");
        assert_eq!(header(headers, "x-shopify-api-version"), "2024-07");
        chrono::DateTime::parse_from_rfc3339(header(headers, "x-shopify-triggered-at")).unwrap();
        serde_json::from_slice::<Value>(body).unwrap();
    }
    let paid: Value = serde_json::from_slice(&seen[1].1).unwrap();
    assert_eq!(paid["financial_status"], "paid");
    assert_eq!(paid["line_items"][0]["sku"], "IPOD2008PINK");
}

#[test]
fn slack_and_standard_templates_verify_with_their_schemes() {
    let listener = crate::support::Listener::with(idem::testing::scheme::SchemeKind::Slack, |config| {
        config.secret = idem::testing::scheme::Secret::new(SECRET.as_bytes().to_vec()).unwrap();
    });
    let (server, seen) = recording_receiver();
    for event in ["slack:url_verification", "slack:message"] {
        send(&listener.url("/slack"), event, &[]);
        send(&server.url("/slack"), event, &[]);
    }
    // The url_verification is a handshake: the listener answers its challenge itself and counts
    // only the message as a delivery.
    assert_eq!((listener.summary().valid, listener.summary().invalid), (1, 0));
    let seen = seen.lock().unwrap();
    let verification: Value = serde_json::from_slice(&seen[0].1).unwrap();
    assert_eq!(verification["type"], "url_verification");
    assert!(verification["challenge"].as_str().unwrap().len() >= 20);
    let message: Value = serde_json::from_slice(&seen[1].1).unwrap();
    assert_eq!(message["type"], "event_callback");
    assert_eq!(message["event"]["type"], "message");
    assert!(message["event_id"].as_str().unwrap().starts_with("Ev"));
    assert!(message["event_time"].is_i64());

    let standard = crate::support::Listener::with(idem::testing::scheme::SchemeKind::Standard, |config| {
        config.secret = idem::testing::scheme::Secret::new(b"whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw".to_vec()).unwrap();
    });
    let (server, seen) = recording_receiver();
    for target in [standard.url("/std"), server.url("/std")] {
        let output = webhook()
            .args(["send", &target, "--event", "standard:contact.created", "--secret", STANDARD_SECRET])
            .args(["--set", "data.email=ada@example.com", "--max-attempts", "1"])
            .output()
            .unwrap();
        assert!(output.status.success());
    }
    assert_eq!((standard.summary().valid, standard.summary().invalid), (1, 0));
    let seen = seen.lock().unwrap();
    let body: Value = serde_json::from_slice(&seen[0].1).unwrap();
    assert_eq!(body["type"], "contact.created");
    assert_eq!(body["data"]["email"], "ada@example.com");
    chrono::DateTime::parse_from_rfc3339(body["timestamp"].as_str().unwrap()).unwrap();
    assert!(header(&seen[0].0, "webhook-id").starts_with("msg_"));
}

#[test]
fn every_listed_template_signs_and_set_unset_change_only_what_they_name() {
    let listed = webhook().args(["send", "--list-events"]).output().unwrap();
    assert!(listed.status.success());
    let text = String::from_utf8(listed.stdout).unwrap();
    let events: Vec<&str> =
        text.lines().map(str::trim).filter(|line| line.contains(':') && !line.contains(' ')).collect();
    assert!(events.len() >= 40, "{text}");
    assert!(events.iter().filter(|event| event.starts_with("stripe:")).count() >= 20);
    for provider in ["github", "shopify", "slack", "standard"] {
        let one = webhook().args(["send", "--list-events", provider]).output().unwrap();
        let one = String::from_utf8(one.stdout).unwrap();
        assert!(
            one.lines()
                .filter(|line| line.trim().contains(':'))
                .all(|line| line.trim().starts_with(provider) || line.contains("webhook send")),
            "{one}"
        );
    }
    // Discord signs with an Ed25519 private key, not a shared secret.
    let discord_key = crate::support::run::Run::webhook(["secret", "--scheme", "discord", "--format", "json"]).json();
    for event in &events {
        let secret = match event.split(':').next() {
            Some("standard") => STANDARD_SECRET,
            Some("discord") => discord_key["secret"].as_str().unwrap(),
            _ => SECRET,
        };
        // Some schemes (Square, HubSpot) sign the URL too.
        let output = webhook()
            .args([
                "sign",
                "--event",
                event,
                "--secret",
                secret,
                "--url",
                "https://example.com/hooks",
                "--format",
                "json",
            ])
            .output()
            .unwrap();
        assert!(output.status.success(), "{event}: {}", String::from_utf8_lossy(&output.stderr));
        let signed: Value = serde_json::from_slice(&output.stdout).unwrap();
        let body: Value = serde_json::from_str(signed["body"].as_str().unwrap()).unwrap();
        assert!(body.is_object() || body.is_array(), "{event}");
        assert!(!signed["body"].as_str().unwrap().contains("{{now"), "{event}");
    }

    let sign = |extra: &[&str]| -> Value {
        let output = webhook()
            .args(["sign", "--event", "stripe:invoice.paid", "--secret", SECRET, "--format", "json"])
            .args(extra)
            .output()
            .unwrap();
        assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
        let signed: Value = serde_json::from_slice(&output.stdout).unwrap();
        serde_json::from_str(signed["body"].as_str().unwrap()).unwrap()
    };
    let plain = sign(&[]);
    let changed = sign(&[
        "--set",
        "data.object.amount_paid=999",
        "--set",
        "data.object.lines.data.0.description=Gold",
        "--unset",
        "data.object.discount",
        "--id",
        "evt_pinned",
    ]);
    assert_eq!(changed["id"], "evt_pinned");
    assert_eq!(changed["data"]["object"]["amount_paid"], 999);
    assert_eq!(changed["data"]["object"]["lines"]["data"][0]["description"], "Gold");
    assert!(changed["data"]["object"].get("discount").is_none() && plain["data"]["object"].get("discount").is_some());
    let keys = |value: &Value| value["data"]["object"].as_object().unwrap().keys().cloned().collect::<Vec<_>>();
    let mut expected = keys(&plain);
    expected.retain(|key| key != "discount");
    assert_eq!(keys(&changed), expected, "the provider's field order is kept");

    for (args, says) in [
        (vec!["--event", "stripe:invoice.paid", "--set", "data.object.amount_paid.x=1"], "is a number"),
        (vec!["--event", "stripe:invoice.paid", "--unset", "data.object.nope"], "no `data.object.nope`"),
        (vec!["--event", "stripe:invoice.paid", "--set", "novalue"], "PATH=VALUE"),
        (vec!["--event", "stripe:nope"], "payment_intent.succeeded"),
        (vec!["--event", "github:push", "-d", "{}"], "--set"),
    ] {
        let output = webhook().args(["sign", "--secret", SECRET]).args(&args).output().unwrap();
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(stderr.contains(says), "{args:?}: {stderr}");
    }
    let plain_body = webhook().args(["sign", "-d", "{}", "--set", "a=1", "--secret", SECRET]).output().unwrap();
    assert_eq!(plain_body.status.code(), Some(2));
    let _ = std::io::stdout().flush();
}

#[test]
fn the_template_list_is_json_for_scripts_and_agrees_with_the_text() {
    let json = webhook().args(["send", "--list-events", "--format", "json"]).output().unwrap();
    assert!(json.status.success(), "{}", String::from_utf8_lossy(&json.stderr));
    let list: Value = serde_json::from_slice(&json.stdout).unwrap();
    crate::support::schemas::validate(&list);
    let from_json: Vec<String> = list["templates"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| format!("{}:{}", t["provider"].as_str().unwrap(), t["event"].as_str().unwrap()))
        .collect();
    let text = webhook().args(["send", "--list-events"]).output().unwrap();
    let text = String::from_utf8(text.stdout).unwrap();
    let from_text: Vec<&str> =
        text.lines().map(str::trim).filter(|line| line.contains(':') && !line.contains(' ')).collect();
    assert_eq!(from_json, from_text);
    assert!(list["templates"].as_array().unwrap().iter().all(|t| !t["source"].as_str().unwrap().is_empty()));

    let shopify = webhook().args(["send", "--list-events", "shopify", "--format", "json"]).output().unwrap();
    let shopify: Value = serde_json::from_slice(&shopify.stdout).unwrap();
    assert!(shopify["templates"].as_array().unwrap().iter().all(|t| t["provider"] == "shopify"));
    assert_eq!(shopify["templates"].as_array().unwrap().len(), 4, "{shopify}");
}

#[test]
fn set_and_unset_paths_deeper_than_64_segments_are_refused_in_a_short_message() {
    // 60,000 segments used to overflow the stack; 10,000 printed hundreds of megabytes.
    for segments in [65, 10_000, 60_000] {
        let path = vec!["a"; segments].join(".");
        for args in [vec!["--set".to_string(), format!("{path}=1")], vec!["--unset".to_string(), path.clone()]] {
            let output = webhook().args(["sign", "--event", "x", "--secret", SECRET]).args(&args).output().unwrap();
            assert_eq!(output.status.code(), Some(2), "{segments} segments, {}", args[0]);
            let stderr = String::from_utf8_lossy(&output.stderr);
            assert!(stderr.contains("at most 64"), "{stderr}");
            assert!(stderr.len() < 2_000, "{} bytes of error for {segments} segments", stderr.len());
        }
    }
    let deepest = vec!["a"; 64].join(".");
    let output =
        webhook().args(["sign", "--event", "x", "--secret", SECRET, "--set"]).arg(format!("{deepest}=1")).output();
    assert!(output.unwrap().status.success(), "64 segments are allowed");
}

#[test]
fn an_unknown_provider_is_refused_naming_the_known_ones() {
    let output = webhook().args(["send", "http://127.0.0.1:9/", "--secret", SECRET, "--event", "bogus:x"]).output();
    let output = output.unwrap();
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("no provider `bogus`") && stderr.contains("stripe, github, shopify, slack, standard"),
        "{stderr}"
    );
    assert!(output.stdout.is_empty(), "nothing was sent: {}", String::from_utf8_lossy(&output.stdout));
    // A plain event type (no colon) still gets the generic envelope.
    let plain = webhook().args(["sign", "--secret", SECRET, "--event", "invoice.paid"]).output().unwrap();
    assert!(plain.status.success());
}

#[test]
fn control_characters_from_event_are_escaped_in_what_is_printed() {
    for args in [
        vec!["--scheme", "github", "--event", "push\u{1b}[2J"],
        vec!["--scheme", "shopify", "--event", "orders\u{7}"],
        vec!["--event", "stripe:invoice\u{1b}]0;title\u{7}"],
        vec!["--event", "bo\u{1b}gus:x"],
    ] {
        let output = webhook().args(["sign", "--secret", SECRET]).args(&args).output().unwrap();
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        let printed = [output.stdout, output.stderr].concat();
        assert!(
            !printed.iter().any(|byte| *byte == 0x1b || *byte == 0x07),
            "{args:?}: {}",
            String::from_utf8_lossy(&printed)
        );
        assert!(String::from_utf8_lossy(&printed).contains("\\u{"), "{args:?}: escaped, not dropped");
    }
}
