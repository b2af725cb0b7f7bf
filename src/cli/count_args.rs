//! `--count-url URL [--count-pointer PTR]`, declared once and flattened into every command that
//! judges executions (`idem send|race|window|check|proxy`, `webhook check`).
use std::time::Duration;

use clap::Args;
use http::HeaderMap;

use crate::count::CountSource;

#[derive(Debug, Clone, Default, Args)]
pub struct CountArgs {
    /// A URL whose GET returns how many side effects the server has (charges, orders, processed
    /// deliveries): read before and after each step, it decides how many times the server executed
    #[arg(long, value_name = "URL", help_heading = "Evidence")]
    pub count_url: Option<String>,

    /// JSON pointer to the count in the --count-url answer: a number, or an array whose length
    /// counts [default: the whole body]
    #[arg(long, value_name = "POINTER", requires = "count_url", help_heading = "Evidence")]
    pub count_pointer: Option<String>,
}

impl CountArgs {
    /// The count source, sent with `headers` (the user's `-H`, for auth); `None` without
    /// `--count-url`.
    pub fn into_source(
        self,
        headers: &HeaderMap,
        timeout: Duration,
        insecure: bool,
    ) -> anyhow::Result<Option<CountSource>> {
        match self.count_url {
            Some(url) => Ok(Some(CountSource::new(&url, self.count_pointer, headers.clone(), timeout, insecure)?)),
            None => Ok(None),
        }
    }
}
