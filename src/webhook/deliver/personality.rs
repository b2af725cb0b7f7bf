//! How each provider delivers, as data: `webhook send --as PROVIDER` (and by default `--event
//! PROVIDER:TYPE`) and `webhook replay --as PROVIDER` retry, time out, label their retries and
//! name themselves as that provider does. Every field cites where the provider says so; what a
//! provider does not publish is left out (`None`), and the tool's own default applies there.
use std::time::Duration;

use crate::ids::fresh_id;
use crate::webhook::scheme::SchemeKind;

/// One provider's delivery behaviour.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Personality {
    /// The name `--as` takes, and the provider part of `--event PROVIDER:TYPE`.
    pub name: &'static str,
    /// The scheme this provider signs with (the default `--scheme` under `--as`).
    pub scheme: SchemeKind,
    /// The delay (in seconds) before each attempt, measured from the end of the one before; its
    /// length is the number of attempts. `None`: not published, the tool's backoff applies.
    pub schedule: Option<&'static [u64]>,
    pub schedule_source: &'static str,
    /// How long the provider waits for an answer before it counts the attempt failed.
    pub timeout: Option<Duration>,
    pub timeout_source: &'static str,
    /// When the timeout passes, the next attempt goes out while the first is still running (it is
    /// not cancelled): Slack's retries overlap a slow receiver's work.
    pub overlapping: bool,
    /// Headers that number a retry and say why it happened.
    pub retry_headers: Option<RetryHeaders>,
    pub user_agent: Option<&'static str>,
    pub user_agent_source: &'static str,
    /// What a fresh delivery id looks like.
    pub delivery_id: IdForm,
    pub delivery_id_source: &'static str,
}

/// Headers a provider adds to its retries (never to the first attempt).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RetryHeaders {
    /// Carries the retry's number: 1 for the first retry (the second attempt).
    pub number: &'static str,
    /// Carries why the previous attempt failed, in the provider's words ([`RetryReason`]).
    pub reason: &'static str,
}

/// Why an attempt failed, in Slack's words (`X-Slack-Retry-Reason`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum RetryReason {
    /// No answer within the provider's timeout.
    HttpTimeout,
    /// An answer outside 2xx.
    HttpError,
    /// The connection could not be made.
    ConnectionFailed,
    /// Anything else (the connection broke mid-exchange).
    UnknownError,
}

impl RetryReason {
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            RetryReason::HttpTimeout => "http_timeout",
            RetryReason::HttpError => "http_error",
            RetryReason::ConnectionFailed => "connection_failed",
            RetryReason::UnknownError => "unknown_error",
        }
    }
}

/// The shape of a provider's delivery ids.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum IdForm {
    /// A random UUID (GitHub's GUID).
    Uuid,
    /// A prefix and random characters (`evt_…`, `Ev…`, `msg_…`).
    Prefixed(&'static str),
}

impl IdForm {
    pub(crate) fn fresh(self) -> String {
        match self {
            IdForm::Uuid => uuid::Uuid::new_v4().to_string(),
            IdForm::Prefixed(prefix) => fresh_id(prefix),
        }
    }
}

const GITHUB_FAILED_DELIVERIES: &str = "GitHub Docs, 'Handling failed webhook deliveries': \"GitHub does not \
     automatically redeliver failed deliveries\" (https://docs.github.com/en/webhooks/using-webhooks/handling-failed-webhook-deliveries)";
const SLACK_RETRIES: &str = "Slack Events API, 'Error handling' and 'Retries': an event not answered with a 2xx \
     within three seconds fails, and is retried up to three times, nearly immediately, after 1 minute and after 5 \
     minutes, each retry with x-slack-retry-num and x-slack-retry-reason (http_timeout, connection_failed, \
     http_error, unknown_error, ...) (https://api.slack.com/apis/events-api#retries)";

/// The providers `--as` knows, by name.
pub(crate) const PERSONALITIES: [Personality; 4] = [
    Personality {
        name: "github",
        scheme: SchemeKind::Github,
        schedule: Some(&[0]),
        schedule_source: GITHUB_FAILED_DELIVERIES,
        timeout: Some(Duration::from_secs(10)),
        timeout_source: "GitHub Docs, 'Best practices for using webhooks': \"Your server should respond with a 2XX \
             response within 10 seconds of receiving a webhook delivery. If your server takes longer than that to \
             respond, then GitHub terminates the connection and considers the delivery a failure\" \
             (https://docs.github.com/en/webhooks/using-webhooks/best-practices-for-using-webhooks#respond-within-10-seconds)",
        overlapping: false,
        retry_headers: None,
        user_agent: Some("GitHub-Hookshot/9729b30"),
        user_agent_source: "GitHub Docs, 'Webhook events and payloads', delivery headers: \"User-Agent: This header \
             will always have the prefix GitHub-Hookshot/\" (https://docs.github.com/en/webhooks/webhook-events-and-payloads#delivery-headers)",
        delivery_id: IdForm::Uuid,
        delivery_id_source: "the same page: \"X-GitHub-Delivery: A globally unique identifier (GUID) to identify the \
             event\"",
    },
    Personality {
        name: "slack",
        scheme: SchemeKind::Slack,
        schedule: Some(&[0, 0, 60, 300]),
        schedule_source: SLACK_RETRIES,
        timeout: Some(Duration::from_secs(3)),
        timeout_source: SLACK_RETRIES,
        overlapping: true,
        retry_headers: Some(RetryHeaders { number: "x-slack-retry-num", reason: "x-slack-retry-reason" }),
        user_agent: Some("Slackbot 1.0 (+https://api.slack.com/robots)"),
        user_agent_source: "Slack's robots page (https://api.slack.com/robots), as Slack's requests name themselves",
        delivery_id: IdForm::Prefixed("Ev"),
        delivery_id_source: "Slack Events API, the event_callback envelope: event_id \"Ev…\" \
             (https://api.slack.com/apis/events-api#callback-field)",
    },
    Personality {
        name: "stripe",
        scheme: SchemeKind::Stripe,
        // Our templates are test-mode events (livemode false), so test mode's retries; Stripe does
        // not publish the delays, so these are the `stripe-test` preset's reading of them.
        schedule: Some(&crate::webhook::deliver::retry::STRIPE_TEST_SCHEDULE),
        schedule_source: "Stripe Docs, 'Receive Stripe events in your webhook endpoint', retry behaviour: \"In live \
             mode, Stripe attempts to deliver a given event to your webhook endpoint for up to 3 days with an \
             exponential back off. In sandboxes, Stripe retries three times over a few hours\" \
             (https://docs.stripe.com/webhooks#retries); the delays are not published: 0s, 1h, 2h is our reading \
             (--schedule stripe-test)",
        timeout: None,
        timeout_source: "not published",
        overlapping: false,
        retry_headers: None,
        user_agent: Some("Stripe/1.0 (+https://stripe.com/docs/webhooks)"),
        user_agent_source: "as Stripe's deliveries name themselves (observed; Stripe's docs do not state it)",
        delivery_id: IdForm::Prefixed("evt_"),
        delivery_id_source: "Stripe sends no delivery id of its own: the event's id, \"evt_…\" \
             (https://docs.stripe.com/api/events/object)",
    },
    Personality {
        name: "standard",
        scheme: SchemeKind::Standard,
        schedule: Some(&crate::webhook::deliver::retry::STANDARD_SCHEDULE),
        schedule_source: "Standard Webhooks specification, 'Retry schedule': the example schedule, immediately, 5s, \
             5m, 30m, 2h, 5h, 10h, 14h, 20h, 24h (https://github.com/standard-webhooks/standard-webhooks/blob/main/spec/standard-webhooks.md)",
        timeout: None,
        timeout_source: "not specified",
        overlapping: false,
        retry_headers: None,
        user_agent: None,
        user_agent_source: "not specified",
        delivery_id: IdForm::Prefixed("msg_"),
        delivery_id_source: "Standard Webhooks specification: webhook-id \"msg_…\" in its examples",
    },
];

/// The names `--as` takes.
pub(crate) const NAMES: [&str; 4] = ["github", "slack", "stripe", "standard"];

/// The personality named `name` (case-insensitive).
pub(crate) fn named(name: &str) -> Option<&'static Personality> {
    PERSONALITIES.iter().find(|personality| personality.name.eq_ignore_ascii_case(name))
}

/// The personality of the provider in `--event PROVIDER:TYPE`, if it has one.
pub(crate) fn of_event(spec: &str) -> Option<&'static Personality> {
    named(spec.split_once(':')?.0)
}

impl Personality {
    /// The schedule as durations, if the provider publishes one.
    pub(crate) fn delays(&self) -> Option<Vec<Duration>> {
        self.schedule.map(|seconds| seconds.iter().map(|s| Duration::from_secs(*s)).collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_personality_names_its_sources_and_has_a_schedule_it_can_run() {
        for personality in &PERSONALITIES {
            assert!(personality.schedule_source.contains("http"), "{}", personality.name);
            let delays = personality.delays().unwrap();
            assert_eq!(delays[0], Duration::ZERO, "{}: the first attempt goes at once", personality.name);
            if personality.timeout.is_some() {
                assert!(personality.timeout_source.contains("http"), "{}", personality.name);
            }
            if personality.user_agent.is_some() {
                assert!(!personality.user_agent_source.is_empty(), "{}", personality.name);
            }
            assert_eq!(named(&personality.name.to_uppercase()), Some(personality));
        }
        assert_eq!(PERSONALITIES.map(|personality| personality.name), NAMES);
        assert_eq!(named("github").unwrap().delays().unwrap().len(), 1, "GitHub does not retry");
        assert_eq!(named("slack").unwrap().delays().unwrap().len(), 4, "Slack retries three times");
        assert_eq!(of_event("slack:message").map(|p| p.name), Some("slack"));
        assert!(of_event("shopify:orders/create").is_none() && of_event("invoice.paid").is_none());
        assert_eq!(IdForm::Uuid.fresh().len(), 36);
        assert!(IdForm::Prefixed("Ev").fresh().starts_with("Ev"));
    }
}
