//! What `idem run` found, per workflow and step, with each probe's verdict and evidence: the
//! `--format json` document (`idem-run/1`), the human report, JUnit (a case per step and probe)
//! and one HTML page (a table per workflow, a row per step and per probe).
use serde::Serialize;
use serde_json::{Map, Value};

use crate::conformance::CheckOutcome;
use crate::evidence_level::EvidenceLevel;
use crate::html_report::{Cell, HtmlReport, Tone, escape};
use crate::idem::check::step::StepProbe;
use crate::output::Palette;

/// The `schema` value of the JSON document.
pub(crate) const SCHEMA: &str = "idem-run/1";

/// The output formats of `idem run`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum RunFormat {
    /// Per workflow and step, colored on a terminal
    #[default]
    Human,
    /// One JSON document (schema idem-run/1)
    Json,
    /// JUnit XML: a test case per step and per probe
    Junit,
    /// One self-contained HTML page (inline CSS, no script): a row per step and probe, with evidence
    Html,
}

/// A finished run; also its `--format json` document.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct RunReport {
    /// The workflow file as given.
    pub arazzo: String,
    /// Its `arazzo` version field.
    pub version: String,
    /// `true` when every step and probe held.
    pub passed: bool,
    /// Why the run could not proceed (exit 2): a document that cannot be read, a step whose own
    /// success criteria failed before any probe, a runtime expression that names nothing.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    pub workflows: Vec<WorkflowReport>,
    /// How many resources the run created: by the count at `--count-url` over the whole run, by
    /// distinct ids in the 2xx answers of its keyed steps and their probes (at least), or unknown.
    pub created: crate::created::Created,
}

#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct WorkflowReport {
    pub workflow_id: String,
    pub outcome: StepOutcome,
    pub steps: Vec<StepReport>,
    /// The workflow's `outputs`, evaluated when it ended.
    pub outputs: Map<String, Value>,
}

/// A step's outcome: `pass` when it succeeded and every probe held, `fail` when a probe or its
/// expected webhook failed or its successCriteria failed and stopped the run, `skip` when the flow did not reach it (or went on after its failure by an `onFailure` action).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub(crate) enum StepOutcome {
    Pass,
    Fail,
    Skip,
}

#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct StepReport {
    pub step_id: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub operation_id: Option<String>,
    /// `POST /customers/{customerId}/charges`, as the OpenAPI document writes it.
    pub operation: String,
    /// The URL sent, when the step ran.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
    /// The status of the step's real request (the one the flow continued with).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub status: Option<u16>,
    /// Where the key went when the step is keyed (`header:Idempotency-Key`); absent otherwise.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub key_in: Option<String>,
    pub outcome: StepOutcome,
    /// What made a failed step fail, in one line with its numbers: its failed probe's check and
    /// finding, its expected webhook's, or the successCriteria that failed with the value seen.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub finding: Option<String>,
    /// What the step's request showed (its key, id, count), or why it was skipped.
    pub evidence: Vec<String>,
    pub probes: Vec<ProbeReport>,
    /// What `x-idem-expect-webhook` expected and the embedded listener saw.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub webhook: Option<WebhookReport>,
    pub outputs: Map<String, Value>,
}

/// A step's expected webhook, judged.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct WebhookReport {
    /// The event type expected.
    pub event: String,
    /// How many validly signed deliveries of it were expected: `count` per key the step sent.
    pub expected: u64,
    /// How many arrived within the time.
    pub seen: u64,
    /// Deliveries of it whose signature did not hold (never counted as seen).
    pub invalid: u64,
    pub outcome: CheckOutcome,
    /// What was seen that made it fail, in one line with its numbers (`charge.succeeded arrived 4
    /// times for 2 keys; expected 2`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub finding: Option<String>,
    pub evidence: Vec<String>,
}

#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct ProbeReport {
    pub kind: StepProbe,
    /// The `idem check` check whose rules judged it (`retry-replays`, `concurrent-once`, …).
    pub check: String,
    pub outcome: CheckOutcome,
    /// What the probe saw that made it fail, warn or stay unconfirmed, in one line with its
    /// numbers (as `idem check` states it).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub finding: Option<String>,
    pub evidence: Vec<String>,
    /// `count` when the count decided it, `answer` when the answers alone did.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub evidence_level: Option<EvidenceLevel>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fix: Option<String>,
}

impl StepReport {
    /// The finding of what failed, once the step's probes and webhook are judged: the first
    /// failed probe's (its check named, and how many more failed), else the webhook's.
    pub(crate) fn failure_finding(&self) -> Option<String> {
        let failed: Vec<&ProbeReport> = self.probes.iter().filter(|p| p.outcome == CheckOutcome::Fail).collect();
        let webhook = self.webhook.as_ref().filter(|w| w.outcome == CheckOutcome::Fail);
        let mut findings = failed
            .iter()
            .map(|probe| match &probe.finding {
                Some(finding) => format!("{}: {finding}", probe.check),
                None => format!("{} failed", probe.check),
            })
            .chain(webhook.map(|webhook| match &webhook.finding {
                Some(finding) => format!("webhook: {finding}"),
                None => format!("webhook {} failed", webhook.event),
            }));
        let first = findings.next()?;
        let more = findings.count();
        Some(match more {
            0 => first,
            more => format!("{first} (and {} more)", crate::text::plural(more, "failure", "failures")),
        })
    }
}

impl RunReport {
    pub(crate) fn failed_steps(&self) -> usize {
        self.workflows.iter().flat_map(|w| &w.steps).filter(|s| s.outcome == StepOutcome::Fail).count()
    }

    pub(crate) fn render(&self, format: RunFormat, palette: Palette) -> anyhow::Result<String> {
        Ok(match format {
            RunFormat::Json => {
                let mut text = crate::json_output::pretty(SCHEMA, self)?;
                text.push('\n');
                text
            }
            RunFormat::Human => self.human(palette),
            RunFormat::Junit => self.junit(),
            RunFormat::Html => self.html(),
        })
    }

    /// `--format html`: the verdict, then per workflow a table whose rows are its steps and, under
    /// each, its probes (`data-step`/`data-probe` and `data-outcome` say what the JSON says), then
    /// each step's evidence, probes' evidence and fixes. Every string passes through `escape`:
    /// ids, URLs and evidence come from the document and the target.
    fn html(&self) -> String {
        let mut report = HtmlReport::new("idem run", &format!("{} (Arazzo {})", self.arazzo, self.version));
        let failed = self.failed_steps();
        let steps: usize = self.workflows.iter().map(|w| w.steps.len()).sum();
        match (&self.error, failed) {
            (Some(error), _) => report.verdict(&format!("could not proceed: {error}"), Tone::Warn),
            (None, 0) => report.verdict(&format!("every step held ({steps} steps)"), Tone::Good),
            (None, n) => report.verdict(&format!("{n} of {steps} steps failed"), Tone::Bad),
        };
        for workflow in &self.workflows {
            let mut rows = Vec::new();
            let mut details = String::new();
            for step in &workflow.steps {
                let (word, tone) = step_word(step.outcome);
                let status = step.status.map(|s| s.to_string()).unwrap_or_default();
                rows.push((
                    vec![("step", step.step_id.clone()), ("outcome", json_word(&step.outcome))],
                    vec![
                        Cell::Text(word.into(), tone),
                        Cell::Markup(format!("<code>{}</code>", escape(&step.step_id))),
                        Cell::text(step.operation.clone()),
                        Cell::Text(status, Tone::of_status(step.status)),
                        Cell::text(step.key_in.clone().unwrap_or_else(|| "not keyed".into())),
                    ],
                ));
                details.push_str(&format!("<h3>{}</h3>\n", escape(&step.step_id)));
                if let Some(url) = &step.url {
                    details.push_str(&format!("<p><code>{}</code></p>\n", escape(url)));
                }
                if let Some(finding) = &step.finding {
                    details.push_str(&format!("<p class=\"finding\"><strong>{}</strong></p>\n", escape(finding)));
                }
                details.push_str(&HtmlReport::list(&step.evidence));
                for probe in &step.probes {
                    let (word, tone) = check_word(probe.outcome);
                    rows.push((
                        vec![
                            ("probe", format!("{} {}", step.step_id, probe.kind.as_str())),
                            ("outcome", json_word(&probe.outcome)),
                        ],
                        vec![
                            Cell::Text(word.into(), tone),
                            Cell::Markup(format!(
                                "&#8627; <code>{}</code> {}",
                                escape(probe.kind.as_str()),
                                escape(&probe.check)
                            )),
                            Cell::text(String::new()),
                            Cell::text(String::new()),
                            Cell::text(String::new()),
                        ],
                    ));
                    details.push_str(&format!(
                        "<p>{} <code>{}</code> ({}): {word}</p>\n",
                        escape(&step.step_id),
                        escape(probe.kind.as_str()),
                        escape(&probe.check)
                    ));
                    details.push_str(&HtmlReport::list(&probe.evidence));
                    if let Some(fix) = &probe.fix {
                        details.push_str(&format!("<p class=\"fix\">Fix: {}</p>\n", escape(fix)));
                    }
                }
                if let Some(webhook) = &step.webhook {
                    details.push_str(&format!(
                        "<p>webhook <code>{}</code>: {}</p>\n",
                        escape(&webhook.event),
                        check_word(webhook.outcome).0
                    ));
                    details.push_str(&HtmlReport::list(&webhook.evidence));
                }
            }
            let outputs: Vec<String> = workflow
                .outputs
                .iter()
                .map(|(name, value)| format!("output {name} = {}", crate::text::ellipsis(&value.to_string(), 120)))
                .collect();
            if !outputs.is_empty() {
                details.push_str(&HtmlReport::list(&outputs));
            }
            let table = HtmlReport::table(&["outcome", "step / probe", "operation", "status", "key"], rows);
            report.section(&format!("workflow {}", workflow.workflow_id), &format!("{table}{details}"));
        }
        report.finish()
    }

    fn human(&self, palette: Palette) -> String {
        let mut out = format!("{} {} (Arazzo {})\n", palette.bold("idem run"), self.arazzo, self.version);
        for workflow in &self.workflows {
            out.push_str(&format!("\n{} {}\n", palette.bold("workflow"), workflow.workflow_id));
            for step in &workflow.steps {
                let status = step.status.map(|s| format!(" → {}", palette.status(s))).unwrap_or_default();
                let keyed = step.key_in.as_deref().map(|k| palette.dim(&format!("  (keyed, {k})"))).unwrap_or_default();
                out.push_str(&format!(
                    "  {} {}  {}{status}{keyed}\n",
                    mark(step.outcome, palette),
                    palette.bold(&step.step_id),
                    step.operation
                ));
                if let Some(finding) = &step.finding {
                    out.push_str(&format!("      {}\n", palette.bold(&crate::output::terminal_safe(finding))));
                }
                for line in &step.evidence {
                    out.push_str(&format!("      {}\n", palette.dim(&crate::output::terminal_safe(line))));
                }
                for probe in &step.probes {
                    out.push_str(&format!(
                        "    {} {:<12} {}\n",
                        check_mark(probe.outcome, palette),
                        probe.kind.as_str(),
                        palette.dim(&probe.check)
                    ));
                    // Not said again where its evidence says it, or where the step's line above
                    // already did (the step's finding is its first failed probe's).
                    let said_above = |finding: &String| {
                        let stated = step.finding.as_deref().and_then(|step_finding| {
                            step_finding.strip_prefix(probe.check.as_str())?.strip_prefix(": ")
                        });
                        stated.is_some_and(|stated| {
                            stated
                                .strip_prefix(finding.as_str())
                                .is_some_and(|more| more.is_empty() || more.starts_with(" (and "))
                        })
                    };
                    if let Some(finding) = probe
                        .finding
                        .as_ref()
                        .filter(|finding| !probe.evidence.contains(finding) && !said_above(finding))
                    {
                        out.push_str(&format!("        {}\n", crate::output::terminal_safe(finding)));
                    }
                    for line in &probe.evidence {
                        out.push_str(&format!("        {}\n", crate::output::terminal_safe(line)));
                    }
                    if let Some(fix) = &probe.fix {
                        out.push_str(&format!("        {} {fix}\n", palette.yellow("fix:")));
                    }
                }
                if let Some(webhook) = &step.webhook {
                    out.push_str(&format!(
                        "    {} {:<12} {}\n",
                        check_mark(webhook.outcome, palette),
                        "webhook",
                        palette.dim(&webhook.event)
                    ));
                    if let Some(finding) = &webhook.finding {
                        out.push_str(&format!("        {}\n", crate::output::terminal_safe(finding)));
                    }
                    for line in &webhook.evidence {
                        out.push_str(&format!("        {}\n", crate::output::terminal_safe(line)));
                    }
                }
            }
            for (name, value) in &workflow.outputs {
                out.push_str(&format!("  output {name} = {}\n", crate::text::ellipsis(&value.to_string(), 120)));
            }
        }
        let failed = self.failed_steps();
        let steps: usize = self.workflows.iter().map(|w| w.steps.len()).sum();
        out.push('\n');
        match (&self.error, failed) {
            (Some(error), _) => out.push_str(&format!("{} {}\n", palette.red("could not proceed:"), error)),
            (None, 0) => out.push_str(&format!("{} every step held ({steps} steps)\n", palette.green("✓"))),
            (None, n) => out.push_str(&format!("{} {n} of {steps} steps failed\n", palette.red("✗"))),
        }
        out.push_str(&format!("{}\n", self.created.line(palette)));
        out
    }

    fn junit(&self) -> String {
        let mut out = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"idem run\">\n");
        for workflow in &self.workflows {
            let mut cases = Vec::new();
            for step in &workflow.steps {
                let outcome = match step.outcome {
                    StepOutcome::Pass => Junit::Pass,
                    StepOutcome::Fail => Junit::Failure(match &step.finding {
                        Some(finding) => finding.clone(),
                        None => format!("step {} failed", step.step_id),
                    }),
                    StepOutcome::Skip => Junit::Skipped,
                };
                cases.push((step.step_id.clone(), outcome, step.evidence.join("\n")));
                for probe in &step.probes {
                    let outcome = match probe.outcome {
                        CheckOutcome::Fail => Junit::Failure(match &probe.finding {
                            Some(finding) => format!("{}: {finding}", probe.check),
                            None => format!("{} failed", probe.check),
                        }),
                        CheckOutcome::Skip => Junit::Skipped,
                        _ => Junit::Pass,
                    };
                    cases.push((
                        format!("{} {}", step.step_id, probe.kind.as_str()),
                        outcome,
                        probe.evidence.join("\n"),
                    ));
                }
                if let Some(webhook) = &step.webhook {
                    let outcome = match (webhook.outcome, &webhook.finding) {
                        (CheckOutcome::Fail, Some(finding)) => Junit::Failure(finding.clone()),
                        (CheckOutcome::Fail, None) => Junit::Failure(format!("webhook {} failed", webhook.event)),
                        _ => Junit::Pass,
                    };
                    cases.push((format!("{} webhook", step.step_id), outcome, webhook.evidence.join("\n")));
                }
            }
            let failures = cases.iter().filter(|(_, o, _)| matches!(o, Junit::Failure(_))).count();
            let skipped = cases.iter().filter(|(_, o, _)| matches!(o, Junit::Skipped)).count();
            out.push_str(&format!(
                "  <testsuite name=\"{}\" tests=\"{}\" failures=\"{failures}\" skipped=\"{skipped}\">\n",
                escape(&workflow.workflow_id),
                cases.len()
            ));
            for (name, outcome, evidence) in cases {
                let head =
                    format!("    <testcase classname=\"{}\" name=\"{}\"", escape(&workflow.workflow_id), escape(&name));
                match outcome {
                    Junit::Pass => out.push_str(&format!(
                        "{head}>\n      <system-out>{}</system-out>\n    </testcase>\n",
                        escape(&evidence)
                    )),
                    Junit::Skipped => out.push_str(&format!("{head}>\n      <skipped/>\n    </testcase>\n")),
                    Junit::Failure(message) => out.push_str(&format!(
                        "{head}>\n      <failure message=\"{}\">{}</failure>\n    </testcase>\n",
                        escape(&message),
                        escape(&evidence)
                    )),
                }
            }
            out.push_str("  </testsuite>\n");
        }
        out.push_str("</testsuites>\n");
        out
    }
}

enum Junit {
    Pass,
    Failure(String),
    Skipped,
}

/// An outcome as the JSON document writes it (`pass`, `fail`, `skip`, …), for `data-outcome`.
fn json_word(outcome: &impl Serialize) -> String {
    serde_json::to_value(outcome).ok().and_then(|v| v.as_str().map(str::to_string)).unwrap_or_default()
}

fn step_word(outcome: StepOutcome) -> (&'static str, Tone) {
    match outcome {
        StepOutcome::Pass => ("PASS", Tone::Good),
        StepOutcome::Fail => ("FAIL", Tone::Bad),
        StepOutcome::Skip => ("SKIP", Tone::Neutral),
    }
}

fn check_word(outcome: CheckOutcome) -> (&'static str, Tone) {
    match outcome {
        CheckOutcome::Pass => ("PASS", Tone::Good),
        CheckOutcome::Xpass => ("XPASS", Tone::Warn),
        CheckOutcome::Fail => ("FAIL", Tone::Bad),
        CheckOutcome::Warn => ("WARN", Tone::Warn),
        CheckOutcome::Xfail => ("XFAIL", Tone::Warn),
        CheckOutcome::Unconfirmed => ("UNCONFIRMED", Tone::Warn),
        CheckOutcome::Skip => ("SKIP", Tone::Neutral),
    }
}

fn mark(outcome: StepOutcome, palette: Palette) -> String {
    match outcome {
        StepOutcome::Pass => palette.green("✓"),
        StepOutcome::Fail => palette.red("✗"),
        StepOutcome::Skip => palette.dim("-"),
    }
}

fn check_mark(outcome: CheckOutcome, palette: Palette) -> String {
    match outcome {
        CheckOutcome::Pass | CheckOutcome::Xpass => palette.green("✓"),
        CheckOutcome::Fail => palette.red("✗"),
        CheckOutcome::Warn | CheckOutcome::Xfail | CheckOutcome::Unconfirmed => palette.yellow("!"),
        CheckOutcome::Skip => palette.dim("-"),
    }
}
