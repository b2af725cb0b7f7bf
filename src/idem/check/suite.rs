//! The checks of `idem check`, modelled on the IETF draft "The Idempotency-Key HTTP Header Field"
//! (draft-ietf-httpapi-idempotency-key-header-07) and the practice of the big payment APIs.
use std::time::{Duration, Instant};

use anyhow::Context;
use bytes::Bytes;
use http::{HeaderMap, Method, StatusCode, Uri};

use super::variant::{other_method, vary_body};
use crate::conformance::{CheckResult, CheckSpec, Level};
use crate::count::Step;
use crate::http::client::{ClientOptions, Exchange, HttpClient};
use crate::idem::key::KeyPolicy;
use crate::idem::race::{KeyMode, Spread, SyncMode, race_round_spread};
use crate::idem::request::{FoundId, RequestSpec};
use crate::idem::verdict::{
    BodyMatch, CountReading, Observed, Verdict, compare_bodies, replay_marker, replay_marker_names, status_counts,
};

pub(super) const CREATE: CheckSpec = CheckSpec {
    id: "create",
    title: "a request with a fresh key succeeds and yields a resource id",
    why: "every other check compares against this first execution (set -d and --id-field to match the endpoint)",
    level: Level::Required,
    fix: "make a POST with a fresh key answer 2xx with the created resource's id in the body (or Location); if it does, point --id-field (JSON pointer) or --id-header at it and give the body the endpoint expects with -d",
};
pub(super) const RETRY: CheckSpec = CheckSpec {
    id: "retry-replays",
    title: "a sequential retry with the same key gets the same answer and creates nothing new",
    why: "a client that lost the answer retries; a second execution is a double charge (draft §2.6)",
    level: Level::Required,
    fix: "store the first response (status, headers, body) under the key, scoped to the caller, and answer a retry with the same key from that store without executing again (as Stripe does)",
};
pub(super) const REPLAY_MARKED: CheckSpec = CheckSpec {
    id: "replay-marked",
    title: "the replayed answer is marked (Idempotent-Replayed)",
    why: "clients and logs can tell a replay from a fresh execution (Stripe's Idempotent-Replayed: true)",
    level: Level::Advisory,
    fix: "add `Idempotent-Replayed: true` to every answer served from the key store",
};
pub(super) const MISMATCH_REJECTED: CheckSpec = CheckSpec {
    id: "mismatch-rejected",
    title: "the same key with a different body is rejected with a 4xx",
    why: "a reused key with another payload is a client bug; executing it or replaying the old answer hides it (draft §2.7)",
    level: Level::Required,
    fix: "store a hash of method, path and body with the key and answer 422 when a retry's hash differs",
};
pub(super) const MISMATCH_422: CheckSpec = CheckSpec {
    id: "mismatch-is-422",
    title: "the rejection of a reused key is 422 Unprocessable Content",
    why: "the draft names 422 for a key reused with a different payload (draft §2.7)",
    level: Level::Advisory,
    fix: "answer a key reused with another payload with 422 Unprocessable Content, as the draft says, not 400 or 409",
};
pub(super) const CONCURRENT_ONCE: CheckSpec = CheckSpec {
    id: "concurrent-once",
    title: "concurrent duplicates execute at most once; the others get 409 or an identical replay",
    why: "retries and double clicks arrive together; a key claimed with look-then-insert lets them all execute (draft §2.7: 409 while in flight)",
    level: Level::Required,
    fix: "claim the key atomically before doing the work (INSERT … ON CONFLICT DO NOTHING, Redis SET NX with a lease, a unique index) and answer 409 to duplicates while the first is in flight; look-then-insert lets them all through",
};
pub(super) const CONFLICT_RETRY_AFTER: CheckSpec = CheckSpec {
    id: "conflict-retry-after",
    title: "a 409 for a request in flight carries Retry-After",
    why: "tells the client when retrying makes sense instead of hammering the endpoint",
    level: Level::Advisory,
    fix: "send `Retry-After: 1` (seconds) with the 409 you answer for a request still in flight",
};
pub(super) const MISSING_KEY_REQUIRED: CheckSpec = CheckSpec {
    id: "missing-key",
    title: "a request without a key is rejected with 400 (--require-key)",
    why: "an endpoint that requires keys must refuse requests without one (draft §2.7)",
    level: Level::Required,
    fix: "when keys are required, answer a request without Idempotency-Key with 400 and a problem+json body naming the header",
};
pub(super) const MISSING_KEY_REPORTED: CheckSpec = CheckSpec {
    id: "missing-key",
    title: "what a request without a key gets",
    why: "keys are optional here; pass --require-key if this endpoint should refuse keyless requests",
    level: Level::Advisory,
    fix: "when keys are required, answer a request without Idempotency-Key with 400 and a problem+json body naming the header",
};
pub(super) const NEW_KEY_CREATES: CheckSpec = CheckSpec {
    id: "new-key-creates",
    title: "a second fresh key creates a second resource",
    why: "proves the endpoint really creates; without it, a replay 'pass' could be a cache that answers everything the same",
    level: Level::Required,
    fix: "execute requests with a new key: cache by the key, never by the body or the URL alone",
};
pub(super) const KEY_SCOPED: CheckSpec = CheckSpec {
    id: "key-scoped",
    title: "the same key on another method is not answered with the stored response",
    why: "a key identifies one request on one resource; replaying it elsewhere answers the wrong question",
    level: Level::Advisory,
    fix: "scope the stored key by method and path (and the caller): look up `(caller, method, path, key)`, not the key alone",
};
pub(super) const PROBLEM_JSON: CheckSpec = CheckSpec {
    id: "problem-json",
    title: "error answers are application/problem+json",
    why: "the draft's error examples use RFC 9457 problem details, which clients can parse uniformly",
    level: Level::Advisory,
    fix: "answer errors with `Content-Type: application/problem+json` and a body {\"type\",\"title\",\"status\",\"detail\"} (RFC 9457)",
};

/// Every check of `idem check`, in the order they run: `--list`, the man page and the ids `--only`,
/// `--skip` and `--expect-fail` accept. A new check is one more entry here.
pub(crate) const CHECKS: &[CheckSpec] = &[
    CREATE,
    RETRY,
    REPLAY_MARKED,
    MISMATCH_REJECTED,
    MISMATCH_422,
    CONCURRENT_ONCE,
    CONFLICT_RETRY_AFTER,
    super::race_window::RACE_WINDOW,
    MISSING_KEY_REQUIRED,
    MISSING_KEY_REPORTED,
    NEW_KEY_CREATES,
    KEY_SCOPED,
    super::scope::CALLER_SCOPED,
    super::scope::PATH_SCOPED,
    super::replay_shape::REPLAY_FAITHFUL,
    super::replay_shape::EQUAL_JSON_REPLAYS,
    super::replay_shape::KEY_SYNTAX,
    super::in_flight::LEASE_OUTLIVES_WORK,
    super::in_flight::MISMATCH_IN_FLIGHT,
    super::crash::CRASH_RECOVERS,
    PROBLEM_JSON,
];

/// Sends variations of the user's request and remembers every error answer for `problem-json`.
pub(super) struct Probe {
    pub spec: RequestSpec,
    pub client: HttpClient,
    pub error_answers: Vec<ErrorAnswer>,
    /// Other instances of the same API (`--also`).
    pub also: Vec<Uri>,
    /// Why `--count-url` cannot be believed, when `create` showed it (it did not rise for the
    /// first execution, went down, jumped, or moved by itself): every check that reads the count
    /// is then unconfirmed, never passed on it.
    pub count_doubt: Option<String>,
}

/// An error answer seen during the suite, for `problem-json`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct ErrorAnswer {
    pub check: String,
    pub status: StatusCode,
    pub content_type: Option<String>,
}

impl Probe {
    pub(super) fn new(spec: RequestSpec) -> anyhow::Result<Probe> {
        let options = ClientOptions { timeout: spec.timeout, insecure: spec.insecure, http2: spec.http2 };
        // The plain requests go through the user's proxy; `concurrent` races directly, as `idem race` does.
        let client = HttpClient::with_proxies(options, spec.proxies.clone())?;
        Ok(Probe { spec, client, error_answers: Vec::new(), also: Vec::new(), count_doubt: None })
    }

    /// A fresh key in the user's `--key-format` (a fixed `--key` would collide across checks).
    pub(super) fn fresh_key(&self) -> String {
        match &self.spec.key_policy {
            KeyPolicy::Generate(format) => crate::idem::key::generate(*format),
            _ => crate::idem::key::generate(Default::default()),
        }
    }

    /// Sends the user's request with `key`, optionally with another method or body.
    pub(super) async fn send(
        &mut self,
        check: &str,
        key: Option<&str>,
        method: Option<Method>,
        body: Option<Bytes>,
    ) -> anyhow::Result<Exchange> {
        self.send_to(None, check, key, method, body).await
    }

    /// `send`, to `url` instead of the user's URL when given (another instance of the API).
    pub(super) async fn send_to(
        &mut self,
        url: Option<&Uri>,
        check: &str,
        key: Option<&str>,
        method: Option<Method>,
        body: Option<Bytes>,
    ) -> anyhow::Result<Exchange> {
        let mut request = self.spec.build(key)?;
        if let Some(url) = url {
            *request.uri_mut() = url.clone();
        }
        if let Some(method) = method {
            *request.method_mut() = method;
        }
        if let Some(body) = body {
            *request.body_mut() = body;
        }
        self.send_request(check, request).await
    }

    /// Sends a request a check built itself (other headers, a raw key value).
    pub(super) async fn send_request(
        &mut self,
        check: &str,
        request: http::Request<Bytes>,
    ) -> anyhow::Result<Exchange> {
        let exchange = send_decoded(&self.client, check, request).await?;
        self.note_errors(check, exchange.status, &exchange.headers);
        Ok(exchange)
    }

    pub(super) fn note_errors(&mut self, check: &str, status: StatusCode, headers: &HeaderMap) {
        if status.is_client_error() || status.is_server_error() {
            let content_type =
                headers.get(http::header::CONTENT_TYPE).and_then(|v| v.to_str().ok()).map(str::to_string);
            self.error_answers.push(ErrorAnswer { check: check.to_string(), status, content_type });
        }
    }

    pub(super) fn id_of(&self, exchange: &Exchange) -> Option<String> {
        self.found_id(exchange).map(|found| found.id)
    }

    /// The id and where it was read (body, `Location`, …).
    pub(super) fn found_id(&self, exchange: &Exchange) -> Option<FoundId> {
        self.spec.id_source().read(&exchange.headers, &exchange.body)
    }
}

/// Sends `request` and decodes its body: every check compares decoded bodies (the same JSON
/// compressed twice differs byte for byte).
pub(super) async fn send_decoded(
    client: &HttpClient,
    check: &str,
    request: http::Request<Bytes>,
) -> anyhow::Result<Exchange> {
    let mut exchange = client.send(request).await.with_context(|| format!("check `{check}` got no answer"))?;
    exchange.body = crate::http::content_encoding::decode(&exchange.headers, exchange.body).body;
    Ok(exchange)
}

/// A short, single-line excerpt of a body for evidence.
pub(super) fn excerpt(body: &[u8]) -> String {
    const LIMIT: usize = 160;
    let text = String::from_utf8_lossy(body).split_whitespace().collect::<Vec<_>>().join(" ");
    if text.chars().count() > LIMIT { format!("{}…", text.chars().take(LIMIT).collect::<String>()) } else { text }
}

/// The first execution every other check compares with.
pub(super) struct Original {
    pub key: String,
    pub exchange: Exchange,
    pub id: String,
}

pub(super) async fn create(probe: &mut Probe) -> anyhow::Result<(CheckResult, Option<Original>)> {
    let started = Instant::now();
    let key = probe.fresh_key();
    let before = probe.spec.count_before().await?;
    let exchange = probe.send(CREATE.id, Some(&key), None, None).await?;
    let status = exchange.status;
    let found = probe.found_id(&exchange);
    let mut evidence = vec![format!("key {key} → {status}")];
    // The first execution is where a count shows whether it counts this endpoint's executions:
    // one that does not rise for it cannot show that a retry did not execute either.
    if let (Some(count), Some(before)) = (&probe.spec.count, before) {
        let step = Step { requests: 1, must_rise: status.is_success() };
        let change = count.change_since(before, step).await?;
        evidence.push(format!("the count went {} → {} at {}", change.before, change.after, count.describe()));
        if let Some(doubt) = &change.doubt {
            evidence.push(doubt.clone());
        }
        probe.count_doubt = change.doubt;
    }
    let original = match (status.is_success(), found) {
        (true, Some(FoundId { id, from })) => {
            evidence.push(format!("resource id {id} (from {from})"));
            Some(Original { key, exchange, id })
        }
        (true, None) => {
            evidence.push(format!(
                "no resource id at {} in: {} (set --id-field to the JSON pointer of the created id, or --id-header)",
                probe.spec.id_source().describe(),
                excerpt(&exchange.body)
            ));
            None
        }
        (false, _) => {
            evidence.push(format!("the endpoint refused the request: {}", excerpt(&exchange.body)));
            None
        }
    };
    let held = original.is_some();
    Ok((CREATE.judged(held, evidence, started.elapsed()), original))
}

/// `retry-replays` and `replay-marked`.
pub(super) async fn retry(probe: &mut Probe, original: &Original) -> anyhow::Result<Vec<CheckResult>> {
    let started = Instant::now();
    // A replay must not depend on which instance stored the original.
    let elsewhere = probe.also.first().cloned();
    let before = probe.spec.count_before().await?;
    let retry = probe.send_to(elsewhere.as_ref(), RETRY.id, Some(&original.key), None, None).await?;
    // The key was used by `create`: a replay rightly leaves the count where it was.
    let grounds = probe.spec.grounds(Some(&original.key), before, Step { requests: 1, must_rise: false }).await?;
    let id = probe.id_of(&retry);
    let mut evidence = vec![format!(
        "#1 {} {}, retry {} {}",
        original.exchange.status,
        original.id,
        retry.status,
        id.as_deref().unwrap_or("(no id)")
    )];
    let same_status = retry.status == original.exchange.status;
    let same_id = id.as_deref() == Some(original.id.as_str());
    let body = compare_bodies(&original.exchange.body, &retry.body);
    if !same_status {
        evidence.push(format!("the status changed: {} → {}", original.exchange.status, retry.status));
    }
    if id.is_some() && !same_id {
        evidence.push(format!(
            "a second resource was created: {} and {}",
            original.id,
            id.as_deref().unwrap_or_default()
        ));
    }
    match &body {
        Ok(BodyMatch::Identical) => evidence.push("the body is byte-identical".to_string()),
        Ok(BodyMatch::EqualAsJson) => evidence.push("the body is equal as JSON, not byte-identical".to_string()),
        Err(difference) => evidence.push(format!("the body differs: {difference}")),
    }
    if let Some(url) = &elsewhere {
        evidence.push(format!("the retry went to the other instance, {url}"));
    }
    let looks_replayed = same_status && same_id && body.is_ok();
    let marker = replay_marker(&retry.headers);
    let took = started.elapsed();
    // A matching answer is a replay only with evidence that the server recognised the key.
    let retry_result = match &grounds.count {
        Some(count) => {
            evidence.push(format!(
                "the count went {} → {} on the retry at {}",
                count.change.before, count.change.after, count.source
            ));
            let executions = match believed(count, probe.count_doubt.as_deref()) {
                Ok(executions) => executions,
                // A different answer fails on its own; a matching one is a replay only by the count.
                Err(_) if !looks_replayed => return Ok(retry_failed_and_unmarked(evidence, took)),
                Err(doubt) => {
                    evidence.push(doubt);
                    return Ok(vec![
                        RETRY.unconfirmed(evidence, took),
                        REPLAY_MARKED.skipped("the retry was not judged"),
                    ]);
                }
            };
            if executions > 0 && looks_replayed {
                evidence.push(format!(
                    "the retry executed again (the count rose by {executions}) though its answer matches the first: the id {} comes from the request",
                    original.id
                ));
            }
            RETRY.judged(looks_replayed && executions == 0, evidence, took)
        }
        None if !looks_replayed => RETRY.judged(false, evidence, took),
        None => match (marker, grounds.sent_as(&original.id)) {
            (Some(header), _) => {
                evidence.push(format!("marked as a replay ({header}: true)"));
                RETRY.judged(true, evidence, took)
            }
            (None, None) => {
                evidence.push(format!("{} is the server's id (not in the request)", original.id));
                RETRY.judged(true, evidence, took)
            }
            (None, Some((value, place))) => {
                if let Some(warning) = as_slow_as_the_first(original.exchange.latency, retry.latency) {
                    evidence.push(warning);
                }
                let made = if value == original.id { String::new() } else { format!(" (made from {value})") };
                evidence.push(format!(
                    "unconfirmed: the id {} is in your request {place}{made}, so it does not show how many times the server executed: give --count-url URL (a GET that counts what the server created)",
                    original.id
                ));
                RETRY.unconfirmed(evidence, took)
            }
        },
    };
    let replayed = retry_result.outcome == crate::conformance::CheckOutcome::Pass;

    let marked = if !replayed {
        REPLAY_MARKED.skipped("the retry was not a replay")
    } else {
        match marker {
            Some(header) => REPLAY_MARKED.judged(true, vec![format!("{header}: true")], Duration::ZERO),
            None => REPLAY_MARKED.judged(false, vec![format!("none of {}", replay_marker_names())], Duration::ZERO),
        }
    };
    Ok(vec![retry_result, marked])
}

/// `retry-replays` failed on the answers alone, and `replay-marked` with nothing to judge.
fn retry_failed_and_unmarked(evidence: Vec<String>, took: Duration) -> Vec<CheckResult> {
    vec![RETRY.judged(false, evidence, took), REPLAY_MARKED.skipped("the retry was not a replay")]
}

/// The executions the count shows for a step, or why it shows none: the step's own reading, or
/// what `create` found wrong with the count (`doubt`).
fn believed(count: &CountReading, doubt: Option<&str>) -> Result<u64, String> {
    match (count.change.executions(), doubt) {
        (Err(own), _) => Err(own.to_string()),
        (Ok(_), Some(doubt)) => Err(format!("{doubt} (when `create` executed)")),
        (Ok(executions), None) => Ok(executions),
    }
}

/// The timing warning of `retry-replays`: the retry took as long as the first execution.
fn as_slow_as_the_first(first: Duration, retry: Duration) -> Option<String> {
    (first >= Duration::from_millis(5) && retry >= first / 2).then(|| {
        format!(
            "warning: the retry took as long as the first ({} against {}): a replay from a store is usually much faster",
            crate::units::format_duration(retry),
            crate::units::format_duration(first)
        )
    })
}

/// `mismatch-rejected` and `mismatch-is-422`.
pub(super) async fn mismatch(probe: &mut Probe, original: &Original) -> anyhow::Result<Vec<CheckResult>> {
    let Some((varied, change)) = vary_body(&probe.spec.body) else {
        let reason = "the request has no body to vary (give one with -d)";
        return Ok(vec![MISMATCH_REJECTED.skipped(reason), MISMATCH_422.skipped(reason)]);
    };
    let started = Instant::now();
    let answer = probe.send(MISMATCH_REJECTED.id, Some(&original.key), None, Some(varied.into())).await?;
    let mut evidence = vec![format!("same key, body changed ({change}) → {}", answer.status)];
    let id = probe.id_of(&answer);
    let replayed_old = answer.status.is_success() && answer.body == original.exchange.body;
    let sent_id = crate::idem::verdict::Grounds::of(&probe.spec, Some(&original.key)).sent_as(&original.id).is_some();
    if replayed_old && sent_id {
        // An id made from the request is the same whether the server replayed or executed again.
        evidence.push(format!(
            "answered with the first answer's body ({}): it replayed the old answer or executed the changed request (the id is in your request, so the answers cannot tell which); either way it was not refused",
            original.id
        ));
    } else if replayed_old {
        evidence.push(format!("the old response was replayed ({}) for a different request", original.id));
    } else if let Some(id) = id.filter(|_| answer.status.is_success()) {
        evidence.push(format!("the changed request was executed: {id}"));
    } else if !answer.status.is_client_error() {
        evidence.push(format!("expected a 4xx: {}", excerpt(&answer.body)));
    }
    let rejected = answer.status.is_client_error();
    let rejected_result = MISMATCH_REJECTED.judged(rejected, evidence, started.elapsed());
    let is_422 = if rejected {
        MISMATCH_422.judged(
            answer.status == StatusCode::UNPROCESSABLE_ENTITY,
            vec![format!("answered {}", answer.status)],
            Duration::ZERO,
        )
    } else {
        MISMATCH_422.skipped("the mismatch was not rejected")
    };
    Ok(vec![rejected_result, is_422])
}

/// `missing-key`: required to be 400 with `--require-key`, otherwise reported.
pub(super) async fn missing_key(probe: &mut Probe, require_key: bool) -> anyhow::Result<CheckResult> {
    let spec = if require_key { MISSING_KEY_REQUIRED } else { MISSING_KEY_REPORTED };
    let started = Instant::now();
    let answer = probe.send(spec.id, None, None, None).await?;
    let mut evidence = vec![format!("no key → {}", answer.status)];
    if let Some(id) = probe.id_of(&answer).filter(|_| answer.status.is_success()) {
        evidence.push(format!("executed without a key: {id}"));
    } else if !answer.status.is_success() {
        evidence.push(excerpt(&answer.body));
    }
    let held = !require_key || answer.status == StatusCode::BAD_REQUEST;
    Ok(spec.judged(held, evidence, started.elapsed()))
}

/// `new-key-creates`.
pub(super) async fn new_key_creates(probe: &mut Probe, original: &Original) -> anyhow::Result<CheckResult> {
    let started = Instant::now();
    let key = probe.fresh_key();
    let before = probe.spec.count_before().await?;
    let answer = probe.send(NEW_KEY_CREATES.id, Some(&key), None, None).await?;
    let step = Step { requests: 1, must_rise: answer.status.is_success() };
    let grounds = probe.spec.grounds(Some(&key), before, step).await?;
    let id = probe.id_of(&answer);
    let mut evidence = vec![format!("key {key} → {} {}", answer.status, id.as_deref().unwrap_or("(no id)"))];
    if let Some(count) = &grounds.count {
        // The count says what the server did, whatever id it answered with.
        evidence.push(format!("the count went {} → {} at {}", count.change.before, count.change.after, count.source));
        let executions = match believed(count, probe.count_doubt.as_deref()) {
            Ok(executions) => executions,
            Err(doubt) if answer.status.is_success() => {
                evidence.push(doubt);
                return Ok(NEW_KEY_CREATES.unconfirmed(evidence, started.elapsed()));
            }
            Err(_) => 0,
        };
        let created = answer.status.is_success() && executions >= 1;
        if !created {
            evidence.push(format!("a new key created nothing: {}", excerpt(&answer.body)));
        }
        return Ok(NEW_KEY_CREATES.judged(created, evidence, started.elapsed()));
    }
    let same_sent_id = id.as_deref() == Some(original.id.as_str()) && grounds.sent_as(&original.id).is_some();
    if answer.status.is_success() && same_sent_id {
        evidence.push(format!(
            "unconfirmed: the new key got the same id {}, which is in your request, so it does not show whether the server created a second resource: give --count-url URL (a GET that counts what the server created)",
            original.id
        ));
        return Ok(NEW_KEY_CREATES.unconfirmed(evidence, started.elapsed()));
    }
    let created = answer.status.is_success() && id.as_ref().is_some_and(|id| *id != original.id);
    if !created {
        if id.as_deref() == Some(original.id.as_str()) {
            evidence.push(format!(
                "a new key got the first resource {} back: the endpoint answers without creating",
                original.id
            ));
        } else {
            evidence.push(excerpt(&answer.body));
        }
    }
    Ok(NEW_KEY_CREATES.judged(created, evidence, started.elapsed()))
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
    Ok(KEY_SCOPED.judged(!replayed, evidence, started.elapsed()))
}

/// `problem-json`, from every error answer seen during the suite.
pub(super) fn problem_json(probe: &Probe) -> CheckResult {
    if probe.error_answers.is_empty() {
        return PROBLEM_JSON.skipped("no error answers were seen");
    }
    // Identical answers (nineteen 409s from one race) are counted, not listed one by one.
    let mut seen: Vec<(&ErrorAnswer, usize)> = Vec::new();
    for answer in &probe.error_answers {
        match seen.iter_mut().find(|(known, _)| *known == answer) {
            Some((_, count)) => *count += 1,
            None => seen.push((answer, 1)),
        }
    }
    let mut evidence = Vec::new();
    let mut held = true;
    for (ErrorAnswer { check, status, content_type }, count) in seen {
        let media_type = content_type.as_deref().and_then(|t| t.split(';').next()).map(str::trim).unwrap_or("");
        held &= media_type.eq_ignore_ascii_case("application/problem+json");
        let times = if count > 1 { format!("{count} × ") } else { String::new() };
        evidence.push(format!("{check}: {times}{status} {}", content_type.as_deref().unwrap_or("(no content-type)")));
    }
    PROBLEM_JSON.judged(held, evidence, Duration::ZERO)
}

/// `concurrent-once` and `conflict-retry-after`, with the `idem race` engine.
pub(super) async fn concurrent(probe: &mut Probe, n: usize) -> anyhow::Result<Vec<CheckResult>> {
    let started = Instant::now();
    let mut spec = probe.spec.clone();
    // A generated key, which the round knows to be fresh (so a count that does not rise is doubted).
    spec.key_policy = match &probe.spec.key_policy {
        KeyPolicy::Generate(format) => KeyPolicy::Generate(*format),
        _ => KeyPolicy::Generate(Default::default()),
    };
    let round =
        race_round_spread(&spec, n, SyncMode::Auto, KeyMode::Same, &Spread { also: probe.also.clone(), stagger: None })
            .await
            .with_context(|| format!("check `{}` could not race", CONCURRENT_ONCE.id))?;
    let answers: Vec<&Observed> = round.answers.iter().map(|answer| &answer.observed).collect();
    for answer in &answers {
        if let Some(status) = answer.status.and_then(|s| StatusCode::from_u16(s).ok()) {
            let mut headers = HeaderMap::new();
            if let Some(value) = answer.content_type.as_deref().and_then(|t| t.parse().ok()) {
                headers.insert(http::header::CONTENT_TYPE, value);
            }
            probe.note_errors(CONCURRENT_ONCE.id, status, &headers);
        }
    }
    let judgement = &round.judgement;
    let mut evidence = vec![format!(
        "{n} duplicates, sync {} ({}): {}",
        round.sync.as_str(),
        round.sync_reason,
        status_counts(answers.iter().copied())
    )];
    match judgement.verdict {
        Verdict::Consistent => {
            evidence.push(match judgement.resource_ids.as_slice() {
                [] => "no resource was created".to_string(),
                ids => format!("executed once: {}", ids.join(", ")),
            });
            evidence.extend(judgement.evidence.iter().map(|e| format!("evidence: {}", e.phrase())));
        }
        Verdict::ExecutedMoreThanOnce => {
            evidence.push(format!("executed {} times: {}", judgement.executions, judgement.resource_ids.join(", ")))
        }
        Verdict::NothingCreated | Verdict::CannotTell | Verdict::Unconfirmed => {
            evidence.push(judgement.explanation.clone().unwrap_or_default())
        }
        Verdict::Inconsistent | Verdict::Errors | Verdict::AllExecuted | Verdict::Collapsed => {}
    }
    evidence.extend(judgement.differences.iter().cloned());
    if judgement.verdict == Verdict::Errors {
        let failed = answers.iter().filter_map(|a| a.error.as_deref()).collect::<Vec<_>>();
        evidence.push(format!(
            "{} duplicates got no answer: {}",
            failed.len(),
            failed.first().copied().unwrap_or_default()
        ));
    }
    evidence.extend(judgement.notes.iter().filter(|note| note.starts_with("the count and the ids")).cloned());
    let once = if let (Some(doubt), Verdict::Consistent) = (&probe.count_doubt, &judgement.verdict) {
        evidence.push(format!("{doubt} (when `create` executed)"));
        CONCURRENT_ONCE.unconfirmed(evidence, started.elapsed())
    } else if judgement.verdict == Verdict::Unconfirmed {
        CONCURRENT_ONCE.unconfirmed(evidence, started.elapsed())
    } else {
        CONCURRENT_ONCE.judged(judgement.verdict == Verdict::Consistent, evidence, started.elapsed())
    };

    let conflicts: Vec<&&Observed> = answers.iter().filter(|a| a.status == Some(409)).collect();
    let retry_after = if conflicts.is_empty() {
        CONFLICT_RETRY_AFTER.skipped("no duplicate was answered 409")
    } else {
        let missing = conflicts.iter().filter(|a| a.retry_after.is_none()).count();
        let evidence = match missing {
            0 => format!(
                "all {} answers 409 carry Retry-After ({})",
                conflicts.len(),
                conflicts[0].retry_after.as_deref().unwrap_or_default()
            ),
            _ => format!("{missing} of {} answers 409 carry no Retry-After", conflicts.len()),
        };
        CONFLICT_RETRY_AFTER.judged(missing == 0, vec![evidence], Duration::ZERO)
    };
    Ok(vec![once, retry_after])
}
