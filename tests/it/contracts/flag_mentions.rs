//! Every `--flag` the tool's own texts name (messages and help in `src/`, the manual in `docs/`
//! and README.md) is a flag of the binary the text belongs to, so a hint never sends a user to a
//! flag that does not exist (clap would then suggest the wrong one).
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use clap::CommandFactory;
use idem::testing::cli::{IdemCli, WebhookCli};

/// Flags of other programs the texts quote (curl, cargo, the Stripe CLI, the test runner, git,
/// Python's tools), never offered as ours.
const OTHER_PROGRAMS: &[&str] = &[
    "--data-binary", // curl
    "--data-raw",
    "--noproxy",
    "--compressed",
    "--include-ignored", // cargo test / libtest
    "--test-threads",
    "--locked",
    "--release",
    "--all-targets",
    "--bench",
    "--test",
    "--lib",
    "--profile",
    "--all",
    "--check",
    "--features",
    "--forward-to", // stripe listen
    "--skip",
    "--quiet",
    "--help",
    "--version",
    "--prefix", // npm
    "--silent",
    "--no-audit",
    "--no-fund",
    "--ignore-scripts",
    "--disable-pip-version-check",
    "--upgrade",
    "--workers", // uvicorn
    "--port",
    "--host",
    "--reload",
    "--frozen",
    "--depth",      // git
    "--appendonly", // redis-server, in the demo's second instance
    "--bind",
    "--dir",
    "--save",
    "--loglevel",
    "--schemafile", // check-jsonschema
    "--call-graph", // perf
    "--timings",    // cargo build
    "--tool",       // valgrind
    "--toggle-collect",
    "--load-generator", // the benchmarks' own options
    "--parallel",
    "--parallel-immediate",
    "--exact",   // libtest
    "--ignored", // libtest
    "--token",   // secret-named flags of other programs, as the redaction rules name them
    "--password",
];

/// Flags the manual names as not yet on the command line ("Not yet: …"); none today.
const NOT_YET: &[&str] = &[];

/// Files that quote other programs' command lines on purpose: the redaction of secrets in a
/// command under test knows curl's, git's and the cloud CLIs' secret flags.
const QUOTING_OTHER_PROGRAMS: &[&str] = &["src/command_line.rs"];

/// Every long flag of a command and its subcommands.
fn flags_of(command: &clap::Command, into: &mut BTreeSet<String>) {
    for arg in command.get_arguments() {
        if let Some(long) = arg.get_long() {
            into.insert(format!("--{long}"));
        }
        for alias in arg.get_all_aliases().unwrap_or_default() {
            into.insert(format!("--{alias}"));
        }
    }
    for sub in command.get_subcommands() {
        flags_of(sub, into);
    }
}

fn files(dir: &Path, extension: &str, into: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            files(&path, extension, into);
        } else if path.extension().is_some_and(|e| e == extension) {
            into.push(path);
        }
    }
}

/// The `--flag`s a text names: `--` then a lowercase letter, letters, digits and dashes (a
/// flag's value, `--flag=x`, is not part of its name), each with the command the text names just
/// before it (`webhook send --set`), if it does.
fn mentions(text: &str) -> BTreeSet<String> {
    mentions_after_commands(text).into_iter().map(|(flag, _)| flag).collect()
}

/// `mentions`, with the `(tool, command)` written right before each flag.
fn mentions_after_commands(text: &str) -> BTreeSet<(String, Option<(String, String)>)> {
    let bytes = text.as_bytes();
    let mut found = BTreeSet::new();
    let mut at = 0;
    while let Some(offset) = text[at..].find("--") {
        let start = at + offset;
        let before = start.checked_sub(1).map(|i| bytes[i]);
        let mut end = start + 2;
        while end < bytes.len()
            && (bytes[end].is_ascii_lowercase() || bytes[end].is_ascii_digit() || bytes[end] == b'-')
        {
            end += 1;
        }
        let name = &text[start..end];
        let word_start = before.is_none_or(|b| !(b.is_ascii_alphanumeric() || b == b'-' || b == b'_'));
        // `--include-…` and `--exclude-` name a family of flags, not one.
        let family = name.ends_with('-') || text[end..].starts_with('…');
        // A stylesheet's custom properties (`{--good:#1a7f37;--bad:…}`, `var(--good)`) in the
        // HTML reports' inline CSS are not flags.
        let css_property =
            (matches!(before, Some(b'{' | b';')) && text[end..].starts_with(':')) || text[..start].ends_with("var(");
        if word_start && !family && !css_property && name.len() > 3 && bytes[start + 2].is_ascii_lowercase() {
            let words: Vec<&str> = text[..start].split_whitespace().rev().take(2).collect();
            // A command may open a quote or a parenthesis: `idem check`, (idem check --openapi …).
            let named = match words.as_slice() {
                [command, tool] if matches!(tool.trim_start_matches(['`', '(']), "idem" | "webhook") => {
                    Some((tool.trim_start_matches(['`', '(']).to_string(), command.to_string()))
                }
                _ => None,
            };
            found.insert((name.to_string(), named));
        }
        at = end.max(start + 2);
    }
    found
}

/// Whose flags a file's texts may name: a suite's messages (`src/idem/check/`,
/// `src/webhook/check/`, `src/webhook/check_sender/`) and `idem run`'s (`src/idem/run/`) are read
/// by users of that command, so they name its flags; another file of a tool names that tool's; what both tools share, either's.
fn owner_of(path: &str) -> (Option<&'static str>, Option<&'static str>) {
    let parts: Vec<&str> = path.split('/').collect();
    match parts.as_slice() {
        ["src", "idem", "check", "openapi", ..] => (Some("idem"), None),
        ["src", "idem", "check", ..] => (Some("idem"), Some("check")),
        ["src", "idem", "run", ..] => (Some("idem"), Some("run")),
        ["src", "webhook", "check", ..] => (Some("webhook"), Some("check")),
        ["src", "webhook", "check_sender", ..] => (Some("webhook"), Some("check-sender")),
        ["src", "idem", ..] | ["src", "cli", "idem", ..] => (Some("idem"), None),
        ["src", "webhook", ..] | ["src", "cli", "webhook", ..] => (Some("webhook"), None),
        ["docs", page] if page.starts_with("webhook") || *page == "listen.md" => (Some("webhook"), None),
        _ => (None, None),
    }
}

#[test]
fn every_flag_a_text_names_exists_in_its_binary() {
    let (idem, webhook) = (IdemCli::command(), WebhookCli::command());
    let mut idem_flags = BTreeSet::new();
    flags_of(&idem, &mut idem_flags);
    let mut webhook_flags = BTreeSet::new();
    flags_of(&webhook, &mut webhook_flags);
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut paths = Vec::new();
    files(&root.join("src"), "rs", &mut paths);
    files(&root.join("docs"), "md", &mut paths);
    paths.push(root.join("README.md"));
    let mut unknown: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for path in paths {
        let shown = path.strip_prefix(root).unwrap().display().to_string();
        if QUOTING_OTHER_PROGRAMS.contains(&shown.as_str()) {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        // In src/, what users read: strings, and the doc comments clap turns into help (src/cli/);
        // other comments speak to developers and may name what is not built yet.
        let text: String = if shown.starts_with("src/") && !shown.starts_with("src/cli/") {
            text.lines().filter(|line| !line.trim_start().starts_with("//")).collect::<Vec<_>>().join("\n")
        } else {
            text
        };
        let (binary, command) = owner_of(&shown);
        let tool = match binary {
            Some("idem") => Some(&idem),
            Some(_) => Some(&webhook),
            None => None,
        };
        let known = |flag: &str| match (tool, &command) {
            (Some(tool), Some(command)) => {
                let mut flags = BTreeSet::new();
                flags_of(tool.find_subcommand(command).unwrap(), &mut flags);
                flags.contains(flag)
            }
            (Some(tool), _) => {
                let mut flags = BTreeSet::new();
                flags_of(tool, &mut flags);
                flags.contains(flag)
            }
            (None, _) => idem_flags.contains(flag) || webhook_flags.contains(flag),
        };
        for (flag, named) in mentions_after_commands(&text) {
            // A text that names the command before the flag speaks of that command's flags.
            let named_command = named.as_ref().and_then(|(tool, command)| {
                let tool = if tool == "idem" { &idem } else { &webhook };
                tool.find_subcommand(command.as_str())
            });
            if let Some(command) = named_command {
                let mut flags = BTreeSet::new();
                flags_of(command, &mut flags);
                if !flags.contains(&flag) && !NOT_YET.contains(&flag.as_str()) {
                    let who = named.map(|(tool, command)| format!("{tool} {command}")).unwrap_or_default();
                    unknown.entry(format!("{who} {flag}")).or_default().insert(shown.clone());
                }
                continue;
            }
            if !known(&flag) && !OTHER_PROGRAMS.contains(&flag.as_str()) && !NOT_YET.contains(&flag.as_str()) {
                unknown.entry(flag).or_default().insert(shown.clone());
            }
        }
    }
    assert!(unknown.is_empty(), "flags named in texts that their binary does not have:\n{unknown:#?}");
}

#[test]
fn the_walk_finds_flags_in_a_text() {
    let found =
        mentions("raise --max to find the edge; --window-max=1s, not x--y nor --, nor --Upper, nor --include-…");
    assert_eq!(found, BTreeSet::from(["--max".to_string(), "--window-max".to_string()]));
    // CSS custom properties are not flags; a flag in parentheses still is.
    let css = mentions(":root{--good:#1a7f37;--bad:#cf222e}.x{color:var(--good)} (--strict)");
    assert_eq!(css, BTreeSet::from(["--strict".to_string()]));
}

/// An OpenAPI document whose server is a remote host, and an Arazzo workflow over it, written to
/// `dir`: what `idem check --openapi` and `idem run` both refuse without a target the user named.
fn documents_pointing_at_a_remote_host(dir: &Path) -> (PathBuf, PathBuf) {
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/arazzo");
    let openapi = std::fs::read_to_string(fixtures.join("customers-charges.openapi.yaml")).unwrap();
    let remote = openapi.replace("http://127.0.0.1:9/", "https://api.example.com/v1");
    assert_ne!(remote, openapi, "the fixture's server moved");
    std::fs::write(dir.join("customers-charges.openapi.yaml"), remote).unwrap();
    let workflow = dir.join("customers-charges.arazzo.yaml");
    std::fs::copy(fixtures.join("customers-charges.arazzo.yaml"), &workflow).unwrap();
    (dir.join("customers-charges.openapi.yaml"), workflow)
}

/// The flags `COMMAND --help` shows.
fn flags_in_help(command: &str) -> BTreeSet<String> {
    let help = crate::support::run::Run::idem([command, "--help"]).expect_exit(0).finish();
    mentions(&help.stdout)
}

#[test]
fn a_refused_remote_server_s_hint_names_only_flags_the_refusing_command_has() {
    let dir = tempfile::tempdir().unwrap();
    let (openapi, workflow) = documents_pointing_at_a_remote_host(dir.path());
    let openapi = openapi.to_str().unwrap();
    let workflow = workflow.to_str().unwrap();
    let cases: [(&str, Vec<&str>); 2] = [
        ("check", vec!["check", "--openapi", openapi]),
        ("run", vec!["run", workflow, "--input", "name=Ada", "--input", "amount=500"]),
    ];
    for (command, args) in cases {
        let finished = crate::support::run::Run::idem(args).expect_exit(2).finish();
        assert!(finished.stderr.contains("api.example.com"), "{command}: {}", finished.stderr);
        let named = mentions(&finished.stderr);
        assert!(named.contains("--base-url"), "{command}: the hint offers --base-url: {}", finished.stderr);
        let help = flags_in_help(command);
        let unknown: Vec<&String> = named.difference(&help).collect();
        assert!(unknown.is_empty(), "idem {command} names {unknown:?}, which it does not have: {}", finished.stderr);
    }
}
