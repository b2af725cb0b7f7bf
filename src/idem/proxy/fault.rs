//! The faults `idem proxy` injects, and which attempts get one: the fault itself (`--fault`) and
//! the selection (`--first`, `--every`, `--probability`, `--match`). Pure values and decisions,
//! so they are tested without sockets.
use std::time::Duration;

use http::Method;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use serde::Serialize;

use crate::units::{format_duration, parse_duration};

/// What happens to a faulted attempt.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fault {
    /// Forward, let the upstream execute, read its answer, then close the client's connection
    /// without answering: the lost answer.
    LoseAnswer,
    /// Forward, then hold the answer until the client gives up or the hold passes, then drop it.
    Timeout { hold: Duration },
    /// Close the connection before forwarding: nothing executes.
    Reset,
    /// Answer with this status without forwarding, with `Retry-After` when given.
    Status { code: u16, retry_after: Option<u64> },
    /// Forward and answer late.
    Delay(Duration),
}

impl Fault {
    /// `lose-answer`, `timeout`, `reset`, `status:CODE` or `delay:DUR`, as `--fault` takes it.
    /// `--hold` and `--retry-after` are filled in afterwards.
    pub fn parse(text: &str) -> Result<Fault, String> {
        let text = text.trim();
        match text {
            "lose-answer" => return Ok(Fault::LoseAnswer),
            "timeout" => return Ok(Fault::Timeout { hold: Duration::from_secs(30) }),
            "reset" => return Ok(Fault::Reset),
            _ => {}
        }
        if let Some(code) = text.strip_prefix("status:") {
            let code: u16 = code.parse().ok().filter(|code| (200..=599).contains(code)).ok_or_else(|| {
                format!("`{code}` is not an HTTP status for --fault status:CODE; write it like status:503")
            })?;
            return Ok(Fault::Status { code, retry_after: None });
        }
        if let Some(delay) = text.strip_prefix("delay:") {
            return Ok(Fault::Delay(parse_duration(delay)?));
        }
        Err(format!(
            "`{text}` is not a fault; use lose-answer, timeout, reset, status:CODE (e.g. status:503) or delay:DUR (e.g. delay:2s)"
        ))
    }

    /// Whether a client that gets this fault should retry: it does not know whether the request
    /// executed (lost answer, timeout, reset), or was told to try again (5xx, 429, 408).
    pub fn calls_for_a_retry(self) -> bool {
        match self {
            Fault::LoseAnswer | Fault::Timeout { .. } | Fault::Reset => true,
            Fault::Status { code, .. } => code >= 500 || code == 429 || code == 408,
            Fault::Delay(_) => false,
        }
    }

    /// The name used in live lines and JSON: `lose-answer`, `status:503`, `delay:2s`.
    pub fn name(self) -> String {
        match self {
            Fault::LoseAnswer => "lose-answer".to_string(),
            Fault::Timeout { .. } => "timeout".to_string(),
            Fault::Reset => "reset".to_string(),
            Fault::Status { code, .. } => format!("status:{code}"),
            Fault::Delay(delay) => format!("delay:{}", format_duration(delay)),
        }
    }
}

impl Serialize for Fault {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&self.name())
    }
}

/// Which of the matching attempts get the fault.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Selection {
    /// The first N attempts of each logical operation.
    First(u32),
    /// Every K-th matching attempt, counted across operations.
    Every(u64),
    /// Each matching attempt with this probability.
    Probability(f64),
}

/// One `--match 'METHOD /path*'` pattern: an optional method and a path where `*` matches any run
/// of characters.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MatchPattern {
    method: Option<Method>,
    path: String,
}

impl MatchPattern {
    pub fn parse(text: &str) -> Result<MatchPattern, String> {
        let text = text.trim();
        let (method, path) = match text.split_once(char::is_whitespace) {
            Some((method, path)) => {
                let method = Method::from_bytes(method.to_ascii_uppercase().as_bytes())
                    .map_err(|_| format!("`{method}` in --match `{text}` is not an HTTP method"))?;
                (Some(method), path.trim())
            }
            None if text.starts_with('/') || text.starts_with('*') => (None, text),
            None => {
                let method = Method::from_bytes(text.to_ascii_uppercase().as_bytes()).map_err(|_| {
                    format!("--match `{text}` is neither a path nor a method; write it like 'POST /payments*'")
                })?;
                (Some(method), "*")
            }
        };
        if !(path.starts_with('/') || path.starts_with('*')) {
            return Err(format!(
                "the path in --match `{text}` must start with / or *; write it like 'POST /payments*'"
            ));
        }
        Ok(MatchPattern { method, path: path.to_string() })
    }

    pub fn matches(&self, method: &Method, path: &str) -> bool {
        self.method.as_ref().is_none_or(|wanted| wanted == method) && glob_matches(&self.path, path)
    }
}

/// `*` matches any run of characters (including `/`), everything else itself.
fn glob_matches(pattern: &str, text: &str) -> bool {
    let parts: Vec<&str> = pattern.split('*').collect();
    let [first, middle @ .., last] = parts.as_slice() else { return pattern == text };
    if parts.len() == 1 {
        return pattern == text;
    }
    let Some(mut rest) = text.strip_prefix(first) else { return false };
    for part in middle {
        match rest.find(part) {
            Some(at) => rest = &rest[at + part.len()..],
            None => return false,
        }
    }
    rest.len() >= last.len() && rest.ends_with(last)
}

/// The requests the proxy judges: those matching a pattern, or by default every request that
/// changes something (not GET, HEAD or OPTIONS).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Matcher {
    patterns: Vec<MatchPattern>,
}

impl Matcher {
    pub fn new(patterns: Vec<MatchPattern>) -> Matcher {
        Matcher { patterns }
    }

    pub fn matches(&self, method: &Method, path: &str) -> bool {
        if self.patterns.is_empty() {
            return !matches!(*method, Method::GET | Method::HEAD | Method::OPTIONS);
        }
        self.patterns.iter().any(|pattern| pattern.matches(method, path))
    }
}

/// Decides, attempt by attempt, whether the fault applies.
#[derive(Debug)]
pub(crate) struct FaultPlan {
    pub fault: Fault,
    pub selection: Selection,
    rng: StdRng,
    matched: u64,
}

impl FaultPlan {
    /// `seed` makes `--probability` repeatable; without it the draws are random.
    pub(crate) fn new(fault: Fault, selection: Selection, seed: Option<u64>) -> FaultPlan {
        let rng = match seed {
            Some(seed) => StdRng::seed_from_u64(seed),
            None => StdRng::from_os_rng(),
        };
        FaultPlan { fault, selection, rng, matched: 0 }
    }

    /// The fault for the next matching attempt, which is attempt `attempt` (1-based) of its
    /// operation.
    pub(crate) fn decide(&mut self, attempt: u32) -> Option<Fault> {
        self.matched += 1;
        let applies = match self.selection {
            Selection::First(n) => attempt <= n,
            Selection::Every(k) => k > 0 && self.matched.is_multiple_of(k),
            Selection::Probability(p) => self.rng.random_bool(p.clamp(0.0, 1.0)),
        };
        applies.then_some(self.fault)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn faults_parse_as_documented() {
        assert_eq!(Fault::parse("lose-answer"), Ok(Fault::LoseAnswer));
        assert_eq!(Fault::parse("reset"), Ok(Fault::Reset));
        assert_eq!(Fault::parse("status:503"), Ok(Fault::Status { code: 503, retry_after: None }));
        assert_eq!(Fault::parse("delay:250ms"), Ok(Fault::Delay(Duration::from_millis(250))));
        assert!(Fault::parse("status:99").is_err());
        assert!(Fault::parse("delay:soon").is_err());
        assert!(Fault::parse("explode").unwrap_err().contains("lose-answer"));
        assert_eq!(Fault::Delay(Duration::from_secs(2)).name(), "delay:2.00s");
    }

    #[test]
    fn patterns_match_method_and_path() {
        let pattern = MatchPattern::parse("POST /payments*").unwrap();
        assert!(pattern.matches(&Method::POST, "/payments"));
        assert!(pattern.matches(&Method::POST, "/payments/pay_1/refunds"));
        assert!(!pattern.matches(&Method::PUT, "/payments"));
        assert!(!pattern.matches(&Method::POST, "/refunds"));
        let any_method = MatchPattern::parse("/v1/*/capture").unwrap();
        assert!(any_method.matches(&Method::PUT, "/v1/pay_1/capture"));
        assert!(!any_method.matches(&Method::PUT, "/v1/pay_1/refund"));
        assert!(MatchPattern::parse("POST payments").is_err());
    }

    #[test]
    fn by_default_only_requests_that_change_something_are_judged() {
        let matcher = Matcher::default();
        assert!(matcher.matches(&Method::POST, "/anything"));
        assert!(matcher.matches(&Method::DELETE, "/anything"));
        assert!(!matcher.matches(&Method::GET, "/payments"));
    }

    #[test]
    fn selections_pick_the_documented_attempts() {
        let mut first = FaultPlan::new(Fault::Reset, Selection::First(2), Some(1));
        assert_eq!([1, 2, 3].map(|n| first.decide(n).is_some()), [true, true, false]);
        let mut every = FaultPlan::new(Fault::Reset, Selection::Every(3), Some(1));
        assert_eq!([1, 1, 1, 1, 1, 1].map(|n| every.decide(n).is_some()), [false, false, true, false, false, true]);
        let draws = |seed| {
            let mut plan = FaultPlan::new(Fault::Reset, Selection::Probability(0.5), Some(seed));
            (0..32).map(|_| plan.decide(1).is_some()).collect::<Vec<_>>()
        };
        assert_eq!(draws(7), draws(7), "a seed makes the draws repeatable");
        assert!(draws(7).contains(&true) && draws(7).contains(&false));
    }
}
