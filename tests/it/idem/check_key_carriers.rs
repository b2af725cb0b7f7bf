//! `idem check --key-in`: the whole suite with the key where the API reads it, in the JSON body
//! (Square), a GraphQL `@idempotent` directive (Shopify's Admin API) or a JSON-RPC call's meta
//! (ACP's MCP binding), against apps that read it only there; the checks that change the key or
//! leave it out do so where it lives.
use serde_json::Value;

use crate::support::apps::PythonApp;
use crate::support::run::{Finished, Run};

const SQUARE_PAYMENT: &str = r#"{"source_id":"cnon:card-nonce-ok","amount_money":{"amount":100,"currency":"USD"}}"#;
const REFUND: &str = r#"{"query":"mutation Refund($input: RefundInput!) {\n  refundCreate(input: $input) { refund { id } userErrors { message } }\n}","variables":{"input":{"orderId":"gid://shopify/Order/1"}}}"#;
const CHECKOUT: &str = r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"create_checkout_session","arguments":{"meta":{"api_version":"2026-01-30"},"payload":{"items":[{"id":"item_1","quantity":1}]}}}}"#;

/// `idem check` against `app` with the key in `key_in`, counted by the app's ledger.
fn check(app: &PythonApp, path: &str, body: &str, id_field: &str, key_in: &str) -> Run {
    Run::idem([
        "check",
        &app.url(path),
        "-d",
        body,
        "--id-field",
        id_field,
        "--key-in",
        key_in,
        "--count-url",
        &app.url("/charges"),
        "--count-pointer",
        "/count",
    ])
    .format_json()
}

fn outcome(finished: &Finished, id: &str) -> String {
    finished.outcomes().get(id).cloned().unwrap_or_else(|| panic!("no check {id}: {}", finished.stdout))
}

/// The checks every carrier's app here holds, each judged (not skipped).
const HELD_EVERYWHERE: [&str; 7] = [
    "create",
    "retry-replays",
    "mismatch-rejected",
    "concurrent-once",
    "new-key-creates",
    "equal-json-replays",
    "effect-then-failure",
];

fn assert_held(finished: &Finished, ids: &[&str]) {
    for id in ids {
        assert_eq!(outcome(finished, id), "pass", "{id}: {}", finished.evidence(id));
    }
}

#[test]
fn a_square_style_body_key_passes_the_suite_and_every_key_went_into_the_body() {
    let app = PythonApp::start("payments_keyed_in_the_body.py", &[]);
    let finished = check(&app, "/v2/payments", SQUARE_PAYMENT, "/payment/id", "body:/idempotency_key").finish();
    assert_eq!(finished.code, 0, "{}\n{}", finished.stdout, finished.stderr);
    let report = finished.json();
    assert_eq!(report["key_in"], "body:/idempotency_key");
    assert_held(&finished, &HELD_EVERYWHERE);
    // The app refuses an empty or over-long member with 400: the syntax check sent them there.
    assert_eq!(outcome(&finished, "key-syntax"), "pass", "{}", finished.evidence("key-syntax"));
    // The changed body carried the key too: refused as a reused key, not as a missing one.
    let mismatch = finished.evidence("mismatch-rejected");
    assert!(mismatch.contains("IDEMPOTENCY_KEY_REUSED"), "{mismatch}");
    let syntax = finished.evidence("key-syntax");
    assert!(syntax.contains("an empty key (body:/idempotency_key) → 400"), "{syntax}");
    assert!(syntax.contains("a structured-field string is a header's notion"), "{syntax}");
    // Without a key, the member is left out, and the app says which field is missing.
    let missing = finished.evidence("missing-key");
    assert!(missing.contains("→ 400") && missing.contains("MISSING_REQUIRED_PARAMETER"), "{missing}");
    // Every payment the app made came with a key in the body: none of them was keyed by a header.
    let ledger: Value = serde_json::from_str(&app.get("/charges")).unwrap();
    assert!(ledger["count"].as_u64().unwrap() >= 3, "{ledger}");
}

#[test]
fn a_body_keyed_api_that_ignores_its_key_fails_the_suite() {
    let app = PythonApp::start("payments_keyed_in_the_body.py", &["--ignore-key"]);
    let finished = check(&app, "/v2/payments", SQUARE_PAYMENT, "/payment/id", "body:/idempotency_key").finish();
    assert_eq!(finished.code, 1, "{}\n{}", finished.stdout, finished.stderr);
    assert_eq!(outcome(&finished, "retry-replays"), "fail", "{}", finished.evidence("retry-replays"));
    assert_eq!(outcome(&finished, "concurrent-once"), "fail", "{}", finished.evidence("concurrent-once"));
}

#[test]
fn a_graphql_idempotent_mutation_passes_the_suite() {
    let app = PythonApp::start("graphql_mutations_keyed_by_directive.py", &[]);
    let finished = check(&app, "/graphql", REFUND, "/data/refundCreate/refund/id", "graphql").finish();
    assert_eq!(finished.code, 0, "{}\n{}", finished.stdout, finished.stderr);
    assert_eq!(finished.json()["key_in"], "graphql");
    assert_held(&finished, &HELD_EVERYWHERE);
    // The changed request is the mutation's variables, never the query text with its directive.
    let mismatch = finished.evidence("mismatch-rejected");
    assert!(mismatch.contains("in variables") && mismatch.contains("→ 422"), "{mismatch}");
    assert_eq!(outcome(&finished, "mismatch-is-422"), "pass");
    let missing = finished.evidence("missing-key");
    assert!(missing.contains("The @idempotent directive is required"), "{missing}");
    assert_eq!(outcome(&finished, "key-syntax"), "pass", "{}", finished.evidence("key-syntax"));
}

#[test]
fn a_json_rpc_meta_key_passes_the_suite() {
    let app = PythonApp::start("mcp_checkout_keyed_in_meta.py", &[]);
    let finished = check(&app, "/mcp", CHECKOUT, "/result/id", "jsonrpc-meta").finish();
    assert_eq!(finished.code, 0, "{}\n{}", finished.stdout, finished.stderr);
    assert_eq!(finished.json()["key_in"], "jsonrpc-meta");
    assert_held(&finished, &HELD_EVERYWHERE);
    // The payload changed, not the call's id or its meta.
    let mismatch = finished.evidence("mismatch-rejected");
    assert!(mismatch.contains("in params.arguments.payload"), "{mismatch}");
    // The binding makes the key optional: without one, the call executes, as reported.
    let missing = finished.evidence("missing-key");
    assert!(missing.contains("nothing at jsonrpc-meta") && missing.contains("executed without a key"), "{missing}");
    // An empty meta key executes here: the warning's fix is about the key where it is read, not
    // about a header's sf-string.
    let report = finished.json();
    let syntax = report["checks"].as_array().unwrap().iter().find(|check| check["id"] == "key-syntax").unwrap();
    assert_eq!(syntax["outcome"], "warn", "{syntax}");
    assert_eq!(syntax["fix"], "refuse an empty key and one over 255 characters with 400 where the key is read");
}

#[test]
fn a_key_in_the_query_is_left_out_by_missing_key_and_emptied_by_key_syntax() {
    let app = PythonApp::start("payments_keyed_in_the_body.py", &["--key-from", "query"]);
    let finished = Run::idem([
        "check",
        &app.url("/v2/payments?region=eu"),
        "-d",
        SQUARE_PAYMENT,
        "--id-field",
        "/payment/id",
        "--key-in",
        "query:idempotency_key",
        "--only",
        "retry-replays",
        "--only",
        "missing-key",
        "--only",
        "key-syntax",
    ])
    .format_json()
    .finish();
    assert_eq!(finished.code, 0, "{}\n{}", finished.stdout, finished.stderr);
    assert_held(&finished, &["retry-replays", "missing-key", "key-syntax"]);
    assert!(finished.evidence("missing-key").contains("MISSING_REQUIRED_PARAMETER"));
}

#[test]
fn path_scoped_carries_a_query_key_to_the_other_endpoint() {
    // The app keys its store by the key alone, so the same key on another path gets the first
    // payment back: caught only if the key reached the other URL's query.
    let app = PythonApp::start("payments_keyed_in_the_body.py", &["--key-from", "query"]);
    let finished = Run::idem([
        "check",
        &app.url("/v2/payments"),
        "-d",
        SQUARE_PAYMENT,
        "--id-field",
        "/payment/id",
        "--key-in",
        "query:idempotency_key",
        "--other-url",
        &app.url("/v2/refunds"),
        "--only",
        "path-scoped",
    ])
    .format_json()
    .finish();
    assert_eq!(finished.code, 1, "{}\n{}", finished.stdout, finished.stderr);
    let evidence = finished.evidence("path-scoped");
    assert_eq!(outcome(&finished, "path-scoped"), "fail", "{evidence}");
    assert!(evidence.contains("/v2/refunds was answered with"), "{evidence}");
}
