//! `webhook send`: its flags, and the config they become.
use clap::Args;

use super::retry_args::DeliveryArgs;
use super::signing::{PayloadArgs, SigningArgs};
use crate::http::url::{parse_url, split_credentials};
use crate::output::{Format, Palette};
use crate::webhook::scheme::{self, SchemeKind};
use crate::webhook::send::SendConfig;

#[derive(Debug, Args)]
#[command(after_help = "Exit status: 0 delivered; 1 not delivered after the last attempt or stopped by \
410 Gone (a refused connection or a timeout is retried, as providers do, and named on every attempt \
line); 2 could not run (bad usage, an unreadable body or secret).")]
pub struct SendArgs {
    /// Where to deliver (http or https; http:// is assumed without a scheme)
    #[arg(value_name = "URL", required_unless_present = "list_events")]
    pub url: Option<String>,

    /// List the provider templates --event PROVIDER:TYPE takes (of one provider, or all) and exit;
    /// with --format json, as a document for scripts
    #[arg(
        long,
        value_name = "PROVIDER",
        num_args = 0..=1,
        default_missing_value = "",
        conflicts_with_all = ["url", "scheme", "data", "event", "set", "unset", "secret", "secret_file"]
    )]
    pub list_events: Option<String>,

    #[command(flatten)]
    pub payload: PayloadArgs,

    /// The signing scheme [default: the template's provider with --event PROVIDER:TYPE, else the
    /// provider of --as, else hmac]
    #[arg(long, value_enum)]
    pub scheme: Option<SchemeKind>,

    #[command(flatten)]
    pub signing: SigningArgs,

    /// Use this delivery id (and envelope event id) instead of a fresh one
    #[arg(long, value_name = "ID")]
    pub id: Option<String>,

    /// Deliver the same event this many times, as a provider's duplicate deliveries do (at most 10000)
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=10_000))]
    pub times: u32,

    /// How many of the --times deliveries run at once (at most 1000)
    #[arg(long, value_name = "C", default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=1_000))]
    pub concurrency: u32,

    /// With --event stripe:checkout.session.completed or stripe:payment_intent.succeeded, send
    /// the events around it as Stripe creates them (payment_intent.created,
    /// payment_intent.succeeded, charge.succeeded, then the session), their ids linked, one after
    /// another; --set and --unset apply to each
    #[arg(long, requires = "event", conflicts_with_all = ["id", "times", "concurrency"])]
    pub chain: bool,

    /// Perform an endpoint handshake first, and judge the answer as the provider does: the
    /// scheme's provider's (Slack url_verification, Discord PING, Zoom endpoint.url_validation,
    /// Twitch callback verification, Meta's hub.challenge with --verify-token, Dropbox's
    /// challenge), or the one named: --handshake=graph (Microsoft Graph validationToken),
    /// event-grid (Azure Event Grid validationCode), cloudevents (the CloudEvents webhook OPTIONS
    /// request), x-crc (X's CRC, answered with the --secret); a receiver that fails it gets no
    /// event, and the exit status is 2
    #[arg(long, value_name = "KIND", num_args = 0..=1, require_equals = true, default_missing_value = "provider",
          value_parser = clap::builder::PossibleValuesParser::new(crate::webhook::send_handshake::KINDS))]
    pub handshake: Option<String>,

    /// The verify token Meta's handshake carries (with --handshake --scheme meta)
    #[arg(long, value_name = "TOKEN", requires = "handshake")]
    pub verify_token: Option<String>,

    /// --verify-token read from a file (a trailing newline is dropped), out of `ps` and shell history
    #[arg(long, value_name = "FILE", requires = "handshake", conflicts_with = "verify_token")]
    pub verify_token_file: Option<std::path::PathBuf>,

    #[command(flatten)]
    pub delivery: DeliveryArgs,

    #[arg(long, value_enum, default_value_t = Format::Human)]
    pub format: Format,
}

impl SendArgs {
    pub fn into_config(self, palette: Palette) -> anyhow::Result<SendConfig> {
        // As curl: `user:password@` in the URL is Basic auth, and never printed.
        let Some(url) = self.url.as_deref() else { anyhow::bail!("give the URL to deliver to") };
        let (url, credentials) = split_credentials(parse_url(url)?)?;
        if let Some(id) = &self.id {
            check_id(id)?;
        }
        let payload = self.payload.source()?;
        let personality = self.delivery.personality(payload.provider_personality());
        let kind = self
            .signing
            .scheme_or_file(self.scheme)?
            .or(payload.provider_scheme())
            .or(personality.map(|personality| personality.scheme))
            .unwrap_or(SchemeKind::Hmac);
        let options = self.signing.scheme_options(Some(kind))?;
        let verify_token = super::signing::verify_token(self.verify_token, self.verify_token_file.as_deref())?;
        Ok(SendConfig {
            url,
            credentials,
            scheme: scheme::build(kind, &options),
            secret: self.signing.secret_source()?,
            payload,
            id: self.id,
            delivery: self.delivery.into_options(personality)?,
            times: self.times as usize,
            concurrency: self.concurrency as usize,
            chain: self.chain,
            handshake: self.handshake,
            verify_token,
            format: self.format,
            palette,
        })
    }
}

/// Refuses an `--id` a header cannot carry: it goes into a header and onto the terminal, where a
/// CR/LF would split both.
pub(super) fn check_id(id: &str) -> anyhow::Result<()> {
    if id.is_empty() || id.chars().any(|c| c.is_control() || c == ' ') {
        anyhow::bail!(
            "--id `{}` must be visible characters without spaces or line breaks",
            crate::output::terminal_safe(id)
        );
    }
    Ok(())
}
