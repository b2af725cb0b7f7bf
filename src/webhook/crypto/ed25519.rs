//! Ed25519 keys as Discord shows them: the application's PUBLIC KEY in the developer portal is the
//! 32-byte public key in lowercase hex, and `X-Signature-Ed25519` is the 64-byte signature in hex
//! (discord-interactions-python, `verify_key`: `VerifyKey(bytes.fromhex(client_public_key))
//! .verify(timestamp + body, bytes.fromhex(signature))`). The private side, which only a sender
//! (a test or `webhook send`) holds, is the 32-byte seed in hex as PyNaCl's `SigningKey.encode()`
//! and Discord's examples write it, the 64-byte seed+public form libsodium and tweetnacl export,
//! or a PKCS#8 PEM (`openssl genpkey -algorithm ed25519`).
use ring::rand::SystemRandom;
use ring::signature::{ED25519, Ed25519KeyPair, KeyPair, UnparsedPublicKey};

use super::KeyError;
use super::pem::{self, PrivateKeyPem};

const SEED_LEN: usize = 32;
const PUBLIC_LEN: usize = 32;
const SIGNATURE_LEN: usize = 64;

/// A sender's Ed25519 key. `Debug` shows the public key only.
pub struct Ed25519Signer {
    pair: Ed25519KeyPair,
}

impl std::fmt::Debug for Ed25519Signer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Ed25519Signer(public {})", self.public_hex())
    }
}

impl Ed25519Signer {
    /// Reads a hex seed (64 hex digits), a hex seed+public key (128, whose public half must match),
    /// or a PKCS#8 PEM. Surrounding whitespace is ignored (keys come from files).
    pub fn from_secret(text: &str) -> Result<Ed25519Signer, KeyError> {
        let text = text.trim();
        if pem::looks_like_pem(text.as_bytes()) {
            let Some(PrivateKeyPem::Pkcs8(der)) = pem::private_key(text.as_bytes()) else {
                return Err(KeyError::form("Ed25519 private key", "a PKCS#8 PEM (`BEGIN PRIVATE KEY`)"));
            };
            // maybe_unchecked: OpenSSL writes PKCS#8 v1, without the public key.
            let pair = Ed25519KeyPair::from_pkcs8_maybe_unchecked(&der)
                .map_err(|err| KeyError::rejected("Ed25519 private key", err))?;
            return Ok(Ed25519Signer { pair });
        }
        let bytes = hex::decode(text).map_err(|_| {
            KeyError::form("Ed25519 private key", "hex (a 32-byte seed or 64-byte seed+public key) or a PKCS#8 PEM")
        })?;
        let (seed, public) = match bytes.len() {
            SEED_LEN => (&bytes[..], None),
            n if n == SEED_LEN + PUBLIC_LEN => (&bytes[..SEED_LEN], Some(&bytes[SEED_LEN..])),
            _ => {
                return Err(KeyError::form(
                    "Ed25519 private key",
                    "32 bytes (64 hex digits) or 64 bytes (128 hex digits)",
                ));
            }
        };
        let pair =
            Ed25519KeyPair::from_seed_unchecked(seed).map_err(|err| KeyError::rejected("Ed25519 private key", err))?;
        if let Some(public) = public
            && public != pair.public_key().as_ref()
        {
            return Err(KeyError::rejected("Ed25519 private key", "its public half does not belong to its seed"));
        }
        Ok(Ed25519Signer { pair })
    }

    /// A new random key.
    pub fn generate() -> Result<Ed25519Signer, KeyError> {
        Ok(generate_seed()?.1)
    }

    /// The 64-byte signature of `message`.
    pub fn sign(&self, message: &[u8]) -> Vec<u8> {
        self.pair.sign(message).as_ref().to_vec()
    }

    /// The public key as Discord's developer portal shows it: lowercase hex.
    pub fn public_hex(&self) -> String {
        hex::encode(self.pair.public_key().as_ref())
    }
}

/// A random seed and its key, for `webhook secret`: ring does not hand a seed back out of a key pair.
pub(crate) fn generate_seed() -> Result<([u8; SEED_LEN], Ed25519Signer), KeyError> {
    const WHAT: &str = "new Ed25519 key";
    let mut seed = [0u8; SEED_LEN];
    ring::rand::SecureRandom::fill(&SystemRandom::new(), &mut seed)
        .map_err(|err| KeyError::rejected(WHAT, format!("the system random source failed: {err}")))?;
    let pair = Ed25519KeyPair::from_seed_unchecked(&seed).map_err(|err| KeyError::rejected(WHAT, err))?;
    Ok((seed, Ed25519Signer { pair }))
}

/// A receiver's Ed25519 public key, read from hex as Discord shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Ed25519Public([u8; PUBLIC_LEN]);

impl Ed25519Public {
    pub fn from_hex(text: &str) -> Result<Ed25519Public, KeyError> {
        let bytes = hex::decode(text.trim()).map_err(|_| {
            KeyError::form("Ed25519 public key", "hex (64 digits, as Discord's developer portal shows it)")
        })?;
        let key: [u8; PUBLIC_LEN] =
            bytes.try_into().map_err(|_| KeyError::form("Ed25519 public key", "32 bytes (64 hex digits)"))?;
        Ok(Ed25519Public(key))
    }

    /// Whether `signature` (raw bytes; Discord sends hex, the caller decodes it) signs `message`.
    pub fn verify(&self, message: &[u8], signature: &[u8]) -> bool {
        signature.len() == SIGNATURE_LEN && UnparsedPublicKey::new(&ED25519, &self.0).verify(message, signature).is_ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // RFC 8032 section 7.1, TEST 2: a one-byte message.
    const SEED: &str = "4ccd089b28ff96da9db6c346ec114e0f5b8a319f35aba624da8cf6ed4fb8a6fb";
    const PUBLIC: &str = "3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c";
    const SIGNATURE: &str = "92a009a9f0d4cab8720e820b5f642540a2b27b5416503f8fb3762223ebdb69da\
                             085ac1e43e15996e458f3613d0f11d8c387b2eaeb4302aeeb00d291612bb0c00";

    #[test]
    fn the_rfc_8032_vector_signs_and_verifies_from_the_hex_forms() {
        let signer = Ed25519Signer::from_secret(SEED).unwrap();
        assert_eq!(signer.public_hex(), PUBLIC);
        assert_eq!(hex::encode(signer.sign(&[0x72])), SIGNATURE);
        let public = Ed25519Public::from_hex(PUBLIC).unwrap();
        assert!(public.verify(&[0x72], &hex::decode(SIGNATURE).unwrap()));
        assert!(!public.verify(&[0x73], &hex::decode(SIGNATURE).unwrap()));
        assert!(!public.verify(&[0x72], &hex::decode(SIGNATURE).unwrap()[..63]));
    }

    #[test]
    fn the_seed_plus_public_form_must_be_one_key() {
        let signer = Ed25519Signer::from_secret(&format!("{SEED}{PUBLIC}\n")).unwrap();
        assert_eq!(signer.public_hex(), PUBLIC);
        let other = Ed25519Signer::generate().unwrap().public_hex();
        assert!(matches!(Ed25519Signer::from_secret(&format!("{SEED}{other}")), Err(KeyError::Rejected { .. })));
    }

    #[test]
    fn a_pkcs8_pem_reads_as_the_same_key() {
        // RFC 8410 section 10.3's example private key: PKCS#8 v1 of this seed.
        let pem = "-----BEGIN PRIVATE KEY-----\nMC4CAQAwBQYDK2VwBCIEINTuctv5E1hK1bbY8fdp+K06/nwoy/HU++CXqI9EdVhC\n-----END PRIVATE KEY-----\n";
        let signer = Ed25519Signer::from_secret(pem).unwrap();
        let from_seed =
            Ed25519Signer::from_secret("d4ee72dbf913584ad5b6d8f1f769f8ad3afe7c28cbf1d4fbe097a88f44755842").unwrap();
        assert_eq!(signer.public_hex(), from_seed.public_hex());
    }

    #[test]
    fn wrong_forms_are_named_without_the_key() {
        for bad in ["zz", "abcd", &SEED[..62]] {
            let err = Ed25519Signer::from_secret(bad).unwrap_err().to_string();
            assert!(err.contains("Ed25519 private key"), "{err}");
        }
        assert!(Ed25519Public::from_hex(&PUBLIC[..60]).is_err());
        assert!(Ed25519Public::from_hex("not hex").is_err());
    }

    #[test]
    fn a_generated_seed_signs_what_its_public_key_verifies() {
        let (seed, signer) = generate_seed().unwrap();
        let again = Ed25519Signer::from_secret(&hex::encode(seed)).unwrap();
        let public = Ed25519Public::from_hex(&again.public_hex()).unwrap();
        assert!(public.verify(b"1700000000{}", &signer.sign(b"1700000000{}")));
    }
}
