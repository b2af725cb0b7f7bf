//! What is generated from the two command lines and committed: completion scripts (`completions/`)
//! and manual pages (`man/`), each checked against a fresh generation, for both binaries alike,
//! plus clap's own consistency check of each definition. `REGENERATE=1 cargo test generated`
//! rewrites the committed files instead of comparing.
use std::path::Path;

use clap::CommandFactory;
use idem::testing::cli::IdemCli;
use idem::testing::cli::WebhookCli;
use idem::testing::cli::man;
use idem::testing::cli::{SHELLS, file_name, generate};

use crate::support::generated_files::{check_fresh, check_holds_exactly};

const CLIS: [fn() -> clap::Command; 2] = [IdemCli::command, WebhookCli::command];

#[test]
fn generated_cli_definitions_are_sound() {
    for cli in CLIS {
        cli().debug_assert();
    }
}

#[test]
fn generated_completions_are_fresh() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("completions");
    for cli in CLIS {
        for shell in SHELLS {
            let command = cli();
            let path = dir.join(file_name(shell, command.get_name()));
            check_fresh(&path, &generate(shell, command));
        }
    }
}

#[test]
fn generated_man_pages_are_fresh_and_every_page_has_examples() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("man");
    let mut expected = Vec::new();
    for cli in CLIS {
        for page in man::pages(cli()).unwrap() {
            let name = page.file_name.trim_end_matches(".1").to_string();
            assert!(man::has_examples(&name), "the man page {name} has no EXAMPLES: add them in src/cli/man.rs");
            check_fresh(&dir.join(&page.file_name), &page.roff);
            expected.push(page.file_name);
        }
    }
    check_holds_exactly(&dir, expected, "pages no command has");
}

#[test]
fn generated_man_pages_say_how_to_use_each_command() {
    let page = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("man/idem-send.1")).unwrap();
    for section in [".SH NAME", ".SH SYNOPSIS", ".SH OPTIONS", ".SH \"EXIT STATUS\"", ".SH EXAMPLES"] {
        assert!(page.contains(section), "idem-send.1 lacks {section}");
    }
    assert!(page.contains("\\-\\-repeat"), "idem-send.1 documents --repeat");
}

#[test]
fn generated_completions_command_prints_the_committed_script() {
    for (bin, mut command) in [("idem", crate::support::idem()), ("webhook", crate::support::webhook())] {
        let committed = Path::new(env!("CARGO_MANIFEST_DIR")).join("completions").join(format!("{bin}.bash"));
        let printed = command.args(["completions", "bash"]).assert().code(0).get_output().stdout.clone();
        assert!(
            std::fs::read(committed).unwrap_or_default() == printed,
            "`{bin} completions bash` differs from the committed script"
        );
    }
}
