//! The `idem` commands: send, race, check, serve, and what they share: the request spec and its
//! keys, and the verdict logic.
pub(crate) mod check;
pub(crate) mod graphql_directive;
pub(crate) mod json_digest;
pub(crate) mod key;
pub(crate) mod key_carrier;
pub(crate) mod print;
pub(crate) mod proxy;
pub(crate) mod race;
pub(crate) mod request;
pub(crate) mod run;
pub(crate) mod send;
pub(crate) mod send_retry;
pub(crate) mod serve;
pub(crate) mod verdict;
pub(crate) mod window;
