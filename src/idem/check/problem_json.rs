//! `problem-json`: the error answers seen during the whole suite are RFC 9457 problem details.
use std::time::Duration;

use super::catalogue::PROBLEM_JSON;
use super::probe::{ErrorAnswer, Probe};
use crate::conformance::CheckResult;

/// `problem-json`, from every error answer seen during the suite.
pub(super) fn problem_json(probe: &Probe) -> CheckResult {
    if probe.error_answers.is_empty() {
        return PROBLEM_JSON.skipped("no error answers were seen");
    }
    // Identical answers (nineteen 409s from one race) are counted, not listed one by one.
    let mut seen: Vec<(&ErrorAnswer, usize)> = Vec::new();
    for answer in &probe.error_answers {
        match seen.iter_mut().find(|(known, _)| *known == answer) {
            Some((_, count)) => *count += 1,
            None => seen.push((answer, 1)),
        }
    }
    let mut evidence = Vec::new();
    let mut held = true;
    let (mut other, mut total) = (0, 0);
    for (ErrorAnswer { check, status, content_type }, count) in seen {
        let media_type = content_type.as_deref().and_then(|t| t.split(';').next()).map(str::trim).unwrap_or("");
        let problem = media_type.eq_ignore_ascii_case("application/problem+json");
        held &= problem;
        total += count;
        if !problem {
            other += count;
        }
        let times = if count > 1 { format!("{count} × ") } else { String::new() };
        evidence.push(format!("{check}: {times}{status} {}", content_type.as_deref().unwrap_or("(no content-type)")));
    }
    let finding = format!("{other} of {total} error answers were not application/problem+json");
    PROBLEM_JSON.judged(held, finding, evidence, Duration::ZERO)
}
