//! What every engine hands back: each duplicate's answer (or what went wrong) and what the release
//! looked like. The engines and the round that judges them share these types; neither owns them.
use std::time::Duration;

use bytes::Bytes;
use http::HeaderMap;

use super::batch::Batch;

/// A complete answer from the server.
#[derive(Debug, Clone, PartialEq)]
pub struct Response {
    pub status: u16,
    pub headers: HeaderMap,
    pub body: Bytes,
}

/// One duplicate's outcome from an engine.
#[derive(Debug, Clone)]
pub struct Answer {
    pub outcome: Result<Response, String>,
    /// From this request's release to the last byte of its answer.
    pub latency: Option<Duration>,
}

/// What the release looked like from the client.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Release {
    /// Write calls that carried the final bytes: 1 for a single packet.
    pub writes: usize,
    /// Bytes written in the release.
    pub bytes: usize,
    /// From the first final write to the last one.
    pub spread: Duration,
    /// When each duplicate's final bytes were written, from the first one's: all (nearly) zero
    /// when released together, about `k × --stagger` for duplicate `k` (from 0) when staggered.
    pub offsets: Vec<Duration>,
    /// How several connections' final bytes were put on their sockets together; `None` for one
    /// connection's single write, and for a staggered release.
    pub batch: Option<Batch>,
}

/// What to say about an answer whose status and headers came but whose body did not: the status
/// is the most telling part (a server that answered 409 before reading the body is not one that
/// never answered). `why` ends the sentence: `within 30s`, or the error that cut it short.
pub(crate) fn incomplete(status: u16, received: usize, expected: Option<usize>, why: &str) -> String {
    let progress = match expected {
        Some(length) => format!("{received} of {length} body bytes"),
        None => format!("{received} body bytes"),
    };
    format!("{status} headers received, body never completed {why} ({progress})")
}
