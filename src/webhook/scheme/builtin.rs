//! The schemes that ship with the tool, as descriptions compiled into the binary
//! (`providers/*.json`), each checked once on first use.
use std::sync::{Mutex, OnceLock, PoisonError};

use super::described::DescribedScheme;
use super::description::{DescriptionError, SchemeDescription};
use super::{ProviderId, SchemeKind};

/// Every built-in description, by the scheme it describes.
const FILES: &[(SchemeKind, &str)] = &[
    (SchemeKind::Hmac, include_str!("providers/hmac.json")),
    (SchemeKind::Github, include_str!("providers/github.json")),
    (SchemeKind::Slack, include_str!("providers/slack.json")),
    (SchemeKind::Shopify, include_str!("providers/shopify.json")),
];

/// The providers described as data only, in the order `webhook schemes` lists them.
const PROVIDER_FILES: &[&str] = &[
    include_str!("providers/meta.json"),
    include_str!("providers/zoom.json"),
    include_str!("providers/twitch.json"),
    include_str!("providers/typeform.json"),
    include_str!("providers/intercom.json"),
    include_str!("providers/vercel.json"),
    include_str!("providers/bitbucket.json"),
    include_str!("providers/coinbase-commerce.json"),
    include_str!("providers/linear.json"),
    include_str!("providers/discord.json"),
    include_str!("providers/sendgrid.json"),
    include_str!("providers/paddle.json"),
    include_str!("providers/calendly.json"),
    include_str!("providers/mux.json"),
    include_str!("providers/gitlab.json"),
    include_str!("providers/woocommerce.json"),
    include_str!("providers/sentry.json"),
    include_str!("providers/razorpay.json"),
    include_str!("providers/dropbox.json"),
    include_str!("providers/mailgun.json"),
    include_str!("providers/adyen.json"),
    include_str!("providers/twilio.json"),
    include_str!("providers/square.json"),
    include_str!("providers/hubspot.json"),
];

struct BuiltIn {
    kind: SchemeKind,
    description: SchemeDescription,
    scheme: DescribedScheme,
}

/// A built-in file, checked. The files are part of the program and a unit test reads every one,
/// so a broken one never reaches a user.
fn load(kind: SchemeKind, text: &str) -> BuiltIn {
    let description: SchemeDescription =
        serde_json::from_str(text).unwrap_or_else(|err| panic!("a built-in scheme description does not parse: {err}"));
    let scheme = DescribedScheme::new(kind, &description)
        .unwrap_or_else(|err| panic!("built-in scheme `{}` is wrong: {err}", description.name));
    BuiltIn { kind, description, scheme }
}

fn built_ins() -> &'static [BuiltIn] {
    static BUILT_INS: OnceLock<Vec<BuiltIn>> = OnceLock::new();
    BUILT_INS.get_or_init(|| FILES.iter().map(|(kind, text)| load(*kind, text)).collect())
}

fn provider_built_ins() -> &'static [BuiltIn] {
    static PROVIDERS: OnceLock<Vec<BuiltIn>> = OnceLock::new();
    PROVIDERS.get_or_init(|| {
        PROVIDER_FILES
            .iter()
            .enumerate()
            .map(|(index, text)| {
                let id = u16::try_from(index).unwrap_or_else(|_| unreachable!("fewer than 65536 providers"));
                load(SchemeKind::Provider(ProviderId(id)), text)
            })
            .collect()
    })
}

/// Every described provider, in the order `webhook schemes` lists them.
pub(crate) fn providers() -> impl Iterator<Item = SchemeKind> {
    provider_built_ins().iter().map(|built_in| built_in.kind)
}

/// The schemes users described in `--scheme-file`s, after the built-in providers. Each lives as
/// long as the process (a command reads one or two), so a `SchemeKind` of one stays `Copy` and
/// its names `'static` like a built-in's.
static USER_SCHEMES: Mutex<Vec<&'static BuiltIn>> = Mutex::new(Vec::new());

fn user_schemes() -> std::sync::MutexGuard<'static, Vec<&'static BuiltIn>> {
    USER_SCHEMES.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Makes a user's description runnable, as one more provider; the same description twice is the
/// same scheme.
pub(crate) fn register(description: SchemeDescription) -> Result<SchemeKind, DescriptionError> {
    let mut registered = user_schemes();
    if let Some(same) = registered.iter().find(|built_in| built_in.description == description) {
        return Ok(same.kind);
    }
    let id = u16::try_from(PROVIDER_FILES.len() + registered.len())
        .map_err(|_| DescriptionError::new("name", "too many scheme files"))?;
    let kind = SchemeKind::Provider(ProviderId(id));
    let scheme = DescribedScheme::new(kind, &description)?;
    registered.push(Box::leak(Box::new(BuiltIn { kind, description, scheme })));
    Ok(kind)
}

/// The schemes registered from `--scheme-file`s, in the order given.
pub(crate) fn registered() -> Vec<SchemeKind> {
    user_schemes().iter().map(|built_in| built_in.kind).collect()
}

fn provider(id: ProviderId) -> &'static BuiltIn {
    // A `ProviderId` is only ever made from an index of the built-in list or of the registered ones.
    let index = usize::from(id.0);
    match provider_built_ins().get(index) {
        Some(built_in) => built_in,
        None => user_schemes()[index - PROVIDER_FILES.len()],
    }
}

pub(crate) fn provider_description(id: ProviderId) -> &'static SchemeDescription {
    &provider(id).description
}

pub(crate) fn provider_scheme(id: ProviderId) -> &'static DescribedScheme {
    &provider(id).scheme
}

/// The description of `kind`, when it is one of the described built-ins.
pub(crate) fn description(kind: SchemeKind) -> Option<&'static SchemeDescription> {
    built_ins().iter().find(|built_in| built_in.kind == kind).map(|built_in| &built_in.description)
}

/// The runnable scheme of `kind`, when it is one of the described built-ins.
pub(crate) fn scheme(kind: SchemeKind) -> Option<&'static DescribedScheme> {
    built_ins().iter().find(|built_in| built_in.kind == kind).map(|built_in| &built_in.scheme)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_built_in_description_is_usable_and_named_for_its_scheme() {
        for (kind, _) in FILES {
            assert_eq!(description(*kind).unwrap().name, kind.name());
            assert!(scheme(*kind).is_some());
        }
        let mut names: Vec<&str> = SchemeKind::every().iter().map(|kind| kind.name()).collect();
        // The two with code of their own (stripe, standard), and the two certificate-signed ones.
        assert_eq!(names.len(), FILES.len() + 2 + PROVIDER_FILES.len() + 2 + super::super::alias::ALIASES.len());
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), SchemeKind::every().len(), "two schemes share a name");
        for name in names {
            assert!(
                name.bytes().all(|byte| byte.is_ascii_lowercase() || byte.is_ascii_digit() || byte == b'-'),
                "{name}"
            );
        }
    }
}
