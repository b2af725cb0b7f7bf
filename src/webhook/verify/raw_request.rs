//! Reading a raw HTTP/1.x request from a file (`webhook verify --request`): what
//! `webhook sign --format http` writes, or a request captured off the wire, chunked or not.
use anyhow::{Context, bail};
use http::{HeaderMap, HeaderName, HeaderValue};

use crate::http::chunked::{self, Chunks};

/// The parts of a request a signature check needs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct RawRequest {
    /// The request line's method, which HubSpot signs.
    pub method: String,
    pub headers: HeaderMap,
    pub body: Vec<u8>,
}

/// More headers than any webhook sends; a file with more is not a webhook request.
const MAX_HEADERS: usize = 128;

/// The largest request file read: a capture is held in memory whole, so `/dev/zero` or a
/// mistaken disk image must stop here rather than exhaust the machine.
pub(crate) const MAX_REQUEST_FILE: u64 = crate::http::body::DEFAULT_MAX_BODY;

/// Reads and parses a request file, refusing one larger than [`MAX_REQUEST_FILE`].
pub(crate) fn read_file(path: &std::path::Path) -> anyhow::Result<RawRequest> {
    use std::io::Read;
    let file =
        std::fs::File::open(path).with_context(|| format!("cannot read the request file `{}`", path.display()))?;
    let mut bytes = Vec::new();
    file.take(MAX_REQUEST_FILE + 1)
        .read_to_end(&mut bytes)
        .with_context(|| format!("cannot read the request file `{}`", path.display()))?;
    if bytes.len() as u64 > MAX_REQUEST_FILE {
        bail!(
            "the request file `{}` is larger than {}, more than any webhook request",
            path.display(),
            crate::http::body::format_size(MAX_REQUEST_FILE)
        );
    }
    parse(&bytes).with_context(|| format!("cannot read `{}` as an HTTP request", path.display()))
}

pub(crate) fn parse(bytes: &[u8]) -> anyhow::Result<RawRequest> {
    let mut slots = [httparse::EMPTY_HEADER; MAX_HEADERS];
    let mut request = httparse::Request::new(&mut slots);
    let head_length = match request.parse(bytes) {
        Ok(httparse::Status::Complete(length)) => length,
        Ok(httparse::Status::Partial) => {
            bail!("the request ends before its headers do (an HTTP request head ends with a blank line)")
        }
        Err(httparse::Error::TooManyHeaders) => bail!("the request has more than {MAX_HEADERS} headers"),
        Err(err) => bail!("this is not an HTTP/1.x request ({err}); it should start like `POST /path HTTP/1.1`"),
    };
    let mut headers = HeaderMap::new();
    for header in request.headers.iter() {
        let name = HeaderName::from_bytes(header.name.as_bytes())
            .with_context(|| format!("`{}` is not a valid header name", header.name))?;
        let value = HeaderValue::from_bytes(header.value)
            .with_context(|| format!("the value of header `{name}` has characters a header cannot carry"))?;
        headers.append(name, value);
    }
    let rest = &bytes[head_length..];
    let body = if chunked::is_chunked(&headers) { decode_chunked(rest)? } else { sized_body(&headers, rest)? };
    Ok(RawRequest { method: request.method.unwrap_or("POST").to_string(), headers, body })
}

/// The body per Content-Length; without one, everything after the head.
fn sized_body(headers: &HeaderMap, rest: &[u8]) -> anyhow::Result<Vec<u8>> {
    let Some(length) = headers.get(http::header::CONTENT_LENGTH) else {
        return Ok(rest.to_vec());
    };
    let length: usize =
        length.to_str().ok().and_then(|text| text.trim().parse().ok()).with_context(|| {
            format!("Content-Length `{}` is not a number", String::from_utf8_lossy(length.as_bytes()))
        })?;
    if rest.len() < length {
        bail!("the body is shorter than its Content-Length ({} < {length} bytes): the capture is cut off", rest.len());
    }
    Ok(rest[..length].to_vec())
}

fn decode_chunked(rest: &[u8]) -> anyhow::Result<Vec<u8>> {
    let (mut buffer, mut body) = (rest.to_vec(), Vec::new());
    match chunked::decode(&mut buffer, &mut body, usize::MAX)? {
        Chunks::Complete => Ok(body),
        Chunks::Partial => bail!("the chunked body is cut off before its last chunk"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn content_length_bounds_the_body() {
        let request = parse(b"POST /h HTTP/1.1\r\nHost: x\r\nX-Sig: a\r\nContent-Length: 3\r\n\r\nabcdef").unwrap();
        assert_eq!(request.body, b"abc");
        assert_eq!(request.headers["x-sig"], "a");
        assert!(parse(b"POST / HTTP/1.1\r\nContent-Length: 9\r\n\r\nabc").is_err());
    }

    #[test]
    fn chunked_bodies_are_decoded() {
        let request =
            parse(b"POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n2\r\nde\r\n0\r\n\r\n").unwrap();
        assert_eq!(request.body, b"abcde");
        assert!(parse(b"POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n9\r\nab").is_err());
    }

    #[test]
    fn garbage_is_refused_with_a_reason() {
        assert!(format!("{:#}", parse(b"hello world\r\n\r\n").unwrap_err()).contains("not an HTTP/1.x request"));
        assert!(format!("{:#}", parse(b"POST / HTTP/1.1\r\nX: y\r\n").unwrap_err()).contains("blank line"));
        assert!(parse(b"").is_err());
    }
}
