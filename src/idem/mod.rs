//! The `idem` commands: send, race, check, serve, and what they share: the request spec and its
//! keys, and the verdict logic.
pub mod check;
pub mod key;
pub mod print;
pub mod proxy;
pub mod race;
pub mod request;
pub mod send;
pub mod send_retry;
pub mod serve;
pub mod verdict;
pub mod window;
