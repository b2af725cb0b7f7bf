//! One pass over a JSON body for the two things the judge reads of it without keeping it: a hash
//! of its canonical form (replays are compared by it) and the created resource's id at
//! `--id-field`.
//!
//! `idem proxy` reads both from every answer it judges. Parsing the body into a
//! `serde_json::Value` for them built a tree of maps with every key and string allocated, only to
//! drop it: about 4-5% of the proxy's time under load. This walks the same parser's events
//! instead, so it accepts exactly the documents `serde_json::from_slice::<Value>` accepts (same
//! grammar, recursion limit and trailing-whitespace rule), and allocates nothing per member or
//! string: keys are borrowed from the body unless written with escapes, and an object's members
//! wait for sorting in one list shared by the whole document.
use std::borrow::Cow;
use std::fmt;
use std::hash::{Hash, Hasher};

use serde::de::{DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use smallvec::SmallVec;

/// What `digest_json` reads of a JSON document.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct JsonDigest {
    /// Equal for documents equal as JSON (members in any order, the last of a repeated key, `1`
    /// and `1.0` alike), different otherwise (but for a 2^-64 chance).
    pub(crate) hash: u64,
    /// The string or number at the pointer asked for, numbers in one canonical form.
    pub(crate) id: Option<String>,
}

/// The canonical hash of `body` and the id at `id_pointer` (an RFC 6901 JSON pointer, `""` for
/// the whole document; `None` when no id is wanted), or `None` when `body` is not one JSON
/// document.
pub(crate) fn digest_json(body: &[u8], id_pointer: Option<&str>) -> Option<JsonDigest> {
    let tokens = id_pointer.and_then(pointer_tokens);
    let mut deserializer = serde_json::Deserializer::from_slice(body);
    // Most objects have few members: a document's members then wait on the stack.
    let mut members = SmallVec::new();
    let root = Node { path: tokens.as_deref(), members: &mut members }.deserialize(&mut deserializer).ok()?;
    deserializer.end().ok()?;
    Some(JsonDigest { hash: root.hash, id: root.id })
}

/// A JSON number as an id, written one way whatever form it arrived in: integral floats within
/// the exactly representable range as the integer they equal (`1.0` and `1e0` are the id `1`).
pub(crate) fn canonical_float(float: f64) -> String {
    if float.fract() == 0.0 && float.abs() < 9_007_199_254_740_992.0 {
        return format!("{}", float as i64);
    }
    format!("{float}")
}

/// One reference token of a JSON pointer, unescaped, and the array index it names, if any.
struct Token<'p> {
    key: Cow<'p, str>,
    index: Option<usize>,
}

/// The tokens of `pointer` as `serde_json::Value::pointer` reads them, or `None` for a pointer
/// that names nothing (one that does not start with `/`).
fn pointer_tokens(pointer: &str) -> Option<SmallVec<[Token<'_>; 4]>> {
    if pointer.is_empty() {
        return Some(SmallVec::new());
    }
    let tokens = pointer.strip_prefix('/')?.split('/').map(|escaped| {
        // The same replacements in the same order as `Value::pointer`, so odd tokens (`~2`, a
        // lone `~`) name what they name there.
        let key = if escaped.contains('~') {
            Cow::Owned(escaped.replace("~1", "/").replace("~0", "~"))
        } else {
            Cow::Borrowed(escaped)
        };
        let index = array_index(&key);
        Token { key, index }
    });
    Some(tokens.collect())
}

/// The array index a token names, by `Value::pointer`'s rule: digits only, no sign, no leading
/// zero but in `0` itself.
fn array_index(token: &str) -> Option<usize> {
    if token.starts_with('+') || (token.starts_with('0') && token.len() != 1) {
        return None;
    }
    token.parse().ok()
}

/// What a JSON value contributes to its parent: its own hash, and the id when the pointer leads
/// through it to a string or number.
struct Digested {
    hash: u64,
    id: Option<String>,
}

/// The members of the objects being walked, each a key and its value's hash: an object's members
/// are pushed after those of the objects around it, and taken off when it is hashed.
type Members<'de> = SmallVec<[(Cow<'de, str>, u64); 16]>;

/// The walk of one JSON value: what is left of the pointer below it, if it lies on the pointer's
/// path.
struct Node<'w, 'p, 'de> {
    /// `None`: the pointer does not lead here; `Some([])`: this value is the one it names.
    path: Option<&'w [Token<'p>]>,
    members: &'w mut Members<'de>,
}

impl Node<'_, '_, '_> {
    fn is_target(&self) -> bool {
        matches!(self.path, Some([]))
    }
}

// Tags keep values of different types apart (the string "1" from the number 1, `[]` from `{}`).
const NULL: u8 = 0;
const BOOL: u8 = 1;
const NUMBER: u8 = 2;
const STRING: u8 = 3;
const ARRAY: u8 = 4;
const OBJECT: u8 = 5;

// Numbers hash by value, as the judge compares them: integers of either sign as one class, a
// float that is a whole number as that integer, other floats by their bits. An integer beyond
// 2^53 and the float it rounds to hash apart, though `first_json_difference` finds them equal
// through f64: that relation is not transitive (2^53 + 1 equals 2^53 as a float, which equals
// 2^53, which differs from 2^53 + 1), so no hash can follow it, and this errs towards reporting a
// difference rather than hiding one.
const INTEGER: u8 = 0;
const FRACTION: u8 = 1;

fn integer_hash(integer: i128) -> u64 {
    crate::run_hash::hash_of(&(NUMBER, INTEGER, integer))
}

impl<'de> DeserializeSeed<'de> for Node<'_, '_, 'de> {
    type Value = Digested;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Digested, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Node<'_, '_, 'de> {
    type Value = Digested;

    fn expecting(&self, formatter: &mut fmt::Formatter) -> fmt::Result {
        formatter.write_str("a JSON value")
    }

    fn visit_unit<E: serde::de::Error>(self) -> Result<Digested, E> {
        Ok(Digested { hash: crate::run_hash::hash_of(&NULL), id: None })
    }

    fn visit_bool<E: serde::de::Error>(self, value: bool) -> Result<Digested, E> {
        Ok(Digested { hash: crate::run_hash::hash_of(&(BOOL, value)), id: None })
    }

    fn visit_u64<E: serde::de::Error>(self, value: u64) -> Result<Digested, E> {
        Ok(Digested { hash: integer_hash(i128::from(value)), id: self.is_target().then(|| value.to_string()) })
    }

    fn visit_i64<E: serde::de::Error>(self, value: i64) -> Result<Digested, E> {
        Ok(Digested { hash: integer_hash(i128::from(value)), id: self.is_target().then(|| value.to_string()) })
    }

    fn visit_f64<E: serde::de::Error>(self, value: f64) -> Result<Digested, E> {
        let hash = if value.fract() == 0.0 && value.abs() < 1e38 {
            integer_hash(value as i128)
        } else {
            crate::run_hash::hash_of(&(NUMBER, FRACTION, value.to_bits()))
        };
        Ok(Digested { hash, id: self.is_target().then(|| canonical_float(value)) })
    }

    fn visit_str<E: serde::de::Error>(self, value: &str) -> Result<Digested, E> {
        Ok(Digested {
            hash: crate::run_hash::hash_of(&(STRING, value)),
            id: self.is_target().then(|| value.to_owned()),
        })
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut items: A) -> Result<Digested, A::Error> {
        let mut hasher = crate::run_hash::hasher();
        ARRAY.hash(&mut hasher);
        let (next, below) = next_token(self.path);
        let wanted = next.and_then(|token| token.index);
        let mut id = None;
        let mut count = 0usize;
        while let Some(item) = items
            .next_element_seed(Node { path: below.filter(|_| wanted == Some(count)), members: &mut *self.members })?
        {
            item.hash.hash(&mut hasher);
            if wanted == Some(count) {
                id = item.id;
            }
            count += 1;
        }
        // The length only comes at the end; after items of a fixed width each, it still tells
        // `[[]]` from `[[], []]`.
        count.hash(&mut hasher);
        Ok(Digested { hash: hasher.finish(), id })
    }

    fn visit_map<A: MapAccess<'de>>(self, mut entries: A) -> Result<Digested, A::Error> {
        let start = self.members.len();
        let (next, below) = next_token(self.path);
        let mut id = None;
        while let Some(key) = entries.next_key_seed(Key)? {
            let on_path = next.is_some_and(|token| token.key == key);
            let value =
                entries.next_value_seed(Node { path: below.filter(|_| on_path), members: &mut *self.members })?;
            // A repeated key's last value is the member, as in `serde_json::Value`: it replaces
            // the id an earlier one had, or its lack of one.
            if on_path {
                id = value.id;
            }
            self.members.push((key, value.hash));
        }
        let hash = object_hash(&mut self.members[start..]);
        self.members.truncate(start);
        Ok(Digested { hash, id })
    }
}

/// The next token of a path and what is left of it after that token; `(None, None)` off the
/// path and at its end.
fn next_token<'w, 'p>(path: Option<&'w [Token<'p>]>) -> (Option<&'w Token<'p>>, Option<&'w [Token<'p>]>) {
    match path {
        Some([next, below @ ..]) => (Some(next), Some(below)),
        _ => (None, None),
    }
}

/// The hash of an object's `members` in key order, each key once with its last value, the way a
/// `serde_json::Value` holds them (which is what the judge compares).
fn object_hash(members: &mut [(Cow<'_, str>, u64)]) -> u64 {
    // Stable, so a repeated key's occurrences stay in the order they came in.
    members.sort_by(|a, b| a.0.cmp(&b.0));
    let is_last_of_its_key = |at: usize| members.get(at + 1).is_none_or(|next| next.0 != members[at].0);
    let mut hasher = crate::run_hash::hasher();
    OBJECT.hash(&mut hasher);
    (0..members.len()).filter(|&at| is_last_of_its_key(at)).count().hash(&mut hasher);
    for (key, value) in (0..members.len()).filter(|&at| is_last_of_its_key(at)).map(|at| &members[at]) {
        key.hash(&mut hasher);
        value.hash(&mut hasher);
    }
    hasher.finish()
}

/// An object's key, borrowed from the body unless it is written with escapes.
struct Key;

impl<'de> DeserializeSeed<'de> for Key {
    type Value = Cow<'de, str>;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Cow<'de, str>, D::Error> {
        deserializer.deserialize_str(self)
    }
}

impl<'de> Visitor<'de> for Key {
    type Value = Cow<'de, str>;

    fn expecting(&self, formatter: &mut fmt::Formatter) -> fmt::Result {
        formatter.write_str("an object key")
    }

    fn visit_borrowed_str<E: serde::de::Error>(self, key: &'de str) -> Result<Cow<'de, str>, E> {
        Ok(Cow::Borrowed(key))
    }

    fn visit_str<E: serde::de::Error>(self, key: &str) -> Result<Cow<'de, str>, E> {
        Ok(Cow::Owned(key.to_owned()))
    }

    fn visit_string<E: serde::de::Error>(self, key: String) -> Result<Cow<'de, str>, E> {
        Ok(Cow::Owned(key))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::idem::request::IdSource;
    use http::HeaderMap;
    use serde_json::Value;

    fn hash(body: &str) -> Option<u64> {
        digest_json(body.as_bytes(), None).map(|json| json.hash)
    }

    /// `count` arrays inside each other around `1`.
    fn nested(count: usize, inner: &str) -> String {
        format!("{}{inner}{}", "[".repeat(count), "]".repeat(count))
    }

    /// Documents that are equal as JSON in groups, and unequal across them: reordered, repeated
    /// and escaped members, numbers in several spellings, every type next to its look-alikes.
    fn corpus() -> Vec<String> {
        let texts = [
            r#"{"id":"pay_123","object":"payment","amount":1990,"currency":"RUB"}"#,
            r#"{"currency":"RUB","amount":1990,"object":"payment","id":"pay_123"}"#,
            " { \"id\" : \"pay_123\" , \"object\":\"payment\",\"amount\":1990.0,\"currency\":\"RUB\" } \n",
            r#"{"id":"pay_123","object":"payment","amount":1.99e3,"currency":"RUB"}"#,
            r#"{"id":"pay_123","object":"payment","amount":1990,"currency":"RUB","amount":1990}"#,
            r#"{"id":"pay_123","object":"payment","amount":1,"currency":"RUB","amount":1990}"#,
            r#"{"id":"pay_123","object":"payment","amount":1990,"currency":"RUB","amount":1}"#,
            r#"{"id":"pay_\u0031\u0032\u0033","object":"payment","amount":1990,"currency":"RUB"}"#,
            r#"{"\u0069d":"pay_123","object":"payment","amount":1990,"currency":"RUB"}"#,
            r#"{"id":"pay_124","object":"payment","amount":1990,"currency":"RUB"}"#,
            r#"{"id":"pay_123","object":"payment","amount":1990}"#,
            "1",
            "1.0",
            "1e0",
            "10e-1",
            "100E-2",
            "2",
            "-1",
            "-1.0",
            "0",
            "-0",
            "0.0",
            "-0.0",
            "1.5",
            "-2.5",
            "0.1",
            "1e300",
            "1e38",
            "1e37",
            "9007199254740992",
            "9007199254740992.0",
            "18446744073709551615",
            "18446744073709551614",
            "9223372036854775808",
            "-9223372036854775808",
            "10000000000000000000",
            "1e19",
            r#""a""#,
            r#""\u0061""#,
            r#""1""#,
            r#""true""#,
            r#""null""#,
            r#""""#,
            r#""é""#,
            r#""\u00e9""#,
            r#""😀""#,
            r#""\ud83d\ude00""#,
            r#""a\"b""#,
            r#""a\\b""#,
            r#""\n""#,
            r#""\u000a""#,
            "null",
            "true",
            "false",
            "[]",
            "[ ]",
            "{}",
            "{ }",
            "[1,2]",
            "[2,1]",
            "[1,2.0]",
            "[1]",
            "[[1],[2]]",
            "[[1,2]]",
            "[[]]",
            "[[],[]]",
            "[null]",
            "[{}]",
            r#"{"a":{}}"#,
            r#"{"a":[]}"#,
            r#"{"a":null}"#,
            r#"{"a":1,"b":2}"#,
            r#"{"b":2,"a":1}"#,
            r#"{"a":2,"b":1}"#,
            r#"{"a":1,"a":2}"#,
            r#"{"a":2}"#,
            r#"{"a":2,"a":1}"#,
            r#"{"a":1,"a":1}"#,
            r#"{"a":1}"#,
            r#"{"a":"b"}"#,
            r#"{"b":"a"}"#,
            r#"{"1":1}"#,
            r#"{"":1}"#,
            r#"{"a":[1,2],"b":[3]}"#,
            r#"{"a":[1],"b":[2,3]}"#,
            r#"{"a/b":1,"m~n":2}"#,
            r#"{"a\/b":1,"m\u007en":2}"#,
            r#"{"ключ":"значение"}"#,
            r#"{"\u043a\u043b\u044e\u0447":"значение"}"#,
            r#"{"a":{"b":{"c":[1,{"d":[true,null,"x"],"e":0.5}]}}}"#,
            r#"{"a":{"b":{"c":[1.0,{"e":5e-1,"d":[true,null,"\u0078"]}]}}}"#,
            r#"{"a":{"b":{"c":[1,{"d":[true,null,"y"],"e":0.5}]}}}"#,
            r#"{"a":{"b":{"c":[{"d":[true,null,"x"],"e":0.5},1]}}}"#,
            r#"{"x":{"a":1,"b":{"c":2,"d":3}},"y":[{"p":1,"q":2}]}"#,
            r#"{"y":[{"q":2,"p":1}],"x":{"b":{"d":3,"c":2},"a":1}}"#,
            r#"{"y":[{"q":2,"p":1}],"x":{"b":{"d":3,"c":2},"a":1},"x":{"a":1}}"#,
        ];
        let mut documents: Vec<String> = texts.iter().map(|text| text.to_string()).collect();
        documents.extend([nested(100, "1"), nested(100, "1.0"), nested(100, "2"), nested(99, "1")]);
        documents
    }

    #[test]
    fn documents_hash_alike_exactly_when_the_judge_finds_them_equal_as_json() {
        let documents = corpus();
        let mut equal_pairs = 0;
        for (at, a) in documents.iter().enumerate() {
            assert!(hash(a).is_some(), "{a} is JSON");
            for b in &documents[at + 1..] {
                let equal = crate::idem::verdict::compare_bodies(a.as_bytes(), b.as_bytes()).is_ok();
                assert_eq!(hash(a) == hash(b), equal, "{a} against {b}");
                equal_pairs += usize::from(equal);
            }
        }
        assert!(equal_pairs >= 40, "the corpus has groups of equal documents ({equal_pairs} pairs)");
    }

    #[test]
    fn a_document_hashes_as_the_value_it_parses_to() {
        // Written back from a `serde_json::Value`, a document has its repeated keys resolved and
        // its numbers respelled: the hash must not see either.
        for document in corpus() {
            let value: Value = serde_json::from_str(&document).unwrap();
            assert_eq!(hash(&serde_json::to_string(&value).unwrap()), hash(&document), "{document}");
        }
    }

    #[test]
    fn an_integer_beyond_f64_and_its_rounded_float_hash_apart() {
        // The judge finds each equal to the float through f64, but the two integers differ: no
        // hash can follow a relation that is not transitive, and this one reports a difference
        // rather than hiding one.
        assert_ne!(hash("9007199254740993"), hash("9007199254740992.0"));
        assert_ne!(hash("9007199254740993"), hash("9007199254740992"));
        assert_eq!(hash("9007199254740992"), hash("9007199254740992.0"));
    }

    #[test]
    fn the_id_is_what_the_pointer_finds_in_the_parsed_value() {
        let documents = [
            r#"{"id":"pay_1"}"#,
            r#"{"id":7}"#,
            r#"{"id":7.0}"#,
            r#"{"id":1e0}"#,
            r#"{"id":1.5}"#,
            r#"{"id":-3}"#,
            r#"{"id":-0.0}"#,
            r#"{"id":1e300}"#,
            r#"{"id":9007199254740993}"#,
            r#"{"id":9007199254740992.0}"#,
            r#"{"id":18446744073709551615}"#,
            r#"{"id":-9223372036854775808}"#,
            r#"{"id":null}"#,
            r#"{"id":true}"#,
            r#"{"id":{"x":1}}"#,
            r#"{"id":[1]}"#,
            r#"{"id":"a","id":"b"}"#,
            r#"{"id":"a","id":null}"#,
            r#"{"id":"\ud83d\ude00 \"quoted\""}"#,
            r#"{"data":{"id":"d1"},"data":{"x":1}}"#,
            r#"{"data":{"x":1},"data":{"id":2}}"#,
            r#"{"data":{"id":"d\u00e9","more":[{"id":"inner"}]},"id":"outer"}"#,
            r#"{"items":[{"id":"i0"},{"id":"i1"}]}"#,
            r#"{"items":{"0":{"id":"obj0"},"01":"z","+1":"p","-1":"m"}}"#,
            r#"{"items":["a","b"]}"#,
            r#"{"items":[]}"#,
            r#"{"a/b":"slash","m~n":"tilde","~1":"t1","a~1b":"literal"}"#,
            r#"{"a\/b":"slash escaped","m\u007en":"tilde escaped"}"#,
            r#"{"":"empty key"}"#,
            r#"{"ids":[[1,2],[3]]}"#,
            r#""top""#,
            "42",
            "4.2e1",
            "[1,2]",
            "null",
            "not json",
            r#"{"id":"truncated""#,
        ];
        let pointers = [
            "/id",
            "/data/id",
            "/items/0/id",
            "/items/1/id",
            "/items/2/id",
            "/items/0",
            "/items/01",
            "/items/+1",
            "/items/-1",
            "/a~1b",
            "/m~0n",
            "/~01",
            "",
            "/",
            "/missing",
            "id",
            "/0",
            "/ids/1/0",
            "/id/x",
        ];
        for document in documents {
            for pointer in pointers {
                let source = IdSource { field: pointer.to_string(), header: None };
                let expected = source.read(&HeaderMap::new(), document.as_bytes()).map(|found| found.id);
                let found = digest_json(document.as_bytes(), Some(pointer)).and_then(|json| json.id);
                assert_eq!(found, expected, "{pointer} in {document}");
            }
        }
    }

    #[test]
    fn looking_for_an_id_does_not_change_the_hash() {
        for document in corpus() {
            let with_id = digest_json(document.as_bytes(), Some("/a/b/c/0")).map(|json| json.hash);
            assert_eq!(with_id, hash(&document), "{document}");
        }
    }

    #[test]
    fn a_body_is_refused_exactly_when_serde_json_refuses_it() {
        let objects = |count: usize| format!("{}1{}", r#"{"a":"#.repeat(count), "}".repeat(count));
        let mut bodies: Vec<Vec<u8>> = [
            "",
            " ",
            "nul",
            "{",
            r#"{"a":1"#,
            r#"{"a":1}x"#,
            r#"{"a":1} {}"#,
            "[1,]",
            r#"{"a":1,}"#,
            "01",
            "1.",
            "-",
            "+1",
            "NaN",
            "'a'",
            "{a:1}",
            r#""\ud800""#,
            r#""\x""#,
            "[1] \n\t ",
            "\u{feff}{}",
            r#"{"a" 1}"#,
            r#"{1:1}"#,
            "[1 2]",
            "tru",
            "true false",
            r#""unterminated"#,
            "1e",
            "1e400",
            "-1e400",
        ]
        .iter()
        .map(|text| text.as_bytes().to_vec())
        .collect();
        bodies.push(b"\"\xff\"".to_vec());
        bodies.push(b"{\"\xc3\":1}".to_vec());
        for depth in [126, 127, 128, 129, 200] {
            bodies.push(nested(depth, "1").into_bytes());
            bodies.push(objects(depth).into_bytes());
        }
        let mut refused = 0;
        for body in bodies {
            let parsed = serde_json::from_slice::<Value>(&body).is_ok();
            assert_eq!(digest_json(&body, Some("/a")).is_some(), parsed, "{}", String::from_utf8_lossy(&body));
            refused += usize::from(!parsed);
        }
        assert!(refused >= 25, "most of these are not JSON ({refused} refused)");
    }

    proptest::proptest! {
        #[test]
        fn any_text_is_accepted_and_read_as_serde_json_reads_it(
            text in "[\\[\\]{}\":,0-9ae.\\-+ \\\\u]{0,24}"
        ) {
            let value = serde_json::from_str::<Value>(&text).ok();
            let digest = digest_json(text.as_bytes(), Some(""));
            proptest::prop_assert_eq!(digest.is_some(), value.is_some());
            let source = IdSource { field: String::new(), header: None };
            let expected = source.read(&HeaderMap::new(), text.as_bytes()).map(|found| found.id);
            proptest::prop_assert_eq!(digest.and_then(|json| json.id), expected);
        }
    }
}
