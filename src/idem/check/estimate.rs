//! How many requests the suite sends and how many resources it leaves behind, before it sends
//! any: what `--plan` shows and what `--max-requests` names when it runs out. Counted from what
//! each check sends against an API that handles keys correctly and answers quickly; the in-flight
//! checks retry while a slow first request runs, so they also give the most they can send.
use std::time::Duration;

use serde::Serialize;

use super::catalogue::{
    CACHED_DECLINE, CALLER_SCOPED, CONCURRENT_ONCE, CONFLICT_RETRY_AFTER, CRASH_RECOVERS, CREATE, EFFECT_THEN_FAILURE,
    EQUAL_JSON_REPLAYS, EXPIRED_KEY_TAKEN_ONCE, KEY_SCOPED, KEY_SYNTAX, LEASE_OUTLIVES_WORK, MISMATCH_IN_FLIGHT,
    MISMATCH_REJECTED, MISSING_KEY_REPORTED, MISSING_KEY_REQUIRED, NEW_KEY_CREATES, PATH_SCOPED, RACE_WINDOW,
    REPLAY_FAITHFUL, RETRY,
};
use crate::conformance::{CheckSpec, Selection};

/// What the estimate depends on: the suite's settings, without the suite's config type (which
/// lives in `mod.rs`, the file that asks for the estimate).
pub(super) struct SuiteShape<'a> {
    pub body: &'a [u8],
    pub selection: &'a Selection,
    pub concurrency: usize,
    pub require_key: bool,
    pub measures_window: bool,
    pub second_caller: bool,
    pub other_url: bool,
    pub work_hint: Option<Duration>,
    pub max_work: Duration,
    pub server_cmd: bool,
    /// `--count-url` is given: `effect-then-failure` runs only then.
    pub counted: bool,
    /// `--retention`: `expired-key-taken-once` runs only with it (and a count), and waits it out.
    pub retention: Option<Duration>,
}

/// The requests of one check (or of the step that serves several, named by its first).
#[derive(Debug, Clone, Serialize, schemars::JsonSchema, PartialEq, Eq)]
pub(crate) struct CheckCost {
    pub check: &'static str,
    /// Sent to an API that handles keys correctly and answers quickly.
    pub requests: u64,
    /// The most it can send; `null` when only time bounds it.
    pub requests_at_most: Option<u64>,
    /// Resources a correct API creates for them (one per fresh key or keyless request it executes).
    pub creations: u64,
    /// When the count depends on the answers, how.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    /// How long the check waits before it sends its last requests (a record expiring), when it does.
    #[serde(rename = "wait_ms", skip_serializing_if = "Option::is_none", serialize_with = "crate::units::as_ms_opt")]
    #[schemars(with = "Option<f64>")]
    pub wait: Option<Duration>,
}

/// The whole suite's requests against one endpoint.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema, PartialEq, Eq)]
pub(crate) struct SuiteCost {
    pub requests: u64,
    pub requests_at_most: Option<u64>,
    pub creations: u64,
    /// The checks that send anything, in the order they run.
    pub checks: Vec<CheckCost>,
}

impl CheckCost {
    fn fixed(spec: CheckSpec, requests: u64, creations: u64) -> CheckCost {
        CheckCost { check: spec.id, requests, requests_at_most: Some(requests), creations, note: None, wait: None }
    }
}

/// The suite's cost for `shape`, check by check in run order.
pub(super) fn estimate(shape: &SuiteShape<'_>) -> SuiteCost {
    let runs = |spec: CheckSpec| shape.selection.runs(spec.id);
    let varies = super::variant::vary_body(shape.body).is_some();
    let mut checks = vec![CheckCost::fixed(CREATE, 1, 1)];
    if shape.selection.runs_any(super::catalogue::NEEDS_RETRY) {
        checks.push(CheckCost::fixed(RETRY, 1, 0));
    }
    if varies && shape.selection.runs_any(super::catalogue::NEEDS_MISMATCH) {
        checks.push(CheckCost::fixed(MISMATCH_REJECTED, 1, 0));
    }
    if shape.selection.runs_any(&[CONCURRENT_ONCE, CONFLICT_RETRY_AFTER, RACE_WINDOW]) {
        checks.push(CheckCost::fixed(CONCURRENT_ONCE, shape.concurrency as u64, 1));
        if shape.measures_window {
            checks.push(CheckCost {
                check: RACE_WINDOW.id,
                requests: 0,
                requests_at_most: None,
                creations: 0,
                note: Some(
                    "only when concurrent-once fails: then pairs of duplicates until the window is measured".into(),
                ),
                wait: None,
            });
        }
    }
    // A correct API refuses a keyless request under --require-key, and executes it otherwise.
    let missing_key = if shape.require_key { MISSING_KEY_REQUIRED } else { MISSING_KEY_REPORTED };
    if shape.selection.runs_any(super::catalogue::NEEDS_MISSING_KEY) {
        checks.push(CheckCost::fixed(missing_key, 1, u64::from(!shape.require_key)));
    }
    if runs(NEW_KEY_CREATES) {
        checks.push(CheckCost::fixed(NEW_KEY_CREATES, 1, 1));
    }
    if runs(KEY_SCOPED) {
        checks.push(CheckCost::fixed(KEY_SCOPED, 1, 0));
    }
    if shape.second_caller && runs(CALLER_SCOPED) {
        checks.push(CheckCost::fixed(CALLER_SCOPED, 1, 1));
    }
    if shape.other_url && runs(PATH_SCOPED) {
        checks.push(CheckCost::fixed(PATH_SCOPED, 1, 1));
    }
    if runs(REPLAY_FAITHFUL) {
        checks.push(CheckCost::fixed(REPLAY_FAITHFUL, 1, 0));
    }
    if runs(EQUAL_JSON_REPLAYS) && super::replay_shape::reserialise(shape.body).is_some() {
        checks.push(CheckCost::fixed(EQUAL_JSON_REPLAYS, 1, 0));
    }
    if runs(KEY_SYNTAX) {
        // An empty key, a 256-character key (both refused by a correct API), the key quoted.
        checks.push(CheckCost::fixed(KEY_SYNTAX, 3, 0));
    }
    if runs(CACHED_DECLINE) && super::decline::invalid_body(shape.body).is_some() {
        // The invalid body (declined), the corrected one with a new key and with the declined key.
        checks.push(CheckCost::fixed(CACHED_DECLINE, 3, 2));
    }
    if runs(LEASE_OUTLIVES_WORK) {
        let retries = super::in_flight::retry_delays(shape.work_hint, shape.max_work).len() as u64;
        checks.push(CheckCost {
            check: LEASE_OUTLIVES_WORK.id,
            requests: 1,
            requests_at_most: Some(1 + retries + 1),
            creations: 1,
            note: Some(format!(
                "a first request that runs past 10 ms gets up to {retries} retries while it runs and one after"
            )),
            wait: None,
        });
    }
    if runs(MISMATCH_IN_FLIGHT) && varies {
        checks.push(CheckCost {
            check: MISMATCH_IN_FLIGHT.id,
            requests: 1,
            requests_at_most: Some(3),
            creations: 1,
            note: Some("a first request that runs past 10 ms gets the changed body while it runs, and after".into()),
            wait: None,
        });
    }
    if runs(CRASH_RECOVERS) && shape.server_cmd {
        checks.push(CheckCost {
            check: CRASH_RECOVERS.id,
            requests: 2,
            requests_at_most: None,
            creations: 1,
            note: Some("retries after the restart until an answer settles the key or --stuck-for passes".into()),
            wait: None,
        });
    }
    if runs(EFFECT_THEN_FAILURE) && shape.counted {
        checks.push(CheckCost {
            check: EFFECT_THEN_FAILURE.id,
            requests: 3,
            requests_at_most: Some(1 + super::failure::MAX_RETRIES as u64 + 1),
            creations: 1,
            note: Some(
                "the cut request, retries until one is answered (409s while it runs), and the key once more".into(),
            ),
            wait: None,
        });
    }
    if let (true, true, Some(retention)) = (runs(EXPIRED_KEY_TAKEN_ONCE), shape.counted, shape.retention) {
        let wait = super::orphan::wait_for(retention);
        checks.push(CheckCost {
            check: EXPIRED_KEY_TAKEN_ONCE.id,
            requests: 1 + shape.concurrency as u64,
            requests_at_most: Some(1 + shape.concurrency as u64),
            // The first request, and once its record expired the one duplicate that takes it over.
            creations: 2,
            note: Some(format!(
                "the first request, a wait of {} (--retention plus a margin) for its record to expire, then {} duplicates with its key together",
                crate::units::format_duration(wait),
                shape.concurrency
            )),
            wait: Some(wait),
        });
    }
    SuiteCost::of(checks)
}

impl SuiteCost {
    fn of(checks: Vec<CheckCost>) -> SuiteCost {
        SuiteCost {
            requests: checks.iter().map(|check| check.requests).sum(),
            requests_at_most: checks.iter().map(|check| check.requests_at_most).sum(),
            creations: checks.iter().map(|check| check.creations).sum(),
            checks,
        }
    }

    /// The sum of several suites' costs (the operations of an OpenAPI document).
    pub(crate) fn total<'a>(costs: impl IntoIterator<Item = &'a SuiteCost>) -> (u64, Option<u64>, u64) {
        let mut total = (0u64, Some(0u64), 0u64);
        for cost in costs {
            total.0 += cost.requests;
            total.1 = total.1.zip(cost.requests_at_most).map(|(sum, most)| sum + most);
            total.2 += cost.creations;
        }
        total
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shape<'a>(body: &'a [u8], selection: &'a Selection) -> SuiteShape<'a> {
        SuiteShape {
            body,
            selection,
            concurrency: 20,
            require_key: false,
            measures_window: true,
            second_caller: false,
            other_url: false,
            work_hint: None,
            max_work: Duration::from_secs(30),
            server_cmd: false,
            counted: false,
            retention: None,
        }
    }

    #[test]
    fn a_json_body_runs_every_default_check() {
        let selection = Selection::default();
        let cost = estimate(&shape(br#"{"amount":100}"#, &selection));
        let ids: Vec<&str> = cost.checks.iter().map(|check| check.check).collect();
        assert_eq!(
            ids,
            [
                "create",
                "retry-replays",
                "mismatch-rejected",
                "concurrent-once",
                "race-window",
                "missing-key",
                "new-key-creates",
                "key-scoped",
                "replay-faithful",
                "equal-json-replays",
                "key-syntax",
                "cached-decline",
                "lease-outlives-work",
                "mismatch-in-flight"
            ]
        );
        assert_eq!(cost.requests, 1 + 1 + 1 + 20 + 1 + 1 + 1 + 1 + 1 + 3 + 3 + 1 + 1);
        assert_eq!(cost.requests_at_most, None, "race-window is bounded by time only");
        assert_eq!(cost.creations, 1 + 1 + 1 + 1 + 2 + 1 + 1);
    }

    #[test]
    fn no_body_and_skipped_checks_cost_nothing() {
        let selection = Selection {
            skip: vec!["concurrent-once".into(), "conflict-retry-after".into(), "race-window".into()],
            ..Selection::default()
        };
        let cost = estimate(&shape(b"", &selection));
        assert!(
            !cost.checks.iter().any(|check| check.check == "concurrent-once" || check.check == "mismatch-rejected")
        );
        assert_eq!(cost.requests, 1 + 1 + 1 + 1 + 1 + 1 + 3 + 1);
        assert_eq!(cost.requests_at_most, Some(1 + 1 + 1 + 1 + 1 + 1 + 3 + 9));
    }

    #[test]
    fn retention_with_a_count_adds_the_expired_key_race_and_its_wait() {
        let selection = Selection { only: vec!["expired-key-taken-once".into()], ..Selection::default() };
        let without = estimate(&SuiteShape { counted: true, ..shape(b"", &selection) });
        assert!(!without.checks.iter().any(|check| check.check == "expired-key-taken-once"), "no --retention");
        let uncounted = estimate(&SuiteShape { retention: Some(Duration::from_secs(5)), ..shape(b"", &selection) });
        assert!(!uncounted.checks.iter().any(|check| check.check == "expired-key-taken-once"), "no --count-url");
        let cost =
            estimate(&SuiteShape { counted: true, retention: Some(Duration::from_secs(5)), ..shape(b"", &selection) });
        let race = cost.checks.iter().find(|check| check.check == "expired-key-taken-once").expect("the check runs");
        assert_eq!((race.requests, race.requests_at_most, race.creations), (21, Some(21), 2));
        assert_eq!(race.wait, Some(Duration::from_secs(6)), "--retention plus the margin");
        assert!(race.note.as_deref().unwrap_or_default().contains("a wait of 6.00s"), "{:?}", race.note);
    }
}
