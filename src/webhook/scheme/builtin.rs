//! The schemes that ship with the tool, as descriptions compiled into the binary
//! (`providers/*.json`), each checked once on first use.
use std::sync::OnceLock;

use super::SchemeKind;
use super::described::DescribedScheme;
use super::description::SchemeDescription;

/// Every built-in description, by the scheme it describes.
const FILES: &[(SchemeKind, &str)] = &[
    (SchemeKind::Hmac, include_str!("providers/hmac.json")),
    (SchemeKind::Github, include_str!("providers/github.json")),
    (SchemeKind::Slack, include_str!("providers/slack.json")),
    (SchemeKind::Shopify, include_str!("providers/shopify.json")),
];

struct BuiltIn {
    kind: SchemeKind,
    description: SchemeDescription,
    scheme: DescribedScheme,
}

fn built_ins() -> &'static [BuiltIn] {
    static BUILT_INS: OnceLock<Vec<BuiltIn>> = OnceLock::new();
    BUILT_INS.get_or_init(|| {
        FILES
            .iter()
            .map(|(kind, text)| {
                // The files are part of the program and a unit test reads every one, so a broken
                // one never reaches a user.
                let description: SchemeDescription = serde_json::from_str(text)
                    .unwrap_or_else(|err| panic!("built-in scheme {kind} does not parse: {err}"));
                let scheme = DescribedScheme::new(*kind, &description)
                    .unwrap_or_else(|err| panic!("built-in scheme {kind} is wrong: {err}"));
                BuiltIn { kind: *kind, description, scheme }
            })
            .collect()
    })
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
    }
}
