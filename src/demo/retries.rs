//! Chapter: a client retries a payment with the same key. The correct server charges once, the
//! server that ignores keys charges on every retry.
use anyhow::Context;
use http::Method;

use super::narrator::Narrator;
use crate::exit::Outcome;
use crate::idem::print;
use crate::idem::request::RequestSpec;
use crate::idem::send::{self, SendConfig};
use crate::idem::serve::{self, Mode, ServeConfig};
use crate::idem::verdict::Verdict;
use crate::output::Format;

const PAYMENT: &str = r#"{"amount":1990,"currency":"RUB","order_id":42}"#;
const REPEATS: u32 = 3;

pub(super) async fn run(narrator: &mut Narrator) -> anyhow::Result<Outcome> {
    narrator.heading("Chapter 1: a retried payment")?;
    narrator.say("A client posts a payment; the answer is lost on the way back, so it sends the same request")?;
    narrator.say(&format!(
        "again with the same Idempotency-Key, {REPEATS} times in all. One payment should exist afterwards."
    ))?;

    let correct = retry_against(narrator, Mode::Correct).await?;
    let broken = retry_against(narrator, Mode::None).await?;

    let expected = correct == (Verdict::Consistent, 1) && broken == (Verdict::ExecutedMoreThanOnce, REPEATS as usize);
    Ok(if expected { Outcome::Holds } else { Outcome::ProblemFound })
}

/// Runs `idem send --repeat 3` against a fresh server in `mode`; returns the verdict and how many
/// payments the server holds afterwards.
async fn retry_against(narrator: &mut Narrator, mode: Mode) -> anyhow::Result<(Verdict, usize)> {
    let palette = narrator.palette;
    let server = serve::start_quiet(&ServeConfig::local(mode)).await?;
    let url = server.url("/payments");
    let description = match mode.warning() {
        Some(warning) => format!("--mode {} ({warning})", mode.as_str()),
        None => format!("--mode {} (the idempotency design done right)", mode.as_str()),
    };
    narrator.say(&format!("\n{} reference server, {description}", palette.cyan("▸")))?;
    narrator.command(&format!("idem send {url} -d '{PAYMENT}' --repeat {REPEATS}"))?;

    let config = SendConfig {
        request: RequestSpec::new(Method::POST, &url, PAYMENT)?,
        repeat: REPEATS,
        interval: std::time::Duration::ZERO,
        format: Format::Human,
        palette,
        pretty: false,
        retry: None,
    };
    let key = config.request.key_policy.next_key();
    let mut lines = Vec::new();
    let report = send::execute(&config, key, |attempt| {
        lines.push(print::attempt_line(attempt.number, &attempt.observed, attempt.latency, palette))
    })
    .await
    .context("the demo could not reach its own reference server")?;
    for line in lines {
        narrator.say(&format!("    {line}"))?;
    }
    let verdict = print::render_judgement(&report.judgement, report.attempts.len(), palette);
    narrator.say(&crate::output::indent(&verdict, 4))?;
    let summary = server.shutdown().await;
    let payments = summary.payments_created;
    let consequence = match payments {
        1 => palette.green("The server holds 1 payment: the customer was charged once."),
        n => palette.red(&format!("The server holds {n} payments: the customer was charged {n} times.")),
    };
    narrator.say(&format!("  {consequence}"))?;
    Ok((report.judgement.verdict, payments))
}
