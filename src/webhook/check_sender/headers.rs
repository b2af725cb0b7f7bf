//! The headers a well-behaved sender adds: a JSON content type for JSON, and its name.
use super::probe::{SenderFinding, SenderObservation, bounded};
use crate::http::body::looks_like_json;
use crate::output::terminal_safe;

/// `application/json`, with or without parameters, or a `+json` type such as
/// `application/cloudevents+json`.
fn is_json_type(content_type: &str) -> bool {
    let essence = content_type.split(';').next().unwrap_or("").trim().to_ascii_lowercase();
    essence == "application/json" || (essence.starts_with("application/") && essence.ends_with("+json"))
}

pub(super) fn content_type_json(observed: &SenderObservation) -> SenderFinding {
    let mut json = 0;
    let mut bad = Vec::new();
    for (event, attempt) in observed.attempts() {
        if !looks_like_json(&attempt.arrival.body) {
            continue;
        }
        json += 1;
        match attempt.arrival.content_type.as_deref() {
            Some(content_type) if is_json_type(content_type) => {}
            Some(other) => bad.push(format!(
                "{} attempt {}: a JSON body sent as `{}`",
                event.name(),
                attempt.number,
                terminal_safe(other)
            )),
            None => bad.push(format!(
                "{} attempt {}: a JSON body sent without a Content-Type",
                event.name(),
                attempt.number
            )),
        }
    }
    if json == 0 {
        return SenderFinding::Skipped("no attempt had a JSON body".to_string());
    }
    if bad.is_empty() {
        SenderFinding::Held(vec![format!("all {json} JSON bodies were sent as application/json")])
    } else {
        let finding = format!("{} of {json} JSON bodies were not sent as application/json: {}", bad.len(), bad[0]);
        SenderFinding::broken(finding, bounded(bad))
    }
}

pub(super) fn identifies_itself(observed: &SenderObservation) -> SenderFinding {
    let mut agents: Vec<String> = Vec::new();
    let mut without = 0;
    let mut total = 0;
    for (_, attempt) in observed.attempts() {
        total += 1;
        match attempt.arrival.user_agent.as_deref().map(str::trim).filter(|agent| !agent.is_empty()) {
            Some(agent) => {
                let agent = terminal_safe(agent).into_owned();
                if !agents.contains(&agent) {
                    agents.push(agent);
                }
            }
            None => without += 1,
        }
    }
    if total == 0 {
        return SenderFinding::Skipped("no attempt arrived".to_string());
    }
    if without > 0 {
        let finding = format!("{without} of {total} attempts carried no User-Agent");
        return SenderFinding::broken(finding.clone(), vec![finding]);
    }
    SenderFinding::Held(bounded(agents.into_iter().map(|agent| format!("User-Agent: {agent}")).collect()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_types_include_parameters_and_suffixes() {
        assert!(is_json_type("application/json"));
        assert!(is_json_type("Application/JSON; charset=utf-8"));
        assert!(is_json_type("application/cloudevents+json"));
        assert!(!is_json_type("text/plain"));
        assert!(!is_json_type("application/x-www-form-urlencoded"));
    }
}
