//! AWS SNS and PayPal through the real binary: `webhook secret --scheme sns|paypal --out DIR` makes
//! a local CA, the sender's RSA key and its certificate; `webhook sign` and `send` sign with the key
//! and name the certificate with `--cert-url`; `webhook verify` and `listen` fetch the certificate
//! from that URL, only on the provider's host (a local HTTPS server reached with `--connect-to`,
//! trusted with `--trust-ca`), and judge the signature with it. A look-alike host is refused
//! without a request to it.
//!
//! No pinned SNS or PayPal library verifies offline with an injectable certificate (sns-validator
//! and PayPal's SDKs fetch from the network, or call PayPal's API), so the strings signed are held
//! to AWS's and PayPal's documentation in `canonical::sns` and `canonical::paypal`'s unit tests
//! (AWS's documented example notification among them), and the end to end here is ours both ways.
use serde_json::{Value, json};

use crate::support::certificate_host::{CertificateHost, PAYPAL_CERT_URL, PAYPAL_HOST, SNS_CERT_URL, SNS_HOST};
use crate::support::listen_process::Binary;
use crate::support::run::Run;

const LOOK_ALIKE_SNS_HOST: &str = "sns.us-east-1.amazonaws.com.attacker.example";

/// An SNS notification as a publisher's JSON: unicode and a newline in the Message, which SNS
/// signs decoded.
fn notification(version: &str) -> String {
    json!({"Type": "Notification", "MessageId": "22b80b92-fdea-4c2c-8f9d-bdfb0c7bf324",
        "TopicArn": "arn:aws:sns:us-east-1:123456789012:orders", "Subject": "order",
        "Message": "{\"order\":\"caf\u{e9}\"}\nline two", "Timestamp": "2026-12-02T15:00:00.000Z",
        "SignatureVersion": version})
    .to_string()
}

/// `webhook sign --scheme sns` of `body`: the signed document (body and headers).
fn sign_sns(host: &CertificateHost, body: &str) -> Value {
    Run::webhook(["sign", "--scheme", "sns", "--cert-url", SNS_CERT_URL, "-d", body, "--secret-file"])
        .args([host.file("key.pem")])
        .format_json()
        .never_printing(host.key_pem().trim())
        .expect_exit(0)
        .json()
}

/// `webhook verify --scheme sns` of `body`, trusting the host's CA and reaching it (and the
/// look-alike host, to show that only the rule keeps the receiver away from it).
fn verify_sns(host: &CertificateHost, body: &str) -> (i32, Value) {
    Run::webhook(["verify", "--scheme", "sns", "-d", body, "--trust-ca"])
        .args([host.file("ca.pem")])
        .args(["--connect-to", &host.connect_to(SNS_HOST), "--connect-to", &host.connect_to(LOOK_ALIKE_SNS_HOST)])
        .format_json()
        .code_and_json()
}

#[test]
fn sns_messages_signed_with_the_local_key_verify_with_the_certificate_fetched_from_the_sns_host() {
    let host = CertificateHost::start("sns");
    for version in ["1", "2"] {
        let signed = sign_sns(&host, &notification(version));
        let body = signed["body"].as_str().unwrap();
        let message: Value = serde_json::from_str(body).unwrap();
        assert_eq!(message["SigningCertURL"], SNS_CERT_URL);
        assert_eq!(message["SignatureVersion"], version);
        assert_eq!(signed["headers"]["x-amz-sns-message-type"], "Notification", "{signed}");

        let (code, verdict) = verify_sns(&host, body);
        assert_eq!((code, &verdict["valid"]), (0, &json!(true)), "{verdict}");
        assert_eq!(verdict["id"], "22b80b92-fdea-4c2c-8f9d-bdfb0c7bf324");

        let mut changed = message.clone();
        changed["Message"] = json!("{\"order\":\"other\"}");
        let (code, verdict) = verify_sns(&host, &changed.to_string());
        assert_eq!((code, &verdict["error"]["code"]), (1, &json!("signature_mismatch")), "{verdict}");
    }
    assert!(host.requests().iter().all(|path| path == "/SimpleNotificationService-local.pem"), "{:?}", host.requests());
    assert!(!host.requests().is_empty());
}

#[test]
fn a_message_that_is_not_an_sns_message_is_signed_as_a_notification_carrying_it() {
    let host = CertificateHost::start("sns");
    let signed = sign_sns(&host, "plain text\nsecond line");
    let message: Value = serde_json::from_str(signed["body"].as_str().unwrap()).unwrap();
    assert_eq!(
        (message["Type"].as_str(), message["Message"].as_str()),
        (Some("Notification"), Some("plain text\nsecond line"))
    );
    assert!(message["TopicArn"].as_str().unwrap().starts_with("arn:aws:sns:us-east-1:"), "{message}");
    assert_eq!(verify_sns(&host, signed["body"].as_str().unwrap()).0, 0);
}

#[test]
fn a_look_alike_certificate_url_is_refused_and_nothing_is_fetched_from_it() {
    let host = CertificateHost::start("sns");
    let signed = sign_sns(&host, &notification("1"));
    let mut forged: Value = serde_json::from_str(signed["body"].as_str().unwrap()).unwrap();
    // The look-alike host leads to the same server, which would serve the same certificate:
    // only the host rule stands between the receiver and it.
    forged["SigningCertURL"] = json!(format!("https://{LOOK_ALIKE_SNS_HOST}/SimpleNotificationService-local.pem"));
    let (code, verdict) = verify_sns(&host, &forged.to_string());
    assert_eq!((code, &verdict["error"]["code"]), (1, &json!("cert_url_refused")), "{verdict}");
    assert!(verdict["error"]["message"].as_str().unwrap().contains("not on AWS SNS's host"), "{verdict}");
    assert_eq!(host.requests(), Vec::<String>::new(), "nothing may be fetched from a look-alike host");
}

#[test]
fn without_the_local_ca_the_certificate_is_not_trusted_and_verify_cannot_judge() {
    let host = CertificateHost::start("sns");
    let signed = sign_sns(&host, &notification("2"));
    let (code, _, stderr) = Run::webhook(["verify", "--scheme", "sns", "-d", signed["body"].as_str().unwrap()])
        .args(["--connect-to", &host.connect_to(SNS_HOST)])
        .finish()
        .parts();
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("cannot fetch the certificate from https://sns.us-east-1.amazonaws.com/"), "{stderr}");
}

/// `webhook sign --scheme paypal` of `body` for `webhook_id`: the headers, by lower-case name.
fn sign_paypal(host: &CertificateHost, body: &str, webhook_id: &str) -> Vec<(String, String)> {
    let signed = Run::webhook(["sign", "--scheme", "paypal", "--cert-url", PAYPAL_CERT_URL, "-d", body])
        .args(["--webhook-id", webhook_id, "--id", "69cd13f0-d67a-11e5-baa3-778b53f4ae55", "--timestamp", "1700000000"])
        .args([std::ffi::OsStr::new("--secret-file"), host.file("key.pem").as_os_str()])
        .format_json()
        .expect_exit(0)
        .json();
    signed["headers"]
        .as_object()
        .unwrap()
        .iter()
        .map(|(name, value)| (name.clone(), value.as_str().unwrap().into()))
        .collect()
}

fn verify_paypal(host: &CertificateHost, body: &str, headers: &[(String, String)], webhook_id: &str) -> (i32, Value) {
    let mut run = Run::webhook(["verify", "--scheme", "paypal", "--webhook-id", webhook_id, "-d", body, "--trust-ca"])
        .args([host.file("ca.pem")])
        .args(["--connect-to", &host.connect_to(PAYPAL_HOST)]);
    for (name, value) in headers {
        run = run.args(["-H", &format!("{name}: {value}")]);
    }
    run.format_json().code_and_json()
}

#[test]
fn paypal_deliveries_verify_for_their_webhook_id_with_the_certificate_from_paypals_host() {
    let host = CertificateHost::start("paypal");
    let body = r#"{"id":"WH-2WR32451HC0233532-67976317FL4543714","event_type":"PAYMENT.CAPTURE.COMPLETED","resource":{"note":"café"}}"#;
    let headers = sign_paypal(&host, body, "WH-A");
    let by_name =
        |name: &str| headers.iter().find(|(header, _)| header.eq_ignore_ascii_case(name)).map(|(_, v)| v.clone());
    assert_eq!(by_name("PAYPAL-AUTH-ALGO").as_deref(), Some("SHA256withRSA"));
    assert_eq!(by_name("PAYPAL-TRANSMISSION-TIME").as_deref(), Some("2023-11-14T22:13:20Z"));
    assert_eq!(by_name("PAYPAL-CERT-URL").as_deref(), Some(PAYPAL_CERT_URL));

    let (code, verdict) = verify_paypal(&host, body, &headers, "WH-A");
    assert_eq!((code, &verdict["valid"]), (0, &json!(true)), "{verdict}");
    assert_eq!(verdict["id"], "69cd13f0-d67a-11e5-baa3-778b53f4ae55");
    // Another receiver's webhook id, or a changed body: refused.
    let (code, verdict) = verify_paypal(&host, body, &headers, "WH-B");
    assert_eq!((code, &verdict["error"]["code"]), (1, &json!("signature_mismatch")), "{verdict}");
    let (code, _) = verify_paypal(&host, &body.replace("café", "cafe"), &headers, "WH-A");
    assert_eq!(code, 1);
    assert!(host.requests().iter().all(|path| path == "/v1/notifications/certs/CERT-local"), "{:?}", host.requests());
}

#[test]
fn the_certificate_the_key_and_the_missing_flags_are_usage_errors_that_say_what_is_needed() {
    let host = CertificateHost::start("sns");
    let certificate = host.file("cert.pem");
    let (code, _, stderr) =
        Run::webhook(["sign", "--scheme", "sns", "--cert-url", SNS_CERT_URL, "-d", "x", "--secret-file"])
            .args([&certificate])
            .finish()
            .parts();
    assert_eq!(code, 2);
    assert!(stderr.contains("this is a certificate"), "{stderr}");
    let (code, _, stderr) = Run::webhook(["sign", "--scheme", "sns", "-d", "x", "--secret-file"])
        .args([host.file("key.pem")])
        .never_printing(host.key_pem().trim())
        .finish()
        .parts();
    assert_eq!(code, 2);
    assert!(stderr.contains("--cert-url"), "{stderr}");
    let (code, _, stderr) = Run::webhook([
        "sign",
        "--scheme",
        "sns",
        "-d",
        "x",
        "--cert-url",
        "https://example.com/x.pem",
        "--secret-file",
    ])
    .args([host.file("key.pem")])
    .finish()
    .parts();
    assert_eq!(code, 2);
    assert!(stderr.contains("not on AWS SNS's host"), "{stderr}");
    let (code, _, stderr) = Run::webhook(["verify", "--scheme", "paypal", "-d", "{}"]).finish().parts();
    assert_eq!(code, 2);
    assert!(stderr.contains("--webhook-id"), "{stderr}");
    let (code, _, stderr) =
        Run::webhook(["verify", "--scheme", "sns", "-d", "{}", "--secret", "s3cret"]).finish().parts();
    assert_eq!(code, 2);
    assert!(stderr.contains("takes no secret"), "{stderr}");
    let (code, _, stderr) = Run::webhook(["secret", "--scheme", "sns"]).finish().parts();
    assert_eq!(code, 2);
    assert!(stderr.contains("--out DIR"), "{stderr}");
    for name in ["ca.pem", "key.pem", "cert.pem"] {
        assert!(host.dir().join("keys").join(name).is_file(), "{name}");
    }
}

#[test]
fn webhook_secret_json_names_the_files_it_wrote() {
    let dir = tempfile::tempdir().unwrap();
    let document = Run::webhook(["secret", "--scheme", "paypal", "--out"]).args([dir.path()]).format_json().json();
    assert!(document["secret"].as_str().unwrap().starts_with("-----BEGIN PRIVATE KEY-----"), "{document}");
    assert!(document["public"].as_str().unwrap().starts_with("-----BEGIN CERTIFICATE-----"));
    assert_eq!(document["files"]["ca"], json!(dir.path().join("ca.pem")));
}

#[test]
fn webhook_listen_accepts_what_webhook_send_signs_and_refuses_a_look_alike_certificate_url() {
    let host = CertificateHost::start("sns");
    let ca = host.file("ca.pem");
    let look_alike = host.connect_to(LOOK_ALIKE_SNS_HOST);
    let listener = Binary::start_listen(&[
        "--scheme",
        "sns",
        "--trust-ca",
        ca.to_str().unwrap(),
        "--connect-to",
        &host.connect_to(SNS_HOST),
        "--connect-to",
        &look_alike,
    ]);
    let url = format!("{}/sns", listener.url);
    let (code, out, err) = Run::webhook(["send", &url, "--scheme", "sns", "--cert-url", SNS_CERT_URL, "-d"])
        .args([notification("2").as_str(), "--max-attempts", "1", "--secret-file"])
        .args([host.file("key.pem")])
        .finish()
        .parts();
    assert_eq!(code, 0, "{out}{err}");
    let fetched = host.requests().len();
    assert_eq!(fetched, 1, "{:?}", host.requests());

    let signed = sign_sns(&host, &notification("1"));
    let mut forged: Value = serde_json::from_str(signed["body"].as_str().unwrap()).unwrap();
    forged["SigningCertURL"] = json!(format!("https://{LOOK_ALIKE_SNS_HOST}/SimpleNotificationService-local.pem"));
    let (code, out, err) = Run::webhook([
        "send",
        &url,
        "--scheme",
        "hmac",
        "--secret",
        "x",
        "-d",
        &forged.to_string(),
        "--max-attempts",
        "1",
    ])
    .finish()
    .parts();
    assert_eq!(code, 1, "the listener refuses it: {out}{err}");
    assert_eq!(host.requests().len(), fetched, "nothing fetched for the look-alike: {:?}", host.requests());
    let (_, lines, _) = listener.interrupt();
    let log = lines.join("\n");
    assert!(log.contains("not on AWS SNS's host"), "{log}");
}

/// A SubscriptionConfirmation for `subscribe_url`, before signing.
fn subscription_confirmation(subscribe_url: &str) -> String {
    json!({"Type": "SubscriptionConfirmation", "Token": "2336412f37fb687f5d51e6e2425f004aed",
        "Message": "You have chosen to subscribe to the topic. To confirm, visit the SubscribeURL.",
        "SubscribeURL": subscribe_url})
    .to_string()
}

/// `webhook send --scheme sns` of `message` to the listener, as SNS sends it (signed into the body,
/// with its x-amz-sns-message-type header).
fn post_to(host: &CertificateHost, listener: &Binary, message: &str) -> (i32, String) {
    let url = format!("{}/sns", listener.url);
    let (code, out, err) = Run::webhook(["send", &url, "--scheme", "sns", "--cert-url", SNS_CERT_URL, "-d", message])
        .args(["--max-attempts", "1", "--secret-file"])
        .args([host.file("key.pem")])
        .finish()
        .parts();
    (code, format!("{out}{err}"))
}

#[test]
fn listen_confirms_an_sns_subscription_only_when_told_and_only_on_the_sns_host() {
    let host = CertificateHost::start("sns");
    let ca = host.file("ca.pem");
    let (to_sns, to_look_alike) = (host.connect_to(SNS_HOST), host.connect_to(LOOK_ALIKE_SNS_HOST));
    let reach = [
        "--scheme",
        "sns",
        "--trust-ca",
        ca.to_str().unwrap(),
        "--connect-to",
        &to_sns,
        "--connect-to",
        &to_look_alike,
    ];
    let subscribe = format!(
        "https://{SNS_HOST}/?Action=ConfirmSubscription&TopicArn=arn:aws:sns:us-east-1:123456789012:orders&Token=2336412f37"
    );
    let confirmation = subscription_confirmation(&subscribe);
    let visits =
        |host: &CertificateHost| host.requests().iter().filter(|path| path.contains("ConfirmSubscription")).count();

    // Without --confirm-subscriptions: acknowledged, shown, never visited.
    let listener = Binary::start_listen(&reach);
    assert_eq!(post_to(&host, &listener, &confirmation).0, 0);
    let (_, lines, _) = listener.interrupt();
    assert!(lines.join("\n").contains("visit SubscribeURL"), "{lines:?}");
    assert_eq!(visits(&host), 0);

    // With it: visited once, and the live line says so.
    let listener = Binary::start_listen(&[&reach[..], &["--confirm-subscriptions"]].concat());
    assert_eq!(post_to(&host, &listener, &confirmation).0, 0);
    assert_eq!(visits(&host), 1, "{:?}", host.requests());
    // A signed confirmation whose SubscribeURL is on a look-alike host: not visited.
    let elsewhere = subscription_confirmation(&subscribe.replace(SNS_HOST, LOOK_ALIKE_SNS_HOST));
    post_to(&host, &listener, &elsewhere);
    assert_eq!(visits(&host), 1, "{:?}", host.requests());
    let (_, lines, _) = listener.interrupt();
    let log = lines.join("\n");
    assert!(log.contains("subscription confirmed: GET SubscribeURL https://sns.us-east-1.amazonaws.com/"), "{log}");
    assert!(log.contains("subscription not confirmed") && log.contains("not on AWS SNS's host"), "{log}");

    let (code, _, stderr) =
        Run::webhook(["listen", "--scheme", "hmac", "--secret", "x", "--confirm-subscriptions"]).finish().parts();
    assert_eq!(code, 2);
    assert!(stderr.contains("--scheme sns"), "{stderr}");
}
