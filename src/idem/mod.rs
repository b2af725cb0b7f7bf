//! The `idem` commands: send, race, check, serve, and what they share: the request spec and its
//! keys, and the verdict logic.
pub(crate) mod check;
pub mod key;
pub(crate) mod print;
pub mod proxy;
pub mod race;
pub mod request;
pub(crate) mod send;
pub(crate) mod send_retry;
pub mod serve;
pub mod verdict;
pub(crate) mod window;
