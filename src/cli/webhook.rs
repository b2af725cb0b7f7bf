//! `webhook`: clap definitions and their translation into the engine's config structs.
use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

use anyhow::{Context, bail};
use clap::{CommandFactory, Parser, Subcommand, ValueEnum};
use clap_complete::Shell;
use http::{HeaderName, StatusCode, Uri};

use crate::cli::block_on;
use crate::cli::webhook_delivery::{CheckArgs, ReplayArgs, SendArgs};
use crate::exit::Outcome;
use crate::http::body::BodySource;
use crate::http::header::parse_header_line;
use crate::http::request::parse_url;
use crate::output::{ColorChoice, Format, Palette};
use crate::units::{parse_duration, parse_size};
use crate::webhook::delivery::unix_now;
use crate::webhook::listen::{self, ListenConfig};
use crate::webhook::payload::PayloadSource;
use crate::webhook::scheme::{self, Encoding, HmacOptions, SchemeKind, SchemeOptions, TimeWindow};
use crate::webhook::secret::{self, SECRET_ENV, Secret, SecretSource, parse_secret_arg};
use crate::webhook::sign::{self, SignConfig};
use crate::webhook::sign_format::SignFormat;
use crate::webhook::verify::{self, SchemeChoice, VerifyConfig};
use crate::webhook::{check, replay, send};

/// Sign, verify, deliver and replay webhooks, check receivers: every common signing scheme
#[derive(Debug, Parser)]
#[command(name = "webhook", version, propagate_version = true)]
pub struct WebhookCli {
    /// When to color the output
    #[arg(long, global = true, value_enum, default_value_t = ColorChoice::Auto, env = "WEBHOOK_COLOR")]
    pub color: ColorChoice,

    #[command(subcommand)]
    pub command: WebhookCommand,
}

#[derive(Debug, Subcommand)]
pub enum WebhookCommand {
    /// Sign a payload the way a provider would and print the headers, a curl command or a raw request
    Sign(SignArgs),
    /// Check a received webhook's signature and say exactly why it fails
    Verify(VerifyArgs),
    /// Print a new random signing secret in the scheme's usual form
    Secret(SecretArgs),
    /// Deliver a signed event as a provider does: fresh signature per attempt, retries with backoff
    Send(SendArgs),
    /// Re-deliver what `webhook listen --record` journaled (or a JSON-lines file of events)
    Replay(ReplayArgs),
    /// Check that a receiver accepts valid deliveries and duplicates and refuses forged, altered and replayed ones
    Check(CheckArgs),
    /// Receive webhooks locally: verify, de-duplicate, journal, forward, and fail on purpose
    Listen(ListenArgs),
    /// Print a shell completion script
    Completions {
        #[arg(value_enum)]
        shell: Shell,
    },
}

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

    /// --scheme hmac: the header that carries the signature [default: X-Signature]
    #[arg(long, value_name = "NAME", help_heading = "Signing")]
    pub signature_header: Option<String>,

    /// --scheme hmac: how the signature is written [default: hex]
    #[arg(long, value_enum, help_heading = "Signing")]
    pub encoding: Option<Encoding>,

    /// --scheme hmac: text before the signature, may be empty [default: sha256=]
    #[arg(long, value_name = "TEXT", allow_hyphen_values = true, help_heading = "Signing")]
    pub prefix: Option<String>,
}

impl SigningArgs {
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
        Ok(SchemeOptions { hmac, svix: self.svix })
    }
}

/// The payload, shared by `sign` and `send`: a body as is, or an event envelope.
#[derive(Debug, Clone, clap::Args)]
#[group(id = "payload", required = true, multiple = true)]
pub struct PayloadArgs {
    /// The body: DATA, @file (streamed, never read whole) or @- for stdin; with --event, the JSON
    /// for the envelope's `data`
    #[arg(short = 'd', long = "data", value_name = "DATA", help_heading = "Payload")]
    pub data: Option<String>,

    /// Build the body as an event envelope {"id","type","created","data"} of this type
    #[arg(long, value_name = "TYPE", help_heading = "Payload")]
    pub event: Option<String>,
}

impl PayloadArgs {
    pub(crate) fn source(self) -> anyhow::Result<PayloadSource> {
        match (self.event, self.data) {
            (Some(event_type), data) => {
                Ok(PayloadSource::Event { event_type, data: data.as_deref().map(BodySource::parse) })
            }
            (None, Some(data)) => Ok(PayloadSource::Body(BodySource::parse(&data))),
            (None, None) => bail!("give the payload with -d DATA, -d @file, -d @- or --event TYPE"),
        }
    }
}

#[derive(Debug, clap::Args)]
pub struct SignArgs {
    #[command(flatten)]
    pub payload: PayloadArgs,

    /// The signing scheme
    #[arg(long, value_enum, default_value_t = SchemeKind::Hmac)]
    pub scheme: SchemeKind,

    #[command(flatten)]
    pub signing: SigningArgs,

    /// Sign this delivery id (and use it as the envelope's event id) instead of a fresh one
    #[arg(long, value_name = "ID")]
    pub id: Option<String>,

    /// Sign this Unix timestamp instead of now
    #[arg(long, value_name = "UNIX", allow_hyphen_values = true)]
    pub timestamp: Option<i64>,

    /// What to print
    #[arg(long, value_enum, default_value_t = SignFormat::Headers)]
    pub format: SignFormat,

    /// Where the webhook goes, for --format curl and http
    #[arg(long, value_name = "URL")]
    pub url: Option<String>,
}

/// `--scheme` of `webhook verify`: a scheme, or `auto` to pick it from the headers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum VerifyScheme {
    /// The scheme whose signature header the request carries
    Auto,
    /// X-Signature: sha256=<hex> over the body (header, encoding and prefix adjustable)
    Hmac,
    /// X-Hub-Signature-256: sha256=<hex> over the body
    Github,
    /// Stripe-Signature: t=<unix>,v1=<hex> over "<t>.<body>"
    Stripe,
    /// Standard Webhooks or Svix: webhook-signature: v1,<base64> over "<id>.<timestamp>.<body>"
    Standard,
    /// X-Slack-Signature: v0=<hex> over "v0:<timestamp>:<body>"
    Slack,
    /// X-Shopify-Hmac-Sha256: <base64> over the body
    Shopify,
}

impl VerifyScheme {
    fn kind(self) -> Option<SchemeKind> {
        match self {
            VerifyScheme::Auto => None,
            VerifyScheme::Hmac => Some(SchemeKind::Hmac),
            VerifyScheme::Github => Some(SchemeKind::Github),
            VerifyScheme::Stripe => Some(SchemeKind::Stripe),
            VerifyScheme::Standard => Some(SchemeKind::Standard),
            VerifyScheme::Slack => Some(SchemeKind::Slack),
            VerifyScheme::Shopify => Some(SchemeKind::Shopify),
        }
    }
}

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

#[derive(Debug, clap::Args)]
pub struct ListenArgs {
    /// The address to listen on (port 0 picks a free one, printed on the first line)
    #[arg(long, default_value = "127.0.0.1:9000", value_name = "ADDR")]
    pub addr: SocketAddr,

    /// Receive on this path only (others get 404) [default: any path]
    #[arg(long, value_name = "PATH")]
    pub path: Option<String>,

    /// The signing scheme, or auto to pick it per request from the signature header
    #[arg(long, value_enum, default_value_t = VerifyScheme::Auto)]
    pub scheme: VerifyScheme,

    #[command(flatten)]
    pub signing: SigningArgs,

    /// How far a signed timestamp may be from now, in either direction
    #[arg(long, default_value = "5m", value_parser = parse_duration, value_name = "DUR")]
    pub tolerance: Duration,

    /// Answer deliveries with an invalid signature 2xx anyway (still recorded and shown as invalid)
    #[arg(long)]
    pub accept_invalid: bool,

    /// Bodies larger than this get 413
    #[arg(long, default_value = "1MiB", value_parser = parse_size, value_name = "SIZE")]
    pub max_body: u64,

    /// Append every delivery to this JSON-lines journal before answering it (webhook replay reads it)
    #[arg(long, value_name = "FILE", help_heading = "Journal")]
    pub record: Option<PathBuf>,

    /// Flush each append to disk before answering, so even a power loss keeps acknowledged deliveries
    #[arg(long, requires = "record", help_heading = "Journal")]
    pub fsync: bool,

    /// Pass each accepted delivery on to exactly this URL and answer with its status and body
    #[arg(long, value_name = "URL", help_heading = "Forwarding")]
    pub forward_to: Option<String>,

    /// How long the forward target may take to answer before the sender gets 502
    #[arg(long, default_value = "30s", value_parser = parse_duration, value_name = "DUR", help_heading = "Forwarding")]
    pub forward_timeout: Duration,

    /// Answer a repeat of an acknowledged event directly instead of forwarding it again
    #[arg(long, requires = "forward_to", help_heading = "Forwarding")]
    pub dedupe: bool,

    /// Answer accepted deliveries with this status (e.g. 500 to make a sender retry)
    #[arg(long, value_name = "CODE", value_parser = parse_status, help_heading = "Misbehaviour")]
    pub status: Option<StatusCode>,

    /// Answer the first N attempts of each event id with 500; later attempts succeed
    #[arg(long, value_name = "N", default_value_t = 0, help_heading = "Misbehaviour")]
    pub fail_first: u32,

    /// Wait this long before answering (to trip a sender's timeout)
    #[arg(long, value_parser = parse_duration, value_name = "DUR", help_heading = "Misbehaviour")]
    pub delay: Option<Duration>,

    /// Show each delivery's headers and body too
    #[arg(short, long)]
    pub verbose: bool,

    /// human: a colored line per delivery; json: a JSON line per delivery (see the README)
    #[arg(long, value_enum, default_value_t = Format::Human)]
    pub format: Format,
}

/// A final HTTP status a listener can answer with.
fn parse_status(text: &str) -> Result<StatusCode, String> {
    text.trim()
        .parse::<u16>()
        .ok()
        .filter(|code| (200..=599).contains(code))
        .and_then(|code| StatusCode::from_u16(code).ok())
        .ok_or_else(|| format!("`{text}` is not a final HTTP status; give a number from 200 to 599"))
}

#[derive(Debug, clap::Args)]
pub struct SecretArgs {
    /// The scheme the secret is for: whsec_ + base64 for standard and stripe, hex for the others
    #[arg(long, value_enum, default_value_t = SchemeKind::Hmac)]
    pub scheme: SchemeKind,
}

/// Parses the process arguments, runs the command and returns the exit status.
pub fn main() -> i32 {
    crate::cli::parse_and_run(run)
}

pub fn run(cli: WebhookCli) -> anyhow::Result<Outcome> {
    let palette = Palette::for_stdout(cli.color);
    // send, replay, check and listen print from other tasks or threads as they go, so they take
    // stdout themselves; the others write their one answer through a lock.
    match cli.command {
        WebhookCommand::Sign(args) => sign::run(args.into_config()?, &mut std::io::stdout().lock()),
        WebhookCommand::Verify(args) => verify::run(args.into_config(palette)?, &mut std::io::stdout().lock()),
        WebhookCommand::Secret(args) => secret::print_new(args.scheme, &mut std::io::stdout().lock()),
        WebhookCommand::Send(args) => block_on(send::run(args.into_config(palette)?)),
        WebhookCommand::Replay(args) => block_on(replay::run(args.into_config(palette)?)),
        WebhookCommand::Check(args) => block_on(check::run(args.into_config(palette)?)),
        WebhookCommand::Listen(args) => block_on(listen::run(args.into_config(palette)?)),
        WebhookCommand::Completions { shell } => {
            use std::io::Write;
            std::io::stdout().write_all(&crate::cli::completions::generate(shell, WebhookCli::command()))?;
            Ok(Outcome::Holds)
        }
    }
}

impl SignArgs {
    pub fn into_config(self) -> anyhow::Result<SignConfig> {
        let options = self.signing.scheme_options(Some(self.scheme))?;
        let payload = self.payload.source()?;
        let url: Option<Uri> = self.url.as_deref().map(parse_url).transpose()?;
        Ok(SignConfig {
            scheme: scheme::build(self.scheme, &options),
            secret: self.signing.secret_source()?,
            payload,
            id: self.id,
            timestamp: self.timestamp,
            format: self.format,
            url,
        })
    }
}

impl ListenArgs {
    pub fn into_config(self, palette: Palette) -> anyhow::Result<ListenConfig> {
        let kind = self.scheme.kind();
        let scheme_options = self.signing.scheme_options(kind)?;
        let secret = self.signing.secret_source()?.load()?;
        let forward_to = self.forward_to.as_deref().map(parse_url).transpose().context("--forward-to")?;
        let path = match self.path {
            Some(path) if !path.starts_with('/') => bail!("--path `{path}` must start with /"),
            path => path,
        };
        Ok(ListenConfig {
            addr: self.addr,
            path,
            scheme: kind,
            scheme_options,
            secret,
            tolerance: self.tolerance,
            accept_invalid: self.accept_invalid,
            max_body: self.max_body,
            record: self.record,
            fsync: self.fsync,
            forward_to,
            forward_timeout: self.forward_timeout,
            dedupe: self.dedupe,
            status: self.status,
            fail_first: self.fail_first,
            delay: self.delay.unwrap_or_default(),
            output: listen::Output::Print { format: self.format, palette, verbose: self.verbose },
        })
    }
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
