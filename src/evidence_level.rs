//! The two levels a ✓ can rest on, and their wordings. A replayed answer is not one execution:
//! the same server id, a replay marker or a 409 show that the *answer* was replayed, while only
//! a count of side effects (`--count-url`) shows how many times the handler ran. A leaf, so the
//! verdict, the suites' report shape and every printer name the level the same way.
use serde::Serialize;

/// What a verdict rests on: `count` (the server's own count of side effects, read before and
/// after) or `answer` (what the answers showed: a server id, a replay marker, a 409, distinct ids).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum EvidenceLevel {
    /// Counted: `--count-url` showed how many times the server executed.
    Count,
    /// The answers alone: they show a replay, not how many times the handler ran.
    Answer,
}

impl EvidenceLevel {
    /// The weaker of two levels: a verdict over several steps is counted only if each step was.
    pub(crate) fn weakest(levels: impl IntoIterator<Item = EvidenceLevel>) -> Option<EvidenceLevel> {
        levels.into_iter().reduce(|a, b| if a == EvidenceLevel::Answer { a } else { b })
    }
}

/// What a ✓ that holds on a count says.
pub(crate) const COUNTED: &str = "executed once (counted)";

/// What a ✓ that holds on the answers alone says (followed by what showed it).
pub(crate) const ANSWER_REPLAYED: &str = "answer replayed";

/// The line under an answer-level ✓: what it does not show, and how to show it.
pub(crate) const NOT_COUNTED: &str = "side effects were not counted: the answers show a replay, not how many times the \
handler ran; give --count-url URL (a GET that counts what the server created) to count executions";

/// Why an answer-level ✓ is not accepted under `--require-count`, and how to give ground truth.
pub(crate) const COUNT_REQUIRED: &str = "ground truth was required (--require-count), but this rests on the answers \
alone, which show a replay, not how many times the handler ran: give --count-url URL (a GET that counts what the \
server created, with --count-pointer for the number in it)";
