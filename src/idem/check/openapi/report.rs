//! The report of `idem check --openapi`: a live line per operation, a closing table, the
//! `check-openapi/1` JSON document, or JUnit with one testsuite per operation.
use std::fmt::Write as _;
use std::io::Write as _;

use serde::Serialize;

use super::body::BodyOrigin;
use super::plan::Operation;
use super::target::{Target, TargetSource};
use crate::conformance::{CheckOutcome, CheckResult, JunitSuite, SuiteFormat, SuiteReport, Tally, junit_document};
use crate::evidence_level::{ANSWER_REPLAYED, COUNTED, EvidenceLevel};
use crate::idem::request::RequestSpec;
use crate::output::{Palette, terminal_safe};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub(crate) enum OperationOutcome {
    /// Every required check passed.
    Pass,
    /// A required check failed.
    Fail,
    /// Not tested: `reason` says why (not chosen, or nothing valid to send).
    Skip,
    /// Chosen, but its suite could not run (no answer, no resource created): `reason` says why.
    Error,
    /// Its suite ran, no required check failed, but a required one could not be judged (an id
    /// the request carried, a count that proves nothing, `--require-count` without a count):
    /// `reason` says why and what to give.
    Unconfirmed,
}

/// One operation of the document.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub(crate) struct OperationReport {
    pub method: String,
    /// The path template, as the document writes it.
    pub path: String,
    pub operation_id: Option<String>,
    /// Whether the operation declares the key header as a parameter.
    pub declares_key: bool,
    /// Where its key went (`header:Idempotency-Key`, `query:NAME`, `body:/idempotency_key`, …):
    /// the document's place for it, or `--key-in`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub key_in: Option<String>,
    pub outcome: OperationOutcome,
    /// Why it was skipped, or why its suite could not run.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// The URL its requests went to.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
    /// Where its body came from.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub body_origin: Option<BodyOrigin>,
    /// A curl command that sends the operation's first request again (secrets in `-H` redacted).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub curl: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tally: Option<Tally>,
    /// What its ✓ on executions rests on: `count` when every check that counts executions
    /// (retry-replays, new-key-creates, concurrent-once) passed on the count, `answer` when one
    /// passed on the answers alone (a replay shown, the handler's runs not counted); absent when
    /// none passed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub evidence_level: Option<EvidenceLevel>,
    /// The count it was judged by (`x-idem-count-url`, `--count-url-template` or `--count-url`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub count_url: Option<String>,
    /// The operation's checks, as `idem check` reports them.
    pub checks: Vec<CheckResult>,
    /// How many resources its suite created (as `idem check` reports it); absent when its suite
    /// did not run or could not finish.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub created: Option<crate::created::Created>,
}

impl OperationReport {
    pub(crate) fn skipped(operation: &Operation, reason: String) -> OperationReport {
        OperationReport {
            method: operation.method.to_string(),
            path: operation.path.clone(),
            operation_id: operation.operation_id.clone(),
            declares_key: operation.declares_key,
            key_in: None,
            outcome: OperationOutcome::Skip,
            reason: Some(reason),
            url: None,
            body_origin: None,
            curl: None,
            tally: None,
            evidence_level: None,
            count_url: None,
            checks: Vec::new(),
            created: None,
        }
    }

    fn name(&self) -> String {
        match &self.operation_id {
            Some(id) => format!("{} {} ({id})", self.method, self.path),
            None => format!("{} {}", self.method, self.path),
        }
    }

    /// What a passed operation's ✓ rests on, for its line: `; executed once (counted)`, or
    /// `; answer replayed, side effects not counted (…)`.
    fn level_words(&self) -> String {
        match self.evidence_level {
            Some(EvidenceLevel::Count) => format!("; {COUNTED}"),
            Some(EvidenceLevel::Answer) => format!("; {ANSWER_REPLAYED}, {OPERATION_NOT_COUNTED}"),
            None => String::new(),
        }
    }

    /// `2 warnings (mismatch-is-422, replay-marked)`: a count alone would send the reader to
    /// `--format json` to learn which advisory checks warned.
    fn warnings_words(&self, warned: usize) -> String {
        let ids: Vec<&str> = self.checks.iter().filter(|c| c.outcome == CheckOutcome::Warn).map(|c| c.id).collect();
        match ids.is_empty() {
            true => format!("{warned} warnings"),
            false => format!("{warned} warnings ({})", ids.join(", ")),
        }
    }

    /// `; no id at /data/id in the body: read from Location` when `create` found the id elsewhere
    /// than where the document says (the reader learns the document or the server is off).
    fn id_note(&self) -> String {
        let create = self.checks.iter().find(|c| c.id == crate::idem::check::catalogue::CREATE.id);
        let note = create
            .and_then(|c| c.evidence.iter().find(|line| line.starts_with(crate::idem::check::create::ID_NOT_IN_BODY)));
        note.map(|note| format!("; {note}")).unwrap_or_default()
    }

    fn failing_ids(&self) -> Vec<&'static str> {
        self.checks.iter().filter(|c| c.outcome == CheckOutcome::Fail).map(|c| c.id).collect()
    }

    /// The line printed as the operation's suite ends.
    pub(crate) fn live_line(&self, palette: Palette) -> String {
        let name = terminal_safe(&self.name()).into_owned();
        match (self.outcome, &self.tally) {
            (OperationOutcome::Pass, Some(tally)) => {
                format!(
                    "{} {name}: {} passed, {}, {} skipped{}",
                    palette.green("✓"),
                    tally.passed,
                    self.warnings_words(tally.warned),
                    tally.skipped,
                    self.level_words()
                ) + &self.id_note()
            }
            (OperationOutcome::Fail, _) => {
                format!("{} {name}: failed {}", palette.red("✗"), self.failing_ids().join(", "))
            }
            (OperationOutcome::Unconfirmed, _) => format!(
                "{} {name}: could not judge: {}",
                palette.yellow("?"),
                terminal_safe(self.reason.as_deref().unwrap_or(""))
            ),
            _ => format!(
                "{} {name}: could not run: {}",
                palette.yellow("!"),
                terminal_safe(self.reason.as_deref().unwrap_or(""))
            ),
        }
    }
}

/// The whole run; also its `--format json` document.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub(crate) struct OpenApiReport {
    /// The document, as given to --openapi.
    pub spec: String,
    pub base_url: String,
    /// Who chose `base_url`: `--base-url`, the document's `servers[0]`, or the URL the document
    /// was fetched from.
    pub base_url_from: TargetSource,
    /// `true` when every tested operation passed its required checks.
    pub passed: bool,
    /// Operations whose suite ran.
    pub tested: usize,
    pub failed: usize,
    pub skipped: usize,
    /// Operations chosen whose suite could not run.
    pub errors: usize,
    /// Operations whose suite ran but could not judge a required check (exit 2 when nothing
    /// failed).
    pub unconfirmed: usize,
    pub operations: Vec<OperationReport>,
    /// How many resources the run created over every operation whose suite ran: by each
    /// operation's count when all were counted, else at least the sum of what was measured.
    pub created: crate::created::Created,
}

impl OpenApiReport {
    pub(crate) fn new(spec: String, target: &Target, operations: Vec<OperationReport>) -> OpenApiReport {
        let count = |outcome: OperationOutcome| operations.iter().filter(|op| op.outcome == outcome).count();
        let (passed, failed, skipped, errors, unconfirmed) = (
            count(OperationOutcome::Pass),
            count(OperationOutcome::Fail),
            count(OperationOutcome::Skip),
            count(OperationOutcome::Error),
            count(OperationOutcome::Unconfirmed),
        );
        // Every operation whose suite started sent requests; one skipped before it sent none.
        let created = crate::created::Created::total(
            operations.iter().filter(|op| op.tally.is_some()).map(|op| op.created.as_ref()),
        );
        // Printed and serialised as they are, so no userinfo may stay in them.
        OpenApiReport {
            created,
            spec: crate::http::url::redact_password(&spec),
            base_url: crate::http::url::Redacted(&target.base).to_string(),
            base_url_from: target.source,
            passed: failed == 0 && errors == 0 && unconfirmed == 0,
            tested: passed + failed + unconfirmed,
            failed,
            skipped,
            errors,
            unconfirmed,
            operations,
        }
    }

    /// With operations checked at the same time, one ledger read by two of them rose for both:
    /// their counts overlap and are not added up, and what they created is told by their ids.
    pub(crate) fn created_apart_from_shared_ledgers(&mut self) {
        let shared = |url: &String| self.operations.iter().filter(|op| op.count_url.as_ref() == Some(url)).count() > 1;
        let counted_alone = |op: &OperationReport| -> Option<crate::created::Created> {
            let created = op.created.clone()?;
            let overlapping =
                created.basis == crate::created::CreatedBasis::Count && op.count_url.as_ref().is_some_and(shared);
            (!overlapping).then_some(created)
        };
        let parts: Vec<Option<crate::created::Created>> =
            self.operations.iter().filter(|op| op.tally.is_some()).map(counted_alone).collect();
        self.created = crate::created::Created::total(parts.iter().map(Option::as_ref));
    }

    pub(crate) fn print(&self, format: SuiteFormat, palette: Palette) -> anyhow::Result<()> {
        let text = match format {
            SuiteFormat::Human => self.render_human(palette),
            SuiteFormat::Json => crate::json_output::pretty(super::SCHEMA, self)? + "\n",
            SuiteFormat::Junit => self.render_junit(),
            // Refused before the run starts (openapi::run).
            SuiteFormat::Html => anyhow::bail!("--openapi reports as --format human, json or junit"),
        };
        let mut stdout = std::io::stdout().lock();
        stdout.write_all(text.as_bytes())?;
        stdout.flush()?;
        Ok(())
    }

    /// The closing table (the live lines came before it), then each failure's checks and the
    /// curl command that reproduces it.
    pub(crate) fn render_human(&self, palette: Palette) -> String {
        let mut out = format!("\n{} {} against {}\n\n", palette.bold("idem check --openapi"), self.spec, self.base_url);
        let name_width = self.operations.iter().map(|op| op.name().chars().count()).max().unwrap_or(0).min(60);
        let mut skips_listed = 0;
        for op in &self.operations {
            // A document of thousands of operations is not a table of thousands of skips.
            if op.outcome == OperationOutcome::Skip {
                skips_listed += 1;
                if skips_listed > SKIPS_LISTED {
                    continue;
                }
            }
            let mark = match op.outcome {
                OperationOutcome::Pass => palette.green("PASS "),
                OperationOutcome::Fail => palette.red("FAIL "),
                OperationOutcome::Skip => palette.dim("SKIP "),
                OperationOutcome::Error => palette.yellow("ERROR"),
                OperationOutcome::Unconfirmed => palette.yellow("?????"),
            };
            let detail = match (op.outcome, &op.tally) {
                (OperationOutcome::Skip | OperationOutcome::Error | OperationOutcome::Unconfirmed, _) => {
                    op.reason.clone().unwrap_or_default()
                }
                (_, Some(t)) => {
                    let mut detail = format!(
                        "{} passed, {} failed, {}, {} skipped",
                        t.passed,
                        t.failed,
                        op.warnings_words(t.warned),
                        t.skipped
                    );
                    if op.outcome == OperationOutcome::Fail {
                        detail.push_str(&format!(": {}", op.failing_ids().join(", ")));
                    }
                    if op.outcome == OperationOutcome::Pass {
                        detail.push_str(&op.level_words());
                    }
                    detail.push_str(&op.id_note());
                    detail
                }
                _ => String::new(),
            };
            let name = terminal_safe(&op.name()).into_owned();
            let _ = writeln!(out, "{mark}  {name:<name_width$}  {}", terminal_safe(&detail));
        }
        if skips_listed > SKIPS_LISTED {
            let _ = writeln!(
                out,
                "{}  … and {} more skipped operations (--format json lists each with its reason)",
                palette.dim("SKIP "),
                skips_listed - SKIPS_LISTED
            );
        }
        for op in
            self.operations.iter().filter(|op| matches!(op.outcome, OperationOutcome::Fail | OperationOutcome::Error))
        {
            let _ = writeln!(out, "\n{} {}", palette.bold(&terminal_safe(&op.name())), op.url.as_deref().unwrap_or(""));
            for check in op.checks.iter().filter(|c| c.outcome == CheckOutcome::Fail) {
                let _ = writeln!(out, "  {} {}: {}", palette.red("✗"), check.id, check.title);
                if let Some(finding) = check.finding.as_ref().filter(|finding| !check.evidence.contains(finding)) {
                    let _ = writeln!(out, "      {} {}", palette.dim("·"), palette.bold(&terminal_safe(finding)));
                }
                for line in &check.evidence {
                    let _ = writeln!(out, "      {} {}", palette.dim("·"), terminal_safe(line));
                }
            }
            if let Some(curl) = &op.curl {
                let _ = writeln!(out, "  reproduce: {}", terminal_safe(curl));
            }
        }
        let verdict = if self.passed {
            palette.green("✓ every tested operation passed its required checks")
        } else if self.failed == 0 && self.errors == 0 {
            palette.yellow(&format!("? {} operation(s) could not be judged", self.unconfirmed))
        } else {
            palette.red(&format!("✗ {} operation(s) failed, {} could not be tested", self.failed, self.errors))
        };
        let _ = writeln!(
            out,
            "\n{verdict}: {} tested ({} passed, {} failed), {} errors, {} skipped",
            self.tested,
            self.tested - self.failed,
            self.failed,
            self.errors,
            self.skipped
        );
        let _ = writeln!(out, "{}", self.created.line(palette));
        out
    }

    /// JUnit XML: one testsuite per tested operation, with the checks as testcases; a skipped
    /// operation is a testsuite with one skipped testcase naming the reason.
    pub(crate) fn render_junit(&self) -> String {
        let suites: Vec<JunitSuite> = self
            .operations
            .iter()
            .map(|op| {
                let name = op.name();
                match op.outcome {
                    OperationOutcome::Pass | OperationOutcome::Fail | OperationOutcome::Unconfirmed => {
                        SuiteReport::new("idem check", name.clone(), op.checks.clone()).junit_testsuite(&name)
                    }
                    OperationOutcome::Error => {
                        let err = anyhow::anyhow!("{}", op.reason.clone().unwrap_or_default());
                        SuiteReport::could_not_run("idem check", name.clone(), &err).junit_testsuite(&name)
                    }
                    OperationOutcome::Skip => JunitSuite::skipped(&name, op.reason.as_deref().unwrap_or("")),
                }
            })
            .collect();
        junit_document("idem check --openapi", &suites)
    }
}

/// The short form of the not-counted line, for an operation's line, with the three ways to count.
const OPERATION_NOT_COUNTED: &str =
    "side effects not counted (give x-idem-count-url, --count-url-template or --count-url to count executions)";

/// How many skipped operations the human table lists; the rest are counted.
const SKIPS_LISTED: usize = 50;

/// The largest body the reproduction command embeds; a larger one is named as a file to send
/// instead, so the command stays a command.
const MAX_EMBEDDED_BODY: usize = 4 * 1024;

/// A curl command that sends the operation's first request: its method, URL, headers (secrets
/// redacted, a fresh key) and body (embedded up to [`MAX_EMBEDDED_BODY`]; a larger one is sent
/// from `BODY_FILE`, as a note after the command says).
pub(crate) fn curl_command(request: &RequestSpec) -> String {
    let quote = crate::text::shell_quote;
    let url = crate::http::url::Redacted(&request.url).to_string();
    let mut parts = vec!["curl".to_string(), "-X".into(), request.method.to_string(), quote(&url)];
    for (name, value) in &request.headers {
        // The same rule as every echoed command line: secret header names, `Bearer …`, tokens.
        let shown = crate::command_line::shown_header_value(name.as_str(), value.to_str().unwrap_or("…"));
        parts.push("-H".into());
        parts.push(quote(&format!("{}: {shown}", crate::output::header_display_name(name.as_str()))));
    }
    if !matches!(request.key_policy, crate::idem::key::KeyPolicy::Omit) {
        parts.push("-H".into());
        parts.push(format!("\"{}: $(uuidgen)\"", crate::output::header_display_name(request.key_header.as_str())));
    }
    if request.body.len() > MAX_EMBEDDED_BODY {
        parts.push("--data-binary".into());
        parts.push("@BODY_FILE".into());
        parts.push(format!(
            "# BODY_FILE: the request's {} body, not embedded (bodies over {} are left out of this command)",
            crate::http::body::format_size(request.body.len() as u64),
            crate::http::body::format_size(MAX_EMBEDDED_BODY as u64)
        ));
    } else if !request.body.is_empty() {
        parts.push("--data-raw".into());
        parts.push(quote(&String::from_utf8_lossy(&request.body)));
    }
    parts.join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use http::Method;

    #[test]
    fn the_curl_command_reproduces_the_request_without_its_secrets() {
        let mut spec = RequestSpec::new(Method::POST, "http://127.0.0.1:1/pay'ments", r#"{"a":"it's"}"#).unwrap();
        spec.headers.insert("authorization", "Bearer sk_live_secret".parse().unwrap());
        spec.headers.insert("x-api-key", "k_secret".parse().unwrap());
        spec.headers.insert("x-tenant", "acme".parse().unwrap());
        let curl = curl_command(&spec);
        assert!(!curl.contains("secret"), "{curl}");
        assert!(curl.contains("'Authorization: ***'") && curl.contains("'X-Tenant: acme'"), "{curl}");
        assert!(curl.contains(r#"-H "Idempotency-Key: $(uuidgen)""#), "{curl}");
        assert!(curl.contains(r#"--data-raw '{"a":"it'\''s"}'"#), "{curl}");
        assert!(curl.starts_with("curl -X POST 'http://127.0.0.1:1/pay'\\''ments'"), "{curl}");
    }

    #[test]
    fn a_large_body_is_named_not_embedded_in_the_curl_command() {
        let body = format!(r#"{{"note":"{}"}}"#, "x".repeat(30 * 1024 * 1024));
        let spec = RequestSpec::new(Method::POST, "http://127.0.0.1:1/p", body.clone()).unwrap();
        let curl = curl_command(&spec);
        assert!(curl.len() < 1024, "{} bytes", curl.len());
        assert!(curl.ends_with("--data-binary @BODY_FILE # BODY_FILE: the request's 30.0 MiB body, not embedded (bodies over 4 KiB are left out of this command)"), "{curl}");
        let small = RequestSpec::new(Method::POST, "http://127.0.0.1:1/p", "y".repeat(4096)).unwrap();
        assert!(curl_command(&small).contains(&"y".repeat(4096)));
    }
}
