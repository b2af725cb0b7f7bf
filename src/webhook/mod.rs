//! `webhook`: signing schemes and the commands built on them.
//!
//! `scheme/` signs and verifies (one file per provider), `secret` is where a secret comes from,
//! `delivery` what gets signed, `payload` how the command line describes it. Then one folder per
//! job: `sign/`, `verify/` (the one verifier `verify` and `listen` share), `deliver/` (the engine,
//! retry policy and printer behind `send` and `replay`), `journal/`, `listen/`, `replay/`, `race`
//! (identical copies released together, through the shared race engine), `check/`.
pub(crate) mod canonical;
pub(crate) mod certified;
pub(crate) mod check;
pub(crate) mod check_sender;
pub(crate) mod crypto;
pub(crate) mod deliver;
pub(crate) mod delivery;
pub(crate) mod handshake_answer;
pub(crate) mod inspect;
pub(crate) mod journal;
pub(crate) mod listen;
pub(crate) mod order;
pub(crate) mod payload;
pub(crate) mod race;
pub(crate) mod replay;
pub(crate) mod scheme;
pub(crate) mod secret;
pub(crate) mod send;
pub(crate) mod send_handshake;
pub(crate) mod sign;
pub(crate) mod template;
pub(crate) mod verify;
