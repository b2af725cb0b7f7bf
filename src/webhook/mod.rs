//! `webhook`: signing schemes and the commands built on them.
pub mod delivery;
pub mod scheme;
pub mod secret;
