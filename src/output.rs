//! Rendering conventions shared by every command: colors that respect `--color`, `NO_COLOR`,
//! `CLICOLOR`, `CLICOLOR_FORCE` and `TERM=dumb`,
//! and progress bars that only appear on a terminal.
use std::borrow::Cow;
use std::ffi::OsString;
use std::io::IsTerminal;

use colored::{ColoredString, Colorize};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// `--format human|json` for commands that print one report.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum Format {
    /// Readable, colored on a terminal
    #[default]
    Human,
    /// One JSON document (JSON Lines for streams), documented in docs/json-output.md
    Json,
}

/// `--format human|json|html` for commands that print one report a person may keep or attach to
/// a CI run (`idem race`, `idem window`, `webhook race`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum ReportFormat {
    /// Readable, colored on a terminal
    #[default]
    Human,
    /// One JSON document, documented in docs/json-output.md
    Json,
    /// One self-contained HTML page (inline CSS and SVG, no script)
    Html,
}

/// `--color auto|always|never`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum ColorChoice {
    #[default]
    Auto,
    Always,
    Never,
}

/// Styling that is either on or off, decided once per stream from `--color`, the environment and
/// whether the stream is a terminal. The escape codes come from `colored`; the decision stays here, in
/// a value, so every caller (and every in-process test) gets exactly the palette it asked for
/// instead of a process-wide switch.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Palette {
    enabled: bool,
}

impl Palette {
    /// The palette for stdout.
    pub fn for_stdout(choice: ColorChoice) -> Palette {
        Palette::decide(choice, std::io::stdout().is_terminal(), |name| std::env::var_os(name))
    }

    /// The palette for stderr.
    pub fn for_stderr(choice: ColorChoice) -> Palette {
        Palette::decide(choice, std::io::stderr().is_terminal(), |name| std::env::var_os(name))
    }

    /// `--color always|never` wins; then, as `colored` and most CLIs read them: `NO_COLOR` (any
    /// value) turns color off, `CLICOLOR_FORCE` (not `0`) forces it on, `CLICOLOR=0` and `TERM=dumb`
    /// turn it off; otherwise a terminal gets color.
    fn decide(choice: ColorChoice, is_terminal: bool, env: impl Fn(&str) -> Option<OsString>) -> Palette {
        let set = |name: &str| env(name).filter(|value| !value.is_empty());
        let enabled = match choice {
            ColorChoice::Always => true,
            ColorChoice::Never => false,
            ColorChoice::Auto if set("NO_COLOR").is_some() => false,
            ColorChoice::Auto if set("CLICOLOR_FORCE").is_some_and(|value| value != "0") => true,
            ColorChoice::Auto if set("CLICOLOR").is_some_and(|value| value == "0") => false,
            ColorChoice::Auto if set("TERM").is_some_and(|value| value == "dumb") => false,
            ColorChoice::Auto => is_terminal,
        };
        Palette { enabled }
    }

    pub fn plain() -> Palette {
        Palette { enabled: false }
    }

    #[cfg(test)]
    pub fn is_enabled(self) -> bool {
        self.enabled
    }

    fn paint(self, text: &str, style: impl FnOnce(&str) -> ColoredString) -> String {
        if !self.enabled {
            return text.to_string();
        }
        // `colored` also consults a process-wide switch before writing escapes; ours is already
        // decided, so keep that switch on (it is only ever set to true).
        colored::control::set_override(true);
        style(text).to_string()
    }

    pub fn green(self, text: &str) -> String {
        self.paint(text, |text| text.green())
    }
    pub fn red(self, text: &str) -> String {
        self.paint(text, |text| text.red())
    }
    pub fn yellow(self, text: &str) -> String {
        self.paint(text, |text| text.yellow())
    }
    pub fn cyan(self, text: &str) -> String {
        self.paint(text, |text| text.cyan())
    }
    pub fn bold(self, text: &str) -> String {
        self.paint(text, |text| text.bold())
    }
    pub fn dim(self, text: &str) -> String {
        self.paint(text, |text| text.dimmed())
    }

    /// `paint(text)` pushed onto `out`; without colour, `text` itself, with no string of its own
    /// (a live line is built this way once per request).
    pub fn push(self, out: &mut String, text: &str, paint: fn(Palette, &str) -> String) {
        if self.enabled {
            out.push_str(&paint(self, text));
        } else {
            out.push_str(text);
        }
    }

    /// `push`, for text written straight onto `out` by `write` (digits, a padded mark).
    pub fn push_with(self, out: &mut String, paint: fn(Palette, &str) -> String, write: impl FnOnce(&mut String)) {
        if self.enabled {
            let mut text = String::new();
            write(&mut text);
            out.push_str(&paint(self, &text));
        } else {
            write(out);
        }
    }

    /// Colors an HTTP status by its class: 2xx green, 4xx yellow, 5xx red.
    pub fn status(self, status: u16) -> String {
        Palette::status_paint(status)(self, &status.to_string())
    }

    /// `status`, pushed onto `out` (see `push`).
    pub fn push_status(self, out: &mut String, status: u16) {
        use std::fmt::Write;
        self.push_with(out, Palette::status_paint(status), |out| {
            let _ = write!(out, "{status}");
        });
    }

    fn status_paint(status: u16) -> fn(Palette, &str) -> String {
        match status {
            200..=299 => Palette::green,
            400..=499 => Palette::yellow,
            500..=599 => Palette::red,
            _ => |_, text| text.to_string(),
        }
    }
}

/// A progress bar drawn on stderr when it is a terminal, hidden otherwise (so pipes and CI logs stay
/// clean).
pub(crate) fn progress_bar(len: u64, message: &str) -> ProgressBar {
    let bar = ProgressBar::with_draw_target(Some(len), stderr_if_terminal());
    if let Ok(style) = ProgressStyle::with_template("{msg} [{bar:30}] {pos}/{len} {elapsed}") {
        bar.set_style(style.progress_chars("=> "));
    }
    bar.set_message(message.to_string());
    bar
}

/// A bar that fills while waiting out `wait` (a retry's backoff), on stderr when it is a terminal;
/// the caller sets its position in milliseconds.
pub(crate) fn countdown_bar(wait: std::time::Duration, message: &str) -> ProgressBar {
    let millis = u64::try_from(wait.as_millis()).unwrap_or(u64::MAX);
    let bar = ProgressBar::with_draw_target(Some(millis), stderr_if_terminal());
    if let Ok(style) = ProgressStyle::with_template("{spinner} {msg} [{bar:30}] {eta} left") {
        bar.set_style(style.progress_chars("=> "));
    }
    bar.set_message(message.to_string());
    bar
}

fn stderr_if_terminal() -> ProgressDrawTarget {
    if std::io::stderr().is_terminal() { ProgressDrawTarget::stderr() } else { ProgressDrawTarget::hidden() }
}

/// Pretty-prints a body for a person: indented JSON when it is JSON, the text when it is UTF-8,
/// a byte count otherwise.
pub(crate) fn render_body(body: &[u8]) -> String {
    if body.is_empty() {
        return "(empty body)".to_string();
    }
    if let Ok(value) = serde_json::from_slice::<serde_json::Value>(body)
        && let Ok(pretty) = serde_json::to_string_pretty(&value)
    {
        // JSON escapes C0 controls in strings, but not C1 controls or bidi overrides.
        return terminal_safe_lines(&pretty).into_owned();
    }
    match std::str::from_utf8(body) {
        Ok(text) => terminal_safe_lines(text.trim_end()).into_owned(),
        Err(_) => format!("({} bytes of binary data)", body.len()),
    }
}

/// `text` made safe to print on a terminal: every control character (C0 including ESC, CR and LF,
/// DEL, C1) and every bidirectional override is shown as a `\u{…}` escape. Anything that came off
/// the network goes through this (or `terminal_safe_lines`) before human output, so a forged request
/// cannot move the cursor, erase its own line or reorder what the reader sees.
pub(crate) fn terminal_safe(text: &str) -> Cow<'_, str> {
    escape_unsafe(text, false)
}

/// `terminal_safe`, keeping line feeds and tabs: for multi-line text such as a body.
pub(crate) fn terminal_safe_lines(text: &str) -> Cow<'_, str> {
    escape_unsafe(text, true)
}

fn escape_unsafe(text: &str, keep_lines: bool) -> Cow<'_, str> {
    // Printable ASCII (most ids, types and paths) has nothing to escape: checked a byte at a
    // time without decoding characters, as this runs for every live line.
    if text.bytes().all(|byte| (0x20..0x7f).contains(&byte)) {
        return Cow::Borrowed(text);
    }
    escape_unsafe_chars(text, keep_lines)
}

fn escape_unsafe_chars(text: &str, keep_lines: bool) -> Cow<'_, str> {
    let unsafe_char = |c: char| {
        let layout = keep_lines && (c == '\n' || c == '\t');
        !layout && (c.is_control() || is_bidi_control(c))
    };
    if !text.chars().any(unsafe_char) {
        return Cow::Borrowed(text);
    }
    let mut escaped = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if unsafe_char(c) {
            escaped.push_str(&format!("\\u{{{:x}}}", u32::from(c)));
        } else {
            escaped.push(c);
        }
    }
    Cow::Owned(escaped)
}

/// The invisible characters that change the display order of text (Trojan Source, CVE-2021-42574).
fn is_bidi_control(c: char) -> bool {
    matches!(c, '\u{061c}' | '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

/// `idempotency-key` → `Idempotency-Key`: header names are stored lower-case, shown as people
/// write them.
pub(crate) fn header_display_name(name: &str) -> String {
    name.split('-')
        .map(|part| {
            let mut chars = part.chars();
            chars.next().map(|first| first.to_ascii_uppercase().to_string() + chars.as_str()).unwrap_or_default()
        })
        .collect::<Vec<_>>()
        .join("-")
}

/// Writes a line to stdout, ignoring a closed or failing stdout: a server's banner and shutdown
/// summary are best effort, and `println!` would panic on a closed pipe (`idem serve | head`).
pub(crate) fn print_best_effort(text: &str) {
    use std::io::Write;
    let mut stdout = std::io::stdout().lock();
    let _ = writeln!(stdout, "{text}").and_then(|()| stdout.flush());
}

/// Indents every line of `text` by `spaces`.
pub(crate) fn indent(text: &str, spaces: usize) -> String {
    let pad = " ".repeat(spaces);
    text.lines().map(|line| format!("{pad}{line}")).collect::<Vec<_>>().join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn decide(choice: ColorChoice, is_terminal: bool, vars: &[(&str, &str)]) -> bool {
        let env = |name: &str| vars.iter().find(|(key, _)| *key == name).map(|(_, value)| OsString::from(value));
        Palette::decide(choice, is_terminal, env).is_enabled()
    }

    #[test]
    fn color_follows_the_choice() {
        assert!(decide(ColorChoice::Always, false, &[("NO_COLOR", "1")]));
        assert!(!decide(ColorChoice::Never, true, &[("CLICOLOR_FORCE", "1")]));
        assert!(decide(ColorChoice::Auto, true, &[]));
        assert!(!decide(ColorChoice::Auto, false, &[]));
        assert_eq!(Palette::plain().green("ok"), "ok");
        assert_eq!(Palette { enabled: true }.green("ok"), "\x1b[32mok\x1b[0m");
    }

    #[test]
    fn color_follows_the_environment() {
        assert!(!decide(ColorChoice::Auto, true, &[("NO_COLOR", "1")]));
        assert!(decide(ColorChoice::Auto, true, &[("NO_COLOR", "")]), "an empty NO_COLOR is unset");
        assert!(decide(ColorChoice::Auto, false, &[("CLICOLOR_FORCE", "1")]));
        assert!(!decide(ColorChoice::Auto, false, &[("CLICOLOR_FORCE", "0")]));
        assert!(!decide(ColorChoice::Auto, false, &[("CLICOLOR_FORCE", "1"), ("NO_COLOR", "1")]));
        assert!(!decide(ColorChoice::Auto, true, &[("CLICOLOR", "0")]));
        assert!(decide(ColorChoice::Auto, true, &[("CLICOLOR", "1")]));
        assert!(!decide(ColorChoice::Auto, true, &[("TERM", "dumb")]));
        assert!(decide(ColorChoice::Auto, true, &[("TERM", "xterm-256color")]));
    }

    #[test]
    fn header_names_display_title_cased() {
        assert_eq!(header_display_name("idempotency-key"), "Idempotency-Key");
        assert_eq!(header_display_name("x-request-key"), "X-Request-Key");
    }

    #[test]
    fn network_text_cannot_drive_the_terminal() {
        assert_eq!(terminal_safe("evt_1"), "evt_1");
        // The printable-ASCII shortcut agrees with the character-by-character check on every ASCII byte.
        for byte in 0u8..0x80 {
            let text = format!("a{}b", char::from(byte));
            for keep_lines in [false, true] {
                assert_eq!(escape_unsafe(&text, keep_lines), escape_unsafe_chars(&text, keep_lines), "{byte:#x}");
            }
        }
        assert_eq!(terminal_safe("a\x1b[2K\rb"), "a\\u{1b}[2K\\u{d}b");
        assert_eq!(terminal_safe("x\u{9b}y\u{202e}z\n"), "x\\u{9b}y\\u{202e}z\\u{a}");
        assert_eq!(terminal_safe_lines("a\n\tb\x07"), "a\n\tb\\u{7}");
        assert_eq!(render_body("{\"t\":\"\u{202e}x\"}".as_bytes()), "{\n  \"t\": \"\\u{202e}x\"\n}");
    }

    #[test]
    fn bodies_render_for_people() {
        assert_eq!(render_body(b"{\"a\":1}"), "{\n  \"a\": 1\n}");
        assert_eq!(render_body(b"plain\n"), "plain");
        assert_eq!(render_body(&[0xff, 0xfe]), "(2 bytes of binary data)");
        assert_eq!(render_body(b""), "(empty body)");
    }
}
