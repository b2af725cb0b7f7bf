//! The inspector (`webhook listen --ui`, `webhook journal FILE --ui`) and `--format html` reports,
//! in a real headless Chromium: the page needs its token, deliveries appear live, a forgery is
//! marked with its reason, a detail shows the application's answer, filters narrow the list, a
//! request from another origin is refused, and a report renders its table and its drawing.
//! `REGENERATE=1` also writes the screenshots shown in docs/listen.md and the README.
use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Command, Stdio};

use http::StatusCode;
use idem::testing::scheme::SchemeKind;

use crate::support::browser::Browser;
use crate::support::generated_files::regenerate;
use crate::support::run::Run;
use crate::support::signed_deliveries::{Signed, post, stripe_event};
use crate::support::{CustomServer, KillOnDrop, Listener, Reply};

/// Where the screenshots go, under `REGENERATE=1`.
fn screenshot_path(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("docs/images").join(name)
}

/// The inspector's URL without its token.
fn without_token(url: &str) -> &str {
    url.split('?').next().unwrap()
}

fn row(event_id: &str) -> String {
    format!("document.querySelector('tr[data-event-id=\"{event_id}\"]')")
}

fn an_app_answering_202() -> CustomServer {
    CustomServer::start(|_| Reply {
        status: 202,
        headers: vec![("content-type", "application/json".into()), ("x-app-trace", "trace-42".into())],
        body: r#"{"queued":true,"job":"job_7"}"#.into(),
    })
}

#[test]
#[ignore = "needs chromium (installed by .ci/run)"]
fn the_listeners_inspector_needs_its_token_and_shows_deliveries_live_with_verdicts_and_answers() {
    let app = an_app_answering_202();
    let listener = Listener::with(SchemeKind::Stripe, |config| {
        config.ui = Some("127.0.0.1:0".parse().unwrap());
        config.forward_to = Some(app.url("/app").parse().unwrap());
    });
    let url = listener.inspector_url();
    let mut browser = Browser::start();

    browser.goto(without_token(&url));
    let refused = browser.eval("document.body.innerText");
    assert!(refused.as_str().unwrap().contains("needs the token"), "{refused}");
    assert_eq!(browser.eval("document.querySelector('table') === null"), true, "nothing served without the token");

    browser.goto(&url);
    browser.wait_for("document.getElementById('state').textContent === 'live'", "its live feed open");
    assert_eq!(post(&listener.url("/hook"), &stripe_event("evt_live1", "invoice.paid")).status, StatusCode::ACCEPTED);
    browser.wait_for(&row("evt_live1"), "the delivery sent after it opened");
    let forged = Signed {
        headers: Vec::new(),
        body: bytes::Bytes::from_static(br#"{"id":"evt_forged","type":"invoice.paid"}"#),
    };
    assert_eq!(post(&listener.url("/hook"), &forged).status, StatusCode::UNAUTHORIZED);
    browser.wait_for(&row("evt_forged"), "the forgery");
    let verdict = browser.eval(&format!("{}.querySelector('.verdict').textContent", row("evt_forged")));
    assert!(verdict.as_str().unwrap().starts_with("✗ header_missing: "), "{verdict}");
    let valid = browser.eval(&format!("{}.querySelector('.verdict').textContent", row("evt_live1")));
    assert_eq!(valid, "✓ valid");

    browser.eval(&format!("{}.click()", row("evt_live1")));
    browser.wait_for("document.querySelector('#detail .answer-body')", "the detail's forward answer");
    let detail = browser.eval("document.getElementById('detail').innerText").as_str().unwrap().to_string();
    assert!(detail.contains("x-app-trace") && detail.contains("trace-42"), "{detail}");
    assert!(detail.contains("\"job\": \"job_7\"") && detail.contains("202 in "), "{detail}");
    assert!(detail.contains("stripe-signature"), "the signature header is shown: {detail}");
    if regenerate() {
        browser.screenshot(&screenshot_path("inspector.png"));
    }

    // A request that would change something is refused from another origin; the page's own
    // origin passes that gate (and finds nothing to change).
    let own = browser.eval(
        "fetch('/api/deliveries?token=' + new URLSearchParams(location.search).get('token'), {method: 'POST'}) \
         .then(r => r.status)",
    );
    assert_eq!(own, 405, "the page's own origin is not refused as cross-origin");
    let (host, target) = url.strip_prefix("http://").unwrap().split_once('/').unwrap();
    let mut socket = std::net::TcpStream::connect(host).unwrap();
    write!(
        socket,
        "POST /api/deliveries{} HTTP/1.1\r\nHost: {host}\r\nOrigin: http://evil.example\r\nContent-Length: 0\r\n\
         Connection: close\r\n\r\n",
        target.trim_start_matches('/')
    )
    .unwrap();
    let mut answer = String::new();
    std::io::Read::read_to_string(&mut socket, &mut answer).unwrap();
    assert!(answer.starts_with("HTTP/1.1 403") && answer.contains("cross-origin"), "{answer}");

    // A page elsewhere that points its own name at 127.0.0.1 (DNS rebinding) sends that name.
    let mut socket = std::net::TcpStream::connect(host).unwrap();
    write!(socket, "GET /{target} HTTP/1.1\r\nHost: evil.example\r\nConnection: close\r\n\r\n").unwrap();
    let mut answer = String::new();
    std::io::Read::read_to_string(&mut socket, &mut answer).unwrap();
    assert!(answer.starts_with("HTTP/1.1 421"), "{answer}");
}

#[test]
#[ignore = "needs chromium (installed by .ci/run)"]
fn the_journals_inspector_lists_what_was_recorded_then_what_is_appended_and_filters_it() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("journal.jsonl");
    let listener = Listener::with(SchemeKind::Stripe, |config| config.record = Some(path.clone()));
    assert_eq!(post(&listener.url("/hook"), &stripe_event("evt_inv1", "invoice.paid")).status, StatusCode::OK);
    assert_eq!(post(&listener.url("/hook"), &stripe_event("evt_ch1", "charge.succeeded")).status, StatusCode::OK);
    let mut child = Command::new(env!("CARGO_BIN_EXE_webhook"))
        .args(["journal", path.to_str().unwrap(), "--ui"])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut first = String::new();
    BufReader::new(child.stdout.take().unwrap()).read_line(&mut first).unwrap();
    let _inspector = KillOnDrop::new(child);
    let url = first.trim().strip_prefix("inspector: ").unwrap_or_else(|| panic!("{first}")).to_string();
    assert!(url.starts_with("http://127.0.0.1:"), "loopback by default: {url}");

    let mut browser = Browser::start();
    browser.goto(&url);
    browser.wait_for(&format!("{} && {}", row("evt_inv1"), row("evt_ch1")), "the recorded deliveries");
    assert_eq!(post(&listener.url("/hook"), &stripe_event("evt_inv2", "invoice.voided")).status, StatusCode::OK);
    browser.wait_for(&row("evt_inv2"), "the delivery appended while it was open");
    browser.eval(
        "const type = document.getElementById('filter-type'); type.value = 'invoice.*'; \
         type.dispatchEvent(new Event('input'))",
    );
    browser.wait_for(&format!("!{}", row("evt_ch1")), "the charge filtered out");
    let shown = browser.eval("[...document.querySelectorAll('#deliveries tr')].map(r => r.dataset.eventId)");
    assert_eq!(shown, serde_json::json!(["evt_inv2", "evt_inv1"]));
    browser.eval(
        "const text = document.getElementById('filter-text'); text.value = 'voided'; \
         text.dispatchEvent(new Event('input'))",
    );
    browser.wait_for(&format!("!{}", row("evt_inv1")), "the text search narrowing it");
}

#[test]
#[ignore = "needs chromium (installed by .ci/run)"]
fn an_html_report_renders_its_table_and_its_timeline() {
    let server = CustomServer::start(|request| Reply::json(201, format!(r#"{{"id":"pay_{}"}}"#, request.sequence)));
    let html = Run::idem(["race", &server.url("/payments"), "-d", "{}", "-n", "5", "--format", "html"])
        .expect_exit(1)
        .finish()
        .stdout;
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("race.html");
    std::fs::write(&file, html).unwrap();
    let mut browser = Browser::start();
    browser.goto(&format!("file://{}", file.display()));
    assert_eq!(browser.eval("document.querySelectorAll('tr[data-answer]').length"), 5);
    let drawn = browser.eval(
        "(() => { const box = document.querySelector('svg[data-drawing=timeline]').getBoundingClientRect(); \
         return box.width > 400 && box.height > 100; })()",
    );
    assert_eq!(drawn, true, "the timeline is drawn at its size");
    let bars = browser.eval(
        "[...document.querySelectorAll('svg[data-drawing=timeline] rect')].filter(r => r.getBoundingClientRect().width > 0).length",
    );
    assert_eq!(bars, 5, "a bar per duplicate");
    let verdict = browser.eval("getComputedStyle(document.getElementById('verdict')).color");
    assert_eq!(verdict, "rgb(207, 34, 46)", "the verdict is in the colour of a failure");
    if regenerate() {
        browser.screenshot(&screenshot_path("race-report.png"));
    }
}

#[test]
#[ignore = "needs chromium (installed by .ci/run)"]
fn a_delivery_edited_and_re_signed_in_the_page_reaches_a_receiver_that_verifies_it_and_diffs_with_its_origin() {
    let inspected = Listener::with(SchemeKind::Stripe, |config| config.ui = Some("127.0.0.1:0".parse().unwrap()));
    let receiver = Listener::with(SchemeKind::Stripe, |_| {});
    assert_eq!(post(&inspected.url("/hook"), &stripe_event("evt_edit1", "invoice.paid")).status, StatusCode::OK);
    let mut browser = Browser::start();
    browser.goto(&inspected.inspector_url());
    browser.wait_for(&row("evt_edit1"), "the delivery");
    browser.eval(&format!("{}.click()", row("evt_edit1")));
    browser.wait_for("document.getElementById('resend-body')", "the edit form");
    browser.eval(&format!(
        "const body = document.getElementById('resend-body'); body.value = body.value.replace('100', '999'); \
         document.getElementById('resend-url').value = '{}'; document.getElementById('resend-send').click()",
        receiver.url("/again")
    ));
    browser.wait_for("document.getElementById('resend-result').textContent.startsWith('sent: row #2')", "the send");
    let summary = receiver.summary();
    assert_eq!(
        (summary.received, summary.valid),
        (1, 1),
        "the edited delivery was re-signed with the listener's secret"
    );
    browser.wait_for("document.querySelector('tr[data-origin=\"1\"]')", "the new row linked to its origin");
    let answered = browser.eval("document.querySelector('tr[data-origin=\"1\"]').children[5].textContent");
    assert_eq!(answered, "200", "the receiver's answer");

    browser.eval(&format!("{}.click()", row("evt_edit1")));
    browser.wait_for("document.getElementById('diff-with')", "the diff form");
    browser.eval("document.getElementById('diff-with').value = '2'; document.getElementById('diff-go').click()");
    browser.wait_for("document.querySelector('#diff tr')", "the diff");
    let changed = browser.eval(
        "[...document.querySelectorAll('#diff tr[data-kind=changed]')].map(r => [r.dataset.path, r.children[2].textContent, r.children[3].textContent])",
    );
    let changed = changed.as_array().unwrap();
    assert!(changed.contains(&serde_json::json!(["body /data/amount", "100", "999"])), "{changed:?}");
    assert!(
        changed.iter().any(|line| line[0] == "header stripe-signature"),
        "re-signed: a fresh signature: {changed:?}"
    );
}

/// A raw HTTP/1.1 exchange with `host`: the whole answer, status line first.
fn exchange(host: &str, request: &str) -> String {
    let mut socket = std::net::TcpStream::connect(host).unwrap();
    socket.write_all(request.as_bytes()).unwrap();
    let mut answer = String::new();
    std::io::Read::read_to_string(&mut socket, &mut answer).unwrap();
    answer
}

#[test]
#[ignore = "needs chromium (installed by .ci/run)"]
fn the_inspector_under_a_path_of_the_listeners_own_port_needs_its_token_and_never_takes_deliveries() {
    let listener = Listener::with(SchemeKind::Stripe, |config| config.ui_path = Some("/_idem".into()));
    let url = listener.inspector_url();
    assert!(url.starts_with(&listener.url("/_idem/?token=")), "{url}");
    let host = url.strip_prefix("http://").unwrap().split('/').next().unwrap().to_string();

    // Deliveries still reach the listener on its port; one posted to the prefix is refused, said why.
    assert!(post(&listener.url("/hook"), &stripe_event("evt_before", "invoice.paid")).status.is_success());
    let refused = post(&listener.url("/_idem/api/resend"), &stripe_event("evt_misrouted", "invoice.paid"));
    assert_eq!(refused.status, StatusCode::FORBIDDEN);
    let without = exchange(&host, &format!("GET /_idem/ HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n"));
    assert!(without.starts_with("HTTP/1.1 403") && without.contains("not a delivery path"), "{without}");
    assert!(!without.contains("<table"), "nothing served without the token");
    // Without its trailing slash, the page is sent one slash further (its API is relative).
    let target = url.split_once(&host).unwrap().1;
    let bare = target.replacen("/_idem/", "/_idem", 1);
    let moved = exchange(&host, &format!("GET {bare} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n"));
    assert!(moved.starts_with("HTTP/1.1 308") && moved.contains(&format!("location: {target}")), "{moved}");

    let mut browser = Browser::start();
    browser.goto(&url);
    browser.wait_for("document.getElementById('state').textContent === 'live'", "its live feed open");
    browser.wait_for(&row("evt_before"), "the delivery sent before it opened");
    assert!(post(&listener.url("/hook"), &stripe_event("evt_after", "charge.succeeded")).status.is_success());
    browser.wait_for(&row("evt_after"), "the delivery sent after it opened");
    assert_eq!(browser.eval(&format!("{} === null", row("evt_misrouted"))), true, "the refused one is no delivery");
}

#[test]
fn ui_path_is_refused_when_it_is_no_path_or_overlaps_the_delivery_path() {
    for (args, said) in [
        (vec!["--ui-path", "_idem"], "must be a path"),
        (vec!["--ui-path", "/_idem", "--path", "/_idem/hook"], "overlaps --path"),
        (vec!["--ui-path", "/_idem", "--ui"], "cannot be used with"),
    ] {
        let (code, _, stderr) = Run::webhook(["listen", "--scheme", "stripe", "--secret", crate::support::SECRET])
            .args(&args)
            .finish()
            .parts();
        assert_eq!(code, 2, "{args:?}: {stderr}");
        assert!(stderr.contains(said), "{args:?}: {stderr}");
    }
}

#[test]
#[ignore = "needs chromium (installed by .ci/run)"]
fn the_journals_inspector_compares_it_with_a_second_run_and_follows_what_is_appended() {
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = (dir.path().join("a.jsonl"), dir.path().join("b.jsonl"));
    let second = Listener::with(SchemeKind::Stripe, |config| config.record = Some(b.clone()));
    for (id, event_type) in [("evt_ch1", "charge.succeeded"), ("evt_new", "charge.succeeded")] {
        assert_eq!(post(&second.url("/hook"), &stripe_event(id, event_type)).status, StatusCode::OK);
    }
    drop(second);
    let first = Listener::with(SchemeKind::Stripe, |config| config.record = Some(a.clone()));
    for (id, event_type) in [("evt_inv1", "invoice.paid"), ("evt_ch1", "charge.succeeded")] {
        assert_eq!(post(&first.url("/hook"), &stripe_event(id, event_type)).status, StatusCode::OK);
    }
    let mut child = Command::new(env!("CARGO_BIN_EXE_webhook"))
        .args(["journal", a.to_str().unwrap(), "--ui", "--compare", b.to_str().unwrap()])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap()).read_line(&mut line).unwrap();
    let _inspector = KillOnDrop::new(child);
    let url = line.trim().strip_prefix("inspector: ").unwrap_or_else(|| panic!("{line}")).to_string();

    let mut browser = Browser::start();
    browser.goto(&url);
    let shown = "document.getElementById('compare').innerText";
    browser.wait_for(&format!("{shown}.includes('only in b (1): evt_new')"), "the comparison");
    let text = browser.eval(shown).as_str().unwrap().to_string();
    for expected in
        ["only in a (1): evt_inv1", "in both: 1 events", "the series differ from delivery #1: a evt_inv1, b evt_ch1"]
    {
        assert!(text.contains(expected), "{expected:?} in\n{text}");
    }
    // What the first run's listener appends is compared as it comes.
    assert_eq!(post(&first.url("/hook"), &stripe_event("evt_new", "charge.succeeded")).status, StatusCode::OK);
    browser.wait_for(&format!("{shown}.includes('only in b (0)')"), "the comparison after the append");

    // Without --ui there is no page to compare in.
    let (code, _, stderr) =
        Run::webhook(["journal", a.to_str().unwrap(), "--compare", b.to_str().unwrap()]).finish().parts();
    assert_eq!(code, 2, "{stderr}");
}
