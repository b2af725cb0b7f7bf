//! What belongs to one connection rather than to the message (RFC 9110 §7.6.1): the headers a
//! forwarder or a replay must not pass on.
use http::header::{CONNECTION, CONTENT_LENGTH, HOST, TE};
use http::{HeaderMap, HeaderName, HeaderValue};

/// Headers that describe one connection, not the message.
const HOP_BY_HOP: &[&str] = &[
    "connection",
    "keep-alive",
    "proxy-connection",
    "proxy-authenticate",
    "proxy-authorization",
    "te",
    "trailer",
    "transfer-encoding",
    "upgrade",
];

/// The message's own headers: `headers` minus hop-by-hop ones, those the `Connection` header
/// names, and Host and Content-Length, which the client sets again for the new request. Repeated
/// headers keep every value, in order.
pub(crate) fn message_headers(headers: &HeaderMap) -> HeaderMap {
    let mut kept = HeaderMap::with_capacity(headers.len());
    for (name, value) in message_header_fields(headers) {
        kept.append(name.clone(), value.clone());
    }
    kept
}

/// The fields `message_headers` keeps, in order, without copying them: a forwarder that writes
/// them straight onto the wire needs no map of its own.
pub(crate) fn message_header_fields(headers: &HeaderMap) -> impl Iterator<Item = (&HeaderName, &HeaderValue)> {
    let named_by_connection = named_by_connection(headers);
    headers.iter().filter(move |(name, _)| {
        !(HOP_BY_HOP.contains(&name.as_str())
            || *name == HOST
            || *name == CONTENT_LENGTH
            || named_by_connection.contains(name))
    })
}

/// Takes out of `headers`, in place, what `message_headers` leaves behind but Content-Length:
/// for a message passed on whole, whose framing stays as it came.
pub(crate) fn strip_connection_headers(headers: &mut HeaderMap) {
    let named_by_connection = named_by_connection(headers);
    // One look over the names first: most messages carry none of these, and a removal by name
    // hashes it.
    let any = headers.keys().any(|name| HOP_BY_HOP.contains(&name.as_str()) || *name == HOST);
    if any {
        for name in HOP_BY_HOP {
            headers.remove(*name);
        }
        headers.remove(HOST);
    }
    for name in named_by_connection {
        if name != CONTENT_LENGTH {
            headers.remove(name);
        }
    }
}

/// The headers the `Connection` header names: the connection's own, whatever they are called.
fn named_by_connection(headers: &HeaderMap) -> Vec<HeaderName> {
    headers
        .get_all(CONNECTION)
        .iter()
        .filter_map(|value| value.to_str().ok())
        .flat_map(|value| value.split(','))
        .filter_map(|name| HeaderName::from_bytes(name.trim().as_bytes()).ok())
        .collect()
}

/// The headers an HTTP/2 request may carry (RFC 9113 §8.2.2): the message's own headers, which
/// leaves out every connection-specific field HTTP/2 forbids (and Host, which `:authority`
/// replaces), plus `TE` when its value is exactly `trailers`, the one value HTTP/2 allows.
pub(crate) fn http2_headers(headers: &HeaderMap) -> HeaderMap {
    let mut kept = message_headers(headers);
    for value in headers.get_all(TE) {
        if value.as_bytes().eq_ignore_ascii_case(b"trailers") {
            kept.append(TE, value.clone());
        }
    }
    kept
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hop_by_hop_headers_stay_behind() {
        let mut headers = HeaderMap::new();
        for (name, value) in [
            ("host", "127.0.0.1:9000"),
            ("connection", "keep-alive, x-private"),
            ("x-private", "hop"),
            ("transfer-encoding", "chunked"),
            ("content-length", "12"),
            ("stripe-signature", "t=1,v1=ab"),
            ("x-multi", "a"),
            ("x-multi", "b"),
        ] {
            headers.append(HeaderName::from_static(name), HeaderValue::from_static(value));
        }
        let kept = message_headers(&headers);
        let names: Vec<&str> = kept.keys().map(HeaderName::as_str).collect();
        assert_eq!(names, ["stripe-signature", "x-multi"]);
        assert_eq!(kept.get_all("x-multi").iter().count(), 2);

        // In place, the same but Content-Length, which a message passed on whole keeps.
        let mut stripped = headers.clone();
        strip_connection_headers(&mut stripped);
        // (Removal may reorder distinct names; only one name's values keep an order that matters.)
        let mut names: Vec<&str> = stripped.keys().map(HeaderName::as_str).collect();
        names.sort_unstable();
        assert_eq!(names, ["content-length", "stripe-signature", "x-multi"]);
        assert_eq!(stripped.get_all("x-multi").iter().map(|value| value.as_bytes()).collect::<Vec<_>>(), [b"a", b"b"]);
        assert_eq!(stripped.get_all("x-multi").iter().count(), 2);
        let mut plain = kept.clone();
        strip_connection_headers(&mut plain);
        assert_eq!(plain, kept, "nothing to take out, nothing taken");
    }

    #[test]
    fn http2_keeps_te_trailers_only() {
        let mut headers = HeaderMap::new();
        headers.append(TE, HeaderValue::from_static("trailers"));
        headers.append(HeaderName::from_static("upgrade"), HeaderValue::from_static("h2c"));
        headers.append(HeaderName::from_static("x-a"), HeaderValue::from_static("1"));
        let kept = http2_headers(&headers);
        assert_eq!(kept.keys().map(HeaderName::as_str).collect::<Vec<_>>(), ["x-a", "te"]);
        headers.insert(TE, HeaderValue::from_static("gzip, trailers"));
        assert!(http2_headers(&headers).get(TE).is_none());
    }
}
