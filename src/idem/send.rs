//! `idem send`: one logical request with an idempotency key, sent once or repeated with the same
//! key, and the verdict on the answers.
use std::io::Write;
use std::time::Duration;

use anyhow::bail;
use serde::Serialize;

use crate::exit::Outcome;
use crate::http::budget::{Needed, refusal_in};
use crate::http::client::{ClientOptions, Exchange, HttpClient};
use crate::idem::print;
use crate::idem::request::{IdSource, RequestSpec};
use crate::idem::verdict::{self, Judgement, Observed, Timing, Verdict};
use crate::output::{Format, Palette};
use crate::text::plural;

#[derive(Debug, Clone)]
pub(crate) struct SendConfig {
    pub request: RequestSpec,
    pub repeat: u32,
    pub interval: Duration,
    pub format: Format,
    pub palette: Palette,
    /// Pretty-print JSON bodies (on a terminal); raw bytes otherwise.
    pub pretty: bool,
    /// `--max-attempts`/`--retry`: retry lost or failed answers; `None` sends each request once.
    pub retry: Option<crate::idem::send_retry::SendRetry>,
}

/// The `schema` value of `idem send --format json` (schemas/idem-send.json).
pub(crate) const SCHEMA: &str = "idem-send/1";

/// Everything `idem send` learned; this is also its `--format json` document.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub(crate) struct SendReport {
    pub method: String,
    pub url: String,
    pub key_header: String,
    /// `--key-in`: where the key went, `header:Idempotency-Key`, `body:/idempotency_key`, `query:NAME`,
    /// `graphql` or `jsonrpc-meta` (`key_header` is only sent with `header:`).
    pub key_in: String,
    /// `null` with `--no-key`.
    pub key: Option<String>,
    pub attempts: Vec<AttemptRecord>,
    pub judgement: Judgement,
    /// Retries of lost or failed answers (`--max-attempts`, `--retry`), in order.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub retries: Vec<crate::idem::send_retry::RetryRecord>,
    /// How many resources the run created: by the count at `--count-url`, by distinct ids in the
    /// 2xx answers (at least), or unknown.
    pub created: crate::created::Created,
}

#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub(crate) struct AttemptRecord {
    pub number: usize,
    #[serde(flatten)]
    pub observed: Observed,
    #[serde(rename = "latency_ms", serialize_with = "crate::units::as_ms_opt")]
    #[schemars(with = "Option<f64>")]
    pub latency: Option<Duration>,
    /// The body: a JSON value when it parses as JSON, else a string (lossy for binary data).
    pub body: serde_json::Value,
    /// The response headers, lower-cased names.
    pub headers: serde_json::Map<String, serde_json::Value>,
}

impl AttemptRecord {
    fn new(number: usize, result: &anyhow::Result<Exchange>, ids: &IdSource) -> AttemptRecord {
        match result {
            Ok(exchange) => {
                let observed = Observed::from_exchange(exchange, ids);
                AttemptRecord {
                    number,
                    latency: Some(exchange.latency),
                    // The decoded body: what was judged.
                    body: body_as_json(&observed.body),
                    observed,
                    headers: exchange
                        .headers
                        .iter()
                        .map(|(name, value)| (name.to_string(), String::from_utf8_lossy(value.as_bytes()).into()))
                        .collect(),
                }
            }
            Err(err) => AttemptRecord {
                number,
                observed: Observed::failed(format!("{err:#}")),
                latency: None,
                body: serde_json::Value::Null,
                headers: Default::default(),
            },
        }
    }
}

fn body_as_json(body: &[u8]) -> serde_json::Value {
    serde_json::from_slice(body).unwrap_or_else(|_| String::from_utf8_lossy(body).into_owned().into())
}

/// Sends the request `repeat` times with `key`, calling `on_attempt` as each answer arrives.
pub(crate) async fn execute(
    config: &SendConfig,
    key: Option<String>,
    mut on_attempt: impl FnMut(&AttemptRecord),
) -> anyhow::Result<SendReport> {
    let spec = &config.request;
    let ids = spec.id_source();
    let options = ClientOptions { timeout: spec.timeout, insecure: spec.insecure, http2: spec.http2 };
    let client = HttpClient::with_proxies(options, spec.proxies.clone())?.with_budget(spec.budget.clone());
    let attempts_each = config.retry.as_ref().map_or(1, |retry| u64::from(retry.policy.max_attempts().max(1)));
    let repeat = u64::from(config.repeat);
    spec.budget.announce(Needed::Between(repeat, repeat.saturating_mul(attempts_each)));
    let mut attempts: Vec<AttemptRecord> = Vec::new();
    let mut retries = Vec::new();
    let before = spec.count_before().await?;
    for number in 1..=config.repeat as usize {
        if number > 1 && !config.interval.is_zero() {
            tokio::time::sleep(config.interval).await;
        }
        let result =
            crate::idem::send_retry::send(&client, spec, key.as_deref(), config.retry.as_ref(), &mut retries).await;
        // Out of --max-requests: nothing more is sent, and the attempts so far are already shown.
        if let Err(err) = &result
            && let Some(refusal) = refusal_in(err)
        {
            let mut created_ids = crate::created::CreatedIds::default();
            for attempt in &attempts {
                let observed = &attempt.observed;
                created_ids.add(observed.status, observed.resource_id.as_deref(), observed.replayed);
            }
            bail!(
                "{refusal}; stopped after {}{}",
                plural(attempts.len(), "attempt", "attempts"),
                crate::created::Created::before_stopping(&created_ids)
            );
        }
        let record = AttemptRecord::new(number, &result, &ids);
        on_attempt(&record);
        attempts.push(record);
    }
    let observed: Vec<Observed> = attempts.iter().map(|a| a.observed.clone()).collect();
    // Each retry of a lost answer is one more request the count may show.
    let mut step = verdict::count_step(&observed, attempts.len() + retries.len(), spec.draws_fresh_keys());
    step.slowest = attempts.iter().filter_map(|attempt| attempt.latency).max().unwrap_or_default();
    let mut grounds = crate::idem::verdict::Grounds::gather(spec, key.as_deref(), before.as_deref(), step).await?;
    // The run ends with this step: whatever the server does later is this key's.
    grounds.close(spec, before.as_deref(), step).await?;
    let judgement = verdict::judge(&observed, Timing::Sequential, &ids, &grounds);
    // The step is the whole run: its ledgers' change is what the run created.
    let mut created_ids = crate::created::CreatedIds::default();
    for answer in &observed {
        created_ids.add(answer.status, answer.resource_id.as_deref(), answer.replayed);
    }
    let created = crate::created::Created::measure(&grounds.readings, &created_ids);
    Ok(SendReport {
        method: spec.method.to_string(),
        url: spec.url.to_string(),
        key_header: spec.key_header.to_string(),
        key_in: spec.key_in(),
        key,
        attempts,
        judgement,
        retries,
        created,
    })
}

pub(crate) async fn run(config: SendConfig) -> anyhow::Result<Outcome> {
    let mut stdout = std::io::stdout().lock();
    let key = config.request.key_policy.next_key();
    let report = match config.format {
        Format::Human => {
            let palette = config.palette;
            writeln!(stdout, "{}", print::key_line(&config.request, key.as_deref(), palette))?;
            let mut first_body: Option<Vec<u8>> = None;
            let mut write_error = None;
            let report = execute(&config, key, |attempt| {
                let text = print::attempt_with_body(
                    attempt.number,
                    &attempt.observed,
                    attempt.latency,
                    &mut first_body,
                    config.pretty,
                    config.palette,
                );
                if let Err(err) = writeln!(stdout, "{text}").and_then(|_| stdout.flush()) {
                    write_error.get_or_insert(err);
                }
            })
            .await;
            let report = match (report, write_error) {
                (_, Some(err)) => return Err(err.into()),
                (report, None) => report?,
            };
            // One answer has no duplicates to judge, unless it shows that nothing was created.
            if config.repeat > 1 || report.judgement.verdict == Verdict::NothingCreated {
                writeln!(stdout, "\n{}", print::render_judgement(&report.judgement, report.attempts.len(), palette))?;
            } else {
                writeln!(stdout)?;
            }
            writeln!(stdout, "{}", report.created.line(palette))?;
            report
        }
        Format::Json => {
            let report = execute(&config, key, |_| {}).await?;
            // Serialised first so a closed stdout surfaces as the io::Error `exit` recognises.
            let document = crate::json_output::pretty(SCHEMA, &report)?;
            writeln!(stdout, "{document}")?;
            report
        }
    };
    outcome(&report)
}

/// 0 when the answers agree, 1 when they show a problem, an error (2) when some never came or
/// when they cannot show anything (nothing created, no id to count).
fn outcome(report: &SendReport) -> anyhow::Result<Outcome> {
    if let Some(outcome) = report.judgement.verdict.outcome() {
        return Ok(outcome);
    }
    if let Some(explanation) = &report.judgement.explanation {
        bail!("{explanation}");
    }
    let failed: Vec<&AttemptRecord> = report.attempts.iter().filter(|a| a.observed.status.is_none()).collect();
    let first = failed.first().and_then(|a| a.observed.error.clone()).unwrap_or_default();
    bail!("{} of {} attempts got no answer: {first}", failed.len(), report.attempts.len())
}
