//! `webhook check URL`: does this receiver verify, de-duplicate and acknowledge webhooks as it
//! must? The suite shape of `idem check`: ids, levels, evidence, human/JSON/JUnit, exit 0/1/2.
mod cross_scheme;
mod probe;
pub(crate) mod suite;

use std::sync::Arc;
use std::time::Duration;

use anyhow::{Context, bail};
use http::Uri;

use crate::conformance::{Selection, SuiteFormat, SuiteReport};
use crate::exit::Outcome;
use crate::output::Palette;
use crate::webhook::scheme::Scheme;
use crate::webhook::secret::SecretSource;
use probe::{Answer, Probe};

/// How far from now the stale and future timestamps are: the 10 minutes, or twice the
/// receiver's tolerance when that is longer, so the request is clearly outside the window.
pub(crate) const MIN_SKEW: Duration = Duration::from_secs(600);

#[derive(Debug)]
pub struct CheckConfig {
    pub url: Uri,
    pub scheme: Box<dyn Scheme>,
    pub secret: SecretSource,
    /// The receiver's timestamp tolerance (5 minutes for Stripe and Standard Webhooks).
    pub tolerance: Duration,
    /// How long each request may take.
    pub timeout: Duration,
    /// How fast the valid delivery must be acknowledged (`fast-ack`).
    pub ack_within: Duration,
    pub insecure: bool,
    /// `--proxy`, `--noproxy` and the environment, resolved.
    pub proxies: crate::http::proxy::Proxies,
    pub format: SuiteFormat,
    pub palette: Palette,
    /// `--only`, `--skip`, `--expect-fail`, `--strict`, `--junit-warnings`.
    pub(crate) selection: Selection,
}

/// Runs every check. An error means the suite could not run (no secret, receiver unreachable).
pub(crate) async fn execute(config: CheckConfig) -> anyhow::Result<SuiteReport> {
    let kind = config.scheme.kind();
    let selection = config.selection.clone();
    let key = config.scheme.key(&config.secret.load()?).with_context(|| format!("cannot sign with --scheme {kind}"))?;
    let scheme: Arc<dyn Scheme> = config.scheme.into();
    let probe = Probe::new(
        config.url.clone(),
        Arc::clone(&scheme),
        key,
        config.timeout,
        config.insecure,
        config.proxies.clone(),
    )?;
    let skew = i64::try_from(MIN_SKEW.max(config.tolerance.saturating_mul(2)).as_secs()).unwrap_or(i64::MAX / 2);
    let target = format!("POST {} (--scheme {kind})", config.url);

    let first = probe.event();
    let (valid, answer) = suite::valid(&probe, &first).await?;
    if let Answer::Failed(err) = &answer {
        bail!("cannot reach the receiver at {}: {err}; is it running, and is the URL right?", config.url);
    }
    // A receiver that never answers could not be tested: exit 2 like `idem check`, not eight failures.
    if let Answer::TimedOut(after) = &answer {
        bail!(
            "the receiver at {} did not answer within {}; is it running, and is --timeout long enough?",
            config.url,
            crate::units::format_duration(*after)
        );
    }
    let accepted = valid.outcome == crate::conformance::CheckOutcome::Pass;
    let mut checks = vec![valid, suite::fast_ack(&answer, config.ack_within)];
    let not_accepted = "the valid delivery was not accepted, so there is nothing to repeat";
    checks.push(if accepted {
        suite::duplicate(&probe, &first).await?
    } else {
        suite::DUPLICATE_ACCEPTED.skipped(not_accepted)
    });
    checks.push(suite::raw_body(&probe, accepted).await?);
    checks.push(suite::bad_signature(&probe).await?);
    checks.push(suite::missing_signature(&probe).await?);
    checks.push(suite::tampered_body(&probe).await?);
    if scheme.is_timestamped() {
        checks.extend(suite::timestamps(&probe, skew).await?);
        checks.push(if accepted {
            suite::replay(&probe, &first, skew).await?
        } else {
            suite::REPLAY_REJECTED.skipped(not_accepted)
        });
        checks.push(cross_scheme::cross_scheme_replay(&probe, skew).await?);
    } else {
        let reason = format!("--scheme {kind} signs no timestamp, so a receiver cannot tell a replay by its age");
        for spec in [
            suite::STALE_TIMESTAMP_REJECTED,
            suite::FUTURE_TIMESTAMP_REJECTED,
            suite::REPLAY_REJECTED,
            cross_scheme::CROSS_SCHEME_REPLAY_REJECTED,
        ] {
            checks.push(spec.skipped(reason.clone()));
        }
    }
    Ok(SuiteReport::new("webhook check", target, checks).select(&selection, &[suite::VALID_ACCEPTED.id]))
}

pub(crate) async fn run(config: CheckConfig) -> anyhow::Result<Outcome> {
    let (format, palette) = (config.format, config.palette);
    let target = format!("POST {} (--scheme {})", config.url, config.scheme.kind());
    crate::conformance::finish_suite(execute(config).await, "webhook check", target, format, palette)
}
