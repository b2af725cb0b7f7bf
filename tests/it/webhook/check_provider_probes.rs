//! `webhook check` under a provider's scheme sends probes shaped like that provider's deliveries:
//! its event names in its event header (GitHub's `issues` opened and edited for the out-of-order
//! pair, Shopify's `orders/create` and `orders/updated`), its delivery ids (GUIDs) and one
//! User-Agent, its own. Judged by receivers written as people write them, which refuse event
//! names their provider does not send.
use std::sync::{Arc, Mutex};

use idem::testing::scheme::{SchemeKind, SchemeOptions, TimeWindow, build};
use serde_json::Value;

use crate::support::apps::PythonApp;
use crate::support::run::{Finished, Run};
use crate::support::{CustomServer, Reply, SECRET};

const GITHUB_SECRET: &str = "gh_validating_receiver";

/// The receiver of tests/apps/github_receiver_validating_event_names.py (`requires-order` gives
/// it the ordering bug) and `webhook check --scheme github` against it, with nothing chosen.
fn check_github_receiver(mode: &[&str]) -> (Finished, Vec<Value>) {
    let app = PythonApp::start("github_receiver_validating_event_names.py", &[&[GITHUB_SECRET], mode].concat());
    let finished = Run::webhook(["check", &app.url("/hooks"), "--scheme", "github", "--secret", GITHUB_SECRET])
        .format_json()
        .never_printing(GITHUB_SECRET)
        .finish();
    let journal: Value = serde_json::from_str(&app.get("/journal")).unwrap();
    (finished, journal.as_array().unwrap().clone())
}

fn text<'a>(entry: &'a Value, field: &str) -> &'a str {
    entry[field].as_str().unwrap_or_default()
}

#[test]
fn a_github_receiver_that_refuses_unknown_event_names_is_judged_on_githubs_own_events() {
    let (finished, journal) = check_github_receiver(&[]);
    let outcomes = finished.outcomes();
    assert_eq!(outcomes["valid-accepted"], "pass", "{}", finished.stdout);
    assert_eq!(outcomes["out-of-order-accepted"], "pass", "{}", finished.stdout);
    let evidence = finished.evidence("out-of-order-accepted");
    assert!(
        evidence.contains("github's own created/updated pair for one object: issues (action edited) sent before issues (action opened)"),
        "{evidence}"
    );
    // The unknown type is carried as GitHub carries an event name, and this receiver refuses it:
    // the advisory warning the check documents, about the header a GitHub receiver reads.
    assert_eq!(outcomes["unknown-event-acknowledged"], "warn");
    let evidence = finished.evidence("unknown-event-acknowledged");
    assert!(evidence.contains("idem_check.unknown_") && evidence.contains("400 Bad Request"), "{evidence}");
    assert_eq!(finished.code, 0, "advisory outcomes only: {}", finished.stdout);

    assert!(journal.len() > 10, "{journal:?}");
    let unknown: Vec<&Value> =
        journal.iter().filter(|entry| text(entry, "event").starts_with("idem_check.unknown_")).collect();
    assert_eq!(unknown.len(), 1, "only the unknown-event probe carries a made-up name: {journal:?}");
    for entry in &journal {
        let event = text(entry, "event");
        assert!(
            ["issues"].contains(&event) || event.starts_with("idem_check.unknown_"),
            "every probe names a GitHub event in X-GitHub-Event, not {event}: {entry}"
        );
        let delivery = text(entry, "delivery");
        assert!(uuid::Uuid::parse_str(delivery).is_ok(), "X-GitHub-Delivery is a GUID, not {delivery}: {entry}");
        let agents = entry["user_agents"].as_array().unwrap();
        assert_eq!(agents.len(), 1, "one User-Agent: {entry}");
        assert!(agents[0].as_str().unwrap().starts_with("GitHub-Hookshot/"), "{entry}");
    }
}

#[test]
fn a_github_receiver_that_refuses_an_edit_before_its_issue_was_opened_fails_out_of_order() {
    let (finished, _) = check_github_receiver(&["requires-order"]);
    let outcomes = finished.outcomes();
    assert_eq!(outcomes["valid-accepted"], "pass", "{}", finished.stdout);
    assert_eq!(outcomes["out-of-order-accepted"], "warn", "{}", finished.stdout);
    let evidence = finished.evidence("out-of-order-accepted");
    assert!(evidence.contains("issues (action edited) of object") && evidence.contains("409 Conflict"), "{evidence}");
    assert!(evidence.contains("issues (action opened) of object") && evidence.contains("200 OK"), "{evidence}");
    assert!(!evidence.contains("could not judge"), "{evidence}");
}

/// What a Shopify receiver saw of one request: its topic, its webhook id, its User-Agents.
struct Seen {
    topic: String,
    webhook_id: String,
    agents: Vec<String>,
}

#[test]
fn shopify_probes_carry_shopifys_topics_and_webhook_ids() {
    let seen: Arc<Mutex<Vec<Seen>>> = Arc::default();
    let record = Arc::clone(&seen);
    // A Shopify receiver that verifies the HMAC and handles the order topics it subscribed to.
    let server = CustomServer::start(move |request| {
        let header = |name: &str| request.headers.get(name).and_then(|v| v.to_str().ok()).unwrap_or("").to_string();
        let topic = header("x-shopify-topic");
        record.lock().unwrap().push(Seen {
            topic: topic.clone(),
            webhook_id: header("x-shopify-webhook-id"),
            agents: request
                .headers
                .get_all("user-agent")
                .iter()
                .map(|v| v.to_str().unwrap_or("").to_string())
                .collect(),
        });
        let scheme = build(SchemeKind::Shopify, &SchemeOptions::default());
        let key = scheme.key(&crate::support::secret()).unwrap();
        let window = TimeWindow::around_now(std::time::Duration::from_secs(300));
        if scheme.verify(&request.headers, &request.body, &key, window).is_err() {
            return Reply::json(401, "{}");
        }
        match topic.as_str() {
            "orders/create" | "orders/updated" | "orders/paid" => Reply::json(200, "{}"),
            _ => Reply::json(400, "{}"),
        }
    });
    let finished = Run::webhook(["check", &server.url("/hooks"), "--scheme", "shopify", "--secret", SECRET])
        .format_json()
        .never_printing(SECRET)
        .finish();
    let outcomes = finished.outcomes();
    assert_eq!(outcomes["valid-accepted"], "pass", "{}", finished.stdout);
    assert_eq!(outcomes["out-of-order-accepted"], "pass", "{}", finished.stdout);
    assert!(finished.evidence("out-of-order-accepted").contains("orders/updated sent before orders/create"));
    assert_eq!(outcomes["unknown-event-acknowledged"], "warn");
    // Read, then released: the receiver records the next run's requests under this lock.
    let seen = std::mem::take(&mut *seen.lock().unwrap());
    let topics: Vec<&str> = seen.iter().map(|seen| seen.topic.as_str()).collect();
    assert!(topics.contains(&"orders/updated") && topics.contains(&"orders/create"), "{topics:?}");
    for seen in &seen {
        assert!(
            ["orders/create", "orders/updated"].contains(&seen.topic.as_str())
                || seen.topic.starts_with("idem_check.unknown_"),
            "X-Shopify-Topic {}",
            seen.topic
        );
        assert!(uuid::Uuid::parse_str(&seen.webhook_id).is_ok(), "X-Shopify-Webhook-Id {}", seen.webhook_id);
        assert_eq!(seen.agents, ["Shopify-Captain-Hook"], "one User-Agent, Shopify's");
    }

    // The chosen event's object picks the pair: Shopify's orders/paid is an order too.
    let finished = Run::webhook(["check", &server.url("/hooks"), "--scheme", "shopify", "--secret", SECRET])
        .args(["--event", "shopify:orders/paid"])
        .format_json()
        .never_printing(SECRET)
        .finish();
    assert_eq!(finished.outcomes()["out-of-order-accepted"], "pass", "{}", finished.stdout);
}

#[test]
fn gitlab_probes_name_gitlabs_hooks_and_the_issue_pair_by_its_action() {
    // Each request's X-Gitlab-Event, X-Gitlab-Webhook-UUID and number of User-Agents.
    type Seen = Vec<(String, String, usize)>;
    let seen: Arc<Mutex<Seen>> = Arc::default();
    let record = Arc::clone(&seen);
    // A token as people choose them, of no MAC's length: `truncated-signature-rejected` cuts the
    // whole token, as it has no prefix or encoding to find.
    let token = "gitlab-hooks-token-2026".to_string();
    let expected = token.clone();
    // A GitLab receiver as its docs show one: the secret token compared, then the hooks it handles.
    let server = CustomServer::start(move |request| {
        let header = |name: &str| request.headers.get(name).and_then(|v| v.to_str().ok()).unwrap_or("").to_string();
        let event = header("x-gitlab-event");
        let agents = request.headers.get_all("user-agent").iter().count();
        record.lock().unwrap().push((event.clone(), header("x-gitlab-webhook-uuid"), agents));
        if header("x-gitlab-token") != expected {
            return Reply::json(401, "{}");
        }
        match event.as_str() {
            "Issue Hook" | "Push Hook" | "Merge Request Hook" => Reply::json(200, "{}"),
            _ => Reply::json(400, "{}"),
        }
    });
    let finished = Run::webhook(["check", &server.url("/hooks"), "--scheme", "gitlab", "--secret", &token])
        .format_json()
        .never_printing(&token)
        .finish();
    let outcomes = finished.outcomes();
    assert_eq!(outcomes["valid-accepted"], "pass", "{}", finished.stdout);
    assert_eq!(outcomes["out-of-order-accepted"], "pass", "{}", finished.stdout);
    assert_eq!(outcomes["truncated-signature-rejected"], "pass", "{}", finished.stdout);
    let evidence = finished.evidence("out-of-order-accepted");
    assert!(evidence.contains("Issue Hook (action update) sent before Issue Hook (action open)"), "{evidence}");
    let seen = std::mem::take(&mut *seen.lock().unwrap());
    for (event, delivery, agents) in &seen {
        assert!(event == "Issue Hook" || event.starts_with("idem_check.unknown_"), "X-Gitlab-Event {event}");
        assert!(uuid::Uuid::parse_str(delivery).is_ok(), "X-Gitlab-Webhook-UUID {delivery}");
        assert_eq!(*agents, 1, "one User-Agent");
    }
}
