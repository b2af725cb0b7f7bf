//! `cross-scheme-replay-rejected`: Stripe and Slack key the HMAC with the secret as given, as do
//! GitHub, Shopify and the generic `hmac` scheme, which sign the whole body and no timestamp. So a
//! captured Stripe signature over `"<t>." + body`, of any age, is also a valid GitHub signature over
//! the body `"<t>." + body`. A receiver that picks the scheme from whichever signature header
//! arrives accepts it, with a fresh delivery id per copy. This check sends such copies.
use std::time::{Duration, Instant};

use base64::Engine;
use bytes::Bytes;
use http::{HeaderName, HeaderValue, Request};

use super::catalogue::CROSS_SCHEME_REPLAY_REJECTED;
use super::probe::{Answer, NotRefused, Probe, said};
use crate::conformance::CheckResult;
use crate::webhook::deliver::engine::Signing;
use crate::webhook::delivery::unix_now;
use crate::webhook::scheme::{BASE64, SchemeKind, SigningKey};

/// One untimestamped form the captured signature is re-sent in.
struct Disguise {
    name: &'static str,
    /// The signature header, and how the tag is written in it.
    header: &'static str,
    encoding: Encoding,
    /// The delivery-id header a fresh id goes into.
    id_header: Option<&'static str>,
    /// The provider whose event name goes into which header.
    event: Option<(&'static str, &'static str)>,
}

/// Every disguise. Shopify's twice: its libraries read the unprefixed names too.
const DISGUISES: [Disguise; 4] = [
    Disguise {
        name: "github",
        header: "x-hub-signature-256",
        encoding: Encoding::PrefixedHex,
        id_header: Some("x-github-delivery"),
        event: Some(("github", "x-github-event")),
    },
    Disguise {
        name: "shopify",
        header: "x-shopify-hmac-sha256",
        encoding: Encoding::Base64,
        id_header: Some("x-shopify-webhook-id"),
        event: Some(("shopify", "x-shopify-topic")),
    },
    Disguise {
        name: "shopify (unprefixed headers)",
        header: "shopify-hmac-sha256",
        encoding: Encoding::Base64,
        id_header: Some("shopify-webhook-id"),
        event: Some(("shopify", "shopify-topic")),
    },
    Disguise { name: "hmac", header: "x-signature", encoding: Encoding::PrefixedHex, id_header: None, event: None },
];

#[derive(Clone, Copy)]
enum Encoding {
    PrefixedHex,
    Base64,
}

/// Sends a delivery signed `skew` seconds ago with the receiver's scheme, disguised as each
/// untimestamped scheme in turn; passes when every copy is refused with a 4xx.
pub(super) async fn cross_scheme_replay(probe: &Probe, skew: i64) -> anyhow::Result<CheckResult> {
    let kind = probe.scheme.kind();
    let prefix = |timestamp: i64| match kind {
        SchemeKind::Stripe => Some(format!("{timestamp}.")),
        SchemeKind::Slack => Some(format!("v0:{timestamp}:")),
        _ => None,
    };
    let captured_at = unix_now() - skew;
    let Some(signed_prefix) = prefix(captured_at) else {
        return Ok(CROSS_SCHEME_REPLAY_REJECTED.skipped(format!(
            "--scheme {kind} {}",
            if probe.scheme.is_timestamped() {
                "keys with the decoded secret, which no untimestamped scheme shares"
            } else {
                "signs no timestamp itself"
            }
        )));
    };
    let message = probe.event();
    let Signing::Fresh { key, .. } = &message.signing else {
        anyhow::bail!("the check's event is not signed afresh");
    };
    // The bytes the receiver's scheme signed: its prefix and the body, now the "body" of the copy.
    let body = Bytes::from([signed_prefix.as_bytes(), &message.body].concat());
    let tag = capture(key, &body);
    let started = Instant::now();
    let mut evidence = Vec::new();
    let mut refused_all = true;
    // Each disguise the receiver did not refuse, with its answer.
    let mut let_through = Vec::new();
    for disguise in &DISGUISES {
        let name = disguise.name;
        let request = disguised(probe, &body, &tag, disguise)?;
        let answer = probe.send(request).await;
        let refused = matches!(&answer, Answer::Status(exchange) if exchange.status.is_client_error());
        refused_all &= refused;
        let said = said(&answer);
        if !refused {
            let_through.push(format!("as {name} → {said}"));
        }
        let verdict = match NotRefused::of(&answer) {
            _ if refused => String::new(),
            NotRefused::Accepted => " (accepted a forgery: verify with the one scheme the sender uses)".to_string(),
            crashed => format!(" ({})", crashed.says()),
        };
        evidence.push(format!(
            "a {kind} signature from {} ago, re-sent as a {name} one → {said}{verdict}",
            crate::units::format_duration(Duration::from_secs(skew.unsigned_abs()))
        ));
    }
    let finding = format!(
        "a {kind} signature from {} ago re-sent under another scheme was not refused: {}",
        crate::units::format_duration(Duration::from_secs(skew.unsigned_abs())),
        let_through.join("; ")
    );
    Ok(CROSS_SCHEME_REPLAY_REJECTED.judged(refused_all, finding, evidence, started.elapsed()))
}

/// The captured tag: what the receiver's scheme put in its signature header.
fn capture(key: &SigningKey, signed: &[u8]) -> Vec<u8> {
    key.tag(&[signed]).as_ref().to_vec()
}

fn disguised(probe: &Probe, body: &Bytes, tag: &[u8], disguise: &Disguise) -> anyhow::Result<Request<Bytes>> {
    let Disguise { header, encoding, id_header, event, .. } = *disguise;
    let signature = match encoding {
        Encoding::PrefixedHex => format!("sha256={}", hex::encode(tag)),
        Encoding::Base64 => BASE64.encode(tag),
    };
    let mut request = Request::post(probe.url.clone()).body(body.clone())?;
    let headers = request.headers_mut();
    headers.insert(http::header::CONTENT_TYPE, HeaderValue::from_static("application/json"));
    headers.insert(HeaderName::from_static(header), HeaderValue::from_str(&signature)?);
    if let Some(id_header) = id_header {
        // A fresh id per copy, so de-duplication does not catch it either: a GUID, as GitHub and
        // Shopify write theirs.
        headers.insert(HeaderName::from_static(id_header), HeaderValue::from_str(&uuid::Uuid::new_v4().to_string())?);
    }
    // The disguise is complete: the provider's event name in its event header and its
    // User-Agent, so a receiver that validates those refuses the copy for the signature alone.
    if let Some((provider, event_header)) = event
        && let Some(pair) = crate::webhook::template::related_pair(provider, None)
    {
        headers.insert(HeaderName::from_static(event_header), HeaderValue::from_str(pair.created_event())?);
        let agent = SchemeKind::from_name(provider).and_then(crate::webhook::template::user_agent);
        if let Some(agent) = agent {
            headers.insert(http::header::USER_AGENT, HeaderValue::from_str(&agent)?);
        }
    }
    Ok(request)
}
