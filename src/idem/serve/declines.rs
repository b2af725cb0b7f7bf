//! `--mode sticky-decline`: a negative cache of declined payments, kept by caller and endpoint, as
//! a layer that "remembers" a bad request does. The caller's next payments to that endpoint, valid
//! ones with new keys included, get the stored decline until it expires.
use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use bytes::Bytes;
use http::{HeaderValue, Response, StatusCode};
use http_body_util::Full;

use crate::sync::lock;

/// How long a decline blocks the caller's next payments: long enough to block any retry a client
/// makes after fixing its request.
const BLOCKED_FOR: Duration = Duration::from_secs(60);

/// A decline as answered: status, content type and body.
#[derive(Clone)]
struct Decline {
    status: StatusCode,
    content_type: Option<HeaderValue>,
    body: Bytes,
    until: Instant,
}

/// The declines of each (caller, path), while they last.
#[derive(Default)]
pub(super) struct Declines {
    by_caller: Mutex<HashMap<(String, String), Decline>>,
}

impl Declines {
    /// Remembers a decline of `caller` on `path`.
    pub(super) fn remember(
        &self,
        caller: String,
        path: String,
        status: StatusCode,
        content_type: Option<HeaderValue>,
        body: Bytes,
    ) {
        let decline = Decline { status, content_type, body, until: Instant::now() + BLOCKED_FOR };
        lock(&self.by_caller).insert((caller, path), decline);
    }

    /// The stored decline of `caller` on `path`, answered again, while it lasts.
    pub(super) fn replay(&self, caller: &str, path: &str) -> Option<Response<Full<Bytes>>> {
        let mut declines = lock(&self.by_caller);
        let key = (caller.to_string(), path.to_string());
        let decline = declines.get(&key)?.clone();
        if decline.until <= Instant::now() {
            declines.remove(&key);
            return None;
        }
        let mut response = Response::new(Full::new(decline.body));
        *response.status_mut() = decline.status;
        if let Some(content_type) = decline.content_type {
            response.headers_mut().insert(http::header::CONTENT_TYPE, content_type);
        }
        Some(response)
    }
}
