//! `idem run WORKFLOW.arazzo.yaml`: runs the workflows of an Arazzo description against the API
//! its OpenAPI documents describe, and at every keyed step applies `idem check`'s probes (a retry,
//! concurrent duplicates, a lost answer, a changed body) with that step's real request.
mod criteria;
mod document;
mod expression;
mod flow;
mod plan;
pub(crate) mod report;
mod request;
mod sources;

use std::path::PathBuf;

use anyhow::{Context, bail};
use serde_json::{Map, Value};

use crate::exit::Outcome;
use crate::idem::check::Profile;
use crate::idem::check::step::StepProbe;
use crate::idem::request::RequestSpec;
use crate::output::Palette;
use document::{Arazzo, Workflow};
use report::{RunFormat, RunReport};

/// `idem run`, as the command line asked for it.
#[derive(Debug, Clone)]
pub(crate) struct RunConfig {
    pub workflow_file: PathBuf,
    /// `--base-url`: replaces every source document's servers.
    pub base_url: Option<String>,
    /// `--source NAME=PATH|URL`: where a source description is read instead of its `url`.
    pub sources: Vec<(String, String)>,
    /// `--inputs FILE` then `--input NAME=VALUE` (the latter win).
    pub inputs: Map<String, Value>,
    /// `--workflow ID`: only this workflow (and those it depends on).
    pub workflow: Option<String>,
    /// `--probes`: which probes keyed steps get.
    pub probes: Vec<StepProbe>,
    /// How many concurrent duplicates the race probe sends.
    pub concurrency: usize,
    /// `-H` headers, timeouts, `--count-url`, `--id-field`, `--max-requests`: every step's
    /// request starts from it.
    pub template: RequestSpec,
    pub profile: Profile,
    /// `--listen ADDR`: where the embedded listener receives the webhooks steps expect.
    pub listen: Option<std::net::SocketAddr>,
    pub plan: bool,
    pub format: RunFormat,
    pub palette: Palette,
}

pub(crate) async fn run(config: RunConfig) -> anyhow::Result<Outcome> {
    if config.plan {
        let arazzo = Arazzo::load(&config.workflow_file)?;
        let chosen = chosen_workflows(&arazzo, config.workflow.as_deref())?;
        let sources = load_sources(&arazzo, &config).await?;
        let text = plan::render(&arazzo, &chosen, &sources, &config)?;
        crate::output::print_best_effort(&text);
        return Ok(Outcome::Holds);
    }
    let (report, stopped) = execute(&config).await?;
    let text = report.render(config.format, config.palette)?;
    {
        use std::io::Write;
        let mut stdout = std::io::stdout().lock();
        stdout.write_all(text.as_bytes())?;
        stdout.flush()?;
    }
    if let Some(error) = stopped {
        return Err(error.context("the run could not proceed"));
    }
    Ok(if report.passed { Outcome::Holds } else { Outcome::ProblemFound })
}

/// Runs the chosen workflows: the report, and why the run stopped early when it did (exit 2).
/// An error means nothing ran (a document that cannot be read, an input missing).
pub(crate) async fn execute(config: &RunConfig) -> anyhow::Result<(RunReport, Option<anyhow::Error>)> {
    let arazzo = Arazzo::load(&config.workflow_file)?;
    let chosen = chosen_workflows(&arazzo, config.workflow.as_deref())?;
    let sources = load_sources(&arazzo, config).await?;
    for workflow in &chosen {
        flow::missing_inputs(workflow, &config.inputs)?;
    }
    let mut report = RunReport {
        arazzo: config.workflow_file.display().to_string(),
        version: arazzo.version.clone(),
        passed: false,
        error: None,
        workflows: Vec::new(),
        created: crate::created::Created::measure(&[], &Default::default()),
    };
    // Read before the first step and after the last, so what the whole run created is measured.
    let ledger = crate::created::RunLedger::open(&run_ledgers(config, &chosen, &sources)).await?;
    let mut run = flow::Run::new(config, &sources, config.inputs.clone())?;
    let mut stopped = None;
    for workflow in &chosen {
        match run.workflow(workflow).await {
            Ok(workflow) => report.workflows.push(workflow),
            Err(stop) => {
                report.workflows.push(stop.report);
                stopped = Some(stop.error);
                break;
            }
        }
    }
    let readings = match &ledger {
        Some(ledger) => ledger.close().await,
        None => Vec::new(),
    };
    // Each ledger counts its own kind of resource (customers, charges): the run created their sum.
    report.created = crate::created::Created::measure_kinds(&readings, &run.created_ids);
    run.finish().await;
    report.error = stopped.as_ref().map(|error| format!("{error:#}"));
    report.passed = report.error.is_none() && report.failed_steps() == 0;
    Ok((report, stopped))
}

/// Every ledger the keyed steps are counted by, once each: an operation's own `x-idem-count-url`,
/// else `--count-url` (as each step reads them).
fn run_ledgers(
    config: &RunConfig,
    chosen: &[&Workflow],
    sources: &[sources::Source],
) -> Vec<crate::count::CountSource> {
    let mut ledgers: Vec<crate::count::CountSource> = Vec::new();
    let mut add = |ledger: crate::count::CountSource| {
        if !ledgers.iter().any(|known| known.describe() == ledger.describe()) {
            ledgers.push(ledger);
        }
    };
    for step in chosen.iter().flat_map(|workflow| &workflow.steps) {
        // A step that names no operation of the sources (a workflow step) is counted by its own steps.
        let Ok(operation) = sources::resolve(sources, step) else { continue };
        if !operation.keyed(step) {
            continue;
        }
        let own = match operation.count.url {
            Some(_) => crate::idem::check::openapi::count::operation_count(
                &config.template,
                &operation.base,
                &operation.count,
                operation.operation_id.as_deref(),
                None,
            )
            .ok()
            .flatten(),
            None => None,
        };
        match own {
            Some(ledger) => add(ledger),
            None => config.template.ledgers.iter().cloned().for_each(&mut add),
        }
    }
    ledgers
}

async fn load_sources(arazzo: &Arazzo, config: &RunConfig) -> anyhow::Result<Vec<sources::Source>> {
    sources::load(arazzo, &config.workflow_file, &config.sources, config.base_url.as_deref(), config.template.insecure)
        .await
}

/// The workflows to run, in order: `--workflow ID` and what it depends on, else every workflow,
/// each after the workflows it depends on.
fn chosen_workflows<'a>(arazzo: &'a Arazzo, only: Option<&str>) -> anyhow::Result<Vec<&'a Workflow>> {
    let roots: Vec<&Workflow> = match only {
        Some(id) => vec![arazzo.workflow(id).with_context(|| {
            let ids: Vec<&str> = arazzo.workflows.iter().map(|w| w.id.as_str()).collect();
            format!("--workflow {id}: the description has no such workflow (it has {})", ids.join(", "))
        })?],
        None => arazzo.workflows.iter().collect(),
    };
    let mut ordered: Vec<&Workflow> = Vec::new();
    for root in roots {
        visit(arazzo, root, &mut ordered, &mut Vec::new())?;
    }
    Ok(ordered)
}

fn visit<'a>(
    arazzo: &'a Arazzo,
    workflow: &'a Workflow,
    ordered: &mut Vec<&'a Workflow>,
    path: &mut Vec<String>,
) -> anyhow::Result<()> {
    if ordered.iter().any(|w| w.id == workflow.id) {
        return Ok(());
    }
    if path.contains(&workflow.id) {
        bail!("the workflows depend on each other in a loop: {} → {}", path.join(" → "), workflow.id);
    }
    path.push(workflow.id.clone());
    for dependency in &workflow.depends_on {
        if let Some(dependency) = arazzo.workflow(dependency) {
            visit(arazzo, dependency, ordered, path)?;
        }
    }
    path.pop();
    ordered.push(workflow);
    Ok(())
}

/// `--input NAME=VALUE`: the value as JSON when it parses (`500`, `true`, `{"a":1}`), else as text.
pub(crate) fn input_value(text: &str) -> Value {
    serde_json::from_str(text).unwrap_or_else(|_| Value::String(text.to_string()))
}

/// `--inputs FILE`: a JSON or YAML object of inputs.
pub(crate) fn inputs_file(path: &str) -> anyhow::Result<Map<String, Value>> {
    let text = std::fs::read(path).with_context(|| format!("cannot read --inputs {path}"))?;
    crate::idem::check::openapi::nesting::check(&text).with_context(|| format!("--inputs {path}"))?;
    match crate::idem::check::openapi::document::parse(&text).with_context(|| format!("--inputs {path}"))? {
        Value::Object(inputs) => Ok(inputs),
        _ => bail!("--inputs {path} is not an object of NAME: VALUE"),
    }
}
