//! `webhook send --as PROVIDER` (and by default `--event PROVIDER:TYPE`) delivers as the provider
//! does, judged by a receiver that records when each attempt arrived and with which headers:
//! GitHub once, Slack's retries overlapping a slow receiver with X-Slack-Retry-Num/-Reason,
//! Stripe's schedule scaled by --time-scale; explicit flags win. Only the order and relative
//! size of gaps are compared, never wall-clock values.
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::support::run::Run;
use crate::support::{CustomServer, Reply};

/// One request as the receiver saw it.
#[derive(Clone)]
struct Arrival {
    at: Instant,
    headers: http::HeaderMap,
    /// When the receiver answered it (a held request answers late).
    answered: Option<Instant>,
}

/// A receiver that records every request and answers `status`; with `hold_first`, the first
/// request is held until a second one arrives (or 20 s pass), as a receiver slower than Slack's
/// three seconds.
struct Recorder {
    server: CustomServer,
    seen: Arc<Mutex<Vec<Arrival>>>,
}

impl Recorder {
    fn start(status: u16, hold_first: bool) -> Recorder {
        let seen: Arc<Mutex<Vec<Arrival>>> = Arc::default();
        let log = Arc::clone(&seen);
        let server = CustomServer::start_async(move |request| {
            let log = Arc::clone(&log);
            let index = {
                let mut log = log.lock().unwrap();
                log.push(Arrival { at: Instant::now(), headers: request.headers, answered: None });
                log.len() - 1
            };
            Box::pin(async move {
                if hold_first && index == 0 {
                    let given_up = Instant::now() + Duration::from_secs(20);
                    while log.lock().unwrap().len() < 2 && Instant::now() < given_up {
                        tokio::time::sleep(Duration::from_millis(20)).await;
                    }
                    let status = if log.lock().unwrap().len() >= 2 { 200 } else { 599 };
                    log.lock().unwrap()[0].answered = Some(Instant::now());
                    return Reply::json(status, "{}");
                }
                log.lock().unwrap()[index].answered = Some(Instant::now());
                Reply::json(status, "{}")
            })
        });
        Recorder { server, seen }
    }

    fn url(&self) -> String {
        self.server.url("/hook")
    }

    fn arrivals(&self) -> Vec<Arrival> {
        self.seen.lock().unwrap().clone()
    }
}

fn header(arrival: &Arrival, name: &str) -> Option<String> {
    arrival.headers.get(name).map(|value| value.to_str().unwrap().to_string())
}

fn send(url: &str, args: &[&str]) -> (i32, Value) {
    Run::webhook(["send", url, "--secret", "s3cr3t", "--format", "json"]).args(args).code_and_json()
}

fn attempts(report: &Value) -> Vec<Value> {
    report["deliveries"][0]["attempts"].as_array().unwrap().clone()
}

/// The gaps between consecutive arrivals.
fn gaps(arrivals: &[Arrival]) -> Vec<Duration> {
    arrivals.windows(2).map(|pair| pair[1].at - pair[0].at).collect()
}

#[test]
fn github_delivers_once_and_never_retries_a_failure() {
    let receiver = Recorder::start(500, false);
    let (code, report) = send(&receiver.url(), &["--event", "github:push"]);
    assert_eq!(code, 1, "{report:#}");
    assert_eq!(report["behaves_as"], "github");
    assert_eq!(report["max_attempts"], 1);
    let arrivals = receiver.arrivals();
    assert_eq!(arrivals.len(), 1, "GitHub does not redeliver failed deliveries");
    assert!(header(&arrivals[0], "user-agent").unwrap().starts_with("GitHub-Hookshot/"));
    assert!(header(&arrivals[0], "x-slack-retry-num").is_none());
}

#[test]
fn as_github_signs_with_github_and_draws_a_guid_delivery_id() {
    let receiver = Recorder::start(200, false);
    let (code, report) = send(&receiver.url(), &["--as", "github", "-d", r#"{"zen":"Keep it logically awesome."}"#]);
    assert_eq!(code, 0, "{report:#}");
    assert_eq!(report["scheme"], "github");
    let arrival = &receiver.arrivals()[0];
    let delivery = header(arrival, "x-github-delivery").unwrap_or_else(|| report["delivery_id"].to_string());
    assert_eq!(delivery.len(), 36, "a GUID: {delivery}");
    assert_eq!(delivery.matches('-').count(), 4, "a GUID: {delivery}");
    assert!(header(arrival, "x-hub-signature-256").unwrap().starts_with("sha256="));
    assert!(header(arrival, "user-agent").unwrap().starts_with("GitHub-Hookshot/"));
}

#[test]
fn explicit_retry_flags_replace_the_providers_schedule() {
    let receiver = Recorder::start(500, false);
    let (code, report) = send(
        &receiver.url(),
        &["--event", "github:push", "--max-attempts", "3", "--backoff", "1ms", "--backoff-max", "2ms"],
    );
    assert_eq!(code, 1, "{report:#}");
    assert_eq!(receiver.arrivals().len(), 3);
    assert_eq!(report["behaves_as"], "github", "still GitHub's headers");
    assert!(header(&receiver.arrivals()[2], "user-agent").unwrap().starts_with("GitHub-Hookshot/"));
}

#[test]
fn slack_retries_while_a_slow_first_attempt_is_still_held() {
    // The first attempt is held until the retry arrives: only a sender that does not wait for
    // it (Slack gives up after 3 s and retries at once, leaving it running) ever sends one.
    let receiver = Recorder::start(200, true);
    let (code, report) = send(&receiver.url(), &["--event", "slack:message", "--time-scale", "0.001"]);
    assert_eq!(code, 0, "{report:#}");
    assert_eq!(report["behaves_as"], "slack");
    let arrivals = receiver.arrivals();
    assert_eq!(arrivals.len(), 2, "the first held, one retry delivered");
    let (first, retry) = (&arrivals[0], &arrivals[1]);
    assert!(
        retry.at < first.answered.expect("the first attempt was answered"),
        "the retry came while the first was held"
    );
    assert!(header(first, "x-slack-retry-num").is_none() && header(first, "x-slack-retry-reason").is_none());
    assert_eq!(header(retry, "x-slack-retry-num").as_deref(), Some("1"));
    assert_eq!(header(retry, "x-slack-retry-reason").as_deref(), Some("http_timeout"));
    assert!(header(retry, "x-slack-signature").unwrap().starts_with("v0="), "each attempt signed");
    assert!(header(retry, "user-agent").unwrap().starts_with("Slackbot 1.0"));
    let attempts = attempts(&report);
    assert!(attempts[0]["error"].as_str().unwrap().starts_with("no answer within 3s"), "{report:#}");
    assert_eq!(attempts[0]["late_status"], 200, "the first attempt was left running, not cancelled: {report:#}");
    assert_eq!(attempts[1]["status"], 200);
}

#[test]
fn slack_numbers_each_retry_and_waits_longer_before_the_later_ones() {
    let receiver = Recorder::start(500, false);
    let (code, report) = send(&receiver.url(), &["--event", "slack:app_mention", "--time-scale", "0.002"]);
    assert_eq!(code, 1, "{report:#}");
    let arrivals = receiver.arrivals();
    assert_eq!(arrivals.len(), 4, "the first attempt and three retries");
    let numbers: Vec<Option<String>> = arrivals.iter().map(|a| header(a, "x-slack-retry-num")).collect();
    assert_eq!(numbers, [None, Some("1".into()), Some("2".into()), Some("3".into())]);
    assert!(arrivals[1..].iter().all(|a| header(a, "x-slack-retry-reason").as_deref() == Some("http_error")));
    let planned: Vec<f64> = attempts(&report).iter().map(|a| a["planned_wait_ms"].as_f64().unwrap()).collect();
    assert_eq!(planned, [0.0, 0.0, 120.0, 600.0], "immediately, 1m and 5m, scaled by 0.002");
    let gaps = gaps(&arrivals);
    assert!(gaps[2] > gaps[1] && gaps[1] > gaps[0], "the waits grow: {gaps:?}");
}

#[test]
fn stripe_follows_its_schedule_scaled_with_its_user_agent() {
    let receiver = Recorder::start(503, false);
    let (code, report) = send(&receiver.url(), &["--event", "stripe:charge.succeeded", "--time-scale", "0.0002"]);
    assert_eq!(code, 1, "{report:#}");
    assert_eq!(report["behaves_as"], "stripe");
    let arrivals = receiver.arrivals();
    assert_eq!(arrivals.len(), 3, "Stripe's test-mode schedule: three attempts");
    let planned: Vec<f64> = attempts(&report).iter().map(|a| a["planned_wait_ms"].as_f64().unwrap()).collect();
    assert_eq!(planned, [0.0, 720.0, 1440.0], "0s, 1h, 2h scaled by 0.0002");
    let gaps = gaps(&arrivals);
    assert!(gaps[1] > gaps[0], "the second wait is the longer: {gaps:?}");
    assert!(
        arrivals
            .iter()
            .all(|a| header(a, "user-agent").as_deref() == Some("Stripe/1.0 (+https://stripe.com/docs/webhooks)"))
    );
    assert!(arrivals.iter().all(|a| header(a, "x-slack-retry-num").is_none()));
}

#[test]
fn a_failed_attempt_says_when_the_retry_comes() {
    let receiver = Recorder::start(500, false);
    let (code, stdout, _) = Run::webhook([
        "send",
        &receiver.url(),
        "--secret",
        "s3cr3t",
        "--event",
        "stripe:invoice.paid",
        "--time-scale",
        "0.0001",
    ])
    .finish()
    .parts();
    assert_eq!(code, 1, "{stdout}");
    assert!(stdout.contains("as stripe") && stdout.contains("up to 3 attempts"), "{stdout}");
    let line = stdout.lines().find(|line| line.contains("attempt 1/3")).unwrap();
    let at = line.split("retry in 360ms (at ").nth(1).unwrap_or_else(|| panic!("{line}"));
    let time = &at[..8];
    assert!(
        time.chars().enumerate().all(|(i, c)| if i == 2 || i == 5 { c == ':' } else { c.is_ascii_digit() }),
        "a time of day: {line}"
    );
}

#[test]
fn replay_as_slack_adds_the_retry_headers() {
    let dir = tempfile::tempdir().unwrap();
    let events = dir.path().join("events.jsonl");
    std::fs::write(&events, "{\"id\":\"evt_1\",\"type\":\"invoice.paid\"}\n").unwrap();
    let receiver = Recorder::start(500, false);
    let (code, report) = Run::webhook([
        "replay",
        events.to_str().unwrap(),
        &receiver.url(),
        "--scheme",
        "hmac",
        "--secret",
        "s3cr3t",
        "--as",
        "slack",
        "--time-scale",
        "0.0001",
        "--format",
        "json",
    ])
    .code_and_json();
    assert_eq!(code, 1, "{report:#}");
    assert_eq!(report["behaves_as"], "slack");
    let arrivals = receiver.arrivals();
    assert_eq!(arrivals.len(), 4);
    assert_eq!(header(&arrivals[3], "x-slack-retry-num").as_deref(), Some("3"));
    assert_eq!(header(&arrivals[3], "x-slack-retry-reason").as_deref(), Some("http_error"));
}
