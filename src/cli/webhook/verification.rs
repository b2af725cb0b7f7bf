//! The flags every command that verifies received deliveries shares (`verify`, `listen`): the
//! scheme or `auto` among `--allow`, the secret or a Standard Webhooks `whpk_` public key, and the
//! timestamp tolerance. Declared once here and flattened into each.
use std::time::Duration;

use super::signing::{SigningArgs, VerifyScheme};
use crate::webhook::scheme::{SchemeKind, SchemeOptions};
use crate::webhook::secret::{Secret, SecretSource};
use crate::webhook::verify::verifier::SchemeSelection;

#[derive(Debug, Clone, clap::Args)]
pub struct VerificationArgs {
    /// The signing scheme the sender uses, or auto to pick it from the headers among --allow
    #[arg(long, value_enum)]
    pub scheme: Option<VerifyScheme>,

    /// With --scheme auto: the schemes that may judge a delivery (comma-separated); a timestamped
    /// and an untimestamped scheme keyed with the same secret are refused
    #[arg(long, value_enum, value_delimiter = ',', value_name = "SCHEMES")]
    pub allow: Vec<SchemeKind>,

    #[command(flatten)]
    pub signing: SigningArgs,

    #[command(flatten)]
    pub public_key: PublicKeyArgs,

    /// How far a signed timestamp may be from now, in either direction (at most 24h)
    #[arg(long, default_value = "5m", value_parser = crate::cli::duration_at_most(crate::cli::DAY), allow_hyphen_values = true, value_name = "DUR")]
    pub tolerance: Duration,
}

/// `--public-key whpk_…`: verify Standard Webhooks `v1a` (Ed25519) signatures instead of `v1`.
#[derive(Debug, Clone, clap::Args)]
pub struct PublicKeyArgs {
    /// --scheme standard: the sender's Ed25519 public key (whpk_…) to check v1a signatures with, in
    /// place of a secret; v1 entries in the same header are skipped
    #[arg(long, value_name = "WHPK", value_parser = parse_public_key, conflicts_with_all = ["secret", "secret_file"], help_heading = "Signing")]
    pub public_key: Option<Secret>,
}

fn parse_public_key(text: &str) -> Result<Secret, String> {
    if !text.starts_with(crate::webhook::scheme::ed25519::PUBLIC_PREFIX) {
        return Err("a Standard Webhooks public key starts with whpk_ (a whsk_ key is the secret half: give it \
                    with --secret, or the public half here)"
            .to_string());
    }
    Secret::new(text.as_bytes().to_vec()).map_err(|err| err.to_string())
}

impl PublicKeyArgs {
    /// The key to verify with: the public key, else the secret (`--secret`, `--secret-file`,
    /// `WEBHOOK_SECRET`). `kind` is the fixed scheme, `None` for auto.
    pub(crate) fn key_source(&self, signing: &SigningArgs, kind: Option<SchemeKind>) -> anyhow::Result<SecretSource> {
        match &self.public_key {
            Some(_) if kind != Some(SchemeKind::Standard) => {
                anyhow::bail!("--public-key checks Standard Webhooks v1a signatures; give --scheme standard with it")
            }
            Some(key) => Ok(SecretSource::Given(key.clone())),
            None if matches!(kind, Some(SchemeKind::Certified(_))) => {
                if signing.secret.is_some() || signing.secret_file.is_some() {
                    anyhow::bail!(
                        "--scheme {} verifies with the certificate the delivery names, fetched from the provider's \
                         host; it takes no secret (give --trust-ca for a local CA)",
                        kind.map(SchemeKind::name).unwrap_or_default()
                    );
                }
                // The receiver holds no key, only trust roots: the scheme's verifying key ignores
                // what it is given, so this stands in for the secret every verifier is built with.
                Ok(SecretSource::Given(Secret::new(b"(no key: verified with a fetched certificate)".to_vec())?))
            }
            None => signing.secret_source(),
        }
    }
}

/// What the verification flags become.
pub(crate) struct Verification {
    pub scheme: SchemeSelection,
    pub options: SchemeOptions,
    pub secret: SecretSource,
    pub tolerance: Duration,
}

impl VerificationArgs {
    pub(crate) fn into_verification(self) -> anyhow::Result<Verification> {
        let scheme = match &self.signing.scheme_file {
            Some(_) if !self.allow.is_empty() => {
                anyhow::bail!("--allow goes with --scheme auto; --scheme-file already names the one scheme")
            }
            Some(_) => SchemeSelection::Fixed(self.signing.scheme_or_file(None)?.unwrap_or(SchemeKind::Hmac)),
            None => selection(self.scheme, self.allow)?,
        };
        let fixed = match scheme {
            SchemeSelection::Fixed(kind) => Some(kind),
            SchemeSelection::Auto { .. } => None,
        };
        let options = self.signing.scheme_options(fixed)?;
        let secret = self.public_key.key_source(&self.signing, fixed)?;
        Ok(Verification { scheme, options, secret, tolerance: self.tolerance })
    }
}

/// `--scheme` and `--allow`: one scheme, or auto among named ones. There is no default: auto
/// detection over every scheme is what lets a Stripe signature pass as a GitHub one.
fn selection(scheme: Option<VerifyScheme>, allow: Vec<SchemeKind>) -> anyhow::Result<SchemeSelection> {
    match (scheme.map(VerifyScheme::kind), allow.is_empty()) {
        (None, true) => anyhow::bail!(
            "name the sender's signing scheme with --scheme (hmac, github, stripe, standard, slack or shopify), or \
             accept several with --scheme auto --allow github,standard"
        ),
        (None | Some(None), false) => Ok(SchemeSelection::Auto { allow }),
        (Some(None), true) => anyhow::bail!(
            "--scheme auto needs --allow naming the schemes the sender may use, e.g. --allow github,standard"
        ),
        (Some(Some(kind)), true) => Ok(SchemeSelection::Fixed(kind)),
        (Some(Some(kind)), false) => {
            anyhow::bail!("--allow goes with --scheme auto; --scheme {kind} already names the one scheme")
        }
    }
}
