//! A ✓ needs evidence of execution: small Python apps written the way developers write
//! them at work, each with its own ledger behind a count URL, and the verdicts checked against
//! that ledger through the real binaries.

use serde_json::Value;

use crate::support::apps::PythonApp;
use crate::support::run::{Finished, Run};
use crate::support::{idem, webhook};

/// An orders API with no idempotency layer: the order id is the client's business key, and every
/// request charges (a common upsert-style design). Its ledger is at GET /charges.
fn business_key_api() -> PythonApp {
    PythonApp::start("orders_charged_per_request.py", &[])
}

/// A correct API that marks nothing as a replay: it stores each key's answer (under a lock, so
/// concurrent duplicates wait and get the replay), refuses a reused key with another body with
/// 422, and makes its own ids.
fn correct_api_without_marker() -> PythonApp {
    PythonApp::start("orders_replayed_without_a_marker.py", &[])
}

const ORDER: &str = r#"{"order_id":"A-7","amount":500}"#;

fn run(command: &mut assert_cmd::Command) -> (i32, String, String) {
    Finished::from(command.output().expect("the command runs")).parts()
}

fn charges(app: &PythonApp) -> u64 {
    let body = reqwest_get(&app.url("/charges"));
    let value: Value = serde_json::from_str(&body).unwrap();
    value["count"].as_u64().or_else(|| value.as_array().map(|a| a.len() as u64)).unwrap()
}

/// A plain blocking GET through the library's own client, for the test's view of the ledger.
fn reqwest_get(url: &str) -> String {
    crate::support::runtime().block_on(async {
        let options = idem::testing::client::ClientOptions {
            timeout: std::time::Duration::from_secs(10),
            insecure: false,
            http2: false,
        };
        let client = idem::testing::client::HttpClient::new(options).expect("client");
        let request = http::Request::get(url).body(bytes::Bytes::new()).unwrap();
        String::from_utf8_lossy(&client.send(request).await.expect("the ledger answers").body).into_owned()
    })
}

#[test]
fn send_never_says_consistent_for_an_id_taken_from_the_request() {
    let app = business_key_api();
    let (code, stdout, stderr) = run(idem().args(["send", &app.url("/orders"), "-d", ORDER, "--repeat", "3"]));
    assert_eq!(code, 2, "{stdout}{stderr}");
    assert_eq!(charges(&app), 3, "the app charged every time");
    assert!(!stdout.contains('✓'), "{stdout}");
    assert!(stdout.contains("unconfirmed"), "{stdout}");
    assert!(stderr.contains("this id is in your request body") && stderr.contains("give --count-url"), "{stderr}");

    let count = app.url("/charges");
    let (code, stdout, _) = run(idem().args([
        "send",
        &app.url("/orders"),
        "-d",
        ORDER,
        "--repeat",
        "3",
        "--count-url",
        &count,
        "--count-pointer",
        "/count",
        "--format",
        "json",
    ]));
    assert_eq!(code, 1, "{stdout}");
    let report: Value = serde_json::from_str(&stdout).unwrap();
    crate::support::schemas::validate(&report);
    let judgement = &report["judgement"];
    assert_eq!(judgement["verdict"]["kind"], "executed_more_than_once");
    assert_eq!(judgement["executions"], 3);
    assert_eq!(judgement["evidence"][0]["kind"], "count");
    assert_eq!(judgement["evidence"][0]["executions"], 3);
    assert_eq!(
        judgement["evidence"][0]["after"].as_u64().unwrap() - judgement["evidence"][0]["before"].as_u64().unwrap(),
        3
    );
    let notes = judgement["notes"].to_string();
    assert!(notes.contains("the count and the ids disagree") && notes.contains("ord_A-7"), "{notes}");
}

#[test]
fn race_and_window_need_the_count_for_an_id_taken_from_the_request() {
    let app = business_key_api();
    let url = app.url("/orders");
    let (code, stdout, stderr) = run(idem().args(["race", &url, "-d", ORDER, "-n", "5"]));
    assert_eq!(code, 2, "{stdout}{stderr}");
    assert!(!stdout.contains('✓') && stderr.contains("give --count-url"), "{stdout}{stderr}");
    let count = app.url("/charges");
    let (code, stdout, _) =
        run(idem().args(["race", &url, "-d", ORDER, "-n", "5", "--count-url", &count, "--count-pointer", "/count"]));
    assert_eq!(code, 1, "{stdout}");
    assert!(stdout.contains("✗ executed 5 times") && stdout.contains("the count rose by 5"), "{stdout}");

    let (code, stdout, stderr) = run(idem().args(["window", &url, "-d", ORDER, "--max", "1ms", "--probes", "1"]));
    assert_eq!(code, 2, "{stdout}{stderr}");
    assert!(!stdout.contains('✓') && stderr.contains("give --count-url"), "{stdout}{stderr}");
    let (code, stdout, _) = run(idem().args([
        "window",
        &url,
        "-d",
        ORDER,
        "--max",
        "1ms",
        "--probes",
        "1",
        "--count-url",
        &count,
        "--count-pointer",
        "/count",
        "--format",
        "json",
    ]));
    assert_eq!(code, 1, "{stdout}");
    let report: Value = serde_json::from_str(&stdout).unwrap();
    crate::support::schemas::validate(&report);
    assert_eq!(report["verdict"], "window_at_least_max");
    assert_eq!(report["evidence"][0]["kind"], "count");
    assert_eq!(report["steps"][0]["probes"][0]["executions"], 2);
}

#[test]
fn check_does_not_pass_or_misread_an_id_taken_from_the_request() {
    let app = business_key_api();
    let url = app.url("/orders");
    let (code, stdout, stderr) =
        run(idem().args(["check", &url, "-d", ORDER, "-n", "5", "--window-max", "0", "--format", "json"]));
    // The one thing it can prove: the same key with another body is executed, not refused.
    assert_eq!(code, 1, "{stdout}{stderr}");
    let report: Value = serde_json::from_str(&stdout).unwrap();
    crate::support::schemas::validate(&report);
    let outcomes = crate::support::suite_outcomes(&report);
    assert_eq!(outcomes["mismatch-rejected"], "fail", "{outcomes:?}");
    assert_eq!(report["tally"]["failed"], 1, "{outcomes:?}");
    for id in ["retry-replays", "concurrent-once", "new-key-creates"] {
        assert_eq!(outcomes[id], "unconfirmed", "{id}: {outcomes:?}");
        assert!(crate::support::suite_evidence(&report, id).contains("give --count-url"), "{id}");
    }
    assert!(!crate::support::suite_evidence(&report, "new-key-creates").contains("answers without creating"));
    // Only --skip of the proven failure would leave the unconfirmed checks to decide: exit 2.
    let (code, stdout, stderr) = run(idem().args(["check", &url, "-d", ORDER, "-n", "5", "--window-max", "0"]));
    assert!(stdout.contains("????") && stdout.contains("unconfirmed"), "{stdout}");
    assert_eq!(code, 1, "{stderr}");

    let count = app.url("/charges");
    let (code, stdout, _) = run(idem().args([
        "check",
        &url,
        "-d",
        ORDER,
        "-n",
        "5",
        "--window-max",
        "0",
        "--count-url",
        &count,
        "--count-pointer",
        "/charges",
        "--format",
        "json",
    ]));
    assert_eq!(code, 1, "{stdout}");
    let report: Value = serde_json::from_str(&stdout).unwrap();
    let outcomes = crate::support::suite_outcomes(&report);
    assert_eq!(outcomes["retry-replays"], "fail", "{outcomes:?}");
    assert_eq!(outcomes["concurrent-once"], "fail", "{outcomes:?}");
    assert_eq!(outcomes["new-key-creates"], "pass", "a new key does charge: {outcomes:?}");
    let evidence = crate::support::suite_evidence(&report, "concurrent-once");
    assert!(evidence.contains("the count rose by 5"), "{evidence}");
}

#[test]
fn a_correct_api_without_a_replay_marker_passes_on_its_own_ids() {
    let app = correct_api_without_marker();
    let url = app.url("/orders");
    let (code, stdout, _) = run(idem().args(["send", &url, "-d", ORDER, "--repeat", "3", "--format", "json"]));
    assert_eq!(code, 0, "{stdout}");
    let report: Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(report["judgement"]["verdict"]["kind"], "consistent");
    assert_eq!(report["judgement"]["evidence"][0]["kind"], "server-id");
    assert_eq!(charges(&app), 1);
    let (code, stdout, _) = run(idem().args(["race", &url, "-d", ORDER, "-n", "5"]));
    assert_eq!(code, 0, "{stdout}");
    assert!(stdout.contains("✓ answer replayed (same server id)") && stdout.contains("evidence:"), "{stdout}");
    let count = app.url("/charges");
    let (code, stdout, stderr) = run(idem().args(["check", &url, "-d", ORDER, "-n", "5", "--count-url", &count]));
    assert_eq!(code, 0, "{stdout}{stderr}");
    let (code, stdout, stderr) = run(idem().args(["check", &url, "-d", ORDER, "-n", "5"]));
    assert_eq!(code, 0, "{stdout}{stderr}");
}

/// A webhook receiver for `--scheme hmac` (X-Signature: sha256=<hex>) with a ledger at
/// GET /processed. `flaw` picks what it gets wrong: `none`, `fulfils-duplicates`, `crashes`
/// (a missing header raises, a bad signature is a 500), `json-dumps` (verifies
/// `json.dumps(json.loads(body))`, Python's default style), `strict-schema` (verifies the raw
/// bytes, then refuses with 422 an event whose `data` has fields it does not know), `ledger-auth`
/// (correct, but its ledger answers only `Authorization: Bearer ledger-token`).
fn receiver(flaw: &str) -> PythonApp {
    PythonApp::start("hmac_receiver_with_a_flaw.py", &[flaw])
}

fn webhook_check(url: &str, secret: &str, extra: &[&str]) -> (i32, Value, String) {
    let finished =
        Run::webhook(["check", url, "--scheme", "hmac", "--secret", secret, "--format", "json"]).args(extra).finish();
    if finished.stdout.trim().is_empty() {
        return (finished.code, Value::Null, finished.stderr);
    }
    (finished.code, finished.json(), finished.stderr)
}

#[test]
fn a_receiver_that_fulfils_duplicates_is_caught_by_its_count() {
    let app = receiver("fulfils-duplicates");
    let count = app.url("/processed");
    let (code, report, _) = webhook_check(&app.url("/hooks"), "whsec_ground_truth", &[]);
    let outcomes = crate::support::suite_outcomes(&report);
    assert_eq!(code, 0, "without a count the duplicate cannot be proven: {outcomes:?}");
    assert_eq!(outcomes["duplicate-processed-once"], "skip");
    assert!(crate::support::suite_evidence(&report, "duplicate-processed-once").contains("give --count-url"));

    let (code, report, _) = webhook_check(
        &app.url("/hooks"),
        "whsec_ground_truth",
        &["--count-url", &count, "--count-pointer", "/processed"],
    );
    let outcomes = crate::support::suite_outcomes(&report);
    assert_eq!(code, 1, "{outcomes:?}");
    assert_eq!(outcomes["duplicate-accepted"], "pass");
    assert_eq!(outcomes["duplicate-processed-once"], "fail");
    assert!(crate::support::suite_evidence(&report, "duplicate-processed-once").contains("processed 2 times"));

    let correct = receiver("none");
    let count = correct.url("/processed");
    let (code, report, _) = webhook_check(
        &correct.url("/hooks"),
        "whsec_ground_truth",
        &["--count-url", &count, "--count-pointer", "/processed"],
    );
    assert_eq!(code, 0, "{report}");
    assert_eq!(crate::support::suite_outcomes(&report)["duplicate-processed-once"], "pass");
}

#[test]
fn a_ledger_behind_a_token_is_read_with_count_header() {
    let app = receiver("ledger-auth");
    let count = app.url("/processed");
    let ledger = ["--count-url", count.as_str(), "--count-pointer", "/processed"];
    let (code, _, stderr) = webhook_check(&app.url("/hooks"), "whsec_ground_truth", &ledger);
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("401") && stderr.contains("credentials"), "{stderr}");

    let with_token = [&ledger[..], &["--count-header", "Authorization: Bearer ledger-token"]].concat();
    let (code, report, stderr) = webhook_check(&app.url("/hooks"), "whsec_ground_truth", &with_token);
    assert_eq!(code, 0, "{report} {stderr}");
    assert_eq!(crate::support::suite_outcomes(&report)["duplicate-processed-once"], "pass");
    assert!(!report.to_string().contains("ledger-token"), "the token is not echoed");
}

#[test]
fn a_mistyped_path_is_exit_2_and_a_wrong_secret_proves_no_rejection() {
    let app = receiver("none");
    let (code, _, stderr) = webhook_check(&app.url("/hookz"), "whsec_ground_truth", &[]);
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("check the URL") && stderr.contains("404"), "{stderr}");

    let (code, report, _) = webhook_check(&app.url("/hooks"), "whsec_not_the_receivers", &[]);
    assert_eq!(code, 1, "{report}");
    let outcomes = crate::support::suite_outcomes(&report);
    assert_eq!(outcomes["valid-accepted"], "fail");
    let evidence = crate::support::suite_evidence(&report, "valid-accepted");
    assert!(evidence.contains("is --secret the receiver's endpoint secret and --scheme its scheme?"), "{evidence}");
    for id in ["bad-signature-rejected", "missing-signature-rejected", "tampered-body-rejected"] {
        assert_eq!(outcomes[id], "skip", "{id}: {outcomes:?}");
        assert!(crate::support::suite_evidence(&report, id).contains("nothing is ever accepted"), "{id}");
    }
}

#[test]
fn a_crashing_receiver_is_diagnosed_as_crashing_never_as_accepting() {
    let app = receiver("crashes");
    let (code, report, _) = webhook_check(&app.url("/hooks"), "whsec_ground_truth", &[]);
    assert_eq!(code, 1, "{report}");
    let outcomes = crate::support::suite_outcomes(&report);
    assert_eq!(outcomes["valid-accepted"], "pass", "{outcomes:?}");
    for id in ["bad-signature-rejected", "missing-signature-rejected"] {
        assert_eq!(outcomes[id], "fail", "{id}");
        let evidence = crate::support::suite_evidence(&report, id);
        assert!(evidence.contains("crashed on this input instead of refusing it with a 4xx"), "{id}: {evidence}");
        assert!(!evidence.contains("accepted"), "{id}: {evidence}");
    }
}

#[test]
fn python_json_dumps_reserialisation_is_named() {
    let app = receiver("json-dumps");
    let (code, report, _) = webhook_check(&app.url("/hooks"), "whsec_ground_truth", &[]);
    assert_eq!(code, 1, "{report}");
    let evidence = crate::support::suite_evidence(&report, "raw-body-verified");
    assert!(evidence.contains("Python's json.dumps"), "{evidence}");
    assert!(!evidence.contains("not the only problem") && !evidence.contains("is not the problem"), "{evidence}");
    assert!(crate::support::suite_evidence(&report, "valid-accepted").contains("json.dumps"));

    // `webhook verify` names it too: signed as json.dumps wrote it, received compact.
    let python_style = r#"{"id": "evt_1", "data": {"note": "caf\u00e9"}}"#;
    let signature = run(webhook().args([
        "sign",
        "--scheme",
        "hmac",
        "--secret",
        "whsec_ground_truth",
        "-d",
        python_style,
        "--format",
        "headers",
    ]))
    .1;
    let header = signature.lines().find(|line| line.starts_with("X-Signature")).expect("the header").to_string();
    let (code, stdout, stderr) = run(webhook().args([
        "verify",
        "--scheme",
        "hmac",
        "--secret",
        "whsec_ground_truth",
        "-H",
        &header,
        "-d",
        r#"{"id":"evt_1","data":{"note":"café"}}"#,
    ]));
    assert_eq!(code, 1, "{stdout}{stderr}");
    assert!(format!("{stdout}{stderr}").contains("Python's json.dumps writes it by default"), "{stdout}{stderr}");
}

/// A Shopify app's webhook endpoint as its docs show it: the HMAC over the raw body, the shop from
/// `X-Shopify-Shop-Domain` (a delivery for a shop it does not serve is refused), duplicates
/// dropped by `X-Shopify-Webhook-Id`.
fn shopify_app() -> PythonApp {
    PythonApp::start("shopify_app_endpoint.py", &[])
}

#[test]
fn a_provider_template_carries_the_headers_a_receiver_routes_on() {
    let app = shopify_app();
    let check = |extra: &[&str]| {
        let (code, stdout, stderr) = run(webhook()
            .args(["check", &app.url("/webhooks"), "--scheme", "shopify", "--secret", "shpss_ground_truth"])
            .args(["--format", "json"])
            .args(extra));
        let report: Value = serde_json::from_str(&stdout).unwrap_or_else(|err| panic!("{err}: {stdout} {stderr}"));
        (code, crate::support::suite_outcomes(&report), report)
    };
    // A body of the user's own has no shop: refused, so nothing can be judged.
    let (_, outcomes, report) = check(&["-d", r#"{"id":"evt_1","type":"orders/create"}"#]);
    assert_eq!(outcomes["valid-accepted"], "fail", "{report}");
    let evidence = crate::support::suite_evidence(&report, "out-of-order-accepted");
    assert!(evidence.contains("choose what the receiver handles with --event"), "{evidence}");
    // The provider's template brings X-Shopify-Shop-Domain, and every check runs: chosen with
    // --event, or by default under --scheme shopify, whose deliveries name their topic in a header.
    for extra in [&["--event", "shopify:orders/create"][..], &[]] {
        let (code, outcomes, report) = check(extra);
        assert_eq!(code, 0, "{extra:?}: {report}");
        for id in ["valid-accepted", "bad-signature-rejected", "tampered-body-rejected", "duplicate-accepted"] {
            assert_eq!(outcomes[id], "pass", "{extra:?} {id}: {report}");
        }
    }
}

/// A GitHub App's webhook endpoint: the HMAC over the raw body, then a push must name its
/// repository (anything else is a 400).
fn github_app() -> PythonApp {
    PythonApp::start("github_app_endpoint.py", &[])
}

#[test]
fn a_receiver_that_checks_content_is_not_said_to_reserialise() {
    // The raw-bytes probe keeps the chosen event's content: a GitHub receiver that needs
    // `repository` accepts it, and passes.
    let app = github_app();
    let (code, stdout, _) = run(webhook()
        .args(["check", &app.url("/github"), "--scheme", "github", "--secret", "gh_ground_truth"])
        .args(["--event", "github:push", "--format", "json"]));
    let report: Value = serde_json::from_str(&stdout).expect("a report");
    assert_eq!(code, 0, "{report}");
    assert_eq!(crate::support::suite_outcomes(&report)["raw-body-verified"], "pass", "{report}");
    assert!(crate::support::suite_evidence(&report, "raw-body-verified").contains("3-space indents"));

    // With the suite's own event, the raw probe's extra fields are refused by a strict schema in
    // every writing: its content, not its bytes, so nothing is proven either way.
    let strict = receiver("strict-schema");
    let (code, report, _) = webhook_check(&strict.url("/hooks"), "whsec_ground_truth", &[]);
    let outcomes = crate::support::suite_outcomes(&report);
    assert_eq!(outcomes["raw-body-verified"], "skip", "{report}");
    let evidence = crate::support::suite_evidence(&report, "raw-body-verified");
    assert!(evidence.contains("refuses its content, not its bytes"), "{evidence}");
    assert_eq!(code, 0, "the required checks hold: {outcomes:?}");
}

/// What the ledger at `GET /count` of `orders_api` says, whatever the API did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Ledger {
    /// How many times it charged.
    Truthful,
    /// Always 5.
    NeverMoves,
    /// 1000, less one per charge.
    GoesDown,
    /// The largest count JSON can carry, then 0 once anything was charged.
    Wraps,
    /// A million per charge.
    Leaps,
    /// Its charges plus every read of the ledger itself.
    CountsItsReads,
    /// An array of three charges that never grows.
    ArrayNeverGrows,
}

impl Ledger {
    fn count(self, charges: u64, reads: u64) -> String {
        match self {
            Ledger::Truthful => format!(r#"{{"count":{charges}}}"#),
            Ledger::NeverMoves => r#"{"count":5}"#.to_string(),
            Ledger::GoesDown => format!(r#"{{"count":{}}}"#, 1000 - charges),
            Ledger::Wraps => format!(r#"{{"count":{}}}"#, if charges == 0 { u64::MAX } else { 0 }),
            Ledger::Leaps => format!(r#"{{"count":{}}}"#, charges * 1_000_000),
            Ledger::CountsItsReads => format!(r#"{{"count":{}}}"#, charges + reads),
            Ledger::ArrayNeverGrows => r#"{"count":0,"charges":["ch_1","ch_2","ch_3"]}"#.to_string(),
        }
    }

    fn pointer(self) -> &'static str {
        if self == Ledger::ArrayNeverGrows { "/charges" } else { "/count" }
    }
}

/// An orders API whose order id is the client's (so its answers look the same however often it
/// charges). `every_request`: it charges for every POST; otherwise once per key, replaying the
/// first answer to the key's later requests. Its ledger is at GET /count.
fn orders_api(ledger: Ledger, every_request: bool) -> crate::support::CustomServer {
    use std::sync::Mutex;
    #[derive(Default)]
    struct Books {
        charges: u64,
        reads: u64,
        keys: std::collections::HashSet<String>,
    }
    let books = Mutex::new(Books::default());
    crate::support::CustomServer::start(move |request| {
        let mut books = books.lock().unwrap();
        if request.method == "GET" && request.path == "/count" {
            books.reads += 1;
            return crate::support::Reply::json(200, ledger.count(books.charges, books.reads));
        }
        let key = request.headers.get("idempotency-key").map(|v| v.to_str().unwrap_or_default().to_string());
        let replay = !every_request && key.as_ref().is_some_and(|key| books.keys.contains(key));
        if !replay {
            books.charges += 1;
            books.keys.extend(key);
        }
        crate::support::Reply::json(201, r#"{"id":"ord_A-7","amount":500,"status":"paid"}"#)
    })
}

/// The lies, what `idem send --repeat 3` must say it read from each, and what any step must.
const LIES: &[(Ledger, &str, &str)] = &[
    (Ledger::NeverMoves, "did not move (5 → 5)", "did not move ("),
    (Ledger::GoesDown, "went down (1000 → 997)", "went down ("),
    (Ledger::Wraps, "went down (18446744073709551615 → 0)", "went down ("),
    (Ledger::Leaps, "rose by 3000000 (0 → 3000000), more than the 3 requests sent", "more than the"),
    (
        Ledger::CountsItsReads,
        "moved with nothing sent (4 → 5 between two reads before the step)",
        "moved with nothing sent (",
    ),
    (Ledger::ArrayNeverGrows, "did not move (3 → 3)", "did not move ("),
];

/// The ledger's flags; a count that never rises is re-read for a second, not the default five.
fn ledger_args(api: &crate::support::CustomServer, ledger: Ledger) -> Vec<String> {
    ["--count-url", &api.url("/count"), "--count-pointer", ledger.pointer(), "--count-settle-max", "1s"]
        .map(String::from)
        .to_vec()
}

#[test]
fn a_count_that_lies_is_never_a_check_mark_for_send_race_or_check() {
    for &(ledger, read_by_send, read) in LIES {
        // A fresh API for each command, so each meets the lie from the start.
        let fresh = || {
            let api = orders_api(ledger, true);
            let (url, counted) = (api.url("/orders"), ledger_args(&api, ledger));
            (api, url, counted)
        };
        let (_api, url, counted) = fresh();
        let (code, stdout, stderr) = run(idem().args(["send", &url, "-d", ORDER, "--repeat", "3"]).args(&counted));
        assert_eq!(code, 2, "send, {ledger:?}: {stdout}{stderr}");
        assert!(!stdout.contains('✓'), "send, {ledger:?}: {stdout}");
        assert!(stderr.contains("unconfirmed: the count at GET http://"), "send, {ledger:?}: {stderr}");
        assert!(stderr.contains(read_by_send), "send, {ledger:?}: {stderr}");

        let (_api, url, counted) = fresh();
        let (code, stdout, stderr) = run(idem().args(["race", &url, "-d", ORDER, "-n", "5"]).args(&counted));
        assert_eq!(code, 2, "race, {ledger:?}: {stdout}{stderr}");
        assert!(!stdout.contains('✓'), "race, {ledger:?}: {stdout}");
        assert!(stderr.contains(read) || stdout.contains(read), "race, {ledger:?}: {stdout}{stderr}");

        let (_api, url, counted) = fresh();
        let (code, stdout, stderr) = run(idem()
            .args(["check", &url, "-d", ORDER, "-n", "5", "--window-max", "0", "--format", "json"])
            .args(["--only", "retry-replays", "--only", "concurrent-once"])
            .args(&counted));
        assert_eq!(code, 2, "check, {ledger:?}: {stdout}{stderr}");
        assert!(stderr.contains(read), "check, {ledger:?}: {stderr}");
        let report: Value = serde_json::from_str(&stdout).unwrap();
        crate::support::schemas::validate(&report);
        let outcomes = crate::support::suite_outcomes(&report);
        for id in ["retry-replays", "concurrent-once"] {
            assert_eq!(outcomes[id], "unconfirmed", "check {id}, {ledger:?}: {outcomes:?}");
            // Each names the values it read (a later step may meet the lie in another form).
            let evidence = crate::support::suite_evidence(&report, id);
            assert!(evidence.contains("unconfirmed: the count at GET http://"), "check {id}, {ledger:?}: {evidence}");
            assert!(evidence.contains(" → "), "{id}, {ledger:?}: {evidence}");
        }
        assert_eq!(report["passed"], false, "{ledger:?}");
    }
}

#[test]
fn a_truthful_count_still_gives_a_check_mark() {
    let api = orders_api(Ledger::Truthful, false);
    let url = api.url("/orders");
    let counted = ledger_args(&api, Ledger::Truthful);
    let (code, stdout, stderr) = run(idem().args(["send", &url, "-d", ORDER, "--repeat", "3"]).args(&counted));
    assert_eq!(code, 0, "{stdout}{stderr}");
    assert!(stdout.contains('✓') && stdout.contains("the count went 0 → 1 (1 execution)"), "{stdout}");
    let (code, stdout, stderr) = run(idem().args(["race", &url, "-d", ORDER, "-n", "5"]).args(&counted));
    assert_eq!(code, 0, "{stdout}{stderr}");
    assert!(stdout.contains("✓ executed once (counted)"), "{stdout}");
    let (code, stdout, stderr) = run(idem()
        .args(["check", &url, "-d", ORDER, "-n", "5", "--format", "json"])
        .args(["--only", "retry-replays", "--only", "concurrent-once"])
        .args(&counted));
    assert_eq!(code, 0, "{stdout}{stderr}");
    let outcomes = crate::support::suite_outcomes(&serde_json::from_str(&stdout).unwrap());
    assert_eq!((outcomes["retry-replays"].as_str(), outcomes["concurrent-once"].as_str()), ("pass", "pass"));
}

#[test]
fn a_count_body_over_the_cap_is_refused_naming_the_cap() {
    // Ten million bytes of a JSON array whose length would be the count.
    let listing = format!("[{}0]", "0,".repeat(5_000_000));
    let api = crate::support::CustomServer::start(move |request| match request.path.as_str() {
        "/count" => crate::support::Reply::json(200, listing.clone()),
        _ => crate::support::Reply::json(201, r#"{"id":"pay_1"}"#),
    });
    let (code, stdout, stderr) =
        run(idem().args(["send", &api.url("/orders"), "-d", ORDER, "--count-url", &api.url("/count")]));
    assert_eq!(code, 2, "{stdout}{stderr}");
    assert!(stderr.contains("--count-url gave no count") && stderr.contains("over the 1MiB limit"), "{stderr}");
}
