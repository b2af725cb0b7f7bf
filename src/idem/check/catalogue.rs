//! What each check of `idem check` proves, how much it matters and how to fix a failure, modelled
//! on the IETF draft "The Idempotency-Key HTTP Header Field"
//! (draft-ietf-httpapi-idempotency-key-header-07) and the practice of the big payment APIs. A leaf:
//! the group files and `mod.rs` read their specs here, and it imports none of them.
use crate::conformance::{CheckSpec, Level};

pub(crate) const CREATE: CheckSpec = CheckSpec {
    id: "create",
    title: "a request with a fresh key succeeds and yields a resource id",
    why: "every other check compares against this first execution (set -d and --id-field to match the endpoint)",
    level: Level::Required,
    fix: "make a POST with a fresh key answer 2xx with the created resource's id in the body (or Location); if it does, point --id-field (JSON pointer) or --id-header at it and give the body the endpoint expects with -d",
};
pub(crate) const RETRY: CheckSpec = CheckSpec {
    id: "retry-replays",
    title: "a sequential retry with the same key gets the same answer and creates nothing new",
    why: "a client that lost the answer retries; a second execution is a double charge (draft §2.6)",
    level: Level::Required,
    fix: "store the first response (status, headers, body) under the key, scoped to the caller, and answer a retry with the same key from that store without executing again (as Stripe does)",
};
pub(crate) const REPLAY_MARKED: CheckSpec = CheckSpec {
    id: "replay-marked",
    title: "the replayed answer is marked (Idempotent-Replayed, or the profile's marker)",
    why: "clients and logs can tell a replay from a fresh execution (Stripe's Idempotent-Replayed: true)",
    level: Level::Advisory,
    fix: "add `Idempotent-Replayed: true` to every answer served from the key store",
};
pub(crate) const MISMATCH_REJECTED: CheckSpec = CheckSpec {
    id: "mismatch-rejected",
    title: "the same key with a different body is not executed: refused with a 4xx, or as --profile says",
    why: "a reused key with another payload is a client bug; executing it or replaying the old answer hides it (draft §2.7)",
    level: Level::Required,
    fix: "store a hash of method, path and body with the key and answer 422 when a retry's hash differs",
};
pub(crate) const MISMATCH_422: CheckSpec = CheckSpec {
    id: "mismatch-is-422",
    title: "the rejection of a reused key is 422 Unprocessable Content",
    why: "the draft names 422 for a key reused with a different payload (draft §2.7)",
    level: Level::Advisory,
    fix: "answer a key reused with another payload with 422 Unprocessable Content, as the draft says, not 400 or 409",
};
pub(crate) const CONCURRENT_ONCE: CheckSpec = CheckSpec {
    id: "concurrent-once",
    title: "concurrent duplicates execute at most once; the others get 409 or an identical replay",
    why: "retries and double clicks arrive together; a key claimed with look-then-insert lets them all execute (draft §2.7: 409 while in flight)",
    level: Level::Required,
    fix: "claim the key atomically before doing the work (INSERT … ON CONFLICT DO NOTHING, Redis SET NX with a lease, a unique index) and answer 409 to duplicates while the first is in flight; look-then-insert lets them all through",
};
pub(crate) const CONFLICT_RETRY_AFTER: CheckSpec = CheckSpec {
    id: "conflict-retry-after",
    title: "a 409 for a request in flight carries Retry-After",
    why: "tells the client when retrying makes sense instead of hammering the endpoint",
    level: Level::Advisory,
    fix: "send `Retry-After: 1` (seconds) with the 409 you answer for a request still in flight",
};
pub(crate) const MISSING_KEY_REQUIRED: CheckSpec = CheckSpec {
    id: "missing-key",
    title: "a request without a key is rejected with 400 (--require-key, or a profile that requires keys)",
    why: "an endpoint that requires keys must refuse requests without one (draft §2.7)",
    level: Level::Required,
    fix: "when keys are required, answer a request without Idempotency-Key with 400 and a problem+json body naming the header",
};
pub(crate) const MISSING_KEY_REPORTED: CheckSpec = CheckSpec {
    id: "missing-key",
    title: "what a request without a key gets",
    why: "keys are optional here; pass --require-key if this endpoint should refuse keyless requests",
    level: Level::Advisory,
    fix: "when keys are required, answer a request without Idempotency-Key with 400 and a problem+json body naming the header",
};
pub(crate) const NEW_KEY_CREATES: CheckSpec = CheckSpec {
    id: "new-key-creates",
    title: "a second fresh key creates a second resource",
    why: "proves the endpoint really creates; without it, a replay 'pass' could be a cache that answers everything the same",
    level: Level::Required,
    fix: "execute requests with a new key: cache by the key, never by the body or the URL alone",
};
pub(crate) const KEY_SCOPED: CheckSpec = CheckSpec {
    id: "key-scoped",
    title: "the same key on another method is not answered with the stored response",
    why: "a key identifies one request on one resource; replaying it elsewhere answers the wrong question",
    level: Level::Advisory,
    fix: "scope the stored key by method and path (and the caller): look up `(caller, method, path, key)`, not the key alone",
};
pub(crate) const PROBLEM_JSON: CheckSpec = CheckSpec {
    id: "problem-json",
    title: "error answers are application/problem+json",
    why: "the draft's error examples use RFC 9457 problem details, which clients can parse uniformly",
    level: Level::Advisory,
    fix: "answer errors with `Content-Type: application/problem+json` and a body {\"type\",\"title\",\"status\",\"detail\"} (RFC 9457)",
};
pub(crate) const RACE_WINDOW: CheckSpec = CheckSpec {
    id: "race-window",
    title: "how far apart two duplicates can arrive and both still execute",
    why: "a gap of microseconds is hit by synchronised attacks only; tens of milliseconds by every retry and double-click",
    level: Level::Advisory,
    fix: "close the window by claiming the key atomically before the work (see concurrent-once); the wider it is, the more urgent",
};
pub(crate) const CALLER_SCOPED: CheckSpec = CheckSpec {
    id: "caller-scoped",
    title: "another caller sending the same key and body does not receive the first caller's answer",
    why: "a store keyed by the header value alone hands caller A's resource to caller B: a cross-tenant leak",
    level: Level::Required,
    fix: "key the store by (caller, key), the caller being the authenticated account",
};
pub(crate) const PATH_SCOPED: CheckSpec = CheckSpec {
    id: "path-scoped",
    title: "the same key and body on another endpoint is not answered with the first endpoint's stored answer",
    why: "a key replayed across endpoints tells the client an operation ran that never did (a refund answered with the payment)",
    level: Level::Required,
    fix: "key the store by (method, path, key), or reject the reuse with 422",
};
pub(crate) const REPLAY_FAITHFUL: CheckSpec = CheckSpec {
    id: "replay-faithful",
    title: "the replay has the first answer's status, Location and ETag",
    why: "a 201 replayed as 200, or a replay without Location or ETag, breaks clients that read them from the answer they got",
    level: Level::Recommended,
    fix: "store the status and these headers with the body and replay all of them",
};
pub(crate) const EQUAL_JSON_REPLAYS: CheckSpec = CheckSpec {
    id: "equal-json-replays",
    title: "the same JSON with other key order and whitespace is a replay, not a mismatch",
    why: "a fingerprint over raw bytes rejects clients that re-serialise the body on retry: they can never retry",
    level: Level::Advisory,
    fix: "fingerprint the parsed JSON (canonical form), not the bytes",
};
pub(crate) const KEY_SYNTAX: CheckSpec = CheckSpec {
    id: "key-syntax",
    title: "an empty key and a key one character past the limit (255, or the profile's) get 400; the quoted form \"…\" of a key is that key",
    why: "the draft's examples send the key as a quoted sf-string; an empty or unbounded key is a client bug to refuse",
    level: Level::Advisory,
    fix: "parse the header as a structured-field string, 1 to 255 characters",
};
pub(crate) const LEASE_OUTLIVES_WORK: CheckSpec = CheckSpec {
    id: "lease-outlives-work",
    title: "retries while the first request still runs get 409 or the replay, at every delay; none executes",
    why: "a lock whose lease ends before the work (a 60 s lease on a job that can take longer) lets a retry execute a second time",
    level: Level::Required,
    fix: "renew the lease while the work runs, or make it longer than the slowest request",
};
pub(crate) const MISMATCH_IN_FLIGHT: CheckSpec = CheckSpec {
    id: "mismatch-in-flight",
    title: "a different body with the same key while the first is in flight never executes and ends in the profile's answer (422 under ietf, after 409s while it runs)",
    why: "a fingerprint compared only after completion lets the other body execute, or answers 409 and runs it later",
    level: Level::Recommended,
    fix: "store the fingerprint with the in-flight claim and compare it before anything else",
};
pub(crate) const CRASH_RECOVERS: CheckSpec = CheckSpec {
    id: "crash-recovers",
    title: "after the server is killed mid-request and restarted, retries with the key end in one execution",
    why: "a claim written before the work and never released after a crash answers every retry 409 until its TTL ends",
    level: Level::Required,
    fix: "give in-flight claims a lease that runs out (renewed while the work runs), so a crashed owner's key comes back",
};
pub(crate) const CACHED_DECLINE: CheckSpec = CheckSpec {
    id: "cached-decline",
    title: "after a declined request (4xx), the corrected request with a new key succeeds",
    why: "a decline kept by the body, the client or the order and answered to the corrected retry blocks a valid payment; the new key says it is a new attempt (with the same key the draft lets the server replay the 4xx, as Stripe does)",
    level: Level::Required,
    fix: "store a decline under its idempotency key only (or not at all: a request refused before it executed left nothing to replay), never by caller, body or order id, so a new key is always a new attempt",
};
pub(crate) const EFFECT_THEN_FAILURE: CheckSpec = CheckSpec {
    id: "effect-then-failure",
    title: "a request whose answer is lost (or that fails after it executed) is retried with its key and executes once (--count-url)",
    why: "a layer that deletes its key record on an error after the work (AWS Lambda Powertools does) or releases its claim on a 5xx executes the retry again: a double charge exactly when something went wrong",
    level: Level::Required,
    fix: "once the work has committed, keep the key record whatever happens next: store the answer (or keep the claim until it can be stored) and never delete it in an error handler; a retry then gets 409 while it runs and the replay after",
};

pub(crate) const EXPIRED_KEY_TAKEN_ONCE: CheckSpec = CheckSpec {
    id: "expired-key-taken-once",
    title: "once a key's record has expired (--retention), concurrent duplicates with the key execute once (--count-url)",
    why: "a record whose retention or lease ran out is taken over by the retries that arrive together, and a layer that reads it, sees it expired, works and then writes (or deletes it, then inserts) lets every one of them execute (AWS Lambda Powertools guards this orphan-record race; a timed-out order completion retried with the same body made two orders)",
    level: Level::Required,
    fix: "take an expired record over atomically, in the write that claims it: `SET key NX` once it expired, `UPDATE … WHERE key = ? AND expires_at < now()` checked by the rows it affected, or a compare-and-swap on the record's version; never delete-then-insert or read-then-write",
};

/// The checks that judge a retry with the first key: its request is sent only for them.
pub(crate) const NEEDS_RETRY: &[CheckSpec] = &[RETRY, REPLAY_MARKED];
/// The checks that judge the reused key with a changed body (`problem-json` judges its error
/// answer): its request is sent only for them.
pub(crate) const NEEDS_MISMATCH: &[CheckSpec] = &[MISMATCH_REJECTED, MISMATCH_422, PROBLEM_JSON];
/// The checks that judge the key-less request (`problem-json` judges its error answer): a correct
/// API that does not require keys creates a resource for it, so it is sent only for them.
pub(crate) const NEEDS_MISSING_KEY: &[CheckSpec] = &[MISSING_KEY_REPORTED, PROBLEM_JSON];

/// What `--only`/`--skip` do not leave out, for `--list`.
pub(crate) const RUNS_WHATEVER_SELECTED: &str = "--only and --skip leave a check's requests out, with two exceptions: create always runs (every other check compares with its resource), and --only problem-json also sends missing-key's and mismatch-rejected's requests, whose error answers it judges.";

/// Every check of `idem check`, in the order they run: `--list`, the man page and the ids `--only`,
/// `--skip` and `--expect-fail` accept. A new check is one more entry here
/// and one arm in `mod.rs`, which runs it.
pub(crate) const CHECKS: &[CheckSpec] = &[
    CREATE,
    RETRY,
    REPLAY_MARKED,
    MISMATCH_REJECTED,
    MISMATCH_422,
    CONCURRENT_ONCE,
    CONFLICT_RETRY_AFTER,
    RACE_WINDOW,
    MISSING_KEY_REQUIRED,
    MISSING_KEY_REPORTED,
    NEW_KEY_CREATES,
    KEY_SCOPED,
    CALLER_SCOPED,
    PATH_SCOPED,
    REPLAY_FAITHFUL,
    EQUAL_JSON_REPLAYS,
    KEY_SYNTAX,
    CACHED_DECLINE,
    LEASE_OUTLIVES_WORK,
    MISMATCH_IN_FLIGHT,
    CRASH_RECOVERS,
    EFFECT_THEN_FAILURE,
    EXPIRED_KEY_TAKEN_ONCE,
    PROBLEM_JSON,
];
