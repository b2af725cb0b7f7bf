//! The sender under test, when given as `-- SENDER_CMD ARGS...`: started with `WEBHOOK_URL` set to
//! the receiver, its output passed to stderr (stdout carries the report), and stopped if it is
//! still running when the run ends.
use std::ffi::OsString;
use std::process::ExitStatus;

use crate::child::{ChildCommand, RunningChild};
use crate::webhook::secret::Secret;

pub(super) use crate::child::describe;

/// The variable that tells the sender where to deliver.
pub(crate) const URL_ENV: &str = "WEBHOOK_URL";

pub(super) struct SenderProcess {
    child: RunningChild,
    /// The command line, for messages.
    pub shown: String,
}

impl SenderProcess {
    /// Starts `command` through the shared runner (crate::child: its own process group, stopped
    /// with what it started); `secret` is hidden in the command line wherever it is shown, as a
    /// whole word (a sender is often given the same secret on its command line).
    pub(super) fn spawn(command: &[OsString], url: &str, secret: &Secret) -> anyhow::Result<SenderProcess> {
        let known: Vec<&str> = std::str::from_utf8(secret.expose()).into_iter().collect();
        let shown = crate::command_line::shown_command_hiding(command, &known);
        let child = ChildCommand::new("the sender", command)?.env(URL_ENV, url).shown_as(shown.clone()).spawn()?;
        Ok(SenderProcess { child, shown })
    }

    /// Waits for the sender to exit.
    pub(super) async fn wait(&mut self) -> Option<ExitStatus> {
        self.child.wait().await.ok()
    }

    pub(super) fn exited(&self) -> Option<ExitStatus> {
        self.child.exited()
    }

    /// Whether the sender, or anything it left in the background, still runs: only then can more
    /// deliveries come.
    pub(super) fn anything_running(&mut self) -> bool {
        self.child.anything_running()
    }

    /// Stops the sender if it still runs at the end of the run, and whatever it left running.
    pub(super) async fn stop(&mut self) {
        self.child.stop().await;
    }
}
