//! `idem check --openapi SPEC --plan`: the document's operations as a run would take them (the
//! same plan, the same request per operation, the same suite estimate), turned into the plan that
//! is printed instead of sending anything.
use super::plan::{Operation, Planned};
use super::target::Target;
use crate::http::url::Redacted;
use crate::idem::check::CheckConfig;
use crate::idem::check::plan_report::{PlanReport, PlannedOperation};

/// The plan of every operation, each chosen one with the request `request_of` makes for it (the
/// run's own), its body shortened and its checks' requests.
pub(super) fn plan_of(
    spec: &str,
    target: &Target,
    refused: Option<String>,
    operations: &[Operation],
    max_requests: Option<u64>,
    request_of: impl Fn(&Operation, &Planned) -> anyhow::Result<CheckConfig>,
) -> PlanReport {
    let planned = operations
        .iter()
        .map(|operation| {
            let mut shown = PlannedOperation {
                method: operation.method.to_string(),
                path: Some(operation.path.clone()),
                operation_id: operation.operation_id.clone(),
                skipped: None,
                url: None,
                body: None,
                body_origin: None,
                cost: None,
            };
            let made = match &operation.plan {
                Ok(planned) => request_of(operation, planned).map(|check| (planned, check)),
                Err(reason) => Err(anyhow::anyhow!("{reason}")),
            };
            match made {
                Ok((planned, check)) => {
                    shown.url = Some(Redacted(&check.request.url).to_string());
                    shown.body = PlannedOperation::shown_body(&check.request.body);
                    shown.body_origin = planned.body_origin;
                    shown.cost = Some(check.cost());
                }
                Err(reason) => shown.skipped = Some(format!("{reason:#}")),
            }
            shown
        })
        .collect();
    let mut report = PlanReport::new(
        Some(Redacted(spec).to_string()),
        Redacted(&target.base).to_string(),
        Some(target.source),
        planned,
        max_requests,
    );
    report.refused = refused;
    report
}

/// The requests a run of the chosen operations needs against a correct API, in all: the plan's
/// total, without holding a plan of every operation.
pub(super) fn requests_of(
    operations: &[Operation],
    request_of: impl Fn(&Operation, &Planned) -> anyhow::Result<CheckConfig>,
) -> u64 {
    operations
        .iter()
        .filter_map(|operation| operation.plan.as_ref().ok().map(|planned| (operation, planned)))
        .filter_map(|(operation, planned)| request_of(operation, planned).ok())
        .map(|check| check.cost().requests)
        .sum()
}
