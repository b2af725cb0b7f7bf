//! Differential test of the asymmetric keys and string-to-sign builders against the providers' own
//! SDKs (tests/differential/providers.py, pinned in requirements.txt): twilio's `RequestValidator`,
//! sendgrid's `EventWebhook`, discord-interactions' `verify_key`. Both directions where the SDK
//! can sign: our signature → the SDK verifies; the SDK's signature → ours is the same (or our
//! verifier accepts it); a tampered delivery → both reject. The SDKs are installed by
//! tests/differential/setup.sh (the test runs it); without them the test fails saying how, never
//! skips. (squareup, paddle-python-sdk and hubspot-api-client are in the script too, for the HMAC
//! schemes of the scheme engine to be judged against.)
use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use idem::testing::canonical::{twilio_body_sha256, twilio_string_to_sign, twilio_url_variants};
use idem::testing::crypto::{
    EcdsaP256Public, EcdsaP256Signer, Ed25519Public, Ed25519Signer, KeyAlgorithm, generate_pair,
};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use serde_json::json;

use crate::support::provider_sdks::Sdks;

fn b64(bytes: &[u8]) -> String {
    STANDARD.encode(bytes)
}

fn twilio_hmac(token: &str, text: &str, sha256: bool) -> String {
    let algorithm = if sha256 { ring::hmac::HMAC_SHA256 } else { ring::hmac::HMAC_SHA1_FOR_LEGACY_USE_ONLY };
    b64(ring::hmac::sign(&ring::hmac::Key::new(algorithm, token.as_bytes()), text.as_bytes()).as_ref())
}

/// Text with what trips string builders: unicode, separators, spaces, empties.
fn awkward_text(rng: &mut StdRng) -> String {
    const PIECES: [&str; 12] = ["a", "Z", "0", " ", "+", "&", "=", "é", "日本", "💥", "-", ""];
    (0..rng.random_range(0..5)).map(|_| PIECES[rng.random_range(0..PIECES.len())]).collect()
}

fn twilio_url(rng: &mut StdRng) -> String {
    let authority = ["example.com", "example.com:8443", "example.com:443", "hooks.example.org"][rng.random_range(0..4)];
    let scheme = if rng.random() { "https" } else { "http" };
    let query = if rng.random() { "?foo=1&bar=2" } else { "" };
    format!("{scheme}://{authority}/twilio/voice{query}")
}

#[test]
fn twilio_string_to_sign_agrees_with_request_validator_both_ways() {
    let mut sdks = Sdks::start();
    let mut rng = StdRng::seed_from_u64(0x7714);
    for case in 0..300 {
        let token = format!("token{case}");
        let url = twilio_url(&mut rng);
        let mut params: Vec<(String, String)> = Vec::new();
        for _ in 0..rng.random_range(0..6) {
            let name = ["Body", "From", "To", "body", "MediaUrl0", "é"][rng.random_range(0..6)].to_string();
            params.push((name, awkward_text(&mut rng)));
        }
        if rng.random_bool(0.2) && !params.is_empty() {
            params.push(params[0].clone()); // an identical pair twice: counts once
        }
        let sha256 = rng.random_bool(0.3);
        let algorithm = if sha256 { "HMAC_SHA256" } else { "HMAC_SHA1" };
        let pairs: Vec<[&str; 2]> = params.iter().map(|(name, value)| [name.as_str(), value.as_str()]).collect();
        let request = json!({"token": token, "url": url, "params": pairs, "algorithm": algorithm});

        let ours = twilio_hmac(&token, &twilio_string_to_sign(&url, &params), sha256);
        assert_eq!(sdks.signs("twilio", request.clone()), ours, "case {case}: {request}");

        // Twilio may have signed the URL with or without its port: the SDK accepts either variant.
        let variant = &twilio_url_variants(&url)[rng.random_range(0..2)];
        let signature = twilio_hmac(&token, &twilio_string_to_sign(variant, &params), sha256);
        let mut verify = request.clone();
        verify["signature"] = json!(signature);
        assert!(sdks.verifies("twilio", verify.clone()), "case {case}: {verify}");

        // One parameter changed (or added): the SDK rejects it, and our string changes with it.
        let mut tampered = params.clone();
        match tampered.first_mut() {
            Some((_, value)) => value.push('x'),
            None => tampered.push(("Body".into(), "x".into())),
        }
        let tampered_pairs: Vec<[&str; 2]> =
            tampered.iter().map(|(name, value)| [name.as_str(), value.as_str()]).collect();
        verify["params"] = json!(tampered_pairs);
        assert!(!sdks.verifies("twilio", verify.clone()), "case {case}: {verify}");
        assert_ne!(twilio_hmac(&token, &twilio_string_to_sign(variant, &tampered), sha256), signature);
    }
}

#[test]
fn twilio_json_bodies_are_signed_through_body_sha256_as_request_validator_checks() {
    let mut sdks = Sdks::start();
    let mut rng = StdRng::seed_from_u64(0x15);
    for case in 0..100 {
        let body = format!("{{\"n\": {case}, \"text\": \"{}\"}}", awkward_text(&mut rng));
        let url = format!("https://example.com/hook?bodySHA256={}", twilio_body_sha256(body.as_bytes()));
        let signature = twilio_hmac("tok", &twilio_string_to_sign(&url, &[]), false);
        let request = json!({"token": "tok", "url": url, "json_body": body, "signature": signature});
        assert!(sdks.verifies("twilio", request.clone()), "case {case}: {request}");
        let mut tampered = request.clone();
        tampered["json_body"] = json!(format!("{body} "));
        assert!(!sdks.verifies("twilio", tampered), "case {case}");
    }
}

#[test]
fn sendgrid_event_webhook_verifies_our_p256_signatures_with_the_public_key_as_the_dashboard_shows_it() {
    let mut sdks = Sdks::start();
    let mut rng = StdRng::seed_from_u64(0x5e9d);
    for case in 0..60 {
        let pair = generate_pair(KeyAlgorithm::EcdsaP256).unwrap();
        let signer = EcdsaP256Signer::from_pem(&pair.secret).unwrap();
        let public = EcdsaP256Public::parse(&pair.public).unwrap();
        let timestamp = format!("{}", 1_700_000_000 + case);
        let body = format!("[{{\"event\":\"delivered\",\"note\":\"{}\"}}]", awkward_text(&mut rng));
        let message = format!("{timestamp}{body}");
        let signature = signer.sign(message.as_bytes()).unwrap();
        assert!(public.verify(message.as_bytes(), &signature));
        let request = json!({"public": pair.public, "timestamp": timestamp, "body_b64": b64(body.as_bytes()), "signature": b64(&signature)});
        assert!(sdks.verifies("sendgrid", request.clone()), "case {case}: {request}");

        // Another timestamp, another key: both the SDK and our verifier reject.
        let mut tampered = request.clone();
        tampered["timestamp"] = json!(format!("{}", 1_700_000_000 + case + 1));
        assert!(!sdks.verifies("sendgrid", tampered));
        let other = generate_pair(KeyAlgorithm::EcdsaP256).unwrap();
        let mut wrong_key = request.clone();
        wrong_key["public"] = json!(other.public);
        assert!(!sdks.verifies("sendgrid", wrong_key));
        assert!(!EcdsaP256Public::parse(&other.public).unwrap().verify(message.as_bytes(), &signature));
        assert!(!public.verify(format!("{timestamp}{body} ").as_bytes(), &signature));
    }
}

#[test]
fn discord_verify_key_and_our_ed25519_keys_agree_both_ways() {
    let mut sdks = Sdks::start();
    let mut rng = StdRng::seed_from_u64(0xd15c);
    for case in 0..60 {
        let pair = generate_pair(KeyAlgorithm::Ed25519).unwrap();
        let signer = Ed25519Signer::from_secret(&pair.secret).unwrap();
        let public = Ed25519Public::from_hex(&pair.public).unwrap();
        let timestamp = format!("{}", 1_700_000_000 + case);
        let body = format!("{{\"type\":1,\"n\":\"{}\"}}", awkward_text(&mut rng));
        let message = format!("{timestamp}{body}");
        let ours = signer.sign(message.as_bytes());

        // PyNaCl (what discord-interactions verifies with) signs with the same seed: Ed25519 is
        // deterministic, so the signatures are equal, and ours verifies the SDK side's.
        let theirs = sdks
            .signs("discord", json!({"seed": pair.secret, "timestamp": timestamp, "body_b64": b64(body.as_bytes())}));
        assert_eq!(theirs, hex::encode(&ours), "case {case}");
        assert!(public.verify(message.as_bytes(), &hex::decode(&theirs).unwrap()));

        let request = json!({"public": pair.public, "timestamp": timestamp, "body_b64": b64(body.as_bytes()), "signature": hex::encode(&ours)});
        assert!(sdks.verifies("discord", request.clone()), "case {case}: {request}");
        let mut tampered = request.clone();
        tampered["body_b64"] = json!(b64(format!("{body} ").as_bytes()));
        assert!(!sdks.verifies("discord", tampered));
        assert!(!public.verify(format!("{message} ").as_bytes(), &ours));
    }
}
