//! The `idem` commands: send, race, check, serve, demo, and the verdict logic they share.
pub mod check;
pub mod demo;
pub mod race;
pub mod send;
pub mod serve;
pub mod verdict;
