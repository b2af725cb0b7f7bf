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
    #[error(
        "the whpk_ key is a point of small order ({0}), which verifies forged signatures for any message; \
         no real key pair has it (libsodium refuses it too): copy the public key from the sender again"
    )]
    SmallOrder(&'static str),
    #[error(
        "the whpk_ key is not a canonical Ed25519 encoding (its y coordinate is not below 2^255-19); \
         copy the public key from the sender again"
    )]
    NonCanonical,
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
            Ok(bytes) => match <[u8; PUBLIC_LEN]>::try_from(bytes.as_slice()) {
                Err(_) => Err(AsymmetricKeyError::PublicLength(bytes.len())),
                Ok(public) => usable_point(&public).map(|()| AsymmetricKey::Public(public)),
            },
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

/// The y coordinates (little-endian, sign bit clear) of the eight points of small order, with
/// the order each has. ring's verification accepts these as public keys, and with them a forger
/// needs no private key: with the identity, `R` = identity and `S` = 0 verify for any message.
/// libsodium's `ge25519_has_small_order` refuses the same set (its block list also holds
/// encodings of 0 and 1 at or above p, which `is_canonical` below catches).
const SMALL_ORDER_Y: [([u8; 32], &str); 5] = [
    (le_bytes(&[0x00]), "y = 0, order 4"),
    (le_bytes(&[0x01]), "the identity, order 1"),
    (P_MINUS_ONE, "y = -1, order 2"),
    (
        *b"\x26\xe8\x95\x8f\xc2\xb2\x27\xb0\x45\xc3\xf4\x89\xf2\xef\x98\xf0\xd5\xdf\xac\x05\xd3\xc6\x33\x39\xb1\x38\x02\x88\x6d\x53\xfc\x05",
        "order 8",
    ),
    (
        *b"\xc7\x17\x6a\x70\x3d\x4d\xd8\x4f\xba\x3c\x0b\x76\x0d\x10\x67\x0f\x2a\x20\x53\xfa\x2c\x39\xcc\xc6\x4e\xc7\xfd\x77\x92\xac\x03\x7a",
        "order 8",
    ),
];

/// 2^255 - 20, little-endian: p - 1, the y of the point of order 2.
const P_MINUS_ONE: [u8; 32] = {
    let mut bytes = [0xff; 32];
    bytes[0] = 0xec;
    bytes[31] = 0x7f;
    bytes
};

/// A 32-byte little-endian number whose low bytes are `low`.
const fn le_bytes(low: &[u8]) -> [u8; 32] {
    let mut bytes = [0; 32];
    let mut index = 0;
    while index < low.len() {
        bytes[index] = low[index];
        index += 1;
    }
    bytes
}

/// Whether a point encoding can belong to a real key: its y (the
/// encoding without the sign bit) below p = 2^255 - 19, and not one of the small-order points.
fn usable_point(encoded: &[u8; 32]) -> Result<(), AsymmetricKeyError> {
    let mut y = *encoded;
    y[31] &= 0x7f;
    // y >= p exactly when its top byte is 0x7f, the thirty middle bytes 0xff and the lowest >= 0xed.
    let at_or_above_p = y[31] == 0x7f && y[1..31].iter().all(|&byte| byte == 0xff) && y[0] >= 0xed;
    if at_or_above_p {
        return Err(AsymmetricKeyError::NonCanonical);
    }
    match SMALL_ORDER_Y.iter().find(|(small, _)| *small == y) {
        Some((_, order)) => Err(AsymmetricKeyError::SmallOrder(order)),
        None => Ok(()),
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

    fn public_key_text(bytes: [u8; 32]) -> String {
        format!("whpk_{}", BASE64.encode(bytes))
    }

    /// ring alone verifies R = identity, S = 0 under the identity key for any message: the forgery
    /// the parse-time refusal exists for.
    #[test]
    fn ring_alone_accepts_the_identity_forgery() {
        let identity = le_bytes(&[1]);
        let forged = [identity, [0; 32]].concat();
        assert!(UnparsedPublicKey::new(&ED25519, identity).verify(b"any message", &forged).is_ok());
    }

    #[test]
    fn small_order_public_keys_are_refused_with_the_reason() {
        let with_sign_bit = |mut bytes: [u8; 32]| {
            bytes[31] |= 0x80;
            bytes
        };
        for (point, order) in SMALL_ORDER_Y {
            for encoded in [point, with_sign_bit(point)] {
                let error = AsymmetricKey::parse(public_key_text(encoded).as_bytes()).unwrap().unwrap_err();
                assert_eq!(error, AsymmetricKeyError::SmallOrder(order), "{encoded:02x?}");
                assert!(error.to_string().contains("small order"), "{error}");
            }
        }
        // The all-zero placeholder the finding named.
        let placeholder = format!("whpk_{}", "A".repeat(43) + "=");
        assert!(matches!(
            AsymmetricKey::parse(placeholder.as_bytes()).unwrap(),
            Err(AsymmetricKeyError::SmallOrder("y = 0, order 4"))
        ));
    }

    #[test]
    fn non_canonical_public_keys_are_refused() {
        // p + 1 (a second spelling of the identity's y) and 2^255 - 1.
        let mut p_plus_one = [0xff; 32];
        p_plus_one[0] = 0xee;
        p_plus_one[31] = 0x7f;
        for encoded in [p_plus_one, [0xff; 32]] {
            let error = AsymmetricKey::parse(public_key_text(encoded).as_bytes()).unwrap().unwrap_err();
            assert_eq!(error, AsymmetricKeyError::NonCanonical, "{encoded:02x?}");
        }
        // p - 1 is canonical (it is refused as the point of order 2, not as an encoding).
        assert!(usable_point(&P_MINUS_ONE).unwrap_err() != AsymmetricKeyError::NonCanonical);
    }
}
