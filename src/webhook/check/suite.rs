//! The checks of `webhook check`: what a receiver must accept, what it must refuse, and how fast
//! it must answer, after the providers' documented behaviour.
use std::time::{Duration, Instant};

use crate::conformance::{CheckResult, CheckSpec, Level};
use crate::units::format_duration;
use crate::webhook::check::probe::{Answer, Probe};
use crate::webhook::deliver::engine::{Message, describe_status};
use crate::webhook::delivery::unix_now;

/// Slack retries a request its receiver has not answered within 3 seconds.
pub(crate) const SLACK_LIMIT: Duration = Duration::from_secs(3);
/// GitHub gives up on a receiver after 10 seconds.
pub(crate) const GITHUB_LIMIT: Duration = Duration::from_secs(10);

pub(crate) const VALID_ACCEPTED: CheckSpec = CheckSpec {
    id: "valid-accepted",
    title: "a correctly signed delivery gets a 2xx within the timeout",
    why: "anything else makes the provider retry, and after enough failures disable the endpoint",
    level: Level::Required,
    fix: "verify with the same secret and scheme the sender signs with, over the raw request body, and answer 2xx once it verifies",
};
pub(crate) const FAST_ACK: CheckSpec = CheckSpec {
    id: "fast-ack",
    title: "the delivery is acknowledged within --ack-within (default 3s, Slack's limit; GitHub allows 10s)",
    why: "slow receivers get retries for deliveries they are still processing; answer first, work afterwards",
    level: Level::Advisory,
    fix: "answer 2xx as soon as the signature verifies and queue the work (a job queue or a background task); do not process before answering",
};
pub(crate) const DUPLICATE_ACCEPTED: CheckSpec = CheckSpec {
    id: "duplicate-accepted",
    title: "a second delivery of the same event gets a 2xx",
    why: "providers deliver at least once; refusing a duplicate makes them retry it until they give up",
    level: Level::Required,
    fix: "record processed event ids and answer 2xx to an event already seen, without processing it again",
};
pub(crate) const BAD_SIGNATURE_REJECTED: CheckSpec = CheckSpec {
    id: "bad-signature-rejected",
    title: "a delivery signed with another secret gets a 4xx",
    why: "a receiver that accepts any signature accepts forged events from anyone",
    level: Level::Required,
    fix: "compute the HMAC over the raw body with your secret and compare it in constant time with the header's value; answer 400 or 401 when they differ",
};
pub(crate) const MISSING_SIGNATURE_REJECTED: CheckSpec = CheckSpec {
    id: "missing-signature-rejected",
    title: "a delivery without the signature header gets a 4xx",
    why: "verification that is skipped when the header is absent protects nothing",
    level: Level::Required,
    fix: "treat a missing signature header as an invalid signature: answer 400 or 401 before looking at the body",
};
pub(crate) const TAMPERED_BODY_REJECTED: CheckSpec = CheckSpec {
    id: "tampered-body-rejected",
    title: "a body changed after signing gets a 4xx",
    why: "the signature must cover the exact bytes received, not a re-serialized or partial body",
    level: Level::Required,
    fix: "verify the signature over the raw body bytes as received (Express: express.raw() or the verify option of express.json(); Flask: request.get_data()) and refuse on mismatch",
};
pub(crate) const STALE_TIMESTAMP_REJECTED: CheckSpec = CheckSpec {
    id: "stale-timestamp-rejected",
    title: "a correctly signed delivery with an old timestamp gets a 4xx",
    why: "the signed timestamp exists to refuse captured requests replayed later (Stripe, Standard Webhooks and Slack check it)",
    level: Level::Required,
    fix: "refuse deliveries whose signed timestamp is older than your tolerance (Stripe's constructEvent and standardwebhooks' verify do this: do not pass a huge tolerance)",
};
pub(crate) const FUTURE_TIMESTAMP_REJECTED: CheckSpec = CheckSpec {
    id: "future-timestamp-rejected",
    title: "a correctly signed delivery with a timestamp far in the future gets a 4xx",
    why: "a window open towards the future lets a forged-ahead request be replayed for as long as it reaches",
    level: Level::Required,
    fix: "refuse signed timestamps further ahead of your clock than the tolerance, not only those behind it",
};
/// `future-timestamp-rejected` for a scheme whose provider's own library accepts any timestamp
/// ahead of the clock (Stripe's): a receiver built on it would fail a required check for doing
/// exactly what the provider ships, so it is only advice.
pub(crate) const FUTURE_TIMESTAMP_ADVISED: CheckSpec =
    CheckSpec { level: Level::Advisory, ..FUTURE_TIMESTAMP_REJECTED };
pub(crate) const RAW_BODY_VERIFIED: CheckSpec = CheckSpec {
    id: "raw-body-verified",
    title: "a correctly signed body that a JSON parser would write differently gets a 2xx",
    why: "the signature covers the bytes sent; a receiver that verifies a re-serialised body refuses valid deliveries \
          whenever the sender's formatting differs from its own",
    level: Level::Required,
    fix: "verify the signature over the body exactly as received, before any JSON parsing (Express: express.raw({type: 'application/json'}); FastAPI: await request.body()); never over JSON.stringify(req.body)",
};
pub(crate) const DUPLICATE_PROCESSED_ONCE: CheckSpec = CheckSpec {
    id: "duplicate-processed-once",
    title: "a delivery sent twice is processed once, by the receiver's own count (--count-url)",
    why: "providers deliver at least once; a receiver that processes every copy ships the order or sends the email twice, \
          and a 2xx to the duplicate does not show which it did",
    level: Level::Required,
    fix: "record each delivery id when its work is done, and answer 2xx without doing the work again when the id is already recorded",
};
/// Why the rejection checks are skipped when the valid delivery was refused.
pub(crate) const NOTHING_ACCEPTED: &str = "nothing is ever accepted, so its rejections prove nothing";
/// The hint when a correctly signed delivery is refused exactly as a forged one is.
pub(crate) const WRONG_SECRET_HINT: &str = "is --secret the receiver's endpoint secret and --scheme its scheme?";

pub(crate) const REPLAY_REJECTED: CheckSpec = CheckSpec {
    id: "replay-rejected",
    title: "the accepted delivery, replayed with its capture-time signature after the tolerance, gets a 4xx",
    why: "an attacker who captured a delivery resends it unchanged; a receiver that answers known ids before verifying accepts it",
    level: Level::Required,
    fix: "verify the signature (and its timestamp) before de-duplicating by delivery id, so a captured delivery re-sent later is refused rather than answered 2xx as a known duplicate",
};

/// Every check of `webhook check`, in the order they run: `--list`, the man page and the ids
/// `--only`, `--skip` and `--expect-fail` accept. A new check is one more entry here.
pub(crate) const CHECKS: &[CheckSpec] = &[
    VALID_ACCEPTED,
    FAST_ACK,
    DUPLICATE_ACCEPTED,
    DUPLICATE_PROCESSED_ONCE,
    RAW_BODY_VERIFIED,
    BAD_SIGNATURE_REJECTED,
    MISSING_SIGNATURE_REJECTED,
    TAMPERED_BODY_REJECTED,
    super::signature_lists::ANY_LISTED_SIGNATURE_ACCEPTED,
    super::signature_lists::TRUNCATED_SIGNATURE_REJECTED,
    super::events::UNKNOWN_EVENT_ACKNOWLEDGED,
    super::events::OUT_OF_ORDER_ACCEPTED,
    STALE_TIMESTAMP_REJECTED,
    FUTURE_TIMESTAMP_REJECTED,
    REPLAY_REJECTED,
    super::cross_scheme::CROSS_SCHEME_REPLAY_REJECTED,
];

/// What every check reports: the request, the answer, the time it took.
struct Sent {
    answer: Answer,
    took: Duration,
}

async fn send(probe: &Probe, request: http::Request<bytes::Bytes>) -> Sent {
    let started = Instant::now();
    let answer = probe.send(request).await;
    Sent { answer, took: started.elapsed() }
}

fn describe(answer: &Answer) -> String {
    match answer {
        Answer::Status(exchange) => {
            format!("{} in {}", describe_status(exchange.status.as_u16()), format_duration(exchange.latency))
        }
        Answer::TimedOut(limit) => format!("no answer within {}", format_duration(*limit)),
        Answer::Failed(err) => format!("no answer: {err}"),
    }
}

/// The first, valid delivery; the answer is returned for `fast-ack`.
pub(crate) async fn valid(probe: &Probe, message: &Message) -> anyhow::Result<(CheckResult, Answer)> {
    let sent = send(probe, probe.request(message, unix_now())?).await;
    let accepted = matches!(&sent.answer, Answer::Status(exchange) if exchange.status.is_success());
    let evidence =
        vec![format!("delivery {} (event {}) → {}", message.delivery_id, message.event_id, describe(&sent.answer))];
    Ok((VALID_ACCEPTED.judged(accepted, evidence, sent.took), sent.answer))
}

/// `limit` is `--ack-within`: Slack's 3 seconds unless the user expects another provider's.
pub(crate) fn fast_ack(answer: &Answer, limit: Duration) -> CheckResult {
    match answer {
        Answer::Status(exchange) => {
            let took = exchange.latency;
            let mut evidence = vec![format!(
                "answered in {}, limit {} (Slack allows {}, GitHub {})",
                format_duration(took),
                format_duration(limit),
                format_duration(SLACK_LIMIT),
                format_duration(GITHUB_LIMIT)
            )];
            if took > GITHUB_LIMIT {
                evidence.push("GitHub would have given up on this delivery as well".to_string());
            }
            FAST_ACK.judged(took <= limit, evidence, took)
        }
        other => FAST_ACK.judged(false, vec![describe(other)], Duration::ZERO),
    }
}

/// The same event again (same delivery id and body), freshly signed.
pub(crate) async fn duplicate(probe: &Probe, first: &Message) -> anyhow::Result<CheckResult> {
    let sent = send(probe, probe.request(first, unix_now())?).await;
    let accepted = matches!(&sent.answer, Answer::Status(exchange) if exchange.status.is_success());
    let mut evidence = vec![format!("delivery {} again → {}", first.delivery_id, describe(&sent.answer))];
    if let Answer::Status(exchange) = &sent.answer {
        if exchange.status.is_server_error() {
            evidence.push("a 5xx makes the provider retry the duplicate again and again".to_string());
        } else if exchange.status.is_client_error() {
            evidence.push("answer 2xx to an event already processed, without processing it again".to_string());
        }
    }
    Ok(DUPLICATE_ACCEPTED.judged(accepted, evidence, sent.took))
}

/// What `raw-body-verified` saw: the check, the status of its answer, and the re-serialisation
/// style whose body the receiver accepted when the unusual one was refused.
pub(crate) struct RawBody {
    pub check: CheckResult,
    pub status: Option<u16>,
    pub accepted_style: Option<&'static str>,
}

/// `raw-body-verified`: an event written as no serialiser would write it, correctly signed.
/// `valid_accepted` says whether the ordinary delivery got through. When this one is refused, the
/// same content is sent written as the common serialisers write it (Python's `json.dumps`
/// default, compact, pretty-printed, sorted keys, ASCII-escaped): one the receiver accepts proves
/// that it verifies a re-serialisation, and names the style. When the valid delivery was refused
/// too, the styles are of that delivery's event, which may explain the refusal. When every
/// writing is refused, the receiver refuses the content, not the bytes, and nothing is proven.
pub(crate) async fn raw_body(probe: &Probe, valid_accepted: bool) -> anyhow::Result<RawBody> {
    let (message, written) = probe.raw_event();
    let sent = send(probe, probe.request(&message, unix_now())?).await;
    let accepted = matches!(&sent.answer, Answer::Status(exchange) if exchange.status.is_success());
    let status = match &sent.answer {
        Answer::Status(exchange) => Some(exchange.status.as_u16()),
        _ => None,
    };
    let mut evidence = vec![format!("event {} {written} → {}", message.event_id, describe(&sent.answer))];
    let mut accepted_style = None;
    if !accepted && !matches!(status, Some(404 | 405)) {
        let source = if valid_accepted { message } else { probe.event() };
        for (style, restyled) in probe.restyled_events(&source) {
            let answer = probe.send(probe.request(&restyled, unix_now())?).await;
            if matches!(&answer, Answer::Status(exchange) if exchange.status.is_success()) {
                accepted_style = Some(style);
                break;
            }
        }
    }
    let check = match (accepted, accepted_style, valid_accepted) {
        (true, _, _) => RAW_BODY_VERIFIED.judged(true, evidence, sent.took),
        (false, Some(style), _) => {
            let refused = if valid_accepted { "this event" } else { "the valid delivery" };
            evidence.push(format!(
                "the receiver verifies a re-serialised body, not the raw bytes: {refused} was refused and the same \
                 event written {style} was accepted; compute the signature over the request body exactly as \
                 received, before any JSON parsing"
            ));
            RAW_BODY_VERIFIED.judged(false, evidence, sent.took)
        }
        (false, None, true) => {
            evidence.push(
                "could not judge: the same event was refused however it was written (compact, as Python's \
                 json.dumps writes it, pretty-printed, sorted keys), so the receiver refuses its content, not its \
                 bytes; choose what the receiver handles with --event TYPE or -d BODY"
                    .to_string(),
            );
            RAW_BODY_VERIFIED.skipped(evidence.join("; "))
        }
        (false, None, false) => RAW_BODY_VERIFIED.skipped(format!(
            "could not judge: nothing was accepted, not the valid delivery and not its event written as Python's \
             json.dumps, pretty-printers and sorted-key serialisers write it, so re-serialisation is not what \
             refuses it ({})",
            evidence.join("; ")
        )),
    };
    Ok(RawBody { check, status, accepted_style })
}

/// Whether the receiver refuses a forged delivery with the same status as the correctly signed
/// one: then it cannot tell them apart, and the secret or the scheme is not the receiver's.
pub(crate) async fn refused_like_a_forgery(probe: &Probe, valid: &Answer) -> anyhow::Result<bool> {
    let Answer::Status(valid) = valid else { return Ok(false) };
    if !valid.status.is_client_error() {
        return Ok(false);
    }
    let forged = probe.forged(&probe.event());
    let answer = probe.send(probe.request(&forged, unix_now())?).await;
    Ok(matches!(answer, Answer::Status(exchange) if exchange.status == valid.status))
}

/// `duplicate-processed-once`, from the receiver's count before the first delivery and after the
/// duplicate: one rise is one processing.
pub(crate) async fn processed_once(
    count: &crate::count::CountSource,
    baseline: crate::count::Baseline,
    first: &Message,
    started: Instant,
) -> anyhow::Result<CheckResult> {
    let before = baseline.second;
    let mut after = count.read().await?;
    if after >= before && after - before < 2 {
        // A receiver that answers first and works afterwards may not have counted yet.
        tokio::time::sleep(Duration::from_millis(300)).await;
        after = count.read().await?;
    }
    // Two deliveries, the first accepted: the count rose by one or two, or it shows nothing.
    let step = crate::count::Step { requests: 2, must_rise: true };
    let change = crate::count::CountChange::judge(baseline, after, step, &count.describe());
    let mut evidence = vec![format!(
        "delivery {} sent twice: the count went {before} → {after} at {}",
        first.delivery_id,
        count.describe()
    )];
    let took = started.elapsed();
    Ok(match change.executions() {
        Ok(1) => {
            evidence.push("processed once: the duplicate was recognised".to_string());
            DUPLICATE_PROCESSED_ONCE.judged(true, evidence, took)
        }
        Err(doubt) => {
            evidence.push(doubt.to_string());
            DUPLICATE_PROCESSED_ONCE.unconfirmed(evidence, took)
        }
        // No rise for an accepted delivery is doubted by `judge` (`must_rise`); said here too.
        Ok(0) => {
            evidence.push("unconfirmed: the count did not rise for an accepted delivery".to_string());
            DUPLICATE_PROCESSED_ONCE.unconfirmed(evidence, took)
        }
        Ok(n) => {
            evidence.push(format!(
                "processed {n} times: the duplicate was processed again; de-duplicate on the delivery id before \
                 doing the work"
            ));
            DUPLICATE_PROCESSED_ONCE.judged(false, evidence, took)
        }
    })
}

/// What a refusal check says about an answer that is not a 4xx: a 5xx, a reset or a hang on a
/// hostile input is a crash, never an acceptance.
pub(crate) fn not_refused(answer: &Answer) -> &'static str {
    match answer {
        Answer::Status(exchange) if exchange.status.is_success() => "accepted",
        Answer::Status(exchange) if exchange.status.is_server_error() => {
            "crashed on this input instead of refusing it with a 4xx (a 5xx also makes the provider retry it)"
        }
        Answer::Failed(_) => {
            "crashed on this input instead of refusing it with a 4xx (the connection closed without an answer)"
        }
        Answer::TimedOut(_) => "hung on this input instead of refusing it with a 4xx",
        Answer::Status(_) => "expected a 4xx",
    }
}

/// A check that passes when the receiver refuses `request` with a 4xx.
async fn refused(spec: CheckSpec, probe: &Probe, what: String, request: http::Request<bytes::Bytes>) -> CheckResult {
    let sent = send(probe, request).await;
    let mut evidence = vec![format!("{what} → {}", describe(&sent.answer))];
    let held = matches!(&sent.answer, Answer::Status(exchange) if exchange.status.is_client_error());
    if !held {
        evidence.push(not_refused(&sent.answer).to_string());
    }
    spec.judged(held, evidence, sent.took)
}

pub(crate) async fn bad_signature(probe: &Probe) -> anyhow::Result<CheckResult> {
    let message = probe.forged(&probe.event());
    let what = format!("event {} signed with another secret", message.event_id);
    Ok(refused(BAD_SIGNATURE_REJECTED, probe, what, probe.request(&message, unix_now())?).await)
}

pub(crate) async fn missing_signature(probe: &Probe) -> anyhow::Result<CheckResult> {
    let message = probe.event();
    let mut request = probe.request(&message, unix_now())?;
    let header = probe.scheme.signature_header();
    request.headers_mut().remove(&header);
    let what = format!("event {} without {}", message.event_id, crate::webhook::scheme::spelled(&header));
    Ok(refused(MISSING_SIGNATURE_REJECTED, probe, what, request).await)
}

pub(crate) async fn tampered_body(probe: &Probe) -> anyhow::Result<CheckResult> {
    let message = probe.event();
    let mut request = probe.request(&message, unix_now())?;
    *request.body_mut() = probe.tampered_body(&message);
    let what = format!("event {} with its body changed after signing", message.event_id);
    Ok(refused(TAMPERED_BODY_REJECTED, probe, what, request).await)
}

/// `stale-timestamp-rejected` and `future-timestamp-rejected`, `skew` seconds either side of now.
/// The second is advisory for a scheme whose provider's library accepts future timestamps.
pub(crate) async fn timestamps(probe: &Probe, skew: i64) -> anyhow::Result<Vec<CheckResult>> {
    let stale = probe.event();
    let what =
        format!("event {} signed {} ago", stale.event_id, format_duration(Duration::from_secs(skew.unsigned_abs())));
    let stale_result = refused(STALE_TIMESTAMP_REJECTED, probe, what, probe.request(&stale, unix_now() - skew)?).await;
    let future = probe.event();
    let what = format!(
        "event {} signed {} in the future",
        future.event_id,
        format_duration(Duration::from_secs(skew.unsigned_abs()))
    );
    let lenient = probe.scheme.accepts_future_timestamps();
    let spec = if lenient { FUTURE_TIMESTAMP_ADVISED } else { FUTURE_TIMESTAMP_REJECTED };
    let mut future_result = refused(spec, probe, what, probe.request(&future, unix_now() + skew)?).await;
    if lenient {
        future_result.evidence.push(format!(
            "advisory: {}'s own SDK accepts future timestamps (it refuses only old ones), so receivers built on it \
             accept this too; refusing it is stricter than the provider",
            probe.scheme.kind()
        ));
    }
    Ok(vec![stale_result, future_result])
}

/// The accepted first delivery as an attacker would have captured it `skew` seconds ago: the
/// same body, delivery id and headers, signed with the timestamp of that moment. Waiting out a
/// real tolerance would take minutes; the request is byte for byte what that wait would produce.
pub(crate) async fn replay(probe: &Probe, first: &Message, skew: i64) -> anyhow::Result<CheckResult> {
    let what = format!(
        "delivery {} replayed with the signature it carried {} ago",
        first.delivery_id,
        format_duration(Duration::from_secs(skew.unsigned_abs()))
    );
    Ok(refused(REPLAY_REJECTED, probe, what, probe.request(first, unix_now() - skew)?).await)
}
