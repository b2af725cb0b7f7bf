//! `--also`: duplicates spread over several targets (instances behind a load balancer), round
//! robin. Over HTTP/2 each target gets one connection, every connection is staged (all but its
//! final frames sent and acknowledged), then all their final frames go out in one batched
//! submission (`batch`);
//! over HTTP/1.1 the last-byte engine already opens a connection per duplicate, each to its own
//! target.
use std::time::Duration;

use anyhow::Context;
use bytes::Bytes;
use http::Request;

use super::answer::{Answer, Release};
use super::batch;
use super::connect::BoxStream;
use super::h2_single_packet;

/// The target duplicate `index` goes to, as a round-robin load balancer would send it.
pub(crate) fn target_of(index: usize, targets: usize) -> usize {
    index % targets.max(1)
}

/// Single-packet over one connection per target: `connections[t]` carries the duplicates whose
/// `target_of` is `t`. The release spread is the batched submission's.
pub(crate) async fn single_packet(
    connections: Vec<BoxStream>,
    requests: &[Request<Bytes>],
    timeout: Duration,
) -> anyhow::Result<(Vec<Answer>, Release)> {
    let targets = connections.len();
    let mut staging = tokio::task::JoinSet::new();
    for (target, stream) in connections.into_iter().enumerate() {
        let share: Vec<Request<Bytes>> = requests
            .iter()
            .enumerate()
            .filter(|(index, _)| target_of(*index, targets) == target)
            .map(|(_, request)| request.clone())
            .collect();
        staging.spawn(async move { (target, h2_single_packet::stage(stream, &share, timeout).await) });
    }
    let mut staged = Vec::with_capacity(targets);
    while let Some(joined) = staging.join_next().await {
        let (target, result) = joined.context("a staging task failed")?;
        staged.push((target, result.with_context(|| format!("cannot prepare the race on target {}", target + 1))?));
    }
    staged.sort_by_key(|(target, _)| *target);

    // The release: each connection's final frames prepared (sealed into TLS records on https),
    // then all of them handed to the kernel in one batched submission.
    let held = staged.iter_mut().map(|(_, connection)| connection.hold()).collect::<anyhow::Result<Vec<_>>>()?;
    let mut streams: Vec<&mut BoxStream> = staged.iter_mut().map(|(_, connection)| connection.stream()).collect();
    let released = batch::release(&mut streams, &held).await?;
    let mut target_offsets = vec![Duration::ZERO; targets];
    let mut bytes = 0;
    for (index, (target, connection)) in staged.iter_mut().enumerate() {
        let offset = released.offsets.get(index).copied().unwrap_or_default();
        target_offsets[*target] = offset;
        connection.released_at(released.started + offset);
        bytes += connection.final_bytes();
    }
    let offsets = (0..requests.len()).map(|index| target_offsets[target_of(index, targets)]).collect();
    let release =
        Release { writes: released.writes, bytes, spread: released.spread, offsets, batch: Some(released.batch) };

    let mut collecting = tokio::task::JoinSet::new();
    for (target, connection) in staged {
        collecting.spawn(async move { (target, connection.collect().await) });
    }
    let mut by_target: Vec<std::vec::IntoIter<Answer>> = (0..targets).map(|_| Vec::new().into_iter()).collect();
    while let Some(joined) = collecting.join_next().await {
        let (target, answers) = joined.context("a reading task failed")?;
        by_target[target] = answers.into_iter();
    }
    let answers = (0..requests.len())
        .map(|index| {
            by_target[target_of(index, targets)]
                .next()
                .unwrap_or(Answer { outcome: Err("no answer was read".into()), latency: None })
        })
        .collect();
    Ok((answers, release))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_robin() {
        let spread: Vec<usize> = (0..5).map(|index| target_of(index, 2)).collect();
        assert_eq!(spread, [0, 1, 0, 1, 0]);
        assert_eq!(target_of(3, 1), 0);
    }
}
