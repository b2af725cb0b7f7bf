//! PayPal webhooks signed and verified: `PAYPAL-TRANSMISSION-SIG` (base64 RSA PKCS#1 v1.5 with
//! SHA-256, `PAYPAL-AUTH-ALGO: SHA256withRSA`) over `canonical::paypal`'s
//! `<transmission id>|<transmission time>|<webhook id>|<crc32 of the body>`, with the key of the
//! certificate at `PAYPAL-CERT-URL`, which must be on PayPal's API hosts. The webhook id is the
//! receiver's own (its PayPal dashboard's), never read from the delivery.
use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use http::{HeaderMap, HeaderName, HeaderValue};

use super::CertifiedError;
use crate::webhook::canonical::paypal::string_to_sign;
use crate::webhook::crypto::cert_url::{CertFetcher, CertProvider, check_cert_url};
use crate::webhook::crypto::certificate::SigningCertificate;
use crate::webhook::crypto::rsa::{RsaHash, RsaSigner};

pub(crate) const TRANSMISSION_ID: &str = "PAYPAL-TRANSMISSION-ID";
pub(crate) const TRANSMISSION_TIME: &str = "PAYPAL-TRANSMISSION-TIME";
pub(crate) const TRANSMISSION_SIG: &str = "PAYPAL-TRANSMISSION-SIG";
pub(crate) const CERT_URL: &str = "PAYPAL-CERT-URL";
pub(crate) const AUTH_ALGO: &str = "PAYPAL-AUTH-ALGO";
/// The one algorithm PayPal signs with.
const SHA256_WITH_RSA: &str = "SHA256withRSA";

/// What the sender puts in the headers besides the signature.
#[derive(Debug, Clone)]
pub struct Transmission<'a> {
    pub id: &'a str,
    /// As PayPal writes it, e.g. `2026-12-02T15:00:00Z`; signed as sent.
    pub time: &'a str,
    pub cert_url: &'a str,
    pub webhook_id: &'a str,
}

/// The five headers PayPal sends with a delivery of `body`.
pub fn sign(
    body: &[u8],
    key: &RsaSigner,
    transmission: &Transmission<'_>,
) -> Result<Vec<(HeaderName, HeaderValue)>, CertifiedError> {
    check_cert_url(CertProvider::Paypal, transmission.cert_url)?;
    let text = string_to_sign(transmission.id, transmission.time, transmission.webhook_id, body);
    let signature = STANDARD.encode(key.sign(RsaHash::Sha256, text.as_bytes())?);
    [
        (TRANSMISSION_ID, transmission.id),
        (TRANSMISSION_TIME, transmission.time),
        (TRANSMISSION_SIG, signature.as_str()),
        (CERT_URL, transmission.cert_url),
        (AUTH_ALGO, SHA256_WITH_RSA),
    ]
    .into_iter()
    .map(|(name, value)| {
        let value = HeaderValue::from_str(value)
            .map_err(|_| CertifiedError::malformed(name, "it has characters a header cannot carry"))?;
        Ok((HeaderName::from_static(header_key(name)), value))
    })
    .collect()
}

/// The lower-case spelling `http` stores a header name in.
pub(crate) fn header_key(name: &'static str) -> &'static str {
    match name {
        TRANSMISSION_ID => "paypal-transmission-id",
        TRANSMISSION_TIME => "paypal-transmission-time",
        TRANSMISSION_SIG => "paypal-transmission-sig",
        CERT_URL => "paypal-cert-url",
        _ => "paypal-auth-algo",
    }
}

/// What a received PayPal delivery carries for its verdict, read before anything is fetched.
#[derive(Debug, Clone)]
pub(crate) struct PaypalPrepared {
    pub(crate) cert_url: String,
    text: String,
    signature: Vec<u8>,
}

/// Reads a received PayPal delivery for the receiver's `webhook_id` up to the certificate it
/// needs. The certificate URL's host and the algorithm are checked here, before anything is fetched.
pub(crate) fn prepare(headers: &HeaderMap, body: &[u8], webhook_id: &str) -> Result<PaypalPrepared, CertifiedError> {
    let header = |name: &'static str| -> Result<&str, CertifiedError> {
        let value = headers.get(header_key(name)).ok_or_else(|| CertifiedError::Missing { field: name.to_string() })?;
        value.to_str().map_err(|_| CertifiedError::malformed(name, "it is not text"))
    };
    let cert_url = header(CERT_URL)?;
    check_cert_url(CertProvider::Paypal, cert_url)?;
    let algorithm = header(AUTH_ALGO)?;
    if algorithm != SHA256_WITH_RSA {
        return Err(CertifiedError::malformed(AUTH_ALGO, format!("`{algorithm}` is not {SHA256_WITH_RSA}")));
    }
    let signature = STANDARD
        .decode(header(TRANSMISSION_SIG)?)
        .map_err(|_| CertifiedError::malformed(TRANSMISSION_SIG, "it is not base64"))?;
    let text = string_to_sign(header(TRANSMISSION_ID)?, header(TRANSMISSION_TIME)?, webhook_id, body);
    Ok(PaypalPrepared { cert_url: cert_url.to_string(), text, signature })
}

impl PaypalPrepared {
    /// The verdict with the certificate fetched from [`cert_url`](Self::cert_url).
    pub(crate) fn check(&self, certificate: &SigningCertificate) -> Result<(), CertifiedError> {
        certificate
            .verify_signature(RsaHash::Sha256, self.text.as_bytes(), &self.signature)
            .map_err(|_| CertifiedError::SignatureMismatch)
    }
}

/// Verifies a received PayPal delivery for the receiver's `webhook_id`: [`prepare`], the
/// certificate fetched, then the check.
pub async fn verify(
    headers: &HeaderMap,
    body: &[u8],
    webhook_id: &str,
    fetcher: &CertFetcher,
) -> Result<(), CertifiedError> {
    let prepared = prepare(headers, body, webhook_id)?;
    let certificate = fetcher.fetch(&prepared.cert_url).await?;
    prepared.check(&certificate)
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::Ordering;

    use super::*;
    use crate::webhook::crypto::cert_url::tests::{ok_with, options, serve};
    use crate::webhook::crypto::certificate::TrustRoots;
    use crate::webhook::crypto::key_pair::LocalCa;

    const PAYPAL_HOST: &str = "api-m.sandbox.paypal.com";
    const BODY: &[u8] = br#"{"id":"WH-1","event_type":"PAYMENT.CAPTURE.COMPLETED","resource":{"note":"caf\u00e9"}}"#;

    fn paypal_ca() -> &'static LocalCa {
        static CA: std::sync::OnceLock<LocalCa> = std::sync::OnceLock::new();
        CA.get_or_init(|| LocalCa::generate(PAYPAL_HOST).unwrap())
    }

    fn headers(pairs: Vec<(HeaderName, HeaderValue)>) -> HeaderMap {
        pairs.into_iter().collect()
    }

    #[tokio::test]
    async fn a_signed_delivery_verifies_for_its_webhook_id_only_and_off_host_certificates_are_never_fetched() {
        let ca = paypal_ca();
        let (addr, hits) = serve(ca, |_| ok_with(paypal_ca().cert_pem.as_bytes())).await;
        let mut fetch_options = options(ca, addr);
        fetch_options.trust = TrustRoots::from_pem(ca.ca_pem.as_bytes()).unwrap();
        fetch_options.resolve = vec![(PAYPAL_HOST.to_string(), addr), ("evil.example".to_string(), addr)];
        let fetcher = CertFetcher::new(CertProvider::Paypal, fetch_options).unwrap();
        let key = RsaSigner::from_pem(&ca.key_pem).unwrap();
        let cert_url = format!("https://{PAYPAL_HOST}/v1/notifications/certs/CERT-360caa42");
        let transmission =
            Transmission { id: "69cd13f0-d67a", time: "2026-12-02T15:00:00Z", cert_url: &cert_url, webhook_id: "WH-A" };
        let signed = headers(sign(BODY, &key, &transmission).unwrap());
        assert_eq!(signed["paypal-auth-algo"], "SHA256withRSA");
        verify(&signed, BODY, "WH-A", &fetcher).await.unwrap();

        // Another receiver's webhook id, a changed body: refused.
        assert_eq!(verify(&signed, BODY, "WH-B", &fetcher).await.unwrap_err(), CertifiedError::SignatureMismatch);
        assert_eq!(verify(&signed, b"{}", "WH-A", &fetcher).await.unwrap_err(), CertifiedError::SignatureMismatch);
        assert_eq!(hits.load(Ordering::SeqCst), 1);

        // A certificate URL off PayPal's hosts: refused by the rule, no request made.
        let mut forged = signed.clone();
        forged.insert("paypal-cert-url", HeaderValue::from_static("https://evil.example/v1/notifications/certs/X"));
        let err = verify(&forged, BODY, "WH-A", &fetcher).await.unwrap_err();
        assert!(err.to_string().contains("not on PayPal's host"), "{err}");
        assert_eq!(hits.load(Ordering::SeqCst), 1);
        let mut other_algorithm = signed.clone();
        other_algorithm.insert("paypal-auth-algo", HeaderValue::from_static("SHA1withRSA"));
        assert!(matches!(
            verify(&other_algorithm, BODY, "WH-A", &fetcher).await,
            Err(CertifiedError::Malformed { .. })
        ));
        let mut missing = signed;
        missing.remove("paypal-transmission-id");
        assert_eq!(
            verify(&missing, BODY, "WH-A", &fetcher).await.unwrap_err(),
            CertifiedError::Missing { field: TRANSMISSION_ID.into() }
        );
    }
}
