//! `idem run WORKFLOW`: its flags, and the plain `RunConfig` they become.
use std::path::PathBuf;
use std::time::Duration;

use anyhow::{Context, bail};
use http::Method;

use crate::cli::count_args::CountArgs;
use crate::http::header::parse_header_line;
use crate::idem::check::Profile;
use crate::idem::check::step::StepProbe;
use crate::idem::request::RequestSpec;
use crate::idem::run::report::RunFormat;
use crate::idem::run::{RunConfig, input_value, inputs_file};
use crate::output::{ColorChoice, Palette};

#[derive(Debug, clap::Args)]
pub struct RunArgs {
    /// The Arazzo 1.0.x or 1.1.x description (YAML or JSON); its sourceDescriptions are read
    /// relative to it
    #[arg(value_name = "WORKFLOW")]
    pub workflow_file: PathBuf,

    /// Where the API is: replaces the servers of every source document (a document's server that
    /// is not this machine is refused without it)
    #[arg(long, value_name = "URL")]
    pub base_url: Option<String>,

    /// Read this source description from PATH or URL instead of its `url` (repeatable; a URL in
    /// the description itself is read only when given here)
    #[arg(long = "source", value_name = "NAME=LOCATION")]
    pub sources: Vec<String>,

    /// A workflow input, NAME=VALUE (repeatable); VALUE is JSON when it parses (500, true,
    /// {"a":1}), else text
    #[arg(long = "input", value_name = "NAME=VALUE")]
    pub inputs: Vec<String>,

    /// A JSON or YAML object of workflow inputs (--input wins on the same name)
    #[arg(long = "inputs", value_name = "FILE")]
    pub inputs_file: Option<String>,

    /// Run only this workflow (and the workflows it dependsOn)
    #[arg(long = "workflow", value_name = "ID")]
    pub workflow: Option<String>,

    /// The probes of every keyed step, comma-separated [default: all that apply]
    #[arg(long, value_enum, value_delimiter = ',', value_name = "PROBES")]
    pub probes: Vec<StepProbe>,

    /// How many concurrent duplicates the race probe sends (at most 1000)
    #[arg(short = 'n', long = "concurrency", default_value_t = 10, value_parser = clap::value_parser!(u32).range(2..=1000))]
    pub concurrency: u32,

    /// The contract the probes are judged against (see idem check --profile) [default: ietf]
    #[arg(long, value_enum)]
    pub profile: Option<Profile>,

    /// A header for every step's request, 'Name: value' (repeatable): auth, tenant
    #[arg(short = 'H', long = "header", value_name = "HEADER", help_heading = "Request")]
    pub headers: Vec<String>,

    /// JSON pointer to the created resource's id in a keyed step's answer
    #[arg(long, default_value = crate::idem::request::DEFAULT_ID_FIELD, value_name = "POINTER", help_heading = "Request")]
    pub id_field: String,

    /// Give up on an answer after this long (at most 1h)
    #[arg(long, default_value = "30s", value_parser = crate::cli::duration_at_most(crate::cli::HOUR), allow_hyphen_values = true,
          value_name = "DUR", help_heading = "Request")]
    pub timeout: Duration,

    /// Accept any TLS certificate (self-signed, expired, wrong host)
    #[arg(short = 'k', long, help_heading = "Request")]
    pub insecure: bool,

    /// Send at most this many requests (count reads not counted): the run stops before the
    /// request that would exceed it, with exit status 2
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..), help_heading = "Request")]
    pub max_requests: Option<u64>,

    #[command(flatten)]
    pub count: CountArgs,

    /// Receive the webhooks steps expect (x-idem-expect-webhook) on ADDR (127.0.0.1:9000), where
    /// the API under test delivers them: an embedded webhook listen verifies and counts them
    #[arg(long, value_name = "ADDR")]
    pub listen: Option<String>,

    /// Print each workflow's steps, their operations, probes and an estimate of requests and
    /// resources created, and send nothing
    #[arg(long)]
    pub plan: bool,

    #[arg(long, value_enum, default_value_t = RunFormat::Human)]
    pub format: RunFormat,
}

impl RunArgs {
    pub(crate) fn into_config(self, color: ColorChoice) -> anyhow::Result<RunConfig> {
        let listen = self.listen.as_deref().map(crate::expected_webhooks::listen_addr).transpose()?;
        let mut template = RequestSpec::new(Method::POST, "http://127.0.0.1/", Vec::new())?;
        template.headers.clear();
        for line in &self.headers {
            let (name, value) = parse_header_line(line)?;
            template.headers.append(name, value);
        }
        if self.timeout.is_zero() {
            bail!("--timeout must be longer than 0 (it is how long to wait for each answer)");
        }
        if !self.id_field.starts_with('/') {
            bail!("--id-field `{}` is not a JSON pointer; write it like /id or /data/id", self.id_field);
        }
        template.timeout = self.timeout;
        template.insecure = self.insecure;
        template.id_field = self.id_field;
        template.budget = crate::http::budget::RequestBudget::at_most(self.max_requests);
        template.ledgers = self.count.into_ledgers(&template.headers, template.timeout, template.insecure)?;
        let mut inputs = match &self.inputs_file {
            Some(path) => inputs_file(path)?,
            None => serde_json::Map::new(),
        };
        for input in &self.inputs {
            let (name, value) = name_value(input, "--input")?;
            inputs.insert(name, input_value(&value));
        }
        let sources =
            self.sources.iter().map(|source| name_value(source, "--source")).collect::<anyhow::Result<Vec<_>>>()?;
        let mut probes = Vec::new();
        for probe in if self.probes.is_empty() { StepProbe::ALL.to_vec() } else { self.probes } {
            if !probes.contains(&probe) {
                probes.push(probe);
            }
        }
        Ok(RunConfig {
            workflow_file: self.workflow_file,
            base_url: self.base_url,
            sources,
            inputs,
            workflow: self.workflow,
            probes,
            concurrency: self.concurrency as usize,
            template,
            profile: self.profile.unwrap_or_default(),
            listen,
            plan: self.plan,
            format: self.format,
            palette: Palette::for_stdout(color),
        })
    }
}

fn name_value(text: &str, flag: &str) -> anyhow::Result<(String, String)> {
    match text.split_once('=') {
        Some((name, value)) if !name.is_empty() => Ok((name.to_string(), value.to_string())),
        _ => Err(anyhow::anyhow!("{flag} `{text}` is not NAME=VALUE")).context("bad usage"),
    }
}
