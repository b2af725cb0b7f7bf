//! rustls configurations: a client that checks certificates against the webpki roots (or, with
//! `-k`, accepts any), and a server with a certificate generated at start-up.
use std::sync::Arc;

use anyhow::Context;
use rustls::client::danger::{HandshakeSignatureValid, ServerCertVerified, ServerCertVerifier};
use rustls::crypto::{CryptoProvider, WebPkiSupportedAlgorithms};
use rustls::pki_types::{CertificateDer, PrivateKeyDer, PrivatePkcs8KeyDer, ServerName, UnixTime};
use rustls::{ClientConfig, DigitallySignedStruct, ServerConfig, SignatureScheme};

pub(crate) const ALPN_H2: &[u8] = b"h2";
pub(crate) const ALPN_HTTP11: &[u8] = b"http/1.1";

fn provider() -> Arc<CryptoProvider> {
    Arc::new(rustls::crypto::ring::default_provider())
}

/// A client configuration offering `alpn` protocols. `insecure` accepts any certificate (`-k`),
/// still checking that the handshake is signed by the certificate's key.
pub(crate) fn client_config(insecure: bool, alpn: &[&[u8]]) -> anyhow::Result<ClientConfig> {
    let builder = ClientConfig::builder_with_provider(provider())
        .with_safe_default_protocol_versions()
        .context("cannot set up TLS")?;
    let mut config = if insecure {
        let algorithms = provider().signature_verification_algorithms;
        builder
            .dangerous()
            .with_custom_certificate_verifier(Arc::new(AcceptAnyCertificate { algorithms }))
            .with_no_client_auth()
    } else {
        let roots = rustls::RootCertStore::from_iter(webpki_roots::TLS_SERVER_ROOTS.iter().cloned());
        builder.with_root_certificates(roots).with_no_client_auth()
    };
    config.alpn_protocols = alpn.iter().map(|proto| proto.to_vec()).collect();
    Ok(config)
}

/// The TLS acceptor of a server started with `--tls` (a certificate generated at start-up), or
/// none for plain HTTP.
pub(crate) fn acceptor(tls: bool) -> anyhow::Result<Option<tokio_rustls::TlsAcceptor>> {
    if !tls {
        return Ok(None);
    }
    let (server_config, _) = self_signed_server_config()?;
    Ok(Some(tokio_rustls::TlsAcceptor::from(std::sync::Arc::new(server_config))))
}

/// A server configuration with a self-signed certificate for `localhost` and 127.0.0.1, offering
/// h2 and http/1.1 in ALPN. Returns the certificate too, so callers can trust it explicitly.
pub(crate) fn self_signed_server_config() -> anyhow::Result<(ServerConfig, CertificateDer<'static>)> {
    let names = vec!["localhost".to_string(), "127.0.0.1".to_string(), "::1".to_string()];
    let certified = rcgen::generate_simple_self_signed(names).context("cannot generate a certificate")?;
    let cert = certified.cert.der().clone();
    let key = PrivateKeyDer::Pkcs8(PrivatePkcs8KeyDer::from(certified.signing_key.serialize_der()));
    let mut config = ServerConfig::builder_with_provider(provider())
        .with_safe_default_protocol_versions()
        .context("cannot set up TLS")?
        .with_no_client_auth()
        .with_single_cert(vec![cert.clone()], key)
        .context("cannot use the generated certificate")?;
    config.alpn_protocols = vec![ALPN_H2.to_vec(), ALPN_HTTP11.to_vec()];
    Ok((config, cert))
}

/// The `-k` verifier: the certificate chain is not checked, the handshake signature is.
#[derive(Debug)]
struct AcceptAnyCertificate {
    algorithms: WebPkiSupportedAlgorithms,
}

impl ServerCertVerifier for AcceptAnyCertificate {
    fn verify_server_cert(
        &self,
        _end_entity: &CertificateDer<'_>,
        _intermediates: &[CertificateDer<'_>],
        _server_name: &ServerName<'_>,
        _ocsp_response: &[u8],
        _now: UnixTime,
    ) -> Result<ServerCertVerified, rustls::Error> {
        Ok(ServerCertVerified::assertion())
    }

    fn verify_tls12_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        rustls::crypto::verify_tls12_signature(message, cert, dss, &self.algorithms)
    }

    fn verify_tls13_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        rustls::crypto::verify_tls13_signature(message, cert, dss, &self.algorithms)
    }

    fn supported_verify_schemes(&self) -> Vec<SignatureScheme> {
        self.algorithms.supported_schemes()
    }
}
