//! `idem check --openapi SPEC`: the conformance suite for every operation of an API that declares
//! the key header, planned from its OpenAPI document, with one verdict per operation and one exit
//! status for CI.
pub(crate) mod body;
pub(crate) mod count;
pub(crate) mod document;
pub(crate) mod key_location;
pub(crate) mod nesting;
pub(crate) mod path_template;
pub(crate) mod plan;
mod plan_print;
pub(crate) mod report;
pub(crate) mod target;

use std::collections::HashMap;
use std::io::Write as _;

use anyhow::bail;
use bytes::Bytes;
use http::header::{AUTHORIZATION, CONTENT_TYPE};
use http::{HeaderValue, Uri};

use super::CheckConfig;
use crate::conformance::{SuiteFormat, SuiteReport};
use crate::exit::Outcome;
use crate::http::url::{Redacted, split_credentials};
use crate::output::Palette;
use document::Document;
use plan::{Operation, OperationSelection};
use report::{OpenApiReport, OperationOutcome, OperationReport};
use target::Target;

/// The `schema` value of `idem check --openapi --format json`.
pub(crate) const SCHEMA: &str = "check-openapi/1";

/// How many skip reasons an error that nothing can be tested names (the rest are counted).
const REASONS_SHOWN: usize = 5;

#[derive(Debug, Clone)]
pub(crate) struct OpenApiConfig {
    /// A file path, `-` for stdin, or an http(s) URL.
    pub spec: String,
    /// `--base-url`; else the document's first `servers` entry, else the spec's own origin.
    pub base_url: Option<String>,
    /// `--allow-remote`: the document's server may be a host the user did not name.
    pub allow_remote: bool,
    pub selection: OperationSelection,
    /// The check suite's settings; its request (headers, key header and policy, timeout, TLS,
    /// proxies) is the template each operation's request is made from.
    pub check: CheckConfig,
    pub max_operations: Option<usize>,
    /// `--count-url-template`: each operation's count URL, `{operationId}` filled in.
    pub count_url_template: Option<String>,
    /// How many operations are checked at once (1: never two at a time).
    pub concurrency: usize,
    pub format: SuiteFormat,
    pub palette: Palette,
}

pub(crate) async fn run(mut config: OpenApiConfig) -> anyhow::Result<Outcome> {
    if config.format == SuiteFormat::Html {
        anyhow::bail!(
            "--openapi reports as --format human, json or junit; --format html is for one URL (idem check URL)"
        );
    }
    let document = Document::load(&config.spec, "--openapi ", config.check.request.insecure).await?;
    let resolved =
        target::resolve(config.base_url.as_deref(), target::Remote::allow_remote(config.allow_remote), &document);
    // A plan sends nothing, so it shows where a refused run would have gone, and why it is refused.
    let (shown_target, refused) = match resolved {
        Err(err) if config.check.plan => {
            (target::resolve(config.base_url.as_deref(), target::Remote::Allowed, &document)?, Some(err))
        }
        resolved => (resolved?, None),
    };
    // As for `idem check URL` (curl's way): the base URL's userinfo is sent as Basic auth unless
    // -H gives an Authorization, and leaves the URL, so no request URL printed or serialised
    // carries it; the target line and the report name it as `user:***`.
    let (base, credentials) = split_credentials(shown_target.base.clone())?;
    if let Some(credentials) = credentials.filter(|_| !config.check.request.headers.contains_key(AUTHORIZATION)) {
        config.check.request.headers.insert(AUTHORIZATION, credentials.authorization()?);
    }
    let target = target::Target { base, source: shown_target.source };
    let mut operations = plan::plan(&document, &config.selection)?;
    drop(document);
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
    let budget = config.check.request.budget.clone();
    let request_of =
        |operation: &Operation, planned: &plan::Planned| operation_config(&config, &target.base, operation, planned);
    if config.check.plan {
        let refused = refused.map(|err| format!("{err:#}"));
        let plan = plan_print::plan_of(&config.spec, &shown_target, refused, &operations, budget.limit(), request_of);
        plan.print(config.format, config.palette)?;
        return Ok(Outcome::Holds);
    }
    if !operations.iter().any(|op| op.plan.is_ok()) {
        bail!("no operation of {} can be tested{}", Redacted(&config.spec), skip_summary(&operations));
    }
    // Only under a budget: the estimate makes every operation's request once more.
    let needed = budget.limit().map(|_| plan_print::requests_of(&operations, request_of));
    if let Some(needed) = needed {
        budget.announce(crate::http::budget::Needed::About(needed));
    }
    announce(&shown_target, config.format)?;
    let reports = check_all(&config, &target, operations).await;
    let mut report = OpenApiReport::new(config.spec.clone(), &shown_target, reports);
    if config.concurrency > 1 {
        report.created_apart_from_shared_ledgers();
    }
    report.print(config.format, config.palette)?;
    if let Some(refusal) = budget.refusal() {
        return Err(anyhow::Error::new(refusal).context(format!(
            "the run stopped before every operation was checked (`--plan` shows the {} requests it needs)",
            needed.unwrap_or_default()
        )));
    }
    if report.tested == 0 {
        // The first suite's own reason (a suite that judged nothing says why), when one ran.
        let why = report.operations.iter().find(|op| op.tally.is_some()).and_then(|op| op.reason.as_deref());
        bail!(
            "no operation could be tested: every chosen operation's suite could not run{}",
            why.map(|why| format!(" (e.g. {why})")).unwrap_or_default()
        );
    }
    if report.failed == 0
        && report.errors == 0
        && let Some(open) = report.operations.iter().find(|op| op.outcome == OperationOutcome::Unconfirmed)
    {
        bail!(
            "could not judge {} operation(s), e.g. {} {}: {}",
            report.unconfirmed,
            open.method,
            open.path,
            open.reason.as_deref().unwrap_or_default()
        );
    }
    Ok(if report.passed { Outcome::Holds } else { Outcome::ProblemFound })
}

/// Says where the requests go, and who chose it, before the first one is sent: on stdout with
/// the human report, on stderr beside a machine-read one.
fn announce(target: &Target, format: SuiteFormat) -> anyhow::Result<()> {
    let line = format!("idem check --openapi: {}\n", target.describe());
    if format == SuiteFormat::Human {
        let mut stdout = std::io::stdout().lock();
        stdout.write_all(line.as_bytes())?;
        stdout.flush()?;
    } else {
        std::io::stderr().lock().write_all(line.as_bytes())?;
    }
    Ok(())
}

/// Why nothing can be tested, in a few lines whatever the number of operations: the count, the
/// most common reasons with how many operations each and one of them, and how many other
/// reasons there were.
fn skip_summary(operations: &[Operation]) -> String {
    if operations.is_empty() {
        return " (it has no operations)".to_string();
    }
    let mut by_reason: HashMap<&str, (usize, usize)> = HashMap::new();
    for (index, operation) in operations.iter().enumerate() {
        let reason = operation.plan.as_ref().err().map_or("", String::as_str);
        by_reason.entry(reason).or_insert((0, index)).0 += 1;
    }
    let mut reasons: Vec<(&str, usize, usize)> =
        by_reason.into_iter().map(|(reason, (count, first))| (reason, count, first)).collect();
    reasons.sort_by_key(|(_, count, first)| (std::cmp::Reverse(*count), *first));
    let mut out = format!(": {} operation(s), each skipped:", operations.len());
    for (reason, count, first) in reasons.iter().take(REASONS_SHOWN) {
        let example = &operations[*first];
        let reason = body::bounded_reason(reason.to_string());
        let reason = crate::output::terminal_safe(&reason);
        let path = body::bounded_reason(example.path.clone());
        let path = crate::output::terminal_safe(&path);
        if *count == 1 {
            out.push_str(&format!("\n  {} {path}: {reason}", example.method));
        } else {
            out.push_str(&format!("\n  {count} operations (e.g. {} {path}): {reason}", example.method));
        }
    }
    if reasons.len() > REASONS_SHOWN {
        let rest: usize = reasons.iter().skip(REASONS_SHOWN).map(|(_, count, _)| count).sum();
        out.push_str(&format!(
            "\n  and {rest} more operation(s) for {} other reason(s)",
            reasons.len() - REASONS_SHOWN
        ));
    }
    out
}

/// Runs the suite on every chosen operation, `concurrency` at a time, printing a line as each
/// ends; the reports come back in document order. An operation's request is made only when
/// its turn comes, so a document of many operations holds `concurrency` of them in flight,
/// not all of them.
async fn check_all(config: &OpenApiConfig, target: &Target, operations: Vec<Operation>) -> Vec<OperationReport> {
    let chosen = operations.iter().filter(|op| op.plan.is_ok()).count() as u64;
    let bar = crate::output::progress_bar(chosen, "operations");
    let limit = config.concurrency.max(1);
    let human = config.format == SuiteFormat::Human;
    let mut tasks = tokio::task::JoinSet::new();
    let mut reports: Vec<Option<OperationReport>> = vec![None; operations.len()];
    let record = |joined: Result<(usize, OperationReport), tokio::task::JoinError>,
                  reports: &mut Vec<Option<OperationReport>>| {
        let Ok((index, report)) = joined else { return };
        if human {
            bar.suspend(|| println!("{}", report.live_line(config.palette)));
        }
        bar.inc(1);
        reports[index] = Some(report);
    };
    for (index, operation) in operations.into_iter().enumerate() {
        let planned = match &operation.plan {
            Ok(planned) => planned.clone(),
            Err(reason) => {
                reports[index] = Some(OperationReport::skipped(&operation, reason.clone()));
                continue;
            }
        };
        let check = match operation_config(config, &target.base, &operation, &planned) {
            Ok(check) => check,
            Err(err) => {
                reports[index] = Some(OperationReport::skipped(&operation, format!("{err:#}")));
                continue;
            }
        };
        while tasks.len() >= limit {
            match tasks.join_next().await {
                Some(joined) => record(joined, &mut reports),
                None => break,
            }
        }
        // --max-requests: an operation is not started once the budget has refused a request, nor
        // when what is left of it would not see its suite through against a correct API.
        let budget = &config.check.request.budget;
        let needs = if budget.limit().is_some() { check.cost().requests } else { 0 };
        if budget.refusal().is_some() || budget.remaining() < needs {
            let left = budget.remaining();
            let reason = format!(
                "not run: --max-requests {} left {left} request(s), and its suite needs about {needs}",
                budget.limit().unwrap_or_default()
            );
            if budget.refusal().is_none() {
                // Recorded as the budget's refusal, so the run ends with exit status 2 and says why.
                let _ = budget.take(needs);
            }
            reports[index] = Some(OperationReport::skipped(&operation, reason));
            continue;
        }
        tasks.spawn(async move {
            let result = super::execute(&check).await;
            (index, OperationReport::finished(&operation, &planned, &check, result))
        });
    }
    while let Some(joined) = tasks.join_next().await {
        record(joined, &mut reports);
    }
    bar.finish_and_clear();
    reports.into_iter().flatten().collect()
}

/// The suite's config for one operation: the template's request with this operation's method,
/// URL, headers and body.
fn operation_config(
    config: &OpenApiConfig,
    base: &Uri,
    operation: &Operation,
    planned: &plan::Planned,
) -> anyhow::Result<CheckConfig> {
    let template = &config.check;
    let mut check = template.clone();
    check.request.ledgers = count::operation_count(
        &template.request,
        base,
        &operation.count,
        operation.operation_id.as_deref(),
        config.count_url_template.as_deref(),
    )?
    .into_iter()
    .collect();
    let (path, query) = match planned.path_and_query.split_once('?') {
        Some((path, query)) => (path, Some(query)),
        None => (planned.path_and_query.as_str(), None),
    };
    check.request.url = target::request_url(base, path, query)?;
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
    // Where the document puts the key; a --key-in or --key-header of the user's was the only
    // place looked for, so this never overrides the command line.
    if let Some(key) = &planned.key {
        check.request.key_carrier = key.carrier.clone();
        if let Some(header) = &key.header {
            check.request.key_header = http::HeaderName::from_bytes(header.as_bytes())?;
        }
    }
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
        // A suite that judged no check (every one skipped for want of evidence) neither passed
        // nor failed the operation: it is a skip, with the suite's reason.
        // A suite that could not judge a required check and failed none is not a failure: the
        // operation is unconfirmed, with the suite's reason, as `idem check` exits 2 for it.
        let unconfirmed = suite.unconfirmed_reason().filter(|_| suite.nothing_checked.is_none());
        let outcome = match (&suite.error, &suite.nothing_checked, suite.passed, &unconfirmed) {
            (Some(_), _, _, _) => OperationOutcome::Error,
            (None, Some(_), _, _) => OperationOutcome::Skip,
            (None, None, true, _) => OperationOutcome::Pass,
            (None, None, false, Some(_)) => OperationOutcome::Unconfirmed,
            (None, None, false, None) => OperationOutcome::Fail,
        };
        OperationReport {
            method: operation.method.to_string(),
            path: operation.path.clone(),
            operation_id: operation.operation_id.clone(),
            declares_key: operation.declares_key,
            key_in: Some(check.request.key_in()),
            outcome,
            reason: suite.error.clone().or_else(|| suite.nothing_checked.clone()).or(unconfirmed),
            url: Some(Redacted(&check.request.url).to_string()),
            body_origin: planned.body_origin,
            curl: matches!(outcome, OperationOutcome::Fail | OperationOutcome::Error)
                .then(|| report::curl_command(&check.request)),
            tally: Some(suite.tally.clone()),
            evidence_level: super::executions_level(&suite.checks),
            count_url: check.request.ledgers.first().map(|count| count.shown_url.clone()),
            created: suite.created.clone(),
            checks: suite.checks,
        }
    }
}
