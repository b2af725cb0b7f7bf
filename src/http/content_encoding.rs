//! `Content-Encoding` undone before anything judges a body: two equal JSON answers compressed at
//! different times differ byte for byte, and an id inside a gzip body cannot be read. gzip,
//! deflate and br, in pure Rust.
use std::io::Read;

use bytes::Bytes;
use http::HeaderMap;
use http::header::CONTENT_ENCODING;

use crate::http::client::MAX_RESPONSE_BODY;

/// A body with its content coding removed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Decoded {
    /// The decoded body, or the body as received when it was not encoded or could not be decoded.
    pub body: Bytes,
    /// The `Content-Encoding` the body arrived in (`gzip`, `br, gzip`), `None` for identity.
    pub encoding: Option<String>,
    /// Why the body could not be decoded, when it could not.
    pub error: Option<String>,
}

/// Undoes every coding listed in `Content-Encoding`, last applied first (RFC 9110 §8.4).
pub(crate) fn decode(headers: &HeaderMap, body: Bytes) -> Decoded {
    let codings: Vec<String> = headers
        .get_all(CONTENT_ENCODING)
        .iter()
        .flat_map(|value| String::from_utf8_lossy(value.as_bytes()).split(',').map(str::to_string).collect::<Vec<_>>())
        .map(|coding| coding.trim().to_ascii_lowercase())
        .filter(|coding| !coding.is_empty() && coding != "identity")
        .collect();
    if codings.is_empty() {
        return Decoded { body, encoding: None, error: None };
    }
    let encoding = Some(codings.join(", "));
    let mut current = body.clone();
    for coding in codings.iter().rev() {
        match decode_one(coding, &current) {
            Ok(decoded) => current = decoded,
            Err(error) => return Decoded { body, encoding, error: Some(error) },
        }
    }
    Decoded { body: current, encoding, error: None }
}

fn decode_one(coding: &str, body: &[u8]) -> Result<Bytes, String> {
    match coding {
        "gzip" | "x-gzip" => read_capped(flate2::read::MultiGzDecoder::new(body), coding),
        // RFC 9110 says zlib-wrapped; some servers send raw deflate, which browsers accept too.
        "deflate" => read_capped(flate2::read::ZlibDecoder::new(body), coding)
            .or_else(|_| read_capped(flate2::read::DeflateDecoder::new(body), coding)),
        "br" => read_capped(brotli::Decompressor::new(body, 8 * 1024), coding),
        other => Err(format!("the body is `{other}`-encoded, which idem cannot decode")),
    }
}

/// Reads a decoder to the end, refusing to inflate past the response limit (a small compressed
/// body can expand to gigabytes).
fn read_capped(decoder: impl Read, coding: &str) -> Result<Bytes, String> {
    let mut decoded = Vec::new();
    let limit = MAX_RESPONSE_BODY as u64;
    decoder
        .take(limit + 1)
        .read_to_end(&mut decoded)
        .map_err(|err| format!("the {coding} body could not be decoded: {err}"))?;
    if decoded.len() as u64 > limit {
        return Err(format!("the {coding} body decodes to more than {} MiB", MAX_RESPONSE_BODY / (1024 * 1024)));
    }
    Ok(Bytes::from(decoded))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    fn headers(encoding: &str) -> HeaderMap {
        let mut headers = HeaderMap::new();
        headers.insert(CONTENT_ENCODING, encoding.parse().unwrap());
        headers
    }

    fn gzip(data: &[u8]) -> Vec<u8> {
        let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        encoder.write_all(data).unwrap();
        encoder.finish().unwrap()
    }

    #[test]
    fn gzip_deflate_and_br_are_decoded() {
        let text = br#"{"id":"pay_1"}"#;
        let decoded = decode(&headers("gzip"), gzip(text).into());
        assert_eq!((&decoded.body[..], decoded.encoding.as_deref()), (&text[..], Some("gzip")));

        let mut zlib = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::default());
        zlib.write_all(text).unwrap();
        assert_eq!(&decode(&headers("deflate"), zlib.finish().unwrap().into()).body[..], text);

        let mut br = Vec::new();
        brotli::CompressorWriter::new(&mut br, 4096, 5, 22).write_all(text).unwrap();
        assert_eq!(&decode(&headers("br"), br.into()).body[..], text);
    }

    #[test]
    fn stacked_codings_are_undone_last_first_and_identity_is_untouched() {
        let text = b"hello";
        let twice = gzip(&gzip(text));
        assert_eq!(&decode(&headers("gzip, gzip"), twice.into()).body[..], text);
        let plain = decode(&HeaderMap::new(), Bytes::from_static(text));
        assert_eq!((plain.encoding, plain.error), (None, None));
    }

    #[test]
    fn undecodable_bodies_are_kept_with_the_reason() {
        let decoded = decode(&headers("gzip"), Bytes::from_static(b"not gzip"));
        assert_eq!(&decoded.body[..], b"not gzip");
        assert!(decoded.error.unwrap().contains("gzip"));
        assert!(decode(&headers("zstd"), Bytes::new()).error.unwrap().contains("zstd"));
    }
}
