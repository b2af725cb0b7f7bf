//! `cached-decline`: the request declined (4xx) for an invalid value, then corrected. The
//! corrected request with a new key must execute; with the same key, it gets what the profile says
//! of a refusal before execution: Stripe and Checkout.com store nothing for it, so the corrected
//! request executes; where the contract is silent (the draft), what it gets is reported only.
use std::time::Instant;

use serde_json::Value;

use super::catalogue::CACHED_DECLINE;
use super::probe::{Probe, excerpt};
use super::profile::{ProfileRules, StoredAnswer};
use super::variant::change_content;
use crate::conformance::CheckResult;

pub(super) async fn cached_decline(probe: &mut Probe, rules: &'static ProfileRules) -> anyhow::Result<CheckResult> {
    let Some((invalid, change)) = change_content(&probe.spec.key_carrier, &probe.spec.body, invalid_body) else {
        return Ok(CACHED_DECLINE
            .skipped("needs a JSON object body with a positive number (an amount) to make invalid; give it with -d"));
    };
    let started = Instant::now();
    let key = probe.fresh_key();
    let declined = probe.send(CACHED_DECLINE.id, Some(&key), None, Some(invalid.into())).await?;
    if !declined.status.is_client_error() {
        return Ok(CACHED_DECLINE.skipped(format!(
            "could not judge: the request with {change} got {}, not a decline (4xx), so there is no decline to retry after",
            declined.status
        )));
    }
    let mut evidence = vec![format!("key {key}, {change} → {} (declined)", declined.status)];
    let new_key = probe.fresh_key();
    let corrected = probe.send(CACHED_DECLINE.id, Some(&new_key), None, None).await?;
    let executed = corrected.status.is_success();
    let id = probe.id_of(&corrected).filter(|_| executed);
    evidence.push(format!(
        "corrected, new key {new_key} → {} {}",
        corrected.status,
        id.as_deref().unwrap_or("(no id)")
    ));
    if !executed {
        let same_answer = corrected.status == declined.status && corrected.body == declined.body;
        evidence.push(if same_answer {
            "the decline was answered again to a new key: it is kept by something other than the key".to_string()
        } else {
            format!("the corrected request was refused: {}", excerpt(&corrected.body))
        });
    }
    let same_key = probe.send(CACHED_DECLINE.id, Some(&key), None, None).await?;
    let same_key_held = match rules.stored.refused_before_execution {
        StoredAnswer::NotStored => {
            let held = same_key.status.is_success();
            evidence.push(format!(
                "corrected, the declined key again → {}{} (--profile {}: a refusal before execution is not stored, so the corrected request runs: {})",
                same_key.status,
                if held { "" } else { ", expected it to execute" },
                rules.name,
                rules.stored.source
            ));
            held
        }
        StoredAnswer::Replayed => {
            let held = same_key.status.is_client_error();
            evidence.push(format!(
                "corrected, the declined key again → {}{} (--profile {}: the stored 4xx is replayed)",
                same_key.status,
                if held { "" } else { ", expected the 4xx again" },
                rules.name
            ));
            held
        }
        StoredAnswer::Open => {
            evidence.push(format!(
                "corrected, the declined key again → {} (reported only: --profile {} lets the server replay the 4xx or refuse another body with the key)",
                same_key.status, rules.name
            ));
            true
        }
    };
    let finding = match executed {
        false => format!(
            "after a {} decline, the corrected request with a new key got {}",
            declined.status, corrected.status
        ),
        true => format!(
            "after a {} decline, the corrected request with the declined key got {} (--profile {})",
            declined.status, same_key.status, rules.name
        ),
    };
    Ok(CACHED_DECLINE.judged(executed && same_key_held, finding, evidence, started.elapsed()))
}

/// The user's JSON body with its first positive number made negative (an amount no API accepts),
/// and what changed.
pub(super) fn invalid_body(body: &[u8]) -> Option<(Vec<u8>, String)> {
    let Ok(Value::Object(mut fields)) = serde_json::from_slice::<Value>(body) else { return None };
    let (name, n) =
        fields.iter().find_map(|(name, value)| value.as_i64().filter(|n| *n > 0).map(|n| (name.clone(), n)))?;
    fields.insert(name.clone(), Value::from(-n));
    Some((serde_json::to_vec(&Value::Object(fields)).ok()?, format!("`{name}` {n} → {}", -n)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_positive_number_turns_negative() {
        let (body, change) = invalid_body(br#"{"currency":"RUB","amount":1990}"#).unwrap();
        assert_eq!(body, br#"{"currency":"RUB","amount":-1990}"#);
        assert_eq!(change, "`amount` 1990 → -1990");
        assert_eq!(invalid_body(br#"{"name":"x"}"#), None);
        assert_eq!(invalid_body(b"a=1"), None);
    }
}
