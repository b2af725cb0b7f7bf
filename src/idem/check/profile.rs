//! `--profile`: the contract an endpoint is judged against. The sources disagree (the IETF draft
//! asks 422 for a changed body, UCP 409, Worldline replays it; Stripe replays stored errors,
//! Checkout.com stores only 2xx; Adyen keys are at most 64 characters, ACP's 255 and required), so
//! one ✓/✗ against one reading would be indefensible. Each profile is a data file beside this one
//! (`profiles/NAME.yaml`) stating the key's carrier and length, the status for a missing key, a
//! changed body and work in flight, the replay header, which stored answers are replayed, the
//! scope, and the levels of the checks it decides, each rule with its public source. This file
//! reads them and applies them; the checks ask it what to require.
use std::sync::OnceLock;

use http::StatusCode;
use serde::Deserialize;

use crate::conformance::{CheckOutcome, CheckResult, Level, ProfileNote};

use super::catalogue;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum Profile {
    /// The IETF draft: 422 for a changed body recommended, no replay marker, stored errors left open
    #[default]
    Ietf,
    /// Stripe: any 4xx for a changed body, Idempotent-Replayed required, 500s replayed, keys ≤ 255
    Stripe,
    /// Adyen: keys ≤ 64 characters, statuses not documented (nothing may execute twice)
    Adyen,
    /// PayPal: PayPal-Request-Id ≤ 108 characters, a reused id gets the first request's latest status
    Paypal,
    /// Checkout.com: Cko-Idempotency-Key, only 2xx answers stored (4xx/5xx retried afresh), 409 in flight
    Checkout,
    /// Worldline: X-GCS-Idempotence-Key ≤ 40, a changed body gets the first answer, X-GCS-Idempotence-Request-Timestamp on replays
    Worldline,
    /// Agentic Commerce Protocol: a key on every POST (400 without), ≤ 255, 422 on conflict, 409 + Retry-After, Idempotent-Replayed
    Acp,
    /// Universal Commerce Protocol: a key required, 409 for a changed body
    Ucp,
    /// The strictest reading of the draft, Stripe and ACP together
    Strict,
}

impl Profile {
    pub(crate) const ALL: [Profile; 9] = [
        Profile::Ietf,
        Profile::Stripe,
        Profile::Adyen,
        Profile::Paypal,
        Profile::Checkout,
        Profile::Worldline,
        Profile::Acp,
        Profile::Ucp,
        Profile::Strict,
    ];

    pub(crate) fn name(self) -> &'static str {
        self.rules().name.as_str()
    }

    /// The data file, as shipped in the binary.
    fn text(self) -> &'static str {
        match self {
            Profile::Ietf => include_str!("profiles/ietf.yaml"),
            Profile::Stripe => include_str!("profiles/stripe.yaml"),
            Profile::Adyen => include_str!("profiles/adyen.yaml"),
            Profile::Paypal => include_str!("profiles/paypal.yaml"),
            Profile::Checkout => include_str!("profiles/checkout.yaml"),
            Profile::Worldline => include_str!("profiles/worldline.yaml"),
            Profile::Acp => include_str!("profiles/acp.yaml"),
            Profile::Ucp => include_str!("profiles/ucp.yaml"),
            Profile::Strict => include_str!("profiles/strict.yaml"),
        }
    }

    /// The rules, read from the data file once. The files are part of the binary and a unit test
    /// reads every one, so a file that does not parse cannot ship.
    pub(crate) fn rules(self) -> &'static ProfileRules {
        static RULES: OnceLock<Vec<ProfileRules>> = OnceLock::new();
        let all = RULES.get_or_init(|| {
            Profile::ALL
                .iter()
                .map(|profile| {
                    let mut rules: ProfileRules = serde_yaml_ng::from_str(profile.text())
                        .unwrap_or_else(|err| panic!("the built-in profile {profile:?} does not parse: {err}"));
                    rules.replay_marker.fix = rules.replay_marker.header.as_ref().map(|header| {
                        let value = if crate::idem::verdict::is_boolean_replay_marker(header) { ": true" } else { "" };
                        format!(
                            "add `{header}{value}` to every answer served from the key store ({})",
                            rules.replay_marker.source
                        )
                    });
                    rules
                })
                .collect()
        });
        &all[Profile::ALL.iter().position(|p| *p == self).unwrap_or(0)]
    }

    /// The report's statement of the rules that decided the verdicts.
    pub(crate) fn note(self) -> ProfileNote {
        let rules = self.rules();
        ProfileNote {
            name: self.name(),
            summary: rules.summary.as_str(),
            source: rules.source.as_str(),
            rules: rules.statements(),
        }
    }

    /// `idem check --list --profile P`: every check at this profile's level, with what it requires
    /// here where the profile changes it.
    pub(crate) fn catalogue(self) -> crate::conformance::Catalogue {
        let rules = self.rules();
        let mut catalogue = crate::conformance::Catalogue::new("idem check", catalogue::CHECKS);
        for entry in &mut catalogue.checks {
            if let Some(level) = rules.level_of(entry.id) {
                entry.level = level;
            }
            entry.requires = rules.requirement(entry.id);
        }
        catalogue.profile = Some(self.note());
        catalogue.selection_note = Some(catalogue::RUNS_WHATEVER_SELECTED);
        catalogue
    }

    /// `idem check --list` without --profile: every check at the level a run without --profile
    /// judges it (the default profile's), without the profile's rules.
    pub(crate) fn plain_catalogue() -> crate::conformance::Catalogue {
        let mut catalogue = Profile::default().catalogue();
        catalogue.profile = None;
        for entry in &mut catalogue.checks {
            entry.requires = None;
        }
        catalogue
    }

    /// Sets the level of the checks this profile decides and turns their warnings into failures
    /// (or back).
    pub(crate) fn apply(self, checks: &mut [CheckResult]) {
        for check in checks {
            let Some(level) = self.rules().level_of(check.id) else { continue };
            check.level = level;
            check.outcome = match (check.outcome, level) {
                (CheckOutcome::Warn | CheckOutcome::Fail, Level::Required) => CheckOutcome::Fail,
                (CheckOutcome::Warn | CheckOutcome::Fail, _) => CheckOutcome::Warn,
                (other, _) => other,
            };
        }
    }
}

/// One profile's data file.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct ProfileRules {
    pub name: String,
    /// Whose contract, in a few words: `Stripe's API (Idempotent requests)`.
    pub summary: String,
    /// The page the rules come from.
    pub source: String,
    pub key: KeyRule,
    pub mismatch: MismatchRule,
    pub in_flight: InFlightRule,
    pub replay_marker: ReplayMarkerRule,
    pub stored: StoredRule,
    pub scope: ScopeRule,
    /// The level of each check whose importance this contract decides, by check id.
    pub levels: std::collections::BTreeMap<String, LevelWord>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct KeyRule {
    /// The header that carries the key, unless `--key-header` or `--key-in` says otherwise.
    pub header: String,
    /// The longest key the API accepts; `None` when the source sets no limit.
    pub max_length: Option<usize>,
    /// Every request must carry a key.
    pub required: bool,
    /// What a request without a key gets when keys are required.
    pub missing_status: Option<u16>,
    pub source: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub(crate) enum MismatchAnswer {
    /// Refused with a 4xx (the status in `status`, any 4xx when none is named).
    Reject,
    /// Answered with the first request's answer, not executed (Worldline).
    Replay,
    /// Either: the contract says only that the first request's outcome is kept (PayPal).
    RejectOrReplay,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct MismatchRule {
    pub answer: MismatchAnswer,
    pub status: Option<u16>,
    pub source: String,
    /// How to fix a server that answers otherwise, where the catalogue's fix (answer 422) is not
    /// this contract's.
    #[serde(default)]
    pub fix: Option<String>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct InFlightRule {
    /// The status a duplicate gets while the first request runs; `None` when not documented.
    pub status: Option<u16>,
    pub source: String,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct ReplayMarkerRule {
    /// The header a replayed answer carries; `None` when the contract defines none.
    pub header: Option<String>,
    pub source: String,
    /// The fix line for a replay without that header (made from the two above).
    #[serde(skip)]
    pub fix: Option<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub(crate) enum StoredAnswer {
    /// Kept under the key and answered to a retry with it.
    Replayed,
    /// Never kept: a retry with the key runs afresh.
    NotStored,
    /// The contract does not say.
    Open,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct StoredRule {
    /// A 4xx for input refused before the work started (an invalid amount).
    pub refused_before_execution: StoredAnswer,
    /// A 5xx.
    pub server_errors: StoredAnswer,
    pub source: String,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct ScopeRule {
    /// What the stored key is scoped by besides itself: `caller`, `endpoint`.
    pub by: Vec<String>,
    pub source: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub(crate) enum LevelWord {
    Required,
    Recommended,
    Advisory,
}

impl From<LevelWord> for Level {
    fn from(word: LevelWord) -> Level {
        match word {
            LevelWord::Required => Level::Required,
            LevelWord::Recommended => Level::Recommended,
            LevelWord::Advisory => Level::Advisory,
        }
    }
}

impl ProfileRules {
    pub(crate) fn level_of(&self, check: &str) -> Option<Level> {
        self.levels.get(check).map(|word| Level::from(*word))
    }

    /// The longest key, for `key-syntax`'s over-long key: the contract's, else 255 (Stripe's and
    /// ACP's limit, which the draft's examples stay within).
    pub(crate) fn max_key_length(&self) -> usize {
        self.key.max_length.unwrap_or(255)
    }

    /// What a request without a key must get when keys are required.
    pub(crate) fn missing_key_status(&self) -> StatusCode {
        self.key.missing_status.and_then(|s| StatusCode::from_u16(s).ok()).unwrap_or(StatusCode::BAD_REQUEST)
    }

    /// Whether `status` is the refusal this contract asks for a changed body.
    pub(crate) fn accepts_mismatch_status(&self, status: StatusCode) -> bool {
        match self.mismatch.status {
            Some(named) => status.as_u16() == named,
            None => status.is_client_error(),
        }
    }

    /// `422`, `409` or `a 4xx`: the refusal of a changed body, for messages.
    pub(crate) fn mismatch_status_phrase(&self) -> String {
        self.mismatch.status.map_or_else(|| "a 4xx".to_string(), |status| status.to_string())
    }

    /// One sentence per rule, with its source, for the report.
    pub(crate) fn statements(&self) -> Vec<String> {
        let key = &self.key;
        let length =
            key.max_length.map_or_else(|| "no length limit".to_string(), |n| format!("at most {n} characters"));
        let required = match (key.required, key.missing_status) {
            (true, Some(status)) => format!("required ({status} without one)"),
            (true, None) => "required".to_string(),
            (false, _) => "optional".to_string(),
        };
        let mismatch = match self.mismatch.answer {
            MismatchAnswer::Reject => format!("refused with {}", self.mismatch_status_phrase()),
            MismatchAnswer::Replay => "answered with the first request's answer, not executed".to_string(),
            MismatchAnswer::RejectOrReplay => {
                "refused with a 4xx or answered with the first answer, not executed".to_string()
            }
        };
        let in_flight = self.in_flight.status.map_or_else(|| "not documented".to_string(), |s| s.to_string());
        let marker = self.replay_marker.header.as_deref().unwrap_or("none");
        vec![
            format!("key: {}, {length}, {required} ({})", key.header, key.source),
            format!("changed body with the same key: {mismatch} ({})", self.mismatch.source),
            format!("duplicate while the first runs: {in_flight} ({})", self.in_flight.source),
            format!("replay marker: {marker} ({})", self.replay_marker.source),
            format!(
                "stored answers: a refusal before execution {}, a 5xx {} ({})",
                self.stored.refused_before_execution.phrase(),
                self.stored.server_errors.phrase(),
                self.stored.source
            ),
            format!("scope: the key per {} ({})", self.scope.by.join(" and "), self.scope.source),
        ]
    }

    /// What `check` requires under this contract, for `--list --profile`; `None` when the
    /// contract does not change it.
    pub(crate) fn requirement(&self, check: &str) -> Option<String> {
        let marker = self.replay_marker.header.as_deref();
        let text = match check {
            id if id == catalogue::REPLAY_MARKED.id => match marker {
                Some(header) => format!("a replay carries {header}"),
                None => "a replay marker is not part of this contract (any of the common ones is reported)".to_string(),
            },
            id if id == catalogue::MISMATCH_REJECTED.id => match self.mismatch.answer {
                MismatchAnswer::Reject => format!("a changed body with the key is refused with {}, never executed", self.mismatch_status_phrase()),
                MismatchAnswer::Replay => "a changed body with the key gets the first answer, never executed".to_string(),
                MismatchAnswer::RejectOrReplay => {
                    "a changed body with the key is refused with a 4xx or gets the first answer, never executed".to_string()
                }
            },
            id if id == catalogue::MISMATCH_422.id => match (self.mismatch.answer, self.mismatch.status) {
                (MismatchAnswer::Reject, Some(422) | None) => "the refusal is 422".to_string(),
                _ => format!("not judged: this contract asks for {}", self.requirement(catalogue::MISMATCH_REJECTED.id)?),
            },
            id if id == catalogue::CONCURRENT_ONCE.id => match self.in_flight.status {
                Some(status) => format!("duplicates in flight get {status} or the replay; one executes"),
                None => "duplicates in flight get an error or the replay (the status is not documented); one executes".to_string(),
            },
            id if id == catalogue::CONFLICT_RETRY_AFTER.id => "a 409 for work in flight carries Retry-After".to_string(),
            id if id == catalogue::MISSING_KEY_REQUIRED.id && self.key.required => {
                format!("a request without {} gets {}", self.key.header, self.missing_key_status().as_u16())
            }
            id if id == catalogue::KEY_SYNTAX.id => {
                format!("an empty key and a key of {} characters are refused with 400", self.max_key_length() + 1)
            }
            id if id == catalogue::CACHED_DECLINE.id => match self.stored.refused_before_execution {
                StoredAnswer::NotStored => "after a 4xx refusal, the corrected request executes with a new key and with the same key".to_string(),
                StoredAnswer::Replayed => "after a 4xx refusal, the corrected request executes with a new key; the same key gets the 4xx again".to_string(),
                StoredAnswer::Open => "after a 4xx refusal, the corrected request executes with a new key (the same key is reported only)".to_string(),
            },
            id if id == catalogue::EFFECT_THEN_FAILURE.id => match self.stored.server_errors {
                StoredAnswer::Replayed => "one execution; a 5xx after the work is replayed to the retry".to_string(),
                StoredAnswer::NotStored => "one execution; a 5xx is never stored, so the retry runs afresh and must find the work done".to_string(),
                StoredAnswer::Open => return None,
            },
            _ => return None,
        };
        Some(text)
    }
}

impl StoredAnswer {
    fn phrase(self) -> &'static str {
        match self {
            StoredAnswer::Replayed => "is replayed",
            StoredAnswer::NotStored => "is not stored (a retry runs afresh)",
            StoredAnswer::Open => "is left open",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn every_profile_file_parses_and_names_itself_and_real_checks() {
        for profile in Profile::ALL {
            let rules = profile.rules();
            let value = clap::ValueEnum::to_possible_value(&profile).unwrap();
            assert_eq!(rules.name, value.get_name(), "{profile:?}: the file's name is the --profile value");
            for id in rules.levels.keys() {
                assert!(catalogue::CHECKS.iter().any(|spec| spec.id == id), "{}: no check {id}", rules.name);
            }
            assert!(rules.source.starts_with("https://"), "{}: a public source", rules.name);
            assert_eq!(rules.statements().len(), 6);
        }
    }

    #[test]
    fn the_profile_decides_whether_a_missing_marker_fails() {
        let warned = vec![catalogue::REPLAY_MARKED.broken("no marker", vec![], Duration::ZERO)];
        let mut ietf = warned.clone();
        Profile::Ietf.apply(&mut ietf);
        assert_eq!((ietf[0].outcome, ietf[0].level), (CheckOutcome::Warn, Level::Advisory));
        let mut stripe = warned;
        Profile::Stripe.apply(&mut stripe);
        assert_eq!((stripe[0].outcome, stripe[0].level), (CheckOutcome::Fail, Level::Required));
    }

    #[test]
    fn the_contracts_disagree_where_their_sources_do() {
        assert_eq!(Profile::Ucp.rules().mismatch.status, Some(409));
        assert_eq!(Profile::Acp.rules().mismatch.status, Some(422));
        assert_eq!(Profile::Worldline.rules().mismatch.answer, MismatchAnswer::Replay);
        assert_eq!(Profile::Adyen.rules().max_key_length(), 64);
        assert_eq!(Profile::Checkout.rules().stored.server_errors, StoredAnswer::NotStored);
        assert_eq!(Profile::Stripe.rules().stored.server_errors, StoredAnswer::Replayed);
        assert!(Profile::Acp.rules().key.required && !Profile::Stripe.rules().key.required);
        assert!(Profile::Stripe.rules().accepts_mismatch_status(StatusCode::BAD_REQUEST));
        assert!(!Profile::Ucp.rules().accepts_mismatch_status(StatusCode::UNPROCESSABLE_ENTITY));
    }
}
