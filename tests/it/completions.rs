//! The committed completion scripts match what the CLI generates, and the CLI definition is sound.
use clap::CommandFactory;
use idem::cli::completions::{SHELLS, file_name, generate};
use idem::cli::idem::IdemCli;

/// Compares every shell's script for `command` with `completions/`; `REGENERATE_COMPLETIONS=1`
/// rewrites them instead.
pub fn check_completions(command: fn() -> clap::Command) {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("completions");
    let regenerate = std::env::var_os("REGENERATE_COMPLETIONS").is_some();
    for shell in SHELLS {
        let cmd = command();
        let path = dir.join(file_name(shell, cmd.get_name()));
        let script = generate(shell, cmd);
        if regenerate {
            std::fs::create_dir_all(&dir).unwrap();
            std::fs::write(&path, &script).unwrap();
            continue;
        }
        let committed = std::fs::read(&path).unwrap_or_default();
        assert!(
            committed == script,
            "{} is stale: run `REGENERATE_COMPLETIONS=1 cargo test completions` and commit it",
            path.display()
        );
    }
}

#[test]
fn idem_completions_are_fresh() {
    check_completions(IdemCli::command);
}

#[test]
fn idem_cli_definition_is_sound() {
    IdemCli::command().debug_assert();
}

#[test]
fn idem_completions_command_prints_the_script() {
    crate::support::idem().args(["completions", "bash"]).assert().success().stdout(predicates::str::contains("_idem"));
}
