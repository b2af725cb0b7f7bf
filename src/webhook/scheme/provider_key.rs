//! The keys of the described schemes that sign with a key pair instead of a shared secret
//! (Discord's Ed25519, SendGrid's ECDSA P-256), read by the one convention every such provider
//! follows here: `sign` and `send` take the SENDER's private key (a PEM, or the provider's own
//! form such as a hex Ed25519 seed), `verify`, `listen` and `check-sender` take what the RECEIVER
//! holds, the public key as the provider shows it. The key forms themselves are
//! `webhook::crypto`'s; this file only chooses the half and says so when the other one was given.
use crate::webhook::crypto::KeyError;
use crate::webhook::crypto::ecdsa_p256::{EcdsaP256Public, EcdsaP256Signer};
use crate::webhook::crypto::ed25519::{Ed25519Public, Ed25519Signer};
use crate::webhook::crypto::pem;
use crate::webhook::crypto::rsa::{RsaHash, RsaSigner};
use crate::webhook::secret::Secret;

/// The key-pair algorithms a description can name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum PairAlgorithm {
    Ed25519,
    EcdsaP256,
}

/// Why a key-pair scheme cannot use the key it was given: the other half of the pair, or a key in
/// no form it reads. The messages never include the key.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum KeyHalfError {
    #[error("{0}")]
    OtherHalf(String),
    #[error(transparent)]
    Form(#[from] KeyError),
}

/// Which half a command needs: the sender's or the receiver's.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum KeyUse {
    Sign,
    Verify,
}

/// One half of a pair, ready to sign or to verify. `Debug` (through the crypto types) shows the
/// public key at most.
#[derive(Debug)]
pub(crate) enum ProviderKey {
    Ed25519Signer(Ed25519Signer),
    Ed25519Public(Ed25519Public),
    EcdsaP256Signer(EcdsaP256Signer),
    EcdsaP256Public(EcdsaP256Public),
    /// The RSA key of a certificate-signed provider (SNS, PayPal); its receivers verify with the
    /// certificate, never with a key given here.
    Rsa(RsaSigner),
}

impl PairAlgorithm {
    /// The public key's form, as the message asking for it names it.
    fn public_form(self) -> &'static str {
        match self {
            PairAlgorithm::Ed25519 => {
                "the Ed25519 public key in hex (64 digits, as Discord's developer portal shows it)"
            }
            PairAlgorithm::EcdsaP256 => {
                "the P-256 public key as base64 DER (the verification key as SendGrid's dashboard shows it) or a \
                 `BEGIN PUBLIC KEY` PEM"
            }
        }
    }

    fn private_form(self) -> &'static str {
        match self {
            PairAlgorithm::Ed25519 => "the Ed25519 private key: a hex seed (64 digits) or a PKCS#8 PEM",
            PairAlgorithm::EcdsaP256 => {
                "the P-256 private key as a PEM (`BEGIN PRIVATE KEY` or `BEGIN EC PRIVATE KEY`)"
            }
        }
    }
}

impl ProviderKey {
    /// Reads the half `used` needs from `secret` for `scheme`, refusing the other half by name.
    pub(crate) fn read(
        scheme: &str,
        algorithm: PairAlgorithm,
        used: KeyUse,
        secret: &Secret,
    ) -> Result<ProviderKey, KeyHalfError> {
        let text = std::str::from_utf8(secret.expose()).map_err(|_| {
            KeyHalfError::OtherHalf("this scheme takes a key as text; this one is not UTF-8".to_string())
        })?;
        match used {
            KeyUse::Sign => {
                if looks_public(algorithm, text) {
                    return Err(KeyHalfError::OtherHalf(format!(
                        "this scheme signs with the sender's PRIVATE key, {}; this is the public key, which only \
                         verifies: give it to `webhook verify` or `webhook listen` (`webhook secret --scheme {scheme}` \
                         makes a pair)",
                        algorithm.private_form()
                    )));
                }
                Ok(match algorithm {
                    PairAlgorithm::Ed25519 => ProviderKey::Ed25519Signer(Ed25519Signer::from_secret(text)?),
                    PairAlgorithm::EcdsaP256 => ProviderKey::EcdsaP256Signer(EcdsaP256Signer::from_pem(text)?),
                })
            }
            KeyUse::Verify => {
                if looks_private(algorithm, text) {
                    return Err(KeyHalfError::OtherHalf(format!(
                        "this scheme verifies with the PUBLIC key, {}; this is a private key, which only the sender \
                         holds: pass the public key instead (`webhook secret --scheme {scheme}` prints both)",
                        algorithm.public_form()
                    )));
                }
                Ok(match algorithm {
                    PairAlgorithm::Ed25519 => ProviderKey::Ed25519Public(Ed25519Public::from_hex(text)?),
                    PairAlgorithm::EcdsaP256 => ProviderKey::EcdsaP256Public(EcdsaP256Public::parse(text)?),
                })
            }
        }
    }

    /// The signature over `message`; `None` for a public key, which cannot sign.
    pub(crate) fn sign(&self, message: &[u8]) -> Option<Result<Vec<u8>, KeyError>> {
        match self {
            ProviderKey::Ed25519Signer(signer) => Some(Ok(signer.sign(message))),
            ProviderKey::EcdsaP256Signer(signer) => Some(signer.sign(message)),
            ProviderKey::Rsa(signer) => Some(signer.sign(RsaHash::Sha256, message)),
            ProviderKey::Ed25519Public(_) | ProviderKey::EcdsaP256Public(_) => None,
        }
    }

    /// Whether `signature` signs `message`. A private key verifies with its own public half (a
    /// sender checking what it signed).
    pub(crate) fn verifies(&self, message: &[u8], signature: &[u8]) -> bool {
        match self {
            ProviderKey::Ed25519Public(public) => public.verify(message, signature),
            ProviderKey::EcdsaP256Public(public) => public.verify(message, signature),
            ProviderKey::Ed25519Signer(signer) => {
                Ed25519Public::from_hex(&signer.public_hex()).is_ok_and(|public| public.verify(message, signature))
            }
            ProviderKey::EcdsaP256Signer(signer) => {
                EcdsaP256Public::parse(&signer.public_base64()).is_ok_and(|public| public.verify(message, signature))
            }
            // Verified through a certificate (`certified.rs`), never against a key alone.
            ProviderKey::Rsa(_) => false,
        }
    }
}

/// Whether `text` is certainly a private key of `algorithm`. Discord's hex seed and hex public key
/// are both 64 hex digits, so only the forms that cannot be a public key count: a private-key
/// PEM, or the 128-digit seed+public key.
fn looks_private(algorithm: PairAlgorithm, text: &str) -> bool {
    let text = text.trim();
    if pem::private_key(text.as_bytes()).is_some() {
        return true;
    }
    algorithm == PairAlgorithm::Ed25519 && text.len() == 128 && hex::decode(text).is_ok()
}

/// Whether `text` is certainly a public key of `algorithm` (a 64-digit hex Ed25519 key is taken
/// as the seed it may be).
fn looks_public(algorithm: PairAlgorithm, text: &str) -> bool {
    match algorithm {
        PairAlgorithm::Ed25519 => pem::looks_like_pem(text.as_bytes()) && text.contains("-----BEGIN PUBLIC KEY-----"),
        PairAlgorithm::EcdsaP256 => EcdsaP256Public::parse(text).is_ok(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::webhook::crypto::key_pair::{KeyAlgorithm, generate_pair};

    fn secret(text: &str) -> Secret {
        Secret::new(text.as_bytes().to_vec()).unwrap()
    }

    #[test]
    fn each_half_is_read_for_its_use_and_the_other_is_refused_by_name() {
        for (algorithm, pair) in [
            (PairAlgorithm::Ed25519, generate_pair(KeyAlgorithm::Ed25519).unwrap()),
            (PairAlgorithm::EcdsaP256, generate_pair(KeyAlgorithm::EcdsaP256).unwrap()),
        ] {
            let signer = ProviderKey::read("p", algorithm, KeyUse::Sign, &secret(&pair.secret)).unwrap();
            let public = ProviderKey::read("p", algorithm, KeyUse::Verify, &secret(&pair.public)).unwrap();
            let signature = signer.sign(b"1700000000{}").unwrap().unwrap();
            assert!(public.verifies(b"1700000000{}", &signature) && signer.verifies(b"1700000000{}", &signature));
            assert!(!public.verifies(b"1700000001{}", &signature));
            assert!(public.sign(b"x").is_none());
            if algorithm == PairAlgorithm::EcdsaP256 {
                let err = ProviderKey::read("p", algorithm, KeyUse::Verify, &secret(&pair.secret)).unwrap_err();
                assert!(err.to_string().contains("verifies with the PUBLIC key"), "{err}");
                let err = ProviderKey::read("p", algorithm, KeyUse::Sign, &secret(&pair.public)).unwrap_err();
                assert!(err.to_string().contains("signs with the sender's PRIVATE key"), "{err}");
                assert!(!err.to_string().contains(&pair.public));
            }
        }
    }
}
