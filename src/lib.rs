//! idem: test how HTTP APIs handle `Idempotency-Key`, and how webhooks are signed, delivered and received.
pub mod cli;
pub mod clock;
pub mod conformance;
pub mod demo;
pub mod exit;
pub mod http;
pub mod idem;
pub mod ids;
pub mod json_output;
pub mod live_log;
pub mod output;
pub mod sync;
pub mod units;
pub mod webhook;
