//! One probe: a pair of duplicates with a fresh key, the second released `spacing` after the
//! first, through `idem race`'s engine; and which probes a stall disturbed, to be retaken.
//!
//! On a busy machine a probe can lie in two ways. The second request leaves late, so the pair was
//! wider apart than asked and may wrongly execute once; or the server stalls on the first
//! request, sees both closer together than they were sent, and wrongly executes twice. The first
//! shows in the achieved spacing, the second in the first answer's latency (it always executes, so
//! it normally takes the same time). Such a probe is retaken, a few times at most.
use std::time::Duration;

use anyhow::bail;
use serde::Serialize;

use crate::idem::race::{KeyMode, RoundReport, Spread, SyncMode, race_round_spread};
use crate::idem::request::RequestSpec;
use crate::idem::verdict::{Evidence, Verdict};
use crate::units::format_duration;

/// Retakes of one disturbed probe before its result is taken as it is.
const MAX_RETAKES: usize = 4;

/// One pair's outcome, as reported.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub(crate) struct ProbeRecord {
    /// Distinct resources the pair created: 2 means both executed.
    pub executions: usize,
    /// Each duplicate's status (`null` when no answer came).
    pub statuses: Vec<Option<u16>>,
    /// The spacing achieved between the two releases, measured on the client.
    #[serde(rename = "spacing_us", serialize_with = "crate::units::as_us")]
    #[schemars(with = "f64")]
    pub spacing: Duration,
    /// How long the first duplicate's answer took.
    #[serde(rename = "first_latency_ms", serialize_with = "crate::units::as_ms_opt")]
    #[schemars(with = "Option<f64>")]
    pub first_latency: Option<Duration>,
    /// How many earlier tries of this probe a stall disturbed (they are not counted; at the
    /// limit, every try was disturbed and the least disturbed one is this).
    pub retakes: usize,
    /// What `executions` rests on (the shared verdict's evidence).
    pub evidence: Vec<Evidence>,
}

impl ProbeRecord {
    pub(crate) fn executed_twice(&self) -> bool {
        self.executions >= 2
    }
}

/// Runs probes and remembers the fastest first answer, the yardstick for a stalled server.
pub(crate) struct Prober {
    spec: RequestSpec,
    fastest_first: Option<Duration>,
    /// What the first probe used, for the report.
    pub sync: Option<(SyncMode, String)>,
    /// The ids of every pair's answers, retaken ones too: each pair created what it created.
    pub created_ids: crate::created::CreatedIds,
}

impl Prober {
    pub(crate) fn new(spec: RequestSpec) -> Prober {
        Prober { spec, fastest_first: None, sync: None, created_ids: Default::default() }
    }

    /// One probe at `spacing`, retaken while a stall disturbs it; when every try was disturbed,
    /// the least disturbed one counts.
    pub(crate) async fn probe(&mut self, spacing: Duration) -> anyhow::Result<ProbeRecord> {
        let mut least_disturbed: Option<(Duration, ProbeRecord)> = None;
        for retakes in 0..=MAX_RETAKES {
            let round = self.pair(spacing).await?;
            let record = record_of(&round, retakes);
            let disturbance = self.disturbance(&record, spacing);
            if let Some(latency) = record.first_latency {
                self.fastest_first = Some(self.fastest_first.map_or(latency, |fastest| fastest.min(latency)));
            }
            if disturbance <= tolerance(spacing) {
                return Ok(record);
            }
            if least_disturbed.as_ref().is_none_or(|(least, _)| disturbance < *least) {
                least_disturbed = Some((disturbance, record));
            }
        }
        let (_, mut record) = least_disturbed.ok_or_else(|| anyhow::anyhow!("no probe was run"))?;
        record.retakes = MAX_RETAKES;
        Ok(record)
    }

    async fn pair(&mut self, spacing: Duration) -> anyhow::Result<RoundReport> {
        let stagger = (!spacing.is_zero()).then_some(spacing);
        let round =
            race_round_spread(&self.spec, 2, SyncMode::Auto, KeyMode::Same, &Spread { stagger, ..Spread::default() })
                .await?;
        self.sync.get_or_insert_with(|| (round.sync, round.sync_reason.clone()));
        for answer in &round.answers {
            self.created_ids.add(
                answer.observed.status,
                answer.observed.resource_id.as_deref(),
                answer.observed.replayed,
            );
        }
        if round.judgement.executions < 2
            && let Some(error) = round.answers.iter().find_map(|answer| answer.observed.error.as_deref())
        {
            bail!("a pair {} apart got no complete answer: {error}", format_duration(spacing));
        }
        // A pair that shows nothing (no 2xx, no id, only an id the request carried) is not "executed
        // once": the measurement stops with the reason, as `send` and `race` do.
        if matches!(round.judgement.verdict, Verdict::NothingCreated | Verdict::CannotTell | Verdict::Unconfirmed) {
            let explanation = round.judgement.explanation.clone().unwrap_or_default();
            bail!("a pair {} apart: {explanation}", format_duration(spacing));
        }
        Ok(round)
    }

    /// How far a stall may have skewed this probe (see the module comment): how late the second
    /// release left, for a pair that executed once; how much slower than the fastest the first
    /// answer was, for a pair that executed twice.
    fn disturbance(&self, record: &ProbeRecord, spacing: Duration) -> Duration {
        if !record.executed_twice() {
            return record.spacing.saturating_sub(spacing);
        }
        match (record.first_latency, self.fastest_first) {
            (Some(latency), Some(fastest)) => latency.saturating_sub(fastest),
            _ => Duration::ZERO,
        }
    }
}

/// How much skew a probe at `spacing` may have and still count.
fn tolerance(spacing: Duration) -> Duration {
    Duration::from_micros(100) + spacing.mul_f64(0.05)
}

fn record_of(round: &RoundReport, retakes: usize) -> ProbeRecord {
    let spacing = round.release.as_ref().map_or(Duration::ZERO, |release| match release.spacings.first() {
        Some(first) => *first,
        None => release.spread,
    });
    ProbeRecord {
        executions: round.judgement.executions,
        statuses: round.answers.iter().map(|answer| answer.observed.status).collect(),
        spacing,
        first_latency: round.answers.first().and_then(|answer| answer.latency),
        retakes,
        evidence: round.judgement.evidence.clone(),
    }
}
