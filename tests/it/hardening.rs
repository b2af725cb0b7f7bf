//! Issue 24: the limits that switched protections off, the proxy's loops and stalls, secrets
//! echoed in outputs, what upstream errors say, and the memory `-d @file` costs.
use crate::support::{idem, webhook};

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

#[test]
fn a_backoff_cap_below_the_first_backoff_is_refused() {
    let output = webhook()
        .args(["send", "http://127.0.0.1:1/h", "-d", "{}", "--secret", "s", "--backoff", "10s", "--backoff-max", "1s"])
        .output()
        .expect("runs");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("--backoff-max 1s is below --backoff 10s"), "{stderr}");
}
