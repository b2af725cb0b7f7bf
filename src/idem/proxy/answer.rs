//! What the proxy keeps of an upstream's answer while its operation is open: what the judge and
//! the live line read (status, resource id and where it was read, the replay marker, digests of
//! the body to compare replays with, the start of the body when a finding will quote it, the error when there was no
//! answer), in at most one allocation, and none for the body.
//!
//! A proxy in front of a load test holds a window's worth of answers (about 190k at 38k
//! requests/s and `--window 5s`), so every allocation and every byte of each counts: the body is
//! kept as `BodyDigest` (its length, a hash of its bytes and one of its canonical JSON form), so
//! replays are still judged identical, equal as JSON or different, but a JSON difference can no
//! longer be placed. The verdict's `Observed` also carries what only its notes read (headers,
//! timings, encodings); it is rebuilt from this when the operation is judged.
use crate::idem::verdict::{BodyDigest, Observed, REPLAY_MARKERS};

/// The start of a body as a finding quotes it: at most this many characters.
const QUOTED_CHARS: usize = 120;

/// A body as the BodyChanged finding quotes it: trimmed, its first 120 characters.
fn quoted(body: &[u8]) -> String {
    crate::text::ellipsis(String::from_utf8_lossy(body).trim(), QUOTED_CHARS)
}

/// A length of a string in `text` that may be absent.
const ABSENT: u32 = u32::MAX;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UpstreamAnswer {
    /// The resource id, where it was read, the error and the quoted body, one after the other; the
    /// lengths below cut it up.
    text: Box<[u8]>,
    body_raw: u64,
    body_json: u64,
    /// The body's length, saturating at 4 GiB.
    body_len: u32,
    resource_id_len: u32,
    id_from_len: u32,
    error_len: u32,
    quoted_len: u32,
    /// `None` when the upstream could not be reached or did not answer.
    status: Option<u16>,
    replayed: bool,
    body_is_json: bool,
    /// The replay marker's place in `REPLAY_MARKERS`.
    marker: Option<u8>,
}

impl UpstreamAnswer {
    /// Keeps what the judge reads of `observed`; `quote_body` keeps the start of its body too,
    /// for the attempt that reused its key with another body (the finding quotes the answer).
    pub(crate) fn keep(observed: &Observed, quote_body: bool) -> UpstreamAnswer {
        let digest = observed.body_digest.unwrap_or_else(|| BodyDigest::of(&observed.body));
        let excerpt = quote_body.then(|| quoted(&observed.body));
        let strings = [
            observed.resource_id.as_deref().map(str::as_bytes),
            observed.id_from.as_deref().map(str::as_bytes),
            observed.error.as_deref().map(str::as_bytes),
            excerpt.as_deref().map(str::as_bytes),
        ];
        let mut text = Vec::with_capacity(strings.iter().flatten().map(|s| s.len()).sum());
        for string in strings.iter().flatten() {
            text.extend_from_slice(string);
        }
        let len = |string: Option<&[u8]>| string.map_or(ABSENT, |s| u32::try_from(s.len()).unwrap_or(ABSENT - 1));
        UpstreamAnswer {
            text: text.into_boxed_slice(),
            body_raw: digest.raw,
            body_json: digest.json.unwrap_or_default(),
            body_len: u32::try_from(digest.len).unwrap_or(u32::MAX),
            resource_id_len: len(strings[0]),
            id_from_len: len(strings[1]),
            error_len: len(strings[2]),
            quoted_len: len(strings[3]),
            status: observed.status,
            replayed: observed.replayed,
            body_is_json: digest.json.is_some(),
            marker: observed
                .marker
                .and_then(|marker| REPLAY_MARKERS.iter().position(|known| *known == marker))
                .and_then(|at| u8::try_from(at).ok()),
        }
    }

    pub(crate) fn status(&self) -> Option<u16> {
        self.status
    }

    pub(crate) fn replayed(&self) -> bool {
        self.replayed
    }

    /// What stands for the body (decoded from its `Content-Encoding`).
    pub(crate) fn body_digest(&self) -> BodyDigest {
        BodyDigest {
            len: self.body_len as usize,
            raw: self.body_raw,
            json: self.body_is_json.then_some(self.body_json),
        }
    }

    /// The body as a finding quotes it, when it was kept for that (`keep`'s `quote_body`).
    pub(crate) fn quoted_body(&self) -> Option<&str> {
        self.string(3)
    }

    pub(crate) fn resource_id(&self) -> Option<&str> {
        self.string(0)
    }

    fn id_from(&self) -> Option<&str> {
        self.string(1)
    }

    pub(crate) fn error(&self) -> Option<&str> {
        self.string(2)
    }

    /// The `index`th of the strings stored in `text` (resource id, where it was read, error,
    /// quoted body).
    fn bytes(&self, index: usize) -> Option<&[u8]> {
        let lens = [self.resource_id_len, self.id_from_len, self.error_len, self.quoted_len];
        let len = lens[index];
        if len == ABSENT {
            return None;
        }
        let start: usize = lens[..index].iter().filter(|&&l| l != ABSENT).map(|&l| l as usize).sum();
        self.text.get(start..start + len as usize)
    }

    fn string(&self, index: usize) -> Option<&str> {
        // Always valid: each was copied in whole from a `String`.
        std::str::from_utf8(self.bytes(index)?).ok()
    }

    /// The answer as the shared verdict reads it (without what only its notes read: headers,
    /// timings, encodings), its body as a digest.
    pub(crate) fn observed(&self) -> Observed {
        let mut observed = Observed::failed(String::new());
        observed.status = self.status;
        observed.error = self.error().map(str::to_string);
        observed.resource_id = self.resource_id().map(str::to_string);
        observed.id_from = self.id_from().map(str::to_string);
        observed.replayed = self.replayed;
        observed.marker = self.marker.and_then(|at| REPLAY_MARKERS.get(usize::from(at)).copied());
        observed.body_digest = Some(self.body_digest());
        observed
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::idem::request::IdSource;
    use bytes::Bytes;
    use http::{HeaderMap, HeaderValue};

    #[test]
    fn an_answer_keeps_what_the_judge_reads_and_digests_its_body() {
        let mut headers = HeaderMap::new();
        headers.insert("idempotent-replayed", HeaderValue::from_static("true"));
        headers.insert("content-type", HeaderValue::from_static("application/json"));
        let ids = IdSource { field: "/id".into(), header: None };
        let body = r#"{"id":"pay_1","é":1}"#;
        let observed = Observed::answer(201, &headers, Bytes::from_static(body.as_bytes()), &ids);
        let kept = UpstreamAnswer::keep(&observed, false);
        assert_eq!(kept.status(), Some(201));
        assert!(kept.replayed());
        assert_eq!(kept.body_digest(), BodyDigest::of(body.as_bytes()));
        assert_eq!((kept.resource_id(), kept.error(), kept.quoted_body()), (Some("pay_1"), None, None));
        let back = kept.observed();
        assert_eq!(
            (back.status, back.resource_id, back.id_from, back.replayed, back.marker, back.error, back.body_digest),
            (
                observed.status,
                observed.resource_id,
                observed.id_from,
                observed.replayed,
                observed.marker,
                observed.error,
                Some(BodyDigest::of(body.as_bytes()))
            )
        );
        assert!(back.body.is_empty(), "the body itself is not kept");
    }

    #[test]
    fn a_failure_keeps_its_error_and_no_id() {
        let kept = UpstreamAnswer::keep(&Observed::failed("connection refused"), false);
        assert_eq!(
            (kept.status(), kept.error(), kept.resource_id(), kept.body_digest().len),
            (None, Some("connection refused"), None, 0)
        );
        let back = kept.observed();
        assert_eq!((back.status, back.error.as_deref()), (None, Some("connection refused")));
    }

    #[test]
    fn an_answer_without_an_id_has_none_and_an_empty_id_is_kept() {
        let ids = IdSource { field: "/id".into(), header: None };
        let none =
            UpstreamAnswer::keep(&Observed::answer(200, &HeaderMap::new(), Bytes::from_static(b"ok"), &ids), false);
        assert_eq!((none.resource_id(), none.body_digest().json), (None, None));
        let mut observed = Observed::failed("late");
        observed.resource_id = Some(String::new());
        let empty = UpstreamAnswer::keep(&observed, false);
        assert_eq!((empty.resource_id(), empty.error()), (Some(""), Some("late")));
    }

    #[test]
    fn a_quoted_body_is_its_first_120_characters() {
        let ids = IdSource { field: "/id".into(), header: None };
        let long = format!("  {}  ", "é".repeat(200));
        let kept =
            UpstreamAnswer::keep(&Observed::answer(422, &HeaderMap::new(), Bytes::from(long.clone()), &ids), true);
        assert_eq!(kept.quoted_body(), Some(format!("{}…", "é".repeat(120)).as_str()));
        assert_eq!(kept.body_digest().len, long.len());
    }
}
