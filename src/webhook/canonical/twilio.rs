//! Twilio's `X-Twilio-Signature`: base64 of HMAC-SHA1 (or HMAC-SHA256 when
//! `X-Twilio-Webhooks-Signature-Settings` says `algorithm=HMAC_SHA256`) with the Auth Token over the
//! full URL Twilio requested followed by each POST parameter's name and value, sorted by name.
//!
//! Exactly as twilio-python 9.13's `RequestValidator` computes it (twilio/request_validator.py,
//! `compute_signature`): `for param_name in sorted(set(params)): for value in
//! sorted(set(values)): s += param_name + value` — so names and, within a name, values are sorted
//! by code point (byte order of UTF-8), and a repeated identical name=value pair counts ONCE.
//! For a JSON body, Twilio adds `bodySHA256=<hex SHA-256 of the body>` to the URL's query and
//! signs the URL alone (no parameters). `validate` accepts the signature of the URL with its port
//! removed or with the default port added (`remove_port`/`add_port`: "sig generation on back end
//! is inconsistent"); `url_variants` gives both.

/// The string Twilio signs for `url` and the form parameters `params` (empty for JSON bodies).
pub fn string_to_sign(url: &str, params: &[(String, String)]) -> String {
    let mut pairs: Vec<(&str, &str)> = params.iter().map(|(name, value)| (name.as_str(), value.as_str())).collect();
    pairs.sort_unstable();
    pairs.dedup();
    let mut out = String::from(url);
    for (name, value) in pairs {
        out.push_str(name);
        out.push_str(value);
    }
    out
}

/// The `bodySHA256` query value for a JSON body: lowercase hex SHA-256.
pub fn body_sha256(body: &[u8]) -> String {
    hex::encode(ring::digest::digest(&ring::digest::SHA256, body))
}

/// `url` without its port and with the scheme's default port, as `RequestValidator.validate` tries
/// them (python's `urlparse(..).geturl()` keeps the text otherwise, so this works on the text too).
pub fn url_variants(url: &str) -> [String; 2] {
    let Some(scheme_end) = url.find("://") else { return [url.to_string(), url.to_string()] };
    let authority_start = scheme_end + 3;
    let authority_end = url[authority_start..].find(['/', '?', '#']).map_or(url.len(), |at| authority_start + at);
    let (before, netloc, after) =
        (&url[..authority_start], &url[authority_start..authority_end], &url[authority_end..]);
    let host_port = netloc.rsplit_once('@').map_or(netloc, |(_, host)| host);
    let port = match host_port.strip_prefix('[') {
        Some(ipv6) => ipv6.split_once("]:").map(|(_, port)| port),
        None => host_port.rsplit_once(':').map(|(_, port)| port),
    };
    // python's `urlparse(..).port` is None for `host:` too.
    let has_port = port.is_some_and(|port| !port.is_empty() && port.bytes().all(|b| b.is_ascii_digit()));
    if has_port {
        // remove_port: `uri.netloc.split(":")[0]`.
        let without = netloc.split(':').next().unwrap_or(netloc);
        [format!("{before}{without}{after}"), url.to_string()]
    } else {
        let port = if url[..scheme_end].eq_ignore_ascii_case("https") { 443 } else { 80 };
        [url.to_string(), format!("{before}{netloc}:{port}{after}")]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use base64::Engine;

    fn twilio_hmac(token: &str, text: &str) -> String {
        let key = ring::hmac::Key::new(ring::hmac::HMAC_SHA1_FOR_LEGACY_USE_ONLY, token.as_bytes());
        base64::engine::general_purpose::STANDARD.encode(ring::hmac::sign(&key, text.as_bytes()).as_ref())
    }

    fn params(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
        pairs.iter().map(|(name, value)| (name.to_string(), value.to_string())).collect()
    }

    #[test]
    fn twilios_documented_example_signs_to_its_documented_signature() {
        // Twilio's "Webhooks security" example: Auth Token 12345, this URL and these parameters
        // sign to 0/KCTR6DLpKmkAf8muzZqo1nDgQ= (twilio 9.13's compute_signature gives the same).
        let url = "https://mycompany.com/myapp.php?foo=1&bar=2";
        let form = params(&[
            ("CallSid", "CA1234567890ABCDE"),
            ("Caller", "+12349013030"),
            ("Digits", "1234"),
            ("From", "+12349013030"),
            ("To", "+18005551212"),
        ]);
        let text = string_to_sign(url, &form);
        assert_eq!(
            text,
            "https://mycompany.com/myapp.php?foo=1&bar=2CallSidCA1234567890ABCDECaller+12349013030Digits1234From+12349013030To+18005551212"
        );
        assert_eq!(twilio_hmac("12345", &text), "0/KCTR6DLpKmkAf8muzZqo1nDgQ=");
    }

    #[test]
    fn names_then_values_sort_by_code_point_and_repeated_pairs_count_once() {
        let form = params(&[("b", "2"), ("a", "z"), ("B", "1"), ("a", "y"), ("a", "z")]);
        assert_eq!(string_to_sign("u", &form), "uB1ayazb2");
    }

    #[test]
    fn the_url_is_tried_without_and_with_its_port() {
        assert_eq!(
            url_variants("https://example.com/hook?x=1"),
            ["https://example.com/hook?x=1", "https://example.com:443/hook?x=1"]
        );
        assert_eq!(
            url_variants("http://example.com:8080/hook"),
            ["http://example.com/hook", "http://example.com:8080/hook"]
        );
        assert_eq!(url_variants("http://example.com"), ["http://example.com", "http://example.com:80"]);
    }

    #[test]
    fn a_json_body_is_signed_through_its_hash_in_the_url() {
        // twilio 9.13's RequestValidator.compute_hash of this body.
        assert_eq!(
            body_sha256(b"{\"property\": \"value\", \"boolean\": true}"),
            "0a1ff7634d9ab3b95db5c9a2dfe9416e41502b283a80c7cf19632632f96e6620"
        );
    }
}
