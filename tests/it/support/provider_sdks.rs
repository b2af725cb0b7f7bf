//! The providers' own SDKs as one long-lived process (tests/differential/providers.py, pinned in
//! requirements.txt and installed by setup.sh): one JSON line in, one out. The differential tests
//! of the string-to-sign builders and of the CLI's URL-signing providers both ask it.
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

use serde_json::{Value, json};

use crate::support::reference_libraries::references;

/// The SDK process: one JSON line in, one out.
pub(crate) struct Sdks {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
    next_case: u64,
}

impl Sdks {
    pub(crate) fn start() -> Sdks {
        let installed = references();
        let mut child = Command::new(installed.python())
            .arg(installed.scripts.join("providers.py"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("start providers.py");
        let stdin = child.stdin.take().unwrap();
        let stdout = BufReader::new(child.stdout.take().unwrap());
        Sdks { child, stdin, stdout, next_case: 0 }
    }

    pub(crate) fn ask(&mut self, provider: &str, op: &str, mut request: Value) -> Value {
        self.next_case += 1;
        request["case"] = json!(self.next_case);
        request["provider"] = json!(provider);
        request["op"] = json!(op);
        writeln!(self.stdin, "{request}").unwrap();
        let mut line = String::new();
        self.stdout.read_line(&mut line).unwrap();
        let answer: Value =
            serde_json::from_str(&line).unwrap_or_else(|err| panic!("providers.py answered {line:?}: {err}"));
        assert_eq!(answer["case"], json!(self.next_case));
        answer
    }

    /// The SDK's verdict; an exception is `false`.
    pub(crate) fn verifies(&mut self, provider: &str, request: Value) -> bool {
        self.ask(provider, "verify", request)["valid"].as_bool().unwrap_or(false)
    }

    pub(crate) fn signs(&mut self, provider: &str, request: Value) -> String {
        let answer = self.ask(provider, "sign", request);
        answer["signature"].as_str().unwrap_or_else(|| panic!("{provider} could not sign: {answer}")).to_string()
    }
}

impl Drop for Sdks {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
