//! Where a run of bytes that a JSON string holds as they are comes to an end: at a quote, a
//! backslash or a control character (what an escape starts, or what a writer must escape), and,
//! for a caller that checks UTF-8 separately, at any byte of 0x80 or above. The journal's escaping
//! and the listener's envelope scanner both cross a delivery's body with it, so it is written for
//! speed: a short run is searched by words, a long one a block of sixteen bytes at a time.

/// Which bytes end a run.
#[derive(Clone, Copy)]
pub(crate) enum Stop {
    /// `"`, `\` and control characters.
    AtEscape,
    /// Those, and any byte of 0x80 or above.
    AtEscapeOrNonAscii,
}

impl Stop {
    /// Whether `byte` ends a run. `^ 2` maps the quote (0x22) to 0x20 and keeps 0x00..=0x1f below
    /// it, so one comparison finds both.
    #[inline(always)]
    pub(crate) fn at(self, byte: u8) -> bool {
        let escape = ((byte ^ 2) <= 0x20) | (byte == b'\\');
        match self {
            Stop::AtEscape => escape,
            Stop::AtEscapeOrNonAscii => escape | (byte >= 0x80),
        }
    }

    /// The high bit of each byte of `word` that ends a run. The lowest flag is exact; above it a
    /// borrow may flag a byte falsely (a borrow runs upwards), so only the lowest is used.
    #[inline(always)]
    fn flags(self, word: u64) -> u64 {
        const ONES: u64 = 0x0101_0101_0101_0101;
        const HIGH: u64 = 0x8080_8080_8080_8080;
        // As in `at`: after `^ 2`, a quote or a control character is a byte below 0x21
        // (subtracting 0x21 borrows).
        let flipped = word ^ (ONES * 2);
        let below = flipped.wrapping_sub(ONES * 0x21);
        let quote_or_control_or_high = match self {
            // A byte of 0x80 or more has its high bit set already: `!flipped` keeps it out.
            Stop::AtEscape => below & !flipped,
            Stop::AtEscapeOrNonAscii => below | word,
        };
        let backslash = word ^ (ONES * u64::from(b'\\'));
        let backslash = backslash.wrapping_sub(ONES) & !backslash;
        (quote_or_control_or_high | backslash) & HIGH
    }
}

/// The offset of the first byte of `bytes` that ends a run, if one does. Most runs are short
/// (keys, ids, the text between a body's quotes) and are searched a word (eight bytes) at a time;
/// from sixteen bytes on a run is crossed a block of sixteen at a time (one SSE2 comparison on
/// x86-64, every such CPU has it), its last few bytes by the block that ends with them.
pub(crate) fn first_stop(bytes: &[u8], stop: Stop) -> Option<usize> {
    if bytes.len() < BLOCK {
        return first_stop_in_words(bytes, stop);
    }
    let mut at = 0;
    while at + BLOCK <= bytes.len() {
        if let Some(found) = stop_in_block(bytes, at, stop) {
            return Some(found);
        }
        at += BLOCK;
    }
    // The block that ends with the last bytes: its first ones are known not to stop.
    (at < bytes.len()).then(|| stop_in_block(bytes, bytes.len() - BLOCK, stop)).flatten()
}

/// The bytes one block search covers.
const BLOCK: usize = 16;

/// [`first_stop`] for fewer than [`BLOCK`] bytes: a word, then the word that ends with the rest.
fn first_stop_in_words(bytes: &[u8], stop: Stop) -> Option<usize> {
    if bytes.len() < 8 {
        return bytes.iter().position(|&byte| stop.at(byte));
    }
    stop_in_word(bytes, 0, stop).or_else(|| stop_in_word(bytes, bytes.len() - 8, stop))
}

/// The first stop in the block at `at` (which must be whole), if it holds one.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn stop_in_block(bytes: &[u8], at: usize, stop: Stop) -> Option<usize> {
    use std::arch::x86_64::{
        __m128i, _mm_cmpeq_epi8, _mm_loadu_si128, _mm_min_epu8, _mm_movemask_epi8, _mm_or_si128, _mm_set1_epi8,
        _mm_xor_si128,
    };
    let block = bytes.get(at..)?.first_chunk::<BLOCK>()?;
    // SAFETY: SSE2 is part of x86-64, and the load reads the sixteen bytes of `block`, with no
    // alignment required.
    let mask = unsafe {
        let bytes = _mm_loadu_si128(block.as_ptr().cast::<__m128i>());
        // As in `Stop::at`: after `^ 2` a quote or a control character is a byte of 0x20 or less,
        // which is a byte its unsigned minimum with 0x20 leaves as it is.
        let flipped = _mm_xor_si128(bytes, _mm_set1_epi8(2));
        let quote_or_control = _mm_cmpeq_epi8(_mm_min_epu8(flipped, _mm_set1_epi8(0x20)), flipped);
        let backslash = _mm_cmpeq_epi8(bytes, _mm_set1_epi8(b'\\' as i8));
        let escape = _mm_movemask_epi8(_mm_or_si128(quote_or_control, backslash)) as u32;
        match stop {
            Stop::AtEscape => escape,
            // The high bit of each byte is what `movemask` collects.
            Stop::AtEscapeOrNonAscii => escape | _mm_movemask_epi8(bytes) as u32,
        }
    };
    (mask != 0).then(|| at + mask.trailing_zeros() as usize)
}

/// The first stop in the block at `at` (which must be whole), if it holds one: its two words.
#[cfg(not(target_arch = "x86_64"))]
#[inline(always)]
fn stop_in_block(bytes: &[u8], at: usize, stop: Stop) -> Option<usize> {
    stop_in_block_by_words(bytes, at, stop)
}

/// [`stop_in_block`] without vector instructions (compiled everywhere so the tests hold the
/// SSE2 search to it).
#[cfg_attr(all(target_arch = "x86_64", not(test)), allow(dead_code))]
#[inline(always)]
fn stop_in_block_by_words(bytes: &[u8], at: usize, stop: Stop) -> Option<usize> {
    stop_in_word(bytes, at, stop).or_else(|| stop_in_word(bytes, at + 8, stop))
}

/// The first stop in the word at `at`, if the word is whole and holds one.
#[inline(always)]
fn stop_in_word(bytes: &[u8], at: usize, stop: Stop) -> Option<usize> {
    let word: [u8; 8] = bytes.get(at..at + 8)?.try_into().ok()?;
    let flags = stop.flags(u64::from_le_bytes(word));
    (flags != 0).then(|| at + (flags.trailing_zeros() / 8) as usize)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_run_stops_at_its_first_stopping_byte_in_any_block() {
        // Bytes next to the stops' values (and to the thresholds of their word flags), and bytes
        // of 0x80 and above, around one stop or none.
        let fillers = b" !#$[]|\x7f\x80\xa2\xdc\xff";
        let ascii_fillers = b" !#$[]|\x7f~a";
        for (stop, fillers) in [(Stop::AtEscape, &fillers[..]), (Stop::AtEscapeOrNonAscii, &ascii_fillers[..])] {
            for length in 0..80 {
                for stopping in [b'"', b'\\', 0x00, 0x02, 0x1f, 0x80, 0xff] {
                    for at in 0..=length {
                        let mut bytes: Vec<u8> = (0..length).map(|index| fillers[index % fillers.len()]).collect();
                        if at < length {
                            bytes[at] = stopping;
                        }
                        for from in [0, 1, 7, 8, 31, 32, 33, length] {
                            let Some(rest) = bytes.get(from..) else { continue };
                            let expected = rest.iter().position(|&byte| stop.at(byte));
                            assert_eq!(first_stop(rest, stop), expected, "{bytes:?} from {from}");
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn a_block_finds_every_byte_value_at_every_position_as_its_words_do() {
        for stop in [Stop::AtEscape, Stop::AtEscapeOrNonAscii] {
            for filler in [b'a', b' ', b'#', b'~', 0x7f] {
                for at in 0..BLOCK {
                    for byte in 0..=255u8 {
                        let mut block = [filler; BLOCK];
                        block[at] = byte;
                        let expected = block.iter().position(|&byte| stop.at(byte));
                        assert_eq!(stop_in_block(&block, 0, stop), expected, "{byte:#x} at {at} among {filler:#x}");
                        assert_eq!(stop_in_block_by_words(&block, 0, stop), expected, "{byte:#x} at {at}");
                    }
                }
            }
        }
    }

    #[test]
    fn the_stopping_bytes_are_the_escapes_and_for_one_kind_the_non_ascii_ones() {
        let escapes: Vec<u8> = [(0..0x20).collect(), vec![b'"', b'\\']].concat();
        let stopping = |stop: Stop| (0..=255u8).filter(|&byte| stop.at(byte)).collect::<Vec<_>>();
        assert_eq!(stopping(Stop::AtEscape), escapes);
        assert_eq!(stopping(Stop::AtEscapeOrNonAscii), [escapes, (0x80..=0xff).collect()].concat());
        for stop in [Stop::AtEscape, Stop::AtEscapeOrNonAscii] {
            for byte in 0..=255u8 {
                let flags = stop.flags(u64::from_le_bytes([byte; 8]));
                assert_eq!(flags & 0x80 != 0, stop.at(byte), "{byte:#x}");
            }
        }
    }
}
