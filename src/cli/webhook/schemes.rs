//! `webhook schemes`: its flags.
use std::path::PathBuf;

use crate::output::Format;

#[derive(Debug, clap::Args)]
pub struct SchemesArgs {
    /// human: a line per scheme, its name and what it signs; json: every scheme with its headers,
    /// algorithm and source
    #[arg(long, value_enum, default_value_t = Format::Human)]
    pub format: Format,

    /// List this described scheme too, after the built-in ones (checked as every command that
    /// takes it checks it; repeatable)
    #[arg(long, value_name = "FILE")]
    pub scheme_file: Vec<PathBuf>,
}

impl SchemesArgs {
    /// Reads and registers every --scheme-file, so the listing shows them.
    pub fn load_scheme_files(&self) -> anyhow::Result<()> {
        for path in &self.scheme_file {
            crate::webhook::scheme::user_file::load(path)?;
        }
        Ok(())
    }
}
