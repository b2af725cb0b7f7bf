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
    let listener = Binary::start_with_secret(listen_secret, listen_args);
    let url = format!("{}/hooks", listener.url);
    let (code, report) =
        Run::webhook(["send", &url, "--handshake", "--secret", send_secret, "--format", "json", "--max-attempts", "1"])
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
