//! The shared probe of `idem check`: sends variations of the user's request, decodes the answers,
//! remembers the error answers for `problem-json`, and holds the first execution (`Original`) the
//! checks compare with. A leaf: it imports no check group.
use anyhow::Context;
use bytes::Bytes;
use http::{HeaderMap, Method, StatusCode, Uri};

use crate::count::CountReading;
use crate::http::client::{ClientOptions, Exchange, HttpClient};
use crate::idem::key::KeyPolicy;
use crate::idem::request::{FoundId, RequestSpec};

/// Sends variations of the user's request and remembers every error answer for `problem-json`.
pub(super) struct Probe {
    pub spec: RequestSpec,
    pub client: HttpClient,
    pub error_answers: Vec<ErrorAnswer>,
    /// Other instances of the same API (`--also`).
    pub also: Vec<Uri>,
    /// Why `--count-url` cannot be believed, when `create` showed it (it did not rise for the
    /// first execution, went down, jumped, or moved by itself): every check that reads the count
    /// is then unconfirmed, never passed on it.
    pub count_doubt: Option<String>,
    /// Every resource id read from an answer, for the summary's "created N resources": the ids
    /// the checks read for their verdicts are recorded where they are read (`found_id`, which
    /// takes `&self`, hence the lock).
    pub created_ids: std::sync::Mutex<crate::created::CreatedIds>,
}

/// An error answer seen during the suite, for `problem-json`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct ErrorAnswer {
    pub check: String,
    pub status: StatusCode,
    pub content_type: Option<String>,
}

impl Probe {
    pub(super) fn new(spec: RequestSpec) -> anyhow::Result<Probe> {
        let options = ClientOptions { timeout: spec.timeout, insecure: spec.insecure, http2: spec.http2 };
        // The plain requests go through the user's proxy; `concurrent` races directly, as `idem race` does.
        let client = HttpClient::with_proxies(options, spec.proxies.clone())?.with_budget(spec.budget.clone());
        Ok(Probe {
            spec,
            client,
            error_answers: Vec::new(),
            also: Vec::new(),
            count_doubt: None,
            created_ids: Default::default(),
        })
    }

    /// A fresh key in the user's `--key-format` (a fixed `--key` would collide across checks).
    pub(super) fn fresh_key(&self) -> String {
        match &self.spec.key_policy {
            KeyPolicy::Generate(format) => crate::idem::key::generate(*format),
            _ => crate::idem::key::generate(Default::default()),
        }
    }

    /// Sends the user's request with `key`, optionally with another method or body.
    pub(super) async fn send(
        &mut self,
        check: &str,
        key: Option<&str>,
        method: Option<Method>,
        body: Option<Bytes>,
    ) -> anyhow::Result<Exchange> {
        self.send_to(None, check, key, method, body).await
    }

    /// `send`, to `url` instead of the user's URL when given (another instance of the API).
    pub(super) async fn send_to(
        &mut self,
        url: Option<&Uri>,
        check: &str,
        key: Option<&str>,
        method: Option<Method>,
        body: Option<Bytes>,
    ) -> anyhow::Result<Exchange> {
        // The key goes into the other URL or body, wherever --key-in carries it.
        let mut request = self.spec.build_varied(key, url, body)?;
        if let Some(method) = method {
            *request.method_mut() = method;
        }
        self.send_request(check, request).await
    }

    /// Sends a request a check built itself (other headers, a raw key value).
    pub(super) async fn send_request(
        &mut self,
        check: &str,
        request: http::Request<Bytes>,
    ) -> anyhow::Result<Exchange> {
        let exchange = send_decoded(&self.client, check, request).await?;
        self.note_errors(check, exchange.status, &exchange.headers);
        // Read here too, so an answer no check reads an id from still counts what it created.
        self.found_id(&exchange);
        Ok(exchange)
    }

    pub(super) fn note_errors(&mut self, check: &str, status: StatusCode, headers: &HeaderMap) {
        if status.is_client_error() || status.is_server_error() {
            let content_type =
                headers.get(http::header::CONTENT_TYPE).and_then(|v| v.to_str().ok()).map(str::to_string);
            self.error_answers.push(ErrorAnswer { check: check.to_string(), status, content_type });
        }
    }

    pub(super) fn id_of(&self, exchange: &Exchange) -> Option<String> {
        self.found_id(exchange).map(|found| found.id)
    }

    /// The id and where it was read (body, `Location`, …).
    pub(super) fn found_id(&self, exchange: &Exchange) -> Option<FoundId> {
        let found = self.spec.id_source().read(&exchange.headers, &exchange.body);
        let replayed = crate::idem::verdict::replay_marker(&exchange.headers).is_some();
        crate::sync::lock(&self.created_ids).add(
            Some(exchange.status.as_u16()),
            found.as_ref().map(|found| found.id.as_str()),
            replayed,
        );
        found
    }

    /// The ids a race round's answers carried (a round reads them itself, not through `found_id`).
    pub(super) fn note_created<'a>(&self, answers: impl IntoIterator<Item = &'a crate::idem::verdict::Observed>) {
        let mut ids = crate::sync::lock(&self.created_ids);
        for answer in answers {
            ids.add(answer.status, answer.resource_id.as_deref(), answer.replayed);
        }
    }
}

/// Sends `request` and decodes its body: every check compares decoded bodies (the same JSON
/// compressed twice differs byte for byte).
pub(super) async fn send_decoded(
    client: &HttpClient,
    check: &str,
    request: http::Request<Bytes>,
) -> anyhow::Result<Exchange> {
    let mut exchange = client.send(request).await.with_context(|| format!("check `{check}` got no answer"))?;
    exchange.body = crate::http::content_encoding::decode(&exchange.headers, exchange.body).body;
    Ok(exchange)
}

/// A short, single-line excerpt of a body for evidence.
pub(super) fn excerpt(body: &[u8]) -> String {
    let text = String::from_utf8_lossy(body).split_whitespace().collect::<Vec<_>>().join(" ");
    crate::text::ellipsis(&text, 160)
}

/// The first execution every other check compares with.
pub(super) struct Original {
    pub key: String,
    pub exchange: Exchange,
    pub id: String,
}

/// The executions the count shows for a step, or why it shows none: the step's own reading, or
/// what `create` found wrong with the count (`doubt`).
pub(super) fn believed(count: &CountReading, doubt: Option<&str>) -> Result<u64, String> {
    match (count.change.executions(), doubt) {
        (Err(own), _) => Err(own.to_string()),
        (Ok(_), Some(doubt)) => Err(format!("{doubt} (when `create` executed)")),
        (Ok(executions), None) => Ok(executions),
    }
}
