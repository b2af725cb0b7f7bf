//! The shape every conformance suite reports in (`idem check`, `webhook check`, `webhook
//! check-sender`): checks with an id, a level, an outcome backed by evidence and a fix, rendered as
//! a table, JSON or JUnit XML, and one exit status. Each suite keeps one catalogue of its checks
//! (`CHECKS`, beside their definitions) that `--list`, the man pages and the id validation of
//! `--only`, `--skip` and `--expect-fail` all read.
use std::fmt::Write as _;
use std::time::Duration;

use serde::Serialize;

use crate::exit::Outcome;
use crate::html_report::{self, Cell, HtmlReport, Tone};
use crate::output::Palette;

/// `--format human|json|junit|html` for suites.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum SuiteFormat {
    /// A table, colored on a terminal
    #[default]
    Human,
    /// One JSON document, documented in docs/json-output.md
    Json,
    /// JUnit XML, for CI dashboards
    Junit,
    /// One self-contained HTML page (inline CSS and SVG, no script)
    Html,
}

/// Whether failing a check fails the suite.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub(crate) enum Level {
    Required,
    /// Failing warns, as advisory does, but the bug it catches hurts clients in practice.
    Recommended,
    Advisory,
}

impl Level {
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            Level::Required => "required",
            Level::Recommended => "recommended",
            Level::Advisory => "advisory",
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub(crate) enum CheckOutcome {
    Pass,
    /// A required check did not hold: the suite fails.
    Fail,
    /// A recommended or advisory check did not hold.
    Warn,
    /// Not run, with the reason in the evidence.
    Skip,
    /// Did not hold, as `--expect-fail` said: does not fail the suite.
    Xfail,
    /// Held although `--expect-fail` said it would not: fixed? Fails the suite under `--strict`.
    Xpass,
    /// Run, but what it saw cannot show whether it holds (an id the request itself carried):
    /// the evidence says why and what to give. A required one makes the suite exit 2.
    Unconfirmed,
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
    /// What the check saw that made it fail, warn or stay unconfirmed, in one line with its
    /// numbers ("executed 20 times: 20 distinct resources for one key"); stated by the check where
    /// it decides, and what JUnit's failure message shows. Absent when it passed or was skipped.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub finding: Option<String>,
    /// What was observed: statuses, ids, the difference found, or why it was skipped.
    pub evidence: Vec<String>,
    /// How to fix what the check caught (on `fail`, `warn` and `xfail`), written for that bug.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fix: Option<&'static str>,
    #[serde(rename = "duration_ms", serialize_with = "crate::units::as_ms")]
    #[schemars(with = "f64")]
    pub duration: Duration,
    /// What the outcome rests on (`idem check`): `count` when the count at `--count-url`
    /// decided it, `answer` when the answers alone did (a replay shown, executions not counted);
    /// absent when the check was not judged.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub evidence_level: Option<crate::evidence_level::EvidenceLevel>,
}

impl CheckResult {
    /// This result, resting on evidence of `level`.
    pub(crate) fn at_level(mut self, level: crate::evidence_level::EvidenceLevel) -> CheckResult {
        self.evidence_level = Some(level);
        self
    }
}

/// A check before it is run: what it is and how much it matters.
#[derive(Debug, Clone, Copy)]
pub(crate) struct CheckSpec {
    pub id: &'static str,
    /// What the check proves when it passes.
    pub title: &'static str,
    pub why: &'static str,
    pub level: Level,
    /// One line on how to fix the bug this check catches (and, where a popular library is known
    /// to have it, which option fixes it); shown under a failure, in JSON and in JUnit.
    pub fix: &'static str,
}

impl CheckSpec {
    /// The check held: a pass, with what was seen.
    pub(crate) fn held(&self, evidence: Vec<String>, took: Duration) -> CheckResult {
        self.result(CheckOutcome::Pass, None, evidence, took)
    }

    /// The check did not hold: fail or warn by level, with the `finding` (what was seen, with its
    /// numbers, in one line) a dashboard shows.
    pub(crate) fn broken(&self, finding: impl Into<String>, evidence: Vec<String>, took: Duration) -> CheckResult {
        let outcome = match self.level {
            Level::Required => CheckOutcome::Fail,
            Level::Recommended | Level::Advisory => CheckOutcome::Warn,
        };
        self.result(outcome, Some(finding.into()), evidence, took)
    }

    /// `held` gives pass, otherwise fail or warn by level with `finding`, which a check words from
    /// what it counted whichever way it went (it is kept only when the check did not hold).
    pub(crate) fn judged(
        &self,
        held: bool,
        finding: impl Into<String>,
        evidence: Vec<String>,
        took: Duration,
    ) -> CheckResult {
        if held { self.held(evidence, took) } else { self.broken(finding, evidence, took) }
    }

    /// Held unless the check found what breaks it: `Some(finding)` gives fail or warn by level.
    pub(crate) fn held_unless(&self, finding: Option<String>, evidence: Vec<String>, took: Duration) -> CheckResult {
        match finding {
            Some(finding) => self.broken(finding, evidence, took),
            None => self.held(evidence, took),
        }
    }

    /// A warning whatever the check's level: what it saw is worth fixing but is not the failure
    /// its level is for (a replay under another status is not a second execution).
    pub(crate) fn warned(&self, finding: impl Into<String>, evidence: Vec<String>, took: Duration) -> CheckResult {
        self.result(CheckOutcome::Warn, Some(finding.into()), evidence, took)
    }

    /// The check ran but cannot be judged: `finding` says what was seen that leaves it open,
    /// `evidence` ends with why and the fix.
    pub(crate) fn unconfirmed(&self, finding: impl Into<String>, evidence: Vec<String>, took: Duration) -> CheckResult {
        self.result(CheckOutcome::Unconfirmed, Some(finding.into()), evidence, took)
    }

    pub(crate) fn skipped(&self, reason: impl Into<String>) -> CheckResult {
        self.result(CheckOutcome::Skip, None, vec![reason.into()], Duration::ZERO)
    }

    fn result(
        &self,
        outcome: CheckOutcome,
        finding: Option<String>,
        evidence: Vec<String>,
        took: Duration,
    ) -> CheckResult {
        let fix = matches!(outcome, CheckOutcome::Fail | CheckOutcome::Warn).then_some(self.fix);
        CheckResult {
            id: self.id,
            title: self.title,
            why: self.why,
            level: self.level,
            outcome,
            finding,
            evidence,
            fix,
            duration: took,
            evidence_level: None,
        }
    }
}

#[derive(Debug, Clone, Default, Serialize, schemars::JsonSchema)]
pub(crate) struct Tally {
    pub passed: usize,
    pub failed: usize,
    pub warned: usize,
    pub skipped: usize,
    /// Failed as `--expect-fail` said (not counted in `failed` or `warned`).
    pub expected_failures: usize,
    /// Passed although `--expect-fail` said they would fail.
    pub unexpected_passes: usize,
    /// Checks that ran but could not be judged (exit 2 when one is required and none failed).
    pub unconfirmed: usize,
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
    /// When no check was judged (every one skipped, left out by `--only`/`--skip`, or unable to
    /// judge): `nothing was checked: …` with why, and the run exits 2, never passes.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub nothing_checked: Option<String>,
    pub tally: Tally,
    /// The rules that decided the disputed verdicts (`idem check --profile`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub profile: Option<ProfileNote>,
    /// Where `idem check` put the key (`--key-in`): `header:Idempotency-Key`, `body:/idempotency_key`,
    /// `query:NAME`, `graphql` or `jsonrpc-meta`, as `idem send` reports it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub key_in: Option<String>,
    pub checks: Vec<CheckResult>,
    /// How advisory warnings appear in JUnit (`--junit-warnings`).
    #[serde(skip)]
    pub junit_warnings: JunitWarnings,
    /// `--strict`: a check that passed despite `--expect-fail` fails the suite.
    #[serde(skip)]
    pub strict: bool,
    /// Checks `--expect-fail` named that did not run (skipped): under `--strict` they fail the
    /// suite, as CI would otherwise believe a known failure is still watched.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub unwatched: Vec<&'static str>,
    /// When the suite began (its checks' durations before the report was made): JUnit's
    /// `timestamp`.
    #[serde(skip)]
    pub started: chrono::DateTime<chrono::Utc>,
    /// `idem check`: how many resources the suite created (by the count at `--count-url`, by
    /// distinct ids in the 2xx answers, or unknown); absent for `webhook check`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub created: Option<crate::created::Created>,
}

/// Which profile judged a suite, and the rules it applied.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub(crate) struct ProfileNote {
    /// The `--profile` value: `ietf`, `stripe`, `adyen`, `paypal`, `checkout`, `worldline`, `acp`,
    /// `ucp` or `strict`.
    pub name: &'static str,
    /// Whose contract it is.
    pub summary: &'static str,
    /// The public page the rules come from.
    pub source: &'static str,
    /// One sentence per rule (the key, a changed body, work in flight, the replay marker, stored
    /// answers, scope), each with its public source.
    pub rules: Vec<String>,
}

impl SuiteReport {
    pub(crate) fn new(suite: &'static str, target: String, checks: Vec<CheckResult>) -> SuiteReport {
        let mut report = SuiteReport {
            suite,
            target,
            passed: true,
            error: None,
            nothing_checked: None,
            tally: Tally::default(),
            profile: None,
            key_in: None,
            checks,
            junit_warnings: JunitWarnings::default(),
            strict: false,
            unwatched: Vec::new(),
            started: chrono::Utc::now(),
            created: None,
        };
        let took: Duration = report.checks.iter().map(|c| c.duration).sum();
        report.started -= chrono::Duration::from_std(took).unwrap_or_default();
        report.count();
        report
    }

    fn count(&mut self) {
        let mut tally = Tally::default();
        for check in &self.checks {
            match check.outcome {
                CheckOutcome::Pass => tally.passed += 1,
                CheckOutcome::Fail => tally.failed += 1,
                CheckOutcome::Warn => tally.warned += 1,
                CheckOutcome::Skip => tally.skipped += 1,
                CheckOutcome::Xfail => tally.expected_failures += 1,
                CheckOutcome::Xpass => tally.unexpected_passes += 1,
                CheckOutcome::Unconfirmed => tally.unconfirmed += 1,
            }
        }
        let unconfirmed_required =
            self.checks.iter().any(|c| c.outcome == CheckOutcome::Unconfirmed && c.level == Level::Required);
        self.nothing_checked = nothing_checked(&self.checks);
        self.passed = tally.failed == 0
            && !(self.strict && (tally.unexpected_passes > 0 || !self.unwatched.is_empty()))
            && !unconfirmed_required
            && self.nothing_checked.is_none();
        self.tally = tally;
    }

    /// The report as `selection` asks: checks left out by `--only`/`--skip` become skipped
    /// ("not selected"), expected failures become `xfail` and expected failures that held `xpass`.
    /// A left-out check in `prerequisites` that ran and failed keeps its failure: the selected
    /// checks could not be judged without it, and a run that judged nothing must not pass.
    pub(crate) fn select(mut self, selection: &Selection, prerequisites: &[&str]) -> SuiteReport {
        for check in &mut self.checks {
            if !selection.runs(check.id) {
                if check.outcome == CheckOutcome::Fail && prerequisites.contains(&check.id) {
                    check.evidence.push("not selected, but run because the selected checks depend on it".to_string());
                } else {
                    check.outcome = CheckOutcome::Skip;
                    check.finding = None;
                    check.evidence = vec![selection.left_out_reason(check.id)];
                    check.fix = None;
                    check.duration = Duration::ZERO;
                    check.evidence_level = None;
                }
                continue;
            }
            if selection.expects_failure(check.id) {
                match check.outcome {
                    CheckOutcome::Fail | CheckOutcome::Warn => {
                        check.outcome = CheckOutcome::Xfail;
                        check.evidence.push(format!("expected to fail (--expect-fail {})", check.id));
                    }
                    CheckOutcome::Pass => {
                        check.outcome = CheckOutcome::Xpass;
                        check.evidence.push(format!("fixed? remove --expect-fail {}", check.id));
                    }
                    CheckOutcome::Skip => {
                        self.unwatched.push(check.id);
                        check.evidence.push(format!(
                            "expected to fail (--expect-fail {}) but not run, so the known failure is not watched{}",
                            check.id,
                            if selection.strict { " (--strict fails the run)" } else { "" }
                        ));
                    }
                    CheckOutcome::Xfail | CheckOutcome::Xpass | CheckOutcome::Unconfirmed => {}
                }
            }
        }
        self.strict = selection.strict;
        self.junit_warnings = selection.junit_warnings;
        self.count();
        self
    }

    /// Every check of `catalogue` appears in the report, in the catalogue's order: one that did
    /// not run in this configuration (a check that runs only after another failed, a group left
    /// out) is a skipped case saying so, so the set of JUnit cases does not change between builds
    /// and a dashboard's history of each holds. Ids that appear twice in a catalogue (two levels of
    /// one check) count once.
    pub(crate) fn with_every_check(mut self, catalogue: &[CheckSpec]) -> SuiteReport {
        let mut at = 0;
        for spec in catalogue {
            match self.checks.iter().position(|c| c.id == spec.id) {
                Some(found) => at = at.max(found + 1),
                None => {
                    self.checks.insert(at, spec.skipped("not run in this configuration"));
                    at += 1;
                }
            }
        }
        self.count();
        self
    }

    /// The report of a suite that could not run (unreachable target, no answer): it renders in
    /// every format, so `--format junit > report.xml` still writes a valid document, with one
    /// error test case saying why.
    pub(crate) fn could_not_run(suite: &'static str, target: String, error: &anyhow::Error) -> SuiteReport {
        // Serialised as they are: a URL a message quoted whole keeps no password.
        SuiteReport {
            suite,
            target: crate::http::url::redact_password(&target),
            passed: false,
            error: Some(crate::http::url::redact_password(&format!("{error:#}"))),
            nothing_checked: None,
            tally: Tally::default(),
            profile: None,
            key_in: None,
            checks: Vec::new(),
            junit_warnings: JunitWarnings::default(),
            strict: false,
            unwatched: Vec::new(),
            started: chrono::Utc::now(),
            created: None,
        }
    }

    pub(crate) fn outcome(&self) -> Outcome {
        if self.passed { Outcome::Holds } else { Outcome::ProblemFound }
    }

    /// Why the suite could not judge (exit 2): no check was judged at all, or required checks
    /// were left unconfirmed and nothing else made it fail.
    pub(crate) fn unconfirmed_reason(&self) -> Option<String> {
        if self.tally.failed > 0
            || self.error.is_some()
            || (self.strict && (self.tally.unexpected_passes > 0 || !self.unwatched.is_empty()))
        {
            return None;
        }
        if let Some(nothing) = &self.nothing_checked {
            return Some(nothing.clone());
        }
        let open: Vec<&CheckResult> = self
            .checks
            .iter()
            .filter(|c| c.outcome == CheckOutcome::Unconfirmed && c.level == Level::Required)
            .collect();
        let first = open.first()?;
        let ids: Vec<&str> = open.iter().map(|c| c.id).collect();
        Some(format!(
            "could not judge {} required check(s) ({}): {}",
            open.len(),
            ids.join(", "),
            first.evidence.last().map(String::as_str).unwrap_or_default()
        ))
    }

    pub(crate) fn render(&self, format: SuiteFormat, palette: Palette) -> String {
        match format {
            SuiteFormat::Human => self.render_human(palette),
            SuiteFormat::Json => crate::json_output::pretty(&suite_schema(self.suite), self).unwrap_or_default() + "\n",
            SuiteFormat::Junit => self.render_junit(),
            SuiteFormat::Html => self.html_report().finish(),
        }
    }

    /// `--format html`: the verdict, the table of checks, then each finding's evidence, why it
    /// matters and its fix; a suite with more to show (check-sender's attempts) adds sections.
    pub(crate) fn html_report(&self) -> HtmlReport {
        let mut report = HtmlReport::new(self.suite, &self.target);
        if let Some(error) = &self.error {
            report.verdict(&format!("✗ could not run: {error}"), Tone::Bad);
            return report;
        }
        let (verdict, tone) = self.verdict();
        report.verdict(&format!("{verdict}: {}", self.counts()), tone);
        let rows = self
            .checks
            .iter()
            .map(|check| {
                let (word, tone) = outcome_word(check.outcome);
                let id = format!("<a href=\"#check-{0}\"><code>{0}</code></a>", html_report::escape(check.id));
                (
                    vec![("check", check.id.to_string()), ("outcome", word.to_ascii_lowercase())],
                    vec![
                        Cell::Text(word.to_string(), tone),
                        Cell::Markup(id),
                        Cell::text(level_word(check.level)),
                        Cell::text(check.title),
                    ],
                )
            })
            .collect();
        report.section("Checks", &HtmlReport::table(&["outcome", "check", "level", "what it proves"], rows));
        let mut findings = String::new();
        for check in &self.checks {
            let (word, tone) = outcome_word(check.outcome);
            let _ = writeln!(
                findings,
                "<article id=\"check-{id}\"><h3><span class=\"{tone}\">{word}</span> <code>{id}</code> {title}</h3>",
                id = html_report::escape(check.id),
                tone = tone.class(),
                title = html_report::escape(check.title),
            );
            if let Some(finding) = &check.finding {
                let _ =
                    writeln!(findings, "<p class=\"finding\"><strong>{}</strong></p>", html_report::escape(finding));
            }
            if !check.evidence.is_empty() {
                findings.push_str(&HtmlReport::list(&check.evidence));
            }
            let _ = writeln!(findings, "<p class=\"why\">Why: {}</p>", html_report::escape(check.why));
            if let Some(fix) = check.fix {
                let _ = writeln!(findings, "<p class=\"fix\">Fix: {}</p>", html_report::escape(fix));
            }
            findings.push_str("</article>\n");
        }
        report.section("Evidence and fixes", &findings);
        if let Some(profile) = &self.profile {
            let heading = format!("Profile {}: {} ({})", profile.name, profile.summary, profile.source);
            report.section(&heading, &HtmlReport::list(&profile.rules));
        }
        report
    }

    pub(crate) fn render_human(&self, palette: Palette) -> String {
        let mut out = format!("{} {}\n\n", palette.bold(self.suite), self.target);
        if let Some(error) = &self.error {
            let _ = writeln!(out, "{} {error}", palette.red("✗ could not run:"));
            return out;
        }
        let id_width = self.checks.iter().map(|c| c.id.len()).max().unwrap_or(0);
        // Checks --only/--skip left out are one line at the end, not a SKIP line each.
        let left_out = |check: &CheckResult| {
            check.outcome == CheckOutcome::Skip
                && check.evidence.first().is_some_and(|line| line.starts_with("not selected"))
                && !self.unwatched.contains(&check.id)
        };
        for check in self.checks.iter().filter(|check| !left_out(check)) {
            let mark = match check.outcome {
                CheckOutcome::Pass => palette.green("PASS"),
                CheckOutcome::Fail => palette.red("FAIL"),
                CheckOutcome::Warn => palette.yellow("WARN"),
                CheckOutcome::Skip => palette.dim("SKIP"),
                CheckOutcome::Xfail => palette.yellow("XFAIL"),
                CheckOutcome::Xpass => palette.yellow("XPASS"),
                CheckOutcome::Unconfirmed => palette.yellow("????"),
            };
            let level = level_word(check.level);
            let _ = writeln!(out, "{mark}  {:<id_width$}  {:<11}  {}", check.id, palette.dim(level), check.title);
            // What the check found opens what is said under it, unless the evidence says it already.
            if let Some(finding) = check.finding.as_ref().filter(|finding| !check.evidence.contains(finding)) {
                let _ = writeln!(out, "      {} {}", palette.dim("·"), palette.bold(finding));
            }
            for line in &check.evidence {
                let _ = writeln!(out, "      {} {line}", palette.dim("·"));
            }
            if matches!(
                check.outcome,
                CheckOutcome::Fail | CheckOutcome::Warn | CheckOutcome::Xfail | CheckOutcome::Unconfirmed
            ) {
                let _ = writeln!(out, "      {} {}", palette.dim("why:"), palette.dim(check.why));
            }
            if let Some(fix) = check.fix {
                let _ = writeln!(out, "      {} {fix}", palette.bold("fix:"));
            }
        }
        let not_selected: Vec<&str> = self.checks.iter().filter(|check| left_out(check)).map(|c| c.id).collect();
        if !not_selected.is_empty() {
            let _ = writeln!(
                out,
                "{}  {} not selected (--only/--skip): {}",
                palette.dim("SKIP"),
                crate::text::plural(not_selected.len(), "check", "checks"),
                not_selected.join(", ")
            );
        }
        if let Some(profile) = &self.profile {
            let _ = writeln!(out, "\n{} {}: {}", palette.bold("profile"), profile.name, profile.summary);
            for rule in &profile.rules {
                let _ = writeln!(out, "      {} {rule}", palette.dim("·"));
            }
        }
        let (verdict, tone) = self.verdict();
        let verdict = match tone {
            Tone::Good => palette.green(&verdict),
            Tone::Bad => palette.red(&verdict),
            Tone::Warn | Tone::Neutral => palette.yellow(&verdict),
        };
        let _ = writeln!(out, "\n{verdict}: {}", self.counts());
        if let Some(created) = &self.created {
            let _ = writeln!(out, "{}", created.line(palette));
        }
        out
    }

    /// The verdict in a sentence, with its mark (`✓`, `✗`, `?`), and how it reads.
    fn verdict(&self) -> (String, Tone) {
        let tally = &self.tally;
        if let Some(nothing) = self.nothing_checked.as_ref().filter(|_| tally.failed == 0) {
            (format!("? {nothing}"), Tone::Warn)
        } else if self.passed {
            ("✓ every required check passed".to_string(), Tone::Good)
        } else if tally.failed == 0 && self.strict && !self.unwatched.is_empty() {
            (
                format!(
                    "✗ {} expected failure(s) did not run (--strict): {}; give what they need or remove their --expect-fail",
                    self.unwatched.len(),
                    self.unwatched.join(", ")
                ),
                Tone::Bad,
            )
        } else if tally.failed == 0 && tally.unconfirmed > 0 {
            (format!("? {} check(s) unconfirmed (could not judge)", tally.unconfirmed), Tone::Warn)
        } else if tally.failed == 0 {
            (
                format!(
                    "✗ {} expected failure(s) passed (--strict): remove their --expect-fail",
                    tally.unexpected_passes
                ),
                Tone::Bad,
            )
        } else {
            (format!("✗ {} required check(s) failed", tally.failed), Tone::Bad)
        }
    }

    /// `3 passed, 1 failed, 0 warnings, 2 skipped`, and the rarer counts when there are any.
    fn counts(&self) -> String {
        let tally = &self.tally;
        let mut counts = format!(
            "{} passed, {} failed, {} warnings, {} skipped",
            tally.passed, tally.failed, tally.warned, tally.skipped
        );
        if tally.unconfirmed > 0 {
            let _ = write!(counts, ", {} unconfirmed", tally.unconfirmed);
        }
        if tally.expected_failures + tally.unexpected_passes > 0 {
            let _ = write!(
                counts,
                ", {} expected failures, {} unexpectedly passed",
                tally.expected_failures, tally.unexpected_passes
            );
        }
        counts
    }

    /// JUnit XML as CI dashboards read it: one testcase per check with its own duration; a failed
    /// required check is a `<failure>` whose message is the finding (what was seen, with its
    /// numbers) and whose text is the evidence, why it matters and the fix; a skipped one
    /// `<skipped>`, an expected failure `<skipped message="expected failure: …">`, an unexpected pass
    /// passes (a `<failure>` under `--strict`), and an advisory warning is `<skipped message="warning:
    /// …">` unless `--junit-warnings` says otherwise. The root's counts are the cases in the file.
    pub(crate) fn render_junit(&self) -> String {
        let suite = self.junit_testsuite(&format!("{} {}", self.suite, self.target));
        junit_document(self.suite, &[suite])
    }

    /// This suite as one JUnit `<testsuite>` element named `name`, which also names the target in
    /// each case's `classname` (so two targets in one file stay apart); `idem check --openapi`
    /// writes one per operation.
    pub(crate) fn junit_testsuite(&self, name: &str) -> JunitSuite {
        let classname = html_report::escape(name);
        let mut counts = JunitCounts::default();
        let mut cases = String::new();
        if let Some(error) = &self.error {
            counts.tests = 1;
            counts.errors = 1;
            let _ = writeln!(
                cases,
                "    <testcase classname=\"{classname}\" name=\"could-not-run\" time=\"0.000\"><error message=\"the suite could not run\">{}</error></testcase>",
                html_report::escape(error)
            );
            return JunitSuite::new(name, counts, cases, self.started);
        }
        // A run of skipped cases alone reads as green on a dashboard: one error case says why not.
        if let Some(why) = &self.nothing_checked {
            counts.tests += 1;
            counts.errors += 1;
            let _ = writeln!(
                cases,
                "    <testcase classname=\"{classname}\" name=\"nothing-checked\" time=\"0.000\"><error message=\"nothing was checked\">{}</error></testcase>",
                html_report::escape(why)
            );
        }
        for check in &self.checks {
            counts.tests += 1;
            counts.seconds += check.duration.as_secs_f64();
            let _ = write!(
                cases,
                "    <testcase classname=\"{classname}\" name=\"{}: {}\" time=\"{}\">",
                html_report::escape(check.id),
                html_report::escape(check.title),
                seconds(check.duration.as_secs_f64())
            );
            let evidence = html_report::escape(&check.evidence.join("\n"));
            match self.junit_case(check) {
                JunitCase::Failure { message, text } => {
                    counts.failures += 1;
                    let _ = write!(
                        cases,
                        "<failure message=\"{}\">{}</failure>",
                        html_report::escape(&message),
                        html_report::escape(&text)
                    );
                }
                JunitCase::Skipped(message) => {
                    counts.skipped += 1;
                    let _ = write!(
                        cases,
                        "<skipped message=\"{}\"/><system-out>{evidence}</system-out>",
                        html_report::escape(&message)
                    );
                }
                JunitCase::Passed => {
                    let _ = write!(cases, "<system-out>{evidence}</system-out>");
                }
            }
            cases.push_str("</testcase>\n");
        }
        JunitSuite::new(name, counts, cases, self.started)
    }

    fn junit_case(&self, check: &CheckResult) -> JunitCase {
        let failure = |check: &CheckResult| {
            let mut text = check.evidence.join("\n");
            let _ = write!(text, "\nwhy: {}", check.why);
            if let Some(fix) = check.fix {
                let _ = write!(text, "\nfix: {fix}");
            }
            JunitCase::Failure { message: junit_message(check), text }
        };
        let first = check.evidence.first().map(String::as_str).unwrap_or_default();
        if self.strict && self.unwatched.contains(&check.id) {
            return JunitCase::Failure {
                message: format!("expected to fail (--expect-fail {}) but not run (--strict): {first}", check.id),
                text: check.evidence.join("\n"),
            };
        }
        match check.outcome {
            CheckOutcome::Pass => JunitCase::Passed,
            CheckOutcome::Fail => failure(check),
            CheckOutcome::Skip => JunitCase::Skipped(first.to_string()),
            CheckOutcome::Warn => match self.junit_warnings {
                JunitWarnings::Skipped => JunitCase::Skipped(format!("warning: {}", junit_message(check))),
                JunitWarnings::Passed => JunitCase::Passed,
                JunitWarnings::Failed => failure(check),
            },
            CheckOutcome::Xfail => JunitCase::Skipped(format!("expected failure: {}", junit_message(check))),
            CheckOutcome::Xpass if self.strict => JunitCase::Failure {
                message: format!("passed although --expect-fail {} said it would fail (--strict)", check.id),
                text: format!("fixed? remove --expect-fail {}", check.id),
            },
            CheckOutcome::Xpass => JunitCase::Passed,
            CheckOutcome::Unconfirmed => JunitCase::Failure {
                message: format!("unconfirmed: {}", junit_message(check)),
                text: check.evidence.join("\n"),
            },
        }
    }
}

/// Why a run judged nothing, when it judged nothing: every check skipped, left out by `--only`
/// and `--skip`, or run without being able to judge. `None` once one check was judged.
fn nothing_checked(checks: &[CheckResult]) -> Option<String> {
    let judged = |c: &&CheckResult| !matches!(c.outcome, CheckOutcome::Skip | CheckOutcome::Unconfirmed);
    if checks.iter().any(|c| judged(&c)) {
        return None;
    }
    let first_line = |c: &CheckResult| c.evidence.first().cloned().unwrap_or_default();
    let not_selected = checks.iter().filter(|c| first_line(c).starts_with("not selected")).count();
    let unable: Vec<&CheckResult> = checks
        .iter()
        .filter(|c| c.outcome == CheckOutcome::Unconfirmed || first_line(c).starts_with("could not judge"))
        .collect();
    let skipped = checks.len() - not_selected - unable.len();
    if checks.is_empty() || not_selected == checks.len() {
        return Some("nothing was checked: --only and --skip leave no check to run (see --list)".to_string());
    }
    let mut why = Vec::new();
    if let Some(first) = unable.first() {
        let reason = first.evidence.last().cloned().unwrap_or_default();
        why.push(format!("{} could not be judged ({}: {reason})", unable.len(), first.id));
    }
    if skipped > 0 {
        let first = checks.iter().find(|c| {
            c.outcome == CheckOutcome::Skip
                && !first_line(c).starts_with("not selected")
                && !unable.iter().any(|u| u.id == c.id)
        });
        let example = first.map(|c| format!(" ({}: {})", c.id, first_line(c))).unwrap_or_default();
        why.push(format!("{skipped} skipped{example}"));
    }
    if not_selected > 0 {
        why.push(format!("{not_selected} not selected (--only/--skip)"));
    }
    Some(format!("nothing was checked: {}", why.join("; ")))
}

/// What a dashboard shows of a case that did not hold: the finding the check stated, with its
/// numbers ("executed 20 times: 20 distinct resources for one key"), never the check's general
/// why; cut short, as a message is one line on a dashboard. A result without one (a check whose
/// outcome was set from outside its judgement) shows its first evidence line.
fn junit_message(check: &CheckResult) -> String {
    const MESSAGE: usize = 200;
    let finding = check.finding.as_deref().or(check.evidence.first().map(String::as_str)).unwrap_or(check.title);
    crate::text::ellipsis(finding, MESSAGE)
}

/// Seconds as JUnit writes them, never negative (an empty sum of floats is -0.0).
fn seconds(value: f64) -> String {
    format!("{:.3}", value.max(0.0))
}

/// The machine the suite ran on, for JUnit's `hostname`.
fn hostname() -> String {
    std::fs::read_to_string("/proc/sys/kernel/hostname")
        .ok()
        .or_else(|| std::env::var("HOSTNAME").ok())
        .map(|name| name.trim().to_string())
        .filter(|name| !name.is_empty())
        .unwrap_or_else(|| "localhost".to_string())
}

/// The counts of a JUnit element: its cases, and how many failed, errored or were skipped.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct JunitCounts {
    pub tests: usize,
    pub failures: usize,
    pub errors: usize,
    pub skipped: usize,
    pub seconds: f64,
}

impl JunitCounts {
    fn attributes(&self) -> String {
        format!(
            "tests=\"{}\" failures=\"{}\" errors=\"{}\" skipped=\"{}\" time=\"{}\"",
            self.tests,
            self.failures,
            self.errors,
            self.skipped,
            seconds(self.seconds)
        )
    }

    fn add(&mut self, other: JunitCounts) {
        self.tests += other.tests;
        self.failures += other.failures;
        self.errors += other.errors;
        self.skipped += other.skipped;
        self.seconds += other.seconds;
    }
}

/// One `<testsuite>` element and the counts of the cases it holds, which the root adds up.
pub(crate) struct JunitSuite {
    pub counts: JunitCounts,
    pub xml: String,
}

impl JunitSuite {
    fn new(name: &str, counts: JunitCounts, cases: String, started: chrono::DateTime<chrono::Utc>) -> JunitSuite {
        let xml = format!(
            "  <testsuite name=\"{}\" {} timestamp=\"{}\" hostname=\"{}\">\n{cases}  </testsuite>\n",
            html_report::escape(name),
            counts.attributes(),
            started.format("%Y-%m-%dT%H:%M:%S"),
            html_report::escape(&hostname())
        );
        JunitSuite { counts, xml }
    }

    /// A testsuite of one skipped case (`idem check --openapi`'s operation that was not tested).
    pub(crate) fn skipped(name: &str, reason: &str) -> JunitSuite {
        let counts = JunitCounts { tests: 1, skipped: 1, ..JunitCounts::default() };
        let cases = format!(
            "    <testcase classname=\"{0}\" name=\"{0}\" time=\"0.000\"><skipped message=\"{1}\"/></testcase>\n",
            html_report::escape(name),
            html_report::escape(reason)
        );
        JunitSuite::new(name, counts, cases, chrono::Utc::now())
    }
}

/// A JUnit document: the root `<testsuites>`, whose counts are the sums of its suites' cases.
pub(crate) fn junit_document(name: &str, suites: &[JunitSuite]) -> String {
    let mut total = JunitCounts::default();
    for suite in suites {
        total.add(suite.counts);
    }
    let mut out = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    let _ = writeln!(out, "<testsuites name=\"{}\" {}>", html_report::escape(name), total.attributes());
    for suite in suites {
        out.push_str(&suite.xml);
    }
    out.push_str("</testsuites>\n");
    out
}

/// What one check becomes in JUnit.
enum JunitCase {
    Passed,
    Skipped(String),
    Failure { message: String, text: String },
}

/// `--junit-warnings`: how an advisory check that did not hold appears in JUnit.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum JunitWarnings {
    /// `<skipped message="warning: …">`: dashboards show it, the build stays green
    #[default]
    Skipped,
    /// A passing test case, the warning in its system-out
    Passed,
    /// A `<failure>`: dashboards turn red (the exit status is unchanged)
    Failed,
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
            if let Some(reason) = report.unconfirmed_reason() {
                anyhow::bail!("{reason}");
            }
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

/// Which checks a run judges and how it reports them: `--only`, `--skip`, `--expect-fail`,
/// `--strict` and `--junit-warnings`, with every id checked against the suite's catalogue.
#[derive(Debug, Clone, Default)]
pub(crate) struct Selection {
    pub only: Vec<String>,
    pub skip: Vec<String>,
    pub expect_fail: Vec<String>,
    pub strict: bool,
    pub junit_warnings: JunitWarnings,
}

impl Selection {
    /// Refuses an id the suite does not have (exit 2), listing the valid ones.
    pub(crate) fn validate(&self, suite: &str, catalogue: &[CheckSpec]) -> anyhow::Result<()> {
        let known = |id: &str| catalogue.iter().any(|spec| spec.id == id);
        for (flag, ids) in [("--only", &self.only), ("--skip", &self.skip), ("--expect-fail", &self.expect_fail)] {
            if let Some(unknown) = ids.iter().find(|id| !known(id)) {
                let mut valid: Vec<&str> = catalogue.iter().map(|spec| spec.id).collect();
                valid.dedup();
                anyhow::bail!(
                    "{flag} {}: {suite} has no such check; the checks are: {} (see {suite} --list)",
                    crate::output::terminal_safe(unknown),
                    valid.join(", ")
                );
            }
        }
        Ok(())
    }

    /// Whether the check with this id is judged in this run.
    pub(crate) fn runs(&self, id: &str) -> bool {
        (self.only.is_empty() || self.only.iter().any(|only| only == id)) && !self.skip.iter().any(|skip| skip == id)
    }

    /// Whether any of these checks is judged: a suite need not do the work of checks left out.
    pub(crate) fn runs_any(&self, specs: &[CheckSpec]) -> bool {
        specs.iter().any(|spec| self.runs(spec.id))
    }

    fn expects_failure(&self, id: &str) -> bool {
        self.expect_fail.iter().any(|expected| expected == id)
    }

    fn left_out_reason(&self, id: &str) -> String {
        if self.skip.iter().any(|skip| skip == id) {
            format!("not selected (--skip {id})")
        } else {
            "not selected (not named by --only)".to_string()
        }
    }
}

/// One entry of a suite's catalogue, as `--list --format json` prints it.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub(crate) struct CatalogueEntry {
    pub id: &'static str,
    pub level: Level,
    /// What the check proves when it passes.
    pub proves: String,
    /// Why it matters.
    pub why: &'static str,
    /// How to fix what it catches.
    pub fix: &'static str,
    /// What the check requires under `--profile` (`idem check --list --profile P`), where the
    /// profile changes it; the level above is then the profile's.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub requires: Option<String>,
}

/// A suite's catalogue: `--list --format json`.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub(crate) struct Catalogue {
    pub suite: &'static str,
    /// The contract the levels and requirements are stated under (`--list --profile P`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub profile: Option<ProfileNote>,
    pub checks: Vec<CatalogueEntry>,
    /// What `--only`/`--skip` do not leave out (requests some checks need from others).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub selection_note: Option<&'static str>,
}

impl Catalogue {
    pub(crate) fn new(suite: &'static str, specs: &[CheckSpec]) -> Catalogue {
        let mut checks: Vec<CatalogueEntry> = Vec::new();
        for spec in specs {
            let entry = CatalogueEntry {
                id: spec.id,
                level: spec.level,
                proves: spec.title.to_string(),
                why: spec.why,
                fix: spec.fix,
                requires: None,
            };
            // One id at two levels (`idem check`'s missing-key, required only when keys are):
            // one entry, at the level a plain run judges it, saying when the other applies.
            match checks.iter_mut().find(|listed| listed.id == spec.id) {
                Some(listed) => {
                    let (plain, stricter) = match rank(entry.level) < rank(listed.level) {
                        true => (entry, listed.clone()),
                        false => (listed.clone(), entry),
                    };
                    *listed = CatalogueEntry {
                        proves: format!("{}; {} when: {}", plain.proves, stricter.level.as_str(), stricter.proves),
                        ..plain
                    };
                }
                None => checks.push(entry),
            }
        }
        Catalogue { suite, profile: None, checks, selection_note: None }
    }

    /// The `schema` value of `--list --format json`: `idem-check-list/1`.
    pub(crate) fn schema(suite: &str) -> String {
        format!("{}-list/1", suite.replace(' ', "-"))
    }

    /// `--list`: a table (id, level, what it proves, how to fix it) or one JSON document.
    pub(crate) fn render(&self, format: SuiteFormat, palette: Palette) -> String {
        if format == SuiteFormat::Json {
            return crate::json_output::pretty(&Catalogue::schema(self.suite), self).unwrap_or_default() + "\n";
        }
        let id_width = self.checks.iter().map(|c| c.id.len()).max().unwrap_or(0);
        let mut out = format!("{} checks\n\n", palette.bold(self.suite));
        if let Some(profile) = &self.profile {
            out = format!(
                "{} checks under --profile {}: {} ({})\n\n",
                palette.bold(self.suite),
                profile.name,
                profile.summary,
                profile.source
            );
            for rule in &profile.rules {
                let _ = writeln!(out, "  {} {rule}", palette.dim("·"));
            }
            out.push('\n');
        }
        for entry in &self.checks {
            let id = palette.bold(&format!("{:<id_width$}", entry.id));
            let _ = writeln!(out, "{id}  {:<8}  {}", level_word(entry.level), entry.proves);
            if let (Some(requires), Some(profile)) = (&entry.requires, &self.profile) {
                let label = format!("{}:", profile.name);
                let _ = writeln!(out, "{:id_width$}  {:8}  {} {requires}", "", "", palette.bold(&label));
            }
            let _ = writeln!(out, "{:id_width$}  {:8}  {} {}", "", "", palette.dim("fix:"), entry.fix);
        }
        let _ = writeln!(
            out,
            "\nChoose with --only ID, --skip ID; mark a known failure with --expect-fail ID (each repeatable)."
        );
        if let Some(note) = self.selection_note {
            let _ = writeln!(out, "{note}");
        }
        out
    }
}

/// An outcome as the HTML report's table says it, and how it reads.
fn outcome_word(outcome: CheckOutcome) -> (&'static str, Tone) {
    match outcome {
        CheckOutcome::Pass => ("PASS", Tone::Good),
        CheckOutcome::Fail => ("FAIL", Tone::Bad),
        CheckOutcome::Warn => ("WARN", Tone::Warn),
        CheckOutcome::Skip => ("SKIP", Tone::Neutral),
        CheckOutcome::Xfail => ("XFAIL", Tone::Warn),
        CheckOutcome::Xpass => ("XPASS", Tone::Warn),
        CheckOutcome::Unconfirmed => ("UNCONFIRMED", Tone::Warn),
    }
}

/// How much failing a level matters, for choosing between two entries of one id.
fn rank(level: Level) -> u8 {
    match level {
        Level::Advisory => 0,
        Level::Recommended => 1,
        Level::Required => 2,
    }
}

pub(crate) fn level_word(level: Level) -> &'static str {
    level.as_str()
}

#[cfg(test)]
mod tests {
    use super::*;

    const SPEC: CheckSpec = CheckSpec { id: "x", title: "t", why: "w", level: Level::Advisory, fix: "f" };

    #[test]
    fn advisory_failures_warn_and_do_not_fail_the_suite() {
        let result = SPEC.broken("seen twice", vec![], Duration::ZERO);
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
    fn an_unconfirmed_required_check_is_exit_2_unless_another_failed() {
        let required = CheckSpec { level: Level::Required, ..SPEC };
        let open = required.unconfirmed(
            "the id came from the request",
            vec!["unconfirmed: give --count-url".into()],
            Duration::ZERO,
        );
        let report = SuiteReport::new("s", "t".into(), vec![open.clone(), required.held(vec![], Duration::ZERO)]);
        assert!(!report.passed);
        assert_eq!(report.tally.unconfirmed, 1);
        let reason = report.unconfirmed_reason().unwrap();
        assert!(
            reason.contains("could not judge 1 required check(s) (x)") && reason.contains("--count-url"),
            "{reason}"
        );
        assert!(report.render_human(Palette::plain()).contains("????  x"));
        let failed =
            SuiteReport::new("s", "t".into(), vec![open, required.broken("seen twice", vec![], Duration::ZERO)]);
        assert_eq!(failed.unconfirmed_reason(), None, "a proven failure is exit 1");
        assert_eq!(failed.outcome(), Outcome::ProblemFound);
    }

    /// Every constructor of an outcome that did not hold takes the finding, and a pass or a skip
    /// carries none: a check cannot fail, warn or stay unconfirmed without saying what it saw.
    #[test]
    fn only_outcomes_that_did_not_hold_carry_the_finding_the_check_stated() {
        let required = CheckSpec { level: Level::Required, ..SPEC };
        let took = Duration::ZERO;
        let cases = [
            (required.broken("executed 3 times", vec![], took), CheckOutcome::Fail, Some("executed 3 times")),
            (SPEC.broken("executed 3 times", vec![], took), CheckOutcome::Warn, Some("executed 3 times")),
            (required.judged(false, "answered 500", vec![], took), CheckOutcome::Fail, Some("answered 500")),
            (required.judged(true, "answered 500", vec![], took), CheckOutcome::Pass, None),
            (required.held_unless(Some("got A's id".into()), vec![], took), CheckOutcome::Fail, Some("got A's id")),
            (required.held_unless(None, vec![], took), CheckOutcome::Pass, None),
            (required.warned("status 201 → 200", vec![], took), CheckOutcome::Warn, Some("status 201 → 200")),
            (required.unconfirmed("no id", vec![], took), CheckOutcome::Unconfirmed, Some("no id")),
            (required.skipped("no body"), CheckOutcome::Skip, None),
        ];
        for (result, outcome, finding) in cases {
            assert_eq!((result.outcome, result.finding.as_deref()), (outcome, finding));
        }
    }

    #[test]
    fn a_junit_failure_message_is_the_finding_and_its_text_the_evidence_why_and_fix() {
        let required = CheckSpec { level: Level::Required, ..SPEC };
        let evidence = vec!["20 duplicates, sync h2: 20 × 201".to_string(), "the count went 0 → 20".to_string()];
        let long = format!("executed 20 times: {}", "x".repeat(300));
        let report = SuiteReport::new(
            "s",
            "t".into(),
            vec![
                required.broken("executed 20 times: 20 distinct resources for one key", evidence, Duration::ZERO),
                CheckSpec { id: "y", ..required }.broken(long, vec![], Duration::ZERO),
            ],
        );
        let xml = report.render_junit();
        assert!(
            xml.contains("<failure message=\"executed 20 times: 20 distinct resources for one key\">20 duplicates, sync h2: 20 × 201\nthe count went 0 → 20\nwhy: w\nfix: f</failure>"),
            "{xml}"
        );
        let cut = format!("<failure message=\"executed 20 times: {}…\">", "x".repeat(200 - 19));
        assert!(xml.contains(&cut), "{xml}");
        let human = report.render_human(Palette::plain());
        assert!(human.contains("FAIL  x  required     t\n      · executed 20 times: 20 distinct resources"), "{human}");
    }

    #[test]
    fn xml_is_escaped() {
        assert_eq!(html_report::escape("a<b & \"c\"\u{1}"), "a&lt;b &amp; &quot;c&quot;\u{fffd}");
    }
}
