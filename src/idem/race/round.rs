//! One round of a race: choose the synchronisation, send N duplicates through it, judge the
//! answers with the shared verdict. This is the engine `idem race`, `idem check` and `idem demo`
//! call in-process.
use std::time::Duration;

use anyhow::{Context, bail};
use bytes::Bytes;
use http::{Request, Uri};
use serde::Serialize;

use super::concurrent;
use crate::http::tls::{ALPN_H2, ALPN_HTTP11};
use crate::idem::request::RequestSpec;
use crate::idem::verdict::{self, Judgement, Observed, Timing};
use crate::race::answer::{Answer, Release};
use crate::race::batch::BatchMethod;
use crate::race::connect::{BoxStream, Connector};
use crate::race::{across, h1_last_byte, h2_frames, h2_single_packet};

/// `--sync`: how the duplicates are made to arrive together.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum SyncMode {
    /// single-packet where the server speaks HTTP/2 (h2 in ALPN on https, --http2 on http), else last-byte
    #[default]
    Auto,
    /// HTTP/2, one connection: every request's final frame released in one TCP packet
    SinglePacket,
    /// HTTP/1.1, one connection per request: every final byte released in one tight loop
    LastByte,
    /// Plain concurrent requests, no synchronisation (for comparison)
    None,
}

impl SyncMode {
    pub fn as_str(self) -> &'static str {
        match self {
            SyncMode::Auto => "auto",
            SyncMode::SinglePacket => "single-packet",
            SyncMode::LastByte => "last-byte",
            SyncMode::None => "none",
        }
    }
}

/// Which keys the duplicates carry.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum KeyMode {
    /// One key shared by every duplicate: the test.
    #[default]
    Same,
    /// A key per duplicate (`--distinct-keys`): a control, every request should execute.
    Distinct,
    /// No key header (`--no-key`): a control, every request should execute.
    None,
}

/// The release, as reported.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct ReleaseRecord {
    pub writes: usize,
    pub bytes: usize,
    #[serde(rename = "spread_us", serialize_with = "crate::units::as_us")]
    #[schemars(with = "f64")]
    pub spread: Duration,
    /// `--stagger`, as asked for; absent when the duplicates were released together.
    #[serde(
        rename = "stagger_us",
        skip_serializing_if = "Option::is_none",
        serialize_with = "crate::units::as_us_opt"
    )]
    #[schemars(with = "Option<f64>")]
    pub stagger: Option<Duration>,
    /// With `--stagger`: the achieved spacing between consecutive releases (#1→#2, #2→#3, …),
    /// measured on the client.
    #[serde(
        rename = "spacings_us",
        skip_serializing_if = "Vec::is_empty",
        serialize_with = "crate::units::as_us_list"
    )]
    #[schemars(with = "Vec<f64>")]
    pub spacings: Vec<Duration>,
    /// How several connections' final bytes were handed to the kernel together (last-byte, and
    /// single-packet with `--also`): `io_uring` (one submission), `send-loop` (non-blocking sends
    /// back to back) or `sequential` (one awaited write each); absent for one connection's single
    /// write and with `--stagger`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub batch: Option<BatchMethod>,
    /// With `batch`: connections whose final bytes the submission did not take in full (a full
    /// socket buffer), finished right after it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub finished_after_batch: Option<usize>,
}

impl ReleaseRecord {
    fn new(release: Release, stagger: Option<Duration>) -> ReleaseRecord {
        let spacings = match stagger {
            Some(_) => release.offsets.windows(2).map(|pair| pair[1].saturating_sub(pair[0])).collect(),
            None => Vec::new(),
        };
        ReleaseRecord {
            writes: release.writes,
            bytes: release.bytes,
            spread: release.spread,
            stagger,
            spacings,
            batch: release.batch.map(|batch| batch.method),
            finished_after_batch: release.batch.map(|batch| batch.finished_after),
        }
    }
}

/// One duplicate's answer, as reported.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct AnswerRecord {
    pub number: usize,
    /// This duplicate's key, only with `--distinct-keys`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub key: Option<String>,
    #[serde(flatten)]
    pub observed: Observed,
    #[serde(rename = "latency_ms", serialize_with = "crate::units::as_ms_opt")]
    #[schemars(with = "Option<f64>")]
    pub latency: Option<Duration>,
    /// The target (host:port) this duplicate was sent to, only with `--also`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub target: Option<String>,
}

/// Everything one round learned.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct RoundReport {
    pub round: usize,
    /// The synchronisation actually used (never `auto`).
    pub sync: SyncMode,
    /// Why it was used.
    pub sync_reason: String,
    pub key_mode: KeyMode,
    /// The key every duplicate carried (`null` with `--distinct-keys` or `--no-key`).
    pub key: Option<String>,
    pub answers: Vec<AnswerRecord>,
    /// The targets the duplicates were spread over (host:port), only with `--also`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub targets: Vec<String>,
    pub judgement: Judgement,
    /// `null` with `--sync none`, which does not synchronise anything.
    pub release: Option<ReleaseRecord>,
    /// Slowest minus fastest answer latency, over the answers that came.
    #[serde(rename = "latency_spread_ms", serialize_with = "crate::units::as_ms_opt")]
    #[schemars(with = "Option<f64>")]
    pub latency_spread: Option<Duration>,
    /// From the first duplicate's arrival at the server's handler to the last one's, as the
    /// server stamped them (`Server-Timing: arrival;desc="<Unix ns>"`, which `idem serve` and
    /// `webhook listen` send); `null` when fewer than two answers carried a stamp.
    #[serde(rename = "server_spread_us", serialize_with = "crate::units::as_us_opt")]
    #[schemars(with = "Option<f64>")]
    pub server_spread: Option<Duration>,
}

/// Sends `n` duplicates of `spec` synchronised by `sync` and judges the answers.
///
/// An `Err` means the round could not run (unreachable server, no HTTP/2 where it was required,
/// more duplicates than the server's stream limit); an answer that failed is an `Observed::failed`
/// inside the report, and the verdict says `errors`.
pub async fn race_round(
    spec: &RequestSpec,
    n: usize,
    sync: SyncMode,
    key_mode: KeyMode,
) -> anyhow::Result<RoundReport> {
    race_round_spread(spec, n, sync, key_mode, &Spread::default()).await
}

/// Where and when the duplicates of a round go, beyond one target and one moment.
#[derive(Debug, Clone, Default)]
pub struct Spread {
    /// More instances of the same API (`--also`): duplicates go round-robin over `spec.url` and
    /// these, as a load balancer would send them.
    pub also: Vec<Uri>,
    /// Release the duplicates this far apart, in order (#1, #2 `stagger` later, …) through the
    /// same synchronisation, instead of together (`--stagger`, `idem window`).
    pub stagger: Option<Duration>,
    /// The run's last round: after its count settles, the closing re-read (`--count-url`) finds
    /// executions that came later still, and they count as this round's.
    pub closing: bool,
}

/// `race_round`, spread over instances and in time as `spread` says.
pub async fn race_round_spread(
    spec: &RequestSpec,
    n: usize,
    sync: SyncMode,
    key_mode: KeyMode,
    spread: &Spread,
) -> anyhow::Result<RoundReport> {
    if n == 0 {
        bail!("a race needs at least one request");
    }
    let stagger = spread.stagger;
    if stagger.is_some() && sync == SyncMode::None {
        bail!("--stagger spaces a synchronised release, and --sync none has none; drop one of them");
    }
    let targets: Vec<RequestSpec> = std::iter::once(spec.clone())
        .chain(spread.also.iter().map(|url| RequestSpec { url: url.clone(), ..spec.clone() }))
        .collect();
    let (shared_key, keys) = duplicate_keys(spec, n, key_mode);
    let requests = keys
        .iter()
        .enumerate()
        .map(|(index, key)| targets[across::target_of(index, targets.len())].build(key.as_deref()))
        .collect::<anyhow::Result<Vec<_>>>()?;
    // The engines write raw sockets, so the round takes its whole share of --max-requests before
    // the first byte: a round is never cut short into a race of fewer duplicates.
    spec.budget.take(n as u64)?;
    let before = spec.count_before().await?;

    let raced = race_synchronised(spec, &targets, requests, sync, stagger).await?;
    let keys = RoundKeys { mode: key_mode, shared: shared_key, per_request: keys };
    let records = answer_records(spec, &keys, &raced.answers);
    let observed: Vec<Observed> = records.iter().map(|r| r.observed.clone()).collect();
    // A shared key is fresh unless it is the user's --key; the controls' keys are fresh or absent.
    let fresh = key_mode != KeyMode::Same || spec.draws_fresh_keys();
    let mut step = verdict::count_step(&observed, observed.len(), fresh);
    step.slowest = records.iter().filter_map(|record| record.latency).max().unwrap_or_default();
    let mut grounds =
        crate::idem::verdict::Grounds::gather(spec, keys.shared.as_deref(), before.as_deref(), step).await?;
    if spread.closing {
        grounds.close(spec, before.as_deref(), step).await?;
    }
    let mut round = report(keys, raced, records, &grounds, &spec.id_source());
    if targets.len() > 1 {
        round.targets = targets.iter().map(|target| target.race_target().authority()).collect();
        for (index, answer) in round.answers.iter_mut().enumerate() {
            answer.target = Some(round.targets[across::target_of(index, targets.len())].clone());
        }
    }
    Ok(round)
}

/// The key shared by every duplicate (`KeyMode::Same`), and each of the `n` duplicates' keys.
fn duplicate_keys(spec: &RequestSpec, n: usize, key_mode: KeyMode) -> (Option<String>, Vec<Option<String>>) {
    let shared_key = match key_mode {
        KeyMode::Same => spec.key_policy.next_key(),
        KeyMode::Distinct | KeyMode::None => None,
    };
    let keys = (0..n)
        .map(|_| match key_mode {
            KeyMode::Same => shared_key.clone(),
            KeyMode::Distinct => spec.key_policy.next_key(),
            KeyMode::None => None,
        })
        .collect();
    (shared_key, keys)
}

/// One connector per target, offering `alpn`.
fn connectors(targets: &[RequestSpec], alpn: &[&[u8]]) -> anyhow::Result<Vec<Connector>> {
    targets.iter().map(|target| Connector::new(&target.race_target(), alpn)).collect()
}

/// Sends the requests through the synchronisation `sync` names, or the one `auto` settles on.
async fn race_synchronised(
    spec: &RequestSpec,
    targets: &[RequestSpec],
    requests: Vec<Request<Bytes>>,
    sync: SyncMode,
    stagger: Option<Duration>,
) -> anyhow::Result<Raced> {
    let raced = |sync, reason, answers, release: Option<Release>| Raced {
        sync,
        reason,
        answers,
        release: release.map(|r| ReleaseRecord::new(r, stagger)),
    };
    match sync {
        SyncMode::None => {
            let answers = concurrent::race(spec, requests).await?;
            Ok(raced(SyncMode::None, "asked for with --sync none".to_string(), answers, None))
        }
        SyncMode::LastByte => {
            let connectors = connectors(targets, &[ALPN_HTTP11])?;
            let (answers, release) = h1_last_byte::race(&connectors, None, &requests, spec.timeout, stagger).await?;
            Ok(raced(SyncMode::LastByte, "asked for with --sync last-byte".to_string(), answers, Some(release)))
        }
        SyncMode::SinglePacket | SyncMode::Auto => {
            let (used, reason, answers, release) =
                race_h2_or_fall_back(spec, targets, &requests, sync, stagger).await?;
            Ok(raced(used, reason, answers, Some(release)))
        }
    }
}

/// `--sync single-packet` or `auto`: HTTP/2 where the server speaks it, else (for `auto`) the
/// last-byte race, with the synchronisation used and why.
async fn race_h2_or_fall_back(
    spec: &RequestSpec,
    targets: &[RequestSpec],
    requests: &[Request<Bytes>],
    sync: SyncMode,
    stagger: Option<Duration>,
) -> anyhow::Result<(SyncMode, String, Vec<Answer>, Release)> {
    let offered: &[&[u8]] =
        if sync == SyncMode::SinglePacket || spec.http2 { &[ALPN_H2] } else { &[ALPN_H2, ALPN_HTTP11] };
    let connector = Connector::new(&spec.race_target(), offered)?;
    let wants_h2 = if spec.is_https() { true } else { sync == SyncMode::SinglePacket || spec.http2 };
    if !wants_h2 {
        // Plain http:// without --http2: an h2c probe would show up as a malformed request in an
        // HTTP/1.1-only server's logs, so auto does not guess.
        let connectors = connectors(targets, &[ALPN_HTTP11])?;
        let (answers, release) = h1_last_byte::race(&connectors, None, requests, spec.timeout, stagger).await?;
        let reason = "http:// without --http2, so HTTP/1.1 (add --http2 if the server speaks h2c)".to_string();
        return Ok((SyncMode::LastByte, reason, answers, release));
    }
    let connected = connector.connect().await?;
    if spec.is_https() && !connected.is_h2() {
        let chosen = connected.alpn.as_deref().map(|p| String::from_utf8_lossy(p).into_owned());
        let chosen = chosen.map_or("no ALPN protocol".to_string(), |p| format!("`{p}`"));
        if sync == SyncMode::SinglePacket || spec.http2 {
            bail!("the server did not agree to HTTP/2 in ALPN (it chose {chosen}); use --sync last-byte");
        }
        // The probe connection speaks HTTP/1.1: it becomes the first racer.
        let connectors = connectors(targets, &[ALPN_HTTP11])?;
        let (answers, release) =
            h1_last_byte::race(&connectors, Some(connected.stream), requests, spec.timeout, stagger).await?;
        let reason = format!("the server chose {chosen} over h2 in ALPN");
        return Ok((SyncMode::LastByte, reason, answers, release));
    }
    let reason = match (spec.is_https(), sync) {
        (true, SyncMode::Auto) => "the server negotiated h2 in ALPN",
        (true, _) => "asked for with --sync single-packet; the server negotiated h2 in ALPN",
        (false, SyncMode::Auto) => "--http2 given: HTTP/2 with prior knowledge (h2c)",
        (false, _) => "asked for with --sync single-packet: HTTP/2 with prior knowledge (h2c)",
    };
    let (answers, release) = if targets.len() == 1 {
        h2_single_packet::race(connected.stream, requests, spec.timeout, stagger)
            .await
            .map_err(|err| answered_in_http1(err, spec, sync))
            .with_context(|| format!("single-packet race against {} failed", spec.url))?
    } else {
        race_h2_across(connected.stream, spec, targets, requests, sync, offered, stagger).await?
    };
    Ok((SyncMode::SinglePacket, reason.to_string(), answers, release))
}

/// The single-packet race with `--also`: one HTTP/2 connection per target (`first` is the
/// first target's), their final frames released together.
async fn race_h2_across(
    first: BoxStream,
    spec: &RequestSpec,
    targets: &[RequestSpec],
    requests: &[Request<Bytes>],
    sync: SyncMode,
    offered: &[&[u8]],
    stagger: Option<Duration>,
) -> anyhow::Result<(Vec<Answer>, Release)> {
    if stagger.is_some() {
        // One connection per target: its streams are released together, and spacing them across
        // connections would need one clock over them all.
        bail!("--stagger with --also needs --sync last-byte (one connection per duplicate)");
    }
    let mut streams = vec![first];
    for target in &connectors(targets, offered)?[1..] {
        let connected = target.connect().await?;
        if spec.is_https() && !connected.is_h2() {
            bail!("an --also target did not agree to HTTP/2 in ALPN; use --sync last-byte");
        }
        streams.push(connected.stream);
    }
    across::single_packet(streams, requests, spec.timeout)
        .await
        .map_err(|err| answered_in_http1(err, spec, sync))
        .context("single-packet race across the targets failed")
}

/// An HTTP/1 answer to the HTTP/2 preface, said as what it is and what to do instead of as a
/// 4.7 MB frame.
fn answered_in_http1(err: anyhow::Error, spec: &RequestSpec, sync: SyncMode) -> anyhow::Error {
    let Some(found) = err.chain().find_map(|cause| cause.downcast_ref::<h2_frames::AnsweredInHttp1>()) else {
        return err;
    };
    let advice = if spec.http2 && sync != SyncMode::SinglePacket {
        "drop --http2 (last-byte sync is used)"
    } else {
        "use --sync last-byte (and drop --http2)"
    };
    let line = &found.line;
    match found.status_line {
        true => {
            let version = line.split_whitespace().next().unwrap_or("HTTP/1.1");
            anyhow::anyhow!("this server answered in {version} (`{line}`), not HTTP/2: {advice}")
        }
        false => anyhow::anyhow!("this server answered with text (`{line}`), not HTTP/2 frames: {advice}"),
    }
}

/// The keys a round sent: the mode, the one shared key (`KeyMode::Same`), and each request's.
struct RoundKeys {
    mode: KeyMode,
    shared: Option<String>,
    per_request: Vec<Option<String>>,
}

/// What an engine did: the synchronisation used and why, the answers, the release.
struct Raced {
    sync: SyncMode,
    reason: String,
    answers: Vec<Answer>,
    release: Option<ReleaseRecord>,
}

/// Each answer as the report records it, numbered from 1.
fn answer_records(spec: &RequestSpec, keys: &RoundKeys, answers: &[Answer]) -> Vec<AnswerRecord> {
    let ids = spec.id_source();
    answers
        .iter()
        .zip(&keys.per_request)
        .enumerate()
        .map(|(index, (answer, key))| AnswerRecord {
            number: index + 1,
            key: if keys.mode == KeyMode::Distinct { key.clone() } else { None },
            observed: match &answer.outcome {
                Ok(response) => {
                    let mut observed =
                        Observed::answer(response.status, &response.headers, response.body.clone(), &ids);
                    observed.latency = answer.latency;
                    observed
                }
                Err(err) => Observed::failed(err.clone()),
            },
            latency: answer.latency,
            target: None,
        })
        .collect()
}

fn report(
    keys: RoundKeys,
    raced: Raced,
    records: Vec<AnswerRecord>,
    grounds: &verdict::Grounds,
    ids: &crate::idem::request::IdSource,
) -> RoundReport {
    let RoundKeys { mode: key_mode, shared: shared_key, per_request: _ } = keys;
    let Raced { sync, reason: sync_reason, answers, release } = raced;
    let server_spread = server_spread(&answers);
    let observed: Vec<Observed> = records.iter().map(|r| r.observed.clone()).collect();
    // A control shares no key, so it is judged on whether every duplicate executed.
    let judgement = match key_mode {
        KeyMode::Same => verdict::judge(&observed, Timing::Concurrent, ids, grounds),
        KeyMode::Distinct | KeyMode::None => verdict::judge_control(&observed, ids, grounds),
    };
    let latencies = || records.iter().filter_map(|r| r.latency);
    let latency_spread = latencies().max().zip(latencies().min()).map(|(max, min)| max - min);
    RoundReport {
        round: 1,
        sync,
        sync_reason,
        key_mode,
        key: shared_key,
        answers: records,
        targets: Vec::new(),
        judgement,
        release,
        latency_spread,
        server_spread,
    }
}

/// The spread of the answers' arrival stamps (`Server-Timing: arrival`): the last arrival minus
/// the first, when at least two answers carried one.
fn server_spread(answers: &[Answer]) -> Option<Duration> {
    let arrivals: Vec<u128> = answers
        .iter()
        .filter_map(|answer| answer.outcome.as_ref().ok())
        .filter_map(|response| crate::http::server_timing::read_arrival(&response.headers))
        .collect();
    let (first, last) = (arrivals.iter().min()?, arrivals.iter().max()?);
    (arrivals.len() >= 2).then(|| Duration::from_nanos(u64::try_from(last - first).unwrap_or(u64::MAX)))
}
