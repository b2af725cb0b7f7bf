//! The `idem` commands: send, race, serve, demo, and the verdict logic they share.
pub mod demo;
pub mod race;
pub mod send;
pub mod serve;
pub mod verdict;
