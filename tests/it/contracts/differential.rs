//! Differential test: thousands of deliveries per scheme, valid and broken every way we know, judged
//! by our verifier in-process and by the providers' own libraries (stripe, standardwebhooks for
//! Python and Node, svix, slack_sdk, @octokit/webhooks-methods, and Shopify's documented HMAC),
//! each run as one long-lived process reading JSON-lines cases (tests/differential/). Every
//! disagreement fails the test unless docs/sign-verify.md lists it, with the reason, in the one table of
//! intended differences; a row that no case produces any more fails it too, so the table stays
//! true. Also: `webhook check` against receivers built on those libraries.
//!
//! The libraries are installed by tests/differential/setup.sh into target/differential (pinned,
//! idempotent); this test runs it first, so a bare clone needs only network to the registries.
//! It never skips: without the libraries it fails and says how to install them.
use std::collections::{BTreeMap, HashMap};
use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use base64::Engine;
use http::{HeaderMap, HeaderName, HeaderValue};
use idem::testing::scheme::Secret;
use idem::testing::scheme::{self, BASE64, SchemeKind, SchemeOptions, TimeWindow};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use serde_json::{Value, json};

use crate::support::reference_libraries::references;
use crate::support::run::Run;
use crate::support::{suite_evidence, suite_outcomes, webhook};

/// Cases per reference library.
const CASES_PER_REFERENCE: usize = 2_400;
const TOLERANCE: i64 = 300;

/// One reference library, named as the table in docs/sign-verify.md names it (`scheme/library`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Reference {
    name: &'static str,
    /// What the runner calls it.
    runner: &'static str,
    kind: SchemeKind,
    node: bool,
}

const REFERENCES: [Reference; 7] = [
    Reference { name: "stripe/stripe-python", runner: "stripe-python", kind: SchemeKind::Stripe, node: false },
    Reference {
        name: "standard/standardwebhooks-python",
        runner: "standardwebhooks-python",
        kind: SchemeKind::Standard,
        node: false,
    },
    Reference {
        name: "standard/standardwebhooks-node",
        runner: "standardwebhooks-node",
        kind: SchemeKind::Standard,
        node: true,
    },
    Reference { name: "standard/svix-python", runner: "svix-python", kind: SchemeKind::Standard, node: false },
    Reference { name: "slack/slack_sdk", runner: "slack_sdk", kind: SchemeKind::Slack, node: false },
    Reference { name: "github/octokit", runner: "octokit", kind: SchemeKind::Github, node: true },
    Reference { name: "shopify/documented-hmac", runner: "shopify-documented", kind: SchemeKind::Shopify, node: false },
];

/// One delivery, as the receiver sees it.
#[derive(Debug, Clone)]
struct Case {
    id: usize,
    reference: Reference,
    kind: &'static str,
    /// The secret the receiver is configured with.
    secret: String,
    headers: Vec<(String, String)>,
    body: Vec<u8>,
    now: i64,
}

const COMMON: &[&str] = &[
    "valid",
    "unicode-body",
    "empty-body",
    "binary-body",
    "wrong-secret",
    "body-byte-changed",
    "trailing-newline-added",
    "signature-digit-changed",
    "signature-header-missing",
    "signature-header-empty",
];
const HEX: &[&str] = &["upper-case-hex"];
const BASE64_SIGNED: &[&str] = &["unpadded-base64"];
const TIMESTAMPED: &[&str] = &[
    "timestamp-at-past-edge",
    "timestamp-past-edge-plus-1s",
    "timestamp-at-future-edge",
    "timestamp-future-edge-plus-1s",
    "timestamp-10m-old",
    "timestamp-10m-ahead",
    "timestamp-changed",
    "timestamp-not-a-number",
    "timestamp-leading-zero-signed-as-number",
    "timestamp-leading-zero-signed-as-text",
    "timestamp-fraction-signed-as-integer",
    "timestamp-fraction-signed-as-text",
];
const STRIPE: &[&str] = &[
    "space-after-comma",
    "several-signatures",
    "several-signatures-none-valid",
    "unknown-versions",
    "many-signatures",
    "t-repeated",
    "item-without-equals",
    "no-t",
    "secret-without-whsec-prefix",
];
const STANDARD: &[&str] = &[
    "svix-headers",
    "mixed-header-families",
    "several-signatures",
    "several-signatures-none-valid",
    "unknown-versions",
    "entry-without-comma",
    "double-space",
    "many-signatures",
    "secret-without-whsec-prefix",
    "secret-unpadded-spare-bits-set",
    "id-changed",
    "id-header-missing",
    "timestamp-header-missing",
];
const SLACK: &[&str] = &["timestamp-header-missing", "signature-without-v0"];
const GITHUB: &[&str] = &["prefix-missing", "sha1-prefix"];

fn kinds(kind: SchemeKind) -> Vec<&'static str> {
    let mut kinds = COMMON.to_vec();
    match kind {
        SchemeKind::Stripe => kinds.extend(HEX.iter().chain(TIMESTAMPED).chain(STRIPE)),
        SchemeKind::Standard => kinds.extend(BASE64_SIGNED.iter().chain(TIMESTAMPED).chain(STANDARD)),
        SchemeKind::Slack => kinds.extend(HEX.iter().chain(TIMESTAMPED).chain(SLACK)),
        SchemeKind::Github => kinds.extend(HEX.iter().chain(GITHUB)),
        SchemeKind::Shopify => kinds.extend(BASE64_SIGNED),
        SchemeKind::Hmac | SchemeKind::Provider(_) | SchemeKind::Alias(_) | SchemeKind::Certified(_) => {
            unreachable!("no provider library for the generic scheme")
        }
    }
    kinds
}

fn mac(key: &[u8], parts: &[&[u8]]) -> Vec<u8> {
    let key = ring::hmac::Key::new(ring::hmac::HMAC_SHA256, key);
    let mut context = ring::hmac::Context::with_key(&key);
    for part in parts {
        context.update(part);
    }
    context.sign().as_ref().to_vec()
}

/// A random JSON-ish body with ASCII, accents, symbols and escapes.
fn random_body(rng: &mut StdRng, unicode: bool) -> Vec<u8> {
    const ASCII: &[&str] = &["a", "B", "7", " ", "_", "-", "\\\"", "\\\\", "\\/", ":", ","];
    const WIDE: &[&str] = &["é", "✓", "日本", "ß", "🙂", "\\u00e9"];
    let length = rng.random_range(0..120);
    let mut note = String::new();
    for _ in 0..length {
        let pool = if unicode && rng.random_bool(0.3) { WIDE } else { ASCII };
        note.push_str(pool[rng.random_range(0..pool.len())]);
    }
    format!(
        "{{\"id\":\"evt_{:016x}\",\"type\":\"payment.succeeded\",\"amount\":{},\"note\":\"{note}\"}}",
        rng.random::<u64>(),
        rng.random_range(0..100_000)
    )
    .into_bytes()
}

fn random_token(rng: &mut StdRng, length: usize) -> String {
    const ALPHABET: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
    (0..length).map(|_| ALPHABET[rng.random_range(0..ALPHABET.len())] as char).collect()
}

/// A secret in the scheme's usual form: whsec_ + base64 for standard (and Stripe), else text.
fn random_secret(rng: &mut StdRng, kind: SchemeKind) -> String {
    match kind {
        SchemeKind::Standard | SchemeKind::Stripe => {
            let bytes: Vec<u8> = (0..rng.random_range(24..33)).map(|_| rng.random()).collect();
            format!("whsec_{}", BASE64.encode(bytes))
        }
        _ => {
            let length = rng.random_range(16..40);
            random_token(rng, length)
        }
    }
}

/// `secret` (`whsec_` + base64) without its `=` padding and with the unused low bits of its last
/// digit set: the same key bytes to standardwebhooks (Python appends `==` and decodes leniently,
/// Node's base64 ignores them), as in its `test_signature_verification_with_unpadded_secret`.
fn unpadded_with_spare_bits_set(secret: &str) -> String {
    const DIGITS: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let padding = secret.len() - secret.trim_end_matches('=').len();
    let mut digits = secret.trim_end_matches('=').as_bytes().to_vec();
    // One `=` leaves 2 spare bits in the last digit, two leave 4.
    let spare = match padding {
        1 => 0b11,
        2 => 0b1111,
        _ => 0,
    };
    if let Some(last) = digits.last_mut() {
        let value = DIGITS.iter().position(|digit| digit == last).unwrap();
        *last = DIGITS[value | spare];
    }
    String::from_utf8(digits).unwrap()
}

fn standard_key(secret: &str) -> Vec<u8> {
    BASE64.decode(secret.strip_prefix("whsec_").unwrap_or(secret)).unwrap()
}

/// What a sender puts on the wire, before a case breaks it.
struct Signed {
    /// The secret the sender signed with.
    secret: String,
    body: Vec<u8>,
    id: String,
    /// The timestamp text that is signed and the one sent in the header.
    signed_timestamp: String,
    header_timestamp: String,
    body_signed: Option<Vec<u8>>,
}

impl Signed {
    fn signed_body(&self) -> &[u8] {
        self.body_signed.as_deref().unwrap_or(&self.body)
    }
}

/// The signature entry (the encoded tag with its prefix where the scheme has one in the entry).
fn tag_text(kind: SchemeKind, signed: &Signed) -> String {
    let body = signed.signed_body();
    let ts = signed.signed_timestamp.as_bytes();
    match kind {
        SchemeKind::Stripe => hex::encode(mac(signed.secret.as_bytes(), &[ts, b".", body])),
        SchemeKind::Standard => {
            BASE64.encode(mac(&standard_key(&signed.secret), &[signed.id.as_bytes(), b".", ts, b".", body]))
        }
        SchemeKind::Slack => hex::encode(mac(signed.secret.as_bytes(), &[b"v0:", ts, b":", body])),
        SchemeKind::Github => hex::encode(mac(signed.secret.as_bytes(), &[body])),
        SchemeKind::Shopify => BASE64.encode(mac(signed.secret.as_bytes(), &[body])),
        SchemeKind::Hmac | SchemeKind::Provider(_) | SchemeKind::Alias(_) | SchemeKind::Certified(_) => unreachable!(),
    }
}

fn changed_digit(text: &str, rng: &mut StdRng) -> String {
    let mut bytes = text.as_bytes().to_vec();
    // Stay clear of base64 padding and its last digit, which carries padding bits.
    let index = rng.random_range(0..bytes.len().saturating_sub(3).max(1));
    bytes[index] = if bytes[index] == b'a' { b'b' } else { b'a' };
    String::from_utf8(bytes).unwrap()
}

/// One case of `kind` for `reference`.
fn generate(id: usize, reference: Reference, kind: &'static str, rng: &mut StdRng) -> Case {
    let scheme = reference.kind;
    let secret = random_secret(rng, scheme);
    let body = match kind {
        "empty-body" => Vec::new(),
        "binary-body" => {
            let mut bytes: Vec<u8> = (0..rng.random_range(8..200)).map(|_| rng.random()).collect();
            bytes.push(0xff); // never valid UTF-8
            bytes
        }
        _ => {
            let unicode = kind == "unicode-body" || rng.random_bool(0.2);
            random_body(rng, unicode)
        }
    };
    let timestamp: i64 = rng.random_range(1_600_000_000..1_900_000_000);
    let mut now = timestamp + rng.random_range(-TOLERANCE + 1..TOLERANCE);
    let mut signed = Signed {
        secret: secret.clone(),
        body,
        id: format!("msg_{}", random_token(rng, 24)),
        signed_timestamp: timestamp.to_string(),
        header_timestamp: timestamp.to_string(),
        body_signed: None,
    };
    let mut receiver_secret = secret.clone();
    match kind {
        "wrong-secret" => signed.secret = random_secret(rng, scheme),
        "timestamp-at-past-edge" => now = timestamp + TOLERANCE,
        "timestamp-past-edge-plus-1s" => now = timestamp + TOLERANCE + 1,
        "timestamp-at-future-edge" => now = timestamp - TOLERANCE,
        "timestamp-future-edge-plus-1s" => now = timestamp - TOLERANCE - 1,
        "timestamp-10m-old" => now = timestamp + 600,
        "timestamp-10m-ahead" => now = timestamp - 600,
        "timestamp-changed" => signed.header_timestamp = (timestamp + rng.random_range(1..100)).to_string(),
        "timestamp-not-a-number" => signed.header_timestamp = format!("{timestamp}x"),
        "timestamp-leading-zero-signed-as-number" => signed.header_timestamp = format!("0{timestamp}"),
        "timestamp-leading-zero-signed-as-text" => {
            signed.header_timestamp = format!("0{timestamp}");
            signed.signed_timestamp = signed.header_timestamp.clone();
        }
        "timestamp-fraction-signed-as-integer" => signed.header_timestamp = format!("{timestamp}.0"),
        "timestamp-fraction-signed-as-text" => {
            signed.header_timestamp = format!("{timestamp}.0");
            signed.signed_timestamp = signed.header_timestamp.clone();
        }
        "secret-without-whsec-prefix" => receiver_secret = secret.trim_start_matches("whsec_").to_string(),
        "secret-unpadded-spare-bits-set" => receiver_secret = unpadded_with_spare_bits_set(&secret),
        "body-byte-changed" | "trailing-newline-added" => signed.body_signed = Some(signed.body.clone()),
        _ => {}
    }
    let tag = tag_text(scheme, &signed);
    match kind {
        "body-byte-changed" => {
            let index = rng.random_range(0..signed.body.len());
            signed.body[index] ^= 1 << rng.random_range(0..7);
        }
        "trailing-newline-added" => signed.body.push(b'\n'),
        _ => {}
    }
    let headers = headers(scheme, kind, &signed, &tag, rng);
    Case { id, reference, kind, secret: receiver_secret, headers, body: signed.body, now }
}

/// The headers of `kind`, with the correct `tag` where the case keeps one.
fn headers(scheme: SchemeKind, kind: &str, signed: &Signed, tag: &str, rng: &mut StdRng) -> Vec<(String, String)> {
    let ts = signed.header_timestamp.as_str();
    let other = |rng: &mut StdRng, hex: bool| {
        let bytes: Vec<u8> = (0..32).map(|_| rng.random()).collect();
        if hex { hex::encode(bytes) } else { BASE64.encode(bytes) }
    };
    let tag = match kind {
        "signature-digit-changed" => changed_digit(tag, rng),
        "upper-case-hex" => tag.to_uppercase(),
        "unpadded-base64" => tag.trim_end_matches('=').to_string(),
        _ => tag.to_string(),
    };
    let mut headers: Vec<(String, String)> = match scheme {
        SchemeKind::Stripe => {
            let value = match kind {
                "space-after-comma" => format!("t={ts}, v1={tag}"),
                "several-signatures" => {
                    let mut entries: Vec<String> =
                        (0..rng.random_range(1..4)).map(|_| format!("v1={}", other(rng, true))).collect();
                    entries.insert(rng.random_range(0..=entries.len()), format!("v1={tag}"));
                    format!("t={ts},{}", entries.join(","))
                }
                "several-signatures-none-valid" => format!("t={ts},v1={},v1={}", other(rng, true), other(rng, true)),
                "unknown-versions" => format!("t={ts},v0={},v1={tag},v2={}", other(rng, true), other(rng, true)),
                "many-signatures" => {
                    let fakes: Vec<String> = (0..19).map(|_| format!("v1={}", other(rng, true))).collect();
                    format!("t={ts},{},v1={tag}", fakes.join(","))
                }
                "t-repeated" => format!("t={ts},v1={tag},t={}", rng.random_range(1..1_000_000)),
                "item-without-equals" => format!("t={ts},v1={tag},junk"),
                "no-t" => format!("v1={tag}"),
                _ => format!("t={ts},v1={tag}"),
            };
            vec![("Stripe-Signature".into(), value)]
        }
        SchemeKind::Standard => {
            let value = match kind {
                "several-signatures" => {
                    let mut entries: Vec<String> =
                        (0..rng.random_range(1..4)).map(|_| format!("v1,{}", other(rng, false))).collect();
                    entries.insert(rng.random_range(0..=entries.len()), format!("v1,{tag}"));
                    entries.join(" ")
                }
                "several-signatures-none-valid" => format!("v1,{} v1,{}", other(rng, false), other(rng, false)),
                "unknown-versions" => format!("v2,{} v1,{tag}", other(rng, false)),
                "entry-without-comma" => format!("v0={} v1,{tag}", other(rng, true)),
                "double-space" => format!("v1,{}  v1,{tag}", other(rng, false)),
                "many-signatures" => {
                    let fakes: Vec<String> = (0..19).map(|_| format!("v1,{}", other(rng, false))).collect();
                    format!("{} v1,{tag}", fakes.join(" "))
                }
                _ => format!("v1,{tag}"),
            };
            let id = if kind == "id-changed" { format!("{}x", signed.id) } else { signed.id.clone() };
            let prefix = if kind == "svix-headers" { "svix" } else { "webhook" };
            let mut headers = vec![
                (format!("{prefix}-id"), id),
                (format!("{prefix}-timestamp"), ts.to_string()),
                (format!("{prefix}-signature"), value),
            ];
            if kind == "mixed-header-families" {
                headers[0].0 = "svix-id".into();
                headers[1].0 = "svix-timestamp".into();
            }
            if kind == "id-header-missing" {
                headers.remove(0);
            }
            headers
        }
        SchemeKind::Slack => {
            let value = if kind == "signature-without-v0" { tag.clone() } else { format!("v0={tag}") };
            vec![("X-Slack-Signature".into(), value), ("X-Slack-Request-Timestamp".into(), ts.to_string())]
        }
        SchemeKind::Github => {
            let value = match kind {
                "prefix-missing" => tag.clone(),
                "sha1-prefix" => format!("sha1={tag}"),
                _ => format!("sha256={tag}"),
            };
            vec![
                ("X-Hub-Signature-256".into(), value),
                ("X-GitHub-Delivery".into(), signed.id.clone()),
                ("X-GitHub-Event".into(), "push".into()),
            ]
        }
        SchemeKind::Shopify => {
            vec![("X-Shopify-Hmac-Sha256".into(), tag.clone()), ("X-Shopify-Webhook-Id".into(), signed.id.clone())]
        }
        SchemeKind::Hmac | SchemeKind::Provider(_) | SchemeKind::Alias(_) | SchemeKind::Certified(_) => unreachable!(),
    };
    let signature = scheme::build(scheme, &SchemeOptions::default()).signature_header();
    let is_signature = |name: &str| name.eq_ignore_ascii_case(signature.as_str());
    match kind {
        "signature-header-missing" => headers.retain(|(name, _)| !is_signature(name)),
        "signature-header-empty" => headers.iter_mut().filter(|(name, _)| is_signature(name)).for_each(|h| h.1.clear()),
        "timestamp-header-missing" => headers.retain(|(name, _)| !name.to_ascii_lowercase().ends_with("timestamp")),
        _ => {}
    }
    headers
}

/// Every case, deterministically: the same seed gives the same deliveries on every run.
fn all_cases() -> Vec<Case> {
    let mut rng = StdRng::seed_from_u64(0x1de4_d1ff);
    let mut cases = Vec::new();
    for reference in REFERENCES {
        let kinds = kinds(reference.kind);
        for index in 0..CASES_PER_REFERENCE {
            cases.push(generate(cases.len(), reference, kinds[index % kinds.len()], &mut rng));
        }
    }
    cases
}

/// Our verdict, through the library API every command uses, and the error when invalid.
fn ours(case: &Case) -> (bool, String) {
    let scheme = scheme::build(case.reference.kind, &SchemeOptions::default());
    let key = match scheme.key(&Secret::new(case.secret.as_bytes().to_vec()).unwrap()) {
        Ok(key) => key,
        Err(err) => return (false, err.to_string()),
    };
    let mut headers = HeaderMap::new();
    for (name, value) in &case.headers {
        headers.insert(HeaderName::from_bytes(name.as_bytes()).unwrap(), HeaderValue::from_str(value).unwrap());
    }
    let window = TimeWindow { now: case.now, tolerance: Duration::from_secs(TOLERANCE as u64) };
    match scheme.verify(&headers, &case.body, &key, window) {
        Ok(verified) => (true, verified.note.unwrap_or_else(|| "valid".into())),
        Err(err) => (false, err.to_string()),
    }
}

/// Runs `command` as a reference runner: every case in on stdin (from a thread, so neither pipe
/// fills up), every verdict out on stdout.
fn run_runner(mut command: Command, cases: &[&Case]) -> HashMap<usize, (bool, String)> {
    let mut child: Child = command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .unwrap_or_else(|err| panic!("cannot start the reference runner {command:?}: {err}"));
    let lines: Vec<String> = cases
        .iter()
        .map(|case| {
            let headers: serde_json::Map<String, Value> =
                case.headers.iter().map(|(name, value)| (name.clone(), Value::from(value.clone()))).collect();
            json!({
                "case": case.id,
                "reference": case.reference.runner,
                "scheme": case.reference.kind.name(),
                "secret": case.secret,
                "headers": headers,
                "body_b64": BASE64.encode(&case.body),
                "now": case.now,
            })
            .to_string()
        })
        .collect();
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || {
        for line in lines {
            writeln!(stdin, "{line}").unwrap();
        }
    });
    let mut verdicts = HashMap::new();
    for line in BufReader::new(child.stdout.take().unwrap()).lines() {
        let answer: Value = serde_json::from_str(&line.unwrap()).unwrap();
        let id = answer["case"].as_u64().unwrap() as usize;
        verdicts.insert(id, (answer["valid"].as_bool().unwrap(), answer["detail"].as_str().unwrap_or("").to_string()));
    }
    writer.join().unwrap();
    assert!(child.wait().unwrap().success(), "the reference runner {command:?} failed");
    assert_eq!(verdicts.len(), cases.len(), "the reference runner {command:?} answered only some cases");
    verdicts
}

/// A row of docs/sign-verify.md's table of intended differences.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Intended {
    reference: String,
    kind: String,
    ours: bool,
    theirs: bool,
    why: String,
}

/// The table in docs/sign-verify.md under "## Fidelity to the providers' libraries" whose header starts
/// `| scheme/reference | case kind | ours | reference | why |`.
fn intended_differences() -> Vec<Intended> {
    let page = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/sign-verify.md")).unwrap();
    let section = page
        .split_once("## Fidelity to the providers' libraries")
        .expect("docs/sign-verify.md has the section \"## Fidelity to the providers' libraries\"")
        .1;
    let table = section
        .split_once("| scheme/reference | case kind | ours | reference | why |")
        .expect("the section has the table of intended differences")
        .1;
    let verdict = |cell: &str| match cell {
        "valid" => true,
        "invalid" => false,
        other => panic!("docs/sign-verify.md table: a verdict is `valid` or `invalid`, not `{other}`"),
    };
    table
        .lines()
        .skip(2) // the rest of the header line, and the separator
        .take_while(|line| line.starts_with('|'))
        .map(|line| {
            let cells: Vec<String> =
                line.trim_matches('|').split(" | ").map(|cell| cell.trim().trim_matches('`').to_string()).collect();
            assert_eq!(cells.len(), 5, "docs/sign-verify.md table row with 5 cells expected: {line}");
            Intended {
                reference: cells[0].clone(),
                kind: cells[1].clone(),
                ours: verdict(&cells[2]),
                theirs: verdict(&cells[3]),
                why: cells[4].clone(),
            }
        })
        .collect()
}

#[test]
fn our_verifier_agrees_with_the_providers_libraries_except_where_the_readme_says_why() {
    let installed = references();
    let cases = all_cases();
    let (node_cases, python_cases): (Vec<&Case>, Vec<&Case>) = cases.iter().partition(|case| case.reference.node);
    let mut python = Command::new(&installed.python);
    python.arg(installed.scripts.join("reference.py"));
    let mut node = Command::new("node");
    node.arg(installed.scripts.join("reference.mjs")).arg(&installed.node_dir);
    let (python_verdicts, node_verdicts) = std::thread::scope(|scope| {
        let python = scope.spawn(|| run_runner(python, &python_cases));
        let node = run_runner(node, &node_cases);
        (python.join().unwrap(), node)
    });

    let intended = intended_differences();
    let mut seen_rows = vec![0usize; intended.len()];
    // (reference, kind, ours, theirs) → how many cases, and the first one in full.
    let mut unexplained: BTreeMap<(&str, &str, bool, bool), (usize, String)> = BTreeMap::new();
    // reference → (cases, agreements, intended differences)
    let mut counts: BTreeMap<&str, (usize, usize, usize)> = BTreeMap::new();
    for case in &cases {
        let (theirs, detail) = python_verdicts.get(&case.id).or_else(|| node_verdicts.get(&case.id)).unwrap();
        let (ours, our_detail) = ours(case);
        let count = counts.entry(case.reference.name).or_default();
        count.0 += 1;
        if ours == *theirs {
            count.1 += 1;
            continue;
        }
        let row = intended.iter().position(|row| {
            row.reference == case.reference.name && row.kind == case.kind && row.ours == ours && row.theirs == *theirs
        });
        match row {
            Some(row) => {
                seen_rows[row] += 1;
                count.2 += 1;
            }
            None => {
                let group = unexplained.entry((case.reference.name, case.kind, ours, *theirs)).or_default();
                group.0 += 1;
                if group.1.is_empty() {
                    let body = String::from_utf8_lossy(&case.body);
                    group.1 = format!(
                        "case {}: ours: {our_detail}; the library: {detail}; headers {:?}; body {:?}",
                        case.id,
                        case.headers,
                        body.chars().take(80).collect::<String>()
                    );
                }
            }
        }
    }
    for (reference, (total, agreed, documented)) in &counts {
        println!("differential: {reference}: {total} cases, {agreed} agree, {documented} differ as documented");
    }
    let total: usize = counts.values().map(|count| count.0).sum();
    let agreed: usize = counts.values().map(|count| count.1).sum();
    let unexplained_cases: usize = unexplained.values().map(|group| group.0).sum();
    println!(
        "differential: all: {total} cases, {agreed} agree, {} differ as documented, {unexplained_cases} unexplained",
        total - agreed - unexplained_cases
    );

    let stale: Vec<String> = intended
        .iter()
        .zip(&seen_rows)
        .filter(|(_, seen)| **seen == 0)
        .map(|(row, _)| format!("{} | {} ({})", row.reference, row.kind, row.why))
        .collect();
    let verdict = |valid: bool| if valid { "valid" } else { "invalid" };
    let groups: Vec<String> = unexplained
        .iter()
        .map(|((reference, kind, ours, theirs), (count, example))| {
            format!("| {reference} | {kind} | {} | {} | ({count} cases; {example})", verdict(*ours), verdict(*theirs))
        })
        .collect();
    assert!(
        unexplained.is_empty(),
        "{unexplained_cases} disagreements with the providers' libraries that docs/sign-verify.md's table of intended \
         differences does not list (fix the verifier, or add a row with the reason):\n{}",
        groups.join("\n")
    );
    assert!(
        stale.is_empty(),
        "docs/sign-verify.md lists differences that no case shows any more; remove them:\n{}",
        stale.join("\n")
    );
}

/// A receiver built on a provider's library (tests/differential/receivers), killed when dropped.
struct LibraryReceiver {
    child: Child,
    port: u16,
}

impl LibraryReceiver {
    fn start(mut command: Command, secret: &str) -> LibraryReceiver {
        let mut child = command
            .env("WEBHOOK_SECRET", secret)
            .env("KNOWN_TYPES", "invoice.paid,invoice.created,invoice.updated")
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .unwrap_or_else(|err| panic!("cannot start the receiver {command:?}: {err}"));
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap()).read_line(&mut line).unwrap();
        let port = line.trim().parse().unwrap_or_else(|_| panic!("the receiver {command:?} printed no port: {line:?}"));
        LibraryReceiver { child, port }
    }

    fn python(mode: &str, secret: &str) -> LibraryReceiver {
        let installed = references();
        let mut command = Command::new(&installed.python);
        command.arg(installed.scripts.join("receivers/receiver.py")).arg(mode);
        LibraryReceiver::start(command, secret)
    }

    fn node(mode: &str, secret: &str) -> LibraryReceiver {
        let installed = references();
        let mut command = Command::new("node");
        command.arg(installed.scripts.join("receivers/receiver.mjs")).arg(&installed.node_dir).arg(mode);
        LibraryReceiver::start(command, secret)
    }

    fn url(&self) -> String {
        format!("http://127.0.0.1:{}/webhooks", self.port)
    }
}

impl Drop for LibraryReceiver {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

const STANDARD_SECRET: &str = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";

/// `webhook check --format json` against `receiver`: exit code, outcomes by id, the report.
fn check(receiver: &LibraryReceiver, scheme: &str, secret: &str) -> (i32, HashMap<String, String>, Value) {
    check_with(receiver, scheme, secret, &[])
}

fn check_with(
    receiver: &LibraryReceiver,
    scheme: &str,
    secret: &str,
    extra: &[&str],
) -> (i32, HashMap<String, String>, Value) {
    let (code, report) =
        Run::webhook(["check", &receiver.url(), "--scheme", scheme, "--secret", secret, "--format", "json"])
            .args(extra)
            .code_and_json();
    let mut outcomes = suite_outcomes(&report);
    // None of these providers (Stripe, Standard Webhooks, GitHub, Shopify, hmac) validates an
    // endpoint with a handshake or signs with a certificate named by URL: those checks are skipped
    // here, and judged in webhook/check.rs and webhook/check_cert_pinning.rs.
    for id in ["handshake-answered", "forged-handshake-refused", "cert-url-pinned"] {
        if outcomes.get(id).map(String::as_str) == Some("skip") {
            outcomes.remove(id);
        }
    }
    (code, outcomes, report)
}

#[test]
fn webhook_check_passes_receivers_built_on_each_providers_library() {
    let timestamped = |future: &'static str| {
        vec![("stale-timestamp-rejected", "pass"), ("future-timestamp-rejected", future), ("replay-rejected", "pass")]
    };
    let untimed =
        vec![("stale-timestamp-rejected", "skip"), ("future-timestamp-rejected", "skip"), ("replay-rejected", "skip")];
    let receivers = [
        // stripe-python accepts a timestamp ahead of the clock, so that check only warns.
        (
            "stripe (stripe-python)",
            LibraryReceiver::python("stripe", "whsec_stripe_test_secret"),
            "stripe",
            "whsec_stripe_test_secret",
            timestamped("warn"),
        ),
        (
            "standard (standardwebhooks, Python)",
            LibraryReceiver::python("standard", STANDARD_SECRET),
            "standard",
            STANDARD_SECRET,
            timestamped("pass"),
        ),
        (
            "standard (standardwebhooks, Node)",
            LibraryReceiver::node("standard", STANDARD_SECRET),
            "standard",
            STANDARD_SECRET,
            timestamped("pass"),
        ),
        (
            "standard (svix)",
            LibraryReceiver::python("svix", STANDARD_SECRET),
            "standard",
            STANDARD_SECRET,
            timestamped("pass"),
        ),
        (
            "slack (slack_sdk)",
            LibraryReceiver::python("slack", "8f742231b10e8888abcd99yyyzzz85a5"),
            "slack",
            "8f742231b10e8888abcd99yyyzzz85a5",
            timestamped("pass"),
        ),
        (
            "github (@octokit/webhooks-methods)",
            LibraryReceiver::node("github", "It's a Secret to Everybody"),
            "github",
            "It's a Secret to Everybody",
            untimed.clone(),
        ),
        (
            "shopify (documented HMAC)",
            LibraryReceiver::python("shopify", "shpss_test_secret"),
            "shopify",
            "shpss_test_secret",
            untimed.clone(),
        ),
    ];
    for (name, receiver, scheme, secret, timestamps) in &receivers {
        let (code, outcomes, report) = check(receiver, scheme, secret);
        // Only Stripe's and Slack's keys can be confused with an untimestamped scheme's.
        let cross_scheme = if matches!(*scheme, "stripe" | "slack") { "pass" } else { "skip" };
        // Only Standard Webhooks' and Stripe's signature headers carry a list.
        let listed = if matches!(*scheme, "stripe" | "standard") { "pass" } else { "skip" };
        for (id, outcome) in &outcomes {
            let expected = match timestamps.iter().find(|(check, _)| check == id) {
                Some((_, outcome)) => *outcome,
                None if id == "cross-scheme-replay-rejected" => cross_scheme,
                // No --count-url here: de-duplication cannot be proven, so it is skipped.
                None if id.ends_with("processed-once") => "skip",
                None if id == "any-listed-signature-accepted" => listed,
                None => "pass",
            };
            assert_eq!(outcome, expected, "{name}: check {id}: {report:#}");
        }
        // Slack's handshake checks ran (and passed, above); the other providers have none.
        assert_eq!(outcomes.keys().filter(|id| !id.contains("handshake")).count(), 17, "{name}: {outcomes:?}");
        assert_eq!(code, 0, "{name}: {report:#}");
        if timestamps[1].1 == "warn" {
            let evidence = suite_evidence(&report, "future-timestamp-rejected");
            assert!(evidence.contains("stripe's own SDK accepts future timestamps"), "{evidence}");
        }
    }
}

#[test]
fn webhook_check_fails_a_receiver_that_verifies_a_reserialised_body() {
    let receiver = LibraryReceiver::python("reserialising", STANDARD_SECRET);
    let (code, outcomes, report) = check(&receiver, "standard", STANDARD_SECRET);
    assert_eq!(code, 1, "{report:#}");
    let failed: Vec<&String> = outcomes.iter().filter(|(_, outcome)| *outcome == "fail").map(|(id, _)| id).collect();
    assert_eq!(failed, ["raw-body-verified"], "only the raw-body check fails: {report:#}");
    let evidence = suite_evidence(&report, "raw-body-verified");
    assert!(evidence.contains("400 Bad Request"), "{evidence}");
    assert!(evidence.contains("the receiver verifies a re-serialised body, not the raw bytes"), "{evidence}");
}

/// The `fix` a failed or warned check carries.
fn check_fix(report: &Value, id: &str) -> String {
    let check = report["checks"].as_array().unwrap().iter().find(|check| check["id"] == id).unwrap();
    check["fix"].as_str().unwrap_or_default().to_string()
}

/// The checks that are not `pass` in `outcomes`, sorted, as `id=outcome`.
fn not_passed(outcomes: &HashMap<String, String>) -> Vec<String> {
    let mut found: Vec<String> = outcomes
        .iter()
        .filter(|(_, outcome)| *outcome != "pass")
        .map(|(id, outcome)| format!("{id}={outcome}"))
        .collect();
    found.sort();
    found
}

#[test]
fn each_receiver_mistake_check_fails_a_library_receiver_with_that_very_flaw() {
    let skip = "cross-scheme-replay-rejected=skip".to_string();
    // Without --count-url, de-duplication cannot be proven: skipped with the hint.
    let dedupe = "duplicate-processed-once=skip".to_string();
    let racing = "concurrent-duplicates-processed-once=skip".to_string();
    // Verifies only the first entry of webhook-signature: refuses the list a rotation sends.
    let receiver = LibraryReceiver::python("first-signature-only", STANDARD_SECRET);
    let (code, outcomes, report) = check(&receiver, "standard", STANDARD_SECRET);
    assert_eq!(
        not_passed(&outcomes),
        ["any-listed-signature-accepted=fail".to_string(), racing.clone(), skip.clone(), dedupe.clone()],
        "{report:#}"
    );
    assert_eq!(code, 1);
    let evidence = suite_evidence(&report, "any-listed-signature-accepted");
    assert!(evidence.contains("400 Bad Request"), "{evidence}");
    assert!(check_fix(&report, "any-listed-signature-accepted").starts_with("try every entry"), "{report:#}");

    // Compares by prefix: half a signature, and `v1,` alone, pass.
    let receiver = LibraryReceiver::python("prefix-compare", STANDARD_SECRET);
    let (code, outcomes, report) = check(&receiver, "standard", STANDARD_SECRET);
    assert_eq!(
        not_passed(&outcomes),
        [racing.clone(), skip.clone(), dedupe.clone(), "truncated-signature-rejected=fail".to_string()],
        "{report:#}"
    );
    assert_eq!(code, 1);
    let evidence = suite_evidence(&report, "truncated-signature-rejected");
    assert!(evidence.contains("cut in half → 200 OK") && evidence.contains("`v1,` → 200 OK"), "{evidence}");

    // Refuses types it does not handle: the suite's own event type fails valid-accepted and the
    // mistake checks cannot judge; with --event it handles, only the unknown type warns.
    let receiver = LibraryReceiver::python("known-types", STANDARD_SECRET);
    let (code, outcomes, report) = check(&receiver, "standard", STANDARD_SECRET);
    assert_eq!(outcomes.get("valid-accepted").map(String::as_str), Some("fail"), "{report:#}");
    assert_eq!(outcomes["unknown-event-acknowledged"], "skip");
    assert!(suite_evidence(&report, "unknown-event-acknowledged").contains("could not judge"));
    assert_eq!(code, 1);
    let (code, outcomes, report) =
        check_with(&receiver, "standard", STANDARD_SECRET, &["--event", "invoice.paid", "-d", r#"{"amount":5}"#]);
    assert_eq!(
        not_passed(&outcomes),
        [racing.clone(), skip.clone(), dedupe.clone(), "unknown-event-acknowledged=warn".to_string()],
        "{report:#}"
    );
    assert_eq!(code, 0, "an advisory warning does not fail the suite: {report:#}");
    let evidence = suite_evidence(&report, "unknown-event-acknowledged");
    assert!(evidence.contains("400 Bad Request") && evidence.contains("disables the endpoint"), "{evidence}");
    let (code, outcomes, _) = check_with(
        &receiver,
        "standard",
        STANDARD_SECRET,
        &["-d", r#"{"id":"evt_1","type":"invoice.paid","data":{}}"#],
    );
    assert_eq!(outcomes["valid-accepted"], "pass", "-d chooses the body as is");
    assert_eq!(code, 0);

    // Refuses an update for an object it has not seen created.
    let receiver = LibraryReceiver::python("requires-order", STANDARD_SECRET);
    let (code, outcomes, report) = check(&receiver, "standard", STANDARD_SECRET);
    assert_eq!(not_passed(&outcomes), [racing, skip, dedupe, "out-of-order-accepted=warn".to_string()], "{report:#}");
    assert_eq!(code, 0);
    let evidence = suite_evidence(&report, "out-of-order-accepted");
    assert!(evidence.contains("customer.updated of obj_") && evidence.contains("409 Conflict"), "{evidence}");
}

/// A `whsk_`/`whpk_` pair from `webhook secret --scheme standard --asymmetric --format json`.
fn asymmetric_pair() -> (String, String) {
    let output =
        webhook().args(["secret", "--scheme", "standard", "--asymmetric", "--format", "json"]).output().unwrap();
    let document: Value = serde_json::from_slice(&output.stdout).unwrap();
    crate::support::schemas::validate(&document);
    (document["secret"].as_str().unwrap().to_string(), document["public"].as_str().unwrap().to_string())
}

#[test]
fn webhook_check_passes_a_v1a_receiver_on_nodes_own_ed25519_and_fails_it_with_another_key() {
    let (secret, public) = asymmetric_pair();
    let receiver = LibraryReceiver::node("v1a", &public);
    let (code, outcomes, report) = check(&receiver, "standard", &secret);
    assert_eq!(
        not_passed(&outcomes),
        [
            "concurrent-duplicates-processed-once=skip".to_string(),
            "cross-scheme-replay-rejected=skip".to_string(),
            "duplicate-processed-once=skip".to_string()
        ],
        "{report:#}"
    );
    assert_eq!(code, 0);
    let (other, _) = asymmetric_pair();
    let (code, outcomes, _) = check(&receiver, "standard", &other);
    assert_eq!((code, outcomes["valid-accepted"].as_str()), (1, "fail"));
}

#[test]
fn v1a_signatures_made_by_nodes_ed25519_verify_with_ours_and_a_changed_body_does_not() {
    let (secret, public) = asymmetric_pair();
    let timestamp = idem::testing::delivery::unix_now().to_string();
    let body = r#"{"type":"invoice.paid"}"#;
    let output = std::process::Command::new("node")
        // Signs like a v1a sender would, with Node's built-in Ed25519; prints the webhook-signature value.
        .arg(crate::support::apps::app_path("standard_webhooks_v1a_signer.mjs"))
        .args([&secret, "msg_v1a", &timestamp, body])
        .output()
        .unwrap();
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let signature = String::from_utf8(output.stdout).unwrap();
    let verify = |body: &str| {
        webhook()
            .args(["verify", "--scheme", "standard", "--public-key", &public, "-d", body])
            .args(["-H", "webhook-id: msg_v1a", "-H", &format!("webhook-timestamp: {timestamp}")])
            .args(["-H", &format!("webhook-signature: {signature}")])
            .output()
            .unwrap()
    };
    // The header mixes a v1 entry the public key cannot check (skipped) with the v1a one.
    let valid = verify(body);
    assert_eq!(valid.status.code(), Some(0), "{}", String::from_utf8_lossy(&valid.stdout));
    assert_eq!(verify(r#"{"type":"invoice.paid" }"#).status.code(), Some(1));
}

/// Every GitHub template, filled as `webhook sign --event` fills it, is valid against GitHub's
/// payload schemas as octokit publishes them: a receiver that validates or types its input on
/// them (the octokit libraries do) must accept what `webhook send --event github:…` sends.
#[test]
fn github_templates_match_octokits_published_payload_schemas() {
    let installed = references();
    let listed = webhook().args(["send", "--list-events", "github", "--format", "json"]).output().unwrap();
    let listed: Value = serde_json::from_slice(&listed.stdout).expect("the template list");
    let events: Vec<String> =
        listed["templates"].as_array().unwrap().iter().map(|t| t["event"].as_str().unwrap().to_string()).collect();
    assert!(events.len() >= 6, "{events:?}");
    let mut input = String::new();
    for event in &events {
        let signed = webhook()
            .args(["sign", "--event", &format!("github:{event}"), "--secret", "s", "--format", "json"])
            .output()
            .unwrap();
        assert!(signed.status.success(), "{event}: {}", String::from_utf8_lossy(&signed.stderr));
        let signed: Value = serde_json::from_slice(&signed.stdout).unwrap();
        let body: Value = serde_json::from_str(signed["body"].as_str().unwrap()).unwrap();
        input.push_str(&json!({ "event": event, "body": body }).to_string());
        input.push('\n');
    }
    let mut node = Command::new("node")
        .arg(installed.scripts.join("github_schemas.mjs"))
        .arg(&installed.node_dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("node runs");
    node.stdin.take().unwrap().write_all(input.as_bytes()).unwrap();
    let output = node.wait_with_output().unwrap();
    assert!(output.status.success());
    let verdicts: Vec<Value> =
        String::from_utf8(output.stdout).unwrap().lines().map(|line| serde_json::from_str(line).unwrap()).collect();
    assert_eq!(verdicts.len(), events.len());
    for verdict in &verdicts {
        assert_eq!(
            verdict["valid"], true,
            "github:{} against octokit's {}: {:#}",
            verdict["event"], verdict["schema"], verdict["errors"]
        );
    }
}
