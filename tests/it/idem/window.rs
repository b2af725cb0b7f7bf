//! `idem race --stagger` and `idem window`: the staggered release at the byte level, the measured
//! window against the naive reference server's known work time, no window against the correct
//! one; and answers cut short after their headers, named for what arrived, in both engines.
use std::convert::Infallible;
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::{Duration, Instant};

use bytes::Bytes;
use http::Method;
use idem::testing::race::h2_single_packet;
use idem::testing::race::{DATA, FLAG_END_STREAM};
use idem::testing::request::RequestSpec;
use idem::testing::serve::{Mode, ServeConfig};
use serde_json::Value;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};

use crate::support::run::Run;
use crate::support::{TestServer, idem, runtime};

const PAYMENT: &str = r#"{"amount":1990,"currency":"RUB"}"#;

/// Timing tests run one at a time: each is the others' noise. The precise ones (`timing_…`) are also
/// ignored in the parallel suite, and .ci/run runs them alone with --test-threads=1.
static TIMING: Mutex<()> = Mutex::new(());

fn window_json(url: &str, extra: &[&str]) -> (i32, Value) {
    Run::idem(["window", url, "-d", PAYMENT, "--format", "json"]).args(extra).code_and_json()
}

/// The window measured against `idem serve --mode naive --work W` is W, within 10% or 200 µs. The
/// rest of the suite runs beside this test on two cores, and a burst of it can stretch one
/// measurement, so it gets three tries; a wrong search is wrong every time.
fn measures_the_naive_window(work: Duration) {
    let _serial = TIMING.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    let mut failures = Vec::new();
    for _ in 0..3 {
        match measure_naive_window(work) {
            Ok(()) => return,
            Err(failure) => failures.push(failure),
        }
    }
    panic!("three measurements were off:\n{}", failures.join("\n"));
}

fn measure_naive_window(work: Duration) -> Result<(), String> {
    let server = TestServer::start(ServeConfig { work, ..ServeConfig::local(Mode::Naive) });
    let max = format!("{}ms", (work * 4).as_millis());
    let (code, report) = window_json(&server.url("/payments"), &["--max", &max]);
    assert_eq!(code, 1, "{report:#}");
    assert_eq!(report["verdict"], "window");
    let estimate = Duration::from_secs_f64(report["window"]["estimate_us"].as_f64().unwrap() / 1e6);
    let (lower, upper) =
        (report["window"]["lower_us"].as_f64().unwrap(), report["window"]["upper_us"].as_f64().unwrap());
    assert!(lower < upper, "{report:#}");
    // The window is the work plus what the server does around it (reading the request, waking
    // the task, storing the key); on a quiet machine that is tens of microseconds, on a loaded one
    // much more. The fastest first answer bounds it: work + overhead + a loopback round trip.
    let fastest_first = report["steps"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|s| s["probes"].as_array().unwrap().iter().filter_map(|p| p["first_latency_ms"].as_f64()))
        .fold(f64::INFINITY, f64::min);
    let overhead = Duration::from_secs_f64(fastest_first / 1e3).saturating_sub(work);
    let tolerance = work.mul_f64(0.10).max(Duration::from_micros(200)) + overhead;
    let error = estimate.abs_diff(work);
    let steps: Vec<String> = report["steps"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| format!("{} µs: {}", s["spacing_us"], s["executed_twice"]))
        .collect();
    assert!(report["meaning"].as_str().unwrap().starts_with("duplicates up to ≈"), "{report:#}");
    if error > tolerance {
        return Err(format!(
            "work {work:?}, measured {estimate:?} (off by {error:?}, server overhead {overhead:?}); steps: {steps:?}"
        ));
    }
    Ok(())
}

#[test]
#[ignore = "timing-sensitive: .ci/run runs the timing_ tests alone, with --test-threads=1"]
fn timing_the_window_of_a_naive_server_with_1ms_of_work_is_1ms() {
    measures_the_naive_window(Duration::from_millis(1));
}

#[test]
#[ignore = "timing-sensitive: .ci/run runs the timing_ tests alone, with --test-threads=1"]
fn timing_the_window_of_a_naive_server_with_10ms_of_work_is_10ms() {
    measures_the_naive_window(Duration::from_millis(10));
}

#[test]
#[ignore = "timing-sensitive: .ci/run runs the timing_ tests alone, with --test-threads=1"]
fn timing_the_window_of_a_naive_server_with_100ms_of_work_is_100ms() {
    measures_the_naive_window(Duration::from_millis(100));
}

#[test]
fn a_correct_server_has_no_window_over_both_protocols() {
    let server = TestServer::start(ServeConfig { work: Duration::from_millis(5), ..ServeConfig::local(Mode::Correct) });
    let mut pairs = 0;
    for extra in [&[][..], &["--http2"][..]] {
        let (code, report) = window_json(&server.url("/payments"), &[&["--max", "50ms"][..], extra].concat());
        assert_eq!(code, 0, "{report:#}");
        assert_eq!(report["verdict"], "no_window");
        assert_eq!(report["window"], Value::Null);
        let steps = report["steps"].as_array().unwrap();
        assert_eq!(steps.len(), 1, "growing stops at the first spacing that executed once: {report:#}");
        let probes = steps[0]["probes"].as_array().unwrap();
        assert_eq!(probes.len(), 3, "every probe of the step was sent");
        pairs += probes.iter().map(|p| p["retakes"].as_u64().unwrap() + 1).sum::<u64>();
    }
    assert_eq!(server.summary().payments_created as u64, pairs, "one payment per pair sent, retakes included");
}

#[test]
fn a_window_where_nothing_is_created_is_exit_2_never_no_window() {
    let server = TestServer::start(ServeConfig::local(Mode::Correct));
    let assert = idem().args(["window", &server.url("/nowhere"), "-d", PAYMENT, "--max", "1ms"]).assert().code(2);
    let (stdout, stderr) = (
        String::from_utf8_lossy(&assert.get_output().stdout).to_string(),
        String::from_utf8_lossy(&assert.get_output().stderr).to_string(),
    );
    assert!(stderr.contains("nothing was created: every answer was 404 Not Found"), "{stderr}");
    assert!(!stdout.contains('✓') && !stdout.contains("executed once"), "{stdout}");
}

#[test]
fn window_prints_each_step_and_refuses_what_it_cannot_measure() {
    let server = TestServer::start(ServeConfig { work: Duration::from_millis(4), ..ServeConfig::local(Mode::Naive) });
    let url = server.url("/payments");
    let assert = idem().args(["window", &url, "-d", PAYMENT, "--max", "20ms", "--probes", "1"]).assert().code(1);
    let stdout = String::from_utf8_lossy(&assert.get_output().stdout).to_string();
    assert!(stdout.contains("grow        0µs  executed twice"), "{stdout}");
    assert!(stdout.contains("bisect"), "{stdout}");
    assert!(stdout.contains("✗ window ≈"), "{stdout}");
    assert!(stdout.contains("a double-click faster than that, charges twice"), "{stdout}");
    for (args, complaint) in [
        (&["--key", "k1"][..], "drop --key"),
        (&["--no-key"][..], "drop --no-key"),
        (&["--max", "0"][..], "--max must be more than 0"),
    ] {
        idem()
            .args(["window", &url, "-d", PAYMENT])
            .args(args)
            .assert()
            .code(2)
            .stderr(predicates::str::contains(complaint));
    }
}

#[test]
fn race_stagger_reports_the_spacings_it_achieved() {
    let _serial = TIMING.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    let server = TestServer::start(ServeConfig { work: Duration::from_millis(1), ..ServeConfig::local(Mode::Naive) });
    let output = idem()
        .args(["race", &server.url("/payments"), "-d", PAYMENT, "-n", "3", "--stagger", "30ms", "--format", "json"])
        .output()
        .unwrap();
    let report: Value = serde_json::from_slice(&output.stdout).unwrap();
    crate::support::schemas::validate(&report);
    let release = &report["rounds"][0]["release"];
    assert_eq!(release["stagger_us"], 30_000.0);
    assert_eq!(release["writes"], 3);
    let spacings = release["spacings_us"].as_array().unwrap();
    assert_eq!(spacings.len(), 2);
    // The whole work is over long before the next duplicate: one execution, then replays.
    assert_eq!(report["rounds"][0]["judgement"]["executions"], 1, "{report:#}");
    assert_eq!(output.status.code(), Some(0));
    idem()
        .args(["race", &server.url("/payments"), "-d", PAYMENT, "--stagger", "1ms", "--sync", "none"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains("--stagger"));
}

/// Every write call: when it was made, and its bytes.
type WriteLog = Arc<Mutex<Vec<(Instant, Vec<u8>)>>>;

/// Records every write call's bytes and when it was made.
struct TimedWrites<S> {
    inner: S,
    writes: WriteLog,
}

impl<S: AsyncRead + Unpin> AsyncRead for TimedWrites<S> {
    fn poll_read(mut self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &mut ReadBuf<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.inner).poll_read(cx, buf)
    }
}

impl<S: AsyncWrite + Unpin> AsyncWrite for TimedWrites<S> {
    fn poll_write(mut self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &[u8]) -> Poll<std::io::Result<usize>> {
        let at = Instant::now();
        let poll = Pin::new(&mut self.inner).poll_write(cx, buf);
        if let Poll::Ready(Ok(written)) = &poll {
            self.writes.lock().unwrap().push((at, buf[..*written].to_vec()));
        }
        poll
    }
    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.inner).poll_flush(cx)
    }
    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.inner).poll_shutdown(cx)
    }
}

/// The frames each write call carried: (kind, flags, stream) per frame, per write. Panics if a
/// frame straddles two writes.
fn frames_per_write(writes: &[(Instant, Vec<u8>)]) -> Vec<Vec<(u8, u8, u32)>> {
    let preface = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n";
    let mut out = Vec::new();
    for (index, (_, bytes)) in writes.iter().enumerate() {
        let mut at = if index == 0 && bytes.starts_with(preface) { preface.len() } else { 0 };
        let mut frames = Vec::new();
        while at < bytes.len() {
            assert!(at + 9 <= bytes.len(), "a frame header straddles write {index}");
            let length = u32::from_be_bytes([0, bytes[at], bytes[at + 1], bytes[at + 2]]) as usize;
            let stream = u32::from_be_bytes([bytes[at + 5], bytes[at + 6], bytes[at + 7], bytes[at + 8]]);
            frames.push((bytes[at + 3], bytes[at + 4], stream));
            at += 9 + length;
            assert!(at <= bytes.len(), "a frame straddles write {index}");
        }
        out.push(frames);
    }
    out
}

#[test]
#[ignore = "timing-sensitive: .ci/run runs the timing_ tests alone, with --test-threads=1"]
fn timing_stagger_writes_each_final_frame_alone_in_order_at_its_moment() {
    let _serial = TIMING.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    let server = TestServer::start(ServeConfig { work: Duration::from_millis(1), ..ServeConfig::local(Mode::Naive) });
    let url = server.url("/payments");
    let n = 5;
    let stagger = Duration::from_millis(3);
    let (writes, release) = runtime().block_on(async {
        let spec = RequestSpec::new(Method::POST, &url, Bytes::from(PAYMENT)).unwrap();
        let requests: Vec<_> = (0..n).map(|_| spec.build(Some("one-key")).unwrap()).collect();
        let addr = url.trim_start_matches("http://").trim_end_matches("/payments").to_string();
        let tcp = tokio::net::TcpStream::connect(addr).await.unwrap();
        tcp.set_nodelay(true).unwrap();
        let writes = Arc::new(Mutex::new(Vec::new()));
        let stream = TimedWrites { inner: tcp, writes: Arc::clone(&writes) };
        let (answers, release) =
            h2_single_packet::race(stream, &requests, Duration::from_secs(20), Some(stagger)).await.unwrap();
        assert!(answers.iter().all(|a| a.outcome.is_ok()), "{answers:?}");
        let writes = writes.lock().unwrap().clone();
        (writes, release)
    });
    let frames = frames_per_write(&writes);
    let finals: Vec<(usize, u32)> = frames
        .iter()
        .enumerate()
        .flat_map(|(write, frames)| {
            frames
                .iter()
                .filter(|(kind, flags, _)| *kind == DATA && flags & FLAG_END_STREAM != 0)
                .map(move |f| (write, f.2))
        })
        .collect();
    assert_eq!(finals.len(), n);
    for (write, _) in &finals {
        assert_eq!(frames[*write].len(), 1, "a final frame shares write {write} with {:?}", frames[*write]);
    }
    let streams: Vec<u32> = finals.iter().map(|f| f.1).collect();
    assert_eq!(streams, (0..n as u32).map(|i| 1 + 2 * i).collect::<Vec<_>>(), "released in order");
    // Measured on the client: duplicate k leaves k × stagger after the first, never earlier.
    let first = writes[finals[0].0].0;
    let mut gaps = Vec::new();
    for (k, (write, _)) in finals.iter().enumerate() {
        let offset = writes[*write].0 - first;
        // The engine takes its own first instant a hair before this wrapper sees the write.
        assert!(
            offset + Duration::from_micros(20) >= stagger * k as u32,
            "#{} left {offset:?} after #1, before {:?}",
            k + 1,
            stagger * k as u32
        );
        if k > 0 {
            gaps.push(offset - (writes[finals[k - 1].0].0 - first));
        }
    }
    gaps.sort();
    let median = gaps[gaps.len() / 2];
    assert!(median.abs_diff(stagger) < Duration::from_millis(1), "median spacing {median:?} for {stagger:?}: {gaps:?}");
    assert_eq!(release.writes, n);
    assert_eq!(release.offsets.len(), n);
}

/// A server that answers `status` with `content-length: 100` and 7 bytes of body, then never
/// sends the rest (nor reads the request body): an answer cut short after its headers.
fn stalling_server(status: u16) -> String {
    struct Stalling(bool);
    impl hyper::body::Body for Stalling {
        type Data = Bytes;
        type Error = Infallible;
        fn poll_frame(
            mut self: Pin<&mut Self>,
            _: &mut Context<'_>,
        ) -> Poll<Option<Result<hyper::body::Frame<Bytes>, Infallible>>> {
            if std::mem::replace(&mut self.0, true) {
                Poll::Pending
            } else {
                Poll::Ready(Some(Ok(hyper::body::Frame::data(Bytes::from_static(b"partial")))))
            }
        }
    }
    let listener = runtime().block_on(tokio::net::TcpListener::bind("127.0.0.1:0")).unwrap();
    let addr = listener.local_addr().unwrap();
    runtime().spawn(async move {
        while let Ok((stream, _)) = listener.accept().await {
            tokio::spawn(async move {
                let service = hyper::service::service_fn(move |_request| async move {
                    let mut response = http::Response::new(Stalling(false));
                    *response.status_mut() = http::StatusCode::from_u16(status).unwrap();
                    response.headers_mut().insert("content-length", http::HeaderValue::from_static("100"));
                    Ok::<_, Infallible>(response)
                });
                let builder = hyper_util::server::conn::auto::Builder::new(hyper_util::rt::TokioExecutor::new());
                let _ = builder.serve_connection(hyper_util::rt::TokioIo::new(stream), service).await;
            });
        }
    });
    format!("http://{addr}/payments")
}

#[test]
fn an_answer_cut_short_after_its_headers_says_what_arrived_over_http1() {
    let url = stalling_server(500);
    idem().args(["race", &url, "-d", PAYMENT, "-n", "2", "--timeout", "1s"]).assert().code(2).stderr(
        predicates::str::contains("500 headers received, body never completed within 1.00s (7 of 100 body bytes)"),
    );
}

#[test]
fn an_answer_cut_short_after_its_headers_says_what_arrived_over_http2() {
    let url = stalling_server(409);
    idem().args(["race", &url, "-d", PAYMENT, "-n", "2", "--timeout", "1s", "--http2"]).assert().code(2).stderr(
        predicates::str::contains("409 headers received, body never completed within 1.00s (7 of 100 body bytes)"),
    );
}

#[test]
fn max_requests_stops_the_measurement_before_a_pair_over_the_budget() {
    let server = TestServer::start(ServeConfig::local(Mode::Correct));
    let (code, stdout, stderr) =
        Run::idem(["window", &server.url("/payments"), "-d", r#"{"amount":100}"#, "--max-requests", "5"])
            .finish()
            .parts();
    assert_eq!(code, 2, "{stdout}{stderr}");
    // Pairs of two: the third pair would make six.
    assert_eq!(server.summary().requests, 4, "{stderr}");
    assert!(
        stderr.contains("--max-requests 5 reached: 4 requests were sent, and the next step needs 2 more"),
        "{stderr}"
    );
}

#[test]
fn no_window_on_the_answers_alone_says_answer_replayed_and_the_count_finds_the_reruns() {
    // A key store that replays the server's id while its handler charges on every request.
    let app = crate::support::apps::PythonApp::start("orders_with_a_key_store.py", &["--rerun-handler"]);
    let url = app.url("/orders");
    let window = || Run::idem(["window", &url, "-d", r#"{"amount":500}"#, "--max", "1ms", "--probes", "1"]);
    let human = window().expect_exit(0).finish();
    assert!(
        human.stdout.contains("✓ no window: duplicates released together got the answer replayed (same server id)"),
        "{}",
        human.stdout
    );
    assert!(human.stdout.contains("side effects were not counted"), "{}", human.stdout);
    assert!(!human.stdout.contains("executed once"), "{}", human.stdout);
    let report = window().format_json().expect_exit(0).json();
    assert_eq!(report["evidence_level"], "answer", "{report:#}");
    window().args(["--require-count"]).expect_exit(2);
    let counted = window().args(["--count-url", &app.url("/charges"), "--count-pointer", "/count"]);
    let report = counted.format_json().expect_exit(1).json();
    assert_eq!(
        (report["verdict"].as_str(), report["evidence_level"].as_str()),
        (Some("window_at_least_max"), Some("count"))
    );
}

#[test]
fn a_key_in_the_body_gets_a_fresh_key_for_every_pair() {
    let app = crate::support::apps::PythonApp::start("payments_keyed_in_the_body.py", &[]);
    let (code, report) = Run::idem(["window", &app.url("/v2/payments"), "--max", "20ms", "--id-field", "/payment/id"])
        .args(["--key-in", "body:/idempotency_key", "-d", r#"{"amount_money":{"amount":100,"currency":"USD"}}"#])
        .format_json()
        .code_and_json();
    assert_eq!(code, 0, "{report:#}");
    assert_eq!(report["verdict"], "no_window");
    assert_eq!(report["key_in"], "body:/idempotency_key");
    let pairs: u64 = report["steps"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|step| step["probes"].as_array().unwrap())
        .map(|probe| probe["retakes"].as_u64().unwrap() + 1)
        .sum();
    let ledger: Value = serde_json::from_str(&app.get("/charges")).unwrap();
    assert_eq!(ledger["count"].as_u64(), Some(pairs), "one payment per pair: {ledger}");
    assert_eq!(ledger["keys"].as_array().unwrap().len() as u64, pairs, "each pair its own key: {ledger}");
}

#[test]
fn the_summary_says_how_many_resources_every_pair_created() {
    let server = TestServer::start(ServeConfig::local(Mode::Correct));
    let url = server.url("/payments");
    let (code, report) =
        window_json(&url, &["--max", "20ms", "--probes", "1", "--count-url", &url, "--count-pointer", "/count"]);
    assert_eq!(code, 0, "{report:#}");
    let created = &report["created"];
    assert_eq!(created["basis"], "count", "{report:#}");
    assert_eq!(created["resources"].as_u64(), Some(server.summary().payments_created as u64), "{report:#}");
    assert!(created["resources"].as_u64() >= Some(1), "{report:#}");
}
