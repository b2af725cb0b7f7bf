//! `webhook`: signing schemes and the commands built on them.
pub mod delivery;
pub mod hint;
pub mod journal;
pub mod listen;
pub mod payload;
pub mod raw_request;
pub mod scheme;
pub mod secret;
pub mod sign;
pub mod sign_format;
pub mod verify;
