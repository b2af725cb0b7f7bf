//! The providers' published examples: every one verifies, `sign` reproduces it byte for byte given
//! the same id and timestamp, and the published invalid signatures fail. Among them the cases the
//! providers' own test suites pin down at the edges: Standard Webhooks secrets without their base64
//! padding, Shopify's unprefixed header names, and the blank secrets slack_sdk refuses.
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
    /// For headers as received under another name than `sign` writes (Shopify's unprefixed
    /// ones): the name `sign` writes each under.
    sign_writes: Vec<(String, String)>,
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
            sign_writes: vector["sign_writes"]
                .as_object()
                .map(|names| {
                    names.iter().map(|(name, written)| (name.clone(), written.as_str().unwrap().to_string())).collect()
                })
                .unwrap_or_default(),
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

    /// The vector's signature header: whichever of the names the scheme reads it carries.
    fn signature_header(&self) -> HeaderName {
        let scheme = scheme::build(self.kind, &SchemeOptions::default());
        let names = scheme.accepted_signature_headers();
        self.header_map().keys().find(|name| names.contains(name)).cloned().unwrap_or_else(|| scheme.signature_header())
    }

    fn with_signature(&self, value: &str) -> HeaderMap {
        let mut headers = self.header_map();
        headers.insert(self.signature_header(), HeaderValue::from_str(value).unwrap());
        headers
    }

    /// The header `sign` writes in place of the vector's `name`.
    fn written_as<'n>(&'n self, name: &'n str) -> &'n str {
        self.sign_writes.iter().find(|(received, _)| received == name).map_or(name, |(_, written)| written.as_str())
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
            let written = vector.written_as(name);
            assert_eq!(document["headers"][written], Value::from(value.as_str()), "{}: {name}", vector.kind);
        }
    }
}

/// The secrets a provider's library refuses to be constructed with.
fn refused_secrets() -> Vec<(String, String)> {
    let document = webhook_vectors();
    let refused = document["refused_secrets"].as_array().expect("a refused_secrets array");
    refused
        .iter()
        .flat_map(|entry| {
            let scheme = entry["scheme"].as_str().expect("scheme").to_string();
            strings(&entry["secrets"]).into_iter().map(move |secret| (scheme.clone(), secret))
        })
        .collect()
}

#[test]
fn a_secret_the_providers_library_refuses_as_blank_is_refused_by_every_command_and_every_source() {
    let refused = refused_secrets();
    assert!(refused.iter().any(|(_, secret)| secret.is_empty()) && refused.iter().any(|(_, secret)| secret == "   "));
    let dir = tempfile::tempdir().unwrap();
    let events = dir.path().join("events.jsonl");
    std::fs::write(&events, "{\"id\":\"evt_1\",\"type\":\"a\"}\n").unwrap();
    let events = events.to_str().unwrap();
    // Nothing listens on port 9: a command that got past the secret would fail otherwise, later.
    let url = "http://127.0.0.1:9/hook";
    for (scheme, secret) in refused {
        let commands: Vec<Vec<&str>> = vec![
            vec!["sign", "--scheme", &scheme, "-d", "{}"],
            vec!["verify", "--scheme", &scheme, "-d", "{}", "-H", "X-Slack-Signature: v0=00"],
            vec!["send", url, "--scheme", &scheme, "-d", "{}", "--max-attempts", "1"],
            vec!["listen", "--scheme", &scheme, "--addr", "127.0.0.1:0"],
            vec!["replay", events, url, "--scheme", &scheme],
            vec!["check", url, "--scheme", &scheme],
            vec!["check-sender", "--scheme", &scheme, "--addr", "127.0.0.1:0", "--", "true"],
        ];
        let file = dir.path().join("secret");
        std::fs::write(&file, format!("{secret}\n")).unwrap();
        for command in &commands {
            let sources: [(Vec<&str>, Option<&str>); 3] = [
                (vec!["--secret", &secret], None),
                (vec!["--secret-file", file.to_str().unwrap()], None),
                (vec![], Some(&secret)),
            ];
            for (flags, env) in sources {
                let mut run = webhook();
                // The secret flags before the rest, which may end with `-- SENDER_CMD`.
                run.env_remove("WEBHOOK_SECRET").arg(command[0]).args(&flags).args(&command[1..]);
                run.timeout(std::time::Duration::from_secs(60));
                if let Some(value) = env {
                    run.env("WEBHOOK_SECRET", value);
                }
                let output = run.output().unwrap();
                let stderr = String::from_utf8_lossy(&output.stderr);
                let what = format!("{command:?} {flags:?} env {env:?} ({scheme} secret {secret:?})");
                assert_eq!(output.status.code(), Some(2), "{what}: {stderr}");
                assert!(
                    stderr.contains("the secret is empty") || stderr.contains("the secret is only whitespace"),
                    "{what}: {stderr}"
                );
            }
        }
    }
}
