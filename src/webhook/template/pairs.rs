//! Each provider's "created, then updated" pair of events about one object, as data beside the
//! templates: `webhook check`'s `out-of-order-accepted` sends the update first, and a receiver
//! that validates the event name (GitHub's `X-GitHub-Event`, Shopify's `X-Shopify-Topic`) must
//! see two events its provider really sends, or it refuses them for the wrong reason.
//!
//! A side is a template, filled as `webhook send --event PROVIDER:TYPE` fills it, with another
//! event name where the provider has no template of its own for it (Stripe's `customer.updated`
//! is the customer of `customer.created` under another type), body fields set (GitHub's
//! `action: edited`) and headers the template writes as fixed text. Both sides carry one fresh
//! object id at `ids`. The first pair of a provider is its default; `--event PROVIDER:TYPE` picks
//! the pair of that type's object where there is one.
use anyhow::Context;
use serde_json::Value;

use super::path::{Override, get};
use super::{ProviderEvent, Shaping, provider_event_shaped, templates};

/// One event of a pair.
#[derive(Debug)]
pub(crate) struct Side {
    /// The template filled (its event, as `--event PROVIDER:TYPE` names it).
    template: &'static str,
    /// The event name it goes by instead of the template's, carried where the template carries
    /// its own.
    event: Option<&'static str>,
    /// Body fields set after filling: a dotted path and its JSON value.
    set: &'static [(&'static str, &'static str)],
    /// Headers the template writes as fixed text, replaced.
    headers: &'static [(&'static str, &'static str)],
    /// How the evidence names this event.
    pub shown: &'static str,
}

/// One provider's created-then-updated pair.
#[derive(Debug)]
pub(crate) struct RelatedPair {
    pub provider: &'static str,
    /// The object both events are about, as the provider's event names spell it (`customer`,
    /// `customer.subscription`, `orders`, `issues`).
    pub object: &'static str,
    pub created: Side,
    pub updated: Side,
    /// Where the object's id is: one fresh id, the same in both events. A number in the template
    /// becomes a fresh number; a placeholder (`{{id:cus_}}`) is filled once and copied.
    ids: &'static [&'static str],
}

const fn side(template: &'static str, shown: &'static str) -> Side {
    Side { template, event: None, set: &[], headers: &[], shown }
}

const fn renamed(template: &'static str, event: &'static str) -> Side {
    Side { template, event: Some(event), set: &[], headers: &[], shown: event }
}

const fn acting(template: &'static str, set: &'static [(&'static str, &'static str)], shown: &'static str) -> Side {
    Side { template, event: None, set, headers: &[], shown }
}

/// Every pair, each provider's default first.
pub(crate) const PAIRS: &[RelatedPair] = &[
    RelatedPair {
        provider: "stripe",
        object: "customer",
        created: side("customer.created", "customer.created"),
        updated: Side {
            set: &[("data.previous_attributes", r#"{"email":"jenny@example.org"}"#)],
            ..renamed("customer.created", "customer.updated")
        },
        ids: &["data.object.id"],
    },
    RelatedPair {
        provider: "stripe",
        object: "customer.subscription",
        created: side("customer.subscription.created", "customer.subscription.created"),
        updated: side("customer.subscription.updated", "customer.subscription.updated"),
        ids: &["data.object.id"],
    },
    RelatedPair {
        provider: "stripe",
        object: "invoice",
        created: side("invoice.created", "invoice.created"),
        updated: Side {
            set: &[("data.previous_attributes", r#"{"description":null}"#)],
            ..renamed("invoice.created", "invoice.updated")
        },
        ids: &["data.object.id"],
    },
    // Stripe has no payment_intent.updated: the later event of a payment intent is its outcome.
    RelatedPair {
        provider: "stripe",
        object: "payment_intent",
        created: side("payment_intent.created", "payment_intent.created"),
        updated: side("payment_intent.succeeded", "payment_intent.succeeded"),
        ids: &["data.object.id"],
    },
    RelatedPair {
        provider: "stripe",
        object: "refund",
        created: side("refund.created", "refund.created"),
        updated: side("refund.updated", "refund.updated"),
        ids: &["data.object.id"],
    },
    RelatedPair {
        provider: "github",
        object: "issues",
        created: acting("issues", &[("action", r#""opened""#)], "issues (action opened)"),
        updated: acting(
            "issues",
            &[("action", r#""edited""#), ("changes", r#"{"title":{"from":"Found a bug (draft)"}}"#)],
            "issues (action edited)",
        ),
        ids: &["issue.id", "issue.number"],
    },
    RelatedPair {
        provider: "github",
        object: "pull_request",
        created: acting("pull_request", &[("action", r#""opened""#)], "pull_request (action opened)"),
        updated: acting(
            "pull_request",
            &[("action", r#""edited""#), ("changes", r#"{"title":{"from":"Update the README (draft)"}}"#)],
            "pull_request (action edited)",
        ),
        ids: &["pull_request.id", "pull_request.number", "number"],
    },
    RelatedPair {
        provider: "github",
        object: "release",
        created: acting("release", &[("action", r#""created""#)], "release (action created)"),
        updated: acting(
            "release",
            &[("action", r#""edited""#), ("changes", r#"{"body":{"from":"Draft notes"}}"#)],
            "release (action edited)",
        ),
        ids: &["release.id"],
    },
    RelatedPair {
        provider: "shopify",
        object: "orders",
        created: side("orders/create", "orders/create"),
        updated: renamed("orders/create", "orders/updated"),
        ids: &["id"],
    },
    RelatedPair {
        provider: "standard",
        object: "contact",
        created: side("contact.created", "contact.created"),
        updated: renamed("contact.created", "contact.updated"),
        ids: &["data.id"],
    },
    RelatedPair {
        provider: "standard",
        object: "invoice",
        created: renamed("invoice.paid", "invoice.created"),
        updated: renamed("invoice.paid", "invoice.updated"),
        ids: &["data.id"],
    },
    RelatedPair {
        provider: "slack",
        object: "channel",
        created: side("channel_created", "channel_created"),
        updated: side("channel_rename", "channel_rename"),
        ids: &["event.channel.id"],
    },
    RelatedPair {
        provider: "gitlab",
        object: "issue",
        created: acting("issue", &[("object_attributes.action", r#""open""#)], "Issue Hook (action open)"),
        updated: acting(
            "issue",
            &[
                ("object_attributes.action", r#""update""#),
                (
                    "changes",
                    r#"{"title":{"previous":"New API (draft)","current":"New API: create/update/delete file"}}"#,
                ),
            ],
            "Issue Hook (action update)",
        ),
        ids: &["object_attributes.id", "object_attributes.iid"],
    },
    RelatedPair {
        provider: "linear",
        object: "Issue",
        created: acting("Issue", &[("action", r#""create""#)], "Issue (action create)"),
        updated: acting(
            "Issue",
            &[("action", r#""update""#), ("updatedFrom", r#"{"title":"Checkout fails"}"#)],
            "Issue (action update)",
        ),
        ids: &["data.id"],
    },
    RelatedPair {
        provider: "paddle",
        object: "customer",
        created: side("customer.created", "customer.created"),
        updated: renamed("customer.created", "customer.updated"),
        ids: &["data.id"],
    },
    RelatedPair {
        provider: "square",
        object: "payment",
        created: side("payment.created", "payment.created"),
        updated: renamed("payment.created", "payment.updated"),
        ids: &["data.id", "data.object.payment.id"],
    },
    RelatedPair {
        provider: "woocommerce",
        object: "order",
        created: side("order.created", "order.created"),
        updated: Side { headers: &[("X-WC-Webhook-Event", "updated")], ..renamed("order.created", "order.updated") },
        ids: &["id"],
    },
];

/// The two events of one pair, about one object.
#[derive(Debug)]
pub(crate) struct PairEvents {
    pub created: ProviderEvent,
    pub updated: ProviderEvent,
    /// The object's id as the events carry it (the first of `ids`).
    pub object_id: String,
}

/// The object of an event type as the provider spells it: what comes before its last `.` or `/`
/// (`customer.subscription` of `customer.subscription.updated`, `orders` of `orders/paid`), or
/// the whole name (GitHub's `issues`).
fn object_of(event: &str) -> &str {
    event.rfind(['.', '/']).map_or(event, |at| &event[..at])
}

/// `provider`'s pair for `chosen` (an event type of `--event PROVIDER:TYPE`): the pair of its
/// object when the data knows it, else the provider's default; `None` when the provider has no
/// pair.
pub(crate) fn related_pair(provider: &str, chosen: Option<&str>) -> Option<&'static RelatedPair> {
    let mut of_provider = PAIRS.iter().filter(|pair| pair.provider.eq_ignore_ascii_case(provider));
    let known = chosen.and_then(|event| of_provider.clone().find(|pair| pair.knows(event)));
    known.or_else(|| of_provider.next())
}

impl RelatedPair {
    fn knows(&self, event: &str) -> bool {
        [self.created.template, self.updated.template].contains(&event)
            || self.created.event == Some(event)
            || self.updated.event == Some(event)
            || object_of(event) == self.object
    }

    /// `--event` of the created side's template, the default event of the provider's probes.
    pub(crate) fn created_spec(&self) -> String {
        format!("{}:{}", self.provider, self.created.template)
    }

    /// The created event's name as the provider's event header carries it (`issues`,
    /// `orders/create`).
    pub(crate) fn created_event(&self) -> &'static str {
        self.created.event.unwrap_or(self.created.template)
    }

    /// Both events, filled afresh at `now`, about one fresh object.
    pub(crate) fn events(&self, now: i64) -> anyhow::Result<PairEvents> {
        let files = templates()?;
        let template = files
            .iter()
            .find(|file| file.provider == self.provider && file.event == self.created.template)
            .with_context(|| format!("the pair of {} names no template {}", self.provider, self.created.template))?;
        // A number the template fixes (GitHub's issue id) is drawn afresh, so that a receiver which
        // remembers objects across runs still meets an object it has not seen.
        let mut shared: Vec<Override> = Vec::new();
        let mut copied: Vec<&str> = Vec::new();
        for path in self.ids {
            match get(&template.body, path) {
                Some(Value::Number(_)) => shared.push(Override::Set {
                    path: (*path).to_string(),
                    value: Value::from(rand::random_range(1_000_000..2_147_483_647_u64)),
                }),
                _ => copied.push(path),
            }
        }
        let created = self.fill(&self.created, now, &shared)?;
        let created_body: Value = serde_json::from_slice(&created.body).context("a filled template is not JSON")?;
        for path in copied {
            let value = get(&created_body, path)
                .with_context(|| format!("{}:{} has no `{path}`", self.provider, self.created.template))?;
            shared.push(Override::Set { path: path.to_string(), value: value.clone() });
        }
        let updated = self.fill(&self.updated, now, &shared)?;
        let object_id = match self.ids.first().and_then(|path| get(&created_body, path)) {
            Some(Value::String(text)) => text.clone(),
            Some(other) => other.to_string(),
            None => String::new(),
        };
        Ok(PairEvents { created, updated, object_id })
    }

    fn fill(&self, side: &Side, now: i64, ids: &[Override]) -> anyhow::Result<ProviderEvent> {
        let mut overrides: Vec<Override> = side
            .set
            .iter()
            .map(|(path, json)| {
                let value = serde_json::from_str(json).with_context(|| format!("the pair's value of {path}"))?;
                Ok(Override::Set { path: (*path).to_string(), value })
            })
            .collect::<anyhow::Result<_>>()?;
        overrides.extend_from_slice(ids);
        let shaping = Shaping { event: side.event, headers: side.headers };
        provider_event_shaped(&format!("{}:{}", self.provider, side.template), None, now, &overrides, &shaping)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn header(event: &ProviderEvent, name: &str) -> Option<String> {
        event.headers.iter().find(|(n, _)| n == name).map(|(_, v)| v.to_str().unwrap().to_string())
    }

    fn at(event: &ProviderEvent, path: &str) -> Value {
        get(&serde_json::from_slice(&event.body).unwrap(), path).cloned().unwrap_or(Value::Null)
    }

    #[test]
    fn every_pair_fills_two_events_about_one_fresh_object() {
        for pair in PAIRS {
            let first = pair.events(1_700_000_000).unwrap();
            let second = pair.events(1_700_000_000).unwrap();
            let name = format!("{}:{}", pair.provider, pair.object);
            for path in pair.ids {
                assert_eq!(at(&first.created, path), at(&first.updated, path), "{name} {path}");
                assert!(!at(&first.created, path).is_null(), "{name} {path}");
            }
            assert_ne!(first.object_id, second.object_id, "{name}: a fresh object each time");
            // Shopify's orders/updated carries the order as orders/create does: the topic differs.
            let differ =
                first.created.body != first.updated.body || first.created.event_type != first.updated.event_type;
            assert!(differ, "{name}: the two events differ");
            assert!(
                pair.knows(pair.created.template) && pair.knows(pair.updated.event.unwrap_or(pair.updated.template))
            );
        }
        let providers: Vec<&str> = PAIRS.iter().map(|pair| pair.provider).collect();
        for provider in ["stripe", "github", "shopify", "standard", "slack", "gitlab", "linear", "paddle", "square"] {
            assert!(providers.contains(&provider), "{provider} has a pair");
        }
    }

    #[test]
    fn each_side_carries_its_event_as_the_provider_does() {
        let issues = related_pair("github", None).unwrap().events(1).unwrap();
        assert_eq!(issues.created.event_type, "issues");
        assert_eq!(issues.updated.event_type, "issues");
        assert_eq!(header(&issues.updated, "x-github-event").as_deref(), Some("issues"));
        assert_eq!((at(&issues.created, "action"), at(&issues.updated, "action")), ("opened".into(), "edited".into()));
        let orders = related_pair("shopify", Some("orders/paid")).unwrap().events(1).unwrap();
        assert_eq!(header(&orders.created, "x-shopify-topic").as_deref(), Some("orders/create"));
        assert_eq!(header(&orders.updated, "x-shopify-topic").as_deref(), Some("orders/updated"));
        assert_eq!(orders.updated.event_type, "orders/updated");
        let customer = related_pair("stripe", Some("charge.succeeded")).unwrap().events(1).unwrap();
        assert_eq!(at(&customer.updated, "type"), "customer.updated", "Stripe's default pair");
        assert_eq!(at(&customer.updated, "data.object.object"), "customer");
        let subscription = related_pair("stripe", Some("customer.subscription.deleted")).unwrap();
        assert_eq!(subscription.object, "customer.subscription");
        let order = related_pair("woocommerce", None).unwrap().events(1).unwrap();
        assert_eq!(header(&order.updated, "x-wc-webhook-event").as_deref(), Some("updated"));
        assert_eq!(order.updated.event_type, "order.updated");
        let channel = related_pair("slack", Some("message")).unwrap().events(1).unwrap();
        assert_eq!(at(&channel.updated, "event.type"), "channel_rename");
        assert!(related_pair("zoom", None).is_none());
    }
}
