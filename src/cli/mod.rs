//! Command-line parsing: clap derive structs only, each turned into a plain config struct before
//! any work starts, so the engine never sees clap types.
pub mod completions;
pub mod idem;
pub mod request_args;
pub mod webhook;
pub mod webhook_delivery;

use std::future::Future;

/// Runs an async command body on a fresh multi-threaded runtime.
pub fn block_on<T>(future: impl Future<Output = anyhow::Result<T>>) -> anyhow::Result<T> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|err| anyhow::anyhow!("cannot start the async runtime: {err}"))?;
    runtime.block_on(future)
}
