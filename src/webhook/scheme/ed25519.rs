//! Standard Webhooks' asymmetric signatures, `v1a`: Ed25519 (ring's implementation) over the same
//! `<id>.<timestamp>.<body>` as `v1`, with keys serialised as the spec says.
//!
//! The spec (standard-webhooks/standard-webhooks, spec/standard-webhooks.md, "Signature scheme"):
//! the asymmetric signing secret is a "standard ed25519 key pair", serialised "base64 encoded,
//! prefixed with `whsk_` for the secret key, and `whpk_` for the public key"; the signature
//! identifier is `v1a`. The spec does not say which bytes of the pair `whsk_` carries; its author's
//! server (svix-webhooks, server/svix-server/src/core/cryptography.rs and core/types) writes the
//! 64-byte key pair of ed25519-compact, the 32-byte seed followed by the 32-byte public key
//! (its own test vector: `whsk_6Xb/dC…Kvg==` with `whpk_1SiA4o…Oir4=`, the pair's second half).
//! So `whsk_` is written here as those 64 bytes, and read either as them (the public half must
//! then match the seed) or as the 32-byte seed alone; `whpk_` is the 32-byte public key.
use std::fmt;

use ring::signature::{ED25519, Ed25519KeyPair, KeyPair, UnparsedPublicKey};

use super::BASE64;
use base64::Engine;

pub(crate) const SECRET_PREFIX: &str = "whsk_";
pub(crate) const PUBLIC_PREFIX: &str = "whpk_";
/// The signature identifier in `webhook-signature`.
pub(crate) const VERSION: &str = "v1a";

const SEED_LEN: usize = 32;
const PUBLIC_LEN: usize = 32;
/// An Ed25519 signature's length; anything else is not one.
pub(crate) const SIGNATURE_LEN: usize = 64;

/// A `whsk_` key (signs, and verifies with its public half) or a `whpk_` key (verifies only).
/// `Debug` shows the public key at most.
pub enum AsymmetricKey {
    Secret(Ed25519KeyPair),
    Public([u8; PUBLIC_LEN]),
}

/// Why a `whsk_`/`whpk_` key cannot be used. The messages never include the key.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum AsymmetricKeyError {
    #[error("the {0} key is not base64 after its prefix; copy the whole key from the sender")]
    NotBase64(&'static str),
    #[error(
        "the whsk_ key decodes to {0} bytes; a Standard Webhooks secret key is 64 (seed and public key) or a 32-byte \
         seed (`webhook secret --scheme standard --asymmetric` makes a pair)"
    )]
    SecretLength(usize),
    #[error("the whsk_ key's public half does not belong to its seed; copy the whole key from the sender")]
    Mismatched,
    #[error("the whpk_ key decodes to {0} bytes; an Ed25519 public key is 32")]
    PublicLength(usize),
}

impl fmt::Debug for AsymmetricKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "AsymmetricKey(public {})", public_text(self.public_key()))
    }
}

fn public_text(public: &[u8]) -> String {
    format!("{PUBLIC_PREFIX}{}", BASE64.encode(public))
}

impl AsymmetricKey {
    /// Reads `whsk_…` or `whpk_…`; `None` when the text has neither prefix (an HMAC secret).
    pub fn parse(text: &[u8]) -> Option<Result<AsymmetricKey, AsymmetricKeyError>> {
        if let Some(encoded) = text.strip_prefix(SECRET_PREFIX.as_bytes()) {
            return Some(Self::secret(encoded));
        }
        let encoded = text.strip_prefix(PUBLIC_PREFIX.as_bytes())?;
        Some(match BASE64.decode(encoded) {
            Err(_) => Err(AsymmetricKeyError::NotBase64("whpk_")),
            Ok(bytes) => <[u8; PUBLIC_LEN]>::try_from(bytes.as_slice())
                .map(AsymmetricKey::Public)
                .map_err(|_| AsymmetricKeyError::PublicLength(bytes.len())),
        })
    }

    fn secret(encoded: &[u8]) -> Result<AsymmetricKey, AsymmetricKeyError> {
        let bytes = BASE64.decode(encoded).map_err(|_| AsymmetricKeyError::NotBase64("whsk_"))?;
        let pair = match bytes.len() {
            SEED_LEN => Ed25519KeyPair::from_seed_unchecked(&bytes),
            len if len == SEED_LEN + PUBLIC_LEN => {
                Ed25519KeyPair::from_seed_and_public_key(&bytes[..SEED_LEN], &bytes[SEED_LEN..])
            }
            other => return Err(AsymmetricKeyError::SecretLength(other)),
        };
        pair.map(AsymmetricKey::Secret).map_err(|_| AsymmetricKeyError::Mismatched)
    }

    /// A new pair from 32 random bytes: (`whsk_…`, `whpk_…`).
    pub fn generate_pair(seed: &[u8; SEED_LEN]) -> anyhow::Result<(String, String)> {
        let pair = Ed25519KeyPair::from_seed_unchecked(seed)
            .map_err(|_| anyhow::anyhow!("ring refused a 32-byte Ed25519 seed"))?;
        let public = pair.public_key().as_ref();
        let secret = format!("{SECRET_PREFIX}{}", BASE64.encode([seed.as_slice(), public].concat()));
        Ok((secret, public_text(public)))
    }

    pub fn public_key(&self) -> &[u8] {
        match self {
            AsymmetricKey::Secret(pair) => pair.public_key().as_ref(),
            AsymmetricKey::Public(public) => public,
        }
    }

    /// The signature over `message`; `None` for a public key, which cannot sign.
    pub fn sign(&self, message: &[u8]) -> Option<[u8; SIGNATURE_LEN]> {
        let AsymmetricKey::Secret(pair) = self else { return None };
        let signature = pair.sign(message);
        <[u8; SIGNATURE_LEN]>::try_from(signature.as_ref()).ok()
    }

    /// Whether `signature` is this key's over `message`.
    pub fn verifies(&self, message: &[u8], signature: &[u8]) -> bool {
        UnparsedPublicKey::new(&ED25519, self.public_key()).verify(message, signature).is_ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// svix-webhooks' own test vector (server/svix-server/src/core/types/mod.rs).
    const SVIX_SECRET: &str =
        "whsk_6Xb/dCcHpPea21PS1N9VY/NZW723CEc77N4rJCubMbfVKIDij2HKpMKkioLlX0dRqSKJp4AJ6p9lMicMFs6Kvg==";
    const SVIX_PUBLIC: &str = "whpk_1SiA4o9hyqTCpIqC5V9HUakiiaeACeqfZTInDBbOir4=";

    #[test]
    fn the_spec_authors_key_pair_reads_and_matches() {
        let secret = AsymmetricKey::parse(SVIX_SECRET.as_bytes()).unwrap().unwrap();
        let public = AsymmetricKey::parse(SVIX_PUBLIC.as_bytes()).unwrap().unwrap();
        assert_eq!(secret.public_key(), public.public_key());
        let signature = secret.sign(b"msg_1.1.{}").unwrap();
        assert!(public.verifies(b"msg_1.1.{}", &signature));
        assert!(!public.verifies(b"msg_1.1.{ }", &signature));
        assert!(public.sign(b"x").is_none());
        assert!(!format!("{secret:?}").contains("6Xb/"));
    }

    #[test]
    fn seeds_and_pairs_both_read_and_bad_keys_say_why() {
        let (secret, public) = AsymmetricKey::generate_pair(&[7; 32]).unwrap();
        let pair = AsymmetricKey::parse(secret.as_bytes()).unwrap().unwrap();
        let seed_only = format!("whsk_{}", BASE64.encode([7u8; 32]));
        let seed = AsymmetricKey::parse(seed_only.as_bytes()).unwrap().unwrap();
        assert_eq!(pair.public_key(), seed.public_key());
        assert_eq!(public, public_text(seed.public_key()));
        let mismatched = format!("whsk_{}", BASE64.encode([[7u8; 32], [8u8; 32]].concat()));
        assert_eq!(AsymmetricKey::parse(mismatched.as_bytes()).unwrap().unwrap_err(), AsymmetricKeyError::Mismatched);
        assert_eq!(AsymmetricKey::parse(b"whsk_AAAA").unwrap().unwrap_err(), AsymmetricKeyError::SecretLength(3));
        assert_eq!(AsymmetricKey::parse(b"whpk_!!").unwrap().unwrap_err(), AsymmetricKeyError::NotBase64("whpk_"));
        assert!(AsymmetricKey::parse(b"whsec_AAAA").is_none());
    }
}
