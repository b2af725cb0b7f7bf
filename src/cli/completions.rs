//! `completions SHELL`: shell completion scripts, generated from the clap definitions. The same
//! scripts are committed under `completions/` and a test keeps them fresh.
use clap_complete::Shell;

/// The file name each shell expects for `bin`'s completions.
pub fn file_name(shell: Shell, bin: &str) -> String {
    match shell {
        Shell::Bash => format!("{bin}.bash"),
        Shell::Zsh => format!("_{bin}"),
        Shell::Fish => format!("{bin}.fish"),
        Shell::PowerShell => format!("_{bin}.ps1"),
        Shell::Elvish => format!("{bin}.elv"),
        _ => format!("{bin}.{shell}"),
    }
}

/// The completion script for `command` in `shell`.
pub fn generate(shell: Shell, mut command: clap::Command) -> Vec<u8> {
    let bin = command.get_name().to_string();
    let mut script = Vec::new();
    clap_complete::generate(shell, &mut command, bin, &mut script);
    script
}

/// Every shell we ship completions for.
pub const SHELLS: [Shell; 5] = [Shell::Bash, Shell::Zsh, Shell::Fish, Shell::PowerShell, Shell::Elvish];
