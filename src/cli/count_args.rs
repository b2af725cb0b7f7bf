//! `--count-url URL [--count-pointer PTR]`, declared once and flattened into every command that
//! judges executions (`idem send|race|window|check|proxy`, `webhook check`).
use std::time::Duration;

use anyhow::Context;
use clap::Args;
use http::HeaderMap;

use crate::count::{CountSource, Settle};

#[derive(Debug, Clone, Args)]
pub struct CountArgs {
    /// A URL whose GET returns how many side effects the server has (charges, orders, processed
    /// deliveries): read before and after each step, it decides how many times the server executed
    #[arg(long, value_name = "URL", help_heading = "Evidence")]
    pub count_url: Option<String>,

    /// JSON pointer to the count in the --count-url answer: a number, or an array whose length
    /// counts [default: the whole body]
    #[arg(long, value_name = "POINTER", requires = "count_url", help_heading = "Evidence")]
    pub count_pointer: Option<String>,

    /// A header for the --count-url GET only ('Authorization: Bearer …'), repeatable; added to
    /// the command's own -H headers, which the GET carries too where the command has -H
    #[arg(long, value_name = "'NAME: VALUE'", requires = "count_url", help_heading = "Evidence")]
    pub count_header: Vec<String>,

    /// Re-read the count until two reads this far apart agree, before and after each step, so work
    /// the server does after answering is counted [default: 200ms, or 3 times the step's slowest
    /// answer when longer] (at most 1m)
    #[arg(long, value_name = "DUR", value_parser = crate::cli::duration_at_most(crate::cli::MINUTE), allow_hyphen_values = true, requires = "count_url", help_heading = "Evidence")]
    pub count_settle: Option<Duration>,

    /// The longest the count is re-read before it is judged: one still moving then is unconfirmed
    /// (at most 10m)
    #[arg(long, value_name = "DUR", default_value = "5s", value_parser = crate::cli::duration_at_most(crate::cli::MINUTE * 10), allow_hyphen_values = true, requires = "count_url", help_heading = "Evidence")]
    pub count_settle_max: Duration,
}

impl CountArgs {
    /// The count source, sent with `headers` (the user's `-H`, for auth) and `--count-header`;
    /// `None` without `--count-url`.
    pub fn into_source(
        self,
        headers: &HeaderMap,
        timeout: Duration,
        insecure: bool,
    ) -> anyhow::Result<Option<CountSource>> {
        let Some(url) = self.count_url else { return Ok(None) };
        let mut headers = headers.clone();
        for line in &self.count_header {
            let (name, value) = crate::http::header::parse_header_line(line).context("--count-header")?;
            headers.append(name, value);
        }
        if self.count_settle == Some(Duration::ZERO) {
            anyhow::bail!(
                "--count-settle 0 would re-read the count without pause; give the time between reads, like 200ms"
            );
        }
        let mut source = CountSource::new(&url, self.count_pointer, headers, timeout, insecure)?;
        source.settle = Settle { interval: self.count_settle, max: self.count_settle_max };
        Ok(Some(source))
    }
}

/// `--require-count`, flattened into the `idem` commands whose ✓ can rest on the answers alone.
#[derive(Debug, Clone, Copy, Default, Args)]
pub struct RequireCountArgs {
    /// Accept only a ✓ the count shows ("executed once (counted)"): one that rests on the answers
    /// alone (a server id, a replay marker, a 409) exits 2, for CI that wants ground truth
    #[arg(long, help_heading = "Evidence")]
    pub require_count: bool,
}
