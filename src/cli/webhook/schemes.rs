//! `webhook schemes`: its flags.
use crate::output::Format;

#[derive(Debug, clap::Args)]
pub struct SchemesArgs {
    /// human: a line per scheme, its name and what it signs; json: every scheme with its headers,
    /// algorithm and source
    #[arg(long, value_enum, default_value_t = Format::Human)]
    pub format: Format,
}
