//! The programs under `tests/apps/` that stand in for a user's application: small Python (stdlib
//! unless a test says otherwise) and Node programs, each a real file named for what it is.
use std::io::{BufRead, BufReader};
use std::path::PathBuf;
use std::process::{Command, Stdio};

use crate::support::KillOnDrop;

/// Where the app `name` (with its extension) lives.
pub(crate) fn app_path(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/apps").join(name)
}

/// A Python app from `tests/apps/` on a free loopback port it prints on its first line, killed
/// when dropped.
pub(crate) struct PythonApp {
    _child: KillOnDrop,
    base: String,
}

impl PythonApp {
    pub(crate) fn start(name: &str, args: &[&str]) -> PythonApp {
        let mut child = KillOnDrop::new(
            Command::new("python3")
                .arg(app_path(name))
                .args(args)
                .stdout(Stdio::piped())
                .stderr(Stdio::null())
                .spawn()
                .expect("python3 runs"),
        );
        let mut line = String::new();
        BufReader::new(child.stdout.take().expect("stdout")).read_line(&mut line).expect("the port");
        let port: u16 = line.trim().parse().unwrap_or_else(|_| panic!("no port from {name}: {line:?}"));
        PythonApp { _child: child, base: format!("http://127.0.0.1:{port}") }
    }

    pub(crate) fn url(&self, path: &str) -> String {
        format!("{}{path}", self.base)
    }

    /// The body of a GET on `path` (a ledger, for the test's own view of what the app did).
    pub(crate) fn get(&self, path: &str) -> String {
        let url = self.url(path);
        crate::support::runtime().block_on(async {
            let options = idem::testing::client::ClientOptions {
                timeout: std::time::Duration::from_secs(10),
                insecure: false,
                http2: false,
            };
            let client = idem::testing::client::HttpClient::new(options).expect("client");
            let request = http::Request::get(url).body(bytes::Bytes::new()).expect("a GET");
            String::from_utf8_lossy(&client.send(request).await.expect("the app answers").body).into_owned()
        })
    }
}

/// `tests/apps/stripe_sdk_receiver.py` on the pinned stripe SDK (tests/differential/setup.sh):
/// each delivery is judged by `stripe.Webhook.construct_event` with `secret`, and what it parsed
/// (or the SDK's error) is read back a JSON line per delivery. Killed when dropped.
pub(crate) struct StripeSdkReceiver {
    _child: KillOnDrop,
    lines: std::io::Lines<BufReader<std::process::ChildStdout>>,
    port: u16,
}

impl StripeSdkReceiver {
    pub(crate) fn start(secret: &str) -> StripeSdkReceiver {
        let installed = crate::support::reference_libraries::references();
        let mut child = KillOnDrop::new(
            Command::new(installed.python())
                .arg(app_path("stripe_sdk_receiver.py"))
                .env("WEBHOOK_SECRET", secret)
                .stdin(Stdio::null())
                .stdout(Stdio::piped())
                .spawn()
                .expect("the virtualenv's python runs"),
        );
        let mut lines = BufReader::new(child.stdout.take().expect("stdout")).lines();
        let first = lines.next().expect("a first line").expect("the port");
        let port = first.trim().parse().unwrap_or_else(|_| panic!("no port from the stripe SDK receiver: {first:?}"));
        StripeSdkReceiver { _child: child, lines, port }
    }

    pub(crate) fn url(&self, path: &str) -> String {
        format!("http://127.0.0.1:{}{path}", self.port)
    }

    /// What the SDK made of the next delivery: the parsed event's fields, or `{"error": …}`.
    pub(crate) fn next_parsed(&mut self) -> serde_json::Value {
        let line = self.lines.next().expect("a line per delivery").expect("readable");
        serde_json::from_str(&line).expect("a JSON line")
    }
}
