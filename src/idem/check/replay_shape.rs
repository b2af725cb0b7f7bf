//! What a replay must keep and what counts as "the same key" and "the same body":
//! `replay-faithful` (status, `Location`, `ETag`), `equal-json-replays` (JSON that differs only
//! in key order and whitespace) and `key-syntax` (empty, over-long and quoted keys).
use std::time::Instant;

use http::header::{ETAG, LOCATION};
use http::{HeaderValue, StatusCode};
use serde_json::Value;

use super::catalogue::{EQUAL_JSON_REPLAYS, KEY_SYNTAX, REPLAY_FAITHFUL};
use super::probe::{Original, Probe, excerpt};
use crate::conformance::CheckResult;
use crate::idem::key_carrier::KeyCarrier;

/// `replay-faithful`: a second retry with the original key, its status and headers compared.
pub(super) async fn replay_faithful(probe: &mut Probe, original: &Original) -> anyhow::Result<CheckResult> {
    let started = Instant::now();
    let replay = probe.send(REPLAY_FAITHFUL.id, Some(&original.key), None, None).await?;
    let id = probe.id_of(&replay);
    if !replay.status.is_success() || id.as_deref() != Some(original.id.as_str()) {
        return Ok(REPLAY_FAITHFUL.skipped(format!(
            "the retry was not a replay (→ {} {}), see retry-replays",
            replay.status,
            id.as_deref().unwrap_or("(no id)")
        )));
    }
    let mut evidence =
        vec![format!("#1 {} {}, replay {} {}", original.exchange.status, original.id, replay.status, original.id)];
    let mut held = true;
    // What the replay changed, for the finding.
    let mut changed = Vec::new();
    if replay.status != original.exchange.status {
        held = false;
        changed.push(format!("changed the status {} → {}", original.exchange.status, replay.status));
        evidence.push(format!("the replay changed the status: {} → {}", original.exchange.status, replay.status));
    }
    let mut compared = Vec::new();
    for name in [LOCATION, ETAG] {
        let Some(first) = original.exchange.headers.get(&name) else { continue };
        compared.push(name.as_str().to_string());
        let show = |value: &HeaderValue| String::from_utf8_lossy(value.as_bytes()).into_owned();
        match replay.headers.get(&name) {
            None => {
                held = false;
                changed.push(format!("dropped {name}"));
                evidence.push(format!("#1 had {name}: {}, the replay has none", show(first)));
            }
            Some(again) if again != first => {
                held = false;
                changed.push(format!("changed {name} {} → {}", show(first), show(again)));
                evidence.push(format!("{name} changed: {} → {}", show(first), show(again)));
            }
            Some(again) => evidence.push(format!("{name}: {} on both", show(again))),
        }
    }
    if compared.is_empty() {
        evidence.push("#1 had neither Location nor ETag: only the status was compared".to_string());
    }
    let finding = format!("the replay of {} {}", original.id, changed.join(", "));
    Ok(REPLAY_FAITHFUL.judged(held, finding, evidence, started.elapsed()))
}

/// The JSON object `body` with its keys in reverse order and other whitespace; `None` when the
/// body is not a JSON object.
pub(super) fn reserialise(body: &[u8]) -> Option<Vec<u8>> {
    let Ok(Value::Object(fields)) = serde_json::from_slice::<Value>(body) else { return None };
    let mut out = String::from("{\n");
    let entries: Vec<_> = fields.iter().rev().collect();
    for (index, (name, value)) in entries.iter().enumerate() {
        let comma = if index + 1 < entries.len() { "," } else { "" };
        out.push_str(&format!(
            "  {} : {}{comma}\n",
            serde_json::to_string(name).ok()?,
            serde_json::to_string(value).ok()?
        ));
    }
    out.push_str("}\n");
    Some(out.into_bytes())
}

/// `equal-json-replays`.
pub(super) async fn equal_json_replays(probe: &mut Probe, original: &Original) -> anyhow::Result<CheckResult> {
    let Some(reordered) = reserialise(&probe.spec.body) else {
        return Ok(EQUAL_JSON_REPLAYS.skipped("the request body is not a JSON object"));
    };
    let started = Instant::now();
    // Re-serialised after the key is placed: a key carried in the body goes in compact, and
    // placing it into the re-serialised body would undo the re-serialisation.
    let mut request = probe.spec.build(Some(&original.key))?;
    let reordered = reserialise(request.body()).unwrap_or(reordered);
    *request.body_mut() = reordered.clone().into();
    let answer = probe.send_request(EQUAL_JSON_REPLAYS.id, request).await?;
    let id = probe.id_of(&answer).filter(|_| answer.status.is_success());
    let mut evidence = vec![format!(
        "same key, the body re-serialised ({}) → {} {}",
        excerpt(&reordered),
        answer.status,
        id.as_deref().unwrap_or("(no id)")
    )];
    let held = match &id {
        Some(id) if *id == original.id => {
            evidence.push(format!("replayed {id}"));
            true
        }
        Some(id) => {
            evidence.push(format!("executed again: {id} besides {}", original.id));
            false
        }
        None => {
            evidence.push(format!("equal JSON was refused: {}", excerpt(&answer.body)));
            false
        }
    };
    let finding = match &id {
        Some(id) => format!("the same JSON re-serialised executed again: {id} besides {}", original.id),
        None => format!("the same JSON re-serialised was refused with {}", answer.status),
    };
    Ok(EQUAL_JSON_REPLAYS.judged(held, finding, evidence, started.elapsed()))
}

/// `key-syntax`: `max_length` is the longest key the profile allows (255 unless it says otherwise).
pub(super) async fn key_syntax(
    probe: &mut Probe,
    original: &Original,
    max_length: usize,
) -> anyhow::Result<CheckResult> {
    let started = Instant::now();
    let mut evidence = Vec::new();
    let mut held = true;
    // Each key answered wrongly, with its answer, for the finding.
    let mut wrong = Vec::new();
    let long = "k".repeat(max_length + 1);
    let long_label = format!("a {}-character key", max_length + 1);
    let key_in = probe.spec.key_in();
    // The header is the default, and its evidence reads as it always did.
    let carried = match probe.spec.key_carrier {
        KeyCarrier::Header => String::new(),
        _ => format!(" ({key_in})"),
    };
    for (label, raw) in [("an empty key", String::new()), (long_label.as_str(), long)] {
        // Where the key lives: an empty header, an empty body member, an empty directive, …
        let answer = probe.send(KEY_SYNTAX.id, Some(&raw), None, None).await?;
        let id = probe.id_of(&answer).filter(|_| answer.status.is_success());
        let ok = answer.status == StatusCode::BAD_REQUEST;
        held &= ok;
        if !ok {
            wrong.push(format!("{label} → {}", answer.status));
        }
        evidence.push(format!(
            "{label}{carried} → {}{}",
            answer.status,
            match (&id, ok) {
                (Some(id), _) => format!(" {id}: executed, expected 400"),
                (None, false) => ", expected 400".to_string(),
                (None, true) => String::new(),
            }
        ));
    }
    if probe.spec.key_carrier != KeyCarrier::Header {
        // "k" and k are one key only where the key is a structured-field string, in a header;
        // a JSON string or a query parameter has its own quoting, so the quotes are part of the key.
        evidence.push(format!(
            "the quoted form \"{}\" was not sent: a structured-field string is a header's notion, and the key is in {key_in}",
            original.key
        ));
        let finding = format!("expected 400: {}", wrong.join("; "));
        let mut result = KEY_SYNTAX.judged(held, finding, evidence, started.elapsed());
        // The catalogue's fix is about the header's sf-string; this API reads the key elsewhere.
        result.fix =
            result.fix.map(|_| "refuse an empty key and one over 255 characters with 400 where the key is read");
        return Ok(result);
    }
    let quoted = format!("\"{}\"", original.key);
    let mut request = probe.spec.build(None)?;
    request.headers_mut().insert(probe.spec.key_header.clone(), HeaderValue::from_str(&quoted)?);
    let answer = probe.send_request(KEY_SYNTAX.id, request).await?;
    let id = probe.id_of(&answer).filter(|_| answer.status.is_success());
    match &id {
        Some(id) if *id == original.id => {
            evidence.push(format!("the quoted key {quoted} → {} {id}: the replay", answer.status))
        }
        Some(id) => {
            held = false;
            wrong.push(format!("the quoted key → {} {id}, a second resource besides {}", answer.status, original.id));
            evidence.push(format!(
                "the quoted key {quoted} → {} {id}: executed again, besides {}, so \"k\" and k are two keys",
                answer.status, original.id
            ));
        }
        None => {
            held = false;
            wrong.push(format!("the quoted key → {}, not the replay", answer.status));
            evidence.push(format!("the quoted key {quoted} → {}: refused ({})", answer.status, excerpt(&answer.body)));
        }
    }
    let finding = wrong.join("; ");
    Ok(KEY_SYNTAX.judged(held, finding, evidence, started.elapsed()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reserialised_json_is_equal_but_not_identical() {
        let body = br#"{"amount":1990,"currency":"RUB"}"#;
        let again = reserialise(body).unwrap();
        assert_ne!(again, body);
        let parse = |b: &[u8]| serde_json::from_slice::<Value>(b).unwrap();
        assert_eq!(parse(&again), parse(body));
        assert_eq!(reserialise(b"a=1"), None);
    }
}
