//! `idem check --openapi`: a whole API from its OpenAPI document. A FastAPI app (the framework's
//! own document, fetched from the app) with a correct operation, a naive one and one without the
//! header; and an excerpt of Adyen's published Checkout API spec run against `idem serve
//! --any-path`.
use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};
use std::time::Duration;

use idem::testing::serve::{Mode, ServeConfig};
use serde_json::Value;

use crate::support::{KillOnDrop, TestServer, idem};

const ADYEN: &str = "tests/fixtures/openapi/adyen-checkout-v71-excerpt.json";

/// Runs `idem check --openapi …  --format json`; the exit status and the validated document.
fn check_openapi(args: &[&str]) -> (i32, Value) {
    let output = idem()
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(["check", "--format", "json", "--window-max", "0"])
        .args(args)
        .timeout(Duration::from_secs(300))
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    let document: Value = serde_json::from_str(&stdout).unwrap_or_else(|err| {
        panic!("not JSON ({err}): {stdout}\nstderr: {}", String::from_utf8_lossy(&output.stderr))
    });
    crate::schemas::validate(&document);
    (output.status.code().unwrap(), document)
}

fn operation<'a>(report: &'a Value, operation_id: &str) -> &'a Value {
    report["operations"]
        .as_array()
        .unwrap()
        .iter()
        .find(|op| op["operation_id"] == operation_id)
        .unwrap_or_else(|| panic!("no operation {operation_id}: {report:#}"))
}

fn failing(op: &Value) -> Vec<String> {
    op["checks"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["outcome"] == "fail")
        .map(|c| c["id"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn a_published_payment_spec_is_planned_and_run_against_idem_serve() {
    let server = TestServer::start(ServeConfig {
        any_path: true,
        work: Duration::from_millis(5),
        ..ServeConfig::local(Mode::Correct)
    });
    let base = server.url("");
    // The refund operation's path parameter has no example in the spec: skipped, naming --param.
    let (code, report) = check_openapi(&["--openapi", ADYEN, "--base-url", &base, "-n", "5"]);
    assert_eq!(code, 0, "{report:#}");
    assert_eq!(report["schema"], "check-openapi/1");
    for id in ["post-cancels", "post-orders"] {
        let op = operation(&report, id);
        assert_eq!(op["outcome"], "pass", "{op:#}");
        assert_eq!(op["body_origin"], "operation-example", "{op:#}");
        assert!(
            op["checks"].as_array().unwrap().iter().any(|c| c["id"] == "concurrent-once" && c["outcome"] == "pass")
        );
    }
    let refunds = operation(&report, "post-payments-paymentPspReference-refunds");
    assert_eq!(refunds["outcome"], "skip");
    assert!(refunds["reason"].as_str().unwrap().contains("--param paymentPspReference=VALUE"), "{refunds:#}");
    assert!(server.summary().payments_created > 0);

    // With the parameter, all three run; against a naive server, each fails concurrent-once
    // and comes with a curl command that reproduces its first request.
    let naive = TestServer::start(ServeConfig {
        any_path: true,
        work: Duration::from_millis(20),
        ..ServeConfig::local(Mode::Naive)
    });
    let (code, report) = check_openapi(&[
        "--openapi",
        ADYEN,
        "--base-url",
        &naive.url(""),
        "--param",
        "paymentPspReference=QFQTPCQ8HXSKGK82",
        "-n",
        "5",
    ]);
    assert_eq!(code, 1, "{report:#}");
    assert_eq!(report["failed"], 3, "{report:#}");
    let refunds = operation(&report, "post-payments-paymentPspReference-refunds");
    assert!(refunds["url"].as_str().unwrap().ends_with("/payments/QFQTPCQ8HXSKGK82/refunds"), "{refunds:#}");
    assert!(failing(refunds).contains(&"concurrent-once".to_string()), "{refunds:#}");
    let curl = refunds["curl"].as_str().unwrap();
    assert!(curl.starts_with("curl -X POST") && curl.contains("/payments/QFQTPCQ8HXSKGK82/refunds"), "{curl}");
    assert!(curl.contains("merchantAccount"), "the body is in the command: {curl}");
}

#[test]
fn filters_choose_operations_and_say_why_the_rest_were_skipped() {
    let server = TestServer::start(ServeConfig {
        any_path: true,
        work: Duration::from_millis(5),
        ..ServeConfig::local(Mode::Correct)
    });
    let (code, report) = check_openapi(&[
        "--openapi",
        ADYEN,
        "--base-url",
        &server.url(""),
        "--include-path-regex",
        "^/(cancels|orders)$",
        "--exclude-operation-id",
        "post-orders",
        "-n",
        "3",
    ]);
    assert_eq!(code, 0, "{report:#}");
    assert_eq!(operation(&report, "post-cancels")["outcome"], "pass");
    assert_eq!(operation(&report, "post-orders")["reason"], "matched by --exclude-operation-id");
    assert_eq!(
        operation(&report, "post-payments-paymentPspReference-refunds")["reason"],
        "not matched by --include-path-regex"
    );

    // JUnit: one testsuite per operation.
    let output = idem()
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(["check", "--openapi", ADYEN, "--base-url", &server.url(""), "-n", "3", "--window-max", "0"])
        .args(["--include-operation-id", "post-cancels", "--format", "junit"])
        .output()
        .unwrap();
    let xml = String::from_utf8(output.stdout).unwrap();
    let document = roxmltree::Document::parse(&xml).unwrap_or_else(|err| panic!("{err}: {xml}"));
    let suites: Vec<_> = document.descendants().filter(|n| n.has_tag_name("testsuite")).collect();
    assert_eq!(suites.len(), 3, "{xml}");
    assert!(suites.iter().any(|s| s.attribute("name") == Some("POST /cancels (post-cancels)")), "{xml}");
    assert_eq!(output.status.code(), Some(0), "{xml}");
}

#[test]
fn specs_that_cannot_be_tested_exit_2_saying_why() {
    let dir = tempfile::tempdir().unwrap();
    let swagger = dir.path().join("swagger.json");
    std::fs::write(&swagger, r#"{"swagger": "2.0", "paths": {}}"#).unwrap();
    let remote = dir.path().join("remote.yaml");
    std::fs::write(
        &remote,
        "openapi: 3.0.3\ninfo: {title: t, version: '1'}\nservers: [{url: 'http://127.0.0.1:9/'}]\npaths:\n  /p:\n    post:\n      \
         parameters: [{$ref: 'common.yaml#/components/parameters/Key'}]\n      responses: {'201': {description: ok}}\n",
    )
    .unwrap();
    let none = dir.path().join("none.yaml");
    std::fs::write(
        &none,
        "openapi: 3.1.0\ninfo: {title: t, version: '1'}\nservers: [{url: 'http://127.0.0.1:9/'}]\npaths:\n  /p:\n    get:\n      \
         responses: {'200': {description: ok}}\n",
    )
    .unwrap();
    for (spec, complaint) in [
        (swagger.to_str().unwrap(), "Swagger 2.0"),
        (remote.to_str().unwrap(), "GET /p"),
        (none.to_str().unwrap(), "no operation"),
        ("/nonexistent/openapi.json", "cannot read the OpenAPI document"),
    ] {
        let assert = idem().args(["check", "--openapi", spec]).assert().code(2);
        let stderr = String::from_utf8_lossy(&assert.get_output().stderr).to_string();
        assert!(stderr.contains(complaint) || spec.contains("remote"), "{spec}: {stderr}");
        if spec.contains("remote") {
            assert!(stderr.contains("points outside this document"), "{stderr}");
        }
    }
    idem().args(["check", "--openapi", ADYEN, "-d", "{}"]).assert().code(2);
    idem().args(["check", "--base-url", "http://x"]).assert().code(2);
}

/// The FastAPI app: `POST /payments` handles keys correctly, `POST /orders` checks the key but
/// claims it only after the work (the classic race), `POST /notes` declares no key. Pydantic
/// bodies with constraints, so a body that does not follow the schema gets 422.
const FASTAPI_APP: &str = r#"
import asyncio, hashlib, json, socket, sys, uuid
from datetime import datetime
from typing import Literal, Optional
from fastapi import FastAPI, Header, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field
import uvicorn

app = FastAPI(title="shop")

class Payment(BaseModel):
    amount: int = Field(ge=100, le=1_000_000)
    currency: Literal["eur", "usd"]
    reference: str = Field(pattern=r"^ord_[a-z0-9]{6}$")
    request_id: uuid.UUID
    note: Optional[str] = Field(default=None, max_length=20)

class Order(BaseModel):
    sku: str = Field(min_length=3, max_length=12)
    quantity: int = Field(gt=0)
    placed_at: datetime

class Note(BaseModel):
    text: str

keys = {}
orders_done = {}

def fingerprint(path, raw):
    return hashlib.sha256(path.encode() + b" " + raw).hexdigest()

@app.post("/payments", status_code=201)
async def create_payment(payment: Payment, request: Request,
                         idempotency_key: Optional[str] = Header(default=None, alias="Idempotency-Key")):
    raw = await request.body()
    made = lambda: {"id": "pay_" + uuid.uuid4().hex, "amount": payment.amount, "currency": payment.currency}
    if idempotency_key is None:
        await asyncio.sleep(0.01)
        return JSONResponse(made(), status_code=201)
    print_ = fingerprint("/payments", raw)
    entry = keys.get(idempotency_key)
    if entry is not None:
        if entry["fingerprint"] != print_:
            return JSONResponse({"detail": "key reused with another body"}, status_code=422)
        if entry["answer"] is None:
            return JSONResponse({"detail": "in flight"}, status_code=409, headers={"Retry-After": "1"})
        return JSONResponse(entry["answer"], status_code=201, headers={"Idempotent-Replayed": "true"})
    keys[idempotency_key] = {"fingerprint": print_, "answer": None}
    await asyncio.sleep(0.02)
    answer = made()
    keys[idempotency_key]["answer"] = answer
    return JSONResponse(answer, status_code=201)

@app.post("/orders", status_code=201)
async def create_order(order: Order,
                       idempotency_key: Optional[str] = Header(default=None, alias="Idempotency-Key")):
    if idempotency_key in orders_done:
        return JSONResponse(orders_done[idempotency_key], status_code=201, headers={"Idempotent-Replayed": "true"})
    await asyncio.sleep(0.05)
    answer = {"id": "ord_" + uuid.uuid4().hex, "sku": order.sku}
    if idempotency_key is not None:
        orders_done[idempotency_key] = answer
    return JSONResponse(answer, status_code=201)

@app.post("/notes", status_code=201)
async def create_note(note: Note):
    return {"id": "note_" + uuid.uuid4().hex}

sock = socket.socket()
sock.bind(("127.0.0.1", 0))
print(sock.getsockname()[1], flush=True)
uvicorn.run(app, fd=sock.fileno(), log_level="warning")
"#;

#[test]
fn a_fastapi_app_is_judged_per_operation_from_its_own_document() {
    let references = crate::differential::references();
    let dir = tempfile::tempdir().unwrap();
    let script = dir.path().join("app.py");
    std::fs::write(&script, FASTAPI_APP).unwrap();
    let mut child =
        Command::new(&references.python).arg(&script).stdout(Stdio::piped()).stderr(Stdio::inherit()).spawn().unwrap();
    let stdout = child.stdout.take().unwrap();
    let _app = KillOnDrop::new(child);
    let mut port = String::new();
    BufReader::new(stdout).read_line(&mut port).unwrap();
    let spec = format!("http://127.0.0.1:{}/openapi.json", port.trim());
    wait_for(&spec);
    // No --base-url and no `servers` in FastAPI's document: the origin the spec came from.
    let (code, report) = check_openapi(&["--openapi", &spec, "-n", "5"]);
    assert_eq!(code, 1, "{report:#}");
    assert_eq!(report["base_url"], format!("http://127.0.0.1:{}/", port.trim()), "{report:#}");
    let payments = operation(&report, "create_payment_payments_post");
    assert_eq!(payments["outcome"], "pass", "{payments:#}");
    assert_eq!(payments["body_origin"], "generated");
    let orders = operation(&report, "create_order_orders_post");
    assert_eq!(orders["outcome"], "fail", "{orders:#}");
    assert!(failing(orders).contains(&"concurrent-once".to_string()), "{orders:#}");
    let notes = operation(&report, "create_note_notes_post");
    assert_eq!(notes["outcome"], "skip");
    assert!(notes["reason"].as_str().unwrap().contains("declares no Idempotency-Key header"), "{notes:#}");
    // The human report: a closing table and the failure's reproduction.
    let output = idem().args(["check", "--openapi", &spec, "-n", "5", "--window-max", "0"]).output().unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(stdout.contains("FAIL   POST /orders (create_order_orders_post)"), "{stdout}");
    assert!(stdout.contains("reproduce: curl -X POST 'http://127.0.0.1:"), "{stdout}");
    assert!(stdout.contains("2 tested (1 passed, 1 failed)"), "{stdout}");
    // Without the generated body's validity, FastAPI would answer 422 and `create` would fail:
    // that create passed shows the body met the pydantic constraints.
    assert!(
        payments["checks"].as_array().unwrap().iter().any(|c| c["id"] == "create" && c["outcome"] == "pass"),
        "{payments:#}"
    );
}

/// Waits until the app answers its document.
fn wait_for(url: &str) {
    let deadline = std::time::Instant::now() + Duration::from_secs(30);
    let address = url.trim_start_matches("http://").split('/').next().unwrap().to_string();
    while std::net::TcpStream::connect(&address).is_err() {
        assert!(std::time::Instant::now() < deadline, "the app at {url} never answered");
        std::thread::sleep(Duration::from_millis(50));
    }
}
