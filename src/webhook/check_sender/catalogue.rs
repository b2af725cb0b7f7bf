//! Every check of `webhook check-sender`: what it proves, how much it matters, how to fix what it
//! catches, and the function that judges it from what the receiver saw. `--list`, the man page,
//! the ids `--only`, `--skip` and `--expect-fail` accept, and the report's order all come from
//! [`CHECKS`]. A new check is one entry here and one function in the group file of its duty.
use super::probe::{SenderFinding, SenderObservation};
use super::{headers, identity, retries, sender_mistakes, stops, timestamps};
use crate::conformance::{CheckSpec, Level};

/// One check: its spec, and the function that judges it once the run is over.
#[derive(Clone, Copy)]
pub(crate) struct Check {
    pub spec: CheckSpec,
    pub judge: fn(&SenderObservation) -> SenderFinding,
}

pub(crate) const SIGNED: CheckSpec = CheckSpec {
    id: "signed",
    title: "every attempt carries a valid signature for the scheme",
    why: "a receiver must refuse unsigned and mis-signed deliveries, so they are never processed",
    level: Level::Required,
    fix: "sign every attempt with the receiver's secret over the exact body bytes sent, in the scheme's header format",
};
pub(crate) const EVENT_ID_STABLE: CheckSpec = CheckSpec {
    id: "event-id-stable",
    title: "every attempt of one event carries the same event id",
    why: "receivers de-duplicate retries by the event id; a new id per attempt makes every retry a new event",
    level: Level::Required,
    fix: "mint the event id once when the event is created and send that id on every retry (the svix / Standard Webhooks `webhook-id`)",
};
pub(crate) const BODY_STABLE: CheckSpec = CheckSpec {
    id: "body-stable",
    title: "every attempt of one event carries the same body bytes",
    why: "a retry is the same event again; a receiver that saw the first copy must be able to trust the second",
    level: Level::Required,
    fix: "serialise the event once and send the same bytes on every retry; do not re-render it per attempt",
};
pub(crate) const RETRIES_AFTER_5XX: CheckSpec = CheckSpec {
    id: "retries-after-5xx",
    title: "a 5xx answer is followed by another attempt",
    why: "a 5xx says the receiver failed this time; without a retry the event is lost",
    level: Level::Required,
    fix: "treat any 5xx (and 429) as a failed attempt and schedule a retry with backoff",
};
pub(crate) const RETRIES_AFTER_TIMEOUT: CheckSpec = CheckSpec {
    id: "retries-after-timeout",
    title: "an attempt that got no answer is retried",
    why: "a receiver that hangs or crashes mid-request never answers; the sender must time out and try again",
    level: Level::Required,
    fix: "set a request timeout (5–30s) and schedule a retry when it fires or the connection drops",
};
pub(crate) const SENDER_TIMEOUT: CheckSpec = CheckSpec {
    id: "sender-timeout",
    title: "the sender waits between 5s and 30s for an answer before giving up",
    why: "providers allow 5s (Standard Webhooks suggests it) to 30s; sooner fails slow receivers, later stalls the queue",
    level: Level::Advisory,
    fix: "give each attempt between 5s and 30s to be answered (e.g. requests' timeout=, axios' timeout:, Go's http.Client.Timeout)",
};
pub(crate) const BACKOFF_GROWS: CheckSpec = CheckSpec {
    id: "backoff-grows",
    title: "the waits between attempts do not shrink, and the first retry is not immediate",
    why: "a receiver that is down needs time to recover; retries that come at once or faster add load to an outage",
    level: Level::Advisory,
    fix: "wait before the first retry and grow the wait (exponential backoff with jitter: e.g. 5s, 30s, 2m, …)",
};
pub(crate) const HONOURS_RETRY_AFTER: CheckSpec = CheckSpec {
    id: "honours-retry-after",
    title: "after a Retry-After answer the next attempt comes no sooner than asked",
    why: "429 and 503 with Retry-After are the receiver asking for time (RFC 9110 §10.2.3)",
    level: Level::Advisory,
    fix: "read Retry-After (seconds or an HTTP date) on 429 and 503 and wait at least that long before the next attempt",
};
pub(crate) const STOPS_AFTER_2XX: CheckSpec = CheckSpec {
    id: "stops-after-2xx",
    title: "no further attempt after a 2xx answer",
    why: "a 2xx acknowledges the event; sending it again makes the receiver process or de-duplicate it for nothing",
    level: Level::Required,
    fix: "mark the event delivered on any 2xx and stop retrying it",
};
pub(crate) const STOPS_AFTER_410: CheckSpec = CheckSpec {
    id: "stops-after-410",
    title: "no further attempt after 410 Gone",
    why: "410 says the endpoint is gone for good (Standard Webhooks, Svix: disable the endpoint)",
    level: Level::Advisory,
    fix: "on 410 Gone stop retrying and disable the endpoint",
};
pub(crate) const FRESH_TIMESTAMP: CheckSpec = CheckSpec {
    id: "fresh-timestamp",
    title: "each retry is signed afresh, with the time it is sent",
    why: "a retry that re-sends the first signature ages out of the receiver's replay window and is refused",
    level: Level::Advisory,
    fix: "sign each attempt at the time it is sent (a new timestamp and signature per retry), not once at creation",
};
pub(crate) const TIMESTAMP_SKEW: CheckSpec = CheckSpec {
    id: "timestamp-skew",
    title: "the signed time is within the tolerance of the receiver's clock",
    why: "receivers refuse timestamps outside their window (5 minutes for Stripe and Standard Webhooks)",
    level: Level::Required,
    fix: "sign with the current time from a synchronised clock (NTP), in seconds since the epoch",
};
pub(crate) const CONTENT_TYPE_JSON: CheckSpec = CheckSpec {
    id: "content-type-json",
    title: "JSON bodies are sent as application/json",
    why: "frameworks pick their body parser by Content-Type; a wrong one can turn the body into a form or nothing",
    level: Level::Advisory,
    fix: "send JSON bodies with `Content-Type: application/json`",
};
pub(crate) const IDENTIFIES_ITSELF: CheckSpec = CheckSpec {
    id: "identifies-itself",
    title: "a User-Agent is sent",
    why: "receivers and their firewalls tell webhook traffic apart by it; providers name theirs",
    level: Level::Advisory,
    fix: "send a User-Agent naming your service and version, e.g. `Acme-Webhooks/1.2`",
};

pub(crate) const REDIRECT_NOT_FOLLOWED: CheckSpec = CheckSpec {
    id: "redirect-not-followed",
    title: "a 3xx answer is not followed, and the original URL is tried again later",
    why: "Standard Webhooks treats 3xx as a failure: following redirects loads both sides and hides a URL that \
          should be updated; the event must still reach the registered endpoint",
    level: Level::Required,
    fix: "do not follow redirects when delivering (e.g. redirect: \"manual\", \
                            allow_redirects=False, Policy::none()); count a 3xx as a failed attempt and retry the \
                            registered URL",
};

pub(crate) const THROTTLES_AFTER_429: CheckSpec = CheckSpec {
    id: "throttles-after-429",
    title: "after 429, 502 or 504 the next attempt waits at least the Retry-After, or backs off",
    why: "Standard Webhooks: 429 is a rate limit and 502/504 a receiver under load; the sender is to throttle, \
          not retry at once or faster than before",
    level: Level::Advisory,
    fix: "after 429, 502 or 504 wait the Retry-After when there is one, else a backoff at \
                            least as long as the last wait, before trying again",
};

pub(crate) const SECRET_LENGTH: CheckSpec = CheckSpec {
    id: "secret-length",
    title: "the Standard Webhooks secret is 24 to 64 bytes",
    why: "the spec's symmetric secret is random, at least 24 bytes (192 bits) and at most 512 bits; a shorter one \
          can be guessed, a longer one some libraries refuse",
    level: Level::Advisory,
    fix: "generate the secret as 24 to 64 random bytes, base64-encoded after whsec_ \
                                 (`webhook secret --scheme standard` makes a 32-byte one)",
};

/// Every check, in the order they are reported.
pub(crate) const CHECKS: [Check; 17] = [
    Check { spec: SIGNED, judge: identity::signed },
    Check { spec: EVENT_ID_STABLE, judge: identity::event_id_stable },
    Check { spec: BODY_STABLE, judge: identity::body_stable },
    Check { spec: RETRIES_AFTER_5XX, judge: retries::after_5xx },
    Check { spec: RETRIES_AFTER_TIMEOUT, judge: retries::after_timeout },
    Check { spec: SENDER_TIMEOUT, judge: retries::sender_timeout },
    Check { spec: BACKOFF_GROWS, judge: retries::backoff_grows },
    Check { spec: HONOURS_RETRY_AFTER, judge: retries::honours_retry_after },
    Check { spec: STOPS_AFTER_2XX, judge: stops::after_2xx },
    Check { spec: STOPS_AFTER_410, judge: stops::after_410 },
    Check { spec: FRESH_TIMESTAMP, judge: timestamps::fresh },
    Check { spec: TIMESTAMP_SKEW, judge: timestamps::skew },
    Check { spec: CONTENT_TYPE_JSON, judge: headers::content_type_json },
    Check { spec: IDENTIFIES_ITSELF, judge: headers::identifies_itself },
    Check { spec: REDIRECT_NOT_FOLLOWED, judge: sender_mistakes::redirect_not_followed },
    Check { spec: THROTTLES_AFTER_429, judge: sender_mistakes::throttles_after_429 },
    Check { spec: SECRET_LENGTH, judge: sender_mistakes::secret_length },
];

/// The specs of [`CHECKS`], in its order: what `--list`, the man page and the id validation of
/// `--only`, `--skip` and `--expect-fail` read.
pub(crate) const SPECS: [CheckSpec; CHECKS.len()] = specs_of(&CHECKS);

const fn specs_of<const N: usize>(checks: &[Check; N]) -> [CheckSpec; N] {
    let mut specs = [checks[0].spec; N];
    let mut index = 1;
    while index < N {
        specs[index] = checks[index].spec;
        index += 1;
    }
    specs
}
