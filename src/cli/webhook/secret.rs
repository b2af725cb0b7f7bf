//! `webhook secret`: its flags.
use crate::webhook::scheme::SchemeKind;

#[derive(Debug, clap::Args)]
pub struct SecretArgs {
    /// The scheme the secret is for: whsec_ + base64 for standard and stripe, hex for the others
    #[arg(long, value_enum, default_value_t = SchemeKind::Hmac)]
    pub scheme: SchemeKind,
}
