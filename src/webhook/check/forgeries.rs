//! `bad-signature-rejected`, `missing-signature-rejected` and `tampered-body-rejected`: a delivery
//! the secret did not sign, as it stands, must get a 4xx.
use super::catalogue::{BAD_SIGNATURE_REJECTED, MISSING_SIGNATURE_REJECTED, TAMPERED_BODY_REJECTED};
use super::probe::{Probe, refusal};
use crate::conformance::CheckResult;
use crate::webhook::delivery::unix_now;

pub(crate) async fn bad_signature(probe: &Probe) -> anyhow::Result<CheckResult> {
    let message = probe.forged(&probe.event());
    let what = format!("event {} signed with another secret", message.event_id);
    Ok(refusal(BAD_SIGNATURE_REJECTED, probe, what, probe.request(&message, unix_now())?).await)
}

pub(crate) async fn missing_signature(probe: &Probe) -> anyhow::Result<CheckResult> {
    let message = probe.event();
    let mut request = probe.request(&message, unix_now())?;
    let header = probe.scheme.signature_header();
    request.headers_mut().remove(&header);
    let what = format!("event {} without {}", message.event_id, crate::webhook::scheme::spelled(&header));
    Ok(refusal(MISSING_SIGNATURE_REJECTED, probe, what, request).await)
}

pub(crate) async fn tampered_body(probe: &Probe) -> anyhow::Result<CheckResult> {
    let message = probe.event();
    let mut request = probe.request(&message, unix_now())?;
    *request.body_mut() = probe.tampered_body(&message);
    let what = format!("event {} with its body changed after signing", message.event_id);
    Ok(refusal(TAMPERED_BODY_REJECTED, probe, what, request).await)
}
