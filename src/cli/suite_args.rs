//! The flags every conformance suite takes (`idem check`, `webhook check`, `webhook check-sender`):
//! which checks to judge, which are known to fail, how JUnit shows warnings, and `--list`.
use clap::Args;

use crate::conformance::{Catalogue, CheckSpec, JunitWarnings, Selection, SuiteFormat};
use crate::exit::Outcome;
use crate::output::Palette;

#[derive(Debug, Clone, Args)]
#[command(next_help_heading = "Choosing checks")]
pub struct SuiteArgs {
    /// Judge only this check (repeatable; --list shows the ids)
    #[arg(long, value_name = "ID")]
    pub only: Vec<String>,

    /// Leave this check out (repeatable)
    #[arg(long, value_name = "ID")]
    pub skip: Vec<String>,

    /// This check is known to fail: report it as an expected failure (xfail), which does not fail
    /// the run (repeatable)
    #[arg(long, value_name = "ID")]
    pub expect_fail: Vec<String>,

    /// Fail the run when a check named by --expect-fail passes (it was fixed: remove the flag)
    #[arg(long)]
    pub strict: bool,

    /// How an advisory warning appears in --format junit
    #[arg(long, value_enum, default_value_t = JunitWarnings::Skipped, value_name = "AS")]
    pub junit_warnings: JunitWarnings,

    /// Print every check of this suite (id, level, what it proves, how to fix it) and exit
    #[arg(long)]
    pub list: bool,
}

impl SuiteArgs {
    /// The selection, with every id checked against the suite's catalogue (exit 2 otherwise).
    pub(crate) fn selection(&self, suite: &str, catalogue: &[CheckSpec]) -> anyhow::Result<Selection> {
        let selection = Selection {
            only: self.only.clone(),
            skip: self.skip.clone(),
            expect_fail: self.expect_fail.clone(),
            strict: self.strict,
            junit_warnings: self.junit_warnings,
        };
        selection.validate(suite, catalogue)?;
        Ok(selection)
    }
}

/// `--list`: prints the suite's catalogue as a table or JSON (JUnit has no list; it gets the table).
pub(crate) fn print_list(
    suite: &'static str,
    catalogue: &[CheckSpec],
    format: SuiteFormat,
    palette: Palette,
) -> anyhow::Result<Outcome> {
    print_catalogue(Catalogue::new(suite, catalogue), format, palette)
}

/// `--list`, for a catalogue already built (`idem check --list --profile P` sets its levels).
pub(crate) fn print_catalogue(catalogue: Catalogue, format: SuiteFormat, palette: Palette) -> anyhow::Result<Outcome> {
    use std::io::Write;
    let text = catalogue.render(format, palette);
    let mut stdout = std::io::stdout().lock();
    stdout.write_all(text.as_bytes())?;
    stdout.flush()?;
    Ok(Outcome::Holds)
}
