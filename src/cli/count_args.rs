//! `--count-url URL [--count-pointer PTR]`, declared once and flattened into every command that
//! judges executions (`idem send|race|window|check|proxy`, `webhook check`).
use std::time::Duration;

use anyhow::Context;
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

    /// A header for the --count-url GET only ('Authorization: Bearer …'), repeatable; added to
    /// the command's own -H headers, which the GET carries too where the command has -H
    #[arg(long, value_name = "'NAME: VALUE'", requires = "count_url", help_heading = "Evidence")]
    pub count_header: Vec<String>,
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
        Ok(Some(CountSource::new(&url, self.count_pointer, headers, timeout, insecure)?))
    }
}
