//! Every check of `webhook check`: what it proves, why it matters, how much (required or
//! advisory), and the one line on how to fix what it catches. A leaf: the group files read their
//! specs from here, and `mod.rs` runs them in this order.
use crate::conformance::{CheckSpec, Level};

pub(crate) const HANDSHAKE_ANSWERED: CheckSpec = CheckSpec {
    id: "handshake-answered",
    title: "the provider's endpoint handshake (Slack url_verification, Discord PING, Zoom endpoint.url_validation, Twitch callback verification) is answered as documented",
    why: "a provider registers (and, for Zoom, keeps every 72 hours) only an endpoint that answers its handshake; a receiver that cannot is never sent an event",
    level: Level::Required,
    fix: "answer the handshake before event handling, after verifying its signature: Slack: {\"challenge\"} back; Discord: {\"type\":1}; Zoom: {plainToken, encryptedToken = hex HMAC-SHA256(secret token, plainToken)}; Twitch: the raw challenge as text/plain",
};
pub(crate) const FORGED_HANDSHAKE_REFUSED: CheckSpec = CheckSpec {
    id: "forged-handshake-refused",
    title: "a handshake signed with another secret gets a 4xx, not the answer",
    why: "a receiver that answers any handshake confirms the endpoint for whoever sends one",
    level: Level::Required,
    fix: "verify the handshake's signature like any delivery's and answer 401 when it fails (Discord requires exactly 401 and removes an endpoint that accepts its invalid-signature probes); only then echo the challenge",
};
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
pub(crate) const CONCURRENT_DUPLICATES_PROCESSED_ONCE: CheckSpec = CheckSpec {
    id: "concurrent-duplicates-processed-once",
    title: "identical copies of one delivery arriving together (-n, default 10) are processed once, by the receiver's own count (--count-url)",
    why: "providers retry while the first delivery is still being processed and queues redeliver in bursts; a receiver \
          that checks \"seen this id?\", works, then records the id lets copies that arrive together all pass the check",
    level: Level::Required,
    fix: "claim the delivery id atomically before doing the work (a unique insert, SET NX, or a lock held from the check to the record), and answer 2xx without working when the claim fails",
};
/// `concurrent-duplicates-processed-once` when the receiver processed the event once but answered
/// a copy with a 5xx: the loser of a unique insert reported as a failure, which the provider
/// retries. Processed once is what matters, so this is advice.
pub(crate) const CONCURRENT_DUPLICATES_ANSWERED_5XX: CheckSpec = CheckSpec {
    level: Level::Advisory,
    fix: "when the claim on the delivery id fails because another copy holds it, answer 2xx (a duplicate, already being handled), not a 5xx the provider retries",
    ..CONCURRENT_DUPLICATES_PROCESSED_ONCE
};

pub(crate) const REPLAY_REJECTED: CheckSpec = CheckSpec {
    id: "replay-rejected",
    title: "the accepted delivery, replayed with its capture-time signature after the tolerance, gets a 4xx",
    why: "an attacker who captured a delivery resends it unchanged; a receiver that answers known ids before verifying accepts it",
    level: Level::Required,
    fix: "verify the signature (and its timestamp) before de-duplicating by delivery id, so a captured delivery re-sent later is refused rather than answered 2xx as a known duplicate",
};

pub(crate) const ANY_LISTED_SIGNATURE_ACCEPTED: CheckSpec = CheckSpec {
    id: "any-listed-signature-accepted",
    title: "a signature header listing another secret's signature first and the valid one second gets a 2xx",
    why: "the header is a list so secrets can rotate with no downtime (Standard Webhooks, Stripe); a receiver that \
          checks only the first entry refuses every delivery during a rotation",
    level: Level::Required,
    fix: "try every entry of the header and accept when any one verifies (the providers' \
                              libraries do); do not stop at the first",
};

pub(crate) const TRUNCATED_SIGNATURE_REJECTED: CheckSpec = CheckSpec {
    id: "truncated-signature-rejected",
    title: "the valid signature cut in half, and the version prefix alone, get a 4xx",
    why: "a prefix comparison, or one that stops at the shorter string, accepts a signature an attacker can guess \
          one character at a time, or none at all",
    level: Level::Required,
    fix: "decode the whole signature and compare it in full, in constant time (HMAC compare \
                             of equal-length values); refuse an empty or short one",
};

pub(crate) const UNKNOWN_EVENT_ACKNOWLEDGED: CheckSpec = CheckSpec {
    id: "unknown-event-acknowledged",
    title: "a valid delivery of an event type no receiver can know gets a 2xx",
    why: "Standard Webhooks says to acknowledge events you ignore; a 4xx or 5xx makes the provider retry it, and \
          after enough failures disable the endpoint, losing the events you do handle",
    level: Level::Advisory,
    fix: "answer 2xx (and do nothing) for event types you do not handle, after \
                                 verifying the signature",
};

pub(crate) const OUT_OF_ORDER_ACCEPTED: CheckSpec = CheckSpec {
    id: "out-of-order-accepted",
    title: "an object's `updated` event delivered before its `created` event: both get a 2xx",
    why: "providers deliver concurrently and retry failures later, so order is not guaranteed; a receiver that \
          refuses an update for an object it has not seen yet loses it or has it retried until it gives up",
    level: Level::Advisory,
    fix: "accept events in any order: store an update for an unknown object (or fetch \
                                the object from the provider's API), and compare timestamps or versions instead \
                                of assuming arrival order",
};

pub(crate) const CROSS_SCHEME_REPLAY_REJECTED: CheckSpec = CheckSpec {
    id: "cross-scheme-replay-rejected",
    title: "a captured signature re-sent under an untimestamped scheme's header (GitHub, Shopify, hmac) gets a 4xx",
    why: "the same secret keys both schemes, so a receiver that detects the scheme per request turns any old \
          signature into a valid one with no timestamp to expire",
    level: Level::Required,
    fix: "verify with the one scheme you configured, never the one a request's headers suggest",
};

pub(crate) const CERT_URL_PINNED: CheckSpec = CheckSpec {
    id: "cert-url-pinned",
    title: "AWS SNS, PayPal: a delivery whose certificate URL only looks like the provider's is neither fetched nor accepted",
    why: "anyone can name any certificate URL; a receiver that fetches it verifies the forger's signature with the \
          forger's own certificate, and a request to a URL an attacker chose is itself a server-side request forgery",
    level: Level::Required,
    fix: "before fetching, parse the URL and require https, the provider's host exactly (sns.<region>.amazonaws.com \
          and a .pem path; PayPal's api hosts), no user name and port 443, as AWS's sns-validator does; then check \
          the certificate chain",
};

/// Every check of `webhook check`, in the order they run: `--list`, the man page and the ids
/// `--only`, `--skip` and `--expect-fail` accept. A new check is one more entry here,
/// and its function in the group file of what it checks, called from `mod.rs`.
pub(crate) const CHECKS: &[CheckSpec] = &[
    VALID_ACCEPTED,
    FAST_ACK,
    DUPLICATE_ACCEPTED,
    DUPLICATE_PROCESSED_ONCE,
    CONCURRENT_DUPLICATES_PROCESSED_ONCE,
    RAW_BODY_VERIFIED,
    BAD_SIGNATURE_REJECTED,
    MISSING_SIGNATURE_REJECTED,
    TAMPERED_BODY_REJECTED,
    ANY_LISTED_SIGNATURE_ACCEPTED,
    TRUNCATED_SIGNATURE_REJECTED,
    UNKNOWN_EVENT_ACKNOWLEDGED,
    OUT_OF_ORDER_ACCEPTED,
    STALE_TIMESTAMP_REJECTED,
    FUTURE_TIMESTAMP_REJECTED,
    REPLAY_REJECTED,
    CROSS_SCHEME_REPLAY_REJECTED,
    HANDSHAKE_ANSWERED,
    FORGED_HANDSHAKE_REFUSED,
    CERT_URL_PINNED,
];
