//! Chapter: webhooks arrive more than once. A local `webhook listen` fails the first attempt on
//! purpose, `webhook send` retries like a provider, a redelivery is recognised as a duplicate and a
//! forged delivery is refused.
use std::sync::{Arc, Mutex};
use std::time::Duration;

use anyhow::Context;

use super::narrator::Narrator;
use crate::exit::Outcome;
use crate::http::url::parse_url;
use crate::retry::{Backoff, PlannedWait, RetryPolicy};
use crate::sync::lock;
use crate::webhook::deliver::engine::{AttemptReport, DeliverOptions, Deliverer, DeliveryReport, Message};
use crate::webhook::deliver::print::AttemptLines;
use crate::webhook::delivery::{fresh_id, unix_now};
use crate::webhook::listen::{self, ListenConfig};
use crate::webhook::payload::envelope;
use crate::webhook::scheme::new_secret;
use crate::webhook::scheme::{self, Scheme, SchemeKind, SchemeOptions};
use crate::webhook::secret::Secret;

const EVENT_TYPE: &str = "payment.succeeded";
const MAX_ATTEMPTS: u32 = 5;

pub(super) async fn run(narrator: &mut Narrator) -> anyhow::Result<Outcome> {
    let palette = narrator.palette;
    narrator.heading("Chapter 4: webhooks that arrive more than once")?;
    narrator.say("Providers retry until they see a 2xx, so a receiver must check every signature and")?;
    narrator.say("recognise an event it already has. A local receiver (Standard Webhooks signatures)")?;
    narrator.say("answers the first attempt of each event with 500, on purpose:")?;

    let secret_text = new_secret::generate(SchemeKind::Standard)?;
    let secret = Secret::new(secret_text.into_bytes())?;
    let mut config = ListenConfig::local(SchemeKind::Standard, secret.clone());
    config.fail_first = 1;
    let listener = listen::start(&config).await.context("the demo could not start its webhook listener")?;
    let url = listener.url("/webhooks");
    narrator.command("webhook listen --scheme standard --secret-file secret.txt --fail-first 1")?;

    let scheme: Arc<dyn Scheme> = scheme::build(SchemeKind::Standard, &SchemeOptions::default()).into();
    let key = scheme.key(&secret)?;
    let event_id = fresh_id("evt_");
    let body =
        envelope(EVENT_TYPE, &event_id, unix_now(), serde_json::json!({ "payment": "pay_demo", "amount": 1990 }));
    let message =
        Message::signed(body, &event_id, Some(EVENT_TYPE.to_string()), &fresh_id("msg_"), Arc::clone(&scheme), key);
    let retries = RetryPolicy {
        backoff: Backoff::Exponential {
            max_attempts: MAX_ATTEMPTS,
            initial: Duration::from_millis(200),
            max: Duration::from_secs(1),
        },
        time_scale: 1.0,
    };

    narrator.say(&format!("\n{} the provider sends {EVENT_TYPE} and retries with backoff", palette.cyan("▸")))?;
    narrator.command(&format!("webhook send {url} --scheme standard --event {EVENT_TYPE} --backoff 200ms"))?;
    let first = deliver(narrator, &url, &message, retries.clone()).await?;

    narrator.say(&format!(
        "\n{} it never saw that 200 (a timeout on its side), so it delivers the event again",
        palette.cyan("▸")
    ))?;
    let again = deliver(narrator, &url, &message, retries).await?;
    let duplicates = listener.summary().duplicates;
    if duplicates > 0 {
        narrator.say(&format!(
            "  {}",
            palette.green("The receiver recognised the event id: acknowledged as a duplicate, not processed twice.")
        ))?;
    }

    narrator
        .say(&format!("\n{} someone posts a forged {EVENT_TYPE}, signed with another secret", palette.cyan("▸")))?;
    let forged_secret = Secret::new(new_secret::generate(SchemeKind::Standard)?.into_bytes())?;
    let forged_key = scheme.key(&forged_secret)?;
    let forged = Message::signed(
        message.body.clone(),
        &fresh_id("evt_"),
        Some(EVENT_TYPE.to_string()),
        &fresh_id("msg_"),
        scheme,
        forged_key,
    );
    let once = RetryPolicy { backoff: Backoff::Schedule(vec![Duration::ZERO]), time_scale: 1.0 };
    let refused = deliver(narrator, &url, &forged, once).await?;

    let summary = listener.shutdown().await;
    narrator.say(&format!(
        "  The receiver saw {} deliveries: {} valid ({} duplicate), {} invalid, {} failed on purpose.",
        summary.received, summary.valid, summary.duplicates, summary.invalid, summary.failed_on_purpose
    ))?;

    let expected = first.delivered
        && first.attempts.len() == 2
        && again.delivered
        && summary.duplicates == 1
        && !refused.delivered
        && refused.attempts.first().and_then(|a| a.status) == Some(401);
    Ok(if expected { Outcome::Holds } else { Outcome::ProblemFound })
}

/// Delivers `message` with `policy`, then narrates every attempt.
async fn deliver(
    narrator: &mut Narrator,
    url: &str,
    message: &Message,
    policy: RetryPolicy,
) -> anyhow::Result<DeliveryReport> {
    let max_attempts = policy.max_attempts();
    let options = DeliverOptions { policy, ..DeliverOptions::default() };
    let deliverer = Deliverer::new(parse_url(url)?, &options)?.with_wait_bar(false);
    let lines = AttemptLines { palette: narrator.palette, max_attempts };
    let printed = Mutex::new(Vec::new());
    let observer = |_: &Message, attempt: &AttemptReport, next: Option<&PlannedWait>| {
        lock(&printed).push(lines.line("", attempt, next));
    };
    let report = deliverer.deliver(message, &observer).await.context("the demo could not sign its delivery")?;
    for line in printed.into_inner().unwrap_or_else(|poisoned| poisoned.into_inner()) {
        narrator.say(&format!("  {}", line.trim_end()))?;
    }
    Ok(report)
}
