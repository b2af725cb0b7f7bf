//! `idem run WORKFLOW.arazzo.yaml`: Arazzo workflows run against `tests/apps/customers_then_charges.py`
//! (create a customer, look it up, charge it), each keyed step probed with a retry, concurrent
//! duplicates, a lost answer and a changed body; and the Arazzo Specification's own examples read.
use serde_json::Value;

use crate::support::apps::PythonApp;
use crate::support::run::Run;

const WORKFLOW: &str = "tests/fixtures/arazzo/customers-charges.arazzo.yaml";
const EXAMPLES: &str = "tests/fixtures/arazzo/specification-examples";

fn app(charges: &str) -> PythonApp {
    PythonApp::start("customers_then_charges.py", &["--charges", charges])
}

/// `idem run WORKFLOW --base-url APP --input …` from the repository's root.
fn run(workflow: &str, app: &PythonApp, more: &[&str]) -> Run {
    let base = app.url("");
    let mut command = crate::support::idem();
    command.current_dir(env!("CARGO_MANIFEST_DIR"));
    Run::command(command)
        .args(["run", workflow, "--base-url", &base, "--input", "name=Ada", "--input", "amount=500"])
        .args(more)
}

fn step<'a>(report: &'a Value, step_id: &str) -> &'a Value {
    report["workflows"][0]["steps"]
        .as_array()
        .unwrap()
        .iter()
        .find(|step| step["stepId"] == step_id)
        .unwrap_or_else(|| panic!("no step {step_id}: {report:#}"))
}

fn probe<'a>(step: &'a Value, kind: &str) -> &'a Value {
    step["probes"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["kind"] == kind)
        .unwrap_or_else(|| panic!("no {kind}: {step:#}"))
}

#[test]
fn a_correct_flow_passes_every_probe_and_carries_ids_from_step_to_step() {
    let app = app("correct");
    let report = run(WORKFLOW, &app, &[]).format_json().expect_exit(0).json();
    assert_eq!(report["passed"], true, "{report:#}");
    let charge = step(&report, "charge-customer");
    assert_eq!(charge["operationId"], "createCharge");
    for kind in ["retry", "race", "lost-answer", "mismatch"] {
        assert_eq!(probe(charge, kind)["outcome"], "pass", "{kind}: {charge:#}");
        assert_eq!(probe(step(&report, "create-customer"), kind)["outcome"], "pass", "{kind}: {report:#}");
    }
    // The retry and race were judged by the count each operation declares (x-idem-count-url).
    assert_eq!(probe(charge, "retry")["evidenceLevel"], "count", "{charge:#}");
    // A refusal reads no count: it rests on the answer, as idem check names it.
    assert_eq!(probe(charge, "mismatch")["evidenceLevel"], "answer", "{charge:#}");
    // The customer's id went from the first step's answer through the lookup into the charge's
    // path, and came back in the charge.
    let outputs = &report["workflows"][0]["outputs"];
    let customer = outputs["customerId"].as_str().unwrap();
    assert!(customer.starts_with("cus_"), "{outputs:#}");
    assert_eq!(outputs["chargedCustomer"], customer, "{outputs:#}");
    assert_eq!(step(&report, "look-up-customer")["probes"], Value::Array(vec![]), "a GET is not keyed");
    assert!(charge["url"].as_str().unwrap().ends_with(&format!("/customers/{customer}/charges")), "{charge:#}");
}

#[test]
fn charges_claimed_by_look_then_insert_fail_the_race_at_that_step_and_the_first_step_passes() {
    let app = app("look-then-insert");
    let (code, report) = run(WORKFLOW, &app, &["--probes", "retry,race"]).format_json().code_and_json();
    assert_eq!(code, 1, "{report:#}");
    let customer = step(&report, "create-customer");
    assert_eq!(customer["outcome"], "pass", "{report:#}");
    let charge = step(&report, "charge-customer");
    assert_eq!(charge["outcome"], "fail", "{report:#}");
    assert_eq!(probe(charge, "race")["outcome"], "fail", "{charge:#}");
    assert_eq!(probe(charge, "race")["check"], "concurrent-once");
    // The race states what it found, with its numbers, as idem check does.
    let finding = probe(charge, "race")["finding"].as_str().unwrap_or_else(|| panic!("no finding: {charge:#}"));
    assert!(finding.contains("executed ") && finding.contains(" times"), "{finding}");
    // Sequential retries find the stored answer: only the race shows the flaw.
    assert_eq!(probe(charge, "retry")["outcome"], "pass", "{charge:#}");
    assert_eq!(probe(charge, "retry").get("finding"), None, "a pass has nothing to find: {charge:#}");
    let kinds: Vec<&str> = charge["probes"].as_array().unwrap().iter().map(|p| p["kind"].as_str().unwrap()).collect();
    assert_eq!(kinds, ["retry", "race"], "--probes chooses the probes");
}

#[test]
fn a_step_that_ignores_the_key_fails_the_retry_probe_and_the_human_report_says_so() {
    let app = app("ignore-key");
    let finished = run(WORKFLOW, &app, &["--probes", "retry", "--color", "never"]).finish();
    assert_eq!(finished.code, 1, "{}{}", finished.stdout, finished.stderr);
    let charge_line = finished.stdout.lines().position(|l| l.contains("charge-customer")).expect(&finished.stdout);
    assert!(finished.stdout.lines().nth(charge_line).unwrap().trim_start().starts_with('✗'), "{}", finished.stdout);
    let after: Vec<&str> = finished.stdout.lines().skip(charge_line).collect();
    assert!(after.iter().any(|l| l.contains("✗ retry") && l.contains("retry-replays")), "{}", finished.stdout);
    assert!(after.iter().any(|l| l.contains("the count went 1 → 2 on the retry")), "{}", finished.stdout);
    // The line under the failed step is the finding of what failed in it.
    let finding = finished.stdout.lines().nth(charge_line + 1).unwrap().trim();
    assert!(finding.starts_with("retry-replays: "), "{}", finished.stdout);
    // Said once: not again under the probe's line.
    let found = finding.trim_start_matches("retry-replays: ");
    assert_eq!(finished.stdout.matches(found).count(), 1, "{}", finished.stdout);
    assert!(finished.stdout.contains("1 of 3 steps failed"), "{}", finished.stdout);
}

#[test]
fn success_criteria_that_fail_before_any_probe_stop_the_run_with_exit_2() {
    let app = app("correct");
    let dir = tempfile::tempdir().unwrap();
    let openapi =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/arazzo/customers-charges.openapi.yaml");
    // The API answers 201; the workflow expects 200.
    let workflow = format!(
        "arazzo: 1.1.0\ninfo: {{title: t, version: '1'}}\nsourceDescriptions:\n- {{name: payments, url: '{}', type: openapi}}\nworkflows:\n- workflowId: w\n  steps:\n  - stepId: create-customer\n    operationId: createCustomer\n    requestBody: {{payload: {{name: Ada}}}}\n    successCriteria: [{{condition: $statusCode == 200}}]\n  - stepId: never\n    operationId: getCustomer\n    parameters: [{{name: customerId, in: path, value: x}}]\n",
        openapi.display()
    );
    let path = dir.path().join("expects-200.arazzo.yaml");
    std::fs::write(&path, workflow).unwrap();
    let finished = run(path.to_str().unwrap(), &app, &[]).format_json().finish();
    assert_eq!(finished.code, 2, "{}{}", finished.stdout, finished.stderr);
    let report = finished.json();
    let error = report["error"].as_str().unwrap();
    assert!(error.contains("failed its successCriteria before any probe"), "{error}");
    assert!(error.contains("$statusCode = 201"), "{error}");
    assert_eq!(step(&report, "create-customer")["probes"], Value::Array(vec![]), "{report:#}");
    // The step failed, and says with which criterion and value.
    let create = step(&report, "create-customer");
    assert_eq!(create["outcome"], "fail", "{report:#}");
    let finding = create["finding"].as_str().unwrap_or_else(|| panic!("no finding: {report:#}"));
    assert!(finding.starts_with("successCriteria: ") && finding.contains("$statusCode = 201"), "{finding}");
    // One real request, and no probe after it.
    assert_eq!(app.get("/customers/count"), r#"{"count": 1}"#);
}

#[test]
fn a_jsonpath_criterion_that_holds_lets_the_step_be_probed_and_one_that_selects_nothing_stops_the_run() {
    let app = app("correct");
    let dir = tempfile::tempdir().unwrap();
    let openapi =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/arazzo/customers-charges.openapi.yaml");
    // The customer's answer has a member equal to 'Ada'; the charge's has no amount above 1000.
    let workflow = format!(
        "arazzo: 1.0.1\ninfo: {{title: t, version: '1'}}\nsourceDescriptions:\n- {{name: payments, url: '{}', type: openapi}}\nworkflows:\n- workflowId: w\n  steps:\n  - stepId: create-customer\n    operationId: createCustomer\n    requestBody: {{payload: {{name: Ada}}}}\n    successCriteria: [{{context: $response.body, type: jsonpath, condition: \"$[?@ == 'Ada']\"}}]\n    outputs: {{id: $response.body#/id}}\n  - stepId: charge-customer\n    operationId: createCharge\n    parameters: [{{name: customerId, in: path, value: $steps.create-customer.outputs.id}}]\n    requestBody: {{payload: {{amount: 500}}}}\n    successCriteria: [{{context: $response.body, type: {{type: jsonpath, version: rfc9535}}, condition: '$[?@ > 1000]'}}]\n",
        openapi.display()
    );
    let path = dir.path().join("jsonpath.arazzo.yaml");
    std::fs::write(&path, workflow).unwrap();
    let finished = run(path.to_str().unwrap(), &app, &["--probes", "retry"]).format_json().finish();
    assert_eq!(finished.code, 2, "{}{}", finished.stdout, finished.stderr);
    let report = finished.json();
    assert_eq!(probe(step(&report, "create-customer"), "retry")["outcome"], "pass", "{report:#}");
    let error = report["error"].as_str().unwrap();
    assert!(error.contains("charge-customer"), "{error}");
    assert!(error.contains("failed its successCriteria before any probe"), "{error}");
    assert!(error.contains("`$[?@ > 1000]` selects nothing in $response.body"), "{error}");
    assert_eq!(step(&report, "charge-customer")["probes"], Value::Array(vec![]), "{report:#}");
    // The charge's one real request, and no probe after it.
    assert_eq!(app.get("/charges/count"), r#"{"count": 1}"#);
}

#[test]
fn the_specification_s_login_example_is_planned_with_its_source_given_on_the_command_line() {
    let example = format!("{EXAMPLES}/LoginAndRetrievePets.arazzo.yaml");
    let mut command = crate::support::idem();
    command.current_dir(env!("CARGO_MANIFEST_DIR"));
    // Its source is a URL: read only when the command line names it.
    let refused = Run::command(command).args(["run", &example, "--plan", "--base-url", "http://127.0.0.1:9"]).finish();
    assert_eq!(refused.code, 2);
    assert!(refused.stderr.contains("give --source petStoreDescription=URL"), "{}", refused.stderr);

    let mut command = crate::support::idem();
    command.current_dir(env!("CARGO_MANIFEST_DIR"));
    let planned = Run::command(command)
        .args(["run", &example, "--plan", "--base-url", "http://127.0.0.1:9", "--color", "never"])
        .args(["--source", "petStoreDescription=tests/fixtures/arazzo/petstore-excerpt.openapi.yaml"])
        .expect_exit(0)
        .finish();
    assert!(planned.stdout.contains("loginStep  GET /user/login (loginUser)"), "{}", planned.stdout);
    // Its operationPath points at a path item, whose one operation is the step's.
    assert!(planned.stdout.contains("getPetStep  GET /pet/findByStatus (findPetsByStatus)"), "{}", planned.stdout);
    assert!(planned.stdout.contains("not keyed"), "{}", planned.stdout);
}

#[test]
fn a_source_url_that_cannot_be_read_is_named_by_the_flag_that_gave_it() {
    let mut command = crate::support::idem();
    command.current_dir(env!("CARGO_MANIFEST_DIR"));
    let finished = Run::command(command)
        .args(["run", WORKFLOW, "--plan", "--base-url", "http://127.0.0.1:9"])
        .args(["--source", "payments=http://bad host/openapi.yaml"])
        .expect_exit(2)
        .finish();
    assert!(finished.stderr.contains("--source payments=http://bad host/openapi.yaml"), "{}", finished.stderr);
    assert!(!finished.stderr.contains("--openapi"), "{}", finished.stderr);
}

#[test]
fn the_specification_s_examples_name_the_parts_idem_run_does_not_run_yet() {
    for (example, refusal) in [
        ("pet-coupons.arazzo.yaml", "steps[2] (place-order): `workflowId` is not supported yet by idem run"),
        // Its jsonpath criteria are read; its source is a URL, read only when the command line names it.
        ("bnpl-arazzo.yaml", "give --source BnplApi=URL"),
    ] {
        let mut command = crate::support::idem();
        command.current_dir(env!("CARGO_MANIFEST_DIR"));
        let finished =
            Run::command(command).args(["run", &format!("{EXAMPLES}/{example}"), "--plan"]).expect_exit(2).finish();
        assert!(finished.stderr.contains(refusal), "{example}: {}", finished.stderr);
    }
}

#[test]
fn the_plan_counts_the_probes_requests_and_sends_nothing() {
    let app = app("correct");
    let finished = run(WORKFLOW, &app, &["--plan", "--color", "never", "-n", "5"]).expect_exit(0).finish();
    // Two keyed steps: 1 + retry 1 + race 5 + lost answer 10 + mismatch 1 each; the GET once.
    assert!(finished.stdout.contains("about 18 requests, 3 resources created"), "{}", finished.stdout);
    assert!(finished.stdout.contains("about 37 requests; 6 resources created"), "{}", finished.stdout);
    assert_eq!(app.get("/customers/count"), r#"{"count": 0}"#);
}

#[test]
fn junit_has_a_case_per_step_and_probe() {
    let app = app("look-then-insert");
    let finished = run(WORKFLOW, &app, &["--probes", "race", "--format", "junit"]).expect_exit(1).finish();
    let document = roxmltree::Document::parse(&finished.stdout).expect("JUnit XML");
    let cases: Vec<(String, bool)> = document
        .descendants()
        .filter(|node| node.has_tag_name("testcase"))
        .map(|case| {
            let failed = case.children().any(|child| child.has_tag_name("failure"));
            (case.attribute("name").unwrap().to_string(), failed)
        })
        .collect();
    let expected = [
        ("create-customer", false),
        ("create-customer race", false),
        ("look-up-customer", false),
        ("charge-customer", true),
        ("charge-customer race", true),
    ];
    let expected: Vec<(String, bool)> = expected.iter().map(|(name, failed)| (name.to_string(), *failed)).collect();
    assert_eq!(cases, expected, "{}", finished.stdout);
    // A failed probe's message is its check and what it found, not a bare "failed".
    let race = document
        .descendants()
        .find(|node| node.has_tag_name("testcase") && node.attribute("name") == Some("charge-customer race"))
        .and_then(|case| case.children().find(|child| child.has_tag_name("failure")))
        .and_then(|failure| failure.attribute("message"))
        .unwrap_or_default();
    assert!(race.starts_with("concurrent-once: ") && race.contains(" times"), "{race}");
    // The step's own case names what failed in it: its probe's finding, not "a probe failed".
    assert_eq!(failure_message(&document, "charge-customer"), race, "{}", finished.stdout);
}

/// The `message` of the named test case's `<failure>`, empty when it has none.
fn failure_message<'a>(document: &'a roxmltree::Document<'a>, case: &str) -> &'a str {
    document
        .descendants()
        .find(|node| node.has_tag_name("testcase") && node.attribute("name") == Some(case))
        .and_then(|case| case.children().find(|child| child.has_tag_name("failure")))
        .and_then(|failure| failure.attribute("message"))
        .unwrap_or_default()
}

#[test]
fn the_example_flow_breaks_at_the_one_step_idem_serve_is_told_to_break() {
    use idem::testing::serve::{Mode, ServeConfig};
    let correct = crate::support::TestServer::start(ServeConfig::local(Mode::Correct));
    let naive_payments = crate::support::TestServer::start(ServeConfig {
        mode_on: Some("/payments".to_string()),
        ..ServeConfig::local(Mode::Naive)
    });
    for (server, code, failing) in [(&correct, 0, None), (&naive_payments, 1, Some("pay"))] {
        let mut command = crate::support::idem();
        command.current_dir(env!("CARGO_MANIFEST_DIR"));
        let (exit, report) = Run::command(command)
            .args([
                "run",
                "examples/payments-flow.arazzo.yaml",
                "--base-url",
                &server.url(""),
                "--input",
                "amount=1990",
            ])
            .args(["--probes", "retry,race"])
            .format_json()
            .code_and_json();
        assert_eq!(exit, code, "{report:#}");
        for step_id in ["create-customer", "pay", "confirm-payment", "refund"] {
            let expected = if Some(step_id) == failing { "fail" } else { "pass" };
            assert_eq!(step(&report, step_id)["outcome"], expected, "{step_id}: {report:#}");
        }
        if failing.is_some() {
            assert_eq!(probe(step(&report, "pay"), "race")["outcome"], "fail", "{report:#}");
            assert_eq!(probe(step(&report, "refund"), "race")["outcome"], "pass", "{report:#}");
        }
        let outputs = &report["workflows"][0]["outputs"];
        assert_eq!(outputs["refundedPayment"], outputs["paymentId"], "{outputs:#}");
    }
}

/// The Standard Webhooks libraries' example secret.
const WEBHOOK_SECRET: &str = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";

/// The test flow with the charge step expecting one `charge.succeeded` per key, written beside
/// a temporary directory's copy of nothing else (the OpenAPI document is read where it is).
fn workflow_expecting_a_webhook(dir: &std::path::Path) -> String {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(root.join(WORKFLOW)).unwrap();
    let openapi = root.join("tests/fixtures/arazzo/customers-charges.openapi.yaml");
    let text = text.replace("./customers-charges.openapi.yaml", &openapi.display().to_string()).replace(
        "        operationId: $sourceDescriptions.payments.createCharge\n",
        "        operationId: $sourceDescriptions.payments.createCharge\n        x-idem-expect-webhook:\n          event: charge.succeeded\n          count: 1\n          within: 1s\n          scheme: standard\n          secret: $inputs.webhookSecret\n",
    );
    let path = dir.join("expects-a-webhook.arazzo.yaml");
    std::fs::write(&path, text).unwrap();
    path.display().to_string()
}

#[test]
fn an_expected_webhook_seen_once_per_key_passes_and_seen_twice_fails() {
    let dir = tempfile::tempdir().unwrap();
    let workflow = workflow_expecting_a_webhook(dir.path());
    for (twice, code, seen) in [(false, 0, 2), (true, 1, 4)] {
        // The API is told where to deliver before the run starts its listener there.
        let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
        let listen = format!("127.0.0.1:{port}");
        let webhook_url = format!("http://{listen}/webhooks");
        let mut args = vec!["--webhook-url", &webhook_url, "--webhook-secret", WEBHOOK_SECRET];
        if twice {
            args.push("--webhook-twice");
        }
        let app = PythonApp::start("customers_then_charges.py", &args);
        let input = format!("webhookSecret={WEBHOOK_SECRET}");
        let (exit, report) = run(&workflow, &app, &["--probes", "race", "--listen", &listen, "--input", &input])
            .never_printing(WEBHOOK_SECRET)
            .format_json()
            .code_and_json();
        assert_eq!(exit, code, "{report:#}");
        let webhook = &step(&report, "charge-customer")["webhook"];
        // The step's own key and the race's: one charge.succeeded each.
        assert_eq!((webhook["expected"].as_u64(), webhook["seen"].as_u64()), (Some(2), Some(seen)), "{report:#}");
        assert_eq!(webhook["outcome"], if twice { "fail" } else { "pass" }, "{report:#}");
        assert_eq!(step(&report, "charge-customer")["outcome"], if twice { "fail" } else { "pass" });
        // The failure is stated with its numbers, on the webhook and on its step.
        let finding = twice.then_some("webhook: charge.succeeded seen 4 times for 2 keys; expected 2");
        assert_eq!(step(&report, "charge-customer")["finding"].as_str(), finding, "{report:#}");
        assert_eq!(webhook["finding"].as_str(), finding.map(|f| f.trim_start_matches("webhook: ")), "{report:#}");
        assert_eq!(step(&report, "create-customer")["outcome"], "pass");
    }
}

#[test]
fn an_expected_webhook_seen_twice_per_key_is_a_junit_failure_with_its_numbers_on_its_case_and_its_step() {
    let dir = tempfile::tempdir().unwrap();
    let workflow = workflow_expecting_a_webhook(dir.path());
    let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let listen = format!("127.0.0.1:{port}");
    let webhook_url = format!("http://{listen}/webhooks");
    let app = PythonApp::start(
        "customers_then_charges.py",
        &["--webhook-url", &webhook_url, "--webhook-secret", WEBHOOK_SECRET, "--webhook-twice"],
    );
    let input = format!("webhookSecret={WEBHOOK_SECRET}");
    let finished = run(&workflow, &app, &["--probes", "retry", "--listen", &listen, "--input", &input])
        .args(["--format", "junit"])
        .never_printing(WEBHOOK_SECRET)
        .expect_exit(1)
        .finish();
    let document = roxmltree::Document::parse(&finished.stdout).expect("JUnit XML");
    // The retry is answered from the stored answer: one key, whose event came twice.
    let webhook = failure_message(&document, "charge-customer webhook");
    assert_eq!(webhook, "charge.succeeded seen 2 times for one key; expected 1", "{}", finished.stdout);
    assert_eq!(failure_message(&document, "charge-customer"), format!("webhook: {webhook}"), "{}", finished.stdout);
    assert_eq!(failure_message(&document, "charge-customer retry"), "", "{}", finished.stdout);
}

/// The count a ledger of the app holds now (`GET /customers/count`, `GET /charges/count`).
fn ledger(app: &PythonApp, path: &str) -> u64 {
    let body: Value = serde_json::from_str(&app.get(path)).unwrap();
    body["count"].as_u64().unwrap()
}

#[test]
fn the_summary_says_how_many_resources_the_run_created_by_the_counts_or_by_the_ids() {
    // Charges ignore the key: the retry probe charges a second time. Each operation declares its
    // ledger (x-idem-count-url): customers and charges, added up.
    let counted = app("ignore-key");
    let report = run(WORKFLOW, &counted, &["--probes", "retry"]).format_json().expect_exit(1).json();
    let made = ledger(&counted, "/customers/count") + ledger(&counted, "/charges/count");
    assert_eq!((ledger(&counted, "/customers/count"), ledger(&counted, "/charges/count")), (1, 2), "{report:#}");
    assert_eq!(report["created"]["basis"], "count", "{report:#}");
    assert_eq!(report["created"]["resources"].as_u64(), Some(made), "{report:#}");
    assert_eq!(report["created"]["ledgers"].as_array().map(Vec::len), Some(2), "{report:#}");

    // A document that declares no ledger, and no --count-url: every id the keyed steps and their
    // probes read, customers and charges, as a lower bound.
    let dir = tempfile::tempdir().unwrap();
    let document = std::fs::read_to_string("tests/fixtures/arazzo/customers-charges.openapi.yaml").unwrap();
    let uncounted: String =
        document.lines().filter(|line| !line.contains("x-idem-count")).map(|line| format!("{line}\n")).collect();
    let source = dir.path().join("uncounted.openapi.yaml");
    std::fs::write(&source, uncounted).unwrap();
    let app = app("ignore-key");
    let source = format!("payments={}", source.display());
    let finished =
        run(WORKFLOW, &app, &["--probes", "retry", "--color", "never", "--source", &source]).expect_exit(1).finish();
    let made = ledger(&app, "/customers/count") + ledger(&app, "/charges/count");
    let last = finished.stdout.lines().last().unwrap_or_default();
    assert!(
        last.starts_with(&format!("created at least {made} resources by distinct ids in the answers")),
        "{made} made: {}",
        finished.stdout
    );
}
