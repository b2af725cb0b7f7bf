//! Malformed input through the real binary: a clear error and exit 2 when the tool cannot judge,
//! exit 1 when the request under test is what is wrong, never a panic, and never the secret in
//! any output.
use predicates::str::contains;

use crate::support::run::Run;
use crate::support::webhook;

/// Distinctive, so finding it in an output cannot be a coincidence; valid base64 so every scheme
/// accepts it.
const SECRET: &str = "S3cr3tDoNotPrint9f8e7dAB";

/// Runs `args` with the secret on the command line and checks the exit code, that no panic
/// happened, that the secret is not in stdout or stderr, and that stderr says `message`.
fn run_expecting(args: &[&str], stdin: &[u8], code: i32, message: &str) {
    let finished =
        Run::webhook(args).args(["--secret", SECRET]).stdin(stdin).never_printing(SECRET).expect_exit(code).finish();
    assert!(!finished.stderr.contains("panicked"), "panic for {args:?}: {}", finished.stderr);
    assert!(
        finished.stdout.contains(message) || finished.stderr.contains(message),
        "{args:?} should say {message:?}: {}",
        finished.stderr
    );
}

#[test]
fn garbage_header_lines_cannot_be_judged() {
    run_expecting(&["verify", "--scheme", "hmac", "-d", "x", "-H", "no colon here"], b"", 2, "has no colon");
    run_expecting(&["verify", "--scheme", "hmac", "-d", "x", "-H", "bad name: v"], b"", 2, "not a valid header name");
    let auto = ["verify", "--scheme", "auto", "--allow", "github,standard", "-d", "x", "-H", "X-Other: 1"];
    run_expecting(&auto, b"", 2, "no signature header of an allowed scheme");
}

#[test]
fn malformed_signature_headers_are_an_invalid_request() {
    let verify = |scheme: &str, header: &str, message: &str| {
        run_expecting(&["verify", "--scheme", scheme, "-d", "x", "-H", header], b"", 1, message);
    };
    verify("hmac", "X-Signature: md5=abc", "does not start with `sha256=`");
    verify("shopify", "X-Shopify-Hmac-Sha256: ***", "is not base64");
    verify("stripe", "Stripe-Signature: v1=00", "no `t=` timestamp");
    let standard = ["-H", "webhook-id: a", "-H", "webhook-timestamp: soon", "-H", "webhook-signature: v1,AA=="];
    run_expecting(
        &[&["verify", "--scheme", "standard", "-d", "x"][..], &standard[..]].concat(),
        b"",
        1,
        "not a Unix timestamp",
    );
}

#[test]
fn a_secret_that_is_not_base64_cannot_key_standard_webhooks() {
    let args = ["sign", "--scheme", "standard", "-d", "x"];
    let assert = webhook().args(args).args(["--secret", "whsec_!!not-base64!!"]).assert().code(2);
    let stderr = String::from_utf8_lossy(&assert.get_output().stderr).into_owned();
    assert!(stderr.contains("not `whsec_` followed by base64") && !stderr.contains("!!not-base64!!"), "{stderr}");
}

#[test]
fn empty_and_missing_secrets_are_usage_errors() {
    webhook().args(["sign", "-d", "x", "--secret", ""]).assert().code(2).stderr(contains("the secret is empty"));
    webhook().args(["sign", "-d", "x"]).assert().code(2).stderr(contains("no signing secret"));
    webhook().env("WEBHOOK_SECRET", "").args(["sign", "-d", "x"]).assert().code(2).stderr(contains("empty"));
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("empty");
    std::fs::write(&file, "\n").unwrap();
    webhook().args(["sign", "-d", "x", "--secret-file"]).arg(&file).assert().code(2).stderr(contains("no secret"));
    // Without --secret, so it is the unreadable file that is reported, not a flag conflict.
    let assert = webhook().args(["sign", "-d", "x", "--secret-file", "/no/such/secret"]).assert().code(2);
    let stderr = String::from_utf8_lossy(&assert.get_output().stderr).into_owned();
    assert!(stderr.contains("/no/such/secret") && !stderr.contains("give the secret once"), "{stderr}");
}

#[test]
fn non_utf8_bodies_sign_and_verify_but_cannot_be_a_curl_argument() {
    let body = [0xff, 0xfe, 0x00, 0x80, b'\n'];
    run_expecting(&["sign", "-d", "@-"], &body, 0, "X-Signature: sha256=");
    let args = ["sign", "-d", "@-", "--format", "curl", "--url", "http://h/"];
    run_expecting(&args, &body, 2, "save it to a file");
    run_expecting(&["sign", "--event", "e", "--data", "@-"], &body, 2, "--data must be JSON");
}

#[test]
fn huge_bodies_are_signed_and_verified_from_a_file() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("huge.json");
    let mut body = b"{\"filler\":\"".to_vec();
    body.resize(24 * 1024 * 1024, b'a');
    body.extend_from_slice(b"\"}");
    std::fs::write(&path, &body).unwrap();
    let file_arg = format!("@{}", path.display());
    run_expecting(&["sign", "-d", &file_arg], b"", 0, "X-Signature");
    let zeros = format!("X-Signature: sha256={}", "0".repeat(64));
    let tampered = ["verify", "--scheme", "hmac", "-d", &file_arg, "-H", &zeros];
    run_expecting(&tampered, b"", 1, "signature does not match");
}

#[test]
fn unreadable_inputs_are_named() {
    run_expecting(&["sign", "-d", "@/no/such/body.json"], b"", 2, "/no/such/body.json");
    run_expecting(
        &["verify", "--scheme", "hmac", "--request", "/no/such/request.http"],
        b"",
        2,
        "/no/such/request.http",
    );
    let dir = tempfile::tempdir().unwrap();
    let garbage = dir.path().join("garbage.http");
    std::fs::write(&garbage, b"\x00\x01 not http at all\r\n\r\n").unwrap();
    let garbage_arg = garbage.display().to_string();
    run_expecting(&["verify", "--scheme", "hmac", "--request", &garbage_arg], b"", 2, "not an HTTP/1.x request");
}

#[test]
fn bad_usage_exits_2() {
    run_expecting(&["sign", "-d", "x", "--timestamp", "yesterday"], b"", 2, "invalid value");
    // A provider no scheme describes (paypal was one such until it became a scheme).
    run_expecting(&["sign", "-d", "x", "--scheme", "venmo"], b"", 2, "invalid value");
    run_expecting(&["sign", "-d", "x", "--scheme", "paypal"], b"", 2, "--webhook-id");
    run_expecting(&["sign"], b"", 2, "required");
    run_expecting(&["sign", "-d", "x", "--scheme", "github", "--prefix", "v1="], b"", 2, "--scheme hmac only");
    run_expecting(&["sign", "-d", "x", "--id", "a\u{7f}b", "--scheme", "standard"], b"", 2, "cannot be sent");
    run_expecting(&["verify", "-d", "x", "--tolerance", "5"], b"", 2, "not a duration");
}

#[test]
fn verify_and_listen_need_the_scheme_named() {
    run_expecting(&["verify", "-d", "x", "-H", "X-Signature: sha256=00"], b"", 2, "name the sender's signing scheme");
    run_expecting(&["verify", "--scheme", "auto", "-d", "x"], b"", 2, "--scheme auto needs --allow");
    let confusable = ["verify", "--scheme", "auto", "--allow", "github,stripe", "-d", "x", "-H", "X-Signature: x"];
    run_expecting(&confusable, b"", 2, "--allow stripe,github is refused");
    run_expecting(&["verify", "--scheme", "github", "--allow", "github", "-d", "x"], b"", 2, "--allow goes with");
    run_expecting(&["listen", "--addr", "127.0.0.1:0"], b"", 2, "name the sender's signing scheme");
    run_expecting(&["listen", "--scheme", "auto", "--allow", "slack,shopify"], b"", 2, "is refused");
    run_expecting(&["listen", "--scheme", "stripe", "--max-body", "0"], b"", 2, "--max-body 0");
}

#[test]
fn a_journal_that_is_not_a_regular_file_is_refused_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("fifo");
    let made = std::process::Command::new("mkfifo").arg(&fifo).status().expect("mkfifo runs");
    assert!(made.success());
    let record = fifo.display().to_string();
    // Without the check, opening a FIFO for writing blocks until a reader comes: the test would hang.
    run_expecting(
        &["listen", "--scheme", "stripe", "--addr", "127.0.0.1:0", "--record", &record],
        b"",
        2,
        "not a regular file",
    );
}

#[test]
fn a_secret_given_with_a_leading_dash_is_not_mistaken_for_a_flag() {
    let assert = webhook().args(["sign", "-d", "x", "--secret", "-abc-secret-value"]).assert().code(0);
    let output = assert.get_output();
    assert!(!String::from_utf8_lossy(&output.stdout).contains("-abc-secret-value"));
}
