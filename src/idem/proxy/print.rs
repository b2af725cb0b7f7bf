//! What `idem proxy` prints: a live line per attempt (human, or a JSON line with
//! `"event":"attempt"`), a `"event":"refused"` JSON line per request it answered itself (508,
//! 408; human output has them on stderr), and the closing summary per operation with the verdict. Keys, paths,
//! ids and upstream errors come off the network and go through `terminal_safe` in human output.
use std::sync::Arc;

use chrono::{DateTime, Utc};
use serde::Serialize;

use crate::idem::proxy::fault::Fault;
use crate::idem::proxy::judge::{ProxyReport, RetryConduct, RunVerdict, short_key};
use crate::idem::proxy::records::{Attempt, Route};
use crate::output::{Palette, terminal_safe};

/// A finished attempt for its live line: the record, with its wall-clock time and its whole key
/// (the record keeps a hash and a short form).
#[derive(Debug)]
pub struct LiveAttempt {
    pub attempt: Attempt,
    pub operation: usize,
    /// Its method and path, shared with its operation (no copy per line).
    pub(crate) route: Arc<Route>,
    pub time: DateTime<Utc>,
    pub key: Option<String>,
}

/// One attempt, as a person reads it: time, operation, attempt, request, key, fault, what the
/// upstream answered and what the client got. Built in one string, pieces pushed onto it rather
/// than formatted apart: a proxy under load prints one per request.
pub(crate) fn attempt_line(live: &LiveAttempt, palette: Palette) -> String {
    use std::fmt::Write;
    let attempt = &live.attempt;
    let mut line = String::with_capacity(128);
    palette.push_with(&mut line, Palette::dim, |out| crate::clock::push_time_of_day(out, live.time));
    let _ = write!(line, "  op {:<3} #{:<2} {} ", live.operation, attempt.number, live.route.method);
    line.push_str(&terminal_safe(&live.route.path));
    line.push_str("  ");
    match &live.key {
        Some(key) => {
            line.push_str("key ");
            line.push_str(&terminal_safe(&short_key(key)));
        }
        None => palette.push(&mut line, "no key", Palette::yellow),
    }
    line.push_str("  ");
    match attempt.fault {
        Some(fault) => palette.push_with(&mut line, Palette::red, |out| {
            let _ = write!(out, "{:<12}", fault.name());
        }),
        None => palette.push(&mut line, "forwarded   ", Palette::dim),
    }
    line.push(' ');
    match &attempt.upstream {
        None => palette.push(&mut line, "not forwarded", Palette::dim),
        Some(answer) => match answer.status() {
            Some(status) => {
                line.push_str("upstream ");
                palette.push_status(&mut line, status);
                if let Some(id) = answer.resource_id() {
                    line.push(' ');
                    palette.push(&mut line, &terminal_safe(id), Palette::cyan);
                }
                if answer.replayed() {
                    palette.push(&mut line, " replayed", Palette::dim);
                }
            }
            None => palette.push_with(&mut line, Palette::red, |out| {
                out.push_str("upstream unreachable: ");
                out.push_str(&terminal_safe(answer.error().unwrap_or_default()));
            }),
        },
    }
    line.push_str("  → ");
    match attempt.client_status {
        Some(status) => {
            line.push_str("client got ");
            palette.push_status(&mut line, status);
        }
        None => palette.push(&mut line, "client got no answer", Palette::yellow),
    }
    line
}

/// The `schema` value of every `idem proxy --format json` line (schemas/idem-proxy-line.json).
pub(crate) const LINE_SCHEMA: &str = "idem-proxy-line/1";

/// One line of `idem proxy --format json`: the listening line, one line per attempt, and the
/// closing summary, told apart by `event`.
#[derive(Debug, Serialize, schemars::JsonSchema)]
#[serde(tag = "event", rename_all = "snake_case")]
pub(crate) enum ProxyLine<'a> {
    Listening {
        url: String,
        upstream: String,
        /// The fault, as `--fault` takes it: `lose-answer`, `timeout`, `reset`, `status:CODE`,
        /// `delay:DUR`.
        #[schemars(with = "String")]
        fault: Fault,
    },
    Attempt(AttemptLine),
    /// A request answered by the proxy itself and not judged: a forwarding loop (508) or a body
    /// that stalled past --idle-timeout (408).
    Refused(RefusedLine),
    /// Attempt and refused lines left out since the last such line because stdout could not keep
    /// up with the requests (every attempt is still judged and counted in the summary).
    NotShown {
        count: u64,
    },
    Summary {
        summary: &'a ProxyReport,
    },
}

impl ProxyLine<'_> {
    /// The line as printed, `schema` first.
    pub(crate) fn to_json(&self) -> String {
        crate::json_output::line(LINE_SCHEMA, self).unwrap_or_default()
    }
}

/// A request the proxy refused before judging it.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct RefusedLine {
    /// When it was refused, RFC 3339 in UTC with milliseconds.
    pub time: String,
    pub method: String,
    pub path: String,
    /// 508 (the request came back through this proxy) or 408 (its body stalled).
    pub status: u16,
    /// `forwarding-loop` or `body-stalled`, as the problem+json answer's type says.
    pub code: &'static str,
    pub reason: String,
}

/// What the proxy reports as it goes, for the live printer.
#[derive(Debug)]
pub enum ProxyEvent {
    Attempt(Box<LiveAttempt>),
    Refused(RefusedLine),
}

/// One attempt as a JSON line.
#[derive(Debug, Serialize, schemars::JsonSchema)]
pub(crate) struct AttemptLine {
    /// When it arrived, RFC 3339 in UTC with milliseconds.
    pub time: String,
    pub operation: usize,
    pub attempt: u32,
    pub method: String,
    pub path: String,
    pub key: Option<String>,
    pub body_bytes: usize,
    /// The fault applied (as `--fault` takes it), `null` when forwarded untouched.
    #[schemars(with = "Option<String>")]
    pub fault: Option<Fault>,
    pub forwarded: bool,
    pub upstream_status: Option<u16>,
    pub upstream_error: Option<String>,
    pub resource_id: Option<String>,
    pub replayed: bool,
    /// The status the client was given; `null` when its connection was closed instead.
    pub client_status: Option<u16>,
}

impl AttemptLine {
    pub(crate) fn new(live: &LiveAttempt) -> AttemptLine {
        let attempt = &live.attempt;
        let upstream = attempt.upstream.as_ref();
        AttemptLine {
            time: crate::clock::rfc3339(live.time),
            operation: live.operation,
            attempt: attempt.number,
            method: live.route.method.as_str().to_string(),
            path: live.route.path.to_string(),
            key: live.key.clone(),
            body_bytes: attempt.body_len as usize,
            fault: attempt.fault,
            forwarded: upstream.is_some(),
            upstream_status: upstream.and_then(|answer| answer.status()),
            upstream_error: upstream.and_then(|answer| answer.error()).map(str::to_string),
            resource_id: upstream.and_then(|answer| answer.resource_id()).map(str::to_string),
            replayed: upstream.is_some_and(|answer| answer.replayed()),
            client_status: attempt.client_status,
        }
    }
}

/// The listening line.
pub(crate) fn banner(url: &str, upstream: &str, fault: &str, palette: Palette) -> String {
    format!(
        "{} {url} → {upstream}  (fault {fault})\n{}",
        palette.bold("idem proxy listening on"),
        palette.dim("point the client under test at it; Ctrl-C ends the run and judges it")
    )
}

/// The closing summary: one block per operation, then the verdict.
pub(crate) fn summary(report: &ProxyReport, palette: Palette) -> String {
    let mut text = String::new();
    for op in &report.operations {
        let mark = match op.outcome {
            RetryConduct::Safe => palette.green("✓"),
            RetryConduct::NotFaulted => palette.dim("·"),
            RetryConduct::Warning => palette.yellow("!"),
            RetryConduct::Mistake => palette.red("✗"),
        };
        let keys = match op.keys.as_slice() {
            [Some(_)] => "one key".to_string(),
            [None] => "no key".to_string(),
            keys => format!("{} keys", keys.len()),
        };
        let ids = match op.resource_ids.as_slice() {
            [] => String::new(),
            ids => format!(", {}", ids.iter().map(|id| terminal_safe(id).into_owned()).collect::<Vec<_>>().join(", ")),
        };
        // One resource in the answers is a replayed answer; only the upstream's count shows
        // that it executed once.
        let counted = report.count.is_some();
        let headline = match (op.outcome, counted) {
            (RetryConduct::Safe, true) => "  retried with the same key and body; executed at most once (counted)",
            (RetryConduct::Safe, false) => {
                "  retried with the same key and body; its answer was replayed (side effects not counted: give --count-url)"
            }
            (RetryConduct::NotFaulted, _) => "  no fault applied",
            (RetryConduct::Warning | RetryConduct::Mistake, _) => "",
        };
        text.push_str(&format!(
            "{mark} op {} {} {}: {} attempt{}, {keys}, {}{ids}{headline}\n",
            op.operation,
            op.method,
            terminal_safe(&op.path),
            op.attempts,
            if op.attempts == 1 { "" } else { "s" },
            match (op.executions, counted) {
                (1, true) => "executed once (counted)".to_string(),
                (1, false) => "one resource".to_string(),
                (n, _) => format!("executed {n} times"),
            },
        ));
        for finding in &op.findings {
            let sign = if finding.kind.is_mistake() { palette.red("✗") } else { palette.yellow("!") };
            text.push_str(&format!("    {sign} {}\n", terminal_safe(&finding.message)));
        }
        if let Some(gave_up) = &op.gave_up {
            text.push_str(&format!("    {} {}\n", palette.dim("·"), terminal_safe(gave_up)));
        }
        if !op.evidence.is_empty() {
            let evidence: Vec<String> = op.evidence.iter().map(|e| e.phrase()).collect();
            text.push_str(&format!("    {} {}\n", palette.dim("evidence:"), terminal_safe(&evidence.join("; "))));
        }
    }
    if let (Some(count), true) = (&report.count, report.operations.len() > 1) {
        text.push_str(&format!("the upstream's count over the run: {}\n", count.phrase()));
    }
    let totals = &report.totals;
    if totals.unlisted_operations > 0 {
        let listed_bad = report.operations.iter().filter(|op| !op.outcome.is_fine()).count() as u64;
        text.push_str(&palette.dim(&format!(
            "… {} more operation(s) not listed ({} with a warning or mistake, {} finding(s)); all are counted below\n",
            totals.unlisted_operations,
            (totals.warning + totals.mistake).saturating_sub(listed_bad),
            totals.unlisted_findings
        )));
    }
    if report.passed_through > 0 {
        text.push_str(&palette.dim(&format!("{} other requests passed through unjudged\n", report.passed_through)));
    }
    if let Some(exit) = &report.client_exit {
        let status = exit.code.map(|code| format!("status {code}")).unwrap_or_else(|| "a signal".to_string());
        text.push_str(&format!("the client `{}` exited with {status}\n", terminal_safe(&exit.command)));
    }
    if report.upstream_failures > 0 {
        text.push_str(&palette.red(&format!(
            "the upstream failed to answer {} request(s): {}\n",
            report.upstream_failures,
            terminal_safe(report.last_upstream_error.as_deref().unwrap_or_default())
        )));
    }
    let total = totals.operations;
    let bad = totals.warning + totals.mistake;
    let verdict = match report.verdict {
        RunVerdict::Safe => palette.green(&format!("✓ the client handled all {total} operation(s) safely")),
        RunVerdict::ClientMistakes => palette.red(&format!("✗ {bad} of {total} operation(s) show a client mistake")),
        RunVerdict::NoOperations => palette.yellow("no judged request reached the proxy"),
    };
    text.push_str(&verdict);
    text
}
