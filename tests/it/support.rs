//! Shared test plumbing: in-process reference servers on port 0, run on a runtime of their own so
//! the binaries under test can talk to them from another process.
#![allow(dead_code)]

use std::sync::OnceLock;

use idem::idem::serve::{self, RunningServer, ServeConfig};

/// One runtime for every in-process server of the test binary.
pub fn runtime() -> &'static tokio::runtime::Runtime {
    static RUNTIME: OnceLock<tokio::runtime::Runtime> = OnceLock::new();
    RUNTIME.get_or_init(|| {
        tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().expect("test runtime")
    })
}

/// A reference server on a free port, stopped when dropped.
pub struct TestServer {
    server: Option<RunningServer>,
}

impl TestServer {
    pub fn start(config: ServeConfig) -> TestServer {
        let server = runtime().block_on(serve::start_quiet(&config)).expect("start reference server");
        TestServer { server: Some(server) }
    }

    pub fn url(&self, path: &str) -> String {
        self.server.as_ref().expect("running").url(path)
    }

    pub fn summary(&self) -> serve::Summary {
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
pub fn idem() -> assert_cmd::Command {
    let mut command = assert_cmd::Command::cargo_bin("idem").expect("idem binary");
    command.env("NO_COLOR", "1").env_remove("IDEM_KEY");
    command
}

/// The `webhook` binary, colors off, with no secret leaking in from the environment.
pub fn webhook() -> assert_cmd::Command {
    let mut command = assert_cmd::Command::cargo_bin("webhook").expect("webhook binary");
    command.env("NO_COLOR", "1").env_remove("WEBHOOK_SECRET").env_remove("WEBHOOK_COLOR");
    command
}

/// The published webhook signature vectors, shared with the other implementations of this suite.
pub fn webhook_vectors() -> serde_json::Value {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/vectors/webhook-signatures.json");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|err| panic!("cannot read {}: {err}", path.display()));
    serde_json::from_str(&text).expect("the vectors file is JSON")
}
