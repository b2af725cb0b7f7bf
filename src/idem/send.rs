//! `idem send`: one logical request with an idempotency key, sent once or repeated with the same
//! key, and the verdict on the answers.
use std::io::Write;
use std::time::Duration;

use anyhow::bail;
use serde::Serialize;

use crate::exit::Outcome;
use crate::http::client::{ClientOptions, Exchange, HttpClient};
use crate::idem::request::{IdSource, RequestSpec};
use crate::idem::verdict::{self, Judgement, Observed, Timing, Verdict};
use crate::output::{Format, Palette, indent, render_body};
use crate::units::format_duration;

#[derive(Debug, Clone)]
pub struct SendConfig {
    pub request: RequestSpec,
    pub repeat: u32,
    pub interval: Duration,
    pub format: Format,
    pub palette: Palette,
    /// Pretty-print JSON bodies (on a terminal); raw bytes otherwise.
    pub pretty: bool,
    /// `--retry`: retry lost or failed answers; `None` sends each request once.
    pub retry: Option<crate::idem::send_retry::RetryPolicy>,
}

/// The `schema` value of `idem send --format json` (schemas/idem-send.json).
pub const SCHEMA: &str = "idem-send/1";

/// Everything `idem send` learned; this is also its `--format json` document.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct SendReport {
    pub method: String,
    pub url: String,
    pub key_header: String,
    /// `null` with `--no-key`.
    pub key: Option<String>,
    pub attempts: Vec<AttemptRecord>,
    pub judgement: Judgement,
    /// Retries of lost or failed answers (`--retry`), in order.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub retries: Vec<crate::idem::send_retry::RetryRecord>,
}

#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct AttemptRecord {
    pub number: usize,
    #[serde(flatten)]
    pub observed: Observed,
    pub latency_ms: Option<f64>,
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
                    latency_ms: Some(crate::units::millis(exchange.latency)),
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
                latency_ms: None,
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
pub async fn execute(
    config: &SendConfig,
    key: Option<String>,
    mut on_attempt: impl FnMut(&AttemptRecord),
) -> anyhow::Result<SendReport> {
    let spec = &config.request;
    let ids = spec.id_source();
    let client = HttpClient::new(ClientOptions { timeout: spec.timeout, insecure: spec.insecure, http2: spec.http2 })?;
    let mut attempts = Vec::new();
    let mut retries = Vec::new();
    for number in 1..=config.repeat as usize {
        if number > 1 && !config.interval.is_zero() {
            tokio::time::sleep(config.interval).await;
        }
        let result =
            crate::idem::send_retry::send(&client, spec, key.as_deref(), config.retry.as_ref(), &mut retries).await;
        let record = AttemptRecord::new(number, &result, &ids);
        on_attempt(&record);
        attempts.push(record);
    }
    let observed: Vec<Observed> = attempts.iter().map(|a| a.observed.clone()).collect();
    let judgement = verdict::judge(&observed, Timing::Sequential, &ids);
    Ok(SendReport {
        method: spec.method.to_string(),
        url: spec.url.to_string(),
        key_header: spec.key_header.to_string(),
        key,
        attempts,
        judgement,
        retries,
    })
}

pub async fn run(config: SendConfig) -> anyhow::Result<Outcome> {
    let mut stdout = std::io::stdout().lock();
    let key = config.request.key_policy.next_key();
    let report = match config.format {
        Format::Human => {
            let palette = config.palette;
            writeln!(stdout, "{}", key_line(&config.request, key.as_deref(), palette))?;
            let mut first_body: Option<Vec<u8>> = None;
            let mut write_error = None;
            let report = execute(&config, key, |attempt| {
                let text = render_attempt(attempt, &mut first_body, &config);
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
                writeln!(stdout, "\n{}", render_judgement(&report.judgement, report.attempts.len(), palette))?;
            }
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

/// The request line and the key, so the user can retry by hand with `--key`.
pub fn key_line(spec: &RequestSpec, key: Option<&str>, palette: Palette) -> String {
    let target = format!("{} {}", spec.method, spec.url);
    match key {
        None => format!("{target}  {}", palette.dim("(no idempotency key)")),
        Some(key) => format!(
            "{target}\n{}: {}  {}",
            crate::output::header_display_name(spec.key_header.as_str()),
            palette.bold(key),
            palette.dim(&format!("(retry with --key {key})"))
        ),
    }
}

/// One line for an attempt: number, status, latency, resource id, replay marker.
pub fn attempt_line(attempt: &AttemptRecord, palette: Palette) -> String {
    let observed = &attempt.observed;
    // Padded so answers #1 to #999 line up.
    let number = palette.dim(&format!("#{:<3}", attempt.number));
    let Some(status) = observed.status else {
        return format!("{number} {}  {}", palette.red("no answer"), observed.error.as_deref().unwrap_or_default());
    };
    let reason = http::StatusCode::from_u16(status).ok().and_then(|s| s.canonical_reason()).unwrap_or("");
    let latency =
        attempt.latency_ms.map(|ms| format_duration(Duration::from_secs_f64(ms / 1_000.0))).unwrap_or_default();
    let mut line = format!("{number} {} {reason:<12} {latency:>8}", palette.status(status));
    if let Some(id) = &observed.resource_id {
        // The id came off the network: escaped so it cannot move the cursor or rewrite the line.
        line.push_str(&format!("  {}", palette.cyan(&crate::output::terminal_safe(id))));
        if let Some(from) = observed.id_from.as_deref().filter(|from| !from.starts_with("body ")) {
            line.push_str(&format!(" {}", palette.dim(&format!("(from {from})"))));
        }
    }
    if let Some(encoding) = &observed.content_encoding {
        line.push_str(&format!("  {}", palette.dim(&crate::output::terminal_safe(encoding))));
    }
    if observed.replayed {
        line.push_str(&format!("  {}", palette.yellow("replayed")));
    }
    line
}

/// The attempt line and its body (or a note that it repeats the first body).
fn render_attempt(attempt: &AttemptRecord, first_body: &mut Option<Vec<u8>>, config: &SendConfig) -> String {
    let line = attempt_line(attempt, config.palette);
    if attempt.observed.status.is_none() {
        return line;
    }
    let body = attempt.observed.body.as_ref();
    let body_text = match first_body {
        Some(first) if first.as_slice() == body => config.palette.dim("(body identical to #1)"),
        _ if config.pretty => render_body(body),
        _ => String::from_utf8_lossy(body).trim_end().to_string(),
    };
    if first_body.is_none() {
        *first_body = Some(body.to_vec());
    }
    format!("{line}\n{}", indent(&body_text, 4))
}

/// The closing verdict line, worded for people.
pub fn render_judgement(judgement: &Judgement, answers: usize, palette: Palette) -> String {
    let mut text = match judgement.verdict {
        Verdict::Consistent => {
            let ids = match judgement.resource_ids.as_slice() {
                [] => "no resource id".to_string(),
                ids => format!("one resource, {}", safe_ids(ids)),
            };
            let replays = match judgement.body_match {
                Some(verdict::BodyMatch::Identical) => ", replays byte-identical",
                Some(verdict::BodyMatch::EqualAsJson) => ", replays equal as JSON",
                None => "",
            };
            format!("{} {answers} answers, {ids}{replays}", palette.green("✓ consistent:"))
        }
        Verdict::ExecutedMoreThanOnce => format!(
            "{} {} distinct resources for one key: {}",
            palette.red(&format!("✗ executed {} times:", judgement.executions)),
            judgement.executions,
            safe_ids(&judgement.resource_ids)
        ),
        Verdict::Inconsistent => format!("{} the answers disagree", palette.red("✗ inconsistent replay:")),
        Verdict::Errors => format!("{} some attempts got no answer", palette.red("✗ no verdict:")),
        Verdict::NothingCreated | Verdict::CannotTell => {
            format!("{} {}", palette.red("✗ no verdict:"), judgement.explanation.as_deref().unwrap_or_default())
        }
        Verdict::AllExecuted => {
            format!("{} {}", palette.green("✓ control:"), judgement.explanation.as_deref().unwrap_or_default())
        }
        Verdict::Collapsed => {
            format!("{} {}", palette.red("✗ control:"), judgement.explanation.as_deref().unwrap_or_default())
        }
    };
    for difference in &judgement.differences {
        text.push_str(&format!("\n  - {}", crate::output::terminal_safe(difference)));
    }
    for note in &judgement.notes {
        text.push_str(&format!("\n  {} {}", palette.dim("note:"), crate::output::terminal_safe(note)));
    }
    text
}

/// Resource ids came off the network: joined and escaped for the terminal.
fn safe_ids(ids: &[String]) -> String {
    crate::output::terminal_safe(&ids.join(", ")).into_owned()
}
