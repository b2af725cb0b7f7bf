//! `raw-body-verified`: the signature covers the bytes sent, so a body no serialiser would write
//! must verify; and, when the valid delivery was refused, whether a forgery is refused the same way.
use super::catalogue::RAW_BODY_VERIFIED;
use super::probe::{Answer, Probe, describe, said, timed_send};
use crate::conformance::CheckResult;
use crate::webhook::delivery::unix_now;

/// What `raw-body-verified` saw: the check, the status of its answer, and the re-serialisation
/// style whose body the receiver accepted when the unusual one was refused.
pub(crate) struct RawBody {
    pub check: CheckResult,
    pub status: Option<u16>,
    pub accepted_style: Option<&'static str>,
}

/// `raw-body-verified`: an event written as no serialiser would write it, correctly signed.
/// `valid_accepted` says whether the ordinary delivery got through. When this one is refused, the
/// same content is sent written as the common serialisers write it (Python's `json.dumps`
/// default, compact, pretty-printed, sorted keys, ASCII-escaped): one the receiver accepts proves
/// that it verifies a re-serialisation, and names the style. When the valid delivery was refused
/// too, the styles are of that delivery's event, which may explain the refusal. When every
/// writing is refused, the receiver refuses the content, not the bytes, and nothing is proven.
pub(crate) async fn raw_body(probe: &Probe, valid_accepted: bool) -> anyhow::Result<RawBody> {
    let (message, written) = probe.raw_event();
    let sent = timed_send(probe, probe.request(&message, unix_now())?).await;
    let accepted = matches!(&sent.answer, Answer::Status(exchange) if exchange.status.is_success());
    let status = match &sent.answer {
        Answer::Status(exchange) => Some(exchange.status.as_u16()),
        _ => None,
    };
    let mut evidence = vec![format!("event {} {written} → {}", message.event_id, describe(&sent.answer))];
    let mut accepted_style = None;
    if !accepted && !matches!(status, Some(404 | 405)) {
        let source = if valid_accepted { message } else { probe.event() };
        for (style, restyled) in probe.restyled_events(&source) {
            let answer = probe.send(probe.request(&restyled, unix_now())?).await;
            if matches!(&answer, Answer::Status(exchange) if exchange.status.is_success()) {
                accepted_style = Some(style);
                break;
            }
        }
    }
    let check = match (accepted, accepted_style, valid_accepted) {
        (true, _, _) => RAW_BODY_VERIFIED.held(evidence, sent.took),
        (false, Some(style), _) => {
            let refused = if valid_accepted { "this event" } else { "the valid delivery" };
            evidence.push(format!(
                "the receiver verifies a re-serialised body, not the raw bytes: {refused} was refused and the same \
                 event written {style} was accepted; compute the signature over the request body exactly as \
                 received, before any JSON parsing"
            ));
            let finding = format!("refused the event as sent ({}) and accepted it written {style}", said(&sent.answer));
            RAW_BODY_VERIFIED.broken(finding, evidence, sent.took)
        }
        (false, None, true) => {
            evidence.push(
                "could not judge: the same event was refused however it was written (compact, as Python's \
                 json.dumps writes it, pretty-printed, sorted keys), so the receiver refuses its content, not its \
                 bytes; choose what the receiver handles with --event TYPE or -d BODY"
                    .to_string(),
            );
            RAW_BODY_VERIFIED.skipped(evidence.join("; "))
        }
        (false, None, false) => RAW_BODY_VERIFIED.skipped(format!(
            "could not judge: nothing was accepted, not the valid delivery and not its event written as Python's \
             json.dumps, pretty-printers and sorted-key serialisers write it, so re-serialisation is not what \
             refuses it ({})",
            evidence.join("; ")
        )),
    };
    Ok(RawBody { check, status, accepted_style })
}

/// Whether the receiver refuses a forged delivery with the same status as the correctly signed
/// one: then it cannot tell them apart, and the secret or the scheme is not the receiver's.
pub(crate) async fn refused_like_a_forgery(probe: &Probe, valid: &Answer) -> anyhow::Result<bool> {
    let Answer::Status(valid) = valid else { return Ok(false) };
    if !valid.status.is_client_error() {
        return Ok(false);
    }
    let forged = probe.forged(&probe.event());
    let answer = probe.send(probe.request(&forged, unix_now())?).await;
    Ok(matches!(answer, Answer::Status(exchange) if exchange.status == valid.status))
}
