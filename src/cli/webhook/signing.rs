//! The options every `webhook` command that signs or verifies shares: the secret, the scheme and its
//! variants, and the payload (the counterpart of `cli/request_args.rs` for `idem`).
use std::path::PathBuf;

use anyhow::{Context, bail};
use clap::ValueEnum;
use http::HeaderName;

use super::certified_args::CertifiedArgs;
use crate::http::body::BodySource;
use crate::webhook::payload::PayloadSource;
use crate::webhook::scheme::{Encoding, HmacOptions, SchemeKind, SchemeOptions};
use crate::webhook::secret::{SECRET_ENV, Secret, SecretSource, parse_secret_arg};
use crate::webhook::template::{self, Override};

/// The secret and the scheme variants, shared by every command that signs or verifies.
#[derive(Debug, Clone, clap::Args)]
pub struct SigningArgs {
    /// The signing secret (or set WEBHOOK_SECRET); prefer --secret-file, the command line is visible
    /// to other users
    #[arg(long, value_name = "SECRET", value_parser = parse_secret_arg, allow_hyphen_values = true, help_heading = "Signing")]
    pub secret: Option<Secret>,

    /// Read the secret from this file (one trailing newline is dropped)
    #[arg(long, value_name = "FILE", help_heading = "Signing")]
    pub secret_file: Option<PathBuf>,

    /// Standard Webhooks under Svix's header names (svix-id, svix-timestamp, svix-signature)
    #[arg(long, help_heading = "Signing")]
    pub svix: bool,

    /// A scheme described in a JSON file, as the built-in providers are (docs/sign-verify.md), in
    /// place of --scheme
    #[arg(long, value_name = "FILE", conflicts_with = "scheme", help_heading = "Signing")]
    pub scheme_file: Option<PathBuf>,

    /// --scheme hmac: the header that carries the signature [default: X-Signature]
    #[arg(long, value_name = "NAME", help_heading = "Signing")]
    pub signature_header: Option<String>,

    /// --scheme hmac: how the signature is written [default: hex]
    #[arg(long, value_enum, help_heading = "Signing")]
    pub encoding: Option<Encoding>,

    /// --scheme hmac: text before the signature, may be empty [default: sha256=]
    #[arg(long, value_name = "TEXT", allow_hyphen_values = true, help_heading = "Signing")]
    pub prefix: Option<String>,

    #[command(flatten)]
    pub certified: CertifiedArgs,
}

impl SigningArgs {
    /// The scheme `--scheme-file` describes, read and checked now, else `scheme` (`--scheme`).
    pub(crate) fn scheme_or_file(&self, scheme: Option<SchemeKind>) -> anyhow::Result<Option<SchemeKind>> {
        match &self.scheme_file {
            Some(path) => Ok(Some(crate::webhook::scheme::user_file::load(path)?)),
            None => Ok(scheme),
        }
    }

    pub(crate) fn secret_source(&self) -> anyhow::Result<SecretSource> {
        SecretSource::choose(self.secret.clone(), self.secret_file.clone(), std::env::var_os(SECRET_ENV))
    }

    /// The scheme options; `kind` is `None` for `--scheme auto`, where every option may apply.
    pub(crate) fn scheme_options(&self, kind: Option<SchemeKind>) -> anyhow::Result<SchemeOptions> {
        let hmac_flags = self.signature_header.is_some() || self.encoding.is_some() || self.prefix.is_some();
        if hmac_flags && kind.is_some_and(|kind| kind != SchemeKind::Hmac) {
            bail!("--signature-header, --encoding and --prefix adjust --scheme hmac only");
        }
        if self.svix && kind.is_some_and(|kind| kind != SchemeKind::Standard) {
            bail!("--svix applies to --scheme standard only");
        }
        let defaults = HmacOptions::default();
        let header = match &self.signature_header {
            Some(name) => HeaderName::from_bytes(name.as_bytes())
                .with_context(|| format!("--signature-header `{name}` is not a valid header name"))?,
            None => defaults.header,
        };
        let prefix = self.prefix.clone().unwrap_or(defaults.prefix);
        if http::HeaderValue::from_str(&prefix).is_err() {
            bail!("--prefix `{}` has characters a header cannot carry", prefix.escape_debug());
        }
        let hmac = HmacOptions { header, encoding: self.encoding.unwrap_or(defaults.encoding), prefix };
        Ok(SchemeOptions { hmac, svix: self.svix, certified: std::sync::Arc::new(self.certified.options(kind)?) })
    }
}

/// The payload, shared by `sign` and `send`: a body as is, or an event envelope.
#[derive(Debug, Clone, clap::Args)]
// Not required by clap so that `webhook send --list-events` needs none; `source` says what is missing.
#[group(id = "payload", required = false, multiple = true)]
pub struct PayloadArgs {
    /// The body: DATA, @file (streamed by sign; read whole, up to 64 MiB, by verify and send) or @-
    /// for stdin; with --event, the JSON for the envelope's `data`
    #[arg(short = 'd', long = "data", value_name = "DATA", help_heading = "Payload")]
    pub data: Option<String>,

    /// Build the body as an event envelope {"id","type","created","data"} of this type, or, as
    /// PROVIDER:TYPE (stripe:invoice.paid, github:push), as that provider sends it, headers included
    /// (webhook send --list-events)
    #[arg(long, value_name = "TYPE", help_heading = "Payload")]
    pub event: Option<String>,

    /// With --event: set a field of the built body, PATH dotted (data.object.amount=5000); VALUE is
    /// JSON when it parses as JSON, else text (repeatable)
    // Parsed in `source`, not by clap: clap's error would echo the whole value, and a path may be
    // megabytes long.
    #[arg(long = "set", value_name = "PATH=VALUE", requires = "event", help_heading = "Payload")]
    pub set: Vec<String>,

    /// With --event: remove a field of the built body (repeatable)
    #[arg(long, value_name = "PATH", requires = "event", help_heading = "Payload")]
    pub unset: Vec<String>,
}

impl PayloadArgs {
    pub(crate) fn source(self) -> anyhow::Result<PayloadSource> {
        // Sets first, then unsets, each in the order given.
        let sets = self.set.iter().map(|text| Override::parse_set(text).context("--set"));
        let unsets = self.unset.iter().map(|path| Override::parse_unset(path).context("--unset"));
        let overrides = sets.chain(unsets).collect::<anyhow::Result<Vec<Override>>>()?;
        if let Some(spec) = &self.event {
            template::refuse_unknown_provider(spec)?;
        }
        match (self.event, self.data) {
            (Some(spec), data) if template::provider_scheme(&spec).is_some() => {
                if data.is_some() {
                    bail!("--data does not go with a provider template (--event {spec}); change its fields with --set");
                }
                Ok(PayloadSource::Template { spec, overrides })
            }
            (Some(event_type), data) => {
                Ok(PayloadSource::Event { event_type, data: data.as_deref().map(BodySource::parse), overrides })
            }
            (None, Some(data)) => Ok(PayloadSource::Body(BodySource::parse(&data))),
            (None, None) => {
                bail!("a payload is required: give it with -d DATA, -d @file, -d @- or --event TYPE (or PROVIDER:TYPE)")
            }
        }
    }
}

/// `--scheme` of `webhook verify`: a scheme, or `auto` to pick it from the headers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum VerifyScheme {
    /// The scheme whose signature header the request carries
    Auto,
    Scheme(SchemeKind),
}

impl VerifyScheme {
    pub(crate) fn kind(self) -> Option<SchemeKind> {
        match self {
            VerifyScheme::Auto => None,
            VerifyScheme::Scheme(kind) => Some(kind),
        }
    }
}

impl ValueEnum for VerifyScheme {
    fn value_variants<'a>() -> &'a [VerifyScheme] {
        static EVERY: std::sync::OnceLock<Vec<VerifyScheme>> = std::sync::OnceLock::new();
        EVERY.get_or_init(|| {
            std::iter::once(VerifyScheme::Auto)
                .chain(SchemeKind::every().iter().copied().map(VerifyScheme::Scheme))
                .collect()
        })
    }

    fn to_possible_value(&self) -> Option<clap::builder::PossibleValue> {
        match self {
            VerifyScheme::Auto => Some(
                clap::builder::PossibleValue::new("auto").help("The scheme whose signature header the request carries"),
            ),
            VerifyScheme::Scheme(kind) => kind.to_possible_value(),
        }
    }
}

/// A verify token given on the command line or, out of `ps` and shell history, read from a file
/// (`--verify-token-file`, a trailing newline dropped).
pub(super) fn verify_token(given: Option<String>, file: Option<&std::path::Path>) -> anyhow::Result<Option<String>> {
    match (given, file) {
        (None, Some(file)) => {
            let token = Secret::from_file(file).context("--verify-token-file")?;
            Ok(Some(String::from_utf8(token.expose().to_vec()).context("--verify-token-file holds no UTF-8 text")?))
        }
        (given, _) => Ok(given),
    }
}
