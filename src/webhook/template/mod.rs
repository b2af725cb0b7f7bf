//! Provider event templates: `--event PROVIDER:TYPE` builds an event shaped as that provider
//! sends it (Stripe's event envelope, GitHub's and Shopify's payloads and headers, Slack's
//! event_callback, Standard Webhooks' type/timestamp/data), with fresh ids and timestamps on every
//! send and `--set`/`--unset` applied last. The shapes are data files in templates/, one per
//! event, each naming the provider's API version and the documentation it follows.
//!
//! One entry point for every command that needs an event (`send`, `sign`, `check --event`):
//! [`provider_event`].
mod chain;
mod files;
mod fill;
mod pairs;
mod path;

use anyhow::{Context, bail};
use http::{HeaderName, HeaderValue};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

pub(crate) use chain::chain;
pub(crate) use pairs::{RelatedPair, related_pair};
pub(crate) use path::Override;

use crate::ids::fresh_id;
use crate::output::terminal_safe;
use crate::webhook::scheme::{Scheme, SchemeKind};
use fill::Fill;

/// The providers with templates whose scheme is built in, by the name `--event PROVIDER:TYPE`
/// takes, and the scheme each signs with. The others (gitlab, paddle, twitch, ...) sign with the
/// described scheme of their own name.
const BUILT_IN: [(&str, SchemeKind); 5] = [
    ("stripe", SchemeKind::Stripe),
    ("github", SchemeKind::Github),
    ("shopify", SchemeKind::Shopify),
    ("slack", SchemeKind::Slack),
    ("standard", SchemeKind::Standard),
];

/// One template file.
#[derive(Debug, Clone, Deserialize)]
struct TemplateFile {
    provider: String,
    event: String,
    api_version: String,
    source: String,
    /// What the scheme's event-type header carries, when the provider names the event otherwise
    /// there than `--event` does (GitLab's `push` is `X-Gitlab-Event: Push Hook`).
    #[serde(default)]
    event_header: Option<String>,
    /// What a fresh delivery id looks like: `uuid`, or a prefix for random characters (`evt_01`);
    /// by default the scheme's usual form.
    #[serde(default)]
    delivery_id: Option<String>,
    #[serde(default)]
    headers: Map<String, Value>,
    body: Value,
}

/// What `--list-events` shows of a template.
#[derive(Debug, Clone, Serialize, PartialEq, Eq, schemars::JsonSchema)]
pub(crate) struct TemplateInfo {
    /// `stripe`, `github`, `shopify`, `slack`, `standard`, and the providers whose described
    /// scheme has templates (`gitlab`, `paddle`, `twitch`, ...).
    pub provider: String,
    /// The provider's event type; `webhook send --event PROVIDER:TYPE` sends it.
    pub event: String,
    /// The provider's API version the shape follows.
    pub api_version: String,
    /// The documentation the shape follows.
    pub source: String,
}

/// An event built from a template, ready to sign and send.
#[derive(Debug, Clone)]
pub(crate) struct ProviderEvent {
    /// The provider's name for the event (`payment_intent.succeeded`, `push`, `orders/create`),
    /// as the scheme's event header carries it.
    pub event_type: String,
    /// The event's own id (Stripe's `evt_…`, Slack's `event_id`), else the delivery id.
    pub event_id: String,
    /// What the scheme's delivery-id header carries (`X-GitHub-Delivery`, `X-Shopify-Webhook-Id`,
    /// `webhook-id`); Stripe's and Slack's have none, so it is the event id there.
    pub delivery_id: String,
    pub body: Vec<u8>,
    /// The provider's own headers besides the signature (`X-GitHub-Event`, `X-Shopify-Topic`…).
    pub headers: Vec<(HeaderName, HeaderValue)>,
}

/// The scheme of `PROVIDER` in `PROVIDER:TYPE`, or `None` when `spec` names no provider (a plain
/// event type, which gets the generic envelope).
pub(crate) fn provider_scheme(spec: &str) -> Option<SchemeKind> {
    let (provider, _) = spec.split_once(':')?;
    scheme_of(provider)
}

/// The scheme `provider`'s templates sign with, if it has templates.
fn scheme_of(provider: &str) -> Option<SchemeKind> {
    if let Some((_, kind)) = BUILT_IN.iter().find(|(name, _)| name.eq_ignore_ascii_case(provider)) {
        return Some(*kind);
    }
    let provider = provider.to_ascii_lowercase();
    provider_list().contains(&provider.as_str()).then(|| SchemeKind::from_name(&provider)).flatten()
}

/// Every provider with templates, in the order of `files::FILES`, each once.
fn provider_list() -> Vec<&'static str> {
    static NAMES: std::sync::OnceLock<Vec<&'static str>> = std::sync::OnceLock::new();
    NAMES
        .get_or_init(|| {
            let mut names: Vec<&'static str> = BUILT_IN.iter().map(|(name, _)| *name).collect();
            for text in files::FILES {
                // The provider is the file's first field; a file that does not parse is reported
                // by `templates()` where it is read.
                let Ok(head) = serde_json::from_str::<ProviderOnly>(text) else { continue };
                let name: &'static str = Box::leak(head.provider.into_boxed_str());
                if !names.contains(&name) {
                    names.push(name);
                }
            }
            names
        })
        .clone()
}

#[derive(Deserialize)]
struct ProviderOnly {
    provider: String,
}

/// Refuses `PROVIDER:TYPE` whose provider has no templates: `bogus:x` is a typo for a provider
/// far more often than an event type with a colon in it, and silently sending it as a generic
/// event would hide the typo. A plain event type (no colon) is left alone.
pub(crate) fn refuse_unknown_provider(spec: &str) -> anyhow::Result<()> {
    let Some((provider, _)) = spec.split_once(':') else { return Ok(()) };
    if provider_scheme(spec).is_none() {
        bail!(
            "--event `{}`: no provider `{}` has templates; the providers are {} (webhook send --list-events), and a \
             plain event type has no colon",
            terminal_safe(spec),
            terminal_safe(provider),
            provider_names()
        );
    }
    Ok(())
}

fn templates() -> anyhow::Result<Vec<TemplateFile>> {
    files::FILES
        .iter()
        .map(|text| serde_json::from_str::<TemplateFile>(text).context("a bundled template is not valid"))
        .collect()
}

/// The bundled templates, of one provider or all, sorted by provider and event.
pub(crate) fn list(provider: Option<&str>) -> anyhow::Result<Vec<TemplateInfo>> {
    if let Some(provider) = provider
        && scheme_of(provider).is_none()
    {
        bail!("no templates for `{}`; providers: {}", terminal_safe(provider), provider_names());
    }
    let mut infos: Vec<TemplateInfo> = templates()?
        .into_iter()
        .filter(|file| provider.is_none_or(|provider| file.provider.eq_ignore_ascii_case(provider)))
        .map(|file| TemplateInfo {
            provider: file.provider,
            event: file.event,
            api_version: file.api_version,
            source: file.source,
        })
        .collect();
    infos.sort_by(|a, b| (&a.provider, &a.event).cmp(&(&b.provider, &b.event)));
    Ok(infos)
}

fn provider_names() -> String {
    provider_list().join(", ")
}

/// The event for `spec` (`PROVIDER:TYPE`): body and headers as the provider sends them, with
/// fresh ids and timestamps (`id` pins the event id, or the delivery id where the provider's
/// event has none of its own; `now` is the Unix time the event says it was created), then
/// `overrides` applied in order.
pub(crate) fn provider_event(
    spec: &str,
    id: Option<&str>,
    now: i64,
    overrides: &[Override],
) -> anyhow::Result<ProviderEvent> {
    provider_event_shaped(spec, id, now, overrides, &Shaping::default())
}

/// What changes an event beyond its template's fields, for the probes that need an event the
/// templates do not hold as such: another event name, carried wherever the template carries its
/// own (`X-GitHub-Event`, `X-Shopify-Topic`, Stripe's `type`, Slack's `event.type`), and headers
/// the template writes as fixed text (WooCommerce's `X-WC-Webhook-Event: created`).
#[derive(Debug, Default, Clone, Copy)]
pub(crate) struct Shaping<'a> {
    pub event: Option<&'a str>,
    pub headers: &'a [(&'a str, &'a str)],
}

/// [`provider_event`] of `spec`'s template shaped by `shaping`.
pub(crate) fn provider_event_shaped(
    spec: &str,
    id: Option<&str>,
    now: i64,
    overrides: &[Override],
    shaping: &Shaping<'_>,
) -> anyhow::Result<ProviderEvent> {
    let (provider, event) =
        spec.split_once(':').with_context(|| format!("`{spec}` is not PROVIDER:TYPE, e.g. stripe:invoice.paid"))?;
    let provider = provider.to_ascii_lowercase();
    let scheme = provider_scheme(spec)
        .with_context(|| format!("no templates for `{}`; providers: {}", terminal_safe(&provider), provider_names()))?;
    let template = match templates()?.into_iter().find(|file| file.provider == provider && file.event == event) {
        Some(template) => template,
        // Standard Webhooks fixes the envelope, not the event types: any type gets it.
        None if scheme == SchemeKind::Standard && !event.is_empty() => TemplateFile {
            provider: provider.clone(),
            event: event.to_string(),
            api_version: "v1".into(),
            source: String::new(),
            event_header: None,
            delivery_id: None,
            headers: Map::new(),
            body: serde_json::json!({ "type": event, "timestamp": "{{now_iso}}", "data": {} }),
        },
        None => {
            let known: Vec<String> = list(Some(&provider))?.into_iter().map(|info| info.event).collect();
            // The event type is the user's text, echoed: a control character in it is shown escaped.
            bail!(
                "no template for {provider} event `{}`; {provider} has: {} (webhook send --list-events {provider})",
                terminal_safe(event),
                known.join(", ")
            );
        }
    };
    let pinned = id.map_or_else(|| fresh_delivery_id_of(template.delivery_id.as_deref(), scheme), str::to_string);
    let mut body = template.body;
    let event_name = shaping.event.unwrap_or(&template.event);
    if let Some(renamed) = shaping.event {
        rename(&mut body, &template.event, renamed);
    }
    let mut fill = Fill::new(event_name, &pinned, &pinned, now);
    fill.value(&mut body);
    let mut headers = Vec::with_capacity(template.headers.len());
    for (name, value) in &template.headers {
        let written = value.as_str().unwrap_or_default();
        let replaced =
            shaping.headers.iter().find(|(other, _)| other.eq_ignore_ascii_case(name)).map(|(_, value)| *value);
        let text = match (replaced, shaping.event) {
            (Some(value), _) => value.to_string(),
            (None, Some(renamed)) if written == template.event => renamed.to_string(),
            _ => fill.text(written),
        };
        let name = HeaderName::from_bytes(name.as_bytes()).with_context(|| format!("template header `{name}`"))?;
        let value = HeaderValue::from_str(&text).with_context(|| format!("template header `{name}`"))?;
        headers.push((name, value));
    }
    for change in overrides {
        change.apply(&mut body)?;
    }
    let event_id = match scheme {
        SchemeKind::Stripe => body.get("id"),
        SchemeKind::Slack => body.get("event_id"),
        _ => None,
    }
    .and_then(Value::as_str)
    .map_or_else(|| pinned.clone(), str::to_string);
    // Stripe sends its events pretty-printed, the others compact.
    let body = if scheme == SchemeKind::Stripe { serde_json::to_vec_pretty(&body) } else { serde_json::to_vec(&body) }
        .context("cannot write the event as JSON")?;
    let event_type = match shaping.event {
        Some(renamed) => renamed.to_string(),
        None => template.event_header.unwrap_or(template.event),
    };
    Ok(ProviderEvent { event_type, event_id, delivery_id: pinned, body, headers })
}

/// Every string in `value` that is exactly `from` becomes `to`: where a template writes its event
/// name as text (Stripe's `type`, Paddle's `event_type`, Slack's `event.type`).
fn rename(value: &mut Value, from: &str, to: &str) {
    match value {
        Value::String(text) if text == from => *text = to.to_string(),
        Value::Array(items) => items.iter_mut().for_each(|item| rename(item, from, to)),
        Value::Object(fields) => fields.values_mut().for_each(|field| rename(field, from, to)),
        _ => {}
    }
}

/// A fresh delivery id in the form a template names (`uuid`, or a prefix), else the scheme's.
fn fresh_delivery_id_of(form: Option<&str>, scheme: SchemeKind) -> String {
    match (form, scheme) {
        (Some("uuid"), _) => uuid::Uuid::new_v4().to_string(),
        (Some(prefix), _) => fresh_id(prefix),
        (None, SchemeKind::Stripe) => fresh_id("evt_"),
        (None, SchemeKind::Github | SchemeKind::Shopify) => uuid::Uuid::new_v4().to_string(),
        (None, SchemeKind::Slack) => fresh_id("Ev"),
        (None, _) => fresh_id("msg_"),
    }
}

/// The provider whose templates sign with `scheme`, if one has templates.
pub(crate) fn provider_of(scheme: SchemeKind) -> Option<&'static str> {
    provider_list().into_iter().find(|provider| scheme_of(provider) == Some(scheme))
}

/// The User-Agent `scheme`'s provider sends: its delivery personality's, else the one its
/// templates carry (GitLab's, Linear's, WooCommerce's); `None` for a scheme without a provider
/// or a provider that names none, whose deliveries then carry idem's.
pub(crate) fn user_agent(scheme: SchemeKind) -> Option<String> {
    let provider = provider_of(scheme)?;
    if let Some(agent) =
        crate::webhook::deliver::personality::named(provider).and_then(|personality| personality.user_agent)
    {
        return Some(agent.to_string());
    }
    let files = templates().ok()?;
    files.iter().filter(|file| file.provider == provider).find_map(|file| {
        file.headers
            .iter()
            .find(|(name, _)| name.eq_ignore_ascii_case("user-agent"))
            .and_then(|(_, value)| value.as_str().map(str::to_string))
    })
}

/// A fresh delivery id as `scheme`'s provider writes them (a GUID for GitHub, Shopify, GitLab,
/// Linear, …), when the provider has templates.
pub(crate) fn fresh_delivery_id(scheme: SchemeKind) -> Option<String> {
    let provider = provider_of(scheme)?;
    let files = templates().ok()?;
    let form = files.iter().find(|file| file.provider == provider).and_then(|file| file.delivery_id.as_deref());
    Some(fresh_delivery_id_of(form, scheme))
}

/// A fresh delivery id for a message signed with `scheme`: its provider's form where the scheme
/// carries one in a header of its own (a GUID in GitHub's `X-GitHub-Delivery`, GitLab's, Linear's,
/// …, `msg_…` for Standard Webhooks), else [`SchemeKind::fresh_delivery_id`]'s (a scheme with
/// no such header, Stripe or Slack, sends none, and the tool's reports keep their own form).
pub(crate) fn fresh_delivery_id_for(scheme: &dyn Scheme) -> String {
    let kind = scheme.kind();
    scheme.delivery_id_header().and_then(|_| fresh_delivery_id(kind)).unwrap_or_else(|| kind.fresh_delivery_id())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fresh_delivery_ids_take_the_form_the_provider_writes_in_its_header() {
        use crate::webhook::scheme::{SchemeOptions, build};
        let id_of = |name: &str| {
            let kind = SchemeKind::from_name(name).unwrap();
            fresh_delivery_id_for(build(kind, &SchemeOptions::default()).as_ref())
        };
        for name in ["github", "shopify", "twitch"] {
            let id = id_of(name);
            assert!(uuid::Uuid::parse_str(&id).is_ok(), "{name}: {id}");
        }
        assert!(id_of("standard").starts_with("msg_"));
        // No delivery-id header: the tool's own form, as the reports keep it.
        assert!(id_of("stripe").starts_with("msg_"));
    }

    #[test]
    fn every_template_is_complete_and_named_for_its_file() {
        let files = templates().unwrap();
        assert!(files.len() >= 40);
        for file in &files {
            assert!(scheme_of(&file.provider).is_some(), "{} has no scheme of its name", file.provider);
            assert!(!file.api_version.is_empty() && file.source.contains("http"), "{}:{}", file.provider, file.event);
            let event = provider_event(&format!("{}:{}", file.provider, file.event), None, 1_700_000_000, &[]).unwrap();
            let body: Value = serde_json::from_slice(&event.body).unwrap();
            let text = String::from_utf8(event.body.clone()).unwrap();
            for placeholder in ["{{now", "{{id:", "{{uuid", "{{sha", "{{event"] {
                assert!(!text.contains(placeholder), "{}:{} left {placeholder}", file.provider, file.event);
            }
            assert!(body.is_object() || body.is_array(), "{}:{}", file.provider, file.event);
        }
        let providers = provider_list().len();
        assert!(providers >= 15, "{providers} providers with templates");
        let stripe = files.iter().filter(|file| file.provider == "stripe").count();
        assert!(stripe >= 20, "{stripe} Stripe templates");
    }

    #[test]
    fn stripe_events_carry_the_envelope_with_fresh_ids() {
        let first = provider_event("stripe:payment_intent.succeeded", None, 1_700_000_000, &[]).unwrap();
        let second = provider_event("stripe:payment_intent.succeeded", None, 1_700_000_000, &[]).unwrap();
        let body: Value = serde_json::from_slice(&first.body).unwrap();
        assert_eq!(body["object"], "event");
        assert_eq!(body["type"], "payment_intent.succeeded");
        assert_eq!(body["livemode"], false);
        assert_eq!(body["created"], 1_700_000_000);
        assert_eq!(body["api_version"], "2024-06-20");
        assert!(body["id"].as_str().unwrap().starts_with("evt_"));
        assert_eq!(body["id"], first.event_id.as_str());
        assert!(body["data"]["object"]["id"].as_str().unwrap().starts_with("pi_"));
        assert_eq!(body["data"]["object"]["latest_charge"].as_str().unwrap().len(), 27);
        assert_ne!(first.event_id, second.event_id);
        let other: Value = serde_json::from_slice(&second.body).unwrap();
        assert_ne!(body["data"]["object"]["id"], other["data"]["object"]["id"]);
    }

    #[test]
    fn github_and_shopify_events_carry_their_headers() {
        let push = provider_event("github:push", Some("1f3a"), 1, &[]).unwrap();
        let header = |event: &ProviderEvent, name: &str| {
            event.headers.iter().find(|(n, _)| n == name).map(|(_, v)| v.to_str().unwrap().to_string())
        };
        assert_eq!(header(&push, "x-github-event").as_deref(), Some("push"));
        assert_eq!(header(&push, "x-github-delivery").as_deref(), Some("1f3a"));
        let order = provider_event("shopify:orders/create", None, 1, &[]).unwrap();
        assert_eq!(header(&order, "x-shopify-topic").as_deref(), Some("orders/create"));
        assert_eq!(header(&order, "x-shopify-webhook-id"), Some(order.delivery_id.clone()));
        assert!(uuid::Uuid::parse_str(&order.delivery_id).is_ok());
        assert!(header(&order, "x-shopify-shop-domain").is_some() && header(&order, "x-shopify-api-version").is_some());
    }

    #[test]
    fn overrides_apply_after_the_fresh_values() {
        let overrides = [
            Override::parse_set("data.object.amount=5000").unwrap(),
            Override::parse_unset("data.object.customer").unwrap(),
            Override::parse_set("id=evt_pinned").unwrap(),
        ];
        let event = provider_event("stripe:charge.succeeded", None, 1, &overrides).unwrap();
        let body: Value = serde_json::from_slice(&event.body).unwrap();
        assert_eq!(body["data"]["object"]["amount"], 5000);
        assert!(body["data"]["object"].get("customer").is_none());
        assert_eq!(event.event_id, "evt_pinned");
    }

    #[test]
    fn unknown_providers_and_events_say_what_exists() {
        let err = provider_event("stripe:nope", None, 1, &[]).unwrap_err().to_string();
        assert!(err.contains("payment_intent.succeeded"), "{err}");
        assert!(provider_event("paypal:x", None, 1, &[]).unwrap_err().to_string().contains("stripe, github"));
        let any = provider_event("standard:user.deleted", Some("msg_1"), 1, &[]).unwrap();
        assert_eq!(
            String::from_utf8(any.body).unwrap(),
            r#"{"type":"user.deleted","timestamp":"1970-01-01T00:00:01Z","data":{}}"#
        );
        assert_eq!(provider_scheme("GitHub:push"), Some(SchemeKind::Github));
        assert_eq!(provider_scheme("invoice.paid"), None);
    }
}
