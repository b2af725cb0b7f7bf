//! `-H 'Name: value'` parsing, shared by every command that takes headers.
use anyhow::{Context, bail};
use http::{HeaderName, HeaderValue};

/// Parses `Name: value` into a header, naming what is wrong when it cannot.
pub(crate) fn parse_header_line(line: &str) -> anyhow::Result<(HeaderName, HeaderValue)> {
    let Some((name, value)) = line.split_once(':') else {
        bail!("header `{line}` has no colon; write it as 'Name: value'");
    };
    let name = name.trim();
    if name.is_empty() {
        bail!("header `{line}` has an empty name; write it as 'Name: value'");
    }
    let name =
        HeaderName::from_bytes(name.as_bytes()).with_context(|| format!("`{name}` is not a valid header name"))?;
    let value = HeaderValue::from_str(value.trim())
        .with_context(|| format!("the value of header `{name}` has characters a header cannot carry"))?;
    Ok((name, value))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_trims() {
        let (name, value) = parse_header_line("X-Test:  hello world ").unwrap();
        assert_eq!(name.as_str(), "x-test");
        assert_eq!(value, "hello world");
        let (_, value) = parse_header_line("Authorization: Bearer a:b").unwrap();
        assert_eq!(value, "Bearer a:b");
    }

    #[test]
    fn rejects_malformed_lines() {
        assert!(parse_header_line("no colon").is_err());
        assert!(parse_header_line(": value").is_err());
        assert!(parse_header_line("bad name: v").is_err());
        assert!(parse_header_line("X: a\nb").is_err());
    }
}
