//! One describer for connection failures on every client path (reqwest, the forwarding client,
//! the race's own connections): it looks at the types in the error chain (`rustls::Error`, `h2`'s
//! error, the `io::Error` that wraps them), never at their text, and says what really happened
//! and what to do, in place of the library's jargon ("received corrupt message of type
//! InvalidContentType").
use std::error::Error;

/// What the chain shows, when it is something a user can act on.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Cause {
    /// TLS was spoken to a server that answered in plain HTTP (its "HTTP/1.1 400" is not a record).
    PlainHttp,
    /// The certificate was refused (self-signed, expired, another host).
    Certificate(String),
    /// TLS agreed on no application protocol: `--http2` offered only h2 and the server has none.
    NoHttp2Alpn,
    /// HTTP/2 with prior knowledge got a first "frame" too large to be one: an HTTP/1.1 answer.
    NotHttp2,
    /// HTTP/2 with prior knowledge: the connection closed before any answer, as an HTTP/1.1 server
    /// closes it after refusing the preface.
    ClosedUnderHttp2,
}

/// The sentence for a failure to reach `server` (`host:port`, or empty when unknown), or `None`
/// when the chain holds nothing to say more than its own messages. `http2` says the request went
/// as HTTP/2 with prior knowledge (`--http2` on http://).
pub(crate) fn describe(err: &(dyn Error + 'static), server: &str, http2: bool) -> Option<String> {
    let at = if server.is_empty() { String::new() } else { format!(" at {server}") };
    let cause = match diagnose(err) {
        Some(cause) => cause,
        None if http2 && closed(err) => Cause::ClosedUnderHttp2,
        None => return None,
    };
    Some(match cause {
        Cause::PlainHttp => {
            let use_http =
                if server.is_empty() { "http:// instead of https://".to_string() } else { format!("http://{server}") };
            format!("the server{at} answered in plain HTTP, not TLS: use {use_http}")
        }
        Cause::Certificate(why) => {
            format!(
                "the server{at} sent a certificate that was refused ({why}): for a self-signed or test certificate, add -k/--insecure"
            )
        }
        Cause::NoHttp2Alpn => format!("the server{at} does not offer HTTP/2 over TLS (no h2 in ALPN): drop --http2"),
        Cause::NotHttp2 => format!(
            "the server{at} did not answer in HTTP/2 (its first bytes are not an HTTP/2 frame, as when an HTTP/1.1-only \
             server answers): drop --http2"
        ),
        Cause::ClosedUnderHttp2 => format!(
            "the server{at} closed the connection without answering in HTTP/2 (an HTTP/1.1-only server refuses the \
             HTTP/2 preface this way): drop --http2"
        ),
    })
}

/// hyper's "canceled: connection closed" or "channel closed", or a broken pipe or reset while the
/// preface was still being written: the connection ended before the answer.
fn closed(err: &(dyn Error + 'static)) -> bool {
    use std::io::ErrorKind::{BrokenPipe, ConnectionReset, UnexpectedEof};
    let io_closed = |io: &std::io::Error| matches!(io.kind(), BrokenPipe | ConnectionReset | UnexpectedEof);
    let mut next = Some(err);
    while let Some(cause) = next {
        if cause
            .downcast_ref::<hyper::Error>()
            .is_some_and(|err| err.is_canceled() || err.is_closed() || err.is_incomplete_message())
            || cause.downcast_ref::<h2::Error>().and_then(h2::Error::get_io).is_some_and(io_closed)
            || cause.downcast_ref::<std::io::Error>().is_some_and(io_closed)
        {
            return true;
        }
        next = cause.source();
    }
    false
}

fn diagnose(err: &(dyn Error + 'static)) -> Option<Cause> {
    let mut next = Some(err);
    while let Some(cause) = next {
        if let Some(found) = rustls_cause(cause).or_else(|| h2_cause(cause)) {
            return Some(found);
        }
        // io::Error's `source()` skips the error it wraps; look inside it first.
        if let Some(inner) = cause.downcast_ref::<std::io::Error>().and_then(std::io::Error::get_ref) {
            let inner: &(dyn Error + 'static) = inner;
            if let Some(found) = diagnose(inner) {
                return Some(found);
            }
        }
        next = cause.source();
    }
    None
}

fn rustls_cause(err: &(dyn Error + 'static)) -> Option<Cause> {
    match err.downcast_ref::<rustls::Error>()? {
        rustls::Error::InvalidMessage(rustls::InvalidMessage::InvalidContentType) => Some(Cause::PlainHttp),
        rustls::Error::InvalidCertificate(why) => Some(Cause::Certificate(format!("{why:?}"))),
        rustls::Error::NoApplicationProtocol => Some(Cause::NoHttp2Alpn),
        _ => None,
    }
}

fn h2_cause(err: &(dyn Error + 'static)) -> Option<Cause> {
    let err = err.downcast_ref::<h2::Error>()?;
    (err.is_go_away() && err.is_library() && err.reason() == Some(h2::Reason::FRAME_SIZE_ERROR))
        .then_some(Cause::NotHttp2)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_rustls_error_inside_an_io_error_inside_anyhow_is_found() {
        let io = std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            rustls::Error::InvalidMessage(rustls::InvalidMessage::InvalidContentType),
        );
        let err = anyhow::Error::new(io).context("TLS handshake failed");
        let text = describe(err.as_ref(), "127.0.0.1:1", false).unwrap();
        assert_eq!(text, "the server at 127.0.0.1:1 answered in plain HTTP, not TLS: use http://127.0.0.1:1");
        assert_eq!(describe(anyhow::anyhow!("InvalidContentType").as_ref(), "", true), None, "text is not matched");
    }
}
