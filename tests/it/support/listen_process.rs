//! `webhook listen` as a real process, its stdout read line by line.
use std::io::{BufRead, BufReader, Read};
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};

use crate::support::SECRET;

/// The real binary, with its stdout read line by line on a thread.
pub(crate) struct Binary {
    pub(crate) child: Child,
    lines: Arc<Mutex<Vec<String>>>,
    reader: Option<std::thread::JoinHandle<()>>,
    pub(crate) url: String,
}

impl Binary {
    pub(crate) fn start(args: &[&str]) -> Binary {
        Binary::start_with_secret(SECRET, args)
    }

    /// As `start`, verifying with `secret` (a key-pair scheme's public key).
    pub(crate) fn start_with_secret(secret: &str, args: &[&str]) -> Binary {
        Binary::start_listen(&[&["--secret", secret], args].concat())
    }

    /// `webhook listen --addr 127.0.0.1:0 ARGS`, with no secret of the test's (the
    /// certificate-signed schemes take none).
    pub(crate) fn start_listen(args: &[&str]) -> Binary {
        let mut child = Command::new(env!("CARGO_BIN_EXE_webhook"))
            .args(["listen", "--addr", "127.0.0.1:0"])
            .args(args)
            .env("NO_COLOR", "1")
            .env_remove("WEBHOOK_SECRET")
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("start webhook listen");
        let mut stdout = BufReader::new(child.stdout.take().unwrap());
        let mut first = String::new();
        stdout.read_line(&mut first).unwrap();
        let url = first
            .split(|c: char| c.is_whitespace() || c == '"')
            .find(|word| word.starts_with("http://127.0.0.1:"))
            .unwrap_or_else(|| panic!("no URL in the first line: {first:?}"))
            .trim_end_matches('/')
            .to_string();
        let lines = Arc::new(Mutex::new(vec![first.trim_end().to_string()]));
        let collected = Arc::clone(&lines);
        let reader = std::thread::spawn(move || {
            for line in stdout.lines().map_while(Result::ok) {
                collected.lock().unwrap().push(line);
            }
        });
        Binary { child, lines, reader: Some(reader), url }
    }

    pub(crate) fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Ctrl-C, then the exit status, stdout and stderr.
    pub(crate) fn interrupt(self) -> (i32, Vec<String>, String) {
        self.signal("-INT")
    }

    pub(crate) fn signal(mut self, signal: &str) -> (i32, Vec<String>, String) {
        let pid = self.child.id().to_string();
        let status = Command::new("kill").args([signal, &pid]).status().expect("run kill");
        assert!(status.success());
        let exit = self.child.wait().unwrap();
        if let Some(reader) = self.reader.take() {
            reader.join().unwrap();
        }
        let mut stderr = String::new();
        if let Some(mut pipe) = self.child.stderr.take() {
            pipe.read_to_string(&mut stderr).unwrap();
        }
        let lines = self.lines.lock().unwrap().clone();
        (exit.code().unwrap_or(-1), lines, stderr)
    }
}

impl Drop for Binary {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
