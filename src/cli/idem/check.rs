//! `idem check`: its flags, and what they become (one endpoint, the catalogue, or a whole
//! OpenAPI document).
use std::time::Duration;

use anyhow::Context;

use crate::cli::count_args::{CountArgs, RequireCountArgs};
use crate::cli::request_args::RequestArgs;
use crate::cli::suite_args::SuiteArgs;
use crate::conformance::SuiteFormat;
use crate::http::url::parse_target_url;
use crate::idem::check::openapi::OpenApiConfig;
use crate::idem::check::openapi::plan::OperationSelection;
use crate::idem::check::{self, CheckConfig, Profile};
use crate::idem::key_carrier::KeyCarrier;
use crate::idem::request::{DEFAULT_ID_FIELD, DEFAULT_KEY_HEADER};
use crate::output::{ColorChoice, Palette};

use super::{AlsoArgs, OpenApiArgs, with_count};

#[derive(Debug, clap::Args)]
#[command(mut_arg("proxy", |arg| arg.help("Send the plain requests through this proxy (http://, https:// or socks5h://; \
overrides HTTPS_PROXY, HTTP_PROXY and ALL_PROXY; '' for none); concurrent-once and race-window connect directly, \
as idem race does")))]
#[command(mut_arg("url", |arg| arg.required(false).required_unless_present_any(["list", "openapi"])))]
#[command(mut_arg("data", |arg| arg.conflicts_with("openapi")))]
#[command(mut_arg("method", |arg| arg.conflicts_with("openapi")))]
pub struct CheckArgs {
    #[command(flatten)]
    pub request: RequestArgs,

    #[command(flatten)]
    pub count: CountArgs,

    #[command(flatten)]
    pub require_count: RequireCountArgs,

    /// How many concurrent duplicates the concurrency check sends (at most 1000)
    #[arg(short = 'n', long = "concurrency", default_value_t = 20, value_parser = clap::value_parser!(u32).range(2..=1000))]
    pub concurrency: u32,

    /// The endpoint must refuse a request without a key with 400
    #[arg(long)]
    pub require_key: bool,

    /// When concurrent-once fails, measure the race window (advisory `race-window`) up to this spacing; 0 skips it (at most 1m)
    #[arg(long, default_value = "1s", value_parser = crate::cli::duration_at_most(crate::cli::MINUTE), allow_hyphen_values = true, value_name = "DUR")]
    pub window_max: Duration,

    #[command(flatten)]
    pub targets: AlsoArgs,

    /// The contract to judge against: the key header and length, the statuses for a missing key, a
    /// changed body and work in flight, the replay marker, which stored answers are replayed
    /// (`--list --profile P` shows what each check requires under it) [default: ietf]
    #[arg(long, value_enum)]
    pub profile: Option<Profile>,

    /// A header of a second caller, 'Authorization: Bearer other' (repeatable), for caller-scoped
    #[arg(long = "as", value_name = "HEADER", help_heading = "Scope")]
    pub other_caller: Vec<String>,

    /// Another endpoint that accepts the same body, for path-scoped
    #[arg(long, value_name = "URL2", help_heading = "Scope")]
    pub other_url: Option<String>,

    /// How long one request takes on the server, so the in-flight checks retry late in the work (at most 1h)
    #[arg(long, value_parser = crate::cli::duration_at_most(crate::cli::HOUR), allow_hyphen_values = true, value_name = "DUR", help_heading = "Locks")]
    pub work_hint: Option<Duration>,

    /// The latest retry of lease-outlives-work while the first request still runs (at most 1h)
    #[arg(long, default_value = "30s", value_parser = crate::cli::duration_at_most(crate::cli::HOUR), allow_hyphen_values = true, value_name = "DUR", help_heading = "Locks")]
    pub max_work: Duration,

    /// The command (run by sh -c) that starts the server under test on the URL's port, for crash-recovers
    #[arg(long, value_name = "CMD", help_heading = "Locks")]
    pub server_cmd: Option<String>,

    /// How long crash-recovers retries after the restart before it calls the key stuck (at most 1h)
    #[arg(long, default_value = "30s", value_parser = crate::cli::duration_at_most(crate::cli::HOUR), allow_hyphen_values = true, value_name = "DUR", help_heading = "Locks")]
    pub stuck_for: Duration,

    /// How long the server keeps a key's record (or its lease): expired-key-taken-once waits it out, then races duplicates with the expired key (at most 1h)
    #[arg(long, value_parser = crate::cli::duration_at_most(crate::cli::HOUR), allow_hyphen_values = true, value_name = "DUR", help_heading = "Locks")]
    pub retention: Option<Duration>,

    #[arg(long, value_enum, default_value_t = SuiteFormat::Human)]
    pub format: SuiteFormat,

    /// Print what a run would send (operations, URLs, bodies, the checks' requests, the resources
    /// a correct API creates) and send nothing
    #[arg(long)]
    pub plan: bool,

    #[command(flatten)]
    pub suite: SuiteArgs,

    #[command(flatten)]
    pub openapi: OpenApiArgs,
}

/// What `idem check` was asked to do.
pub(crate) enum CheckCommand {
    /// `--list`: print the catalogue in this format, under `--profile` when one was given.
    List(SuiteFormat, Option<Profile>),
    /// The suite against one endpoint.
    Endpoint(Box<CheckConfig>),
    /// `--openapi SPEC`: the suite against every chosen operation.
    OpenApi(Box<OpenApiConfig>),
}

impl CheckArgs {
    pub(crate) fn into_config(self, color: ColorChoice) -> anyhow::Result<CheckCommand> {
        let mut args = self;
        if args.suite.list {
            return Ok(CheckCommand::List(args.format, args.profile));
        }
        let profile = args.profile.unwrap_or_default();
        // Where the user put the key, if they did: then the document is read for that place only.
        let user_carrier = match &args.request.key_in {
            Some(text) => Some(KeyCarrier::parse(text)?.0),
            None => args.request.key_header.is_some().then_some(KeyCarrier::Header),
        };
        // The profile's header (PayPal-Request-Id, Cko-Idempotency-Key, X-GCS-Idempotence-Key)
        // unless the user named where the key goes.
        if args.request.key_in.is_none() && args.request.key_header.is_none() {
            args.request.key_header = Some(profile.rules().key.header.clone());
        }
        let selection = args.suite.selection("idem check", check::CHECKS)?;
        let openapi_args = args.openapi;
        let id_field_given = args.request.id_field != DEFAULT_ID_FIELD;
        // As the user wrote it, for the OpenAPI plan's messages.
        let key_header = (args.request.key_in.as_deref().and_then(|text| text.strip_prefix("header:")))
            .or(args.request.key_header.as_deref())
            .unwrap_or(DEFAULT_KEY_HEADER)
            .to_string();
        let request = with_count(args.request.into_spec()?, args.count, args.require_count)?;
        let also = args.targets.urls(&request)?;
        let config = CheckConfig {
            request,
            also,
            concurrency: args.concurrency as usize,
            require_key: args.require_key,
            window_max: Some(args.window_max).filter(|max| !max.is_zero()),
            selection,
            format: args.format,
            palette: Palette::for_stdout(color),
            profile,
            other_caller: args
                .other_caller
                .iter()
                .map(|line| crate::http::header::parse_header_line(line).context("--as"))
                .collect::<anyhow::Result<_>>()?,
            other_url: args.other_url.as_deref().map(|text| parse_target_url(text, "--other-url")).transpose()?,
            work_hint: args.work_hint,
            max_work: args.max_work,
            server_cmd: args.server_cmd.filter(|command| !command.trim().is_empty()),
            stuck_for: args.stuck_for,
            retention: args.retention,
            plan: args.plan,
        };
        let Some(spec) = openapi_args.openapi.clone() else { return Ok(CheckCommand::Endpoint(Box::new(config))) };
        if config.request.ledgers.len() > 1 {
            // Each operation has its own count there (x-idem-count-url, --count-url-template);
            // several global ledgers would apply to none of them clearly.
            anyhow::bail!(
                "idem check --openapi reads one --count-url (each operation may have its own), and {} were given; \
                 several ledgers are read by idem check on one endpoint",
                config.request.ledgers.len()
            );
        }
        let operations = OperationSelection {
            filters: openapi_args.filters()?,
            include_deprecated: openapi_args.include_deprecated,
            all_unsafe: openapi_args.all_unsafe,
            key_header,
            user_carrier,
            params: openapi_args.params()?,
            given_headers: config.request.headers.keys().cloned().collect(),
            id_field: id_field_given.then(|| config.request.id_field.clone()),
        };
        Ok(CheckCommand::OpenApi(Box::new(OpenApiConfig {
            spec,
            base_url: openapi_args.base_url,
            allow_remote: openapi_args.allow_remote,
            selection: operations,
            max_operations: openapi_args.max_operations.map(|max| max as usize),
            count_url_template: match openapi_args.count_url_template {
                Some(template) => {
                    crate::idem::check::openapi::count::check_template(&template)?;
                    Some(template)
                }
                None => None,
            },
            concurrency: openapi_args.concurrent_operations as usize,
            format: config.format,
            palette: config.palette,
            check: config,
        })))
    }
}
