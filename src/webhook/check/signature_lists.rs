//! `any-listed-signature-accepted` and `truncated-signature-rejected`: what receivers get wrong
//! in reading the signature header. Standard Webhooks' `webhook-signature` and Stripe's
//! `Stripe-Signature` carry a list so secrets can rotate with no downtime; a receiver that checks
//! only the first entry refuses every delivery during a rotation (reported against PostHog and the
//! Svix C# library before 1.96). A prefix comparison, or one that stops at the shorter string,
//! accepts half a signature, or the version prefix with nothing after it.
use std::time::Instant;

use http::HeaderValue;

use super::catalogue::{ANY_LISTED_SIGNATURE_ACCEPTED, TRUNCATED_SIGNATURE_REJECTED};
use super::probe::{Answer, Probe, said};
use crate::conformance::CheckResult;
use crate::webhook::delivery::unix_now;
use crate::webhook::scheme::{SchemeKind, spelled};

/// The signature lengths the schemes write, as text: Ed25519 in base64, HMAC-SHA256 in hex and in
/// base64; then Ed25519 in hex (Discord) and an ECDSA P-256 DER signature in base64 (SendGrid:
/// 70 to 72 bytes, 68 or 69 now and then). The signature is the header value's tail of one of
/// these lengths, after a prefix that is empty or ends at a separator (`v1,`, `t=…,v1=`,
/// `sha256=`, `v0=`).
const SIGNATURE_TEXT_LENGTHS: [usize; 6] = [88, 64, 44, 128, 96, 92];

/// The header value split into its prefix and its (last) signature.
fn split_signature(value: &str) -> Option<(&str, &str)> {
    SIGNATURE_TEXT_LENGTHS.into_iter().find_map(|length| {
        let at = value.len().checked_sub(length)?;
        let prefix = value.get(..at)?;
        (prefix.is_empty() || prefix.ends_with([',', '=', ':', ' '])).then(|| (prefix, &value[at..]))
    })
}

/// `wrong` then `valid` in one header, as the scheme lists signatures; `None` when its header
/// carries one signature only.
fn listed(kind: SchemeKind, wrong: &str, valid: &str) -> Option<String> {
    match kind {
        // Space-separated `v1,<sig>` entries.
        SchemeKind::Standard | SchemeKind::Alias(_) => Some(format!("{wrong} {valid}")),
        // `t=<ts>,v1=<sig>` and more `v1=` after the same timestamp.
        SchemeKind::Stripe => {
            let (_, valid_signature) = split_signature(valid)?;
            Some(format!("{wrong},v1={valid_signature}"))
        }
        SchemeKind::Hmac
        | SchemeKind::Github
        | SchemeKind::Slack
        | SchemeKind::Shopify
        | SchemeKind::Provider(_)
        | SchemeKind::Certified(_) => None,
    }
}

/// `any-listed-signature-accepted`: one event signed with a wrong key and the right one, the wrong
/// signature listed first.
pub(crate) async fn any_listed(probe: &Probe) -> anyhow::Result<CheckResult> {
    let kind = probe.scheme.kind();
    let header = probe.scheme.signature_header();
    let message = probe.event();
    let timestamp = unix_now();
    let mut request = probe.request(&message, timestamp)?;
    let forged = probe.request(&probe.forged(&message), timestamp)?;
    let text = |request: &http::Request<bytes::Bytes>| {
        request.headers().get(&header).and_then(|value| value.to_str().ok()).map(str::to_string).unwrap_or_default()
    };
    let Some(combined) = listed(kind, &text(&forged), &text(&request)) else {
        return Ok(ANY_LISTED_SIGNATURE_ACCEPTED
            .skipped(format!("--scheme {kind} carries one signature in {}, not a list", spelled(&header))));
    };
    request.headers_mut().insert(header.clone(), HeaderValue::from_str(&combined)?);
    let started = Instant::now();
    let answer = probe.send(request).await;
    let accepted = matches!(&answer, Answer::Status(exchange) if exchange.status.is_success());
    let mut evidence = vec![format!(
        "event {} with {} listing another secret's signature, then the valid one → {}",
        message.event_id,
        spelled(&header),
        said(&answer)
    )];
    if !accepted {
        evidence.push("only the first entry is checked: every delivery fails while a secret rotates".to_string());
    }
    let finding = format!("refused a valid signature listed after another secret's: {}", said(&answer));
    Ok(ANY_LISTED_SIGNATURE_ACCEPTED.judged(accepted, finding, evidence, started.elapsed()))
}

/// `truncated-signature-rejected`: the valid signature's first half, then its prefix alone.
pub(crate) async fn truncated(probe: &Probe) -> anyhow::Result<CheckResult> {
    let header = probe.scheme.signature_header();
    if probe.scheme.accepted_signature_headers().is_empty() {
        let kind = probe.scheme.kind();
        return Ok(TRUNCATED_SIGNATURE_REJECTED
            .skipped(format!("--scheme {kind} carries its signature in the body, not in a header")));
    }
    let message = probe.event();
    let timestamp = unix_now();
    let request = probe.request(&message, timestamp)?;
    let value = request.headers().get(&header).and_then(|value| value.to_str().ok()).unwrap_or_default().to_string();
    // An RSA signature (PayPal's) is longer than any MAC's and has no prefix, and a shared token
    // (GitLab's) is whatever the user chose: either way the whole value is what is cut.
    let certified = matches!(probe.scheme.kind(), crate::webhook::scheme::SchemeKind::Certified(_));
    let whole = certified || probe.scheme.sends_the_secret_itself();
    let split = if whole { (!value.is_empty()).then_some(("", value.as_str())) } else { split_signature(&value) };
    let Some((prefix, signature)) = split else {
        anyhow::bail!("cannot find the signature in the {} header the suite wrote", spelled(&header));
    };
    let mut variants = vec![(format!("{prefix}{}", &signature[..signature.len() / 2]), "cut in half")];
    if !prefix.is_empty() {
        variants.push((prefix.to_string(), "the prefix alone"));
    }
    let started = Instant::now();
    let mut evidence = Vec::new();
    let mut refused_all = true;
    let mut let_through = Vec::new();
    for (truncated, what) in variants {
        let mut request = probe.request(&message, timestamp)?;
        request.headers_mut().insert(header.clone(), HeaderValue::from_str(&truncated)?);
        let answer = probe.send(request).await;
        let refused = matches!(&answer, Answer::Status(exchange) if exchange.status.is_client_error());
        refused_all &= refused;
        let verdict = if refused { "" } else { " (expected a 4xx)" };
        if !refused {
            let_through.push(format!("{what} → {}", said(&answer)));
        }
        let shown = if what == "the prefix alone" { format!(" `{truncated}`") } else { String::new() };
        evidence.push(format!(
            "event {} with the valid signature {what}{shown} → {}{verdict}",
            message.event_id,
            said(&answer)
        ));
    }
    let finding = format!("did not refuse a truncated signature: {}", let_through.join("; "));
    Ok(TRUNCATED_SIGNATURE_REJECTED.judged(refused_all, finding, evidence, started.elapsed()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn signatures_are_found_after_their_prefix() {
        let hex = "a".repeat(64);
        let base64 = format!("{}=", "B".repeat(43));
        let ed25519 = format!("{}==", "C".repeat(86));
        for (value, prefix) in [
            (format!("v1,{base64}"), "v1,"),
            (format!("v1a,{ed25519}"), "v1a,"),
            (format!("t=1700000000,v1={hex}"), "t=1700000000,v1="),
            (format!("sha256={hex}"), "sha256="),
            (format!("v0={hex}"), "v0="),
            (base64.clone(), ""),
        ] {
            assert_eq!(split_signature(&value).map(|(found, _)| found), Some(prefix), "{value}");
        }
        assert_eq!(split_signature("short"), None);
    }

    #[test]
    fn lists_follow_each_scheme() {
        let hex = "a".repeat(64);
        let stripe = listed(SchemeKind::Stripe, &format!("t=1,v1={}", "b".repeat(64)), &format!("t=1,v1={hex}"));
        assert_eq!(stripe.unwrap(), format!("t=1,v1={},v1={hex}", "b".repeat(64)));
        assert_eq!(listed(SchemeKind::Standard, "v1,x", "v1,y").unwrap(), "v1,x v1,y");
        assert!(listed(SchemeKind::Github, "a", "b").is_none());
    }
}
