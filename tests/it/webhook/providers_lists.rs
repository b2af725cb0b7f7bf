//! Providers whose signature header is a list (`ts=…;h1=…`, `t=…,v1=…`): Paddle Billing against
//! its own SDK (paddle-python-sdk's `Verifier`, and its `PaddleSignature.calculate_hmac` to sign),
//! Calendly against its documented recipe, Mux against the example of its own library; each
//! accepts a list with several signatures, as during a secret rotation.
use std::collections::BTreeMap;
use std::process::Command;

use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use serde_json::{Value, json};

use crate::support::apps::app_path;
use crate::support::provider_sdks::Sdks;
use crate::support::run::Run;

const SECRET: &str = "pdl_ntfset_01hv8wptq8987qeep44fyrq6ba_zV8Zcb6ZBplzKUIh3q0CH6qC5Qj1uLhP";

/// The headers `webhook sign --scheme SCHEME` writes for `body` at `timestamp`, by lower-case name.
fn signed(scheme: &str, secret: &str, body: &str, timestamp: i64) -> BTreeMap<String, String> {
    let (code, stdout, stderr) = Run::webhook(["sign", "--scheme", scheme, "--secret", secret, "-d", body])
        .args(["--timestamp", &timestamp.to_string()])
        .never_printing(secret)
        .finish()
        .parts();
    assert_eq!(code, 0, "{stderr}");
    stdout
        .lines()
        .map(|line| {
            let (name, value) = line.split_once(": ").unwrap();
            (name.to_ascii_lowercase(), value.to_string())
        })
        .collect()
}

/// `webhook verify --scheme SCHEME` of `body` with one header, at `now`: exit status and output.
fn verify(scheme: &str, secret: &str, body: &str, header: (&str, &str), now: i64) -> (i32, String) {
    let (code, stdout, stderr) = Run::webhook(["verify", "--scheme", scheme, "--secret", secret, "-d", body])
        .args(["-H", &format!("{}: {}", header.0, header.1), "--now", &now.to_string()])
        .never_printing(secret)
        .finish()
        .parts();
    (code, format!("{stdout}{stderr}"))
}

/// What Python's own `hmac` computes over `message` (tests/apps/provider_recipe_signer.py).
fn python_hex_sha256(secret: &str, message: &str) -> String {
    let output = Command::new("python3")
        .arg(app_path("provider_recipe_signer.py"))
        .args(["sha256", "hex", secret, message])
        .output()
        .expect("python3 runs");
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    String::from_utf8(output.stdout).unwrap().trim().to_string()
}

const BODIES: &[&str] = &[
    r#"{"event_id":"evt_01h8","event_type":"transaction.completed","data":{"id":"txn_01h8"}}"#,
    r#"{"note":"café ☕ — 名前","amount":"10.00"}"#,
    "a;b=c,ts=1;h1=ff",
    "",
];

#[test]
fn paddle_signatures_agree_with_the_paddle_sdk_both_ways() {
    let mut sdks = Sdks::start();
    for (index, body) in BODIES.iter().enumerate() {
        let timestamp = 1_700_000_000 + i64::try_from(index).unwrap() * 977;
        let request = |header: &str, body: &str| json!({"secret": SECRET, "header": header, "body_b64": STANDARD.encode(body.as_bytes())});

        // Ours -> the SDK's Verifier.
        let ours = signed("paddle", SECRET, body, timestamp)["paddle-signature"].clone();
        assert!(ours.starts_with(&format!("ts={timestamp};h1=")), "{ours}");
        assert!(sdks.verifies("paddle", request(&ours, body)), "the SDK refuses our {ours:?} of {body:?}");
        assert!(!sdks.verifies("paddle", request(&ours, &format!("{body} "))), "the SDK accepts a changed body");

        // The SDK's -> ours: the same header, accepted, and refused for another body.
        let theirs = sdks.signs(
            "paddle",
            json!({"secret": SECRET, "timestamp": timestamp, "body_b64": STANDARD.encode(body.as_bytes())}),
        );
        assert_eq!(theirs, ours, "{body:?}");
        let (code, output) = verify("paddle", SECRET, body, ("Paddle-Signature", &theirs), timestamp);
        assert_eq!(code, 0, "{output}");
        assert!(output.contains("paddle signature is valid"), "{output}");
        let (code, output) = verify("paddle", SECRET, &format!("{body} "), ("Paddle-Signature", &theirs), timestamp);
        assert_eq!(code, 1, "{output}");
        assert!(output.contains("does not match"), "{output}");

        // A rotation: the old secret's signature first, then the new one's. Both accept it.
        let old = signed("paddle", "an old secret", body, timestamp)["paddle-signature"].clone();
        let old_tag = old.split_once(";h1=").unwrap().1;
        let rotating = ours.replacen(";h1=", &format!(";h1={old_tag};h1="), 1);
        assert!(sdks.verifies("paddle", request(&rotating, body)), "{rotating}");
        let (code, output) = verify("paddle", SECRET, body, ("Paddle-Signature", &rotating), timestamp);
        assert_eq!(code, 0, "{rotating}: {output}");
        // Only the old one: both refuse.
        assert!(!sdks.verifies("paddle", request(&old, body)));
        assert_eq!(verify("paddle", SECRET, body, ("Paddle-Signature", &old), timestamp).0, 1);
    }
}

#[test]
fn calendly_signs_and_verifies_its_documented_recipe() {
    let (body, timestamp) = (BODIES[0], 1_700_000_000);
    let secret = "a calendly signing key";
    // Calendly: `Calendly-Webhook-Signature: t=<unix>,v1=<hex>`, HMAC-SHA256(key, "<t>." + body).
    let tag = python_hex_sha256(secret, &format!("{timestamp}.{body}"));
    let expected = format!("t={timestamp},v1={tag}");
    assert_eq!(signed("calendly", secret, body, timestamp)["calendly-webhook-signature"], expected);
    let (code, output) = verify("calendly", secret, body, ("Calendly-Webhook-Signature", &expected), timestamp);
    assert_eq!(code, 0, "{output}");

    let other = python_hex_sha256("another key", &format!("{timestamp}.{body}"));
    let rotating = format!("t={timestamp},v1={other},v1={tag}");
    let (code, output) = verify("calendly", secret, body, ("Calendly-Webhook-Signature", &rotating), timestamp);
    assert_eq!(code, 0, "{output}");
    let forged = format!("t={timestamp},v1={other}");
    let (code, output) = verify("calendly", secret, body, ("Calendly-Webhook-Signature", &forged), timestamp);
    assert_eq!(code, 1, "{output}");
    assert!(output.contains("does not match"), "{output}");
}

/// The example of Mux's own library (`Mux.Webhooks.TestUtils.generate_signature`, hex.pm `mux`
/// 2.2.0): "payload" signed with "SuperSecret123" at t=1591664030.
const MUX_EXAMPLE: &str = "t=1591664030,v1=e43496b6aae982c4c2fd6f8e92935f1d90216f1f64d56024e72390acfb988272";

#[test]
fn mux_reproduces_the_example_of_its_own_library() {
    let headers = signed("mux", "SuperSecret123", "payload", 1_591_664_030);
    assert_eq!(headers["mux-signature"], MUX_EXAMPLE);
    let (code, output) = verify("mux", "SuperSecret123", "payload", ("Mux-Signature", MUX_EXAMPLE), 1_591_664_030);
    assert_eq!(code, 0, "{output}");
    assert!(output.contains("mux signature is valid"), "{output}");

    // An hour later the same delivery is a replay: refused, saying the signature itself matched.
    let (code, output) = verify("mux", "SuperSecret123", "payload", ("Mux-Signature", MUX_EXAMPLE), 1_591_667_630);
    assert_eq!(code, 1, "{output}");
    assert!(output.contains("the signature itself matches"), "{output}");
    let (code, output) = verify("mux", "SuperSecret123", "payload!", ("Mux-Signature", MUX_EXAMPLE), 1_591_664_030);
    assert_eq!(code, 1, "{output}");
    assert!(output.contains("does not match"), "{output}");
}

#[test]
fn a_list_without_its_timestamp_or_signature_is_malformed_and_says_which_key() {
    let tag = "e43496b6aae982c4c2fd6f8e92935f1d90216f1f64d56024e72390acfb988272";
    for (header, says) in [
        (format!("h1={tag}"), "no `ts=` timestamp"),
        ("ts=1591664030".to_string(), "no `h1=` signature"),
        (format!("ts=1591664030,h1={tag}"), "no `h1=` signature"),
        (format!("ts=soon;h1={tag}"), "not a Unix timestamp"),
    ] {
        let (code, output) = verify("paddle", SECRET, "payload", ("Paddle-Signature", &header), 1_591_664_030);
        assert_eq!(code, 1, "{header}: {output}");
        assert!(output.contains("malformed") && output.contains(says), "{header}: {output}");
    }
    let many = format!("t=1591664030{}", format!(",v1={tag}").repeat(17));
    let (code, output) = verify("mux", "SuperSecret123", "payload", ("Mux-Signature", &many), 1_591_664_030);
    assert_eq!(code, 1, "{output}");
    assert!(output.contains("17 signature entries"), "{output}");
}

/// What Python's own `hmac` computes over `message`, base64 (tests/apps/provider_recipe_signer.py).
fn python_base64_sha256(secret: &str, message: &str) -> String {
    let output = Command::new("python3")
        .arg(app_path("provider_recipe_signer.py"))
        .args(["sha256", "base64", secret, message])
        .output()
        .expect("python3 runs");
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    String::from_utf8(output.stdout).unwrap().trim().to_string()
}

#[test]
fn body_mac_providers_sign_and_verify_their_documented_recipe() {
    let secret = "an endpoint secret";
    let body = BODIES[1];
    // (scheme, header, the tag the documentation's recipe gives)
    let recipes = [
        // WooCommerce: base64_encode(hash_hmac('sha256', $payload, $secret, true)) (WC_Webhook::generate_signature).
        ("woocommerce", "X-WC-Webhook-Signature", python_base64_sha256(secret, body)),
        // Sentry: hex HMAC-SHA256 of the body with the client secret.
        ("sentry", "Sentry-Hook-Signature", python_hex_sha256(secret, body)),
        // Razorpay: hex HMAC-SHA256 of the raw body with the webhook secret.
        ("razorpay", "X-Razorpay-Signature", python_hex_sha256(secret, body)),
        // Dropbox: hex HMAC-SHA256 of the body with the app secret.
        ("dropbox", "X-Dropbox-Signature", python_hex_sha256(secret, body)),
    ];
    for (scheme, header, tag) in recipes {
        let headers = signed(scheme, secret, body, 1_700_000_000);
        assert_eq!(headers.get(&header.to_ascii_lowercase()), Some(&tag), "{scheme}: {headers:?}");
        let (code, output) = verify(scheme, secret, body, (header, &tag), 1_700_000_000);
        assert_eq!(code, 0, "{scheme}: {output}");
        assert!(output.contains(&format!("{scheme} signature is valid")), "{output}");
        let (code, output) = verify(scheme, secret, &format!("{body} "), (header, &tag), 1_700_000_000);
        assert_eq!(code, 1, "{scheme}: {output}");
        assert!(output.contains("does not match"), "{scheme}: {output}");
    }
}

#[test]
fn gitlab_sends_its_shared_token_and_verify_compares_it_whatever_the_body() {
    let token = "a gitlab secret token";
    let (code, stdout, stderr) =
        Run::webhook(["sign", "--scheme", "gitlab", "--secret", token, "-d", BODIES[0]]).finish().parts();
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.lines().any(|line| line == format!("X-Gitlab-Token: {token}")), "{stdout}");

    let (code, output) = verify("gitlab", token, BODIES[0], ("X-Gitlab-Token", token), 1_700_000_000);
    assert_eq!(code, 0, "{output}");
    // A token proves who knows the secret, not what the body is: another body passes too.
    let (code, output) = verify("gitlab", token, "another body", ("X-Gitlab-Token", token), 1_700_000_000);
    assert_eq!(code, 0, "{output}");
    for wrong in ["a gitlab secret tokeN", "a gitlab secret toke", "a gitlab secret token!", ""] {
        let (code, output) = verify("gitlab", token, BODIES[0], ("X-Gitlab-Token", wrong), 1_700_000_000);
        assert_eq!(code, 1, "{wrong:?}: {output}");
        assert!(!output.contains(token), "the token is printed: {output}");
    }

    let list = Run::webhook(["schemes"]).format_json().expect_exit(0).json();
    let gitlab = list["schemes"].as_array().unwrap().iter().find(|scheme| scheme["name"] == "gitlab").unwrap();
    assert_eq!(gitlab["algorithm"], "shared token (no signature)", "{gitlab}");
    assert_eq!(gitlab["signature_header"], "X-Gitlab-Token");
}

/// `webhook verify --scheme SCHEME` of `body` with no signature header (it is in the body).
fn verify_body(scheme: &str, secret: &str, body: &str, now: i64) -> (i32, String) {
    let (code, stdout, stderr) = Run::webhook(["verify", "--scheme", scheme, "--secret", secret, "-d", body])
        .args(["--now", &now.to_string()])
        .never_printing(secret)
        .finish()
        .parts();
    (code, format!("{stdout}{stderr}"))
}

/// Adyen's HMAC key of its libraries' test vectors (adyen-php-api-library HmacSignatureTest,
/// adyen-node-api-library and adyen-go-api-library hmacValidator tests).
const ADYEN_KEY: &str = "DFB1EB5485895CFA84146406857104ABB4CBCABDC8AAF103A624C8F6A3EAAB00";
/// The PHP library's `testNotificationRequestItemHmac` item, with its expected signature.
const ADYEN_PHP_ITEM: &str = r#"{"NotificationRequestItem": {"pspReference": "7914073381342284",
    "merchantAccountCode": "TestMerchant", "merchantReference": "TestPayment-1407325143704",
    "amount": {"value": 1130, "currency": "EUR"}, "eventCode": "AUTHORISATION", "success": "true",
    "additionalData": {"hmacSignature": "Ny9gS2veKo5E4w8/OL6xz1/wvT/hYkAXy1xNc/QvO4I="}}}"#;
/// The Node and Go libraries' item with every field set, with its expected signature.
const ADYEN_NODE_ITEM: &str = r#"{"NotificationRequestItem": {"pspReference": "pspReference",
    "originalReference": "originalReference", "merchantAccountCode": "merchantAccount",
    "merchantReference": "reference", "amount": {"currency": "EUR", "value": 1000}, "eventCode": "EVENT",
    "success": "true", "paymentMethod": "VISA", "reason": "reason",
    "additionalData": {"hmacSignature": "ipnxGCaUZ4l8TUW75a71/ghd2Fe5ffvX0pV4TLTntIc="}}}"#;

fn adyen_batch(items: &[&str]) -> String {
    format!(r#"{{"live": "false", "notificationItems": [{}]}}"#, items.join(", "))
}

#[test]
fn adyen_verifies_its_libraries_vectors_item_by_item_and_names_the_item_that_fails() {
    let now = 1_700_000_000;
    let (code, output) = verify_body("adyen", ADYEN_KEY, &adyen_batch(&[ADYEN_PHP_ITEM]), now);
    assert_eq!(code, 0, "{output}");
    assert!(output.contains("adyen signature is valid"), "{output}");
    let (code, output) = verify_body("adyen", ADYEN_KEY, &adyen_batch(&[ADYEN_PHP_ITEM, ADYEN_NODE_ITEM]), now);
    assert_eq!(code, 0, "{output}");
    // The key as Adyen's Customer Area shows it is hex; lower-case digits are the same key.
    let (code, output) = verify_body("adyen", &ADYEN_KEY.to_lowercase(), &adyen_batch(&[ADYEN_NODE_ITEM]), now);
    assert_eq!(code, 0, "{output}");

    // One altered item fails the batch, and is named.
    let altered = ADYEN_NODE_ITEM.replace(r#""value": 1000"#, r#""value": 100000"#);
    let (code, output) = verify_body("adyen", ADYEN_KEY, &adyen_batch(&[ADYEN_PHP_ITEM, &altered]), now);
    assert_eq!(code, 1, "{output}");
    assert!(output.contains("notification item 2 of 2"), "{output}");
    assert!(output.contains("reference:100000:EUR:EVENT:true"), "{output}");
    let unsigned = ADYEN_PHP_ITEM.replace(r#""hmacSignature": "Ny9gS2veKo5E4w8/OL6xz1/wvT/hYkAXy1xNc/QvO4I=""#, "");
    let (code, output) = verify_body("adyen", ADYEN_KEY, &adyen_batch(&[&unsigned, ADYEN_NODE_ITEM]), now);
    assert_eq!(code, 1, "{output}");
    assert!(output.contains("notification item 1 of 2") && output.contains("no additionalData.hmacSignature"));

    let (code, output) = verify_body("adyen", ADYEN_KEY, r#"{"eventCode": "AUTHORISATION"}"#, now);
    assert_eq!(code, 1, "{output}");
    assert!(output.contains("notificationItems"), "{output}");
    let (code, output) = verify_body("adyen", "zz-no-key-zz", &adyen_batch(&[ADYEN_PHP_ITEM]), now);
    assert_eq!(code, 2, "{output}");
    assert!(output.contains("not hex digits"), "{output}");
}

fn mailgun_body(timestamp: &str, token: &str, signature: &str) -> String {
    json!({
        "signature": {"timestamp": timestamp, "token": token, "signature": signature},
        "event-data": {"event": "delivered", "id": "CPgfbmQMTCKtHW6uIWtuVe"}
    })
    .to_string()
}

#[test]
fn mailgun_verifies_the_signature_object_of_its_body_and_judges_its_timestamp() {
    let key = "a mailgun webhook signing key";
    let (timestamp, token) = ("1700000000", "a8ce0edb2dd8301dee6c2405235584e45aa91d1e9f979f3de0");
    // Mailgun: hex HMAC-SHA256 with the signing key over timestamp + token.
    let signature = python_hex_sha256(key, &format!("{timestamp}{token}"));
    let body = mailgun_body(timestamp, token, &signature);
    let (code, output) = verify_body("mailgun", key, &body, 1_700_000_000);
    assert_eq!(code, 0, "{output}");
    assert!(output.contains("mailgun signature is valid"), "{output}");

    let (code, output) =
        verify_body("mailgun", key, &mailgun_body(timestamp, "another token", &signature), 1_700_000_000);
    assert_eq!(code, 1, "{output}");
    assert!(output.contains("does not match"), "{output}");
    let (code, output) = verify_body("mailgun", key, &body, 1_700_003_600);
    assert_eq!(code, 1, "{output}");
    assert!(output.contains("the signature itself matches"), "{output}");
    let (code, output) = verify_body("mailgun", key, r#"{"event-data": {}}"#, 1_700_000_000);
    assert_eq!(code, 1, "{output}");
    assert!(output.contains("no signature object"), "{output}");
}

/// `webhook sign --scheme SCHEME` of `body`: the signed body it prints.
fn sign_into_body(scheme: &str, secret: &str, body: &str, extra: &[&str]) -> Value {
    let document = Run::webhook(["sign", "--scheme", scheme, "--secret", secret, "-d", body])
        .args(extra)
        .format_json()
        .never_printing(secret)
        .expect_exit(0)
        .json();
    serde_json::from_str(document["body"].as_str().unwrap()).unwrap()
}

#[test]
fn mailgun_signing_writes_the_signature_object_into_the_body_as_pythons_hmac_computes_it() {
    let key = "a mailgun webhook signing key";
    let event = r#"{"event": "delivered", "id": "CPgfbmQMTCKtHW6uIWtuVe", "note": "caf\u00e9"}"#;
    let token = "a8ce0edb2dd8301dee6c2405235584e45aa91d1e9f979f3de0";
    let signed = sign_into_body("mailgun", key, event, &["--timestamp", "1700000000", "--id", token]);
    // The body became the event-data of Mailgun's layout, and the signature is the hex HMAC of
    // timestamp + token, as Mailgun's documentation computes it (here by Python's hmac).
    assert_eq!(signed["event-data"]["id"], "CPgfbmQMTCKtHW6uIWtuVe", "{signed}");
    assert_eq!(signed["signature"]["timestamp"], "1700000000");
    assert_eq!(signed["signature"]["token"], token);
    assert_eq!(signed["signature"]["signature"], json!(python_hex_sha256(key, &format!("1700000000{token}"))));
    let (code, output) = verify_body("mailgun", key, &signed.to_string(), 1_700_000_000);
    assert_eq!(code, 0, "{output}");
    let (code, _) = verify_body("mailgun", "another key", &signed.to_string(), 1_700_000_000);
    assert_eq!(code, 1);
    // A body already in Mailgun's layout keeps its event-data and is signed afresh.
    let again = sign_into_body("mailgun", key, &signed.to_string(), &["--timestamp", "1700000100"]);
    assert_eq!((&again["event-data"], &again["signature"]["token"]), (&signed["event-data"], &json!(token)));
    assert_eq!(verify_body("mailgun", key, &again.to_string(), 1_700_000_100).0, 0);
}

#[test]
fn adyen_signing_gives_each_item_of_a_batch_the_signature_its_libraries_vectors_expect() {
    let strip = |item: &str, signature: &str| {
        item.replace(&format!(r#""hmacSignature": "{signature}""#), r#""hmacSignature": "x""#)
    };
    let php = strip(ADYEN_PHP_ITEM, "Ny9gS2veKo5E4w8/OL6xz1/wvT/hYkAXy1xNc/QvO4I=");
    let node = strip(ADYEN_NODE_ITEM, "ipnxGCaUZ4l8TUW75a71/ghd2Fe5ffvX0pV4TLTntIc=");
    let signed = sign_into_body("adyen", ADYEN_KEY, &adyen_batch(&[&php, &node]), &[]);
    let signature = |at: usize| {
        signed["notificationItems"][at]["NotificationRequestItem"]["additionalData"]["hmacSignature"].clone()
    };
    assert_eq!(signature(0), "Ny9gS2veKo5E4w8/OL6xz1/wvT/hYkAXy1xNc/QvO4I=", "{signed}");
    assert_eq!(signature(1), "ipnxGCaUZ4l8TUW75a71/ghd2Fe5ffvX0pV4TLTntIc=", "{signed}");
    assert_eq!(verify_body("adyen", ADYEN_KEY, &signed.to_string(), 1_700_000_000).0, 0);
    // An item without additionalData gets one.
    let bare = r#"{"NotificationRequestItem": {"pspReference": "p", "eventCode": "AUTHORISATION", "success": "true"}}"#;
    let signed = sign_into_body("adyen", ADYEN_KEY, &adyen_batch(&[bare]), &[]);
    assert!(signed["notificationItems"][0]["NotificationRequestItem"]["additionalData"]["hmacSignature"].is_string());
    // A body with no items to sign is refused, saying why.
    let (code, _, stderr) =
        Run::webhook(["sign", "--scheme", "adyen", "--secret", ADYEN_KEY, "-d", "{}"]).finish().parts();
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("notificationItems"), "{stderr}");
}

/// The Standard Webhooks libraries' vector (tests/fixtures/webhook-signatures.json).
const STANDARD_SECRET: &str = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
const STANDARD_ID: &str = "msg_p5jXN8AQM9LWM0D4loKWxJek";
const STANDARD_BODY: &str = r#"{"test": 2432232314}"#;
const STANDARD_SIGNATURE: &str = "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=";

#[test]
fn standard_webhooks_adopters_are_aliases_signing_under_the_headers_their_docs_show() {
    for (alias, family) in
        [("svix", "svix"), ("clerk", "svix"), ("resend", "svix"), ("replicate", "webhook"), ("openai", "webhook")]
    {
        let (code, stdout, stderr) =
            Run::webhook(["sign", "--scheme", alias, "--secret", STANDARD_SECRET, "-d", STANDARD_BODY])
                .args(["--id", STANDARD_ID, "--timestamp", "1614265330"])
                .finish()
                .parts();
        assert_eq!(code, 0, "{alias}: {stderr}");
        for (name, value) in [("id", STANDARD_ID), ("timestamp", "1614265330"), ("signature", STANDARD_SIGNATURE)] {
            assert!(stdout.lines().any(|line| line == format!("{family}-{name}: {value}")), "{alias}: {stdout}");
        }

        // Verifying reads either family, as `standard` does.
        for other in ["svix", "webhook"] {
            let (code, stdout, stderr) = Run::webhook(["verify", "--scheme", alias, "--secret", STANDARD_SECRET])
                .args(["-d", STANDARD_BODY, "--now", "1614265330"])
                .args(["-H", &format!("{other}-id: {STANDARD_ID}"), "-H", &format!("{other}-timestamp: 1614265330")])
                .args(["-H", &format!("{other}-signature: {STANDARD_SIGNATURE}")])
                .finish()
                .parts();
            assert_eq!(code, 0, "{alias} with {other}-*: {stdout}{stderr}");
        }
    }

    let list = Run::webhook(["schemes"]).format_json().expect_exit(0).json();
    let schemes = list["schemes"].as_array().unwrap();
    let aliases: Vec<&str> = schemes
        .iter()
        .filter(|scheme| scheme["alias_of"] == "standard")
        .map(|scheme| scheme["name"].as_str().unwrap())
        .collect();
    assert_eq!(aliases, ["svix", "clerk", "resend", "replicate", "openai"], "{list}");
    for scheme in schemes.iter().filter(|scheme| scheme["alias_of"] == "standard") {
        assert!(scheme["source"].as_str().unwrap().starts_with("https://"), "{scheme}");
    }
    let standard = schemes.iter().find(|scheme| scheme["name"] == "standard").unwrap();
    assert!(standard["alias_of"].is_null(), "{standard}");
}

#[test]
fn webhook_send_signs_mailgun_and_adyen_bodies_that_webhook_listen_accepts() {
    for (scheme, secret, body) in [
        ("mailgun", "a mailgun webhook signing key", r#"{"event": "delivered"}"#.to_string()),
        ("adyen", ADYEN_KEY, adyen_batch(&[ADYEN_PHP_ITEM, ADYEN_NODE_ITEM])),
    ] {
        let listener = crate::support::listen_process::Binary::start_with_secret(secret, &["--scheme", scheme]);
        let url = format!("{}/hook", listener.url);
        let (code, out, err) = Run::webhook(["send", &url, "--scheme", scheme, "--secret", secret, "-d", &body])
            .args(["--max-attempts", "1"])
            .never_printing(secret)
            .finish()
            .parts();
        assert_eq!(code, 0, "{scheme}: {out}{err}");
        let (code, out, err) = Run::webhook(["send", &url, "--scheme", scheme, "--secret", "00aa", "-d", &body])
            .args(["--max-attempts", "1"])
            .finish()
            .parts();
        assert_eq!(code, 1, "{scheme}, another key: {out}{err}");
        listener.interrupt();
    }
}
