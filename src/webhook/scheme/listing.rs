//! `webhook schemes`: every scheme `--scheme` takes, what it signs and where, as a table or as
//! JSON (`webhook-schemes/1`).
use serde::Serialize;

use super::description::{Algorithm, Signed};
use super::{SchemeKind, SchemeOptions, build, spelled};
use crate::output::{Format, Palette};

/// The `schema` value of `webhook schemes --format json`.
pub(crate) const SCHEMA: &str = "webhook-schemes/1";

/// `webhook schemes --format json`.
#[derive(Debug, Serialize, schemars::JsonSchema)]
pub(crate) struct SchemeList {
    pub schemes: Vec<SchemeEntry>,
}

/// One scheme.
#[derive(Debug, Serialize, schemars::JsonSchema)]
pub(crate) struct SchemeEntry {
    /// The name `--scheme` takes.
    pub name: &'static str,
    /// What is signed and where, in one line.
    pub summary: &'static str,
    /// The header the signature is written to, as the provider documents it.
    pub signature_header: String,
    /// `HMAC-SHA256`, `HMAC-SHA1`, …
    pub algorithm: &'static str,
    /// Whether a timestamp is signed (so a replay is refused once it is older than the tolerance).
    pub timestamped: bool,
    /// The header carrying the delivery id receivers de-duplicate on, if any.
    pub id_header: Option<String>,
    /// Where the rules were read, for described schemes and aliases.
    pub source: Option<&'static str>,
    /// The scheme this name is an alias of (`svix`, `openai`, … of `standard`), if it is one.
    pub alias_of: Option<&'static str>,
}

fn algorithm_name(kind: SchemeKind) -> &'static str {
    match kind.description().map(|description| description.algorithm) {
        Some(Algorithm::HmacSha1) => "HMAC-SHA1",
        Some(Algorithm::HmacSha256) => "HMAC-SHA256",
        Some(Algorithm::HmacSha512) => "HMAC-SHA512",
        Some(Algorithm::Ed25519) => "Ed25519",
        Some(Algorithm::EcdsaP256) => "ECDSA P-256 (SHA-256)",
        Some(Algorithm::SharedToken) => "shared token (no signature)",
        None if kind == SchemeKind::Standard || kind.alias_of() == Some(SchemeKind::Standard) => {
            "HMAC-SHA256 (v1) or Ed25519 (v1a)"
        }
        None => "HMAC-SHA256",
    }
}

pub(crate) fn entries() -> Vec<SchemeEntry> {
    SchemeKind::every()
        .iter()
        .copied()
        .chain(super::builtin::registered())
        .map(|kind| {
            let scheme = build(kind, &SchemeOptions::default());
            SchemeEntry {
                name: kind.name(),
                summary: kind.summary(),
                signature_header: match kind.description().map(|description| &description.signed) {
                    // No header carries it: say where it is instead.
                    Some(Signed::Fields(_)) => "(in the body)".to_string(),
                    _ => spelled(&scheme.signature_header()).into_owned(),
                },
                algorithm: algorithm_name(kind),
                timestamped: scheme.is_timestamped(),
                id_header: scheme.delivery_id_header().map(|name| spelled(&name).into_owned()),
                source: match kind {
                    SchemeKind::Alias(id) => Some(id.alias().source),
                    _ => kind.description().and_then(|description| description.source.as_deref()),
                },
                alias_of: kind.alias_of().map(SchemeKind::name),
            }
        })
        .collect()
}

/// Prints every scheme.
pub(crate) fn print(
    format: Format,
    palette: Palette,
    out: &mut impl std::io::Write,
) -> anyhow::Result<crate::exit::Outcome> {
    let schemes = entries();
    match format {
        Format::Json => {
            crate::json_output::write_pretty(&mut *out, SCHEMA, &SchemeList { schemes })?;
            writeln!(out)?;
        }
        Format::Human => {
            let width = schemes.iter().map(|entry| entry.name.len()).max().unwrap_or(0);
            for entry in &schemes {
                let name = format!("{:width$}", entry.name);
                writeln!(out, "{}  {}", palette.bold(&name), entry.summary)?;
            }
        }
    }
    Ok(crate::exit::Outcome::Holds)
}
