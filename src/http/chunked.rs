//! `Transfer-Encoding: chunked` bodies (RFC 9112 §7.1), decoded incrementally so the same code
//! serves a whole captured request (`webhook verify --request`) and an answer still arriving off a
//! socket (the last-byte race engine). Chunk sizes are parsed by httparse.
use anyhow::bail;
use http::HeaderMap;

/// Whether the message's body is chunked.
pub(crate) fn is_chunked(headers: &HeaderMap) -> bool {
    headers
        .get_all(http::header::TRANSFER_ENCODING)
        .iter()
        .filter_map(|value| value.to_str().ok())
        .any(|value| value.split(',').any(|coding| coding.trim().eq_ignore_ascii_case("chunked")))
}

/// Where decoding stands after the bytes available so far.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Chunks {
    /// The last (zero-size) chunk was read: the body is complete.
    Complete,
    /// More bytes are needed.
    Partial,
}

/// Moves every complete chunk at the front of `buffer` into `body` (draining it from `buffer`), up
/// to `limit` body bytes. Trailers after the last chunk are not needed and are left unread.
pub(crate) fn decode(buffer: &mut Vec<u8>, body: &mut Vec<u8>, limit: usize) -> anyhow::Result<Chunks> {
    loop {
        let (size_length, size) = match httparse::parse_chunk_size(buffer) {
            Ok(httparse::Status::Complete(found)) => found,
            Ok(httparse::Status::Partial) => return Ok(Chunks::Partial),
            Err(_) => bail!("the chunked body has a malformed chunk size"),
        };
        if size == 0 {
            buffer.drain(..size_length);
            return Ok(Chunks::Complete);
        }
        let size = match usize::try_from(size) {
            Ok(size) if body.len().saturating_add(size) <= limit => size,
            _ => bail!("the chunked body is larger than {limit} bytes"),
        };
        if buffer.len() < size_length + size + 2 {
            return Ok(Chunks::Partial);
        }
        if &buffer[size_length + size..size_length + size + 2] != b"\r\n" {
            bail!("a chunk of the chunked body does not end with CRLF");
        }
        body.extend_from_slice(&buffer[size_length..size_length + size]);
        buffer.drain(..size_length + size + 2);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chunks_decode_whole_or_as_they_arrive() {
        let wire = b"3\r\nabc\r\n4;ext=1\r\ndefg\r\n0\r\n\r\n";
        let (mut buffer, mut body) = (wire.to_vec(), Vec::new());
        assert_eq!(decode(&mut buffer, &mut body, 100).unwrap(), Chunks::Complete);
        assert_eq!(body, b"abcdefg");

        let (mut buffer, mut body) = (Vec::new(), Vec::new());
        let mut outcome = Chunks::Partial;
        for byte in wire {
            buffer.push(*byte);
            outcome = decode(&mut buffer, &mut body, 100).unwrap();
        }
        assert_eq!((outcome, body.as_slice()), (Chunks::Complete, &b"abcdefg"[..]));
    }

    #[test]
    fn malformed_and_oversized_chunks_are_errors() {
        assert!(decode(&mut b"zz\r\nab\r\n".to_vec(), &mut Vec::new(), 100).is_err());
        assert!(decode(&mut b"2\r\nabXY0\r\n\r\n".to_vec(), &mut Vec::new(), 100).is_err());
        assert!(decode(&mut b"ffff\r\n".to_vec(), &mut Vec::new(), 100).is_err());
        assert!(decode(&mut b"ffffffffffffffffff\r\n".to_vec(), &mut Vec::new(), 100).is_err());
    }
}
