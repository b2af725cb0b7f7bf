//! AWS SNS: the message is a JSON document whose `Signature` is base64 of an RSA PKCS#1 v1.5
//! signature (SignatureVersion 1: SHA-1, 2: SHA-256) over `Name\nValue\n` for a fixed list of its
//! fields, in this order (AWS SNS Developer Guide, "Verifying the signatures of Amazon SNS
//! messages", and the same lists in aws-js-sns-message-validator's `signableKeysForNotification`
//! / `signableKeysForSubscription`):
//!
//! - Notification: Message, MessageId, Subject (only when present), Timestamp, TopicArn, Type.
//! - SubscriptionConfirmation and UnsubscribeConfirmation: Message, MessageId, SubscribeURL,
//!   Timestamp, Token, TopicArn, Type.
//!
//! The values are the JSON strings decoded (the guide: "convert the escaped control characters to
//! their original character representations in the Message and Subject values").
use serde_json::Value;

use super::CanonicalError;
use crate::webhook::crypto::rsa::RsaHash;

const PROVIDER: &str = "AWS SNS";
const NOTIFICATION: &[&str] = &["Message", "MessageId", "Subject", "Timestamp", "TopicArn", "Type"];
const SUBSCRIPTION: &[&str] = &["Message", "MessageId", "SubscribeURL", "Timestamp", "Token", "TopicArn", "Type"];

/// The string SNS signed for `message`, and the digest its `SignatureVersion` names.
pub fn string_to_sign(message: &Value) -> Result<(String, RsaHash), CanonicalError> {
    let field = |name: &str| -> Result<Option<&str>, CanonicalError> {
        match message.get(name) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::String(text)) => Ok(Some(text)),
            Some(_) => {
                Err(CanonicalError::Invalid { provider: PROVIDER, field: name.to_string(), expected: "a string" })
            }
        }
    };
    let missing = |name: &str| CanonicalError::Missing { provider: PROVIDER, field: name.to_string() };
    let kind = field("Type")?.ok_or_else(|| missing("Type"))?;
    let fields = match kind {
        "Notification" => NOTIFICATION,
        "SubscriptionConfirmation" | "UnsubscribeConfirmation" => SUBSCRIPTION,
        _ => {
            return Err(CanonicalError::Invalid {
                provider: PROVIDER,
                field: "Type".to_string(),
                expected: "Notification, SubscriptionConfirmation or UnsubscribeConfirmation",
            });
        }
    };
    let hash = match field("SignatureVersion")? {
        Some("1") => RsaHash::Sha1,
        Some("2") => RsaHash::Sha256,
        Some(_) => {
            return Err(CanonicalError::Invalid {
                provider: PROVIDER,
                field: "SignatureVersion".to_string(),
                expected: "1 or 2",
            });
        }
        None => return Err(missing("SignatureVersion")),
    };
    let mut out = String::new();
    for name in fields {
        match field(name)? {
            Some(value) => {
                out.push_str(name);
                out.push('\n');
                out.push_str(value);
                out.push('\n');
            }
            None if *name == "Subject" => {}
            None => return Err(missing(name)),
        }
    }
    Ok((out, hash))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_notification_signs_its_fields_in_order_and_subject_only_when_present() {
        // The Developer Guide's example notification.
        let mut message = json!({
            "Type": "Notification",
            "MessageId": "22b80b92-fdea-4c2c-8f9d-bdfb0c7bf324",
            "TopicArn": "arn:aws:sns:us-west-2:123456789012:MyTopic",
            "Subject": "My First Message",
            "Message": "Hello world!",
            "Timestamp": "2012-05-02T00:54:06.655Z",
            "SignatureVersion": "1",
            "Signature": "EXAMPLE",
            "SigningCertURL": "https://sns.us-west-2.amazonaws.com/SimpleNotificationService-f3ecfb7224c7233fe7bb5f59f96de52f.pem",
            "UnsubscribeURL": "https://sns.us-west-2.amazonaws.com/?Action=Unsubscribe"
        });
        let (text, hash) = string_to_sign(&message).unwrap();
        assert_eq!(hash, RsaHash::Sha1);
        assert_eq!(
            text,
            "Message\nHello world!\nMessageId\n22b80b92-fdea-4c2c-8f9d-bdfb0c7bf324\nSubject\nMy First Message\n\
             Timestamp\n2012-05-02T00:54:06.655Z\nTopicArn\narn:aws:sns:us-west-2:123456789012:MyTopic\nType\nNotification\n"
        );
        message.as_object_mut().unwrap().remove("Subject");
        message["SignatureVersion"] = json!("2");
        let (text, hash) = string_to_sign(&message).unwrap();
        assert_eq!(hash, RsaHash::Sha256);
        assert!(
            text.starts_with("Message\nHello world!\nMessageId\n22b80b92-fdea-4c2c-8f9d-bdfb0c7bf324\nTimestamp\n")
        );
    }

    #[test]
    fn a_subscription_confirmation_signs_its_url_and_token() {
        let message = json!({
            "Type": "SubscriptionConfirmation", "MessageId": "m", "Token": "t", "TopicArn": "a", "Message": "line\none",
            "SubscribeURL": "https://sns.us-west-2.amazonaws.com/?Action=ConfirmSubscription", "Timestamp": "ts",
            "SignatureVersion": "1"
        });
        let (text, _) = string_to_sign(&message).unwrap();
        assert_eq!(
            text,
            "Message\nline\none\nMessageId\nm\nSubscribeURL\nhttps://sns.us-west-2.amazonaws.com/?Action=ConfirmSubscription\n\
             Timestamp\nts\nToken\nt\nTopicArn\na\nType\nSubscriptionConfirmation\n"
        );
    }

    #[test]
    fn missing_fields_unknown_types_and_versions_are_named() {
        let base = json!({"Type": "Notification", "MessageId": "m", "TopicArn": "a", "Message": "x", "Timestamp": "t", "SignatureVersion": "1"});
        assert!(string_to_sign(&base).is_ok());
        for (field, value) in [("Type", json!("Other")), ("SignatureVersion", json!("3")), ("Message", json!(1))] {
            let mut message = base.clone();
            message[field] = value;
            assert!(string_to_sign(&message).unwrap_err().to_string().contains(field), "{field}");
        }
        let mut message = base.clone();
        message.as_object_mut().unwrap().remove("TopicArn");
        assert_eq!(
            string_to_sign(&message).unwrap_err(),
            CanonicalError::Missing { provider: PROVIDER, field: "TopicArn".into() }
        );
    }

    #[test]
    fn a_message_signed_with_the_local_cas_key_verifies_with_its_certificate_by_signature_version() {
        use crate::webhook::crypto::certificate::SigningCertificate;
        use crate::webhook::crypto::key_pair::LocalCa;
        use crate::webhook::crypto::rsa::RsaSigner;

        let ca = LocalCa::generate("sns.us-east-1.amazonaws.com").unwrap();
        let signer = RsaSigner::from_pem(&ca.key_pem).unwrap();
        let certificate = SigningCertificate::from_pem(ca.cert_pem.as_bytes()).unwrap();
        for version in ["1", "2"] {
            let message = json!({"Type": "Notification", "MessageId": "m", "TopicArn": "a", "Message": "x",
                "Timestamp": "t", "SignatureVersion": version});
            let (text, hash) = string_to_sign(&message).unwrap();
            let signature = signer.sign(hash, text.as_bytes()).unwrap();
            certificate.verify_signature(hash, text.as_bytes(), &signature).unwrap();
            // The other version's digest does not verify it: the version must pick the digest.
            let other = if hash == RsaHash::Sha1 { RsaHash::Sha256 } else { RsaHash::Sha1 };
            assert!(certificate.verify_signature(other, text.as_bytes(), &signature).is_err(), "version {version}");
        }
    }
}
