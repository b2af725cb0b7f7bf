//! `idem check --openapi SPEC`: the conformance suite for every operation of an API that declares
//! the key header, planned from its OpenAPI document, with one verdict per operation and one exit
//! status for CI.
pub(crate) mod body;
pub(crate) mod document;
pub(crate) mod plan;
pub(crate) mod report;

use std::sync::Arc;

use anyhow::{Context, bail};
use bytes::Bytes;
use http::header::{AUTHORIZATION, CONTENT_TYPE};
use http::{HeaderValue, Uri};

use super::CheckConfig;
use crate::conformance::{SuiteFormat, SuiteReport};
use crate::exit::Outcome;
use crate::http::url::{Redacted, parse_url, split_credentials};
use crate::output::Palette;
use document::Document;
use plan::{Operation, OperationSelection};
use report::{OpenApiReport, OperationOutcome, OperationReport};

/// The `schema` value of `idem check --openapi --format json`.
pub(crate) const SCHEMA: &str = "check-openapi/1";

#[derive(Debug, Clone)]
pub(crate) struct OpenApiConfig {
    /// A file path or an http(s) URL.
    pub spec: String,
    /// `--base-url`; else the document's first `servers` entry, else the spec's own origin.
    pub base_url: Option<String>,
    pub selection: OperationSelection,
    /// The check suite's settings; its request (headers, key header and policy, timeout, TLS,
    /// proxies) is the template each operation's request is made from.
    pub check: CheckConfig,
    pub max_operations: Option<usize>,
    /// How many operations are checked at once (1: never two at a time).
    pub concurrency: usize,
    pub format: SuiteFormat,
    pub palette: Palette,
}

pub(crate) async fn run(mut config: OpenApiConfig) -> anyhow::Result<Outcome> {
    let document = Document::load(&config.spec, config.check.request.insecure).await?;
    // As for `idem check URL` (curl's way): the base URL's userinfo is sent as Basic auth unless
    // -H gives an Authorization, and leaves the URL, so no URL printed or serialised carries it.
    let given_base = base_url(&config, &document)?;
    let (base, credentials) = split_credentials(given_base.clone())?;
    if let Some(credentials) = credentials.filter(|_| !config.check.request.headers.contains_key(AUTHORIZATION)) {
        config.check.request.headers.insert(AUTHORIZATION, credentials.authorization()?);
    }
    let mut operations = plan::plan(&document, &config.selection)?;
    if let Some(max) = config.max_operations {
        let mut chosen = 0;
        for operation in &mut operations {
            if operation.plan.is_ok() {
                chosen += 1;
                if chosen > max {
                    operation.plan = Err(format!("beyond --max-operations {max}"));
                }
            }
        }
    }
    if !operations.iter().any(|op| op.plan.is_ok()) {
        let skipped: Vec<String> = operations
            .iter()
            .map(|op| format!("  {} {}: {}", op.method, op.path, op.plan.as_ref().err().map_or("", String::as_str)))
            .collect();
        bail!(
            "no operation of {} can be tested{}{}",
            Redacted(&config.spec),
            if skipped.is_empty() { " (it has no operations)" } else { ":\n" },
            skipped.join("\n")
        );
    }
    let reports = check_all(&config, &base, operations).await;
    let report = OpenApiReport::new(config.spec.clone(), Redacted(&given_base).to_string(), reports);
    report.print(config.format, config.palette)?;
    if report.tested == 0 {
        bail!("no operation could be tested: every chosen operation's suite could not run");
    }
    Ok(if report.passed { Outcome::Holds } else { Outcome::ProblemFound })
}

/// The base URL every path is appended to.
fn base_url(config: &OpenApiConfig, document: &Document) -> anyhow::Result<Uri> {
    if let Some(given) = &config.base_url {
        return parse_url(given).with_context(|| format!("--base-url {}", Redacted(given)));
    }
    let server = document.root.get("servers").and_then(|s| s.as_array()).and_then(|s| s.first());
    if let Some(server) = server.and_then(|s| s.get("url")).and_then(|u| u.as_str()) {
        let filled = fill_server_variables(server, server_variables(document));
        if filled.starts_with("http://") || filled.starts_with("https://") {
            return parse_url(&filled).with_context(|| format!("the spec's server URL `{}`", Redacted(&filled)));
        }
        let Some(origin) = &document.fetched_from else {
            bail!(
                "the spec's first server URL `{}` is relative and the spec was read from a file: give --base-url",
                Redacted(&filled)
            );
        };
        return parse_url(&resolve_relative(origin, &filled)).context("the spec's relative server URL");
    }
    match &document.fetched_from {
        Some(url) => Ok(parse_url(&format!(
            "{}://{}",
            url.scheme_str().unwrap_or("http"),
            url.authority().map_or("", |a| a.as_str())
        ))?),
        None => bail!("{} names no servers: give --base-url", Redacted(&config.spec)),
    }
}

fn server_variables(document: &Document) -> Vec<(String, String)> {
    let variables = document.root.pointer("/servers/0/variables").and_then(|v| v.as_object());
    variables
        .into_iter()
        .flatten()
        .filter_map(|(name, variable)| Some((name.clone(), variable.get("default")?.as_str()?.to_string())))
        .collect()
}

fn fill_server_variables(url: &str, variables: Vec<(String, String)>) -> String {
    variables.into_iter().fold(url.to_string(), |url, (name, value)| url.replace(&format!("{{{name}}}"), &value))
}

/// A relative server URL (`/v1`, `v1`, `//host/v1`) resolved against the URL the spec came from.
fn resolve_relative(origin: &Uri, relative: &str) -> String {
    let scheme = origin.scheme_str().unwrap_or("http");
    let authority = origin.authority().map_or("", |a| a.as_str());
    if let Some(rest) = relative.strip_prefix("//") {
        return format!("{scheme}://{rest}");
    }
    if relative.starts_with('/') {
        return format!("{scheme}://{authority}{relative}");
    }
    let dir = origin.path().rsplit_once('/').map_or("", |(dir, _)| dir);
    format!("{scheme}://{authority}{dir}/{relative}")
}

/// Runs the suite on every chosen operation, `concurrency` at a time, printing a line as each
/// ends; the reports come back in document order.
async fn check_all(config: &OpenApiConfig, base: &Uri, operations: Vec<Operation>) -> Vec<OperationReport> {
    let chosen = operations.iter().filter(|op| op.plan.is_ok()).count() as u64;
    let bar = crate::output::progress_bar(chosen, "operations");
    let limit = Arc::new(tokio::sync::Semaphore::new(config.concurrency.max(1)));
    let mut tasks = tokio::task::JoinSet::new();
    let mut reports: Vec<Option<OperationReport>> = vec![None; operations.len()];
    for (index, operation) in operations.into_iter().enumerate() {
        let planned = match &operation.plan {
            Ok(planned) => planned.clone(),
            Err(reason) => {
                reports[index] = Some(OperationReport::skipped(&operation, reason.clone()));
                continue;
            }
        };
        let check = match operation_config(&config.check, base, &operation, &planned) {
            Ok(check) => check,
            Err(err) => {
                reports[index] = Some(OperationReport::skipped(&operation, format!("{err:#}")));
                continue;
            }
        };
        let limit = Arc::clone(&limit);
        tasks.spawn(async move {
            let _permit = limit.acquire_owned().await;
            let result = super::execute(&check).await;
            (index, OperationReport::finished(&operation, &planned, &check, result))
        });
    }
    let human = config.format == SuiteFormat::Human;
    while let Some(joined) = tasks.join_next().await {
        let Ok((index, report)) = joined else { continue };
        if human {
            bar.suspend(|| println!("{}", report.live_line(config.palette)));
        }
        bar.inc(1);
        reports[index] = Some(report);
    }
    bar.finish_and_clear();
    reports.into_iter().flatten().collect()
}

/// The suite's config for one operation: the template's request with this operation's method,
/// URL, headers and body.
fn operation_config(
    template: &CheckConfig,
    base: &Uri,
    operation: &Operation,
    planned: &plan::Planned,
) -> anyhow::Result<CheckConfig> {
    let mut check = template.clone();
    let url = format!("{}{}", base.to_string().trim_end_matches('/'), planned.path_and_query);
    check.request.url = parse_url(&url).with_context(|| format!("the URL {}", Redacted(&url)))?;
    check.request.method = operation.method.clone();
    for (name, value) in &planned.headers {
        check.request.headers.insert(name.clone(), value.clone());
    }
    match &planned.body {
        Some((content_type, value)) => {
            check.request.body = Bytes::from(serde_json::to_vec(value)?);
            if !check.request.headers.contains_key(CONTENT_TYPE) {
                check.request.headers.insert(CONTENT_TYPE, HeaderValue::from_str(content_type)?);
            }
        }
        None => check.request.body = Bytes::new(),
    }
    check.request.id_field = planned.id_field.clone();
    check.format = SuiteFormat::Human;
    Ok(check)
}

impl OperationReport {
    fn finished(
        operation: &Operation,
        planned: &plan::Planned,
        check: &CheckConfig,
        result: anyhow::Result<SuiteReport>,
    ) -> OperationReport {
        let target = format!("{} {}", check.request.method, Redacted(&check.request.url));
        let suite = result.unwrap_or_else(|err| SuiteReport::could_not_run("idem check", target, &err));
        let outcome = match (&suite.error, suite.passed) {
            (Some(_), _) => OperationOutcome::Error,
            (None, true) => OperationOutcome::Pass,
            (None, false) => OperationOutcome::Fail,
        };
        OperationReport {
            method: operation.method.to_string(),
            path: operation.path.clone(),
            operation_id: operation.operation_id.clone(),
            declares_key: operation.declares_key,
            outcome,
            reason: suite.error.clone(),
            url: Some(Redacted(&check.request.url).to_string()),
            body_origin: planned.body_origin,
            curl: (outcome != OperationOutcome::Pass).then(|| report::curl_command(&check.request)),
            tally: Some(suite.tally.clone()),
            checks: suite.checks,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn relative_servers_resolve_against_the_spec_url() {
        let origin: Uri = "https://api.example.com/specs/openapi.yaml".parse().unwrap();
        assert_eq!(resolve_relative(&origin, "/v1"), "https://api.example.com/v1");
        assert_eq!(resolve_relative(&origin, "v2"), "https://api.example.com/specs/v2");
        assert_eq!(resolve_relative(&origin, "//other.example.com/v1"), "https://other.example.com/v1");
        let variables = vec![("region".to_string(), "eu".to_string())];
        assert_eq!(fill_server_variables("https://{region}.example.com", variables), "https://eu.example.com");
    }
}
