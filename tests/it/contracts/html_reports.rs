//! `--format html` on the suites and the races: one self-contained page each (no script, nothing
//! fetched, every string from the target escaped), whose verdict table says what the JSON says,
//! with an SVG for each drawing. The page is well-formed XML, so it is taken apart here with an
//! XML parser rather than searched as text. A browser renders one in `webhook/inspector.rs`.
use std::collections::HashMap;
use std::time::Duration;

use idem::testing::scheme::SchemeKind;
use idem::testing::serve::{Mode, ServeConfig};

use crate::support::run::Run;
use crate::support::webhook_receivers::{Flaws, receiver};
use crate::support::{CustomServer, Reply, SECRET, TestServer, suite_outcomes};

const PAYMENT: &str = r#"{"amount":1990,"currency":"EUR"}"#;
const HOSTILE: &str = "<img src=x onerror=alert(1)>";

/// What every report page owes: it parses, has no script, no event handler, loads nothing, and
/// holds a verdict.
fn assert_self_contained(html: &str) {
    let doc = roxmltree::Document::parse_with_options(
        html,
        roxmltree::ParsingOptions { allow_dtd: true, ..roxmltree::ParsingOptions::default() },
    )
    .unwrap_or_else(|err| panic!("not well-formed ({err}):\n{html}"));
    for node in doc.descendants().filter(|node| node.is_element()) {
        let name = node.tag_name().name();
        assert!(!["script", "iframe", "object", "embed", "link", "img"].contains(&name), "<{name}> in a report");
        for attribute in node.attributes() {
            assert!(!attribute.name().starts_with("on"), "an event handler {}= in a report", attribute.name());
            assert!(
                !["src", "href"].contains(&attribute.name()) || attribute.value().starts_with('#'),
                "{}={} fetches something",
                attribute.name(),
                attribute.value()
            );
        }
    }
    assert!(doc.descendants().any(|node| node.attribute("id") == Some("verdict")), "no verdict:\n{html}");
}

fn parse(html: &str) -> roxmltree::Document<'_> {
    roxmltree::Document::parse_with_options(
        html,
        roxmltree::ParsingOptions { allow_dtd: true, ..roxmltree::ParsingOptions::default() },
    )
    .unwrap()
}

/// The `data-NAME` values of the table rows that carry `key`, in order.
fn rows(html: &str, key: &str, name: &str) -> Vec<(String, String)> {
    parse(html)
        .descendants()
        .filter(|node| node.has_tag_name("tr"))
        .filter_map(|row| Some((row.attribute(key)?.to_string(), row.attribute(name)?.to_string())))
        .collect()
}

/// The drawings, by their `data-drawing` kind.
fn drawings(html: &str) -> Vec<String> {
    parse(html)
        .descendants()
        .filter(|node| node.tag_name().name() == "svg")
        .filter_map(|svg| svg.attribute("data-drawing").map(str::to_string))
        .collect()
}

#[test]
fn idem_check_html_has_a_row_per_check_with_the_outcome_the_json_gives() {
    let server = TestServer::start(ServeConfig { work: Duration::from_millis(20), ..ServeConfig::local(Mode::Naive) });
    let url = server.url("/payments");
    let only =
        ["--only", "create", "--only", "retry-replays", "--only", "concurrent-once", "--only", "mismatch-rejected"];
    let (_, report) = Run::idem(["check", &url, "-d", PAYMENT, "--format", "json"]).args(only).code_and_json();
    let finished = Run::idem(["check", &url, "-d", PAYMENT, "--format", "html"]).args(only).finish();
    assert_eq!(finished.code, 1, "the naive server fails, in HTML too: {}", finished.stderr);
    let html = finished.stdout;
    assert_self_contained(&html);
    let expected = suite_outcomes(&report);
    let shown: HashMap<String, String> = rows(&html, "data-check", "data-outcome").into_iter().collect();
    assert_eq!(shown, expected);
    assert!(expected.values().any(|outcome| outcome == "fail"), "{report:#}");
    // Each failing check's evidence and fix are on the page, under its own anchor.
    let doc = parse(&html);
    for check in report["checks"].as_array().unwrap().iter().filter(|check| check["outcome"] == "fail") {
        let anchor = format!("check-{}", check["id"].as_str().unwrap());
        let article = doc.descendants().find(|node| node.attribute("id") == Some(anchor.as_str())).unwrap();
        let text: String = article.descendants().filter_map(|node| node.text()).collect();
        assert!(text.contains(check["fix"].as_str().unwrap()), "{text}");
        assert!(text.contains(check["evidence"][0].as_str().unwrap()), "{text}");
    }
}

#[test]
fn idem_race_html_draws_the_timeline_and_escapes_what_the_server_said() {
    let server = CustomServer::start(|request| {
        Reply::json(201, format!(r#"{{"id":"{HOSTILE}-{}","status":"created"}}"#, request.sequence))
    });
    let url = server.url("/payments");
    let (code, report) = Run::idem(["race", &url, "-d", PAYMENT, "-n", "4", "--format", "json"]).code_and_json();
    assert_eq!((code, report["verdict"].as_str()), (1, Some("executed_more_than_once")), "{report:#}");
    let finished = Run::idem(["race", &url, "-d", PAYMENT, "-n", "4", "--format", "html"]).expect_exit(1).finish();
    let html = finished.stdout;
    assert_self_contained(&html);
    assert!(!html.contains(HOSTILE) && html.contains("&lt;img src=x onerror=alert(1)&gt;-"), "{html}");
    assert_eq!(drawings(&html), ["timeline"]);
    let lanes = parse(&html).descendants().filter(|node| node.attribute("class") == Some("lane")).count();
    assert_eq!(lanes, 4, "a lane per duplicate");
    assert_eq!(rows(&html, "data-round", "data-verdict"), [("1".to_string(), "executed more than once".to_string())]);
    assert_eq!(rows(&html, "data-answer", "data-answer").len(), 4);
}

#[test]
fn idem_window_html_draws_the_curve_with_a_point_per_step() {
    let server = TestServer::start(ServeConfig::local(Mode::Correct));
    let url = server.url("/payments");
    let args = ["window", url.as_str(), "-d", PAYMENT, "--max", "20ms", "--probes", "1"];
    let (code, report) = Run::idem(args).args(["--format", "json"]).code_and_json();
    assert_eq!((code, report["verdict"].as_str()), (0, Some("no_window")), "{report:#}");
    let html = Run::idem(args).args(["--format", "html"]).expect_exit(0).finish().stdout;
    assert_self_contained(&html);
    assert_eq!(drawings(&html), ["curve"]);
    let steps = report["steps"].as_array().unwrap();
    let points = parse(&html).descendants().filter(|node| node.has_tag_name("circle")).count();
    assert_eq!(points, steps.len(), "a point per step");
    let shown: Vec<String> = rows(&html, "data-spacing-us", "data-twice").into_iter().map(|(_, twice)| twice).collect();
    assert_eq!(shown, vec!["0".to_string(); steps.len()]);
}

#[test]
fn webhook_check_html_has_the_outcomes_the_json_gives() {
    let app = receiver(SchemeKind::Stripe, Flaws { ignores_timestamps: true, ..Flaws::default() });
    let url = app.url("/hooks");
    let args = ["check", url.as_str(), "--scheme", "stripe", "--secret", SECRET];
    let (_, report) = Run::webhook(args).args(["--format", "json"]).never_printing(SECRET).code_and_json();
    let finished = Run::webhook(args).args(["--format", "html"]).never_printing(SECRET).expect_exit(1).finish();
    assert_self_contained(&finished.stdout);
    let shown: HashMap<String, String> = rows(&finished.stdout, "data-check", "data-outcome").into_iter().collect();
    assert_eq!(shown, suite_outcomes(&report));
    assert_eq!(shown["stale-timestamp-rejected"], "fail", "{report:#}");
}

#[test]
fn webhook_race_html_draws_each_rounds_copies() {
    let app = CustomServer::start(|_| Reply::json(200, "{}"));
    let url = app.url("/hooks");
    let args = ["race", url.as_str(), "--scheme", "hmac", "--secret", SECRET, "-d", "{}", "-n", "3", "--rounds", "2"];
    let html = Run::webhook(args).args(["--format", "html"]).never_printing(SECRET).expect_exit(0).finish().stdout;
    assert_self_contained(&html);
    assert_eq!(drawings(&html), ["counts"]);
    assert_eq!(rows(&html, "data-round", "data-round").len(), 2);
    assert!(html.contains("200 ×3"), "{html}");
}

#[test]
fn check_sender_html_draws_the_senders_attempts() {
    let webhook = assert_cmd::cargo::cargo_bin("webhook").display().to_string();
    let script = format!(
        "\"{webhook}\" send \"$WEBHOOK_URL\" --scheme hmac --event payment.one --time-scale 0.001 --timeout 1s >/dev/null"
    );
    let finished = Run::webhook(["check-sender", "--addr", "127.0.0.1:0", "--format", "html", "--scheme", "hmac"])
        .env("WEBHOOK_SECRET", SECRET)
        .args(["--timeout", "20s", "--", "sh", "-c", &script])
        .never_printing(SECRET)
        .finish();
    let html = finished.stdout;
    assert_self_contained(&html);
    assert_eq!(drawings(&html), ["attempts"]);
    let marks = parse(&html)
        .descendants()
        .filter(|node| node.attribute("class").is_some_and(|c| c.starts_with("attempt ")))
        .count();
    assert_eq!(marks, 4, "500, hold, 429, 200: {html}");
    assert_eq!(rows(&html, "data-event", "data-event").len(), 4);
    assert!(!rows(&html, "data-check", "data-outcome").is_empty());
}

#[test]
fn idem_run_html_has_a_row_per_step_and_probe_with_the_outcomes_the_json_gives() {
    use crate::support::apps::PythonApp;
    // A workflow whose id is hostile: the document's strings reach the page escaped.
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let workflow = std::fs::read_to_string(root.join("tests/fixtures/arazzo/customers-charges.arazzo.yaml"))
        .unwrap()
        .replace("workflowId: charge-a-new-customer", &format!("workflowId: '{HOSTILE}'"))
        .replace(
            "url: ./customers-charges.openapi.yaml",
            &format!("url: '{}'", root.join("tests/fixtures/arazzo/customers-charges.openapi.yaml").display()),
        );
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("flow.arazzo.yaml");
    std::fs::write(&path, workflow).unwrap();
    // A fresh app for each format, so that both see the same counts.
    let run = |format: &str| {
        let app = PythonApp::start("customers_then_charges.py", &["--charges", "ignore-key"]);
        let base = app.url("");
        Run::idem(["run", path.to_str().unwrap(), "--base-url", &base, "--input", "name=Ada", "--input", "amount=500"])
            .args(["--probes", "retry,mismatch", "--format", format])
            .finish()
    };
    let json = run("json");
    let (code, report) = (json.code, json.json());
    assert_eq!(code, 1, "{report:#}");
    let finished = run("html");
    assert_eq!(finished.code, 1, "{}", finished.stderr);
    let html = finished.stdout;
    assert_self_contained(&html);
    assert!(!html.contains(HOSTILE) && html.contains("&lt;img src=x onerror=alert(1)&gt;"), "{html}");
    let steps = report["workflows"][0]["steps"].as_array().unwrap();
    let expected_steps: Vec<(String, String)> = steps
        .iter()
        .map(|step| (step["stepId"].as_str().unwrap().to_string(), step["outcome"].as_str().unwrap().to_string()))
        .collect();
    assert_eq!(rows(&html, "data-step", "data-outcome"), expected_steps);
    let expected_probes: Vec<(String, String)> = steps
        .iter()
        .flat_map(|step| {
            step["probes"].as_array().unwrap().iter().map(move |probe| {
                (
                    format!("{} {}", step["stepId"].as_str().unwrap(), probe["kind"].as_str().unwrap()),
                    probe["outcome"].as_str().unwrap().to_string(),
                )
            })
        })
        .collect();
    assert_eq!(rows(&html, "data-probe", "data-outcome"), expected_probes);
    assert!(expected_probes.iter().any(|(_, outcome)| outcome == "fail"), "{report:#}");
    // The failing probe's fix and evidence are on the page (the evidence's keys and ids differ
    // between the two runs; the counts do not).
    let text: String = parse(&html).descendants().filter_map(|node| node.text()).collect();
    for probe in steps.iter().flat_map(|step| step["probes"].as_array().unwrap()) {
        if probe["outcome"] == "fail" {
            assert!(text.contains(probe["fix"].as_str().unwrap()), "{text}");
        }
    }
    assert!(text.contains("the count went 1 → 2 on the retry at GET"), "{text}");
}
