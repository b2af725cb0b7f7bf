//! Chapter: the conformance suite against each reference server. Correct passes everything, naive
//! is caught by the concurrency checks, none fails the plain retry.
use anyhow::Context;
use http::Method;

use super::narrator::Narrator;
use crate::conformance::{CheckOutcome, SuiteFormat, SuiteReport};
use crate::exit::Outcome;
use crate::idem::check::{self, CheckConfig};
use crate::idem::request::RequestSpec;
use crate::idem::serve::{self, Mode, ServeConfig};
use crate::text::ellipsis;

const PAYMENT: &str = r#"{"amount":1990,"currency":"RUB","order_id":44}"#;
/// Evidence lines longer than this are cut, so twenty payment ids do not flood the story.
const EVIDENCE_WIDTH: usize = 110;

pub(super) async fn run(narrator: &mut Narrator) -> anyhow::Result<Outcome> {
    narrator.heading("Chapter 3: the conformance suite")?;
    narrator.say("`idem check` runs nineteen checks modelled on the IETF Idempotency-Key draft: replays, reused")?;
    narrator.say("keys, concurrent duplicates, missing keys, error formats. Against each reference server:")?;

    let correct = check_against(narrator, Mode::Correct).await?;
    let naive = check_against(narrator, Mode::Naive).await?;
    let none = check_against(narrator, Mode::None).await?;

    let failed = |report: &SuiteReport| -> Vec<&str> {
        report.checks.iter().filter(|c| c.outcome == CheckOutcome::Fail).map(|c| c.id).collect()
    };
    let expected = correct.passed
        && failed(&naive) == ["concurrent-once", "lease-outlives-work"]
        && failed(&none).first() == Some(&"retry-replays");
    Ok(if expected { Outcome::Holds } else { Outcome::ProblemFound })
}

async fn check_against(narrator: &mut Narrator, mode: Mode) -> anyhow::Result<SuiteReport> {
    let palette = narrator.palette;
    let server = serve::start_quiet(&ServeConfig::local(mode)).await?;
    let url = server.url("/payments");
    let config = CheckConfig {
        request: RequestSpec::new(Method::POST, &url, PAYMENT)?,
        concurrency: 20,
        require_key: false,
        // The race chapter already measured the naive server's window.
        window_max: None,
        format: SuiteFormat::Human,
        palette,
        also: Vec::new(),
        profile: check::Profile::Ietf,
        other_caller: Vec::new(),
        other_url: None,
        work_hint: None,
        max_work: std::time::Duration::from_secs(30),
        server_cmd: None,
        stuck_for: std::time::Duration::from_secs(30),
        retention: None,
        plan: false,
        selection: Default::default(),
    };
    let report = check::execute(&config).await.context("the demo could not check its own reference server")?;
    server.shutdown().await;

    narrator.say(&format!("\n{} --mode {}", palette.cyan("▸"), mode.as_str()))?;
    narrator.command(&format!("idem check {url} -d '{PAYMENT}' --window-max 0"))?;
    let tally = &report.tally;
    let summary = format!(
        "{} passed, {} failed, {} warnings, {} skipped",
        tally.passed, tally.failed, tally.warned, tally.skipped
    );
    if report.passed {
        narrator.say(&format!("    {} {summary}", palette.green("✓ every required check passed:")))?;
    } else {
        narrator.say(&format!("    {} {summary}", palette.red("✗")))?;
    }
    for check in report.checks.iter().filter(|c| c.outcome == CheckOutcome::Fail) {
        narrator.say(&format!("    {} {}: {}", palette.red("FAIL"), check.id, check.title))?;
        // What the check found, as it stated it.
        if let Some(line) = check.finding.as_ref().or(check.evidence.first()) {
            narrator.say(&format!("         {}", palette.dim(&ellipsis(line, EVIDENCE_WIDTH))))?;
        }
    }
    Ok(report)
}
