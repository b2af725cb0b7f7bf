//! Running the client under test (`-- CLIENT_CMD ARGS...`) with `IDEM_PROXY_URL` pointing at the
//! proxy, through the shared runner (crate::child), which stops it and whatever it started when
//! the run ends. Its stdout goes to our stderr, so the proxy's own stdout (JSON lines) stays
//! parseable.
use anyhow::Context;

use crate::child::{ChildCommand, RunningChild};
use crate::idem::proxy::judge::ClientExit;

/// The variable the client reads the proxy's URL from.
pub(crate) const PROXY_URL_VARIABLE: &str = "IDEM_PROXY_URL";

/// A started client command.
pub(super) struct ClientCommand {
    child: RunningChild,
    shown: String,
}

impl ClientCommand {
    pub(super) fn spawn(command: &[String], proxy_url: &str) -> anyhow::Result<ClientCommand> {
        // Shown in the summary and JSON `client_exit.command`, secrets hidden (command_line).
        let command = ChildCommand::new("the client command", command)?.env(PROXY_URL_VARIABLE, proxy_url);
        let shown = command.shown().to_string();
        Ok(ClientCommand { child: command.spawn()?, shown })
    }

    pub(super) async fn wait(&mut self) -> anyhow::Result<ClientExit> {
        let status = self.child.wait().await.with_context(|| format!("cannot wait for `{}`", self.shown))?;
        Ok(ClientExit { command: self.shown.clone(), code: status.code() })
    }

    /// Stops the client if it still runs, and whatever it left running in the background.
    pub(super) async fn stop(&mut self) {
        self.child.stop().await;
    }
}
