//! Which scheme, and which key, re-signs each entry: the one `--scheme` names for every entry, or
//! else the one the journal recorded for that line (`verdict.scheme`, what the listener verified
//! it with). A Stripe journal replayed without `--scheme` is signed as Stripe, never as a default
//! the receiver does not speak; a line that recorded no scheme is refused with the fix before
//! anything is sent. Each scheme's key is derived once, from the one secret.
use std::path::Path;
use std::sync::Arc;

use anyhow::{Context, bail};

use super::source::{Entry, ReplayMode, stale_signature_headers};
use crate::output::terminal_safe;
use crate::webhook::scheme::{self, SchemeKind, SchemeOptions};
use crate::webhook::secret::Secret;

/// Which scheme re-signs the entries.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReplayScheme {
    /// `--scheme S`: every entry, whatever the journal recorded.
    Given(SchemeKind),
    /// Each journal line's recorded scheme; a line without one is refused.
    Recorded,
}

/// Where the scheme of a re-signed replay came from (`scheme_from` in `--format json`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub(crate) enum SchemeFrom {
    /// `--scheme` was given.
    Flag,
    /// Each entry's scheme as the journal recorded it.
    Journal,
}

/// The modes entries are re-signed with, one per scheme in use.
pub(crate) struct Signers {
    choice: ReplayScheme,
    modes: Vec<(SchemeKind, ReplayMode)>,
}

impl Signers {
    /// The signers `entries` need, each key derived from `secret`; an error (exit 2) when an
    /// entry has no scheme to be signed with, or the secret cannot key one.
    pub(crate) fn for_entries(
        choice: ReplayScheme,
        options: &SchemeOptions,
        secret: &Secret,
        entries: &[Entry],
        file: &Path,
    ) -> anyhow::Result<Signers> {
        let mut kinds: Vec<SchemeKind> = Vec::new();
        match choice {
            ReplayScheme::Given(kind) => kinds.push(kind),
            ReplayScheme::Recorded => {
                check_every_entry_has_a_scheme(entries, file)?;
                for entry in entries {
                    let kind = recorded_kind(entry, file)?;
                    if !kinds.contains(&kind) {
                        kinds.push(kind);
                    }
                }
            }
        }
        let stale_headers = stale_signature_headers(options);
        let mut modes = Vec::with_capacity(kinds.len());
        for kind in kinds {
            let scheme = scheme::build(kind, options);
            let key = scheme.signing_key(secret).with_context(|| match choice {
                ReplayScheme::Given(_) => format!("cannot sign with --scheme {kind}"),
                ReplayScheme::Recorded => {
                    format!(
                        "cannot sign with {kind}, the scheme the journal recorded (give --scheme S to choose another)"
                    )
                }
            })?;
            let mode = ReplayMode::Resign {
                scheme: Arc::from(scheme),
                key: Box::new(key),
                stale_headers: stale_headers.clone(),
            };
            modes.push((kind, mode));
        }
        Ok(Signers { choice, modes })
    }

    /// The scheme `entry` is re-signed with, and how.
    pub(crate) fn for_entry(&self, entry: &Entry, file: &Path) -> anyhow::Result<(SchemeKind, &ReplayMode)> {
        let kind = match self.choice {
            ReplayScheme::Given(kind) => kind,
            ReplayScheme::Recorded => recorded_kind(entry, file)?,
        };
        let (_, mode) = self
            .modes
            .iter()
            .find(|(known, _)| *known == kind)
            .with_context(|| format!("line {}: no key was derived for {kind}", entry.line))?;
        Ok((kind, mode))
    }

    pub(crate) fn scheme_from(&self) -> SchemeFrom {
        match self.choice {
            ReplayScheme::Given(_) => SchemeFrom::Flag,
            ReplayScheme::Recorded => SchemeFrom::Journal,
        }
    }
}

/// Refuses a replay in which any entry recorded no scheme, naming the first and how many.
fn check_every_entry_has_a_scheme(entries: &[Entry], file: &Path) -> anyhow::Result<()> {
    let unrecorded: Vec<&Entry> = entries.iter().filter(|entry| entry.recorded_scheme.is_none()).collect();
    let Some(first) = unrecorded.first() else { return Ok(()) };
    let others = match unrecorded.len() {
        1 => String::new(),
        count => format!(" (and {} more of the selected entries)", count - 1),
    };
    let what = if first.headers.is_some() {
        "records no signing scheme (the listener verified it with none)"
    } else {
        "is an event, not a journal record, so no signing scheme was recorded for it"
    };
    bail!(
        "line {} of `{}` {what}{others}: give --scheme S to re-sign with S ({}), or --verbatim to send a journal's \
         recorded headers unchanged",
        first.line,
        file.display(),
        SchemeKind::every().iter().map(|kind| kind.name()).collect::<Vec<_>>().join(", ")
    )
}

/// The scheme the journal recorded for `entry`.
fn recorded_kind(entry: &Entry, file: &Path) -> anyhow::Result<SchemeKind> {
    let Some(name) = &entry.recorded_scheme else {
        bail!("line {} of `{}` records no signing scheme: give --scheme S to re-sign it", entry.line, file.display())
    };
    match SchemeKind::from_name(name) {
        Some(kind) => Ok(kind),
        None => bail!(
            "line {} of `{}` records the scheme `{}`, which webhook replay cannot sign with: give --scheme S to \
             re-sign it with S",
            entry.line,
            file.display(),
            terminal_safe(name)
        ),
    }
}
