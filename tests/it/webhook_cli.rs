//! The `webhook` command line: clap's own consistency checks, and the committed completion scripts,
//! which must match what the definitions generate (`REGENERATE_COMPLETIONS=1 cargo test completions`
//! rewrites them).
use std::path::Path;

use clap::CommandFactory;
use idem::cli::webhook::WebhookCli;

use crate::support::webhook;

#[test]
fn the_cli_definition_is_consistent() {
    WebhookCli::command().debug_assert();
}

#[test]
fn committed_completions_are_up_to_date() {
    crate::completions::check_completions(WebhookCli::command);
}

#[test]
fn the_completions_command_prints_the_committed_script() {
    let committed = Path::new(env!("CARGO_MANIFEST_DIR")).join("completions").join("webhook.bash");
    let printed = webhook().args(["completions", "bash"]).assert().code(0).get_output().stdout.clone();
    let committed = std::fs::read_to_string(committed).unwrap_or_default();
    assert!(
        committed == String::from_utf8_lossy(&printed),
        "`webhook completions bash` differs from the committed script"
    );
}

#[test]
fn help_never_shows_a_secret_from_the_environment() {
    let output = webhook().env("WEBHOOK_SECRET", "env-secret-value").args(["sign", "--help"]).assert().code(0);
    assert!(!String::from_utf8_lossy(&output.get_output().stdout).contains("env-secret-value"));
}
