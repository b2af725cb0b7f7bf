//! URLs as the command line gives them: curl's and xh's leniency about a missing scheme, and a clear
//! refusal of what cannot be an HTTP target. Credentials in a URL (`http://user:pw@host/`) are
//! taken out of it and sent as Basic auth, as curl does, so the password never reaches any output.
use anyhow::{Context, bail};
use base64::Engine;
use http::{HeaderValue, Uri};
use percent_encoding::{AsciiSet, NON_ALPHANUMERIC, utf8_percent_encode};

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

/// A URL that only says where else to send the same request (`--also`, `--other-url`): its
/// headers are the main URL's and -H's, so credentials in it would silently not be sent, and
/// would be printed with every report that names it. Refused, the password hidden.
pub(crate) fn parse_target_url(text: &str, flag: &str) -> anyhow::Result<Uri> {
    let uri = parse_url(text).with_context(|| format!("{flag} {}", redact_password(text)))?;
    if uri.authority().is_some_and(|authority| authority.as_str().contains('@')) {
        bail!(
            "{flag} {}: credentials in this URL would not be sent (every target gets the main URL's credentials \
             and -H headers); put them in the main URL or in -H 'Authorization: …'",
            redact_password(text)
        );
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

/// `text` with the secret of every URL's userinfo replaced by `***`: the password of
/// `user:password@` (the user stays, to tell accounts apart), or a lone `token@` (no password:
/// it is all secret) whole. Every URL in the text counts (`--url=http://u:pw@h`, an error that
/// quotes two), and so does a whole text that is a URL without its scheme (`u:pw@host/p`, as curl
/// takes it). The one redaction of URLs: command lines, messages and reports all come here.
pub(crate) fn redact_password(text: &str) -> String {
    if !text.contains("://") {
        return redact_schemeless(text);
    }
    let mut shown = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find("://") {
        let authority_start = at + 3;
        shown.push_str(&rest[..authority_start]);
        let after = &rest[authority_start..];
        let authority_len = after.find(ends_an_authority).unwrap_or(after.len());
        shown.push_str(&redact_userinfo(&after[..authority_len]));
        rest = &after[authority_len..];
    }
    shown.push_str(rest);
    shown
}

/// Where the authority of a URL embedded in text stops: its path, query or fragment, or the end
/// of the word (a space, a quote, a bracket around it).
fn ends_an_authority(c: char) -> bool {
    matches!(c, '/' | '?' | '#' | '"' | '\'' | '`' | '<' | '>' | '(' | ')' | '[' | ']' | ',') || c.is_whitespace()
}

/// `user:password@host` as curl takes it without a scheme; a lone `name@host` is left alone
/// there, since without a scheme it reads as an e-mail address or `git@host:repo`.
fn redact_schemeless(text: &str) -> String {
    if text.contains(char::is_whitespace) {
        return text.to_string();
    }
    let authority_len = text.find(['/', '?', '#']).unwrap_or(text.len());
    let authority = &text[..authority_len];
    match authority.rsplit_once('@') {
        Some((userinfo, _)) if userinfo.contains(':') => {
            format!("{}{}", redact_userinfo(authority), &text[authority_len..])
        }
        _ => text.to_string(),
    }
}

/// `user:password@host` → `user:***@host`, `token@host` → `***@host`, `host` as it is.
fn redact_userinfo(authority: &str) -> String {
    let Some((userinfo, host)) = authority.rsplit_once('@') else { return authority.to_string() };
    match userinfo.split_once(':') {
        Some((user, _)) => format!("{user}:***@{host}"),
        None => format!("***@{host}"),
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

/// What a path segment or a query name or value leaves as it is: RFC 3986's unreserved
/// characters. Everything else, non-ASCII bytes included, becomes `%XX`.
const OUTSIDE_UNRESERVED: &AsciiSet = &NON_ALPHANUMERIC.remove(b'-').remove(b'.').remove(b'_').remove(b'~');

/// What a URI fragment also leaves as it is (RFC 3986's `pchar`, `/` and `?`): a JSON pointer
/// stays readable in a `$ref` (`#/paths/~1payments/post`).
const OUTSIDE_FRAGMENT: &AsciiSet = &OUTSIDE_UNRESERVED
    .remove(b'!')
    .remove(b'$')
    .remove(b'&')
    .remove(b'\'')
    .remove(b'(')
    .remove(b')')
    .remove(b'*')
    .remove(b'+')
    .remove(b',')
    .remove(b';')
    .remove(b'=')
    .remove(b':')
    .remove(b'@')
    .remove(b'/')
    .remove(b'?');

/// `text` as one path segment, query name or query value: only unreserved characters kept.
pub(crate) fn percent_encode_component(text: &str) -> String {
    utf8_percent_encode(text, OUTSIDE_UNRESERVED).to_string()
}

/// `text` as a URI fragment (after `#`).
pub(crate) fn percent_encode_fragment(text: &str) -> String {
    utf8_percent_encode(text, OUTSIDE_FRAGMENT).to_string()
}

/// `%40` → `@`, as curl decodes the user and password of a URL.
fn percent_decode(text: &str) -> String {
    percent_encoding::percent_decode_str(text).decode_utf8_lossy().into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_component_keeps_only_unreserved_characters() {
        assert_eq!(percent_encode_component("a-b._~Z9"), "a-b._~Z9");
        assert_eq!(percent_encode_component("a b/c?d=e&f"), "a%20b%2Fc%3Fd%3De%26f");
        assert_eq!(percent_encode_component("é"), "%C3%A9");
    }

    #[test]
    fn a_fragment_keeps_a_json_pointer_readable() {
        assert_eq!(percent_encode_fragment("/paths/~1pay:ments/post"), "/paths/~1pay:ments/post");
        assert_eq!(percent_encode_fragment("/a b/%/\"/é"), "/a%20b/%25/%22/%C3%A9");
        assert_eq!(percent_encode_fragment("!$&'()*+,;=:@/?"), "!$&'()*+,;=:@/?");
    }

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
        assert_eq!(
            redact_password("GET http://a:pw1@h/x failed; --url=https://tok@h2?q=1 and 'http://b:pw2@h3'"),
            "GET http://a:***@h/x failed; --url=https://***@h2?q=1 and 'http://b:***@h3'"
        );
        // Without a scheme, `name@host` is an address or `git@host:repo`, not a credential.
        assert_eq!(redact_password("me@example.com"), "me@example.com");
        assert_eq!(redact_password("git@github.com:org/repo.git"), "git@github.com:org/repo.git");
        let err = parse_url("http://u:hunter2@exa mple.com").unwrap_err();
        assert!(!format!("{err:#}").contains("hunter2"), "{err:#}");
        let err = parse_target_url("http://u:hunter2@h/p", "--also").unwrap_err();
        assert!(format!("{err:#}").starts_with("--also http://u:***@h/p: credentials"), "{err:#}");
        assert_eq!(parse_target_url("h:1/p", "--also").unwrap().to_string(), "http://h:1/p");
    }
}
