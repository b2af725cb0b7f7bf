//! Chapter: duplicates that arrive at the same instant. The correct server claims the key
//! atomically and creates one payment; the naive one looks the key up, works, then stores it, so
//! every duplicate that arrives inside that window charges again; the chapter ends with how wide
//! that window is.
use std::time::Duration;

use anyhow::Context;
use http::Method;

use super::narrator::Narrator;
use crate::exit::Outcome;
use crate::idem::race::{KeyMode, SyncMode, race_round};
use crate::idem::request::RequestSpec;
use crate::idem::serve::{self, Mode, ServeConfig};
use crate::idem::verdict::{Verdict, status_counts};
use crate::idem::window;
use crate::units::format_duration;

const PAYMENT: &str = r#"{"amount":1990,"currency":"RUB","order_id":43}"#;
const DUPLICATES: usize = 10;
/// The work time of the server whose window is measured: wide enough to measure quickly and
/// exactly on a busy machine, narrow enough for the chapter to stay short.
const WORK: Duration = Duration::from_millis(20);

pub(super) async fn run(narrator: &mut Narrator) -> anyhow::Result<Outcome> {
    narrator.heading("Chapter 2: duplicates that arrive together")?;
    narrator.say("A double-click, or a retry fired while the first try is still running: the duplicates")?;
    narrator.say("reach the server within microseconds. `idem race` sends them over one HTTP/2 connection")?;
    narrator.say("and releases every request's last frame in a single TCP packet.")?;

    let correct = race_against(narrator, Mode::Correct).await?;
    let naive = race_against(narrator, Mode::Naive).await?;
    let window = naive_window(narrator).await?;

    let expected = correct == (Verdict::Consistent, 1)
        && naive.0 == Verdict::ExecutedMoreThanOnce
        && naive.1 > 1
        && window.is_some_and(|w| w.abs_diff(WORK) <= WORK / 5);
    Ok(if expected { Outcome::Holds } else { Outcome::ProblemFound })
}

/// The naive server's window: how far apart duplicates may arrive and both still charge. It is
/// the server's work time, so the demo runs one with a known one.
async fn naive_window(narrator: &mut Narrator) -> anyhow::Result<Option<Duration>> {
    let palette = narrator.palette;
    narrator.say("\nHow wide is the naive server's window? Pairs with one key, the second sent later and later:")?;
    let server = serve::start_quiet(&ServeConfig { work: WORK, ..ServeConfig::local(Mode::Naive) }).await?;
    let url = server.url("/payments");
    let max = WORK * 4;
    narrator.command(&format!("idem window {url} -d '{PAYMENT}' --max {}", format_duration(max)))?;
    let spec = RequestSpec::new(Method::POST, &url, PAYMENT)?;
    let report = window::measure(&spec, max, 3, |_| {})
        .await
        .context("the demo could not measure its own reference server's window")?;
    server.shutdown().await;
    narrator.say(&format!("    {} steps; {}", report.steps.len(), palette.red(&report.meaning)))?;
    let estimate = report.estimate();
    if let Some(estimate) = estimate {
        narrator.say(&format!(
            "  The server works {} per payment, and its window is ≈{}: the lookup and the store are that far apart.",
            format_duration(WORK),
            format_duration(estimate)
        ))?;
    }
    Ok(estimate)
}

/// One single-packet round against a fresh server in `mode`; the verdict and the payments held.
async fn race_against(narrator: &mut Narrator, mode: Mode) -> anyhow::Result<(Verdict, usize)> {
    let palette = narrator.palette;
    let server = serve::start_quiet(&ServeConfig::local(mode)).await?;
    let url = server.url("/payments");
    let description = match mode {
        Mode::Naive => "--mode naive (looks the key up, charges, then stores it)".to_string(),
        _ => format!("--mode {} (claims the key atomically)", mode.as_str()),
    };
    narrator.say(&format!("\n{} reference server, {description}", palette.cyan("▸")))?;
    narrator.command(&format!("idem race {url} -d '{PAYMENT}' -n {DUPLICATES} --http2"))?;

    let mut spec = RequestSpec::new(Method::POST, &url, PAYMENT)?;
    spec.http2 = true;
    let round = race_round(&spec, DUPLICATES, SyncMode::Auto, KeyMode::Same)
        .await
        .context("the demo could not race its own reference server")?;
    let answers = status_counts(round.answers.iter().map(|answer| &answer.observed));
    let release = round.release.as_ref().map_or(String::new(), |r| format!(", final frames in {} write(s)", r.writes));
    narrator.say(&format!("    {} via {}{release}: {}", DUPLICATES, round.sync.as_str(), answers))?;
    let verdict = crate::idem::print::render_judgement(&round.judgement, round.answers.len(), palette);
    narrator.say(&crate::output::indent(&verdict, 4))?;
    let payments = server.shutdown().await.payments_created;
    let consequence = match payments {
        1 => palette.green("The server holds 1 payment: the 409s told the duplicates to retry later."),
        n => palette.red(&format!("The server holds {n} payments: one click, {n} charges.")),
    };
    narrator.say(&format!("  {consequence}"))?;
    Ok((round.judgement.verdict, payments))
}
