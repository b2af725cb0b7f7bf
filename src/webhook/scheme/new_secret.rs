//! `webhook secret`: a new secret in the form each scheme's providers hand out.
use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use rand::TryRngCore;
use rand::rngs::OsRng;

use super::SchemeKind;

/// How many random bytes a new secret carries: 256 bits, the HMAC-SHA256 block-size sweet spot.
const NEW_SECRET_BYTES: usize = 32;

/// A fresh secret from the OS random generator, in the form the scheme's providers hand out:
/// `whsec_` + base64 for Standard Webhooks and Stripe (Stripe keys with the whole string, Standard
/// Webhooks decodes the base64, and both accept this form), 64 hex digits for the others.
pub fn generate(scheme: SchemeKind) -> anyhow::Result<String> {
    let mut bytes = [0u8; NEW_SECRET_BYTES];
    OsRng.try_fill_bytes(&mut bytes).map_err(|err| anyhow::anyhow!("the OS random generator failed: {err}"))?;
    Ok(match scheme {
        SchemeKind::Standard | SchemeKind::Stripe => format!("whsec_{}", STANDARD.encode(bytes)),
        SchemeKind::Hmac | SchemeKind::Github | SchemeKind::Slack | SchemeKind::Shopify => hex::encode(bytes),
    })
}

/// `webhook secret`: prints a new secret for `scheme` (the one output a secret may appear in).
pub fn print_new(scheme: SchemeKind, out: &mut impl std::io::Write) -> anyhow::Result<crate::exit::Outcome> {
    writeln!(out, "{}", generate(scheme)?)?;
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
}
