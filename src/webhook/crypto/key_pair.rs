//! What `webhook secret` makes for an asymmetric provider: a key pair as {secret, public} in the
//! provider's forms (the sender signs with `secret`, the receiver verifies with `public`), or, for
//! AWS SNS and PayPal, whose receivers verify with a certificate fetched from the provider's host,
//! a local CA, an RSA signing key and a certificate for that host signed by the CA (the receiver
//! then passes the CA as `--trust-ca`; the certificate doubles as the TLS server certificate a
//! test or an offline user serves it from).
use std::path::{Path, PathBuf};

use serde::Serialize;

use super::KeyError;
use super::ecdsa_p256::EcdsaP256Signer;
use super::ed25519;
use super::pem;
use super::rsa;

/// The key algorithms `webhook secret` can make a pair for; the integrator maps providers to them
/// (Discord → Ed25519, SendGrid → EcdsaP256).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KeyAlgorithm {
    /// Secret: the 32-byte seed in hex; public: the public key in hex (Discord's forms).
    Ed25519,
    /// Secret: PKCS#8 PEM; public: base64 DER SubjectPublicKeyInfo (SendGrid's form).
    EcdsaP256,
}

/// A generated pair, as `webhook secret --format json` prints it: `{"secret", "public"}`.
#[derive(Clone, PartialEq, Eq, Serialize)]
pub struct GeneratedPair {
    pub secret: String,
    pub public: String,
}

impl std::fmt::Debug for GeneratedPair {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "GeneratedPair(public {})", self.public)
    }
}

pub fn generate_pair(algorithm: KeyAlgorithm) -> Result<GeneratedPair, KeyError> {
    Ok(match algorithm {
        KeyAlgorithm::Ed25519 => {
            let (seed, signer) = ed25519::generate_seed()?;
            GeneratedPair { secret: hex::encode(seed), public: signer.public_hex() }
        }
        KeyAlgorithm::EcdsaP256 => {
            let (signer, pem) = EcdsaP256Signer::generate()?;
            GeneratedPair { secret: pem, public: signer.public_base64() }
        }
    })
}

/// A local CA with one RSA signing key and its certificate, all PEM.
#[derive(Clone)]
pub struct LocalCa {
    /// The CA's certificate: what `--trust-ca` reads.
    pub ca_pem: String,
    /// The leaf's RSA private key (PKCS#8): what the sender signs with.
    pub key_pem: String,
    /// The leaf certificate, for `host` (the certificate URL's host), signed by the CA.
    pub cert_pem: String,
}

impl std::fmt::Debug for LocalCa {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("LocalCa(..)")
    }
}

/// Where `LocalCa::write_to` put the files.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct LocalCaFiles {
    pub ca: PathBuf,
    pub key: PathBuf,
    pub cert: PathBuf,
}

impl LocalCa {
    /// A new CA (ECDSA P-256, enough for a chain rustls-webpki checks) and a 2048-bit RSA leaf for
    /// `host`, valid from 2020 to 2100 so that no test depends on the clock.
    pub fn generate(host: &str) -> anyhow::Result<LocalCa> {
        LocalCa::generate_for(&[host])
    }

    /// [`generate`](Self::generate) with a leaf valid for every one of `hosts` (PayPal's four API
    /// hosts; `hosts[0]` is its common name).
    pub fn generate_for(hosts: &[&str]) -> anyhow::Result<LocalCa> {
        use rcgen::{
            BasicConstraints, CertificateParams, CertifiedIssuer, DnType, ExtendedKeyUsagePurpose, IsCa, KeyPair,
            KeyUsagePurpose, date_time_ymd,
        };
        let mut ca_params = CertificateParams::new(Vec::<String>::new())?;
        ca_params.distinguished_name.push(DnType::CommonName, "idem local webhook CA");
        ca_params.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
        ca_params.key_usages = vec![KeyUsagePurpose::KeyCertSign, KeyUsagePurpose::CrlSign];
        ca_params.not_before = date_time_ymd(2020, 1, 1);
        ca_params.not_after = date_time_ymd(2100, 1, 1);
        let ca = CertifiedIssuer::self_signed(ca_params, KeyPair::generate()?)?;

        let leaf_der = rsa::generate_pkcs8(rsa::GENERATED_BITS)?;
        let leaf_key = KeyPair::try_from(leaf_der.as_slice())?;
        let mut leaf_params = CertificateParams::new(hosts.iter().map(|host| host.to_string()).collect::<Vec<_>>())?;
        leaf_params.distinguished_name.push(DnType::CommonName, hosts.first().copied().unwrap_or_default());
        leaf_params.extended_key_usages = vec![ExtendedKeyUsagePurpose::ServerAuth];
        leaf_params.not_before = date_time_ymd(2020, 1, 1);
        leaf_params.not_after = date_time_ymd(2100, 1, 1);
        let leaf = leaf_params.signed_by(&leaf_key, &ca)?;
        Ok(LocalCa { ca_pem: ca.pem(), key_pem: pem::encode("PRIVATE KEY", &leaf_der), cert_pem: leaf.pem() })
    }

    /// Writes `ca.pem`, `key.pem` (mode 0600 on Unix: a private key) and `cert.pem` into `dir`,
    /// which must exist.
    pub fn write_to(&self, dir: &Path) -> std::io::Result<LocalCaFiles> {
        let files = LocalCaFiles { ca: dir.join("ca.pem"), key: dir.join("key.pem"), cert: dir.join("cert.pem") };
        std::fs::write(&files.ca, &self.ca_pem)?;
        write_private(&files.key, &self.key_pem)?;
        std::fs::write(&files.cert, &self.cert_pem)?;
        Ok(files)
    }
}

fn write_private(path: &Path, text: &str) -> std::io::Result<()> {
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create(true).truncate(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    std::io::Write::write_all(&mut options.open(path)?, text.as_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::webhook::crypto::ecdsa_p256::EcdsaP256Public;
    use crate::webhook::crypto::ed25519::{Ed25519Public, Ed25519Signer};

    #[test]
    fn each_pairs_secret_signs_what_its_public_key_verifies() {
        let pair = generate_pair(KeyAlgorithm::Ed25519).unwrap();
        assert_eq!(pair.secret.len(), 64);
        let signature = Ed25519Signer::from_secret(&pair.secret).unwrap().sign(b"m");
        assert!(Ed25519Public::from_hex(&pair.public).unwrap().verify(b"m", &signature));

        let pair = generate_pair(KeyAlgorithm::EcdsaP256).unwrap();
        assert!(pair.secret.starts_with("-----BEGIN PRIVATE KEY-----"));
        let signature = EcdsaP256Signer::from_pem(&pair.secret).unwrap().sign(b"m").unwrap();
        assert!(EcdsaP256Public::parse(&pair.public).unwrap().verify(b"m", &signature));
        assert!(!format!("{pair:?}").contains("PRIVATE"));
    }

    #[test]
    fn the_local_ca_files_are_written_with_the_key_private() {
        let dir = tempfile::tempdir().unwrap();
        let ca = LocalCa::generate("api.sandbox.paypal.com").unwrap();
        let files = ca.write_to(dir.path()).unwrap();
        assert_eq!(std::fs::read_to_string(&files.cert).unwrap(), ca.cert_pem);
        assert!(std::fs::read_to_string(&files.ca).unwrap().starts_with("-----BEGIN CERTIFICATE-----"));
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            assert_eq!(std::fs::metadata(&files.key).unwrap().permissions().mode() & 0o777, 0o600);
        }
    }
}
