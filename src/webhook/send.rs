//! `webhook send`: deliver a signed event the way a provider does (fresh signature per attempt,
//! retries with backoff), so a receiver can be tested against the real thing.
//!
//! A refused connection or a timeout is a failed attempt and is retried, as every provider treats
//! it: a receiver that is restarting must not lose the event. So a dead port ends with exit 1 (not
//! delivered) once the attempts run out, with the cause (`Connection refused`) on every attempt
//! line and in the summary; exit 2 is for what stops the command before the first attempt (bad
//! usage, an unreadable body or secret).
use std::io::Write;
use std::sync::Arc;

use anyhow::Context;
use bytes::Bytes;
use http::Uri;
use serde::Serialize;
use tokio::sync::Semaphore;
use tokio::task::JoinSet;

use crate::exit::Outcome;
use crate::http::body::BodySource;
use crate::output::{Format, Palette};
use crate::text::plural;
use crate::webhook::deliver::engine::{DeliverOptions, Deliverer, DeliveryReport, Message, RunDelivery};
use crate::webhook::deliver::personality::Personality;
use crate::webhook::deliver::print::{self as attempt_lines, AttemptLines};
use crate::webhook::delivery::{DeliveryBody, fresh_id, unix_now};
use crate::webhook::payload::{Payload, PayloadSource};
use crate::webhook::scheme::{Scheme, SchemeKind, SigningKey};
use crate::webhook::secret::SecretSource;

#[derive(Debug)]
pub struct SendConfig {
    /// Without credentials: those are in `credentials`, so the URL can be printed.
    pub url: Uri,
    /// `user:password@` from the URL, sent as Basic auth on every attempt.
    pub credentials: Option<crate::http::url::Credentials>,
    pub scheme: Box<dyn Scheme>,
    pub secret: SecretSource,
    pub payload: PayloadSource,
    /// Pins the delivery id (and the envelope's event id); fresh when `None`.
    pub id: Option<String>,
    pub delivery: DeliverOptions,
    /// How many times the same event is delivered (a provider's duplicate deliveries).
    pub times: usize,
    /// How many of those deliveries run at once.
    pub concurrency: usize,
    /// `--chain`: the events around the `--event` one, in the order the provider creates them.
    pub chain: bool,
    /// `--handshake[=KIND]`: an endpoint handshake first (`provider`: the scheme's provider's;
    /// else one of `send_handshake::KINDS`); no event goes to a receiver that fails it.
    pub handshake: Option<String>,
    /// `--verify-token`: what Meta's handshake carries.
    pub verify_token: Option<String>,
    pub format: Format,
    pub palette: Palette,
}

/// The `schema` value of `webhook send --format json` (schemas/webhook-send.json).
pub(crate) const SCHEMA: &str = "webhook-send/1";

/// The `--format json` document.
#[derive(Debug, Serialize, schemars::JsonSchema)]
pub(crate) struct SendReport {
    pub url: String,
    pub scheme: SchemeKind,
    pub event_id: String,
    pub delivery_id: String,
    pub event_type: Option<String>,
    /// The provider whose deliveries these imitate (retries, timeout, User-Agent, retry headers):
    /// `--as`, else the provider of `--event PROVIDER:TYPE`; `null` for the tool's own behaviour.
    pub behaves_as: Option<&'static str>,
    /// With `--chain`, the event types delivered, in order (one entry each in `deliveries`);
    /// empty without it.
    pub chain: Vec<String>,
    /// With `--handshake`, the handshake the receiver passed before the events (it failed one
    /// ends the command with exit 2 and no report).
    pub handshake: Option<crate::webhook::send_handshake::HandshakeReport>,
    pub max_attempts: u32,
    pub time_scale: f64,
    /// `--times`.
    pub times: usize,
    /// How many of the deliveries got a 2xx (`times` of them, or one per event of a `--chain`).
    pub delivered: usize,
    /// `delivered` when every delivery got a 2xx, else `not-delivered`.
    #[schemars(with = "String", extend("enum" = ["delivered", "not-delivered"]))]
    pub outcome: RunDelivery,
    pub deliveries: Vec<NumberedDelivery>,
}

#[derive(Debug, Serialize, schemars::JsonSchema)]
pub(crate) struct NumberedDelivery {
    /// 1-based, of `--times`.
    pub copy: usize,
    #[serde(flatten)]
    pub report: DeliveryReport,
}

/// The one delivery a command signs from the payload options: its body (read whole), its event and
/// delivery ids (fresh, `--id`'s, or the provider template's), the template's own headers, and
/// Basic auth from the URL's `user:password@`. `webhook send` delivers it; `webhook race` fires
/// copies of it.
pub(crate) fn signed_message(
    scheme: &Arc<dyn Scheme>,
    key: &SigningKey,
    payload: PayloadSource,
    id: Option<&str>,
    credentials: Option<&crate::http::url::Credentials>,
    personality: Option<&Personality>,
) -> anyhow::Result<Message> {
    // A fresh delivery id looks like the provider's (`--as github`: a GUID).
    let fresh_delivery_id = || {
        personality.map_or_else(
            || crate::webhook::template::fresh_delivery_id_for(scheme.as_ref()),
            |personality| personality.delivery_id.fresh(),
        )
    };
    let mut delivery_id = id.map_or_else(fresh_delivery_id, str::to_string);
    let mut event_id = id.map_or_else(|| fresh_id("evt_"), str::to_string);
    let Payload { body, event, provider, .. } = payload.load(&event_id, unix_now(), id)?;
    let mut provider_headers = Vec::new();
    if let Some(parts) = provider {
        (event_id, delivery_id, provider_headers) = (parts.event_id, parts.delivery_id, parts.headers);
    }
    let body = match body {
        DeliveryBody::Bytes(bytes) => bytes,
        // Every attempt is signed afresh and resent, so the body is held in memory: capped, with
        // the limit in the message, rather than read whole whatever its size.
        DeliveryBody::File(path) => Bytes::from(BodySource::File(path).read()?),
    };
    let mut message = Message::signed(body, &event_id, event, &delivery_id, Arc::clone(scheme), key.clone());
    // The provider's own headers; the scheme's signature headers replace any of the same name.
    for (name, value) in provider_headers {
        message.headers.insert(name, value);
    }
    if let Some(credentials) = credentials {
        message.headers.insert(http::header::AUTHORIZATION, credentials.authorization()?);
    }
    Ok(message)
}

/// The key `scheme` signs with, from the secret where the user keeps it.
pub(crate) fn signing_key(scheme: &dyn Scheme, secret: SecretSource) -> anyhow::Result<SigningKey> {
    let kind = scheme.kind();
    scheme.signing_key(&secret.load()?).with_context(|| format!("cannot sign with --scheme {kind}"))
}

/// The messages of a `--chain` (Stripe's events around one payment, in the order Stripe creates
/// them), signed and carrying the template's headers and the URL's credentials.
fn chained_messages(
    scheme: &Arc<dyn Scheme>,
    key: &SigningKey,
    payload: &PayloadSource,
    credentials: Option<&crate::http::url::Credentials>,
) -> anyhow::Result<Vec<Message>> {
    let PayloadSource::Template { spec, overrides } = payload else {
        anyhow::bail!(
            "--chain needs --event stripe:checkout.session.completed or --event stripe:payment_intent.succeeded"
        );
    };
    let mut messages = Vec::new();
    for event in crate::webhook::template::chain(spec, unix_now(), overrides)? {
        let mut message = Message::signed(
            event.body,
            &event.event_id,
            Some(event.event_type),
            &event.delivery_id,
            Arc::clone(scheme),
            key.clone(),
        );
        for (name, value) in event.headers {
            message.headers.insert(name, value);
        }
        if let Some(credentials) = credentials {
            message.headers.insert(http::header::AUTHORIZATION, credentials.authorization()?);
        }
        messages.push(message);
    }
    Ok(messages)
}

pub(crate) async fn run(config: SendConfig) -> anyhow::Result<Outcome> {
    let kind = config.scheme.kind();
    let key = signing_key(config.scheme.as_ref(), config.secret)?;
    let scheme: Arc<dyn Scheme> = config.scheme.into();
    let personality = config.delivery.personality;
    let messages = if config.chain {
        chained_messages(&scheme, &key, &config.payload, config.credentials.as_ref())?
    } else {
        vec![signed_message(
            &scheme,
            &key,
            config.payload,
            config.id.as_deref(),
            config.credentials.as_ref(),
            personality,
        )?]
    };
    // The report names the event asked for (in a chain, the one `--event` named).
    let named = if config.chain { messages.len() - 1 } else { 0 };
    let named = &messages[named.min(messages.len() - 1)];
    let (event_id, delivery_id, event_type) =
        (named.event_id.clone(), named.delivery_id.clone(), named.event_type.clone());
    let chain: Vec<String> = if config.chain {
        messages.iter().filter_map(|message| message.event_type.clone()).collect()
    } else {
        Vec::new()
    };
    let human = config.format == Format::Human;
    let deliverer =
        Deliverer::new(config.url.clone(), &config.delivery)?.with_wait_bar(human && config.concurrency == 1);
    let max_attempts = deliverer.policy().max_attempts();
    let least = (config.times * messages.len()) as u64;
    config
        .delivery
        .budget
        .announce(crate::http::budget::Needed::Between(least, least.saturating_mul(u64::from(max_attempts.max(1)))));
    let lines = AttemptLines { palette: config.palette, max_attempts };

    let handshake = if let Some(kind) = &config.handshake {
        let options = &config.delivery;
        let client = crate::http::client::HttpClient::with_proxies(
            crate::http::client::ClientOptions { timeout: options.timeout, insecure: options.insecure, http2: false },
            options.proxies.clone(),
        )?
        .with_budget(options.budget.clone());
        let report = crate::webhook::send_handshake::perform(
            &client,
            &config.url,
            kind,
            &scheme,
            &key,
            config.verify_token.as_deref(),
        )
        .await?;
        if human {
            writeln!(
                std::io::stdout().lock(),
                "{} {}  {}",
                config.palette.bold("handshake"),
                report.name,
                config.palette.green(&format!("{}: {}", report.status, report.verdict))
            )?;
        }
        Some(report)
    } else {
        None
    };

    let mut reports = Vec::new();
    for message in messages {
        if human {
            let mut stdout = std::io::stdout().lock();
            let what = match (&message.event_type, config.chain) {
                (Some(event_type), true) => format!("{event_type} "),
                _ => String::new(),
            };
            writeln!(
                stdout,
                "{} {}  {}",
                config.palette.bold("POST"),
                config.url,
                config.palette.dim(&format!(
                    "{kind}{}, {what}event {}, delivery {}, up to {}",
                    personality.map(|personality| format!(" as {}", personality.name)).unwrap_or_default(),
                    message.event_id,
                    message.delivery_id,
                    plural(max_attempts, "attempt", "attempts")
                ))
            )?;
            stdout.flush()?;
        }
        let message = Arc::new(message);
        let delivered =
            deliver_copies(&deliverer, &message, config.times, config.concurrency, human.then_some(lines)).await?;
        if human {
            let mut stdout = std::io::stdout().lock();
            for copy in &delivered {
                let label = if config.times > 1 { format!("#{} ", copy.copy) } else { String::new() };
                writeln!(stdout, "{label}{}", attempt_lines::summary(&copy.report, max_attempts, config.palette))?;
            }
        }
        reports.extend(delivered);
    }
    let delivered = reports.iter().filter(|copy| copy.report.delivered).count();
    let outcome = if delivered == reports.len() { Outcome::Holds } else { Outcome::ProblemFound };
    let mut stdout = std::io::stdout().lock();
    match config.format {
        Format::Json => {
            let report = SendReport {
                url: config.url.to_string(),
                scheme: kind,
                event_id,
                delivery_id,
                event_type,
                behaves_as: personality.map(|personality| personality.name),
                chain,
                handshake,
                max_attempts,
                time_scale: config.delivery.policy.time_scale,
                times: config.times,
                delivered,
                outcome: RunDelivery::of(outcome),
                deliveries: reports,
            };
            crate::json_output::write_pretty(&mut stdout, SCHEMA, &report)?;
            writeln!(stdout)?;
        }
        Format::Human => {
            if config.times > 1 {
                writeln!(stdout, "{delivered}/{} deliveries of {event_id} delivered", config.times)?;
            } else if config.chain {
                writeln!(stdout, "{delivered}/{} events of the chain delivered", reports.len())?;
            }
        }
    }
    stdout.flush()?;
    Ok(outcome)
}

/// Delivers `times` copies of the same message, at most `concurrency` at once, in copy order.
async fn deliver_copies(
    deliverer: &Deliverer,
    message: &Arc<Message>,
    times: usize,
    concurrency: usize,
    lines: Option<AttemptLines>,
) -> anyhow::Result<Vec<NumberedDelivery>> {
    let permits = Arc::new(Semaphore::new(concurrency.max(1)));
    let mut tasks = JoinSet::new();
    for copy in 1..=times {
        let (deliverer, message, permits) = (deliverer.clone(), Arc::clone(message), Arc::clone(&permits));
        let label = if times > 1 { format!("#{copy}") } else { String::new() };
        tasks.spawn(async move {
            let _permit = permits.acquire_owned().await.context("the delivery pool closed")?;
            let observer = move |_: &Message, attempt: &_, next: Option<&_>| {
                if let Some(lines) = &lines {
                    lines.print(&label, attempt, next);
                }
            };
            let report = deliverer.deliver(&message, &observer).await?;
            anyhow::Ok(NumberedDelivery { copy, report })
        });
    }
    let mut reports = Vec::with_capacity(times);
    while let Some(joined) = tasks.join_next().await {
        let delivered = reports.len();
        reports.push(
            joined
                .context("a delivery task failed")?
                .with_context(|| format!("the deliveries stopped ({delivered} of {times} had ended before it)"))?,
        );
    }
    reports.sort_by_key(|copy| copy.copy);
    Ok(reports)
}

/// `webhook send --list-events [PROVIDER]`: the bundled templates, a line each, grouped by
/// provider with the API version and the documentation each shape follows.
pub(crate) fn list_events(
    provider: Option<&str>,
    format: Format,
    palette: Palette,
    out: &mut impl Write,
) -> anyhow::Result<Outcome> {
    let templates = crate::webhook::template::list(provider)?;
    if format == Format::Json {
        crate::json_output::write_pretty(&mut *out, TEMPLATES_SCHEMA, &TemplateList { templates })?;
        out.flush()?;
        return Ok(Outcome::Holds);
    }
    let mut current = "";
    for info in &templates {
        if info.provider != current {
            if !current.is_empty() {
                writeln!(out)?;
            }
            writeln!(out, "{}  {}", palette.bold(&info.provider), palette.dim(&format!("API {}", info.api_version)))?;
            current = &info.provider;
        }
        writeln!(out, "  {}:{}", info.provider, info.event)?;
    }
    writeln!(
        out,
        "\n{}",
        palette.dim(
            "webhook send URL --event PROVIDER:TYPE [--set PATH=VALUE]... [--unset PATH]...; standard: takes any TYPE; \
             each template names its source in templates/PROVIDER/TYPE.json"
        )
    )?;
    out.flush()?;
    Ok(Outcome::Holds)
}

/// The `schema` of `webhook send --list-events --format json`.
pub(crate) const TEMPLATES_SCHEMA: &str = "webhook-templates/1";

/// `webhook send --list-events --format json`: the bundled templates, by provider then event.
#[derive(Debug, Serialize, schemars::JsonSchema)]
pub(crate) struct TemplateList {
    pub templates: Vec<crate::webhook::template::TemplateInfo>,
}
