//! The server side of plain HTTP/1.1, spoken directly for `idem proxy`: each request's head and
//! body are read into the connection's buffer, handed to the service whole, and its answer is
//! written back in one system call.
//!
//! Why not hyper's server connection, which serves everything else: it gives each request's body
//! a channel of its own that the handler drains frame by frame (a task wake-up and a timer per
//! request), and dispatches the answer through a state machine built for streaming both ways. A
//! forwarder that reads each request whole before forwarding it needs none of that; in
//! `idem proxy` under load hyper's connection was an eighth of the CPU per request, which
//! `cargo bench --bench proxy` measures against nginx.
//!
//! Only what this file speaks is served here. Anything else is handed, with the bytes already
//! read, to hyper's server for the rest of the connection: HTTP/2 with prior knowledge, HTTP/1.0,
//! chunked bodies, `Expect`, upgrades, CONNECT, bodies over [`MAX_BODY`], heads over
//! [`MAX_HEAD`] or with more than [`MAX_HEADERS`] lines, and whatever fails to parse. A hand-over
//! only ever happens at the start of a request, so hyper reads a well-formed stream and answers
//! the odd request the way it always has.
//!
//! What hyper's server did and this path keeps: a client that closes its connection while its
//! request is handled cancels the handler; an answer without `Date` gets one; an empty answer to
//! anything but HEAD says `content-length: 0`, and 1xx, 204 and 304 carry no body; a request that
//! says `Connection: close`, or one the server's stop finds in flight, is answered with
//! `connection: close` and the connection closed.
use std::cell::RefCell;
use std::mem::MaybeUninit;
use std::ops::Range;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use bytes::{Bytes, BytesMut};
use http::header::{CONNECTION, CONTENT_LENGTH, DATE, TRAILER, TRANSFER_ENCODING};
use http::{HeaderName, HeaderValue, Method, Request, Response, StatusCode, Uri, Version};
use http_body_util::Full;
use hyper::body::{Body, Frame, Incoming, SizeHint};
use hyper::service::Service;
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt, ReadBuf};
use tokio::net::TcpStream;
use tokio::sync::oneshot;

use crate::http::connection_watch::{Activity, Control};
use crate::http::request_body::BodyStalled;

type BoxError = Box<dyn std::error::Error + Send + Sync>;

/// Heads longer than this go to hyper, which allows about 400 KiB.
const MAX_HEAD: usize = 64 * 1024;
/// Requests with more header lines go to hyper, which answers 431 past its own limit (100).
const MAX_HEADERS: usize = 64;
/// Bodies longer than this go to hyper, which streams them to the handler under its own limit.
const MAX_BODY: usize = 1024 * 1024;
/// What each read asks the socket for at least.
const READ_CHUNK: usize = 8 * 1024;
/// Answers' bodies up to this size are copied behind their head and go out in the same write.
const COPIED_BODY: usize = 64 * 1024;

/// A request's body as the server read it.
pub(crate) enum ServedBody {
    /// Read by hyper's server (TLS, HTTP/2, and whatever this path hands over).
    Streaming(Incoming),
    /// Read whole here.
    Read(Option<Bytes>),
    /// No body bytes came for this long: read as a [`BodyStalled`] error, as hyper's body is by
    /// `read_body_within`.
    Stalled(Duration),
    /// The client closed the connection before the whole body came.
    Cut,
}

impl Body for ServedBody {
    type Data = Bytes;
    type Error = BoxError;

    fn poll_frame(self: Pin<&mut Self>, context: &mut Context<'_>) -> Poll<Option<Result<Frame<Bytes>, BoxError>>> {
        let this = self.get_mut();
        match this {
            ServedBody::Streaming(incoming) => {
                Pin::new(incoming).poll_frame(context).map(|frame| frame.map(|frame| frame.map_err(Into::into)))
            }
            ServedBody::Read(bytes) => Poll::Ready(bytes.take().map(|bytes| Ok(Frame::data(bytes)))),
            ServedBody::Stalled(waited) => {
                let stalled = BodyStalled { waited: *waited };
                *this = ServedBody::Read(None);
                Poll::Ready(Some(Err(Box::new(stalled))))
            }
            ServedBody::Cut => {
                *this = ServedBody::Read(None);
                Poll::Ready(Some(Err("the client closed the connection before the whole body came".into())))
            }
        }
    }

    fn is_end_stream(&self) -> bool {
        match self {
            ServedBody::Streaming(incoming) => incoming.is_end_stream(),
            ServedBody::Read(bytes) => bytes.is_none(),
            ServedBody::Stalled(_) | ServedBody::Cut => false,
        }
    }

    fn size_hint(&self) -> SizeHint {
        match self {
            ServedBody::Streaming(incoming) => incoming.size_hint(),
            ServedBody::Read(bytes) => SizeHint::with_exact(bytes.as_ref().map_or(0, |bytes| bytes.len() as u64)),
            ServedBody::Stalled(_) | ServedBody::Cut => SizeHint::default(),
        }
    }
}

/// How a connection served here ended.
pub(crate) enum Served {
    /// Closed, or to be dropped.
    Ended,
    /// Its next request is for hyper's server: the socket with what was read of it, and the
    /// watchdog's receiver.
    HandOver { stream: Prefixed, control: oneshot::Receiver<Control> },
}

/// Where a header's name and value lie in the head.
struct Field {
    name: Range<usize>,
    value: Range<usize>,
}

/// A head this path serves, as positions in the read buffer (its fields beside it).
struct Head {
    length: usize,
    method: Range<usize>,
    target: Range<usize>,
    content_length: usize,
    close: bool,
}

enum Parsed {
    Complete(Head),
    Partial,
    /// For hyper's server.
    NotHere,
}

/// Serves `stream`'s requests with `service` until the connection ends or its watchdog says
/// otherwise, or hands it over when a request needs hyper.
pub(crate) async fn serve<S>(
    mut stream: TcpStream,
    service: &S,
    activity: &Arc<Activity>,
    mut control: oneshot::Receiver<Control>,
    body_progress: Duration,
) -> Served
where
    S: Service<Request<ServedBody>, Response = Response<Full<Bytes>>>,
{
    let mut read = BytesMut::with_capacity(READ_CHUNK);
    let mut write = Vec::with_capacity(1024);
    let mut fields = Vec::new();
    loop {
        let head = loop {
            match parse(&read, &mut fields) {
                Parsed::Complete(head) => break head,
                Parsed::NotHere => return hand_over(stream, read, control),
                Parsed::Partial if read.len() >= MAX_HEAD => return hand_over(stream, read, control),
                Parsed::Partial => {}
            }
            read.reserve(READ_CHUNK);
            tokio::select! {
                biased;
                // Idle for too long, or the server stopping: no request is in flight, so close.
                _ = &mut control => return Served::Ended,
                count = stream.read_buf(&mut read) => match count {
                    Ok(0) | Err(_) => return Served::Ended,
                    Ok(_) => {}
                },
            }
        };
        let Some(parts) = request_parts(&mut read, &head, &fields) else {
            // A method, target or field the http crate refuses: hyper says why, as before.
            return hand_over(stream, read, control);
        };
        let mut close = head.close;
        // In a handler from here, as under hyper: the idle watchdog leaves a body being read alone
        // (its own progress timeout bounds it).
        let active = activity.begin();
        let body = match read_body(&mut stream, &mut read, head.content_length, body_progress).await {
            Ok(body) => body,
            Err(body) => {
                // The rest of the body may still come: this connection cannot carry another request.
                close = true;
                body
            }
        };
        let method = parts.method.clone();
        let handled = service.call(Request::from_parts(parts, body));
        let Some(answered) = answer_unless_closed(handled, &mut stream, &mut read).await else {
            return Served::Ended;
        };
        drop(active);
        // An error is an answer dropped on purpose: the connection closes without one.
        let Ok(response) = answered else { return Served::Ended };
        // A stop while the request was handled: answer it, then close (hyper's graceful stop).
        if control.try_recv().is_ok() {
            close = true;
        }
        let (response, body) = response.into_parts();
        let body = body_bytes(body);
        write.clear();
        let send_body = encode_head(&mut write, &method, &response, body.len(), close);
        let sent = if send_body && body.len() <= COPIED_BODY {
            write.extend_from_slice(&body);
            stream.write_all(&write).await
        } else if send_body {
            match stream.write_all(&write).await {
                Ok(()) => stream.write_all(&body).await,
                err => err,
            }
        } else {
            stream.write_all(&write).await
        };
        if sent.is_err() || close {
            let _ = stream.shutdown().await;
            return Served::Ended;
        }
    }
}

fn hand_over(stream: TcpStream, read: BytesMut, control: oneshot::Receiver<Control>) -> Served {
    Served::HandOver { stream: Prefixed { read: read.freeze(), stream }, control }
}

/// Parses the head at the start of `read`, if it is whole and this path serves it.
fn parse(read: &[u8], fields: &mut Vec<Field>) -> Parsed {
    if read.is_empty() {
        return Parsed::Partial;
    }
    let mut slots = [const { MaybeUninit::<httparse::Header<'_>>::uninit() }; MAX_HEADERS];
    let mut request = httparse::Request::new(&mut []);
    let length = match request.parse_with_uninit_headers(read, &mut slots) {
        Ok(httparse::Status::Complete(length)) => length,
        Ok(httparse::Status::Partial) => return Parsed::Partial,
        // Not HTTP/1.x (an HTTP/2 preface), too many headers, or malformed.
        Err(_) => return Parsed::NotHere,
    };
    let (Some(method), Some(target), Some(1)) = (request.method, request.path, request.version) else {
        return Parsed::NotHere;
    };
    if method == "CONNECT" {
        return Parsed::NotHere;
    }
    let at = |part: &[u8]| {
        let start = part.as_ptr() as usize - read.as_ptr() as usize;
        start..start + part.len()
    };
    fields.clear();
    let mut content_length = None;
    let mut close = false;
    for header in request.headers.iter() {
        let name = header.name.as_bytes();
        if name.eq_ignore_ascii_case(b"content-length") {
            match (content_length, parse_length(header.value)) {
                (None, Some(length)) if length <= MAX_BODY => content_length = Some(length),
                // Repeated, invalid or too long for this path.
                _ => return Parsed::NotHere,
            }
        } else if name.eq_ignore_ascii_case(b"transfer-encoding")
            || name.eq_ignore_ascii_case(b"expect")
            || name.eq_ignore_ascii_case(b"upgrade")
        {
            return Parsed::NotHere;
        } else if name.eq_ignore_ascii_case(b"connection") {
            for token in header.value.split(|byte| *byte == b',') {
                let token = token.trim_ascii();
                if token.eq_ignore_ascii_case(b"upgrade") {
                    return Parsed::NotHere;
                }
                close |= token.eq_ignore_ascii_case(b"close");
            }
        }
        fields.push(Field { name: at(header.name.as_bytes()), value: at(header.value) });
    }
    Parsed::Complete(Head {
        length,
        method: at(method.as_bytes()),
        target: at(target.as_bytes()),
        content_length: content_length.unwrap_or(0),
        close,
    })
}

/// A Content-Length's value: digits only, as RFC 9110 §8.6 has it.
fn parse_length(value: &[u8]) -> Option<usize> {
    if value.is_empty() || value.len() > 18 || !value.iter().all(u8::is_ascii_digit) {
        return None;
    }
    std::str::from_utf8(value).ok()?.parse().ok()
}

/// The request's head, its target and field values sharing the read buffer's bytes; `None`, with
/// `read` as it was, when the http crate refuses a part of it.
fn request_parts(read: &mut BytesMut, head: &Head, fields: &[Field]) -> Option<http::request::Parts> {
    let bytes = read.split_to(head.length).freeze();
    let built = parts_of(&bytes, head, fields);
    if built.is_none() {
        unsplit_head(read, bytes);
    }
    built
}

fn parts_of(bytes: &Bytes, head: &Head, fields: &[Field]) -> Option<http::request::Parts> {
    let (mut parts, ()) = Request::new(()).into_parts();
    parts.method = Method::from_bytes(&bytes[head.method.clone()]).ok()?;
    parts.uri = Uri::from_maybe_shared(bytes.slice(head.target.clone())).ok()?;
    parts.version = Version::HTTP_11;
    parts.headers.reserve(fields.len());
    for field in fields {
        let name = HeaderName::from_bytes(&bytes[field.name.clone()]).ok()?;
        parts.headers.append(name, HeaderValue::from_maybe_shared(bytes.slice(field.value.clone())).ok()?);
    }
    Some(parts)
}

/// Puts a head split off the buffer back in front of it, for hyper to read.
fn unsplit_head(read: &mut BytesMut, head: Bytes) {
    let mut whole = BytesMut::with_capacity(head.len() + read.len());
    whole.extend_from_slice(&head);
    whole.extend_from_slice(read);
    *read = whole;
}

/// Reads a body of `length` bytes; `Err` with the body the handler gets instead when it stalled
/// or the client went away.
async fn read_body(
    stream: &mut TcpStream,
    read: &mut BytesMut,
    length: usize,
    progress: Duration,
) -> Result<ServedBody, ServedBody> {
    if length == 0 {
        return Ok(ServedBody::Read(None));
    }
    while read.len() < length {
        read.reserve(length - read.len());
        match tokio::time::timeout(progress, stream.read_buf(read)).await {
            Err(_) => return Err(ServedBody::Stalled(progress)),
            Ok(Ok(0) | Err(_)) => return Err(ServedBody::Cut),
            Ok(Ok(_)) => {}
        }
    }
    Ok(ServedBody::Read(Some(read.split_to(length).freeze())))
}

/// The handler's answer, or `None` when the client closed the connection first (the handler is
/// then dropped, as hyper's server drops it). Bytes of a next request that come meanwhile are
/// kept in `read`.
async fn answer_unless_closed<F: Future>(handled: F, stream: &mut TcpStream, read: &mut BytesMut) -> Option<F::Output> {
    let mut handled = std::pin::pin!(handled);
    loop {
        // Only while nothing is waiting in the buffer, as hyper: a pipelining client is not read
        // ahead of without bound.
        let watch_for_close = read.is_empty();
        tokio::select! {
            biased;
            answered = &mut handled => return Some(answered),
            count = stream.read_buf(read), if watch_for_close => match count {
                Ok(0) | Err(_) => return None,
                Ok(_) => {}
            },
        }
    }
}

/// The answer's body: `Full` yields its one frame at once and cannot fail.
fn body_bytes(mut body: Full<Bytes>) -> Bytes {
    let mut context = Context::from_waker(std::task::Waker::noop());
    match Pin::new(&mut body).poll_frame(&mut context) {
        Poll::Ready(Some(Ok(frame))) => frame.into_data().unwrap_or_default(),
        _ => Bytes::new(),
    }
}

/// Writes the answer's status line and fields as hyper's server does for HTTP/1.1; whether its
/// body goes after them.
fn encode_head(
    write: &mut Vec<u8>,
    method: &Method,
    response: &http::response::Parts,
    body_length: usize,
    close: bool,
) -> bool {
    let status = response.status;
    if status == StatusCode::OK {
        write.extend_from_slice(b"HTTP/1.1 200 OK\r\n");
    } else {
        write.extend_from_slice(b"HTTP/1.1 ");
        write.extend_from_slice(status.as_str().as_bytes());
        write.push(b' ');
        // A reason must be written: many parsers expect one.
        write.extend_from_slice(status.canonical_reason().unwrap_or("<none>").as_bytes());
        write.extend_from_slice(b"\r\n");
    }
    let head = *method == Method::HEAD;
    let may_have_length =
        !(status.is_informational() || status == StatusCode::NO_CONTENT || status == StatusCode::NOT_MODIFIED);
    let mut wrote_length = false;
    let mut wrote_date = false;
    let mut said_close = false;
    for (name, value) in &response.headers {
        if *name == CONTENT_LENGTH {
            // Said once; for an empty body only to HEAD, whose length announces a body not sent.
            if wrote_length || (body_length == 0 && !head) {
                continue;
            }
            wrote_length = true;
        } else if *name == TRANSFER_ENCODING || *name == TRAILER {
            // Bodies here are whole and sent by length.
            continue;
        } else if *name == DATE {
            wrote_date = true;
        } else if *name == CONNECTION {
            said_close |= value
                .as_bytes()
                .split(|byte| *byte == b',')
                .any(|token| token.trim_ascii().eq_ignore_ascii_case(b"close"));
        }
        write.extend_from_slice(name.as_str().as_bytes());
        write.extend_from_slice(b": ");
        write.extend_from_slice(value.as_bytes());
        write.extend_from_slice(b"\r\n");
    }
    if !wrote_length && may_have_length && (body_length > 0 || !head) {
        write.extend_from_slice(b"content-length: ");
        write.extend_from_slice(itoa::Buffer::new().format(body_length).as_bytes());
        write.extend_from_slice(b"\r\n");
    }
    if close && !said_close {
        write.extend_from_slice(b"connection: close\r\n");
    }
    if !wrote_date {
        write.extend_from_slice(b"date: ");
        push_date(write);
        write.extend_from_slice(b"\r\n");
    }
    write.extend_from_slice(b"\r\n");
    may_have_length && !head && body_length > 0
}

/// The IMF-fixdate of now, formatted once a second per thread.
fn push_date(write: &mut Vec<u8>) {
    thread_local! {
        static DATE: RefCell<(u64, String)> = const { RefCell::new((u64::MAX, String::new())) };
    }
    let now = SystemTime::now();
    let second = now.duration_since(UNIX_EPOCH).map_or(0, |since| since.as_secs());
    DATE.with_borrow_mut(|(at, text)| {
        if *at != second {
            *at = second;
            *text = httpdate::fmt_http_date(now);
        }
        write.extend_from_slice(text.as_bytes());
    });
}

/// A socket whose first bytes were already read: they are read again first, by hyper.
pub(crate) struct Prefixed {
    read: Bytes,
    stream: TcpStream,
}

impl AsyncRead for Prefixed {
    fn poll_read(self: Pin<&mut Self>, context: &mut Context<'_>, buf: &mut ReadBuf<'_>) -> Poll<std::io::Result<()>> {
        let this = self.get_mut();
        if !this.read.is_empty() {
            let count = this.read.len().min(buf.remaining());
            buf.put_slice(&this.read.split_to(count));
            return Poll::Ready(Ok(()));
        }
        Pin::new(&mut this.stream).poll_read(context, buf)
    }
}

impl AsyncWrite for Prefixed {
    fn poll_write(self: Pin<&mut Self>, context: &mut Context<'_>, buf: &[u8]) -> Poll<std::io::Result<usize>> {
        Pin::new(&mut self.get_mut().stream).poll_write(context, buf)
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        context: &mut Context<'_>,
        bufs: &[std::io::IoSlice<'_>],
    ) -> Poll<std::io::Result<usize>> {
        Pin::new(&mut self.get_mut().stream).poll_write_vectored(context, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        self.stream.is_write_vectored()
    }

    fn poll_flush(self: Pin<&mut Self>, context: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.get_mut().stream).poll_flush(context)
    }

    fn poll_shutdown(self: Pin<&mut Self>, context: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.get_mut().stream).poll_shutdown(context)
    }
}

#[cfg(test)]
mod tests {
    use std::net::SocketAddr;
    use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

    use http_body_util::BodyExt;
    use tokio::io::{AsyncReadExt, AsyncWriteExt};

    use super::*;
    use crate::http::request_body::read_body_within;
    use crate::http::server::{ServerTask, Timeouts, bind};

    /// What the test service saw and did.
    #[derive(Default)]
    struct Seen {
        handled: AtomicUsize,
        finished_slow: AtomicBool,
    }

    /// Answers by path: `/echo` its method, body and a header count; `/empty` 200 with no body;
    /// `/none` 204; `/head` a length for a body not sent; `/slow` after 2 s; `/drop` nothing.
    async fn server(body_progress: Duration, seen: Arc<Seen>) -> (ServerTask, SocketAddr) {
        server_with(Timeouts { body_progress, ..Timeouts::default() }, seen).await
    }

    async fn server_with(timeouts: Timeouts, seen: Arc<Seen>) -> (ServerTask, SocketAddr) {
        let body_progress = timeouts.body_progress;
        let (listener, addr) = bind(SocketAddr::from(([127, 0, 0, 1], 0))).await.unwrap();
        let server = ServerTask::spawn_whole_requests(listener, None, timeouts, None, move |_| {
            let seen = Arc::clone(&seen);
            hyper::service::service_fn(move |request: Request<ServedBody>| {
                let seen = Arc::clone(&seen);
                async move {
                    seen.handled.fetch_add(1, Ordering::SeqCst);
                    let (parts, body) = request.into_parts();
                    let body = match read_body_within(body, body_progress).await {
                        Ok(body) => body,
                        Err(err) if err.is::<BodyStalled>() => {
                            let mut answer = Response::new(Full::new(Bytes::from_static(b"stalled")));
                            *answer.status_mut() = StatusCode::REQUEST_TIMEOUT;
                            return Ok(answer);
                        }
                        Err(err) => return Err(std::io::Error::other(err.to_string())),
                    };
                    let mut answer = Response::new(Full::new(Bytes::new()));
                    match parts.uri.path() {
                        "/echo" => {
                            let text = format!(
                                "{} {} {} fields: {}",
                                parts.method,
                                parts.uri,
                                String::from_utf8_lossy(&body),
                                parts.headers.len()
                            );
                            *answer.body_mut() = Full::new(Bytes::from(text));
                        }
                        "/empty" => {}
                        "/none" => *answer.status_mut() = StatusCode::NO_CONTENT,
                        "/head" => {
                            answer.headers_mut().insert(CONTENT_LENGTH, HeaderValue::from_static("5"));
                        }
                        "/slow" => {
                            tokio::time::sleep(Duration::from_secs(2)).await;
                            seen.finished_slow.store(true, Ordering::SeqCst);
                        }
                        _ => return Err(std::io::Error::other("dropped")),
                    }
                    Ok(answer)
                }
            })
        });
        (server, addr)
    }

    /// Reads what comes until `expected` answers have, or the connection closes.
    async fn read_answers(stream: &mut TcpStream, expected: usize) -> String {
        let mut text = Vec::new();
        let read = async {
            loop {
                let answers = String::from_utf8_lossy(&text).matches("HTTP/1.1 ").count();
                let whole = answers == expected && last_answer_is_whole(&text);
                if whole {
                    break;
                }
                let mut chunk = [0; 4096];
                match stream.read(&mut chunk).await.unwrap() {
                    0 => break,
                    count => text.extend_from_slice(&chunk[..count]),
                }
            }
        };
        tokio::time::timeout(Duration::from_secs(10), read).await.expect("the answers");
        String::from_utf8_lossy(&text).into_owned()
    }

    /// Whether the text ends with a whole answer (its head and as many body bytes as it says).
    fn last_answer_is_whole(text: &[u8]) -> bool {
        let text = String::from_utf8_lossy(text);
        let Some(start) = text.rfind("HTTP/1.1 ") else { return false };
        let last = &text[start..];
        let Some(end) = last.find("\r\n\r\n") else { return false };
        let length = last[..end]
            .lines()
            .find_map(|line| line.strip_prefix("content-length: "))
            .and_then(|length| length.parse::<usize>().ok())
            .unwrap_or(0);
        last.len() - end - 4 >= length || last.starts_with("HTTP/1.1 204") || last[..end].contains("x-head")
    }

    /// Everything the server says until it closes the connection (5 s at most, or the test fails).
    async fn read_to_close(stream: &mut TcpStream) -> String {
        let mut text = String::new();
        tokio::time::timeout(Duration::from_secs(5), stream.read_to_string(&mut text)).await.unwrap().unwrap();
        text
    }

    async fn connect(addr: SocketAddr) -> TcpStream {
        TcpStream::connect(addr).await.unwrap()
    }

    #[tokio::test]
    async fn requests_are_answered_in_order_one_by_one_or_pipelined() {
        let (server, addr) = server(Duration::from_secs(5), Arc::default()).await;
        let mut stream = connect(addr).await;
        stream
            .write_all(b"POST /echo?a=1 HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nX-One: 1\r\nX-One: 2\r\n\r\nabc")
            .await
            .unwrap();
        let first = read_answers(&mut stream, 1).await;
        assert!(first.starts_with("HTTP/1.1 200 OK\r\n"), "{first}");
        assert!(first.contains("\r\ncontent-length: 28\r\n") && first.contains("\r\ndate: "), "{first}");
        assert!(first.ends_with("POST /echo?a=1 abc fields: 4"), "{first}");
        // Two requests in one write, the second's body split across writes.
        stream
            .write_all(
                b"GET /echo HTTP/1.1\r\nHost: x\r\n\r\nPUT /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 4\r\n\r\nde",
            )
            .await
            .unwrap();
        tokio::time::sleep(Duration::from_millis(50)).await;
        stream.write_all(b"fg").await.unwrap();
        let next = read_answers(&mut stream, 2).await;
        assert!(next.contains("GET /echo  fields: 1") && next.ends_with("PUT /echo defg fields: 2"), "{next}");
        server.stop().await;
    }

    #[tokio::test]
    async fn empty_answers_are_framed_as_hyper_frames_them() {
        let (server, addr) = server(Duration::from_secs(5), Arc::default()).await;
        let mut stream = connect(addr).await;
        stream.write_all(b"POST /empty HTTP/1.1\r\nHost: x\r\n\r\n").await.unwrap();
        let empty = read_answers(&mut stream, 1).await;
        assert!(empty.starts_with("HTTP/1.1 200 OK\r\ncontent-length: 0\r\ndate: "), "{empty}");
        stream.write_all(b"DELETE /none HTTP/1.1\r\nHost: x\r\n\r\n").await.unwrap();
        let none = read_answers(&mut stream, 1).await;
        assert!(none.starts_with("HTTP/1.1 204 No Content\r\ndate: ") && none.ends_with("\r\n\r\n"), "{none}");
        assert!(!none.contains("content-length"), "{none}");
        // HEAD: the length of a body not sent.
        stream.write_all(b"HEAD /head HTTP/1.1\r\nHost: x\r\nX-Head: 1\r\n\r\n").await.unwrap();
        let mut head = vec![0; 4096];
        let count = tokio::time::timeout(Duration::from_secs(5), stream.read(&mut head)).await.unwrap().unwrap();
        let head = String::from_utf8_lossy(&head[..count]).into_owned();
        assert!(
            head.starts_with("HTTP/1.1 200 OK\r\ncontent-length: 5\r\ndate: ") && head.ends_with("\r\n\r\n"),
            "{head}"
        );
        // Still in step: the next answer is the next request's.
        stream.write_all(b"GET /echo HTTP/1.1\r\nHost: x\r\n\r\n").await.unwrap();
        assert!(read_answers(&mut stream, 1).await.ends_with("GET /echo  fields: 1"));
        server.stop().await;
    }

    #[tokio::test]
    async fn what_this_path_does_not_speak_is_handed_to_hyper_mid_connection() {
        let (server, addr) = server(Duration::from_secs(5), Arc::default()).await;
        let mut stream = connect(addr).await;
        stream.write_all(b"POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\n\r\na").await.unwrap();
        assert!(read_answers(&mut stream, 1).await.ends_with("POST /echo a fields: 2"));
        // Chunked: hyper reads it, from the bytes already read here on.
        stream
            .write_all(b"POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nxyz\r\n0\r\n\r\n")
            .await
            .unwrap();
        assert!(read_answers(&mut stream, 1).await.ends_with("POST /echo xyz fields: 2"));
        // And the connection goes on with hyper.
        stream.write_all(b"GET /echo HTTP/1.1\r\nHost: x\r\n\r\n").await.unwrap();
        assert!(read_answers(&mut stream, 1).await.ends_with("GET /echo  fields: 1"));
        // HTTP/1.0 and a head hyper refuses, each on a connection of its own.
        let mut old = connect(addr).await;
        old.write_all(b"GET /echo HTTP/1.0\r\n\r\n").await.unwrap();
        let answer = read_answers(&mut old, 1).await;
        assert!(answer.starts_with("HTTP/1.0 200 OK") && answer.ends_with("GET /echo  fields: 0"), "{answer}");
        let mut bad = connect(addr).await;
        bad.write_all(b"GET /echo HTTP/1.1\r\nBad Name: x\r\n\r\n").await.unwrap();
        assert!(read_answers(&mut bad, 1).await.starts_with("HTTP/1.1 400 Bad Request"));
        server.stop().await;
    }

    #[tokio::test]
    async fn a_request_that_says_close_is_answered_then_the_connection_closed() {
        let (server, addr) = server(Duration::from_secs(5), Arc::default()).await;
        let mut stream = connect(addr).await;
        stream.write_all(b"GET /echo HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n").await.unwrap();
        let answer = read_to_close(&mut stream).await;
        assert!(answer.contains("\r\nconnection: close\r\n") && answer.ends_with("GET /echo  fields: 2"), "{answer}");
        // A dropped answer is a closed connection with nothing said.
        let mut dropped = connect(addr).await;
        dropped.write_all(b"GET /drop HTTP/1.1\r\nHost: x\r\n\r\n").await.unwrap();
        let nothing = read_to_close(&mut dropped).await;
        assert_eq!(nothing, "");
        server.stop().await;
    }

    /// A server with a `/slow` request in its handler, on the returned connection.
    async fn slow_request_in_flight(seen: &Arc<Seen>) -> (ServerTask, TcpStream) {
        let (server, addr) = server(Duration::from_secs(5), Arc::clone(seen)).await;
        let mut stream = connect(addr).await;
        stream.write_all(b"GET /slow HTTP/1.1\r\nHost: x\r\n\r\n").await.unwrap();
        while seen.handled.load(Ordering::SeqCst) == 0 {
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
        (server, stream)
    }

    #[tokio::test]
    async fn a_client_that_closes_while_its_request_is_handled_cancels_the_handler() {
        let seen = Arc::new(Seen::default());
        let (server, stream) = slow_request_in_flight(&seen).await;
        drop(stream);
        tokio::time::sleep(Duration::from_millis(2500)).await;
        assert!(!seen.finished_slow.load(Ordering::SeqCst), "the handler ran on for a client that had gone");
        server.stop().await;
    }

    #[tokio::test]
    async fn a_stop_answers_the_request_in_flight_with_connection_close() {
        let seen = Arc::new(Seen::default());
        let (server, mut stream) = slow_request_in_flight(&seen).await;
        let stopped = tokio::spawn(server.stop());
        let answer = read_to_close(&mut stream).await;
        assert!(answer.starts_with("HTTP/1.1 200 OK") && answer.contains("\r\nconnection: close\r\n"), "{answer}");
        stopped.await.unwrap();
    }

    #[tokio::test]
    async fn a_body_that_stops_coming_reaches_the_handler_as_stalled() {
        let (server, addr) = server(Duration::from_millis(200), Arc::default()).await;
        let mut stream = connect(addr).await;
        stream.write_all(b"POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\n\r\nabc").await.unwrap();
        let answer = read_to_close(&mut stream).await;
        assert!(answer.starts_with("HTTP/1.1 408 Request Timeout") && answer.contains("connection: close"), "{answer}");
        server.stop().await;
    }

    #[tokio::test]
    async fn a_connection_idle_past_the_timeout_is_closed_silent_or_between_requests() {
        let timeouts = Timeouts { idle: Duration::from_millis(200), ..Timeouts::default() };
        let (server, addr) = server_with(timeouts, Arc::default()).await;
        let mut silent = connect(addr).await;
        let nothing = read_to_close(&mut silent).await;
        assert_eq!(nothing, "");
        // Half a head, then nothing: idle too, as hyper's connections are.
        let mut trickled = connect(addr).await;
        trickled.write_all(b"GET /echo HTTP/1.1\r\nHo").await.unwrap();
        let cut = read_to_close(&mut trickled).await;
        assert_eq!(cut, "");
        let mut answered = connect(addr).await;
        answered.write_all(b"GET /echo HTTP/1.1\r\nHost: x\r\n\r\n").await.unwrap();
        let answer = read_to_close(&mut answered).await;
        assert!(answer.ends_with("GET /echo  fields: 1"), "answered, then closed once idle: {answer}");
        server.stop().await;
    }

    #[test]
    fn a_read_body_is_one_frame_of_its_exact_length() {
        let body = ServedBody::Read(Some(Bytes::from_static(b"abc")));
        assert_eq!(body.size_hint().exact(), Some(3));
        let collected = futures_executor_block_on(body.collect()).unwrap().to_bytes();
        assert_eq!(collected, Bytes::from_static(b"abc"));
        assert!(ServedBody::Read(None).is_end_stream());
    }

    fn futures_executor_block_on<F: Future>(future: F) -> F::Output {
        tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(future)
    }
}
