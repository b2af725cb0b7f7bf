//! The signing-certificate URLs of AWS SNS (`SigningCertURL` in the message) and PayPal (the
//! `PAYPAL-CERT-URL` header), and the fetcher that gets and caches their certificates.
//!
//! Anyone can put any URL in a delivery, so the URL is the attack: a receiver that fetches the
//! certificate from wherever the delivery says verifies the attacker's signature with the
//! attacker's certificate. So the URL must be https, on the provider's host, with no credentials
//! and no port other than 443; a redirect is followed only to a URL that passes the same check;
//! the body is bounded; and the certificate must chain to a trust root (the web PKI's, or
//! `--trust-ca`). Allowed hosts:
//!
//! - SNS: `sns.<region>.amazonaws.com` and `sns.<region>.amazonaws.com.cn`, with a path ending
//!   in `.pem` — AWS's own validators' rule: aws-js-sns-message-validator (`sns-validator`)
//!   `hostPattern = /^sns\.[a-zA-Z0-9\-]{3,}\.amazonaws\.com(\.cn)?$/` and `.pem` path check,
//!   aws-php-sns-message-validator `MessageValidator` the same pattern.
//! - PayPal: `api.paypal.com` and `api.sandbox.paypal.com` (PayPal's webhook documentation, "Verify
//!   the signature": `cert_url` is on these hosts, e.g. `https://api.paypal.com/v1/notifications/
//!   certs/CERT-360caa42-…`), and `api-m.paypal.com`, `api-m.sandbox.paypal.com`, the hosts of
//!   PayPal's current REST API. PayPal's SDKs do not check the host themselves (the PHP and
//!   Python SDKs call PayPal's `verify-webhook-signature` API instead), so this list is PayPal's
//!   documented hosts, no wider.
//!
//! With `--trust-ca`, the host rule still applies (a test serves the certificate from a test
//! server reached through `CertFetchOptions::resolve`, which maps the provider's host name to a
//! loopback address without DNS), but both the TLS connection and the certificate chain are
//! checked against the given CA instead of the web PKI.
use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use reqwest::Url;
use rustls_pki_types::UnixTime;

use super::certificate::{CertificateError, SigningCertificate, TrustRoots};

/// A certificate larger than this is refused (AWS's and PayPal's are about 2 to 6 KB, chain included).
pub(crate) const MAX_CERTIFICATE_BYTES: usize = 64 * 1024;
/// At most this many redirects, each to an allowed URL.
const MAX_REDIRECTS: usize = 3;

/// Whose certificate URL rule applies.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CertProvider {
    Sns,
    Paypal,
}

impl CertProvider {
    fn name(self) -> &'static str {
        match self {
            CertProvider::Sns => "AWS SNS",
            CertProvider::Paypal => "PayPal",
        }
    }

    fn hosts_text(self) -> &'static str {
        match self {
            CertProvider::Sns => "sns.<region>.amazonaws.com or sns.<region>.amazonaws.com.cn",
            CertProvider::Paypal => {
                "api.paypal.com, api.sandbox.paypal.com, api-m.paypal.com or api-m.sandbox.paypal.com"
            }
        }
    }

    fn allows_host(self, host: &str) -> bool {
        match self {
            CertProvider::Sns => {
                let Some(rest) = host.strip_prefix("sns.") else { return false };
                let region = rest.strip_suffix(".amazonaws.com").or_else(|| rest.strip_suffix(".amazonaws.com.cn"));
                region.is_some_and(|region| {
                    region.len() >= 3 && region.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-')
                })
            }
            CertProvider::Paypal => {
                matches!(
                    host,
                    "api.paypal.com" | "api.sandbox.paypal.com" | "api-m.paypal.com" | "api-m.sandbox.paypal.com"
                )
            }
        }
    }
}

/// Why a certificate URL is refused or its certificate could not be had. Names the URL (it is
/// public, from the delivery) and never a key.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CertUrlError {
    #[error("the certificate URL {0:?} is not a URL")]
    NotUrl(String),
    #[error("the certificate URL {url} is not https; {provider} certificates are fetched over https only")]
    NotHttps { url: String, provider: &'static str },
    #[error(
        "the certificate URL {url} is not on {provider}'s host ({hosts}); refusing to trust a certificate from elsewhere"
    )]
    OtherHost { url: String, provider: &'static str, hosts: &'static str },
    #[error("the certificate URL {0} carries credentials or a port other than 443; {1} certificate URLs have neither")]
    Unusual(String, &'static str),
    #[error("the certificate URL {0} does not name a .pem file, as AWS SNS certificate URLs do")]
    NotPem(String),
    #[error("cannot fetch the certificate from {url}: {reason}")]
    Fetch { url: String, reason: String },
    #[error("the certificate at {url} is larger than {limit} bytes; refusing it")]
    TooLarge { url: String, limit: usize },
    #[error("{0}")]
    Certificate(#[from] CertificateError),
}

/// Checks `text` against `provider`'s rule; the parsed URL when it passes.
pub fn check_cert_url(provider: CertProvider, text: &str) -> Result<Url, CertUrlError> {
    let url = check_provider_url(provider, text)?;
    if provider == CertProvider::Sns && !url.path().ends_with(".pem") {
        return Err(CertUrlError::NotPem(url.as_str().to_string()));
    }
    Ok(url)
}

/// The host half of the rule, for any URL of the provider's (an SNS `SubscribeURL`): https, on
/// the provider's host, port 443, no credentials.
pub(crate) fn check_provider_url(provider: CertProvider, text: &str) -> Result<Url, CertUrlError> {
    let url = Url::parse(text).map_err(|_| CertUrlError::NotUrl(text.to_string()))?;
    let shown = url.as_str().to_string();
    if url.scheme() != "https" {
        return Err(CertUrlError::NotHttps { url: shown, provider: provider.name() });
    }
    if !url.username().is_empty() || url.password().is_some() || url.port().is_some_and(|port| port != 443) {
        return Err(CertUrlError::Unusual(shown, provider.name()));
    }
    // `domain()` is None for an IP address, which no provider's rule allows.
    let host = url.domain().unwrap_or_default().to_ascii_lowercase();
    if !provider.allows_host(&host) {
        return Err(CertUrlError::OtherHost { url: shown, provider: provider.name(), hosts: provider.hosts_text() });
    }
    Ok(url)
}

/// How the fetcher connects.
#[derive(Debug, Clone)]
pub struct CertFetchOptions {
    /// The roots of both the TLS connection and the certificate chain: `TrustRoots::web_pki()`,
    /// or the CA of `--trust-ca`.
    pub trust: TrustRoots,
    /// Host names resolved to these addresses instead of through DNS (the port too, since the
    /// allowed URLs carry none). For tests and offline use with `--trust-ca`: the host rule is
    /// unchanged, only where the name leads.
    pub resolve: Vec<(String, SocketAddr)>,
    /// For the whole fetch.
    pub timeout: Duration,
}

impl CertFetchOptions {
    pub fn web_pki() -> CertFetchOptions {
        CertFetchOptions { trust: TrustRoots::web_pki(), resolve: Vec::new(), timeout: Duration::from_secs(10) }
    }
}

/// Fetches signing certificates, each URL once: a receiver verifying a burst of deliveries
/// fetches the certificate at the first and reuses it (only certificates that passed are kept).
pub struct CertFetcher {
    provider: CertProvider,
    client: reqwest::Client,
    trust: TrustRoots,
    cache: Mutex<HashMap<String, Arc<SigningCertificate>>>,
    /// The last failure of each URL [`prefetch`](CertFetcher::prefetch) could not get, so the
    /// synchronous verdict after it can say why ([`settled`](CertFetcher::settled)). A later
    /// prefetch tries again: a failure is never cached as a verdict.
    failures: Mutex<HashMap<String, CertUrlError>>,
}

/// At most this many failures are remembered; past it the memory starts again (each is only
/// read right after the prefetch that stored it).
const MAX_REMEMBERED_FAILURES: usize = 256;

impl std::fmt::Debug for CertFetcher {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "CertFetcher({:?})", self.provider)
    }
}

impl CertFetcher {
    pub fn new(provider: CertProvider, options: CertFetchOptions) -> anyhow::Result<CertFetcher> {
        let tls = rustls::ClientConfig::builder_with_provider(Arc::new(rustls::crypto::ring::default_provider()))
            .with_safe_default_protocol_versions()?
            .with_root_certificates(options.trust.root_store())
            .with_no_client_auth();
        let redirects = reqwest::redirect::Policy::custom(move |attempt| {
            if attempt.previous().len() > MAX_REDIRECTS {
                attempt.error("too many redirects")
            } else if let Err(err) = check_cert_url(provider, attempt.url().as_str()) {
                attempt.error(format!("redirected: {err}"))
            } else {
                attempt.follow()
            }
        });
        let mut builder = reqwest::Client::builder()
            .tls_backend_preconfigured(tls)
            .redirect(redirects)
            .retry(reqwest::retry::never())
            .referer(false)
            .no_proxy()
            .timeout(options.timeout);
        for (host, addr) in &options.resolve {
            builder = builder.resolve(host, *addr);
        }
        Ok(CertFetcher {
            provider,
            client: builder.build()?,
            trust: options.trust,
            cache: Mutex::new(HashMap::new()),
            failures: Mutex::new(HashMap::new()),
        })
    }

    /// The certificate at `url`, checked (host rule, chain to the trust roots now), from the cache
    /// when this fetcher already has it.
    pub async fn fetch(&self, url: &str) -> Result<Arc<SigningCertificate>, CertUrlError> {
        let parsed = check_cert_url(self.provider, url)?;
        if let Some(cached) = self.cache().get(parsed.as_str()) {
            return Ok(cached.clone());
        }
        let pem = self.download(&parsed).await?;
        let certificate = SigningCertificate::from_pem(&pem)?;
        certificate.verify_chain(&self.trust, UnixTime::now())?;
        let certificate = Arc::new(certificate);
        self.cache().insert(parsed.as_str().to_string(), certificate.clone());
        Ok(certificate)
    }

    /// Fetches the certificate at `url` now so that [`settled`](Self::settled) has the outcome:
    /// the asynchronous half of a verification whose verdict is then reached synchronously. A URL
    /// off the provider's host is refused here too, without a request.
    pub async fn prefetch(&self, url: &str) {
        let outcome = self.fetch(url).await;
        let mut failures = self.failures.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        match outcome {
            Ok(_) => {
                failures.remove(url);
            }
            Err(err) => {
                if failures.len() >= MAX_REMEMBERED_FAILURES {
                    failures.clear();
                }
                failures.insert(url.to_string(), err);
            }
        }
    }

    /// Visits `url` (an SNS `SubscribeURL`) with a GET, through the same TLS trust and host rule
    /// as the certificates: refused without a request when it is off the provider's host. The
    /// status it answered. Redirects are not followed (a confirmation answers 200 itself).
    pub async fn visit(&self, url: &str) -> Result<reqwest::StatusCode, CertUrlError> {
        let parsed = check_provider_url(self.provider, url)?;
        let fetch_error = |reason: String| CertUrlError::Fetch { url: parsed.to_string(), reason };
        let response = self.client.get(parsed.clone()).send().await.map_err(|err| fetch_error(describe(&err)))?;
        Ok(response.status())
    }

    /// What fetching `url` came to, without fetching: the checked certificate (cached), the
    /// refusal of the URL by the host rule, the failure of the last [`prefetch`](Self::prefetch),
    /// or `None` when it was never fetched.
    pub fn settled(&self, url: &str) -> Option<Result<Arc<SigningCertificate>, CertUrlError>> {
        let parsed = match check_cert_url(self.provider, url) {
            Ok(parsed) => parsed,
            Err(err) => return Some(Err(err)),
        };
        if let Some(cached) = self.cache().get(parsed.as_str()) {
            return Some(Ok(cached.clone()));
        }
        let failures = self.failures.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        failures.get(url).cloned().map(Err)
    }

    /// The cache, even after a panic elsewhere while it was held: it only ever holds certificates
    /// that passed every check, so what it holds stays true.
    fn cache(&self) -> std::sync::MutexGuard<'_, HashMap<String, Arc<SigningCertificate>>> {
        self.cache.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    async fn download(&self, url: &Url) -> Result<Vec<u8>, CertUrlError> {
        let fetch_error = |reason: String| CertUrlError::Fetch { url: url.to_string(), reason };
        let mut response = self.client.get(url.clone()).send().await.map_err(|err| fetch_error(describe(&err)))?;
        if !response.status().is_success() {
            return Err(fetch_error(format!("the server answered {}", response.status())));
        }
        let too_large = || CertUrlError::TooLarge { url: url.to_string(), limit: MAX_CERTIFICATE_BYTES };
        if response.content_length().is_some_and(|len| len > MAX_CERTIFICATE_BYTES as u64) {
            return Err(too_large());
        }
        let mut body = Vec::new();
        while let Some(chunk) = response.chunk().await.map_err(|err| fetch_error(describe(&err)))? {
            if body.len() + chunk.len() > MAX_CERTIFICATE_BYTES {
                return Err(too_large());
            }
            body.extend_from_slice(&chunk);
        }
        Ok(body)
    }
}

/// reqwest's error with its causes (the TLS or redirect reason is in the chain).
fn describe(err: &(dyn std::error::Error + 'static)) -> String {
    let mut text = err.to_string();
    let mut source = err.source();
    while let Some(cause) = source {
        text.push_str(": ");
        text.push_str(&cause.to_string());
        source = cause.source();
    }
    text
}

#[cfg(test)]
pub(crate) mod tests {
    //! The local TLS certificate server these tests and the certificate-signed providers' share.
    use super::*;
    use crate::webhook::crypto::key_pair::LocalCa;

    #[test]
    fn sns_urls_must_be_https_pem_files_on_an_sns_regional_host() {
        let ok = [
            "https://sns.us-east-1.amazonaws.com/SimpleNotificationService-f3ecfb7224c7233fe7bb5f59f96de52f.pem",
            "https://sns.cn-north-1.amazonaws.com.cn/SimpleNotificationService-abc.pem",
            "https://SNS.eu-west-3.amazonaws.com:443/x.pem",
        ];
        for url in ok {
            assert!(check_cert_url(CertProvider::Sns, url).is_ok(), "{url}");
        }
        let refused = [
            ("http://sns.us-east-1.amazonaws.com/x.pem", "not https"),
            ("https://sns.us-east-1.amazonaws.com.evil.com/x.pem", "not on AWS SNS's host"),
            ("https://evil.com/sns.us-east-1.amazonaws.com/x.pem", "not on AWS SNS's host"),
            ("https://sns.us-east-1.amazonaws.com@evil.com/x.pem", "credentials"),
            ("https://user@sns.us-east-1.amazonaws.com/x.pem", "credentials"),
            ("https://sns.us-east-1.amazonaws.com:8443/x.pem", "port"),
            ("https://sns.a.amazonaws.com/x.pem", "not on AWS SNS's host"),
            ("https://sns.us_east.amazonaws.com/x.pem", "not on AWS SNS's host"),
            ("https://s3.amazonaws.com/x.pem", "not on AWS SNS's host"),
            ("https://127.0.0.1/x.pem", "not on AWS SNS's host"),
            ("https://sns.us-east-1.amazonaws.com/x.crt", "does not name a .pem"),
            ("sns.us-east-1.amazonaws.com/x.pem", "is not a URL"),
        ];
        for (url, why) in refused {
            let err = check_cert_url(CertProvider::Sns, url).unwrap_err().to_string();
            assert!(err.contains(why), "{url}: {err}");
        }
    }

    #[test]
    fn paypal_urls_must_be_on_paypals_api_hosts() {
        for url in [
            "https://api.paypal.com/v1/notifications/certs/CERT-360caa42-fca2a594-1d93a270",
            "https://api.sandbox.paypal.com/v1/notifications/certs/CERT-1",
            "https://api-m.paypal.com/v1/notifications/certs/CERT-1",
        ] {
            assert!(check_cert_url(CertProvider::Paypal, url).is_ok(), "{url}");
        }
        for url in [
            "https://paypal.com/v1/notifications/certs/CERT-1",
            "https://api.paypal.com.evil.com/cert",
            "https://evil-api.paypal.com/cert",
            "http://api.paypal.com/v1/notifications/certs/CERT-1",
        ] {
            assert!(check_cert_url(CertProvider::Paypal, url).is_err(), "{url}");
        }
    }

    /// A TLS server on 127.0.0.1 with the local CA's leaf (issued for the provider's host), answering
    /// every request with `answer(path)`; returns its address and the count of requests.
    pub(crate) async fn serve(
        ca: &LocalCa,
        answer: fn(&str) -> Vec<u8>,
    ) -> (SocketAddr, Arc<std::sync::atomic::AtomicUsize>) {
        use rustls_pki_types::pem::PemObject;
        use rustls_pki_types::{CertificateDer, PrivateKeyDer};
        use tokio::io::{AsyncReadExt, AsyncWriteExt};

        let certs: Vec<_> = CertificateDer::pem_slice_iter(ca.cert_pem.as_bytes()).map(Result::unwrap).collect();
        let key = PrivateKeyDer::from_pem_slice(ca.key_pem.as_bytes()).unwrap();
        let config = rustls::ServerConfig::builder_with_provider(Arc::new(rustls::crypto::ring::default_provider()))
            .with_safe_default_protocol_versions()
            .unwrap()
            .with_no_client_auth()
            .with_single_cert(certs, key)
            .unwrap();
        let acceptor = tokio_rustls::TlsAcceptor::from(Arc::new(config));
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let hits = Arc::new(std::sync::atomic::AtomicUsize::new(0));
        let counted = hits.clone();
        tokio::spawn(async move {
            loop {
                let (tcp, _) = listener.accept().await.unwrap();
                let acceptor = acceptor.clone();
                let counted = counted.clone();
                tokio::spawn(async move {
                    let Ok(mut tls) = acceptor.accept(tcp).await else { return };
                    let mut head = Vec::new();
                    let mut byte = [0u8; 1];
                    while !head.ends_with(b"\r\n\r\n") && tls.read(&mut byte).await.unwrap_or(0) == 1 {
                        head.push(byte[0]);
                    }
                    counted.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                    let head = String::from_utf8_lossy(&head).to_string();
                    let path = head.split(' ').nth(1).unwrap_or("/").to_string();
                    let _ = tls.write_all(&answer(&path)).await;
                    let _ = tls.shutdown().await;
                });
            }
        });
        (addr, hits)
    }

    pub(crate) const SNS_HOST: &str = "sns.us-east-1.amazonaws.com";

    pub(crate) fn options(ca: &LocalCa, addr: SocketAddr) -> CertFetchOptions {
        CertFetchOptions {
            trust: TrustRoots::from_pem(ca.ca_pem.as_bytes()).unwrap(),
            resolve: vec![(SNS_HOST.to_string(), addr)],
            timeout: Duration::from_secs(30),
        }
    }

    pub(crate) fn ok_with(body: &[u8]) -> Vec<u8> {
        let mut answer =
            format!("HTTP/1.1 200 OK\r\ncontent-length: {}\r\nconnection: close\r\n\r\n", body.len()).into_bytes();
        answer.extend_from_slice(body);
        answer
    }

    static LOCAL_CA: std::sync::OnceLock<LocalCa> = std::sync::OnceLock::new();

    pub(crate) fn local_ca() -> &'static LocalCa {
        LOCAL_CA.get_or_init(|| LocalCa::generate(SNS_HOST).unwrap())
    }

    #[tokio::test]
    async fn a_certificate_on_the_providers_host_is_fetched_once_and_checked_against_the_trusted_ca() {
        let ca = local_ca();
        let (addr, hits) = serve(ca, |path| match path {
            "/cert.pem" | "/cert.pem?moved" => ok_with(local_ca().cert_pem.as_bytes()),
            "/moved.pem" => b"HTTP/1.1 302 Found\r\nlocation: https://sns.us-east-1.amazonaws.com/cert.pem?moved\r\ncontent-length: 0\r\n\r\n".to_vec(),
            _ => b"HTTP/1.1 404 Not Found\r\ncontent-length: 0\r\n\r\n".to_vec(),
        })
        .await;
        let fetcher = CertFetcher::new(CertProvider::Sns, options(ca, addr)).unwrap();
        let url = format!("https://{SNS_HOST}/cert.pem");
        let first = fetcher.fetch(&url).await.unwrap();
        let second = fetcher.fetch(&url).await.unwrap();
        assert!(Arc::ptr_eq(&first, &second));
        assert_eq!(hits.load(std::sync::atomic::Ordering::SeqCst), 1, "the second fetch comes from the cache");
        let signature = crate::webhook::crypto::rsa::RsaSigner::from_pem(&ca.key_pem)
            .unwrap()
            .sign(crate::webhook::crypto::rsa::RsaHash::Sha1, b"m")
            .unwrap();
        first.verify_signature(crate::webhook::crypto::rsa::RsaHash::Sha1, b"m", &signature).unwrap();

        // A redirect to an allowed URL is followed; a missing file is an error.
        fetcher.fetch(&format!("https://{SNS_HOST}/moved.pem")).await.unwrap();
        let err = fetcher.fetch(&format!("https://{SNS_HOST}/missing.pem")).await.unwrap_err();
        assert!(err.to_string().contains("404"), "{err}");
    }

    #[tokio::test]
    async fn the_web_pki_does_not_trust_the_local_server_so_nothing_is_fetched() {
        let ca = local_ca();
        let (addr, _) = serve(ca, |_| ok_with(local_ca().cert_pem.as_bytes())).await;
        let mut options = options(ca, addr);
        options.trust = TrustRoots::web_pki();
        let fetcher = CertFetcher::new(CertProvider::Sns, options).unwrap();
        let err = fetcher.fetch(&format!("https://{SNS_HOST}/cert.pem")).await.unwrap_err();
        assert!(matches!(err, CertUrlError::Fetch { .. }), "{err}");
    }

    #[tokio::test]
    async fn redirects_off_the_host_huge_bodies_and_untrusted_certificates_are_refused() {
        let ca = local_ca();
        let (addr, _) = serve(ca, |path| match path {
            "/away.pem" => {
                b"HTTP/1.1 302 Found\r\nlocation: https://evil.example/cert.pem\r\ncontent-length: 0\r\n\r\n".to_vec()
            }
            "/huge.pem" => ok_with(&vec![b'A'; MAX_CERTIFICATE_BYTES + 1]),
            "/endless.pem" => {
                let mut answer = b"HTTP/1.1 200 OK\r\nconnection: close\r\n\r\n".to_vec();
                answer.extend(vec![b'A'; MAX_CERTIFICATE_BYTES * 2]);
                answer
            }
            // A certificate this CA did not issue (a second local CA's leaf).
            _ => ok_with(LocalCa::generate(SNS_HOST).unwrap().cert_pem.as_bytes()),
        })
        .await;
        let fetcher = CertFetcher::new(CertProvider::Sns, options(ca, addr)).unwrap();
        let err = fetcher.fetch(&format!("https://{SNS_HOST}/away.pem")).await.unwrap_err().to_string();
        assert!(err.contains("not on AWS SNS's host"), "{err}");
        for path in ["huge.pem", "endless.pem"] {
            let err = fetcher.fetch(&format!("https://{SNS_HOST}/{path}")).await.unwrap_err();
            assert!(matches!(err, CertUrlError::TooLarge { .. }), "{path}: {err}");
        }
        let err = fetcher.fetch(&format!("https://{SNS_HOST}/other.pem")).await.unwrap_err();
        assert!(matches!(err, CertUrlError::Certificate(CertificateError::Untrusted(_))), "{err}");
    }
}
