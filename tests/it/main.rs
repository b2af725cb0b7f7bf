//! The one integration-test binary: real servers on port 0, the real binaries through assert_cmd.
mod check;
mod completions;
mod demo;
mod race;
mod send;
mod serve;
mod support;
mod webhook_check;
mod webhook_cli;
mod webhook_end_to_end;
mod webhook_listen;
mod webhook_malformed;
mod webhook_properties;
mod webhook_replay;
mod webhook_send;
mod webhook_sign_verify;
mod webhook_vectors;
