//! Shared test plumbing: in-process reference servers on port 0, run on a runtime of their own so
//! the binaries under test can talk to them from another process.
#![allow(dead_code)]

pub(crate) mod apps;
pub(crate) mod browser;
pub(crate) mod certificate_host;
pub(crate) mod generated_files;
pub(crate) mod listen_process;
pub(crate) mod provider_sdks;
pub(crate) mod reference_libraries;
pub(crate) mod run;
pub(crate) mod schemas;
pub(crate) mod signed_deliveries;
pub(crate) mod webhook_receivers;

use std::sync::OnceLock;

use idem::testing::listen::{self, ListenConfig, ListenerTally, RunningListener};
use idem::testing::scheme::SchemeKind;
use idem::testing::scheme::Secret;
use idem::testing::serve::{self, RunningServer, ServeConfig};

/// One runtime for every in-process server of the test binary.
pub(crate) fn runtime() -> &'static tokio::runtime::Runtime {
    static RUNTIME: OnceLock<tokio::runtime::Runtime> = OnceLock::new();
    RUNTIME.get_or_init(|| {
        tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().expect("test runtime")
    })
}

/// A reference server on a free port, stopped when dropped.
pub(crate) struct TestServer {
    server: Option<RunningServer>,
}

impl TestServer {
    pub(crate) fn start(config: ServeConfig) -> TestServer {
        let server = runtime().block_on(serve::start_quiet(&config)).expect("start reference server");
        TestServer { server: Some(server) }
    }

    pub(crate) fn url(&self, path: &str) -> String {
        self.server.as_ref().expect("running").url(path)
    }

    pub(crate) fn summary(&self) -> serve::ServeTally {
        self.server.as_ref().expect("running").summary()
    }
}

impl Drop for TestServer {
    fn drop(&mut self) {
        if let Some(server) = self.server.take() {
            runtime().block_on(server.shutdown());
        }
    }
}

/// The `idem` binary, colors off.
pub(crate) fn idem() -> assert_cmd::Command {
    let mut command = assert_cmd::Command::cargo_bin("idem").expect("idem binary");
    command.env("NO_COLOR", "1").env_remove("IDEM_KEY");
    without_proxy_variables(&mut command);
    command
}

/// A purpose-built server on a free port: `respond` sees each request (method, path, headers,
/// body) and the number of requests before it, and returns status, headers and body. For
/// servers that get one thing wrong on purpose.
pub(crate) struct CustomServer {
    pub addr: std::net::SocketAddr,
    task: tokio::task::JoinHandle<()>,
}

pub(crate) struct SeenRequest {
    pub method: String,
    pub path: String,
    pub headers: http::HeaderMap,
    pub body: bytes::Bytes,
    /// How many requests this server received before this one.
    pub sequence: usize,
}

pub(crate) struct Reply {
    pub status: u16,
    pub headers: Vec<(&'static str, String)>,
    pub body: String,
}

impl Reply {
    pub(crate) fn json(status: u16, body: impl Into<String>) -> Reply {
        Reply { status, headers: vec![("content-type", "application/json".to_string())], body: body.into() }
    }
}

pub(crate) type ReplyFuture = std::pin::Pin<Box<dyn std::future::Future<Output = Reply> + Send>>;

impl CustomServer {
    pub(crate) fn start<F>(respond: F) -> CustomServer
    where
        F: Fn(SeenRequest) -> Reply + Send + Sync + 'static,
    {
        CustomServer::start_async(move |request| {
            let reply = respond(request);
            Box::pin(async move { reply })
        })
    }

    /// Like `start`, for servers that must wait (simulated work) without blocking the runtime.
    pub(crate) fn start_async<F>(respond: F) -> CustomServer
    where
        F: Fn(SeenRequest) -> ReplyFuture + Send + Sync + 'static,
    {
        use http_body_util::BodyExt;
        use std::sync::Arc;
        use std::sync::atomic::{AtomicUsize, Ordering};
        let respond = Arc::new(respond);
        let counter = Arc::new(AtomicUsize::new(0));
        let listener = runtime().block_on(tokio::net::TcpListener::bind("127.0.0.1:0")).expect("bind");
        let addr = listener.local_addr().expect("addr");
        let task = runtime().spawn(async move {
            loop {
                let Ok((stream, _)) = listener.accept().await else { continue };
                let respond = Arc::clone(&respond);
                let counter = Arc::clone(&counter);
                tokio::spawn(async move {
                    let service = hyper::service::service_fn(move |request: http::Request<hyper::body::Incoming>| {
                        let respond = Arc::clone(&respond);
                        let sequence = counter.fetch_add(1, Ordering::SeqCst);
                        async move {
                            let (parts, body) = request.into_parts();
                            let body = body.collect().await.map(|c| c.to_bytes()).unwrap_or_default();
                            let reply = respond(SeenRequest {
                                method: parts.method.to_string(),
                                path: parts.uri.path().to_string(),
                                headers: parts.headers,
                                body,
                                sequence,
                            })
                            .await;
                            let mut response =
                                http::Response::new(http_body_util::Full::new(bytes::Bytes::from(reply.body)));
                            *response.status_mut() = http::StatusCode::from_u16(reply.status).expect("status");
                            for (name, value) in reply.headers {
                                response.headers_mut().insert(name, value.parse().expect("header value"));
                            }
                            Ok::<_, std::convert::Infallible>(response)
                        }
                    });
                    let builder = hyper_util::server::conn::auto::Builder::new(hyper_util::rt::TokioExecutor::new());
                    let _ = builder.serve_connection(hyper_util::rt::TokioIo::new(stream), service).await;
                });
            }
        });
        CustomServer { addr, task }
    }

    pub(crate) fn url(&self, path: &str) -> String {
        format!("http://{}{path}", self.addr)
    }
}

impl Drop for CustomServer {
    fn drop(&mut self) {
        self.task.abort();
    }
}

/// A server that answers every request with `status` and an empty JSON object, and counts the
/// requests that reached it: what `--max-requests` tests compare with the budget.
pub(crate) struct CountingServer {
    server: CustomServer,
    requests: std::sync::Arc<std::sync::atomic::AtomicUsize>,
}

impl CountingServer {
    pub(crate) fn start(status: u16) -> CountingServer {
        let requests = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
        let counted = std::sync::Arc::clone(&requests);
        let server = CustomServer::start(move |_| {
            counted.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
            Reply::json(status, "{}")
        });
        CountingServer { server, requests }
    }

    pub(crate) fn url(&self, path: &str) -> String {
        self.server.url(path)
    }

    /// How many requests reached it so far.
    pub(crate) fn requests(&self) -> usize {
        self.requests.load(std::sync::atomic::Ordering::SeqCst)
    }
}

/// A loopback port with nothing listening on it.
pub(crate) fn dead_port() -> u16 {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
    listener.local_addr().expect("addr").port()
}

/// The distinct `pay_…` ids in a text, in order of appearance.
pub(crate) fn payment_ids(text: &str) -> Vec<String> {
    let mut ids: Vec<String> = Vec::new();
    for word in text.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_')) {
        if word.starts_with("pay_") && !ids.iter().any(|id| id == word) {
            ids.push(word.to_string());
        }
    }
    ids
}

/// The `webhook` binary, colors off, with no secret leaking in from the environment.
pub(crate) fn webhook() -> assert_cmd::Command {
    let mut command = assert_cmd::Command::cargo_bin("webhook").expect("webhook binary");
    command.env("NO_COLOR", "1").env_remove("WEBHOOK_SECRET").env_remove("WEBHOOK_COLOR");
    without_proxy_variables(&mut command);
    command
}

/// The client commands honour curl's proxy variables; the machine's own must not send the tests'
/// loopback requests elsewhere.
fn without_proxy_variables(command: &mut assert_cmd::Command) {
    for name in PROXY_VARIABLES {
        command.env_remove(name);
    }
}

/// curl's proxy variables, which every command run by the tests is started without.
pub(crate) const PROXY_VARIABLES: [&str; 8] =
    ["http_proxy", "HTTP_PROXY", "https_proxy", "HTTPS_PROXY", "all_proxy", "ALL_PROXY", "no_proxy", "NO_PROXY"];

/// The published webhook signature vectors (each names where it was published), committed under
/// `tests/fixtures/` so a bare clone runs every test.
pub(crate) fn webhook_vectors() -> serde_json::Value {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/webhook-signatures.json");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|err| panic!("cannot read {}: {err}", path.display()));
    serde_json::from_str(&text).expect("the vectors file is JSON")
}

/// The Standard Webhooks example secret the tests sign with (whsec_ + base64), which every other
/// scheme takes as raw bytes.
pub(crate) const SECRET: &str = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";

pub(crate) fn secret() -> Secret {
    Secret::new(SECRET.as_bytes().to_vec()).unwrap()
}

/// An in-process listener, shut down when dropped.
pub(crate) struct Listener {
    running: Option<RunningListener>,
}

impl Listener {
    pub(crate) fn start(config: ListenConfig) -> Listener {
        let running = runtime().block_on(listen::start(&config)).expect("start the listener");
        Listener { running: Some(running) }
    }

    pub(crate) fn with(scheme: SchemeKind, adjust: impl FnOnce(&mut ListenConfig)) -> Listener {
        let mut config = ListenConfig::local(scheme, secret());
        adjust(&mut config);
        Listener::start(config)
    }

    pub(crate) fn url(&self, path: &str) -> String {
        self.running.as_ref().unwrap().url(path)
    }

    pub(crate) fn addr(&self) -> std::net::SocketAddr {
        self.running.as_ref().unwrap().local_addr()
    }

    pub(crate) fn summary(&self) -> ListenerTally {
        self.running.as_ref().unwrap().summary()
    }

    /// The inspector's URL, token included (`config.ui` set).
    pub(crate) fn inspector_url(&self) -> String {
        self.running.as_ref().unwrap().inspector_url().expect("the listener has no inspector").to_string()
    }

    pub(crate) fn remembered_events(&self) -> usize {
        self.running.as_ref().unwrap().remembered_events()
    }

    pub(crate) fn shutdown(mut self) -> ListenerTally {
        runtime().block_on(self.running.take().unwrap().shutdown())
    }
}

impl Drop for Listener {
    fn drop(&mut self) {
        if let Some(running) = self.running.take() {
            runtime().block_on(running.shutdown());
        }
    }
}

/// The outcome of every check in a suite's `--format json` report, by check id.
pub(crate) fn suite_outcomes(report: &serde_json::Value) -> std::collections::HashMap<String, String> {
    report["checks"]
        .as_array()
        .expect("a checks array")
        .iter()
        .map(|c| (c["id"].as_str().unwrap().to_string(), c["outcome"].as_str().unwrap().to_string()))
        .collect()
}

/// One check's evidence lines, joined.
pub(crate) fn suite_evidence(report: &serde_json::Value, id: &str) -> String {
    let check = report["checks"].as_array().unwrap().iter().find(|c| c["id"] == id).unwrap();
    check["evidence"].as_array().unwrap().iter().map(|e| e.as_str().unwrap()).collect::<Vec<_>>().join("\n")
}

/// A child process that is killed when the test ends, also when an assertion fails first, so a
/// failing test leaves no server running.
pub(crate) struct KillOnDrop(Option<std::process::Child>);

impl KillOnDrop {
    pub(crate) fn new(child: std::process::Child) -> KillOnDrop {
        KillOnDrop(Some(child))
    }

    /// Waits for the child to end by itself and collects what it printed.
    pub(crate) fn wait_with_output(mut self) -> std::process::Output {
        self.0.take().expect("the child is there until dropped").wait_with_output().expect("the child's output")
    }
}

impl std::ops::Deref for KillOnDrop {
    type Target = std::process::Child;
    fn deref(&self) -> &std::process::Child {
        self.0.as_ref().expect("the child is there until dropped")
    }
}

impl std::ops::DerefMut for KillOnDrop {
    fn deref_mut(&mut self) -> &mut std::process::Child {
        self.0.as_mut().expect("the child is there until dropped")
    }
}

impl Drop for KillOnDrop {
    fn drop(&mut self) {
        if let Some(mut child) = self.0.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

/// Every check id of a suite, from its `--list --format json` (`suite` is the command up to the
/// suite's name: `idem check`, `webhook check-sender`).
pub(crate) fn suite_ids(mut suite: assert_cmd::Command) -> Vec<String> {
    let output = suite.args(["--list", "--format", "json"]).output().expect("the suite lists its checks");
    let list: serde_json::Value = serde_json::from_slice(&output.stdout).expect("--list --format json is JSON");
    list["checks"].as_array().expect("a checks array").iter().map(|c| c["id"].as_str().unwrap().to_string()).collect()
}

/// Runs a suite that judges nothing (made fresh by `suite` for each run, with `--format` and the
/// format it is given) in every format and asserts how it says so: exit 2, no ✓ verdict, `nothing was
/// checked` with `why`, in the human table, the JSON report (`passed: false`, `nothing_checked`)
/// and JUnit (an error test case).
pub(crate) fn assert_nothing_checked(suite: impl Fn(&str) -> assert_cmd::Command, why: &str) {
    for format in ["human", "json", "junit"] {
        let output = suite(format).output().expect("the suite runs");
        let stdout = String::from_utf8_lossy(&output.stdout);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{format}: {stdout}{stderr}");
        // (check-sender's live lines mark each verified signature with a ✓ of their own.)
        assert!(!stdout.contains("✓ every required check passed"), "{format}: {stdout}");
        assert!(stderr.contains("nothing was checked") && stderr.contains(why), "{format}: {stderr}");
        match format {
            "json" => {
                let report: serde_json::Value = serde_json::from_str(&stdout).expect("a JSON report");
                crate::support::schemas::validate(&report);
                assert_eq!(report["passed"], false, "{stdout}");
                let nothing = report["nothing_checked"].as_str().unwrap_or_default();
                assert!(nothing.starts_with("nothing was checked") && nothing.contains(why), "{stdout}");
            }
            "junit" => {
                assert!(stdout.contains(r#"name="nothing-checked""#) && stdout.contains(r#"errors="1""#), "{stdout}");
            }
            _ => assert!(stdout.contains("? nothing was checked"), "{stdout}"),
        }
    }
}

/// A field of /proc/PID/status in KiB (VmRSS:, VmHWM:, ...).
pub(crate) fn status_kib(status: &str, field: &str) -> u64 {
    status
        .lines()
        .find_map(|line| line.strip_prefix(field))
        .and_then(|rest| rest.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap_or_else(|| panic!("no {field} in {status}"))
}
