//! The shape every conformance suite reports in (`idem check`, `webhook check`): checks with an
//! id, a level and an outcome backed by evidence, rendered as a table, JSON or JUnit XML, and one
//! exit status.
use std::fmt::Write as _;
use std::time::Duration;

use serde::Serialize;

use crate::exit::Outcome;
use crate::output::Palette;

/// `--format human|json|junit` for suites.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum SuiteFormat {
    /// A table, colored on a terminal
    #[default]
    Human,
    /// One JSON document, documented in docs/json-output.md
    Json,
    /// JUnit XML, for CI dashboards
    Junit,
}

/// Whether failing a check fails the suite.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub(crate) enum Level {
    Required,
    Advisory,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub(crate) enum CheckOutcome {
    Pass,
    /// A required check did not hold: the suite fails.
    Fail,
    /// An advisory check did not hold.
    Warn,
    /// Not run, with the reason in the evidence.
    Skip,
}

/// One check's definition and result.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub(crate) struct CheckResult {
    pub id: &'static str,
    pub title: &'static str,
    /// Why it matters, with the specification section where there is one.
    pub why: &'static str,
    pub level: Level,
    pub outcome: CheckOutcome,
    /// What was observed: statuses, ids, the difference found, or why it was skipped.
    pub evidence: Vec<String>,
    #[serde(rename = "duration_ms", serialize_with = "crate::units::as_ms")]
    #[schemars(with = "f64")]
    pub duration: Duration,
}

/// A check before it is run: what it is and how much it matters.
#[derive(Debug, Clone, Copy)]
pub(crate) struct CheckSpec {
    pub id: &'static str,
    pub title: &'static str,
    pub why: &'static str,
    pub level: Level,
}

impl CheckSpec {
    /// The result of this check: `held` gives pass, otherwise fail or warn by level.
    pub(crate) fn judged(&self, held: bool, evidence: Vec<String>, took: Duration) -> CheckResult {
        let outcome = match (held, self.level) {
            (true, _) => CheckOutcome::Pass,
            (false, Level::Required) => CheckOutcome::Fail,
            (false, Level::Advisory) => CheckOutcome::Warn,
        };
        self.result(outcome, evidence, took)
    }

    pub(crate) fn skipped(&self, reason: impl Into<String>) -> CheckResult {
        self.result(CheckOutcome::Skip, vec![reason.into()], Duration::ZERO)
    }

    fn result(&self, outcome: CheckOutcome, evidence: Vec<String>, took: Duration) -> CheckResult {
        CheckResult {
            id: self.id,
            title: self.title,
            why: self.why,
            level: self.level,
            outcome,
            evidence,
            duration: took,
        }
    }
}

#[derive(Debug, Clone, Default, Serialize, schemars::JsonSchema)]
pub(crate) struct Tally {
    pub passed: usize,
    pub failed: usize,
    pub warned: usize,
    pub skipped: usize,
}

/// The `schema` value of a suite's `--format json` document: the suite's name with a dash, then
/// the version (`idem check` → `idem-check/1`, `webhook check-sender` → `webhook-check-sender/1`).
pub(crate) fn suite_schema(suite: &str) -> String {
    format!("{}/1", suite.replace(' ', "-"))
}

/// A finished suite; also its `--format json` document.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub(crate) struct SuiteReport {
    /// `idem check` or `webhook check`.
    pub suite: &'static str,
    pub target: String,
    /// `true` when every required check passed.
    pub passed: bool,
    /// Why the suite could not run (exit 2); `checks` is then empty.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    pub tally: Tally,
    pub checks: Vec<CheckResult>,
}

impl SuiteReport {
    pub(crate) fn new(suite: &'static str, target: String, checks: Vec<CheckResult>) -> SuiteReport {
        let mut tally = Tally::default();
        for check in &checks {
            match check.outcome {
                CheckOutcome::Pass => tally.passed += 1,
                CheckOutcome::Fail => tally.failed += 1,
                CheckOutcome::Warn => tally.warned += 1,
                CheckOutcome::Skip => tally.skipped += 1,
            }
        }
        SuiteReport { suite, target, passed: tally.failed == 0, error: None, tally, checks }
    }

    /// The report of a suite that could not run (unreachable target, no answer): it renders in
    /// every format, so `--format junit > report.xml` still writes a valid document, with one
    /// error test case saying why.
    pub(crate) fn could_not_run(suite: &'static str, target: String, error: &anyhow::Error) -> SuiteReport {
        SuiteReport {
            suite,
            target,
            passed: false,
            error: Some(format!("{error:#}")),
            tally: Tally::default(),
            checks: Vec::new(),
        }
    }

    pub(crate) fn outcome(&self) -> Outcome {
        if self.passed { Outcome::Holds } else { Outcome::ProblemFound }
    }

    pub(crate) fn render(&self, format: SuiteFormat, palette: Palette) -> String {
        match format {
            SuiteFormat::Human => self.render_human(palette),
            SuiteFormat::Json => crate::json_output::pretty(&suite_schema(self.suite), self).unwrap_or_default() + "\n",
            SuiteFormat::Junit => self.render_junit(),
        }
    }

    pub(crate) fn render_human(&self, palette: Palette) -> String {
        let mut out = format!("{} {}\n\n", palette.bold(self.suite), self.target);
        if let Some(error) = &self.error {
            let _ = writeln!(out, "{} {error}", palette.red("✗ could not run:"));
            return out;
        }
        let id_width = self.checks.iter().map(|c| c.id.len()).max().unwrap_or(0);
        for check in &self.checks {
            let mark = match check.outcome {
                CheckOutcome::Pass => palette.green("PASS"),
                CheckOutcome::Fail => palette.red("FAIL"),
                CheckOutcome::Warn => palette.yellow("WARN"),
                CheckOutcome::Skip => palette.dim("SKIP"),
            };
            let level = match check.level {
                Level::Required => "required",
                Level::Advisory => "advisory",
            };
            let _ = writeln!(out, "{mark}  {:<id_width$}  {:<8}  {}", check.id, palette.dim(level), check.title);
            for line in &check.evidence {
                let _ = writeln!(out, "      {} {line}", palette.dim("·"));
            }
            if matches!(check.outcome, CheckOutcome::Fail | CheckOutcome::Warn) {
                let _ = writeln!(out, "      {} {}", palette.dim("why:"), palette.dim(check.why));
            }
        }
        let tally = &self.tally;
        let verdict = if self.passed {
            palette.green("✓ every required check passed")
        } else {
            palette.red(&format!("✗ {} required check(s) failed", tally.failed))
        };
        let _ = writeln!(
            out,
            "\n{verdict}: {} passed, {} failed, {} warnings, {} skipped",
            tally.passed, tally.failed, tally.warned, tally.skipped
        );
        out
    }

    /// JUnit XML as CI dashboards read it: one testcase per check; a failed required check is a
    /// `<failure>`, a skipped one `<skipped>`, an advisory warning passes with its evidence in
    /// `<system-out>`.
    pub(crate) fn render_junit(&self) -> String {
        let total_seconds: f64 = self.checks.iter().map(|c| c.duration.as_secs_f64()).sum();
        let mut out = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
        if let Some(error) = &self.error {
            let suite = xml_escape(self.suite);
            let _ = writeln!(
                out,
                "<testsuites name=\"{suite}\" tests=\"1\" failures=\"0\" errors=\"1\" skipped=\"0\" time=\"0.000\">"
            );
            let _ = writeln!(
                out,
                "  <testsuite name=\"{suite} {}\" tests=\"1\" failures=\"0\" errors=\"1\" skipped=\"0\" time=\"0.000\">",
                xml_escape(&self.target)
            );
            let _ = writeln!(
                out,
                "    <testcase classname=\"{suite}\" name=\"could-not-run\" time=\"0.000\"><error message=\"the suite could not run\">{}</error></testcase>",
                xml_escape(error)
            );
            out.push_str("  </testsuite>\n</testsuites>\n");
            return out;
        }
        let _ = writeln!(
            out,
            "<testsuites name=\"{}\" tests=\"{}\" failures=\"{}\" skipped=\"{}\" time=\"{total_seconds:.3}\">",
            xml_escape(self.suite),
            self.checks.len(),
            self.tally.failed,
            self.tally.skipped
        );
        let _ = writeln!(
            out,
            "  <testsuite name=\"{} {}\" tests=\"{}\" failures=\"{}\" errors=\"0\" skipped=\"{}\" time=\"{total_seconds:.3}\">",
            xml_escape(self.suite),
            xml_escape(&self.target),
            self.checks.len(),
            self.tally.failed,
            self.tally.skipped
        );
        for check in &self.checks {
            let evidence = xml_escape(&check.evidence.join("\n"));
            let _ = write!(
                out,
                "    <testcase classname=\"{}\" name=\"{}: {}\" time=\"{:.3}\">",
                xml_escape(self.suite),
                xml_escape(check.id),
                xml_escape(check.title),
                check.duration.as_secs_f64()
            );
            match check.outcome {
                CheckOutcome::Fail => {
                    let _ = write!(out, "<failure message=\"{}\">{evidence}</failure>", xml_escape(check.why));
                }
                CheckOutcome::Skip => {
                    let _ = write!(out, "<skipped message=\"{evidence}\"/>");
                }
                CheckOutcome::Warn => {
                    let _ = write!(out, "<system-out>warning (advisory): {evidence}</system-out>");
                }
                CheckOutcome::Pass => {
                    let _ = write!(out, "<system-out>{evidence}</system-out>");
                }
            }
            out.push_str("</testcase>\n");
        }
        out.push_str("  </testsuite>\n</testsuites>\n");
        out
    }
}

/// Prints a finished suite's report and returns its outcome; a suite that could not run still
/// prints a report in JSON and JUnit (never an empty file in CI), then ends with the error: exit 2,
/// whichever suite it was.
pub(crate) fn finish_suite(
    result: anyhow::Result<SuiteReport>,
    suite: &'static str,
    target: String,
    format: SuiteFormat,
    palette: Palette,
) -> anyhow::Result<Outcome> {
    use std::io::Write;
    let mut stdout = std::io::stdout().lock();
    match result {
        Ok(report) => {
            stdout.write_all(report.render(format, palette).as_bytes())?;
            stdout.flush()?;
            Ok(report.outcome())
        }
        Err(err) => {
            if format != SuiteFormat::Human {
                let report = SuiteReport::could_not_run(suite, target, &err);
                stdout.write_all(report.render(format, palette).as_bytes())?;
                stdout.flush()?;
            }
            Err(err)
        }
    }
}

fn xml_escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            // XML 1.0 cannot carry most control characters, even escaped.
            c if (c as u32) < 0x20 && !matches!(c, '\n' | '\t' | '\r') => out.push('?'),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const SPEC: CheckSpec = CheckSpec { id: "x", title: "t", why: "w", level: Level::Advisory };

    #[test]
    fn advisory_failures_warn_and_do_not_fail_the_suite() {
        let result = SPEC.judged(false, vec![], Duration::ZERO);
        assert_eq!(result.outcome, CheckOutcome::Warn);
        let report = SuiteReport::new("s", "t".into(), vec![result]);
        assert!(report.passed);
        assert_eq!(report.outcome(), Outcome::Holds);
    }

    #[test]
    fn a_suite_that_could_not_run_is_still_a_junit_document_with_one_error() {
        let report = SuiteReport::could_not_run("s", "POST t".into(), &anyhow::anyhow!("no answer <within 1s>"));
        let xml = report.render_junit();
        assert!(xml.contains("errors=\"1\"") && xml.contains("<error message="), "{xml}");
        assert!(xml.contains("no answer &lt;within 1s&gt;"), "{xml}");
        assert!(!report.passed);
        assert!(report.render_human(Palette::plain()).contains("could not run: no answer"));
    }

    #[test]
    fn xml_is_escaped() {
        assert_eq!(xml_escape("a<b & \"c\"\u{1}"), "a&lt;b &amp; &quot;c&quot;?");
    }
}
