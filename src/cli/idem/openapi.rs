//! `idem check --openapi`: the flags that choose operations from an OpenAPI document.

use anyhow::{Context, bail};

use crate::idem::check::openapi::plan::{Filter, FilterOn, Pattern, filter_name};

/// `idem check --openapi SPEC`: every operation of a whole API instead of one URL. The filters
/// speak Schemathesis' vocabulary: includes of one kind are alternatives, kinds combine, and an
/// exclude removes.
#[derive(Debug, clap::Args)]
#[command(next_help_heading = "OpenAPI")]
pub struct OpenApiArgs {
    /// Test every operation of this OpenAPI 3.0/3.1 document (a file, - for stdin, or an http(s)
    /// URL; JSON or YAML; at most 32 MiB) that declares the key header, instead of one URL
    #[arg(long, value_name = "SPEC", conflicts_with_all = ["also", "other_url", "server_cmd"])]
    pub openapi: Option<String>,

    /// Where the API is [default: the spec's first server, else the origin it was fetched from]
    #[arg(long, value_name = "URL", requires = "openapi")]
    pub base_url: Option<String>,

    /// Send the requests (and your -H headers) to the spec's first server even when it is not
    /// this machine, or, for a spec fetched from a URL, not the host it came from
    #[arg(long, requires = "openapi", conflicts_with = "base_url")]
    pub allow_remote: bool,

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

    /// Each operation's count of side effects (a GET, as --count-url), {operationId} filled in:
    /// http://127.0.0.1:8080/counts/{operationId}. An operation's own x-idem-count-url (and
    /// x-idem-count-pointer) wins; --count-url applies when neither is given
    #[arg(long, value_name = "URL", requires = "openapi", help_heading = "Evidence")]
    pub count_url_template: Option<String>,

    /// How many operations are checked at the same time (1: one operation's checks never overlap another's) (at most 64)
    #[arg(long, value_name = "N", default_value_t = 1, requires = "openapi", value_parser = clap::value_parser!(u32).range(1..=64))]
    pub concurrent_operations: u32,
}

impl OpenApiArgs {
    pub(crate) fn filters(&self) -> anyhow::Result<Vec<Filter>> {
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

    pub(crate) fn params(&self) -> anyhow::Result<Vec<(String, String)>> {
        self.params
            .iter()
            .map(|param| match param.split_once('=') {
                Some((name, value)) if !name.is_empty() => Ok((name.to_string(), value.to_string())),
                _ => bail!("--param `{param}` is not NAME=VALUE"),
            })
            .collect()
    }
}
