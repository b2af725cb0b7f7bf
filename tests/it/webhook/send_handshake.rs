//! `webhook send --handshake`: the provider's endpoint handshake goes first and is judged as the
//! provider judges it; `webhook listen` (which answers them all) passes each one and then gets the
//! event, and a receiver that answers wrongly gets no event and the command exits 2 saying why.
use std::sync::{Arc, Mutex};

use serde_json::Value;

use crate::support::listen_process::Binary;
use crate::support::run::Run;
use crate::support::{CustomServer, Reply};

const SECRET: &str = "handshake_test_secret";

/// `webhook send URL --handshake ARGS --format json` against `webhook listen --scheme SCHEME`.
fn against_listen(listen_secret: &str, listen_args: &[&str], send_secret: &str, send_args: &[&str]) -> Value {
    handshake_with_listen("--handshake", listen_secret, listen_args, send_secret, send_args)
}

/// As `against_listen`, with the handshake flag as given (`--handshake=graph`).
fn handshake_with_listen(
    handshake: &str,
    listen_secret: &str,
    listen_args: &[&str],
    send_secret: &str,
    send_args: &[&str],
) -> Value {
    let listener = Binary::start_with_secret(listen_secret, listen_args);
    let url = format!("{}/hooks", listener.url);
    let (code, report) =
        Run::webhook(["send", &url, handshake, "--secret", send_secret, "--format", "json", "--max-attempts", "1"])
            .args(send_args)
            .code_and_json();
    assert_eq!(code, 0, "{listen_args:?}: {report:#}");
    assert_eq!(report["outcome"], "delivered", "the event followed the handshake: {report:#}");
    report
}

#[test]
fn the_listener_passes_every_providers_handshake_and_then_gets_the_event() {
    let slack = against_listen(SECRET, &["--scheme", "slack"], SECRET, &["--event", "slack:message"]);
    assert_eq!(slack["handshake"]["name"], "slack-url-verification");
    let zoom = against_listen(SECRET, &["--scheme", "zoom"], SECRET, &["--event", "zoom:meeting.started"]);
    assert_eq!(zoom["handshake"]["name"], "zoom-url-validation");
    assert!(zoom["handshake"]["verdict"].as_str().unwrap().contains("encryptedToken"));
    let twitch = against_listen(SECRET, &["--scheme", "twitch"], SECRET, &["--event", "twitch:channel.follow"]);
    assert_eq!(twitch["handshake"]["name"], "twitch-callback-verification");
    let meta = against_listen(
        SECRET,
        &["--scheme", "meta", "--verify-token", "tok-1"],
        SECRET,
        &["--event", "meta:whatsapp.messages", "--verify-token", "tok-1"],
    );
    assert_eq!(meta["handshake"]["name"], "meta-subscribe");
    let dropbox = against_listen(SECRET, &["--scheme", "dropbox"], SECRET, &["--scheme", "dropbox", "-d", "{}"]);
    assert_eq!(dropbox["handshake"]["name"], "dropbox-challenge");
    let pair = Run::webhook(["secret", "--scheme", "discord", "--format", "json"]).json();
    let discord = against_listen(
        pair["public"].as_str().unwrap(),
        &["--scheme", "discord"],
        pair["secret"].as_str().unwrap(),
        &["--event", "discord:APPLICATION_AUTHORIZED"],
    );
    assert_eq!(discord["handshake"]["name"], "discord-ping");
}

/// A receiver that answers every request 200 with `body`, and keeps what it got.
fn answering(body: &'static str) -> (CustomServer, Arc<Mutex<Vec<String>>>) {
    let seen: Arc<Mutex<Vec<String>>> = Arc::default();
    let log = Arc::clone(&seen);
    let server = CustomServer::start(move |request| {
        log.lock().unwrap().push(String::from_utf8_lossy(&request.body).into_owned());
        Reply::json(200, body)
    });
    (server, seen)
}

#[test]
fn a_receiver_that_fails_the_handshake_gets_no_event_and_exit_2() {
    // Echoes a plainToken but not its HMAC: Zoom would not validate the endpoint.
    let (server, seen) = answering(r#"{"plainToken":"x","encryptedToken":"not-the-hmac"}"#);
    let (code, stdout, stderr) = Run::webhook([
        "send",
        &server.url("/zoom"),
        "--handshake",
        "--event",
        "zoom:meeting.started",
        "--secret",
        SECRET,
    ])
    .finish()
    .parts();
    assert_eq!(code, 2, "{stdout}{stderr}");
    assert!(
        stderr.contains("failed the zoom-url-validation handshake") && stderr.contains("encryptedToken"),
        "{stderr}"
    );
    assert!(stderr.contains("no event was sent"), "{stderr}");
    let seen = seen.lock().unwrap();
    assert_eq!(seen.len(), 1, "only the handshake arrived: {seen:?}");
    assert!(seen[0].contains("endpoint.url_validation"));

    let (server, seen) = answering(r#"{"ok":true}"#);
    let (code, _, stderr) =
        Run::webhook(["send", &server.url("/slack"), "--handshake", "--event", "slack:message", "--secret", SECRET])
            .finish()
            .parts();
    assert_eq!(code, 2);
    assert!(stderr.contains("expected the challenge"), "{stderr}");
    assert_eq!(seen.lock().unwrap().len(), 1);
}

#[test]
fn a_provider_without_a_handshake_is_a_usage_error() {
    let (server, seen) = answering("{}");
    let (code, _, stderr) =
        Run::webhook(["send", &server.url("/"), "--handshake", "--event", "github:push", "--secret", SECRET])
            .finish()
            .parts();
    assert_eq!(code, 2);
    assert!(stderr.contains("--scheme github has no endpoint handshake") && stderr.contains("slack"), "{stderr}");
    assert!(seen.lock().unwrap().is_empty());
}

#[test]
fn the_handshakes_without_a_scheme_are_named_and_the_listener_passes_them() {
    let plain = ["--scheme", "hmac"];
    let body = ["--scheme", "hmac", "-d", r#"{"id":"evt_1"}"#];
    for (kind, name) in [
        ("graph", "graph-validation"),
        ("event-grid", "event-grid-validation"),
        ("cloudevents", "cloudevents-abuse-protection"),
        // The listener answers X's CRC with its --secret, the consumer secret both sides hold.
        ("x-crc", "x-crc"),
    ] {
        let report = handshake_with_listen(&format!("--handshake={kind}"), SECRET, &plain, SECRET, &body);
        assert_eq!(report["handshake"]["name"], name, "{report:#}");
    }
    // X's CRC under another consumer secret is not the answer X computes.
    let listener = Binary::start_with_secret("another_consumer_secret", &plain);
    let (code, _, stderr) = Run::webhook(["send", &format!("{}/hooks", listener.url), "--handshake=x-crc"])
        .args(["--secret", SECRET])
        .args(body)
        .finish()
        .parts();
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("failed the x-crc handshake") && stderr.contains("response_token"), "{stderr}");
}

#[test]
fn a_receiver_without_the_cloudevents_or_graph_answer_gets_no_event() {
    for (kind, says) in [
        ("cloudevents", "no WebHook-Allowed-Origin header"),
        ("graph", "expected exactly the decoded validationToken"),
        ("event-grid", "validationResponse"),
    ] {
        let (server, seen) = answering(r#"{"ok":true}"#);
        let (code, _, stderr) = Run::webhook(["send", &server.url("/"), &format!("--handshake={kind}")])
            .args(["--secret", SECRET, "-d", "{}"])
            .finish()
            .parts();
        assert_eq!(code, 2, "{kind}: {stderr}");
        assert!(stderr.contains(says) && stderr.contains("no event was sent"), "{kind}: {stderr}");
        assert_eq!(seen.lock().unwrap().len(), 1, "{kind}: only the handshake arrived");
    }
}
