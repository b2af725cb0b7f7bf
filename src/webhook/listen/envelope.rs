//! What a JSON body says about itself at the top level: its `id` and `type`, read by one pass over
//! the body (this runs for every delivery, and the body is mostly data the listener never looks at).
//!
//! It accepts and refuses exactly the bodies `serde_json::from_slice` into a derived struct of the
//! two fields did (the tests keep that reading as their oracle), because a refused body falls back
//! to its hash for an id. So it follows serde_json 1.0's rules, not the JSON specification's:
//! - whitespace is space, tab, line feed and carriage return (not form feed); after the object only
//!   whitespace may follow;
//! - a value that is skipped (every value but the top-level `id` and `type`) is checked as
//!   serde_json's `ignore_value` checks it: the grammar of numbers and literals, strings without
//!   control characters and with valid escapes, but neither UTF-8 nor `\u` surrogates, and no limit
//!   to nesting;
//! - the top-level keys are read as strings are: valid UTF-8, `\u` surrogates paired, escapes
//!   decoded (`"\u0069d"` is `id`); a second `id` or `type` refuses the object (serde's
//!   "duplicate field"), a second unknown key does not;
//! - `id` and `type` values are read by serde_json itself (so numbers and escapes are written as it
//!   writes them, and what it refuses in them, such as a float that overflows, is refused), save a
//!   string without escapes, read here; containers in them nest at most 127 deep, the top object
//!   counting as one.
use serde::Deserialize;

use crate::json_text::{Stop, first_stop};

/// The envelope of a body: its top-level `id` and `type`, kept only as far as they can be used.
#[derive(Debug, Default)]
#[cfg_attr(test, derive(PartialEq))]
pub(super) struct Envelope {
    id: Option<TopLevel>,
    event_type: Option<TopLevel>,
}

/// A top-level value of the envelope, kept only as far as an id or a type can use it.
#[derive(Debug)]
#[cfg_attr(test, derive(PartialEq))]
enum TopLevel {
    Text(String),
    /// A number, as `serde_json::Number` writes it.
    Number(String),
    /// Anything else: an empty string, `true`, an object, an array.
    Unusable,
}

impl<'de> Deserialize<'de> for TopLevel {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<TopLevel, D::Error> {
        deserializer.deserialize_any(TopLevelVisitor)
    }
}

struct TopLevelVisitor;

impl<'de> serde::de::Visitor<'de> for TopLevelVisitor {
    type Value = TopLevel;

    fn expecting(&self, formatter: &mut std::fmt::Formatter) -> std::fmt::Result {
        formatter.write_str("any JSON value")
    }

    fn visit_str<E>(self, text: &str) -> Result<TopLevel, E> {
        Ok(if text.is_empty() { TopLevel::Unusable } else { TopLevel::Text(text.to_string()) })
    }

    fn visit_u64<E>(self, number: u64) -> Result<TopLevel, E> {
        Ok(TopLevel::Number(serde_json::Number::from(number).to_string()))
    }

    fn visit_i64<E>(self, number: i64) -> Result<TopLevel, E> {
        Ok(TopLevel::Number(serde_json::Number::from(number).to_string()))
    }

    fn visit_f64<E>(self, number: f64) -> Result<TopLevel, E> {
        // What `Value` does with a float: a number when finite (JSON has no other), else null.
        Ok(serde_json::Number::from_f64(number)
            .map_or(TopLevel::Unusable, |number| TopLevel::Number(number.to_string())))
    }

    fn visit_bool<E>(self, _: bool) -> Result<TopLevel, E> {
        Ok(TopLevel::Unusable)
    }

    fn visit_unit<E>(self) -> Result<TopLevel, E> {
        Ok(TopLevel::Unusable)
    }

    fn visit_none<E>(self) -> Result<TopLevel, E> {
        Ok(TopLevel::Unusable)
    }

    // An object or an array is read as `Value` reads it (so what it refuses inside one, the body
    // is refused for, as before), then dropped.
    fn visit_map<A: serde::de::MapAccess<'de>>(self, map: A) -> Result<TopLevel, A::Error> {
        serde_json::Value::deserialize(serde::de::value::MapAccessDeserializer::new(map))?;
        Ok(TopLevel::Unusable)
    }

    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, seq: A) -> Result<TopLevel, A::Error> {
        serde_json::Value::deserialize(serde::de::value::SeqAccessDeserializer::new(seq))?;
        Ok(TopLevel::Unusable)
    }
}

impl Envelope {
    /// The envelope of a JSON object body; nothing for other bodies.
    pub(super) fn read(body: &[u8]) -> Envelope {
        Scanner { body, at: 0 }.envelope().unwrap_or_default()
    }

    /// The top-level `id`, when it is a non-empty string or a number; taken out of the envelope,
    /// not copied (once per delivery).
    pub(super) fn id(&mut self) -> Option<String> {
        match self.id.take()? {
            TopLevel::Text(text) | TopLevel::Number(text) => Some(text),
            TopLevel::Unusable => None,
        }
    }

    /// The top-level `type`, when it is a non-empty string; taken, as `id` is.
    pub(super) fn event_type(&mut self) -> Option<String> {
        match self.event_type.take()? {
            TopLevel::Text(text) => Some(text),
            TopLevel::Number(_) | TopLevel::Unusable => None,
        }
    }
}

/// A body that is not one JSON object as serde_json reads one. Why is not kept: whatever the
/// reason, the listener falls back to the body's hash.
#[derive(Debug, PartialEq)]
struct Refused;

type Scan<T> = Result<T, Refused>;

/// How many containers may nest inside the value of `id` or `type`: serde_json reads those into
/// values, 128 levels deep at most with the top object counting as one, and refuses the 128th.
const KEPT_NESTING_LIMIT: usize = 126;

/// The bytes of the value of `id` or `type`, whole and within the nesting limit.
struct Kept<'a> {
    value: &'a [u8],
    /// Whether it is a string without escapes.
    plain_string: bool,
}

/// Which top-level field a key names.
enum Field {
    Id,
    Type,
    Other,
}

/// The containers open around a position in a skipped value, innermost last: whether each is an
/// object (else an array). The first 64 are bits of a word; deeper ones (rare) spill to a vector.
#[derive(Default)]
struct OpenContainers {
    depth: usize,
    first: u64,
    deeper: Vec<bool>,
}

impl OpenContainers {
    fn push(&mut self, object: bool) {
        if self.depth < 64 {
            self.first = (self.first & !(1 << self.depth)) | (u64::from(object) << self.depth);
        } else {
            self.deeper.push(object);
        }
        self.depth += 1;
    }

    fn pop(&mut self) {
        if self.depth > 64 {
            self.deeper.pop();
        }
        self.depth = self.depth.saturating_sub(1);
    }

    /// Whether the innermost container is an object; `None` when none is open.
    fn innermost(&self) -> Option<bool> {
        match self.depth {
            0 => None,
            1..=64 => Some(self.first >> (self.depth - 1) & 1 == 1),
            _ => self.deeper.last().copied(),
        }
    }
}

fn closing(object: bool) -> u8 {
    if object { b'}' } else { b']' }
}

/// A position in the body, moved forward only.
struct Scanner<'a> {
    body: &'a [u8],
    at: usize,
}

impl<'a> Scanner<'a> {
    /// The whole body as one object: its `id` and `type`, or why it is refused.
    fn envelope(mut self) -> Scan<Envelope> {
        self.eat_after_whitespace(b'{')?;
        let (mut id, mut event_type) = (None, None);
        self.skip_whitespace();
        if self.peek() == Some(b'}') {
            self.at += 1;
        } else {
            loop {
                let field = self.field()?;
                self.eat_after_whitespace(b':')?;
                self.skip_whitespace();
                match field {
                    Field::Id => self.kept_value(&mut id)?,
                    Field::Type => self.kept_value(&mut event_type)?,
                    Field::Other => self.skip_value(usize::MAX)?,
                }
                self.skip_whitespace();
                match self.next() {
                    Some(b',') => self.skip_whitespace(),
                    Some(b'}') => break,
                    _ => return Err(Refused),
                }
            }
        }
        self.skip_whitespace();
        if self.at != self.body.len() {
            return Err(Refused);
        }
        // Read last, once the body is known to be accepted (refused, it costs nothing more).
        Ok(Envelope { id: id.map_or(Ok(None), top_level)?, event_type: event_type.map_or(Ok(None), top_level)? })
    }

    /// A top-level key (at its opening quote), read as serde_json reads a string.
    fn field(&mut self) -> Scan<Field> {
        let start = self.at;
        if self.peek() != Some(b'"') {
            return Err(Refused);
        }
        let escaped = self.skip_string()?;
        let quoted = &self.body[start..self.at];
        if escaped {
            // Rare: the escapes are decoded by serde_json, which also refuses unpaired surrogates.
            let key: String = serde_json::from_slice(quoted).map_err(|_| Refused)?;
            return Ok(field_named(key.as_bytes()));
        }
        let key = &quoted[1..quoted.len() - 1];
        let field = field_named(key);
        if matches!(field, Field::Other) && !key.is_ascii() && std::str::from_utf8(key).is_err() {
            return Err(Refused);
        }
        Ok(field)
    }

    /// The value of `id` or `type`, to be read once the body is accepted; a second one refuses the
    /// body, as serde's derived struct refuses a duplicate field.
    fn kept_value(&mut self, slot: &mut Option<Kept<'a>>) -> Scan<()> {
        if slot.is_some() {
            return Err(Refused);
        }
        let start = self.at;
        let plain_string = if self.peek() == Some(b'"') {
            !self.skip_string()?
        } else {
            self.skip_value(KEPT_NESTING_LIMIT)?;
            false
        };
        *slot = Some(Kept { value: &self.body[start..self.at], plain_string });
        Ok(())
    }

    /// Skips one value (at its first byte) as serde_json's `ignore_value` does, with at most
    /// `nesting_limit` containers open. Iterative, so nesting deeper than the stack is no danger.
    fn skip_value(&mut self, nesting_limit: usize) -> Scan<()> {
        let mut open = OpenContainers::default();
        loop {
            self.skip_whitespace();
            match self.peek() {
                Some(opening @ (b'{' | b'[')) => {
                    let object = opening == b'{';
                    if open.depth >= nesting_limit {
                        return Err(Refused);
                    }
                    self.at += 1;
                    self.skip_whitespace();
                    if self.peek() != Some(closing(object)) {
                        open.push(object);
                        if object {
                            self.member_key()?;
                        }
                        continue;
                    }
                    self.at += 1;
                }
                _ => self.skip_scalar()?,
            }
            // A value ended: close the containers it ends, or go on to the next element or member.
            loop {
                let Some(object) = open.innermost() else { return Ok(()) };
                self.skip_whitespace();
                match self.next() {
                    Some(b',') => {
                        if object {
                            self.skip_whitespace();
                            self.member_key()?;
                        }
                        break;
                    }
                    Some(byte) if byte == closing(object) => open.pop(),
                    _ => return Err(Refused),
                }
            }
        }
    }

    /// Skips a value that is not a container (at its first byte).
    fn skip_scalar(&mut self) -> Scan<()> {
        match self.peek().ok_or(Refused)? {
            b'"' => self.skip_string().map(drop),
            b'-' | b'0'..=b'9' => self.skip_number(),
            b't' => self.skip_literal(b"true"),
            b'f' => self.skip_literal(b"false"),
            b'n' => self.skip_literal(b"null"),
            _ => Err(Refused),
        }
    }

    /// A key inside a skipped object and its colon (what follows is the member's value).
    fn member_key(&mut self) -> Scan<()> {
        if self.peek() != Some(b'"') {
            return Err(Refused);
        }
        self.skip_string()?;
        self.eat_after_whitespace(b':')
    }

    /// Skips a string (at its opening quote) as serde_json's `ignore_str` does: no control
    /// characters, valid escapes (a `\u` needs four hex digits, of any surrogate), UTF-8 unchecked.
    /// Says whether the string held an escape.
    fn skip_string(&mut self) -> Scan<bool> {
        self.at += 1;
        let mut escaped = false;
        loop {
            let stop = string_stop(self.body, self.at).ok_or(Refused)?;
            self.at = stop + 1;
            match self.body.get(stop) {
                Some(b'"') => return Ok(escaped),
                Some(b'\\') => {
                    escaped = true;
                    self.skip_escape()?;
                }
                _ => return Err(Refused),
            }
        }
    }

    /// An escape, after its backslash.
    fn skip_escape(&mut self) -> Scan<()> {
        match self.next() {
            Some(b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't') => Ok(()),
            Some(b'u') => {
                let digits = self.body.get(self.at..self.at + 4).ok_or(Refused)?;
                if !digits.iter().all(u8::is_ascii_hexdigit) {
                    return Err(Refused);
                }
                self.at += 4;
                Ok(())
            }
            _ => Err(Refused),
        }
    }

    /// Skips a number as serde_json's grammar has it: an optional minus, `0` or digits not
    /// starting with `0`, then optionally `.` and digits, then optionally `e`, a sign and digits.
    fn skip_number(&mut self) -> Scan<()> {
        if self.peek() == Some(b'-') {
            self.at += 1;
        }
        match self.next() {
            Some(b'0') if !self.peek().is_some_and(|byte| byte.is_ascii_digit()) => {}
            Some(b'1'..=b'9') => {
                self.skip_digits();
            }
            _ => return Err(Refused),
        }
        if self.peek() == Some(b'.') {
            self.at += 1;
            if self.skip_digits() == 0 {
                return Err(Refused);
            }
        }
        if let Some(b'e' | b'E') = self.peek() {
            self.at += 1;
            if let Some(b'+' | b'-') = self.peek() {
                self.at += 1;
            }
            if self.skip_digits() == 0 {
                return Err(Refused);
            }
        }
        Ok(())
    }

    /// Skips ASCII digits; says how many.
    fn skip_digits(&mut self) -> usize {
        let start = self.at;
        while self.peek().is_some_and(|byte| byte.is_ascii_digit()) {
            self.at += 1;
        }
        self.at - start
    }

    fn skip_literal(&mut self, literal: &[u8]) -> Scan<()> {
        if self.body.get(self.at..self.at + literal.len()) != Some(literal) {
            return Err(Refused);
        }
        self.at += literal.len();
        Ok(())
    }

    /// serde_json's whitespace: no form feed, unlike `u8::is_ascii_whitespace`.
    fn skip_whitespace(&mut self) {
        while let Some(b' ' | b'\n' | b'\t' | b'\r') = self.peek() {
            self.at += 1;
        }
    }

    fn eat_after_whitespace(&mut self, expected: u8) -> Scan<()> {
        self.skip_whitespace();
        if self.next() != Some(expected) {
            return Err(Refused);
        }
        Ok(())
    }

    fn peek(&self) -> Option<u8> {
        self.body.get(self.at).copied()
    }

    fn next(&mut self) -> Option<u8> {
        let byte = self.peek()?;
        self.at += 1;
        Some(byte)
    }
}

fn field_named(key: &[u8]) -> Field {
    match key {
        b"id" => Field::Id,
        b"type" => Field::Type,
        _ => Field::Other,
    }
}

/// The value of `id` or `type`: `None` for `null`, as serde reads an absent `Option`. A string
/// without escapes is read here; anything else by serde_json, which may still refuse it (invalid
/// UTF-8, unpaired surrogates, a float that overflows), as it refused the whole body for it before.
fn top_level(kept: Kept) -> Scan<Option<TopLevel>> {
    if let (true, [b'"', text @ .., b'"']) = (kept.plain_string, kept.value) {
        let text = std::str::from_utf8(text).map_err(|_| Refused)?;
        return Ok(Some(if text.is_empty() { TopLevel::Unusable } else { TopLevel::Text(text.to_string()) }));
    }
    serde_json::from_slice(kept.value).map_err(|_| Refused)
}

/// Where a string's scan stops: the first `"`, `\\` or control character at or after `from`.
fn string_stop(bytes: &[u8], from: usize) -> Option<usize> {
    let rest = bytes.get(from..)?;
    first_stop(rest, Stop::AtEscape).map(|found| from + found)
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;
    use serde::Deserialize;

    use super::*;

    /// The oracle: the envelope as serde_json read it before the scanner, a derived struct of the
    /// two fields (unknown ones skipped as `IgnoredAny`), behind the same check that the body
    /// starts as an object.
    #[derive(Deserialize)]
    struct SerdeEnvelope {
        #[serde(default)]
        id: Option<TopLevel>,
        #[serde(default, rename = "type")]
        event_type: Option<TopLevel>,
    }

    fn serde_read(body: &[u8]) -> Scan<Envelope> {
        let starts_as_object = body.iter().find(|byte| !byte.is_ascii_whitespace()) == Some(&b'{');
        if !starts_as_object {
            return Err(Refused);
        }
        let envelope: SerdeEnvelope = serde_json::from_slice(body).map_err(|_| Refused)?;
        Ok(Envelope { id: envelope.id, event_type: envelope.event_type })
    }

    fn scan(body: &[u8]) -> Scan<Envelope> {
        Scanner { body, at: 0 }.envelope()
    }

    /// Checks that the scanner reads `body` exactly as the oracle does (the same values, `null`
    /// and absent alike, or both refuse it), and the public reading with it; says whether refused.
    fn assert_reads_as_serde(body: &[u8]) -> bool {
        let expected = serde_read(body);
        assert_eq!(scan(body), expected, "{:?}", String::from_utf8_lossy(body));
        let refused = expected.is_err();
        let mut expected = expected.unwrap_or_default();
        let mut envelope = Envelope::read(body);
        assert_eq!((envelope.id(), envelope.event_type()), (expected.id(), expected.event_type()));
        refused
    }

    /// Values at the edges of serde_json's rules, each tried in several places of a body.
    const EDGE_VALUES: &[&[u8]] = &[
        // Strings: escapes of every form, surrogates paired and not, control and non-UTF-8 bytes.
        br#""""#,
        br#""a""#,
        br#""evt_1""#,
        br#""\"""#,
        br#""\\""#,
        br#""\/""#,
        br#""\b\f\n\r\t""#,
        br#""\u0041""#,
        br#""\u00e9""#,
        br#""\u00E9\u00e9""#,
        br#""\u0000""#,
        br#""\ud83d\ude00""#,
        br#""\uD83D\uDE00""#,
        br#""\ud800""#,
        br#""\udc00""#,
        br#""\udfff\ud800""#,
        br#""\ud800\u0041""#,
        br#""\ud800\n""#,
        br#""\ud800x""#,
        br#""\ud800\ud800""#,
        br#""\ud800\ud800\udc00""#,
        br#""\udbff\udfff""#,
        br#""\u12""#,
        br#""\u12g4""#,
        br#""\u""#,
        br#""\x""#,
        br#""\U0041""#,
        br#""\'""#,
        br#""\ ""#,
        b"\"a\tb\"",
        b"\"\x00\"",
        b"\"\x1f\"",
        b"\"\x7f\"",
        b"\"\x20\"",
        "\"é€😀\"".as_bytes(),
        b"\"\xff\"",
        b"\"\xc3\"",
        b"\"\xc3\xa9\"",
        b"\"\xed\xa0\x80\"",
        b"\"\xf4\x90\x80\x80\"",
        b"\"\xc0\xaf\"",
        b"\"\\u00e9\xff\"",
        b"\"unterminated",
        b"\"\\",
        b"\"\\u00",
        b"\"0123456789abcdef0123456789abcdef\\\"0123456789abcdef\"",
        // Numbers: the grammar's edges, and what u64, i64 and f64 make of them.
        b"0",
        b"-0",
        b"1",
        b"-1",
        b"01",
        b"-01",
        b"00",
        b"1.",
        b".5",
        b"-",
        b"-a",
        b"- 1",
        b"1e",
        b"1e+",
        b"1e-",
        b"1E5",
        b"1e+5",
        b"1e-5",
        b"1.5",
        b"-1.5e3",
        b"0.0",
        b"-0.0",
        b"1.0",
        b"0e0",
        b"1.e5",
        b"1.5e",
        b"1.5.3",
        b"18446744073709551615",
        b"18446744073709551616",
        b"-9223372036854775808",
        b"-9223372036854775809",
        b"9223372036854775807",
        b"123456789012345678901234567890",
        b"1e308",
        b"1e309",
        b"-1e309",
        b"1.7976931348623157e308",
        b"1.7976931348623159e308",
        b"5e-324",
        b"1e-400",
        b"1e400",
        b"0e400",
        b"0e99999999999999",
        b"1e99999999999999",
        b"1e-99999999999999",
        b"0.1",
        b"+1",
        b"1_0",
        b"0x10",
        b"Infinity",
        b"NaN",
        // Literals.
        b"true",
        b"false",
        b"null",
        b"tru",
        b"nul",
        b"nulll",
        b"True",
        b"NULL",
        b"fals",
        // Containers.
        b"{}",
        b"[]",
        b"[ 1 , 2 ]",
        b"{ \"a\" : 1 }",
        b"{\"a\":1,}",
        b"[1,]",
        b"[,]",
        b"[,1]",
        b"{,}",
        b"{\"a\"}",
        b"{\"a\":}",
        b"{1:2}",
        b"[1 2]",
        b"{\"a\":1 \"b\":2}",
        b"{\"a\":1,\"a\":2}",
        b"{\"id\":1,\"id\":2}",
        b"[[[]],{}]",
        b"{\"\\u0069d\":1}",
        b"{\"a\":\"\\ud800\"}",
        b"{\"\\ud800\":1}",
        b"{\"\xff\":1}",
        b"[\"\xff\"]",
        b"[1e400]",
        b"{\"a\":[-0]}",
        b"[}",
        b"{]",
        b"[\"a\":1]",
        b"[\x0c1]",
        b"[1\x0c]",
        b"[",
        b"{",
        b"[1",
        b"{\"a\":1",
    ];

    /// Where each edge value is put: as `id`, as `type`, skipped, inside `id`, deep in skipped data.
    const PLACES: &[(&str, &str)] = &[
        (r#"{"id":"#, "}"),
        (r#"{"type":"#, r#","id":"e"}"#),
        (r#"{"data":"#, r#","id":"e","type":"t"}"#),
        (r#"{"id":["#, r#"],"type":"t"}"#),
        (r#"{"type":{"a":"#, "}}"),
        (r#"{"x":{"y":["#, r#"]},"id":1}"#),
    ];

    const KEYS: &[&[u8]] = &[
        br#""id""#,
        br#""type""#,
        br#""\u0069d""#,
        br#""\u0074ype""#,
        br#""i\u0064""#,
        br#""\u0069\u0064""#,
        br#""ty\/pe""#,
        br#""ID""#,
        br#""Type""#,
        br#""id ""#,
        br#""""#,
        br#""\ud800""#,
        br#""\udc00""#,
        br#""\ud83d\ude00""#,
        br#""\u00e9""#,
        br#""\n""#,
        br#""\x""#,
        b"\"\xff\"",
        b"\"\xc3\xa9\"",
        b"\"a\tb\"",
        b"\"\x00\"",
        b"\"id",
        b"id",
        b"1",
        b"null",
    ];

    const BODIES: &[&[u8]] = &[
        b"",
        b" ",
        b"{}",
        b" \t\r\n{} \t\r\n",
        b"\x0c{}",
        b"{}\x0c",
        b"\x0b{}",
        b"{} x",
        b"{}{}",
        b"{}}",
        b"{",
        b"}",
        b"[]",
        b"[{\"id\":\"a\"}]",
        b"\"id\"",
        b"1",
        b"null",
        b"not json",
        b"\xef\xbb\xbf{}",
        b"{\"id\":\"a\"}\x00",
        b"{\"id\":\"a\",}",
        b"{,\"id\":\"a\"}",
        b"{\"id\" \"a\"}",
        b"{\"id\"::\"a\"}",
        b"{\"id\":\"a\" \"type\":\"t\"}",
        b"{\"id\":\"a\";\"type\":\"t\"}",
        b"{ \"id\" : \"a\" , \"type\" : \"t\" }",
        b"{\"id\":\"a\",\"id\":\"a\"}",
        b"{\"id\":null,\"id\":\"a\"}",
        b"{\"id\":\"a\",\"id\":null}",
        b"{\"type\":1,\"type\":2}",
        b"{\"x\":1,\"x\":2,\"id\":\"a\"}",
        b"{\"id\":\"a\",\"\\u0069d\":\"b\"}",
        b"{\"type\":\"a\",\"typ\\u0065\":\"b\"}",
        b"{\"id\":\"a\",\"data\":{\"id\":\"b\",\"id\":\"c\"}}",
        b"{\"id\":{\"a\":1,\"a\":2}}",
        b"{\"id\":\"evt\",\"type\":\"invoice.paid\",\"data\":{\"object\":{\"description\":\"0123456789abcdef0123456789abcdef0123456789\"}}}",
    ];

    fn nested(open: &str, close: &str, depth: usize, inner: &str) -> String {
        format!("{}{inner}{}", open.repeat(depth), close.repeat(depth))
    }

    #[test]
    fn edge_bodies_are_read_and_refused_as_serde_json_did() {
        let mut bodies: Vec<Vec<u8>> = BODIES.iter().map(|body| body.to_vec()).collect();
        for value in EDGE_VALUES {
            for (before, after) in PLACES {
                bodies.push([before.as_bytes(), value, after.as_bytes()].concat());
            }
        }
        for &key in KEYS {
            bodies.push([&b"{"[..], key, b":1}"].concat());
            bodies.push([&b"{\"id\":\"a\","[..], key, b":\"b\",\"type\":\"t\"}"].concat());
            bodies.push([&b"{"[..], key, b":\"a\",", key, b":\"b\"}"].concat());
        }
        // Around serde_json's nesting limit, inside `id` and `type` (limited) and elsewhere (not).
        for depth in (120..=131).chain([1000, 100_000]) {
            for (open, close) in [("[", "]"), (r#"{"a":"#, "}")] {
                for inner in ["", "1", "\"\\ud800\""] {
                    let deep = nested(open, close, depth, inner);
                    bodies.push(format!(r#"{{"id":{deep},"type":"t"}}"#).into_bytes());
                    bodies.push(format!(r#"{{"id":"a","type":{deep}}}"#).into_bytes());
                    bodies.push(format!(r#"{{"id":"a","x":{deep}}}"#).into_bytes());
                }
            }
            let unbalanced = format!(r#"{{"id":"a","x":{}}}"#, "[".repeat(depth));
            bodies.push(unbalanced.into_bytes());
        }
        let refused = bodies.iter().filter(|body| assert_reads_as_serde(body)).count();
        // Both outcomes are well represented, so agreement means something either way.
        assert!(refused > 200 && bodies.len() - refused > 200, "{refused} of {} refused", bodies.len());
    }

    #[test]
    fn the_bench_body_is_read() {
        let body = format!(
            r#"{{"id":"evt_bench_00000001","type":"payment_intent.succeeded","created":1796158552,"data":{{"object":{{"amount":1,"currency":"eur","description":"{}"}}}}}}"#,
            "x".repeat(880)
        );
        let mut envelope = Envelope::read(body.as_bytes());
        assert_eq!(envelope.id().as_deref(), Some("evt_bench_00000001"));
        assert_eq!(envelope.event_type().as_deref(), Some("payment_intent.succeeded"));
        assert!(!assert_reads_as_serde(body.as_bytes()));
    }

    /// A piece of a string's content: mostly plain text and valid escapes (so most bodies are read
    /// and their `id` and `type` compared), now and then what serde_json refuses in a string it
    /// reads but not in one it skips (invalid UTF-8, unpaired surrogates), or refuses in both.
    fn string_piece() -> impl Strategy<Value = Vec<u8>> {
        prop_oneof![
            12 => "[a-z0-9_. ]{0,20}".prop_map(String::into_bytes),
            4 => proptest::sample::select(vec![
                &br#"\""#[..], br"\\", br"\/", br"\b", br"\f", br"\n", br"\r", br"\t", br"\u0041",
                br"\u00e9", br"\u00E9", br"\u0000", br"\ud83d\ude00", b"\xc3\xa9", b"\xe2\x82\xac",
                b"\xf0\x9f\x98\x80", b"\x7f",
            ])
            .prop_map(<[u8]>::to_vec),
            1 => proptest::sample::select(vec![
                &br"\ud800"[..], br"\udc00", br"\ud800\u0041", br"\ud800\n", br"\u12", br"\u12G4", br"\x",
                br"\'", b"\t", b"\x00", b"\x1f", b"\xff", b"\xc3", b"\xed\xa0\x80", b"\xc0\xaf",
            ])
            .prop_map(<[u8]>::to_vec),
            1 => "\\PC{0,4}".prop_map(String::into_bytes),
        ]
    }

    fn json_string() -> impl Strategy<Value = Vec<u8>> {
        proptest::collection::vec(string_piece(), 0..4)
            .prop_map(|pieces| [&b"\""[..], &pieces.concat(), b"\""].concat())
    }

    /// Numbers as u64, i64 and f64 write them (in range or not), and from the grammar's edges.
    fn json_number() -> impl Strategy<Value = Vec<u8>> {
        prop_oneof![
            any::<u64>().prop_map(|number| number.to_string().into_bytes()),
            any::<i64>().prop_map(|number| number.to_string().into_bytes()),
            any::<f64>().prop_map(|number| format!("{number:e}").into_bytes()),
            any::<f64>().prop_map(|number| format!("{number:?}").into_bytes()),
            "-?[1-9][0-9]{17,21}".prop_map(String::into_bytes),
            "-?(0|[1-9][0-9]{0,5})(\\.[0-9]{1,3})?([eE][+-]?[0-9]{1,3})?".prop_map(String::into_bytes),
            (
                "-?(0|[1-9][0-9]{0,25}|0[0-9]{1,2})",
                proptest::option::of("\\.[0-9]{0,3}"),
                proptest::option::of("[eE][+-]?[0-9]{0,4}")
            )
                .prop_map(|(integer, fraction, exponent)| {
                    format!("{integer}{}{}", fraction.unwrap_or_default(), exponent.unwrap_or_default()).into_bytes()
                }),
        ]
    }

    fn json_key() -> impl Strategy<Value = Vec<u8>> {
        prop_oneof![
            4 => "\"[a-z_]{0,8}\"".prop_map(String::into_bytes),
            1 => proptest::sample::select(KEYS.to_vec()).prop_map(<[u8]>::to_vec),
            1 => json_string(),
        ]
    }

    /// Whitespace serde_json skips, now and then something it does not (form feed).
    fn space() -> impl Strategy<Value = Vec<u8>> {
        prop_oneof![
            60 => Just(Vec::new()),
            20 => "[ \t\r\n]{1,3}".prop_map(String::into_bytes),
            1 => Just(b"\x0c".to_vec()),
        ]
    }

    fn json_value() -> impl Strategy<Value = Vec<u8>> {
        let leaf = prop_oneof![
            3 => json_string(),
            2 => json_number(),
            1 => proptest::sample::select(vec![&b"true"[..], b"false", b"null", b"null", b"nul", b"True"])
                .prop_map(<[u8]>::to_vec),
        ];
        leaf.prop_recursive(3, 24, 4, |inner| {
            prop_oneof![
                proptest::collection::vec((space(), inner.clone()), 0..5).prop_map(|items| {
                    let items: Vec<Vec<u8>> = items.into_iter().map(|(space, item)| [space, item].concat()).collect();
                    [&b"["[..], &items.join(&b","[..]), b"]"].concat()
                }),
                proptest::collection::vec((json_key(), space(), inner), 0..5).prop_map(|members| {
                    let members: Vec<Vec<u8>> = members
                        .into_iter()
                        .map(|(key, space, value)| [key, space, b":".to_vec(), value].concat())
                        .collect();
                    [&b"{"[..], &members.join(&b","[..]), b"}"].concat()
                }),
            ]
        })
    }

    /// A value, now and then wrapped in containers nested around serde_json's limit.
    fn maybe_deep_value() -> impl Strategy<Value = Vec<u8>> {
        prop_oneof![
            8 => json_value(),
            1 => (json_value(), 124usize..=130, any::<bool>()).prop_map(|(value, depth, arrays)| {
                let (open, close) = if arrays { ("[", "]") } else { (r#"{"k":"#, "}") };
                [open.repeat(depth).as_bytes(), &value, close.repeat(depth).as_bytes()].concat()
            }),
        ]
    }

    /// The value of a top-level `id` or `type`: mostly a string or a number.
    fn top_value() -> impl Strategy<Value = Vec<u8>> {
        prop_oneof![
            4 => json_string(),
            2 => json_number(),
            2 => maybe_deep_value(),
        ]
    }

    /// A top-level object: mostly an `id` and a `type` (spelled plainly or with escapes, now and
    /// then twice, when a skipped key happens to be one) among skipped members, in any order.
    fn json_body() -> impl Strategy<Value = Vec<u8>> {
        let id = (prop_oneof![4 => Just(br#""id""#.to_vec()), 1 => Just(br#""\u0069d""#.to_vec())], top_value());
        let event_type =
            (prop_oneof![4 => Just(br#""type""#.to_vec()), 1 => Just(br#""typ\u0065""#.to_vec())], top_value());
        let members = (
            proptest::option::weighted(0.8, id),
            proptest::option::weighted(0.8, event_type),
            proptest::collection::vec((json_key(), maybe_deep_value()), 0..3),
        )
            .prop_map(|(id, event_type, others)| [Vec::from_iter(id), Vec::from_iter(event_type), others].concat())
            .prop_shuffle();
        let members = (members, proptest::collection::vec((space(), space()), 4)).prop_map(|(members, spaces)| {
            members
                .into_iter()
                .zip(spaces.into_iter().cycle())
                .map(|((key, value), (before, after))| [key, before, b":".to_vec(), value, after].concat())
                .collect::<Vec<_>>()
                .join(&b","[..])
        });
        (space(), members, space())
            .prop_map(|(before, members, after)| [before, b"{".to_vec(), members, b"}".to_vec(), after].concat())
    }

    /// A change to a body: a byte replaced, inserted or deleted, or the body cut short.
    #[derive(Debug, Clone)]
    enum Mutation {
        Replace(proptest::sample::Index, u8),
        Insert(proptest::sample::Index, u8),
        Delete(proptest::sample::Index),
        Truncate(proptest::sample::Index),
    }

    fn mutation() -> impl Strategy<Value = Mutation> {
        let byte = prop_oneof![
            3 => proptest::sample::select(b"\"\\\x00\x1f\x0c \t\n:,{}[]0-+.eEu\xff\xc3\xa9\xed".to_vec()),
            1 => any::<u8>(),
        ];
        prop_oneof![
            (any::<proptest::sample::Index>(), byte.clone()).prop_map(|(at, byte)| Mutation::Replace(at, byte)),
            (any::<proptest::sample::Index>(), byte).prop_map(|(at, byte)| Mutation::Insert(at, byte)),
            any::<proptest::sample::Index>().prop_map(Mutation::Delete),
            any::<proptest::sample::Index>().prop_map(Mutation::Truncate),
        ]
    }

    fn mutate(mut body: Vec<u8>, mutations: &[Mutation]) -> Vec<u8> {
        for mutation in mutations {
            if body.is_empty() {
                break;
            }
            match mutation {
                Mutation::Replace(at, byte) => {
                    let at = at.index(body.len());
                    body[at] = *byte;
                }
                Mutation::Insert(at, byte) => body.insert(at.index(body.len() + 1), *byte),
                Mutation::Delete(at) => {
                    body.remove(at.index(body.len()));
                }
                Mutation::Truncate(at) => body.truncate(at.index(body.len())),
            }
        }
        body
    }

    proptest! {
        /// Bodies built as JSON, then (mostly) changed a little: every one is read as serde_json
        /// read it, or refused as it was. `PROPTEST_CASES=200000` for a long run.
        #[test]
        fn any_body_is_read_and_refused_as_serde_json_did(
            body in json_body(),
            mutations in proptest::collection::vec(mutation(), 0..3),
        ) {
            assert_reads_as_serde(&mutate(body, &mutations));
        }
    }
}
