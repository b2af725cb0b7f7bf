//! `--count-url URL [--count-pointer PTR]`, declared once and flattened into every command that
//! judges executions (`idem send|race|window|check|proxy`, `webhook check`).
//!
//! Several ledgers: `--count-url charges=URL --count-url emails=URL2`, each named; a flag meant
//! for one of them says so with the same `NAME=` (`--count-pointer charges=/count`,
//! `--count-header 'emails=Authorization: Bearer …'`), and one without a name applies to every
//! ledger that has none of its own. A bare `--count-url URL` is the single unnamed ledger, as
//! before.
use std::time::Duration;

use anyhow::Context;
use clap::Args;
use http::HeaderMap;

use crate::count::{CountSource, Settle};

#[derive(Debug, Clone, Args)]
pub struct CountArgs {
    /// A URL whose GET returns how many side effects the server has (charges, orders, processed
    /// deliveries): read before and after each step, it decides how many times the server executed
    /// Repeatable with a name per ledger (charges=URL emails=URL2) where the command reads
    /// several: every ledger is judged, and any one showing a second execution fails
    #[arg(long, value_name = "[LEDGER=]URL", help_heading = "Evidence")]
    pub count_url: Vec<String>,

    /// JSON pointer to the count in the --count-url answer: a number, or an array whose length
    /// counts [default: the whole body]; LEDGER=POINTER for one named ledger, repeatable
    #[arg(long, value_name = "[LEDGER=]POINTER", requires = "count_url", help_heading = "Evidence")]
    pub count_pointer: Vec<String>,

    /// A header for the --count-url GET only ('Authorization: Bearer …'), repeatable; added to
    /// the command's own -H headers, which the GET carries too where the command has -H;
    /// 'LEDGER=NAME: VALUE' for one named ledger only
    #[arg(long, value_name = "'[LEDGER=]NAME: VALUE'", requires = "count_url", help_heading = "Evidence")]
    pub count_header: Vec<String>,

    /// Re-read the count until two reads this far apart agree, before and after each step, so work
    /// the server does after answering is counted [default: 200ms, or 3 times the step's slowest
    /// answer when longer] (at most 1m)
    #[arg(long, value_name = "DUR", value_parser = crate::cli::duration_at_most(crate::cli::MINUTE), allow_hyphen_values = true, requires = "count_url", help_heading = "Evidence")]
    pub count_settle: Option<Duration>,

    /// The longest the count is re-read before it is judged: one still moving then is unconfirmed
    /// (at most 10m)
    #[arg(long, value_name = "DUR", default_value = "5s", value_parser = crate::cli::duration_at_most(crate::cli::MINUTE * 10), allow_hyphen_values = true, requires = "count_url", help_heading = "Evidence")]
    pub count_settle_max: Duration,
}

impl CountArgs {
    /// The one count source of a command that reads a single ledger (`command` names it for the
    /// refusal of a second one), sent with `headers` (the user's `-H`, for auth) and
    /// `--count-header`; `None` without `--count-url`.
    pub fn into_source(
        self,
        command: &str,
        headers: &HeaderMap,
        timeout: Duration,
        insecure: bool,
    ) -> anyhow::Result<Option<CountSource>> {
        if self.count_url.len() > 1 {
            anyhow::bail!(
                "{command} reads one --count-url, and {} were given; several ledgers (--count-url NAME=URL) are read by \
                 idem send, race, window and check",
                self.count_url.len()
            );
        }
        Ok(self.into_ledgers(headers, timeout, insecure)?.pop())
    }

    /// Every ledger given, in order: one unnamed (`--count-url URL`) or several named
    /// (`--count-url NAME=URL`), each with its pointer and headers.
    pub fn into_ledgers(
        self,
        headers: &HeaderMap,
        timeout: Duration,
        insecure: bool,
    ) -> anyhow::Result<Vec<CountSource>> {
        if self.count_settle == Some(Duration::ZERO) {
            anyhow::bail!(
                "--count-settle 0 would re-read the count without pause; give the time between reads, like 200ms"
            );
        }
        let ledgers: Vec<(Option<&str>, &str)> = self.count_url.iter().map(|url| ledger_url(url)).collect();
        if ledgers.len() > 1
            && let Some((_, url)) = ledgers.iter().find(|(name, _)| name.is_none())
        {
            anyhow::bail!(
                "--count-url {} has no name, and several ledgers are given: name each one, like --count-url \
                     charges=URL --count-url emails=URL",
                crate::http::url::redact_password(url)
            );
        }
        for (index, (name, _)) in ledgers.iter().enumerate() {
            if name.is_some() && ledgers[..index].iter().any(|(earlier, _)| earlier == name) {
                anyhow::bail!(
                    "--count-url names the ledger {} twice; give each ledger its own name",
                    name.unwrap_or("")
                );
            }
        }
        let names: Vec<&str> = ledgers.iter().filter_map(|(name, _)| *name).collect();
        let pointers = per_ledger("--count-pointer", &self.count_pointer, &names, pointer_ledger)?;
        let header_lines = per_ledger("--count-header", &self.count_header, &names, header_ledger)?;
        ledgers
            .into_iter()
            .map(|(name, url)| {
                let mut headers = headers.clone();
                for line in for_ledger(&header_lines, name, true) {
                    let (header, value) = crate::http::header::parse_header_line(line).context("--count-header")?;
                    headers.append(header, value);
                }
                let mut own_pointers = for_ledger(&pointers, name, false);
                let pointer = own_pointers.next().map(str::to_string);
                if own_pointers.next().is_some() {
                    anyhow::bail!(
                        "--count-pointer is given twice for {}; give one pointer per ledger",
                        name.map_or("the count".to_string(), |name| format!("the ledger {name}"))
                    );
                }
                let mut source = CountSource::new(url, pointer, headers, timeout, insecure)?;
                source.settle = Settle { interval: self.count_settle, max: self.count_settle_max };
                source.ledger = name.map(str::to_string);
                Ok(source)
            })
            .collect()
    }
}

/// A plain ledger name: lowercase letters, digits, `_` and `-`.
fn is_ledger_name(name: &str) -> bool {
    !name.is_empty() && name.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_' || b == b'-')
}

/// `charges=http://…` → (`charges`, `http://…`); anything else (a URL whose query holds `=`) is
/// the unnamed ledger's URL as given.
fn ledger_url(text: &str) -> (Option<&str>, &str) {
    match text.split_once('=') {
        Some((name, url)) if is_ledger_name(name) && (url.starts_with("http://") || url.starts_with("https://")) => {
            (Some(name), url)
        }
        _ => (None, text),
    }
}

/// `charges=/count` → (`charges`, `/count`): a JSON pointer starts with `/` (or is empty), so a
/// name before `=` cannot be mistaken for one.
fn pointer_ledger(text: &str) -> (Option<&str>, &str) {
    match text.split_once('=') {
        Some((name, pointer)) if !text.starts_with('/') && is_ledger_name(name) => (Some(name), pointer),
        _ => (None, text),
    }
}

/// `emails=Authorization: Bearer x` → (`emails`, `Authorization: Bearer x`): a header name holds
/// no `=`, so one before the colon names a ledger.
fn header_ledger(text: &str) -> (Option<&str>, &str) {
    let name_part = text.split(':').next().unwrap_or(text);
    match name_part.split_once('=') {
        Some((name, _)) if is_ledger_name(name) => (Some(name), &text[name.len() + 1..]),
        _ => (None, text),
    }
}

/// Each value of `flag` split into the ledger it names (if any) and the value; a name that is no
/// ledger's is refused, so a typo is never a flag silently ignored.
fn per_ledger<'a>(
    flag: &str,
    values: &'a [String],
    names: &[&str],
    split: fn(&'a str) -> (Option<&'a str>, &'a str),
) -> anyhow::Result<Vec<(Option<&'a str>, &'a str)>> {
    values
        .iter()
        .map(|value| {
            let (name, value) = split(value);
            match name {
                Some(name) if !names.contains(&name) => anyhow::bail!(
                    "{flag} names the ledger {name}, which no --count-url NAME=URL gives{}",
                    if names.is_empty() { String::new() } else { format!(" (the ledgers: {})", names.join(", ")) }
                ),
                _ => Ok((name, value)),
            }
        })
        .collect()
}

/// The values meant for the ledger `name`: its own, and, when `with_unnamed` or it has none of
/// its own, the unnamed ones (they apply to every ledger).
fn for_ledger<'a>(
    values: &'a [(Option<&'a str>, &'a str)],
    name: Option<&'a str>,
    with_unnamed: bool,
) -> impl Iterator<Item = &'a str> {
    let own = name.is_some() && values.iter().any(|(of, _)| *of == name);
    values
        .iter()
        .filter(move |(of, _)| (name.is_some() && *of == name) || (of.is_none() && (with_unnamed || !own)))
        .map(|(_, value)| *value)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_name_is_a_plain_word_before_an_http_url() {
        assert_eq!(ledger_url("charges=http://127.0.0.1:1/c"), (Some("charges"), "http://127.0.0.1:1/c"));
        assert_eq!(ledger_url("http://127.0.0.1:1/c?a=b"), (None, "http://127.0.0.1:1/c?a=b"));
        assert_eq!(ledger_url("Charges=http://x/"), (None, "Charges=http://x/"));
        assert_eq!(ledger_url("emails=ftp://x/"), (None, "emails=ftp://x/"));
        assert_eq!(pointer_ledger("emails=/sent"), (Some("emails"), "/sent"));
        assert_eq!(pointer_ledger("/a=b"), (None, "/a=b"));
        assert_eq!(header_ledger("emails=Authorization: Bearer a=b"), (Some("emails"), "Authorization: Bearer a=b"));
        assert_eq!(header_ledger("Authorization: Bearer a=b"), (None, "Authorization: Bearer a=b"));
    }
}

/// `--require-count`, flattened into the `idem` commands whose ✓ can rest on the answers alone.
#[derive(Debug, Clone, Copy, Default, Args)]
pub struct RequireCountArgs {
    /// Accept only a ✓ the count shows ("executed once (counted)"): one that rests on the answers
    /// alone (a server id, a replay marker, a 409) exits 2, for CI that wants ground truth
    #[arg(long, help_heading = "Evidence")]
    pub require_count: bool,
}
