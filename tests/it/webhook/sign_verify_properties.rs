//! For random secrets and bodies, every scheme's signature verifies, and changing any byte of the
//! body, the signature or the timestamp fails for the right reason.
use std::time::Duration;

use base64::Engine;
use bytes::Bytes;
use http::{HeaderMap, HeaderValue};
use idem::testing::delivery::{Delivery, DeliveryBody};
use idem::testing::scheme::Secret;
use idem::testing::scheme::{self, BASE64, Scheme, SchemeKind, SchemeOptions, SigningKey, TimeWindow, VerifyError};
use proptest::prelude::*;

const HEX_DIGITS: &[u8] = b"0123456789abcdef";
const BASE64_DIGITS: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/// The secret a scheme's users would have: Standard Webhooks needs whsec_ + base64. A secret of
/// whitespace alone is refused as a usage error (a test of its own says so), so a generated one
/// that is gets a letter in front.
fn secret_for(kind: SchemeKind, bytes: &[u8]) -> Secret {
    let mut bytes = bytes.to_vec();
    if bytes.iter().all(u8::is_ascii_whitespace) {
        bytes.insert(0, b'k');
    }
    let text = match kind {
        SchemeKind::Standard => format!("whsec_{}", BASE64.encode(&bytes)).into_bytes(),
        _ => bytes,
    };
    Secret::new(text).unwrap()
}

struct Case {
    scheme: Box<dyn Scheme>,
    key: SigningKey,
    headers: HeaderMap,
    body: Vec<u8>,
    timestamp: i64,
}

impl Case {
    fn new(kind: SchemeKind, secret: &[u8], body: Vec<u8>, id: &str, timestamp: i64) -> Case {
        let scheme = scheme::build(kind, &SchemeOptions::default());
        let key = scheme.key(&secret_for(kind, secret)).unwrap();
        let delivery = Delivery {
            body: DeliveryBody::Bytes(Bytes::from(body.clone())),
            id: id.to_string(),
            timestamp,
            event: Some("test.event".to_string()),
            url: None,
        };
        let headers = scheme.sign(&delivery, &key).unwrap().into_iter().collect();
        Case { scheme, key, headers, body, timestamp }
    }

    fn window(&self, tolerance: Duration) -> TimeWindow {
        TimeWindow { now: self.timestamp, tolerance }
    }

    fn verify(&self, headers: &HeaderMap, body: &[u8]) -> Result<scheme::Verified, VerifyError> {
        self.scheme.verify(headers, body, &self.key, self.window(Duration::from_secs(300)))
    }

    fn encoded_tag_length(&self) -> usize {
        match self.scheme.kind() {
            SchemeKind::Standard | SchemeKind::Shopify => 44,
            _ => 64,
        }
    }

    /// The headers with one digit of the encoded tag (which ends every signature header) replaced by
    /// another digit of the same alphabet, so the header still parses but says something else.
    fn with_signature_digit_changed(&self, position: usize, shift: usize) -> HeaderMap {
        let name = self.scheme.signature_header();
        let mut value = self.headers[&name].to_str().unwrap().as_bytes().to_vec();
        let alphabet = if self.encoded_tag_length() == 44 { BASE64_DIGITS } else { HEX_DIGITS };
        // The last base64 digits carry padding bits; stay clear of them.
        let index = value.len() - self.encoded_tag_length() + position % 40;
        let current = alphabet.iter().position(|digit| *digit == value[index]).unwrap();
        value[index] = alphabet[(current + 1 + shift % (alphabet.len() - 1)) % alphabet.len()];
        let mut headers = self.headers.clone();
        headers.insert(name, HeaderValue::from_bytes(&value).unwrap());
        headers
    }

    /// The headers claiming another signed timestamp.
    fn with_timestamp(&self, timestamp: i64) -> HeaderMap {
        let mut headers = self.headers.clone();
        let (name, value) = match self.scheme.kind() {
            SchemeKind::Stripe => {
                let value = headers["stripe-signature"].to_str().unwrap().to_string();
                let rest = value.split_once(',').unwrap().1;
                ("stripe-signature", format!("t={timestamp},{rest}"))
            }
            SchemeKind::Standard => ("webhook-timestamp", timestamp.to_string()),
            SchemeKind::Slack => ("x-slack-request-timestamp", timestamp.to_string()),
            other => panic!("{other} signs no timestamp"),
        };
        headers.insert(name, HeaderValue::from_str(&value).unwrap());
        headers
    }
}

fn any_kind() -> impl Strategy<Value = SchemeKind> {
    prop::sample::select(SchemeKind::ALL.to_vec())
}

fn is_mismatch(result: &Result<scheme::Verified, VerifyError>) -> bool {
    matches!(result, Err(VerifyError::SignatureMismatch { .. }))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn signatures_verify(
        kind in any_kind(),
        secret in prop::collection::vec(any::<u8>(), 1..64),
        body in prop::collection::vec(any::<u8>(), 0..512),
        id in "[A-Za-z0-9_]{1,32}",
        timestamp in 0i64..4_000_000_000,
    ) {
        let case = Case::new(kind, &secret, body, &id, timestamp);
        let verified = case.verify(&case.headers, &case.body).unwrap();
        prop_assert_eq!(verified.scheme, kind);
        let scheme = &case.scheme;
        prop_assert_eq!(verified.timestamp, scheme.is_timestamped().then_some(timestamp));
        prop_assert_eq!(verified.id.clone(), scheme.delivery_id(&case.headers));
        if scheme.delivery_id_header().is_some() {
            prop_assert_eq!(verified.id, Some(id));
        }
    }

    #[test]
    fn a_changed_body_byte_is_a_mismatch(
        kind in any_kind(),
        secret in prop::collection::vec(any::<u8>(), 1..64),
        body in prop::collection::vec(any::<u8>(), 1..512),
        position in any::<usize>(),
        flip in 1u8..=255,
    ) {
        let case = Case::new(kind, &secret, body, "msg_1", 1_700_000_000);
        let mut tampered = case.body.clone();
        let index = position % tampered.len();
        tampered[index] ^= flip;
        prop_assert!(is_mismatch(&case.verify(&case.headers, &tampered)));
    }

    #[test]
    fn a_changed_signature_digit_is_a_mismatch(
        kind in any_kind(),
        secret in prop::collection::vec(any::<u8>(), 1..64),
        body in prop::collection::vec(any::<u8>(), 0..256),
        position in any::<usize>(),
        shift in any::<usize>(),
    ) {
        let case = Case::new(kind, &secret, body, "msg_1", 1_700_000_000);
        let tampered = case.with_signature_digit_changed(position, shift);
        prop_assert!(is_mismatch(&case.verify(&tampered, &case.body)));
    }

    #[test]
    fn a_changed_timestamp_fails_and_says_why(
        kind in prop::sample::select(vec![SchemeKind::Stripe, SchemeKind::Standard, SchemeKind::Slack]),
        secret in prop::collection::vec(any::<u8>(), 1..64),
        body in prop::collection::vec(any::<u8>(), 0..256),
        delta in prop_oneof![-1_000_000i64..=-1, 1i64..=1_000_000],
    ) {
        let case = Case::new(kind, &secret, body, "msg_1", 1_700_000_000);
        // Within the window, a different timestamp is a forged one: the signature does not match.
        let tampered = case.with_timestamp(case.timestamp + delta);
        let wide = case.window(Duration::from_secs(2_000_000));
        prop_assert!(is_mismatch(&case.scheme.verify(&tampered, &case.body, &case.key, wide)));
        // Outside it, the verdict is the timestamp, and says the signature did not match either;
        // except ahead of the clock for Stripe, whose libraries accept any future timestamp, so
        // the verdict there is the mismatch.
        let narrow = case.window(Duration::ZERO);
        let result = case.scheme.verify(&tampered, &case.body, &case.key, narrow);
        if delta > 0 && case.scheme.accepts_future_timestamps() {
            prop_assert!(is_mismatch(&result));
        } else {
            let stale_unmatched = matches!(
                result,
                Err(VerifyError::TimestampOutsideTolerance { signature_matched: false, .. })
            );
            prop_assert!(stale_unmatched);
        }
        // A genuine signature verified too late is stale with a matching signature: a replay.
        let later = TimeWindow { now: case.timestamp + delta.abs(), tolerance: Duration::ZERO };
        let replayed = case.scheme.verify(&case.headers, &case.body, &case.key, later);
        let stale_matched = matches!(
            replayed,
            Err(VerifyError::TimestampOutsideTolerance { signature_matched: true, .. })
        );
        prop_assert!(stale_matched);
    }
}
