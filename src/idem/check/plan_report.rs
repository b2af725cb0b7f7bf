//! `idem check --plan` (one endpoint, or `--openapi SPEC`): what a run would send, where, and how
//! much, printed instead of sending anything. The plan is made by the same code the run uses
//! (the operations' URLs and bodies, the suite's estimate), so it cannot tell a different story.
use std::io::Write;

use serde::Serialize;

use super::estimate::SuiteCost;
use super::openapi::body::BodyOrigin;
use super::openapi::target::TargetSource;
use crate::conformance::SuiteFormat;
use crate::output::{Palette, terminal_safe};
use crate::text::{ellipsis, plural};

/// The `schema` value of `idem check --plan --format json`.
pub(crate) const SCHEMA: &str = "check-plan/1";

/// How much of a body the plan shows.
const BODY_SHOWN: usize = 200;

/// The plan: the `--format json` document of `--plan`.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub(crate) struct PlanReport {
    /// The OpenAPI document, for `--openapi`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub spec: Option<String>,
    /// Where the requests would go (the endpoint, or the base every operation's path goes after).
    pub target: String,
    /// For `--openapi`: who chose the target.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub target_source: Option<TargetSource>,
    /// Why a run with these flags would be refused before its first request, when it would (a
    /// document's server the user did not name).
    pub refused: Option<String>,
    /// Every operation, chosen or with the reason it is not (one for a single endpoint).
    pub operations: Vec<PlannedOperation>,
    /// How many operations would be checked.
    pub chosen: usize,
    /// Requests an API that handles keys correctly and answers quickly would get, in all.
    pub requests: u64,
    /// The most the run can send; `null` when only time bounds it.
    pub requests_at_most: Option<u64>,
    /// Resources a correct API would create, in all.
    pub creations: u64,
    /// `--max-requests`, when given.
    pub max_requests: Option<u64>,
}

/// One operation of the plan.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub(crate) struct PlannedOperation {
    pub method: String,
    /// The path template, for `--openapi`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub path: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub operation_id: Option<String>,
    /// Why it would not be checked; `null` when it would.
    pub skipped: Option<String>,
    /// The request URL (credentials left out).
    pub url: Option<String>,
    /// The body, shortened to 200 characters.
    pub body: Option<String>,
    /// For `--openapi`: where the body came from.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub body_origin: Option<BodyOrigin>,
    /// The checks that send and their requests; `null` when it would not be checked.
    pub cost: Option<SuiteCost>,
}

impl PlannedOperation {
    /// A body as the plan shows it: JSON or text, one line, shortened.
    pub(crate) fn shown_body(body: &[u8]) -> Option<String> {
        if body.is_empty() {
            return None;
        }
        let text = String::from_utf8_lossy(body).split_whitespace().collect::<Vec<_>>().join(" ");
        Some(ellipsis(&text, BODY_SHOWN))
    }
}

impl PlanReport {
    /// The plan of these operations, totalled.
    pub(crate) fn new(
        spec: Option<String>,
        target: String,
        target_source: Option<TargetSource>,
        operations: Vec<PlannedOperation>,
        max_requests: Option<u64>,
    ) -> PlanReport {
        let (requests, requests_at_most, creations) =
            SuiteCost::total(operations.iter().filter_map(|op| op.cost.as_ref()));
        PlanReport {
            spec,
            target,
            target_source,
            refused: None,
            chosen: operations.iter().filter(|op| op.cost.is_some()).count(),
            operations,
            requests,
            requests_at_most,
            creations,
            max_requests,
        }
    }

    pub(crate) fn print(&self, format: SuiteFormat, palette: Palette) -> anyhow::Result<()> {
        let mut stdout = std::io::stdout().lock();
        match format {
            SuiteFormat::Json => {
                // Serialised first so a closed stdout surfaces as the io::Error `exit` recognises.
                let document = crate::json_output::pretty(SCHEMA, self)?;
                writeln!(stdout, "{document}")?;
            }
            SuiteFormat::Human => stdout.write_all(self.render_human(palette).as_bytes())?,
            SuiteFormat::Junit | SuiteFormat::Html => {
                anyhow::bail!("--plan prints --format human or json, not junit or html")
            }
        }
        stdout.flush()?;
        Ok(())
    }

    fn render_human(&self, palette: Palette) -> String {
        let mut out = String::new();
        let source = match self.target_source {
            Some(TargetSource::BaseUrl) => " (from --base-url)",
            Some(TargetSource::DocumentServer) => " (from the document's servers[0])",
            Some(TargetSource::SpecUrl) => " (from the URL the document was fetched from)",
            None => "",
        };
        out.push_str(&format!(
            "{} nothing is sent; a run would send to {}{source}\n",
            palette.bold("plan:"),
            terminal_safe(&self.target)
        ));
        if let Some(refused) = &self.refused {
            out.push_str(&format!("{} {}\n", palette.red("a run would be refused:"), terminal_safe(refused)));
        }
        for operation in &self.operations {
            out.push('\n');
            let name = operation.path.as_deref().or(operation.url.as_deref()).unwrap_or("");
            let id = operation.operation_id.as_deref().map(|id| format!("  {}", palette.dim(id))).unwrap_or_default();
            out.push_str(&format!("{} {}{id}\n", palette.bold(&operation.method), terminal_safe(name)));
            let Some(cost) = &operation.cost else {
                let reason = operation.skipped.as_deref().unwrap_or("");
                out.push_str(&format!("  {} {}\n", palette.yellow("not checked:"), terminal_safe(reason)));
                continue;
            };
            if let (Some(url), Some(_)) = (&operation.url, &operation.path) {
                out.push_str(&format!("  url    {}\n", terminal_safe(url)));
            }
            if let Some(body) = &operation.body {
                let origin = match operation.body_origin {
                    Some(BodyOrigin::OperationExample) => " (the operation's example)",
                    Some(BodyOrigin::SchemaExample) => " (the schema's example)",
                    Some(BodyOrigin::Generated) => " (generated from the schema)",
                    None => "",
                };
                out.push_str(&format!("  body   {}{}\n", terminal_safe(body), palette.dim(origin)));
            }
            let checks: Vec<String> = cost
                .checks
                .iter()
                .map(|check| match check.requests_at_most {
                    Some(most) if most == check.requests => format!("{} {}", check.check, check.requests),
                    Some(most) => format!("{} {}–{most}", check.check, check.requests),
                    None => format!("{} {}+", check.check, check.requests),
                })
                .collect();
            out.push_str(&format!("  checks {}\n", checks.join(", ")));
            // One endpoint's cost is the total, printed once below.
            if self.target_source.is_some() {
                let line = cost_line(cost.requests, cost.requests_at_most, cost.creations);
                out.push_str(&format!("  {}\n", palette.dim(&line)));
            }
        }
        out.push('\n');
        let operations = if self.target_source.is_some() {
            format!("{} of {} checked: ", self.chosen, plural(self.operations.len(), "operation", "operations"))
        } else {
            String::new()
        };
        out.push_str(&format!(
            "{} {operations}{}\n",
            palette.bold("total:"),
            cost_line(self.requests, self.requests_at_most, self.creations)
        ));
        for operation in &self.operations {
            for note in operation.cost.iter().flat_map(|cost| &cost.checks).filter_map(|check| check.note.as_ref()) {
                let line = format!("note: {note}\n");
                if !out.contains(&line) {
                    out.push_str(&palette.dim(&line));
                }
            }
        }
        if let Some(max) = self.max_requests.filter(|max| *max < self.requests) {
            out.push_str(&format!(
                "{} --max-requests {max} is below the {} a run needs: it would stop early with exit status 2\n",
                palette.yellow("warning:"),
                self.requests
            ));
        }
        out
    }
}

/// "33 requests (up to 51), 6 resources created by a correct API".
fn cost_line(requests: u64, at_most: Option<u64>, creations: u64) -> String {
    let most = match at_most {
        Some(most) if most == requests => String::new(),
        Some(most) => format!(" (up to {most} against a slow API)"),
        None => " (more if a check that only time bounds runs long; see the notes)".to_string(),
    };
    format!(
        "{}{most}, {} created by an API that handles keys correctly",
        plural(requests, "request", "requests"),
        plural(creations, "resource", "resources")
    )
}
