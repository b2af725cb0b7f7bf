//! `webhook listen` through real sockets on port 0: in-process listeners for the behaviour of each
//! verdict and flag, the real binary for its output, Ctrl-C and a SIGKILL in the middle of a burst.
use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use bytes::Bytes;
use http::{HeaderName, HeaderValue, Request, StatusCode};
use idem::testing::client::{ClientOptions, HttpClient};
use idem::testing::delivery::unix_now;
use idem::testing::journal::JournalRecord;
use idem::testing::journal::read_journal;
use idem::testing::listen::ListenConfig;
use idem::testing::listen::SchemeSelection;
use idem::testing::scheme::{SchemeKind, SchemeOptions};
use serde_json::Value;

use crate::support::listen_process::Binary;
use crate::support::signed_deliveries::{Signed, client, json, post, post_with, sign, stripe_event};
use crate::support::{CustomServer, Listener, Reply, SECRET, dead_port, runtime, secret, webhook};

fn journal(path: &Path) -> Vec<JournalRecord> {
    let (records, warning) = read_journal(path).expect("the journal reads back");
    assert_eq!(warning, None);
    crate::support::schemas::lines(&std::fs::read(path).unwrap());
    records
}

#[test]
fn valid_deliveries_are_acknowledged_and_journaled_before_the_answer() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("journal.jsonl");
    let listener = Listener::with(SchemeKind::Stripe, |config| config.record = Some(path.clone()));
    let answer = post(&listener.url("/webhooks?x=1"), &stripe_event("evt_valid", "invoice.paid"));
    assert_eq!(answer.status, StatusCode::OK);
    assert_eq!(json(&answer)["event_id"], "evt_valid");
    // Journaled before the answer was sent: already on file.
    let records = journal(&path);
    assert_eq!(records.len(), 1);
    let record = &records[0];
    assert_eq!((record.method.as_str(), record.path.as_str()), ("POST", "/webhooks?x=1"));
    assert_eq!(record.event_id, "evt_valid");
    assert_eq!(record.event_type.as_deref(), Some("invoice.paid"));
    assert!(record.verdict.valid && record.verdict.scheme.as_deref() == Some("stripe"));
    assert_eq!((record.duplicate, record.attempt, record.status), (false, 1, 200));
    assert!(record.headers.iter().any(|(name, _)| name == "stripe-signature"));
    assert!(record.remote.as_deref().is_some_and(|remote| remote.starts_with("127.0.0.1:")));
    let summary = listener.shutdown();
    assert_eq!((summary.received, summary.valid, summary.journaled), (1, 1, 1));
    assert_eq!(summary.by_event_type.get("invoice.paid"), Some(&1));
}

#[test]
fn fsync_journals_concurrent_deliveries_through_the_blocking_pool() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("journal.jsonl");
    let listener = Listener::with(SchemeKind::Stripe, |config| {
        config.record = Some(path.clone());
        config.fsync = true;
    });
    let url = listener.url("/");
    let senders: Vec<_> = (0..4)
        .map(|sender| {
            let url = url.clone();
            runtime().spawn(async move {
                let client = client(false);
                for n in 0..5 {
                    let signed = stripe_event(&format!("evt_sync_{sender}_{n}"), "a");
                    let mut request = Request::post(&url).body(signed.body.clone()).unwrap();
                    request.headers_mut().extend(signed.headers);
                    assert_eq!(client.send(request).await.unwrap().status, StatusCode::OK);
                }
            })
        })
        .collect();
    for sender in senders {
        runtime().block_on(sender).unwrap();
    }
    assert_eq!(journal(&path).len(), 20);
    assert_eq!(listener.shutdown().journaled, 20);
}

#[test]
fn every_invalid_reason_gets_401_and_is_recorded_with_it() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("journal.jsonl");
    let listener = Listener::with(SchemeKind::Stripe, |config| config.record = Some(path.clone()));
    let url = listener.url("/hook");
    let good = stripe_event("evt_1", "invoice.paid");
    let unsigned = Signed { headers: Vec::new(), body: good.body.clone() };
    let malformed = Signed {
        headers: vec![(HeaderName::from_static("stripe-signature"), HeaderValue::from_static("garbage"))],
        body: good.body.clone(),
    };
    let stale = sign(SchemeKind::Stripe, "evt_2", unix_now() - 3600, None, br#"{"id":"evt_2"}"#);
    let tampered = Signed { headers: good.headers.clone(), body: Bytes::from_static(br#"{"id":"evt_1","amount":1}"#) };
    for signed in [&unsigned, &malformed, &stale, &tampered] {
        let answer = post(&url, signed);
        assert_eq!(answer.status, StatusCode::UNAUTHORIZED);
        assert_eq!(json(&answer)["type"], "/problems/invalid-signature");
    }
    let reasons: Vec<String> = journal(&path)
        .into_iter()
        .map(|record| {
            assert!(!record.verdict.valid);
            assert_eq!(record.status, 401);
            record.verdict.reason.unwrap()
        })
        .collect();
    assert!(reasons[0].contains("Stripe-Signature header is missing"), "{reasons:?}");
    assert!(reasons[1].contains("malformed"), "{reasons:?}");
    assert!(reasons[2].contains("outside the 5m tolerance") && reasons[2].contains("signature itself matches"));
    assert!(reasons[3].contains("signature does not match"), "{reasons:?}");
    assert!(reasons.iter().all(|reason| !reason.contains(SECRET)));
    assert_eq!(listener.summary().invalid, 4);
}

#[test]
fn repeats_are_acknowledged_as_duplicates_with_their_attempt_number() {
    let listener = Listener::with(SchemeKind::Standard, |_| {});
    let delivery = sign(SchemeKind::Standard, "msg_dup", unix_now(), None, br#"{"type":"user.created"}"#);
    let attempts: Vec<(u16, u64, bool)> = (0..3)
        .map(|_| {
            let answer = post(&listener.url("/"), &delivery);
            let body = json(&answer);
            (answer.status.as_u16(), body["attempt"].as_u64().unwrap(), body["duplicate"].as_bool().unwrap())
        })
        .collect();
    assert_eq!(attempts, [(200, 1, false), (200, 2, true), (200, 3, true)]);
    let summary = listener.shutdown();
    assert_eq!((summary.received, summary.duplicates), (3, 2));
    assert_eq!(summary.by_event_type.get("user.created"), Some(&3));
}

#[test]
fn event_ids_fall_back_to_the_body_id_then_its_hash() {
    let listener = Listener::with(SchemeKind::Hmac, |_| {});
    let with_id = sign(SchemeKind::Hmac, "unused", 0, None, br#"{"id":"evt_body"}"#);
    assert_eq!(json(&post(&listener.url("/"), &with_id))["event_id"], "evt_body");
    let plain = sign(SchemeKind::Hmac, "unused", 0, None, b"not json");
    let first = json(&post(&listener.url("/"), &plain));
    assert!(first["event_id"].as_str().unwrap().starts_with("sha256:"));
    assert_eq!(json(&post(&listener.url("/"), &plain))["duplicate"], true);
}

#[test]
fn accept_invalid_answers_2xx_but_still_records_the_delivery_as_invalid() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("journal.jsonl");
    let listener = Listener::with(SchemeKind::Github, |config| {
        config.accept_invalid = true;
        config.record = Some(path.clone());
    });
    let unsigned = Signed { headers: Vec::new(), body: Bytes::from_static(b"{}") };
    assert_eq!(post(&listener.url("/"), &unsigned).status, StatusCode::OK);
    let record = &journal(&path)[0];
    assert!(!record.verdict.valid && record.verdict.reason.as_deref().unwrap().contains("missing"));
    assert_eq!(record.status, 200);
    assert_eq!(listener.shutdown().invalid, 1);
}

#[test]
fn status_replaces_the_answer_of_accepted_deliveries_only() {
    let listener = Listener::with(SchemeKind::Stripe, |config| config.status = StatusCode::from_u16(503).ok());
    assert_eq!(post(&listener.url("/"), &stripe_event("evt_s", "a")).status.as_u16(), 503);
    let unsigned = Signed { headers: Vec::new(), body: Bytes::from_static(b"{}") };
    assert_eq!(post(&listener.url("/"), &unsigned).status.as_u16(), 401);
    let listener = Listener::with(SchemeKind::Stripe, |config| config.status = StatusCode::from_u16(204).ok());
    let answer = post(&listener.url("/"), &stripe_event("evt_t", "a"));
    assert_eq!((answer.status.as_u16(), answer.body.len()), (204, 0));
}

#[test]
fn fail_first_fails_the_first_attempts_of_each_event_and_counts_them() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("journal.jsonl");
    let listener = Listener::with(SchemeKind::Stripe, |config| {
        config.fail_first = 2;
        config.record = Some(path.clone());
    });
    let first = stripe_event("evt_a", "invoice.paid");
    let other = stripe_event("evt_b", "invoice.paid");
    let statuses: Vec<u16> = [&first, &first, &other, &first, &first]
        .into_iter()
        .map(|signed| post(&listener.url("/"), signed).status.as_u16())
        .collect();
    assert_eq!(statuses, [500, 500, 500, 200, 200]);
    let attempts: Vec<(String, u32, bool, u16)> = journal(&path)
        .into_iter()
        .map(|record| (record.event_id, record.attempt, record.duplicate, record.status))
        .collect();
    // The first success is not a duplicate: nothing was acknowledged before it.
    assert_eq!(
        attempts,
        [
            ("evt_a".to_string(), 1, false, 500),
            ("evt_a".to_string(), 2, false, 500),
            ("evt_b".to_string(), 1, false, 500),
            ("evt_a".to_string(), 3, false, 200),
            ("evt_a".to_string(), 4, true, 200),
        ]
    );
    let summary = listener.shutdown();
    assert_eq!((summary.failed_on_purpose, summary.duplicates), (3, 1));
}

#[test]
fn delay_holds_the_answer_but_the_delivery_is_journaled_first() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("journal.jsonl");
    let listener = Listener::with(SchemeKind::Stripe, |config| {
        config.delay = Duration::from_secs(30);
        config.record = Some(path.clone());
    });
    let impatient =
        HttpClient::new(ClientOptions { timeout: Duration::from_millis(300), insecure: false, http2: false }).unwrap();
    let err = post_with(&impatient, &listener.url("/"), &stripe_event("evt_slow", "a"), &[]).unwrap_err();
    assert!(format!("{err:#}").contains("no complete answer"), "{err:#}");
    assert_eq!(journal(&path)[0].event_id, "evt_slow");
}

#[test]
fn forwarding_passes_bytes_and_headers_on_and_relays_the_answer() {
    let seen = Arc::new(Mutex::new(Vec::new()));
    let recorder = Arc::clone(&seen);
    let target = CustomServer::start(move |request| {
        recorder.lock().unwrap().push((request.method, request.path, request.headers, request.body));
        Reply { status: 201, headers: vec![("content-type", "text/plain".into())], body: "made it".into() }
    });
    let listener = Listener::with(SchemeKind::Stripe, |config| {
        config.forward_to = Some(target.url("/app/hooks").parse().unwrap());
    });
    // Odd spacing and a trailing newline: a re-serialised body would lose them.
    let body = format!("{{ \"id\" : \"evt_fwd\",\n  \"type\":\"a\", \"created\": {} }}\n", unix_now());
    let signed = sign(SchemeKind::Stripe, "evt_fwd", unix_now(), None, body.as_bytes());
    let answer = post_with(&client(false), &listener.url("/incoming"), &signed, &[("x-trace", "t-1")]).unwrap();
    assert_eq!((answer.status.as_u16(), &answer.body[..]), (201, &b"made it"[..]));
    assert_eq!(answer.headers["content-type"], "text/plain");
    let seen = seen.lock().unwrap();
    let (method, path, headers, forwarded_body) = &seen[0];
    assert_eq!((method.as_str(), path.as_str()), ("POST", "/app/hooks"));
    assert_eq!(forwarded_body, &signed.body);
    assert_eq!(headers["stripe-signature"], signed.headers[0].1);
    assert_eq!(headers["x-trace"], "t-1");
    assert_eq!(headers["host"], target.addr.to_string());
    assert_eq!(listener.shutdown().forwarded, 1);
}

#[test]
fn a_forward_the_app_answers_with_an_error_is_counted_apart_from_those_done() {
    let target = CustomServer::start(|request| match request.body.windows(8).any(|w| w == b"evt_fail") {
        true => Reply::json(500, r#"{"error":"boom"}"#),
        false => Reply::json(200, "{}"),
    });
    let listener = Listener::with(SchemeKind::Stripe, |config| {
        config.forward_to = Some(target.url("/app").parse().unwrap());
    });
    assert_eq!(post(&listener.url("/"), &stripe_event("evt_fail", "a")).status.as_u16(), 500);
    assert_eq!(post(&listener.url("/"), &stripe_event("evt_done", "a")).status.as_u16(), 200);
    let summary = listener.shutdown();
    assert_eq!((summary.forwarded, summary.forward_errors, summary.forward_failed), (1, 1, 0), "{summary:?}");
}

#[test]
fn a_forward_target_that_is_down_gets_the_sender_502() {
    let listener = Listener::with(SchemeKind::Stripe, |config| {
        config.forward_to = Some(format!("http://127.0.0.1:{}/", dead_port()).parse().unwrap());
    });
    let answer = post(&listener.url("/"), &stripe_event("evt_down", "a"));
    assert_eq!(answer.status, StatusCode::BAD_GATEWAY);
    assert!(json(&answer)["detail"].as_str().unwrap().contains("cannot connect"));
    assert_eq!(listener.shutdown().forward_failed, 1);
}

#[test]
fn dedupe_stops_repeats_and_invalid_deliveries_are_never_forwarded() {
    let hits = Arc::new(Mutex::new(0));
    let counter = Arc::clone(&hits);
    let target = CustomServer::start(move |_| {
        *counter.lock().unwrap() += 1;
        Reply::json(200, "{}")
    });
    let forward_to = target.url("/");
    let start = |dedupe| {
        Listener::with(SchemeKind::Stripe, |config| {
            config.forward_to = Some(forward_to.parse().unwrap());
            config.dedupe = dedupe;
        })
    };
    let delivery = stripe_event("evt_once", "a");
    let listener = start(true);
    for _ in 0..3 {
        assert_eq!(post(&listener.url("/"), &delivery).status, StatusCode::OK);
    }
    let unsigned = Signed { headers: Vec::new(), body: Bytes::from_static(b"{}") };
    assert_eq!(post(&listener.url("/"), &unsigned).status, StatusCode::UNAUTHORIZED);
    assert_eq!(*hits.lock().unwrap(), 1);
    drop(listener);
    let listener = start(false);
    post(&listener.url("/"), &delivery);
    post(&listener.url("/"), &delivery);
    assert_eq!(*hits.lock().unwrap(), 3);
}

#[test]
fn bodies_over_the_limit_get_413_whether_declared_or_streamed() {
    let listener = Listener::with(SchemeKind::Hmac, |config| config.max_body = 1024);
    let big = sign(SchemeKind::Hmac, "x", 0, None, &[b'a'; 2048]);
    assert_eq!(post(&listener.url("/"), &big).status, StatusCode::PAYLOAD_TOO_LARGE);
    // Chunked, so the size is only known while reading.
    let mut stream = TcpStream::connect(listener.addr()).unwrap();
    let chunk = "b".repeat(1500);
    write!(
        stream,
        "POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n{:x}\r\n{chunk}\r\n0\r\n\r\n",
        chunk.len()
    )
    .unwrap();
    let mut answer = String::new();
    let _ = stream.read_to_string(&mut answer);
    assert!(answer.starts_with("HTTP/1.1 413"), "{answer}");
    let fits = sign(SchemeKind::Hmac, "x", 0, None, &[b'a'; 1000]);
    assert_eq!(post(&listener.url("/"), &fits).status, StatusCode::OK);
    assert_eq!(listener.shutdown().rejected, 2);
}

#[test]
fn path_restricts_where_deliveries_are_received_and_only_post_is_accepted() {
    let listener = Listener::with(SchemeKind::Stripe, |config| config.path = Some("/hook".into()));
    let delivery = stripe_event("evt_p", "a");
    assert_eq!(post(&listener.url("/hook"), &delivery).status, StatusCode::OK);
    assert_eq!(post(&listener.url("/other"), &delivery).status, StatusCode::NOT_FOUND);
    let get = Request::get(listener.url("/hook")).body(Bytes::new()).unwrap();
    let answer = runtime().block_on(client(false).send(get)).unwrap();
    assert_eq!(answer.status, StatusCode::METHOD_NOT_ALLOWED);
    assert_eq!(answer.headers["allow"], "POST");
}

#[test]
fn h2c_and_auto_detection_work_on_the_same_port_and_auto_locks_onto_the_first_valid_scheme() {
    let allow = SchemeSelection::Auto { allow: vec![SchemeKind::Github, SchemeKind::Standard] };
    let mut config = ListenConfig::local(allow, secret());
    config.scheme_options = SchemeOptions::default();
    let listener = Listener::start(config);
    let unsigned = Signed { headers: Vec::new(), body: Bytes::from_static(b"{}") };
    assert_eq!(post(&listener.url("/"), &unsigned).status, StatusCode::UNAUTHORIZED);
    let github = sign(SchemeKind::Github, "gh-1", 0, Some("push"), br#"{"ref":"main"}"#);
    let answer = post_with(&client(true), &listener.url("/"), &github, &[]).unwrap();
    assert_eq!((answer.status, answer.version), (StatusCode::OK, http::Version::HTTP_2));
    assert_eq!(json(&answer)["event_id"], "gh-1");
    // Locked onto GitHub by its first valid delivery: another scheme's signature is not judged.
    let standard = sign(SchemeKind::Standard, "msg_9", unix_now(), None, br#"{"type":"t"}"#);
    let refused = post(&listener.url("/"), &standard);
    assert_eq!(refused.status, StatusCode::UNAUTHORIZED);
    assert!(String::from_utf8_lossy(&refused.body).contains("locked onto github"));
    let summary = listener.shutdown();
    assert_eq!((summary.valid, summary.invalid), (1, 2));
    assert_eq!(summary.by_event_type.get("push"), Some(&1));
}

#[cfg(unix)]
#[test]
fn garbage_truncated_and_stalled_requests_never_stop_the_listener() {
    let listener = Listener::with(SchemeKind::Stripe, |_| {});
    // Clients that never finish their headers, held open for the whole test.
    let stalled: Vec<TcpStream> = (0..3)
        .map(|_| {
            let mut stream = TcpStream::connect(listener.addr()).unwrap();
            stream.write_all(b"POST /hook HTTP/1.1\r\nHost: x\r\nContent-Le").unwrap();
            stream
        })
        .collect();
    // Random bytes: hyper answers 400 or closes; either way only that connection suffers.
    let mut noise = TcpStream::connect(listener.addr()).unwrap();
    noise.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
    let bytes: Vec<u8> = (0..4096u32).map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8).collect();
    let _ = noise.write_all(&bytes);
    let mut answer = Vec::new();
    let _ = noise.read_to_end(&mut answer);
    assert!(answer.is_empty() || answer.starts_with(b"HTTP/1.1 400"), "{:?}", String::from_utf8_lossy(&answer));
    // A body cut short: the client promised 100 bytes, sent 10 and hung up.
    let mut truncated = TcpStream::connect(listener.addr()).unwrap();
    truncated.write_all(b"POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n0123456789").unwrap();
    truncated.shutdown(std::net::Shutdown::Write).unwrap();
    let _ = truncated.read_to_end(&mut Vec::new());
    // Headers that are not headers.
    let mut broken = TcpStream::connect(listener.addr()).unwrap();
    broken.write_all(b"POST / HTTP/1.1\r\nthis is not a header\r\n\r\n").unwrap();
    let mut answer = String::new();
    let _ = broken.read_to_string(&mut answer);
    assert!(answer.is_empty() || answer.starts_with("HTTP/1.1 400"), "{answer}");

    for n in 0..5 {
        let answer = post(&listener.url("/hook"), &stripe_event(&format!("evt_ok{n}"), "a"));
        assert_eq!(answer.status, StatusCode::OK);
    }
    drop(stalled);
    assert_eq!(listener.summary().valid, 5);
}

#[cfg(unix)]
#[test]
fn json_lines_output_parses_back_and_ctrl_c_prints_the_summary() {
    let listener = Binary::start(&["--scheme", "stripe", "--format", "json", "-v"]);
    let url = format!("{}/hook", listener.url);
    let delivery = stripe_event("evt_json", "invoice.paid");
    post(&url, &delivery);
    post(&url, &delivery);
    post(&url, &Signed { headers: Vec::new(), body: Bytes::from_static(b"{\"id\":\"evt_bad\"}") });
    let get = Request::get(&url).body(Bytes::new()).unwrap();
    runtime().block_on(client(false).send(get)).unwrap();
    let (code, lines, stderr) = listener.interrupt();
    assert_eq!(code, 1, "an invalid delivery makes the exit status 1; stderr: {stderr}");
    let events: Vec<Value> = crate::support::schemas::lines(lines.join("\n").as_bytes());
    let kinds: Vec<&str> = events.iter().map(|event| event["event"].as_str().unwrap()).collect();
    assert_eq!(kinds, ["listening", "delivery", "delivery", "delivery", "rejected", "summary"]);
    assert_eq!(events[0]["scheme"], "stripe");
    let first = &events[1];
    assert_eq!((first["event_id"].as_str(), first["valid"].as_bool()), (Some("evt_json"), Some(true)));
    assert_eq!((first["attempt"].as_u64(), first["status"].as_u64()), (Some(1), Some(200)));
    assert_eq!(first["body"].as_str().map(|body| body.as_bytes()), Some(&delivery.body[..]));
    assert!(first["headers"].as_array().unwrap().iter().any(|pair| pair[0] == "stripe-signature"));
    assert_eq!((events[2]["duplicate"].as_bool(), events[2]["attempt"].as_u64()), (Some(true), Some(2)));
    assert_eq!(events[3]["reason_code"], "header_missing");
    assert_eq!(events[4]["status"], 405);
    let summary = &events[5]["summary"];
    assert_eq!((summary["received"].as_u64(), summary["valid"].as_u64()), (Some(3), Some(2)));
    assert_eq!((summary["invalid"].as_u64(), summary["duplicates"].as_u64()), (Some(1), Some(1)));
    assert_eq!(summary["rejected"], 1);
    assert_eq!(summary["by_event_type"]["invoice.paid"], 2);
    assert!(!lines.concat().contains(SECRET) && !stderr.contains(SECRET));
}

#[cfg(unix)]
#[test]
fn human_output_shows_each_delivery_and_a_clean_shutdown_summary() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("journal.jsonl");
    let record = path.to_str().unwrap();
    let listener = Binary::start(&["--scheme", "stripe", "--record", record, "--fail-first", "1"]);
    assert!(listener.url.starts_with("http://127.0.0.1:"));
    let delivery = stripe_event("evt_human", "invoice.paid");
    assert_eq!(post(&listener.url, &delivery).status.as_u16(), 500);
    assert_eq!(post(&listener.url, &delivery).status.as_u16(), 200);
    let (code, lines, stderr) = listener.interrupt();
    assert_eq!(code, 0, "stderr: {stderr}");
    let text = lines.join("\n");
    assert!(text.starts_with("webhook listen on http://127.0.0.1:"), "{text}");
    assert!(text.contains("misbehaving on purpose: the first 1 attempt(s) of each event get 500"), "{text}");
    assert!(text.contains("✓ valid          invoice.paid evt_human → 500  failing on purpose"), "{text}");
    assert!(text.contains("✓ valid #2       invoice.paid evt_human → 200"), "{text}");
    assert!(text.contains("summary: 2 deliveries: 2 valid, 0 invalid, 0 duplicates, 1 failed on purpose"), "{text}");
    assert!(text.contains("journal: 2 lines"), "{text}");
    assert!(!text.contains(SECRET));
    assert_eq!(journal(&path).len(), 2);
}

#[cfg(unix)]
#[test]
fn sigterm_stops_as_cleanly_as_ctrl_c() {
    let listener = Binary::start(&["--scheme", "stripe"]);
    post(&listener.url, &stripe_event("evt_term", "a"));
    let (code, lines, stderr) = listener.signal("-TERM");
    assert_eq!(code, 0, "stderr: {stderr}");
    assert!(lines.iter().any(|line| line.starts_with("summary: 1 delivery: 1 valid")), "{lines:?}");
}

#[test]
fn acknowledged_deliveries_survive_a_sigkill_in_the_middle_of_a_burst() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("journal.jsonl");
    let mut listener = Binary::start(&["--scheme", "standard", "--record", path.to_str().unwrap()]);
    let url = listener.url.clone();
    let acknowledged = Arc::new(Mutex::new(Vec::new()));
    let senders: Vec<_> = (0..4)
        .map(|sender| {
            let url = url.clone();
            let acknowledged = Arc::clone(&acknowledged);
            runtime().spawn(async move {
                let client = client(false);
                for n in 0..5_000 {
                    let id = format!("msg_{sender}_{n}");
                    let body = format!(r#"{{"type":"burst","n":{n}}}"#);
                    let signed = sign(SchemeKind::Standard, &id, unix_now(), None, body.as_bytes());
                    let mut request = Request::post(&url).body(signed.body.clone()).unwrap();
                    request.headers_mut().extend(signed.headers);
                    match client.send(request).await {
                        Ok(answer) if answer.status.is_success() => acknowledged.lock().unwrap().push(id),
                        Ok(answer) => panic!("{id} got {}", answer.status),
                        Err(_) => return,
                    }
                }
            })
        })
        .collect();
    while acknowledged.lock().unwrap().len() < 300 {
        std::thread::sleep(Duration::from_millis(5));
    }
    listener.child.kill().unwrap();
    listener.child.wait().unwrap();
    for sender in senders {
        runtime().block_on(sender).unwrap();
    }
    let acknowledged = acknowledged.lock().unwrap().clone();
    let (records, warning) = read_journal(&path).expect("the journal reads back after a SIGKILL");
    if let Some(warning) = warning {
        assert!(warning.contains("incomplete"), "{warning}");
    }
    let journaled: std::collections::HashSet<String> = records.into_iter().map(|record| record.event_id).collect();
    let lost: Vec<&String> = acknowledged.iter().filter(|id| !journaled.contains(*id)).collect();
    assert!(
        lost.is_empty(),
        "{} of {} acknowledged deliveries are not in the journal: {lost:?}",
        lost.len(),
        acknowledged.len()
    );
    assert!(journaled.len() >= acknowledged.len());
}

#[test]
fn usage_errors_exit_2_and_name_the_problem() {
    webhook()
        .args(["listen", "--scheme", "hmac", "--secret", "s", "--fsync"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains("--record"));
    webhook()
        .args(["listen", "--scheme", "hmac", "--secret", "s", "--status", "99"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains("from 200 to 599"));
    webhook()
        .args(["listen", "--scheme", "hmac"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains("no signing secret"));
    webhook()
        .args(["listen", "--scheme", "hmac", "--secret", "s", "--path", "hook"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains("must start with /"));
    webhook()
        .args(["listen", "--secret", "s", "--scheme", "standard", "--addr", "127.0.0.1:0"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains("--scheme standard"));
}

#[test]
fn concurrent_copies_are_duplicates_and_with_dedupe_only_one_is_forwarded() {
    let hits = Arc::new(Mutex::new(0));
    let counter = Arc::clone(&hits);
    // The application holds its answer until the listener has answered the four other copies (a
    // delivery is counted once answered), so they arrive while the first is still being forwarded
    // however loaded the machine is.
    let all_received = Arc::new(std::sync::atomic::AtomicBool::new(false));
    let released = Arc::clone(&all_received);
    let target = CustomServer::start_async(move |_| {
        *counter.lock().unwrap() += 1;
        let released = Arc::clone(&released);
        Box::pin(async move {
            let deadline = tokio::time::Instant::now() + Duration::from_secs(20);
            while !released.load(std::sync::atomic::Ordering::SeqCst) && tokio::time::Instant::now() < deadline {
                tokio::time::sleep(Duration::from_millis(5)).await;
            }
            Reply::json(200, "{}")
        })
    });
    let forward_to = target.url("/");
    let listener = Listener::with(SchemeKind::Stripe, |config| {
        config.forward_to = Some(forward_to.parse().unwrap());
        config.dedupe = true;
    });
    let delivery = stripe_event("evt_together", "a");
    let url = listener.url("/");
    let copies: Vec<_> = (0..5)
        .map(|_| {
            let mut request = Request::post(&url).body(delivery.body.clone()).unwrap();
            for (name, value) in &delivery.headers {
                request.headers_mut().append(name.clone(), value.clone());
            }
            let client = client(false);
            runtime().spawn(async move { client.send(request).await })
        })
        .collect();
    let waiting = std::time::Instant::now();
    while listener.summary().received < 4 && waiting.elapsed() < Duration::from_secs(20) {
        std::thread::sleep(Duration::from_millis(5));
    }
    all_received.store(true, std::sync::atomic::Ordering::SeqCst);
    let mut statuses: Vec<u16> =
        copies.into_iter().map(|copy| runtime().block_on(copy).unwrap().unwrap().status.as_u16()).collect();
    statuses.sort();
    assert_eq!(statuses, [200, 409, 409, 409, 409], "one forwarded, the copies told to retry");
    assert_eq!(*hits.lock().unwrap(), 1, "the application saw the event once");
    // After the first is acknowledged, a retry is a plain duplicate: acknowledged, not forwarded.
    assert_eq!(post(&url, &delivery).status, StatusCode::OK);
    assert_eq!(*hits.lock().unwrap(), 1);
    let summary = listener.shutdown();
    assert_eq!((summary.received, summary.duplicates), (6, 5));
}

#[test]
fn every_answer_is_stamped_with_its_arrival() {
    let listener = Listener::with(SchemeKind::Stripe, |_| {});
    let before = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_nanos();
    let valid = post(&listener.url("/webhooks"), &stripe_event("evt_stamped", "invoice.paid"));
    let after = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_nanos();
    assert_eq!(valid.status, StatusCode::OK);
    let stamp = valid.headers.get("server-timing").and_then(|value| value.to_str().ok()).expect("Server-Timing");
    let nanos: u128 = stamp
        .strip_prefix("arrival;desc=\"")
        .and_then(|rest| rest.strip_suffix('"'))
        .and_then(|nanos| nanos.parse().ok())
        .unwrap_or_else(|| panic!("{stamp}"));
    assert!((before..=after).contains(&nanos), "{before} <= {nanos} <= {after}");
    // A refusal is stamped too: the stamp says when the request arrived, whatever the answer.
    let mut forged = stripe_event("evt_forged", "invoice.paid");
    forged.body = Bytes::from_static(b"{\"id\":\"evt_forged\",\"type\":\"changed\"}");
    let refused = post(&listener.url("/webhooks"), &forged);
    assert_ne!(refused.status, StatusCode::OK);
    assert!(refused.headers.get("server-timing").is_some_and(|v| v.as_bytes().starts_with(b"arrival;desc=")));
    listener.shutdown();
}
