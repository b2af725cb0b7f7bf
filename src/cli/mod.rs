//! Command-line parsing: clap derive structs only, each turned into a plain config struct before
//! any work starts, so the engine never sees clap types.
pub mod completions;
pub mod idem;
pub mod man;
pub mod request_args;
pub mod webhook;

use std::future::Future;

use crate::exit::{self, Outcome};

/// Parses the process arguments into `C`, runs `run` and returns the exit status. clap prints help
/// and version on stdout with status 0, and usage errors on stderr with status 2.
pub fn parse_and_run<C: clap::Parser>(run: impl FnOnce(C) -> anyhow::Result<Outcome>) -> i32 {
    match C::try_parse() {
        Ok(cli) => exit::finish(run(cli)),
        Err(err) => {
            let _ = err.print();
            if err.use_stderr() { exit::COULD_NOT_RUN } else { 0 }
        }
    }
}

/// Runs an async command body on a fresh multi-threaded runtime.
pub fn block_on<T>(future: impl Future<Output = anyhow::Result<T>>) -> anyhow::Result<T> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|err| anyhow::anyhow!("cannot start the async runtime: {err}"))?;
    runtime.block_on(future)
}
