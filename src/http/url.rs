//! URLs as the command line gives them: curl's and xh's leniency about a missing scheme, and a clear
//! refusal of what cannot be an HTTP target.
use anyhow::{Context, bail};
use http::Uri;

/// Parses and checks a URL: http or https, with a host. A URL without a scheme gets `http://`, as
/// curl and xh do.
pub fn parse_url(text: &str) -> anyhow::Result<Uri> {
    let with_scheme = if text.contains("://") { text.to_string() } else { format!("http://{text}") };
    let uri: Uri = with_scheme.parse().with_context(|| format!("`{text}` is not a valid URL"))?;
    match uri.scheme_str() {
        Some("http") | Some("https") => {}
        Some(other) => bail!("`{text}` uses the scheme `{other}`; only http and https are supported"),
        None => bail!("`{text}` has no scheme"),
    }
    if uri.host().is_none_or(str::is_empty) {
        bail!("`{text}` has no host");
    }
    Ok(uri)
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
}
