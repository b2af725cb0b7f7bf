//! Input that would exhaust memory or leak a secret is refused with the reason and exit 2.
use crate::support::webhook;

#[test]
fn webhook_verify_refuses_an_endless_request_file() {
    let assert = webhook()
        .args(["verify", "--scheme", "hmac", "--secret", "s3cr3t", "--request", "/dev/zero"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains("larger than 64 MiB"));
    assert!(!String::from_utf8_lossy(&assert.get_output().stderr).contains("panicked"));
}

#[test]
fn a_secret_typed_as_a_stray_argument_is_not_echoed() {
    let secret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
    let assert = webhook().args(["check", "http://127.0.0.1:1/hook", secret]).assert().code(2);
    let stderr = String::from_utf8_lossy(&assert.get_output().stderr).into_owned();
    assert!(stderr.contains("unexpected argument"), "{stderr}");
    assert!(!stderr.contains("MfKQ9r8"), "{stderr}");
}

#[test]
fn webhook_replay_refuses_an_endless_device_before_reading_it() {
    webhook()
        .args(["replay", "/dev/zero", "http://127.0.0.1:1/hook", "--scheme", "hmac", "--secret", "s3cr3t"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains("not a regular file"));
}

#[test]
fn negative_durations_are_named_on_every_duration_flag() {
    for args in [
        &["listen", "--scheme", "hmac", "--secret", "s", "--delay", "-1s"][..],
        &["check", "http://127.0.0.1:1/", "--secret", "s", "--timeout", "-1s"],
        &["verify", "--scheme", "hmac", "--secret", "s", "-d", "x", "--tolerance", "-5m"],
    ] {
        webhook().args(args).assert().code(2).stderr(predicates::str::contains("durations are positive"));
    }
}
