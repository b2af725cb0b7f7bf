//! One plain HTTP/1.1 connection to an upstream, spoken directly: a request written in one
//! system call, its answer read back and framed as RFC 9112 §6.3 says, the connection then kept
//! for the next request when the answer allows.
//!
//! Why not hyper's client connection, which the lanes used before: it hands each request to a
//! dispatcher through a channel, gives the answer's body a channel of its own and collects it
//! frame by frame, and encodes the head from a request built for it. A forwarder that sends one
//! request at a time and reads each answer whole needs none of that; in `idem proxy` under load
//! that machinery was a tenth of the CPU per request, which `cargo bench --bench proxy` measures
//! against nginx. Everything beyond plain HTTP/1.1 (TLS, HTTP/2, concurrent streams) stays with
//! the pooled [`ForwardingClient`](crate::http::forwarding_client::ForwardingClient).
use anyhow::{anyhow, bail};
use bytes::Bytes;
use http::header::{CONNECTION, CONTENT_LENGTH, HOST, TRANSFER_ENCODING};
use http::{HeaderMap, HeaderName, HeaderValue, Method, StatusCode, Uri, Version};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

use crate::http::client::MAX_RESPONSE_BODY;

/// The most an answer's head may take, as hyper's client allowed (about 400 KiB).
const MAX_HEAD: usize = 400 * 1024;
/// The most header lines an answer may have, as hyper's client allowed.
const MAX_HEADERS: usize = 100;
/// What each read asks the socket for at least.
const READ_CHUNK: usize = 8 * 1024;
/// Bodies up to this size are copied out of the read buffer, which is then kept; a larger body
/// takes the buffer itself rather than being copied.
const COPIED_BODY: usize = 4 * 1024;

/// An open connection and what it has read but not yet used.
pub(crate) struct H1Connection {
    stream: TcpStream,
    read: Vec<u8>,
    /// The request's head is built here, kept for the next request's.
    write: Vec<u8>,
}

/// A whole answer.
pub(crate) struct Answer {
    pub parts: http::response::Parts,
    pub body: Bytes,
    /// Whether the connection can carry another request.
    pub reusable: bool,
}

/// Why an exchange failed.
pub(crate) enum ExchangeError {
    /// The connection took none of the request (the upstream had closed it): it can go out on
    /// another connection without any risk of being executed twice.
    Unsent,
    Failed(anyhow::Error),
}

impl From<anyhow::Error> for ExchangeError {
    fn from(err: anyhow::Error) -> ExchangeError {
        ExchangeError::Failed(err)
    }
}

/// How an answer's body is delimited (RFC 9112 §6.3).
enum Framing {
    Empty,
    Length(usize),
    Chunked,
    /// Until the upstream closes the connection, which then cannot be reused.
    UntilClose,
}

impl H1Connection {
    pub(crate) fn new(stream: TcpStream) -> H1Connection {
        H1Connection { stream, read: Vec::with_capacity(READ_CHUNK), write: Vec::with_capacity(512) }
    }

    /// Whether the idle connection can still be used: the upstream may have closed it since the
    /// last answer (or sent bytes no request asked for), which only a look at the socket shows.
    pub(crate) fn still_open(&self) -> bool {
        let mut probe = [0u8; 1];
        matches!(self.stream.try_read(&mut probe), Err(err) if err.kind() == std::io::ErrorKind::WouldBlock)
    }

    /// Sends a request and reads the whole answer: `uri` absolute (its authority is the `Host`),
    /// `fields` the headers to send as they are (any `Host` or framing header among them is left
    /// out: the URI and the body state those).
    pub(crate) async fn exchange<'h>(
        &mut self,
        method: &Method,
        uri: &Uri,
        fields: impl Iterator<Item = (&'h HeaderName, &'h HeaderValue)>,
        body: &Bytes,
    ) -> Result<Answer, ExchangeError> {
        encode_request(method, uri, fields, body, &mut self.write);
        self.send().await?;
        self.read_answer(method == Method::HEAD).await.map_err(ExchangeError::Failed)
    }

    /// Writes the encoded request: a connection that takes none of it failed before the request
    /// went anywhere.
    async fn send(&mut self) -> Result<(), ExchangeError> {
        let mut written = 0;
        while written < self.write.len() {
            match self.stream.write(&self.write[written..]).await {
                Ok(0) if written == 0 => return Err(ExchangeError::Unsent),
                Ok(0) => return Err(ExchangeError::Failed(anyhow!("the upstream stopped taking the request"))),
                Ok(count) => written += count,
                Err(err) if written == 0 && is_closed(&err) => return Err(ExchangeError::Unsent),
                Err(err) => return Err(ExchangeError::Failed(anyhow!("cannot send the request: {err}"))),
            }
        }
        Ok(())
    }

    async fn read_answer(&mut self, head_only: bool) -> anyhow::Result<Answer> {
        loop {
            let head = loop {
                if let Some(head) = parse_head(&self.read)? {
                    break head;
                }
                if self.read.len() > MAX_HEAD {
                    bail!("it answered with a response head over the limit of 400 KiB");
                }
                if self.read_more().await? == 0 {
                    bail!("it closed the connection before a complete answer");
                }
            };
            self.read.drain(..head.length);
            let status = head.status.as_u16();
            if status == 101 {
                bail!("it switched protocols (101) though the request asked for no upgrade");
            }
            if (100..200).contains(&status) {
                // An interim answer (100 Continue, 103 Early Hints): the final one follows.
                continue;
            }
            let framing = framing(&head, head_only)?;
            let mut reusable = keeps_alive(&head);
            let body = match framing {
                Framing::Empty => Bytes::new(),
                Framing::Length(length) => self.read_sized(length).await?,
                Framing::Chunked => self.read_chunked().await?,
                Framing::UntilClose => {
                    reusable = false;
                    self.read_until_close().await?
                }
            };
            // Bytes no request asked for: what comes next on this connection cannot be trusted.
            reusable &= self.read.is_empty();
            let mut parts = http::Response::new(()).into_parts().0;
            parts.status = head.status;
            parts.version = head.version;
            parts.headers = head.headers;
            return Ok(Answer { parts, body, reusable });
        }
    }

    async fn read_more(&mut self) -> anyhow::Result<usize> {
        self.read.reserve(READ_CHUNK);
        self.stream.read_buf(&mut self.read).await.map_err(|err| anyhow!("cannot read the answer: {err}"))
    }

    async fn read_sized(&mut self, length: usize) -> anyhow::Result<Bytes> {
        if length > MAX_RESPONSE_BODY {
            bail!("{}", body_too_large());
        }
        while self.read.len() < length {
            self.read.reserve(length - self.read.len());
            if self.read_more().await? == 0 {
                bail!("it closed the connection {} bytes into a {length}-byte body", self.read.len());
            }
        }
        if length <= COPIED_BODY || self.read.len() > length {
            let body = Bytes::copy_from_slice(&self.read[..length]);
            self.read.drain(..length);
            Ok(body)
        } else {
            Ok(Bytes::from(std::mem::take(&mut self.read)))
        }
    }

    async fn read_chunked(&mut self) -> anyhow::Result<Bytes> {
        let mut body = Vec::new();
        loop {
            let outcome = crate::http::chunked::decode(&mut self.read, &mut body, MAX_RESPONSE_BODY)
                .map_err(|err| anyhow!("it answered with a chunked body that cannot be read: {err}"))?;
            if outcome == crate::http::chunked::Chunks::Complete {
                break;
            }
            if self.read_more().await? == 0 {
                bail!("it closed the connection inside its chunked body");
            }
        }
        // The trailer section, up to the empty line that ends the message: not passed on, but
        // read, so the connection stands at the next answer.
        loop {
            if let Some(end) = self.read.windows(2).position(|pair| pair == b"\r\n") {
                self.read.drain(..end + 2);
                if end == 0 {
                    return Ok(Bytes::from(body));
                }
                continue;
            }
            if self.read.len() > MAX_HEAD {
                bail!("it answered with trailers over the limit of 400 KiB");
            }
            if self.read_more().await? == 0 {
                bail!("it closed the connection inside the trailers of its chunked body");
            }
        }
    }

    async fn read_until_close(&mut self) -> anyhow::Result<Bytes> {
        while self.read_more().await? > 0 {
            if self.read.len() > MAX_RESPONSE_BODY {
                bail!("{}", body_too_large());
            }
        }
        Ok(Bytes::from(std::mem::take(&mut self.read)))
    }
}

/// The message `collect_within_limit` gives for the same answer through the pool.
fn body_too_large() -> String {
    format!("it answered with a body over the {} limit", crate::http::body::format_size(MAX_RESPONSE_BODY as u64))
}

/// A write to a connection the peer closed fails with one of these.
fn is_closed(err: &std::io::Error) -> bool {
    use std::io::ErrorKind;
    matches!(err.kind(), ErrorKind::BrokenPipe | ErrorKind::ConnectionReset | ErrorKind::ConnectionAborted)
}

/// The request as HTTP/1.1 puts it on the wire, into `out`: origin-form target, `Host` from the
/// URI, the fields as they are, and the body framed by its length. A body-carrying method gets
/// `content-length: 0` when empty, as RFC 9110 §8.6 asks of a client.
fn encode_request<'h>(
    method: &Method,
    uri: &Uri,
    fields: impl Iterator<Item = (&'h HeaderName, &'h HeaderValue)>,
    body: &Bytes,
    out: &mut Vec<u8>,
) {
    use std::io::Write;
    out.clear();
    out.extend_from_slice(method.as_str().as_bytes());
    out.push(b' ');
    out.extend_from_slice(uri.path_and_query().map_or("/", |target| target.as_str()).as_bytes());
    out.extend_from_slice(b" HTTP/1.1\r\n");
    if let Some(host) = uri.host() {
        out.extend_from_slice(b"host: ");
        out.extend_from_slice(host.as_bytes());
        if let Some(port) = uri.port_u16().filter(|port| *port != 80) {
            let _ = write!(out, ":{port}");
        }
        out.extend_from_slice(b"\r\n");
    }
    for (name, value) in fields {
        if name == HOST || name == CONTENT_LENGTH || name == TRANSFER_ENCODING {
            continue;
        }
        out.extend_from_slice(name.as_str().as_bytes());
        out.extend_from_slice(b": ");
        out.extend_from_slice(value.as_bytes());
        out.extend_from_slice(b"\r\n");
    }
    if !body.is_empty() || matches!(*method, Method::POST | Method::PUT | Method::PATCH) {
        let _ = write!(out, "content-length: {}\r\n", body.len());
    }
    out.extend_from_slice(b"\r\n");
    out.extend_from_slice(body);
}

/// An answer's head, parsed.
struct Head {
    status: StatusCode,
    version: Version,
    headers: HeaderMap,
    /// Its length on the wire, up to and including the empty line.
    length: usize,
}

/// The head at the front of `buffer`, once all of it has arrived.
fn parse_head(buffer: &[u8]) -> anyhow::Result<Option<Head>> {
    // Uninitialised: clearing a hundred slots for every answer cost more than parsing one.
    let mut slots = [const { std::mem::MaybeUninit::<httparse::Header<'_>>::uninit() }; MAX_HEADERS];
    let mut response = httparse::Response::new(&mut []);
    let length =
        match httparse::ParserConfig::default().parse_response_with_uninit_headers(&mut response, buffer, &mut slots) {
            Ok(httparse::Status::Complete(length)) => length,
            Ok(httparse::Status::Partial) => return Ok(None),
            Err(httparse::Error::Status) => {
                bail!("it answered with an invalid status (not a three-digit code from 100 to 999)")
            }
            Err(httparse::Error::TooManyHeaders) => bail!("it answered with more than {MAX_HEADERS} header lines"),
            Err(err) => bail!("it answered with something that is not HTTP ({err})"),
        };
    let status = response
        .code
        .and_then(|code| StatusCode::from_u16(code).ok())
        .ok_or_else(|| anyhow!("it answered with an invalid status (not a three-digit code from 100 to 999)"))?;
    let version = if response.version == Some(0) { Version::HTTP_10 } else { Version::HTTP_11 };
    let mut headers = HeaderMap::with_capacity(response.headers.len());
    for header in response.headers.iter() {
        let (Ok(name), Ok(value)) =
            (HeaderName::from_bytes(header.name.as_bytes()), HeaderValue::from_bytes(header.value))
        else {
            bail!("it answered with something that is not HTTP (an invalid header line)");
        };
        headers.append(name, value);
    }
    Ok(Some(Head { status, version, headers, length }))
}

/// How the body of the answer with `head` is delimited (RFC 9112 §6.3).
fn framing(head: &Head, head_only: bool) -> anyhow::Result<Framing> {
    let status = head.status.as_u16();
    if head_only || status == 204 || status == 304 {
        return Ok(Framing::Empty);
    }
    if head.headers.contains_key(TRANSFER_ENCODING) {
        // A length beside it is ignored: the transfer coding decides.
        return Ok(if ends_in_chunked(&head.headers) { Framing::Chunked } else { Framing::UntilClose });
    }
    let mut length = None;
    for value in head.headers.get_all(CONTENT_LENGTH) {
        for item in value.to_str().unwrap_or_default().split(',') {
            let item = item.trim();
            let parsed = item
                .parse::<usize>()
                .ok()
                .filter(|_| !item.is_empty() && item.bytes().all(|byte| byte.is_ascii_digit()))
                .ok_or_else(|| anyhow!("it answered with an invalid content-length `{item}`"))?;
            if length.is_some_and(|seen| seen != parsed) {
                bail!("it answered with two different content-lengths");
            }
            length = Some(parsed);
        }
    }
    Ok(match length {
        Some(0) => Framing::Empty,
        Some(length) => Framing::Length(length),
        None => Framing::UntilClose,
    })
}

/// Whether the last transfer coding is `chunked` (only then is the body chunked; another last
/// coding makes it run until the connection closes).
fn ends_in_chunked(headers: &HeaderMap) -> bool {
    headers
        .get_all(TRANSFER_ENCODING)
        .iter()
        .next_back()
        .and_then(|value| value.to_str().ok())
        .and_then(|value| value.rsplit(',').next())
        .is_some_and(|coding| coding.trim().eq_ignore_ascii_case("chunked"))
}

/// Whether the connection stays open after this answer: HTTP/1.1 unless it says `close`,
/// HTTP/1.0 only when it says `keep-alive`.
fn keeps_alive(head: &Head) -> bool {
    let says = |token: &str| {
        head.headers
            .get_all(CONNECTION)
            .iter()
            .filter_map(|value| value.to_str().ok())
            .flat_map(|value| value.split(','))
            .any(|item| item.trim().eq_ignore_ascii_case(token))
    };
    match head.version {
        Version::HTTP_11 => !says("close"),
        _ => says("keep-alive"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use http::Request;
    use tokio::net::TcpListener;

    /// A connection to a server that reads each request whole (by its content-length) and
    /// answers it with the next of `answers`, then closes.
    async fn connection_answering(
        answers: Vec<&'static [u8]>,
    ) -> (H1Connection, tokio::task::JoinHandle<Vec<Vec<u8>>>) {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let server = tokio::spawn(async move {
            let (mut socket, _) = listener.accept().await.unwrap();
            let mut requests = Vec::new();
            let mut buffer = Vec::new();
            for answer in answers {
                let request = loop {
                    let mut slots = [httparse::EMPTY_HEADER; 32];
                    let mut parsed = httparse::Request::new(&mut slots);
                    if let Ok(httparse::Status::Complete(head)) = parsed.parse(&buffer) {
                        let length = parsed
                            .headers
                            .iter()
                            .find(|header| header.name.eq_ignore_ascii_case("content-length"))
                            .map_or(0, |header| std::str::from_utf8(header.value).unwrap().parse::<usize>().unwrap());
                        if buffer.len() >= head + length {
                            break buffer.drain(..head + length).collect::<Vec<u8>>();
                        }
                    }
                    let mut chunk = [0u8; 4096];
                    let read = socket.read(&mut chunk).await.unwrap();
                    assert!(read > 0, "the client closed before a whole request");
                    buffer.extend_from_slice(&chunk[..read]);
                };
                requests.push(request);
                socket.write_all(answer).await.unwrap();
            }
            requests
        });
        (H1Connection::new(TcpStream::connect(addr).await.unwrap()), server)
    }

    fn post(uri: &str, body: &'static str) -> Request<Bytes> {
        Request::post(uri).header("idempotency-key", "k1").body(Bytes::from_static(body.as_bytes())).unwrap()
    }

    async fn send(connection: &mut H1Connection, request: &Request<Bytes>) -> Result<Answer, ExchangeError> {
        connection.exchange(request.method(), request.uri(), request.headers().iter(), request.body()).await
    }

    async fn answer(connection: &mut H1Connection, request: &Request<Bytes>) -> Answer {
        match send(connection, request).await {
            Ok(answer) => answer,
            Err(ExchangeError::Unsent) => panic!("unsent"),
            Err(ExchangeError::Failed(err)) => panic!("failed: {err:#}"),
        }
    }

    async fn failure(connection: &mut H1Connection, request: &Request<Bytes>) -> String {
        match send(connection, request).await {
            Ok(answer) => panic!("answered {}", answer.parts.status),
            Err(ExchangeError::Unsent) => "unsent".to_string(),
            Err(ExchangeError::Failed(err)) => format!("{err:#}"),
        }
    }

    #[tokio::test]
    async fn the_request_goes_out_with_host_and_length_and_answers_come_back_on_one_connection() {
        let (mut connection, server) = connection_answering(vec![
            b"HTTP/1.1 201 Created\r\nContent-Type: application/json\r\nContent-Length: 13\r\n\r\n{\"id\":\"p_1\"}\n",
            b"HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n2;x=1\r\nde\r\n0\r\nX-Trailer: t\r\n\r\n",
            b"HTTP/1.1 204 No Content\r\nContent-Length: 0\r\n\r\n",
        ])
        .await;
        let first = answer(&mut connection, &post("http://127.0.0.1:8080/payments?x=1", r#"{"amount":1}"#)).await;
        assert_eq!(first.parts.status, StatusCode::CREATED);
        assert_eq!(first.parts.headers["content-type"], "application/json");
        assert_eq!(&first.body[..], b"{\"id\":\"p_1\"}\n");
        assert!(first.reusable && connection.still_open());
        let second = answer(&mut connection, &post("http://127.0.0.1:8080/payments", "")).await;
        assert_eq!((second.parts.status, &second.body[..]), (StatusCode::OK, &b"abcde"[..]));
        assert!(second.reusable, "the trailers were read to the end of the message");
        let get = Request::get("http://api.example/status").header("host", "elsewhere").body(Bytes::new()).unwrap();
        let third = answer(&mut connection, &get).await;
        assert_eq!((third.parts.status, third.body.len()), (StatusCode::NO_CONTENT, 0));

        let requests = server.await.unwrap();
        assert_eq!(
            String::from_utf8(requests[0].clone()).unwrap(),
            "POST /payments?x=1 HTTP/1.1\r\nhost: 127.0.0.1:8080\r\nidempotency-key: k1\r\ncontent-length: 12\r\n\r\n{\"amount\":1}"
        );
        assert!(String::from_utf8_lossy(&requests[1]).ends_with("content-length: 0\r\n\r\n"), "an empty POST says so");
        assert_eq!(
            String::from_utf8(requests[2].clone()).unwrap(),
            "GET /status HTTP/1.1\r\nhost: api.example\r\n\r\n"
        );
    }

    #[tokio::test]
    async fn an_answer_without_a_length_runs_until_close_and_ends_the_connection() {
        let (mut connection, _server) =
            connection_answering(vec![b"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\r\nall of it"]).await;
        let answer = answer(&mut connection, &post("http://127.0.0.1/x", "a")).await;
        assert_eq!(&answer.body[..], b"all of it");
        assert!(!answer.reusable);
    }

    #[tokio::test]
    async fn connection_close_http_1_0_and_extra_bytes_end_the_connection() {
        for (wire, reusable) in [
            (&b"HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 2\r\n\r\nok"[..], false),
            (b"HTTP/1.0 200 OK\r\nContent-Length: 2\r\n\r\nok", false),
            (b"HTTP/1.0 200 OK\r\nConnection: keep-alive\r\nContent-Length: 2\r\n\r\nok", true),
            (b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nokEXTRA", false),
        ] {
            let (mut connection, _server) = connection_answering(vec![wire]).await;
            let answer = answer(&mut connection, &post("http://127.0.0.1/x", "a")).await;
            assert_eq!(
                (&answer.body[..], answer.reusable),
                (&b"ok"[..], reusable),
                "{}",
                String::from_utf8_lossy(wire)
            );
        }
    }

    #[tokio::test]
    async fn a_head_request_reads_no_body_whatever_the_length_says() {
        let (mut connection, _server) =
            connection_answering(vec![b"HTTP/1.1 200 OK\r\nContent-Length: 50\r\n\r\n"]).await;
        let head = Request::head("http://127.0.0.1/x").body(Bytes::new()).unwrap();
        let answer = answer(&mut connection, &head).await;
        assert_eq!((answer.parts.headers["content-length"].as_bytes(), answer.body.len()), (&b"50"[..], 0));
        assert!(answer.reusable);
    }

    #[tokio::test]
    async fn bad_answers_fail_with_what_was_wrong() {
        for (wire, expected) in [
            (&b"SSH-2.0-OpenSSH_9.6\r\n"[..], "not HTTP"),
            (b"HTTP/1.1 999999 Odd\r\nContent-Length: 0\r\n\r\n", "invalid status"),
            (b"HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nshort", "5 bytes into a 10-byte body"),
            (b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\nabc", "two different content-lengths"),
            (b"HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\n", "invalid content-length"),
            (b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n", "malformed chunk size"),
            (b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nab", "inside its chunked body"),
            (b"HTTP/1.1 101 Switching Protocols\r\n\r\n", "switched protocols"),
            (b"HTTP/1.1 200 OK\r\nContent-Le", "before a complete answer"),
        ] {
            let (mut connection, server) = connection_answering(vec![wire]).await;
            let request = post("http://127.0.0.1/x", "a");
            // The server closes once it has answered, so every truncated answer ends there.
            let message = failure(&mut connection, &request).await;
            assert!(message.contains(expected), "{}: {message}", String::from_utf8_lossy(wire));
            server.await.unwrap();
        }
    }

    #[tokio::test]
    async fn a_connection_the_upstream_closed_while_idle_is_seen_closed_and_takes_nothing() {
        let (mut connection, server) =
            connection_answering(vec![b"HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n"]).await;
        answer(&mut connection, &post("http://127.0.0.1/x", "a")).await;
        server.await.unwrap();
        // The server's side is closed; readiness reaches the client's socket soon after.
        let mut seen_closed = false;
        for _ in 0..200 {
            if !connection.still_open() {
                seen_closed = true;
                break;
            }
            tokio::time::sleep(std::time::Duration::from_millis(5)).await;
        }
        assert!(seen_closed, "the closed connection still looked open");
    }
}
