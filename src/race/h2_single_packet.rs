//! The single-packet attack over HTTP/2 (Kettle, 2023): every duplicate is a stream on one
//! connection. Each stream's HEADERS and all of its body but the final byte go first; a PING round
//! trip proves they reached the server; then every stream's withheld final DATA frame is written in
//! ONE write call, so they leave in one TCP segment (one TLS record on https) and the server sees
//! all requests complete at the same instant, whatever the network jitter.
//!
//! The engine is generic over the stream so tests can count its write calls.
use std::time::{Duration, Instant};

use anyhow::{Context, bail};
use bytes::Bytes;
use http::header::{HeaderMap, HeaderName, HeaderValue};
use http::{Method, Request};
use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncWrite, AsyncWriteExt, BufReader};

use super::answer::{Answer, Release, Response, incomplete};
use super::batch::Held;
use super::connect::BoxStream;
use super::h2_frames::{self as f, Frame};
use super::hpack;
use super::pacing;
use crate::http::client::MAX_RESPONSE_BODY;

/// The server's SETTINGS that matter to us.
#[derive(Debug, Clone, Copy)]
struct PeerSettings {
    max_concurrent_streams: Option<u32>,
    initial_window: i64,
    max_frame: usize,
}

/// One stream's progress.
struct StreamState {
    id: u32,
    headers: Option<(u16, HeaderMap)>,
    body: Vec<u8>,
    /// Response bytes received since we last widened the stream's window.
    unacknowledged: u32,
    result: Option<Result<Response, String>>,
    finished_at: Option<Instant>,
}

/// Sends `requests` as concurrent streams on `stream` (an HTTP/2 connection: TLS with ALPN h2, or
/// plain with prior knowledge) and collects every answer. Errors before the release (no HTTP/2,
/// too many streams for the server) fail the whole round; afterwards, failures are per answer.
///
/// With `stagger`, each stream's final frame goes in its own write call, stream `k` (from 0)
/// `k × stagger` after the first, and answers that arrive in between are read as they come.
pub async fn race<S>(
    stream: S,
    requests: &[Request<Bytes>],
    timeout: Duration,
    stagger: Option<Duration>,
) -> anyhow::Result<(Vec<Answer>, Release)>
where
    S: AsyncRead + AsyncWrite + Unpin,
{
    let mut staged = stage(stream, requests, timeout).await?;
    let release = match stagger {
        None => staged.release().await?.release(staged.final_bytes(), requests.len()),
        Some(stagger) => staged.release_staggered(stagger).await?,
    };
    Ok((staged.collect().await, release))
}

/// A connection with every request sent but its final frames: ready for the release. Staged
/// separately so a race across instances (`--also`) can stage several connections, then release
/// them together in one batched submission.
pub struct Staged<S> {
    io: BufReader<S>,
    decoder: hpack::Decoder,
    streams: Vec<StreamState>,
    pending: Option<PendingBlock>,
    /// Each stream's final DATA frame, in stream order.
    finals: Vec<Vec<u8>>,
    timeout: Duration,
    /// When each stream's final frame went out; latencies count from there.
    released: Vec<Instant>,
}

/// When one connection's final frames went out together, and in how many write calls.
#[derive(Debug, Clone, Copy)]
pub struct Written {
    pub first: Instant,
    pub last: Instant,
    pub writes: usize,
}

impl Written {
    /// The release of one connection's `streams` final frames (`bytes` in all), all at once.
    pub fn release(self, bytes: usize, streams: usize) -> Release {
        Release {
            writes: self.writes,
            bytes,
            spread: self.last - self.first,
            offsets: vec![Duration::ZERO; streams],
            batch: None,
        }
    }
}

/// Everything up to the release on `stream`: the handshake, every request but its final frame,
/// and a PING round trip proving the server has read them.
pub async fn stage<S>(stream: S, requests: &[Request<Bytes>], timeout: Duration) -> anyhow::Result<Staged<S>>
where
    S: AsyncRead + AsyncWrite + Unpin,
{
    let deadline = tokio::time::Instant::now() + timeout;
    // Reads are buffered (frame headers are 9 bytes); writes pass straight through, so each
    // write below is one write call on the connection.
    let mut io = BufReader::new(stream);
    let mut decoder = hpack::Decoder::default();
    let mut streams: Vec<StreamState> = (0..requests.len())
        .map(|index| StreamState {
            id: 1 + 2 * index as u32,
            headers: None,
            body: Vec::new(),
            unacknowledged: 0,
            result: None,
            finished_at: None,
        })
        .collect();

    let setup = handshake(&mut io, &mut decoder, &mut streams);
    let (mut peer, mut connection_window) = tokio::time::timeout_at(deadline, setup).await.map_err(|_| {
        anyhow::anyhow!("the HTTP/2 handshake did not finish within {}", crate::units::format_duration(timeout))
    })??;
    let needed = check_room(requests, &peer, connection_window)?;

    // Everything but the final frames, then a PING: its ACK means the server has read them all.
    let mut prefix = Vec::new();
    let mut finals: Vec<Vec<u8>> = Vec::with_capacity(requests.len());
    for (request, state) in requests.iter().zip(&streams) {
        let block = header_block(request);
        f::push_headers(&mut prefix, state.id, &block, false, peer.max_frame);
        let body = request.body();
        let (early, last) = body.split_at(body.len().saturating_sub(1));
        f::push_data(&mut prefix, state.id, early, false, peer.max_frame);
        let mut last_frame = Vec::new();
        f::push_data(&mut last_frame, state.id, last, true, peer.max_frame);
        finals.push(last_frame);
    }
    connection_window -= needed as i64;
    f::push_frame(&mut prefix, f::PING, 0, 0, b"idemsttl");
    let send_prefix = async {
        io.write_all(&prefix).await.context("cannot send the requests")?;
        io.flush().await?;
        settle(&mut io, &mut decoder, &mut streams, &mut peer, &mut connection_window, b"idemsttl").await
    };
    tokio::time::timeout_at(deadline, send_prefix).await.map_err(|_| {
        anyhow::anyhow!("the server did not acknowledge the requests within {}", crate::units::format_duration(timeout))
    })??;

    Ok(Staged { io, decoder, streams, pending: None, finals, timeout, released: Vec::new() })
}

/// The HTTP/2 handshake: our preface and SETTINGS, the server's SETTINGS, and a PING round trip
/// so its SETTINGS and window updates are in. Returns the server's settings and the connection's
/// send window.
async fn handshake<S: AsyncRead + AsyncWrite + Unpin>(
    io: &mut BufReader<S>,
    decoder: &mut hpack::Decoder,
    streams: &mut [StreamState],
) -> anyhow::Result<(PeerSettings, i64)> {
    let mut hello = f::PREFACE.to_vec();
    f::push_settings(&mut hello, &[(f::SETTINGS_ENABLE_PUSH, 0), (f::SETTINGS_INITIAL_WINDOW_SIZE, f::OUR_WINDOW)]);
    f::push_window_update(&mut hello, 0, f::OUR_WINDOW - f::DEFAULT_WINDOW as u32);
    io.write_all(&hello).await.context("cannot send the HTTP/2 preface")?;
    io.flush().await?;
    let first = f::read_frame(io, f::DEFAULT_MAX_FRAME_SIZE)
        .await
        .context("the server did not answer the HTTP/2 preface (does it speak HTTP/2?)")?;
    if first.kind != f::SETTINGS || first.has(f::FLAG_ACK) {
        bail!("the server's first frame was not SETTINGS (does it speak HTTP/2?)");
    }
    let mut peer = PeerSettings {
        max_concurrent_streams: None,
        initial_window: f::DEFAULT_WINDOW,
        max_frame: f::DEFAULT_MAX_FRAME_SIZE,
    };
    apply_settings(&mut peer, &first.payload)?;
    let mut connection_window = f::DEFAULT_WINDOW;
    let mut ack = Vec::new();
    f::push_frame(&mut ack, f::SETTINGS, f::FLAG_ACK, 0, &[]);
    f::push_frame(&mut ack, f::PING, 0, 0, b"idemhndl");
    io.write_all(&ack).await?;
    io.flush().await?;
    settle(io, decoder, streams, &mut peer, &mut connection_window, b"idemhndl").await?;
    Ok((peer, connection_window))
}

/// Refuses, before anything is sent, a race the server's limits would break: more streams than
/// it allows, or bodies its flow-control windows cannot hold before the release. Returns the
/// bytes the staged bodies take from the connection window.
fn check_room(requests: &[Request<Bytes>], peer: &PeerSettings, connection_window: i64) -> anyhow::Result<usize> {
    if let Some(limit) = peer.max_concurrent_streams
        && requests.len() > limit as usize
    {
        return Err(no_room(format!(
            "the server allows {limit} concurrent streams on one connection, fewer than the {} duplicates asked for; \
                 use -n {limit} or fewer, or --sync last-byte",
            requests.len()
        )));
    }
    let withheld: usize = requests.iter().map(|r| r.body().len().saturating_sub(1)).sum();
    let needed = withheld + requests.len();
    if needed as i64 > connection_window {
        return Err(no_room(format!(
            "the server's flow-control window ({connection_window} bytes) cannot hold {} bodies of {} bytes; \
             use a smaller body, fewer duplicates, or --sync last-byte",
            requests.len(),
            requests.first().map_or(0, |r| r.body().len())
        )));
    }
    if let Some(largest) = requests.iter().map(|r| r.body().len()).max()
        && largest as i64 > peer.initial_window
    {
        return Err(no_room(format!(
            "a {largest}-byte body does not fit the server's {}-byte stream window; use a smaller body or --sync last-byte",
            peer.initial_window
        )));
    }
    Ok(needed)
}

/// The server's HTTP/2 limits cannot hold the round on one connection: refused after the
/// handshake, before any request was sent, so a caller may race the same requests another way.
#[derive(Debug)]
pub(crate) struct NoRoom(pub String);

impl std::fmt::Display for NoRoom {
    fn fmt(&self, formatter: &mut std::fmt::Formatter) -> std::fmt::Result {
        formatter.write_str(&self.0)
    }
}

impl std::error::Error for NoRoom {}

fn no_room(message: String) -> anyhow::Error {
    anyhow::Error::new(NoRoom(message))
}

impl<S: AsyncRead + AsyncWrite + Unpin> Staged<S> {
    /// Bytes of final frames the release writes.
    pub fn final_bytes(&self) -> usize {
        self.finals.iter().map(Vec::len).sum()
    }

    /// The single packet: one write call with every final frame. A partial write (a full socket
    /// buffer) is finished, and counted, so the report can say the packet was split. Every stream
    /// counts as released at the first write.
    pub async fn release(&mut self) -> anyhow::Result<Written> {
        let packet = self.finals.concat();
        let released_at = Instant::now();
        let mut writes = 1;
        let written = self.io.write(&packet).await.context("cannot release the final frames")?;
        let mut last_write_at = released_at;
        if written < packet.len() {
            last_write_at = Instant::now();
            writes += 1;
            self.io.write_all(&packet[written..]).await.context("cannot release the final frames")?;
        }
        self.io.flush().await.context("cannot release the final frames")?;
        self.released = vec![released_at; self.finals.len()];
        Ok(Written { first: released_at, last: last_write_at, writes })
    }

    /// `--stagger`: each final frame in its own write call at its own moment. While waiting,
    /// frames from the server are read and handled, so early answers are timed when they arrive;
    /// the last stretch before each moment is spun (see `pacing`), and frames arriving then wait
    /// for the write.
    pub async fn release_staggered(&mut self, stagger: Duration) -> anyhow::Result<Release> {
        // The releases take (n - 1) × stagger; the answers' timeout starts at the last one.
        let span = stagger.saturating_mul(u32::try_from(self.finals.len()).unwrap_or(u32::MAX));
        let deadline = tokio::time::Instant::now() + span + self.timeout;
        let timeout = self.timeout;
        tokio::time::timeout_at(deadline, self.write_staggered(stagger)).await.map_err(|_| {
            anyhow::anyhow!("the staggered release did not finish within {}", crate::units::format_duration(timeout))
        })?
    }

    async fn write_staggered(&mut self, stagger: Duration) -> anyhow::Result<Release> {
        let Staged { io, decoder, streams, pending, finals, released, .. } = self;
        released.clear();
        let mut connection_open = true;
        // Every moment counts from the first write, so the first spacing is as exact as the others.
        let mut first = None;
        for (index, frame) in finals.iter().enumerate() {
            let moment = first.map_or_else(Instant::now, |first| pacing::moment(first, stagger, index));
            let coarse = pacing::coarse_deadline(moment);
            while connection_open && Instant::now() < coarse {
                tokio::select! {
                    _ = tokio::time::sleep_until(coarse.into()) => break,
                    filled = io.fill_buf() => {
                        // An empty buffer is the server closing; the next write says so.
                        connection_open = !filled.context("cannot read the answers")?.is_empty();
                        if connection_open {
                            let frame = f::read_frame(io, f::DEFAULT_MAX_FRAME_SIZE).await?;
                            handle_frame(io, decoder, streams, pending, frame).await?;
                        }
                    }
                }
            }
            pacing::wait_until(moment).await;
            let at = Instant::now();
            first.get_or_insert(at);
            io.write_all(frame).await.context("cannot release a final frame")?;
            io.flush().await.context("cannot release a final frame")?;
            released.push(at);
        }
        let first = released.first().copied().unwrap_or_else(Instant::now);
        let offsets: Vec<Duration> = released.iter().map(|at| at.saturating_duration_since(first)).collect();
        Ok(Release {
            writes: finals.len(),
            bytes: finals.iter().map(Vec::len).sum(),
            spread: offsets.last().copied().unwrap_or_default(),
            offsets,
            batch: None,
        })
    }

    /// Every stream's answer (or what arrived of it, and why the rest did not), latencies counted
    /// from each stream's release.
    pub async fn collect(mut self) -> Vec<Answer> {
        let timeout = self.timeout;
        let deadline = tokio::time::Instant::now() + timeout;
        let collected = tokio::time::timeout_at(
            deadline,
            collect(&mut self.io, &mut self.decoder, &mut self.streams, &mut self.pending),
        )
        .await;
        let unfinished = match collected {
            Ok(Ok(())) => None,
            Ok(Err(err)) => Some(Unfinished::Failed(format!("{err:#}"))),
            Err(_) => Some(Unfinished::TimedOut(format!("within {}", crate::units::format_duration(timeout)))),
        };
        // Goodbye; the answers are in, so a failure here changes nothing.
        let mut goodbye = Vec::new();
        f::push_frame(&mut goodbye, f::GOAWAY, 0, 0, &[0; 8]);
        let io = &mut self.io;
        let _ = tokio::time::timeout(Duration::from_millis(200), async {
            let _ = io.write_all(&goodbye).await;
            let _ = io.shutdown().await;
        })
        .await;

        let fallback = Instant::now();
        self.streams
            .into_iter()
            .enumerate()
            .map(|(index, state)| {
                let released_at = self.released.get(index).copied().unwrap_or(fallback);
                let outcome = match state.result {
                    Some(result) => result,
                    None => Err(unanswered(&state, unfinished.as_ref())),
                };
                let latency = state.finished_at.map(|at| at.saturating_duration_since(released_at));
                Answer { outcome, latency }
            })
            .collect()
    }
}

/// A connection of a race across instances (`--also`), released with the others in one batched
/// submission (`batch`) instead of by `release`.
impl Staged<BoxStream> {
    /// Every final frame, prepared for the batched release (sealed into TLS records on https):
    /// nothing may be written on the connection before they are sent.
    pub(crate) fn hold(&mut self) -> anyhow::Result<Held> {
        let packet = self.finals.concat();
        Held::prepare(self.io.get_mut(), &packet)
    }

    /// The connection, for the batched release.
    pub(crate) fn stream(&mut self) -> &mut BoxStream {
        self.io.get_mut()
    }

    /// Every stream counts as released at `at`: latencies count from there.
    pub(crate) fn released_at(&mut self, at: Instant) {
        self.released = vec![at; self.finals.len()];
    }
}

/// Why the answers stopped coming.
enum Unfinished {
    /// The timeout ran out; the text ends a sentence (`within 30s`).
    TimedOut(String),
    /// The connection failed.
    Failed(String),
}

/// What to say about a stream that never got its complete answer: what did arrive, and why the
/// rest did not.
fn unanswered(state: &StreamState, unfinished: Option<&Unfinished>) -> String {
    match (&state.headers, unfinished) {
        (Some((status, headers)), Some(unfinished)) => {
            let expected = headers
                .get(http::header::CONTENT_LENGTH)
                .and_then(|v| v.to_str().ok())
                .and_then(|v| v.trim().parse::<usize>().ok());
            let why = match unfinished {
                Unfinished::TimedOut(within) => within.clone(),
                Unfinished::Failed(err) => format!("({err})"),
            };
            incomplete(*status, state.body.len(), expected, &why)
        }
        (None, Some(Unfinished::TimedOut(within))) => format!("no answer {within}"),
        (None, Some(Unfinished::Failed(err))) => err.clone(),
        (_, None) => "the connection ended without an answer".into(),
    }
}

/// The request's header block: pseudo-headers, then the user's headers, then content-length.
fn header_block(request: &Request<Bytes>) -> Vec<u8> {
    let uri = request.uri();
    let mut block = Vec::new();
    hpack::encode_literal(&mut block, b":method", request.method().as_str().as_bytes());
    hpack::encode_literal(&mut block, b":scheme", uri.scheme_str().unwrap_or("http").as_bytes());
    let authority = uri.authority().map(|a| a.as_str()).unwrap_or_default();
    hpack::encode_literal(&mut block, b":authority", authority.as_bytes());
    let path = uri.path_and_query().map(|p| p.as_str()).filter(|p| !p.is_empty()).unwrap_or("/");
    hpack::encode_literal(&mut block, b":path", path.as_bytes());
    for (name, value) in &crate::http::hop_by_hop::http2_headers(request.headers()) {
        hpack::encode_literal(&mut block, name.as_str().as_bytes(), value.as_bytes());
    }
    let body = request.body();
    if !body.is_empty() || matches!(*request.method(), Method::POST | Method::PUT | Method::PATCH) {
        hpack::encode_literal(&mut block, b"content-length", body.len().to_string().as_bytes());
    }
    block
}

fn apply_settings(peer: &mut PeerSettings, payload: &[u8]) -> anyhow::Result<()> {
    if !payload.len().is_multiple_of(6) {
        bail!("the server sent a malformed SETTINGS frame");
    }
    for setting in payload.chunks_exact(6) {
        let id = u16::from_be_bytes([setting[0], setting[1]]);
        let value = u32::from_be_bytes([setting[2], setting[3], setting[4], setting[5]]);
        match id {
            f::SETTINGS_MAX_CONCURRENT_STREAMS => peer.max_concurrent_streams = Some(value),
            f::SETTINGS_INITIAL_WINDOW_SIZE => peer.initial_window = i64::from(value),
            f::SETTINGS_MAX_FRAME_SIZE => {
                if !(16_384..=16_777_215).contains(&value) {
                    bail!("the server sent an invalid SETTINGS_MAX_FRAME_SIZE ({value})");
                }
                peer.max_frame = value as usize;
            }
            _ => {}
        }
    }
    Ok(())
}

/// Reads frames until the server acknowledges the PING carrying `opaque`, handling everything
/// else that arrives meanwhile (answers that come early are kept).
async fn settle<S: AsyncRead + AsyncWrite + Unpin>(
    io: &mut BufReader<S>,
    decoder: &mut hpack::Decoder,
    streams: &mut [StreamState],
    peer: &mut PeerSettings,
    connection_window: &mut i64,
    opaque: &[u8; 8],
) -> anyhow::Result<()> {
    let mut pending = None;
    loop {
        let frame = f::read_frame(io, f::DEFAULT_MAX_FRAME_SIZE).await?;
        match frame.kind {
            f::PING if frame.has(f::FLAG_ACK) && frame.payload == opaque => return Ok(()),
            f::SETTINGS if !frame.has(f::FLAG_ACK) => apply_settings(peer, &frame.payload)?,
            f::WINDOW_UPDATE if frame.stream == 0 => {
                *connection_window += i64::from(f::be_u32(&frame.payload, 0).unwrap_or(0) & 0x7fff_ffff);
            }
            _ => {}
        }
        handle_frame(io, decoder, streams, &mut pending, frame).await?;
    }
}

/// Reads frames until every stream has its answer (or failed).
async fn collect<S: AsyncRead + AsyncWrite + Unpin>(
    io: &mut BufReader<S>,
    decoder: &mut hpack::Decoder,
    streams: &mut [StreamState],
    pending: &mut Option<PendingBlock>,
) -> anyhow::Result<()> {
    let mut connection_unacknowledged = 0u32;
    while streams.iter().any(|s| s.result.is_none()) {
        let frame = f::read_frame(io, f::DEFAULT_MAX_FRAME_SIZE).await?;
        if frame.kind == f::DATA {
            // Keep the server's windows open for large answers.
            connection_unacknowledged += frame.payload.len() as u32;
            if connection_unacknowledged > f::OUR_WINDOW / 2 {
                let mut update = Vec::new();
                f::push_window_update(&mut update, 0, connection_unacknowledged);
                io.write_all(&update).await?;
                connection_unacknowledged = 0;
            }
        }
        handle_frame(io, decoder, streams, pending, frame).await?;
    }
    Ok(())
}

/// A header block being assembled from HEADERS and CONTINUATION frames.
struct PendingBlock {
    stream: u32,
    block: Vec<u8>,
    end_stream: bool,
}

/// Handles one frame from the server: answers, resets, pings, goaway. Connection-level problems
/// are errors; stream-level ones fail that stream.
async fn handle_frame<S: AsyncRead + AsyncWrite + Unpin>(
    io: &mut BufReader<S>,
    decoder: &mut hpack::Decoder,
    streams: &mut [StreamState],
    pending: &mut Option<PendingBlock>,
    frame: Frame,
) -> anyhow::Result<()> {
    if pending.is_some() && frame.kind != f::CONTINUATION {
        bail!("the server interrupted a header block with another frame");
    }
    let index = streams.iter().position(|s| s.id == frame.stream);
    match frame.kind {
        f::HEADERS | f::CONTINUATION => {
            receive_header_block(decoder, index.map(|i| &mut streams[i]), pending, &frame)?;
        }
        f::DATA => receive_data(io, index.map(|i| &mut streams[i]), &frame).await?,
        f::RST_STREAM => {
            let code = f::be_u32(&frame.payload, 0).context("the server sent a malformed RST_STREAM")?;
            if let Some(state) = index.map(|i| &mut streams[i])
                && state.result.is_none()
            {
                let reset = format!("the server reset the stream ({})", f::error_name(code));
                let error = match &state.headers {
                    Some((status, _)) => format!("{status} headers received, then {reset}"),
                    None => reset,
                };
                finish(state, Err(error));
            }
        }
        f::SETTINGS if !frame.has(f::FLAG_ACK) => {
            let mut ack = Vec::new();
            f::push_frame(&mut ack, f::SETTINGS, f::FLAG_ACK, 0, &[]);
            io.write_all(&ack).await?;
        }
        f::PING if !frame.has(f::FLAG_ACK) => {
            let mut pong = Vec::new();
            f::push_frame(&mut pong, f::PING, f::FLAG_ACK, 0, &frame.payload);
            io.write_all(&pong).await?;
        }
        f::GOAWAY => {
            let last = f::be_u32(&frame.payload, 0).context("the server sent a malformed GOAWAY")? & 0x7fff_ffff;
            let code = f::be_u32(&frame.payload, 4).unwrap_or(0);
            for state in streams.iter_mut().filter(|s| s.id > last && s.result.is_none()) {
                finish(state, Err(format!("the server refused the stream (GOAWAY {})", f::error_name(code))));
            }
        }
        // PUSH_PROMISE is refused by our SETTINGS_ENABLE_PUSH = 0.
        0x5 => bail!("the server pushed a stream although push was disabled"),
        _ => {}
    }
    Ok(())
}

/// A HEADERS or CONTINUATION frame: assembles the header block, and once it is complete decodes
/// it into `state`'s response head (`state` is `None` for a stream we do not know).
fn receive_header_block(
    decoder: &mut hpack::Decoder,
    state: Option<&mut StreamState>,
    pending: &mut Option<PendingBlock>,
    frame: &Frame,
) -> anyhow::Result<()> {
    let mut block = match (frame.kind, pending.take()) {
        (f::HEADERS, None) => PendingBlock {
            stream: frame.stream,
            block: frame.content()?.to_vec(),
            end_stream: frame.has(f::FLAG_END_STREAM),
        },
        (f::CONTINUATION, Some(mut block)) if block.stream == frame.stream => {
            block.block.extend_from_slice(&frame.payload);
            block
        }
        _ => bail!("the server sent a CONTINUATION frame out of place"),
    };
    if !frame.has(f::FLAG_END_HEADERS) {
        if block.block.len() > MAX_RESPONSE_BODY {
            bail!("the server's header block is too large");
        }
        *pending = Some(block);
        return Ok(());
    }
    // Every block is decoded, even for streams we do not know, to keep the table in step.
    let fields = decoder.decode(&block.block).context("the server's headers could not be decoded")?;
    let Some(state) = state else { return Ok(()) };
    if state.result.is_some() {
        return Ok(());
    }
    if state.headers.is_none() {
        match response_head(fields) {
            Ok(Some(head)) => state.headers = Some(head),
            // An interim 1xx answer; the real one follows.
            Ok(None) => {}
            Err(err) => finish(state, Err(err)),
        }
    }
    // A second block is trailers, ignored; END_STREAM still ends the answer.
    if std::mem::take(&mut block.end_stream) {
        complete(state);
    }
    Ok(())
}

/// A DATA frame: adds to `state`'s body (`None` for a stream we do not know), and widens the
/// stream's window once half of it is used, so large answers keep coming.
async fn receive_data<S: AsyncRead + AsyncWrite + Unpin>(
    io: &mut BufReader<S>,
    state: Option<&mut StreamState>,
    frame: &Frame,
) -> anyhow::Result<()> {
    let content = frame.content()?;
    let Some(state) = state else { return Ok(()) };
    if state.result.is_some() {
        return Ok(());
    }
    if state.headers.is_none() {
        finish(state, Err("the server sent a body before the response headers".into()));
        return Ok(());
    }
    if state.body.len() + content.len() > MAX_RESPONSE_BODY {
        finish(state, Err(format!("the answer is larger than {MAX_RESPONSE_BODY} bytes")));
        return Ok(());
    }
    state.body.extend_from_slice(content);
    state.unacknowledged += frame.payload.len() as u32;
    if frame.has(f::FLAG_END_STREAM) {
        complete(state);
    } else if state.unacknowledged > f::OUR_WINDOW / 2 {
        let mut update = Vec::new();
        f::push_window_update(&mut update, state.id, state.unacknowledged);
        io.write_all(&update).await?;
        state.unacknowledged = 0;
    }
    Ok(())
}

/// The status and headers of a final answer; `None` for an interim 1xx.
fn response_head(fields: Vec<(Vec<u8>, Vec<u8>)>) -> Result<Option<(u16, HeaderMap)>, String> {
    let mut status = None;
    let mut headers = HeaderMap::new();
    for (name, value) in fields {
        if name == b":status" {
            status = std::str::from_utf8(&value).ok().and_then(|s| s.parse::<u16>().ok());
        } else if name.first() != Some(&b':') {
            // A header the http crate cannot represent is dropped rather than failing the answer.
            if let (Ok(name), Ok(value)) = (HeaderName::from_bytes(&name), HeaderValue::from_bytes(&value)) {
                headers.append(name, value);
            }
        }
    }
    match status {
        None => Err("the server's answer has no valid :status".into()),
        Some(status) if (100..200).contains(&status) => Ok(None),
        Some(status) if status < 600 => Ok(Some((status, headers))),
        Some(status) => Err(format!("the server answered with status {status}")),
    }
}

fn complete(state: &mut StreamState) {
    let result = match state.headers.take() {
        Some((status, headers)) => Ok(Response { status, headers, body: Bytes::from(std::mem::take(&mut state.body)) }),
        None => Err("the stream ended without a final answer".to_string()),
    };
    finish(state, result);
}

fn finish(state: &mut StreamState, result: Result<Response, String>) {
    state.result = Some(result);
    state.finished_at = Some(Instant::now());
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn header_blocks_carry_pseudo_headers_and_drop_hop_headers() {
        let mut request = Request::builder()
            .method(Method::POST)
            .uri("https://api.test:8443/payments?x=1")
            .body(Bytes::from_static(b"{}"))
            .unwrap();
        request.headers_mut().insert("connection", HeaderValue::from_static("keep-alive"));
        request.headers_mut().insert("idempotency-key", HeaderValue::from_static("k1"));
        let fields = hpack::Decoder::default().decode(&header_block(&request)).unwrap();
        let names: Vec<String> = fields
            .iter()
            .map(|(n, v)| format!("{}={}", String::from_utf8_lossy(n), String::from_utf8_lossy(v)))
            .collect();
        assert_eq!(
            names,
            [
                ":method=POST",
                ":scheme=https",
                ":authority=api.test:8443",
                ":path=/payments?x=1",
                "idempotency-key=k1",
                "content-length=2"
            ]
        );
    }

    #[test]
    fn interim_and_missing_statuses() {
        assert_eq!(response_head(vec![(b":status".to_vec(), b"100".to_vec())]), Ok(None));
        assert!(response_head(vec![(b"x".to_vec(), b"y".to_vec())]).is_err());
        assert!(response_head(vec![(b":status".to_vec(), b"abc".to_vec())]).is_err());
    }
}
