//! `webhook verify`: its flags, and the config they become.
use std::path::PathBuf;
use std::time::Duration;

use super::signing::{SigningArgs, VerifyScheme};
use crate::http::body::BodySource;
use crate::http::header::parse_header_line;
use crate::output::{Format, Palette};
use crate::units::parse_duration;
use crate::webhook::delivery::unix_now;
use crate::webhook::scheme::{self, TimeWindow};
use crate::webhook::verify::{SchemeChoice, VerifyConfig};

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

    /// The signing scheme, or auto to pick it from the headers
    #[arg(long, value_enum, default_value_t = VerifyScheme::Auto)]
    pub scheme: VerifyScheme,

    #[command(flatten)]
    pub signing: SigningArgs,

    /// How far a signed timestamp may be from now, in either direction
    #[arg(long, default_value = "5m", value_parser = parse_duration, value_name = "DUR")]
    pub tolerance: Duration,

    /// Judge timestamps as if it were this Unix time (to check a recorded delivery)
    #[arg(long, value_name = "UNIX", allow_hyphen_values = true)]
    pub now: Option<i64>,

    #[arg(long, value_enum, default_value_t = Format::Human)]
    pub format: Format,
}

impl VerifyArgs {
    pub fn into_config(self, palette: Palette) -> anyhow::Result<VerifyConfig> {
        let kind = self.scheme.kind();
        let options = self.signing.scheme_options(kind)?;
        let headers = self.headers.iter().map(|line| parse_header_line(line)).collect::<anyhow::Result<Vec<_>>>()?;
        let scheme = match kind {
            Some(kind) => SchemeChoice::Fixed(scheme::build(kind, &options)),
            None => SchemeChoice::Auto(options),
        };
        Ok(VerifyConfig {
            scheme,
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
