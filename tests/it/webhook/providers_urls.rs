//! The providers that sign the URL (twilio, square, hubspot), through the real binaries and
//! judged by the providers' own SDKs (tests/differential/providers.py): `webhook sign --url`'s
//! signature is accepted by the SDK, the SDK's signature (where it can sign) by `webhook verify
//! --url`, and a tampered delivery is rejected by both. `webhook listen` judges by
//! `--public-url` or else the local URL a request arrived at.
use std::collections::BTreeMap;
use std::io::{Read, Write};

use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use percent_encoding::{NON_ALPHANUMERIC, utf8_percent_encode};
use serde_json::json;

use crate::support::listen_process::Binary;
use crate::support::provider_sdks::Sdks;
use crate::support::run::Run;

const SECRET: &str = "a provider auth token";
const NOW: i64 = 1_700_000_000;

/// The headers `webhook sign` writes, by lower-case name, or its exit status and stderr.
fn sign(scheme: &str, url: &str, body: &str, extra: &[&str]) -> Result<BTreeMap<String, String>, (i32, String)> {
    let (code, stdout, stderr) =
        Run::webhook(["sign", "--scheme", scheme, "--secret", SECRET, "--url", url, "-d", body])
            .args(["--timestamp", &NOW.to_string()])
            .args(extra)
            .never_printing(SECRET)
            .finish()
            .parts();
    if code != 0 {
        return Err((code, stderr));
    }
    Ok(stdout
        .lines()
        .map(|line| {
            let (name, value) = line.split_once(": ").unwrap();
            (name.to_ascii_lowercase(), value.to_string())
        })
        .collect())
}

/// `webhook verify --scheme SCHEME --url URL` of `body` with `headers` at NOW: exit status, stdout, stderr.
fn verify(scheme: &str, url: Option<&str>, body: &str, headers: &[(&str, &str)]) -> (i32, String, String) {
    let mut run =
        Run::webhook(["verify", "--scheme", scheme, "--secret", SECRET, "-d", body, "--now", &NOW.to_string()]);
    if let Some(url) = url {
        run = run.args(["--url", url]);
    }
    for (name, value) in headers {
        run = run.args(["-H", &format!("{name}: {value}")]);
    }
    run.never_printing(SECRET).finish().parts()
}

fn b64(bytes: &[u8]) -> String {
    STANDARD.encode(bytes)
}

/// A form body as Twilio posts it, and the pairs a web framework decodes from it.
fn form(pairs: &[(&str, &str)]) -> (String, Vec<[String; 2]>) {
    let body = pairs
        .iter()
        .map(|(name, value)| {
            format!("{}={}", utf8_percent_encode(name, NON_ALPHANUMERIC), utf8_percent_encode(value, NON_ALPHANUMERIC))
        })
        .collect::<Vec<_>>()
        .join("&");
    (body, pairs.iter().map(|(name, value)| [name.to_string(), value.to_string()]).collect())
}

fn twilio_cases() -> Vec<(&'static str, Vec<(&'static str, &'static str)>)> {
    vec![
        (
            "https://mycompany.com/myapp.php?foo=1&bar=2",
            vec![("CallSid", "CA1234567890ABCDE"), ("Caller", "+12349013030"), ("Digits", "1234")],
        ),
        (
            "https://hooks.example.org:8443/sms",
            vec![("Body", "Grüße & 日本 = 💥"), ("From", "+15550001111"), ("To", "")],
        ),
        ("http://example.com/sms", vec![("b", "2"), ("a", "z"), ("B", "1"), ("a", "y"), ("a", "z")]),
        ("https://example.com:443/voice", vec![]),
    ]
}

#[test]
fn twilio_signatures_agree_with_request_validator_both_ways() {
    let mut sdks = Sdks::start();
    for (url, pairs) in twilio_cases() {
        let (body, params) = form(&pairs);
        let ours = sign("twilio", url, &body, &[]).unwrap()["x-twilio-signature"].clone();
        let request = json!({"token": SECRET, "url": url, "params": params, "signature": ours});
        assert!(sdks.verifies("twilio", request.clone()), "RequestValidator refuses ours: {request}");
        let theirs = sdks.signs("twilio", request.clone());
        assert_eq!(theirs, ours, "{request}");

        // The SDK's signature of the URL without its port (or with the default one) verifies with
        // the URL as given, as RequestValidator.validate tries both.
        for variant in idem::testing::canonical::twilio_url_variants(url) {
            let mut variant_request = request.clone();
            variant_request["url"] = json!(variant);
            let signature = sdks.signs("twilio", variant_request);
            let (code, stdout, stderr) = verify("twilio", Some(url), &body, &[("X-Twilio-Signature", &signature)]);
            assert_eq!(code, 0, "{url} signed as {variant}: {stdout}{stderr}");
        }

        // A parameter changed: both reject.
        let mut tampered_pairs = pairs.clone();
        tampered_pairs.push(("Injected", "1"));
        let (tampered_body, tampered_params) = form(&tampered_pairs);
        let mut tampered = request.clone();
        tampered["params"] = json!(tampered_params);
        assert!(!sdks.verifies("twilio", tampered), "{url}");
        let (code, stdout, _) = verify("twilio", Some(url), &tampered_body, &[("X-Twilio-Signature", &ours)]);
        assert_eq!(code, 1, "{stdout}");
        assert!(stdout.contains("signature does not match"), "{stdout}");
        // Another URL: both reject.
        let (code, _, _) =
            verify("twilio", Some("https://attacker.example/sms"), &body, &[("X-Twilio-Signature", &ours)]);
        assert_eq!(code, 1);
    }
}

#[test]
fn twilio_json_bodies_are_signed_through_body_sha256_in_the_url() {
    let mut sdks = Sdks::start();
    let body = r#"{"CallSid":"CA123","note":"é 日本"}"#;
    let hash = idem::testing::canonical::twilio_body_sha256(body.as_bytes());
    // Without bodySHA256 in the URL there is nothing Twilio would have signed: exit 2, saying what to add.
    let (code, stderr) = sign("twilio", "https://example.com/hook", body, &[]).unwrap_err();
    assert_eq!(code, 2);
    assert!(stderr.contains(&format!("bodySHA256={hash}")), "{stderr}");

    let url = format!("https://example.com/hook?bodySHA256={hash}");
    let ours = sign("twilio", &url, body, &[]).unwrap()["x-twilio-signature"].clone();
    let request = json!({"token": SECRET, "url": url, "json_body": body, "signature": ours});
    assert!(sdks.verifies("twilio", request.clone()), "{request}");
    assert_eq!(verify("twilio", Some(&url), body, &[("X-Twilio-Signature", &ours)]).0, 0);

    let changed = r#"{"CallSid":"CA124","note":"é 日本"}"#;
    let mut tampered = request.clone();
    tampered["json_body"] = json!(changed);
    assert!(!sdks.verifies("twilio", tampered));
    let (code, stdout, _) = verify("twilio", Some(&url), changed, &[("X-Twilio-Signature", &ours)]);
    assert_eq!(code, 1, "{stdout}");
    assert!(stdout.contains("bodySHA256"), "{stdout}");
}

#[test]
fn a_scheme_that_signs_the_url_needs_it_to_sign_and_to_verify() {
    let (code, _, stderr) = Run::webhook(["sign", "--scheme", "square", "--secret", SECRET, "-d", "{}"])
        .never_printing(SECRET)
        .finish()
        .parts();
    assert_eq!(code, 2);
    assert!(stderr.contains("--scheme square signs the URL") && stderr.contains("--url"), "{stderr}");
    let (code, _, stderr) = verify("twilio", None, "a=1", &[("X-Twilio-Signature", "AAAA")]);
    assert_eq!(code, 2);
    assert!(stderr.contains("--scheme twilio signs the URL") && stderr.contains("--url"), "{stderr}");
}

#[test]
fn square_signatures_are_accepted_by_its_webhooks_helper_and_tampering_by_neither() {
    let mut sdks = Sdks::start();
    let url = "https://example.com/square/webhooks?x=1";
    for body in [r#"{"merchant_id":"M1","type":"payment.updated","data":{"amount":100}}"#, r#"{"note":"日本 💥"}"#]
    {
        let headers = sign("square", url, body, &[]).unwrap();
        let ours = headers["x-square-hmacsha256-signature"].clone();
        let request = json!({"key": SECRET, "url": url, "body_b64": b64(body.as_bytes()), "signature": ours});
        assert!(sdks.verifies("square", request.clone()), "{request}");
        assert_eq!(verify("square", Some(url), body, &[("x-square-hmacsha256-signature", &ours)]).0, 0);

        let mut other_url = request.clone();
        other_url["url"] = json!("https://example.com/square/webhooks");
        assert!(!sdks.verifies("square", other_url));
        let (code, _, _) = verify(
            "square",
            Some("https://example.com/square/webhooks"),
            body,
            &[("x-square-hmacsha256-signature", &ours)],
        );
        assert_eq!(code, 1);
        let changed = body.replace('}', " }");
        let mut tampered = request.clone();
        tampered["body_b64"] = json!(b64(changed.as_bytes()));
        assert!(!sdks.verifies("square", tampered));
        assert_eq!(verify("square", Some(url), &changed, &[("x-square-hmacsha256-signature", &ours)]).0, 1);
    }
}

#[test]
fn hubspot_v3_signatures_agree_with_its_signature_helper_both_ways() {
    let mut sdks = Sdks::start();
    let url = "https://example.com/hubspot/events?portal=42";
    let body = r#"[{"eventId":1,"subscriptionType":"contact.creation","note":"é"}]"#;
    let headers = sign("hubspot", url, body, &[]).unwrap();
    let ours = headers["x-hubspot-signature-v3"].clone();
    let timestamp = headers["x-hubspot-request-timestamp"].clone();
    assert_eq!(timestamp, (NOW * 1000).to_string(), "HubSpot's timestamp is in milliseconds");
    let request = json!({"secret": SECRET, "body_b64": b64(body.as_bytes()), "uri": url, "method": "POST",
                         "version": "v3", "timestamp": timestamp, "signature": ours});
    assert!(sdks.verifies("hubspot", request.clone()), "{request}");

    // The SDK's signature of another timestamp, within the window: ours accepts it.
    let later = (NOW * 1000 + 61_234).to_string();
    let mut theirs_request = request.clone();
    theirs_request["timestamp"] = json!(later);
    let theirs = sdks.signs("hubspot", theirs_request.clone());
    let accepted = [("X-HubSpot-Signature-v3", theirs.as_str()), ("X-HubSpot-Request-Timestamp", later.as_str())];
    let (code, stdout, stderr) = verify("hubspot", Some(url), body, &accepted);
    assert_eq!(code, 0, "{stdout}{stderr}");

    // Another method's or URI's signature, or a changed body: both reject.
    let mut put = theirs_request.clone();
    put["method"] = json!("PUT");
    let put_signature = sdks.signs("hubspot", put);
    let (code, _, _) = verify("hubspot", Some(url), body, &[("X-HubSpot-Signature-v3", &put_signature), accepted[1]]);
    assert_eq!(code, 1);
    let changed = body.replace("é", "e");
    let mut tampered = theirs_request.clone();
    tampered["body_b64"] = json!(b64(changed.as_bytes()));
    tampered["signature"] = json!(theirs);
    assert!(!sdks.verifies("hubspot", tampered));
    assert_eq!(verify("hubspot", Some(url), &changed, &accepted).0, 1);
    assert_eq!(verify("hubspot", Some("https://example.com/hubspot/events"), body, &accepted).0, 1);

    // Older than five minutes: refused, saying the signature itself matched.
    let stale = ((NOW - 301) * 1000).to_string();
    let mut stale_request = request.clone();
    stale_request["timestamp"] = json!(stale);
    let stale_signature = sdks.signs("hubspot", stale_request);
    let (code, stdout, _) = verify(
        "hubspot",
        Some(url),
        body,
        &[("X-HubSpot-Signature-v3", &stale_signature), ("X-HubSpot-Request-Timestamp", &stale)],
    );
    assert_eq!(code, 1);
    assert!(stdout.contains("signature itself matches"), "{stdout}");
}

/// Sends a raw HTTP request to `addr` and returns the status line.
fn raw_post(base: &str, request: &[u8]) -> String {
    let addr = base.trim_start_matches("http://");
    let mut stream = std::net::TcpStream::connect(addr).unwrap();
    stream.write_all(request).unwrap();
    let mut answer = Vec::new();
    let mut buffer = [0u8; 4096];
    while !answer.windows(4).any(|window| window == b"\r\n\r\n") {
        let read = stream.read(&mut buffer).unwrap();
        if read == 0 {
            break;
        }
        answer.extend_from_slice(&buffer[..read]);
    }
    String::from_utf8_lossy(&answer).lines().next().unwrap_or_default().to_string()
}

#[test]
fn listen_judges_by_the_public_url_or_else_the_local_one() {
    let (body, _) = form(&[("Body", "hello"), ("From", "+15550001111")]);
    // No --public-url: `webhook send` signs the URL it sends to, which is the local one.
    let listener = Binary::start(&["--scheme", "twilio", "--format", "json"]);
    let (code, stdout, stderr) =
        Run::webhook(["send", &format!("{}/sms?x=1", listener.url), "--scheme", "twilio", "-d", &body])
            .args(["--secret", crate::support::SECRET])
            .finish()
            .parts();
    assert_eq!(code, 0, "{stdout}{stderr}");
    let (_, lines, _) = listener.interrupt();
    assert!(lines.iter().any(|line| line.contains("\"valid\":true")), "{lines:?}");

    // With --public-url, the delivery Twilio signed for the public URL is valid locally, and one
    // signed for the local URL is not.
    let public = "https://abc.tunnel.example";
    let listener = Binary::start(&["--scheme", "twilio", "--format", "json", "--public-url", public]);
    let signed_for = |url: &str| {
        Run::webhook(["sign", "--scheme", "twilio", "--secret", crate::support::SECRET, "--url", url, "-d", &body])
            .args(["--format", "http"])
            .finish()
            .parts()
            .1
    };
    let status = raw_post(&listener.url, signed_for(&format!("{public}/sms?x=1")).as_bytes());
    assert!(status.contains(" 200 "), "{status}");
    let status = raw_post(&listener.url, signed_for(&format!("{}/sms?x=1", listener.url)).as_bytes());
    assert!(!status.contains(" 200 "), "{status}");
    let (_, lines, _) = listener.interrupt();
    let valid: Vec<bool> = lines
        .iter()
        .filter(|line| line.contains("\"event\":\"delivery\""))
        .map(|line| line.contains("\"valid\":true"))
        .collect();
    assert_eq!(valid, [true, false], "{lines:?}");
}

/// A scheme a user describes: the URL, a timestamp and the body, as some in-house sender signs.
const ACME: &str = r#"{
  "name": "acme",
  "summary": "X-Acme-Signature: <base64> over \"<timestamp>.<url>.<body>\"",
  "signature": { "name": "X-Acme-Signature", "encoding": "base64", "prefix": "v1=" },
  "id_header": { "name": "X-Acme-Delivery" },
  "timestamp": { "name": "X-Acme-Timestamp" },
  "signed": { "template": "{timestamp}.{method} {url}.{body}" },
  "algorithm": "hmac-sha256"
}"#;

fn scheme_file(dir: &tempfile::TempDir, name: &str, text: &str) -> String {
    let path = dir.path().join(name);
    std::fs::write(&path, text).unwrap();
    path.to_str().unwrap().to_string()
}

#[test]
fn a_scheme_file_signs_and_verifies_as_it_describes_and_is_listed() {
    let dir = tempfile::tempdir().unwrap();
    let file = scheme_file(&dir, "acme.json", ACME);
    let url = "https://example.com/acme?x=1";
    let body = r#"{"order":7}"#;
    let headers = sign("github", url, body, &["--scheme-file", &file]);
    // `--scheme` and `--scheme-file` together name two schemes: refused.
    assert_eq!(headers.unwrap_err().0, 2);
    let (code, stdout, stderr) =
        Run::webhook(["sign", "--scheme-file", &file, "--secret", SECRET, "--url", url, "-d", body])
            .args(["--timestamp", &NOW.to_string(), "--id", "d-1"])
            .never_printing(SECRET)
            .finish()
            .parts();
    assert_eq!(code, 0, "{stderr}");
    let signature = stdout.lines().find_map(|line| line.strip_prefix("X-Acme-Signature: v1=")).unwrap().to_string();
    let message = format!("{NOW}.POST {url}.{body}");
    let output = std::process::Command::new("python3")
        .arg(crate::support::apps::app_path("provider_recipe_signer.py"))
        .args(["sha256", "base64", SECRET, &message])
        .output()
        .unwrap();
    assert_eq!(String::from_utf8(output.stdout).unwrap().trim(), signature, "{stdout}");
    assert!(
        stdout.contains(&format!("X-Acme-Timestamp: {NOW}")) && stdout.contains("X-Acme-Delivery: d-1"),
        "{stdout}"
    );

    let verify_with = |url: &str, body: &str| {
        Run::webhook(["verify", "--scheme-file", &file, "--secret", SECRET, "--url", url, "-d", body])
            .args(["--now", &NOW.to_string(), "-H", &format!("X-Acme-Signature: v1={signature}")])
            .args(["-H", &format!("X-Acme-Timestamp: {NOW}")])
            .never_printing(SECRET)
            .finish()
            .parts()
    };
    let (code, stdout, stderr) = verify_with(url, body);
    assert_eq!(code, 0, "{stdout}{stderr}");
    assert!(stdout.contains("acme signature is valid"), "{stdout}");
    assert_eq!(verify_with("https://example.com/acme", body).0, 1);
    assert_eq!(verify_with(url, r#"{"order":8}"#).0, 1);

    let listed = Run::webhook(["schemes", "--scheme-file", &file]).format_json().json();
    let acme = listed["schemes"].as_array().unwrap().iter().find(|entry| entry["name"] == "acme").unwrap().clone();
    assert_eq!(
        (acme["signature_header"].as_str(), acme["timestamped"].as_bool()),
        (Some("X-Acme-Signature"), Some(true))
    );
    assert_eq!(acme["id_header"], "X-Acme-Delivery");
}

#[test]
fn send_and_listen_share_a_scheme_file() {
    let dir = tempfile::tempdir().unwrap();
    let file = scheme_file(&dir, "acme.json", ACME);
    let listener = Binary::start(&["--scheme-file", &file, "--format", "json"]);
    let (code, stdout, stderr) = Run::webhook(["send", &format!("{}/acme", listener.url), "--scheme-file", &file])
        .args(["-d", r#"{"order":7}"#, "--secret", crate::support::SECRET])
        .finish()
        .parts();
    assert_eq!(code, 0, "{stdout}{stderr}");
    let (_, lines, _) = listener.interrupt();
    assert!(lines[0].contains("\"scheme\":\"acme\""), "{lines:?}");
    assert!(lines.iter().any(|line| line.contains("\"valid\":true")), "{lines:?}");
}

#[test]
fn a_bad_scheme_file_stops_the_command_naming_the_field() {
    let dir = tempfile::tempdir().unwrap();
    let cases = [
        (ACME.replace(r#""encoding": "base64""#, r#""encoding": "base65""#), "`signature.encoding`"),
        (ACME.replace(r#""algorithm": "hmac-sha256""#, r#""algorithm": "hmac-sha384""#), "`algorithm`"),
        (
            ACME.replace(r#","algorithm": "hmac-sha256""#, "").replace(",\n  \"algorithm\": \"hmac-sha256\"", ""),
            "`algorithm`",
        ),
        (ACME.replace("{method} {url}", "{verb} {url}"), "`signed.template`"),
        (ACME.replace(r#""name": "acme""#, r#""name": "github""#), "`name`"),
        (ACME.replace(r#""name": "X-Acme-Signature""#, r#""name": "X Acme""#), "`signature.name`"),
        (ACME.replace(r#""summary""#, r#""colour": 1, "summary""#), "`colour`"),
        ("{ not json".to_string(), "is not JSON"),
    ];
    for (index, (text, says)) in cases.iter().enumerate() {
        let file = scheme_file(&dir, &format!("bad{index}.json"), text);
        let commands: [Vec<&str>; 3] = [
            vec!["sign", "-d", "{}", "--secret", SECRET, "--url", "https://example.com/"],
            vec!["verify", "-d", "{}", "--secret", SECRET, "--url", "https://example.com/"],
            vec!["schemes"],
        ];
        for command in commands {
            let (code, _, stderr) = Run::webhook(&command).args(["--scheme-file", &file]).finish().parts();
            assert_eq!(code, 2, "{command:?} {text}: {stderr}");
            assert!(stderr.contains(says), "{command:?} {text}: {stderr}");
        }
    }
}

#[test]
fn a_providers_signature_under_another_scheme_is_named_in_the_hint() {
    let url = "https://example.com/sms";
    let (body, _) = form(&[("Body", "hi")]);
    let signature = sign("twilio", url, &body, &[]).unwrap()["x-twilio-signature"].clone();
    let (code, stdout, stderr) = verify("github", Some(url), &body, &[("X-Twilio-Signature", &signature)]);
    assert_eq!(code, 1, "{stderr}");
    assert!(stdout.contains("this request carries X-Twilio-Signature: try --scheme twilio"), "{stdout}");
    // Intercom and Bitbucket share X-Hub-Signature: no guess is offered.
    let (code, stdout, _) = verify("github", Some(url), &body, &[("X-Hub-Signature", "sha1=00")]);
    assert_eq!(code, 1);
    assert!(!stdout.contains("try --scheme"), "{stdout}");
}

#[test]
fn check_sender_judges_a_url_signing_sender_by_the_url_it_was_given() {
    let sender = format!(
        "\"{}\" send \"$WEBHOOK_URL\" --scheme twilio -d 'Body=hi&From=%2B15550001111' --time-scale 0.001 --timeout 1s \
         >/dev/null",
        assert_cmd::cargo::cargo_bin("webhook").display()
    );
    let finished = Run::webhook(["check-sender", "--addr", "127.0.0.1:0", "--format", "json", "--scheme", "twilio"])
        .env("WEBHOOK_SECRET", SECRET)
        .args(["--", "sh", "-c", &sender])
        .never_printing(SECRET)
        .finish();
    let report = finished.json();
    let signed = report["checks"].as_array().unwrap().iter().find(|check| check["id"] == "signed").unwrap();
    assert_eq!(signed["outcome"], "pass", "{signed:#}\n{}", finished.stderr);
}

#[test]
fn verify_request_judges_hubspot_by_the_method_of_the_request_line() {
    let dir = tempfile::tempdir().unwrap();
    let url = "https://example.com/hubspot";
    let (_, request, stderr) = Run::webhook(["sign", "--scheme", "hubspot", "--secret", SECRET, "--url", url])
        .args(["-d", r#"[{"eventId":1}]"#, "--format", "http"])
        .never_printing(SECRET)
        .finish()
        .parts();
    assert!(request.starts_with("POST /hubspot HTTP/1.1\r\n"), "{request:?} {stderr}");
    let judge = |text: &str| {
        let path = dir.path().join("request.http");
        std::fs::write(&path, text).unwrap();
        Run::webhook(["verify", "--scheme", "hubspot", "--secret", SECRET, "--url", url])
            .args(["--request", path.to_str().unwrap()])
            .never_printing(SECRET)
            .finish()
            .parts()
    };
    let (code, stdout, stderr) = judge(&request);
    assert_eq!(code, 0, "{stdout}{stderr}");
    let (code, stdout, _) = judge(&request.replacen("POST ", "PUT ", 1));
    assert_eq!(code, 1, "a PUT was not what was signed: {stdout}");
}
