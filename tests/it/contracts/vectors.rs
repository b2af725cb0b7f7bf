//! The providers' published examples: every one verifies, `sign` reproduces it byte for byte given
//! the same id and timestamp, and the published invalid signatures fail.
use std::time::Duration;

use http::{HeaderMap, HeaderName, HeaderValue};
use idem::testing::scheme::Secret;
use idem::testing::scheme::{self, SchemeKind, SchemeOptions, TimeWindow, VerifyError};
use serde_json::Value;

use crate::support::{webhook, webhook_vectors};

struct Vector {
    kind: SchemeKind,
    secret: String,
    body: String,
    id: Option<String>,
    timestamp: Option<i64>,
    headers: Vec<(String, String)>,
    also_valid: Vec<String>,
    invalid: Vec<String>,
}

fn strings(value: &Value) -> Vec<String> {
    value
        .as_array()
        .map(|items| items.iter().filter_map(|item| item.as_str().map(String::from)).collect())
        .unwrap_or_default()
}

fn vectors() -> Vec<Vector> {
    let document = webhook_vectors();
    let vectors = document["vectors"].as_array().expect("a vectors array");
    assert!(vectors.len() >= 3, "expected the published vectors");
    vectors
        .iter()
        .map(|vector| Vector {
            kind: SchemeKind::ALL
                .into_iter()
                .find(|kind| kind.name() == vector["scheme"])
                .expect("a scheme this tool knows"),
            secret: vector["secret"].as_str().expect("secret").to_string(),
            body: vector["body"].as_str().expect("body").to_string(),
            id: vector["id"].as_str().map(String::from),
            timestamp: vector["timestamp"].as_i64(),
            headers: vector["headers"]
                .as_object()
                .expect("headers")
                .iter()
                .map(|(name, value)| (name.clone(), value.as_str().expect("header value").to_string()))
                .collect(),
            also_valid: strings(&vector["also_valid_signature_headers"]),
            invalid: strings(&vector["invalid_signature_headers"]),
        })
        .collect()
}

impl Vector {
    fn header_map(&self) -> HeaderMap {
        let mut map = HeaderMap::new();
        for (name, value) in &self.headers {
            map.insert(HeaderName::from_bytes(name.as_bytes()).unwrap(), HeaderValue::from_str(value).unwrap());
        }
        map
    }

    fn window(&self) -> TimeWindow {
        TimeWindow { now: self.timestamp.unwrap_or(0), tolerance: Duration::from_secs(300) }
    }

    fn signature_header(&self) -> HeaderName {
        scheme::build(self.kind, &SchemeOptions::default()).signature_header()
    }

    fn with_signature(&self, value: &str) -> HeaderMap {
        let mut headers = self.header_map();
        headers.insert(self.signature_header(), HeaderValue::from_str(value).unwrap());
        headers
    }

    fn verify(&self, headers: &HeaderMap) -> Result<scheme::Verified, VerifyError> {
        let scheme = scheme::build(self.kind, &SchemeOptions::default());
        let key = scheme.key(&Secret::new(self.secret.as_bytes().to_vec()).unwrap()).unwrap();
        scheme.verify(headers, self.body.as_bytes(), &key, self.window())
    }
}

#[test]
fn every_published_vector_verifies_in_the_library() {
    for vector in vectors() {
        let verified = vector.verify(&vector.header_map()).unwrap_or_else(|err| panic!("{}: {err}", vector.kind));
        assert_eq!(verified.scheme, vector.kind);
        assert_eq!(verified.id, vector.id);
        for header in &vector.also_valid {
            vector.verify(&vector.with_signature(header)).unwrap_or_else(|err| panic!("{header}: {err}"));
        }
        for header in &vector.invalid {
            assert!(vector.verify(&vector.with_signature(header)).is_err(), "{header} should not verify");
        }
    }
}

#[test]
fn every_published_vector_verifies_through_the_binary() {
    for vector in vectors() {
        let mut command = webhook();
        command.args(["verify", "--scheme", "auto", "--allow", vector.kind.name(), "--secret", &vector.secret]);
        command.args(["-d", &vector.body]);
        if let Some(timestamp) = vector.timestamp {
            command.args(["--now", &timestamp.to_string()]);
        }
        for (name, value) in &vector.headers {
            command.args(["-H", &format!("{name}: {value}")]);
        }
        command.assert().code(0).stdout(predicates::str::contains(format!("{} signature is valid", vector.kind)));
    }
}

#[test]
fn published_invalid_signatures_fail_through_the_binary() {
    for vector in vectors() {
        for invalid in &vector.invalid {
            let mut command = webhook();
            command.args(["verify", "--scheme", vector.kind.name(), "--secret", &vector.secret, "-d", &vector.body]);
            command.args(["--now", &vector.timestamp.unwrap_or(0).to_string()]);
            for (name, value) in &vector.headers {
                let value =
                    if vector.signature_header().as_str() == name.to_ascii_lowercase() { invalid } else { value };
                command.args(["-H", &format!("{name}: {value}")]);
            }
            command.assert().code(1).stdout(predicates::str::contains("signature is invalid"));
        }
    }
}

#[test]
fn sign_reproduces_every_vector_byte_for_byte() {
    for vector in vectors() {
        let mut command = webhook();
        command.args(["sign", "--scheme", vector.kind.name(), "--secret", &vector.secret, "-d", &vector.body]);
        command.args(["--format", "json"]);
        if let Some(id) = &vector.id {
            command.args(["--id", id]);
        }
        if let Some(timestamp) = vector.timestamp {
            command.args(["--timestamp", &timestamp.to_string()]);
        }
        let output = command.assert().code(0).get_output().stdout.clone();
        let document: Value = serde_json::from_slice(&output).expect("sign --format json prints JSON");
        crate::support::schemas::validate(&document);
        for (name, value) in &vector.headers {
            assert_eq!(document["headers"][name], Value::from(value.as_str()), "{}: {name}", vector.kind);
        }
    }
}
