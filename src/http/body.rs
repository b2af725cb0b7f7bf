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

    /// Reads the whole body, exactly as given, refusing more than `limit` bytes: a body held in
    /// memory must not be `/dev/zero` growing until the machine swaps. `raise_with` names the flag
    /// that raises the limit, when there is one.
    pub fn read_capped(&self, limit: u64, raise_with: Option<&str>) -> anyhow::Result<Vec<u8>> {
        let too_large = |what: &str| {
            let hint = raise_with.map(|flag| format!(" (raise the limit with {flag})")).unwrap_or_default();
            anyhow::anyhow!("the body from {what} is larger than {}, the most held in memory{hint}", format_size(limit))
        };
        let mut bytes = Vec::new();
        match self {
            BodySource::Inline(text) => bytes.extend_from_slice(text.as_bytes()),
            BodySource::File(path) => {
                let file = std::fs::File::open(path)
                    .with_context(|| format!("cannot read the body from `{}`", path.display()))?;
                // A regular file's size is known: refused before reading a byte.
                let size = file.metadata().ok().filter(|meta| meta.is_file()).map(|meta| meta.len());
                if size.is_some_and(|size| size > limit) {
                    return Err(too_large(&format!("`{}`", path.display())));
                }
                bytes = read_up_to(file, limit, size)
                    .with_context(|| format!("cannot read the body from `{}`", path.display()))?
                    .ok_or_else(|| too_large(&format!("`{}`", path.display())))?;
            }
            BodySource::Stdin => {
                bytes = read_up_to(std::io::stdin().lock(), limit, None)
                    .context("cannot read the body from stdin")?
                    .ok_or_else(|| too_large("stdin"))?;
            }
        }
        if bytes.len() as u64 > limit {
            return Err(too_large("the command line"));
        }
        Ok(bytes)
    }

    /// Reads the whole body, exactly as given (no newline stripping: signatures depend on the
    /// exact bytes), up to [`DEFAULT_MAX_BODY`].
    pub fn read(&self) -> anyhow::Result<Vec<u8>> {
        self.read_capped(DEFAULT_MAX_BODY, None)
    }
}

/// Reads `reader` to its end in chunks, `None` once it holds more than `limit` bytes. The buffer
/// is reserved once, at the cap and a chunk (`known_size` when the source says it), and never
/// reallocated: growing by doubling copies (mimalloc has no in-place growth), so refusing an
/// endless source (`/dev/zero`) would cost two or three times the cap. Reserved pages cost no
/// memory until written, so the refusal costs the cap and a chunk.
fn read_up_to(mut reader: impl Read, limit: u64, known_size: Option<u64>) -> std::io::Result<Option<Vec<u8>>> {
    const CHUNK: usize = 64 * 1024;
    let reserve = known_size.unwrap_or(limit).min(limit);
    let mut bytes: Vec<u8> = Vec::with_capacity(usize::try_from(reserve).unwrap_or(usize::MAX).saturating_add(CHUNK));
    let mut chunk = vec![0u8; CHUNK];
    loop {
        let read = match reader.read(&mut chunk) {
            Ok(0) => break,
            Ok(read) => read,
            Err(err) if err.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(err) => return Err(err),
        };
        bytes.extend_from_slice(&chunk[..read]);
        if bytes.len() as u64 > limit {
            return Ok(None);
        }
    }
    // A small body read from a pipe does not keep the cap reserved for the whole run.
    if bytes.len() < bytes.capacity() / 2 {
        bytes.shrink_to_fit();
    }
    Ok(Some(bytes))
}

/// The default cap on a body held in memory (`--max-body`).
pub(crate) const DEFAULT_MAX_BODY: u64 = 64 * 1024 * 1024;

/// `64 MiB`, `1.5 KiB`, `300 bytes`.
pub(crate) fn format_size(bytes: u64) -> String {
    const UNITS: [(u64, &str); 3] = [(1 << 30, "GiB"), (1 << 20, "MiB"), (1 << 10, "KiB")];
    for (size, unit) in UNITS {
        if bytes >= size {
            let value = bytes as f64 / size as f64;
            return if bytes.is_multiple_of(size) {
                format!("{} {unit}", bytes / size)
            } else {
                format!("{value:.1} {unit}")
            };
        }
    }
    format!("{bytes} bytes")
}

/// True when the bytes are a JSON document, so a `Content-Type: application/json` can be implied.
pub(crate) fn looks_like_json(body: &[u8]) -> bool {
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
    fn capped_reads_stop_at_the_limit_and_name_it() {
        let err = BodySource::parse("@/dev/zero").read_capped(1024, Some("--max-body")).unwrap_err();
        assert!(format!("{err:#}").contains("larger than 1 KiB, the most held in memory (raise"), "{err:#}");
        assert_eq!(BodySource::parse("abc").read_capped(3, None).unwrap(), b"abc");
        assert!(BodySource::parse("abcd").read_capped(3, None).is_err());
        assert_eq!(format_size(DEFAULT_MAX_BODY), "64 MiB");
    }

    #[test]
    fn json_detection() {
        assert!(looks_like_json(br#"{"amount": 1}"#));
        assert!(!looks_like_json(b"amount=1"));
    }
}
