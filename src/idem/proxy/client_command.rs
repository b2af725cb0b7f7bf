//! Running the client under test (`-- CLIENT_CMD ARGS...`) with `IDEM_PROXY_URL` pointing at the
//! proxy. Its stdout goes to our stderr, so the proxy's own stdout (JSON lines) stays parseable.
use anyhow::Context;

use crate::idem::proxy::judge::ClientExit;

/// The variable the client reads the proxy's URL from.
pub const PROXY_URL_VARIABLE: &str = "IDEM_PROXY_URL";

/// A started client command.
pub(super) struct ClientCommand {
    child: tokio::process::Child,
    shown: String,
}

impl ClientCommand {
    pub(super) fn spawn(command: &[String], proxy_url: &str) -> anyhow::Result<ClientCommand> {
        let (program, args) = command.split_first().context("the client command is empty")?;
        // Shown in the summary and JSON `client_exit.command`: secrets on it are hidden.
        let shown = crate::command_line::shown_command(command);
        let child = tokio::process::Command::new(program)
            .args(args)
            .env(PROXY_URL_VARIABLE, proxy_url)
            .stdin(std::process::Stdio::null())
            .stdout(std::process::Stdio::from(std::io::stderr()))
            .kill_on_drop(true)
            .spawn()
            .with_context(|| format!("cannot run the client command `{shown}` (is it on PATH and executable?)"))?;
        Ok(ClientCommand { child, shown })
    }

    pub(super) async fn wait(&mut self) -> anyhow::Result<ClientExit> {
        let status = self.child.wait().await.with_context(|| format!("cannot wait for `{}`", self.shown))?;
        Ok(ClientExit { command: self.shown.clone(), code: status.code() })
    }
}
