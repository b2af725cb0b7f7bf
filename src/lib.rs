//! idem: test how HTTP APIs handle `Idempotency-Key`, and how webhooks are signed, delivered and received.
pub(crate) mod child;
pub mod cli;
pub(crate) mod clock;
pub(crate) mod command_line;
pub(crate) mod conformance;
pub(crate) mod demo;
pub mod exit;
pub mod http;
pub mod idem;
pub(crate) mod ids;
pub(crate) mod json_output;
pub(crate) mod live_log;
pub(crate) mod output;
pub(crate) mod retry;
pub(crate) mod sync;
pub(crate) mod units;
pub mod webhook;
