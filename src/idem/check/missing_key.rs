//! `missing-key`: what a request without a key gets (required to be 400 with `--require-key`).
use std::time::Instant;

use http::StatusCode;

use super::catalogue::{MISSING_KEY_REPORTED, MISSING_KEY_REQUIRED};
use super::probe::{Probe, excerpt};
use crate::conformance::CheckResult;
use crate::idem::key_carrier::KeyCarrier;

/// `missing-key`: required to be 400 with `--require-key`, otherwise reported.
/// `expected` is what the profile names for a missing key (400 everywhere so far).
pub(super) async fn missing_key(
    probe: &mut Probe,
    require_key: bool,
    expected: StatusCode,
) -> anyhow::Result<CheckResult> {
    let spec = if require_key { MISSING_KEY_REQUIRED } else { MISSING_KEY_REPORTED };
    let started = Instant::now();
    let answer = probe.send(spec.id, None, None, None).await?;
    // build(None) leaves the key out wherever it lives: no header, no member, no directive, no meta key.
    let left_out = match probe.spec.key_carrier {
        KeyCarrier::Header => String::new(),
        _ => format!(" (nothing at {})", probe.spec.key_in()),
    };
    let mut evidence = vec![format!("no key{left_out} → {}", answer.status)];
    if let Some(id) = probe.id_of(&answer).filter(|_| answer.status.is_success()) {
        evidence.push(format!("executed without a key: {id}"));
    } else if !answer.status.is_success() {
        evidence.push(excerpt(&answer.body));
    }
    let held = !require_key || answer.status == expected;
    let finding = format!("a request without a key answered {}, not {expected}", answer.status);
    let mut result = spec.judged(held, finding, evidence, started.elapsed());
    if probe.spec.key_carrier != KeyCarrier::Header {
        // The catalogue's fix names the header; this API reads the key elsewhere.
        result.fix = result.fix.map(|_| {
            "when keys are required, answer a request without a key (no body member, query parameter, \
             @idempotent directive or meta key) with 400 and an error naming where the key goes"
        });
    }
    Ok(result)
}
