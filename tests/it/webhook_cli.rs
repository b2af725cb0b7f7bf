//! The `webhook` command line: clap's own consistency checks, and the committed completion scripts,
//! which must match what the definitions generate (set REGENERATE_COMPLETIONS=1 to rewrite them).
use std::path::Path;

use clap::CommandFactory;
use idem::cli::completions::{SHELLS, file_name, generate};
use idem::cli::webhook::WebhookCli;

use crate::support::webhook;

#[test]
fn the_cli_definition_is_consistent() {
    WebhookCli::command().debug_assert();
}

#[test]
fn committed_completions_are_up_to_date() {
    let directory = Path::new(env!("CARGO_MANIFEST_DIR")).join("completions");
    let regenerate = std::env::var_os("REGENERATE_COMPLETIONS").is_some_and(|value| value == "1");
    let mut stale = Vec::new();
    for shell in SHELLS {
        let path = directory.join(file_name(shell, "webhook"));
        let script = generate(shell, WebhookCli::command());
        if regenerate {
            std::fs::create_dir_all(&directory).unwrap();
            std::fs::write(&path, &script).unwrap();
        } else if std::fs::read(&path).ok().as_deref() != Some(script.as_slice()) {
            stale.push(path.display().to_string());
        }
    }
    assert!(
        stale.is_empty(),
        "completion scripts are missing or stale: {stale:?}; run `REGENERATE_COMPLETIONS=1 cargo test webhook_cli` and commit"
    );
}

#[test]
fn the_completions_command_prints_the_committed_script() {
    let committed = Path::new(env!("CARGO_MANIFEST_DIR")).join("completions").join("webhook.bash");
    let printed = webhook().args(["completions", "bash"]).assert().code(0).get_output().stdout.clone();
    assert_eq!(std::fs::read(committed).ok(), Some(printed));
}

#[test]
fn help_never_shows_a_secret_from_the_environment() {
    let output = webhook().env("WEBHOOK_SECRET", "env-secret-value").args(["sign", "--help"]).assert().code(0);
    assert!(!String::from_utf8_lossy(&output.get_output().stdout).contains("env-secret-value"));
}
