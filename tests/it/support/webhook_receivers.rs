//! Receivers for `webhook check`: each verifies and de-duplicates as a careful receiver does,
//! except for the flaws it is given.
use std::collections::HashSet;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use idem::testing::scheme::Secret;
use idem::testing::scheme::{self, SchemeKind, SchemeOptions, TimeWindow};
use serde_json::Value;

use crate::support::{CustomServer, Reply, SECRET};

/// What a test receiver gets wrong.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Flaws {
    /// Never verifies: every signature is fine.
    pub(crate) accepts_bad_signature: bool,
    /// Verifies the signature but not the timestamp's age.
    pub(crate) ignores_timestamps: bool,
    /// Answers a repeated event id with 500.
    pub(crate) duplicate_500: bool,
    /// Takes 600ms over the first request (the test sets --ack-within 300ms).
    pub(crate) slow_first: bool,
    /// Verifies the signature over the body parsed and written compactly again, not the raw bytes.
    pub(crate) reserialises: bool,
    /// Treats Slack's url_verification as an ordinary event (`{}`), not echoing its challenge.
    pub(crate) ignores_handshakes: bool,
}

/// A receiver for `kind` that verifies, de-duplicates on the body's event id and answers 200,
/// except for its `flaws`.
pub(crate) fn receiver(kind: SchemeKind, flaws: Flaws) -> CustomServer {
    let scheme: Arc<dyn scheme::Scheme> = scheme::build(kind, &SchemeOptions::default()).into();
    let key = scheme.key(&Secret::new(SECRET.as_bytes().to_vec()).unwrap()).unwrap();
    let seen: Arc<Mutex<HashSet<String>>> = Arc::default();
    CustomServer::start_async(move |request| {
        let (scheme, key, seen) = (Arc::clone(&scheme), key.clone(), Arc::clone(&seen));
        Box::pin(async move {
            if flaws.slow_first && request.sequence == 0 {
                tokio::time::sleep(Duration::from_millis(600)).await;
            }
            let tolerance =
                if flaws.ignores_timestamps { Duration::from_secs(u64::MAX) } else { Duration::from_secs(300) };
            let window = TimeWindow::around_now(tolerance);
            let body = if flaws.reserialises {
                let value: Value = serde_json::from_slice(&request.body).unwrap_or_default();
                serde_json::to_vec(&value).unwrap()
            } else {
                request.body.to_vec()
            };
            if !flaws.accepts_bad_signature && scheme.verify(&request.headers, &body, &key, window).is_err() {
                return Reply::json(401, r#"{"error":"invalid signature"}"#);
            }
            let event: Value = serde_json::from_slice(&request.body).unwrap_or_default();
            if event["type"] == "url_verification" && !flaws.ignores_handshakes {
                return Reply::json(200, serde_json::json!({ "challenge": event["challenge"] }).to_string());
            }
            let id = event["id"].as_str().unwrap_or_default().to_string();
            let repeated = !seen.lock().unwrap().insert(id);
            Reply::json(if repeated && flaws.duplicate_500 { 500 } else { 200 }, "{}")
        })
    })
}
