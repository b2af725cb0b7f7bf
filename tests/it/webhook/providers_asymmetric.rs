//! The providers that sign with a key pair (Discord's Ed25519, SendGrid's ECDSA P-256), through the
//! real binary: `webhook sign` takes the sender's private key and `webhook verify` the public key
//! as the provider shows it, each judged against the provider's own SDK (discord-interactions
//! `verify_key` and PyNaCl, sendgrid `EventWebhook`; tests/differential/providers.py); the wrong
//! half of a pair is a usage error that says which half is needed, and never shows the key.
use std::collections::BTreeMap;

use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use idem::testing::crypto::{GeneratedPair, KeyAlgorithm, generate_pair};
use serde_json::json;

use crate::support::listen_process::Binary;
use crate::support::provider_sdks::Sdks;
use crate::support::run::Run;

const NOW: i64 = 1_700_000_000;
/// What trips signers and verifiers that re-encode the body: unicode, escapes, a trailing newline.
const DISCORD_BODY: &str = "{\"type\":1,\"data\":{\"name\":\"caf\u{e9} \u{1f4a5}\",\"q\":\"a\\\\b\"}}\n";
const SENDGRID_BODY: &str =
    "[{\"email\":\"\u{e9}l\u{e8}ve@example.com\",\"event\":\"delivered\",\"sg_event_id\":\"x+y/z=\"}]\r\n";

/// `webhook sign` of `body` at `timestamp` with `secret` (through a file, as a PEM would be
/// given): the headers it writes, by lower-case name.
fn sign(scheme: &str, secret: &str, body: &str, timestamp: i64) -> BTreeMap<String, String> {
    let dir = tempfile::tempdir().unwrap();
    let key = dir.path().join("private-key");
    std::fs::write(&key, secret).unwrap();
    let document = Run::webhook(["sign", "--scheme", scheme, "-d", body, "--timestamp", &timestamp.to_string()])
        .args([std::ffi::OsStr::new("--secret-file"), key.as_os_str()])
        .format_json()
        .never_printing(secret.trim())
        .json();
    assert_eq!(document["body"], json!(body));
    document["headers"]
        .as_object()
        .unwrap()
        .iter()
        .map(|(name, value)| (name.to_ascii_lowercase(), value.as_str().unwrap().to_string()))
        .collect()
}

/// `webhook verify --scheme SCHEME --secret KEY` of `body` with `headers`, at NOW: status, stdout, stderr.
fn verify(scheme: &str, key: &str, body: &str, headers: &[(&str, &str)]) -> (i32, String, String) {
    let mut run = Run::webhook(["verify", "--scheme", scheme, "--secret", key, "-d", body, "--now", &NOW.to_string()]);
    for (name, value) in headers {
        run = run.args(["-H", &format!("{name}: {value}")]);
    }
    run.finish().parts()
}

fn b64(text: &str) -> String {
    STANDARD.encode(text.as_bytes())
}

fn discord_pair() -> GeneratedPair {
    generate_pair(KeyAlgorithm::Ed25519).unwrap()
}

#[test]
fn discord_requests_signed_by_webhook_sign_pass_discord_interactions_verify_key() {
    let mut sdks = Sdks::start();
    let pair = discord_pair();
    let headers = sign("discord", &pair.secret, DISCORD_BODY, NOW);
    assert_eq!(headers["x-signature-timestamp"], NOW.to_string());
    let signature = &headers["x-signature-ed25519"];
    let request = json!({"public": pair.public, "timestamp": NOW.to_string(), "body_b64": b64(DISCORD_BODY), "signature": signature});
    assert!(sdks.verifies("discord", request.clone()), "verify_key refused {request}");

    // The same signature over another body, or under another application's key: refused by both.
    let tampered = DISCORD_BODY.replacen("1", "2", 1);
    let mut changed = request.clone();
    changed["body_b64"] = json!(b64(&tampered));
    assert!(!sdks.verifies("discord", changed));
    let (code, _, _) = verify(
        "discord",
        &pair.public,
        &tampered,
        &[("X-Signature-Ed25519", signature), ("X-Signature-Timestamp", &NOW.to_string())],
    );
    assert_eq!(code, 1);
    let mut other_key = request;
    other_key["public"] = json!(discord_pair().public);
    assert!(!sdks.verifies("discord", other_key));
}

#[test]
fn discord_requests_signed_with_pynacl_pass_webhook_verify_with_the_public_key_and_tampered_ones_fail() {
    let mut sdks = Sdks::start();
    let pair = discord_pair();
    let timestamp = NOW.to_string();
    let signature =
        sdks.signs("discord", json!({"seed": pair.secret, "timestamp": timestamp, "body_b64": b64(DISCORD_BODY)}));
    let headers = [("X-Signature-Ed25519", signature.as_str()), ("X-Signature-Timestamp", timestamp.as_str())];
    let (code, out, err) = verify("discord", &pair.public, DISCORD_BODY, &headers);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("discord signature is valid"), "{out}");

    // Another timestamp than the one signed, a body without its newline: exit 1, a verdict.
    let later = (NOW + 1).to_string();
    let restamped = [("X-Signature-Ed25519", signature.as_str()), ("X-Signature-Timestamp", later.as_str())];
    let (code, out, _) = verify("discord", &pair.public, DISCORD_BODY, &restamped);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("does not match"), "{out}");
    assert_eq!(verify("discord", &pair.public, DISCORD_BODY.trim_end(), &headers).0, 1);
    // Ours is PyNaCl's: Ed25519 is deterministic, so `webhook sign` writes the very same signature.
    assert_eq!(sign("discord", &pair.secret, DISCORD_BODY, NOW)["x-signature-ed25519"], signature);
}

#[test]
fn sendgrid_events_signed_by_webhook_sign_pass_the_event_webhook_sdk_and_webhook_verify() {
    let mut sdks = Sdks::start();
    let pair = generate_pair(KeyAlgorithm::EcdsaP256).unwrap();
    let headers = sign("sendgrid", &pair.secret, SENDGRID_BODY, NOW);
    let signature = &headers["x-twilio-email-event-webhook-signature"];
    assert_eq!(headers["x-twilio-email-event-webhook-timestamp"], NOW.to_string());
    let request = json!({"public": pair.public, "timestamp": NOW.to_string(), "body_b64": b64(SENDGRID_BODY), "signature": signature});
    assert!(sdks.verifies("sendgrid", request.clone()), "EventWebhook refused {request}");
    let timestamp = NOW.to_string();
    let wire = [
        ("X-Twilio-Email-Event-Webhook-Signature", signature.as_str()),
        ("X-Twilio-Email-Event-Webhook-Timestamp", timestamp.as_str()),
    ];
    let (code, out, err) = verify("sendgrid", &pair.public, SENDGRID_BODY, &wire);
    assert_eq!(code, 0, "{out}{err}");

    // Another timestamp, another body, another key: the SDK and `webhook verify` both refuse.
    let mut restamped = request.clone();
    restamped["timestamp"] = json!((NOW + 1).to_string());
    assert!(!sdks.verifies("sendgrid", restamped));
    let mut changed = request.clone();
    changed["body_b64"] = json!(b64(SENDGRID_BODY.trim_end()));
    assert!(!sdks.verifies("sendgrid", changed));
    assert_eq!(verify("sendgrid", &pair.public, SENDGRID_BODY.trim_end(), &wire).0, 1);
    let other = generate_pair(KeyAlgorithm::EcdsaP256).unwrap();
    let mut other_key = request;
    other_key["public"] = json!(other.public);
    assert!(!sdks.verifies("sendgrid", other_key));
    assert_eq!(verify("sendgrid", &other.public, SENDGRID_BODY, &wire).0, 1);
}

#[test]
fn the_wrong_half_of_a_pair_is_a_usage_error_that_names_the_half_needed_and_never_shows_the_key() {
    let sendgrid = generate_pair(KeyAlgorithm::EcdsaP256).unwrap();
    let headers =
        [("X-Twilio-Email-Event-Webhook-Signature", "MEUCIQ=="), ("X-Twilio-Email-Event-Webhook-Timestamp", "1")];
    let mut run = Run::webhook(["verify", "--scheme", "sendgrid", "--secret", &sendgrid.secret, "-d", "[]"]);
    for (name, value) in headers {
        run = run.args(["-H", &format!("{name}: {value}")]);
    }
    let (code, _, err) = run.never_printing(&sendgrid.secret).finish().parts();
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("verifies with the PUBLIC key") && err.contains("this is a private key"), "{err}");

    let (code, _, err) = Run::webhook(["sign", "--scheme", "sendgrid", "--secret", &sendgrid.public, "-d", "[]"])
        .never_printing(&sendgrid.public)
        .finish()
        .parts();
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("signs with the sender's PRIVATE key") && err.contains("this is the public key"), "{err}");

    // Discord's seed+public form (128 hex digits) can only be a private key.
    let discord = discord_pair();
    let private = format!("{}{}", discord.secret, discord.public);
    let (code, _, err) = Run::webhook(["verify", "--scheme", "discord", "--secret", &private, "-d", "{}"])
        .args(["-H", "X-Signature-Ed25519: 00", "-H", "X-Signature-Timestamp: 1"])
        .never_printing(&discord.secret)
        .finish()
        .parts();
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("verifies with the PUBLIC key"), "{err}");
    // A key in no form the scheme reads says which form it wants, without echoing it.
    let (code, _, err) = Run::webhook(["sign", "--scheme", "discord", "--secret", "not-a-key-at-all", "-d", "{}"])
        .never_printing("not-a-key-at-all")
        .finish()
        .parts();
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("Ed25519 private key"), "{err}");
}

/// `webhook secret --scheme SCHEME --format json`: the pair's {secret, public}.
fn new_pair(scheme: &str) -> (String, String) {
    let document = Run::webhook(["secret", "--scheme", scheme]).format_json().json();
    (document["secret"].as_str().unwrap().to_string(), document["public"].as_str().unwrap().to_string())
}

#[test]
fn webhook_secret_makes_a_pair_whose_secret_signs_what_the_provider_sdk_verifies_with_its_public_key() {
    let mut sdks = Sdks::start();
    let (secret, public) = new_pair("discord");
    assert!(secret.len() == 64 && public.len() == 64 && secret != public, "{secret} {public}");
    let signature = sign("discord", &secret, DISCORD_BODY, NOW)["x-signature-ed25519"].clone();
    let request =
        json!({"public": public, "timestamp": NOW.to_string(), "body_b64": b64(DISCORD_BODY), "signature": signature});
    assert!(sdks.verifies("discord", request));

    let (secret, public) = new_pair("sendgrid");
    assert!(secret.starts_with("-----BEGIN PRIVATE KEY-----"), "a PEM, as sign reads it");
    let signature = sign("sendgrid", &secret, SENDGRID_BODY, NOW)["x-twilio-email-event-webhook-signature"].clone();
    let request =
        json!({"public": public, "timestamp": NOW.to_string(), "body_b64": b64(SENDGRID_BODY), "signature": signature});
    assert!(sdks.verifies("sendgrid", request));
    // Two runs make two pairs.
    assert_ne!(new_pair("sendgrid").1, public);
}

#[test]
fn webhook_secret_labels_each_half_of_a_pair_with_who_takes_it() {
    let (code, out, err) = Run::webhook(["secret", "--scheme", "sendgrid"]).finish().parts();
    assert_eq!(code, 0, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert!(lines[0].starts_with("secret (the sender's private key"), "{out}");
    assert_eq!(lines[1], "-----BEGIN PRIVATE KEY-----", "{out}");
    let public_label = lines.iter().position(|line| line.starts_with("public (the receiver's public key")).unwrap();
    assert_eq!(lines[public_label - 1], "-----END PRIVATE KEY-----", "{out}");
    assert_eq!(lines.len(), public_label + 2, "{out}");
    assert!(lines[public_label + 1].starts_with("MFkw"), "base64 DER SPKI, as the dashboard shows it: {out}");
    // --asymmetric is what these schemes are already.
    assert_eq!(Run::webhook(["secret", "--scheme", "discord", "--asymmetric"]).finish().parts().0, 0);
}

/// `webhook send` of a delivery to `url`, signed with `secret`: the exit status and stderr.
fn send(url: &str, scheme: &str, secret: &str, body: &str) -> (i32, String) {
    let (code, out, err) =
        Run::webhook(["send", url, "--scheme", scheme, "--secret", secret, "-d", body, "--max-attempts", "1"])
            .never_printing(secret)
            .finish()
            .parts();
    (code, format!("{out}{err}"))
}

#[test]
fn webhook_listen_verifies_with_the_public_key_what_webhook_send_signs_with_the_private_key() {
    for (scheme, algorithm, body) in
        [("discord", KeyAlgorithm::Ed25519, DISCORD_BODY), ("sendgrid", KeyAlgorithm::EcdsaP256, SENDGRID_BODY)]
    {
        let pair = generate_pair(algorithm).unwrap();
        let listener = Binary::start_with_secret(&pair.public, &["--scheme", scheme]);
        let url = format!("{}/hook", listener.url);
        let (code, output) = send(&url, scheme, &pair.secret, body);
        assert_eq!(code, 0, "{scheme}: {output}");
        // Another sender's key: the listener refuses it, and `send` reports the refusal.
        let (code, output) = send(&url, scheme, &generate_pair(algorithm).unwrap().secret, body);
        assert_eq!(code, 1, "{scheme}: {output}");
        let (_, lines, _) = listener.interrupt();
        let log = lines.join("\n");
        assert!(!log.contains(&pair.secret) && !log.contains(pair.secret.trim()), "{log}");
    }
}

#[test]
fn webhook_listen_refuses_to_start_with_a_private_key_and_says_to_give_the_public_key() {
    let pair = generate_pair(KeyAlgorithm::EcdsaP256).unwrap();
    let (code, _, err) =
        Run::webhook(["listen", "--addr", "127.0.0.1:0", "--scheme", "sendgrid", "--secret", &pair.secret])
            .never_printing(&pair.secret)
            .finish()
            .parts();
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("verifies with the PUBLIC key"), "{err}");
}

#[test]
fn webhook_check_signs_with_the_private_key_and_a_listener_keyed_with_the_public_key_passes_the_suite() {
    for (scheme, algorithm) in [("discord", KeyAlgorithm::Ed25519), ("sendgrid", KeyAlgorithm::EcdsaP256)] {
        let pair = generate_pair(algorithm).unwrap();
        let listener = Binary::start_with_secret(&pair.public, &["--scheme", scheme]);
        let dir = tempfile::tempdir().unwrap();
        let key = dir.path().join("private-key");
        std::fs::write(&key, &pair.secret).unwrap();
        let url = format!("{}/hook", listener.url);
        let (code, report) = Run::webhook(["check", &url, "--scheme", scheme])
            .args([std::ffi::OsStr::new("--secret-file"), key.as_os_str()])
            .format_json()
            .never_printing(pair.secret.trim())
            .code_and_json();
        let outcomes = crate::support::suite_outcomes(&report);
        assert_eq!(code, 0, "{scheme}: {outcomes:?}");
        // The forgeries are signed with another private key, and the truncated signature found in
        // Discord's 128 hex digits and SendGrid's base64 DER.
        for id in ["bad-signature-rejected", "tampered-body-rejected", "truncated-signature-rejected"] {
            assert_eq!(outcomes.get(id).map(String::as_str), Some("pass"), "{scheme} {id}: {outcomes:?}");
        }
        listener.interrupt();
    }
}

#[test]
fn an_asymmetric_standard_pair_is_printed_with_each_half_labelled() {
    let (code, stdout, _) = Run::webhook(["secret", "--scheme", "standard", "--asymmetric"]).finish().parts();
    assert_eq!(code, 0);
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 4, "{stdout}");
    assert!(lines[0].starts_with("secret (the sender's private key") && lines[1].starts_with("whsk_"), "{stdout}");
    assert!(lines[2].starts_with("public (the receiver's public key") && lines[3].starts_with("whpk_"), "{stdout}");
}
