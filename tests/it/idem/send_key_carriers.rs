//! `idem send --key-in`: the key where the API reads it, in the JSON body (Square), the query, a
//! GraphQL `@idempotent` directive (Shopify's Admin API) or a JSON-RPC request's meta (ACP's MCP
//! binding), against apps that read it only there; and the bodies that cannot carry it.
use serde_json::Value;

use crate::support::apps::PythonApp;
use crate::support::run::Run;

const SQUARE_PAYMENT: &str = r#"{"source_id":"cnon:card-nonce-ok","amount_money":{"amount":100,"currency":"USD"}}"#;
const REFUND: &str = r#"{"query":"mutation Refund($input: RefundInput!) {\n  refundCreate(input: $input) { refund { id } userErrors { message } }\n}","variables":{"input":{"orderId":"gid://shopify/Order/1"}}}"#;
const CHECKOUT: &str = r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"create_checkout_session","arguments":{"meta":{"api_version":"2026-01-30"},"payload":{"items":[{"id":"item_1","quantity":1}]}}}}"#;

fn ledger(app: &PythonApp) -> Value {
    serde_json::from_str(&app.get("/charges")).expect("the ledger is JSON")
}

fn send(app: &PythonApp, path: &str, body: &str, id_field: &str, key_in: &str) -> (i32, Value) {
    Run::idem(["send", &app.url(path), "-d", body, "--repeat", "3", "--id-field", id_field, "--key-in", key_in])
        .format_json()
        .code_and_json()
}

#[test]
fn a_key_in_the_body_is_deduplicated_by_an_api_that_reads_it_there() {
    let app = PythonApp::start("payments_keyed_in_the_body.py", &[]);
    let (code, report) = send(&app, "/v2/payments", SQUARE_PAYMENT, "/payment/id", "body:/idempotency_key");
    assert_eq!(code, 0, "{report}");
    assert_eq!(report["key_in"], "body:/idempotency_key");
    assert_eq!(report["judgement"]["executions"], 1, "{report}");
    let ledger = ledger(&app);
    assert_eq!(ledger["count"], 1, "one payment for three requests: {ledger}");
    assert_eq!(ledger["keys"], serde_json::json!([report["key"]]), "the key reached the body");
}

#[test]
fn a_body_keyed_api_that_ignores_its_key_is_caught() {
    let app = PythonApp::start("payments_keyed_in_the_body.py", &["--ignore-key"]);
    let (code, report) = send(&app, "/v2/payments", SQUARE_PAYMENT, "/payment/id", "body:/idempotency_key");
    assert_eq!(code, 1, "{report}");
    assert_eq!(report["judgement"]["verdict"]["kind"], "executed_more_than_once", "{report}");
    assert_eq!(ledger(&app)["count"], 3);
}

#[test]
fn the_key_moves_out_of_the_header_and_each_run_draws_a_fresh_one() {
    let app = PythonApp::start("payments_keyed_in_the_body.py", &[]);
    // The header alone does not reach a body-keyed API: every request is refused.
    let header = Run::idem(["send", &app.url("/v2/payments"), "-d", SQUARE_PAYMENT]).finish();
    assert_ne!(header.code, 0, "{}", header.stdout);
    assert!(header.stdout.contains("400"), "{}", header.stdout);
    for _ in 0..2 {
        let (code, _) = send(&app, "/v2/payments", SQUARE_PAYMENT, "/payment/id", "body:/idempotency_key");
        assert_eq!(code, 0);
    }
    let ledger = ledger(&app);
    assert_eq!(ledger["count"], 2, "two runs, two keys, two payments: {ledger}");
    assert_eq!(ledger["keys"].as_array().unwrap().len(), 2, "{ledger}");
}

#[test]
fn a_key_in_the_query_reaches_the_api_percent_encoded() {
    let app = PythonApp::start("payments_keyed_in_the_body.py", &["--key-from", "query"]);
    let key = "order 7/&retry";
    let finished = Run::idem([
        "send",
        &app.url("/v2/payments?region=eu"),
        "-d",
        SQUARE_PAYMENT,
        "--repeat",
        "2",
        "--id-field",
        "/payment/id",
        "--key-in",
        "query:idempotency_key",
        "--key",
        key,
    ])
    .expect_exit(0)
    .finish();
    assert!(finished.stdout.contains("Key (query idempotency_key): order 7/&retry"), "{}", finished.stdout);
    assert_eq!(ledger(&app)["keys"], serde_json::json!([key]), "decoded by the API as it was given");
}

#[test]
fn a_graphql_mutation_carries_its_key_in_the_idempotent_directive() {
    let app = PythonApp::start("graphql_mutations_keyed_by_directive.py", &[]);
    let (code, report) = send(&app, "/graphql", REFUND, "/data/refundCreate/refund/id", "graphql");
    assert_eq!(code, 0, "{report}");
    assert_eq!(report["key_in"], "graphql");
    let ledger = ledger(&app);
    assert_eq!(ledger["count"], 1, "{ledger}");
    assert_eq!(ledger["keys"], serde_json::json!([report["key"]]));
    // Without the directive the mutation is refused, as Shopify does from 2026-04.
    let header = Run::idem(["send", &app.url("/graphql"), "-d", REFUND]).finish();
    assert!(header.stdout.contains("400"), "{}", header.stdout);
}

#[test]
fn a_graphql_query_is_not_a_mutation_and_is_refused_before_sending() {
    let app = PythonApp::start("graphql_mutations_keyed_by_directive.py", &[]);
    let finished =
        Run::idem(["send", &app.url("/graphql"), "-d", r#"{"query":"{ shop { name } }"}"#, "--key-in", "graphql"])
            .expect_exit(2)
            .finish();
    assert!(finished.stderr.contains("needs a mutation"), "{}", finished.stderr);
    assert_eq!(ledger(&app)["count"], 0);
}

#[test]
fn a_json_rpc_tool_call_carries_its_key_in_the_arguments_meta() {
    let app = PythonApp::start("mcp_checkout_keyed_in_meta.py", &[]);
    let (code, report) = send(&app, "/mcp", CHECKOUT, "/result/id", "jsonrpc-meta");
    assert_eq!(code, 0, "{report}");
    assert_eq!(report["key_in"], "jsonrpc-meta");
    assert_eq!(ledger(&app)["keys"], serde_json::json!([report["key"]]));
    // The binding reads no header: with the key there, every call is a new session.
    let (code, header) =
        Run::idem(["send", &app.url("/mcp"), "-d", CHECKOUT, "--repeat", "2", "--id-field", "/result/id"])
            .format_json()
            .code_and_json();
    assert_eq!(code, 1, "{header}");
    assert_eq!(ledger(&app)["count"], 3);
}

#[test]
fn bodies_that_cannot_carry_the_key_exit_2_with_the_reason() {
    let cases: [(&[&str], &str); 5] = [
        (&["-d", "amount=100", "--key-in", "body:/idempotency_key"], "needs a JSON body"),
        (&["-d", r#"{"meta":[1]}"#, "--key-in", "body:/meta/key"], "/meta is not a JSON object"),
        (&["-d", r#"{"id":1}"#, "--key-in", "jsonrpc-meta"], "JSON-RPC 2.0 request"),
        (&["-d", r#"{"id":1}"#, "--key-in", "cookie:k"], "is not one of header:NAME"),
        (&["-d", r#"{"id":1}"#, "--key-in", "header:X-Key", "--key-header", "X-Other"], "cannot be used with"),
    ];
    for (args, reason) in cases {
        // Nothing listens there: the refusal comes before any request.
        let finished = Run::idem(["send", "http://127.0.0.1:9/p"]).args(args).expect_exit(2).finish();
        assert!(finished.stderr.contains(reason), "{args:?}: {}", finished.stderr);
        assert!(!finished.stderr.contains("panicked"), "{}", finished.stderr);
    }
}
