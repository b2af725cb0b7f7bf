//! `webhook journal FILE`: list and filter what a real listener journaled, show one delivery,
//! replay one to a receiver, follow a journal while the listener writes it.
use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};

use http::StatusCode;
use serde_json::Value;

use crate::support::{KillOnDrop, Listener, SECRET, dead_port, webhook};
use crate::webhook_listen::{Signed, post, stripe_event};
use idem::testing::scheme::SchemeKind;

/// A journal written by a real listener: two invoices, a charge, a forgery (401) and a delivery
/// whose forward failed (502).
fn written_journal(dir: &std::path::Path) -> std::path::PathBuf {
    let path = dir.join("journal.jsonl");
    let listener = Listener::with(SchemeKind::Stripe, |config| config.record = Some(path.clone()));
    assert_eq!(post(&listener.url("/hook"), &stripe_event("evt_inv1", "invoice.paid")).status, StatusCode::OK);
    assert_eq!(post(&listener.url("/hook"), &stripe_event("evt_ch1", "charge.succeeded")).status, StatusCode::OK);
    assert_eq!(
        post(&listener.url("/hook"), &stripe_event("evt_inv2", "invoice.payment_failed")).status,
        StatusCode::OK
    );
    let forged = Signed {
        headers: Vec::new(),
        body: bytes::Bytes::from_static(br#"{"id":"evt_forged","type":"invoice.paid"}"#),
    };
    assert_eq!(post(&listener.url("/hook"), &forged).status, StatusCode::UNAUTHORIZED);
    drop(listener);
    let down = Listener::with(SchemeKind::Stripe, |config| {
        config.record = Some(path.clone());
        config.forward_to = Some(format!("http://127.0.0.1:{}/", dead_port()).parse().unwrap());
    });
    assert_eq!(post(&down.url("/hook"), &stripe_event("evt_lost", "charge.refunded")).status, StatusCode::BAD_GATEWAY);
    path
}

fn journal(args: &[&str]) -> (i32, String, String) {
    let output = webhook().arg("journal").args(args).env("NO_COLOR", "1").output().unwrap();
    (
        output.status.code().unwrap(),
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

fn ids(stdout: &str) -> Vec<String> {
    stdout
        .lines()
        .filter(|line| line.starts_with('#'))
        .map(|line| line.split_whitespace().nth(2).unwrap().to_string())
        .collect()
}

#[test]
fn list_shows_every_delivery_and_filters_by_type_status_and_time() {
    let dir = tempfile::tempdir().unwrap();
    let path = written_journal(dir.path());
    let file = path.to_str().unwrap();
    let (code, all, stderr) = journal(&[file]);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(ids(&all), ["evt_inv1", "evt_ch1", "evt_inv2", "evt_forged", "evt_lost"]);
    let first = all.lines().next().unwrap();
    assert!(
        first.contains("invoice.paid")
            && first.contains("stripe")
            && first.contains("✓ valid")
            && first.contains("→ 200"),
        "{first}"
    );
    let forged = all.lines().find(|line| line.contains("evt_forged")).unwrap();
    assert!(forged.contains("✗ header_missing") && forged.contains("→ 401"), "{forged}");
    let lost = all.lines().find(|line| line.contains("evt_lost")).unwrap();
    assert!(lost.contains("→ 502") && lost.contains("forward failed ×1"), "{lost}");
    assert!(all.contains("5 of 5 deliveries shown"));

    assert_eq!(ids(&journal(&[file, "--type", "invoice.*"]).1), ["evt_inv1", "evt_inv2", "evt_forged"]);
    assert_eq!(ids(&journal(&[file, "--status", "4xx"]).1), ["evt_forged"]);
    assert_eq!(ids(&journal(&[file, "--status", "502"]).1), ["evt_lost"]);
    assert_eq!(ids(&journal(&[file, "--type", "charge.*", "--status", "2xx"]).1), ["evt_ch1"]);
    assert_eq!(ids(&journal(&[file, "--since", "1h"]).1).len(), 5);
    assert!(ids(&journal(&[file, "--since", "2099-01-01T00:00:00Z"]).1).is_empty());

    let (code, json, _) = journal(&[file, "--format", "json", "--type", "invoice.*"]);
    assert_eq!(code, 0);
    let lines: Vec<Value> = crate::schemas::lines(json.as_bytes());
    let found: Vec<&str> = lines.iter().map(|line| line["event_id"].as_str().unwrap()).collect();
    assert_eq!(found, ["evt_inv1", "evt_inv2", "evt_forged"]);

    for (args, says) in [
        (vec![file, "--status", "abc"], "not a status"),
        (vec![file, "--since", "yesterday"], "--since"),
        (vec!["/no/such/journal"], "/no/such/journal"),
    ] {
        let (code, _, stderr) = journal(&args);
        assert_eq!(code, 2, "{args:?}");
        assert!(stderr.contains(says), "{args:?}: {stderr}");
    }
}

#[test]
fn show_prints_one_delivery_in_full() {
    let dir = tempfile::tempdir().unwrap();
    let path = written_journal(dir.path());
    let file = path.to_str().unwrap();
    let (code, shown, stderr) = journal(&[file, "show", "evt_inv2"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(shown.contains("line 3 of"), "{shown}");
    assert!(shown.contains("invoice.payment_failed"));
    assert!(shown.contains("✓ valid signature"));
    assert!(shown.contains("Stripe-Signature: t="), "signature headers are shown: {shown}");
    assert!(shown.contains("\"amount\": 100"), "the body is pretty-printed: {shown}");

    let (_, forged, _) = journal(&[file, "show", "4"]);
    assert!(
        forged.contains("evt_forged") && forged.contains("✗ header_missing") && forged.contains("reason"),
        "{forged}"
    );
    let (_, lost, _) = journal(&[file, "show", "evt_lost"]);
    assert!(lost.contains("no answer after 1 attempt(s), not delivered") && lost.contains("error"), "{lost}");

    let (code, _, stderr) = journal(&[file, "show", "evt_nope"]);
    assert_eq!(code, 2);
    assert!(stderr.contains("no delivery with event id `evt_nope`"), "{stderr}");
}

#[test]
fn replay_re_delivers_that_one_delivery_re_signed() {
    let dir = tempfile::tempdir().unwrap();
    let path = written_journal(dir.path());
    let receiver = Listener::with(SchemeKind::Stripe, |_| {});
    let (code, out, stderr) =
        journal(&[path.to_str().unwrap(), "replay", "evt_ch1", &receiver.url("/again"), "--secret", SECRET]);
    assert_eq!(code, 0, "{out}{stderr}");
    let summary = receiver.summary();
    assert_eq!((summary.received, summary.valid), (1, 1), "only that delivery, re-signed with the recorded scheme");
    assert_eq!(summary.by_event_type.get("charge.succeeded"), Some(&1));
    // --verbatim sends the recorded signature again: stale only after the tolerance, so still valid here.
    let (code, _, _) = journal(&[path.to_str().unwrap(), "replay", "evt_inv1", &receiver.url("/again"), "--verbatim"]);
    assert_eq!(code, 0);
    assert_eq!(receiver.summary().received, 2);
}

#[test]
fn follow_prints_deliveries_as_a_running_listener_journals_them() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("live.jsonl");
    let listener = Listener::with(SchemeKind::Stripe, |config| config.record = Some(path.clone()));
    post(&listener.url("/"), &stripe_event("evt_before", "invoice.paid"));
    let mut child = KillOnDrop::new(
        Command::new(env!("CARGO_BIN_EXE_webhook"))
            .args(["journal", path.to_str().unwrap(), "--follow", "--format", "json", "--type", "invoice.*"])
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap(),
    );
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let first: Value = serde_json::from_str(&lines.next().unwrap().unwrap()).unwrap();
    assert_eq!(first["event_id"], "evt_before");
    post(&listener.url("/"), &stripe_event("evt_skipped", "charge.succeeded"));
    post(&listener.url("/"), &stripe_event("evt_after", "invoice.created"));
    let next: Value = serde_json::from_str(&lines.next().unwrap().unwrap()).unwrap();
    assert_eq!(next["event_id"], "evt_after", "appended lines are followed, and the filter applies");
}
