//! `webhook verify`: check a received webhook's signature and say exactly why it fails: a missing or
//! malformed header, a timestamp outside the tolerance (and whether the signature itself matched),
//! or a mismatch, with a hint when a common mistake explains it.
pub(crate) mod hint;
pub(crate) mod raw_request;
pub(crate) mod verifier;

use std::io::{IsTerminal, Write};
use std::path::PathBuf;

use anyhow::{Context, bail};
use http::{HeaderMap, HeaderName, HeaderValue};
use serde::Serialize;

use crate::exit::Outcome;
use crate::http::body::BodySource;
use crate::output::terminal_safe;
use crate::output::{Format, Palette};
use crate::webhook::scheme::{ReceivedRequest, SchemeKind, SchemeOptions, TimeWindow};
use crate::webhook::secret::SecretSource;
use verifier::{SchemeSelection, Verifier};

#[derive(Debug)]
pub struct VerifyConfig {
    /// One scheme, or auto among the allowed ones (see [`verifier`]).
    pub scheme: SchemeSelection,
    /// Shape the generic `hmac` scheme and Standard Webhooks' header names.
    pub options: SchemeOptions,
    pub secret: SecretSource,
    /// `-d`; without it the body of `--request`, else stdin.
    pub body: Option<BodySource>,
    /// `-H` lines, added to those of `--request`.
    pub headers: Vec<(HeaderName, HeaderValue)>,
    pub request: Option<PathBuf>,
    /// `--url`: the URL the provider was given, for the schemes that sign it.
    pub url: Option<String>,
    pub window: TimeWindow,
    pub format: Format,
    pub palette: Palette,
}

/// The `schema` value of `webhook verify --format json` (schemas/webhook-verify.json).
pub(crate) const SCHEMA: &str = "webhook-verify/1";

/// The verdict; this is also the `--format json` document.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub(crate) struct VerifyReport {
    pub valid: bool,
    pub scheme: SchemeKind,
    /// The signed timestamp, when the scheme has one and it could be read.
    pub timestamp: Option<i64>,
    /// The delivery id the request carries, when the scheme has one.
    pub id: Option<String>,
    pub error: Option<FailureReport>,
}

#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub(crate) struct FailureReport {
    /// `header_missing`, `header_malformed`, `body_malformed`, `timestamp_outside_tolerance`,
    /// `signature_mismatch`, `url_required` (a scheme that signs the URL and no `--url`) or
    /// `body_hash_mismatch` (Twilio).
    pub code: &'static str,
    pub message: String,
    /// True only when the timestamp is what failed and the signature itself matched.
    pub signature_matched: bool,
    pub hint: Option<String>,
}

pub(crate) fn run(config: VerifyConfig, out: &mut impl Write) -> anyhow::Result<Outcome> {
    let (method, headers, body) = read_request(&config)?;
    let verifier = Verifier::new(&config.scheme, config.options, config.secret.load()?)?;
    let request = ReceivedRequest { method: &method, url: config.url.as_deref(), headers: &headers, body: &body };
    // The certificate-signed schemes fetch their certificate first; the others have nothing to fetch.
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .context("cannot start the runtime that fetches certificates")?
        .block_on(verifier.prefetch(&request));
    let verdict = verifier.verify(&request, config.window);
    // Not a verdict either: the certificate on the provider's host could not be had.
    let cannot_judge = ["url_required", "certificate_unavailable"];
    if let Some(failure) = verdict.failure.as_ref().filter(|failure| cannot_judge.contains(&failure.code)) {
        // Not a verdict on the delivery: the command was not told what it needs to judge it.
        bail!("{}", failure.message);
    }
    let Some(scheme) = verdict.scheme else {
        // Nothing to judge by: the request lacks what would say which scheme signed it.
        let message = verdict.failure.map(|failure| failure.message).unwrap_or_default();
        bail!("{message} (add received headers with -H 'Name: value' or --request FILE)");
    };
    let report = VerifyReport {
        valid: verdict.failure.is_none(),
        scheme,
        timestamp: verdict.timestamp,
        id: verdict.delivery_id,
        error: verdict.failure.map(|failure| FailureReport {
            code: failure.code,
            message: failure.message,
            signature_matched: failure.signature_matched,
            hint: failure.hint,
        }),
    };
    match config.format {
        Format::Human => write_human(&report, config.window, config.palette, out)?,
        Format::Json => {
            crate::json_output::write_pretty(&mut *out, SCHEMA, &report)?;
            writeln!(out)?;
        }
    }
    out.flush()?;
    Ok(if report.valid { Outcome::Holds } else { Outcome::ProblemFound })
}

/// The method (the `--request` file's, else POST), headers and body to check, from `--request`,
/// `-H`, `-d` and stdin.
fn read_request(config: &VerifyConfig) -> anyhow::Result<(String, HeaderMap, Vec<u8>)> {
    let (method, mut headers, request_body) = match &config.request {
        Some(path) => {
            let request = raw_request::read_file(path)?;
            (request.method, request.headers, Some(request.body))
        }
        None => ("POST".to_string(), HeaderMap::new(), None),
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
    Ok((method, headers, body))
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
                terminal_safe(&failure.message)
            )?;
            if let Some(hint) = &failure.hint {
                writeln!(out, "  {} {}", palette.yellow("hint:"), terminal_safe(hint))?;
            }
        }
    }
    if let Some(id) = &report.id {
        writeln!(out, "  {} {}", palette.dim("delivery id:"), terminal_safe(id))?;
    }
    if let (Some(timestamp), None) = (report.timestamp, &report.error) {
        let age = window.age(timestamp);
        let when = if age >= 0 { format!("{age}s ago") } else { format!("{}s in the future", -age) };
        writeln!(out, "  {} {timestamp} ({when})", palette.dim("timestamp:"))?;
    }
    Ok(())
}
