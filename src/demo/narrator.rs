//! How a chapter speaks: plain lines, headings, and commands shown as the user would type them.
use std::io::Write;

use crate::output::Palette;

/// Where a chapter writes its narration.
pub(super) struct Narrator {
    pub palette: Palette,
    out: std::io::Stdout,
}

impl Narrator {
    pub(super) fn new(palette: Palette) -> Narrator {
        Narrator { palette, out: std::io::stdout() }
    }

    pub(super) fn say(&mut self, text: &str) -> std::io::Result<()> {
        writeln!(self.out, "{text}")?;
        self.out.flush()
    }

    pub(super) fn heading(&mut self, text: &str) -> std::io::Result<()> {
        let heading = self.palette.bold(text);
        self.say(&format!("\n{heading}"))
    }

    /// A command the user could type, shown as a shell line.
    pub(super) fn command(&mut self, text: &str) -> std::io::Result<()> {
        let line = format!("  {} {text}", self.palette.dim("$"));
        self.say(&line)
    }
}
