//! Input that would exhaust memory or leak a secret is refused with the reason and exit 2.
use crate::support::{idem, webhook};

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

/// Values that would switch a protection off are refused with exit 2, and the message names the
/// bound.
#[test]
fn huge_durations_and_counts_are_refused_naming_the_bound() {
    let cases: &[(bool, &[&str], &str)] = &[
        (false, &["listen", "--secret", "s", "--addr", "127.0.0.1:0", "--idle-timeout", "999999999999h"], "1h"),
        (true, &["serve", "--addr", "127.0.0.1:0", "--lease", "999999999999h"], "24h"),
        (true, &["race", "http://127.0.0.1:1/p", "--stagger", "999999999999h"], "10s"),
        (true, &["proxy", "--upstream", "http://127.0.0.1:1", "--every", "99999999999"], "1000000"),
        (true, &["send", "http://127.0.0.1:1/p", "--max-body", "5GiB"], "1GiB"),
        (false, &["send", "http://127.0.0.1:1/h", "-d", "{}", "--secret", "s", "--backoff", "25h"], "24h"),
        (false, &["sign", "-d", "x", "--secret", "s", "--timestamp", "-5"], "0"),
        (false, &["replay", "/dev/null", "http://127.0.0.1:1/h", "--secret", "s", "--rate", "1/999999h"], "1h"),
    ];
    for (is_idem, args, bound) in cases {
        let mut command = if *is_idem { idem() } else { webhook() };
        let output = command.args(*args).output().expect("runs");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains(bound), "{args:?} should name the bound {bound}: {stderr}");
    }
}
