//! The flags of the certificate-signed schemes (`--scheme sns|paypal`): the certificate URL a
//! signer writes, PayPal's webhook id, and where a receiver fetches certificates from.
use std::net::{IpAddr, SocketAddr};
use std::path::PathBuf;

use anyhow::{Context, bail};

use crate::webhook::crypto::cert_url::{CertProvider, check_cert_url};
use crate::webhook::crypto::certificate::TrustRoots;
use crate::webhook::scheme::{CertifiedOptions, SchemeKind};

#[derive(Debug, Clone, Default, clap::Args)]
pub struct CertifiedArgs {
    /// --scheme sns|paypal, signing: the URL of the signing certificate the delivery names, on the
    /// provider's host (https://sns.<region>.amazonaws.com/….pem, https://api.paypal.com/…)
    #[arg(long, value_name = "URL", help_heading = "Signing")]
    pub cert_url: Option<String>,

    /// --scheme paypal: the webhook id (the receiver's, from PayPal's dashboard), which PayPal signs
    #[arg(long, value_name = "ID", help_heading = "Signing")]
    pub webhook_id: Option<String>,

    /// --scheme sns|paypal, verifying: trust certificates (and the HTTPS server serving them) issued
    /// by this CA instead of the web PKI's roots (`webhook secret --scheme sns --out DIR` writes
    /// DIR/ca.pem); the certificate URL must still be on the provider's host
    #[arg(long, value_name = "FILE", help_heading = "Signing")]
    pub trust_ca: Option<PathBuf>,

    /// --scheme sns|paypal, verifying: connect to IP:PORT for HOST:443 instead of asking DNS, as
    /// curl's --connect-to (HOST:443:IP:PORT), to reach a local certificate server (repeatable)
    #[arg(long, value_name = "HOST:443:IP:PORT", help_heading = "Signing")]
    pub connect_to: Vec<String>,
}

impl CertifiedArgs {
    fn given(&self) -> bool {
        self.cert_url.is_some() || self.webhook_id.is_some() || self.trust_ca.is_some() || !self.connect_to.is_empty()
    }

    /// The options, checked now; `kind` is `None` for `--scheme auto`.
    pub(crate) fn options(&self, kind: Option<SchemeKind>) -> anyhow::Result<CertifiedOptions> {
        let provider = match kind {
            Some(SchemeKind::Certified(provider)) => Some(provider),
            _ => None,
        };
        if self.given() && provider.is_none() && kind.is_some() {
            bail!("--cert-url, --webhook-id, --trust-ca and --connect-to go with --scheme sns or --scheme paypal");
        }
        if self.webhook_id.is_some() && provider == Some(CertProvider::Sns) {
            bail!("--webhook-id is PayPal's; AWS SNS signs no webhook id");
        }
        if provider == Some(CertProvider::Paypal) && self.webhook_id.is_none() {
            bail!(
                "--scheme paypal signs the receiver's webhook id: give it with --webhook-id (from PayPal's dashboard)"
            );
        }
        if let (Some(url), Some(provider)) = (&self.cert_url, provider) {
            check_cert_url(provider, url).context("--cert-url")?;
        }
        let trust_ca = match &self.trust_ca {
            Some(path) => {
                let pem =
                    std::fs::read(path).with_context(|| format!("cannot read --trust-ca `{}`", path.display()))?;
                TrustRoots::from_pem(&pem).with_context(|| format!("--trust-ca `{}`", path.display()))?;
                Some(pem)
            }
            None => None,
        };
        let connect_to = self.connect_to.iter().map(|text| parse_connect_to(text)).collect::<anyhow::Result<_>>()?;
        Ok(CertifiedOptions {
            cert_url: self.cert_url.clone(),
            webhook_id: self.webhook_id.clone(),
            trust_ca,
            connect_to,
        })
    }
}

/// `HOST:443:IP:PORT` (curl's form; the certificate URLs are on port 443, so the first port is it).
fn parse_connect_to(text: &str) -> anyhow::Result<(String, SocketAddr)> {
    let usage = || format!("--connect-to `{}` is not HOST:443:IP:PORT", text.escape_debug());
    let mut parts = text.splitn(3, ':');
    let (Some(host), Some(port), Some(target)) = (parts.next(), parts.next(), parts.next()) else { bail!(usage()) };
    if host.is_empty() || !matches!(port, "" | "443") {
        bail!("{}: the certificate URLs are https on port 443", usage());
    }
    let (ip, port) = target.rsplit_once(':').ok_or_else(|| anyhow::anyhow!(usage()))?;
    let ip: IpAddr =
        ip.trim_start_matches('[').trim_end_matches(']').parse().with_context(|| format!("{}: IP", usage()))?;
    let port: u16 = port.parse().with_context(|| format!("{}: PORT", usage()))?;
    Ok((host.to_ascii_lowercase(), SocketAddr::new(ip, port)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn connect_to_reads_curls_form() {
        let (host, addr) = parse_connect_to("sns.us-east-1.amazonaws.com:443:127.0.0.1:8443").unwrap();
        assert_eq!((host.as_str(), addr.to_string().as_str()), ("sns.us-east-1.amazonaws.com", "127.0.0.1:8443"));
        for bad in ["sns.x:80:127.0.0.1:1", "sns.x:443:localhost:1", "sns.x:443:127.0.0.1", ":443:127.0.0.1:1"] {
            assert!(parse_connect_to(bad).is_err(), "{bad}");
        }
    }
}
