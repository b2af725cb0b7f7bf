//! The `webhook` command line as a user meets it (what is generated from it is checked in
//! `completions.rs`).
use crate::support::webhook;

#[test]
fn help_never_shows_a_secret_from_the_environment() {
    let output = webhook().env("WEBHOOK_SECRET", "env-secret-value").args(["sign", "--help"]).assert().code(0);
    assert!(!String::from_utf8_lossy(&output.get_output().stdout).contains("env-secret-value"));
}

#[test]
fn listen_help_says_a_forward_that_times_out_gets_504() {
    let output = webhook().args(["listen", "--help"]).assert().code(0);
    let help = String::from_utf8_lossy(&output.get_output().stdout).to_string();
    let forward_timeout = help.split("--forward-timeout").nth(1).unwrap_or_default();
    let its_help: String = forward_timeout.lines().take(4).collect::<Vec<_>>().join(" ");
    assert!(its_help.contains("504") && !its_help.contains("502"), "{its_help}");
}
