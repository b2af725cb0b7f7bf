//! RSA PKCS#1 v1.5 signing, as AWS SNS (SignatureVersion 1: SHA-1, 2: SHA-256) and PayPal (SHA-256)
//! sign their webhooks; receivers verify with a certificate's key (`certificate`). The private key
//! is a PEM, PKCS#8 (`BEGIN PRIVATE KEY`) or PKCS#1 (`BEGIN RSA PRIVATE KEY`). The `rsa` crate
//! signs and generates: ring verifies RSA but signs only with SHA-256 and up, and SNS's version 1
//! is SHA-1.
use ring::digest;
use rsa::pkcs1::DecodeRsaPrivateKey;
use rsa::pkcs8::DecodePrivateKey;
use rsa::traits::PublicKeyParts;
use rsa::{Pkcs1v15Sign, RsaPrivateKey};

use super::KeyError;
use super::pem::{self, PrivateKeyPem};

/// The digest of a PKCS#1 v1.5 signature.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RsaHash {
    /// AWS SNS SignatureVersion 1; kept for it only.
    Sha1,
    Sha256,
}

impl RsaHash {
    fn digest(self) -> &'static digest::Algorithm {
        match self {
            RsaHash::Sha1 => &digest::SHA1_FOR_LEGACY_USE_ONLY,
            RsaHash::Sha256 => &digest::SHA256,
        }
    }

    /// The DER `DigestInfo` before the digest (RFC 8017 section 9.2, note 1).
    fn digest_info_prefix(self) -> &'static [u8] {
        match self {
            RsaHash::Sha1 => {
                &[0x30, 0x21, 0x30, 0x09, 0x06, 0x05, 0x2b, 0x0e, 0x03, 0x02, 0x1a, 0x05, 0x00, 0x04, 0x14]
            }
            RsaHash::Sha256 => &[
                0x30, 0x31, 0x30, 0x0d, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x01, 0x05, 0x00,
                0x04, 0x20,
            ],
        }
    }
}

/// The key size `webhook secret` generates: what AWS's and PayPal's signing certificates use.
pub(crate) const GENERATED_BITS: usize = 2048;
/// Smaller keys are refused, as ring's verifiers (and so every receiver here) refuse them.
const MIN_BITS: usize = 2048;

/// A sender's RSA key. `Debug` shows its size only.
pub struct RsaSigner {
    key: RsaPrivateKey,
}

impl std::fmt::Debug for RsaSigner {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "RsaSigner({} bits)", self.key.size() * 8)
    }
}

impl RsaSigner {
    pub fn from_pem(text: &str) -> Result<RsaSigner, KeyError> {
        const WHAT: &str = "RSA private key";
        let key = match pem::private_key(text.as_bytes()) {
            Some(PrivateKeyPem::Pkcs8(der)) => {
                RsaPrivateKey::from_pkcs8_der(&der).map_err(|err| KeyError::rejected(WHAT, err))?
            }
            Some(PrivateKeyPem::Pkcs1(der)) => {
                RsaPrivateKey::from_pkcs1_der(&der).map_err(|err| KeyError::rejected(WHAT, err))?
            }
            _ => return Err(KeyError::form(WHAT, "a PEM (`BEGIN PRIVATE KEY` or `BEGIN RSA PRIVATE KEY`)")),
        };
        if key.size() * 8 < MIN_BITS {
            return Err(KeyError::rejected(
                WHAT,
                format!("it has {} bits; receivers require at least {MIN_BITS}", key.size() * 8),
            ));
        }
        Ok(RsaSigner { key })
    }

    /// The PKCS#1 v1.5 signature of `message` (blinded, so the time it takes does not leak the key).
    pub fn sign(&self, hash: RsaHash, message: &[u8]) -> Result<Vec<u8>, KeyError> {
        let digest = digest::digest(hash.digest(), message);
        let padding = Pkcs1v15Sign { hash_len: Some(digest.as_ref().len()), prefix: hash.digest_info_prefix().into() };
        self.key
            .sign_with_rng(&mut rsa::rand_core::OsRng, padding, digest.as_ref())
            .map_err(|err| KeyError::rejected("RSA private key", err))
    }
}

/// A new RSA key of `bits` bits as PKCS#8 DER.
pub(crate) fn generate_pkcs8(bits: usize) -> Result<Vec<u8>, KeyError> {
    use rsa::pkcs8::EncodePrivateKey;
    const NEW: &str = "new RSA key";
    let key = RsaPrivateKey::new(&mut rsa::rand_core::OsRng, bits).map_err(|err| KeyError::rejected(NEW, err))?;
    Ok(key.to_pkcs8_der().map_err(|err| KeyError::rejected(NEW, err))?.as_bytes().to_vec())
}

#[cfg(test)]
mod tests {
    use super::*;
    use ring::signature::{
        RSA_PKCS1_2048_8192_SHA1_FOR_LEGACY_USE_ONLY, RSA_PKCS1_2048_8192_SHA256, UnparsedPublicKey,
    };

    #[test]
    fn a_generated_key_signs_with_either_digest_and_reads_back_from_pkcs8_and_pkcs1() {
        let der = generate_pkcs8(GENERATED_BITS).unwrap();
        let signer = RsaSigner::from_pem(&pem::encode("PRIVATE KEY", &der)).unwrap();
        use rsa::pkcs1::EncodeRsaPublicKey;
        let public = signer.key.to_public_key().to_pkcs1_der().unwrap().as_bytes().to_vec();
        let sha1 = signer.sign(RsaHash::Sha1, b"Message\nhello\n").unwrap();
        let sha256 = signer.sign(RsaHash::Sha256, b"Message\nhello\n").unwrap();
        assert_eq!(sha256.len(), 256);
        assert!(
            UnparsedPublicKey::new(&RSA_PKCS1_2048_8192_SHA1_FOR_LEGACY_USE_ONLY, &public)
                .verify(b"Message\nhello\n", &sha1)
                .is_ok()
        );
        assert!(
            UnparsedPublicKey::new(&RSA_PKCS1_2048_8192_SHA256, &public).verify(b"Message\nhello\n", &sha256).is_ok()
        );
        assert!(
            UnparsedPublicKey::new(&RSA_PKCS1_2048_8192_SHA256, &public).verify(b"Message\nhello\n", &sha1).is_err()
        );

        use rsa::pkcs1::EncodeRsaPrivateKey;
        let pkcs1 = rsa::RsaPrivateKey::from_pkcs8_der(&der).unwrap().to_pkcs1_der().unwrap();
        let again = RsaSigner::from_pem(&pem::encode("RSA PRIVATE KEY", pkcs1.as_bytes())).unwrap();
        // PKCS#1 v1.5 is deterministic: the same key signs the same bytes.
        assert_eq!(again.sign(RsaHash::Sha256, b"Message\nhello\n").unwrap(), sha256);
    }

    #[test]
    fn other_keys_are_refused_by_name() {
        let (_, p256) = super::super::ecdsa_p256::EcdsaP256Signer::generate().unwrap();
        assert!(RsaSigner::from_pem(&p256).unwrap_err().to_string().contains("RSA private key"));
        assert!(RsaSigner::from_pem("hex").is_err());
    }
}
