//! The script: how the receiver answers each attempt of each event. `500,hold,429:3,200` answers an
//! event's first attempt 500, holds the second without an answer until the sender gives up, answers
//! the third 429 with `Retry-After: 3` and the fourth 200; `;` separates events, in the order their
//! first attempts arrive.
use std::fmt;
use std::time::Duration;

use http::StatusCode;
use serde::Serialize;

/// What the issue asks for: one event led through the ways real receivers fail, one told the
/// endpoint is gone, one acknowledged at once.
pub(crate) const DEFAULT_SCRIPT: &str = "500,hold,429:3,200;410;200";

/// The answer to one attempt.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Step {
    /// Answer with this status, and `Retry-After` when given.
    Answer { status: StatusCode, retry_after: Option<Duration> },
    /// Never answer: wait until the sender gives up (closes the connection) or the run ends.
    Hold,
}

impl Step {
    pub const ACKNOWLEDGE: Step = Step::Answer { status: StatusCode::OK, retry_after: None };

    pub fn status(self) -> Option<StatusCode> {
        match self {
            Step::Answer { status, .. } => Some(status),
            Step::Hold => None,
        }
    }
}

impl fmt::Display for Step {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Step::Hold => f.write_str("hold"),
            Step::Answer { status, retry_after: None } => write!(f, "{}", status.as_u16()),
            Step::Answer { status, retry_after: Some(wait) } => write!(f, "{}:{}", status.as_u16(), wait.as_secs()),
        }
    }
}

impl Serialize for Step {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

/// Every event's steps.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Script {
    events: Vec<Vec<Step>>,
}

impl Default for Script {
    fn default() -> Script {
        // The default is a constant that the tests below parse.
        Script::parse(DEFAULT_SCRIPT).unwrap_or(Script { events: vec![vec![Step::ACKNOWLEDGE]] })
    }
}

impl Script {
    /// Parses `500,hold,429:3,200;410;200`.
    pub fn parse(text: &str) -> Result<Script, String> {
        let events = text
            .split(';')
            .enumerate()
            .map(|(index, event)| {
                event
                    .split(',')
                    .map(|step| parse_step(step).map_err(|err| format!("event {} of the script: {err}", index + 1)))
                    .collect::<Result<Vec<_>, _>>()
            })
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Script { events })
    }

    /// How many events the script describes.
    pub fn len(&self) -> usize {
        self.events.len()
    }

    #[cfg(test)]
    pub fn is_empty(&self) -> bool {
        self.events.is_empty()
    }

    /// How many scripted steps event `event` (0-based) has; events beyond the script have one (200).
    pub fn steps(&self, event: usize) -> usize {
        self.events.get(event).map_or(1, Vec::len)
    }

    /// The answer to attempt `attempt` (1-based) of event `event` (0-based). Events beyond the script
    /// are acknowledged at once; attempts beyond an event's steps get its last step again, so a
    /// `410` stays gone and a `200` keeps acknowledging.
    pub fn step(&self, event: usize, attempt: u32) -> Step {
        let Some(steps) = self.events.get(event) else {
            return Step::ACKNOWLEDGE;
        };
        let index = usize::try_from(attempt.saturating_sub(1)).unwrap_or(usize::MAX);
        steps.get(index).or_else(|| steps.last()).copied().unwrap_or(Step::ACKNOWLEDGE)
    }
}

impl fmt::Display for Script {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let events: Vec<String> = self
            .events
            .iter()
            .map(|steps| steps.iter().map(ToString::to_string).collect::<Vec<_>>().join(","))
            .collect();
        f.write_str(&events.join(";"))
    }
}

fn parse_step(text: &str) -> Result<Step, String> {
    let text = text.trim();
    if text.eq_ignore_ascii_case("hold") {
        return Ok(Step::Hold);
    }
    let (status, retry_after) = match text.split_once(':') {
        Some((status, seconds)) => (status, Some(seconds)),
        None => (text, None),
    };
    let status = status
        .trim()
        .parse::<u16>()
        .ok()
        .filter(|code| (200..=599).contains(code))
        .and_then(|code| StatusCode::from_u16(code).ok())
        .ok_or_else(|| {
            format!("`{text}` is not a step; write a status (200 to 599), STATUS:SECONDS for a Retry-After, or hold")
        })?;
    let retry_after =
        retry_after
            .map(|seconds| {
                seconds.trim().parse::<u64>().map(Duration::from_secs).map_err(|_| {
                    format!("`{text}`: the Retry-After after the colon must be whole seconds, as in 429:3")
                })
            })
            .transpose()?;
    Ok(Step::Answer { status, retry_after })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn answer(status: u16, retry_after: Option<u64>) -> Step {
        Step::Answer {
            status: StatusCode::from_u16(status).unwrap(),
            retry_after: retry_after.map(Duration::from_secs),
        }
    }

    #[test]
    fn the_default_script_is_the_issues() {
        let script = Script::parse(DEFAULT_SCRIPT).unwrap();
        assert_eq!(script, Script::default());
        assert_eq!(script.len(), 3);
        let first: Vec<Step> = (1..=4).map(|attempt| script.step(0, attempt)).collect();
        assert_eq!(first, [answer(500, None), Step::Hold, answer(429, Some(3)), answer(200, None)]);
        assert_eq!(script.step(1, 1), answer(410, None));
        assert_eq!(script.to_string(), DEFAULT_SCRIPT);
    }

    #[test]
    fn the_last_step_repeats_and_unscripted_events_are_acknowledged() {
        let script = Script::parse("410").unwrap();
        assert_eq!(script.step(0, 7), answer(410, None));
        assert_eq!(script.step(3, 1), Step::ACKNOWLEDGE);
        assert_eq!(script.steps(3), 1);
    }

    #[test]
    fn bad_steps_say_what_to_write() {
        for bad in ["", "50", "600", "ok", "429:", "429:1.5", "200;", "hold:3"] {
            let err = Script::parse(bad).unwrap_err();
            assert!(err.contains("event"), "{bad}: {err}");
        }
        assert_eq!(Script::parse(" 503:2 , HOLD ").unwrap().step(0, 2), Step::Hold);
    }
}
