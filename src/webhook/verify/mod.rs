//! `webhook verify`: check a received webhook's signature and say exactly why it fails: a missing or
//! malformed header, a timestamp outside the tolerance (and whether the signature itself matched),
//! or a mismatch, with a hint when a common mistake explains it.
pub mod hint;
pub mod raw_request;

use std::io::{IsTerminal, Write};
use std::path::PathBuf;

use anyhow::{Context, bail};
use http::{HeaderMap, HeaderName, HeaderValue};
use serde::Serialize;

use crate::exit::Outcome;
use crate::http::body::BodySource;
use crate::output::{Format, Palette};
use crate::webhook::scheme::{self, Scheme, SchemeKind, SchemeOptions, TimeWindow, VerifyError};
use crate::webhook::secret::SecretSource;

/// Which scheme to check against.
#[derive(Debug)]
pub enum SchemeChoice {
    /// The one whose signature header the request carries; the options shape the generic `hmac`.
    Auto(SchemeOptions),
    Fixed(Box<dyn Scheme>),
}

#[derive(Debug)]
pub struct VerifyConfig {
    pub scheme: SchemeChoice,
    pub secret: SecretSource,
    /// `-d`; without it the body of `--request`, else stdin.
    pub body: Option<BodySource>,
    /// `-H` lines, added to those of `--request`.
    pub headers: Vec<(HeaderName, HeaderValue)>,
    pub request: Option<PathBuf>,
    pub window: TimeWindow,
    pub format: Format,
    pub palette: Palette,
}

/// The verdict; this is also the `--format json` document.
#[derive(Debug, Clone, Serialize)]
pub struct VerifyReport {
    pub valid: bool,
    pub scheme: SchemeKind,
    /// The signed timestamp, when the scheme has one and it could be read.
    pub timestamp: Option<i64>,
    /// The delivery id the request carries, when the scheme has one.
    pub id: Option<String>,
    pub error: Option<FailureReport>,
}

#[derive(Debug, Clone, Serialize)]
pub struct FailureReport {
    /// `header_missing`, `header_malformed`, `timestamp_outside_tolerance` or `signature_mismatch`.
    pub code: &'static str,
    pub message: String,
    /// True only when the timestamp is what failed and the signature itself matched.
    pub signature_matched: bool,
    pub hint: Option<String>,
}

pub fn run(config: VerifyConfig, out: &mut impl Write) -> anyhow::Result<Outcome> {
    let (headers, body) = read_request(&config)?;
    let scheme = match config.scheme {
        SchemeChoice::Fixed(scheme) => scheme,
        SchemeChoice::Auto(options) => scheme::detect(&headers, &options).with_context(|| {
            format!(
                "no signature header found to pick the scheme from (looked for {}); pass --scheme, or add the \
                 headers with -H 'Name: value'",
                scheme::detectable_headers(&options).join(", ")
            )
        })?,
    };
    let secret = config.secret.load()?;
    let key = scheme.key(&secret).with_context(|| format!("cannot verify with --scheme {}", scheme.kind()))?;
    let report = match scheme.verify(&headers, &body, &key, config.window) {
        Ok(verified) => VerifyReport {
            valid: true,
            scheme: verified.scheme,
            timestamp: verified.timestamp,
            id: verified.id,
            error: None,
        },
        Err(err) => {
            let (err, hint) = hint::explain(err, scheme.as_ref(), &headers, &body, &secret, config.window);
            let timestamp = match err {
                VerifyError::TimestampOutsideTolerance { timestamp, .. } => Some(timestamp),
                _ => None,
            };
            let message = match err {
                // The hint gets a line of its own in human output and a field of its own in JSON.
                VerifyError::SignatureMismatch { .. } => VerifyError::SignatureMismatch { hint: None }.to_string(),
                ref other => other.to_string(),
            };
            VerifyReport {
                valid: false,
                scheme: scheme.kind(),
                timestamp,
                id: scheme.delivery_id(&headers),
                error: Some(FailureReport {
                    code: err.code(),
                    message,
                    signature_matched: err.signature_matched(),
                    hint,
                }),
            }
        }
    };
    match config.format {
        Format::Human => write_human(&report, config.window, config.palette, out)?,
        Format::Json => {
            serde_json::to_writer_pretty(&mut *out, &report)?;
            writeln!(out)?;
        }
    }
    out.flush()?;
    Ok(if report.valid { Outcome::Holds } else { Outcome::ProblemFound })
}

/// The headers and body to check, from `--request`, `-H`, `-d` and stdin.
fn read_request(config: &VerifyConfig) -> anyhow::Result<(HeaderMap, Vec<u8>)> {
    let (mut headers, request_body) = match &config.request {
        Some(path) => {
            let request = raw_request::read_file(path)?;
            (request.headers, Some(request.body))
        }
        None => (HeaderMap::new(), None),
    };
    for (name, value) in &config.headers {
        headers.append(name.clone(), value.clone());
    }
    let body = match (&config.body, request_body) {
        (Some(source), _) => source.read()?,
        (None, Some(body)) => body,
        (None, None) if std::io::stdin().is_terminal() => {
            bail!("no body to verify: pass -d DATA, -d @file, -d @- or --request FILE, or pipe the body on stdin")
        }
        (None, None) => BodySource::Stdin.read()?,
    };
    Ok((headers, body))
}

fn write_human(
    report: &VerifyReport,
    window: TimeWindow,
    palette: Palette,
    out: &mut impl Write,
) -> anyhow::Result<()> {
    match &report.error {
        None => writeln!(out, "{} {} signature is valid", palette.green("✓"), palette.bold(report.scheme.name()))?,
        Some(failure) => {
            writeln!(
                out,
                "{} {} signature is invalid: {}",
                palette.red("✗"),
                palette.bold(report.scheme.name()),
                failure.message
            )?;
            if let Some(hint) = &failure.hint {
                writeln!(out, "  {} {hint}", palette.yellow("hint:"))?;
            }
        }
    }
    if let Some(id) = &report.id {
        writeln!(out, "  {} {id}", palette.dim("delivery id:"))?;
    }
    if let (Some(timestamp), None) = (report.timestamp, &report.error) {
        let age = window.age(timestamp);
        let when = if age >= 0 { format!("{age}s ago") } else { format!("{}s in the future", -age) };
        writeln!(out, "  {} {timestamp} ({when})", palette.dim("timestamp:"))?;
    }
    Ok(())
}
