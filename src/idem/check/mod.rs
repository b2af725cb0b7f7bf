//! `idem check`: does this endpoint handle Idempotency-Key correctly? One command, a verdict per
//! check, an exit status for CI.
mod catalogue;
mod concurrency;
mod crash;
mod create;
mod decline;
pub(crate) mod estimate;
mod failure;
mod in_flight;
mod mismatch;
mod missing_key;
pub(crate) mod openapi;
mod orphan;
pub(crate) mod plan_report;
mod probe;
mod problem_json;
mod profile;
mod race_window;
mod replay;
mod replay_shape;
mod scope;
pub(crate) mod server_cmd;
pub(crate) mod step;
mod variant;

pub(crate) use catalogue::CHECKS;
pub(crate) use profile::Profile;

use crate::conformance::{CheckOutcome, CheckResult, CheckSpec, Selection, SuiteFormat, SuiteReport};
use crate::evidence_level::{COUNT_REQUIRED, EvidenceLevel};
use crate::exit::Outcome;
use crate::idem::request::RequestSpec;
use crate::output::Palette;
use catalogue::{
    CONCURRENT_ONCE, CONFLICT_RETRY_AFTER, CREATE, KEY_SCOPED, MISMATCH_422, MISMATCH_REJECTED, NEW_KEY_CREATES,
    RACE_WINDOW, REPLAY_MARKED, RETRY,
};
use probe::{Original, Probe};

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
    /// `--retention`: how long the server keeps a key's record (or its lease), which
    /// `expired-key-taken-once` waits out; `None` skips that check.
    pub retention: Option<std::time::Duration>,
    /// `--only`, `--skip`, `--expect-fail`, `--strict`, `--junit-warnings`.
    pub selection: Selection,
    /// `--plan`: print what would be sent and send nothing.
    pub plan: bool,
}

impl CheckConfig {
    /// What the suite would send to this endpoint, check by check, before it sends anything.
    pub(crate) fn cost(&self) -> estimate::SuiteCost {
        estimate::estimate(&estimate::SuiteShape {
            body: &self.request.body,
            selection: &self.selection,
            concurrency: self.concurrency,
            require_key: self.require_key,
            measures_window: self.window_max.is_some(),
            second_caller: !self.other_caller.is_empty(),
            other_url: self.other_url.is_some(),
            work_hint: self.work_hint,
            max_work: self.max_work,
            server_cmd: self.server_cmd.is_some(),
            counted: !self.request.ledgers.is_empty(),
            retention: self.retention,
        })
    }

    /// `--plan` for one endpoint: its URL, body and the checks' requests.
    fn plan_report(&self) -> plan_report::PlanReport {
        let url = crate::http::url::Redacted(&self.request.url).to_string();
        let operation = plan_report::PlannedOperation {
            method: self.request.method.to_string(),
            path: None,
            operation_id: None,
            skipped: None,
            url: Some(url.clone()),
            body: plan_report::PlannedOperation::shown_body(&self.request.body),
            body_origin: None,
            cost: Some(self.cost()),
        };
        plan_report::PlanReport::new(None, url, None, vec![operation], self.request.budget.limit())
    }
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
    let mut probe = Probe::new(config.request.clone())?;
    probe.also = config.also.clone();
    // Read before the first check and after the last, so what the whole suite created is measured.
    let ledger = crate::created::RunLedger::open(&config.request.ledgers).await?;
    let mut checks = Vec::new();
    let ran = run_checks(&mut probe, config, server, &mut checks).await;
    // --max-requests: the error says what was judged before the budget ran out. A slow check
    // that reads a refused request as "no answer" (in-flight, crash) judged nothing the server
    // did, so it is left out and the suite ends with the refusal all the same.
    let sound = |check: &&CheckResult| !IN_FLIGHT_AND_CRASH.iter().any(|slow| slow.spec().id == check.id);
    let stopped = || {
        let before: Vec<CheckResult> = checks.iter().filter(sound).cloned().collect();
        let created = crate::created::Created::before_stopping(&crate::sync::lock(&probe.created_ids));
        format!("{}{created}", judged_before_the_budget_ran_out(&before))
    };
    match (ran, config.request.budget.refusal()) {
        (Err(err), _) if crate::http::budget::refusal_in(&err).is_some() => return Err(err.context(stopped())),
        (Err(err), _) => return Err(err),
        (Ok(()), Some(refusal)) => return Err(anyhow::Error::new(refusal).context(stopped())),
        (Ok(()), None) => {}
    }
    config.profile.apply(&mut checks);
    name_levels(&mut checks, config.request.require_count);
    let target = target_of(config);
    let mut report = SuiteReport::new("idem check", target, checks)
        .with_every_check(catalogue::CHECKS)
        .select(&config.selection, &[CREATE.id]);
    report.profile = Some(config.profile.note());
    report.key_in = Some(config.request.key_in());
    let readings = match &ledger {
        Some(ledger) => ledger.close().await,
        None => Vec::new(),
    };
    report.created = Some(crate::created::Created::measure(&readings, &crate::sync::lock(&probe.created_ids)));
    Ok(report)
}

/// Every check in report order, each appended to `checks` as it ends (so what was judged before
/// an error is still there).
async fn run_checks(
    probe: &mut Probe,
    config: &CheckConfig,
    server: Option<&mut server_cmd::ServerCommand>,
    checks: &mut Vec<CheckResult>,
) -> anyhow::Result<()> {
    let (created, original) = create::create(probe).await?;
    checks.push(created);
    match &original {
        Some(original) => retry_and_race(probe, config, original, checks).await?,
        None => checks.extend(skipped(RETRY_AND_RACE, NO_RESOURCE)),
    }
    let rules = config.profile.rules();
    let require_key = config.require_key || rules.key.required;
    // Each request below is sent only for a check that judges it: a key-less request or a second
    // key creates a resource on the API under test, which `--only retry-replays` did not ask for.
    checks.push(match config.selection.runs_any(catalogue::NEEDS_MISSING_KEY) {
        true => missing_key::missing_key(probe, require_key, rules.missing_key_status()).await?,
        false => catalogue::MISSING_KEY_REPORTED.skipped(NOT_SELECTED),
    });
    match &original {
        Some(original) => {
            checks.push(match config.selection.runs(NEW_KEY_CREATES.id) {
                true => create::new_key_creates(probe, original).await?,
                false => NEW_KEY_CREATES.skipped(NOT_SELECTED),
            });
            checks.push(match config.selection.runs(KEY_SCOPED.id) {
                true => scope::key_scoped(probe, original).await?,
                false => KEY_SCOPED.skipped(NOT_SELECTED),
            });
        }
        None => checks.extend(skipped(&[NEW_KEY_CREATES, KEY_SCOPED], NO_RESOURCE)),
    }
    match &original {
        Some(original) => layer_mistakes(probe, config, original, checks).await?,
        None => checks.extend(LAYER_MISTAKES.iter().map(|check| check.spec().skipped(NO_RESOURCE))),
    }
    checks.push(match config.selection.runs(catalogue::CACHED_DECLINE.id) {
        true => decline::cached_decline(probe, rules).await?,
        false => catalogue::CACHED_DECLINE.skipped(NOT_SELECTED),
    });
    checks.extend(in_flight_and_crash(probe, config, server).await?);
    checks.push(problem_json::problem_json(probe));
    Ok(())
}

/// "the suite stopped after judging create (pass), retry-replays (pass)": what a run cut short by
/// --max-requests found before it stopped.
fn judged_before_the_budget_ran_out(checks: &[CheckResult]) -> String {
    let judged: Vec<String> = checks
        .iter()
        .filter(|check| check.outcome != CheckOutcome::Skip)
        .map(|check| {
            let outcome = serde_json::to_value(check.outcome).ok();
            format!("{} ({})", check.id, outcome.as_ref().and_then(|o| o.as_str()).unwrap_or("?"))
        })
        .collect();
    if judged.is_empty() {
        "the suite stopped before it judged any check".to_string()
    } else {
        format!("the suite stopped after judging {}", judged.join(", "))
    }
}

/// The checks whose pass says how many times the server executed, and that read `--count-url`
/// when it is given: `--require-count` asks them for a count.
const COUNTED_CHECKS: [CheckSpec; 5] =
    [RETRY, NEW_KEY_CREATES, CONCURRENT_ONCE, catalogue::EFFECT_THEN_FAILURE, catalogue::EXPIRED_KEY_TAKEN_ONCE];

/// Names what each judged check rests on (`answer` unless the check read the count), and under
/// `--require-count` turns a counted check's pass on the answers alone into `unconfirmed`.
fn name_levels(checks: &mut [CheckResult], require_count: bool) {
    for check in checks {
        match check.outcome {
            CheckOutcome::Skip => check.evidence_level = None,
            CheckOutcome::Unconfirmed => {}
            _ => {
                check.evidence_level.get_or_insert(EvidenceLevel::Answer);
            }
        }
        if require_count
            && check.outcome == CheckOutcome::Pass
            && check.evidence_level != Some(EvidenceLevel::Count)
            && COUNTED_CHECKS.iter().any(|spec| spec.id == check.id)
        {
            check.outcome = CheckOutcome::Unconfirmed;
            check.finding = Some("held on the answers alone; --require-count asks for a count".to_string());
            check.evidence.push(COUNT_REQUIRED.to_string());
        }
    }
}

/// The level of an operation's or a suite's ✓ on executions: `count` when every counted check
/// that passed rested on the count, `answer` when one rested on the answers alone, `None` when
/// none passed.
pub(crate) fn executions_level(checks: &[CheckResult]) -> Option<EvidenceLevel> {
    EvidenceLevel::weakest(
        checks
            .iter()
            .filter(|c| c.outcome == CheckOutcome::Pass && COUNTED_CHECKS.iter().any(|spec| spec.id == c.id))
            .filter_map(|c| c.evidence_level),
    )
}

/// Why the checks that compare with the first request's resource are skipped when there is none.
const NO_RESOURCE: &str = "`create` did not yield a resource, so there is nothing to compare with";

/// Why a check `--only` or `--skip` left out is not run.
const NOT_SELECTED: &str = "not selected";

/// The checks of retries, mismatched reuse and concurrent duplicates, in report order.
const RETRY_AND_RACE: &[CheckSpec] =
    &[RETRY, REPLAY_MARKED, MISMATCH_REJECTED, MISMATCH_422, CONCURRENT_ONCE, CONFLICT_RETRY_AFTER];

/// The checks for what real idempotency layers get wrong, in report order.
const LAYER_MISTAKES: &[LayerCheck] = &[
    LayerCheck::CallerScoped,
    LayerCheck::PathScoped,
    LayerCheck::ReplayFaithful,
    LayerCheck::EqualJsonReplays,
    LayerCheck::KeySyntax,
];

/// A check for what real idempotency layers get wrong: its catalogue entry and the function that
/// runs it, matched by type so a new one cannot be left without either.
#[derive(Debug, Clone, Copy)]
enum LayerCheck {
    CallerScoped,
    PathScoped,
    ReplayFaithful,
    EqualJsonReplays,
    KeySyntax,
}

impl LayerCheck {
    fn spec(self) -> CheckSpec {
        match self {
            LayerCheck::CallerScoped => catalogue::CALLER_SCOPED,
            LayerCheck::PathScoped => catalogue::PATH_SCOPED,
            LayerCheck::ReplayFaithful => catalogue::REPLAY_FAITHFUL,
            LayerCheck::EqualJsonReplays => catalogue::EQUAL_JSON_REPLAYS,
            LayerCheck::KeySyntax => catalogue::KEY_SYNTAX,
        }
    }

    async fn run(self, probe: &mut Probe, config: &CheckConfig, original: &Original) -> anyhow::Result<CheckResult> {
        match self {
            LayerCheck::CallerScoped => scope::caller_scoped(probe, original, &config.other_caller).await,
            LayerCheck::PathScoped => scope::path_scoped(probe, original, config.other_url.as_ref()).await,
            LayerCheck::ReplayFaithful => replay_shape::replay_faithful(probe, original).await,
            LayerCheck::EqualJsonReplays => replay_shape::equal_json_replays(probe, original).await,
            LayerCheck::KeySyntax => {
                replay_shape::key_syntax(probe, original, config.profile.rules().max_key_length()).await
            }
        }
    }
}

/// The slow checks of a request still executing and of a server that crashes mid-request, in
/// report order.
const IN_FLIGHT_AND_CRASH: &[SlowCheck] = &[
    SlowCheck::LeaseOutlivesWork,
    SlowCheck::MismatchInFlight,
    SlowCheck::CrashRecovers,
    SlowCheck::EffectThenFailure,
    SlowCheck::ExpiredKeyTakenOnce,
];

/// A slow check: its catalogue entry and the function that runs it, matched by type.
#[derive(Debug, Clone, Copy)]
enum SlowCheck {
    LeaseOutlivesWork,
    MismatchInFlight,
    CrashRecovers,
    EffectThenFailure,
    ExpiredKeyTakenOnce,
}

impl SlowCheck {
    fn spec(self) -> CheckSpec {
        match self {
            SlowCheck::LeaseOutlivesWork => catalogue::LEASE_OUTLIVES_WORK,
            SlowCheck::MismatchInFlight => catalogue::MISMATCH_IN_FLIGHT,
            SlowCheck::CrashRecovers => catalogue::CRASH_RECOVERS,
            SlowCheck::EffectThenFailure => catalogue::EFFECT_THEN_FAILURE,
            SlowCheck::ExpiredKeyTakenOnce => catalogue::EXPIRED_KEY_TAKEN_ONCE,
        }
    }

    async fn run(
        self,
        probe: &mut Probe,
        config: &CheckConfig,
        server: Option<&mut server_cmd::ServerCommand>,
    ) -> anyhow::Result<CheckResult> {
        match self {
            SlowCheck::LeaseOutlivesWork => {
                in_flight::lease_outlives_work(probe, config.work_hint, config.max_work).await
            }
            SlowCheck::MismatchInFlight => in_flight::mismatch_in_flight(probe, config.profile).await,
            SlowCheck::CrashRecovers => crash::crash_recovers(probe, server, config.work_hint, config.stuck_for).await,
            SlowCheck::EffectThenFailure => failure::effect_then_failure(probe).await,
            SlowCheck::ExpiredKeyTakenOnce => {
                orphan::expired_key_taken_once(probe, config.retention, config.concurrency).await
            }
        }
    }
}

fn skipped(specs: &[CheckSpec], reason: &str) -> Vec<CheckResult> {
    specs.iter().map(|spec| spec.skipped(reason)).collect()
}

/// What the report names as the target: the endpoint, and the other instances with `--also`.
fn target_of(config: &CheckConfig) -> String {
    let mut target = format!("{} {}", config.request.method, config.request.url);
    if !config.also.is_empty() {
        let also: Vec<String> = config.also.iter().map(ToString::to_string).collect();
        target.push_str(&format!(" (also {})", also.join(", ")));
    }
    target
}

/// A retry replays, a changed body is refused, concurrent duplicates create once, and (when they
/// did not) how wide the race window is.
async fn retry_and_race(
    probe: &mut Probe,
    config: &CheckConfig,
    original: &Original,
    checks: &mut Vec<CheckResult>,
) -> anyhow::Result<()> {
    let rules = config.profile.rules();
    match config.selection.runs_any(catalogue::NEEDS_RETRY) {
        true => checks.extend(replay::retry(probe, original, rules).await?),
        false => checks.extend(skipped(catalogue::NEEDS_RETRY, NOT_SELECTED)),
    }
    match config.selection.runs_any(catalogue::NEEDS_MISMATCH) {
        true => checks.extend(mismatch::mismatch(probe, original, rules).await?),
        false => checks.extend(skipped(&[MISMATCH_REJECTED, MISMATCH_422], NOT_SELECTED)),
    }
    // The race is the costly part: left out, it is not run.
    if config.selection.runs_any(&[CONCURRENT_ONCE, CONFLICT_RETRY_AFTER, RACE_WINDOW]) {
        checks.extend(concurrency::concurrent(probe, config.concurrency).await?);
    } else {
        checks.extend([CONCURRENT_ONCE, CONFLICT_RETRY_AFTER].map(|spec| spec.skipped("")));
    }
    let raced_twice = checks.iter().any(|c| c.id == CONCURRENT_ONCE.id && c.outcome == CheckOutcome::Fail);
    // Always a case of its own, so a dashboard's history of it does not break between builds.
    checks.push(match (raced_twice, config.window_max) {
        (true, Some(max)) => race_window::race_window(&probe.spec, max).await?,
        (true, None) => RACE_WINDOW.skipped("--window-max 0 leaves the measurement out"),
        (false, _) => RACE_WINDOW.skipped("measured only when concurrent-once fails, and it did not"),
    });
    Ok(())
}

/// The checks for what real idempotency layers get wrong; not even run when `--only` or `--skip`
/// leave them out.
async fn layer_mistakes(
    probe: &mut Probe,
    config: &CheckConfig,
    original: &Original,
    checks: &mut Vec<CheckResult>,
) -> anyhow::Result<()> {
    for check in LAYER_MISTAKES {
        let spec = check.spec();
        checks.push(match config.selection.runs(spec.id) {
            true => check.run(probe, config, original).await?,
            false => spec.skipped(NOT_SELECTED),
        });
    }
    Ok(())
}

/// The slow checks of a request still executing and of a server that crashes mid-request, each
/// run only when selected.
async fn in_flight_and_crash(
    probe: &mut Probe,
    config: &CheckConfig,
    server: Option<&mut server_cmd::ServerCommand>,
) -> anyhow::Result<Vec<CheckResult>> {
    let mut server = server;
    let mut checks = Vec::new();
    for check in IN_FLIGHT_AND_CRASH {
        let spec = check.spec();
        checks.push(match config.selection.runs(spec.id) {
            true => check.run(probe, config, server.as_deref_mut()).await?,
            false => spec.skipped(NOT_SELECTED),
        });
    }
    Ok(checks)
}

pub(crate) async fn run(config: CheckConfig) -> anyhow::Result<Outcome> {
    if config.plan {
        config.plan_report().print(config.format, config.palette)?;
        return Ok(Outcome::Holds);
    }
    config.request.budget.announce(crate::http::budget::Needed::About(config.cost().requests));
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
