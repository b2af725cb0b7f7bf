//! The one way tests run `idem` or `webhook` and read what came out:
//!
//! ```ignore
//! let report = Run::idem(["check", &url]).format_json().expect_exit(1).json();
//! let done = Run::webhook(["send", &url]).env("WEBHOOK_SECRET", SECRET).never_printing(SECRET).finish();
//! let (code, report) = Run::idem(["race", &url]).format_json().code_and_json();
//! ```
//!
//! A JSON document is always validated against its committed schema, an expected exit status or
//! an unparseable document fails with both outputs shown, and a secret named with
//! `never_printing` is looked for in stdout and stderr.
use std::collections::HashMap;
use std::ffi::OsStr;

use serde_json::Value;

use crate::support::{idem, suite_evidence, suite_outcomes, webhook};

/// A command of either binary, being put together.
pub(crate) struct Run {
    command: assert_cmd::Command,
    expected_exit: Option<i32>,
    secrets: Vec<String>,
}

/// What a finished command left: its exit status and both outputs, as text.
pub(crate) struct Finished {
    pub(crate) code: i32,
    pub(crate) stdout: String,
    pub(crate) stderr: String,
}

impl Run {
    pub(crate) fn idem<I: IntoIterator<Item = S>, S: AsRef<OsStr>>(args: I) -> Run {
        Run::of(idem(), args)
    }

    pub(crate) fn webhook<I: IntoIterator<Item = S>, S: AsRef<OsStr>>(args: I) -> Run {
        Run::of(webhook(), args)
    }

    fn of<I: IntoIterator<Item = S>, S: AsRef<OsStr>>(mut command: assert_cmd::Command, args: I) -> Run {
        command.args(args);
        Run::command(command)
    }

    /// A command put together elsewhere (`support::idem()` with its arguments, say).
    pub(crate) fn command(command: assert_cmd::Command) -> Run {
        Run { command, expected_exit: None, secrets: Vec::new() }
    }

    pub(crate) fn args<I: IntoIterator<Item = S>, S: AsRef<OsStr>>(mut self, args: I) -> Run {
        self.command.args(args);
        self
    }

    pub(crate) fn env(mut self, name: &str, value: &str) -> Run {
        self.command.env(name, value);
        self
    }

    /// What the command reads on stdin.
    pub(crate) fn stdin(mut self, bytes: &[u8]) -> Run {
        self.command.write_stdin(bytes.to_vec());
        self
    }

    /// Appends `--format json`.
    pub(crate) fn format_json(self) -> Run {
        self.args(["--format", "json"])
    }

    /// Fails the test if `secret` appears in stdout or stderr.
    pub(crate) fn never_printing(mut self, secret: &str) -> Run {
        self.secrets.push(secret.to_string());
        self
    }

    /// Fails the test, showing both outputs, unless the command exits with `code`.
    pub(crate) fn expect_exit(mut self, code: i32) -> Run {
        self.expected_exit = Some(code);
        self
    }

    /// Runs the command to its end.
    pub(crate) fn finish(mut self) -> Finished {
        let finished = Finished::from(self.command.output().expect("the command runs"));
        for secret in &self.secrets {
            assert!(
                !finished.stdout.contains(secret.as_str()) && !finished.stderr.contains(secret.as_str()),
                "the secret leaked:\n{}{}",
                finished.stdout,
                finished.stderr
            );
        }
        if let Some(expected) = self.expected_exit {
            assert_eq!(
                finished.code, expected,
                "exit status\nstdout: {}\nstderr: {}",
                finished.stdout, finished.stderr
            );
        }
        finished
    }

    /// Runs the command; its `--format json` document, validated against its schema.
    pub(crate) fn json(self) -> Value {
        self.finish().json()
    }

    /// Runs the command; its exit status and its validated `--format json` document.
    pub(crate) fn code_and_json(self) -> (i32, Value) {
        let finished = self.finish();
        (finished.code, finished.json())
    }
}

impl From<std::process::Output> for Finished {
    fn from(output: std::process::Output) -> Finished {
        Finished {
            code: output.status.code().unwrap_or_else(|| panic!("killed by a signal: {:?}", output.status)),
            stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
        }
    }
}

impl Finished {
    /// Stdout as one `--format json` document, validated against its schema.
    pub(crate) fn json(&self) -> Value {
        let document: Value = serde_json::from_str(&self.stdout)
            .unwrap_or_else(|err| panic!("not JSON ({err}): {}\nstderr: {}", self.stdout, self.stderr));
        crate::support::schemas::validate(&document);
        document
    }

    /// A suite's report: every check's outcome by id.
    pub(crate) fn outcomes(&self) -> HashMap<String, String> {
        suite_outcomes(&self.json())
    }

    /// A suite's report: the evidence of check `id`.
    pub(crate) fn evidence(&self, id: &str) -> String {
        suite_evidence(&self.json(), id)
    }

    /// The exit status, stdout and stderr.
    pub(crate) fn parts(self) -> (i32, String, String) {
        (self.code, self.stdout, self.stderr)
    }
}
