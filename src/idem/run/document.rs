//! An Arazzo description (1.0.x or 1.1.x, YAML or JSON) read into the parts `idem run` executes.
//! Every part it cannot execute yet is refused by name, never skipped: a workflow that ran without
//! one of its steps' conditions would report a pass it did not earn.
use std::time::Duration;

use anyhow::{Context, bail};
use serde_json::{Map, Value};

/// The largest description read: a workflow file is a few KiB.
const MAX_DOCUMENT_BYTES: u64 = 8 * 1024 * 1024;

/// What a refusal says after naming the part: the user knows it is this tool's limit.
const NOT_SUPPORTED: &str = "is not supported yet by idem run";

#[derive(Debug, Clone)]
pub(crate) struct Arazzo {
    /// The `arazzo` field as written (`1.0.1`, `1.1.0`).
    pub version: String,
    pub sources: Vec<SourceDescription>,
    pub workflows: Vec<Workflow>,
}

#[derive(Debug, Clone)]
pub(crate) struct SourceDescription {
    pub name: String,
    pub url: String,
}

#[derive(Debug, Clone)]
pub(crate) struct Workflow {
    pub id: String,
    /// The inputs' JSON Schema, `$ref`s to `components.inputs` followed.
    pub inputs: Option<Value>,
    pub depends_on: Vec<String>,
    pub steps: Vec<Step>,
    /// Actions every step falls back to when it names none of its own.
    pub success_actions: Vec<Action>,
    pub failure_actions: Vec<Action>,
    pub outputs: Vec<(String, String)>,
}

#[derive(Debug, Clone)]
pub(crate) struct Step {
    pub id: String,
    pub operation: OperationRef,
    /// The workflow's parameters, then the step's own (the step's win on the same name and place).
    pub parameters: Vec<Parameter>,
    pub request_body: Option<RequestBody>,
    pub success_criteria: Vec<Criterion>,
    pub on_success: Vec<Action>,
    pub on_failure: Vec<Action>,
    pub outputs: Vec<(String, String)>,
    /// `x-idem: true` (probe this step whatever its operation declares) or `false` (never).
    pub idem_mark: Option<bool>,
    /// `x-idem-expect-webhook`: the webhook each key the step sends must produce.
    pub expect_webhook: Option<ExpectedWebhook>,
}

/// `x-idem-expect-webhook: {event: charge.succeeded, count: 1, within: 5s, scheme: standard,
/// secret: $inputs.webhookSecret}`: every key the step sends (its own request, the race's and the
/// lost answer's) must produce exactly `count` deliveries of `event`, validly signed, within
/// `within` of the step's last request.
#[derive(Debug, Clone)]
pub(crate) struct ExpectedWebhook {
    pub event: String,
    pub count: u32,
    pub within: Duration,
    pub scheme: String,
    /// A literal or a runtime expression (`$inputs.webhookSecret`).
    pub secret: Value,
}

/// Which operation a step calls.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum OperationRef {
    /// `operationId`, optionally qualified: `$sourceDescriptions.NAME.operationId`.
    Id { source: Option<String>, id: String },
    /// `operationPath`: `{$sourceDescriptions.NAME.url}#/paths/~1pets/post`.
    Path { source: String, pointer: String },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ParameterIn {
    Path,
    Query,
    Header,
}

#[derive(Debug, Clone)]
pub(crate) struct Parameter {
    pub name: String,
    pub location: ParameterIn,
    /// A literal, or a string holding a runtime expression.
    pub value: Value,
}

#[derive(Debug, Clone)]
pub(crate) struct RequestBody {
    pub content_type: Option<String>,
    pub payload: Value,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum CriterionKind {
    Simple,
    Regex,
    /// An RFC 9535 JSONPath query on the context: it holds when the query selects a node.
    JsonPath,
}

#[derive(Debug, Clone)]
pub(crate) struct Criterion {
    pub condition: String,
    pub context: Option<String>,
    pub kind: CriterionKind,
}

#[derive(Debug, Clone)]
pub(crate) enum ActionKind {
    End,
    Goto(String),
    /// `retry`: wait, then run the step again, at most `limit` times.
    Retry {
        after: Duration,
        limit: u32,
    },
}

#[derive(Debug, Clone)]
pub(crate) struct Action {
    pub name: String,
    pub kind: ActionKind,
    pub criteria: Vec<Criterion>,
}

impl Arazzo {
    /// Reads a description from a file.
    pub(crate) fn load(path: &std::path::Path) -> anyhow::Result<Arazzo> {
        let shown = path.display();
        let file = std::fs::File::open(path).with_context(|| format!("cannot read the Arazzo description {shown}"))?;
        let size = file.metadata().map(|meta| meta.len()).unwrap_or(0);
        if size > MAX_DOCUMENT_BYTES {
            bail!("the Arazzo description {shown} is larger than 8 MiB, the most idem reads");
        }
        let text = std::fs::read(path).with_context(|| format!("cannot read the Arazzo description {shown}"))?;
        crate::idem::check::openapi::nesting::check(&text).with_context(|| format!("{shown} cannot be read"))?;
        let root = crate::idem::check::openapi::document::parse(&text)
            .with_context(|| format!("{shown} is neither JSON nor YAML"))?;
        Arazzo::from_value(&root).with_context(|| format!("{shown} is not an Arazzo description idem can run"))
    }

    pub(crate) fn from_value(root: &Value) -> anyhow::Result<Arazzo> {
        let root = root.as_object().context("the document is not an object")?;
        let version = match root.get("arazzo") {
            Some(Value::String(version)) => version.clone(),
            Some(other) => bail!("`arazzo` is not a version string: {other}"),
            None if root.contains_key("openapi") => {
                bail!("it is an OpenAPI document; idem run reads an Arazzo workflow (idem check --openapi reads this)")
            }
            None => bail!("it has no `arazzo` field naming its version"),
        };
        if !(version.starts_with("1.0.") || version.starts_with("1.1.")) {
            bail!("it is Arazzo {version}; idem run reads Arazzo 1.0.x and 1.1.x");
        }
        let components = root.get("components").cloned().unwrap_or(Value::Null);
        let sources = array(root, "sourceDescriptions")?
            .iter()
            .enumerate()
            .map(|(i, source)| source_description(source).with_context(|| format!("sourceDescriptions[{i}]")))
            .collect::<anyhow::Result<Vec<_>>>()?;
        if sources.is_empty() {
            bail!("it has no sourceDescriptions: a step needs an OpenAPI document to find its operation");
        }
        let workflows = array(root, "workflows")?
            .iter()
            .enumerate()
            .map(|(i, workflow)| {
                let id = workflow.get("workflowId").and_then(Value::as_str).unwrap_or("?");
                read_workflow(workflow, &components).with_context(|| format!("workflows[{i}] ({id})"))
            })
            .collect::<anyhow::Result<Vec<_>>>()?;
        if workflows.is_empty() {
            bail!("it has no workflows");
        }
        let arazzo = Arazzo { version, sources, workflows };
        arazzo.check_references()?;
        Ok(arazzo)
    }

    pub(crate) fn workflow(&self, id: &str) -> Option<&Workflow> {
        self.workflows.iter().find(|workflow| workflow.id == id)
    }

    /// Every `dependsOn` names a workflow of this document, every `goto` a step of its workflow,
    /// and ids are unique: checked before anything is sent.
    fn check_references(&self) -> anyhow::Result<()> {
        for (i, workflow) in self.workflows.iter().enumerate() {
            if self.workflows[..i].iter().any(|other| other.id == workflow.id) {
                bail!("two workflows have the workflowId `{}`", workflow.id);
            }
            for dependency in &workflow.depends_on {
                if self.workflow(dependency).is_none() {
                    bail!(
                        "workflow `{}` dependsOn `{dependency}`, which is not a workflow of this document",
                        workflow.id
                    );
                }
            }
            for (j, step) in workflow.steps.iter().enumerate() {
                if workflow.steps[..j].iter().any(|other| other.id == step.id) {
                    bail!("workflow `{}` has two steps with the stepId `{}`", workflow.id, step.id);
                }
                let actions = step.on_success.iter().chain(&step.on_failure);
                for action in actions.chain(&workflow.success_actions).chain(&workflow.failure_actions) {
                    if let ActionKind::Goto(target) = &action.kind
                        && !workflow.steps.iter().any(|step| &step.id == target)
                    {
                        bail!(
                            "action `{}` of workflow `{}` goes to step `{target}`, which is not a step of that workflow",
                            action.name,
                            workflow.id
                        );
                    }
                }
            }
        }
        Ok(())
    }
}

fn array<'a>(object: &'a Map<String, Value>, field: &str) -> anyhow::Result<&'a [Value]> {
    match object.get(field) {
        None => Ok(&[]),
        Some(Value::Array(items)) => Ok(items),
        Some(_) => bail!("`{field}` is not a list"),
    }
}

fn object<'a>(value: &'a Value, what: &str) -> anyhow::Result<&'a Map<String, Value>> {
    value.as_object().with_context(|| format!("{what} is not an object"))
}

fn string(object: &Map<String, Value>, field: &str) -> anyhow::Result<Option<String>> {
    match object.get(field) {
        None => Ok(None),
        Some(Value::String(text)) => Ok(Some(text.clone())),
        Some(other) => bail!("`{field}` is not a string: {other}"),
    }
}

fn required(object: &Map<String, Value>, field: &str) -> anyhow::Result<String> {
    string(object, field)?.with_context(|| format!("`{field}` is missing"))
}

/// Refuses the fields `idem run` cannot execute yet, by name.
fn refuse(object: &Map<String, Value>, fields: &[(&str, &str)]) -> anyhow::Result<()> {
    for (field, why) in fields {
        if object.contains_key(*field) {
            bail!("`{field}` {NOT_SUPPORTED}{why}");
        }
    }
    Ok(())
}

fn source_description(value: &Value) -> anyhow::Result<SourceDescription> {
    let source = object(value, "a source description")?;
    let name = required(source, "name")?;
    match string(source, "type")?.as_deref() {
        None | Some("openapi") => {}
        Some(other) => bail!(
            "source `{name}` is of type `{other}`: a source of type `{other}` {NOT_SUPPORTED} (only `openapi` documents)"
        ),
    }
    Ok(SourceDescription { url: required(source, "url")?, name })
}

fn read_workflow(value: &Value, components: &Value) -> anyhow::Result<Workflow> {
    let workflow = object(value, "a workflow")?;
    let id = required(workflow, "workflowId")?;
    let inputs = match workflow.get("inputs") {
        None => None,
        Some(inputs) => Some(follow_inputs_ref(inputs, components)?),
    };
    let depends_on = match workflow.get("dependsOn") {
        None => Vec::new(),
        Some(Value::Array(items)) => items
            .iter()
            .map(|item| match item.as_str() {
                Some(id) if id.starts_with("$sourceDescriptions.") => {
                    bail!("dependsOn `{id}`: a workflow of another description {NOT_SUPPORTED}")
                }
                Some(id) => Ok(id.to_string()),
                None => bail!("dependsOn holds something that is not a workflowId: {item}"),
            })
            .collect::<anyhow::Result<_>>()?,
        Some(_) => bail!("`dependsOn` is not a list"),
    };
    let common = parameters(array(workflow, "parameters")?, components)?;
    let success_actions = actions(array(workflow, "successActions")?, components, "successActions", false)?;
    let failure_actions = actions(array(workflow, "failureActions")?, components, "failureActions", true)?;
    let steps = array(workflow, "steps")?
        .iter()
        .enumerate()
        .map(|(i, step)| {
            let id = step.get("stepId").and_then(Value::as_str).unwrap_or("?");
            read_step(step, &common, components).with_context(|| format!("steps[{i}] ({id})"))
        })
        .collect::<anyhow::Result<Vec<_>>>()?;
    if steps.is_empty() {
        bail!("workflow `{id}` has no steps");
    }
    Ok(Workflow { id, inputs, depends_on, steps, success_actions, failure_actions, outputs: outputs(workflow)? })
}

/// `inputs: {$ref: '#/components/inputs/NAME'}` followed (once; the schema's inner `$ref`s are
/// only read for `required`).
fn follow_inputs_ref(inputs: &Value, components: &Value) -> anyhow::Result<Value> {
    match inputs.get("$ref").and_then(Value::as_str) {
        None => Ok(inputs.clone()),
        Some(reference) => {
            let Some(name) = reference.strip_prefix("#/components/inputs/") else {
                bail!("inputs `$ref: {reference}`: a reference outside #/components/inputs {NOT_SUPPORTED}");
            };
            components
                .pointer(&format!("/inputs/{name}"))
                .cloned()
                .with_context(|| format!("inputs `$ref: {reference}` points at nothing in components.inputs"))
        }
    }
}

fn read_step(value: &Value, common: &[Parameter], components: &Value) -> anyhow::Result<Step> {
    let step = object(value, "a step")?;
    let id = required(step, "stepId")?;
    refuse(
        step,
        &[
            ("workflowId", " (a step that runs another workflow; run that workflow with --workflow)"),
            ("channelPath", " (AsyncAPI channels)"),
            ("action", " (AsyncAPI send and receive)"),
            ("correlationId", " (AsyncAPI messages)"),
            ("timeout", " (a step's timeout; give --timeout)"),
        ],
    )?;
    let operation = match (string(step, "operationId")?, string(step, "operationPath")?) {
        (Some(_), Some(_)) => bail!("step `{id}` has both operationId and operationPath; the specification allows one"),
        (Some(written), None) => operation_id(&written)?,
        (None, Some(written)) => operation_path(&written)?,
        (None, None) => bail!("step `{id}` names no operationId or operationPath"),
    };
    let mut parameters: Vec<Parameter> = common.to_vec();
    for parameter in crate::idem::run::document::parameters(array(step, "parameters")?, components)? {
        parameters.retain(|p| !(p.name == parameter.name && p.location == parameter.location));
        parameters.push(parameter);
    }
    let request_body = match step.get("requestBody") {
        None => None,
        Some(body) => {
            let body = object(body, "requestBody")?;
            refuse(body, &[("replacements", " (use runtime expressions inside the payload)")])?;
            Some(RequestBody {
                content_type: string(body, "contentType")?,
                payload: body.get("payload").cloned().unwrap_or(Value::Null),
            })
        }
    };
    let idem_mark = match step.get("x-idem") {
        None => None,
        Some(Value::Bool(mark)) => Some(*mark),
        Some(other) => bail!("`x-idem` is true or false, not {other}"),
    };
    let expect_webhook = match step.get("x-idem-expect-webhook") {
        None => None,
        Some(value) => Some(expected_webhook(value).context("x-idem-expect-webhook")?),
    };
    Ok(Step {
        expect_webhook,
        id,
        operation,
        parameters,
        request_body,
        success_criteria: criteria(array(step, "successCriteria")?)?,
        on_success: actions(array(step, "onSuccess")?, components, "onSuccess", false)?,
        on_failure: actions(array(step, "onFailure")?, components, "onFailure", true)?,
        outputs: outputs(step)?,
        idem_mark,
    })
}

fn expected_webhook(value: &Value) -> anyhow::Result<ExpectedWebhook> {
    let object = object(value, "x-idem-expect-webhook")?;
    let count = match object.get("count") {
        None => 1,
        Some(value) => {
            value.as_u64().filter(|n| *n <= 1000).context("`count` is not a whole number from 0 to 1000")? as u32
        }
    };
    let within = match string(object, "within")? {
        None => Duration::from_secs(5),
        Some(text) => crate::units::parse_duration(&text)
            .ok()
            .filter(|within| *within <= Duration::from_secs(600))
            .with_context(|| format!("`within: {text}` is not a duration up to 10m (like 5s)"))?,
    };
    Ok(ExpectedWebhook {
        event: required(object, "event")?,
        count,
        within,
        scheme: required(object, "scheme")?,
        secret: object.get("secret").cloned().context("`secret` is missing (a literal or $inputs.NAME)")?,
    })
}

fn operation_id(written: &str) -> anyhow::Result<OperationRef> {
    match written.strip_prefix("$sourceDescriptions.") {
        None => Ok(OperationRef::Id { source: None, id: written.to_string() }),
        Some(qualified) => match qualified.split_once('.') {
            Some((source, id)) if !source.is_empty() && !id.is_empty() => {
                Ok(OperationRef::Id { source: Some(source.to_string()), id: id.to_string() })
            }
            _ => bail!("operationId `{written}` is not $sourceDescriptions.NAME.operationId"),
        },
    }
}

/// `{$sourceDescriptions.NAME.url}#/paths/~1pets/post`.
fn operation_path(written: &str) -> anyhow::Result<OperationRef> {
    let malformed = || format!("operationPath `{written}` is not {{$sourceDescriptions.NAME.url}}#/json/pointer");
    let rest = written.strip_prefix("{$sourceDescriptions.").with_context(malformed)?;
    let (source, pointer) = rest.split_once(".url}#").with_context(malformed)?;
    if source.is_empty() || !pointer.starts_with("/paths/") {
        bail!("{} (pointing into /paths)", malformed());
    }
    Ok(OperationRef::Path { source: source.to_string(), pointer: pointer.to_string() })
}

/// A list of Parameter Objects and Reusable Objects (`reference: $components.parameters.NAME`,
/// with an optional `value` that overrides the component's).
fn parameters(items: &[Value], components: &Value) -> anyhow::Result<Vec<Parameter>> {
    items
        .iter()
        .map(|item| {
            let object = object(item, "a parameter")?;
            if let Some(reference) = string(object, "reference")? {
                let component = component(components, &reference, "parameters")?;
                let mut parameter = parameter(component)?;
                if let Some(value) = object.get("value") {
                    parameter.value = value.clone();
                }
                return Ok(parameter);
            }
            parameter(item)
        })
        .collect()
}

fn component<'a>(components: &'a Value, reference: &str, kind: &str) -> anyhow::Result<&'a Value> {
    let prefix = format!("$components.{kind}.");
    let name =
        reference.strip_prefix(&prefix).with_context(|| format!("reference `{reference}` is not {prefix}NAME"))?;
    components
        .get(kind)
        .and_then(|all| all.get(name))
        .with_context(|| format!("reference `{reference}` names nothing in components.{kind}"))
}

fn parameter(value: &Value) -> anyhow::Result<Parameter> {
    let object = object(value, "a parameter")?;
    let name = required(object, "name")?;
    let location = match string(object, "in")?.as_deref() {
        Some("path") => ParameterIn::Path,
        Some("query") => ParameterIn::Query,
        Some("header") => ParameterIn::Header,
        Some("cookie") => bail!("parameter `{name}` in a cookie {NOT_SUPPORTED} (give the Cookie header with -H)"),
        Some(other) => {
            bail!("parameter `{name}` is `in: {other}`; the specification allows path, query, header or cookie")
        }
        // Without `in` a parameter is a workflow's input, for a step that runs a workflow.
        None => {
            bail!("parameter `{name}` has no `in` (workflow inputs of a step that runs a workflow {NOT_SUPPORTED})")
        }
    };
    let value = object.get("value").cloned().with_context(|| format!("parameter `{name}` has no value"))?;
    Ok(Parameter { name, location, value })
}

fn criteria(items: &[Value]) -> anyhow::Result<Vec<Criterion>> {
    items
        .iter()
        .map(|item| {
            let object = object(item, "a criterion")?;
            let condition = required(object, "condition")?;
            let kind = match object.get("type") {
                None => CriterionKind::Simple,
                Some(Value::String(kind)) => match kind.as_str() {
                    "simple" => CriterionKind::Simple,
                    "regex" => CriterionKind::Regex,
                    // Arazzo 1.0's own example (`$[?count(@.pets) > 0]`) is written in RFC 9535:
                    // `count()` exists in no earlier JSONPath.
                    "jsonpath" => CriterionKind::JsonPath,
                    "xpath" => {
                        bail!("criterion `{condition}`: an `xpath` condition {NOT_SUPPORTED} (simple, regex and jsonpath are)")
                    }
                    other => bail!("criterion `{condition}` has the type `{other}`; the specification allows simple, regex, jsonpath or xpath"),
                },
                Some(Value::Object(expression_type)) => expression_type_kind(&condition, expression_type)?,
                Some(other) => bail!("criterion `{condition}` has the type {other}"),
            };
            let context = string(object, "context")?;
            if kind != CriterionKind::Simple && context.is_none() {
                bail!("criterion `{condition}` has a type but no context; the specification requires one");
            }
            if kind == CriterionKind::JsonPath {
                // Checked here so that a query that does not parse stops the run before anything is sent.
                serde_json_path::JsonPath::parse(&condition).map_err(|error| {
                    anyhow::anyhow!("criterion `{condition}` is not an RFC 9535 JSONPath query: {error}")
                })?;
            }
            Ok(Criterion { condition, context, kind })
        })
        .collect()
}

/// A Criterion Expression Type Object (`{type: jsonpath, version: rfc9535}`): the JSONPath idem
/// evaluates is RFC 9535's; the 2020 draft Arazzo 1.0 names differs from it in filters and
/// functions, so a document asking for it is refused rather than read with other rules.
fn expression_type_kind(condition: &str, expression_type: &Map<String, Value>) -> anyhow::Result<CriterionKind> {
    let kind = required(expression_type, "type")?;
    let version = required(expression_type, "version")?;
    match (kind.as_str(), version.as_str()) {
        ("jsonpath", "rfc9535") => Ok(CriterionKind::JsonPath),
        ("jsonpath", other) => bail!(
            "criterion `{condition}`: JSONPath version `{other}` {NOT_SUPPORTED}; it evaluates RFC 9535 JSONPath (`version: rfc9535`)"
        ),
        ("xpath", _) => {
            bail!("criterion `{condition}`: an `xpath` condition {NOT_SUPPORTED} (simple, regex and jsonpath are)")
        }
        (other, _) => bail!(
            "criterion `{condition}` has the type `{other}`; a Criterion Expression Type Object allows jsonpath or xpath"
        ),
    }
}

fn actions(items: &[Value], components: &Value, field: &str, failure: bool) -> anyhow::Result<Vec<Action>> {
    let kind_of = if failure { "failureActions" } else { "successActions" };
    items
        .iter()
        .map(|item| {
            let object = object(item, "an action")?;
            let action = match string(object, "reference")? {
                Some(reference) => object_of(component(components, &reference, kind_of)?)?,
                None => object,
            };
            let name = required(action, "name")?;
            let kind = match required(action, "type")?.as_str() {
                "end" => ActionKind::End,
                "goto" => {
                    refuse(action, &[("workflowId", " (a goto to another workflow)")])?;
                    ActionKind::Goto(
                        string(action, "stepId")?
                            .with_context(|| format!("{field} `{name}` is a goto without a stepId"))?,
                    )
                }
                "retry" if failure => {
                    refuse(
                        action,
                        &[
                            ("workflowId", " (a retry through another workflow)"),
                            ("stepId", " (a retry through another step)"),
                        ],
                    )?;
                    let after = match action.get("retryAfter") {
                        None => 0.0,
                        Some(value) => {
                            value.as_f64().filter(|seconds| (0.0..=3600.0).contains(seconds)).with_context(|| {
                                format!("{field} `{name}`: retryAfter is not a number of seconds from 0 to 3600")
                            })?
                        }
                    };
                    let limit = match action.get("retryLimit") {
                        None => 1,
                        Some(value) => value.as_u64().filter(|limit| *limit <= 100).with_context(|| {
                            format!("{field} `{name}`: retryLimit is not a whole number from 0 to 100")
                        })? as u32,
                    };
                    ActionKind::Retry { after: Duration::from_secs_f64(after), limit }
                }
                other => bail!(
                    "{field} `{name}` has the type `{other}`; the specification allows {}",
                    if failure { "end, goto or retry" } else { "end or goto" }
                ),
            };
            Ok(Action { name, kind, criteria: criteria(array(action, "criteria")?)? })
        })
        .collect()
}

fn object_of(value: &Value) -> anyhow::Result<&Map<String, Value>> {
    object(value, "a component")
}

fn outputs(object: &Map<String, Value>) -> anyhow::Result<Vec<(String, String)>> {
    match object.get("outputs") {
        None => Ok(Vec::new()),
        Some(Value::Object(outputs)) => outputs
            .iter()
            .map(|(name, value)| match value.as_str() {
                Some(expression) => Ok((name.clone(), expression.to_string())),
                None => bail!("output `{name}` is not a runtime expression: {value}"),
            })
            .collect(),
        Some(_) => bail!("`outputs` is not a map"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parsed(yaml: &str) -> anyhow::Result<Arazzo> {
        let root = crate::idem::check::openapi::document::parse(yaml.as_bytes()).unwrap();
        Arazzo::from_value(&root)
    }

    const HEAD: &str = "arazzo: 1.0.1\ninfo: {title: t, version: '1'}\nsourceDescriptions: [{name: api, url: ./api.yaml, type: openapi}]\n";

    #[test]
    fn a_step_that_runs_another_workflow_is_refused_by_name() {
        let doc = format!("{HEAD}workflows:\n- workflowId: w\n  steps:\n  - stepId: s\n    workflowId: other\n");
        let err = format!("{:#}", parsed(&doc).unwrap_err());
        assert!(err.contains("`workflowId` is not supported yet by idem run"), "{err}");
    }

    fn criterion_error(criterion: &str) -> String {
        let doc = format!(
            "{HEAD}workflows:\n- workflowId: w\n  steps:\n  - stepId: s\n    operationId: op\n    successCriteria:\n    - {criterion}\n"
        );
        parsed(&doc).map(|_| String::new()).unwrap_or_else(|err| format!("{err:#}"))
    }

    #[test]
    fn jsonpath_criteria_are_read_as_rfc_9535_and_the_2020_draft_is_refused_by_name() {
        assert_eq!(criterion_error("{context: $response.body, type: jsonpath, condition: '$[?count(@.a) > 0]'}"), "");
        assert_eq!(
            criterion_error(
                "{context: $response.body, type: {type: jsonpath, version: rfc9535}, condition: '$[?length(@.a) > 0]'}"
            ),
            ""
        );
        let draft = criterion_error(
            "{context: $response.body, type: {type: jsonpath, version: draft-goessner-dispatch-jsonpath-00}, condition: '$.a'}",
        );
        assert!(
            draft.contains("JSONPath version `draft-goessner-dispatch-jsonpath-00` is not supported yet"),
            "{draft}"
        );
        assert!(draft.contains("RFC 9535"), "{draft}");
        let broken = criterion_error("{context: $response.body, type: jsonpath, condition: '$[?count(@.a) >'}");
        assert!(broken.contains("is not an RFC 9535 JSONPath query"), "{broken}");
        let no_context = criterion_error("{type: jsonpath, condition: '$.a'}");
        assert!(no_context.contains("no context"), "{no_context}");
        let xpath =
            criterion_error("{context: $response.body, type: {type: xpath, version: xpath-30}, condition: '/a'}");
        assert!(xpath.contains("an `xpath` condition is not supported yet"), "{xpath}");
    }

    #[test]
    fn operation_paths_and_qualified_ids_name_their_source() {
        let doc = format!(
            "{HEAD}workflows:\n- workflowId: w\n  steps:\n  - stepId: a\n    operationId: $sourceDescriptions.api.createThing\n  - stepId: b\n    operationPath: '{{$sourceDescriptions.api.url}}#/paths/~1things/post'\n"
        );
        let arazzo = parsed(&doc).unwrap();
        let steps = &arazzo.workflows[0].steps;
        assert_eq!(steps[0].operation, OperationRef::Id { source: Some("api".into()), id: "createThing".into() });
        assert_eq!(
            steps[1].operation,
            OperationRef::Path { source: "api".into(), pointer: "/paths/~1things/post".into() }
        );
    }

    #[test]
    fn a_goto_to_no_step_is_refused_before_anything_runs() {
        let doc = format!(
            "{HEAD}workflows:\n- workflowId: w\n  steps:\n  - stepId: a\n    operationId: op\n    onSuccess: [{{name: on, type: goto, stepId: nowhere}}]\n"
        );
        let err = format!("{:#}", parsed(&doc).unwrap_err());
        assert!(err.contains("goes to step `nowhere`"), "{err}");
    }

    #[test]
    fn reusable_parameters_take_the_components_and_their_overriding_value() {
        let doc = format!(
            "{HEAD}workflows:\n- workflowId: w\n  steps:\n  - stepId: a\n    operationId: op\n    parameters:\n    - {{reference: $components.parameters.page, value: 3}}\ncomponents:\n  parameters:\n    page: {{name: page, in: query, value: 1}}\n"
        );
        let arazzo = parsed(&doc).unwrap();
        let parameter = &arazzo.workflows[0].steps[0].parameters[0];
        assert_eq!(
            (parameter.name.as_str(), parameter.location, &parameter.value),
            ("page", ParameterIn::Query, &Value::from(3))
        );
    }
}
