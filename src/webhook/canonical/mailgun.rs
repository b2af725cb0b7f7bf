//! Mailgun: the signature travels in the body, `{"signature": {"timestamp", "token", "signature"},
//! "event-data": …}`; `signature` is lowercase hex HMAC-SHA256 with the webhook signing key over
//! `timestamp` followed by `token` (Mailgun docs, "Securing webhooks": "concatenate timestamp and
//! token values, encode the resulting string with the HMAC algorithm (using your Webhook Signing
//! Key as a key and SHA256 digest mode) and compare the resulting hexdigest to the signature").
use serde_json::Value;

use super::CanonicalError;

const PROVIDER: &str = "Mailgun";

/// What the body's `signature` object carries: the string to sign and the signature to compare.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MailgunSigned {
    /// `signature.timestamp` as sent, for the receiver to judge its age.
    pub timestamp: String,
    pub string_to_sign: String,
    pub signature_hex: String,
}

/// Reads the `signature` object of a Mailgun webhook body. `timestamp` may be a JSON string (as
/// Mailgun sends it) or a number.
pub fn signed(body: &[u8]) -> Result<MailgunSigned, CanonicalError> {
    let json: Value = serde_json::from_slice(body).map_err(|err| CanonicalError::NotJson(err.to_string()))?;
    let missing = |field: &str| CanonicalError::Missing { provider: PROVIDER, field: field.to_string() };
    let object = json.get("signature").ok_or_else(|| missing("signature object"))?;
    let text = |field: &'static str| -> Result<String, CanonicalError> {
        match object.get(field) {
            Some(Value::String(text)) => Ok(text.clone()),
            Some(Value::Number(number)) if field == "timestamp" => Ok(number.to_string()),
            None | Some(Value::Null) => Err(missing(&format!("signature.{field}"))),
            Some(_) => Err(CanonicalError::Invalid {
                provider: PROVIDER,
                field: format!("signature.{field}"),
                expected: "a string",
            }),
        }
    };
    let timestamp = text("timestamp")?;
    Ok(MailgunSigned {
        string_to_sign: format!("{timestamp}{}", text("token")?),
        timestamp,
        signature_hex: text("signature")?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_timestamp_and_token_are_concatenated_and_the_signature_is_taken_as_given() {
        let body = br#"{"signature": {"timestamp": "1529006854", "token": "a8ce0edb2dd8301dee6c2405235584e45aa91d1e9f979f3de0", "signature": "d2271d12299f6592d9d44cd9d250f0704e4674c30d79d07c47a66f95ce71cf55"}, "event-data": {"event": "opened"}}"#;
        let signed = signed(body).unwrap();
        assert_eq!(signed.string_to_sign, "1529006854a8ce0edb2dd8301dee6c2405235584e45aa91d1e9f979f3de0");
        assert_eq!(signed.signature_hex, "d2271d12299f6592d9d44cd9d250f0704e4674c30d79d07c47a66f95ce71cf55");
        let numeric = signed_from(r#"{"signature": {"timestamp": 1529006854, "token": "t", "signature": "s"}}"#);
        assert_eq!(numeric.unwrap().string_to_sign, "1529006854t");
    }

    fn signed_from(text: &str) -> Result<MailgunSigned, CanonicalError> {
        signed(text.as_bytes())
    }

    #[test]
    fn a_body_without_the_signature_object_is_named() {
        assert!(matches!(signed_from("not json"), Err(CanonicalError::NotJson(_))));
        assert!(signed_from(r#"{"event-data": {}}"#).unwrap_err().to_string().contains("signature object"));
        assert!(
            signed_from(r#"{"signature": {"timestamp": "1", "signature": "s"}}"#)
                .unwrap_err()
                .to_string()
                .contains("signature.token")
        );
        assert!(signed_from(r#"{"signature": {"timestamp": "1", "token": 5, "signature": "s"}}"#).is_err());
    }
}
