//! Providers that send Standard Webhooks unchanged: each is a name `--scheme` takes for
//! `standard`, signing under the header family its documentation shows (`svix-*` or `webhook-*`;
//! verifying reads either, as `standard` does). `webhook schemes` lists each with what it is an
//! alias of, so a user who knows the provider's name finds the scheme without knowing the spec.
use super::SchemeKind;

/// One alias.
#[derive(Debug)]
pub(crate) struct Alias {
    pub(crate) name: &'static str,
    pub(crate) summary: &'static str,
    /// The scheme it is a name for.
    pub(crate) of: SchemeKind,
    /// Signs under `svix-id`, `svix-timestamp`, `svix-signature` instead of the `webhook-` names.
    pub(crate) svix_headers: bool,
    /// Where the provider documents its headers.
    pub(crate) source: &'static str,
}

/// Every alias, in the order `webhook schemes` lists them (after the providers).
pub(crate) const ALIASES: [Alias; 5] = [
    Alias {
        name: "svix",
        summary: "alias of standard, under svix-id, svix-timestamp, svix-signature",
        of: SchemeKind::Standard,
        svix_headers: true,
        source: "https://docs.svix.com/receiving/verifying-payloads/how-manual",
    },
    Alias {
        name: "clerk",
        summary: "alias of standard (Clerk sends through Svix): svix-id, svix-timestamp, svix-signature",
        of: SchemeKind::Standard,
        svix_headers: true,
        source: "https://github.com/clerk/javascript/blob/main/packages/backend/src/webhooks.ts",
    },
    Alias {
        name: "resend",
        summary: "alias of standard (Resend sends through Svix): svix-id, svix-timestamp, svix-signature",
        of: SchemeKind::Standard,
        svix_headers: true,
        source: "https://resend.com/docs/webhooks/verify-webhooks-requests",
    },
    Alias {
        name: "replicate",
        summary: "alias of standard: webhook-id, webhook-timestamp, webhook-signature",
        of: SchemeKind::Standard,
        svix_headers: false,
        source: "https://replicate.com/docs/topics/webhooks/verify-webhook",
    },
    Alias {
        name: "openai",
        summary: "alias of standard: webhook-id, webhook-timestamp, webhook-signature",
        of: SchemeKind::Standard,
        svix_headers: false,
        source: "https://platform.openai.com/docs/guides/webhooks",
    },
];
