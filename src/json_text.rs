//! Where a run of bytes that a JSON string holds as they are comes to an end: at a quote, a
//! backslash or a control character (what an escape starts, or what a writer must escape), and,
//! for a caller that checks UTF-8 separately, at any byte of 0x80 or above. The journal's escaping
//! and the listener's envelope scanner both cross a delivery's body with it, so it is written for
//! speed: a short run ends in its first words, a long one is crossed a block at a time.

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
    fn at(self, byte: u8) -> bool {
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
/// (keys, ids, the text between a body's quotes): their end is found in the first words (eight
/// bytes each). A long one is crossed thirty-two bytes at a time, written so the compiler turns
/// each block into a few vector instructions, and the block that holds its end is searched by words.
pub(crate) fn first_stop(bytes: &[u8], stop: Stop) -> Option<usize> {
    const WORD: usize = 8;
    const BLOCK: usize = 32;
    let mut at = 0;
    while at + WORD <= bytes.len() && at < 2 * WORD {
        if let Some(found) = stop_in_word(bytes, at, stop) {
            return Some(found);
        }
        at += WORD;
    }
    while let Some(block) = bytes.get(at..at + BLOCK) {
        if block.iter().fold(false, |stops, &byte| stops | stop.at(byte)) {
            break;
        }
        at += BLOCK;
    }
    while at + WORD <= bytes.len() {
        if let Some(found) = stop_in_word(bytes, at, stop) {
            return Some(found);
        }
        at += WORD;
    }
    if at == bytes.len() {
        return None;
    }
    // The last few bytes: the word that ends with them, whose first bytes are known not to stop
    // (and so flag nothing), else one by one in a run shorter than a word.
    match bytes.len().checked_sub(WORD) {
        Some(last_word) => stop_in_word(bytes, last_word, stop),
        None => bytes.iter().position(|&byte| stop.at(byte)),
    }
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
