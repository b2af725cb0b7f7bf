//! `valid-accepted` and `fast-ack`: the first, correctly signed delivery gets a 2xx, and soon
//! enough that the provider does not retry it.
use std::time::Duration;

use super::catalogue::{FAST_ACK, VALID_ACCEPTED};
use super::probe::{Answer, Probe, describe, said, timed_send};
use crate::conformance::CheckResult;
use crate::units::format_duration;
use crate::webhook::deliver::engine::Message;
use crate::webhook::delivery::unix_now;

/// Slack retries a request its receiver has not answered within 3 seconds.
pub(crate) const SLACK_LIMIT: Duration = Duration::from_secs(3);
/// GitHub gives up on a receiver after 10 seconds.
pub(crate) const GITHUB_LIMIT: Duration = Duration::from_secs(10);

/// The first, valid delivery; the answer is returned for `fast-ack`.
pub(crate) async fn valid(probe: &Probe, message: &Message) -> anyhow::Result<(CheckResult, Answer)> {
    let sent = timed_send(probe, probe.request(message, unix_now())?).await;
    let accepted = matches!(&sent.answer, Answer::Status(exchange) if exchange.status.is_success());
    let evidence =
        vec![format!("delivery {} (event {}) → {}", message.delivery_id, message.event_id, describe(&sent.answer))];
    let finding = match &sent.answer {
        Answer::Status(_) => format!("refused the valid delivery with {}", said(&sent.answer)),
        _ => format!("the valid delivery got {}", said(&sent.answer)),
    };
    Ok((VALID_ACCEPTED.judged(accepted, finding, evidence, sent.took), sent.answer))
}

/// `limit` is `--ack-within`: Slack's 3 seconds unless the user expects another provider's. A
/// refusal (a 4xx or 5xx) is not an acknowledgement, however fast: the provider retries it. So a
/// quick refusal cannot tell how fast the receiver acknowledges (skipped, saying why), and a slow
/// one was too slow either way.
pub(crate) fn fast_ack(answer: &Answer, limit: Duration) -> CheckResult {
    match answer {
        Answer::Status(exchange) if !exchange.status.is_success() && exchange.latency <= limit => {
            FAST_ACK.skipped(format!(
                "could not judge: the valid delivery was refused ({}), and a refusal is not an acknowledgement \
                 however fast it comes; make valid-accepted pass first",
                describe(answer)
            ))
        }
        Answer::Status(exchange) => {
            let took = exchange.latency;
            let mut evidence = vec![format!(
                "answered in {}, limit {} (Slack allows {}, GitHub {})",
                format_duration(took),
                format_duration(limit),
                format_duration(SLACK_LIMIT),
                format_duration(GITHUB_LIMIT)
            )];
            if took > GITHUB_LIMIT {
                evidence.push("GitHub would have given up on this delivery as well".to_string());
            }
            if !exchange.status.is_success() {
                evidence.push(format!(
                    "and it was refused ({}), which is no acknowledgement at all",
                    crate::webhook::deliver::engine::describe_status(exchange.status.as_u16())
                ));
            }
            let finding =
                format!("acknowledged in {}, over the {} limit", format_duration(took), format_duration(limit));
            FAST_ACK.judged(took <= limit, finding, evidence, took)
        }
        other => FAST_ACK.broken(
            format!("the valid delivery got no answer: {}", describe(other)),
            vec![describe(other)],
            Duration::ZERO,
        ),
    }
}
