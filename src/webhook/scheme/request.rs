//! What a verifier knows of a received request besides its headers and body: the method and the
//! URL the sender was given. Schemes that sign the URL (Twilio, Square, HubSpot) need both; the
//! others ignore them.
use http::HeaderMap;

/// One received request, as a scheme that signs more than the body judges it.
#[derive(Debug, Clone, Copy)]
pub struct ReceivedRequest<'a> {
    /// `POST` for every webhook the providers send.
    pub method: &'a str,
    /// The URL the provider was given (`--url` of `verify`, `--public-url` of `listen`, or the
    /// local URL the request arrived at); `None` when nobody said, which only a scheme that signs
    /// the URL minds.
    pub url: Option<&'a str>,
    pub headers: &'a HeaderMap,
    pub body: &'a [u8],
}

impl<'a> ReceivedRequest<'a> {
    /// A POST with no URL known: what the schemes that sign the body alone need.
    pub fn post(headers: &'a HeaderMap, body: &'a [u8]) -> ReceivedRequest<'a> {
        ReceivedRequest { method: "POST", url: None, headers, body }
    }

    /// The same request with another body (the hints try variants of it).
    pub fn with_body(self, body: &'a [u8]) -> ReceivedRequest<'a> {
        ReceivedRequest { body, ..self }
    }
}

/// The method every signer signs with: the providers send webhooks as POST.
pub(crate) const SIGNED_METHOD: &str = "POST";
