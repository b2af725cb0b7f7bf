//! What belongs to one connection rather than to the message (RFC 9110 §7.6.1): the headers a
//! forwarder or a replay must not pass on.
use http::header::{CONNECTION, CONTENT_LENGTH, HOST};
use http::{HeaderMap, HeaderName};

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
pub fn message_headers(headers: &HeaderMap) -> HeaderMap {
    let named_by_connection: Vec<HeaderName> = headers
        .get_all(CONNECTION)
        .iter()
        .filter_map(|value| value.to_str().ok())
        .flat_map(|value| value.split(','))
        .filter_map(|name| HeaderName::from_bytes(name.trim().as_bytes()).ok())
        .collect();
    let mut kept = HeaderMap::with_capacity(headers.len());
    for (name, value) in headers {
        let dropped = HOP_BY_HOP.contains(&name.as_str())
            || name == HOST
            || name == CONTENT_LENGTH
            || named_by_connection.contains(name);
        if !dropped {
            kept.append(name.clone(), value.clone());
        }
    }
    kept
}

#[cfg(test)]
mod tests {
    use super::*;
    use http::HeaderValue;

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
    }
}
