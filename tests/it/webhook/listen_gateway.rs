//! `webhook listen` as the gateway in front of an application: routing by event type, forward
//! retries, the application's own answer passed back (502 down, 504 timed out, --ack-always),
//! HTTP/2 forwarding, re-signing with a local secret, and the JSON lines. Real sockets throughout.
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use bytes::Bytes;
use http::StatusCode;
use serde_json::Value;

use crate::support::listen_process::Binary;
use crate::support::signed_deliveries::{json, post, stripe_event};
use crate::support::{CustomServer, Listener, Reply, SECRET, SeenRequest, dead_port, runtime, webhook};
use idem::testing::journal::read_journal;
use idem::testing::listen::{ForwardRetry, Route};
use idem::testing::scheme::SchemeKind;
use idem::testing::scheme::Secret;

/// An application that answers `statuses[n]` to its n-th request (the last one from then on) and
/// keeps every body it was sent.
fn app(statuses: &'static [u16]) -> (CustomServer, Arc<Mutex<Vec<SeenRequest>>>) {
    let seen: Arc<Mutex<Vec<SeenRequest>>> = Arc::default();
    let record = Arc::clone(&seen);
    let server = CustomServer::start(move |request: SeenRequest| {
        let status = statuses[request.sequence.min(statuses.len() - 1)];
        record.lock().unwrap().push(request);
        Reply::json(status, format!(r#"{{"app_status":{status}}}"#))
    });
    (server, seen)
}

fn event_ids(seen: &Mutex<Vec<SeenRequest>>) -> Vec<String> {
    seen.lock()
        .unwrap()
        .iter()
        .map(|request| serde_json::from_slice::<Value>(&request.body).unwrap()["id"].as_str().unwrap().to_string())
        .collect()
}

#[cfg(unix)]
#[test]
fn routes_send_each_event_type_to_its_application_and_json_lines_say_where() {
    let (billing, billing_seen) = app(&[200]);
    let (rest, rest_seen) = app(&[202]);
    let dir = tempfile::tempdir().unwrap();
    let journal = dir.path().join("journal.jsonl");
    let billing_route = format!("invoice.*={}", billing.url("/billing"));
    let rest_route = format!("*={}", rest.url("/rest"));
    let listener = Binary::start(&[
        "--scheme",
        "stripe",
        "--route",
        &billing_route,
        "--route",
        &rest_route,
        "--format",
        "json",
        "--record",
        journal.to_str().unwrap(),
    ]);
    let url = format!("{}/hook", listener.url);
    assert_eq!(post(&url, &stripe_event("evt_inv1", "invoice.paid")).status, StatusCode::OK);
    assert_eq!(post(&url, &stripe_event("evt_ch1", "charge.succeeded")).status, StatusCode::ACCEPTED);
    assert_eq!(post(&url, &stripe_event("evt_inv2", "invoice.payment_failed")).status, StatusCode::OK);
    let (_, lines, stderr) = listener.interrupt();
    assert_eq!(event_ids(&billing_seen), ["evt_inv1", "evt_inv2"]);
    assert_eq!(event_ids(&rest_seen), ["evt_ch1"]);

    let lines: Vec<Value> = crate::support::schemas::lines(lines.join("\n").as_bytes());
    assert_eq!(lines[0]["routes"], serde_json::json!([billing_route, rest_route]), "{stderr}");
    let deliveries: Vec<&Value> = lines.iter().filter(|line| line["event"] == "delivery").collect();
    assert_eq!(deliveries.len(), 3);
    assert_eq!(deliveries[0]["forward"]["url"], billing.url("/billing"));
    assert_eq!(deliveries[1]["forward"]["url"], rest.url("/rest"));
    assert_eq!(deliveries[1]["forward"]["status"], 202);
    assert_eq!(deliveries[1]["status"], 202, "the application's own status is passed back");
    assert!(deliveries.iter().all(|line| line.get("body").is_none()), "no body without --include-body");
    let (records, _) = read_journal(&journal).unwrap();
    let forwards: Vec<(&str, bool)> = records
        .iter()
        .map(|r| (r.forward.as_ref().unwrap().url.as_str(), r.forward.as_ref().unwrap().delivered))
        .collect();
    assert_eq!(forwards[1], (rest.url("/rest").as_str(), true));
}

#[test]
fn an_unmatched_event_type_is_acknowledged_without_a_forward() {
    let (billing, billing_seen) = app(&[200]);
    let listener = Listener::with(SchemeKind::Stripe, |config| {
        config.routes = vec![Route::parse(&format!("invoice.*={}", billing.url("/"))).unwrap()];
    });
    let answer = post(&listener.url("/"), &stripe_event("evt_x", "customer.created"));
    assert_eq!(answer.status, StatusCode::OK);
    assert_eq!(json(&answer)["received"], true);
    assert!(billing_seen.lock().unwrap().is_empty());
    assert_eq!(listener.summary().forwarded, 0);
}

#[test]
fn forwards_are_retried_until_the_application_recovers_and_the_journal_says_how_often() {
    let (target, seen) = app(&[500, 503, 200]);
    let dir = tempfile::tempdir().unwrap();
    let journal = dir.path().join("journal.jsonl");
    let listener = Listener::with(SchemeKind::Stripe, |config| {
        config.forward_to = Some(target.url("/app").parse().unwrap());
        config.forward_retry = ForwardRetry { retries: 3, backoff: Duration::from_millis(5) };
        config.record = Some(journal.clone());
    });
    let answer = post(&listener.url("/"), &stripe_event("evt_retry", "invoice.paid"));
    assert_eq!(answer.status, StatusCode::OK);
    assert_eq!(json(&answer)["app_status"], 200);
    assert_eq!(event_ids(&seen), ["evt_retry"; 3]);
    let (records, _) = read_journal(&journal).unwrap();
    let forward = records[0].forward.clone().unwrap();
    assert_eq!((forward.attempts, forward.status, forward.delivered), (3, Some(200), true));

    // Retries run out: the last answer is what the sender hears, and the journal says so.
    let (broken, seen) = app(&[500]);
    let listener = Listener::with(SchemeKind::Stripe, |config| {
        config.forward_to = Some(broken.url("/").parse().unwrap());
        config.forward_retry = ForwardRetry { retries: 2, backoff: Duration::from_millis(5) };
        config.record = Some(dir.path().join("broken.jsonl"));
    });
    assert_eq!(post(&listener.url("/"), &stripe_event("evt_broken", "a")).status, StatusCode::INTERNAL_SERVER_ERROR);
    assert_eq!(seen.lock().unwrap().len(), 3);
    let (records, _) = read_journal(&dir.path().join("broken.jsonl")).unwrap();
    let forward = records[0].forward.clone().unwrap();
    assert_eq!((forward.attempts, forward.status, forward.delivered), (3, Some(500), false));
    assert_eq!(records[0].status, 500);
}

#[test]
fn the_applications_500_reaches_the_sender_which_retries_until_it_is_processed() {
    let (target, seen) = app(&[500, 500, 200]);
    let listener = Listener::with(SchemeKind::Stripe, |config| {
        config.forward_to = Some(target.url("/app").parse().unwrap());
    });
    let output = webhook()
        .args(["send", &listener.url("/hook"), "--event", "stripe:invoice.paid", "--secret", SECRET])
        .args(["--max-attempts", "5", "--backoff", "10ms", "--format", "json"])
        .output()
        .unwrap();
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stdout));
    let report: Value = serde_json::from_slice(&output.stdout).unwrap();
    let statuses: Vec<u64> =
        report["deliveries"][0]["attempts"].as_array().unwrap().iter().map(|a| a["status"].as_u64().unwrap()).collect();
    assert_eq!(statuses, [500, 500, 200]);
    let ids = event_ids(&seen);
    assert_eq!(ids.len(), 3);
    assert!(ids.iter().all(|id| id == report["event_id"].as_str().unwrap()));
}

#[test]
fn a_down_application_is_502_a_slow_one_504_and_ack_always_acknowledges_both() {
    let down = format!("http://127.0.0.1:{}/", dead_port());
    let dir = tempfile::tempdir().unwrap();
    let journal = dir.path().join("journal.jsonl");
    let listener = Listener::with(SchemeKind::Stripe, |config| {
        config.forward_to = Some(down.parse().unwrap());
        config.forward_retry = ForwardRetry { retries: 1, backoff: Duration::from_millis(5) };
        config.record = Some(journal.clone());
    });
    let answer = post(&listener.url("/"), &stripe_event("evt_down", "a"));
    assert_eq!(answer.status, StatusCode::BAD_GATEWAY);
    assert_eq!(json(&answer)["type"].as_str().map(|t| t.ends_with("forward-failed")), Some(true));
    let (records, _) = read_journal(&journal).unwrap();
    let forward = records[0].forward.clone().unwrap();
    assert_eq!((forward.attempts, forward.status, forward.delivered), (2, None, false));
    assert!(forward.error.unwrap().contains("connect"));
    assert_eq!(listener.summary().forward_failed, 1);

    let slow = CustomServer::start_async(|_| {
        Box::pin(async {
            tokio::time::sleep(Duration::from_secs(5)).await;
            Reply::json(200, "{}")
        })
    });
    let listener = Listener::with(SchemeKind::Stripe, |config| {
        config.forward_to = Some(slow.url("/").parse().unwrap());
        config.forward_timeout = Duration::from_millis(200);
    });
    assert_eq!(post(&listener.url("/"), &stripe_event("evt_slow", "a")).status, StatusCode::GATEWAY_TIMEOUT);

    let listener = Listener::with(SchemeKind::Stripe, |config| {
        config.forward_to = Some(down.parse().unwrap());
        config.ack_always = true;
        config.record = Some(dir.path().join("ack.jsonl"));
    });
    let answer = post(&listener.url("/"), &stripe_event("evt_ack", "a"));
    assert_eq!(answer.status, StatusCode::OK);
    assert_eq!(json(&answer)["received"], true);
    let (records, _) = read_journal(&dir.path().join("ack.jsonl")).unwrap();
    assert_eq!(records[0].forward.as_ref().map(|forward| forward.delivered), Some(false), "journaled as failed");
}

/// An application that speaks HTTP/2 only (h2c with prior knowledge): an HTTP/1.1 request fails.
fn h2_only_app() -> (std::net::SocketAddr, Arc<AtomicUsize>, tokio::task::JoinHandle<()>) {
    let listener = runtime().block_on(tokio::net::TcpListener::bind("127.0.0.1:0")).unwrap();
    let addr = listener.local_addr().unwrap();
    let served = Arc::new(AtomicUsize::new(0));
    let counter = Arc::clone(&served);
    let task = runtime().spawn(async move {
        while let Ok((stream, _)) = listener.accept().await {
            let counter = Arc::clone(&counter);
            tokio::spawn(async move {
                let service = hyper::service::service_fn(move |request: http::Request<hyper::body::Incoming>| {
                    let counter = Arc::clone(&counter);
                    async move {
                        let version = format!("{:?}", request.version());
                        counter.fetch_add(1, Ordering::SeqCst);
                        let body = format!(r#"{{"version":"{version}"}}"#);
                        Ok::<_, std::convert::Infallible>(http::Response::new(http_body_util::Full::new(Bytes::from(
                            body,
                        ))))
                    }
                });
                let builder = hyper::server::conn::http2::Builder::new(hyper_util::rt::TokioExecutor::new());
                let _ = builder.serve_connection(hyper_util::rt::TokioIo::new(stream), service).await;
            });
        }
    });
    (addr, served, task)
}

#[test]
fn forward_http2_talks_h2c_to_an_http2_only_application() {
    let (addr, served, task) = h2_only_app();
    let over_h2 = Listener::with(SchemeKind::Stripe, |config| {
        config.forward_to = Some(format!("http://{addr}/").parse().unwrap());
        config.forward_http2 = true;
    });
    let answer = post(&over_h2.url("/"), &stripe_event("evt_h2", "a"));
    assert_eq!(answer.status, StatusCode::OK);
    assert_eq!(json(&answer)["version"], "HTTP/2.0");
    let over_h1 = Listener::with(SchemeKind::Stripe, |config| {
        config.forward_to = Some(format!("http://{addr}/").parse().unwrap());
    });
    assert_eq!(post(&over_h1.url("/"), &stripe_event("evt_h1", "a")).status, StatusCode::BAD_GATEWAY);
    assert_eq!(served.load(Ordering::SeqCst), 1);
    task.abort();
}

#[test]
fn re_sign_verifies_the_providers_signature_and_forwards_with_the_local_secret() {
    let local = Secret::new(b"whsec_local_development".to_vec()).unwrap();
    let app = Listener::with(SchemeKind::Stripe, |config| config.secret = local.clone());
    let gateway = Listener::with(SchemeKind::Stripe, |config| {
        config.forward_to = Some(app.url("/app").parse().unwrap());
        config.re_sign = Some(local.clone());
    });
    assert_eq!(post(&gateway.url("/"), &stripe_event("evt_resigned", "a")).status, StatusCode::OK);
    assert_eq!((app.summary().valid, app.summary().invalid), (1, 0), "the app verifies with the local secret");
    // Without --re-sign the provider's signature reaches the app, which does not hold that secret.
    let plain = Listener::with(SchemeKind::Stripe, |config| {
        config.forward_to = Some(app.url("/app").parse().unwrap());
    });
    assert_eq!(post(&plain.url("/"), &stripe_event("evt_plain", "a")).status, StatusCode::UNAUTHORIZED);
    // A forged delivery is refused before anything is re-signed.
    let forged = crate::support::signed_deliveries::Signed {
        headers: Vec::new(),
        body: Bytes::from_static(b"{\"id\":\"evt_f\"}"),
    };
    assert_eq!(post(&gateway.url("/"), &forged).status, StatusCode::UNAUTHORIZED);
    assert_eq!(app.summary().valid, 1);
}

#[test]
fn re_sign_replaces_a_signature_that_came_under_shopifys_unprefixed_header() {
    let local = Secret::new(b"shpss_local_development".to_vec()).unwrap();
    let app = Listener::with(SchemeKind::Shopify, |config| config.secret = local.clone());
    let gateway = Listener::with(SchemeKind::Shopify, |config| {
        config.forward_to = Some(app.url("/app").parse().unwrap());
        config.re_sign = Some(local.clone());
    });
    // As Shopify now sends it: the same headers without their `X-`.
    let mut delivery = crate::support::signed_deliveries::sign(
        SchemeKind::Shopify,
        "b1234-eefd-4c9e-9520-049845a02082",
        idem::testing::delivery::unix_now(),
        Some("orders/create"),
        br#"{"id":820982911946154508}"#,
    );
    for (name, _) in &mut delivery.headers {
        let unprefixed = name.as_str().strip_prefix("x-").unwrap().to_string();
        *name = http::HeaderName::from_bytes(unprefixed.as_bytes()).unwrap();
    }
    assert!(delivery.headers.iter().any(|(name, _)| name == "shopify-hmac-sha256"));
    let answer = post(&gateway.url("/"), &delivery);
    assert_eq!(answer.status, StatusCode::OK, "{}", String::from_utf8_lossy(&answer.body));
    assert_eq!((app.summary().valid, app.summary().invalid), (1, 0), "the provider's signature did not reach the app");
}

#[test]
fn gateway_flags_are_checked_before_listening() {
    for (args, says) in [
        (vec!["--route", "nourl"], "GLOB=URL"),
        (vec!["--forward-retries", "2"], "needs --forward-to or --route"),
        (vec!["--print-secret"], "--re-sign"),
    ] {
        let output = webhook()
            .args(["listen", "--addr", "127.0.0.1:0", "--scheme", "stripe", "--secret", SECRET])
            .args(&args)
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        assert!(
            String::from_utf8_lossy(&output.stderr).contains(says),
            "{args:?}: {}",
            String::from_utf8_lossy(&output.stderr)
        );
    }
}

#[test]
fn re_sign_with_a_public_key_is_refused_at_start_up_with_the_fix() {
    // The public half of the Standard Webhooks authors' Ed25519 test pair: it verifies, never signs.
    let public = "whpk_1SiA4o9hyqTCpIqC5V9HUakiiaeACeqfZTInDBbOir4=";
    let target = format!("http://127.0.0.1:{}/", dead_port());
    for scheme in [
        vec!["--scheme", "standard"],
        vec!["--scheme", "stripe"],
        vec!["--scheme", "auto", "--allow", "standard,stripe"],
    ] {
        let output = webhook()
            .args(["listen", "--addr", "127.0.0.1:0", "--secret", SECRET, "--forward-to", &target, "--re-sign", public])
            .args(&scheme)
            .timeout(Duration::from_secs(30))
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{scheme:?}: {stderr}");
        assert!(stderr.contains("whpk_") && stderr.contains("give the whsk_ secret key"), "{scheme:?}: {stderr}");
        assert!(!stderr.contains("1SiA4o9hyqTCpIqC5V9HUakiiaeACeqfZTInDBbOir4"), "the key is not echoed: {stderr}");
    }
}

#[test]
fn forward_retries_help_states_its_bound() {
    let output = webhook().args(["listen", "--help"]).output().unwrap();
    let help = String::from_utf8_lossy(&output.stdout).split_whitespace().collect::<Vec<_>>().join(" ");
    let retries = help.split("--forward-retries").nth(1).unwrap();
    let retries = &retries[..retries.find("--forward-backoff").unwrap()];
    assert!(retries.contains("(at most 20)"), "{retries}");
}

/// An application whose first request is answered 500 only once `release` is set, and every later
/// one 200 at once; it counts the requests it saw.
fn app_held_until(release: Arc<std::sync::atomic::AtomicBool>) -> (CustomServer, Arc<AtomicUsize>) {
    let seen = Arc::new(AtomicUsize::new(0));
    let count = Arc::clone(&seen);
    let server = CustomServer::start_async(move |request: SeenRequest| {
        count.fetch_add(1, Ordering::SeqCst);
        let release = Arc::clone(&release);
        Box::pin(async move {
            if request.sequence > 0 {
                return Reply::json(200, "{}");
            }
            while !release.load(Ordering::SeqCst) {
                tokio::time::sleep(Duration::from_millis(20)).await;
            }
            Reply::json(500, "{}")
        })
    });
    (server, seen)
}

#[test]
fn a_delivery_whose_sender_gave_up_is_still_forwarded_retried_journaled_and_counted() {
    let dir = tempfile::tempdir().unwrap();
    let journal = dir.path().join("journal.jsonl");
    let release = Arc::new(std::sync::atomic::AtomicBool::new(false));
    let (app, seen) = app_held_until(Arc::clone(&release));
    let listener = Binary::start(&[
        "--scheme",
        "stripe",
        "--record",
        journal.to_str().unwrap(),
        "--forward-to",
        &app.url("/app"),
        "--forward-retries",
        "2",
        "--forward-backoff",
        "100ms",
        "--format",
        "json",
    ]);
    // The sender gives up while the application still works on the first forward.
    let output = webhook()
        .args(["send", &format!("{}/hook", listener.url), "--scheme", "stripe", "--secret", SECRET])
        .args(["-d", r#"{"id":"evt_gave_up","type":"invoice.paid"}"#, "--timeout", "1s", "--max-attempts", "1"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1), "{}", String::from_utf8_lossy(&output.stdout));
    let said = String::from_utf8_lossy(&output.stdout);
    assert!(said.contains("no complete answer within"), "the sender timed out: {said}");
    assert_eq!(seen.load(Ordering::SeqCst), 1, "the application has the delivery");
    release.store(true, Ordering::SeqCst);

    // The forward goes on without the sender: the 500 is retried, the 200 journaled.
    let mut records = Vec::new();
    for _ in 0..600 {
        records = read_journal(&journal).map(|(records, _)| records).unwrap_or_default();
        if !records.is_empty() {
            break;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    assert_eq!(records.len(), 1, "the delivery is journaled");
    let forward = records[0].forward.as_ref().unwrap();
    assert_eq!((forward.status, forward.attempts, forward.delivered), (Some(200), 2, true), "{forward:?}");
    assert_eq!(records[0].event_id, "evt_gave_up");
    assert_eq!(seen.load(Ordering::SeqCst), 2, "retried once");

    let (_, lines, stderr) = listener.interrupt();
    let summary: Value = serde_json::from_str(lines.last().unwrap()).unwrap_or_else(|_| panic!("{lines:?} {stderr}"));
    let summary = &summary["summary"];
    assert_eq!((summary["received"].as_u64(), summary["journaled"].as_u64()), (Some(1), Some(1)), "{summary}");
    assert_eq!(summary["forwarded"], 1, "{summary}");
}

/// Peak resident memory of process `pid` so far, in KiB.
fn peak_kib(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    let line = status.lines().find_map(|line| line.strip_prefix("VmHWM:")).unwrap();
    line.trim().trim_end_matches("kB").trim().parse().unwrap()
}

#[test]
fn large_application_answers_are_refused_with_a_502_in_bounded_memory() {
    const ANSWER: usize = 32 << 20;
    let app = CustomServer::start(|_| Reply::json(200, format!("\"{}\"", "x".repeat(ANSWER - 2))));
    let listener = Binary::start(&["--scheme", "stripe", "--forward-to", &app.url("/")]);
    let url = format!("{}/hook", listener.url);
    let threads: Vec<_> = (0..4)
        .map(|thread| {
            let url = url.clone();
            std::thread::spawn(move || {
                (0..4)
                    .map(|n| post(&url, &stripe_event(&format!("evt_large_{thread}_{n}"), "invoice.paid")))
                    .collect::<Vec<_>>()
            })
        })
        .collect();
    for answer in threads.into_iter().flat_map(|thread| thread.join().unwrap()) {
        assert_eq!(answer.status, StatusCode::BAD_GATEWAY);
        let detail = json(&answer)["detail"].as_str().unwrap().to_string();
        assert!(detail.contains("answered 200 with a body over 1024 KiB"), "{detail}");
    }
    // 16 answers of 32 MiB went through the listener: it held none of them whole.
    let peak = peak_kib(listener.pid());
    assert!(peak < 128 * 1024, "the listener peaked at {peak} KiB");
    let _ = listener.interrupt();
}

#[test]
fn re_sign_file_reads_the_local_secret_from_a_file() {
    let local = "whsec_local_from_a_file";
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("local-secret");
    std::fs::write(&file, format!("{local}\n")).unwrap();
    let app =
        Listener::with(SchemeKind::Stripe, |config| config.secret = Secret::new(local.as_bytes().to_vec()).unwrap());
    let target = app.url("/app");
    let gateway =
        Binary::start(&["--scheme", "stripe", "--forward-to", &target, "--re-sign-file", file.to_str().unwrap()]);
    assert_eq!(post(&format!("{}/", gateway.url), &stripe_event("evt_from_file", "a")).status, StatusCode::OK);
    assert_eq!((app.summary().valid, app.summary().invalid), (1, 0), "signed with the file's secret, newline dropped");
    let (_, stdout, stderr) = gateway.interrupt();
    assert!(!stdout.join("\n").contains(local) && !stderr.contains(local), "the secret is not printed");
}
