//! Last-byte synchronisation over HTTP/1.1, for servers without HTTP/2: one connection per
//! duplicate, opened and handshaked first, each request written but for its final byte; after a
//! pause for those bytes to reach the server, every final byte goes out in one batched submission
//! (`batch`: io_uring, else a loop of non-blocking sends). Nagle is off, so each byte leaves the
//! moment the kernel takes it.
use std::time::{Duration, Instant};

use anyhow::{Context, bail};
use bytes::Bytes;
use http::header::{HeaderMap, HeaderName, HeaderValue};
use http::{Method, Request};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

use super::answer::{Answer, Release, Response, incomplete};
use super::batch::{self, Held};
use super::connect::{BoxStream, Connector};
use super::pacing;
use crate::http::chunked::{self, Chunks};
use crate::http::client::MAX_RESPONSE_BODY;

/// How long the prefixes get to reach the server before the release, at least: on loopback a few
/// milliseconds is plenty; further away, twice the slowest connection set-up is used.
const MIN_SETTLE: Duration = Duration::from_millis(5);
const MAX_SETTLE: Duration = Duration::from_millis(250);

/// Races `requests` over fresh connections, request `i` through `connectors[i % len]` (one
/// connector per target with `--also`). `first` is an already open connection to the first
/// target to reuse (the one `auto` probed ALPN with). With `stagger`, duplicate `k` (from 0) gets
/// its final byte `k × stagger` after the first instead of all at once.
pub(crate) async fn race(
    connectors: &[Connector],
    first: Option<BoxStream>,
    requests: &[Request<Bytes>],
    timeout: Duration,
    stagger: Option<Duration>,
) -> anyhow::Result<(Vec<Answer>, Release)> {
    if connectors.is_empty() {
        bail!("a race needs at least one target");
    }
    let started = Instant::now();
    let mut streams: Vec<BoxStream> = Vec::with_capacity(requests.len());
    streams.extend(first);
    // Open the rest concurrently: N sequential handshakes would take N round trips.
    let mut opening = tokio::task::JoinSet::new();
    for index in streams.len()..requests.len() {
        let connector = connectors[super::across::target_of(index, connectors.len())].clone();
        opening.spawn(async move { (index, connector.connect().await) });
    }
    let mut opened: Vec<(usize, BoxStream)> = Vec::new();
    while let Some(joined) = opening.join_next().await {
        let (index, connected) = joined.context("a connection task failed")?;
        opened.push((index, connected?.stream));
    }
    opened.sort_by_key(|(index, _)| *index);
    streams.extend(opened.into_iter().map(|(_, stream)| stream));
    let settle = (started.elapsed() * 2).clamp(MIN_SETTLE, MAX_SETTLE);

    let mut finals = Vec::with_capacity(requests.len());
    for (stream, request) in streams.iter_mut().zip(requests) {
        let mut bytes = serialize(request);
        let last = bytes.pop().unwrap_or(b'\n');
        stream.write_all(&bytes).await.context("cannot send a request")?;
        stream.flush().await.context("cannot send a request")?;
        finals.push(last);
    }
    tokio::time::sleep(settle).await;

    // The release. Together: every connection's final byte is prepared first (sealed into its TLS
    // record on https), then all of them go to the kernel in one batched submission (`batch`),
    // and the readers start after it. Staggered: each byte goes through its stream at its
    // moment, and that connection is read from then on, so its latency is not inflated by the
    // releases after it.
    let mut reading = tokio::task::JoinSet::new();
    let head_only = |index: usize| requests[index].method() == Method::HEAD;
    let release = match stagger {
        None => {
            let held = streams
                .iter_mut()
                .zip(&finals)
                .map(|(stream, last)| Held::prepare(stream, &[*last]))
                .collect::<anyhow::Result<Vec<_>>>()?;
            let mut connections: Vec<&mut BoxStream> = streams.iter_mut().collect();
            let released = batch::release(&mut connections, &held).await?;
            for (index, stream) in streams.into_iter().enumerate() {
                let at = released.started + released.offsets.get(index).copied().unwrap_or_default();
                spawn_reader(&mut reading, index, stream, at, head_only(index), timeout);
            }
            Release {
                writes: released.writes,
                bytes: finals.len(),
                spread: released.spread,
                offsets: released.offsets,
                batch: Some(released.batch),
            }
        }
        Some(stagger) => {
            let mut offsets = Vec::with_capacity(streams.len());
            let mut first_write = None;
            for (index, (mut stream, last)) in streams.into_iter().zip(finals).enumerate() {
                if let Some(first) = first_write {
                    pacing::wait_until(pacing::moment(first, stagger, index)).await;
                }
                let at = Instant::now();
                let first_write = *first_write.get_or_insert(at);
                stream.write_all(&[last]).await.context("cannot release a final byte")?;
                stream.flush().await.context("cannot release a final byte")?;
                offsets.push(at.saturating_duration_since(first_write));
                spawn_reader(&mut reading, index, stream, at, head_only(index), timeout);
            }
            let spread = offsets.last().copied().unwrap_or_default();
            Release { writes: offsets.len(), bytes: offsets.len(), spread, offsets, batch: None }
        }
    };

    let mut answers: Vec<Option<Answer>> = (0..requests.len()).map(|_| None).collect();
    while let Some(joined) = reading.join_next().await {
        let (index, answer) = joined.context("a reading task failed")?;
        answers[index] = Some(answer);
    }
    let answers = answers
        .into_iter()
        .map(|answer| answer.unwrap_or(Answer { outcome: Err("no answer was read".into()), latency: None }))
        .collect();
    Ok((answers, release))
}

/// Reads one connection's answer, within `timeout` of its release at `released`.
fn spawn_reader(
    reading: &mut tokio::task::JoinSet<(usize, Answer)>,
    index: usize,
    stream: BoxStream,
    released: Instant,
    head_only: bool,
    timeout: Duration,
) {
    reading.spawn(async move {
        let deadline = tokio::time::Instant::from_std(released + timeout);
        let mut progress = Progress::default();
        let result = tokio::time::timeout_at(deadline, read_response(stream, head_only, &mut progress)).await;
        let within = format!("within {}", crate::units::format_duration(timeout));
        let outcome = match (result, progress.head) {
            (Ok(Ok(response)), _) => Ok(response),
            (Ok(Err(err)), Some(status)) => {
                Err(incomplete(status, progress.body_bytes, progress.body_length, &format!("({err:#})")))
            }
            (Ok(Err(err)), None) => Err(format!("{err:#}")),
            (Err(_), Some(status)) => Err(incomplete(status, progress.body_bytes, progress.body_length, &within)),
            (Err(_), None) if progress.head_bytes > 0 => {
                Err(format!("{} bytes of a response head, which never completed {within}", progress.head_bytes))
            }
            (Err(_), None) => Err(format!("no answer {within}")),
        };
        (index, Answer { latency: outcome.is_ok().then(|| released.elapsed()), outcome })
    });
}

/// How far an answer got, kept outside the reading future so a timeout can still say it.
#[derive(Debug, Default)]
pub(crate) struct Progress {
    /// Bytes of the response head read so far, before it was complete.
    pub head_bytes: usize,
    /// The final status, once the head is complete.
    pub head: Option<u16>,
    pub body_bytes: usize,
    /// The declared content-length, if any.
    pub body_length: Option<usize>,
}

/// The request as HTTP/1.1 bytes. `Connection: close` since each connection carries one request.
pub(crate) fn serialize(request: &Request<Bytes>) -> Vec<u8> {
    let uri = request.uri();
    let path = uri.path_and_query().map(|p| p.as_str()).filter(|p| !p.is_empty()).unwrap_or("/");
    let mut out = format!("{} {path} HTTP/1.1\r\n", request.method()).into_bytes();
    let headers = request.headers();
    if !headers.contains_key(http::header::HOST) {
        let authority = uri.authority().map(|a| a.as_str()).unwrap_or_default();
        out.extend_from_slice(format!("host: {authority}\r\n").as_bytes());
    }
    for (name, value) in headers {
        if name == http::header::CONNECTION
            || name == http::header::CONTENT_LENGTH
            || name == http::header::TRANSFER_ENCODING
        {
            continue;
        }
        out.extend_from_slice(name.as_str().as_bytes());
        out.extend_from_slice(b": ");
        out.extend_from_slice(value.as_bytes());
        out.extend_from_slice(b"\r\n");
    }
    let body = request.body();
    if !body.is_empty() || matches!(*request.method(), Method::POST | Method::PUT | Method::PATCH) {
        out.extend_from_slice(format!("content-length: {}\r\n", body.len()).as_bytes());
    }
    out.extend_from_slice(b"connection: close\r\n\r\n");
    out.extend_from_slice(body);
    out
}

/// Reads one HTTP/1.1 response: skips interim 1xx answers, then reads the body by
/// content-length, chunked encoding, or until the server closes. `progress` says how far it got,
/// for when it never finishes.
pub(crate) async fn read_response(
    mut stream: BoxStream,
    head_only: bool,
    progress: &mut Progress,
) -> anyhow::Result<Response> {
    let mut buffer: Vec<u8> = Vec::with_capacity(4096);
    loop {
        let (status, headers, head_len) = loop {
            if let Some(head) = parse_head(&buffer)? {
                break head;
            }
            if buffer.len() > 64 * 1024 {
                bail!("the response headers are larger than 64 KiB");
            }
            if read_more(&mut stream, &mut buffer).await? == 0 {
                bail!("the server closed the connection before answering");
            }
            progress.head_bytes = buffer.len();
        };
        buffer.drain(..head_len);
        if (100..200).contains(&status) && status != 101 {
            continue;
        }
        progress.head = Some(status);
        let bodiless = head_only || status == 204 || status == 304 || (100..200).contains(&status);
        let body = if bodiless {
            Vec::new()
        } else if chunked::is_chunked(&headers) {
            read_chunked(&mut stream, buffer, progress).await?
        } else if let Some(length) = content_length(&headers)? {
            if length > MAX_RESPONSE_BODY {
                bail!("the answer is larger than {MAX_RESPONSE_BODY} bytes");
            }
            progress.body_length = Some(length);
            progress.body_bytes = buffer.len();
            while buffer.len() < length {
                if read_more(&mut stream, &mut buffer).await? == 0 {
                    bail!("the server closed the connection {} bytes into a {length}-byte body", buffer.len());
                }
                progress.body_bytes = buffer.len();
            }
            buffer.truncate(length);
            buffer
        } else {
            progress.body_bytes = buffer.len();
            while read_more(&mut stream, &mut buffer).await? > 0 {
                progress.body_bytes = buffer.len();
                if buffer.len() > MAX_RESPONSE_BODY {
                    bail!("the answer is larger than {MAX_RESPONSE_BODY} bytes");
                }
            }
            buffer
        };
        return Ok(Response { status, headers, body: Bytes::from(body) });
    }
}

async fn read_more(stream: &mut BoxStream, buffer: &mut Vec<u8>) -> anyhow::Result<usize> {
    let mut chunk = [0u8; 16 * 1024];
    let read = stream.read(&mut chunk).await.context("cannot read the answer")?;
    buffer.extend_from_slice(&chunk[..read]);
    Ok(read)
}

/// The status, headers and head length, once the head is complete.
fn parse_head(buffer: &[u8]) -> anyhow::Result<Option<(u16, HeaderMap, usize)>> {
    let mut slots = [httparse::EMPTY_HEADER; 128];
    let mut response = httparse::Response::new(&mut slots);
    let status = response.parse(buffer).context("the server's answer is not valid HTTP/1.1")?;
    let httparse::Status::Complete(head_len) = status else { return Ok(None) };
    let code = response.code.context("the server's answer has no status")?;
    let mut headers = HeaderMap::new();
    for header in response.headers.iter() {
        if let (Ok(name), Ok(value)) =
            (HeaderName::from_bytes(header.name.as_bytes()), HeaderValue::from_bytes(header.value))
        {
            headers.append(name, value);
        }
    }
    Ok(Some((code, headers, head_len)))
}

fn content_length(headers: &HeaderMap) -> anyhow::Result<Option<usize>> {
    let Some(value) = headers.get(http::header::CONTENT_LENGTH) else { return Ok(None) };
    let text = value.to_str().unwrap_or_default().trim();
    text.parse::<usize>().map(Some).with_context(|| format!("the server sent an invalid content-length `{text}`"))
}

/// Decodes a chunked body; `buffer` holds what was read after the head.
async fn read_chunked(stream: &mut BoxStream, mut buffer: Vec<u8>, progress: &mut Progress) -> anyhow::Result<Vec<u8>> {
    let mut body = Vec::new();
    loop {
        let outcome = chunked::decode(&mut buffer, &mut body, MAX_RESPONSE_BODY)
            .map_err(|err| anyhow::anyhow!("the server's answer: {err}"))?;
        progress.body_bytes = body.len();
        if outcome == Chunks::Complete {
            return Ok(body);
        }
        if read_more(stream, &mut buffer).await? == 0 {
            bail!("the server closed the connection inside its chunked body");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stream_of(bytes: &'static [u8]) -> BoxStream {
        let (client, mut server) = tokio::io::duplex(64 * 1024);
        tokio::spawn(async move {
            let _ = server.write_all(bytes).await;
        });
        Box::new(client)
    }

    #[tokio::test]
    async fn responses_by_length_chunks_and_close() {
        let by_length = read_response(
            stream_of(
                b"HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 201 Created\r\ncontent-length: 4\r\nx-a: b\r\n\r\nbodyEXTRA",
            ),
            false,
            &mut Progress::default(),
        )
        .await
        .unwrap();
        assert_eq!((by_length.status, by_length.body.as_ref()), (201, &b"body"[..]));
        assert_eq!(by_length.headers["x-a"], "b");
        let chunked = read_response(
            stream_of(b"HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n3\r\nabc\r\n2;x=y\r\nde\r\n0\r\n\r\n"),
            false,
            &mut Progress::default(),
        )
        .await
        .unwrap();
        assert_eq!(chunked.body.as_ref(), b"abcde");
        let closed = read_response(stream_of(b"HTTP/1.1 200 OK\r\n\r\nuntil close"), false, &mut Progress::default())
            .await
            .unwrap();
        assert_eq!(closed.body.as_ref(), b"until close");
    }

    #[tokio::test]
    async fn broken_responses_are_errors() {
        for bytes in [
            &b"garbage\r\n\r\n"[..],
            b"HTTP/1.1 200 OK\r\ncontent-length: 10\r\n\r\nshort",
            b"HTTP/1.1 200 OK\r\ncontent-length: x\r\n\r\n",
            b"HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\nzz\r\n",
            b"",
        ] {
            assert!(
                read_response(stream_of(bytes), false, &mut Progress::default()).await.is_err(),
                "{}",
                String::from_utf8_lossy(bytes)
            );
        }
    }

    #[test]
    fn requests_serialize_with_host_and_length() {
        let request =
            Request::builder().method(Method::POST).uri("http://h:1/p?q").body(Bytes::from_static(b"{}")).unwrap();
        let text = String::from_utf8(serialize(&request)).unwrap();
        assert_eq!(text, "POST /p?q HTTP/1.1\r\nhost: h:1\r\ncontent-length: 2\r\nconnection: close\r\n\r\n{}");
    }
}
