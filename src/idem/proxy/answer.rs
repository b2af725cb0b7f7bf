//! What the proxy keeps of an upstream's answer while its operation is open: what the judge and
//! the live line read (status, resource id and where it was read, the replay marker, the body to
//! compare replays with, the error when there was no answer), in one allocation.
//!
//! A proxy in front of a load test holds a window's worth of answers (about 100k at 20k requests/s
//! and `--window 5s`), so every allocation and every byte of each counts. The verdict's
//! `Observed` also carries what only its notes read (headers, timings, encodings); it is rebuilt
//! from this when the operation is judged.
use bytes::Bytes;

use crate::idem::verdict::Observed;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UpstreamAnswer {
    /// `None` when the upstream could not be reached or did not answer.
    status: Option<u16>,
    replayed: bool,
    marker: Option<&'static str>,
    /// The body, the resource id, where it was read and the error, one after the other; the
    /// lengths below cut it up.
    text: Box<[u8]>,
    body_len: usize,
    resource_id_len: Option<usize>,
    id_from_len: Option<usize>,
    error_len: Option<usize>,
}

impl UpstreamAnswer {
    pub(crate) fn keep(observed: &Observed) -> UpstreamAnswer {
        let strings = [&observed.resource_id, &observed.id_from, &observed.error];
        let size = observed.body.len() + strings.iter().filter_map(|s| s.as_ref()).map(String::len).sum::<usize>();
        let mut text = Vec::with_capacity(size);
        text.extend_from_slice(&observed.body);
        for string in strings.iter().filter_map(|s| s.as_ref()) {
            text.extend_from_slice(string.as_bytes());
        }
        UpstreamAnswer {
            status: observed.status,
            replayed: observed.replayed,
            marker: observed.marker,
            text: text.into_boxed_slice(),
            body_len: observed.body.len(),
            resource_id_len: observed.resource_id.as_ref().map(String::len),
            id_from_len: observed.id_from.as_ref().map(String::len),
            error_len: observed.error.as_ref().map(String::len),
        }
    }

    pub(crate) fn status(&self) -> Option<u16> {
        self.status
    }

    pub(crate) fn replayed(&self) -> bool {
        self.replayed
    }

    /// The body, decoded from its `Content-Encoding`.
    pub(crate) fn body(&self) -> &[u8] {
        &self.text[..self.body_len]
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

    /// The `index`th of the strings stored after the body (resource id, where it was read, error).
    fn string(&self, index: usize) -> Option<&str> {
        let lens = [self.resource_id_len, self.id_from_len, self.error_len];
        let len = lens[index]?;
        let start = self.body_len + lens[..index].iter().flatten().sum::<usize>();
        // Always valid: each was copied in whole from a `String`.
        std::str::from_utf8(self.text.get(start..start + len)?).ok()
    }

    /// The answer as the shared verdict reads it (without what only its notes read: headers,
    /// timings, encodings).
    pub(crate) fn observed(&self) -> Observed {
        let mut observed = Observed::failed(String::new());
        observed.status = self.status;
        observed.error = self.error().map(str::to_string);
        observed.resource_id = self.resource_id().map(str::to_string);
        observed.id_from = self.id_from().map(str::to_string);
        observed.replayed = self.replayed;
        observed.marker = self.marker;
        observed.body = Bytes::copy_from_slice(self.body());
        observed
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::idem::request::IdSource;
    use http::{HeaderMap, HeaderValue};

    #[test]
    fn an_answer_keeps_what_the_judge_reads() {
        let mut headers = HeaderMap::new();
        headers.insert("idempotent-replayed", HeaderValue::from_static("true"));
        headers.insert("content-type", HeaderValue::from_static("application/json"));
        let ids = IdSource { field: "/id".into(), header: None };
        let observed = Observed::answer(201, &headers, Bytes::from_static(r#"{"id":"pay_1","é":1}"#.as_bytes()), &ids);
        let kept = UpstreamAnswer::keep(&observed);
        assert_eq!(kept.status(), Some(201));
        assert!(kept.replayed());
        assert_eq!(kept.body(), r#"{"id":"pay_1","é":1}"#.as_bytes());
        assert_eq!(kept.resource_id(), Some("pay_1"));
        assert_eq!(kept.error(), None);
        let back = kept.observed();
        assert_eq!(
            (back.status, back.resource_id, back.id_from, back.replayed, back.marker, back.error, back.body),
            (
                observed.status,
                observed.resource_id,
                observed.id_from,
                observed.replayed,
                observed.marker,
                observed.error,
                observed.body
            )
        );
    }

    #[test]
    fn a_failure_keeps_its_error_and_no_id() {
        let kept = UpstreamAnswer::keep(&Observed::failed("connection refused"));
        assert_eq!(
            (kept.status(), kept.error(), kept.resource_id(), kept.body()),
            (None, Some("connection refused"), None, &b""[..])
        );
        let back = kept.observed();
        assert_eq!((back.status, back.error.as_deref()), (None, Some("connection refused")));
    }

    #[test]
    fn an_answer_without_an_id_has_none_and_an_empty_id_is_kept() {
        let ids = IdSource { field: "/id".into(), header: None };
        let none = UpstreamAnswer::keep(&Observed::answer(200, &HeaderMap::new(), Bytes::from_static(b"ok"), &ids));
        assert_eq!((none.resource_id(), none.body()), (None, &b"ok"[..]));
        let mut observed = Observed::failed("late");
        observed.resource_id = Some(String::new());
        let empty = UpstreamAnswer::keep(&observed);
        assert_eq!((empty.resource_id(), empty.error()), (Some(""), Some("late")));
    }
}
