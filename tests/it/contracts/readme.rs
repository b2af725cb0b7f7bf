//! The README's console blocks are produced by the binaries: the tour runs as one shell session
//! (servers started with `&` in one block serve the next), its transcript is kept in
//! `tests/golden/readme-tour.txt`, and every block must match it.
//!
//! What changes from run to run (ids, keys, durations, ports, timestamps, signatures) is replaced
//! by placeholders on both sides before comparing. A README line that is only `…` stands for any
//! number of lines, and a `…` inside a line any text. `REGENERATE=1 cargo test --test it readme` rewrites the transcript; the README
//! itself is edited by hand to match it.
use std::collections::BTreeMap;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::{Arc, Mutex};

/// A `$ command` of a console block and the lines the README shows after it.
#[derive(Debug)]
struct Step {
    command: String,
    shown: Vec<String>,
}

fn repository_file(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(name)
}

/// The console blocks of README.md, in order.
fn console_blocks(readme: &str) -> Vec<Vec<Step>> {
    let mut blocks = Vec::new();
    let mut current: Option<Vec<Step>> = None;
    for line in readme.lines() {
        match (&mut current, line) {
            (None, "```console") => current = Some(Vec::new()),
            (Some(_), "```") => blocks.push(current.take().unwrap_or_default()),
            (Some(steps), line) => match line.strip_prefix("$ ") {
                Some(command) => steps.push(Step { command: command.to_string(), shown: Vec::new() }),
                None => steps.last_mut().expect("a console block starts with a $ command").shown.push(line.to_string()),
            },
            (None, _) => {}
        }
    }
    blocks
}

/// Replaces what differs between runs with placeholders, and runs of spaces (columns padded to
/// the width of a duration) with one.
fn normalised(line: &str) -> String {
    let rules: &[(&str, &str)] = &[
        (r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}", "<uuid>"),
        (r"\b([a-z]+)_[A-Za-z0-9]{16,}", "${1}_<id>"),
        (r"\b1[0-9]{9}\b", "<unix time>"),
        (r"\b[0-9a-f]{64}\b", "<hex>"),
        (r"\b[0-9]+(\.[0-9]+)?(ns|µs|ms|s)\b", "<duration>"),
        // Which duplicate ran first, and so which got 409, changes between runs, and on a loaded
        // machine a straggler can get the replay instead: the lists and tallies are not the claim.
        (r"#[0-9]+(, #[0-9]+)+(, …)?", "<#list>"),
        (r"\b[0-9]+ × ([0-9]{3})", "N × $1"),
        (r"\ball [0-9]+ answers\b", "all N answers"),
        // How a release reached the kernel depends on the kernel: io_uring where it is allowed.
        (r"\(one (io_uring submission|send loop)\)", "(<batch>)"),
        (r" +", " "),
    ];
    let mut text = line.trim_end().to_string();
    for (pattern, replacement) in rules {
        text = regex::Regex::new(pattern).unwrap().replace_all(&text, *replacement).into_owned();
    }
    text
}

/// Whether `actual` matches `shown`, where a `…` line in `shown` stands for any number of lines.
fn matches_with_elisions(shown: &[String], actual: &[String]) -> bool {
    match shown.split_first() {
        None => actual.is_empty(),
        Some((first, rest)) if first.trim() == "…" => {
            (0..=actual.len()).any(|skipped| matches_with_elisions(rest, &actual[skipped..]))
        }
        Some((first, rest)) => actual
            .split_first()
            .is_some_and(|(line, after)| line_matches(first, line) && matches_with_elisions(rest, after)),
    }
}

/// Whether one printed line matches the README's, where a `…` inside the README's line stands
/// for any text (`#1, #2, … #19`, a list of ids cut short).
fn line_matches(shown: &str, line: &str) -> bool {
    let pattern: Vec<String> = normalised(shown).split('…').map(regex::escape).collect();
    regex::Regex::new(&format!("^{}$", pattern.join(".*"))).unwrap().is_match(&normalised(line))
}

/// A server the tour started with `&` (stopped when dropped): its output so far, kept by a
/// reader thread.
struct Background {
    _child: crate::support::KillOnDrop,
    output: Arc<Mutex<Vec<String>>>,
}

/// The tour as one shell session: the binaries on PATH, `$SECRET` set, a scratch directory.
struct Session {
    directory: tempfile::TempDir,
    path: String,
    /// The README's port of each server started so far, and the port it really got.
    ports: BTreeMap<String, String>,
    servers: Vec<Background>,
}

impl Session {
    fn new() -> Session {
        let binaries = assert_cmd::cargo::cargo_bin("idem").parent().unwrap().to_path_buf();
        let path = format!("{}:{}", binaries.display(), std::env::var("PATH").unwrap_or_default());
        Session { directory: tempfile::tempdir().unwrap(), path, ports: BTreeMap::new(), servers: Vec::new() }
    }

    fn shell(&self, command: &str) -> Command {
        let mut shell = Command::new("sh");
        shell
            .arg("-c")
            .arg(command)
            .current_dir(self.directory.path())
            .env("PATH", &self.path)
            .env("SECRET", "whsec_the_readme_tour_secret")
            .env("NO_COLOR", "1")
            .env("COLUMNS", "200");
        for name in crate::support::PROXY_VARIABLES {
            shell.env_remove(name);
        }
        shell
    }

    /// The command with each README port replaced by the port its server really got.
    fn localised(&self, command: &str) -> String {
        self.ports.iter().fold(command.to_string(), |text, (shown, real)| {
            text.replace(&format!("127.0.0.1:{shown}"), &format!("127.0.0.1:{real}"))
        })
    }

    /// Output with each real port turned back into the README's.
    fn as_shown(&self, lines: &[String]) -> Vec<String> {
        lines
            .iter()
            .map(|line| {
                self.ports.iter().fold(line.clone(), |text, (shown, real)| {
                    text.replace(&format!("127.0.0.1:{real}"), &format!("127.0.0.1:{shown}"))
                })
            })
            .collect()
    }

    /// Starts a `… --addr 127.0.0.1:PORT &` server on port 0 and learns its port from its banner.
    fn start_server(&mut self, command: &str) -> usize {
        let address = regex::Regex::new(r"--addr 127\.0\.0\.1:([0-9]+)").unwrap();
        let shown_port = address.captures(command).expect("a server in the tour has --addr")[1].to_string();
        let command = address.replace(command, "--addr 127.0.0.1:0").into_owned();
        let mut child = self
            .shell(&format!("exec {}", command.trim_end_matches('&').trim()))
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let output = Arc::new(Mutex::new(Vec::new()));
        let (banner_sender, banner) = std::sync::mpsc::channel();
        let stdout = child.stdout.take().unwrap();
        let lines = Arc::clone(&output);
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                let _ = banner_sender.send(line.clone());
                lines.lock().unwrap().push(line);
            }
        });
        let listening = regex::Regex::new(r"http://127\.0\.0\.1:([0-9]+)").unwrap();
        let real_port = loop {
            let line = banner.recv_timeout(std::time::Duration::from_secs(60)).expect("the server prints its address");
            if let Some(found) = listening.captures(&line) {
                break found[1].to_string();
            }
        };
        self.ports.insert(shown_port, real_port);
        self.servers.push(Background { _child: crate::support::KillOnDrop::new(child), output });
        self.servers.len() - 1
    }

    fn run(&self, command: &str) -> Vec<String> {
        let output = self.shell(&self.localised(command)).stdin(Stdio::null()).output().unwrap();
        String::from_utf8_lossy(&output.stdout).lines().map(str::to_string).collect()
    }
}

/// The whole tour, run: each command, then its output as the README would show it.
fn run_the_tour(blocks: &[Vec<Step>]) -> Vec<(String, Vec<String>)> {
    let mut session = Session::new();
    let mut transcript = Vec::new();
    // A server's banner lines are compared once the tour is over (the reader thread has them all).
    let mut server_steps = Vec::new();
    for step in blocks.iter().flatten() {
        if step.command.trim_end().ends_with('&') {
            let server = session.start_server(&step.command);
            server_steps.push((transcript.len(), server, step.shown.len()));
            transcript.push((step.command.clone(), Vec::new()));
        } else {
            let output = session.run(&step.command);
            transcript.push((step.command.clone(), session.as_shown(&output)));
        }
    }
    for (index, server, shown) in server_steps {
        let output = session.servers[server].output.lock().unwrap().clone();
        // The banner the README shows; the rest of a server's output is its live log.
        let lines: Vec<String> = output.into_iter().take(shown.max(1)).collect();
        transcript[index].1 = session.as_shown(&lines);
    }
    transcript
}

fn transcript_text(transcript: &[(String, Vec<String>)]) -> String {
    let mut text = String::new();
    for (command, output) in transcript {
        text.push_str(&format!("$ {command}\n"));
        for line in output {
            text.push_str(&format!("{}\n", normalised(line)));
        }
    }
    text
}

#[test]
fn every_console_block_of_the_readme_is_what_the_binaries_print() {
    let readme = std::fs::read_to_string(repository_file("README.md")).unwrap();
    let blocks = console_blocks(&readme);
    assert!(blocks.len() >= 6, "the README's tour has its console blocks: {}", blocks.len());
    let transcript = run_the_tour(&blocks);
    let golden = repository_file("tests/golden/readme-tour.txt");
    let fresh = transcript_text(&transcript);
    if std::env::var_os("REGENERATE").is_some() {
        std::fs::create_dir_all(golden.parent().unwrap()).unwrap();
        std::fs::write(&golden, &fresh).unwrap();
    }
    let kept = std::fs::read_to_string(&golden).unwrap_or_default();
    assert_eq!(
        kept, fresh,
        "the tour's transcript changed: REGENERATE=1 cargo test --test it readme, then update README.md"
    );
    let mut mismatches = Vec::new();
    for (step, (_, output)) in blocks.iter().flatten().zip(&transcript) {
        let output =
            if step.command.trim_end().ends_with('&') { &output[..step.shown.len().min(output.len())] } else { output };
        if !matches_with_elisions(&step.shown, output) {
            mismatches.push(format!(
                "$ {}\nREADME shows:\n{}\nthe binary prints:\n{}",
                step.command,
                step.shown.join("\n"),
                output.join("\n")
            ));
        }
    }
    assert!(mismatches.is_empty(), "README.md has drifted from the binaries:\n\n{}", mismatches.join("\n\n"));
}

#[test]
fn elisions_stand_for_any_lines_and_placeholders_hide_what_changes() {
    let lines = |text: &str| text.lines().map(str::to_string).collect::<Vec<_>>();
    let actual = lines("#1   201 Created   60.1ms  pay_w4ZF2vqf6nPig8R1fEWZdnua\nmiddle\nlast");
    assert!(matches_with_elisions(&lines("#1 201 Created 2.9ms pay_XvjpjypMHFD8yYN0RwOX8Crt\n…\nlast"), &actual));
    assert!(matches_with_elisions(
        &lines("#1 201 Created 2.9ms pay_XvjpjypMHFD8yYN0RwOX8Crt\nmiddle\n…\nlast"),
        &actual
    ));
    assert!(!matches_with_elisions(&lines("#1 201 Created 2.9ms pay_XvjpjypMHFD8yYN0RwOX8Crt\nlast"), &actual));
    assert!(!matches_with_elisions(&lines("#1 409 Conflict 2.9ms pay_XvjpjypMHFD8yYN0RwOX8Crt\n…"), &actual));
    assert!(line_matches("executed 10 times: a, b, … z", "executed 10 times: a, b, c, z"));
    assert!(!line_matches("executed 10 times: a, b, … z", "executed 9 times: a, b, c, z"));
    assert!(line_matches("409 for #1, #2, #3, … while", "409 for #2, #3, #4, #5 while"));
}
