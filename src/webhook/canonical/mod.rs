//! The strings providers sign when the signature does not cover the raw body alone: pure
//! functions from what a delivery carries to the exact bytes its MAC or signature covers, one
//! file per provider, each checked against the provider's documentation or its SDK's own code
//! (cited in each file). The scheme engine computes and compares the MACs; these only build.
pub(crate) mod adyen;
pub(crate) mod mailgun;
pub(crate) mod paypal;
pub(crate) mod sns;
pub(crate) mod twilio;

/// Why a delivery has no string to sign: a field the provider always sends is missing or is not
/// what the provider sends. Names the field, never a secret.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CanonicalError {
    #[error("the body is not JSON: {0}")]
    NotJson(String),
    #[error("the {provider} delivery has no {field}")]
    Missing { provider: &'static str, field: String },
    #[error("the {provider} delivery's {field} is not {expected}")]
    Invalid { provider: &'static str, field: String, expected: &'static str },
}
