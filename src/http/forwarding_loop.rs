//! Loop detection for the two forwarders (`webhook listen --forward-to`, `idem proxy --upstream`):
//! each forward adds the forwarder's name to `Via` (RFC 9110 §7.6.3), so a request that comes back
//! to it (a target that leads to it again, directly or through other forwarders) is answered 508
//! instead of multiplying; a target that is the forwarder's own listening address is refused at
//! start-up.
use std::net::SocketAddr;

use http::header::VIA;
use http::{HeaderMap, HeaderValue, Uri};

/// A pseudonym for `Via` that names this run of `tool` and no other.
pub(crate) fn via_name(tool: &str) -> String {
    format!("{tool}-{:016x}", rand::random::<u64>())
}

/// Adds this forwarder's hop to a request about to be forwarded.
pub(crate) fn add_hop(headers: &mut HeaderMap, via: &str) {
    if let Some(hop) = hop_value(via) {
        headers.append(VIA, hop);
    }
}

/// The `Via` value naming this forwarder's hop, for a forwarder that builds it once.
pub(crate) fn hop_value(via: &str) -> Option<HeaderValue> {
    HeaderValue::from_str(&format!("1.1 {via}")).ok()
}

/// Whether a request's `Via` names `via`: it went through this forwarder before.
pub(crate) fn passed_through(headers: &HeaderMap, via: &str) -> bool {
    headers
        .get_all(VIA)
        .iter()
        .filter_map(|value| value.to_str().ok())
        .flat_map(|value| value.split(','))
        .any(|hop| hop.split_whitespace().nth(1) == Some(via))
}

/// Whether `target` resolves to `own`, the forwarder's listening address (an unspecified `own`,
/// `0.0.0.0:P`, is reached through any loopback address).
pub(crate) async fn is_own_address(target: &Uri, own: SocketAddr) -> bool {
    let Some(host) = target.host() else {
        return false;
    };
    let default_port = if target.scheme_str() == Some("https") { 443 } else { 80 };
    let port = target.port_u16().unwrap_or(default_port);
    if port != own.port() {
        return false;
    }
    let host = host.trim_start_matches('[').trim_end_matches(']');
    // A name that does not resolve now is not us; the forward will say it cannot be reached.
    let Ok(addresses) = tokio::net::lookup_host((host, port)).await else {
        return false;
    };
    addresses.into_iter().any(|address| {
        address.ip() == own.ip()
            || (own.ip().is_unspecified() && (address.ip().is_loopback() || address.ip().is_unspecified()))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn via_names_this_forwarder_only() {
        let mut headers = HeaderMap::new();
        headers.append(VIA, HeaderValue::from_static("1.1 proxy, 1.1 webhook-listen-00aa"));
        assert!(passed_through(&headers, "webhook-listen-00aa"));
        assert!(!passed_through(&headers, "webhook-listen-00ab"));
        assert!(!passed_through(&HeaderMap::new(), "webhook-listen-00aa"));
        add_hop(&mut headers, "idem-proxy-01");
        assert!(passed_through(&headers, "idem-proxy-01"));
    }

    #[tokio::test]
    async fn own_addresses_are_recognised() {
        let own: SocketAddr = "127.0.0.1:8081".parse().unwrap();
        assert!(is_own_address(&"http://127.0.0.1:8081/x".parse().unwrap(), own).await);
        assert!(is_own_address(&"http://localhost:8081".parse().unwrap(), own).await);
        assert!(!is_own_address(&"http://127.0.0.1:8082".parse().unwrap(), own).await);
        let any: SocketAddr = "0.0.0.0:8081".parse().unwrap();
        assert!(is_own_address(&"http://127.0.0.1:8081".parse().unwrap(), any).await);
    }
}
