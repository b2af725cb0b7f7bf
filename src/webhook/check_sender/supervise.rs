//! The sender under test, when given as `-- SENDER_CMD ARGS...`: started with `WEBHOOK_URL` set to
//! the receiver, its output passed to stderr (stdout carries the report), and stopped if it is
//! still running when the run ends.
use std::ffi::OsString;
use std::process::{ExitStatus, Stdio};

use anyhow::Context;
use tokio::process::{Child, Command};

use crate::webhook::secret::Secret;

/// The variable that tells the sender where to deliver.
pub(crate) const URL_ENV: &str = "WEBHOOK_URL";

pub(super) struct SenderProcess {
    child: Child,
    /// The command line, for messages.
    pub shown: String,
    exited: Option<ExitStatus>,
}

impl SenderProcess {
    /// Starts `command`; `secret` is blanked out of the command line wherever it is shown, since
    /// a sender is often given the same secret on its command line.
    pub(super) fn spawn(command: &[OsString], url: &str, secret: &Secret) -> anyhow::Result<SenderProcess> {
        let (program, args) = command.split_first().context("the sender command is empty; give it after --")?;
        let shown = redact(&crate::command_line::shown_command(command), secret);
        let mut command = Command::new(program);
        // Its own process group, so stopping it also stops what it started (`sh -c` runs the real
        // sender as a child), and a Ctrl-C meant for us reaches it only through `stop`.
        #[cfg(unix)]
        command.process_group(0);
        let child = command
            .args(args)
            .env(URL_ENV, url)
            .stdin(Stdio::null())
            .stdout(stderr_for_child())
            .stderr(Stdio::inherit())
            .kill_on_drop(true)
            .spawn()
            .with_context(|| format!("cannot start the sender `{shown}`; is it installed and on PATH?"))?;
        Ok(SenderProcess { child, shown, exited: None })
    }

    /// Waits for the sender to exit.
    pub(super) async fn wait(&mut self) -> Option<ExitStatus> {
        if self.exited.is_none() {
            self.exited = self.child.wait().await.ok();
        }
        self.exited
    }

    pub(super) fn exited(&self) -> Option<ExitStatus> {
        self.exited
    }

    /// Stops a sender still running at the end of the run.
    pub(super) async fn stop(&mut self) {
        if self.exited.is_none() {
            #[cfg(unix)]
            if let Some(group) = self.child.id().and_then(|pid| i32::try_from(pid).ok()) {
                // SAFETY: kill(2) takes plain integers and touches no memory of ours; a negative pid
                // names the process group `spawn` created, which holds only the sender's processes.
                unsafe {
                    libc::kill(-group, libc::SIGKILL);
                }
            }
            let _ = self.child.start_kill();
            let _ = self.child.wait().await;
        }
    }
}

/// `text` with every occurrence of the secret replaced by `<secret>`.
fn redact(text: &str, secret: &Secret) -> String {
    match std::str::from_utf8(secret.expose()) {
        Ok(secret) if !secret.is_empty() => text.replace(secret, "<secret>"),
        _ => text.to_string(),
    }
}

/// `exit status 0`, `killed by signal 9`.
pub(super) fn describe(status: ExitStatus) -> String {
    match status.code() {
        Some(code) => format!("exit status {code}"),
        None => {
            #[cfg(unix)]
            {
                use std::os::unix::process::ExitStatusExt;
                if let Some(signal) = status.signal() {
                    return format!("killed by signal {signal}");
                }
            }
            "no exit status".to_string()
        }
    }
}

/// The sender's stdout goes to our stderr, so its log never mixes into a JSON or JUnit report.
fn stderr_for_child() -> Stdio {
    #[cfg(unix)]
    {
        use std::os::fd::AsFd;
        if let Ok(fd) = std::io::stderr().as_fd().try_clone_to_owned() {
            return Stdio::from(fd);
        }
    }
    Stdio::inherit()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_secret_is_blanked_out_of_the_command_line() {
        let secret = Secret::new(b"whsec_abc".to_vec()).unwrap();
        assert_eq!(redact("send --secret whsec_abc -d x", &secret), "send --secret <secret> -d x");
    }
}
