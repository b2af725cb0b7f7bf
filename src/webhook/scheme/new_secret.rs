//! `webhook secret`: a new secret in the form each scheme's providers hand out.
use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use rand::TryRngCore;
use rand::rngs::OsRng;

use serde::Serialize;

use super::SchemeKind;
use super::description::Algorithm;
use super::ed25519::AsymmetricKey;
use crate::output::Format;
use anyhow::Context;

use crate::webhook::crypto::cert_url::CertProvider;
use crate::webhook::crypto::key_pair::{KeyAlgorithm, LocalCa, LocalCaFiles};

/// How many random bytes a new secret carries: 256 bits, the HMAC-SHA256 block-size sweet spot.
const NEW_SECRET_BYTES: usize = 32;

/// A fresh secret from the OS random generator, in the form the scheme's providers hand out:
/// `whsec_` + base64 for Standard Webhooks and Stripe (Stripe keys with the whole string, Standard
/// Webhooks decodes the base64, and both accept this form), 64 hex digits for the others (the
/// described providers key with the secret as given), and a key-pair provider's private key.
pub(crate) fn generate(scheme: SchemeKind) -> anyhow::Result<String> {
    let mut bytes = [0u8; NEW_SECRET_BYTES];
    OsRng.try_fill_bytes(&mut bytes).map_err(|err| anyhow::anyhow!("the OS random generator failed: {err}"))?;
    if let Some(algorithm) = key_pair_algorithm(scheme) {
        // A key-pair provider's secret is the sender's private key.
        return Ok(crate::webhook::crypto::key_pair::generate_pair(algorithm)?.secret);
    }
    Ok(match scheme {
        SchemeKind::Standard | SchemeKind::Stripe | SchemeKind::Alias(_) => format!("whsec_{}", STANDARD.encode(bytes)),
        // A described scheme (a --scheme-file's) that decodes `whsec_` + base64, as Standard Webhooks.
        SchemeKind::Provider(_)
            if scheme
                .description()
                .is_some_and(|description| description.secret == super::description::SecretForm::WhsecBase64) =>
        {
            format!("whsec_{}", STANDARD.encode(bytes))
        }
        SchemeKind::Hmac | SchemeKind::Github | SchemeKind::Slack | SchemeKind::Shopify | SchemeKind::Provider(_) => {
            hex::encode(bytes)
        }
        SchemeKind::Certified(_) => anyhow::bail!(
            "--scheme {scheme} signs with an RSA key whose certificate the receiver fetches: `webhook secret --scheme \
             {scheme} --out DIR` writes a local CA, the key and the certificate"
        ),
    })
}

/// A new Standard Webhooks `v1a` pair: (`whsk_…`, `whpk_…`), from an OS-random seed.
pub(crate) fn generate_asymmetric() -> anyhow::Result<(String, String)> {
    let mut seed = [0u8; 32];
    OsRng.try_fill_bytes(&mut seed).map_err(|err| anyhow::anyhow!("the OS random generator failed: {err}"))?;
    AsymmetricKey::generate_pair(&seed)
}

/// The key pair a key-pair provider's secret is (Discord: Ed25519; SendGrid: ECDSA P-256), or
/// `None` for a scheme keyed with a shared secret.
fn key_pair_algorithm(scheme: SchemeKind) -> Option<KeyAlgorithm> {
    match scheme.description()?.algorithm {
        Algorithm::Ed25519 => Some(KeyAlgorithm::Ed25519),
        Algorithm::EcdsaP256 => Some(KeyAlgorithm::EcdsaP256),
        Algorithm::HmacSha1 | Algorithm::HmacSha256 | Algorithm::HmacSha512 | Algorithm::SharedToken => None,
    }
}

/// What `webhook secret` makes.
#[derive(Debug, Clone)]
pub struct NewSecretConfig {
    pub scheme: SchemeKind,
    /// An Ed25519 pair (Standard Webhooks `v1a`) instead of a shared secret.
    pub asymmetric: bool,
    pub format: Format,
    /// `--out DIR` (sns, paypal): where the local CA, the key and the certificate are written.
    pub out: Option<std::path::PathBuf>,
}

/// `webhook secret --format json`.
#[derive(Debug, Serialize, schemars::JsonSchema)]
pub(crate) struct SecretDocument {
    /// The secret: a shared secret, the `whsk_` secret key of a pair, or a key-pair provider's
    /// private key (Discord: hex seed; SendGrid: PKCS#8 PEM). Keep it private.
    pub secret: String,
    /// The public key receivers verify with (`whpk_`, or the provider's own form: Discord hex,
    /// SendGrid base64 DER), or the signing certificate's PEM (sns, paypal); `null` for a shared
    /// secret.
    pub public: Option<String>,
    /// The files `--out DIR` wrote (sns, paypal): `ca` for the receiver's `--trust-ca`, `key` the
    /// sender's private key, `cert` the certificate to serve at the certificate URL.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub files: Option<LocalCaFiles>,
}

/// The `schema` value of `webhook secret --format json`.
pub(crate) const SCHEMA: &str = "webhook-secret/1";

/// `webhook secret`: prints a new secret (the one output a secret may appear in).
pub(crate) fn print_new(
    config: NewSecretConfig,
    out: &mut impl std::io::Write,
) -> anyhow::Result<crate::exit::Outcome> {
    if let SchemeKind::Certified(provider) = config.scheme {
        return print_local_ca(provider, &config, out);
    }
    let pair_algorithm = key_pair_algorithm(config.scheme);
    let (secret, public) = if let Some(algorithm) = pair_algorithm {
        let pair = crate::webhook::crypto::key_pair::generate_pair(algorithm)?;
        (pair.secret, Some(pair.public))
    } else if config.asymmetric {
        let (secret, public) = generate_asymmetric()?;
        (secret, Some(public))
    } else {
        (generate(config.scheme)?, None)
    };
    match config.format {
        // A pair's halves (a key-pair provider's, or --asymmetric's) go to different people and
        // one may span lines (a PEM): each is labelled with who takes it.
        Format::Human if public.is_some() => {
            let scheme = config.scheme;
            writeln!(out, "secret (the sender's private key: webhook sign/send --scheme {scheme}; keep it private):")?;
            writeln!(out, "{}", secret.trim_end())?;
            writeln!(out, "public (the receiver's public key: webhook verify/listen --scheme {scheme}):")?;
            writeln!(out, "{}", public.unwrap_or_default())?;
        }
        Format::Human => {
            writeln!(out, "{secret}")?;
            if let Some(public) = public {
                writeln!(out, "{public}")?;
            }
        }
        Format::Json => {
            crate::json_output::write_pretty(&mut *out, SCHEMA, &SecretDocument { secret, public, files: None })?;
            writeln!(out)?;
        }
    }
    Ok(crate::exit::Outcome::Holds)
}

/// The hosts the local certificate is issued for: what the provider's certificate URLs and the
/// TLS server serving them are named (SNS: the us-east-1 regional host).
fn local_ca_hosts(provider: CertProvider) -> &'static [&'static str] {
    match provider {
        CertProvider::Sns => &["sns.us-east-1.amazonaws.com"],
        CertProvider::Paypal => {
            &["api.paypal.com", "api.sandbox.paypal.com", "api-m.paypal.com", "api-m.sandbox.paypal.com"]
        }
    }
}

/// `webhook secret --scheme sns|paypal --out DIR`: a local CA, the RSA key and its certificate,
/// written as files (a PEM chain is no one-line secret), and said where each goes.
fn print_local_ca(
    provider: CertProvider,
    config: &NewSecretConfig,
    out: &mut impl std::io::Write,
) -> anyhow::Result<crate::exit::Outcome> {
    let scheme = config.scheme;
    let Some(dir) = &config.out else {
        anyhow::bail!(
            "--scheme {scheme} signs with an RSA key whose certificate the receiver fetches: give --out DIR, where \
             the local CA (ca.pem), the key (key.pem) and the certificate (cert.pem) are written"
        );
    };
    std::fs::create_dir_all(dir).with_context(|| format!("cannot create --out `{}`", dir.display()))?;
    let ca = LocalCa::generate_for(local_ca_hosts(provider))?;
    let files = ca.write_to(dir).with_context(|| format!("cannot write into `{}`", dir.display()))?;
    match config.format {
        Format::Human => {
            writeln!(
                out,
                "{}  the sender's RSA private key: webhook sign/send --scheme {scheme} --secret-file; keep it private",
                files.key.display()
            )?;
            writeln!(
                out,
                "{}  the signing certificate, for {}: serve it at --cert-url (it is the TLS certificate of that host too)",
                files.cert.display(),
                local_ca_hosts(provider).join(", ")
            )?;
            writeln!(out, "{}  the local CA: webhook verify/listen --scheme {scheme} --trust-ca", files.ca.display())?;
        }
        Format::Json => {
            let document =
                SecretDocument { secret: ca.key_pem.clone(), public: Some(ca.cert_pem.clone()), files: Some(files) };
            crate::json_output::write_pretty(&mut *out, SCHEMA, &document)?;
            writeln!(out)?;
        }
    }
    Ok(crate::exit::Outcome::Holds)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn generated_secrets_take_the_scheme_form() {
        let standard = generate(SchemeKind::Standard).unwrap();
        let key = standard.strip_prefix("whsec_").unwrap();
        assert_eq!(STANDARD.decode(key).unwrap().len(), NEW_SECRET_BYTES);
        let github = generate(SchemeKind::Github).unwrap();
        assert_eq!(hex::decode(&github).unwrap().len(), NEW_SECRET_BYTES);
        assert_ne!(generate(SchemeKind::Hmac).unwrap(), generate(SchemeKind::Hmac).unwrap());
    }

    #[test]
    fn asymmetric_pairs_belong_together() {
        let (secret, public) = generate_asymmetric().unwrap();
        let secret_key = AsymmetricKey::parse(secret.as_bytes()).unwrap().unwrap();
        let public_key = AsymmetricKey::parse(public.as_bytes()).unwrap().unwrap();
        assert_eq!(secret_key.public_key(), public_key.public_key());
        assert_eq!(STANDARD.decode(secret.strip_prefix("whsk_").unwrap()).unwrap().len(), 64);
        assert_ne!(generate_asymmetric().unwrap().0, secret);
    }
}
