//! ECDSA P-256 with SHA-256 as SendGrid's Event Webhook uses it: the dashboard's "Verification Key"
//! is the public key as base64 of its DER SubjectPublicKeyInfo (sendgrid-python,
//! `EventWebhook.convert_public_key_to_ecdsa` wraps it in `BEGIN PUBLIC KEY` and reads it with
//! starkbank-ecdsa), and `X-Twilio-Email-Event-Webhook-Signature` is base64 of the DER
//! (`ECDSA-Sig-Value`) signature over timestamp + body. The private side is a PEM: PKCS#8
//! (`BEGIN PRIVATE KEY`) or SEC1 (`BEGIN EC PRIVATE KEY`, what `openssl ecparam -genkey` writes).
use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use ring::rand::SystemRandom;
use ring::signature::{
    ECDSA_P256_SHA256_ASN1, ECDSA_P256_SHA256_ASN1_SIGNING, EcdsaKeyPair, KeyPair, UnparsedPublicKey,
};

use super::KeyError;
use super::pem::{self, PrivateKeyPem};

/// The DER of `SubjectPublicKeyInfo { AlgorithmIdentifier { id-ecPublicKey, prime256v1 }, BIT STRING`
/// up to the 65-byte uncompressed point: every P-256 SPKI starts with exactly these bytes.
const SPKI_PREFIX: [u8; 26] = [
    0x30, 0x59, 0x30, 0x13, 0x06, 0x07, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x02, 0x01, 0x06, 0x08, 0x2a, 0x86, 0x48, 0xce,
    0x3d, 0x03, 0x01, 0x07, 0x03, 0x42, 0x00,
];
/// `AlgorithmIdentifier { id-ecPublicKey, prime256v1 }`, for wrapping a SEC1 key in PKCS#8.
const ALGORITHM: [u8; 21] = [
    0x30, 0x13, 0x06, 0x07, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x02, 0x01, 0x06, 0x08, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x03,
    0x01, 0x07,
];
const POINT_LEN: usize = 65;

/// A sender's P-256 key. `Debug` shows the public key only.
pub struct EcdsaP256Signer {
    pair: EcdsaKeyPair,
    rng: SystemRandom,
}

impl std::fmt::Debug for EcdsaP256Signer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "EcdsaP256Signer(public {})", self.public_base64())
    }
}

impl EcdsaP256Signer {
    /// Reads a PKCS#8 or SEC1 PEM of a P-256 key (SEC1 must carry its public key, as OpenSSL writes it).
    pub fn from_pem(text: &str) -> Result<EcdsaP256Signer, KeyError> {
        const WHAT: &str = "ECDSA P-256 private key";
        let pkcs8 = match pem::private_key(text.as_bytes()) {
            Some(PrivateKeyPem::Pkcs8(der)) => der,
            Some(PrivateKeyPem::Sec1(der)) => sec1_to_pkcs8(&der),
            _ => return Err(KeyError::form(WHAT, "a PEM (`BEGIN PRIVATE KEY` or `BEGIN EC PRIVATE KEY`)")),
        };
        let rng = SystemRandom::new();
        let pair = EcdsaKeyPair::from_pkcs8(&ECDSA_P256_SHA256_ASN1_SIGNING, &pkcs8, &rng)
            .map_err(|err| KeyError::rejected(WHAT, err))?;
        Ok(EcdsaP256Signer { pair, rng })
    }

    /// A new random key, and its PKCS#8 PEM (the form `webhook secret` prints).
    pub fn generate() -> Result<(EcdsaP256Signer, String), KeyError> {
        let rng = SystemRandom::new();
        let pkcs8 = EcdsaKeyPair::generate_pkcs8(&ECDSA_P256_SHA256_ASN1_SIGNING, &rng)
            .map_err(|err| KeyError::rejected("new ECDSA P-256 key (the system random source)", err))?;
        let pem = pem::encode("PRIVATE KEY", pkcs8.as_ref());
        Ok((Self::from_pem(&pem)?, pem))
    }

    /// The DER signature of `message` (random nonce: two signatures of one message differ).
    pub fn sign(&self, message: &[u8]) -> Result<Vec<u8>, KeyError> {
        let signature =
            self.pair.sign(&self.rng, message).map_err(|err| KeyError::rejected("ECDSA P-256 private key", err))?;
        Ok(signature.as_ref().to_vec())
    }

    /// The public key as SendGrid's dashboard shows it: base64 of the DER SubjectPublicKeyInfo.
    pub fn public_base64(&self) -> String {
        let mut spki = SPKI_PREFIX.to_vec();
        spki.extend_from_slice(self.pair.public_key().as_ref());
        STANDARD.encode(spki)
    }
}

/// A receiver's P-256 public key: base64 DER SPKI (the dashboard's form) or a `BEGIN PUBLIC KEY` PEM.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EcdsaP256Public {
    point: Vec<u8>,
}

impl EcdsaP256Public {
    pub fn parse(text: &str) -> Result<EcdsaP256Public, KeyError> {
        const WHAT: &str = "ECDSA P-256 public key";
        let der = if pem::looks_like_pem(text.as_bytes()) {
            pem::sections(text.as_bytes(), rustls_pki_types::pem::SectionKind::PublicKey)
                .into_iter()
                .next()
                .ok_or(KeyError::form(WHAT, "a `BEGIN PUBLIC KEY` PEM"))?
        } else {
            let compact: String = text.split_whitespace().collect();
            STANDARD
                .decode(compact)
                .map_err(|_| KeyError::form(WHAT, "base64 (the verification key as SendGrid's dashboard shows it)"))?
        };
        match der.strip_prefix(&SPKI_PREFIX[..]) {
            Some(point) if point.len() == POINT_LEN && point[0] == 0x04 => {
                Ok(EcdsaP256Public { point: point.to_vec() })
            }
            _ => Err(KeyError::form(WHAT, "a P-256 SubjectPublicKeyInfo with an uncompressed point")),
        }
    }

    /// Whether the DER `signature` signs `message`.
    pub fn verify(&self, message: &[u8], signature: &[u8]) -> bool {
        UnparsedPublicKey::new(&ECDSA_P256_SHA256_ASN1, &self.point).verify(message, signature).is_ok()
    }
}

/// PKCS#8 `PrivateKeyInfo { version 0, algorithm, OCTET STRING { sec1 } }` around a SEC1 key,
/// the only private-key form ring reads.
fn sec1_to_pkcs8(sec1: &[u8]) -> Vec<u8> {
    let mut body = vec![0x02, 0x01, 0x00];
    body.extend_from_slice(&ALGORITHM);
    body.extend(der_tlv(0x04, sec1));
    der_tlv(0x30, &body)
}

fn der_tlv(tag: u8, content: &[u8]) -> Vec<u8> {
    let mut out = vec![tag];
    let len = content.len();
    if len < 0x80 {
        out.push(len as u8);
    } else {
        let bytes: Vec<u8> = len.to_be_bytes().into_iter().skip_while(|b| *b == 0).collect();
        out.push(0x80 | bytes.len() as u8);
        out.extend(bytes);
    }
    out.extend_from_slice(content);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    // A key written by `openssl ecparam -name prime256v1 -genkey -noout` (SEC1), and its public key
    // as `openssl ec -pubout -outform DER | base64` writes it.
    const SEC1: &str = "-----BEGIN EC PRIVATE KEY-----
MHcCAQEEIH/gpU5eA8cHoxCDOj5+KyggzfaJ6gN6M5eVb8jgthgfoAoGCCqGSM49
AwEHoUQDQgAENXLvuVI6Ew0F2fYeRr4sA410yUvJgYeA0TVQm5V9MFFwnt8gIAyT
KhFIwMHGxhTWWnK+rIR7agFoAksxNxaBDQ==
-----END EC PRIVATE KEY-----
";
    const PUBLIC: &str = "MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAENXLvuVI6Ew0F2fYeRr4sA410yUvJgYeA0TVQm5V9MFFwnt8gIAyTKhFIwMHGxhTWWnK+rIR7agFoAksxNxaBDQ==";

    #[test]
    fn a_sec1_pem_signs_what_its_public_key_as_openssl_writes_it_verifies() {
        let signer = EcdsaP256Signer::from_pem(SEC1).unwrap();
        assert_eq!(signer.public_base64(), PUBLIC);
        let public = EcdsaP256Public::parse(PUBLIC).unwrap();
        let signature = signer.sign(b"1600112502{\"a\":1}").unwrap();
        assert!(public.verify(b"1600112502{\"a\":1}", &signature));
        assert!(!public.verify(b"1600112503{\"a\":1}", &signature));
        let pem = pem::encode("PUBLIC KEY", &STANDARD.decode(PUBLIC).unwrap());
        assert_eq!(EcdsaP256Public::parse(&pem).unwrap(), public);
    }

    #[test]
    fn a_generated_key_round_trips_through_its_pem() {
        let (signer, pem) = EcdsaP256Signer::generate().unwrap();
        let again = EcdsaP256Signer::from_pem(&pem).unwrap();
        assert_eq!(signer.public_base64(), again.public_base64());
    }

    #[test]
    fn wrong_forms_are_refused_by_name() {
        assert!(EcdsaP256Signer::from_pem("abc").unwrap_err().to_string().contains("P-256 private key"));
        assert!(EcdsaP256Public::parse("!!!").is_err());
        // An Ed25519 SPKI (RFC 8410) is not a P-256 key.
        assert!(EcdsaP256Public::parse("MCowBQYDK2VwAyEAGb9ECWmEzf6FQbrBZ9w7lshQhqowtrbLDFw4rXAxZuE=").is_err());
    }
}
