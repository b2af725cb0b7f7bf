//! X.509 signing certificates (AWS SNS's `SigningCertURL`, PayPal's `PAYPAL-CERT-URL`): a PEM chain
//! whose leaf must chain to a trust root (the web PKI's, or the CA of `--trust-ca`) and whose public
//! key verifies the delivery's RSA signature. rustls-webpki does the path building, the validity
//! period and the key usage, exactly as it does for a TLS server certificate.
use rustls_pki_types::pem::SectionKind;
use rustls_pki_types::{
    AlgorithmIdentifier, CertificateDer, InvalidSignature, SignatureVerificationAlgorithm, TrustAnchor, UnixTime,
    alg_id,
};
use webpki::{EndEntityCert, KeyUsage};

use super::pem;
use super::rsa::RsaHash;

/// Why a certificate, or a signature checked with it, is not accepted. Never includes key material.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CertificateError {
    #[error("the {0} holds no PEM certificate")]
    NoCertificate(&'static str),
    #[error("the {what} is not a certificate rustls-webpki can read: {reason}")]
    Unreadable { what: &'static str, reason: String },
    #[error("the signing certificate does not chain to a trusted root: {0}")]
    Untrusted(String),
    #[error("the signature does not verify with the signing certificate's key ({0})")]
    BadSignature(String),
}

/// The roots a signing certificate must chain to.
#[derive(Debug, Clone)]
pub struct TrustRoots {
    anchors: Vec<TrustAnchor<'static>>,
}

impl TrustRoots {
    /// The web PKI's roots (webpki-roots, Mozilla's list): what AWS's and PayPal's certificates chain to.
    pub fn web_pki() -> TrustRoots {
        TrustRoots { anchors: webpki_roots::TLS_SERVER_ROOTS.to_vec() }
    }

    /// Every certificate of a PEM file as a root (`--trust-ca FILE`): for tests and offline users.
    pub fn from_pem(text: &[u8]) -> Result<TrustRoots, CertificateError> {
        const WHAT: &str = "trusted CA file";
        let ders = pem::sections(text, SectionKind::Certificate);
        if ders.is_empty() {
            return Err(CertificateError::NoCertificate(WHAT));
        }
        let anchors = ders
            .into_iter()
            .map(|der| {
                let der = CertificateDer::from(der);
                webpki::anchor_from_trusted_cert(&der)
                    .map(|anchor| anchor.to_owned())
                    .map_err(|err| CertificateError::Unreadable { what: WHAT, reason: err.to_string() })
            })
            .collect::<Result<_, _>>()?;
        Ok(TrustRoots { anchors })
    }

    /// The roots as a rustls store, for the TLS connection that fetches the certificate.
    pub(crate) fn root_store(&self) -> rustls::RootCertStore {
        rustls::RootCertStore::from_iter(self.anchors.iter().cloned())
    }
}

/// A signing certificate: the leaf first, then the intermediates the PEM carried.
#[derive(Debug, Clone)]
pub struct SigningCertificate {
    chain: Vec<CertificateDer<'static>>,
}

impl SigningCertificate {
    pub fn from_pem(text: &[u8]) -> Result<SigningCertificate, CertificateError> {
        const WHAT: &str = "signing certificate";
        let chain: Vec<_> =
            pem::sections(text, SectionKind::Certificate).into_iter().map(CertificateDer::from).collect();
        let Some(leaf) = chain.first() else {
            return Err(CertificateError::NoCertificate(WHAT));
        };
        EndEntityCert::try_from(leaf)
            .map_err(|err| CertificateError::Unreadable { what: WHAT, reason: err.to_string() })?;
        Ok(SigningCertificate { chain })
    }

    /// The leaf, parsed again (webpki's parsed form borrows the DER); `from_pem` already parsed it
    /// once, so an error here means a chain built some other way.
    fn leaf(&self) -> Result<EndEntityCert<'_>, CertificateError> {
        const WHAT: &str = "signing certificate";
        let leaf = self.chain.first().ok_or(CertificateError::NoCertificate(WHAT))?;
        EndEntityCert::try_from(leaf)
            .map_err(|err| CertificateError::Unreadable { what: WHAT, reason: err.to_string() })
    }

    /// Whether the leaf chains to one of `roots` at `now`, through the intermediates of the PEM.
    pub fn verify_chain(&self, roots: &TrustRoots, now: UnixTime) -> Result<(), CertificateError> {
        self.leaf()?
            .verify_for_usage(
                webpki::ALL_VERIFICATION_ALGS,
                &roots.anchors,
                &self.chain[1..],
                now,
                KeyUsage::server_auth(),
                None,
                None,
            )
            .map(|_| ())
            .map_err(|err| CertificateError::Untrusted(err.to_string()))
    }

    /// Whether `signature` is the leaf key's PKCS#1 v1.5 signature of `message`.
    pub fn verify_signature(&self, hash: RsaHash, message: &[u8], signature: &[u8]) -> Result<(), CertificateError> {
        let algorithm: &dyn SignatureVerificationAlgorithm = match hash {
            RsaHash::Sha1 => &RSA_PKCS1_SHA1,
            RsaHash::Sha256 => webpki::ring::RSA_PKCS1_2048_8192_SHA256,
        };
        self.leaf()?
            .verify_signature(algorithm, message, signature)
            .map_err(|err| CertificateError::BadSignature(err.to_string()))
    }
}

/// RSA PKCS#1 v1.5 with SHA-1, which rustls-webpki rightly leaves out for certificates but AWS SNS
/// SignatureVersion 1 still signs messages with. Used for message signatures only, never chains.
#[derive(Debug)]
struct RsaPkcs1Sha1;

static RSA_PKCS1_SHA1: RsaPkcs1Sha1 = RsaPkcs1Sha1;

impl SignatureVerificationAlgorithm for RsaPkcs1Sha1 {
    fn verify_signature(&self, public_key: &[u8], message: &[u8], signature: &[u8]) -> Result<(), InvalidSignature> {
        ring::signature::UnparsedPublicKey::new(
            &ring::signature::RSA_PKCS1_2048_8192_SHA1_FOR_LEGACY_USE_ONLY,
            public_key,
        )
        .verify(message, signature)
        .map_err(|_| InvalidSignature)
    }

    fn public_key_alg_id(&self) -> AlgorithmIdentifier {
        alg_id::RSA_ENCRYPTION
    }

    fn signature_alg_id(&self) -> AlgorithmIdentifier {
        // sha1WithRSAEncryption (1.2.840.113549.1.1.5) with NULL parameters, without the SEQUENCE.
        AlgorithmIdentifier::from_slice(&[0x06, 0x09, 0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x01, 0x05, 0x05, 0x00])
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;
    use crate::webhook::crypto::key_pair::LocalCa;
    use crate::webhook::crypto::rsa::RsaSigner;

    #[test]
    fn a_local_cas_leaf_chains_to_it_and_verifies_its_keys_signatures() {
        let ca = LocalCa::generate("sns.us-east-1.amazonaws.com").unwrap();
        let roots = TrustRoots::from_pem(ca.ca_pem.as_bytes()).unwrap();
        let cert = SigningCertificate::from_pem(ca.cert_pem.as_bytes()).unwrap();
        cert.verify_chain(&roots, UnixTime::now()).unwrap();
        let signer = RsaSigner::from_pem(&ca.key_pem).unwrap();
        for hash in [RsaHash::Sha1, RsaHash::Sha256] {
            let signature = signer.sign(hash, b"Message\nhi\n").unwrap();
            cert.verify_signature(hash, b"Message\nhi\n", &signature).unwrap();
            assert!(matches!(
                cert.verify_signature(hash, b"Message\nhj\n", &signature),
                Err(CertificateError::BadSignature(_))
            ));
        }
        let sha1 = signer.sign(RsaHash::Sha1, b"x").unwrap();
        assert!(cert.verify_signature(RsaHash::Sha256, b"x", &sha1).is_err());
    }

    #[test]
    fn another_ca_the_web_pki_and_an_expired_time_do_not_trust_it() {
        let ca = LocalCa::generate("api.paypal.com").unwrap();
        let other = LocalCa::generate("api.paypal.com").unwrap();
        let cert = SigningCertificate::from_pem(ca.cert_pem.as_bytes()).unwrap();
        let other_roots = TrustRoots::from_pem(other.ca_pem.as_bytes()).unwrap();
        assert!(matches!(cert.verify_chain(&other_roots, UnixTime::now()), Err(CertificateError::Untrusted(_))));
        assert!(cert.verify_chain(&TrustRoots::web_pki(), UnixTime::now()).is_err());
        let roots = TrustRoots::from_pem(ca.ca_pem.as_bytes()).unwrap();
        let far_future = UnixTime::since_unix_epoch(Duration::from_secs(4_102_444_800 * 2));
        assert!(cert.verify_chain(&roots, far_future).is_err());
    }

    #[test]
    fn files_without_certificates_are_named() {
        assert_eq!(TrustRoots::from_pem(b"nothing").unwrap_err(), CertificateError::NoCertificate("trusted CA file"));
        assert_eq!(
            SigningCertificate::from_pem(b"").unwrap_err(),
            CertificateError::NoCertificate("signing certificate")
        );
        let garbage = pem::encode("CERTIFICATE", b"not der");
        assert!(matches!(SigningCertificate::from_pem(garbage.as_bytes()), Err(CertificateError::Unreadable { .. })));
    }
}
