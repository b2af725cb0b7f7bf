//! What every engine hands back: each duplicate's answer (or what went wrong) and what the release
//! looked like. The engines and the round that judges them share these types; neither owns them.
use std::time::Duration;

use bytes::Bytes;
use http::HeaderMap;

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
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Release {
    /// Write calls that carried the final bytes: 1 for a single packet.
    pub writes: usize,
    /// Bytes written in the release.
    pub bytes: usize,
    /// From the first final write to the last one.
    pub spread: Duration,
}
