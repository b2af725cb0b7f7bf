//! `idem proxy`: its flags, and what they become.
use std::net::SocketAddr;
use std::time::Duration;

use anyhow::Context;

use crate::cli::count_args::{CountArgs, RequireCountArgs};
use crate::http::server::Timeouts;
use crate::idem::proxy::ProxyConfig;
use crate::idem::proxy::fault::{Fault, MatchPattern, Matcher, Selection};
use crate::idem::request::{DEFAULT_ID_FIELD, DEFAULT_KEY_HEADER};
use crate::output::{Format, Palette};
use http::HeaderName;

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

    /// Hold at most this many operations open (at least 1): past it the oldest is judged and dropped from memory, idle or not
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..), help_heading = "Judging")]
    pub window_ops: Option<u64>,

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

    #[command(flatten)]
    pub require_count: RequireCountArgs,

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
            window_ops: self.window_ops.map(|n| usize::try_from(n).unwrap_or(usize::MAX)),
            key_header,
            id_field: self.id_field,
            operations: self.operations.map(|n| n as usize),
            client_command: self.client_command,
            format: self.format,
            palette,
            count: self.count.into_source("idem proxy", &http::HeaderMap::new(), self.timeout, self.insecure)?,
            require_count: self.require_count.require_count,
        })
    }
}
