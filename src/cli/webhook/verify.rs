//! `webhook verify`: its flags, and the config they become.
use std::path::PathBuf;
use std::time::Duration;

use super::signing::{SigningArgs, VerifyScheme};
use crate::http::body::BodySource;
use crate::http::header::parse_header_line;
use crate::output::{Format, Palette};
use crate::webhook::delivery::unix_now;
use crate::webhook::scheme::{SchemeKind, TimeWindow};
use crate::webhook::verify::VerifyConfig;
use crate::webhook::verify::verifier::SchemeSelection;

#[derive(Debug, clap::Args)]
pub struct VerifyArgs {
    /// The body as received: DATA, @file or @- (default: the body of --request, else stdin)
    #[arg(short = 'd', long = "data", value_name = "DATA", help_heading = "Payload")]
    pub data: Option<String>,

    /// A received header, 'Name: value' (repeatable)
    #[arg(short = 'H', long = "header", value_name = "HEADER", help_heading = "Payload")]
    pub headers: Vec<String>,

    /// A raw HTTP request (as `webhook sign --format http` writes one, or captured off the wire)
    #[arg(long, value_name = "FILE", help_heading = "Payload")]
    pub request: Option<PathBuf>,

    /// The signing scheme the sender uses, or auto to pick it from the headers among --allow
    #[arg(long, value_enum)]
    pub scheme: Option<VerifyScheme>,

    /// With --scheme auto: the schemes that may judge a delivery (comma-separated); a timestamped
    /// and an untimestamped scheme keyed with the same secret are refused
    #[arg(long, value_enum, value_delimiter = ',', value_name = "SCHEMES")]
    pub allow: Vec<SchemeKind>,

    #[command(flatten)]
    pub signing: SigningArgs,

    /// How far a signed timestamp may be from now, in either direction (at most 24h)
    #[arg(long, default_value = "5m", value_parser = crate::cli::duration_at_most(crate::cli::DAY), allow_hyphen_values = true, value_name = "DUR")]
    pub tolerance: Duration,

    /// Judge timestamps as if it were this Unix time (to check a recorded delivery) (not negative, at most 253402300799: the year 9999)
    #[arg(long, value_parser = clap::value_parser!(i64).range(0..=253_402_300_799), value_name = "UNIX", allow_hyphen_values = true)]
    pub now: Option<i64>,

    #[arg(long, value_enum, default_value_t = Format::Human)]
    pub format: Format,
}

impl VerifyArgs {
    pub fn into_config(self, palette: Palette) -> anyhow::Result<VerifyConfig> {
        let scheme = selection(self.scheme, self.allow)?;
        let fixed = match scheme {
            SchemeSelection::Fixed(kind) => Some(kind),
            SchemeSelection::Auto { .. } => None,
        };
        let options = self.signing.scheme_options(fixed)?;
        let headers = self.headers.iter().map(|line| parse_header_line(line)).collect::<anyhow::Result<Vec<_>>>()?;
        Ok(VerifyConfig {
            scheme,
            options,
            secret: self.signing.secret_source()?,
            body: self.data.as_deref().map(BodySource::parse),
            headers,
            request: self.request,
            window: TimeWindow { now: self.now.unwrap_or_else(unix_now), tolerance: self.tolerance },
            format: self.format,
            palette,
        })
    }
}

/// `--scheme` and `--allow` of `verify` and `listen`: one scheme, or auto among named ones. There is
/// no default: auto detection over every scheme is what lets a Stripe signature pass as a GitHub one.
pub(crate) fn selection(scheme: Option<VerifyScheme>, allow: Vec<SchemeKind>) -> anyhow::Result<SchemeSelection> {
    match (scheme.map(VerifyScheme::kind), allow.is_empty()) {
        (None, true) => anyhow::bail!(
            "name the sender's signing scheme with --scheme (hmac, github, stripe, standard, slack or shopify), or \
             accept several with --scheme auto --allow github,standard"
        ),
        (None | Some(None), false) => Ok(SchemeSelection::Auto { allow }),
        (Some(None), true) => anyhow::bail!(
            "--scheme auto needs --allow naming the schemes the sender may use, e.g. --allow github,standard"
        ),
        (Some(Some(kind)), true) => Ok(SchemeSelection::Fixed(kind)),
        (Some(Some(kind)), false) => {
            anyhow::bail!("--allow goes with --scheme auto; --scheme {kind} already names the one scheme")
        }
    }
}
