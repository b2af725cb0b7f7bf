//! HPACK (RFC 7541) for the single-packet sender: an encoder that writes every header as a literal
//! without indexing and without Huffman (simple, and nothing for the server to get wrong), and a
//! complete decoder (static and dynamic tables, Huffman strings, size updates) for the responses.
//!
//! Written here rather than taken from a crate because a misbehaving server must give an error,
//! never a panic, and none of the candidates does that (checked 2026-11 against this file's
//! malformed-input test): `hpack` panics on some of it, its fork `fluke-hpack` panics on two of the
//! nine blocks, and `loona-hpack`, which errs on all nine, carries a published panic advisory
//! inherited from `hpack` and has had no release since 2024; the `h2` crate keeps its HPACK private.
use std::collections::{HashMap, VecDeque};
use std::sync::OnceLock;

use super::hpack_huffman::{ENCODE_CODE_LENGTHS, ENCODE_CODES};

/// Why a header block could not be decoded.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub(crate) enum HpackError {
    #[error("the header block ends in the middle of a field")]
    Truncated,
    #[error("an integer in the header block is too large")]
    IntegerOverflow,
    #[error("the header block refers to table index {0}, which does not exist")]
    BadIndex(usize),
    #[error("a Huffman-coded string in the header block is invalid")]
    BadHuffman,
    #[error("the header block asks for a {0}-byte table, more than the 4096 bytes allowed")]
    TableTooLarge(usize),
    #[error("a table size update comes after a header field")]
    LateSizeUpdate,
}

/// Appends `name: value` as a literal without indexing, new name, no Huffman (RFC 7541 §6.2.2).
pub(crate) fn encode_literal(out: &mut Vec<u8>, name: &[u8], value: &[u8]) {
    out.push(0x00);
    encode_integer(out, 0x00, 7, name.len());
    out.extend_from_slice(name);
    encode_integer(out, 0x00, 7, value.len());
    out.extend_from_slice(value);
}

/// An integer with an N-bit prefix (RFC 7541 §5.1); `first` holds the bits above the prefix.
fn encode_integer(out: &mut Vec<u8>, first: u8, prefix_bits: u8, mut value: usize) {
    let max_prefix = (1usize << prefix_bits) - 1;
    if value < max_prefix {
        out.push(first | value as u8);
        return;
    }
    out.push(first | max_prefix as u8);
    value -= max_prefix;
    while value >= 128 {
        out.push((value % 128) as u8 | 0x80);
        value /= 128;
    }
    out.push(value as u8);
}

/// The largest dynamic table we allow (our SETTINGS_HEADER_TABLE_SIZE is the default, 4096).
pub(crate) const MAX_TABLE_SIZE: usize = 4096;

/// A decoded header field: name and value, as bytes.
pub(crate) type Field = (Vec<u8>, Vec<u8>);

/// A decoder for one connection: the dynamic table lives across header blocks.
#[derive(Debug)]
pub(crate) struct Decoder {
    table: VecDeque<(Vec<u8>, Vec<u8>)>,
    table_size: usize,
    max_size: usize,
}

impl Default for Decoder {
    fn default() -> Decoder {
        Decoder { table: VecDeque::new(), table_size: 0, max_size: MAX_TABLE_SIZE }
    }
}

impl Decoder {
    /// Decodes one complete header block into (name, value) pairs.
    pub(crate) fn decode(&mut self, mut block: &[u8]) -> Result<Vec<Field>, HpackError> {
        let mut fields = Vec::new();
        while let Some(&first) = block.first() {
            if first & 0x80 != 0 {
                // Indexed field.
                let (index, used) = decode_integer(block, 7)?;
                block = &block[used..];
                fields.push(self.entry(index)?);
            } else if first & 0xc0 == 0x40 {
                // Literal with incremental indexing.
                let (field, used) = self.decode_literal(block, 6)?;
                block = &block[used..];
                self.insert(field.clone());
                fields.push(field);
            } else if first & 0xe0 == 0x20 {
                // Dynamic table size update: only before the first field.
                if !fields.is_empty() {
                    return Err(HpackError::LateSizeUpdate);
                }
                let (size, used) = decode_integer(block, 5)?;
                block = &block[used..];
                if size > MAX_TABLE_SIZE {
                    return Err(HpackError::TableTooLarge(size));
                }
                self.max_size = size;
                self.evict();
            } else {
                // Literal without indexing (0000) or never indexed (0001).
                let (field, used) = self.decode_literal(block, 4)?;
                block = &block[used..];
                fields.push(field);
            }
        }
        Ok(fields)
    }

    fn decode_literal(&self, block: &[u8], prefix_bits: u8) -> Result<(Field, usize), HpackError> {
        let (index, mut used) = decode_integer(block, prefix_bits)?;
        let name = if index == 0 {
            let (name, name_used) = decode_string(&block[used..])?;
            used += name_used;
            name
        } else {
            self.entry(index)?.0
        };
        let (value, value_used) = decode_string(&block[used..])?;
        Ok(((name, value), used + value_used))
    }

    fn entry(&self, index: usize) -> Result<(Vec<u8>, Vec<u8>), HpackError> {
        if index == 0 {
            return Err(HpackError::BadIndex(0));
        }
        if let Some((name, value)) = STATIC_TABLE.get(index - 1) {
            return Ok((name.as_bytes().to_vec(), value.as_bytes().to_vec()));
        }
        self.table.get(index - 1 - STATIC_TABLE.len()).cloned().ok_or(HpackError::BadIndex(index))
    }

    fn insert(&mut self, field: (Vec<u8>, Vec<u8>)) {
        let size = entry_size(&field);
        if size > self.max_size {
            // RFC 7541 §4.4: an entry larger than the table empties it and is not added.
            self.table.clear();
            self.table_size = 0;
            return;
        }
        self.table.push_front(field);
        self.table_size += size;
        self.evict();
    }

    fn evict(&mut self) {
        while self.table_size > self.max_size {
            match self.table.pop_back() {
                Some(evicted) => self.table_size -= entry_size(&evicted),
                None => self.table_size = 0,
            }
        }
    }
}

fn entry_size((name, value): &(Vec<u8>, Vec<u8>)) -> usize {
    name.len() + value.len() + 32
}

/// An integer with an N-bit prefix and how many bytes it took.
fn decode_integer(block: &[u8], prefix_bits: u8) -> Result<(usize, usize), HpackError> {
    let first = *block.first().ok_or(HpackError::Truncated)?;
    let max_prefix = (1usize << prefix_bits) - 1;
    let mut value = first as usize & max_prefix;
    if value < max_prefix {
        return Ok((value, 1));
    }
    let mut shift = 0u32;
    for (offset, &byte) in block.iter().enumerate().skip(1) {
        // Header blocks never need more than a few continuation bytes; refuse absurd ones.
        if shift > 28 {
            return Err(HpackError::IntegerOverflow);
        }
        value = value.checked_add(((byte & 0x7f) as usize) << shift).ok_or(HpackError::IntegerOverflow)?;
        shift += 7;
        if byte & 0x80 == 0 {
            return Ok((value, offset + 1));
        }
    }
    Err(HpackError::Truncated)
}

/// A string literal (raw or Huffman) and how many bytes it took.
fn decode_string(block: &[u8]) -> Result<(Vec<u8>, usize), HpackError> {
    let huffman = block.first().ok_or(HpackError::Truncated)? & 0x80 != 0;
    let (len, used) = decode_integer(block, 7)?;
    let end = used.checked_add(len).ok_or(HpackError::IntegerOverflow)?;
    let raw = block.get(used..end).ok_or(HpackError::Truncated)?;
    let text = if huffman { huffman_decode(raw)? } else { raw.to_vec() };
    Ok((text, end))
}

/// (bit length, code) → byte, built once from the RFC table.
fn huffman_codes() -> &'static HashMap<(u8, u32), u8> {
    static CODES: OnceLock<HashMap<(u8, u32), u8>> = OnceLock::new();
    CODES.get_or_init(|| {
        (0..=255u8).map(|byte| ((ENCODE_CODE_LENGTHS[byte as usize], ENCODE_CODES[byte as usize]), byte)).collect()
    })
}

/// Decodes a Huffman string bit by bit; the padding must be under 8 bits, all ones (§5.2).
fn huffman_decode(raw: &[u8]) -> Result<Vec<u8>, HpackError> {
    let codes = huffman_codes();
    let mut out = Vec::with_capacity(raw.len() * 8 / 5);
    let (mut code, mut bits) = (0u32, 0u8);
    for &byte in raw {
        for shift in (0..8).rev() {
            code = (code << 1) | u32::from((byte >> shift) & 1);
            bits += 1;
            // The shortest code is 5 bits, the longest 30.
            if bits >= 5 {
                if let Some(&decoded) = codes.get(&(bits, code)) {
                    out.push(decoded);
                    code = 0;
                    bits = 0;
                } else if bits >= 30 {
                    return Err(HpackError::BadHuffman);
                }
            }
        }
    }
    let padding_is_eos_prefix = bits < 8 && code == (1u32 << bits) - 1;
    if !padding_is_eos_prefix {
        return Err(HpackError::BadHuffman);
    }
    Ok(out)
}

/// RFC 7541 Appendix A.
const STATIC_TABLE: [(&str, &str); 61] = [
    (":authority", ""),
    (":method", "GET"),
    (":method", "POST"),
    (":path", "/"),
    (":path", "/index.html"),
    (":scheme", "http"),
    (":scheme", "https"),
    (":status", "200"),
    (":status", "204"),
    (":status", "206"),
    (":status", "304"),
    (":status", "400"),
    (":status", "404"),
    (":status", "500"),
    ("accept-charset", ""),
    ("accept-encoding", "gzip, deflate"),
    ("accept-language", ""),
    ("accept-ranges", ""),
    ("accept", ""),
    ("access-control-allow-origin", ""),
    ("age", ""),
    ("allow", ""),
    ("authorization", ""),
    ("cache-control", ""),
    ("content-disposition", ""),
    ("content-encoding", ""),
    ("content-language", ""),
    ("content-length", ""),
    ("content-location", ""),
    ("content-range", ""),
    ("content-type", ""),
    ("cookie", ""),
    ("date", ""),
    ("etag", ""),
    ("expect", ""),
    ("expires", ""),
    ("from", ""),
    ("host", ""),
    ("if-match", ""),
    ("if-modified-since", ""),
    ("if-none-match", ""),
    ("if-range", ""),
    ("if-unmodified-since", ""),
    ("last-modified", ""),
    ("link", ""),
    ("location", ""),
    ("max-forwards", ""),
    ("proxy-authenticate", ""),
    ("proxy-authorization", ""),
    ("range", ""),
    ("referer", ""),
    ("refresh", ""),
    ("retry-after", ""),
    ("server", ""),
    ("set-cookie", ""),
    ("strict-transport-security", ""),
    ("transfer-encoding", ""),
    ("user-agent", ""),
    ("vary", ""),
    ("via", ""),
    ("www-authenticate", ""),
];

#[cfg(test)]
mod tests {
    use super::*;

    fn pairs(fields: Vec<(Vec<u8>, Vec<u8>)>) -> Vec<(String, String)> {
        fields.into_iter().map(|(n, v)| (String::from_utf8(n).unwrap(), String::from_utf8(v).unwrap())).collect()
    }

    #[test]
    fn literals_round_trip_including_long_values() {
        let long = "x".repeat(300);
        let mut block = Vec::new();
        encode_literal(&mut block, b":path", b"/payments");
        encode_literal(&mut block, b"idempotency-key", long.as_bytes());
        let decoded = pairs(Decoder::default().decode(&block).unwrap());
        assert_eq!(decoded, [(":path".into(), "/payments".into()), ("idempotency-key".into(), long)]);
    }

    #[test]
    fn rfc_c4_requests_with_huffman_and_the_dynamic_table() {
        // RFC 7541 C.4.1 and C.4.2: the second block reuses the dynamic table entry from the first.
        let mut decoder = Decoder::default();
        let first = hex::decode("828684418cf1e3c2e5f23a6ba0ab90f4ff").unwrap();
        assert_eq!(
            pairs(decoder.decode(&first).unwrap()),
            [
                (":method".into(), "GET".into()),
                (":scheme".into(), "http".into()),
                (":path".into(), "/".into()),
                (":authority".into(), "www.example.com".into())
            ]
        );
        let second = hex::decode("828684be5886a8eb10649cbf").unwrap();
        let decoded = pairs(decoder.decode(&second).unwrap());
        assert_eq!(decoded[3], (":authority".into(), "www.example.com".into()));
        assert_eq!(decoded[4], ("cache-control".into(), "no-cache".into()));
    }

    #[test]
    fn malformed_blocks_are_errors_not_panics() {
        let mut decoder = Decoder::default();
        for block in [
            &[0x3f][..],
            &[0x3f, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff],
            &[0xff, 0x80],
            &[0x80],
            &[0xbe],
            &[0x00, 0x05, b'a'],
            &[0x00, 0x81, 0x00, 0x00],
            &[0x82, 0x20],
            &[0x3f, 0xe2, 0x1f],
        ] {
            assert!(decoder.decode(block).is_err(), "{block:?}");
        }
    }
}
