//! Body sources: `DATA`, `@file` or `@-` (stdin), as curl reads them.
use std::io::Read;
use std::path::PathBuf;

use anyhow::Context;

/// Where a body comes from, as given on the command line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BodySource {
    Inline(String),
    File(PathBuf),
    Stdin,
}

impl BodySource {
    /// `@-` is stdin, `@path` a file, anything else the data itself.
    pub fn parse(arg: &str) -> BodySource {
        match arg.strip_prefix('@') {
            Some("-") => BodySource::Stdin,
            Some(path) => BodySource::File(PathBuf::from(path)),
            None => BodySource::Inline(arg.to_string()),
        }
    }

    /// Reads the whole body, exactly as given (no newline stripping: signatures depend on the
    /// exact bytes).
    pub fn read(&self) -> anyhow::Result<Vec<u8>> {
        match self {
            BodySource::Inline(text) => Ok(text.as_bytes().to_vec()),
            BodySource::File(path) => {
                std::fs::read(path).with_context(|| format!("cannot read the body from `{}`", path.display()))
            }
            BodySource::Stdin => {
                let mut bytes = Vec::new();
                std::io::stdin().read_to_end(&mut bytes).context("cannot read the body from stdin")?;
                Ok(bytes)
            }
        }
    }
}

/// True when the bytes are a JSON document, so a `Content-Type: application/json` can be implied.
pub fn looks_like_json(body: &[u8]) -> bool {
    serde_json::from_slice::<serde::de::IgnoredAny>(body).is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sources_parse_like_curl() {
        assert_eq!(BodySource::parse("@-"), BodySource::Stdin);
        assert_eq!(BodySource::parse("@a.json"), BodySource::File("a.json".into()));
        assert_eq!(BodySource::parse("{}"), BodySource::Inline("{}".into()));
    }

    #[test]
    fn missing_file_names_the_path() {
        let err = BodySource::parse("@/no/such/file.json").read().unwrap_err();
        assert!(format!("{err:#}").contains("/no/such/file.json"));
    }

    #[test]
    fn json_detection() {
        assert!(looks_like_json(br#"{"amount": 1}"#));
        assert!(!looks_like_json(b"amount=1"));
    }
}
