//! `webhook sign` and `webhook verify` through the real binary: round trips in every output format,
//! and the reasons and hints a failed verification gives.
use base64::Engine;
use idem::testing::scheme::Secret;
use idem::testing::scheme::{BASE64, KeyForm, SigningKey};
use predicates::prelude::*;
use predicates::str::contains;
use serde_json::Value;

use crate::support::webhook;

const SECRET: &str = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
const SCHEMES: [&str; 6] = ["hmac", "github", "stripe", "standard", "slack", "shopify"];

/// `sign --format http` for `body`, written to a file `verify --request` can read.
fn signed_request(dir: &tempfile::TempDir, scheme: &str, body: &str, extra: &[&str]) -> std::path::PathBuf {
    let output = webhook()
        .args(["sign", "--scheme", scheme, "--secret", SECRET, "-d", body, "--format", "http"])
        .args(["--url", "http://127.0.0.1:9/hooks"])
        .args(extra)
        .assert()
        .code(0)
        .get_output()
        .stdout
        .clone();
    let path = dir.path().join(format!("{scheme}.http"));
    std::fs::write(&path, output).unwrap();
    path
}

#[test]
fn every_scheme_round_trips_through_a_raw_request() {
    let dir = tempfile::tempdir().unwrap();
    for scheme in SCHEMES {
        let request = signed_request(&dir, scheme, r#"{"amount":100}"#, &[]);
        webhook()
            .args(["verify", "--scheme", scheme, "--secret", SECRET, "--request"])
            .arg(&request)
            .assert()
            .code(0)
            .stdout(contains(format!("{scheme} signature is valid")));
    }
}

#[test]
fn header_lines_verify_with_the_same_body() {
    for scheme in SCHEMES {
        let output = webhook()
            .args(["sign", "--scheme", scheme, "--secret", SECRET, "-d", "hello"])
            .assert()
            .code(0)
            .get_output()
            .stdout
            .clone();
        let mut verify = webhook();
        verify.args(["verify", "--scheme", scheme, "--secret", SECRET, "-d", "hello"]);
        for line in String::from_utf8(output).unwrap().lines() {
            verify.args(["-H", line]);
        }
        verify.assert().code(0);
    }
}

#[test]
fn file_bodies_are_signed_as_they_are_on_disk() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("body.bin");
    let body: Vec<u8> = (0..700_000u32).map(|i| (i % 256) as u8).collect();
    std::fs::write(&path, &body).unwrap();
    let file_arg = format!("@{}", path.display());
    let output = webhook()
        .args(["sign", "--scheme", "stripe", "--secret", SECRET, "-d", &file_arg])
        .assert()
        .code(0)
        .get_output()
        .stdout
        .clone();
    let header = String::from_utf8(output).unwrap();
    let verify = ["verify", "--scheme", "stripe", "--secret", SECRET];
    webhook().args(verify).args(["-d", &file_arg, "-H", header.trim()]).assert().code(0);
    // The same bytes on stdin verify too.
    webhook().args(verify).args(["-H", header.trim()]).write_stdin(body).assert().code(0);
}

#[test]
fn events_are_wrapped_in_an_envelope() {
    let output = webhook()
        .args(["sign", "--scheme", "github", "--secret", SECRET, "--event", "invoice.paid", "--data", r#"{"a":1}"#])
        .args(["--id", "evt_pinned", "--timestamp", "1700000000", "--format", "json"])
        .assert()
        .code(0)
        .get_output()
        .stdout
        .clone();
    let document: Value = serde_json::from_slice(&output).unwrap();
    crate::support::schemas::validate(&document);
    assert_eq!(document["body"], r#"{"id":"evt_pinned","type":"invoice.paid","created":1700000000,"data":{"a":1}}"#);
    assert_eq!(document["headers"]["X-GitHub-Event"], "invoice.paid");
    assert_eq!(document["headers"]["X-GitHub-Delivery"], "evt_pinned");
    assert_eq!(document["id"], "evt_pinned");
}

#[test]
fn curl_format_is_a_ready_command() {
    webhook()
        .args(["sign", "--scheme", "slack", "--secret", SECRET, "-d", "it's", "--timestamp", "1"])
        .args(["--format", "curl", "--url", "https://example.com/hooks"])
        .assert()
        .code(0)
        .stdout(contains("curl -X POST 'https://example.com/hooks'"))
        .stdout(contains("-H 'X-Slack-Request-Timestamp: 1'"))
        .stdout(contains(r"--data-raw 'it'\''s'"));
    webhook()
        .args(["sign", "--secret", SECRET, "-d", "x", "--format", "curl"])
        .assert()
        .code(2)
        .stderr(contains("--url"));
}

#[test]
fn a_stale_delivery_says_the_signature_matched() {
    let dir = tempfile::tempdir().unwrap();
    let request = signed_request(&dir, "stripe", "{}", &["--timestamp", "1000"]);
    webhook()
        .args(["verify", "--scheme", "stripe", "--secret", SECRET, "--now", "5000", "--format", "json", "--request"])
        .arg(&request)
        .assert()
        .code(1)
        .stdout(crate::support::schemas::valid_document())
        .stdout(contains(r#""code": "timestamp_outside_tolerance""#))
        .stdout(contains(r#""signature_matched": true"#));
    webhook()
        .args(["verify", "--scheme", "stripe", "--secret", SECRET, "--now", "5000", "--tolerance", "2h", "--request"])
        .arg(&request)
        .assert()
        .code(0);
}

#[test]
fn a_missing_header_is_named() {
    webhook()
        .args(["verify", "--scheme", "standard", "--secret", SECRET, "-d", "{}"])
        .args(["-H", "webhook-signature: v1,abc=", "-H", "webhook-timestamp: 1"])
        .assert()
        .code(1)
        .stdout(contains("the webhook-id header is missing"));
}

#[test]
fn hints_explain_a_reserialised_body() {
    let dir = tempfile::tempdir().unwrap();
    let request = signed_request(&dir, "github", r#"{"a": 1, "b": [1, 2]}"#, &[]);
    webhook()
        .args(["verify", "--scheme", "github", "--secret", SECRET, "-d", r#"{"a":1,"b":[1,2]}"#, "--request"])
        .arg(&request)
        .assert()
        .code(1)
        .stdout(contains("signature does not match"))
        .stdout(contains("json.dumps"));
}

#[test]
fn hints_explain_an_added_trailing_newline() {
    let dir = tempfile::tempdir().unwrap();
    let request = signed_request(&dir, "shopify", "plain text", &[]);
    webhook()
        .args(["verify", "--scheme", "shopify", "--secret", SECRET, "-d", "plain text\n", "--request"])
        .arg(&request)
        .assert()
        .code(1)
        .stdout(contains("without its trailing newline"));
}

#[test]
fn standard_hints_a_secret_used_as_a_raw_string() {
    // A sender that keyed the HMAC with the whole whsec_ string instead of the decoded bytes.
    let raw_key = SigningKey::from_bytes(SECRET.as_bytes());
    let tag = BASE64.encode(raw_key.tag(&[b"m.100.", b"{}"]));
    webhook()
        .args(["verify", "--scheme", "standard", "--secret", SECRET, "-d", "{}", "--now", "100"])
        .args(["-H", "webhook-id: m", "-H", "webhook-timestamp: 100", "-H", &format!("webhook-signature: v1,{tag}")])
        .assert()
        .code(1)
        .stdout(contains("hint: the signature matches when the key is the secret string as given"));
}

#[test]
fn stripe_hints_a_base64_decoded_secret() {
    // A sender that base64-decoded the whsec_ secret, which Stripe uses as given.
    let decoded = KeyForm::WhsecBase64.derive(&Secret::new(SECRET.as_bytes().to_vec()).unwrap()).unwrap();
    let tag = hex::encode(decoded.tag(&[b"7.", b"{}"]));
    webhook()
        .args(["verify", "--scheme", "stripe", "--secret", SECRET, "-d", "{}", "--now", "7"])
        .args(["-H", &format!("Stripe-Signature: t=7,v1={tag}")])
        .assert()
        .code(1)
        .stdout(contains("hint: the signature matches when the key is the secret with whsec_ stripped"));
}

#[test]
fn verify_json_reports_the_delivery_id() {
    let dir = tempfile::tempdir().unwrap();
    let request = signed_request(&dir, "standard", "{}", &["--id", "msg_42"]);
    let output = webhook()
        .args(["verify", "--scheme", "standard", "--secret", SECRET, "--format", "json", "--request"])
        .arg(&request)
        .assert()
        .code(0)
        .get_output()
        .stdout
        .clone();
    let report: Value = serde_json::from_slice(&output).unwrap();
    crate::support::schemas::validate(&report);
    assert_eq!(report["valid"], true);
    assert_eq!(report["scheme"], "standard");
    assert_eq!(report["id"], "msg_42");
    assert!(report["error"].is_null());
}

#[test]
fn svix_headers_are_detected_among_the_allowed_schemes() {
    let output = webhook()
        .args(["sign", "--scheme", "standard", "--svix", "--secret", SECRET, "-d", "{}"])
        .assert()
        .code(0)
        .stdout(contains("svix-signature: v1,"))
        .get_output()
        .stdout
        .clone();
    let mut verify = webhook();
    verify.args(["verify", "--scheme", "auto", "--allow", "standard", "--secret", SECRET, "-d", "{}"]);
    for line in String::from_utf8(output).unwrap().lines() {
        verify.args(["-H", line]);
    }
    verify.assert().code(0).stdout(contains("standard signature is valid"));
}

#[test]
fn generic_hmac_variants_are_adjustable() {
    let output = webhook()
        .args(["sign", "--secret", SECRET, "-d", "x", "--signature-header", "X-Acme-Sig", "--encoding", "base64"])
        .args(["--prefix", ""])
        .assert()
        .code(0)
        .stdout(contains("X-Acme-Sig: ").and(contains("sha256=").not()))
        .get_output()
        .stdout
        .clone();
    let line = String::from_utf8(output).unwrap();
    webhook()
        .args(["verify", "--scheme", "hmac", "--secret", SECRET, "-d", "x", "--signature-header", "X-Acme-Sig"])
        .args(["--encoding", "base64"])
        .args(["--prefix", "", "-H", line.trim()])
        .assert()
        .code(0);
}

#[test]
fn secrets_come_in_the_scheme_form() {
    webhook()
        .args(["secret", "--scheme", "standard"])
        .assert()
        .code(0)
        .stdout(predicate::str::is_match(r"^whsec_[A-Za-z0-9+/]{43}=\n$").unwrap());
    webhook().args(["secret"]).assert().code(0).stdout(predicate::str::is_match(r"^[0-9a-f]{64}\n$").unwrap());
}

#[test]
fn the_secret_can_come_from_the_environment_or_a_file() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("secret");
    std::fs::write(&file, format!("{SECRET}\n")).unwrap();
    let from_env =
        webhook().env("WEBHOOK_SECRET", SECRET).args(["sign", "-d", "x"]).assert().code(0).get_output().stdout.clone();
    let from_file =
        webhook().args(["sign", "-d", "x", "--secret-file"]).arg(&file).assert().code(0).get_output().stdout.clone();
    assert_eq!(from_env, from_file);
}

#[test]
fn svix_header_names_verify_under_scheme_standard() {
    // The svix example delivery: the svix library accepts these names, and so does --scheme standard.
    let body = r#"{"test": 2432232314}"#;
    let svix = [
        "svix-id: msg_p5jXN8AQM9LWM0D4loKWxJek",
        "svix-timestamp: 1614265330",
        "svix-signature: v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=",
    ];
    let mut verify = webhook();
    verify.args(["verify", "--scheme", "standard", "--secret", SECRET, "-d", body, "--now", "1614265330"]);
    verify.args(["--format", "json"]);
    for header in svix {
        verify.args(["-H", header]);
    }
    verify
        .assert()
        .code(0)
        .stdout(crate::support::schemas::valid_document())
        .stdout(contains(r#""id": "msg_p5jXN8AQM9LWM0D4loKWxJek""#));
    // --svix still chooses the names when signing.
    webhook()
        .args(["sign", "--scheme", "standard", "--svix", "--secret", SECRET, "-d", body, "--timestamp", "1614265330"])
        .args(["--id", "msg_p5jXN8AQM9LWM0D4loKWxJek"])
        .assert()
        .code(0)
        .stdout(contains("svix-signature: v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE="));
}

#[test]
fn a_stripe_signature_from_the_future_verifies_as_stripes_libraries_accept_it() {
    let dir = tempfile::tempdir().unwrap();
    let request = signed_request(&dir, "stripe", "{}", &["--timestamp", "10000"]);
    let verify = ["verify", "--scheme", "stripe", "--secret", SECRET, "--now", "9400", "--request"];
    webhook().args(verify).arg(&request).assert().code(0);
    // Standard Webhooks' libraries refuse both directions, and so do we.
    let request = signed_request(&dir, "standard", "{}", &["--timestamp", "10000"]);
    webhook()
        .args(["verify", "--scheme", "standard", "--secret", SECRET, "--now", "9400", "--request"])
        .arg(&request)
        .assert()
        .code(1)
        .stdout(contains("in the future"));
}

/// The v1a fixture: the spec's example header and Svix's test key pair.
fn v1a_fixture() -> serde_json::Value {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/standard-webhooks-v1a.json");
    serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap()
}

#[test]
fn v1a_with_the_svix_key_pair_signs_with_whsk_and_verifies_with_whpk_and_reads_the_specs_header() {
    let fixture = v1a_fixture();
    let (secret, public) =
        (fixture["svix_key_pair"]["secret"].as_str().unwrap(), fixture["svix_key_pair"]["public"].as_str().unwrap());
    let signed = crate::support::webhook()
        .args(["sign", "--scheme", "standard", "--secret", secret, "-d", "{\"a\":1}", "--format", "json"])
        .args(["--id", "msg_fixture", "--timestamp", "1674087231"])
        .output()
        .unwrap();
    let document: serde_json::Value = serde_json::from_slice(&signed.stdout).unwrap();
    let signature = document["headers"]["webhook-signature"].as_str().unwrap().to_string();
    assert!(signature.starts_with("v1a,") && signature.len() == 4 + 88, "{signature}");
    let verify = |signature: &str, id: &str, timestamp: &str, body: &str| {
        crate::support::webhook()
            .args(["verify", "--scheme", "standard", "--public-key", public, "-d", body, "--now", timestamp])
            .args(["-H", &format!("webhook-id: {id}"), "-H", &format!("webhook-timestamp: {timestamp}")])
            .args(["-H", &format!("webhook-signature: {signature}")])
            .args(["--format", "json"])
            .output()
            .unwrap()
    };
    assert_eq!(verify(&signature, "msg_fixture", "1674087231", "{\"a\":1}").status.code(), Some(0));
    assert_eq!(verify(&signature, "msg_fixture", "1674087231", "{\"a\":2}").status.code(), Some(1));
    // The spec's example: both entries are read (not malformed); the v1a one is not this key's.
    let example = &fixture["spec_example"];
    let output = verify(
        example["webhook-signature"].as_str().unwrap(),
        example["webhook-id"].as_str().unwrap(),
        example["webhook-timestamp"].as_str().unwrap(),
        "{}",
    );
    let report: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(output.status.code(), Some(1));
    assert_eq!(report["error"]["code"], "signature_mismatch", "{report:#}");
}

/// Public keys of small order verify forged signatures for any message (with the identity key,
/// R = identity and S = 0), so every command that takes a `whpk_` key refuses them when it reads
/// the key, before any delivery is judged (`check` signs, so it takes no public key).
#[test]
fn small_order_v1a_public_keys_are_refused_by_every_command_that_verifies() {
    use base64::Engine;
    let encode = |bytes: &[u8]| base64::engine::general_purpose::STANDARD.encode(bytes);
    let mut identity = [0u8; 32];
    identity[0] = 1;
    let mut minus_one = [0xffu8; 32];
    minus_one[0] = 0xec;
    minus_one[31] = 0x7f;
    let forged = format!("v1a,{}", encode(&[identity, [0; 32]].concat()));
    for key in [identity, [0; 32], minus_one] {
        let public = format!("whpk_{}", encode(&key));
        let verify = crate::support::webhook()
            .args(["verify", "--scheme", "standard", "--public-key", &public, "-d", "{\"forged\":true}"])
            .args(["--now", "1674087231", "-H", "webhook-id: msg_forged", "-H", "webhook-timestamp: 1674087231"])
            .args(["-H", &format!("webhook-signature: {forged}")])
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&verify.stderr);
        assert_eq!(verify.status.code(), Some(2), "{public}: {stderr}");
        assert!(stderr.contains("small order"), "{public}: {stderr}");
        for key_flag in ["--public-key", "--secret"] {
            let output = crate::support::webhook()
                .args(["listen", "--addr", "127.0.0.1:0", "--scheme", "standard", key_flag, &public])
                .timeout(std::time::Duration::from_secs(30))
                .output()
                .unwrap();
            let stderr = String::from_utf8_lossy(&output.stderr);
            assert_eq!(output.status.code(), Some(2), "listen {key_flag} {public}: {stderr}");
            assert!(stderr.contains("small order"), "listen {key_flag} {public}: {stderr}");
        }
    }
}

/// A `v1a` entry that cannot be an Ed25519 signature is a malformed header that says why, not a
/// signature that "does not match" (which sends the user looking for a wrong key).
#[test]
fn a_v1a_entry_of_the_wrong_length_is_named_as_such() {
    let fixture = v1a_fixture();
    let public = fixture["svix_key_pair"]["public"].as_str().unwrap();
    for (entry, why) in [("v1a,AAAA", "decodes to 3 bytes; an Ed25519 signature is 64"), ("v1a,!!!!", "is not base64")]
    {
        let output = crate::support::webhook()
            .args(["verify", "--scheme", "standard", "--public-key", public, "-d", "{}", "--now", "1674087231"])
            .args(["-H", "webhook-id: msg_1", "-H", "webhook-timestamp: 1674087231"])
            .args(["-H", &format!("webhook-signature: {entry}")])
            .output()
            .unwrap();
        let text = format!("{}{}", String::from_utf8_lossy(&output.stdout), String::from_utf8_lossy(&output.stderr));
        assert_eq!(output.status.code(), Some(1), "{entry}: {text}");
        assert!(text.contains(why) && !text.contains("does not match"), "{entry}: {text}");
    }
}

#[test]
fn an_http_request_of_a_provider_template_has_one_user_agent_its_own() {
    let output = webhook()
        .args(["sign", "--event", "github:push", "--secret", "s3cr3t", "--format", "http"])
        .args(["--url", "http://127.0.0.1:9000/hooks"])
        .assert()
        .code(0);
    let request = String::from_utf8_lossy(&output.get_output().stdout).to_string();
    let head = request.split("\r\n\r\n").next().unwrap();
    let agents: Vec<&str> = head.lines().filter(|line| line.to_ascii_lowercase().starts_with("user-agent:")).collect();
    assert_eq!(agents.len(), 1, "{head}");
    assert!(agents[0].contains("GitHub-Hookshot/"), "{head}");
    let types = head.lines().filter(|line| line.to_ascii_lowercase().starts_with("content-type:")).count();
    assert_eq!(types, 1, "{head}");
    let delivery = head.lines().find(|line| line.starts_with("X-GitHub-Delivery:")).unwrap();
    assert!(uuid::Uuid::parse_str(delivery.trim_start_matches("X-GitHub-Delivery:").trim()).is_ok(), "{delivery}");
}
