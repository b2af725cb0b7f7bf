//! `--profile ietf|stripe|strict`: the verdicts the sources disagree on. The IETF draft
//! (draft-ietf-httpapi-idempotency-key-header-07) and Stripe's API reference ("Idempotent
//! requests") differ on the mismatch status, the replay marker and whether error answers are
//! stored; a profile picks one reading and the report names it.
use crate::conformance::{CheckOutcome, CheckResult, Level, ProfileNote};

use super::catalogue::{MISMATCH_422, REPLAY_MARKED};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum Profile {
    /// The IETF draft: 422 for a mismatch is a SHOULD, no replay marker, stored errors left open
    #[default]
    Ietf,
    /// Stripe: any 4xx for a mismatch, Idempotent-Replayed required, stored 4xx/5xx replayed
    Stripe,
    /// The strictest reading of both: 422, the replay marker and replayed errors all required
    Strict,
}

impl Profile {
    pub(crate) fn name(self) -> &'static str {
        match self {
            Profile::Ietf => "ietf",
            Profile::Stripe => "stripe",
            Profile::Strict => "strict",
        }
    }

    /// A reused key with another body must be answered 422, not just any 4xx.
    pub(crate) fn mismatch_must_be_422(self) -> bool {
        matches!(self, Profile::Ietf | Profile::Strict)
    }

    fn mismatch_level(self) -> Level {
        match self {
            Profile::Ietf => Level::Recommended,
            Profile::Stripe => Level::Advisory,
            Profile::Strict => Level::Required,
        }
    }

    fn marker_level(self) -> Level {
        match self {
            Profile::Ietf => Level::Advisory,
            Profile::Stripe | Profile::Strict => Level::Required,
        }
    }

    /// The rules, as the report states them.
    pub(crate) fn note(self) -> ProfileNote {
        let rules = match self {
            Profile::Ietf => vec![
                "mismatch: 422 is recommended (mismatch-is-422 recommended; draft-ietf-httpapi-idempotency-key-header-07 §2.7 \"SHOULD reply with 422\"); mismatch-in-flight ends in 422".to_string(),
                "replay marker: not required (replay-marked advisory; the draft defines no replay header)".to_string(),
                "stored errors: not judged (the draft §2.6 leaves open whether a 4xx/5xx answer is stored for replay)".to_string(),
            ],
            Profile::Stripe => vec![
                "mismatch: any 4xx (mismatch-is-422 advisory; Stripe answers a reused key with other parameters 400 idempotency_error)".to_string(),
                "replay marker: required (replay-marked required; Stripe sends Idempotent-Replayed: true on every replay)".to_string(),
                "stored errors: a 4xx/5xx from an endpoint that started executing is replayed (Stripe API reference, Idempotent requests: \"including 500 errors\"); no check here provokes one".to_string(),
            ],
            Profile::Strict => vec![
                "mismatch: 422 required (mismatch-is-422 required; draft §2.7)".to_string(),
                "replay marker: required (replay-marked required; Stripe's Idempotent-Replayed)".to_string(),
                "stored errors: replayed, as Stripe does; no check here provokes one".to_string(),
            ],
        };
        ProfileNote { name: self.name(), rules }
    }

    /// Sets the level of the disputed checks and turns their warnings into failures (or back).
    pub(crate) fn apply(self, checks: &mut [CheckResult]) {
        for check in checks {
            let level = if check.id == MISMATCH_422.id {
                self.mismatch_level()
            } else if check.id == REPLAY_MARKED.id {
                self.marker_level()
            } else {
                continue;
            };
            check.level = level;
            check.outcome = match (check.outcome, level) {
                (CheckOutcome::Warn | CheckOutcome::Fail, Level::Required) => CheckOutcome::Fail,
                (CheckOutcome::Warn | CheckOutcome::Fail, _) => CheckOutcome::Warn,
                (other, _) => other,
            };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn the_profile_decides_whether_a_missing_marker_fails() {
        let warned = vec![REPLAY_MARKED.judged(false, vec![], Duration::ZERO)];
        let mut ietf = warned.clone();
        Profile::Ietf.apply(&mut ietf);
        assert_eq!((ietf[0].outcome, ietf[0].level), (CheckOutcome::Warn, Level::Advisory));
        let mut stripe = warned;
        Profile::Stripe.apply(&mut stripe);
        assert_eq!((stripe[0].outcome, stripe[0].level), (CheckOutcome::Fail, Level::Required));
    }
}
