//! `stale-timestamp-rejected`, `future-timestamp-rejected` and `replay-rejected`: a signed
//! timestamp outside the tolerance, and a captured delivery re-sent after it, must get a 4xx.
use std::time::Duration;

use super::catalogue::{
    FUTURE_TIMESTAMP_ADVISED, FUTURE_TIMESTAMP_REJECTED, REPLAY_REJECTED, STALE_TIMESTAMP_REJECTED,
};
use super::probe::{Probe, refusal};
use crate::conformance::CheckResult;
use crate::units::format_duration;
use crate::webhook::deliver::engine::Message;
use crate::webhook::delivery::unix_now;

/// `stale-timestamp-rejected` and `future-timestamp-rejected`, `skew` seconds either side of now.
/// The second is advisory for a scheme whose provider's library accepts future timestamps.
pub(crate) async fn timestamps(probe: &Probe, skew: i64) -> anyhow::Result<Vec<CheckResult>> {
    let stale = probe.event();
    let what =
        format!("event {} signed {} ago", stale.event_id, format_duration(Duration::from_secs(skew.unsigned_abs())));
    let stale_result = refusal(STALE_TIMESTAMP_REJECTED, probe, what, probe.request(&stale, unix_now() - skew)?).await;
    let future = probe.event();
    let what = format!(
        "event {} signed {} in the future",
        future.event_id,
        format_duration(Duration::from_secs(skew.unsigned_abs()))
    );
    let lenient = probe.scheme.accepts_future_timestamps();
    let spec = if lenient { FUTURE_TIMESTAMP_ADVISED } else { FUTURE_TIMESTAMP_REJECTED };
    let mut future_result = refusal(spec, probe, what, probe.request(&future, unix_now() + skew)?).await;
    if lenient {
        future_result.evidence.push(format!(
            "advisory: {}'s own SDK accepts future timestamps (it refuses only old ones), so receivers built on it \
             accept this too; refusing it is stricter than the provider",
            probe.scheme.kind()
        ));
    }
    Ok(vec![stale_result, future_result])
}

/// The accepted first delivery as an attacker would have captured it `skew` seconds ago: the
/// same body, delivery id and headers, signed with the timestamp of that moment. Waiting out a
/// real tolerance would take minutes; the request is byte for byte what that wait would produce.
pub(crate) async fn replay(probe: &Probe, first: &Message, skew: i64) -> anyhow::Result<CheckResult> {
    let what = format!(
        "delivery {} replayed with the signature it carried {} ago",
        first.delivery_id,
        format_duration(Duration::from_secs(skew.unsigned_abs()))
    );
    Ok(refusal(REPLAY_REJECTED, probe, what, probe.request(first, unix_now() - skew)?).await)
}
