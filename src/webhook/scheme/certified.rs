//! AWS SNS and PayPal as schemes of the one engine: signed with the sender's RSA key (a PEM, as
//! `webhook secret --scheme sns|paypal --out DIR` writes one), verified with the certificate the
//! delivery names, fetched from the provider's host (`crypto::cert_url`) and checked against the
//! web PKI or `--trust-ca`. The signing and the verdicts are `webhook::certified`'s; this file
//! fits them to [`Scheme`].
//!
//! Two things no other scheme does, each an honest extension of the trait rather than a fake:
//! SNS signs INTO the body (the `Signature` is a field of the JSON message), through
//! [`Scheme::sign_body`]; and both need a certificate from the network before their verdict,
//! through [`Scheme::prefetch`], which fetches it (or records why it could not) so that the
//! synchronous [`Scheme::verify_request`] after it judges with it. A verdict without a prefetch
//! says the certificate was not fetched; it never fetches, and never accepts.
use std::future::Future;
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::OnceLock;
use std::time::Duration;

use bytes::Bytes;
use http::{HeaderName, HeaderValue};
use serde_json::{Map, Value};

use super::mac::{SecretError, SigningKey};
use super::provider_key::{KeyHalfError, ProviderKey};
use super::request::ReceivedRequest;
use super::{Scheme, SchemeKind, SignError, TimeWindow, Verified, VerifyError, to_header_value};
use crate::webhook::certified::{CertifiedError, paypal, sns};
use crate::webhook::crypto::cert_url::{CertFetchOptions, CertFetcher, CertProvider, CertUrlError};
use crate::webhook::crypto::certificate::TrustRoots;
use crate::webhook::crypto::rsa::RsaSigner;
use crate::webhook::delivery::{Delivery, DeliveryBody};
use crate::webhook::secret::Secret;

/// What the certificate-signed schemes need besides the key.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CertifiedOptions {
    /// `--cert-url`: the certificate URL a signer writes into the delivery; it must pass the
    /// provider's rule, as a receiver checks it.
    pub cert_url: Option<String>,
    /// `--webhook-id` (PayPal): the receiver's webhook id, signed by the sender and known to the
    /// receiver from its dashboard, never read from the delivery.
    pub webhook_id: Option<String>,
    /// `--trust-ca`: the PEM of the CA the certificate (and the TLS server serving it) must chain
    /// to, instead of the web PKI.
    pub trust_ca: Option<Vec<u8>>,
    /// `--connect-to HOST:443:IP:PORT`: where a host name leads instead of DNS, for a local
    /// certificate server. The host rule is unchanged.
    pub connect_to: Vec<(String, SocketAddr)>,
}

impl CertifiedOptions {
    /// A fetcher for `provider`'s certificates (and SNS's SubscribeURL) trusting `--trust-ca`, or
    /// the web PKI, and connecting as `--connect-to` says.
    pub(crate) fn fetcher(&self, provider: CertProvider) -> anyhow::Result<CertFetcher> {
        let trust = match &self.trust_ca {
            Some(pem) => TrustRoots::from_pem(pem).map_err(|err| anyhow::anyhow!("--trust-ca: {err}"))?,
            None => TrustRoots::web_pki(),
        };
        let options = CertFetchOptions { trust, resolve: self.connect_to.clone(), timeout: FETCH_TIMEOUT };
        CertFetcher::new(provider, options).map_err(|err| anyhow::anyhow!("cannot fetch certificates: {err:#}"))
    }
}

/// How long one certificate fetch may take.
const FETCH_TIMEOUT: Duration = Duration::from_secs(10);

/// SNS or PayPal, with its fetcher (made at the first verdict: a signer never needs one).
pub(crate) struct CertifiedScheme {
    provider: CertProvider,
    options: CertifiedOptions,
    fetcher: OnceLock<Result<CertFetcher, String>>,
}

impl std::fmt::Debug for CertifiedScheme {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "CertifiedScheme({:?})", self.provider)
    }
}

const SNS_MESSAGE_TYPE: HeaderName = HeaderName::from_static("x-amz-sns-message-type");
const SNS_MESSAGE_ID: HeaderName = HeaderName::from_static("x-amz-sns-message-id");
const SNS_TOPIC_ARN: HeaderName = HeaderName::from_static("x-amz-sns-topic-arn");
const PAYPAL_SIGNATURE: HeaderName = HeaderName::from_static("paypal-transmission-sig");
const PAYPAL_ID: HeaderName = HeaderName::from_static("paypal-transmission-id");

impl CertifiedScheme {
    pub(crate) fn new(provider: CertProvider, options: &CertifiedOptions) -> CertifiedScheme {
        CertifiedScheme { provider, options: options.clone(), fetcher: OnceLock::new() }
    }

    fn fetcher(&self) -> Result<&CertFetcher, VerifyError> {
        let made = self.fetcher.get_or_init(|| self.options.fetcher(self.provider).map_err(|err| format!("{err:#}")));
        made.as_ref().map_err(|reason| VerifyError::CertificateUnavailable { reason: reason.clone() })
    }

    fn cert_url(&self) -> Result<&str, SignError> {
        self.options.cert_url.as_deref().ok_or_else(|| {
            self.not_signable(format!(
                "give the certificate URL the receiver fetches with --cert-url (on {}'s host: {})",
                self.kind(),
                match self.provider {
                    CertProvider::Sns => "https://sns.<region>.amazonaws.com/….pem",
                    CertProvider::Paypal => "https://api.paypal.com/v1/notifications/certs/…",
                }
            ))
        })
    }

    fn not_signable(&self, reason: impl Into<String>) -> SignError {
        SignError::NotSignable { scheme: self.kind().to_string(), reason: reason.into() }
    }

    fn signer<'k>(&self, key: &'k SigningKey) -> Result<&'k RsaSigner, SignError> {
        match key.provider_key() {
            Some(ProviderKey::Rsa(signer)) => Ok(signer),
            _ => Err(SignError::PrivateKeyNeeded { scheme: self.kind().to_string() }),
        }
    }

    /// The certificate URL a received request names, when it can be read and passes the rule
    /// (anything else is for the verdict to say; nothing is fetched for it).
    fn cert_url_of(&self, request: &ReceivedRequest<'_>) -> Option<String> {
        match self.provider {
            CertProvider::Sns => sns::prepare(request.body).ok().map(|prepared| prepared.cert_url),
            CertProvider::Paypal => {
                let webhook_id = self.options.webhook_id.as_deref().unwrap_or_default();
                paypal::prepare(request.headers, request.body, webhook_id).ok().map(|prepared| prepared.cert_url)
            }
        }
    }

    /// The SNS message `body` stands for: the body itself when it is an SNS message (a JSON object
    /// with a `Type`), its missing `MessageId`, `Timestamp` and `TopicArn` filled in; else a
    /// Notification whose `Message` is the body's text.
    fn sns_message(&self, delivery: &Delivery, body: &[u8]) -> Result<Value, SignError> {
        let mut message = match serde_json::from_slice::<Value>(body) {
            Ok(Value::Object(object)) if object.get("Type").is_some_and(Value::is_string) => object,
            _ => {
                let text = std::str::from_utf8(body)
                    .map_err(|_| self.not_signable("an SNS Message is text, and this body is not UTF-8"))?;
                let mut object = Map::new();
                object.insert("Type".into(), Value::from("Notification"));
                object.insert("Message".into(), Value::from(text));
                object
            }
        };
        let region = self
            .cert_url()?
            .split("://sns.")
            .nth(1)
            .and_then(|rest| rest.split(".amazonaws.com").next())
            .unwrap_or("us-east-1")
            .to_string();
        let timestamp = chrono::DateTime::from_timestamp(delivery.timestamp, 0)
            .ok_or_else(|| self.not_signable(format!("the timestamp {} is out of range", delivery.timestamp)))?
            .to_rfc3339_opts(chrono::SecondsFormat::Millis, true);
        let defaults = [
            ("MessageId", delivery.id.clone()),
            ("Timestamp", timestamp),
            ("TopicArn", format!("arn:aws:sns:{region}:123456789012:webhook")),
            ("SignatureVersion", "1".to_string()),
        ];
        for (name, value) in defaults {
            message.entry(name).or_insert_with(|| Value::from(value));
        }
        Ok(Value::Object(message))
    }

    fn sns_headers(&self, body: &[u8]) -> Result<Vec<(HeaderName, HeaderValue)>, SignError> {
        let message: Value = serde_json::from_slice(body)
            .ok()
            .filter(|message: &Value| message.get("Signature").is_some())
            .ok_or_else(|| SignError::SignsInsideTheBody { scheme: self.kind().to_string() })?;
        let mut headers = Vec::new();
        for (name, field) in [(SNS_MESSAGE_TYPE, "Type"), (SNS_MESSAGE_ID, "MessageId"), (SNS_TOPIC_ARN, "TopicArn")] {
            if let Some(value) = message.get(field).and_then(Value::as_str) {
                headers.push((name.clone(), to_header_value("SNS field", &name, value.to_string())?));
            }
        }
        // What SNS sends its JSON as.
        headers.push((http::header::CONTENT_TYPE, HeaderValue::from_static("text/plain; charset=UTF-8")));
        Ok(headers)
    }

    fn verdict_error(&self, err: CertifiedError) -> VerifyError {
        let in_headers = self.provider == CertProvider::Paypal;
        match err {
            CertifiedError::Canonical(err) => VerifyError::BodyMalformed { reason: err.to_string() },
            CertifiedError::CertUrl(
                err @ (CertUrlError::Fetch { .. } | CertUrlError::TooLarge { .. } | CertUrlError::Certificate(_)),
            ) => VerifyError::CertificateUnavailable { reason: err.to_string() },
            CertifiedError::CertUrl(err) => VerifyError::CertUrlRefused { reason: err.to_string() },
            CertifiedError::Key(err) => VerifyError::CertificateUnavailable { reason: err.to_string() },
            CertifiedError::Malformed { field, reason } if in_headers => {
                VerifyError::HeaderMalformed { header: field, reason }
            }
            CertifiedError::Malformed { field, reason } => {
                VerifyError::BodyMalformed { reason: format!("the SNS message's {field} is malformed: {reason}") }
            }
            CertifiedError::Missing { field } if in_headers => VerifyError::HeaderMissing { header: field },
            CertifiedError::Missing { field } => {
                VerifyError::BodyMalformed { reason: format!("the SNS message has no {field}") }
            }
            CertifiedError::SignatureMismatch => VerifyError::SignatureMismatch { hint: None },
        }
    }

    /// The certificate for `url` as the prefetch left it.
    fn certificate(
        &self,
        url: &str,
    ) -> Result<std::sync::Arc<crate::webhook::crypto::certificate::SigningCertificate>, VerifyError> {
        match self.fetcher()?.settled(url) {
            Some(Ok(certificate)) => Ok(certificate),
            Some(Err(err)) => Err(self.verdict_error(CertifiedError::CertUrl(err))),
            None => Err(VerifyError::CertificateUnavailable {
                reason: format!("the certificate at {url} was not fetched before the verdict"),
            }),
        }
    }
}

fn whole_body(body: &DeliveryBody) -> Result<Vec<u8>, SignError> {
    let mut bytes = Vec::new();
    body.for_each_chunk(|chunk| bytes.extend_from_slice(chunk))
        .map_err(|source| SignError::ReadBody { body: body.describe(), source })?;
    Ok(bytes)
}

impl Scheme for CertifiedScheme {
    fn kind(&self) -> SchemeKind {
        SchemeKind::Certified(self.provider)
    }

    /// The private key when the text is one; otherwise nothing is needed: the receiver verifies
    /// with the certificate the delivery names.
    fn key(&self, secret: &Secret) -> Result<SigningKey, SecretError> {
        self.signing_key(secret).or_else(|_| Ok(SigningKey::from_bytes(&[])))
    }

    fn signing_key(&self, secret: &Secret) -> Result<SigningKey, SecretError> {
        let text = std::str::from_utf8(secret.expose()).map_err(|_| {
            KeyHalfError::OtherHalf("this scheme signs with an RSA private key PEM; this is not text".into())
        })?;
        if text.contains("-----BEGIN CERTIFICATE-----") {
            return Err(KeyHalfError::OtherHalf(format!(
                "--scheme {} signs with the sender's RSA PRIVATE key (key.pem of `webhook secret --scheme {} --out \
                 DIR`); this is a certificate, which the receiver fetches from --cert-url",
                self.kind(),
                self.kind()
            ))
            .into());
        }
        let signer = RsaSigner::from_pem(text).map_err(KeyHalfError::Form)?;
        Ok(SigningKey::from_provider_key(ProviderKey::Rsa(signer)))
    }

    /// The receiver holds no key: the certificate comes from the URL the delivery names, checked.
    fn verifying_key(&self, _secret: &Secret) -> Result<SigningKey, SecretError> {
        Ok(SigningKey::from_bytes(&[]))
    }

    fn is_timestamped(&self) -> bool {
        false
    }

    fn signature_header(&self) -> HeaderName {
        match self.provider {
            // In the body; the message type header is what marks an SNS delivery.
            CertProvider::Sns => SNS_MESSAGE_TYPE,
            CertProvider::Paypal => PAYPAL_SIGNATURE,
        }
    }

    fn accepted_signature_headers(&self) -> Vec<HeaderName> {
        match self.provider {
            CertProvider::Sns => Vec::new(),
            CertProvider::Paypal => vec![PAYPAL_SIGNATURE],
        }
    }

    fn delivery_id_header(&self) -> Option<HeaderName> {
        Some(match self.provider {
            CertProvider::Sns => SNS_MESSAGE_ID,
            CertProvider::Paypal => PAYPAL_ID,
        })
    }

    fn sign_body(&self, delivery: &Delivery, key: &SigningKey) -> Result<Option<Bytes>, SignError> {
        if self.provider != CertProvider::Sns {
            return Ok(None);
        }
        let body = whole_body(&delivery.body)?;
        let mut message = self.sns_message(delivery, &body)?;
        let version = message["SignatureVersion"].as_str().unwrap_or("1").to_string();
        sns::sign(&mut message, self.signer(key)?, self.cert_url()?, &version)
            .map_err(|err| self.not_signable(err.to_string()))?;
        let text = serde_json::to_vec_pretty(&message).map_err(|err| self.not_signable(err.to_string()))?;
        Ok(Some(Bytes::from(text)))
    }

    fn sign(&self, delivery: &Delivery, key: &SigningKey) -> Result<Vec<(HeaderName, HeaderValue)>, SignError> {
        let body = whole_body(&delivery.body)?;
        match self.provider {
            CertProvider::Sns => self.sns_headers(&body),
            CertProvider::Paypal => {
                let webhook_id = self.options.webhook_id.as_deref().ok_or_else(|| {
                    self.not_signable("PayPal signs the receiver's webhook id: give it with --webhook-id")
                })?;
                let time = chrono::DateTime::from_timestamp(delivery.timestamp, 0)
                    .ok_or_else(|| self.not_signable(format!("the timestamp {} is out of range", delivery.timestamp)))?
                    .to_rfc3339_opts(chrono::SecondsFormat::Secs, true);
                let transmission =
                    paypal::Transmission { id: &delivery.id, time: &time, cert_url: self.cert_url()?, webhook_id };
                paypal::sign(&body, self.signer(key)?, &transmission).map_err(|err| self.not_signable(err.to_string()))
            }
        }
    }

    fn verify_request(
        &self,
        request: &ReceivedRequest<'_>,
        _key: &SigningKey,
        _window: TimeWindow,
    ) -> Result<Verified, VerifyError> {
        let kind = self.kind();
        match self.provider {
            CertProvider::Sns => {
                let prepared = sns::prepare(request.body).map_err(|err| self.verdict_error(err))?;
                let certificate = self.certificate(&prepared.cert_url)?;
                let verified = prepared.check(&certificate).map_err(|err| self.verdict_error(err))?;
                Ok(Verified { scheme: kind, timestamp: None, id: Some(verified.message_id), note: None })
            }
            CertProvider::Paypal => {
                let webhook_id =
                    self.options.webhook_id.as_deref().ok_or_else(|| VerifyError::CertificateUnavailable {
                        reason: "PayPal signs the receiver's webhook id: give it with --webhook-id".into(),
                    })?;
                let prepared = paypal::prepare(request.headers, request.body, webhook_id)
                    .map_err(|err| self.verdict_error(err))?;
                let certificate = self.certificate(&prepared.cert_url)?;
                prepared.check(&certificate).map_err(|err| self.verdict_error(err))?;
                Ok(Verified { scheme: kind, timestamp: None, id: self.delivery_id(request.headers), note: None })
            }
        }
    }

    fn prefetch<'a>(&'a self, request: &ReceivedRequest<'a>) -> Pin<Box<dyn Future<Output = ()> + Send + 'a>> {
        let url = self.cert_url_of(request);
        Box::pin(async move {
            if let (Some(url), Ok(fetcher)) = (url, self.fetcher()) {
                fetcher.prefetch(&url).await;
            }
        })
    }
}
