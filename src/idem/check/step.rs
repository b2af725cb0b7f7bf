//! The check suite's probes applied to one request that another command sent for real: `idem run`
//! executes a workflow step, then asks here for a retry with its key, concurrent duplicates, a lost
//! answer and a changed body, each judged by the very check functions `idem check` runs
//! (`retry-replays`, `concurrent-once`, `effect-then-failure`, `mismatch-rejected`), so both
//! commands agree on what "executed twice" means and on the evidence for it.
use super::catalogue::{CONCURRENT_ONCE, EFFECT_THEN_FAILURE, MISMATCH_REJECTED, RETRY};
use super::probe::{Original, Probe};
use super::{Profile, concurrency, create, failure, mismatch, replay};
use crate::conformance::CheckResult;
use crate::http::client::Exchange;
use crate::idem::request::RequestSpec;

/// A probe `idem run --probes` can apply to a keyed step.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum, serde::Serialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum StepProbe {
    /// A sequential retry with the same key (`retry-replays`).
    Retry,
    /// Concurrent duplicates with one fresh key, released together (`concurrent-once`).
    Race,
    /// A request whose answer is lost, then retried with its key (`effect-then-failure`; needs a count).
    LostAnswer,
    /// The same key with a changed body (`mismatch-rejected`).
    Mismatch,
}

impl StepProbe {
    pub(crate) const ALL: [StepProbe; 4] =
        [StepProbe::Retry, StepProbe::Race, StepProbe::LostAnswer, StepProbe::Mismatch];

    pub(crate) fn as_str(self) -> &'static str {
        match self {
            StepProbe::Retry => "retry",
            StepProbe::Race => "race",
            StepProbe::LostAnswer => "lost-answer",
            StepProbe::Mismatch => "mismatch",
        }
    }

    /// The `idem check` check whose verdict rules judge this probe.
    pub(crate) fn check_id(self) -> &'static str {
        match self {
            StepProbe::Retry => RETRY.id,
            StepProbe::Race => CONCURRENT_ONCE.id,
            StepProbe::LostAnswer => EFFECT_THEN_FAILURE.id,
            StepProbe::Mismatch => MISMATCH_REJECTED.id,
        }
    }

    /// The requests this probe sends to the step's operation, for `--plan` (the lost answer's
    /// retries are at most `failure::MAX_RETRIES` and one more read of the key).
    pub(crate) fn requests(self, concurrency: usize) -> u64 {
        match self {
            StepProbe::Retry | StepProbe::Mismatch => 1,
            StepProbe::Race => concurrency as u64,
            StepProbe::LostAnswer => 2 + failure::MAX_RETRIES as u64,
        }
    }
}

/// A keyed step's first, real execution, with what its probes compare with.
pub(crate) struct FirstExecution {
    probe: Probe,
    original: Option<Original>,
    /// The answer the workflow continues with.
    pub exchange: Exchange,
    /// `create`'s verdict on it: the resource id and the count it moved, or why there is none.
    pub evidence: Vec<String>,
}

/// Sends the step's request once with a fresh key, as `idem check`'s `create` does (so a count
/// that does not rise for it is doubted by every probe after).
pub(crate) async fn execute_first(spec: RequestSpec) -> anyhow::Result<FirstExecution> {
    let mut probe = Probe::new(spec)?;
    let (created, original, exchange, _) = create::create_keeping_answer(&mut probe).await?;
    Ok(FirstExecution { probe, original, exchange, evidence: created.evidence })
}

impl FirstExecution {
    /// The resource ids the step's execution and its probes read so far.
    pub(crate) fn created_ids(&self) -> crate::created::CreatedIds {
        crate::sync::lock(&self.probe.created_ids).clone()
    }

    /// Applies `probes` in order; each result is the check's own, its id naming the check.
    pub(crate) async fn probe(
        &mut self,
        probes: &[StepProbe],
        concurrency: usize,
        profile: Profile,
    ) -> anyhow::Result<Vec<(StepProbe, CheckResult)>> {
        let rules = profile.rules();
        let mut results = Vec::new();
        for kind in probes {
            let result = match (kind, &self.original) {
                (StepProbe::Retry, Some(original)) => {
                    first(RETRY, replay::retry(&mut self.probe, original, rules).await?)
                }
                (StepProbe::Mismatch, Some(original)) => {
                    first(MISMATCH_REJECTED, mismatch::mismatch(&mut self.probe, original, rules).await?)
                }
                (StepProbe::Retry, None) => RETRY.skipped(NO_RESOURCE),
                (StepProbe::Mismatch, None) => MISMATCH_REJECTED.skipped(NO_RESOURCE),
                (StepProbe::Race, _) => {
                    first(CONCURRENT_ONCE, concurrency::concurrent(&mut self.probe, concurrency).await?)
                }
                (StepProbe::LostAnswer, _) => failure::effect_then_failure(&mut self.probe).await?,
            };
            results.push((*kind, result));
        }
        Ok(results)
    }
}

/// Why the probes that compare with the step's resource are skipped when it has none.
const NO_RESOURCE: &str = "the step's answer named no resource id to compare with (see --id-field)";

/// The probe's own verdict: each group function returns its main check first, then the checks
/// that follow from it (`replay-marked`, `mismatch-is-422`, `conflict-retry-after`), which a step
/// does not judge.
fn first(spec: crate::conformance::CheckSpec, results: Vec<CheckResult>) -> CheckResult {
    let own = results.into_iter().find(|result| result.id == spec.id);
    own.unwrap_or_else(|| spec.skipped("the check returned no verdict"))
}
