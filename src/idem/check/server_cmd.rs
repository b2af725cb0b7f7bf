//! `--server-cmd`: the server under test, started, killed and restarted by idem. Its own small
//! runner until the shared child-process runner (branch `unify`) lands: start, kill hard, stop,
//! and a kill on drop, each on the whole process group (`sh -c` runs the real server as a child).
use std::process::Stdio;
use std::time::{Duration, Instant};

use anyhow::{Context, bail};
use tokio::process::{Child, Command};

/// How long a started server has to open its port.
const START_TIMEOUT: Duration = Duration::from_secs(30);
/// How long a stopped server has between SIGTERM and SIGKILL.
const STOP_GRACE: Duration = Duration::from_secs(5);

pub(crate) struct ServerCommand {
    command: String,
    host: String,
    port: u16,
    child: Option<Child>,
}

impl ServerCommand {
    /// `command` (run by `sh -c`) serves `url`; idem waits for that URL's port.
    pub(crate) fn new(command: String, url: &http::Uri) -> anyhow::Result<ServerCommand> {
        let host = url.host().context("the URL under test has no host")?.trim_matches(['[', ']']).to_string();
        let port = url.port_u16().unwrap_or(if url.scheme_str() == Some("https") { 443 } else { 80 });
        Ok(ServerCommand { command, host, port, child: None })
    }

    pub(crate) fn describe(&self) -> String {
        format!("`{}` (port {})", self.command, self.port)
    }

    /// Starts the command in a process group of its own and waits until its port accepts.
    pub(crate) async fn start(&mut self) -> anyhow::Result<Duration> {
        let started = Instant::now();
        let mut command = Command::new("sh");
        command.arg("-c").arg(&self.command).stdin(Stdio::null()).stdout(Stdio::null()).stderr(Stdio::inherit());
        #[cfg(unix)]
        command.process_group(0);
        command.kill_on_drop(true);
        let child = command.spawn().with_context(|| format!("cannot start --server-cmd `{}`", self.command))?;
        self.child = Some(child);
        loop {
            if tokio::net::TcpStream::connect((self.host.as_str(), self.port)).await.is_ok() {
                return Ok(started.elapsed());
            }
            if let Some(child) = self.child.as_mut()
                && let Ok(Some(status)) = child.try_wait()
            {
                self.child = None;
                bail!("--server-cmd `{}` exited ({status}) before listening on port {}", self.command, self.port);
            }
            if started.elapsed() > START_TIMEOUT {
                self.kill_hard().await;
                bail!(
                    "--server-cmd `{}` did not listen on {}:{} within {}s",
                    self.command,
                    self.host,
                    self.port,
                    START_TIMEOUT.as_secs()
                );
            }
            tokio::time::sleep(Duration::from_millis(25)).await;
        }
    }

    /// SIGKILL to the whole group, as a crash would: nothing gets to clean up.
    pub(crate) async fn kill_hard(&mut self) {
        if let Some(mut child) = self.child.take() {
            signal_group(child.id(), Signal::Kill);
            let _ = child.start_kill();
            let _ = child.wait().await;
        }
    }

    /// SIGTERM to the group, then SIGKILL after a grace period.
    pub(crate) async fn stop(&mut self) {
        if let Some(mut child) = self.child.take() {
            // Read before waiting: a reaped child has no id any more.
            let group = child.id();
            signal_group(group, Signal::Term);
            if tokio::time::timeout(STOP_GRACE, child.wait()).await.is_err() {
                signal_group(group, Signal::Kill);
                let _ = child.start_kill();
                let _ = child.wait().await;
            }
            // The group may outlive its leader (a server `sh -c` started in the background).
            signal_group(group, Signal::Kill);
        }
    }
}

impl Drop for ServerCommand {
    /// An error or a panic between start and stop still leaves no server behind.
    fn drop(&mut self) {
        if let Some(child) = &self.child {
            signal_group(child.id(), Signal::Kill);
        }
    }
}

enum Signal {
    Term,
    Kill,
}

fn signal_group(leader: Option<u32>, signal: Signal) {
    #[cfg(unix)]
    if let Some(group) = leader.and_then(|pid| i32::try_from(pid).ok()) {
        let signal = match signal {
            Signal::Term => libc::SIGTERM,
            Signal::Kill => libc::SIGKILL,
        };
        // SAFETY: kill(2) takes plain integers and touches no memory of ours; the negative pid
        // names the process group `start` created, which holds only the server's processes.
        unsafe {
            libc::kill(-group, signal);
        }
    }
    #[cfg(not(unix))]
    let _ = (leader, signal);
}
