//! `caller-scoped`, `path-scoped` and `key-scoped`: a key belongs to one caller, one endpoint and
//! one method. A store keyed
//! by the header value alone hands caller A's stored answer (A's payment) to caller B, and answers
//! `POST /refunds` with the stored `POST /payments` result, so the refund never runs.
use std::time::Instant;

use http::{HeaderName, HeaderValue, Uri};

use super::catalogue::{CALLER_SCOPED, KEY_SCOPED, PATH_SCOPED};
use super::probe::{Original, Probe, excerpt};
use super::variant::other_method;
use crate::conformance::CheckResult;
use crate::http::client::Exchange;

/// What another request with the original key got, judged against the original.
enum Scoped {
    /// The original's id or body came back: the stored answer leaked.
    Leaked(String),
    /// A separate execution, with its own id.
    Executed(String),
    /// A 4xx: the reuse was refused.
    Refused,
    /// Neither: a 2xx without the original's id or body.
    Other,
    /// A 5xx or other answer that says nothing about the scope.
    Unclear,
}

/// `uninformative` are the 4xx that refuse for another reason than the key (401 for a caller
/// that is not one, 404 for an endpoint that does not exist): they prove nothing about scoping.
fn judge(probe: &Probe, original: &Original, answer: &Exchange, uninformative: &[u16]) -> Scoped {
    if uninformative.contains(&answer.status.as_u16()) {
        return Scoped::Unclear;
    }
    if answer.status.is_client_error() {
        return Scoped::Refused;
    }
    if !answer.status.is_success() {
        return Scoped::Unclear;
    }
    let id = probe.id_of(answer);
    if id.as_deref() == Some(original.id.as_str()) || answer.body == original.exchange.body {
        return Scoped::Leaked(id.unwrap_or_else(|| original.id.clone()));
    }
    match id {
        Some(id) => Scoped::Executed(id),
        None => Scoped::Other,
    }
}

/// `caller-scoped`: caller B (`--as` headers) sends caller A's key with A's body.
pub(super) async fn caller_scoped(
    probe: &mut Probe,
    original: &Original,
    caller: &[(HeaderName, HeaderValue)],
) -> anyhow::Result<CheckResult> {
    if caller.is_empty() {
        return Ok(CALLER_SCOPED.skipped("give a second caller with --as 'Authorization: Bearer <other token>'"));
    }
    let started = Instant::now();
    let mut request = probe.spec.build(Some(&original.key))?;
    for (name, value) in caller {
        request.headers_mut().insert(name.clone(), value.clone());
    }
    // Header names only: the values are credentials.
    let names: Vec<&str> = caller.iter().map(|(name, _)| name.as_str()).collect();
    let answer = probe.send_request(CALLER_SCOPED.id, request).await?;
    let b_id = probe.id_of(&answer);
    let mut evidence = vec![
        format!("caller A: key {} → {} {}", original.key, original.exchange.status, original.id),
        format!(
            "caller B (--as {}): same key, same body → {} {}",
            names.join(", "),
            answer.status,
            b_id.as_deref().unwrap_or("(no id)")
        ),
    ];
    let broken = match judge(probe, original, &answer, &[401]) {
        Scoped::Leaked(id) => {
            evidence.push(format!(
                "caller B received caller A's resource {id}: A's stored answer leaked to another caller"
            ));
            Some(format!("caller B reusing caller A's key got A's resource {id}: {}", answer.status))
        }
        Scoped::Executed(id) => {
            evidence.push(format!("caller B's request executed on its own: {id}, not A's {}", original.id));
            None
        }
        Scoped::Refused => {
            evidence.push(format!("caller B was refused: {}", excerpt(&answer.body)));
            None
        }
        Scoped::Other => {
            evidence.push("caller B's answer carries neither A's id nor A's body".to_string());
            None
        }
        Scoped::Unclear => {
            return Ok(CALLER_SCOPED.skipped(format!(
                "could not judge: caller B got {} ({}); check that the --as headers name a valid caller",
                answer.status,
                excerpt(&answer.body)
            )));
        }
    };
    Ok(CALLER_SCOPED.held_unless(broken, evidence, started.elapsed()))
}

/// `path-scoped`: the original key and body to `--other-url`.
pub(super) async fn path_scoped(
    probe: &mut Probe,
    original: &Original,
    other_url: Option<&Uri>,
) -> anyhow::Result<CheckResult> {
    let Some(other_url) = other_url else {
        return Ok(PATH_SCOPED.skipped("give another endpoint that accepts the same body with --other-url URL2"));
    };
    let started = Instant::now();
    let answer = probe.send_to(Some(other_url), PATH_SCOPED.id, Some(&original.key), None, None).await?;
    let other_id = probe.id_of(&answer);
    let mut evidence = vec![
        format!(
            "{} {}: key {} → {} {}",
            probe.spec.method, probe.spec.url, original.key, original.exchange.status, original.id
        ),
        format!(
            "{} {other_url}: same key, same body → {} {}",
            probe.spec.method,
            answer.status,
            other_id.as_deref().unwrap_or("(no id)")
        ),
    ];
    let broken = match judge(probe, original, &answer, &[404, 405]) {
        Scoped::Leaked(id) => {
            evidence.push(format!(
                "{other_url} was answered with {}'s stored answer ({id}): that request never executed",
                probe.spec.url
            ));
            Some(format!("the same key at {other_url} got the first endpoint's resource {id}: {}", answer.status))
        }
        Scoped::Executed(id) => {
            evidence.push(format!("the other endpoint executed on its own: {id}"));
            None
        }
        Scoped::Refused => {
            evidence.push(format!("the reuse was refused: {}", excerpt(&answer.body)));
            None
        }
        Scoped::Other => {
            evidence.push(format!("the answer carries neither {}'s id nor its body", original.id));
            None
        }
        Scoped::Unclear => {
            return Ok(PATH_SCOPED.skipped(format!(
                "could not judge: {other_url} answered {} ({}); give an endpoint that accepts this body",
                answer.status,
                excerpt(&answer.body)
            )));
        }
    };
    Ok(PATH_SCOPED.held_unless(broken, evidence, started.elapsed()))
}

/// `key-scoped`.
pub(super) async fn key_scoped(probe: &mut Probe, original: &Original) -> anyhow::Result<CheckResult> {
    let started = Instant::now();
    let method = other_method(&probe.spec.method);
    let answer = probe.send(KEY_SCOPED.id, Some(&original.key), Some(method.clone()), None).await?;
    let replayed = answer.status.is_success() && answer.body == original.exchange.body;
    let mut evidence = vec![format!("same key with {method} → {}", answer.status)];
    if replayed {
        evidence.push(format!("the stored response for {} was replayed to a {method}", probe.spec.method));
    }
    let finding = format!("the same key with {method} got the stored {} answer: {}", probe.spec.method, answer.status);
    Ok(KEY_SCOPED.judged(!replayed, finding, evidence, started.elapsed()))
}
