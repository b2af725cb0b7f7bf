//! `webhook journal FILE`: list and filter what a real listener journaled, show one delivery,
//! replay one to a receiver, follow a journal while the listener writes it.
use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};

use http::StatusCode;
use serde_json::Value;

use crate::support::run::Run;
use crate::support::signed_deliveries::{Signed, post, stripe_event};
use crate::support::{CustomServer, KillOnDrop, Listener, Reply, SECRET, dead_port, webhook};
use idem::testing::scheme::{SchemeKind, Secret};

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
    Run::webhook(["journal"]).args(args).env("NO_COLOR", "1").finish().parts()
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
    let lines: Vec<Value> = crate::support::schemas::lines(json.as_bytes());
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
    assert!(
        lost.contains("no answer after 1 attempt(s) in ")
            && lost.contains(" ms, not delivered")
            && lost.contains("error"),
        "{lost}"
    );

    let (code, _, stderr) = journal(&[file, "show", "evt_nope"]);
    assert_eq!(code, 2);
    assert!(stderr.contains("no delivery with event id `evt_nope`"), "{stderr}");
}

#[test]
fn show_includes_the_applications_answer_to_the_forward() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("journal.jsonl");
    let app = CustomServer::start(|_| Reply {
        status: 202,
        headers: vec![("content-type", "application/json".into()), ("x-app-trace", "trace-42".into())],
        body: r#"{"queued":true,"job":"job_7"}"#.into(),
    });
    let listener = Listener::with(SchemeKind::Stripe, |config| {
        config.record = Some(path.clone());
        config.forward_to = Some(app.url("/app").parse().unwrap());
    });
    assert_eq!(post(&listener.url("/hook"), &stripe_event("evt_fw1", "invoice.paid")).status, StatusCode::ACCEPTED);
    drop(listener);
    let file = path.to_str().unwrap();

    let (code, shown, stderr) = journal(&[file, "show", "evt_fw1"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(shown.contains("202 after 1 attempt(s) in ") && shown.contains(" ms, delivered"), "{shown}");
    assert!(shown.contains("answer headers (") && shown.contains("X-App-Trace: trace-42"), "{shown}");
    assert!(shown.contains("answer body (29 bytes)") && shown.contains("\"job\": \"job_7\""), "{shown}");

    let (code, json, _) = journal(&[file, "show", "evt_fw1", "--format", "json"]);
    assert_eq!(code, 0);
    let line = crate::support::schemas::document(json.as_bytes());
    let forward = &line["forward"];
    assert_eq!(forward["status"], 202);
    assert!(forward["latency_ms"].is_u64(), "{forward}");
    assert_eq!(forward["answer"]["body"], r#"{"queued":true,"job":"job_7"}"#);
    assert_eq!(forward["answer"]["bytes"], 29);
    let headers = forward["answer"]["headers"].as_array().unwrap();
    assert!(headers.iter().any(|pair| pair[0] == "x-app-trace" && pair[1] == "trace-42"), "{headers:?}");
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

/// Runs `webhook ARGS` and returns its exit code, stdout, stderr and peak resident memory in KiB:
/// the high-water mark (VmHWM) read from /proc while it runs. (wait4's ru_maxrss would not do: a
/// child's count starts from the test process's own size, which it inherits at the fork.)
fn webhook_measured(args: &[&str]) -> (i32, String, String, u64) {
    let child = Command::new(env!("CARGO_BIN_EXE_webhook"))
        .args(args)
        .env("NO_COLOR", "1")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let status_path = format!("/proc/{}/status", child.id());
    let mut child = KillOnDrop::new(child);
    let (stdout, stderr) = (line_feed(child.stdout.take().unwrap()), line_feed(child.stderr.take().unwrap()));
    let mut peak = 0;
    while child.try_wait().unwrap().is_none() {
        if let Ok(status) = std::fs::read_to_string(&status_path) {
            let hwm = status.lines().find_map(|line| line.strip_prefix("VmHWM:"));
            if let Some(kib) = hwm.and_then(|text| text.trim().trim_end_matches("kB").trim().parse::<u64>().ok()) {
                peak = peak.max(kib);
            }
        }
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    let code = child.wait().unwrap().code().unwrap();
    let collect = |lines: std::sync::mpsc::Receiver<String>| lines.iter().map(|line| line + "\n").collect::<String>();
    (code, collect(stdout), collect(stderr), peak)
}

/// A journal line as the listener writes it, with a body of `pad` bytes.
fn record_line(event_id: &str, pad: usize) -> String {
    let body = serde_json::json!({"id": event_id, "type": "invoice.paid", "pad": "x".repeat(pad)}).to_string();
    serde_json::json!({
        "schema": "journal-record/1", "received_at": "2026-11-29T13:17:00.123Z", "remote": "127.0.0.1:1",
        "method": "POST", "path": "/hook", "headers": [["content-type", "application/json"]], "body": body,
        "verdict": {"valid": true, "scheme": "hmac", "reason": null}, "event_id": event_id,
        "event_type": "invoice.paid", "duplicate": false, "attempt": 1, "status": 200
    })
    .to_string()
}

#[test]
fn a_300_mb_journal_is_listed_a_line_at_a_time_in_bounded_memory() {
    use std::io::Write;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("large.jsonl");
    let line = record_line("evt_same", 1_000) + "\n";
    let copies = 300 * 1024 * 1024 / line.len();
    let mut file = std::io::BufWriter::new(std::fs::File::create(&path).unwrap());
    for _ in 0..copies {
        file.write_all(line.as_bytes()).unwrap();
    }
    writeln!(file, "{}", record_line("evt_last", 10)).unwrap();
    file.flush().unwrap();
    let size_kib = std::fs::metadata(&path).unwrap().len() / 1024;
    assert!(size_kib > 300 * 1024 - 1024, "{size_kib} KiB");
    let file = path.to_str().unwrap();
    // Nothing matches the filter but the summary: what is measured is the reading.
    let (code, out, stderr, peak_kib) = webhook_measured(&["journal", file, "--status", "5xx"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(out.contains(&format!("0 of {} deliveries shown", copies + 1)), "{out}");
    // Reading the whole file took about three times its size; a line at a time, tens of MiB.
    assert!(peak_kib > 0, "the child's memory was not observed");
    assert!(peak_kib < size_kib / 4, "peak {peak_kib} KiB for a {size_kib} KiB journal");
}

#[test]
fn a_damaged_line_is_skipped_with_its_number_by_list_show_and_replay() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("damaged.jsonl");
    std::fs::write(&path, format!("{}\n{{}}\n{}\n[1,2]\n", record_line("evt_one", 5), record_line("evt_two", 5)))
        .unwrap();
    let file = path.to_str().unwrap();

    let (code, out, stderr) = journal(&[file]);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(ids(&out), ["evt_one", "evt_two"]);
    assert!(stderr.contains("skipped line 2") && stderr.contains("not a journal record"), "{stderr}");
    assert!(stderr.contains("skipped line 4"), "{stderr}");

    for id in ["evt_two", "evt_one", "3"] {
        let (code, shown, stderr) = journal(&[file, "show", id]);
        assert_eq!(code, 0, "show {id}: {stderr}");
        assert!(shown.contains("delivery line"), "{shown}");
        assert!(stderr.contains("skipped line 2"), "{stderr}");
    }

    let receiver = Listener::with(SchemeKind::Hmac, |config| config.secret = Secret::new(b"s3cr3t".to_vec()).unwrap());
    let (code, out, stderr) = journal(&[file, "replay", "evt_two", &receiver.url("/"), "--secret", "s3cr3t"]);
    assert_eq!(code, 0, "a damaged line elsewhere does not fail the replay of this one: {out}{stderr}");
    assert_eq!(receiver.summary().valid, 1);

    let output = webhook()
        .args(["replay", file, &receiver.url("/"), "--secret", "s3cr3t", "--max-attempts", "1"])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "skipped lines were not replayed: {stderr}");
    assert!(stderr.contains("skipped line 2") && stderr.contains("skipped line 4"), "{stderr}");
    assert_eq!(receiver.summary().valid, 3, "both records replayed, `{{}}` not sent as an event");
}

#[test]
fn special_files_are_refused_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("journal.fifo");
    let fifo_name = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
    // SAFETY: a valid NUL-terminated path.
    assert_eq!(unsafe { libc::mkfifo(fifo_name.as_ptr(), 0o600) }, 0);
    let fifo = fifo.to_str().unwrap();
    for args in [
        vec![fifo],
        vec![fifo, "--follow"],
        vec![fifo, "show", "evt_1"],
        vec!["/dev/urandom"],
        vec!["/dev/urandom", "show", "1"],
        vec![dir.path().to_str().unwrap()],
    ] {
        let output = webhook().arg("journal").args(&args).timeout(std::time::Duration::from_secs(60)).output().unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains("not a regular file") || stderr.contains("a directory"), "{args:?}: {stderr}");
    }
    let output = webhook()
        .args(["replay", fifo, "http://127.0.0.1:9/", "--secret", "s"])
        .timeout(std::time::Duration::from_secs(60))
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("not a regular file"));
}

/// Reads lines from a followed journal's stdout on a thread, so a test can wait for one with a
/// bound instead of blocking for ever.
fn line_feed(stdout: impl std::io::Read + Send + 'static) -> std::sync::mpsc::Receiver<String> {
    let (sender, receiver) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            let Ok(line) = line else { break };
            if sender.send(line).is_err() {
                break;
            }
        }
    });
    receiver
}

fn next_id(lines: &std::sync::mpsc::Receiver<String>) -> String {
    let line = lines.recv_timeout(std::time::Duration::from_secs(60)).expect("a line within a minute");
    let value: Value = serde_json::from_str(&line).unwrap();
    value["event_id"].as_str().unwrap().to_string()
}

fn append(path: &std::path::Path, text: &str) {
    use std::io::Write;
    let mut file = std::fs::OpenOptions::new().create(true).append(true).open(path).unwrap();
    file.write_all(text.as_bytes()).unwrap();
}

#[test]
fn follow_goes_on_through_rotation_truncation_and_removal() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("rotated.jsonl");
    append(&path, &format!("{}\n", record_line("evt_first", 5)));
    let mut child = KillOnDrop::new(
        Command::new(env!("CARGO_BIN_EXE_webhook"))
            .args(["journal", path.to_str().unwrap(), "--follow", "--format", "json"])
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap(),
    );
    let lines = line_feed(child.stdout.take().unwrap());
    let notes = line_feed(child.stderr.take().unwrap());
    assert_eq!(next_id(&lines), "evt_first");
    // A line written in two parts is printed once whole.
    let half = record_line("evt_halves", 5);
    append(&path, &half[..half.len() / 2]);
    std::thread::sleep(std::time::Duration::from_millis(500));
    append(&path, &format!("{}\n", &half[half.len() / 2..]));
    assert_eq!(next_id(&lines), "evt_halves");

    // Rotation: the old file gets one more line after it is renamed, then a new file appears.
    let old = dir.path().join("rotated.jsonl.1");
    std::fs::rename(&path, &old).unwrap();
    append(&old, &format!("{}\n", record_line("evt_late_in_old", 5)));
    append(&path, &format!("{}\n", record_line("evt_new_file", 5)));
    assert_eq!(next_id(&lines), "evt_late_in_old", "no line of the old file is lost");
    assert_eq!(next_id(&lines), "evt_new_file", "the new file is followed from its start");

    // Truncation: the file starts again, shorter than what was read, and is read from its start.
    for id in ["evt_a", "evt_b", "evt_c"] {
        append(&path, &format!("{}\n", record_line(id, 5)));
        assert_eq!(next_id(&lines), id);
    }
    std::fs::write(&path, format!("{}\n", record_line("evt_after_truncation", 5))).unwrap();
    assert_eq!(next_id(&lines), "evt_after_truncation");

    // Removal: said, and the follow waits for the path to come back.
    std::fs::remove_file(&path).unwrap();
    loop {
        let said = notes.recv_timeout(std::time::Duration::from_secs(60)).expect("the removal is said");
        if said.contains("waiting for it to appear again") {
            break;
        }
    }
    assert!(child.try_wait().unwrap().is_none(), "still following");
    append(&path, &format!("{}\n", record_line("evt_recreated", 5)));
    assert_eq!(next_id(&lines), "evt_recreated");
}

#[test]
fn filters_read_the_same_before_or_after_the_action() {
    let dir = tempfile::tempdir().unwrap();
    let path = written_journal(dir.path());
    let file = path.to_str().unwrap();
    for args in [
        vec![file, "--status", "5xx", "list"],
        vec![file, "list", "--status", "5xx"],
        vec![file, "list", "--type", "charge.*", "--status", "5xx"],
    ] {
        let (code, stdout, stderr) = journal(&args);
        assert_eq!(code, 0, "{args:?}: {stderr}");
        assert_eq!(ids(&stdout), ["evt_lost"], "{args:?}");
    }
}

/// A second run's journal, written by a real listener: the charge before the invoice, the invoice
/// delivered twice, a charge A never saw.
fn second_run_journal(dir: &std::path::Path) -> std::path::PathBuf {
    let path = dir.join("second.jsonl");
    let listener = Listener::with(SchemeKind::Stripe, |config| config.record = Some(path.clone()));
    for (id, event_type) in [
        ("evt_ch1", "charge.succeeded"),
        ("evt_inv1", "invoice.paid"),
        ("evt_inv1", "invoice.paid"),
        ("evt_new", "charge.succeeded"),
    ] {
        assert!(post(&listener.url("/hook"), &stripe_event(id, event_type)).status.is_success());
    }
    path
}

#[test]
fn diff_compares_two_runs_as_series_of_events() {
    let dir = tempfile::tempdir().unwrap();
    let a = written_journal(dir.path());
    let b = second_run_journal(dir.path());
    let (a, b) = (a.to_str().unwrap(), b.to_str().unwrap());
    let (code, json) = Run::webhook(["journal", a, "--diff", b, "--format", "json"]).code_and_json();
    assert_eq!(code, 1, "{json}");
    assert_eq!(json["same"], false);
    assert_eq!(json["only_a"], serde_json::json!(["evt_inv2", "evt_forged", "evt_lost"]));
    assert_eq!(json["only_b"], serde_json::json!(["evt_new"]));
    assert_eq!(json["both"], 2);
    assert_eq!((json["a"]["deliveries"].as_u64(), json["b"]["deliveries"].as_u64()), (Some(5), Some(4)));
    assert_eq!(json["delivered_differently"], serde_json::json!([{"event_id": "evt_inv1", "a": 1, "b": 2}]));
    assert_eq!(
        json["types"],
        serde_json::json!([
            {"event_type": "charge.refunded", "a": 1, "b": 0},
            {"event_type": "charge.succeeded", "a": 1, "b": 2},
            {"event_type": "invoice.paid", "a": 2, "b": 2},
            {"event_type": "invoice.payment_failed", "a": 1, "b": 0},
        ])
    );
    assert_eq!(json["first_divergence"], serde_json::json!({"position": 1, "a": "evt_inv1", "b": "evt_ch1"}));
    assert_eq!(json["shared_order_divergence"], serde_json::json!({"position": 1, "a": "evt_inv1", "b": "evt_ch1"}));

    let (code, human, stderr) = journal(&[a, "--diff", b]);
    assert_eq!(code, 1, "{stderr}");
    for expected in [
        "only in a (3): evt_inv2, evt_forged, evt_lost",
        "only in b (1): evt_new",
        "in both: 2 events",
        "delivered a different number of times: evt_inv1 (a 1, b 2)",
        "the events in both came in another order from #1: a evt_inv1, b evt_ch1",
        "the series differ from delivery #1: a evt_inv1, b evt_ch1",
    ] {
        assert!(human.contains(expected), "{expected:?} in\n{human}");
    }

    // The list's filters apply to both: the charges alone, in the same order but for the new one.
    let json = Run::webhook(["journal", a, "--diff", b, "--type", "charge.*", "--format", "json"]).finish().json();
    assert_eq!(json["only_a"], serde_json::json!(["evt_lost"]));
    assert_eq!(json["shared_order_divergence"], Value::Null);
    assert_eq!(json["first_divergence"], serde_json::json!({"position": 2, "a": "evt_lost", "b": "evt_new"}));

    // A journal against itself is the same series: exit 0.
    let (code, same, stderr) = journal(&[a, "--diff", a]);
    assert_eq!(code, 0, "{stderr}");
    assert!(same.contains("the two series are the same") && same.contains("only in a (0)"), "{same}");

    // No such second journal, or an action beside --diff: exit 2, said.
    let (code, _, stderr) = journal(&[a, "--diff", "/no/such/journal"]);
    assert_eq!(code, 2);
    assert!(stderr.contains("/no/such/journal"), "{stderr}");
    let (code, _, stderr) = journal(&[a, "--diff", b, "show", "evt_inv1"]);
    assert_eq!(code, 2);
    assert!(stderr.contains("--diff"), "{stderr}");
}

#[test]
fn ui_with_an_action_or_a_bad_address_says_what_to_change() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("journal.jsonl");
    std::fs::write(&path, "").unwrap();
    let file = path.to_str().unwrap();
    // `--ui` takes an optional address: the action would be read as one.
    for action in ["list", "show", "replay"] {
        let (code, _, stderr) = journal(&[file, "--ui", action]);
        assert_eq!(code, 2, "{stderr}");
        assert!(
            stderr.contains("--ui shows the whole journal in the inspector: leave out list, show and replay"),
            "{stderr}"
        );
    }
    let (code, _, stderr) = journal(&[file, "--ui", "localhost"]);
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("not an address: give one as IP:PORT"), "{stderr}");
}
