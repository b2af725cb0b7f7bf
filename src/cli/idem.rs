//! `idem`: clap definitions and their translation into the engine's config structs.
use std::net::SocketAddr;
use std::time::Duration;

use anyhow::{Context, bail};
use clap::{CommandFactory, Parser, Subcommand};
use clap_complete::Shell;

use crate::cli::block_on;
use crate::cli::count_args::CountArgs;
use crate::cli::request_args::RequestArgs;
use crate::cli::suite_args::{SuiteArgs, print_list};
use crate::conformance::SuiteFormat;
use crate::demo::{self, DemoConfig};
use crate::exit::Outcome;
use crate::http::server::Timeouts;
use crate::http::url::parse_url;
use crate::idem::check::openapi::plan::{Filter, FilterOn, OperationSelection, Pattern, filter_name};
use crate::idem::check::openapi::{self, OpenApiConfig};
use crate::idem::check::{self, CheckConfig, Profile};
use crate::idem::proxy::fault::{Fault, MatchPattern, Matcher, Selection};
use crate::idem::proxy::{self, ProxyConfig};
use crate::idem::race::report::RoundDetail;
use crate::idem::race::{self, KeyMode, RaceConfig, SyncMode};
use crate::idem::request::{DEFAULT_ID_FIELD, DEFAULT_KEY_HEADER, RequestSpec};
use crate::idem::send::{self, SendConfig};
use crate::idem::send_retry::{RetryOn, SendRetry};
use crate::idem::serve::{self, Mode, ServeConfig, StoreLocation};
use crate::idem::window::{self, WindowConfig};
use crate::output::{ColorChoice, Format, Palette};
use crate::retry::RetryPolicy;
use http::HeaderName;

/// Test how an HTTP API handles the Idempotency-Key header: does a retried POST execute once?
#[derive(Debug, Parser)]
#[command(name = "idem", version, propagate_version = true)]
pub struct IdemCli {
    /// When to color the output
    #[arg(long, global = true, value_enum, default_value_t = ColorChoice::Auto, env = "IDEM_COLOR")]
    pub color: ColorChoice,

    #[command(subcommand)]
    pub command: IdemCommand,
}

#[derive(Debug, Subcommand)]
pub enum IdemCommand {
    /// Send a request with an idempotency key, optionally repeated, and judge the answers
    Send(SendArgs),
    /// Fire synchronised concurrent duplicates (one key) to expose race conditions
    Race(RaceArgs),
    /// Measure how far apart two duplicates (one key) can arrive and both still execute
    Window(WindowArgs),
    /// Run an Idempotency-Key conformance suite against an endpoint (exit 0 when every required check passes)
    Check(Box<CheckArgs>),
    /// Run a reference payments API that handles Idempotency-Key (correctly, or broken on purpose)
    Serve(ServeArgs),
    /// Stand between a client and its API, lose answers on purpose, and judge how the client retries
    Proxy(Box<ProxyArgs>),
    /// Tell the whole story on this machine: reference servers, retries, verdicts
    Demo,
    /// Print a shell completion script
    Completions {
        #[arg(value_enum)]
        shell: Shell,
    },
}

#[derive(Debug, clap::Args)]
pub struct SendArgs {
    #[command(flatten)]
    pub request: RequestArgs,

    #[command(flatten)]
    pub count: CountArgs,

    /// Send the same request this many times with the same key, then judge the answers (at most 10000)
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=10_000))]
    pub repeat: u32,

    /// Wait this long between repeats (at most 1h)
    #[arg(long, default_value = "0", value_parser = crate::cli::duration_at_most(crate::cli::HOUR), allow_hyphen_values = true, value_name = "DUR")]
    pub interval: Duration,

    #[command(flatten)]
    pub retry: SendRetryArgs,

    /// Insist that -d is JSON: refuse (exit 2) a body that does not parse, instead of sending it as text/plain
    #[arg(long, help_heading = "Request")]
    pub json: bool,

    #[arg(long, value_enum, default_value_t = Format::Human)]
    pub format: Format,
}

/// What `idem send` says before sending a request that is probably not what was meant: a POST
/// with no body, a -d that is not JSON. An error when --json insists on JSON.
fn send_notes(spec: &RequestSpec, insist_on_json: bool) -> anyhow::Result<Vec<String>> {
    let mut notes = Vec::new();
    let method = &spec.method;
    if spec.body.is_empty() {
        if insist_on_json {
            bail!("--json insists on a JSON body, and there is none: give one with -d");
        }
        if matches!(*method, http::Method::POST | http::Method::PUT | http::Method::PATCH) {
            notes
                .push(format!("this {method} has no body; give one with -d '{{\"amount\":1990}}' or -d @payment.json"));
        }
        return Ok(notes);
    }
    if let Err(err) = serde_json::from_slice::<serde::de::IgnoredAny>(&spec.body) {
        if insist_on_json {
            bail!(
                "-d is not JSON ({err}), and --json insists on JSON: fix the body (keys and strings in double quotes)"
            );
        }
        let content_type = spec.headers.get(http::header::CONTENT_TYPE).and_then(|v| v.to_str().ok()).unwrap_or("none");
        notes.push(format!(
            "-d is not JSON ({err}), so it is sent as Content-Type: {content_type}; write keys and strings in double \
             quotes, or pass --json to refuse a body that does not parse"
        ));
    }
    Ok(notes)
}

#[derive(Debug, clap::Args)]
#[command(after_help = "Connects directly, never through a proxy: a proxy would serialise the duplicates. \
--proxy is refused, and HTTPS_PROXY, HTTP_PROXY and ALL_PROXY are ignored.")]
#[command(mut_arg("proxy", |arg| arg.help("Refused: idem race connects directly (a proxy would serialise the duplicates)")))]
#[command(mut_arg("noproxy", |arg| arg.help("No effect: idem race reaches every host directly")))]
pub struct RaceArgs {
    #[command(flatten)]
    pub request: RequestArgs,

    #[command(flatten)]
    pub count: CountArgs,

    /// Duplicates per round (at most 1000)
    #[arg(short = 'n', long = "requests", default_value_t = 20, value_parser = clap::value_parser!(u32).range(1..=1_000))]
    pub n: u32,

    /// Rounds to run, each with a fresh key (at most 100000)
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=100_000))]
    pub rounds: u32,

    /// Which round of several to print in full: worst (most executions, then most 2xx answers),
    /// first, last, or a round number
    #[arg(long, default_value = "worst", value_parser = RoundDetail::parse, value_name = "ROUND")]
    pub detail: RoundDetail,

    /// How the duplicates are made to arrive together
    #[arg(long, value_enum, default_value_t = SyncMode::Auto)]
    pub sync: SyncMode,

    /// Give every duplicate its own key (a control: each should execute)
    #[arg(long, conflicts_with_all = ["key", "no_key"])]
    pub distinct_keys: bool,

    /// Release the duplicates this far apart, in order (#1, #2 DUR later, …), instead of together (at most 10s)
    #[arg(long, value_parser = crate::cli::duration_at_most(crate::cli::SECOND * 10), allow_hyphen_values = true, value_name = "DUR")]
    pub stagger: Option<Duration>,

    #[command(flatten)]
    pub targets: AlsoArgs,

    #[arg(long, value_enum, default_value_t = Format::Human)]
    pub format: Format,
}

#[derive(Debug, clap::Args)]
#[command(after_help = "Connects directly, never through a proxy: a proxy would serialise the duplicates. \
--proxy is refused, and HTTPS_PROXY, HTTP_PROXY and ALL_PROXY are ignored.")]
#[command(mut_arg("proxy", |arg| arg.help("Refused: idem window connects directly (a proxy would serialise the duplicates)")))]
#[command(mut_arg("noproxy", |arg| arg.help("No effect: idem window reaches every host directly")))]
pub struct WindowArgs {
    #[command(flatten)]
    pub request: RequestArgs,

    #[command(flatten)]
    pub count: CountArgs,

    /// The widest spacing probed (at most 1m)
    #[arg(long, default_value = "2s", value_parser = crate::cli::duration_at_most(crate::cli::MINUTE), allow_hyphen_values = true, value_name = "DUR")]
    pub max: Duration,

    /// Pairs per spacing; a spacing executed twice if any pair did (at most 100)
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u32).range(1..=100))]
    pub probes: u32,

    #[arg(long, value_enum, default_value_t = Format::Human)]
    pub format: Format,
}

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

    /// Which reading decides the disputed verdicts (mismatch status, replay marker, stored errors)
    #[arg(long, value_enum, default_value_t = Profile::Ietf)]
    pub profile: Profile,

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

    #[arg(long, value_enum, default_value_t = SuiteFormat::Human)]
    pub format: SuiteFormat,

    #[command(flatten)]
    pub suite: SuiteArgs,

    #[command(flatten)]
    pub openapi: OpenApiArgs,
}

/// `idem check --openapi SPEC`: every operation of a whole API instead of one URL. The filters
/// speak Schemathesis' vocabulary: includes of one kind are alternatives, kinds combine, and an
/// exclude removes.
#[derive(Debug, clap::Args)]
#[command(next_help_heading = "OpenAPI")]
pub struct OpenApiArgs {
    /// Test every operation of this OpenAPI 3.0/3.1 document (a file or an http(s) URL, JSON or
    /// YAML) that declares the key header, instead of one URL
    #[arg(long, value_name = "SPEC", conflicts_with_all = ["also", "other_url", "server_cmd"])]
    pub openapi: Option<String>,

    /// Where the API is [default: the spec's first server, else the origin it was fetched from]
    #[arg(long, value_name = "URL", requires = "openapi")]
    pub base_url: Option<String>,

    /// Test only operations with this path template, e.g. /payments/{id} (repeatable)
    #[arg(long, value_name = "PATH", requires = "openapi")]
    pub include_path: Vec<String>,
    /// Test only operations whose path matches this regular expression (repeatable)
    #[arg(long, value_name = "REGEX", requires = "openapi")]
    pub include_path_regex: Vec<String>,
    /// Skip operations with this path template (repeatable)
    #[arg(long, value_name = "PATH", requires = "openapi")]
    pub exclude_path: Vec<String>,
    /// Skip operations whose path matches this regular expression (repeatable)
    #[arg(long, value_name = "REGEX", requires = "openapi")]
    pub exclude_path_regex: Vec<String>,
    /// Test only operations with this method (repeatable)
    #[arg(long, value_name = "METHOD", requires = "openapi")]
    pub include_method: Vec<String>,
    /// Test only operations whose method matches this regular expression (repeatable)
    #[arg(long, value_name = "REGEX", requires = "openapi")]
    pub include_method_regex: Vec<String>,
    /// Skip operations with this method (repeatable)
    #[arg(long, value_name = "METHOD", requires = "openapi")]
    pub exclude_method: Vec<String>,
    /// Skip operations whose method matches this regular expression (repeatable)
    #[arg(long, value_name = "REGEX", requires = "openapi")]
    pub exclude_method_regex: Vec<String>,
    /// Test only the operation with this operationId (repeatable)
    #[arg(long, value_name = "ID", requires = "openapi")]
    pub include_operation_id: Vec<String>,
    /// Test only operations whose operationId matches this regular expression (repeatable)
    #[arg(long, value_name = "REGEX", requires = "openapi")]
    pub include_operation_id_regex: Vec<String>,
    /// Skip the operation with this operationId (repeatable)
    #[arg(long, value_name = "ID", requires = "openapi")]
    pub exclude_operation_id: Vec<String>,
    /// Skip operations whose operationId matches this regular expression (repeatable)
    #[arg(long, value_name = "REGEX", requires = "openapi")]
    pub exclude_operation_id_regex: Vec<String>,
    /// Test only operations with this tag (repeatable)
    #[arg(long, value_name = "TAG", requires = "openapi")]
    pub include_tag: Vec<String>,
    /// Test only operations with a tag matching this regular expression (repeatable)
    #[arg(long, value_name = "REGEX", requires = "openapi")]
    pub include_tag_regex: Vec<String>,
    /// Skip operations with this tag (repeatable)
    #[arg(long, value_name = "TAG", requires = "openapi")]
    pub exclude_tag: Vec<String>,
    /// Skip operations with a tag matching this regular expression (repeatable)
    #[arg(long, value_name = "REGEX", requires = "openapi")]
    pub exclude_tag_regex: Vec<String>,

    /// Test deprecated operations too
    #[arg(long, requires = "openapi")]
    pub include_deprecated: bool,

    /// Also test every POST and PATCH that does not declare the key header
    #[arg(long, requires = "openapi")]
    pub all_unsafe: bool,

    /// A path, query or header parameter's value, name=value (repeatable); wins over the spec's examples
    #[arg(long = "param", value_name = "NAME=VALUE", requires = "openapi")]
    pub params: Vec<String>,

    /// Test at most this many operations (the rest are listed as skipped)
    #[arg(long, value_name = "N", requires = "openapi", value_parser = clap::value_parser!(u32).range(1..=100_000))]
    pub max_operations: Option<u32>,

    /// How many operations are checked at the same time (1: one operation's checks never overlap another's) (at most 64)
    #[arg(long, value_name = "N", default_value_t = 1, requires = "openapi", value_parser = clap::value_parser!(u32).range(1..=64))]
    pub concurrent_operations: u32,
}

impl OpenApiArgs {
    fn filters(&self) -> anyhow::Result<Vec<Filter>> {
        let mut filters = Vec::new();
        let lists: [(FilterOn, bool, bool, &Vec<String>); 16] = [
            (FilterOn::Path, true, false, &self.include_path),
            (FilterOn::Path, true, true, &self.include_path_regex),
            (FilterOn::Path, false, false, &self.exclude_path),
            (FilterOn::Path, false, true, &self.exclude_path_regex),
            (FilterOn::Method, true, false, &self.include_method),
            (FilterOn::Method, true, true, &self.include_method_regex),
            (FilterOn::Method, false, false, &self.exclude_method),
            (FilterOn::Method, false, true, &self.exclude_method_regex),
            (FilterOn::OperationId, true, false, &self.include_operation_id),
            (FilterOn::OperationId, true, true, &self.include_operation_id_regex),
            (FilterOn::OperationId, false, false, &self.exclude_operation_id),
            (FilterOn::OperationId, false, true, &self.exclude_operation_id_regex),
            (FilterOn::Tag, true, false, &self.include_tag),
            (FilterOn::Tag, true, true, &self.include_tag_regex),
            (FilterOn::Tag, false, false, &self.exclude_tag),
            (FilterOn::Tag, false, true, &self.exclude_tag_regex),
        ];
        for (on, include, is_regex, values) in lists {
            for value in values {
                let pattern = if is_regex {
                    let flag = format!("--{}-{}-regex", if include { "include" } else { "exclude" }, filter_name(on));
                    Pattern::Regex(
                        regex::Regex::new(value)
                            .with_context(|| format!("{flag} `{value}` is not a regular expression"))?,
                    )
                } else {
                    Pattern::Exact(value.clone())
                };
                filters.push(Filter { on, include, pattern });
            }
        }
        Ok(filters)
    }

    fn params(&self) -> anyhow::Result<Vec<(String, String)>> {
        self.params
            .iter()
            .map(|param| match param.split_once('=') {
                Some((name, value)) if !name.is_empty() => Ok((name.to_string(), value.to_string())),
                _ => bail!("--param `{param}` is not NAME=VALUE"),
            })
            .collect()
    }
}

/// More instances of the same API, as a load balancer would spread requests over them.
#[derive(Debug, clap::Args)]
pub struct AlsoArgs {
    /// Another instance of the same endpoint (repeatable): duplicates are spread round-robin over all targets
    #[arg(long = "also", value_name = "URL")]
    pub also: Vec<String>,
}

impl AlsoArgs {
    /// The `--also` URLs, each on the primary URL's scheme (the synchronisation is chosen once
    /// for every target).
    pub fn urls(&self, primary: &RequestSpec) -> anyhow::Result<Vec<http::Uri>> {
        self.also
            .iter()
            .map(|text| {
                let url = parse_url(text).with_context(|| format!("--also {text}"))?;
                if url.scheme_str() != primary.url.scheme_str() {
                    bail!(
                        "--also {url} uses another scheme than {}; every target must be http:// or every one https://",
                        primary.url
                    );
                }
                Ok(url)
            })
            .collect()
    }
}

#[derive(Debug, clap::Args)]
pub struct ServeArgs {
    /// Where to listen; port 0 picks a free port and prints it
    #[arg(long, default_value = "127.0.0.1:8080", env = "IDEM_ADDR")]
    pub addr: SocketAddr,

    /// How keys are handled: correct, or one of the deliberately broken modes
    #[arg(long, value_enum, default_value_t = Mode::Correct)]
    pub mode: Mode,

    /// Simulated time a payment takes, so duplicates can overlap (at most 10m)
    #[arg(long, default_value = "50ms", value_parser = crate::cli::duration_at_most(crate::cli::MINUTE * 10), allow_hyphen_values = true, value_name = "DUR")]
    pub work: Duration,

    /// How long a completed key's response is kept for replay (at most 168h, a week)
    #[arg(long, default_value = "24h", value_parser = crate::cli::duration_at_most(crate::cli::DAY * 7), allow_hyphen_values = true, value_name = "DUR")]
    pub ttl: Duration,

    /// Answer a POST without an idempotency key with 400
    #[arg(long)]
    pub require_key: bool,

    /// Answer a POST to any path as POST /payments (each path its own key scope), e.g. to try
    /// `idem check --openapi` on a whole spec
    #[arg(long)]
    pub any_path: bool,

    /// Largest request body accepted (at most 1GiB)
    #[arg(long, default_value = "1MiB", value_parser = crate::cli::bounded_size, value_name = "SIZE")]
    pub max_body: u64,

    /// Serve HTTPS (ALPN h2 and http/1.1) with a self-signed certificate generated at start-up
    #[arg(long)]
    pub tls: bool,

    /// Log format: a colored line per request, or JSON lines
    #[arg(long, value_enum, default_value_t = Format::Human)]
    pub format: Format,

    #[command(flatten)]
    pub shared: ServeStoreArgs,
}

/// Where `idem serve` keeps keys and payments; instances given the same shared store act as one API.
#[derive(Debug, clap::Args)]
pub struct ServeStoreArgs {
    /// Where keys and payments live: memory, sqlite:PATH or redis://HOST:PORT[/DB]
    #[arg(long, default_value = "memory", env = "IDEM_STORE", value_name = "STORE")]
    pub store: StoreLocation,

    /// How long a claim holds without renewal; a duplicate after a crashed owner's lease takes the key over (at most 24h)
    #[arg(long, default_value = "30s", value_parser = crate::cli::duration_at_most(crate::cli::DAY), allow_hyphen_values = true, value_name = "DUR")]
    pub lease: Duration,
}

/// `idem send --max-attempts`: how a correct client retries a lost or failed answer.
#[derive(Debug, clap::Args)]
#[command(next_help_heading = "Retries")]
#[command(group(clap::ArgGroup::new("retrying").args(["max_attempts", "retry"]).multiple(false)))]
pub struct SendRetryArgs {
    /// Send each request up to N times in all: a lost or failed answer is retried with the same key and body (at most 101)
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=101))]
    pub max_attempts: Option<u32>,

    /// The older way to say --max-attempts, counting retries: --retry N is N+1 attempts (at most 100)
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(0..=100))]
    pub retry: Option<u32>,

    /// What is retried: any of 5xx, 429, timeout, connection, comma-separated
    #[arg(long, value_name = "LIST", default_value = "5xx,429,timeout,connection", value_parser = RetryOn::parse, requires = "retrying")]
    pub retry_on: RetryOn,

    /// The first retry waits a random time up to this, doubling for each further retry (full jitter); a Retry-After (seconds or HTTP-date) replaces it (at most 10m)
    #[arg(long, value_name = "DUR", default_value = "200ms", value_parser = crate::cli::duration_at_most(crate::cli::MINUTE * 10), allow_hyphen_values = true, requires = "retrying")]
    pub backoff: Duration,

    /// No wait, backoff or Retry-After, is longer than this (at most 24h)
    #[arg(long, value_name = "DUR", default_value = "5m", value_parser = crate::cli::duration_at_most(crate::cli::DAY), allow_hyphen_values = true, requires = "retrying")]
    pub backoff_max: Duration,

    /// Reproduce the classic bug on purpose: a fresh key for every retry
    #[arg(long, requires = "retrying")]
    pub new_key_per_retry: bool,
}

impl SendRetryArgs {
    /// The attempts asked for: `--max-attempts N`, or `--retry N` as N+1; 1 when neither.
    fn attempts(&self) -> u32 {
        match (self.max_attempts, self.retry) {
            (Some(attempts), _) => attempts,
            (None, Some(retries)) => retries.saturating_add(1),
            (None, None) => 1,
        }
    }

    pub fn into_policy(self, announce: Option<Palette>) -> Option<SendRetry> {
        let attempts = self.attempts();
        (attempts > 1).then_some(SendRetry {
            policy: RetryPolicy::exponential(attempts, self.backoff, self.backoff_max),
            on: self.retry_on,
            new_key_per_retry: self.new_key_per_retry,
            announce,
        })
    }
}

#[derive(Debug, clap::Args)]
pub struct ProxyArgs {
    /// The API to forward to, e.g. http://127.0.0.1:8080 (its path, if any, prefixes every request's)
    #[arg(long, value_name = "URL", env = "IDEM_UPSTREAM")]
    pub upstream: String,

    /// Where the client under test connects; port 0 picks a free port and prints it
    #[arg(long, default_value = "127.0.0.1:8081", env = "IDEM_PROXY_ADDR")]
    pub addr: SocketAddr,

    /// What happens to a faulted attempt: lose-answer, timeout, reset, status:CODE or delay:DUR
    #[arg(long, default_value = "lose-answer", value_parser = Fault::parse, value_name = "FAULT", help_heading = "Faults")]
    pub fault: Fault,

    /// With --fault timeout: hold the answer this long (or until the client gives up), then drop it (at most 1h)
    #[arg(long, default_value = "30s", value_parser = crate::cli::duration_at_most(crate::cli::HOUR), allow_hyphen_values = true, value_name = "DUR", help_heading = "Faults")]
    pub hold: Duration,

    /// With --fault status:CODE: send Retry-After with this many seconds (at most 86400, a day)
    #[arg(long, value_parser = clap::value_parser!(u64).range(0..=86_400), value_name = "SECONDS", help_heading = "Faults")]
    pub retry_after: Option<u64>,

    /// Fault the first N attempts of each logical operation (at most 1000) [default: 1]
    #[arg(long, value_parser = clap::value_parser!(u32).range(0..=1_000), value_name = "N", conflicts_with_all = ["every", "probability"], help_heading = "Faults")]
    pub first: Option<u32>,

    /// Fault every K-th judged attempt, across operations (at most 1000000)
    #[arg(long, value_name = "K", value_parser = clap::value_parser!(u64).range(1..=1_000_000), conflicts_with = "probability", help_heading = "Faults")]
    pub every: Option<u64>,

    /// Fault each judged attempt with this probability (0 to 1)
    #[arg(long, value_name = "P", value_parser = parse_probability, help_heading = "Faults")]
    pub probability: Option<f64>,

    /// Seed for --probability, to repeat a run exactly
    #[arg(long, value_name = "N", help_heading = "Faults")]
    pub seed: Option<u64>,

    /// Which requests are judged (and faulted), 'METHOD /path*' or '/path*' (repeatable) [default: every request but GET, HEAD and OPTIONS]
    #[arg(long = "match", value_name = "PATTERN", value_parser = MatchPattern::parse, help_heading = "Faults")]
    pub matches: Vec<MatchPattern>,

    /// Attempts without a key, or with a new one, continue an operation with the same method, path and body within this time (at most 1h); an operation idle this long is judged and dropped from memory
    #[arg(long, default_value = "2m", value_parser = crate::cli::duration_at_most(crate::cli::HOUR), allow_hyphen_values = true, value_name = "DUR", help_heading = "Judging")]
    pub window: Duration,

    /// The header that carries the key
    #[arg(long, default_value = DEFAULT_KEY_HEADER, value_name = "NAME", help_heading = "Judging")]
    pub key_header: String,

    /// JSON pointer to the created resource's id in the upstream's answers
    #[arg(long, default_value = DEFAULT_ID_FIELD, value_name = "POINTER", help_heading = "Judging")]
    pub id_field: String,

    /// Stop and judge once this many operations have ended (at most 100000)
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=100_000), help_heading = "Judging")]
    pub operations: Option<u32>,

    /// Serve HTTPS (ALPN h2 and http/1.1) with a self-signed certificate generated at start-up
    #[arg(long, help_heading = "Connection")]
    pub tls: bool,

    /// Accept any TLS certificate from an https upstream
    #[arg(short = 'k', long, help_heading = "Connection")]
    pub insecure: bool,

    /// Give up on the upstream's answer after this long (the client then gets 502) (at most 1h)
    #[arg(long, default_value = "30s", value_parser = crate::cli::duration_at_most(crate::cli::HOUR), allow_hyphen_values = true, value_name = "DUR", help_heading = "Connection")]
    pub timeout: Duration,

    /// Close a client's connection after this long without a request being handled (silent, idle
    /// between requests, or still sending its headers); a request body stalling this long gets 408 (at most 1h)
    #[arg(long, default_value = "10s", value_parser = crate::cli::duration_at_most(crate::cli::HOUR), allow_hyphen_values = true, value_name = "DUR", help_heading = "Connection")]
    pub idle_timeout: Duration,

    /// Live lines and summary for people, or JSON lines
    #[arg(long, value_enum, default_value_t = Format::Human)]
    pub format: Format,

    #[command(flatten)]
    pub count: CountArgs,

    /// The client under test, run with IDEM_PROXY_URL set to the proxy's URL; the run ends when it exits
    #[arg(last = true, value_name = "CLIENT_CMD")]
    pub client_command: Vec<String>,
}

fn parse_probability(text: &str) -> Result<f64, String> {
    match text.trim().parse::<f64>() {
        Ok(p) if (0.0..=1.0).contains(&p) => Ok(p),
        _ => Err(format!("`{text}` is not a probability; write it between 0 and 1, like 0.3")),
    }
}

impl ProxyArgs {
    /// Checks the flags that clap cannot and builds the proxy's config.
    pub fn into_config(self, palette: Palette) -> anyhow::Result<ProxyConfig> {
        let upstream = crate::http::url::parse_url(&self.upstream)?;
        let fault = match self.fault {
            Fault::Timeout { .. } => Fault::Timeout { hold: self.hold },
            Fault::Status { code, .. } => Fault::Status { code, retry_after: self.retry_after },
            other if self.retry_after.is_some() => {
                anyhow::bail!("--retry-after goes with --fault status:CODE, not --fault {}", other.name())
            }
            other => other,
        };
        let selection = match (self.first, self.every, self.probability) {
            (_, Some(every), _) => Selection::Every(every),
            (_, _, Some(probability)) => Selection::Probability(probability),
            (first, None, None) => Selection::First(first.unwrap_or(1)),
        };
        if self.idle_timeout.is_zero() {
            anyhow::bail!("--idle-timeout 0 would close every connection at once; give a duration such as 10s");
        }
        let key_header = HeaderName::from_bytes(self.key_header.as_bytes())
            .with_context(|| format!("`{}` is not a valid header name for --key-header", self.key_header))?;
        if !self.id_field.is_empty() && !self.id_field.starts_with('/') {
            anyhow::bail!("--id-field `{}` is not a JSON pointer; write it like /id or /data/id", self.id_field);
        }
        Ok(ProxyConfig {
            upstream,
            addr: self.addr,
            tls: self.tls,
            insecure: self.insecure,
            upstream_timeout: self.timeout,
            timeouts: Timeouts { idle: self.idle_timeout, body_progress: self.idle_timeout, ..Timeouts::default() },
            fault,
            selection,
            seed: self.seed,
            matcher: Matcher::new(self.matches),
            window: self.window,
            key_header,
            id_field: self.id_field,
            operations: self.operations.map(|n| n as usize),
            client_command: self.client_command,
            format: self.format,
            palette,
            count: self.count.into_source(&http::HeaderMap::new(), self.timeout, self.insecure)?,
        })
    }
}

/// The spec with `--count-url`, read with the request's own headers (auth) and connection flags.
fn with_count(mut spec: RequestSpec, count: CountArgs) -> anyhow::Result<RequestSpec> {
    spec.count = count.into_source(&spec.headers, spec.timeout, spec.insecure)?;
    Ok(spec)
}

/// Parses the process arguments, runs the command and returns the exit status.
pub fn main() -> i32 {
    crate::cli::parse_and_run(run)
}

pub fn run(cli: IdemCli) -> anyhow::Result<Outcome> {
    match cli.command {
        IdemCommand::Send(args) => {
            let request = args.request.into_spec()?;
            for note in send_notes(&request, args.json)? {
                eprintln!("note: {note}");
            }
            let config = SendConfig {
                request: with_count(request, args.count)?,
                repeat: args.repeat,
                interval: args.interval,
                format: args.format,
                palette: Palette::for_stdout(cli.color),
                pretty: std::io::IsTerminal::is_terminal(&std::io::stdout()),
                retry: args.retry.into_policy((args.format == Format::Human).then(|| Palette::for_stderr(cli.color))),
            };
            block_on(send::run(config))
        }
        IdemCommand::Race(args) => {
            let key_mode = if args.distinct_keys {
                KeyMode::Distinct
            } else if args.request.no_key {
                KeyMode::None
            } else {
                KeyMode::Same
            };
            let request = with_count(args.request.into_direct_spec("race")?, args.count)?;
            let also = args.targets.urls(&request)?;
            let config = RaceConfig {
                request,
                also,
                n: args.n as usize,
                rounds: args.rounds as usize,
                sync: args.sync,
                key_mode,
                stagger: args.stagger.filter(|stagger| !stagger.is_zero()),
                detail: args.detail,
                format: args.format,
                palette: Palette::for_stdout(cli.color),
            };
            block_on(race::run(config))
        }
        IdemCommand::Window(args) => {
            if args.max.is_zero() {
                anyhow::bail!("--max must be more than 0, e.g. --max 500ms");
            }
            let config = WindowConfig {
                request: with_count(args.request.into_direct_spec("window")?, args.count)?,
                max: args.max,
                probes: args.probes as usize,
                format: args.format,
                palette: Palette::for_stdout(cli.color),
            };
            block_on(window::run(config))
        }
        IdemCommand::Check(args) => {
            if args.suite.list {
                return print_list("idem check", check::CHECKS, args.format, Palette::for_stdout(cli.color));
            }
            let selection = args.suite.selection("idem check", check::CHECKS)?;
            let openapi_args = args.openapi;
            let id_field_given = args.request.id_field != DEFAULT_ID_FIELD;
            let key_header = args.request.key_header.clone();
            let request = with_count(args.request.into_spec()?, args.count)?;
            let also = args.targets.urls(&request)?;
            let config = CheckConfig {
                request,
                also,
                concurrency: args.concurrency as usize,
                require_key: args.require_key,
                window_max: Some(args.window_max).filter(|max| !max.is_zero()),
                selection,
                format: args.format,
                palette: Palette::for_stdout(cli.color),
                profile: args.profile,
                other_caller: args
                    .other_caller
                    .iter()
                    .map(|line| crate::http::header::parse_header_line(line).context("--as"))
                    .collect::<anyhow::Result<_>>()?,
                other_url: args
                    .other_url
                    .as_deref()
                    .map(|text| parse_url(text).with_context(|| format!("--other-url {text}")))
                    .transpose()?,
                work_hint: args.work_hint,
                max_work: args.max_work,
                server_cmd: args.server_cmd.filter(|command| !command.trim().is_empty()),
                stuck_for: args.stuck_for,
            };
            let Some(spec) = openapi_args.openapi.clone() else { return block_on(check::run(config)) };
            let operations = OperationSelection {
                filters: openapi_args.filters()?,
                include_deprecated: openapi_args.include_deprecated,
                all_unsafe: openapi_args.all_unsafe,
                key_header,
                params: openapi_args.params()?,
                given_headers: config.request.headers.keys().cloned().collect(),
                id_field: id_field_given.then(|| config.request.id_field.clone()),
            };
            block_on(openapi::run(OpenApiConfig {
                spec,
                base_url: openapi_args.base_url,
                selection: operations,
                max_operations: openapi_args.max_operations.map(|max| max as usize),
                concurrency: openapi_args.concurrent_operations as usize,
                format: config.format,
                palette: config.palette,
                check: config,
            }))
        }
        IdemCommand::Serve(args) => {
            let config = ServeConfig {
                addr: args.addr,
                mode: args.mode,
                work: args.work,
                ttl: args.ttl,
                store: args.shared.store,
                lease: args.shared.lease,
                require_key: args.require_key,
                any_path: args.any_path,
                max_body: args.max_body,
                tls: args.tls,
                log_format: args.format,
                palette: Palette::for_stdout(cli.color),
            };
            block_on(serve::run(config))
        }
        IdemCommand::Proxy(args) => block_on(proxy::run(args.into_config(Palette::for_stdout(cli.color))?)),
        IdemCommand::Demo => block_on(demo::run(DemoConfig { palette: Palette::for_stdout(cli.color) })),
        IdemCommand::Completions { shell } => {
            use std::io::Write;
            let script = crate::cli::completions::generate(shell, IdemCli::command());
            std::io::stdout().write_all(&script)?;
            Ok(Outcome::Holds)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_command_line_definition_is_consistent() {
        IdemCli::command().debug_assert();
    }

    #[test]
    fn race_flags_become_a_key_mode() {
        let cli = IdemCli::try_parse_from(["idem", "race", "localhost:1/p", "-n", "5", "--distinct-keys"]).unwrap();
        let IdemCommand::Race(args) = cli.command else { panic!("not race") };
        assert_eq!((args.n, args.distinct_keys, args.sync), (5, true, SyncMode::Auto));
        assert!(IdemCli::try_parse_from(["idem", "race", "u", "--distinct-keys", "--no-key"]).is_err());
        assert!(IdemCli::try_parse_from(["idem", "race", "u", "-n", "0"]).is_err());
    }
}
