//! What `webhook check` sends with and how it reads what comes back: the receiver's URL, the
//! right key and a wrong one, answers told apart as a status, a timeout or no answer at all, and
//! the refusal every rejection check expects. A leaf: it imports no check group.
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::Context;
use bytes::Bytes;
use http::{HeaderName, HeaderValue, Request, Uri};

use super::payload::{AMOUNT, CheckPayload, DEFAULT_TYPE};
use crate::conformance::{CheckResult, CheckSpec};
use crate::http::client::{ClientOptions, Exchange, HttpClient};
use crate::http::outbound_proxy::Proxies;
use crate::units::format_duration;
use crate::webhook::deliver::engine::{Message, describe_status};
use crate::webhook::delivery::{fresh_id, unix_now};
use crate::webhook::scheme::new_secret;
use crate::webhook::scheme::{Scheme, SigningKey};
use crate::webhook::secret::Secret;

/// The body of [`Probe::raw_event`].
pub(super) fn raw_body(event_id: &str, event_type: &str, created: i64) -> String {
    let event_type = serde_json::Value::from(event_type).to_string();
    format!(
        "{{\n  \"id\": \"{event_id}\",\n  \"type\": {event_type},\n  \"created\": {created},\n  \"data\": {{\n    \
         \"zeta\": true,\n    \"amount\": {AMOUNT},\n    \"rate\": 1.0,\n    \"10\": \"ten\",\n    \
         \"description\": \"café ✓ \\u2713\",\n    \"receipt_url\": \"https:\\/\\/example.com\\/receipts\\/1\",\n    \
         \"alpha\": null\n  }}\n}}\n"
    )
}

/// One answer to a check's request.
#[derive(Debug)]
pub(crate) enum Answer {
    Status(Exchange),
    /// No complete answer within the timeout.
    TimedOut(Duration),
    /// No answer: the connection was refused or broke.
    Failed(String),
}

/// One delivery's parts, from one fill of the payload.
struct Fresh {
    body: Vec<u8>,
    event_id: String,
    delivery_id: String,
    event_type: Option<String>,
    headers: Vec<(HeaderName, HeaderValue)>,
}

pub(crate) struct Probe {
    pub url: Uri,
    pub scheme: Arc<dyn Scheme>,
    key: SigningKey,
    /// A key from another secret of the same form, for forged signatures.
    wrong_key: SigningKey,
    client: HttpClient,
    pub timeout: Duration,
    /// Accept any TLS certificate (`-k`), for the race's own connections too.
    pub insecure: bool,
    /// What the valid deliveries carry.
    pub payload: CheckPayload,
    /// `--max-requests`: the client takes from it request by request; the race of concurrent
    /// duplicates, which opens its own connections, takes its copies from it at once.
    pub budget: crate::http::budget::RequestBudget,
}

impl Probe {
    pub(crate) fn new(
        url: Uri,
        scheme: Arc<dyn Scheme>,
        key: SigningKey,
        timeout: Duration,
        insecure: bool,
        proxies: Proxies,
        payload: CheckPayload,
    ) -> anyhow::Result<Probe> {
        // A wrong key of the same kind: another Ed25519 pair for a v1a receiver, else another secret.
        let wrong = match (key.asymmetric(), scheme.kind()) {
            (Some(_), _) => new_secret::generate_asymmetric()?.0,
            // Another RSA key, whose signatures the provider's certificate does not verify.
            (None, crate::webhook::scheme::SchemeKind::Certified(_)) => crate::webhook::crypto::pem::encode(
                "PRIVATE KEY",
                &crate::webhook::crypto::rsa::generate_pkcs8(crate::webhook::crypto::rsa::GENERATED_BITS)?,
            ),
            (None, _) => new_secret::generate(scheme.kind())?,
        };
        let wrong_secret = Secret::new(wrong.into_bytes())?;
        let wrong_key =
            scheme.signing_key(&wrong_secret).context("cannot make a wrong key to forge signatures with")?;
        // The client's own limit is a backstop: `send` times each request itself, to tell a slow
        // receiver from one that cannot be reached.
        let options = ClientOptions { timeout: timeout + Duration::from_secs(5), insecure, http2: false };
        let client = HttpClient::with_proxies(options, proxies)?;
        // Probes look like the provider's deliveries: see `CheckPayload::for_scheme`.
        let payload = payload.for_scheme(scheme.kind());
        Ok(Probe { url, scheme, key, wrong_key, client, timeout, insecure, payload, budget: Default::default() })
    }

    /// This probe, sending only what `--max-requests` allows.
    pub(crate) fn with_budget(mut self, budget: crate::http::budget::RequestBudget) -> Probe {
        self.client = self.client.with_budget(budget.clone());
        self.budget = budget;
        self
    }

    /// A fresh event of the chosen payload, signed with the right key.
    pub(crate) fn event(&self) -> Message {
        let fresh = self.fresh();
        self.message(fresh.body, &fresh.event_id, &fresh.delivery_id, fresh.event_type, fresh.headers)
    }

    /// One fill of the chosen payload: a provider template gives body, ids, event name and headers
    /// together (its delivery id in the provider's form, its event name as the provider's header
    /// carries it: GitLab's `Push Hook`); any other payload gets the scheme's delivery id form.
    fn fresh(&self) -> Fresh {
        let now = unix_now();
        if let CheckPayload::Provider { spec, .. } = &self.payload
            && let Ok(event) = crate::webhook::template::provider_event(spec, None, now, &[])
        {
            return Fresh {
                body: event.body,
                event_id: event.event_id,
                delivery_id: event.delivery_id,
                event_type: Some(event.event_type),
                headers: event.headers,
            };
        }
        let event_id = fresh_id("evt_");
        Fresh {
            body: self.payload.body(&event_id, now),
            event_id,
            delivery_id: self.fresh_delivery_id(),
            event_type: self.payload.event_type(),
            headers: Vec::new(),
        }
    }

    /// A delivery id as the scheme's provider writes them in its delivery-id header: a GUID for
    /// GitHub, Shopify, GitLab, Linear…, `msg_…` for Standard Webhooks and the schemes without a
    /// provider. A scheme with no such header (Stripe, Slack) sends none, and the reports keep
    /// the suite's own `msg_…` form for it.
    fn fresh_delivery_id(&self) -> String {
        crate::webhook::template::fresh_delivery_id_for(self.scheme.as_ref())
    }

    /// A fresh event of `event_type` about `object_id`, shaped like the chosen payload: a provider
    /// template's event under that name, carried where the provider carries its event name
    /// (`X-GitHub-Event`, `X-Shopify-Topic`, Stripe's `type`) with its body and headers otherwise
    /// the template's.
    pub(crate) fn typed_event(&self, event_type: &str, object_id: &str) -> Message {
        if let CheckPayload::Provider { spec, .. } = &self.payload {
            let shaping = crate::webhook::template::Shaping { event: Some(event_type), headers: &[] };
            if let Ok(event) = crate::webhook::template::provider_event_shaped(spec, None, unix_now(), &[], &shaping) {
                return self.provider_message(event);
            }
        }
        let event_id = fresh_id("evt_");
        let body = self.payload.body_of_type(event_type, &event_id, unix_now(), object_id);
        self.message(body, &event_id, &self.fresh_delivery_id(), Some(event_type.to_string()), Vec::new())
    }

    /// `event`, built from a provider's template, as a delivery: its ids, event name and headers.
    pub(crate) fn provider_message(&self, event: crate::webhook::template::ProviderEvent) -> Message {
        self.message(event.body, &event.event_id, &event.delivery_id, Some(event.event_type), event.headers)
    }

    /// A delivery of `body` that is not the payload's (a provider's handshake), with `headers` on
    /// top: the provider's delivery id form and User-Agent as on every other probe.
    pub(crate) fn other_delivery(
        &self,
        body: Vec<u8>,
        event_id: &str,
        headers: Vec<(HeaderName, HeaderValue)>,
    ) -> Message {
        self.message(body, event_id, &self.fresh_delivery_id(), None, headers)
    }

    /// The created-then-updated pair of the chosen provider template's object (see
    /// `template::pairs`), when the payload is a provider's and its templates have one.
    pub(crate) fn related_pair(&self) -> Option<&'static crate::webhook::template::RelatedPair> {
        let (provider, event) = self.payload.provider_template()?;
        crate::webhook::template::related_pair(provider, Some(event))
    }

    /// Every probe's delivery: signed afresh on each attempt, with one User-Agent, the provider's
    /// when the scheme is a provider's (idem's otherwise), and the provider's own headers on top
    /// when the payload is a provider template, so a receiver that routes on them
    /// (`X-Shopify-Shop-Domain`) judges the probe, not a missing header.
    fn message(
        &self,
        body: Vec<u8>,
        event_id: &str,
        delivery_id: &str,
        event_type: Option<String>,
        provider_headers: Vec<(HeaderName, HeaderValue)>,
    ) -> Message {
        let mut message =
            Message::signed(body, event_id, event_type, delivery_id, Arc::clone(&self.scheme), self.key.clone());
        if let Some(agent) = crate::webhook::template::user_agent(self.scheme.kind())
            && let Ok(agent) = HeaderValue::from_str(&agent)
        {
            message.headers.insert(http::header::USER_AGENT, agent);
        }
        for (name, value) in provider_headers {
            message.headers.insert(name, value);
        }
        message
    }

    /// A fresh event whose body no JSON parse-and-serialise round trip reproduces, and how it is
    /// written (for the evidence). The suite's own event gets two-space indents, `café ✓` unescaped
    /// next to an escaped `\u2713`, escaped slashes, `1.0`, and keys neither sorted nor in the
    /// order a JavaScript object keeps (`"10"` would move first). A payload the user chose keeps
    /// its content (a receiver may refuse any other) and is written with three-space indents and
    /// `/` escaped as `\/`, which no serialiser's default reproduces either. So a receiver that
    /// verifies what its framework re-serialised refuses it.
    pub(crate) fn raw_event(&self) -> (Message, &'static str) {
        let fresh = self.fresh();
        let chosen = match self.payload {
            CheckPayload::Default => None,
            _ => serde_json::from_slice::<serde_json::Value>(&fresh.body).ok(),
        };
        let (body, written) = match chosen.and_then(|value| unusual_writing(&value)) {
            Some(body) => (body, "written with 3-space indents and `/` escaped as `\\/`"),
            None => {
                let event_type = fresh.event_type.clone().unwrap_or_else(|| DEFAULT_TYPE.to_string());
                (
                    raw_body(&fresh.event_id, &event_type, unix_now()).into_bytes(),
                    "indented, with \"café ✓\" unescaped, \\u2713 and \\/ escaped, 1.0 and unsorted keys",
                )
            }
        };
        (self.message(body, &fresh.event_id, &fresh.delivery_id, fresh.event_type, fresh.headers), written)
    }

    /// `source`'s event written in each of the styles JSON libraries re-serialise to (Python's
    /// `json.dumps` default, compact, pretty-printed, sorted keys, …), each correctly signed over
    /// those bytes: a receiver that verifies its own re-serialisation accepts exactly the one in
    /// its style. The content, ids and headers stay `source`'s, so an acceptance proves that only
    /// the bytes mattered.
    pub(crate) fn restyled_events(&self, source: &Message) -> Vec<(&'static str, Message)> {
        let mut seen: Vec<Vec<u8>> = Vec::new();
        let mut events = Vec::new();
        let Ok(value) = serde_json::from_slice::<serde_json::Value>(&source.body) else { return events };
        for (style, body) in crate::webhook::verify::hint::reserialisations(&value) {
            // Styles that write this event identically are sent once.
            if seen.contains(&body) {
                continue;
            }
            seen.push(body.clone());
            let mut restyled = source.clone();
            restyled.body = Bytes::from(body);
            events.push((style, restyled));
        }
        events
    }

    /// The key the valid deliveries are signed with (Zoom's handshake answer is made with it).
    pub(crate) fn key(&self) -> &SigningKey {
        &self.key
    }

    /// The same event signed with a key from another secret.
    pub(crate) fn forged(&self, message: &Message) -> Message {
        let mut forged = message.clone();
        forged.signing = crate::webhook::deliver::engine::Signing::Fresh {
            scheme: Arc::clone(&self.scheme),
            key: self.wrong_key.clone(),
        };
        forged
    }

    /// `message`'s body changed, as an attacker (or a proxy) would after signing.
    pub(crate) fn tampered_body(&self, message: &Message) -> Bytes {
        Bytes::from(self.payload.tampered(&message.body))
    }

    /// Where the race engine connects: the receiver, straight (no outbound proxy would keep the
    /// copies together).
    pub(crate) fn race_target(&self) -> crate::race::connect::Target {
        crate::race::connect::Target { url: self.url.clone(), insecure: self.insecure, timeout: self.timeout }
    }

    pub(crate) fn request(&self, message: &Message, timestamp: i64) -> anyhow::Result<Request<Bytes>> {
        message.request(&self.url, timestamp)
    }

    pub(crate) async fn send(&self, request: Request<Bytes>) -> Answer {
        match tokio::time::timeout(self.timeout, self.client.send(request)).await {
            Ok(Ok(exchange)) => Answer::Status(exchange),
            Ok(Err(err)) => Answer::Failed(err.chain().skip(1).map(ToString::to_string).collect::<Vec<_>>().join(": ")),
            Err(_) => Answer::TimedOut(self.timeout),
        }
    }
}

/// What every check reports: the request, the answer, the time it took.
pub(crate) struct Sent {
    pub answer: Answer,
    pub took: Duration,
}

pub(crate) async fn timed_send(probe: &Probe, request: http::Request<bytes::Bytes>) -> Sent {
    let started = Instant::now();
    let answer = probe.send(request).await;
    Sent { answer, took: started.elapsed() }
}

pub(crate) fn describe(answer: &Answer) -> String {
    match answer {
        Answer::Status(exchange) => {
            format!("{} in {}", describe_status(exchange.status.as_u16()), format_duration(exchange.latency))
        }
        Answer::TimedOut(limit) => format!("no answer within {}", format_duration(*limit)),
        Answer::Failed(err) => format!("no answer: {err}"),
    }
}

/// An answer in a few words, without its latency: the status, or that none came.
pub(crate) fn said(answer: &Answer) -> String {
    match answer {
        Answer::Status(exchange) => describe_status(exchange.status.as_u16()),
        Answer::TimedOut(limit) => format!("no answer within {}", format_duration(*limit)),
        Answer::Failed(err) => format!("no answer: {err}"),
    }
}

/// Why an answer to a request that must be refused is not a 4xx: a 5xx, a reset or a hang on a
/// hostile input is a crash, never an acceptance.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum NotRefused {
    Accepted,
    ServerError,
    ConnectionClosed,
    Hung,
    /// Another status (a 1xx or 3xx): not the 4xx expected.
    OtherStatus,
}

impl NotRefused {
    /// What `answer` is, when it is not the 4xx a refusal check expects.
    pub(crate) fn of(answer: &Answer) -> NotRefused {
        match answer {
            Answer::Status(exchange) if exchange.status.is_success() => NotRefused::Accepted,
            Answer::Status(exchange) if exchange.status.is_server_error() => NotRefused::ServerError,
            Answer::Failed(_) => NotRefused::ConnectionClosed,
            Answer::TimedOut(_) => NotRefused::Hung,
            Answer::Status(_) => NotRefused::OtherStatus,
        }
    }

    /// What the receiver did to the request, as a finding opens: "accepted event evt_1 …".
    pub(crate) fn verb(self) -> &'static str {
        match self {
            NotRefused::Accepted => "accepted",
            NotRefused::ServerError => "crashed on",
            NotRefused::ConnectionClosed => "closed the connection on",
            NotRefused::Hung => "hung on",
            NotRefused::OtherStatus => "did not refuse",
        }
    }

    /// What a refusal check's evidence says of it.
    pub(crate) fn says(self) -> &'static str {
        match self {
            NotRefused::Accepted => "accepted",
            NotRefused::ServerError => {
                "crashed on this input instead of refusing it with a 4xx (a 5xx also makes the provider retry it)"
            }
            NotRefused::ConnectionClosed => {
                "crashed on this input instead of refusing it with a 4xx (the connection closed without an answer)"
            }
            NotRefused::Hung => "hung on this input instead of refusing it with a 4xx",
            NotRefused::OtherStatus => "expected a 4xx",
        }
    }
}

/// A check that passes when the receiver refuses `request` with a 4xx.
pub(crate) async fn refusal(
    spec: CheckSpec,
    probe: &Probe,
    what: String,
    request: http::Request<bytes::Bytes>,
) -> CheckResult {
    let sent = timed_send(probe, request).await;
    let mut evidence = vec![format!("{what} → {}", describe(&sent.answer))];
    let held = matches!(&sent.answer, Answer::Status(exchange) if exchange.status.is_client_error());
    if held {
        return spec.held(evidence, sent.took);
    }
    let not_refused = NotRefused::of(&sent.answer);
    evidence.push(not_refused.says().to_string());
    spec.broken(format!("{} {what}: {}", not_refused.verb(), said(&sent.answer)), evidence, sent.took)
}

/// `value` pretty-printed with three-space indents and every `/` escaped as `\/` (a `/` in JSON
/// text can only be inside a string, so replacing them all is exact).
fn unusual_writing(value: &serde_json::Value) -> Option<Vec<u8>> {
    let mut out = Vec::new();
    let formatter = serde_json::ser::PrettyFormatter::with_indent(b"   ");
    serde::Serialize::serialize(value, &mut serde_json::Serializer::with_formatter(&mut out, formatter)).ok()?;
    let text = String::from_utf8(out).ok()?.replace('/', "\\/");
    Some(format!("{text}\n").into_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_raw_body_is_json_that_no_round_trip_reproduces() {
        let body = raw_body("evt_1", "webhook.check", 1_700_000_000);
        let value: serde_json::Value = serde_json::from_str(&body).unwrap();
        assert_eq!(value["data"]["description"], "café ✓ ✓");
        assert_eq!(value["data"]["receipt_url"], "https://example.com/receipts/1");
        assert!(body.contains("  \"id\": \"evt_1\"") && body.contains(r"\/") && body.contains("1.0"));
        for rewritten in [serde_json::to_string(&value).unwrap(), serde_json::to_string_pretty(&value).unwrap()] {
            assert_ne!(rewritten, body);
            assert_ne!(rewritten + "\n", body);
        }
    }
}
