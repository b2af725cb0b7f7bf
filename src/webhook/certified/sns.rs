//! AWS SNS messages signed and verified: the `Signature` (base64 RSA PKCS#1 v1.5, SHA-1 for
//! `SignatureVersion` 1 and SHA-256 for 2) over `canonical::sns`'s string, with the key of the
//! certificate at `SigningCertURL`, which must be on `sns.<region>.amazonaws.com[.cn]`.
use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use serde_json::Value;

use super::CertifiedError;
use crate::webhook::canonical::sns::string_to_sign;
use crate::webhook::crypto::cert_url::{CertFetcher, CertProvider, check_cert_url};
use crate::webhook::crypto::certificate::SigningCertificate;
use crate::webhook::crypto::rsa::{RsaHash, RsaSigner};

/// Signs `message` (a JSON object with the fields of its `Type`) as SNS would: sets
/// `SignatureVersion` to `version` ("1" or "2"), `SigningCertURL` to `cert_url` (which must pass
/// SNS's rule, so what is signed here verifies at a receiver that checks it) and `Signature`.
pub fn sign(message: &mut Value, key: &RsaSigner, cert_url: &str, version: &str) -> Result<(), CertifiedError> {
    check_cert_url(CertProvider::Sns, cert_url)?;
    let object =
        message.as_object_mut().ok_or_else(|| CertifiedError::malformed("SNS message", "it is not a JSON object"))?;
    object.insert("SignatureVersion".into(), Value::String(version.to_string()));
    object.insert("SigningCertURL".into(), Value::String(cert_url.to_string()));
    object.remove("Signature");
    let (text, hash) = string_to_sign(message)?;
    let signature = STANDARD.encode(key.sign(hash, text.as_bytes())?);
    message["Signature"] = Value::String(signature);
    Ok(())
}

/// What a verified SNS message said about itself.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SnsVerified {
    pub kind: String,
    pub message_id: String,
}

/// What a received SNS message carries for its verdict, read before anything is fetched: the
/// certificate URL (checked against SNS's rule already), the string to sign and the signature.
#[derive(Debug, Clone)]
pub(crate) struct SnsPrepared {
    pub(crate) cert_url: String,
    text: String,
    hash: RsaHash,
    signature: Vec<u8>,
    verified: SnsVerified,
}

/// Reads a received SNS message body up to the certificate it needs. The certificate URL's host is
/// checked, and the string to sign built, here: a message whose `SigningCertURL` is elsewhere is
/// refused before any request is made to it.
pub(crate) fn prepare(body: &[u8]) -> Result<SnsPrepared, CertifiedError> {
    let message: Value = serde_json::from_slice(body)
        .map_err(|err| CertifiedError::malformed("SNS message", format!("it is not JSON: {err}")))?;
    let text_field = |name: &str| match message.get(name) {
        Some(Value::String(text)) => Ok(text.clone()),
        Some(_) => Err(CertifiedError::malformed(name, "it is not a string")),
        None => Err(CertifiedError::Missing { field: name.to_string() }),
    };
    let cert_url = text_field("SigningCertURL")?;
    check_cert_url(CertProvider::Sns, &cert_url)?;
    let (text, hash) = string_to_sign(&message)?;
    let signature = STANDARD
        .decode(text_field("Signature")?)
        .map_err(|_| CertifiedError::malformed("Signature", "it is not base64"))?;
    let verified = SnsVerified { kind: text_field("Type")?, message_id: text_field("MessageId")? };
    Ok(SnsPrepared { cert_url, text, hash, signature, verified })
}

impl SnsPrepared {
    /// The verdict with the certificate fetched from [`cert_url`](Self::cert_url).
    pub(crate) fn check(&self, certificate: &SigningCertificate) -> Result<SnsVerified, CertifiedError> {
        certificate
            .verify_signature(self.hash, self.text.as_bytes(), &self.signature)
            .map_err(|_| CertifiedError::SignatureMismatch)?;
        Ok(self.verified.clone())
    }
}

/// Verifies a received SNS message body: [`prepare`], the certificate fetched, then the check.
pub async fn verify(body: &[u8], fetcher: &CertFetcher) -> Result<SnsVerified, CertifiedError> {
    let prepared = prepare(body)?;
    let certificate = fetcher.fetch(&prepared.cert_url).await?;
    prepared.check(&certificate)
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::Ordering;

    use serde_json::json;

    use super::*;
    use crate::webhook::crypto::cert_url::tests::{SNS_HOST, local_ca, ok_with, options, serve};

    fn notification() -> Value {
        json!({"Type": "Notification", "MessageId": "22b80b92-fdea-4c2c-8f9d-bdfb0c7bf324",
            "TopicArn": "arn:aws:sns:us-east-1:123456789012:orders", "Subject": "order",
            "Message": "{\"order\":\"caf\u{e9}\"}\nline two", "Timestamp": "2026-12-02T15:00:00.000Z",
            "UnsubscribeURL": "https://sns.us-east-1.amazonaws.com/?Action=Unsubscribe"})
    }

    #[tokio::test]
    async fn a_signed_notification_verifies_with_the_certificate_fetched_from_the_sns_host_under_a_local_ca() {
        let ca = local_ca();
        let (addr, hits) = serve(ca, |_| ok_with(local_ca().cert_pem.as_bytes())).await;
        let fetcher = CertFetcher::new(CertProvider::Sns, options(ca, addr)).unwrap();
        let key = RsaSigner::from_pem(&ca.key_pem).unwrap();
        for version in ["1", "2"] {
            let mut message = notification();
            sign(&mut message, &key, &format!("https://{SNS_HOST}/SimpleNotificationService-x.pem"), version).unwrap();
            let body = serde_json::to_vec(&message).unwrap();
            let verified = verify(&body, &fetcher).await.unwrap();
            assert_eq!(verified.kind, "Notification");

            // A changed message, or the other version's digest named: refused.
            let mut changed = message.clone();
            changed["Message"] = json!("{\"order\":\"other\"}");
            let err = verify(&serde_json::to_vec(&changed).unwrap(), &fetcher).await.unwrap_err();
            assert_eq!(err, CertifiedError::SignatureMismatch);
            let mut relabelled = message.clone();
            relabelled["SignatureVersion"] = json!(if version == "1" { "2" } else { "1" });
            let err = verify(&serde_json::to_vec(&relabelled).unwrap(), &fetcher).await.unwrap_err();
            assert_eq!(err, CertifiedError::SignatureMismatch);
        }
        assert_eq!(hits.load(Ordering::SeqCst), 1, "one fetch, then the cache");
    }

    #[tokio::test]
    async fn a_signing_cert_url_on_another_host_is_refused_naming_the_rule_and_nothing_is_fetched() {
        let ca = local_ca();
        let (addr, hits) = serve(ca, |_| ok_with(local_ca().cert_pem.as_bytes())).await;
        let mut fetch_options = options(ca, addr);
        // The forger's host leads to the same server: only the rule stands between them.
        fetch_options.resolve.push(("attacker.example".to_string(), addr));
        let fetcher = CertFetcher::new(CertProvider::Sns, fetch_options).unwrap();
        let key = RsaSigner::from_pem(&ca.key_pem).unwrap();
        let mut message = notification();
        sign(&mut message, &key, &format!("https://{SNS_HOST}/cert.pem"), "2").unwrap();
        for forged in [
            "https://attacker.example/cert.pem",
            "https://sns.us-east-1.amazonaws.com.attacker.example/cert.pem",
            "http://sns.us-east-1.amazonaws.com/cert.pem",
        ] {
            message["SigningCertURL"] = json!(forged);
            let err = verify(&serde_json::to_vec(&message).unwrap(), &fetcher).await.unwrap_err();
            assert!(matches!(err, CertifiedError::CertUrl(_)), "{forged}: {err}");
            assert!(err.to_string().contains("https") || err.to_string().contains("not on AWS SNS's host"), "{err}");
        }
        assert_eq!(hits.load(Ordering::SeqCst), 0, "no request left for a certificate off the SNS host");
        // Signing refuses such a URL too.
        let err = sign(&mut notification(), &key, "https://attacker.example/cert.pem", "2").unwrap_err();
        assert!(err.to_string().contains("not on AWS SNS's host"), "{err}");
    }
}
