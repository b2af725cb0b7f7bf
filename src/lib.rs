//! idem: test how HTTP APIs handle `Idempotency-Key`, and how webhooks are signed, delivered and received.
pub mod allocator;
mod child;
mod cli;
mod clock;
mod command_line;
mod conformance;
mod count;
mod created;
mod demo;
mod evidence_level;
mod exit;
mod expected_webhooks;
mod html_report;
mod http;
mod idem;
mod ids;
mod json_output;
mod json_text;
mod live_log;
mod output;
mod race;
mod retry;
mod run_hash;
mod sync;
pub mod testing;
mod text;
mod units;
mod webhook;

/// The `idem` binary: parses its command line, runs the command and returns the exit status.
pub fn idem_main() -> i32 {
    exit::guard(cli::idem::main)
}

/// The `webhook` binary: parses its command line, runs the command and returns the exit status.
pub fn webhook_main() -> i32 {
    exit::guard(cli::webhook::main)
}
