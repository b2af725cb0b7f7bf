//! `webhook`: signing schemes and the commands built on them.
pub mod attempt_lines;
pub mod check;
pub mod deliver;
pub mod delivery;
pub mod hint;
pub mod journal;
pub mod listen;
pub mod payload;
pub mod raw_request;
pub mod replay;
pub mod retry;
pub mod scheme;
pub mod secret;
pub mod send;
pub mod sign;
pub mod sign_format;
pub mod verify;
