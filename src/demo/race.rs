//! Chapter: duplicates that arrive at the same instant. The correct server claims the key
//! atomically and creates one payment; the naive one looks the key up, works, then stores it, so
//! every duplicate that arrives inside that window charges again.
use anyhow::Context;
use http::Method;

use super::narrator::Narrator;
use crate::exit::Outcome;
use crate::idem::race::{KeyMode, SyncMode, race_round};
use crate::idem::request::RequestSpec;
use crate::idem::serve::{self, Mode, ServeConfig};
use crate::idem::verdict::{Verdict, status_counts};

const PAYMENT: &str = r#"{"amount":1990,"currency":"RUB","order_id":43}"#;
const DUPLICATES: usize = 10;

pub async fn run(narrator: &mut Narrator) -> anyhow::Result<Outcome> {
    narrator.heading("Chapter 2: duplicates that arrive together")?;
    narrator.say("A double-click, or a retry fired while the first try is still running: the duplicates")?;
    narrator.say("reach the server within microseconds. `idem race` sends them over one HTTP/2 connection")?;
    narrator.say("and releases every request's last frame in a single TCP packet.")?;

    let correct = race_against(narrator, Mode::Correct).await?;
    let naive = race_against(narrator, Mode::Naive).await?;

    let expected = correct == (Verdict::Consistent, 1) && naive.0 == Verdict::ExecutedMoreThanOnce && naive.1 > 1;
    Ok(if expected { Outcome::Holds } else { Outcome::ProblemFound })
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
    let verdict = crate::idem::send::render_judgement(&round.judgement, round.answers.len(), palette);
    narrator.say(&crate::output::indent(&verdict, 4))?;
    let payments = server.shutdown().await.payments_created;
    let consequence = match payments {
        1 => palette.green("The server holds 1 payment: the 409s told the duplicates to retry later."),
        n => palette.red(&format!("The server holds {n} payments: one click, {n} charges.")),
    };
    narrator.say(&format!("  {consequence}"))?;
    Ok((round.judgement.verdict, payments))
}
