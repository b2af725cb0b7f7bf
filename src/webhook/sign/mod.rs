//! `webhook sign`: sign a payload the way a provider would and print the headers (or a ready curl
//! command, a raw HTTP request, or JSON).
mod format;
mod signed;

use std::io::Write;

use anyhow::Context;

pub(crate) use format::{SCHEMA, SignDocument, SignOutput};
use signed::Signed;

use crate::exit::Outcome;
use crate::webhook::delivery::{Delivery, fresh_id, unix_now};
use crate::webhook::payload::{Payload, PayloadSource};
use crate::webhook::scheme::Scheme;
use crate::webhook::secret::SecretSource;

#[derive(Debug)]
pub struct SignConfig {
    pub scheme: Box<dyn Scheme>,
    pub secret: SecretSource,
    pub payload: PayloadSource,
    /// Pins the delivery id (and the envelope's event id); fresh when `None`.
    pub id: Option<String>,
    /// Pins the signed timestamp (Unix seconds); now when `None`.
    pub timestamp: Option<i64>,
    pub output: SignOutput,
    /// `--url`: where the webhook goes, signed by the schemes that sign it.
    pub url: Option<String>,
}

pub(crate) fn run(config: SignConfig, out: &mut impl Write) -> anyhow::Result<Outcome> {
    let scheme = config.scheme.as_ref();
    let secret = config.secret.load()?;
    let key = scheme.signing_key(&secret).with_context(|| format!("cannot sign with --scheme {}", scheme.kind()))?;
    let timestamp = config.timestamp.unwrap_or_else(unix_now);
    let mut delivery_id = config.id.clone().unwrap_or_else(|| crate::webhook::template::fresh_delivery_id_for(scheme));
    let event_id = config.id.clone().unwrap_or_else(|| fresh_id("evt_"));
    let Payload { body, event, generated, provider } =
        config.payload.load(&event_id, timestamp, config.id.as_deref())?;
    let mut headers = Vec::new();
    if let Some(parts) = provider {
        delivery_id = parts.delivery_id;
        headers = parts.headers;
    }
    let mut delivery = Delivery { body, id: delivery_id, timestamp, event, url: config.url.clone() };
    // A scheme that signs into the body (SNS) gives the body to send, which must then be shown.
    let mut generated = generated;
    if let Some(signed_body) = scheme.sign_body(&delivery, &key)? {
        delivery.body = crate::webhook::delivery::DeliveryBody::Bytes(signed_body);
        generated = true;
    }
    // The provider's own headers, then the signature's (which replace any of the same name).
    let signature = scheme.sign(&delivery, &key)?;
    headers.retain(|(name, _)| !signature.iter().any(|(signed, _)| signed == name));
    headers.splice(0..0, signature);
    let signed = Signed { scheme, delivery, generated, headers };
    format::write(&signed, &config.output, out)?;
    out.flush()?;
    Ok(Outcome::Holds)
}
