//! `idem run --plan`: each workflow's steps, the operations they resolve to, which are keyed and
//! get which probes, and an estimate of the requests and of the resources a correct API creates,
//! without sending anything.
use std::fmt::Write;

use super::RunConfig;
use super::document::{Arazzo, Workflow};
use super::report::RunFormat;
use super::sources::{Source, resolve};
use crate::idem::check::step::StepProbe;

pub(crate) fn render(
    arazzo: &Arazzo,
    workflows: &[&Workflow],
    sources: &[Source],
    config: &RunConfig,
) -> anyhow::Result<String> {
    if config.format != RunFormat::Human {
        anyhow::bail!("idem run --plan prints text only: --plan with --format json or junit is not supported yet");
    }
    let palette = config.palette;
    let mut out = String::new();
    writeln!(
        out,
        "{} {} (Arazzo {}): nothing is sent",
        palette.bold("plan"),
        config.workflow_file.display(),
        arazzo.version
    )?;
    for source in sources {
        writeln!(out, "source {}: {}", source.name, source.target.describe())?;
    }
    let counted = !config.template.ledgers.is_empty();
    let (mut requests, mut created) = (0u64, 0u64);
    for workflow in workflows {
        writeln!(out, "\n{} {}", palette.bold("workflow"), workflow.id)?;
        for step in &workflow.steps {
            let operation = resolve(sources, step)?;
            let id = operation.operation_id.as_deref().map(|id| format!(" ({id})")).unwrap_or_default();
            writeln!(out, "  {}  {} {}{id}", palette.bold(&step.id), operation.method, operation.path)?;
            requests += 1;
            if !operation.keyed(step) {
                writeln!(out, "      not keyed: sent once, no probe")?;
                created += u64::from(!operation.method.is_safe());
                continue;
            }
            let (carrier, header) = operation.key_carrier();
            let step_counted = counted || operation.count.url.is_some();
            let mut step_requests = 1;
            let mut step_created = 1;
            let mut probes = Vec::new();
            for probe in &config.probes {
                // Without a count the lost answer cannot be judged, so it is not sent.
                if *probe == StepProbe::LostAnswer && !step_counted {
                    probes.push(format!("{} (skipped: no count)", probe.as_str()));
                    continue;
                }
                step_requests += probe.requests(config.concurrency);
                // Fresh keys: the race and the lost answer each create one resource on a correct API.
                step_created += u64::from(matches!(probe, StepProbe::Race | StepProbe::LostAnswer));
                probes.push(format!("{} ({})", probe.as_str(), probe.check_id()));
            }
            writeln!(out, "      keyed ({}): probes {}", carrier.describe(&header), probes.join(", "))?;
            writeln!(out, "      about {step_requests} requests, {step_created} resources created on a correct API")?;
            requests += step_requests - 1;
            created += step_created;
        }
    }
    writeln!(
        out,
        "\nabout {requests} requests; {created} resources created on a correct API (more where steps are retried or revisited)"
    )?;
    Ok(out)
}
