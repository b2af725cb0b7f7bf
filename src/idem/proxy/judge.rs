//! Judging the client per operation: did it retry after the fault, with the same key and the same
//! body, after a pause, honouring `Retry-After`, and not past a 4xx? Whether the upstream executed
//! more than once is decided by `verdict::judge`, as for `idem send` and `idem race`.
use std::time::Duration;

use serde::Serialize;

use crate::count::CountReading;
use crate::idem::proxy::answer::UpstreamAnswer;
use crate::idem::proxy::records::{Attempt, Key, Operation};
use crate::idem::request::IdSource;
use crate::idem::verdict::{self, Observed, Timing};

/// Retries closer than this to the previous answer count as immediate (the shared retry policy's
/// notion of no backoff).
pub(crate) use crate::retry::IMMEDIATE;
/// `Retry-After` is honoured when the retry comes no earlier than this before the time asked.
const RETRY_AFTER_TOLERANCE: Duration = Duration::from_millis(100);

// Not the run's exit status, which is `crate::exit::Outcome`.
/// What the proxy concluded about how a client retried one operation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum RetryConduct {
    /// Faulted, retried with the same key and body, executed at most once.
    Safe,
    /// No fault applied: nothing to judge, nothing wrong.
    NotFaulted,
    /// A mistake that leaves the user in doubt or loads the server, without double execution.
    Warning,
    /// Money could move twice (or did).
    Mistake,
}

impl RetryConduct {
    pub fn is_fine(self) -> bool {
        matches!(self, RetryConduct::Safe | RetryConduct::NotFaulted)
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum FindingKind {
    /// Retried with a different key: the "key generated per attempt" bug.
    NewKey,
    /// Sent no key and retried.
    NoKey,
    /// Retried with the same key and a different body.
    BodyChanged,
    /// The client did everything right, the upstream executed more than once anyway.
    UpstreamExecutedTwice,
    /// A fault that calls for a retry, and no retry.
    NoRetry,
    /// Retries without any pause.
    NoBackoff,
    /// A retry earlier than the `Retry-After` it was given.
    IgnoredRetryAfter,
    /// Retried after a 4xx that will not change.
    #[serde(rename = "retried_past_4xx")]
    RetriedPast4xx,
}

impl FindingKind {
    pub fn is_mistake(self) -> bool {
        matches!(
            self,
            FindingKind::NewKey | FindingKind::NoKey | FindingKind::BodyChanged | FindingKind::UpstreamExecutedTwice
        )
    }
}

#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct Finding {
    pub kind: FindingKind,
    pub message: String,
}

/// One operation as the proxy judged it: its attempts, keys, faults, executions and how the
/// client retried; also its entry in the JSON summary.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct JudgedOperation {
    pub operation: usize,
    pub method: String,
    pub path: String,
    pub attempts: usize,
    /// Every distinct key, in order of first use (`null` for attempts without one); a key longer
    /// than 10 characters is shown as its first 8 and `…` (the proxy keeps a hash of each key).
    pub keys: Vec<Option<String>>,
    pub faults: Vec<String>,
    /// Distinct resource ids in the upstream's 2xx answers: how many times it executed.
    pub executions: usize,
    pub resource_ids: Vec<String>,
    pub outcome: RetryConduct,
    pub findings: Vec<Finding>,
    /// How the operation ended for the client when it gave up after retrying (its retry budget ran
    /// out on faulted attempts): how many attempts and what it was last given.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub gave_up: Option<String>,
    /// What `executions` rests on (the shared verdict's evidence; the count with `--count-url`
    /// when the run had one operation).
    pub evidence: Vec<verdict::Evidence>,
}

pub(crate) fn judge_operation(operation: &Operation, id_field: &str) -> JudgedOperation {
    let attempts = &operation.attempts;
    let mut distinct_keys: Vec<Option<Key>> = Vec::new();
    for attempt in attempts.iter() {
        if !distinct_keys.contains(&attempt.key) {
            distinct_keys.push(attempt.key);
        }
    }
    let keys: Vec<Option<String>> = distinct_keys.iter().map(|key| key.as_ref().map(Key::shown)).collect();
    let faults: Vec<String> = attempts.iter().filter_map(|a| a.fault).map(|f| f.name()).collect();
    let answers: Vec<Observed> =
        attempts.iter().filter_map(|a| a.upstream.as_ref()).map(UpstreamAnswer::observed).collect();
    let judgement = verdict::judge(
        &answers,
        Timing::Sequential,
        &IdSource { field: id_field.to_string(), header: None },
        &Default::default(),
    );
    let ids = judgement.resource_ids.clone();
    let executed = match ids.as_slice() {
        [] => "the upstream created nothing the proxy could see".to_string(),
        // One id is a replayed answer, not a count of executions.
        [one] => format!("the upstream answered with one resource ({one})"),
        many => format!("the upstream executed {} times ({})", many.len(), many.join(", ")),
    };

    let mut findings = Vec::new();
    let retried = attempts.len() > 1;
    let first_key = attempts.first().and_then(|a| a.key);
    if retried && first_key.is_none() {
        findings.push(Finding {
            kind: FindingKind::NoKey,
            message: format!("sent no idempotency key and retried: {executed}"),
        });
    } else if retried && keys.len() > 1 {
        let shown: Vec<String> = keys.iter().map(|k| k.clone().unwrap_or("none".into())).collect();
        findings.push(Finding {
            kind: FindingKind::NewKey,
            message: format!(
                "retried with a different key ({}): {executed}; generate the key once per intent, not per attempt",
                shown.join(" → ")
            ),
        });
    }
    if let Some(changed) =
        attempts.iter().skip(1).find(|a| a.key == first_key && a.key.is_some() && a.body_hash != attempts[0].body_hash)
    {
        let answer = match changed.upstream.as_ref().and_then(|answer| Some((answer.status()?, answer.quoted_body()))) {
            Some((status, Some(body))) => format!("; the upstream answered {status} {body}"),
            Some((status, None)) => format!("; the upstream answered {status}"),
            None => String::new(),
        };
        findings.push(Finding {
            kind: FindingKind::BodyChanged,
            message: format!(
                "attempt #{} reused the key with a different body ({} bytes, was {}){answer}",
                changed.number, changed.body_len, attempts[0].body_len
            ),
        });
    }
    if ids.len() > 1 && findings.is_empty() {
        findings.push(Finding {
            kind: FindingKind::UpstreamExecutedTwice,
            message: format!("the client retried correctly, yet {executed}: the upstream ignores the key"),
        });
    }
    findings.extend(retry_manner(attempts));

    let faulted = attempts.iter().any(|a| a.fault.is_some());
    let gave_up = gave_up(attempts, keys.len());
    let outcome = if findings.iter().any(|f| f.kind.is_mistake()) {
        RetryConduct::Mistake
    } else if !findings.is_empty() {
        RetryConduct::Warning
    } else if faulted {
        RetryConduct::Safe
    } else {
        RetryConduct::NotFaulted
    };
    JudgedOperation {
        operation: operation.number,
        method: operation.route.method.to_string(),
        path: operation.route.path.to_string(),
        attempts: attempts.len(),
        keys,
        faults,
        executions: ids.len(),
        resource_ids: ids,
        outcome,
        findings,
        gave_up,
        evidence: judgement.evidence,
    }
}

/// A client that retried with its key until its budget ran out, every attempt faulted, then
/// stopped: a finite budget that ends in an error the user sees is correct, and this says so.
fn gave_up(attempts: &[Attempt], keys: usize) -> Option<String> {
    let last = attempts.last()?;
    let fault = last.fault.filter(|f| f.calls_for_a_retry())?;
    if attempts.len() < 2 || keys != 1 || last.key.is_none() {
        return None;
    }
    let saw = match last.client_status {
        Some(status) => format!("the client was given {status} on the last"),
        None => "the client's last connection was closed without an answer".to_string(),
    };
    Some(format!(
        "gave up after {} attempts with one key, each met by a fault ({}); {saw} and surfaced it (nothing executed twice)",
        attempts.len(),
        fault.name()
    ))
}

/// How the client retried: at all, after a pause, after the time it was asked to wait, and not
/// after a final 4xx.
fn retry_manner(attempts: &[Attempt]) -> Vec<Finding> {
    let mut findings = Vec::new();
    // "Did not retry" means never retried: one attempt, faulted. A client that retried and then
    // stopped had a finite budget (see `gave_up`).
    if let (Some(last), 1) = (attempts.last(), attempts.len())
        && let Some(fault) = last.fault.filter(|f| f.calls_for_a_retry())
    {
        findings.push(Finding {
            kind: FindingKind::NoRetry,
            message: format!(
                "did not retry after {} on attempt #{}: the user was left not knowing whether it went through",
                fault.name(),
                last.number
            ),
        });
    }
    let gaps: Vec<(u32, Duration)> = attempts
        .windows(2)
        .filter_map(|pair| Some((pair[1].number, pair[1].arrived.saturating_duration_since(pair[0].finished?))))
        .collect();
    // One quick retry can be full jitter drawing a short wait; every retry quick is no backoff.
    if gaps.len() >= 2 && gaps.iter().all(|(_, gap)| *gap < IMMEDIATE) {
        let shown: Vec<String> = gaps.iter().map(|(_, gap)| crate::units::format_duration(*gap)).collect();
        findings.push(Finding {
            kind: FindingKind::NoBackoff,
            message: format!(
                "retried immediately every time ({} after the previous answer): add backoff with jitter",
                shown.join(", ")
            ),
        });
    }
    for pair in attempts.windows(2) {
        let (previous, next) = (&pair[0], &pair[1]);
        let Some(finished) = previous.finished else { continue };
        let gap = next.arrived.saturating_duration_since(finished);
        if let Some(asked) = previous.client_retry_after()
            && gap + RETRY_AFTER_TOLERANCE < asked
        {
            findings.push(Finding {
                kind: FindingKind::IgnoredRetryAfter,
                message: format!(
                    "attempt #{} came {} after a Retry-After of {}",
                    next.number,
                    crate::units::format_duration(gap),
                    crate::units::format_duration(asked)
                ),
            });
        }
        if let Some(status) = previous.client_status.filter(|s| is_final_4xx(*s)) {
            findings.push(Finding {
                kind: FindingKind::RetriedPast4xx,
                message: format!(
                    "attempt #{} retried after #{} was answered {status}, which a retry does not change",
                    next.number, previous.number
                ),
            });
        }
    }
    findings
}

/// 4xx answers that retrying the same request cannot fix (408, 409, 425 and 429 can).
fn is_final_4xx(status: u16) -> bool {
    (400..500).contains(&status) && !matches!(status, 408 | 409 | 425 | 429)
}

/// A key as shown in lines: the first 8 characters and an ellipsis.
pub(crate) fn short_key(key: &str) -> String {
    if key.chars().count() <= 10 { key.to_string() } else { format!("{}…", key.chars().take(8).collect::<String>()) }
}

/// The verdict on the whole run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum RunVerdict {
    /// Every operation was handled safely.
    Safe,
    /// At least one operation shows a mistake or a warning.
    ClientMistakes,
    /// No judged request reached the proxy.
    NoOperations,
}

/// Everything the run showed; the `summary` document of `--format json`.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct ProxyReport {
    pub verdict: RunVerdict,
    pub operations: Vec<JudgedOperation>,
    /// Requests not judged (GET by default) that went straight through.
    pub passed_through: u64,
    /// Requests the upstream did not answer (the client got 502, or its answer was to be dropped).
    pub upstream_failures: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub last_upstream_error: Option<String>,
    /// The client command's exit status, when one was run.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub client_exit: Option<ClientExit>,
    /// The upstream's count over the whole run (`--count-url`): `{kind: count, source, before,
    /// after, executions}`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub count: Option<verdict::Evidence>,
    /// Every operation of the run counted by outcome, including those not listed in `operations`.
    pub totals: Totals,
    /// Live lines left out because stdout could not keep up (each attempt is still judged and
    /// counted in `totals`).
    pub lines_not_shown: u64,
}

#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct ClientExit {
    pub command: String,
    /// `None` when it was ended by a signal.
    pub code: Option<i32>,
}

/// `judge_run`, with the upstream's count over the run (`--count-url`): with one operation it
/// decides that operation's executions; with more, a rise beyond one per operation is reported
/// on the run.
pub(crate) fn judge_run_counted(
    operations: &[Operation],
    id_field: &str,
    count: Option<&CountReading>,
) -> (RunVerdict, Vec<JudgedOperation>) {
    let mut reports: Vec<JudgedOperation> = operations.iter().map(|op| judge_operation(op, id_field)).collect();
    // A count that cannot be believed decides nothing (the run says why).
    if let (Some(count), Some(evidence), [only]) =
        (count, count.and_then(|c| verdict::Evidence::of_count(c).ok()), reports.as_mut_slice())
    {
        let executions = count.change.executions().unwrap_or_default() as usize;
        only.evidence = vec![evidence];
        if executions != only.executions {
            only.findings.retain(|f| f.kind != FindingKind::UpstreamExecutedTwice);
            only.executions = executions;
        }
        if executions > 1 && !only.findings.iter().any(|f| f.kind.is_mistake()) {
            only.findings.push(Finding {
                kind: FindingKind::UpstreamExecutedTwice,
                message: format!(
                    "the upstream's count rose by {executions} ({} → {} at {}, {}) for one operation",
                    count.change.before,
                    count.change.after,
                    count.source,
                    count.change.settling_words()
                ),
            });
            only.outcome = RetryConduct::Mistake;
        }
    }
    let verdict = if reports.is_empty() {
        RunVerdict::NoOperations
    } else if reports.iter().all(|r| r.outcome.is_fine()) {
        RunVerdict::Safe
    } else {
        RunVerdict::ClientMistakes
    };
    (verdict, reports)
}

/// At most this many operations are listed in full before only those with findings are.
pub(crate) const LISTED_OPERATIONS: usize = 1_000;
/// Operations with findings are listed in full until this many findings are.
pub(crate) const LISTED_FINDINGS: usize = 1_000;

/// The whole run in numbers: every operation judged, listed in full or not.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct Totals {
    pub operations: u64,
    pub safe: u64,
    pub not_faulted: u64,
    pub warning: u64,
    pub mistake: u64,
    pub findings: u64,
    /// Operations counted here but not listed in `operations` (past the first 1,000 operations,
    /// the fine ones; past the first 1,000 findings, all).
    pub unlisted_operations: u64,
    /// Findings of the unlisted operations.
    pub unlisted_findings: u64,
}

/// Judged operations, bounded: the first ones in full, then the ones with findings until enough
/// findings are listed, and every one in the totals.
#[derive(Debug, Clone, Default)]
pub(crate) struct Tally {
    pub totals: Totals,
    listed: Vec<JudgedOperation>,
    listed_findings: usize,
}

impl Tally {
    pub(crate) fn add(&mut self, report: JudgedOperation) {
        let totals = &mut self.totals;
        totals.operations += 1;
        *match report.outcome {
            RetryConduct::Safe => &mut totals.safe,
            RetryConduct::NotFaulted => &mut totals.not_faulted,
            RetryConduct::Warning => &mut totals.warning,
            RetryConduct::Mistake => &mut totals.mistake,
        } += 1;
        let findings = report.findings.len();
        totals.findings += findings as u64;
        let listed =
            if findings == 0 { self.listed.len() < LISTED_OPERATIONS } else { self.listed_findings < LISTED_FINDINGS };
        if listed {
            self.listed_findings += findings;
            self.listed.push(report);
        } else {
            totals.unlisted_operations += 1;
            totals.unlisted_findings += findings as u64;
        }
    }

    /// Counts `operation` without judging it when the judgement could only be "one attempt, not
    /// faulted, no finding" and its report would not be listed anyway (the first 1,000 are):
    /// under a load test nearly every operation is that, and judging each one (its answers rebuilt,
    /// the shared verdict, the report's strings) was most of what folding cost. `false`: the
    /// caller judges it in full.
    pub(crate) fn add_without_judging(&mut self, operation: &Operation) -> bool {
        let [only] = operation.attempts.as_slice() else { return false };
        if only.fault.is_some() || self.listed.len() < LISTED_OPERATIONS {
            return false;
        }
        self.totals.operations += 1;
        self.totals.not_faulted += 1;
        self.totals.unlisted_operations += 1;
        true
    }

    /// The listed reports in operation order, and the verdict on every operation counted.
    pub(crate) fn into_run(mut self) -> (RunVerdict, Vec<JudgedOperation>, Totals) {
        self.listed.sort_by_key(|report| report.operation);
        let totals = self.totals;
        let verdict = if totals.operations == 0 {
            RunVerdict::NoOperations
        } else if totals.warning + totals.mistake == 0 {
            RunVerdict::Safe
        } else {
            RunVerdict::ClientMistakes
        };
        (verdict, self.listed, totals)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::idem::proxy::fault::Fault;
    use crate::idem::proxy::operations::{Arrival, Operations};
    use bytes::Bytes;
    use http::{HeaderMap, Method};
    use std::time::Instant;

    /// Builds an operation from (key, body, fault, upstream status and id, client status, gap
    /// before the attempt).
    struct Script {
        ops: Operations,
        clock: Instant,
    }

    impl Script {
        fn new() -> Script {
            Script { ops: Operations::new(Duration::from_secs(120)), clock: Instant::now() }
        }

        fn attempt(
            &mut self,
            key: Option<&str>,
            body: &str,
            fault: Option<Fault>,
            upstream: Option<(u16, &str)>,
            gap_ms: u64,
        ) -> &mut Script {
            self.clock += Duration::from_millis(gap_ms);
            let bytes = Bytes::from(body.to_string());
            let at =
                self.ops.arrive(Arrival { method: &Method::POST, path: "/payments", key, body: &bytes }, self.clock);
            let now = self.ops.clock().stamp(self.clock);
            let attempt = self.ops.attempt_mut(at).unwrap();
            attempt.fault = fault;
            attempt.upstream = upstream.map(|(status, id)| {
                UpstreamAnswer::keep(
                    &Observed::answer(
                        status,
                        &HeaderMap::new(),
                        Bytes::from(format!(r#"{{"id":"{id}"}}"#)),
                        &IdSource { field: "/id".into(), header: None },
                    ),
                    at.quote_body,
                )
            });
            attempt.client_status = match fault {
                Some(Fault::Status { code, .. }) => Some(code),
                Some(Fault::LoseAnswer | Fault::Reset | Fault::Timeout { .. }) => None,
                _ => upstream.map(|(status, _)| status),
            };
            attempt.set_client_retry_after(match fault {
                Some(Fault::Status { retry_after, .. }) => retry_after.map(Duration::from_secs),
                _ => None,
            });
            attempt.finished = Some(now);
            self.ops.finished(at);
            self
        }

        fn judge(&self) -> JudgedOperation {
            judge_operation(self.ops.open()[0], "/id")
        }
    }

    /// A tally whose listed reports are full, so a fine operation is only counted.
    fn full_tally() -> Tally {
        let mut tally = Tally::default();
        let fine = Script::new().attempt(Some("k"), "a", None, Some((201, "pay_1")), 0).judge();
        for _ in 0..LISTED_OPERATIONS {
            tally.add(fine.clone());
        }
        tally
    }

    #[test]
    fn an_operation_counted_without_judging_counts_as_its_judgement_would() {
        let mut one_attempt = [Script::new(), Script::new(), Script::new()];
        one_attempt[0].attempt(Some("k1"), "a", None, Some((201, "pay_1")), 0);
        one_attempt[1].attempt(None, "a", None, Some((500, "")), 0);
        one_attempt[2].attempt(Some("k2"), "a", None, None, 0);
        for script in &one_attempt {
            let operation = script.ops.open()[0];
            let (mut judged, mut counted) = (full_tally(), full_tally());
            judged.add(judge_operation(operation, "/id"));
            assert!(counted.add_without_judging(operation));
            assert_eq!(counted.totals, judged.totals);
        }
        // What could carry a finding is always judged: a fault, a retry, a tally still listing.
        let mut faulted = Script::new();
        faulted.attempt(Some("k"), "a", Some(Fault::LoseAnswer), Some((201, "pay_1")), 0);
        let mut retried = Script::new();
        retried.attempt(Some("k"), "a", None, Some((201, "pay_1")), 0).attempt(
            Some("k"),
            "a",
            None,
            Some((201, "pay_2")),
            5,
        );
        assert!(!full_tally().add_without_judging(faulted.ops.open()[0]));
        assert!(!full_tally().add_without_judging(retried.ops.open()[0]));
        assert!(!Tally::default().add_without_judging(one_attempt[0].ops.open()[0]));
    }

    fn kinds(report: &JudgedOperation) -> Vec<FindingKind> {
        report.findings.iter().map(|f| f.kind).collect()
    }

    #[test]
    fn same_key_after_a_lost_answer_is_safe() {
        let report = Script::new()
            .attempt(Some("k1"), "a", Some(Fault::LoseAnswer), Some((201, "pay_1")), 0)
            .attempt(Some("k1"), "a", None, Some((201, "pay_1")), 300)
            .judge();
        assert_eq!(report.outcome, RetryConduct::Safe);
        assert_eq!(report.resource_ids, ["pay_1"]);
    }

    #[test]
    fn a_new_key_per_attempt_is_caught_with_both_ids() {
        let report = Script::new()
            .attempt(Some("key-one-aaaa"), "a", Some(Fault::LoseAnswer), Some((201, "pay_1")), 0)
            .attempt(Some("key-two-bbbb"), "a", None, Some((201, "pay_2")), 300)
            .judge();
        assert_eq!(report.outcome, RetryConduct::Mistake);
        assert_eq!(kinds(&report), [FindingKind::NewKey]);
        assert!(report.findings[0].message.contains("pay_1, pay_2"), "{}", report.findings[0].message);
    }

    #[test]
    fn no_key_and_a_retry_is_a_mistake() {
        let report = Script::new()
            .attempt(None, "a", Some(Fault::LoseAnswer), Some((201, "pay_1")), 0)
            .attempt(None, "a", None, Some((201, "pay_2")), 300)
            .judge();
        assert_eq!(kinds(&report), [FindingKind::NoKey]);
    }

    #[test]
    fn a_changed_body_is_a_mistake_with_the_upstream_answer() {
        let mut script = Script::new();
        script.attempt(Some("k1"), "a", Some(Fault::LoseAnswer), Some((201, "pay_1")), 0);
        script.attempt(Some("k1"), "b", None, Some((422, "x")), 300);
        let report = script.judge();
        assert_eq!(kinds(&report), [FindingKind::BodyChanged]);
        assert!(report.findings[0].message.contains("422"));
    }

    #[test]
    fn no_retry_no_backoff_retry_after_and_4xx_are_warnings() {
        let lone = Script::new().attempt(Some("k"), "a", Some(Fault::LoseAnswer), Some((201, "p")), 0).judge();
        assert_eq!((lone.outcome, kinds(&lone)), (RetryConduct::Warning, vec![FindingKind::NoRetry]));

        let hasty = Script::new()
            .attempt(Some("k"), "a", Some(Fault::Reset), None, 0)
            .attempt(Some("k"), "a", Some(Fault::Reset), None, 1)
            .attempt(Some("k"), "a", None, Some((201, "p")), 1)
            .judge();
        assert_eq!(kinds(&hasty), [FindingKind::NoBackoff]);

        let impatient = Script::new()
            .attempt(Some("k"), "a", Some(Fault::Status { code: 503, retry_after: Some(2) }), None, 0)
            .attempt(Some("k"), "a", None, Some((201, "p")), 300)
            .judge();
        assert_eq!(kinds(&impatient), [FindingKind::IgnoredRetryAfter]);

        let stubborn = Script::new()
            .attempt(Some("k"), "a", Some(Fault::Status { code: 400, retry_after: None }), None, 0)
            .attempt(Some("k"), "a", None, Some((201, "p")), 300)
            .judge();
        assert_eq!(kinds(&stubborn), [FindingKind::RetriedPast4xx]);
    }

    #[test]
    fn a_correct_client_against_a_key_ignoring_upstream_blames_the_upstream() {
        let report = Script::new()
            .attempt(Some("k"), "a", Some(Fault::LoseAnswer), Some((201, "pay_1")), 0)
            .attempt(Some("k"), "a", None, Some((201, "pay_2")), 300)
            .judge();
        assert_eq!(kinds(&report), [FindingKind::UpstreamExecutedTwice]);
    }

    #[test]
    fn the_tally_lists_the_first_operations_and_findings_and_counts_every_one() {
        let fine = Script::new().attempt(Some("k"), "a", None, Some((201, "p")), 0).judge();
        let warned = Script::new().attempt(Some("k"), "a", Some(Fault::LoseAnswer), Some((201, "p")), 0).judge();
        assert_eq!((fine.outcome, warned.findings.len()), (RetryConduct::NotFaulted, 1));
        let mut tally = Tally::default();
        for number in 1..=3_000 {
            let mut report = if number % 2 == 0 { warned.clone() } else { fine.clone() };
            report.operation = number;
            tally.add(report);
        }
        let (verdict, listed, totals) = tally.into_run();
        assert_eq!(verdict, RunVerdict::ClientMistakes);
        assert_eq!(
            (totals.operations, totals.not_faulted, totals.warning, totals.findings),
            (3_000, 1_500, 1_500, 1_500)
        );
        let listed_warned = listed.iter().filter(|r| !r.findings.is_empty()).count();
        assert_eq!(listed_warned, LISTED_FINDINGS);
        assert_eq!(totals.unlisted_findings, 500);
        assert_eq!(listed.len() as u64 + totals.unlisted_operations, 3_000);
        assert!(listed.len() <= LISTED_OPERATIONS + LISTED_FINDINGS);
        assert!(listed.windows(2).all(|pair| pair[0].operation < pair[1].operation));
    }
}
