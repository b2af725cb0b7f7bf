//! `webhook listen` answers the handshakes providers send before (or besides) their events, each as
//! its provider documents it, journals them as handshakes (which `webhook replay` leaves out) and
//! refuses a signed one whose signature does not hold: a local receiver can be registered with
//! Slack, Discord, Zoom, Twitch, Meta, Microsoft Graph, Azure Event Grid, CloudEvents senders,
//! Dropbox and X, and a forged challenge confirms nothing.
use std::path::PathBuf;

use base64::Engine;
use bytes::Bytes;
use hmac::{Hmac, Mac};
use http::{Method, Request, StatusCode};
use idem::testing::delivery::unix_now;
use idem::testing::journal::read_journal;
use idem::testing::scheme::SchemeKind;
use sha2::Sha256;

use crate::support::signed_deliveries::{Signed, client, json, post, post_with, sign};
use crate::support::{CountingServer, Listener, SECRET, runtime};

fn send(method: Method, url: &str, headers: &[(&str, &str)], body: &str) -> idem::testing::client::Exchange {
    let mut request = Request::builder().method(method).uri(url);
    for (name, value) in headers {
        request = request.header(*name, *value);
    }
    let request = request.body(Bytes::copy_from_slice(body.as_bytes())).unwrap();
    runtime().block_on(client(false).send(request)).expect("the listener answers")
}

fn text(exchange: &idem::testing::client::Exchange) -> String {
    String::from_utf8_lossy(&exchange.body).into_owned()
}

fn hmac_sha256(key: &[u8], message: &[u8]) -> Vec<u8> {
    let mut mac = Hmac::<Sha256>::new_from_slice(key).unwrap();
    mac.update(message);
    mac.finalize().into_bytes().to_vec()
}

fn journaled(dir: &tempfile::TempDir) -> PathBuf {
    dir.path().join("journal.jsonl")
}

fn kind(name: &str) -> SchemeKind {
    SchemeKind::from_name(name).unwrap_or_else(|| panic!("no scheme {name}"))
}

#[test]
fn slack_url_verification_is_answered_when_signed_and_refused_when_forged() {
    let dir = tempfile::tempdir().unwrap();
    let path = journaled(&dir);
    let listener = Listener::with(SchemeKind::Slack, |config| config.record = Some(path.clone()));
    let body = r#"{"token":"Jhj5dZrVaK7ZwHHjRyZWjbDl","challenge":"3eZbrw1aBm2rZgRNFdxV2595E9CY3gmdALWMmHkvFXO7tYXAYM8P","type":"url_verification"}"#;
    let signed = sign(SchemeKind::Slack, "", unix_now(), None, body.as_bytes());
    let answer = post(&listener.url("/slack/events"), &signed);
    assert_eq!(answer.status, StatusCode::OK, "{}", text(&answer));
    assert_eq!(json(&answer)["challenge"], "3eZbrw1aBm2rZgRNFdxV2595E9CY3gmdALWMmHkvFXO7tYXAYM8P");
    let forged = Signed { headers: signed.headers.clone(), body: Bytes::from(body.replace("3eZ", "XXX")) };
    let refused = post(&listener.url("/slack/events"), &forged);
    assert_eq!(refused.status, StatusCode::UNAUTHORIZED);
    assert!(!text(&refused).contains("XXX"), "a forged challenge is not echoed: {}", text(&refused));

    let (records, _) = read_journal(&path).unwrap();
    assert_eq!(records.len(), 2, "both handshakes are on file");
    assert_eq!(records[0].handshake.as_deref(), Some("slack-url-verification"));
    assert_eq!((records[0].status, records[1].status), (200, 401));
    crate::support::schemas::lines(&std::fs::read(&path).unwrap());
    // Not events: a replay of the journal sends none of them.
    let replay = crate::support::run::Run::webhook(["replay", path.to_str().unwrap(), "http://127.0.0.1:9/x"])
        .args(["--scheme", "slack", "--secret", SECRET])
        .finish();
    let (_, _, stderr) = replay.parts();
    assert!(stderr.contains("it is a handshake (slack-url-verification), not an event"), "{stderr}");
    listener.shutdown();
}

#[test]
fn zoom_url_validation_answers_the_plain_token_encrypted_with_the_secret_token() {
    let listener = Listener::with(kind("zoom"), |_| {});
    let body = r#"{"payload":{"plainToken":"qgg8vlvZRS6UYooatFL8Aw"},"event_ts":1654503849680,"event":"endpoint.url_validation"}"#;
    let answer = post(&listener.url("/zoom"), &sign(kind("zoom"), "", unix_now(), None, body.as_bytes()));
    assert_eq!(answer.status, StatusCode::OK, "{}", text(&answer));
    let value = json(&answer);
    assert_eq!(value["plainToken"], "qgg8vlvZRS6UYooatFL8Aw");
    assert_eq!(value["encryptedToken"], hex::encode(hmac_sha256(SECRET.as_bytes(), b"qgg8vlvZRS6UYooatFL8Aw")));
    listener.shutdown();
}

#[test]
fn twitch_callback_verification_gets_the_raw_challenge() {
    let listener = Listener::with(kind("twitch"), |_| {});
    let body =
        r#"{"challenge":"pogchamp-kappa-360noscope-vohiyo","subscription":{"id":"f1c2a387","type":"channel.follow"}}"#;
    let signed = sign(kind("twitch"), "e76c6bd4-55c9-4987-8304-da1588d8988b", unix_now(), None, body.as_bytes());
    let kind_header = [("twitch-eventsub-message-type", "webhook_callback_verification")];
    let answer = post_with(&client(false), &listener.url("/twitch"), &signed, &kind_header).unwrap();
    assert_eq!(answer.status, StatusCode::OK, "{}", text(&answer));
    assert_eq!(text(&answer), "pogchamp-kappa-360noscope-vohiyo");
    assert!(answer.headers[http::header::CONTENT_TYPE].to_str().unwrap().starts_with("text/plain"));
    listener.shutdown();
}

#[test]
fn meta_subscription_checks_are_answered_only_for_the_verify_token() {
    let listener = Listener::with(kind("meta"), |config| config.verify_token = Some("meatyhamhock".into()));
    let good = send(
        Method::GET,
        &listener.url("/meta?hub.mode=subscribe&hub.challenge=1158201444&hub.verify_token=meatyhamhock"),
        &[],
        "",
    );
    assert_eq!((good.status, text(&good).as_str()), (StatusCode::OK, "1158201444"));
    let bad = send(
        Method::GET,
        &listener.url("/meta?hub.mode=subscribe&hub.challenge=1158201444&hub.verify_token=guess"),
        &[],
        "",
    );
    assert_eq!(bad.status, StatusCode::FORBIDDEN);
    assert!(!text(&bad).contains("1158201444"));
    // Any other GET is still no webhook.
    assert_eq!(send(Method::GET, &listener.url("/meta"), &[], "").status, StatusCode::METHOD_NOT_ALLOWED);
    listener.shutdown();
}

#[test]
fn graph_event_grid_cloudevents_dropbox_and_x_handshakes_are_answered_as_documented() {
    let listener = Listener::with(SchemeKind::Hmac, |_| {});
    let graph =
        send(Method::POST, &listener.url("/graph?validationToken=Validation%3A+Testing+client+application"), &[], "");
    assert_eq!((graph.status, text(&graph).as_str()), (StatusCode::OK, "Validation: Testing client application"));

    let grid_body = r#"[{"id":"2d1781af","topic":"/subscriptions/x","subject":"","data":{"validationCode":"512d38b6-c7b8-40c8-89fe-f46f9e9622b6","validationUrl":"https://rp-eastus2.eventgrid.azure.net/x"},"eventType":"Microsoft.EventGrid.SubscriptionValidationEvent","eventTime":"2018-01-25T22:12:19.4556811Z","dataVersion":"1","metadataVersion":"1"}]"#;
    let grid = send(Method::POST, &listener.url("/grid"), &[("aeg-event-type", "SubscriptionValidation")], grid_body);
    assert_eq!(grid.status, StatusCode::OK, "{}", text(&grid));
    assert_eq!(json(&grid)["validationResponse"], "512d38b6-c7b8-40c8-89fe-f46f9e9622b6");

    let options =
        send(Method::OPTIONS, &listener.url("/ce"), &[("webhook-request-origin", "eventemitter.example.com")], "");
    assert_eq!(options.status, StatusCode::OK);
    assert_eq!(options.headers["webhook-allowed-origin"], "eventemitter.example.com");
    assert!(options.headers.contains_key("webhook-allowed-rate"));

    let dropbox = send(Method::GET, &listener.url("/dropbox?challenge=abc123"), &[], "");
    assert_eq!((dropbox.status, text(&dropbox).as_str()), (StatusCode::OK, "abc123"));
    assert_eq!(dropbox.headers["x-content-type-options"], "nosniff");

    let crc = send(Method::GET, &listener.url("/x?crc_token=abc%2Bdef"), &[], "");
    let expected = base64::engine::general_purpose::STANDARD.encode(hmac_sha256(SECRET.as_bytes(), b"abc+def"));
    assert_eq!(json(&crc)["response_token"], format!("sha256={expected}"));
    listener.shutdown();
}

#[test]
fn an_unsigned_sns_subscription_confirmation_is_refused_and_its_url_never_visited() {
    let subscribe = CountingServer::start(200);
    let listener = Listener::with(SchemeKind::Hmac, |_| {});
    let body = format!(
        r#"{{"Type":"SubscriptionConfirmation","MessageId":"165545c9","Token":"2336412f37","TopicArn":"arn:aws:sns:us-west-2:123456789012:MyTopic","Message":"You have chosen to subscribe","SubscribeURL":"{}","Timestamp":"2012-04-26T20:45:04.751Z","SignatureVersion":"1","Signature":"EXAMPLEpH+","SigningCertURL":"https://sns.us-west-2.amazonaws.com/SimpleNotificationService-f3ecfb7224c7233fe7bb5f59f96de52f.pem"}}"#,
        subscribe.url("/confirm")
    );
    let answer =
        send(Method::POST, &listener.url("/sns"), &[("x-amz-sns-message-type", "SubscriptionConfirmation")], &body);
    assert_eq!(answer.status, StatusCode::UNAUTHORIZED, "{}", text(&answer));
    std::thread::sleep(std::time::Duration::from_millis(200));
    assert_eq!(subscribe.requests(), 0, "the listener never confirms a subscription itself");
    listener.shutdown();
}

#[test]
fn a_discord_ping_with_an_invalid_signature_gets_401() {
    // Discord sends such pings on purpose and drops an endpoint that accepts them.
    let listener = Listener::with(SchemeKind::Hmac, |_| {});
    let headers = [("x-signature-ed25519", "00"), ("x-signature-timestamp", "1700000000")];
    let answer = send(Method::POST, &listener.url("/interactions"), &headers, r#"{"type":1}"#);
    assert_eq!(answer.status, StatusCode::UNAUTHORIZED);
    listener.shutdown();
}

#[test]
fn a_signed_discord_ping_gets_a_pong_from_a_listener_holding_the_public_key() {
    let (_, pair) =
        crate::support::run::Run::webhook(["secret", "--scheme", "discord", "--format", "json"]).code_and_json();
    let (private, public) = (pair["secret"].as_str().unwrap(), pair["public"].as_str().unwrap());
    let (code, signed, _) = crate::support::run::Run::webhook(["sign", "--scheme", "discord", "--secret", private])
        .args(["-d", r#"{"type":1}"#])
        .finish()
        .parts();
    assert_eq!(code, 0, "{signed}");
    let headers: Vec<(&str, &str)> = signed.lines().filter_map(|line| line.split_once(": ")).collect();
    let listener = Listener::start(idem::testing::listen::ListenConfig::local(
        kind("discord"),
        idem::testing::scheme::Secret::new(public.as_bytes().to_vec()).unwrap(),
    ));
    let answer = send(Method::POST, &listener.url("/interactions"), &headers, r#"{"type":1}"#);
    assert_eq!(answer.status, StatusCode::OK, "{}", text(&answer));
    assert_eq!(json(&answer)["type"], 1);
    let tampered = send(Method::POST, &listener.url("/interactions"), &headers, r#"{"type":1} "#);
    assert_eq!(tampered.status, StatusCode::UNAUTHORIZED);
    listener.shutdown();
}
