//! `idem check`: does this endpoint handle Idempotency-Key correctly? One command, a verdict per
//! check, an exit status for CI.
mod crash;
mod in_flight;
pub(crate) mod openapi;
mod profile;
mod race_window;
mod replay_shape;
mod scope;
pub(crate) mod server_cmd;
mod suite;
mod variant;

pub(crate) use profile::Profile;
pub(crate) use suite::CHECKS;

use crate::conformance::{CheckOutcome, Selection, SuiteFormat, SuiteReport};
use crate::exit::Outcome;
use crate::idem::request::RequestSpec;
use crate::output::Palette;

#[derive(Debug, Clone)]
pub(crate) struct CheckConfig {
    pub request: RequestSpec,
    /// How many concurrent duplicates `concurrent-once` sends.
    pub concurrency: usize,
    /// The endpoint is expected to refuse requests without a key.
    pub require_key: bool,
    /// The widest spacing `race-window` probes; `None` leaves the check out.
    pub window_max: Option<std::time::Duration>,
    pub format: SuiteFormat,
    pub palette: Palette,
    /// `--also`: more instances of the same API. `concurrent-once` spreads its duplicates over
    /// every target and `retry-replays` sends the retry to the first of these.
    pub also: Vec<http::Uri>,
    /// `--profile`: how the disputed verdicts are decided.
    pub profile: Profile,
    /// `--as`: the headers that make a request caller B's, for `caller-scoped`.
    pub other_caller: Vec<(http::HeaderName, http::HeaderValue)>,
    /// `--other-url`: another endpoint accepting the same body, for `path-scoped`.
    pub other_url: Option<http::Uri>,
    /// `--work-hint`: how long one request takes, for the in-flight checks.
    pub work_hint: Option<std::time::Duration>,
    /// `--max-work`: the latest retry of `lease-outlives-work`.
    pub max_work: std::time::Duration,
    /// `--server-cmd`: the command that starts the server under test, for `crash-recovers`.
    pub server_cmd: Option<String>,
    /// `--stuck-for`: how long `crash-recovers` retries before calling the key stuck.
    pub stuck_for: std::time::Duration,
    /// `--only`, `--skip`, `--expect-fail`, `--strict`, `--junit-warnings`.
    pub selection: Selection,
}

/// Runs every check against the endpoint. An error means the suite could not run (no answer).
pub(crate) async fn execute(config: &CheckConfig) -> anyhow::Result<SuiteReport> {
    execute_with(config, None).await
}

/// `execute`, with the server under test run by idem (`--server-cmd`) for `crash-recovers`.
async fn execute_with(
    config: &CheckConfig,
    server: Option<&mut server_cmd::ServerCommand>,
) -> anyhow::Result<SuiteReport> {
    let mut probe = suite::Probe::new(config.request.clone())?;
    probe.also = config.also.clone();
    let mut target = format!("{} {}", config.request.method, config.request.url);
    if !config.also.is_empty() {
        let also: Vec<String> = config.also.iter().map(ToString::to_string).collect();
        target.push_str(&format!(" (also {})", also.join(", ")));
    }
    let mut checks = Vec::new();
    let (created, original) = suite::create(&mut probe).await?;
    checks.push(created);
    match &original {
        Some(original) => {
            checks.extend(suite::retry(&mut probe, original).await?);
            checks.extend(suite::mismatch(&mut probe, original).await?);
            // The race is the costly part: left out, it is not run.
            if config.selection.runs_any(&[
                suite::CONCURRENT_ONCE,
                suite::CONFLICT_RETRY_AFTER,
                race_window::RACE_WINDOW,
            ]) {
                checks.extend(suite::concurrent(&mut probe, config.concurrency).await?);
            } else {
                checks.extend([suite::CONCURRENT_ONCE, suite::CONFLICT_RETRY_AFTER].map(|spec| spec.skipped("")));
            }
            let raced_twice =
                checks.iter().any(|c| c.id == suite::CONCURRENT_ONCE.id && c.outcome == CheckOutcome::Fail);
            if let (true, Some(max)) = (raced_twice, config.window_max) {
                checks.push(race_window::race_window(&probe.spec, max).await);
            }
        }
        None => {
            let reason = "`create` did not yield a resource, so there is nothing to compare with";
            for spec in [
                suite::RETRY,
                suite::REPLAY_MARKED,
                suite::MISMATCH_REJECTED,
                suite::MISMATCH_422,
                suite::CONCURRENT_ONCE,
                suite::CONFLICT_RETRY_AFTER,
            ] {
                checks.push(spec.skipped(reason));
            }
        }
    }
    checks.push(suite::missing_key(&mut probe, config.require_key).await?);
    match &original {
        Some(original) => {
            checks.push(suite::new_key_creates(&mut probe, original).await?);
            checks.push(suite::key_scoped(&mut probe, original).await?);
        }
        None => {
            let reason = "`create` did not yield a resource, so there is nothing to compare with";
            checks.push(suite::NEW_KEY_CREATES.skipped(reason));
            checks.push(suite::KEY_SCOPED.skipped(reason));
        }
    }
    // The checks for what real idempotency layers get wrong are not even run when `--only` or
    // `--skip` leave them out.
    let selected = |id: &str| config.selection.runs(id);
    let not_selected = "not selected";
    match &original {
        Some(original) => {
            let specs = [
                scope::CALLER_SCOPED,
                scope::PATH_SCOPED,
                replay_shape::REPLAY_FAITHFUL,
                replay_shape::EQUAL_JSON_REPLAYS,
                replay_shape::KEY_SYNTAX,
            ];
            for spec in specs {
                if !selected(spec.id) {
                    checks.push(spec.skipped(not_selected));
                    continue;
                }
                checks.push(match spec.id {
                    id if id == scope::CALLER_SCOPED.id => {
                        scope::caller_scoped(&mut probe, original, &config.other_caller).await?
                    }
                    id if id == scope::PATH_SCOPED.id => {
                        scope::path_scoped(&mut probe, original, config.other_url.as_ref()).await?
                    }
                    id if id == replay_shape::REPLAY_FAITHFUL.id => {
                        replay_shape::replay_faithful(&mut probe, original).await?
                    }
                    id if id == replay_shape::EQUAL_JSON_REPLAYS.id => {
                        replay_shape::equal_json_replays(&mut probe, original).await?
                    }
                    _ => replay_shape::key_syntax(&mut probe, original).await?,
                });
            }
        }
        None => {
            let reason = "`create` did not yield a resource, so there is nothing to compare with";
            for spec in [
                scope::CALLER_SCOPED,
                scope::PATH_SCOPED,
                replay_shape::REPLAY_FAITHFUL,
                replay_shape::EQUAL_JSON_REPLAYS,
                replay_shape::KEY_SYNTAX,
            ] {
                checks.push(spec.skipped(reason));
            }
        }
    }
    checks.push(if selected(in_flight::LEASE_OUTLIVES_WORK.id) {
        in_flight::lease_outlives_work(&mut probe, config.work_hint, config.max_work).await?
    } else {
        in_flight::LEASE_OUTLIVES_WORK.skipped(not_selected)
    });
    checks.push(if selected(in_flight::MISMATCH_IN_FLIGHT.id) {
        in_flight::mismatch_in_flight(&mut probe, config.profile).await?
    } else {
        in_flight::MISMATCH_IN_FLIGHT.skipped(not_selected)
    });
    checks.push(if selected(crash::CRASH_RECOVERS.id) {
        crash::crash_recovers(&mut probe, server, config.work_hint, config.stuck_for).await?
    } else {
        crash::CRASH_RECOVERS.skipped(not_selected)
    });
    checks.push(suite::problem_json(&probe));
    config.profile.apply(&mut checks);
    let mut report = SuiteReport::new("idem check", target, checks).select(&config.selection, &[suite::CREATE.id]);
    report.profile = Some(config.profile.note());
    Ok(report)
}

pub(crate) async fn run(config: CheckConfig) -> anyhow::Result<Outcome> {
    let result = match &config.server_cmd {
        None => execute(&config).await,
        Some(command) => with_server(&config, command.clone()).await,
    };
    let target = format!("{} {}", config.request.method, config.request.url);
    crate::conformance::finish_suite(result, "idem check", target, config.format, config.palette)
}

/// Starts the server under test, runs the suite, and stops the server at the end: after the
/// suite, after an error, and when idem is interrupted (SIGINT, SIGTERM).
async fn with_server(config: &CheckConfig, command: String) -> anyhow::Result<SuiteReport> {
    let stop = crate::http::server::StopSignal::register()?;
    let mut server = server_cmd::ServerCommand::new(command, &config.request.url)?;
    let result = tokio::select! {
        result = async {
            server.start().await?;
            execute_with(config, Some(&mut server)).await
        } => result,
        _ = stop.wait() => Err(anyhow::anyhow!("interrupted; the server started by --server-cmd was stopped")),
    };
    server.stop().await;
    result
}
