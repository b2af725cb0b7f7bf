//! Runs a workflow's steps in order, following `onSuccess`/`onFailure` (`goto`, `end`, `retry`):
//! each step is sent for real, judged by its `successCriteria`, probed when it is keyed, and its
//! `outputs` carried to the steps after it.
use std::time::Duration;

use anyhow::{Context, bail};
use serde_json::{Map, Value};

use super::RunConfig;
use super::criteria::all_hold;
use super::document::{Action, ActionKind, ExpectedWebhook, Step, Workflow};
use super::expression::{Exchanged, Scope};
use super::report::{ProbeReport, StepOutcome, StepReport, WebhookReport, WorkflowReport};
use super::request::{answered, build};
use super::sources::{Operation, Source, resolve};
use crate::conformance::CheckOutcome;
use crate::http::client::{ClientOptions, Exchange, HttpClient};
use crate::idem::check::step::{StepProbe, execute_first};

/// How many step executions one workflow may make: a `goto` loop ends here instead of forever.
const MAX_STEP_EXECUTIONS: usize = 1000;

/// What a run carries between workflows.
pub(crate) struct Run<'a> {
    pub config: &'a RunConfig,
    pub sources: &'a [Source],
    pub inputs: Map<String, Value>,
    /// `workflowId → {"outputs": {…}}` of the workflows that have run.
    pub workflows: Map<String, Value>,
    pub client: HttpClient,
    /// The embedded listener, started at the first step that expects a webhook.
    inbox: Option<crate::expected_webhooks::WebhookInbox>,
    /// The resource ids the keyed steps and their probes read, for "created N resources".
    pub created_ids: crate::created::CreatedIds,
}

/// Why a workflow stopped early: the run cannot proceed (exit 2), with what it had reported.
pub(crate) struct Stopped {
    pub report: WorkflowReport,
    pub error: anyhow::Error,
}

impl<'a> Run<'a> {
    pub(crate) fn new(
        config: &'a RunConfig,
        sources: &'a [Source],
        inputs: Map<String, Value>,
    ) -> anyhow::Result<Run<'a>> {
        let template = &config.template;
        let options = ClientOptions { timeout: template.timeout, insecure: template.insecure, http2: template.http2 };
        let client = HttpClient::with_proxies(options, template.proxies.clone())?.with_budget(template.budget.clone());
        Ok(Run { config, sources, inputs, workflows: Map::new(), client, inbox: None, created_ids: Default::default() })
    }

    /// Stops the embedded listener, if one was started.
    pub(crate) async fn finish(mut self) {
        if let Some(inbox) = self.inbox.take() {
            inbox.stop().await;
        }
    }

    /// The listener for `expected`, started on `--listen` the first time; how many deliveries it
    /// had received before this step.
    async fn inbox_for(&mut self, expected: &ExpectedWebhook, secret: &str) -> anyhow::Result<usize> {
        if self.inbox.is_none() {
            let Some(addr) = self.config.listen else {
                bail!(
                    "the step expects a webhook (x-idem-expect-webhook): give --listen ADDR, where the API delivers it"
                );
            };
            self.inbox = Some(crate::expected_webhooks::WebhookInbox::start(addr, &expected.scheme, secret).await?);
        }
        let inbox = self.inbox.as_ref().context("the listener")?;
        if !inbox.verifies_with(&expected.scheme, secret) {
            bail!(
                "this step expects a webhook signed with another scheme or secret than an earlier step's ({}): one listener per run, with one scheme and secret, is supported yet",
                inbox.scheme
            );
        }
        Ok(inbox.received()?.len())
    }

    /// Waits `within`, then judges what arrived since `mark` against `keys` × `count`.
    async fn judge_webhook(&self, expected: &ExpectedWebhook, mark: usize, keys: u64) -> anyhow::Result<WebhookReport> {
        tokio::time::sleep(expected.within).await;
        let inbox = self.inbox.as_ref().context("the listener")?;
        let received = inbox.received()?;
        let of_event: Vec<_> = received
            .iter()
            .skip(mark)
            .filter(|delivery| delivery.event_type.as_deref() == Some(expected.event.as_str()))
            .collect();
        let seen = of_event.iter().filter(|delivery| delivery.valid).count() as u64;
        let invalid = of_event.len() as u64 - seen;
        let wanted = u64::from(expected.count) * keys;
        let mut evidence = vec![format!(
            "{seen} × {} validly signed within {} of the step's last request; expected {wanted} ({} per key, {keys} {} sent)",
            expected.event,
            crate::units::format_duration(expected.within),
            expected.count,
            if keys == 1 { "key" } else { "keys" }
        )];
        if invalid > 0 {
            evidence
                .push(format!("{invalid} {} with a signature that did not hold ({})", expected.event, expected.scheme));
        }
        if seen > wanted {
            evidence.push("more deliveries than keys: the API sent the event again for a duplicate it did not execute, or executed the duplicate".to_string());
        }
        let held = seen == wanted && invalid == 0;
        Ok(WebhookReport {
            event: expected.event.clone(),
            expected: wanted,
            seen,
            invalid,
            outcome: if held { CheckOutcome::Pass } else { CheckOutcome::Fail },
            finding: (!held).then(|| webhook_finding(expected, seen, invalid, wanted, keys)),
            evidence,
        })
    }

    fn source_urls(&self) -> Vec<(String, String)> {
        self.sources.iter().map(|s| (s.name.clone(), s.url.clone())).collect()
    }

    /// Runs one workflow to its end.
    pub(crate) async fn workflow(&mut self, workflow: &Workflow) -> Result<WorkflowReport, Box<Stopped>> {
        let mut report = WorkflowReport {
            workflow_id: workflow.id.clone(),
            outcome: StepOutcome::Pass,
            steps: Vec::new(),
            outputs: Map::new(),
        };
        let mut steps_outputs = Map::new();
        let mut at = 0usize;
        let mut executions = 0usize;
        let mut retries: Vec<u32> = vec![0; workflow.steps.len()];
        let mut reached = vec![false; workflow.steps.len()];
        while at < workflow.steps.len() {
            executions += 1;
            if executions > MAX_STEP_EXECUTIONS {
                let error = anyhow::anyhow!(
                    "workflow `{}` ran {MAX_STEP_EXECUTIONS} steps without ending: its goto actions loop",
                    workflow.id
                );
                return Err(Box::new(Stopped { report, error }));
            }
            let step = &workflow.steps[at];
            reached[at] = true;
            let ran = self.step(step, &steps_outputs).await;
            let (step_report, exchanged, criteria) = match ran {
                Ok(ran) => ran,
                Err((step_report, error)) => {
                    report.steps.extend(step_report);
                    let error = error.context(format!("workflow `{}`, step `{}`", workflow.id, step.id));
                    return Err(Box::new(Stopped { report, error }));
                }
            };
            let sources = self.source_urls();
            let scope = Scope {
                inputs: &self.inputs,
                steps: &steps_outputs,
                workflows: &self.workflows,
                sources: &sources,
                exchanged: Some(&exchanged),
            };
            let mut step_report = step_report;
            let next = match criteria {
                Ok(()) => {
                    let actions = if step.on_success.is_empty() { &workflow.success_actions } else { &step.on_success };
                    match first_matching(actions, &scope) {
                        Err(error) => {
                            report.steps.push(step_report);
                            return Err(Box::new(Stopped { report, error }));
                        }
                        Ok(None) => Next::Step(at + 1),
                        Ok(Some(action)) => match &action.kind {
                            ActionKind::End => Next::End,
                            ActionKind::Goto(target) => Next::Step(index_of(workflow, target)),
                            ActionKind::Retry { .. } => Next::Step(at + 1),
                        },
                    }
                }
                Err(saw) => {
                    let actions = if step.on_failure.is_empty() { &workflow.failure_actions } else { &step.on_failure };
                    let chosen = match first_matching(actions, &scope) {
                        Ok(chosen) => chosen,
                        Err(error) => {
                            report.steps.push(step_report);
                            return Err(Box::new(Stopped { report, error }));
                        }
                    };
                    let stop = |mut report: WorkflowReport, mut step_report: StepReport, why: String| {
                        step_report.outcome = StepOutcome::Fail;
                        step_report.finding = Some(format!("successCriteria: {saw}"));
                        report.outcome = StepOutcome::Fail;
                        report.steps.push(step_report);
                        let error = anyhow::anyhow!(
                            "step `{}` of workflow `{}` failed its successCriteria before any probe: {saw}{why}",
                            step.id,
                            workflow.id
                        );
                        Err(Box::new(Stopped { report, error }))
                    };
                    match chosen.map(|action| (action.name.clone(), action.kind.clone())) {
                        None => return stop(report, step_report, String::new()),
                        Some((name, ActionKind::Retry { after, limit })) => {
                            if retries[at] >= limit {
                                let why = format!(" (onFailure `{name}` retried it {limit} times)");
                                return stop(report, step_report, why);
                            }
                            retries[at] += 1;
                            step_report.outcome = StepOutcome::Skip;
                            step_report.evidence.push(format!(
                                "its successCriteria failed ({saw}); onFailure `{name}` retries it (retry {} of {limit})",
                                retries[at]
                            ));
                            tokio::time::sleep(after.min(Duration::from_secs(3600))).await;
                            Next::Step(at)
                        }
                        Some((name, ActionKind::End)) => {
                            step_report.outcome = StepOutcome::Skip;
                            step_report.evidence.push(format!(
                                "its successCriteria failed ({saw}); onFailure `{name}` ends the workflow"
                            ));
                            Next::End
                        }
                        Some((name, ActionKind::Goto(target))) => {
                            step_report.outcome = StepOutcome::Skip;
                            step_report.evidence.push(format!(
                                "its successCriteria failed ({saw}); onFailure `{name}` goes to `{target}`"
                            ));
                            Next::Step(index_of(workflow, &target))
                        }
                    }
                }
            };
            steps_outputs.insert(step.id.clone(), serde_json::json!({ "outputs": step_report.outputs.clone() }));
            if step_report.outcome == StepOutcome::Fail {
                report.outcome = StepOutcome::Fail;
            }
            report.steps.push(step_report);
            match next {
                Next::End => break,
                Next::Step(index) => at = index,
            }
        }
        for (step, reached) in workflow.steps.iter().zip(&reached) {
            if !reached {
                report.steps.push(skipped(step, self.sources));
            }
        }
        let sources = self.source_urls();
        let scope = Scope {
            inputs: &self.inputs,
            steps: &steps_outputs,
            workflows: &self.workflows,
            sources: &sources,
            exchanged: None,
        };
        for (name, expression) in &workflow.outputs {
            match scope.required(expression) {
                Ok(value) => {
                    report.outputs.insert(name.clone(), value);
                }
                Err(error) => {
                    let error = error.context(format!("output `{name}` of workflow `{}`", workflow.id));
                    return Err(Box::new(Stopped { report, error }));
                }
            }
        }
        self.workflows.insert(workflow.id.clone(), serde_json::json!({ "outputs": report.outputs.clone() }));
        Ok(report)
    }

    /// Sends one step, judges its criteria and, when they hold and it is keyed, probes it. On an
    /// error the run cannot go on: what was reported of the step comes back with it.
    #[allow(clippy::type_complexity)]
    async fn step(
        &mut self,
        step: &Step,
        steps_outputs: &Map<String, Value>,
    ) -> Result<(StepReport, Exchanged, Result<(), String>), (Option<StepReport>, anyhow::Error)> {
        let operation = resolve(self.sources, step).map_err(|e| (None, e))?;
        let mut report = planned(step, &operation);
        let sources = self.source_urls();
        // Copies, so the listener (on `self`) can start while the scope is in use.
        let (inputs, workflows) = (self.inputs.clone(), self.workflows.clone());
        let before =
            Scope { inputs: &inputs, steps: steps_outputs, workflows: &workflows, sources: &sources, exchanged: None };
        let (mut spec, exchanged) = match build(&self.config.template, step, &operation, &before) {
            Ok(built) => built,
            Err(error) => return Err((Some(report), error)),
        };
        report.url = Some(crate::http::url::Redacted(&spec.url).to_string());
        let webhook_mark = match &step.expect_webhook {
            None => None,
            Some(expected) => {
                let secret = match before.resolve(&expected.secret) {
                    Ok(secret) => super::expression::as_text(&secret),
                    Err(error) => return Err((Some(report), error.context("x-idem-expect-webhook's secret"))),
                };
                match self.inbox_for(expected, &secret).await {
                    Ok(mark) => Some((expected, mark)),
                    Err(error) => return Err((Some(report), error)),
                }
            }
        };
        let keyed = operation.keyed(step);
        let mut first = None;
        let answer: Exchange = if keyed {
            let (carrier, header) = operation.key_carrier();
            spec.key_carrier = carrier;
            spec.key_header = http::HeaderName::from_bytes(header.as_bytes()).map_err(|e| (None, e.into()))?;
            match self.ledgers(&operation) {
                Ok(ledgers) => spec.ledgers = ledgers,
                Err(error) => return Err((Some(report), error)),
            }
            report.key_in = Some(spec.key_in());
            match execute_first(spec).await {
                Ok(execution) => {
                    let answer = execution.exchange.clone();
                    report.evidence.extend(execution.evidence.iter().cloned());
                    self.created_ids.merge(&execution.created_ids());
                    first = Some(execution);
                    answer
                }
                Err(error) => return Err((Some(report), error)),
            }
        } else {
            let sent = async {
                let request = spec.build(None)?;
                let mut answer = self.client.send(request).await?;
                answer.body = crate::http::content_encoding::decode(&answer.headers, answer.body).body;
                anyhow::Ok(answer)
            };
            match sent.await {
                Ok(answer) => answer,
                Err(error) => return Err((Some(report), error.context("the step got no answer"))),
            }
        };
        report.status = Some(answer.status.as_u16());
        let exchanged = answered(exchanged, &answer);
        let scope = Scope { exchanged: Some(&exchanged), ..before };
        let criteria = if step.success_criteria.is_empty() {
            // No criteria: a 2xx is the step's success, as an HTTP client would take it.
            if answer.status.is_success() {
                Ok(())
            } else {
                Err(format!("{} is not a 2xx (the step has no successCriteria)", answer.status))
            }
        } else {
            match all_hold(&step.success_criteria, &scope) {
                Ok(held) => held,
                Err(error) => return Err((Some(report), error)),
            }
        };
        if criteria.is_err() {
            return Ok((report, exchanged, criteria));
        }
        // Every key the step sends is one logical operation, each owed the expected webhooks.
        let mut keys = 1u64;
        if let Some(mut execution) = first {
            let probes = execution
                .probe(&self.config.probes, self.config.concurrency, self.config.profile)
                .await
                .map_err(|error| (Some(report.clone()), error))?;
            self.created_ids.merge(&execution.created_ids());
            for (kind, result) in probes {
                if matches!(kind, StepProbe::Race | StepProbe::LostAnswer) && result.outcome != CheckOutcome::Skip {
                    keys += 1;
                }
                if result.outcome == CheckOutcome::Fail {
                    report.outcome = StepOutcome::Fail;
                }
                report.probes.push(ProbeReport {
                    kind,
                    check: result.id.to_string(),
                    outcome: result.outcome,
                    finding: result.finding,
                    evidence: result.evidence,
                    // As idem check names it: a judged probe without a count rests on the answers.
                    evidence_level: result.evidence_level.or_else(|| {
                        let judged = !matches!(result.outcome, CheckOutcome::Skip | CheckOutcome::Unconfirmed);
                        judged.then_some(crate::evidence_level::EvidenceLevel::Answer)
                    }),
                    fix: result.fix.map(str::to_string),
                });
            }
        }
        if let Some((expected, mark)) = webhook_mark {
            let judged =
                self.judge_webhook(expected, mark, keys).await.map_err(|error| (Some(report.clone()), error))?;
            if judged.outcome == CheckOutcome::Fail {
                report.outcome = StepOutcome::Fail;
            }
            report.webhook = Some(judged);
        }
        report.finding = report.failure_finding();
        for (name, expression) in &step.outputs {
            match scope.required(expression) {
                Ok(value) => {
                    report.outputs.insert(name.clone(), value);
                }
                Err(error) => return Err((Some(report), error.context(format!("output `{name}`")))),
            }
        }
        Ok((report, exchanged, criteria))
    }

    /// The step's count: its operation's `x-idem-count-url`, else `--count-url`.
    fn ledgers(&self, operation: &Operation) -> anyhow::Result<Vec<crate::count::CountSource>> {
        let count = crate::idem::check::openapi::count::operation_count(
            &self.config.template,
            &operation.base,
            &operation.count,
            operation.operation_id.as_deref(),
            None,
        )?;
        Ok(match count {
            Some(source) if operation.count.url.is_some() => vec![source],
            _ => self.config.template.ledgers.clone(),
        })
    }
}

/// What an expected webhook that did not hold showed, with its numbers: too many deliveries for
/// the keys sent, too few within the time, or deliveries whose signature did not hold.
fn webhook_finding(expected: &ExpectedWebhook, seen: u64, invalid: u64, wanted: u64, keys: u64) -> String {
    let event = &expected.event;
    let keys_sent = if keys == 1 { "one key".to_string() } else { format!("{keys} keys") };
    let times = crate::text::plural(seen, "time", "times");
    if seen > wanted {
        format!("{event} seen {times} for {keys_sent}; expected {wanted}")
    } else if seen < wanted {
        format!(
            "{event} seen {times} for {keys_sent} within {}; expected {wanted}",
            crate::units::format_duration(expected.within)
        )
    } else {
        format!(
            "{} of {event} with a signature that did not hold ({})",
            crate::text::plural(invalid, "delivery", "deliveries"),
            expected.scheme
        )
    }
}

enum Next {
    Step(usize),
    End,
}

fn index_of(workflow: &Workflow, step_id: &str) -> usize {
    // Checked when the document was read: every goto names a step of its workflow.
    workflow.steps.iter().position(|step| step.id == step_id).unwrap_or(workflow.steps.len())
}

/// The first action whose criteria all hold (an action without criteria always does).
fn first_matching<'w>(actions: &'w [Action], scope: &Scope<'_>) -> anyhow::Result<Option<&'w Action>> {
    for action in actions {
        let held = all_hold(&action.criteria, scope).with_context(|| format!("action `{}`", action.name))?;
        if held.is_ok() {
            return Ok(Some(action));
        }
    }
    Ok(None)
}

/// A step's report before it runs: its operation as the document writes it.
pub(crate) fn planned(step: &Step, operation: &Operation) -> StepReport {
    StepReport {
        step_id: step.id.clone(),
        operation_id: operation.operation_id.clone(),
        operation: format!("{} {}", operation.method, operation.path),
        url: None,
        status: None,
        key_in: None,
        outcome: StepOutcome::Pass,
        finding: None,
        evidence: Vec::new(),
        probes: Vec::new(),
        webhook: None,
        outputs: Map::new(),
    }
}

/// A step the flow never reached.
fn skipped(step: &Step, sources: &[Source]) -> StepReport {
    let operation = resolve(sources, step).ok();
    StepReport {
        step_id: step.id.clone(),
        operation_id: operation.as_ref().and_then(|o| o.operation_id.clone()),
        operation: operation.map(|o| format!("{} {}", o.method, o.path)).unwrap_or_default(),
        url: None,
        status: None,
        key_in: None,
        outcome: StepOutcome::Skip,
        finding: None,
        evidence: vec!["the flow did not reach this step".to_string()],
        probes: Vec::new(),
        webhook: None,
        outputs: Map::new(),
    }
}

/// The inputs a workflow's schema requires and the run was not given.
pub(crate) fn missing_inputs(workflow: &Workflow, inputs: &Map<String, Value>) -> anyhow::Result<()> {
    let required = workflow.inputs.as_ref().and_then(|schema| schema.get("required")).and_then(Value::as_array);
    let missing: Vec<&str> =
        required.into_iter().flatten().filter_map(Value::as_str).filter(|name| !inputs.contains_key(*name)).collect();
    if !missing.is_empty() {
        bail!(
            "workflow `{}` requires the inputs {}: give each with --input NAME=VALUE or --inputs FILE",
            workflow.id,
            missing.join(", ")
        );
    }
    Ok(())
}
