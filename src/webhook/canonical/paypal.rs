//! PayPal: `PAYPAL-TRANSMISSION-SIG` is base64 of an RSA signature (`PAYPAL-AUTH-ALGO`,
//! `SHA256withRSA`) with the key of the certificate at `PAYPAL-CERT-URL`, over
//! `<transmission_id>|<transmission_time>|<webhook_id>|<crc32>`: the `PAYPAL-TRANSMISSION-ID` and
//! `PAYPAL-TRANSMISSION-TIME` headers, the receiver's own webhook ID (from its PayPal dashboard,
//! never from the delivery), and the CRC-32 (IEEE, as zlib's `crc32`) of the raw body in decimal
//! (PayPal Developer docs, "Webhooks: verify the signature"; PayPal's webhook sample servers build
//! `${transmissionId}|${timeStamp}|${webhookId}|${crc32(body)}` the same way).

/// The string PayPal signed.
pub fn string_to_sign(transmission_id: &str, transmission_time: &str, webhook_id: &str, body: &[u8]) -> String {
    format!("{transmission_id}|{transmission_time}|{webhook_id}|{}", crc32fast::hash(body))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_body_enters_as_its_unsigned_decimal_crc32() {
        // zlib.crc32(b"The quick brown fox jumps over the lazy dog") == 0x414fa339 == 1095738169.
        assert_eq!(
            string_to_sign(
                "69cd13f0-d67a-11e5-baa3-778b53f4ae55",
                "2016-02-18T20:01:35Z",
                "1JE4291016473214C",
                b"The quick brown fox jumps over the lazy dog"
            ),
            "69cd13f0-d67a-11e5-baa3-778b53f4ae55|2016-02-18T20:01:35Z|1JE4291016473214C|1095738169"
        );
        assert_eq!(string_to_sign("a", "b", "c", b""), "a|b|c|0");
        // Above 2^31 it stays unsigned (0xcbf43926 is CRC-32 of "123456789").
        assert!(string_to_sign("a", "b", "c", b"123456789").ends_with("|3421780262"));
    }

    #[test]
    fn a_transmission_signed_with_the_local_cas_key_verifies_with_its_certificate_and_not_with_another_webhook_id() {
        use crate::webhook::crypto::certificate::SigningCertificate;
        use crate::webhook::crypto::key_pair::LocalCa;
        use crate::webhook::crypto::rsa::{RsaHash, RsaSigner};

        let ca = LocalCa::generate("api.paypal.com").unwrap();
        let body = br#"{"id":"WH-1","event_type":"PAYMENT.CAPTURE.COMPLETED"}"#;
        let text = string_to_sign("tid", "2026-12-02T15:00:00Z", "WEBHOOK-A", body);
        let signature = RsaSigner::from_pem(&ca.key_pem).unwrap().sign(RsaHash::Sha256, text.as_bytes()).unwrap();
        let certificate = SigningCertificate::from_pem(ca.cert_pem.as_bytes()).unwrap();
        certificate.verify_signature(RsaHash::Sha256, text.as_bytes(), &signature).unwrap();
        let other = string_to_sign("tid", "2026-12-02T15:00:00Z", "WEBHOOK-B", body);
        assert!(certificate.verify_signature(RsaHash::Sha256, other.as_bytes(), &signature).is_err());
    }
}
