//! No green verdict without evidence: `idem send` and `idem race` against servers that
//! each get one thing subtly wrong, through the real binary.
use std::io::Write;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use base64::Engine;
use bytes::Bytes;
use predicates::prelude::*;
use serde_json::Value;

use crate::support::{dead_port, idem, runtime};

const PAYMENT: &str = r#"{"amount":1990,"currency":"RUB"}"#;

/// What the byte server answers: status, headers, raw body bytes.
type Answer = (u16, Vec<(&'static str, String)>, Vec<u8>);

/// A server whose answers are raw bytes (compressed bodies are not UTF-8); `respond` gets the
/// request number (from 0) and the request headers.
struct ByteServer {
    addr: std::net::SocketAddr,
    task: tokio::task::JoinHandle<()>,
}

impl ByteServer {
    fn start(respond: impl Fn(usize, &http::HeaderMap) -> Answer + Send + Sync + 'static) -> ByteServer {
        let respond = Arc::new(respond);
        let counter = Arc::new(AtomicUsize::new(0));
        let listener = runtime().block_on(tokio::net::TcpListener::bind("127.0.0.1:0")).unwrap();
        let addr = listener.local_addr().unwrap();
        let task = runtime().spawn(async move {
            loop {
                let Ok((stream, _)) = listener.accept().await else { continue };
                let (respond, counter) = (Arc::clone(&respond), Arc::clone(&counter));
                tokio::spawn(async move {
                    let service = hyper::service::service_fn(move |request: http::Request<hyper::body::Incoming>| {
                        let (status, headers, body) =
                            respond(counter.fetch_add(1, Ordering::SeqCst), request.headers());
                        async move {
                            let mut response = http::Response::new(http_body_util::Full::new(Bytes::from(body)));
                            *response.status_mut() = http::StatusCode::from_u16(status).unwrap();
                            for (name, value) in headers {
                                response.headers_mut().insert(name, value.parse().unwrap());
                            }
                            Ok::<_, std::convert::Infallible>(response)
                        }
                    });
                    let builder = hyper_util::server::conn::auto::Builder::new(hyper_util::rt::TokioExecutor::new());
                    let _ = builder.serve_connection(hyper_util::rt::TokioIo::new(stream), service).await;
                });
            }
        });
        ByteServer { addr, task }
    }

    fn url(&self) -> String {
        format!("http://{}/payments", self.addr)
    }
}

impl Drop for ByteServer {
    fn drop(&mut self) {
        self.task.abort();
    }
}

fn json_answer(status: u16, body: &str) -> Answer {
    (status, vec![("content-type", "application/json".into())], body.as_bytes().to_vec())
}

fn gzip(text: &str, level: u32) -> Vec<u8> {
    let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::new(level));
    encoder.write_all(text.as_bytes()).unwrap();
    encoder.finish().unwrap()
}

fn output_of(assert: &assert_cmd::assert::Assert) -> (String, String) {
    let output = assert.get_output();
    (String::from_utf8_lossy(&output.stdout).into_owned(), String::from_utf8_lossy(&output.stderr).into_owned())
}

#[test]
fn an_id_only_in_location_counts_executions() {
    // A new payment every time, announced only in Location.
    let server = ByteServer::start(|n, _| (201, vec![("location", format!("/payments/pay_{n}"))], Vec::new()));
    let assert = idem().args(["send", &server.url(), "-d", PAYMENT, "--repeat", "3"]).assert().code(1);
    let (stdout, _) = output_of(&assert);
    assert!(stdout.contains("✗ executed 3 times"), "{stdout}");
    assert!(stdout.contains("(from Location)"), "the id source is evidence: {stdout}");
    idem().args(["race", &server.url(), "-d", PAYMENT, "-n", "5"]).assert().code(1);
}

#[test]
fn success_without_any_id_is_no_verdict_with_what_to_pass() {
    let server = ByteServer::start(|_, _| json_answer(201, r#"{"ok":true}"#));
    for command in [&["send", "--repeat", "3"][..], &["race", "-n", "5"][..]] {
        let assert =
            idem().arg(command[0]).arg(server.url()).args(&command[1..]).args(["-d", PAYMENT]).assert().code(2);
        let (stdout, stderr) = output_of(&assert);
        assert!(!stdout.contains("✓"), "{command:?}: {stdout}");
        assert!(stderr.contains("cannot tell how many times it executed"), "{command:?}: {stderr}");
        assert!(stderr.contains("--id-field") && stderr.contains("--id-header"), "{command:?}: {stderr}");
    }
    // Told where the id is, it can count: here a header of the user's choosing.
    let server = ByteServer::start(|n, _| (201, vec![("x-payment", format!("p{n}"))], b"{}".to_vec()));
    idem()
        .args(["send", &server.url(), "-d", PAYMENT, "--repeat", "2", "--id-header", "X-Payment"])
        .assert()
        .code(1)
        .stdout(predicate::str::contains("✗ executed 2 times"));
}

#[test]
fn no_2xx_answer_is_nothing_created_exit_2() {
    let server = ByteServer::start(|_, _| json_answer(401, r#"{"error":"expired token"}"#));
    for command in [&["send"][..], &["send", "--repeat", "3"][..], &["race", "-n", "4"][..]] {
        let assert =
            idem().arg(command[0]).arg(server.url()).args(&command[1..]).args(["-d", PAYMENT]).assert().code(2);
        let (stdout, stderr) = output_of(&assert);
        assert!(!stdout.contains("✓"), "{command:?}: {stdout}");
        assert!(
            stderr.contains("nothing was created: ") && stderr.contains("was 401 Unauthorized"),
            "{command:?}: {stderr}"
        );
    }
    let mixed = ByteServer::start(|n, _| json_answer(if n == 0 { 404 } else { 302 }, "{}"));
    idem()
        .args(["send", &mixed.url(), "--repeat", "2", "--format", "json"])
        .assert()
        .code(2)
        .stdout(predicate::str::contains("nothing_created"))
        .stdout(crate::support::schemas::valid_document());
}

#[test]
fn credentials_in_the_url_are_basic_auth_and_never_printed() {
    let server = ByteServer::start(|_, headers| {
        let authorization = headers.get("authorization").map(|v| v.to_str().unwrap().to_string()).unwrap_or_default();
        json_answer(201, &format!(r#"{{"id":"pay_1","auth":"{authorization}"}}"#))
    });
    let url = server.url().replace("http://", "http://alice:s3cr%40t@");
    let expected = format!("Basic {}", base64::engine::general_purpose::STANDARD.encode("alice:s3cr@t"));
    for format in ["human", "json"] {
        let assert = idem().args(["send", &url, "-d", PAYMENT, "--repeat", "2", "--format", format]).assert().code(0);
        let (stdout, stderr) = output_of(&assert);
        if format == "json" {
            crate::support::schemas::document(stdout.as_bytes());
        }
        assert!(stdout.contains(&expected), "the server got curl's Basic auth: {stdout}");
        assert!(!stdout.contains("s3cr") && !stderr.contains("s3cr"), "{format}: {stdout}{stderr}");
    }
    let assert = idem().args(["check", &url, "-d", PAYMENT, "--format", "junit"]).assert();
    let (stdout, stderr) = output_of(&assert);
    assert!(!stdout.contains("s3cr") && !stderr.contains("s3cr"), "{stdout}{stderr}");
    let dead = format!("http://alice:s3cr%40t@127.0.0.1:{}/p", dead_port());
    let assert = idem().args(["send", &dead]).assert().code(2);
    let (_, stderr) = output_of(&assert);
    assert!(stderr.contains("cannot connect") && !stderr.contains("s3cr"), "{stderr}");
    let assert = idem().args(["send", "http://alice:s3cr%40t@exa mple.com/p"]).assert().code(2);
    assert!(!output_of(&assert).1.contains("s3cr"));
}

#[test]
fn compressed_answers_are_judged_decoded() {
    // One payment, replayed; compressed afresh each time, so the bytes differ.
    let replays = ByteServer::start(|n, _| {
        let body = gzip(r#"{"id":"pay_1","amount":1990}"#, 1 + (n as u32 % 9));
        (201, vec![("content-type", "application/json".into()), ("content-encoding", "gzip".into())], body)
    });
    let assert = idem().args(["send", &replays.url(), "-d", PAYMENT, "--repeat", "3"]).assert().code(0);
    let (stdout, _) = output_of(&assert);
    assert!(stdout.contains("✓ answer replayed (same server id): 3 answers, one resource, pay_1"), "{stdout}");
    assert!(stdout.contains("gzip"), "the encoding is evidence: {stdout}");
    assert!(stdout.contains("\"amount\": 1990") || stdout.contains("\"amount\":1990"), "decoded body shown: {stdout}");
    // A new payment per request, hidden inside gzip: found, and counted.
    let doubles = ByteServer::start(|n, _| {
        let body = gzip(&format!(r#"{{"id":"pay_{n}"}}"#), 6);
        (201, vec![("content-encoding", "gzip".into())], body)
    });
    idem()
        .args(["race", &doubles.url(), "-d", PAYMENT, "-n", "4"])
        .assert()
        .code(1)
        .stdout(predicate::str::contains("✗ executed 4 times"));
    let brotli_server = ByteServer::start(|n, _| {
        let mut body = Vec::new();
        brotli::CompressorWriter::new(&mut body, 4096, 5, 22).write_all(format!(r#"{{"id":{n}}}"#).as_bytes()).unwrap();
        (201, vec![("content-encoding", "br".into())], body)
    });
    let assert = idem().args(["send", &brotli_server.url(), "--repeat", "2", "--format", "json"]).assert().code(1);
    let report: Value = serde_json::from_str(&output_of(&assert).0).unwrap();
    crate::support::schemas::validate(&report);
    assert_eq!(report["attempts"][0]["content_encoding"], "br");
    assert_eq!(report["judgement"]["resource_ids"], serde_json::json!(["0", "1"]));
}

#[test]
fn one_and_one_point_zero_are_the_same_id() {
    let server = ByteServer::start(|n, _| json_answer(201, if n == 0 { r#"{"id":1}"# } else { r#"{"id":1.0}"# }));
    idem()
        .args(["send", &server.url(), "-d", PAYMENT, "--repeat", "3"])
        .assert()
        .code(0)
        .stdout(predicate::str::contains("✓ answer replayed (same server id): 3 answers, one resource, 1"));
}

#[test]
fn small_validation_gaps_are_closed() {
    let url = format!("http://127.0.0.1:{}/p", dead_port());
    let cases: [(&[&str], &str); 5] = [
        (&["--key", ""], "--key is empty"),
        (&["--timeout", "0"], "--timeout must be longer than 0"),
        (&["--timeout", "-1s"], "durations are positive"),
        (&["--interval", "-5s"], "durations are positive"),
        (&["-d", "@/dev/zero"], "larger than 64 MiB"),
    ];
    for (args, message) in cases {
        let assert = idem().arg("send").arg(&url).args(args).assert().code(2);
        let (_, stderr) = output_of(&assert);
        assert!(stderr.contains(message), "{args:?}: {stderr}");
        assert!(!stderr.contains("-- -1s"), "{args:?}: clap's tip instead of the reason: {stderr}");
    }
    idem()
        .args(["send", &url, "-d", "@/dev/zero", "--max-body", "1KiB"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("larger than 1 KiB").and(predicate::str::contains("--max-body")));
}
