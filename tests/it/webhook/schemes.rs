//! The providers described as data (`webhook schemes` lists them): each signs and verifies as its
//! documentation says, checked against Python's own `hmac` following the documented recipe
//! (`tests/apps/provider_recipe_signer.py`), and the list itself.
use std::collections::BTreeMap;
use std::process::Command;

use crate::support::apps::app_path;
use crate::support::run::Run;
use crate::support::webhook;

const SECRET: &str = "a provider secret";
const BODY: &str = r#"{"event":"meeting.started","payload":{"id":42}}"#;
const NOW: i64 = 1_700_000_000;

/// The tag Python computes over `message` as the provider's documentation describes it.
fn python_tag(algorithm: &str, encoding: &str, message: &str) -> String {
    let output = Command::new("python3")
        .arg(app_path("provider_recipe_signer.py"))
        .args([algorithm, encoding, SECRET, message])
        .output()
        .expect("python3 runs");
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    String::from_utf8(output.stdout).unwrap().trim().to_string()
}

/// The headers `webhook sign` writes, by lower-case name.
fn signed_headers(scheme: &str, extra: &[&str]) -> BTreeMap<String, String> {
    let output = webhook()
        .args(["sign", "--scheme", scheme, "--secret", SECRET, "-d", BODY, "--timestamp", &NOW.to_string()])
        .args(extra)
        .assert()
        .code(0)
        .get_output()
        .stdout
        .clone();
    String::from_utf8(output)
        .unwrap()
        .lines()
        .map(|line| {
            let (name, value) = line.split_once(": ").unwrap();
            (name.to_ascii_lowercase(), value.to_string())
        })
        .collect()
}

/// `webhook verify --scheme SCHEME` of BODY with `headers`, at NOW: its exit status and output.
fn verify(scheme: &str, headers: &[(&str, &str)]) -> (i32, String, String) {
    let mut run =
        Run::webhook(["verify", "--scheme", scheme, "--secret", SECRET, "-d", BODY, "--now", &NOW.to_string()]);
    for (name, value) in headers {
        run = run.args(["-H", &format!("{name}: {value}")]);
    }
    run.never_printing(SECRET).finish().parts()
}

/// Each provider's documented recipe: (scheme, the signature header, the other headers it signs
/// with, the message the documentation says is signed, algorithm, encoding, prefix).
struct Recipe {
    scheme: &'static str,
    header: &'static str,
    others: Vec<(&'static str, String)>,
    message: String,
    algorithm: &'static str,
    encoding: &'static str,
    prefix: &'static str,
}

fn recipes() -> Vec<Recipe> {
    let id = "0d1e2f3a-delivery";
    let rfc3339 = "2023-11-14T22:13:20Z"; // NOW
    vec![
        // Meta: "sha256=" + hex HMAC-SHA256 of the payload with the app secret.
        Recipe {
            scheme: "meta",
            header: "x-hub-signature-256",
            others: vec![],
            message: BODY.into(),
            algorithm: "sha256",
            encoding: "hex",
            prefix: "sha256=",
        },
        // Zoom: "v0=" + hex HMAC-SHA256 of "v0:{x-zm-request-timestamp}:{body}".
        Recipe {
            scheme: "zoom",
            header: "x-zm-signature",
            others: vec![("x-zm-request-timestamp", NOW.to_string())],
            message: format!("v0:{NOW}:{BODY}"),
            algorithm: "sha256",
            encoding: "hex",
            prefix: "v0=",
        },
        // Twitch: "sha256=" + hex HMAC-SHA256 of message id + timestamp + body.
        Recipe {
            scheme: "twitch",
            header: "twitch-eventsub-message-signature",
            others: vec![
                ("twitch-eventsub-message-id", id.to_string()),
                ("twitch-eventsub-message-timestamp", rfc3339.to_string()),
            ],
            message: format!("{id}{rfc3339}{BODY}"),
            algorithm: "sha256",
            encoding: "hex",
            prefix: "sha256=",
        },
        // Typeform: "sha256=" + base64 HMAC-SHA256 of the payload.
        Recipe {
            scheme: "typeform",
            header: "typeform-signature",
            others: vec![],
            message: BODY.into(),
            algorithm: "sha256",
            encoding: "base64",
            prefix: "sha256=",
        },
        // Intercom: "sha1=" + hex HMAC-SHA1 of the payload with the client secret.
        Recipe {
            scheme: "intercom",
            header: "x-hub-signature",
            others: vec![],
            message: BODY.into(),
            algorithm: "sha1",
            encoding: "hex",
            prefix: "sha1=",
        },
        // Vercel: hex HMAC-SHA1 of the raw body.
        Recipe {
            scheme: "vercel",
            header: "x-vercel-signature",
            others: vec![],
            message: BODY.into(),
            algorithm: "sha1",
            encoding: "hex",
            prefix: "",
        },
        // Bitbucket Cloud: "sha256=" + hex HMAC-SHA256 of the payload, under X-Hub-Signature.
        Recipe {
            scheme: "bitbucket",
            header: "x-hub-signature",
            others: vec![],
            message: BODY.into(),
            algorithm: "sha256",
            encoding: "hex",
            prefix: "sha256=",
        },
        // Coinbase Commerce: hex HMAC-SHA256 of the raw payload with the shared secret.
        Recipe {
            scheme: "coinbase-commerce",
            header: "x-cc-webhook-signature",
            others: vec![],
            message: BODY.into(),
            algorithm: "sha256",
            encoding: "hex",
            prefix: "",
        },
        // Linear: hex HMAC-SHA256 of the raw body; the delivery id in Linear-Delivery.
        Recipe {
            scheme: "linear",
            header: "linear-signature",
            others: vec![("linear-delivery", id.to_string())],
            message: BODY.into(),
            algorithm: "sha256",
            encoding: "hex",
            prefix: "",
        },
    ]
}

#[test]
fn each_provider_signs_as_its_documentation_says() {
    for recipe in recipes() {
        let expected = format!("{}{}", recipe.prefix, python_tag(recipe.algorithm, recipe.encoding, &recipe.message));
        let id_args: Vec<&str> = recipe
            .others
            .iter()
            .find(|(name, _)| name.ends_with("-id") || name.ends_with("-delivery"))
            .map(|(_, id)| ["--id", id.as_str()])
            .into_iter()
            .flatten()
            .collect();
        let headers = signed_headers(recipe.scheme, &id_args);
        assert_eq!(headers.get(recipe.header), Some(&expected), "{}: {headers:?}", recipe.scheme);
        for (name, value) in &recipe.others {
            assert_eq!(headers.get(*name), Some(value), "{}: {headers:?}", recipe.scheme);
        }
    }
}

#[test]
fn each_provider_verifies_what_its_documentation_signs_and_refuses_an_altered_one() {
    for recipe in recipes() {
        let signature = format!("{}{}", recipe.prefix, python_tag(recipe.algorithm, recipe.encoding, &recipe.message));
        let mut headers: Vec<(&str, &str)> =
            recipe.others.iter().map(|(name, value)| (*name, value.as_str())).collect();
        headers.push((recipe.header, &signature));
        let (code, stdout, stderr) = verify(recipe.scheme, &headers);
        assert_eq!(code, 0, "{}: {stdout}{stderr}", recipe.scheme);
        assert!(stdout.contains(&format!("{} signature is valid", recipe.scheme)), "{stdout}");

        // Signed with another secret: refused, and said so.
        let other = python_tag(recipe.algorithm, recipe.encoding, &format!("{}x", recipe.message));
        let forged = format!("{}{other}", recipe.prefix);
        let last = headers.len() - 1;
        headers[last] = (recipe.header, &forged);
        let (code, stdout, _) = verify(recipe.scheme, &headers);
        assert_eq!(code, 1, "{}: {stdout}", recipe.scheme);
        assert!(stdout.contains("does not match"), "{}: {stdout}", recipe.scheme);
    }
}

#[test]
fn a_timestamped_provider_refuses_a_stale_delivery_whose_signature_matched() {
    let stale = NOW - 3_600;
    let signature = format!("v0={}", python_tag("sha256", "hex", &format!("v0:{stale}:{BODY}")));
    let (code, stdout, _) =
        verify("zoom", &[("x-zm-request-timestamp", &stale.to_string()), ("x-zm-signature", &signature)]);
    assert_eq!(code, 1, "{stdout}");
    assert!(stdout.contains("the signature itself matches"), "{stdout}");
}

#[test]
fn schemes_lists_every_provider_with_its_header_and_algorithm() {
    let list = Run::webhook(["schemes"]).format_json().expect_exit(0).json();
    let schemes = list["schemes"].as_array().unwrap();
    let by_name =
        |name: &str| schemes.iter().find(|scheme| scheme["name"] == name).unwrap_or_else(|| panic!("{name}: {list}"));
    for name in ["hmac", "github", "stripe", "standard", "slack", "shopify"] {
        by_name(name);
    }
    assert_eq!(by_name("intercom")["algorithm"], "HMAC-SHA1");
    assert_eq!(by_name("twitch")["signature_header"], "Twitch-Eventsub-Message-Signature");
    assert_eq!(by_name("twitch")["id_header"], "Twitch-Eventsub-Message-Id");
    assert_eq!(by_name("zoom")["timestamped"], true);
    for recipe in recipes() {
        assert!(by_name(recipe.scheme)["source"].as_str().unwrap().starts_with("https://"), "{}", recipe.scheme);
    }

    let (code, table, _) = Run::webhook(["schemes"]).finish().parts();
    assert_eq!(code, 0);
    assert_eq!(table.lines().count(), schemes.len(), "{table}");
    assert!(table.lines().any(|line| line.starts_with("vercel ") && line.contains("HMAC-SHA1")), "{table}");
}

#[test]
fn an_unknown_scheme_is_refused_naming_the_close_one() {
    let (code, _, stderr) =
        Run::webhook(["sign", "--scheme", "twich", "--secret", SECRET, "-d", BODY]).finish().parts();
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("'twitch'"), "{stderr}");
}
