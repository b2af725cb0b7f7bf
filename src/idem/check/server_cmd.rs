//! `--server-cmd`: the server under test, started, killed and restarted by idem through the shared
//! child-process runner (src/child.rs: its own process group, SIGTERM then SIGKILL, stopped on
//! drop). `sh -c` runs the command; idem waits for the port of the URL under test.
//!
//! The port must be the command's: one that already accepts before the command starts belongs to
//! something else (a server left from an earlier run), and a command that exits has nothing
//! listening for it, whatever answers there. Either way idem would judge a server it does not
//! control, so it refuses, with the command's last stderr lines.
use std::time::{Duration, Instant};

use anyhow::bail;

use crate::child::{ChildCommand, ChildOutput, RunningChild};

/// How long a started server has to open its port.
const START_TIMEOUT: Duration = Duration::from_secs(30);
/// How long a stopped server has between SIGTERM and SIGKILL.
const STOP_GRACE: Duration = Duration::from_secs(5);

pub(crate) struct ServerCommand {
    command: ChildCommand,
    host: String,
    port: u16,
    running: Option<RunningChild>,
}

impl ServerCommand {
    /// `command` (run by `sh -c`) serves `url`; idem waits for that URL's port.
    pub(crate) fn new(command: String, url: &http::Uri) -> anyhow::Result<ServerCommand> {
        let Some(host) = url.host() else { bail!("the URL under test has no host") };
        let host = host.trim_matches(['[', ']']).to_string();
        let port = url.port_u16().unwrap_or(if url.scheme_str() == Some("https") { 443 } else { 80 });
        // Its request log would only bury the report; its errors still reach stderr.
        let command = ChildCommand::new("the server command", &["sh".to_string(), "-c".to_string(), command.clone()])?
            .shown_as(crate::command_line::shown_script(&command))
            .stdout(ChildOutput::Null)
            .keep_stderr_tail()
            .grace(STOP_GRACE);
        Ok(ServerCommand { command, host, port, running: None })
    }

    pub(crate) fn describe(&self) -> String {
        format!("`{}` (port {})", self.command.shown(), self.port)
    }

    /// Starts the command and waits until its port accepts; returns how long that took. Refuses
    /// a port that accepts before the command runs, and a command that exits.
    pub(crate) async fn start(&mut self) -> anyhow::Result<Duration> {
        if self.accepts().await {
            bail!(
                "port {} on {} already accepts connections before --server-cmd `{}` starts: something else listens \
                 there (a server left from an earlier run?), and idem would judge it instead of the server it starts; \
                 stop it, or give a URL with a free port",
                self.port,
                self.host,
                self.command.shown()
            );
        }
        let started = Instant::now();
        self.running = Some(self.command.spawn()?);
        loop {
            if self.accepts().await {
                // The port is the command's only while the command runs.
                if let Err(exited) = self.ensure_running() {
                    self.stop().await;
                    bail!("{exited}, so what listens on port {} is not its server", self.port);
                }
                return Ok(started.elapsed());
            }
            if let Err(exited) = self.ensure_running() {
                self.stop().await;
                bail!("{exited} before listening on port {}", self.port);
            }
            if started.elapsed() > START_TIMEOUT {
                self.stop().await;
                bail!(
                    "--server-cmd `{}` did not listen on {}:{} within {}s",
                    self.command.shown(),
                    self.host,
                    self.port,
                    START_TIMEOUT.as_secs()
                );
            }
            // Notices an exit without blocking: `exited` only reports what a wait has seen.
            if let Some(running) = self.running.as_mut() {
                let _ = tokio::time::timeout(Duration::from_millis(25), running.wait()).await;
            }
        }
    }

    /// Whether something accepts connections on the server's port.
    async fn accepts(&self) -> bool {
        tokio::net::TcpStream::connect((self.host.as_str(), self.port)).await.is_ok()
    }

    /// `Err` with what happened when the started command and all it started have exited:
    /// `--server-cmd `…` exited (exit status 3); its last stderr lines: …`. `Ok` while it runs (or
    /// when none was started).
    /// A command that started its server in the background and exited (`app &`) still runs, in
    /// what it left running.
    pub(crate) fn ensure_running(&mut self) -> Result<(), String> {
        let Some(running) = self.running.as_mut() else { return Ok(()) };
        if running.anything_running() {
            return Ok(());
        }
        let status = running.exited().map_or_else(|| "no exit status".to_string(), crate::child::describe);
        let tail = match running.stderr_tail() {
            Some(tail) => format!("; its last stderr lines: {tail}"),
            None => " (it wrote nothing to stderr)".to_string(),
        };
        Err(format!("--server-cmd `{}` exited ({status}){tail}", self.command.shown()))
    }

    /// SIGKILL to the server and everything it started, as a crash would: nothing cleans up.
    pub(crate) async fn kill_hard(&mut self) {
        if let Some(mut running) = self.running.take() {
            running.kill().await;
        }
    }

    /// SIGTERM, then SIGKILL after the grace period.
    pub(crate) async fn stop(&mut self) {
        if let Some(mut running) = self.running.take() {
            running.stop().await;
        }
    }
}
