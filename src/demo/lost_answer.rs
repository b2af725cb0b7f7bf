//! Chapter: the answer was lost. `idem proxy` stands between a client and the reference server,
//! lets the first payment execute and drops its answer. A client that keeps its key charges once;
//! one that makes a new key per attempt charges twice, and the proxy names both payments.
use std::time::Duration;

use anyhow::Context;
use http::Method;

use super::narrator::Narrator;
use crate::exit::Outcome;
use crate::idem::proxy::judge::RunVerdict;
use crate::idem::proxy::{self, ProxyConfig, print};
use crate::idem::request::RequestSpec;
use crate::idem::send::{self, SendConfig};
use crate::idem::send_retry::{RetryOn, SendRetry};
use crate::idem::serve::{self, Mode, ServeConfig};
use crate::output::Format;
use crate::retry::RetryPolicy;

const PAYMENT: &str = r#"{"amount":1990,"currency":"RUB","order_id":42}"#;

pub(super) async fn run(narrator: &mut Narrator) -> anyhow::Result<Outcome> {
    narrator.heading("Chapter 5: the answer was lost")?;
    narrator.say("A perfect server is not enough: the client must send the same key again when it retries.")?;
    narrator.say("`idem proxy` sits in front of the server, lets the payment execute, then drops its answer,")?;
    narrator.say("and judges what the client does next.")?;

    let keeps = client_behind_proxy(narrator, false).await?;
    let new_key = client_behind_proxy(narrator, true).await?;
    let expected = keeps == (RunVerdict::Safe, 1) && new_key == (RunVerdict::ClientMistakes, 2);
    Ok(if expected { Outcome::Holds } else { Outcome::ProblemFound })
}

/// Runs `idem send --retry 3` (with `--new-key-per-retry` when asked) through a fresh proxy in
/// front of a fresh correct server; returns the proxy's verdict and the payments the server holds.
async fn client_behind_proxy(narrator: &mut Narrator, new_key_per_retry: bool) -> anyhow::Result<(RunVerdict, usize)> {
    let palette = narrator.palette;
    let server = serve::start_quiet(&ServeConfig::local(Mode::Correct)).await?;
    let (events, lines) = std::sync::mpsc::sync_channel(64);
    let running = proxy::start(&ProxyConfig::local(&server.url(""))?, Some(events)).await?;
    let url = format!("{}/payments", running.url());
    let (what, flag) = if new_key_per_retry {
        ("a client that makes a new key for every attempt (the classic bug)", " --new-key-per-retry")
    } else {
        ("a client that keeps its key", "")
    };
    narrator.say(&format!("\n{} {what}", palette.cyan("▸")))?;
    narrator.command(&format!(
        "idem proxy --upstream {} -- idem send '$IDEM_PROXY_URL/payments' -d '{PAYMENT}' --retry 3{flag}",
        server.url("")
    ))?;

    let config = SendConfig {
        request: RequestSpec::new(Method::POST, &url, PAYMENT)?,
        repeat: 1,
        interval: Duration::ZERO,
        format: Format::Human,
        palette,
        pretty: false,
        retry: Some(SendRetry {
            policy: RetryPolicy::exponential(
                4,
                Duration::from_millis(200),
                crate::idem::send_retry::DEFAULT_BACKOFF_MAX,
            ),
            on: RetryOn::default(),
            new_key_per_retry,
            announce: None,
        }),
    };
    let key = config.request.key_policy.next_key();
    send::execute(&config, key, |_| {}).await.context("the demo could not reach its own proxy")?;
    let report = running.shutdown().await;
    for event in lines.try_iter() {
        if let print::ProxyEvent::Attempt(attempt) = event {
            narrator.say(&format!("    {}", print::attempt_line(&attempt, palette)))?;
        }
    }
    narrator.say(&crate::output::indent(&print::summary(&report, palette), 4))?;
    let payments = server.shutdown().await.payments_created;
    let consequence = match payments {
        1 => palette.green("The server holds 1 payment: the customer was charged once."),
        n => palette.red(&format!("The server holds {n} payments: the customer was charged {n} times.")),
    };
    narrator.say(&format!("  {consequence}"))?;
    Ok((report.verdict, payments))
}
