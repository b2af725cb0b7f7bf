//! Adyen standard webhooks: each `NotificationRequestItem` of a batch (`notificationItems`) carries
//! its own `additionalData.hmacSignature`, base64 of HMAC-SHA256 with the hex-decoded HMAC key over
//! `pspReference:originalReference:merchantAccountCode:merchantReference:value:currency:eventCode:success`
//! (`value` and `currency` from `amount`; an absent field is empty). Adyen's docs ("Verify HMAC
//! signatures") and its current libraries (adyen-python-api-library `Adyen/util.py`
//! `generate_notification_sig`, adyen-php-api-library `HmacSignature::calculateNotificationHMAC`,
//! adyen-node-api-library `HmacValidator`; their test vectors are below) join the
//! values with `:` WITHOUT escaping; only the retired Python 2-era helper escaped `\` and `:`
//! (that escaping belongs to the old Hosted Payment Pages signature). The current python library
//! checks every item of the batch (`is_valid_hmac_notification` loops over `notificationItems`).
use serde_json::Value;

use super::CanonicalError;

const PROVIDER: &str = "Adyen";
const FIELDS: [&str; 8] = [
    "pspReference",
    "originalReference",
    "merchantAccountCode",
    "merchantReference",
    "value",
    "currency",
    "eventCode",
    "success",
];

/// One item of a batch: the string Adyen signed and the signature it carries.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AdyenItem {
    pub string_to_sign: String,
    /// `additionalData.hmacSignature`, `None` when the item has none (a receiver must reject it).
    pub signature_base64: Option<String>,
}

/// Every item of the batch in `body`, in order.
pub fn items(body: &[u8]) -> Result<Vec<AdyenItem>, CanonicalError> {
    let json: Value = serde_json::from_slice(body).map_err(|err| CanonicalError::NotJson(err.to_string()))?;
    let list = json
        .get("notificationItems")
        .and_then(Value::as_array)
        .ok_or(CanonicalError::Missing { provider: PROVIDER, field: "notificationItems list".into() })?;
    list.iter()
        .enumerate()
        .map(|(at, item)| {
            let request = item.get("NotificationRequestItem").ok_or(CanonicalError::Missing {
                provider: PROVIDER,
                field: format!("notificationItems[{at}].NotificationRequestItem"),
            })?;
            Ok(AdyenItem {
                string_to_sign: item_string_to_sign(request),
                signature_base64: request
                    .pointer("/additionalData/hmacSignature")
                    .and_then(Value::as_str)
                    .map(str::to_string),
            })
        })
        .collect()
}

/// The string Adyen signs for one `NotificationRequestItem`.
pub fn item_string_to_sign(item: &Value) -> String {
    let values: Vec<String> = FIELDS
        .iter()
        .map(|field| {
            let value = match *field {
                "value" | "currency" => item.get("amount").and_then(|amount| amount.get(field)),
                _ => item.get(field),
            };
            match value {
                None | Some(Value::Null) => String::new(),
                Some(Value::String(text)) => text.clone(),
                Some(other) => other.to_string(),
            }
        })
        .collect();
    values.join(":")
}

#[cfg(test)]
mod tests {
    use super::*;
    use base64::Engine;

    fn hmac_base64(hex_key: &str, text: &str) -> String {
        let key = ring::hmac::Key::new(ring::hmac::HMAC_SHA256, &hex::decode(hex_key).unwrap());
        base64::engine::general_purpose::STANDARD.encode(ring::hmac::sign(&key, text.as_bytes()).as_ref())
    }

    const KEY: &str = "DFB1EB5485895CFA84146406857104ABB4CBCABDC8AAF103A624C8F6A3EAAB00";

    #[test]
    fn adyens_library_vectors_sign_to_their_expected_signatures() {
        // adyen-php-api-library tests/Unit/Util/HmacSignatureTest.php `testNotificationRequestItemHmac`.
        let body = br#"{"live": "false", "notificationItems": [{"NotificationRequestItem": {
            "pspReference": "7914073381342284", "merchantAccountCode": "TestMerchant",
            "merchantReference": "TestPayment-1407325143704", "amount": {"value": 1130, "currency": "EUR"},
            "eventCode": "AUTHORISATION", "success": "true",
            "additionalData": {"hmacSignature": "Ny9gS2veKo5E4w8/OL6xz1/wvT/hYkAXy1xNc/QvO4I="}}}]}"#;
        let items = items(body).unwrap();
        assert_eq!(items.len(), 1);
        assert_eq!(
            items[0].string_to_sign,
            "7914073381342284::TestMerchant:TestPayment-1407325143704:1130:EUR:AUTHORISATION:true"
        );
        assert_eq!(hmac_base64(KEY, &items[0].string_to_sign), items[0].signature_base64.clone().unwrap());

        // adyen-node-api-library and adyen-go-api-library's hmacValidator tests: every field set.
        let item = serde_json::json!({
            "pspReference": "pspReference", "originalReference": "originalReference",
            "merchantAccountCode": "merchantAccount", "merchantReference": "reference",
            "amount": {"currency": "EUR", "value": 1000}, "eventCode": "EVENT", "success": "true",
            "paymentMethod": "VISA", "reason": "reason"
        });
        assert_eq!(hmac_base64(KEY, &item_string_to_sign(&item)), "ipnxGCaUZ4l8TUW75a71/ghd2Fe5ffvX0pV4TLTntIc=");
    }

    #[test]
    fn every_item_of_a_batch_has_its_own_string_and_colons_are_not_escaped() {
        let body = br#"{"notificationItems": [
            {"NotificationRequestItem": {"pspReference": "a:b", "amount": {"value": 0, "currency": "USD"}, "success": "false"}},
            {"NotificationRequestItem": {"pspReference": "c\\d", "additionalData": {"hmacSignature": "x"}}}]}"#;
        let items = items(body).unwrap();
        assert_eq!(items[0].string_to_sign, "a:b::::0:USD::false");
        assert_eq!(items[0].signature_base64, None);
        assert_eq!(items[1].string_to_sign, "c\\d:::::::");
        assert_eq!(items[1].signature_base64.as_deref(), Some("x"));
    }

    #[test]
    fn a_body_that_is_not_a_batch_is_named() {
        assert!(matches!(items(b"[]"), Err(CanonicalError::Missing { .. })));
        assert!(
            items(br#"{"notificationItems": [{"x": 1}]}"#).unwrap_err().to_string().contains("notificationItems[0]")
        );
    }
}
