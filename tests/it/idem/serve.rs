//! The reference server's every outcome, through real sockets.
use std::time::Duration;

use bytes::Bytes;
use http::{Method, Request};
use idem::testing::client::{ClientOptions, Exchange, HttpClient};
use idem::testing::serve::{Mode, RequestOutcome, ServeConfig};
use serde_json::Value;

use crate::support::{TestServer, runtime};

const PAYMENT: &str = r#"{"amount":1990,"currency":"RUB","order_id":42}"#;

fn client(http2: bool) -> HttpClient {
    HttpClient::new(ClientOptions { timeout: Duration::from_secs(20), insecure: true, http2 }).expect("client")
}

fn post(url: &str, key: Option<&str>, body: &str) -> Request<Bytes> {
    let mut request = Request::builder().method(Method::POST).uri(url).header("content-type", "application/json");
    if let Some(key) = key {
        request = request.header("idempotency-key", key);
    }
    request.body(Bytes::from(body.to_string())).expect("request")
}

fn send(request: Request<Bytes>) -> Exchange {
    runtime().block_on(client(false).send(request)).expect("answer")
}

fn json(exchange: &Exchange) -> Value {
    serde_json::from_slice(&exchange.body).expect("JSON body")
}

fn content_type(exchange: &Exchange) -> &str {
    exchange.headers.get("content-type").and_then(|v| v.to_str().ok()).unwrap_or_default()
}

#[test]
fn creates_then_replays_byte_identical() {
    let server = TestServer::start(ServeConfig::local(Mode::Correct));
    let url = server.url("/payments");
    let first = send(post(&url, Some("key-1"), PAYMENT));
    assert_eq!(first.status, 201);
    let payment = json(&first);
    assert!(payment["id"].as_str().unwrap().starts_with("pay_"));
    assert_eq!(payment["amount"], 1990);
    assert_eq!(payment["status"], "succeeded");
    assert!(first.headers.get("idempotent-replayed").is_none());

    let replay = send(post(&url, Some("key-1"), PAYMENT));
    assert_eq!(replay.status, 201);
    assert_eq!(replay.body, first.body, "the replay must be byte-identical");
    assert_eq!(replay.headers["idempotent-replayed"], "true");

    let summary = server.summary();
    assert_eq!(summary.payments_created, 1);
    assert_eq!(summary.count(RequestOutcome::Created), 1);
    assert_eq!(summary.count(RequestOutcome::Replayed), 1);
}

#[test]
fn a_quoted_key_is_the_same_key() {
    let server = TestServer::start(ServeConfig::local(Mode::Correct));
    let url = server.url("/payments");
    let first = send(post(&url, Some("abc"), PAYMENT));
    let replay = send(post(&url, Some("\"abc\""), PAYMENT));
    assert_eq!(replay.body, first.body);
    assert_eq!(replay.headers["idempotent-replayed"], "true");
}

#[test]
fn a_duplicate_in_flight_gets_409_with_retry_after() {
    let server = TestServer::start(ServeConfig { work: Duration::from_secs(2), ..ServeConfig::local(Mode::Correct) });
    let url = server.url("/payments");
    let (a, b) = runtime().block_on(async {
        let client = client(false);
        tokio::join!(client.send(post(&url, Some("k"), PAYMENT)), client.send(post(&url, Some("k"), PAYMENT)))
    });
    let mut answers = [a.expect("answer"), b.expect("answer")];
    answers.sort_by_key(|exchange| exchange.status);
    assert_eq!(answers[0].status, 201);
    assert_eq!(answers[1].status, 409);
    assert_eq!(answers[1].headers["retry-after"], "1");
    assert_eq!(content_type(&answers[1]), "application/problem+json");
    assert_eq!(server.summary().payments_created, 1);
}

#[test]
fn the_same_key_with_another_body_gets_422() {
    let server = TestServer::start(ServeConfig::local(Mode::Correct));
    let url = server.url("/payments");
    assert_eq!(send(post(&url, Some("k"), PAYMENT)).status, 201);
    let mismatch = send(post(&url, Some("k"), r#"{"amount":5000,"currency":"RUB"}"#));
    assert_eq!(mismatch.status, 422);
    assert_eq!(content_type(&mismatch), "application/problem+json");
    assert_eq!(json(&mismatch)["status"], 422);
    assert_eq!(server.summary().payments_created, 1);
}

#[test]
fn invalid_bodies_get_400_problems_and_claim_nothing() {
    let server = TestServer::start(ServeConfig::local(Mode::Correct));
    let url = server.url("/payments");
    for body in ["{not json", r#"{"amount":-5}"#, r#"{"amount":"12"}"#, "[]"] {
        let answer = send(post(&url, Some("k"), body));
        assert_eq!(answer.status, 400, "{body}");
        assert_eq!(content_type(&answer), "application/problem+json");
        assert!(json(&answer)["detail"].as_str().unwrap().len() > 10);
    }
    // The key was never claimed by the invalid requests, so a valid one with it executes.
    assert_eq!(send(post(&url, Some("k"), PAYMENT)).status, 201);
}

#[test]
fn invalid_keys_get_400() {
    let server = TestServer::start(ServeConfig::local(Mode::Correct));
    let url = server.url("/payments");
    let long_key = "k".repeat(256);
    for key in [long_key.as_str(), "\"\"", "\"unterminated\\\""] {
        let answer = send(post(&url, Some(key), PAYMENT));
        assert_eq!(answer.status, 400, "{key}");
    }
    assert_eq!(server.summary().payments_created, 0);
}

#[test]
fn require_key_makes_a_missing_key_400() {
    let server = TestServer::start(ServeConfig { require_key: true, ..ServeConfig::local(Mode::Correct) });
    let answer = send(post(&server.url("/payments"), None, PAYMENT));
    assert_eq!(answer.status, 400);
    assert_eq!(json(&answer)["type"], "/problems/missing-key");
    assert_eq!(server.summary().count(RequestOutcome::MissingKey), 1);
    assert_eq!(server.summary().payments_created, 0);
}

#[test]
fn without_require_key_a_keyless_post_just_executes() {
    let server = TestServer::start(ServeConfig::local(Mode::Correct));
    let url = server.url("/payments");
    let a = send(post(&url, None, PAYMENT));
    let b = send(post(&url, None, PAYMENT));
    assert_eq!((a.status.as_u16(), b.status.as_u16()), (201, 201));
    assert_ne!(json(&a)["id"], json(&b)["id"]);
}

#[test]
fn keys_expire_after_the_ttl() {
    let server = TestServer::start(ServeConfig { ttl: Duration::from_millis(50), ..ServeConfig::local(Mode::Correct) });
    let url = server.url("/payments");
    let first = send(post(&url, Some("k"), PAYMENT));
    std::thread::sleep(Duration::from_millis(200));
    let after = send(post(&url, Some("k"), PAYMENT));
    assert_eq!(after.status, 201);
    assert!(after.headers.get("idempotent-replayed").is_none());
    assert_ne!(json(&first)["id"], json(&after)["id"]);
    assert_eq!(server.summary().payments_created, 2);
}

#[test]
fn naive_mode_executes_concurrent_duplicates_but_replays_sequential_ones() {
    let server = TestServer::start(ServeConfig { work: Duration::from_millis(500), ..ServeConfig::local(Mode::Naive) });
    let url = server.url("/payments");
    let (a, b) = runtime().block_on(async {
        let client = client(false);
        tokio::join!(client.send(post(&url, Some("k"), PAYMENT)), client.send(post(&url, Some("k"), PAYMENT)))
    });
    let (a, b) = (a.expect("answer"), b.expect("answer"));
    assert_eq!((a.status.as_u16(), b.status.as_u16()), (201, 201));
    assert_ne!(json(&a)["id"], json(&b)["id"], "the naive design lets both execute");
    let later = send(post(&url, Some("k"), PAYMENT));
    assert_eq!(later.headers["idempotent-replayed"], "true");
}

#[test]
fn none_mode_ignores_keys() {
    let server = TestServer::start(ServeConfig::local(Mode::None));
    let url = server.url("/payments");
    let a = send(post(&url, Some("k"), PAYMENT));
    let b = send(post(&url, Some("k"), PAYMENT));
    assert_ne!(json(&a)["id"], json(&b)["id"]);
    assert_eq!(server.summary().payments_created, 2);
}

#[test]
fn payments_can_be_listed_and_fetched() {
    let server = TestServer::start(ServeConfig::local(Mode::Correct));
    let created = json(&send(post(&server.url("/payments"), Some("k"), PAYMENT)));
    let id = created["id"].as_str().unwrap();
    let get = |path: &str| send(Request::get(server.url(path)).body(Bytes::new()).unwrap());
    let list = get("/payments");
    assert_eq!(json(&list)["count"], 1);
    assert_eq!(json(&list)["has_more"], false);
    assert_eq!(json(&list)["data"][0]["id"], id);
    assert_eq!(json(&get(&format!("/payments/{id}")))["amount"], 1990);
    assert_eq!(get("/payments/pay_nope").status, 404);
    assert_eq!(get("/elsewhere").status, 404);
    let delete = send(Request::delete(server.url("/payments")).body(Bytes::new()).unwrap());
    assert_eq!(delete.status, 405);
    assert_eq!(delete.headers["allow"], "GET, POST");
}

#[test]
fn bodies_over_the_limit_get_413() {
    let server = TestServer::start(ServeConfig { max_body: 64, ..ServeConfig::local(Mode::Correct) });
    let big = format!(r#"{{"amount":1,"description":"{}"}}"#, "x".repeat(200));
    assert_eq!(send(post(&server.url("/payments"), Some("k"), &big)).status, 413);
}

#[test]
fn speaks_h2c_on_the_same_port() {
    let server = TestServer::start(ServeConfig::local(Mode::Correct));
    let answer = runtime().block_on(client(true).send(post(&server.url("/payments"), Some("k"), PAYMENT))).unwrap();
    assert_eq!(answer.version, http::Version::HTTP_2);
    assert_eq!(answer.status, 201);
}

#[test]
fn serves_https_with_alpn_h2() {
    let server = TestServer::start(ServeConfig { tls: true, ..ServeConfig::local(Mode::Correct) });
    assert!(server.url("/").starts_with("https://"));
    let answer = send(post(&server.url("/payments"), Some("k"), PAYMENT));
    assert_eq!(answer.version, http::Version::HTTP_2, "ALPN should pick h2");
    assert_eq!(answer.status, 201);
}

#[test]
fn garbage_gets_400_and_the_server_keeps_running() {
    use std::io::{Read, Write};
    let server = TestServer::start(ServeConfig::local(Mode::Correct));
    let addr = server.url("").trim_start_matches("http://").to_string();
    for garbage in [
        &b"\x00\x01\x02 nonsense\r\n\r\n"[..],
        b"GET / HTTP/9.9\r\nHost\r\n\r\n",
        b"POST /payments HTTP/1.1\r\nContent-Length: zz\r\n\r\n",
    ] {
        let mut stream = std::net::TcpStream::connect(&addr).unwrap();
        stream.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
        stream.write_all(garbage).unwrap();
        let mut answer = String::new();
        let _ = stream.read_to_string(&mut answer);
        assert!(answer.is_empty() || answer.starts_with("HTTP/1.1 4"), "{answer}");
    }
    assert_eq!(send(post(&server.url("/payments"), Some("k"), PAYMENT)).status, 201);
}

#[test]
fn the_binary_prints_its_port_and_warns_about_broken_modes() {
    use std::io::{BufRead, BufReader};
    let mut child = crate::support::KillOnDrop::new(
        std::process::Command::new(assert_cmd::cargo::cargo_bin("idem"))
            .args(["serve", "--addr", "127.0.0.1:0", "--mode", "naive", "--color", "never"])
            .stdout(std::process::Stdio::piped())
            .spawn()
            .unwrap(),
    );
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let banner = lines.next().unwrap().unwrap();
    let warning = lines.next().unwrap().unwrap();
    child.kill().unwrap();
    let _ = child.wait();
    assert!(banner.contains("http://127.0.0.1:") && !banner.contains(":0/"), "{banner}");
    assert!(warning.contains("deliberately broken"), "{warning}");
}

#[cfg(unix)]
#[test]
fn ctrl_c_stops_the_binary_cleanly_with_a_summary() {
    use std::io::{BufRead, BufReader, Read};
    let mut child = crate::support::KillOnDrop::new(
        std::process::Command::new(assert_cmd::cargo::cargo_bin("idem"))
            .args(["serve", "--addr", "127.0.0.1:0", "--color", "never", "--work", "0s"])
            .stdout(std::process::Stdio::piped())
            .spawn()
            .unwrap(),
    );
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut banner = String::new();
    stdout.read_line(&mut banner).unwrap();
    let url = banner.split_whitespace().find(|word| word.starts_with("http://")).unwrap().to_string();
    assert_eq!(send(post(&url, Some("k"), PAYMENT)).status, 201);
    assert_eq!(send(post(&url, Some("k"), PAYMENT)).status, 201);
    let status = std::process::Command::new("kill").args(["-INT", &child.id().to_string()]).status().unwrap();
    assert!(status.success());
    let mut rest = String::new();
    stdout.read_to_string(&mut rest).unwrap();
    assert!(child.wait().unwrap().success(), "Ctrl-C is a clean exit");
    assert!(rest.contains("created") && rest.contains("replayed"), "every request is logged: {rest}");
    assert!(rest.contains("summary: 2 requests (1 created, 1 replayed), 1 payment created"), "{rest}");
}

#[cfg(unix)]
#[test]
fn json_logs_are_json_lines() {
    use std::io::{BufRead, BufReader, Read};
    let mut child = crate::support::KillOnDrop::new(
        std::process::Command::new(assert_cmd::cargo::cargo_bin("idem"))
            .args(["serve", "--addr", "127.0.0.1:0", "--format", "json", "--work", "0s"])
            .stdout(std::process::Stdio::piped())
            .spawn()
            .unwrap(),
    );
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut first = String::new();
    stdout.read_line(&mut first).unwrap();
    let listening: Value = serde_json::from_str(&first).unwrap();
    crate::support::schemas::validate(&listening);
    assert_eq!(listening["event"], "listening");
    let url = listening["server"]["url"].as_str().unwrap().to_string();
    assert_eq!(send(post(&url, Some("key-json"), PAYMENT)).status, 201);
    std::process::Command::new("kill").args(["-INT", &child.id().to_string()]).status().unwrap();
    let mut rest = String::new();
    stdout.read_to_string(&mut rest).unwrap();
    child.wait().unwrap();
    let lines: Vec<Value> = crate::support::schemas::lines(rest.as_bytes());
    assert_eq!(lines[0]["outcome"], "created");
    assert_eq!(lines[0]["key"], "key-json");
    assert_eq!(lines[0]["status"], 201);
    assert!(lines[0]["payment_id"].as_str().unwrap().starts_with("pay_"));
    assert_eq!(lines[1]["event"], "summary");
    assert_eq!(lines[1]["summary"]["payments_created"], 1);
}

#[test]
fn two_key_header_lines_get_400() {
    let server = TestServer::start(ServeConfig::local(Mode::Correct));
    let mut request = post(&server.url("/payments"), Some("key-a"), PAYMENT);
    request.headers_mut().append("idempotency-key", "key-b".parse().unwrap());
    let answer = send(request);
    assert_eq!(answer.status, 400);
    assert!(String::from_utf8_lossy(&answer.body).contains("more than one Idempotency-Key"));
    assert_eq!(server.summary().payments_created, 0);
}

#[test]
fn a_trailing_slash_is_the_same_key_scope() {
    let server = TestServer::start(ServeConfig::local(Mode::Correct));
    let first = send(post(&server.url("/payments"), Some("slash"), PAYMENT));
    let again = send(post(&server.url("/payments/"), Some("slash"), PAYMENT));
    assert_eq!((first.status.as_u16(), again.status.as_u16()), (201, 201));
    assert_eq!(json(&first)["id"], json(&again)["id"]);
    assert_eq!(again.headers["idempotent-replayed"], "true");
    assert_eq!(server.summary().payments_created, 1);
}

#[test]
fn the_payment_list_paginates_newest_first() {
    let server = TestServer::start(ServeConfig { work: Duration::ZERO, ..ServeConfig::local(Mode::Correct) });
    let ids: Vec<String> = (0..3)
        .map(|n| json(&send(post(&server.url("/payments"), Some(&format!("page-{n}")), PAYMENT)))["id"].to_string())
        .collect();
    let get = |path: &str| send(Request::get(server.url(path)).body(Bytes::new()).unwrap());
    let first = json(&get("/payments?limit=2"));
    assert_eq!(first["data"].as_array().unwrap().len(), 2);
    assert_eq!(first["data"][0]["id"].to_string(), ids[2]);
    assert_eq!(first["has_more"], true);
    let last_id = first["data"][1]["id"].as_str().unwrap();
    let next = json(&get(&format!("/payments?limit=2&starting_after={last_id}")));
    assert_eq!(next["data"][0]["id"].to_string(), ids[0]);
    assert_eq!(next["has_more"], false);
    assert_eq!(get("/payments?limit=1000").status, 400);
    assert_eq!(get("/payments?starting_after=pay_nope").status, 400);
}

#[test]
fn a_request_whose_client_hung_up_during_work_is_still_logged() {
    use std::io::Write;
    let server =
        TestServer::start(ServeConfig { work: Duration::from_millis(300), ..ServeConfig::local(Mode::Correct) });
    let address = server.url("").trim_start_matches("http://").to_string();
    let mut stream = std::net::TcpStream::connect(&address).unwrap();
    write!(
        stream,
        "POST /payments HTTP/1.1\r\nHost: x\r\nIdempotency-Key: gone\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{PAYMENT}",
        PAYMENT.len()
    )
    .unwrap();
    std::thread::sleep(Duration::from_millis(50));
    drop(stream);
    // The work finishes after the client left; then the request must be in the log.
    let deadline = std::time::Instant::now() + Duration::from_secs(5);
    while server.summary().requests == 0 && std::time::Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(20));
    }
    let summary = server.summary();
    assert_eq!((summary.requests, summary.payments_created), (1, 1));
    assert_eq!(summary.count(RequestOutcome::Created), 1);
}
