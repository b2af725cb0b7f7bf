//! The `webhook` command line as a user meets it (what is generated from it is checked in
//! `completions.rs`).
use crate::support::webhook;

#[test]
fn help_never_shows_a_secret_from_the_environment() {
    let output = webhook().env("WEBHOOK_SECRET", "env-secret-value").args(["sign", "--help"]).assert().code(0);
    assert!(!String::from_utf8_lossy(&output.get_output().stdout).contains("env-secret-value"));
}
