//! Releasing identical requests together at one receiver, with the best synchronisation it
//! allows: the HTTP/2 single packet where it speaks h2 (ALPN on https) or h2c (`--http2` on
//! http://), else the HTTP/1.1 last byte. What `webhook race` and `webhook check` use; `idem
//! race` makes the same choice in its round, with its `--sync`, `--also` and `--stagger` on top.
use anyhow::{Context, anyhow};
use bytes::Bytes;
use http::Request;
use serde::Serialize;

use super::answer::{Answer, Release};
use super::batch::BatchMethod;
use super::connect::{Connector, Target};
use super::h2_frames::AnsweredInHttp1;
use super::h2_single_packet::NoRoom;
use super::{h1_last_byte, h2_single_packet};
use crate::http::tls::{ALPN_H2, ALPN_HTTP11};

/// How the requests were made to arrive together.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub(crate) enum Sync {
    /// HTTP/2, one connection: every request's final frame in one TCP packet.
    SinglePacket,
    /// HTTP/1.1, a connection per request: every final byte in one tight loop.
    LastByte,
}

impl Sync {
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            Sync::SinglePacket => "single-packet",
            Sync::LastByte => "last-byte",
        }
    }
}

/// What one release did: the synchronisation used and why, each request's answer in order, and
/// how tight the release was.
#[derive(Debug)]
pub(crate) struct Together {
    pub sync: Sync,
    pub reason: String,
    pub answers: Vec<Answer>,
    pub release: Release,
}

impl Together {
    /// The slowest answer, for the count's adaptive settle interval (zero when none came).
    pub(crate) fn slowest(&self) -> std::time::Duration {
        self.answers.iter().filter_map(|answer| answer.latency).max().unwrap_or_default()
    }
}

/// Sends `requests` (all to `target`) so they arrive at the same instant. `http2`: the receiver
/// speaks HTTP/2 with prior knowledge on http:// (h2c). On plain http:// without it, HTTP/1.1 is
/// used without probing: an h2c preface would show up as a malformed request in an HTTP/1.1
/// receiver's logs.
pub(crate) async fn release(target: &Target, http2: bool, requests: &[Request<Bytes>]) -> anyhow::Result<Together> {
    let timeout = target.timeout;
    if !target.is_https() && !http2 {
        let connector = Connector::new(target, &[ALPN_HTTP11])?;
        let (answers, release) = h1_last_byte::race(&[connector], None, requests, timeout, None).await?;
        let reason = "http:// without --http2, so HTTP/1.1 (add --http2 if the receiver speaks h2c)".to_string();
        return Ok(Together { sync: Sync::LastByte, reason, answers, release });
    }
    let offered: &[&[u8]] = if http2 { &[ALPN_H2] } else { &[ALPN_H2, ALPN_HTTP11] };
    let connected = Connector::new(target, offered)?.connect().await?;
    if target.is_https() && !connected.is_h2() {
        let chosen = connected.alpn.as_deref().map(|p| format!("`{}`", String::from_utf8_lossy(p)));
        let chosen = chosen.unwrap_or_else(|| "no ALPN protocol".to_string());
        if http2 {
            anyhow::bail!("the receiver did not agree to HTTP/2 in ALPN (it chose {chosen}); drop --http2");
        }
        // The probe connection speaks HTTP/1.1: it carries the first request.
        let connector = Connector::new(target, &[ALPN_HTTP11])?;
        let (answers, release) =
            h1_last_byte::race(&[connector], Some(connected.stream), requests, timeout, None).await?;
        let reason = format!("the receiver chose {chosen} over h2 in ALPN");
        return Ok(Together { sync: Sync::LastByte, reason, answers, release });
    }
    let reason = if target.is_https() {
        "the receiver negotiated h2 in ALPN"
    } else {
        "--http2 given: HTTP/2 with prior knowledge (h2c)"
    };
    match h2_single_packet::race(connected.stream, requests, timeout, None).await {
        Ok((answers, release)) => {
            Ok(Together { sync: Sync::SinglePacket, reason: reason.to_string(), answers, release })
        }
        // Refused before any request was sent: the copies go one connection each instead.
        Err(err) if err.chain().any(|cause| cause.is::<NoRoom>()) => {
            let connector = Connector::new(target, &[ALPN_HTTP11])?;
            let (answers, release) = h1_last_byte::race(&[connector], None, requests, timeout, None).await?;
            let reason = format!(
                "the receiver speaks HTTP/2, but its limits cannot hold {} copies on one connection, so HTTP/1.1",
                requests.len()
            );
            Ok(Together { sync: Sync::LastByte, reason, answers, release })
        }
        Err(err) => {
            Err(answered_in_http1(err)).with_context(|| format!("single-packet race against {} failed", target.url))
        }
    }
}

/// An HTTP/1 answer to the HTTP/2 preface, said as what it is and what to do instead.
fn answered_in_http1(err: anyhow::Error) -> anyhow::Error {
    let Some(found) = err.chain().find_map(|cause| cause.downcast_ref::<AnsweredInHttp1>()) else {
        return err;
    };
    let line = &found.line;
    match found.status_line {
        true => anyhow!("the receiver answered in HTTP/1 (`{line}`), not HTTP/2: drop --http2"),
        false => anyhow!("the receiver answered with text (`{line}`), not HTTP/2 frames: drop --http2"),
    }
}

/// A release as both tools report it.
#[derive(Debug, Clone, Copy, Serialize, schemars::JsonSchema)]
pub(crate) struct ReleaseSummary {
    /// Write calls that carried the final bytes: 1 for a single packet.
    pub writes: usize,
    pub bytes: usize,
    /// From the first final write to the last.
    #[serde(rename = "spread_us", serialize_with = "crate::units::as_us")]
    #[schemars(with = "f64")]
    pub spread: std::time::Duration,
    /// How several connections' final bytes were handed to the kernel together (last-byte):
    /// `io_uring` (one submission), `send-loop` or `sequential`; absent for one connection's
    /// single write.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub batch: Option<BatchMethod>,
    /// With `batch`: connections whose final bytes the submission did not take in full,
    /// finished right after it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub finished_after_batch: Option<usize>,
}

impl From<&Release> for ReleaseSummary {
    fn from(release: &Release) -> ReleaseSummary {
        ReleaseSummary {
            writes: release.writes,
            bytes: release.bytes,
            spread: release.spread,
            batch: release.batch.map(|batch| batch.method),
            finished_after_batch: release.batch.map(|batch| batch.finished_after),
        }
    }
}

impl ReleaseSummary {
    /// `10 final frames in 1 write (90 bytes), spread 12µs` for `requests` released by `sync`.
    pub(crate) fn describe(&self, sync: Sync, requests: usize) -> String {
        let writes = crate::text::plural(self.writes, "write", "writes");
        let spread = crate::units::format_duration(self.spread);
        let by = self.batch.map(|batch| format!(" by {}", batch.phrase())).unwrap_or_default();
        match sync {
            Sync::SinglePacket => {
                format!("{requests} final frames in {writes}{by} ({} bytes), spread {spread}", self.bytes)
            }
            Sync::LastByte => format!("{} final bytes in {writes}{by}, spread {spread}", self.bytes),
        }
    }
}

/// The answers of one release counted by status, as both tools report them.
#[derive(Debug, Clone, Default, Serialize, schemars::JsonSchema)]
pub(crate) struct Tally {
    /// How many answers had each status (`{"200": 9, "500": 1}`).
    pub statuses: std::collections::BTreeMap<u16, usize>,
    /// Why each request that got no complete answer did not (a timeout, a reset), in order.
    pub unanswered: Vec<String>,
}

impl Tally {
    pub(crate) fn of(answers: &[Answer]) -> Tally {
        let mut tally = Tally::default();
        for answer in answers {
            match &answer.outcome {
                Ok(response) => *tally.statuses.entry(response.status).or_default() += 1,
                Err(err) => tally.unanswered.push(err.clone()),
            }
        }
        tally
    }

    /// How many answers had a status `range` holds (`200..300` for the acknowledged ones).
    pub(crate) fn within(&self, range: std::ops::Range<u16>) -> usize {
        self.statuses.iter().filter(|(status, _)| range.contains(status)).map(|(_, n)| n).sum()
    }

    /// `9 × 200, 1 × 500, 1 without an answer (the server closed the connection before answering)`.
    pub(crate) fn describe(&self) -> String {
        let mut parts: Vec<String> = self.statuses.iter().map(|(status, n)| format!("{n} × {status}")).collect();
        if let Some(first) = self.unanswered.first() {
            parts.push(format!("{} without an answer ({first})", self.unanswered.len()));
        }
        parts.join(", ")
    }
}
