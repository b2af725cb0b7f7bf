//! `webhook verify`: its flags, and the config they become.
use std::path::PathBuf;

use super::verification::{Verification, VerificationArgs};
use crate::http::body::BodySource;
use crate::http::header::parse_header_line;
use crate::output::{Format, Palette};
use crate::webhook::delivery::unix_now;
use crate::webhook::scheme::TimeWindow;
use crate::webhook::verify::VerifyConfig;

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

    /// The URL the provider was given (the webhook URL in its dashboard), for schemes that sign it
    /// (twilio, square, hubspot)
    #[arg(long, value_name = "URL", help_heading = "Payload")]
    pub url: Option<String>,

    #[command(flatten)]
    pub verification: VerificationArgs,

    /// Judge timestamps as if it were this Unix time (to check a recorded delivery) (not negative, at most 253402300799: the year 9999)
    #[arg(long, value_parser = clap::value_parser!(i64).range(0..=253_402_300_799), value_name = "UNIX", allow_hyphen_values = true)]
    pub now: Option<i64>,

    #[arg(long, value_enum, default_value_t = Format::Human)]
    pub format: Format,
}

impl VerifyArgs {
    pub fn into_config(self, palette: Palette) -> anyhow::Result<VerifyConfig> {
        let Verification { scheme, options, secret, tolerance } = self.verification.into_verification()?;
        let headers = self.headers.iter().map(|line| parse_header_line(line)).collect::<anyhow::Result<Vec<_>>>()?;
        Ok(VerifyConfig {
            scheme,
            options,
            secret,
            body: self.data.as_deref().map(BodySource::parse),
            headers,
            request: self.request,
            url: self.url,
            window: TimeWindow { now: self.now.unwrap_or_else(unix_now), tolerance },
            format: self.format,
            palette,
        })
    }
}
