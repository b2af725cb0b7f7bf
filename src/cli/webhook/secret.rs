//! `webhook secret`: its flags.
use crate::output::Format;
use crate::webhook::scheme::SchemeKind;
use crate::webhook::scheme::new_secret::NewSecretConfig;

#[derive(Debug, clap::Args)]
pub struct SecretArgs {
    /// The scheme the secret is for: whsec_ + base64 for standard and stripe, a key pair for discord and
    /// sendgrid, hex for the others
    #[arg(long, value_enum, default_value_t = SchemeKind::Hmac)]
    pub scheme: SchemeKind,

    /// The scheme a JSON file describes (as --scheme-file of sign and verify), in place of --scheme
    #[arg(long, value_name = "FILE", conflicts_with = "scheme")]
    pub scheme_file: Option<std::path::PathBuf>,

    /// --scheme standard: an Ed25519 key pair for v1a signatures (whsk_ secret key, whpk_ public key)
    #[arg(long)]
    pub asymmetric: bool,

    /// human: the secret (and the public key) one a line, a key-pair provider's labelled; json:
    /// {"secret", "public"}
    #[arg(long, value_enum, default_value_t = Format::Human)]
    pub format: Format,

    /// --scheme sns|paypal: the directory to write a local CA (ca.pem, for the receiver's --trust-ca),
    /// the sender's RSA key (key.pem) and the signing certificate (cert.pem, to serve) into
    #[arg(long, value_name = "DIR")]
    pub out: Option<std::path::PathBuf>,
}

impl SecretArgs {
    pub fn into_config(mut self) -> anyhow::Result<NewSecretConfig> {
        if let Some(path) = &self.scheme_file {
            self.scheme = crate::webhook::scheme::user_file::load(path)?;
        }
        // Discord's and SendGrid's secrets are key pairs already: --asymmetric changes nothing there.
        let key_pair_provider =
            self.scheme.description().is_some_and(|description| description.algorithm.mac().is_none());
        if self.asymmetric && self.scheme != SchemeKind::Standard && !key_pair_provider {
            anyhow::bail!(
                "--asymmetric makes a Standard Webhooks v1a (Ed25519) key pair; give --scheme standard with it \
                 (--scheme {} signs with a shared secret only)",
                self.scheme
            );
        }
        if self.out.is_some() && !matches!(self.scheme, SchemeKind::Certified(_)) {
            anyhow::bail!("--out writes a local CA, key and certificate for --scheme sns or --scheme paypal");
        }
        Ok(NewSecretConfig { scheme: self.scheme, asymmetric: self.asymmetric, format: self.format, out: self.out })
    }
}
