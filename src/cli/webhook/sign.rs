//! `webhook sign`: its flags, and the config they become.
use anyhow::bail;

use super::signing::{PayloadArgs, SigningArgs};
use crate::http::url::parse_url;
use crate::webhook::scheme::{self, SchemeKind};
use crate::webhook::sign::{SignConfig, SignOutput};

#[derive(Debug, clap::Args)]
pub struct SignArgs {
    #[command(flatten)]
    pub payload: PayloadArgs,

    /// The signing scheme [default: the template's provider with --event PROVIDER:TYPE, else hmac]
    #[arg(long, value_enum)]
    pub scheme: Option<SchemeKind>,

    #[command(flatten)]
    pub signing: SigningArgs,

    /// Sign this delivery id (and use it as the envelope's event id) instead of a fresh one
    #[arg(long, value_name = "ID")]
    pub id: Option<String>,

    /// Sign this Unix timestamp instead of now (not negative, at most 253402300799: the year 9999)
    #[arg(long, value_parser = clap::value_parser!(i64).range(0..=253_402_300_799), value_name = "UNIX", allow_hyphen_values = true)]
    pub timestamp: Option<i64>,

    /// What to print
    #[arg(long, value_enum, default_value_t = SignFormat::Headers)]
    pub format: SignFormat,

    /// Where the webhook goes: for --format curl and http, and signed by the schemes that sign
    /// the URL (twilio, square, hubspot)
    #[arg(long, value_name = "URL")]
    pub url: Option<String>,
}

impl SignArgs {
    pub fn into_config(self) -> anyhow::Result<SignConfig> {
        let payload = self.payload.source()?;
        let kind = self.signing.scheme_or_file(self.scheme)?.or(payload.provider_scheme()).unwrap_or(SchemeKind::Hmac);
        let options = self.signing.scheme_options(Some(kind))?;
        let output = match (self.format, self.url.as_deref().map(parse_url).transpose()?) {
            (SignFormat::Headers, _) => SignOutput::Headers,
            (SignFormat::Json, _) => SignOutput::Json,
            (SignFormat::Curl, Some(url)) => SignOutput::Curl(url),
            (SignFormat::Http, Some(url)) => SignOutput::Http(url),
            (SignFormat::Curl, None) => bail!("--format curl needs --url URL, where the webhook should be sent"),
            (SignFormat::Http, None) => bail!("--format http needs --url URL, for the request line and Host header"),
        };
        Ok(SignConfig {
            scheme: scheme::build(kind, &options),
            secret: self.signing.secret_source()?,
            payload,
            id: self.id,
            timestamp: self.timestamp,
            output,
            url: self.url,
        })
    }
}

/// `--format` of `webhook sign`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum SignFormat {
    /// `Name: value` lines (then a blank line and the body when --event built it)
    #[default]
    Headers,
    /// A curl command that sends the signed request to --url
    Curl,
    /// The whole raw HTTP/1.1 request to --url, as `webhook verify --request` reads it
    Http,
    /// One JSON document: scheme, id, timestamp, headers, body
    Json,
}
