//! `webhook check URL`: does this receiver verify, de-duplicate and acknowledge webhooks as it
//! must? The suite shape of `idem check`: ids, levels, evidence, human/JSON/JUnit, exit 0/1/2.
//!
//! The suite's files have the roles every suite folder has: `catalogue` (every check's spec, in
//! report order), `probe` (sending, and reading answers), one file per group of checks
//! (`acceptance`, `duplicates`, `raw_body`, `forgeries`, `signature_lists`, `events`,
//! `timestamps`, `cross_scheme`), and this entry point, which runs them. `payload` is what the
//! deliveries carry.
mod acceptance;
pub(crate) mod catalogue;
mod cert_pinning;
mod cross_scheme;
mod duplicates;
mod events;
mod forgeries;
mod handshakes;
pub(crate) mod payload;
mod probe;
mod raw_body;
mod signature_lists;
mod timestamps;

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::time::Duration;

use anyhow::{Context, bail};
use http::Uri;

use crate::conformance::{CheckResult, CheckSpec, Selection, SuiteFormat, SuiteReport};
use crate::exit::Outcome;
use crate::http::url::Redacted;
use crate::output::Palette;
use crate::webhook::scheme::Scheme;
use crate::webhook::secret::SecretSource;
use payload::CheckPayload;
use probe::{Answer, Probe};

/// Why the rejection checks are skipped when the valid delivery was refused.
pub(crate) const NOTHING_ACCEPTED: &str = "nothing is ever accepted, so its rejections prove nothing";
/// The hint when a correctly signed delivery is refused exactly as a forged one is.
pub(crate) const WRONG_SECRET_HINT: &str = "is --secret the receiver's endpoint secret and --scheme its scheme?";

/// How far from now the stale and future timestamps are: the 10 minutes, or twice the
/// receiver's tolerance when that is longer, so the request is clearly outside the window.
pub(crate) const MIN_SKEW: Duration = Duration::from_secs(600);

#[derive(Debug)]
pub struct CheckConfig {
    pub url: Uri,
    pub scheme: Box<dyn Scheme>,
    pub secret: SecretSource,
    /// What the valid deliveries carry (`--event`, `-d`).
    pub payload: CheckPayload,
    /// The receiver's timestamp tolerance (5 minutes for Stripe and Standard Webhooks).
    pub tolerance: Duration,
    /// How long each request may take.
    pub timeout: Duration,
    /// How fast the valid delivery must be acknowledged (`fast-ack`).
    pub ack_within: Duration,
    pub insecure: bool,
    /// `--proxy`, `--noproxy` and the environment, resolved.
    pub proxies: crate::http::outbound_proxy::Proxies,
    pub format: SuiteFormat,
    pub palette: Palette,
    /// `--count-url`: the receiver's count of processed deliveries, for `duplicate-processed-once`
    /// and `concurrent-duplicates-processed-once`.
    pub count: Option<crate::count::CountSource>,
    /// `-n`: how many identical copies `concurrent-duplicates-processed-once` releases together.
    pub concurrency: usize,
    /// `--http2`: the receiver speaks HTTP/2 with prior knowledge on http:// (h2c), so the copies
    /// go as one HTTP/2 single packet instead of HTTP/1.1 last bytes.
    pub http2: bool,
    /// `--only`, `--skip`, `--expect-fail`, `--strict`, `--junit-warnings`.
    pub(crate) selection: Selection,
    /// `--max-requests`: every delivery the suite sends draws on it.
    pub budget: crate::http::budget::RequestBudget,
    /// PayPal's `--webhook-id`, which `cert-url-pinned` signs its forgery for.
    pub webhook_id: Option<String>,
}

/// Runs every check. An error means the suite could not run (no secret, receiver unreachable,
/// `--max-requests` reached).
pub(crate) async fn execute(config: CheckConfig) -> anyhow::Result<SuiteReport> {
    let budget = config.budget.clone();
    let result = execute_checks(config).await;
    // The probe reads a refused request as "no answer", which the checks would judge as the
    // receiver's: when the budget refused one, the suite stopped there and judged nothing after.
    match budget.refusal() {
        Some(refusal) => Err(anyhow::Error::new(refusal).context("the suite stopped")),
        None => result,
    }
}

async fn execute_checks(config: CheckConfig) -> anyhow::Result<SuiteReport> {
    let kind = config.scheme.kind();
    let selection = config.selection.clone();
    let key = config
        .scheme
        .signing_key(&config.secret.load()?)
        .with_context(|| format!("cannot sign with --scheme {kind}"))?;
    let scheme: Arc<dyn Scheme> = config.scheme.into();
    let probe = Probe::new(
        config.url.clone(),
        Arc::clone(&scheme),
        key,
        config.timeout,
        config.insecure,
        config.proxies.clone(),
        config.payload.clone(),
    )?
    .with_budget(config.budget.clone());
    let skew = i64::try_from(MIN_SKEW.max(config.tolerance.saturating_mul(2)).as_secs()).unwrap_or(i64::MAX / 2);
    let target = format!("POST {} (--scheme {kind})", Redacted(&config.url));

    let count_before = match &config.count {
        Some(count) => Some(count.baseline().await?),
        None => None,
    };
    let started = std::time::Instant::now();
    let first = probe.event();
    let (valid, answer) = acceptance::valid(&probe, &first).await?;
    ensure_answered(&config.url, &answer)?;
    let accepted = valid.outcome == crate::conformance::CheckOutcome::Pass;
    let mut checks = vec![valid, acceptance::fast_ack(&answer, config.ack_within)];
    let not_accepted = "the valid delivery was not accepted, so there is nothing to repeat";
    checks.push(if accepted {
        duplicates::duplicate(&probe, &first).await?
    } else {
        catalogue::DUPLICATE_ACCEPTED.skipped(not_accepted)
    });
    checks.push(match (&config.count, count_before) {
        _ if !accepted => catalogue::DUPLICATE_PROCESSED_ONCE.skipped(not_accepted),
        (Some(count), Some(before)) => {
            // The slower of the two deliveries' answers, for the adaptive settle interval.
            let first_took = match &answer {
                probe::Answer::Status(exchange) => exchange.latency,
                _ => Duration::ZERO,
            };
            let slowest = checks.iter().map(|check| check.duration).fold(first_took, std::cmp::Ord::max);
            duplicates::processed_once(count, before, &first, started, slowest).await?
        }
        _ => catalogue::DUPLICATE_PROCESSED_ONCE.skipped(
            "a 2xx to the duplicate does not show whether it was processed again: give --count-url URL (a GET on the \
             receiver that returns how many deliveries it processed) to prove de-duplication",
        ),
    });
    let concurrent = catalogue::CONCURRENT_DUPLICATES_PROCESSED_ONCE;
    checks.push(match &config.count {
        _ if !accepted => concurrent.skipped(not_accepted),
        // Left out anyway: not worth N deliveries and their side effects.
        _ if !selection.runs(concurrent.id) => concurrent.skipped("left out"),
        // The race engine opens its own connections: copies released together cannot be relayed
        // through a proxy and still arrive together.
        Some(_) if config.proxies.route_for(&config.url).is_some() => concurrent.skipped(format!(
            "requests to the receiver go through the proxy {}, and copies released together through it would no \
             longer arrive together; run where the receiver is reachable directly (--noproxy)",
            config.proxies.route_for(&config.url).map(|proxy| proxy.shown().to_string()).unwrap_or_default()
        )),
        Some(count) => duplicates::concurrent_processed_once(&probe, count, config.concurrency, config.http2).await?,
        None => concurrent.skipped(
            "2xx answers to copies that arrive together do not show how many were processed: give --count-url URL \
             (a GET on the receiver that returns how many deliveries it processed) to race duplicates at it",
        ),
    });
    let raw = raw_body::raw_body(&probe, accepted).await?;
    if !accepted {
        explain_refusal(&probe, &config.url, &answer, &raw, &mut checks[0]).await?;
    }
    checks.push(raw.check);
    if !accepted {
        checks.extend(skipped_as_nothing_accepted(&probe, scheme.as_ref()).await?);
        checks.extend(handshakes::handshakes(&probe).await?);
        if matches!(kind, crate::webhook::scheme::SchemeKind::Certified(_)) {
            checks.push(catalogue::CERT_URL_PINNED.skipped(NOTHING_ACCEPTED));
        }
        return Ok(SuiteReport::new("webhook check", target, checks)
            .with_every_check(catalogue::CHECKS)
            .select(&selection, &[catalogue::VALID_ACCEPTED.id]));
    }
    for (_, run) in FORGERIES {
        checks.push(run(&probe).await?);
    }
    checks.extend(receiver_mistakes(&probe, accepted).await?);
    if scheme.is_timestamped() {
        checks.extend(timestamps::timestamps(&probe, skew).await?);
        checks.push(timestamps::replay(&probe, &first, skew).await?);
        checks.push(cross_scheme::cross_scheme_replay(&probe, skew).await?);
    } else {
        let reason = format!("--scheme {kind} signs no timestamp, so a receiver cannot tell a replay by its age");
        for spec in [
            catalogue::STALE_TIMESTAMP_REJECTED,
            catalogue::FUTURE_TIMESTAMP_REJECTED,
            catalogue::REPLAY_REJECTED,
            catalogue::CROSS_SCHEME_REPLAY_REJECTED,
        ] {
            checks.push(spec.skipped(reason.clone()));
        }
    }
    checks.extend(handshakes::handshakes(&probe).await?);
    // Only the schemes whose deliveries name a certificate URL run it, as only the providers with
    // a handshake run the handshake checks; the others say why it was skipped.
    if let crate::webhook::scheme::SchemeKind::Certified(provider) = kind {
        let webhook_id = config.webhook_id.as_deref().unwrap_or_default();
        checks.push(cert_pinning::cert_url_pinned(&probe, provider, webhook_id).await?);
    } else {
        checks.push(catalogue::CERT_URL_PINNED.skipped(format!(
            "--scheme {kind} names no certificate URL in its deliveries (AWS SNS's and PayPal's do: --scheme sns|paypal)"
        )));
    }
    Ok(SuiteReport::new("webhook check", target, checks)
        .with_every_check(catalogue::CHECKS)
        .select(&selection, &[catalogue::VALID_ACCEPTED.id]))
}

/// A receiver that could not be reached, or never answered, could not be tested: exit 2 like
/// `idem check`, not eight failures.
fn ensure_answered(url: &Uri, answer: &Answer) -> anyhow::Result<()> {
    if let Answer::Failed(err) = answer {
        bail!("cannot reach the receiver at {}: {err}; is it running, and is the URL right?", Redacted(url));
    }
    if let Answer::TimedOut(after) = answer {
        bail!(
            "the receiver at {} did not answer within {}; is it running, and is --timeout long enough?",
            url,
            crate::units::format_duration(*after)
        );
    }
    Ok(())
}

/// Why the valid delivery was refused, when the other answers tell: a wrong URL (every request
/// answered 404 or 405) is an error; a refusal like a forgery's, or the same event accepted in
/// another serialisation, is evidence on `valid`.
async fn explain_refusal(
    probe: &Probe,
    url: &Uri,
    answer: &Answer,
    raw: &raw_body::RawBody,
    valid: &mut CheckResult,
) -> anyhow::Result<()> {
    let valid_status = match answer {
        Answer::Status(exchange) => Some(exchange.status.as_u16()),
        _ => None,
    };
    if matches!(valid_status, Some(404 | 405)) && matches!(raw.status, Some(404 | 405)) {
        bail!(
            "every request to {} was answered {}: check the URL (the receiver's path, and that it takes POST)",
            url,
            crate::webhook::deliver::engine::describe_status(valid_status.unwrap_or_default())
        );
    }
    if raw.accepted_style.is_none() && raw_body::refused_like_a_forgery(probe, answer).await? {
        valid
            .evidence
            .push(format!("refused exactly like a delivery signed with a wrong secret: {}", WRONG_SECRET_HINT));
    }
    if let Some(style) = raw.accepted_style {
        valid.evidence.push(format!(
            "the same event written {style} was accepted: the receiver verifies its own re-serialisation of the body"
        ));
    }
    Ok(())
}

/// The rest of the suite when the valid delivery was refused: a receiver that refuses everything
/// would pass every rejection for the wrong reason, so they are skipped.
async fn skipped_as_nothing_accepted(probe: &Probe, scheme: &dyn Scheme) -> anyhow::Result<Vec<CheckResult>> {
    let mut checks: Vec<CheckResult> = FORGERIES.iter().map(|(spec, _)| spec.skipped(NOTHING_ACCEPTED)).collect();
    checks.extend(receiver_mistakes(probe, false).await?);
    let mut rejections = Vec::new();
    if scheme.is_timestamped() {
        rejections.extend([
            catalogue::STALE_TIMESTAMP_REJECTED,
            if scheme.accepts_future_timestamps() {
                catalogue::FUTURE_TIMESTAMP_ADVISED
            } else {
                catalogue::FUTURE_TIMESTAMP_REJECTED
            },
            catalogue::REPLAY_REJECTED,
            catalogue::CROSS_SCHEME_REPLAY_REJECTED,
        ]);
    }
    checks.extend(rejections.into_iter().map(|spec| spec.skipped(NOTHING_ACCEPTED)));
    Ok(checks)
}

/// A check that needs nothing but the probe, run once the valid delivery was accepted.
type ProbeCheck = for<'p> fn(&'p Probe) -> Pin<Box<dyn Future<Output = anyhow::Result<CheckResult>> + 'p>>;

/// The deliveries the secret did not sign as they stand, in report order: each spec with the
/// function that runs it. Skipped as proving nothing when nothing is accepted.
const FORGERIES: [(CheckSpec, ProbeCheck); 3] = [
    (catalogue::BAD_SIGNATURE_REJECTED, |probe| Box::pin(forgeries::bad_signature(probe))),
    (catalogue::MISSING_SIGNATURE_REJECTED, |probe| Box::pin(forgeries::missing_signature(probe))),
    (catalogue::TAMPERED_BODY_REJECTED, |probe| Box::pin(forgeries::tampered_body(probe))),
];

/// The checks for mistakes real receivers make with lists, truncation, unknown types and order,
/// in report order: each spec with the function that runs it.
const RECEIVER_MISTAKES: [(CheckSpec, ProbeCheck); 4] = [
    (catalogue::ANY_LISTED_SIGNATURE_ACCEPTED, |probe| Box::pin(signature_lists::any_listed(probe))),
    (catalogue::TRUNCATED_SIGNATURE_REJECTED, |probe| Box::pin(signature_lists::truncated(probe))),
    (catalogue::UNKNOWN_EVENT_ACKNOWLEDGED, |probe| Box::pin(events::unknown_event(probe))),
    (catalogue::OUT_OF_ORDER_ACCEPTED, |probe| Box::pin(events::out_of_order(probe))),
];

/// Runs [`RECEIVER_MISTAKES`]. Each needs the valid delivery accepted: otherwise a refusal says
/// nothing about the mistake.
async fn receiver_mistakes(probe: &Probe, accepted: bool) -> anyhow::Result<Vec<CheckResult>> {
    if !accepted {
        let reason = format!(
            "could not judge: the valid delivery ({}) was not accepted; choose what the receiver handles with \
             --event TYPE or -d BODY",
            probe.payload.describe()
        );
        return Ok(RECEIVER_MISTAKES.iter().map(|(spec, _)| spec.skipped(reason.clone())).collect());
    }
    let mut checks = Vec::with_capacity(RECEIVER_MISTAKES.len());
    for (_, run) in RECEIVER_MISTAKES {
        checks.push(run(probe).await?);
    }
    Ok(checks)
}

pub(crate) async fn run(config: CheckConfig) -> anyhow::Result<Outcome> {
    let (format, palette) = (config.format, config.palette);
    let target = format!("POST {} (--scheme {})", Redacted(&config.url), config.scheme.kind());
    crate::conformance::finish_suite(execute(config).await, "webhook check", target, format, palette)
}
