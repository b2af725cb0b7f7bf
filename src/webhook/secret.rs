//! The signing secret: where it comes from (`--secret`, `WEBHOOK_SECRET`, `--secret-file`), how it is
//! kept out of every output. Making a new one is the schemes' business (`scheme/new_secret.rs`).
use std::fmt;
use std::path::{Path, PathBuf};

use anyhow::{Context, bail};

/// A shared signing secret, exactly as the user gave it (bytes, not decoded: each scheme decides how
/// to turn it into a key). Its `Debug` never shows the bytes, so it can sit in config structs that
/// get logged or printed in a panic message.
#[derive(Clone, PartialEq, Eq)]
pub struct Secret {
    bytes: Vec<u8>,
}

impl Secret {
    /// Refuses an empty secret: an HMAC with an empty key signs anything anyone can forge. A
    /// secret of spaces, tabs or newlines alone is as empty (a variable set from an unquoted blank,
    /// a file of a newline and a space): slack_sdk refuses both, and so does every command here.
    pub fn new(bytes: Vec<u8>) -> anyhow::Result<Secret> {
        if bytes.is_empty() {
            bail!("the secret is empty; pass the webhook's signing secret (`webhook secret` makes a new one)");
        }
        if bytes.iter().all(u8::is_ascii_whitespace) {
            bail!(
                "the secret is only whitespace; pass the webhook's signing secret (`webhook secret` makes a new one)"
            );
        }
        Ok(Secret { bytes })
    }

    /// The secret bytes, for deriving a key. Never print them.
    pub fn expose(&self) -> &[u8] {
        &self.bytes
    }

    /// Reads a secret file, dropping the one trailing newline editors and `echo` add.
    pub fn from_file(path: &Path) -> anyhow::Result<Secret> {
        let mut bytes =
            std::fs::read(path).with_context(|| format!("cannot read the secret file `{}`", path.display()))?;
        if bytes.last() == Some(&b'\n') {
            bytes.pop();
            if bytes.last() == Some(&b'\r') {
                bytes.pop();
            }
        }
        Secret::new(bytes).with_context(|| format!("the secret file `{}` holds no secret", path.display()))
    }
}

impl fmt::Debug for Secret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Secret(<redacted>)")
    }
}

/// clap value parser for `--secret` / `WEBHOOK_SECRET`: the value becomes a [`Secret`] at once, so
/// clap's own structs never hold it in a printable form.
pub(crate) fn parse_secret_arg(text: &str) -> Result<Secret, String> {
    Secret::new(text.as_bytes().to_vec()).map_err(|err| err.to_string())
}

/// The environment variable a secret can come from.
pub(crate) const SECRET_ENV: &str = "WEBHOOK_SECRET";

/// Where the secret comes from, once the flags have been read.
#[derive(Debug, Clone)]
pub enum SecretSource {
    /// `--secret` or `WEBHOOK_SECRET`.
    Given(Secret),
    /// `--secret-file`.
    File(PathBuf),
}

impl SecretSource {
    /// Picks the source: `--secret` or `--secret-file` (not both), else `WEBHOOK_SECRET`. The
    /// variable is read here rather than by clap so an exported one never clashes with
    /// `--secret-file`.
    pub fn choose(
        flag: Option<Secret>,
        file: Option<PathBuf>,
        env: Option<std::ffi::OsString>,
    ) -> anyhow::Result<SecretSource> {
        match (flag, file, env) {
            (Some(_), Some(_), _) => bail!("give the secret once: either --secret or --secret-file"),
            (Some(secret), None, _) => {
                // A file name given to --secret would sign with the name itself: every signature
                // wrong, with nothing to say why.
                let text = String::from_utf8_lossy(secret.expose());
                if std::path::Path::new(text.as_ref()).is_file() {
                    bail!(
                        "--secret takes the secret itself; {} is a file: use --secret-file {}",
                        crate::output::terminal_safe(&text),
                        crate::output::terminal_safe(&text)
                    );
                }
                Ok(SecretSource::Given(secret))
            }
            (None, Some(path), _) => Ok(SecretSource::File(path)),
            (None, None, Some(value)) => Secret::new(value.into_encoded_bytes())
                .context("WEBHOOK_SECRET (from the environment) is set but holds no secret")
                .map(SecretSource::Given),
            (None, None, None) => bail!(
                "no signing secret: pass --secret S, set WEBHOOK_SECRET, or point --secret-file at a file holding it"
            ),
        }
    }

    pub fn load(self) -> anyhow::Result<Secret> {
        match self {
            SecretSource::Given(secret) => Ok(secret),
            SecretSource::File(path) => Secret::from_file(&path),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn debug_redacts() {
        let secret = Secret::new(b"hunter2".to_vec()).unwrap();
        assert!(!format!("{secret:?}").contains("hunter2"));
        assert!(!format!("{:?}", SecretSource::Given(secret)).contains("hunter2"));
    }

    #[test]
    fn sources_are_chosen_without_ambiguity() {
        let flag = || Some(Secret::new(b"f".to_vec()).unwrap());
        let file = || Some(PathBuf::from("s.txt"));
        let env = || Some(std::ffi::OsString::from("e"));
        assert!(SecretSource::choose(flag(), file(), None).is_err());
        assert!(matches!(SecretSource::choose(None, file(), env()), Ok(SecretSource::File(_))));
        let from_env = SecretSource::choose(None, None, env()).unwrap().load().unwrap();
        assert_eq!(from_env.expose(), b"e");
        assert!(SecretSource::choose(None, None, Some("".into())).is_err());
        assert!(SecretSource::choose(None, None, None).is_err());
    }

    #[test]
    fn empty_secrets_are_refused() {
        assert!(Secret::new(Vec::new()).is_err());
        assert!(parse_secret_arg("").is_err());
    }

    #[test]
    fn whitespace_only_secrets_are_refused_as_empty() {
        for blank in [" ", "   ", "\t", " \r\n "] {
            let err = Secret::new(blank.as_bytes().to_vec()).unwrap_err().to_string();
            assert!(err.contains("only whitespace"), "{blank:?}: {err}");
        }
        // Whitespace around a secret is the secret's own: kept, not trimmed.
        assert_eq!(Secret::new(b" s3cret ".to_vec()).unwrap().expose(), b" s3cret ");
    }

    #[test]
    fn secret_files_lose_one_trailing_newline() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("s");
        std::fs::write(&path, "abc\n\n").unwrap();
        assert_eq!(Secret::from_file(&path).unwrap().expose(), b"abc\n");
        std::fs::write(&path, "abc\r\n").unwrap();
        assert_eq!(Secret::from_file(&path).unwrap().expose(), b"abc");
        std::fs::write(&path, "\n").unwrap();
        assert!(Secret::from_file(&path).is_err());
    }
}
