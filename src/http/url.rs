//! URLs as the command line gives them: curl's and xh's leniency about a missing scheme, and a clear
//! refusal of what cannot be an HTTP target. Credentials in a URL (`http://user:pw@host/`) are
//! taken out of it and sent as Basic auth, as curl does, so the password never reaches any output.
use anyhow::{Context, bail};
use base64::Engine;
use http::{HeaderValue, Uri};

/// Parses and checks a URL: http or https, with a host. A URL without a scheme gets `http://`, as
/// curl and xh do. Errors show the URL with its password redacted.
pub(crate) fn parse_url(text: &str) -> anyhow::Result<Uri> {
    let shown = redact_password(text);
    let with_scheme = if text.contains("://") { text.to_string() } else { format!("http://{text}") };
    let uri: Uri = match with_scheme.parse() {
        Ok(uri) => uri,
        // The parse error itself can quote the URL, password included: it is not chained.
        Err(_) => bail!("`{shown}` is not a valid URL"),
    };
    match uri.scheme_str() {
        Some("http") | Some("https") => {}
        Some(other) => bail!("`{shown}` uses the scheme `{other}`; only http and https are supported"),
        None => bail!("`{shown}` has no scheme"),
    }
    if uri.host().is_none_or(str::is_empty) {
        bail!("`{shown}` has no host");
    }
    Ok(uri)
}

/// `user:password` from a URL, percent-decoded.
#[derive(Clone, PartialEq, Eq)]
pub struct Credentials {
    pub user: String,
    password: String,
}

impl std::fmt::Debug for Credentials {
    /// The password stays out of debug output too.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Credentials").field("user", &self.user).field("password", &"***").finish()
    }
}

impl Credentials {
    /// `Authorization: Basic base64(user:password)`, marked sensitive so hyper never logs it.
    pub fn authorization(&self) -> anyhow::Result<HeaderValue> {
        let token = base64::engine::general_purpose::STANDARD.encode(format!("{}:{}", self.user, self.password));
        let mut value =
            HeaderValue::from_str(&format!("Basic {token}")).context("cannot build the Basic auth header")?;
        value.set_sensitive(true);
        Ok(value)
    }
}

/// Takes `user:password@` out of the URL: the URL to request and print, and the credentials.
pub(crate) fn split_credentials(uri: Uri) -> anyhow::Result<(Uri, Option<Credentials>)> {
    let authority = uri.authority().map(|authority| authority.as_str().to_string()).unwrap_or_default();
    let Some((userinfo, host)) = authority.rsplit_once('@') else { return Ok((uri, None)) };
    let (user, password) = userinfo.split_once(':').unwrap_or((userinfo, ""));
    let credentials = Credentials { user: percent_decode(user), password: percent_decode(password) };
    let mut parts = uri.into_parts();
    parts.authority = Some(host.parse().context("the URL has no valid host after its credentials")?);
    let uri = Uri::from_parts(parts).context("cannot take the credentials out of the URL")?;
    Ok((uri, Some(credentials)))
}

/// The URL with the password in `user:password@` replaced by `***`, for messages; a lone
/// `token@` (no password) is all secret and is replaced whole.
pub(crate) fn redact_password(text: &str) -> String {
    let start = text.find("://").map_or(0, |at| at + 3);
    let authority_end = text[start..].find(['/', '?', '#']).map_or(text.len(), |end| start + end);
    let Some(at) = text[start..authority_end].rfind('@').map(|at| start + at) else { return text.to_string() };
    match text[start..at].find(':') {
        Some(colon) => format!("{}***{}", &text[..start + colon + 1], &text[at..]),
        None => format!("{}***{}", &text[..start], &text[at..]),
    }
}

/// A URL (or anything that prints one) shown without the secret of its userinfo: the one way a
/// URL given on the command line is printed or serialised (banners, JSON events, live lines,
/// summaries, errors). `format!("{}", Redacted(&uri))`.
pub(crate) struct Redacted<T>(pub T);

impl<T: std::fmt::Display> std::fmt::Display for Redacted<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&redact_password(&self.0.to_string()))
    }
}

/// `%40` → `@`, as curl decodes the user and password of a URL.
fn percent_decode(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut decoded = Vec::with_capacity(bytes.len());
    let mut index = 0;
    while index < bytes.len() {
        let hex = bytes.get(index + 1..index + 3).and_then(|pair| std::str::from_utf8(pair).ok());
        match (bytes[index], hex.and_then(|pair| u8::from_str_radix(pair, 16).ok())) {
            (b'%', Some(byte)) => {
                decoded.push(byte);
                index += 3;
            }
            (byte, _) => {
                decoded.push(byte);
                index += 1;
            }
        }
    }
    String::from_utf8_lossy(&decoded).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls_need_http_and_a_host() {
        assert_eq!(parse_url("localhost:8080/payments").unwrap().to_string(), "http://localhost:8080/payments");
        assert!(parse_url("ftp://example.com").is_err());
        assert!(parse_url("http://").is_err());
        assert!(parse_url("http://exa mple.com").is_err());
    }

    #[test]
    fn credentials_leave_the_url_and_become_basic_auth() {
        let uri = parse_url("http://alice:s%40cret@127.0.0.1:8080/payments?x=1").unwrap();
        let (uri, credentials) = split_credentials(uri).unwrap();
        assert_eq!(uri.to_string(), "http://127.0.0.1:8080/payments?x=1");
        let credentials = credentials.unwrap();
        assert_eq!(credentials.user, "alice");
        // base64("alice:s@cret"), as `curl -v http://alice:s%40cret@…` sends it.
        assert_eq!(credentials.authorization().unwrap(), "Basic YWxpY2U6c0BjcmV0");
        assert!(!format!("{credentials:?}").contains("cret"));
        let (plain, none) = split_credentials(parse_url("http://h/p").unwrap()).unwrap();
        assert_eq!((plain.to_string(), none), ("http://h/p".to_string(), None));
    }

    #[test]
    fn passwords_are_redacted_in_messages() {
        assert_eq!(redact_password("http://u:pw@h/p@x"), "http://u:***@h/p@x");
        assert_eq!(redact_password("u:pw@h"), "u:***@h");
        assert_eq!(redact_password("http://h/p"), "http://h/p");
        assert_eq!(redact_password("https://ghp_token@h/p"), "https://***@h/p");
        let uri: Uri = "http://u:hunter2@h:1/p".parse().unwrap();
        assert_eq!(Redacted(&uri).to_string(), "http://u:***@h:1/p");
        let err = parse_url("http://u:hunter2@exa mple.com").unwrap_err();
        assert!(!format!("{err:#}").contains("hunter2"), "{err:#}");
    }
}
