//! The `idem` commands: send, serve, demo, and the verdict logic they share.
pub mod demo;
pub mod send;
pub mod serve;
pub mod verdict;
