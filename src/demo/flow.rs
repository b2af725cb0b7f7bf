//! Chapter: a whole flow. `idem run` walks the example workflow (customer, payment, confirmation,
//! refund) against a reference server whose payment endpoint alone is broken, and probes every
//! keyed step: only the payment fails, and the report says which probe caught it.
use anyhow::Context;
use http::Method;

use super::narrator::Narrator;
use crate::exit::Outcome;
use crate::idem::check::Profile;
use crate::idem::check::step::StepProbe;
use crate::idem::request::RequestSpec;
use crate::idem::run::report::{RunFormat, StepOutcome};
use crate::idem::run::{RunConfig, execute};
use crate::idem::serve::{self, Mode, ServeConfig};

const WORKFLOW: &str = include_str!("../../examples/payments-flow.arazzo.yaml");
const OPENAPI: &str = include_str!("../../examples/payments-flow.openapi.yaml");

pub(super) async fn run(narrator: &mut Narrator) -> anyhow::Result<Outcome> {
    let palette = narrator.palette;
    narrator.heading("Chapter 8: a whole flow, one step broken")?;
    narrator.say("A real payment is a chain: a customer, a payment, a refund, each taking an id from the last.")?;
    narrator.say("`idem run` reads it as an Arazzo workflow and probes every keyed step with its real request.")?;
    narrator.say("The reference server below is correct everywhere but on /payments, which looks keys up late:")?;

    // The example files, written where the workflow finds its OpenAPI document beside it.
    let dir = std::env::temp_dir().join(crate::ids::fresh_id("idem-demo-flow-"));
    std::fs::create_dir_all(&dir).context("the demo could not write its workflow")?;
    let workflow_file = dir.join("payments-flow.arazzo.yaml");
    std::fs::write(&workflow_file, WORKFLOW)?;
    std::fs::write(dir.join("payments-flow.openapi.yaml"), OPENAPI)?;
    let server =
        serve::start_quiet(&ServeConfig { mode_on: Some("/payments".to_string()), ..ServeConfig::local(Mode::Naive) })
            .await?;
    let mut template = RequestSpec::new(Method::POST, "http://127.0.0.1/", Vec::new())?;
    template.headers.clear();
    let config = RunConfig {
        workflow_file,
        base_url: Some(server.url("")),
        sources: Vec::new(),
        inputs: [("amount".to_string(), serde_json::Value::from(1990))].into_iter().collect(),
        workflow: None,
        probes: vec![StepProbe::Retry, StepProbe::Race],
        concurrency: 10,
        template,
        profile: Profile::Ietf,
        listen: None,
        plan: false,
        format: RunFormat::Human,
        palette,
    };
    let ran = execute(&config).await;
    server.shutdown().await;
    let _ = std::fs::remove_dir_all(&dir);
    let (report, stopped) = ran.context("the demo could not run its own workflow")?;

    narrator.command("idem serve --mode naive --mode-on /payments")?;
    narrator.command("idem run examples/payments-flow.arazzo.yaml --input amount=1990 --probes retry,race")?;
    let steps = report.workflows.iter().flat_map(|workflow| &workflow.steps);
    for step in steps.clone() {
        let mark = match step.outcome {
            StepOutcome::Pass => palette.green("✓"),
            StepOutcome::Fail => palette.red("✗"),
            StepOutcome::Skip => palette.dim("-"),
        };
        let probes: Vec<String> = step
            .probes
            .iter()
            .map(|probe| {
                let outcome = serde_json::to_value(probe.outcome).ok();
                format!("{} {}", probe.kind.as_str(), outcome.as_ref().and_then(|o| o.as_str()).unwrap_or("?"))
            })
            .collect();
        let probes = if probes.is_empty() { "not keyed".to_string() } else { probes.join(", ") };
        narrator.say(&format!("  {mark} {:<16} {:<32} {probes}", step.step_id, step.operation))?;
    }
    let failed: Vec<&str> =
        steps.filter(|step| step.outcome == StepOutcome::Fail).map(|step| step.step_id.as_str()).collect();
    let expected = stopped.is_none() && failed == ["pay"];
    if expected {
        narrator.say(&format!(
            "  {}",
            palette.green("Only the payment step failed, by its race: the customer and the refund hold.")
        ))?;
    }
    Ok(if expected { Outcome::Holds } else { Outcome::ProblemFound })
}
