//! `--count-url [NAME=]URL [--count-pointer PTR]`: the ground truth a user can give, one ledger or
//! several named ones (each a `CountSource` with its `ledger` name). A GET before and
//! after each step reads how many side effects the server has (charges, orders, processed
//! deliveries); the difference is how many times it executed, whatever ids the answers show.
//! Shared by `idem send|race|window|check|proxy` and `webhook check`.
//!
//! Work after the answer is common (a queued charge, a receiver that acknowledges first, a layer
//! that replays and then runs the handler anyway), so a count read the instant the answer
//! arrives says too little: every read before and after a step is re-read until two reads a
//! settle interval apart agree (`--count-settle`, bounded by `--count-settle-max`), and a closing
//! re-read after the last step finds what arrived later still.
use std::time::{Duration, Instant};

use anyhow::{Context, anyhow, bail};
use bytes::Bytes;
use http::{HeaderMap, Method, Request, Uri};
use serde::Serialize;

use crate::http::client::{ClientOptions, HttpClient};

/// Where the count is read, and how.
#[derive(Debug, Clone)]
pub struct CountSource {
    /// Without its userinfo, which goes as Basic auth in `headers`.
    pub url: Uri,
    /// The URL as given with its password hidden (`http://user:***@…`), for every message.
    pub shown_url: String,
    /// JSON pointer to a number, or to an array whose length counts; empty: the whole body.
    pub pointer: String,
    /// The user's `-H` headers (an `Authorization` applies to the count too).
    pub headers: HeaderMap,
    pub timeout: Duration,
    pub insecure: bool,
    /// `--count-settle`, `--count-settle-max`: how the count is re-read until it holds still.
    pub settle: Settle,
    /// `--count-url NAME=URL`: the ledger's name when several are read (charges, emails);
    /// `None` for the single unnamed ledger.
    pub ledger: Option<String>,
}

/// How a count is re-read until it holds still: two reads `interval` apart that agree, within
/// `max` of the first.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Settle {
    /// `--count-settle`; `None`: adaptive, [`MIN_SETTLE`] or a few times the step's slowest
    /// answer, whichever is longer (a server slow to answer is slow to work afterwards too).
    pub interval: Option<Duration>,
    /// `--count-settle-max`: past it, a count still moving is unconfirmed.
    pub max: Duration,
}

/// The shortest adaptive settle interval: long enough for work a server queues behind its answer
/// (a background thread, a job runner polling every 100 ms) to show.
pub(crate) const MIN_SETTLE: Duration = Duration::from_millis(200);

/// `--count-settle-max` by default.
pub(crate) const DEFAULT_SETTLE_MAX: Duration = Duration::from_secs(5);

/// The adaptive interval is this many times the step's slowest answer.
const LATENCY_FACTOR: u32 = 3;

/// The closing re-read waits this many settle intervals after the last step, and at least
/// [`MIN_CLOSING_WAIT`]: work that outlasted settling is slow work, and it gets longer still.
const CLOSING_INTERVALS: u32 = 4;
const MIN_CLOSING_WAIT: Duration = Duration::from_secs(1);

/// How many times the count before a step is re-read at most: one still moving after that many
/// intervals moves by itself (it counts its own reads, or other traffic reaches it), and waiting
/// longer would not make the step's change mean anything.
const BASELINE_REREADS: usize = 4;

/// The most values of a settling count kept for its report (the first and the latest ones).
const MAX_READS_KEPT: usize = 16;

impl Default for Settle {
    fn default() -> Settle {
        Settle { interval: None, max: DEFAULT_SETTLE_MAX }
    }
}

impl Settle {
    /// The interval for a step whose slowest answer took `slowest`.
    pub fn interval_for(&self, slowest: Duration) -> Duration {
        self.interval.unwrap_or_else(|| MIN_SETTLE.max(slowest.saturating_mul(LATENCY_FACTOR))).min(self.max)
    }

    /// How long the closing re-read waits after a step settled with `interval`.
    pub fn closing_wait(&self, interval: Duration) -> Duration {
        MIN_CLOSING_WAIT.max(interval.saturating_mul(CLOSING_INTERVALS)).min(self.max)
    }
}

/// The count re-read until it held still, or until the bound.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Settled {
    /// The last value read.
    pub value: u64,
    /// The value read before it (equal to `value` when the count settled).
    pub previous: u64,
    /// The distinct values read, in order (at most [`MAX_READS_KEPT`]: the first and the latest).
    pub reads: Vec<u64>,
    /// Two reads a settle interval apart agreed; `false`: the bound came with the count moving.
    pub settled: bool,
    /// From the first read to the one that agreed (or to the last, at the bound).
    pub after: Duration,
}

/// The most a count answer may hold. A count is a number or a short JSON document; a listing of
/// every charge a server ever made is not one, and parsed whole it would cost memory many times
/// its size.
pub(crate) const MAX_COUNT_BODY: usize = 1024 * 1024;

/// The last two reads of the count before a step, with nothing sent in between (equal once it
/// settled): a count that still moves then (one that counts its own reads, or that other traffic
/// changes) cannot tell what the step did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Baseline {
    pub first: u64,
    pub second: u64,
}

/// What a step could have done to the count, to judge whether its change is believable.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Step {
    /// How many requests the step sent: a count of executions cannot rise by more.
    pub requests: u64,
    /// A request with a key never used before (or with no key) got a 2xx, so the server executed
    /// at least once and the count must have risen.
    pub must_rise: bool,
    /// The step's slowest answer, for the adaptive settle interval (zero when unknown).
    pub slowest: Duration,
}

/// The count before and after one step, and why it cannot be believed, if it cannot.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct CountChange {
    pub before: u64,
    /// The settled count after the step, with any executions the closing re-read found later.
    pub after: u64,
    /// How long after the step's first read the count held still (two reads a settle interval
    /// apart agreed), in milliseconds; at the bound when it never did.
    pub settled_after_ms: u64,
    /// The distinct values read after the step, in order (the first and the latest, when many).
    pub reads: Vec<u64>,
    /// Executions the closing re-read found after the step was judged on its settled count
    /// (counted in `after`); 0 when none or not re-read.
    pub late_executions: u64,
    /// Why this change does not show what the step did (it went down, rose by more than the
    /// requests sent, stayed put after an execution, or moved with nothing sent), with what was
    /// read. `None`: it can be believed.
    #[serde(skip)]
    pub doubt: Option<String>,
}

impl CountChange {
    /// Judges the count read `after` a step against the `baseline` read before it; `source`
    /// names where it was read, for the doubt.
    pub fn judge(baseline: Baseline, after: u64, step: Step, source: &str) -> CountChange {
        CountChange::judge_after_waiting(baseline, after, step, source, None)
    }

    /// [`judge`](CountChange::judge), saying how long the count was re-read (`waited`) when it
    /// did not move.
    fn judge_after_waiting(
        baseline: Baseline,
        after: u64,
        step: Step,
        source: &str,
        waited: Option<Duration>,
    ) -> CountChange {
        let before = baseline.second;
        let doubt = if baseline.first != baseline.second {
            Some(format!(
                "unconfirmed: the count at {source} moved with nothing sent ({} → {} between two reads before the \
                 step), so its change cannot be put down to the requests; does it count its own reads, or does \
                 other traffic reach it? Give a --count-url that only this endpoint's executions change",
                baseline.first, baseline.second
            ))
        } else if after < before {
            Some(format!(
                "unconfirmed: the count at {source} went down ({before} → {after}); a count of executions only \
                 rises: is --count-url the count of what this endpoint creates, and --count-pointer the number in it?"
            ))
        } else if after - before > step.requests {
            Some(format!(
                "unconfirmed: the count at {source} rose by {} ({before} → {after}), more than the {} request{} \
                 sent, so it counts something else too: give a --count-url that only this endpoint's executions \
                 change",
                after - before,
                step.requests,
                if step.requests == 1 { "" } else { "s" }
            ))
        } else if step.must_rise && after == before {
            Some(format!(
                "unconfirmed: the count at {source} did not move ({before} → {after}) though a request with a new \
                 key got a 2xx, which the server executes; is --count-url the count of what this endpoint creates \
                 (give --count-pointer for the number or array in its answer)?{}",
                waited.map(|waited| format!(
                    " It was re-read for {} ms; give a longer --count-settle-max if the server works longer than that \
                     after answering",
                    waited.as_millis()
                )).unwrap_or_default()
            ))
        } else {
            None
        };
        CountChange { before, after, settled_after_ms: 0, reads: vec![after], late_executions: 0, doubt }
    }

    /// Judges the count `settled` after a step against the `baseline` read before it: a count
    /// still moving at the bound shows nothing yet; one that held still is judged as [`judge`].
    ///
    /// [`judge`]: CountChange::judge
    pub fn judge_settled(
        baseline: Baseline,
        settled: &Settled,
        step: Step,
        settle: Settle,
        source: &str,
    ) -> CountChange {
        let mut change = CountChange::judge_after_waiting(baseline, settled.value, step, source, Some(settled.after));
        change.settled_after_ms = settled.after.as_millis() as u64;
        change.reads = settled.reads.clone();
        if !settled.settled && change.doubt.is_none() {
            change.doubt = Some(format!(
                "unconfirmed: the count at {source} was still moving {} after the step (read {}), so it does not \
                 show yet what the step did; give a longer --count-settle-max if the server works that long after \
                 answering",
                crate::units::format_flag_duration(settle.max),
                shown_reads(&settled.reads)
            ));
        }
        change
    }

    /// The count the closing re-read found, `closing`, judged again in place of the settled one:
    /// what rose since counts as late executions of this step.
    pub fn with_closing_read(&self, baseline: Baseline, closing: u64, step: Step, source: &str) -> CountChange {
        if closing == self.after {
            return self.clone();
        }
        let mut change = CountChange::judge(baseline, closing, step, source);
        change.settled_after_ms = self.settled_after_ms;
        change.reads = self.reads.clone();
        push_read(&mut change.reads, closing);
        change.late_executions = self.late_executions + closing.saturating_sub(self.after);
        if change.doubt.is_none() && self.doubt.is_some() {
            change.doubt = self.doubt.clone();
        }
        change
    }

    /// `(settled after 410 ms)`, `(settled after 410 ms; 2 executions arrived after it was judged)`.
    pub fn settling_phrase(&self) -> String {
        format!("({})", self.settling_words())
    }

    /// `settled after 410 ms`, `settled after 410 ms; 2 executions arrived after it was judged`.
    pub fn settling_words(&self) -> String {
        let mut words = format!("settled after {} ms", self.settled_after_ms);
        if self.late_executions > 0 {
            words.push_str(&format!(
                "; {} arrived after it was judged",
                crate::text::plural(self.late_executions, "execution", "executions")
            ));
        }
        words
    }

    /// How many times the step executed, by the count; the doubt instead when the count cannot
    /// show it.
    pub fn executions(&self) -> Result<u64, &str> {
        match &self.doubt {
            Some(doubt) => Err(doubt),
            None => Ok(self.after - self.before),
        }
    }
}

/// The count before and after the step, and where it was read.
#[derive(Debug, Clone)]
pub struct CountReading {
    pub change: CountChange,
    /// `GET http://…/charges at /count`.
    pub source: String,
    /// The ledger's name (`--count-url NAME=URL`); `None` for the single unnamed ledger.
    pub ledger: Option<String>,
    /// With several ledgers, every ledger's change in the order given (this one among them), for
    /// the report; empty with one ledger.
    pub ledgers: Vec<LedgerCount>,
}

/// One named ledger's change over a step, as the report and the JSON show it beside the ledger
/// that decided the verdict.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct LedgerCount {
    /// The name given with `--count-url NAME=URL`.
    pub ledger: String,
    pub before: u64,
    pub after: u64,
    /// `after - before`; absent when this ledger's change cannot be believed (`doubt` says why).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub executions: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub doubt: Option<String>,
}

impl LedgerCount {
    /// What `reading` says of its ledger, under `name`.
    pub fn of(reading: &CountReading, name: String) -> LedgerCount {
        LedgerCount {
            ledger: name,
            before: reading.change.before,
            after: reading.change.after,
            executions: reading.change.executions().ok(),
            doubt: reading.change.doubt.clone(),
        }
    }
}

impl CountReading {
    /// One ledger's reading (`ledger` as the source names it).
    pub fn new(change: CountChange, source: &CountSource) -> CountReading {
        CountReading { change, source: source.describe(), ledger: source.ledger.clone(), ledgers: Vec::new() }
    }

    /// Several ledgers' readings of one step as the one that decides it, carrying every
    /// ledger's change: the believable ledger with the most executions decides when it shows a
    /// second execution or more than another believable ledger (an effect repeated where another
    /// was not: a second email after one charge), whatever the others show; else one that
    /// cannot be believed (the step is unconfirmed); else the first given, all agreeing. `None`
    /// without readings.
    pub fn deciding(readings: Vec<CountReading>) -> Option<CountReading> {
        if readings.len() <= 1 {
            return readings.into_iter().next();
        }
        let ledgers: Vec<LedgerCount> = readings
            .iter()
            .map(|reading| LedgerCount::of(reading, reading.ledger.clone().unwrap_or_default()))
            .collect();
        let most = readings
            .iter()
            .enumerate()
            .filter_map(|(index, reading)| reading.change.executions().ok().map(|executions| (index, executions)))
            .fold(None::<(usize, u64)>, |best, (index, executions)| match best {
                Some((_, most)) if most >= executions => best,
                _ => Some((index, executions)),
            });
        let doubted = readings.iter().position(|reading| reading.change.doubt.is_some());
        let fewest = ledgers.iter().filter_map(|ledger| ledger.executions).min();
        let chosen = match (most, doubted) {
            (Some((index, executions)), _) if executions > 1 || fewest < Some(executions) => index,
            (_, Some(index)) => index,
            (Some((index, _)), None) => index,
            (None, None) => 0,
        };
        let mut deciding = readings.into_iter().nth(chosen)?;
        deciding.ledgers = ledgers;
        Some(deciding)
    }

    /// `the count went 0 → 1 at GET …`, or with several ledgers `the counts went charges 0 → 1
    /// (1 execution), emails 0 → 2 (2 executions)`, followed by `suffix` (` on the retry`) and
    /// the settling of the deciding ledger.
    pub fn went_phrase(&self, suffix: &str) -> String {
        if self.ledgers.is_empty() {
            return format!(
                "the count went {} → {}{suffix} at {} {}",
                self.change.before,
                self.change.after,
                self.source,
                self.change.settling_phrase()
            );
        }
        format!("the counts went {}{suffix} {}", ledgers_phrase(&self.ledgers), self.change.settling_phrase())
    }
}

/// `charges 0 → 1 (1 execution), emails 0 → 2 (2 executions)`; a ledger that cannot be believed
/// says `unconfirmed`.
pub(crate) fn ledgers_phrase(ledgers: &[LedgerCount]) -> String {
    ledgers
        .iter()
        .map(|ledger| {
            let executions = match ledger.executions {
                Some(executions) => crate::text::plural(executions, "execution", "executions"),
                None => "unconfirmed".to_string(),
            };
            format!("{} {} → {} ({executions})", ledger.ledger, ledger.before, ledger.after)
        })
        .collect::<Vec<_>>()
        .join(", ")
}

impl CountSource {
    pub fn new(
        url: &str,
        pointer: Option<String>,
        headers: HeaderMap,
        timeout: Duration,
        insecure: bool,
    ) -> anyhow::Result<CountSource> {
        let url = crate::http::url::parse_url(url).context("--count-url")?;
        let shown_url = crate::http::url::Redacted(&url).to_string();
        // Its userinfo is sent as Basic auth, as curl does (reqwest would drop it), in place of an
        // Authorization from -H, since it names the count's own credentials.
        let (url, credentials) = crate::http::url::split_credentials(url).context("--count-url")?;
        let pointer = pointer.unwrap_or_default();
        if !pointer.is_empty() && !pointer.starts_with('/') {
            bail!(
                "--count-pointer `{pointer}` is not a JSON pointer; write it like /count or /data (empty: the whole body)"
            );
        }
        // The body headers of the request do not belong on a GET.
        let mut headers = headers;
        headers.remove(http::header::CONTENT_TYPE);
        headers.remove(http::header::CONTENT_LENGTH);
        if let Some(credentials) = credentials {
            headers.insert(http::header::AUTHORIZATION, credentials.authorization()?);
        }
        Ok(CountSource { url, shown_url, pointer, headers, timeout, insecure, settle: Settle::default(), ledger: None })
    }

    /// The count now: a GET, a 2xx with JSON, the number (or array length) at the pointer.
    pub async fn read(&self) -> anyhow::Result<u64> {
        let client = HttpClient::new(ClientOptions { timeout: self.timeout, insecure: self.insecure, http2: false })?;
        let mut request = Request::builder()
            .method(Method::GET)
            .uri(self.url.clone())
            .body(Bytes::new())
            .context("cannot build the --count-url request")?;
        *request.headers_mut() = self.headers.clone();
        let exchange = client.send_capped(request, MAX_COUNT_BODY).await.context("--count-url gave no count")?;
        if !exchange.status.is_success() {
            bail!(
                "--count-url {} answered {}, not a 2xx with the count (check the URL and its credentials; -H headers are sent with it)",
                self.shown_url,
                exchange.status
            );
        }
        let body = crate::http::content_encoding::decode(&exchange.headers, exchange.body).body;
        if body.len() > MAX_COUNT_BODY {
            bail!(
                "--count-url {} answered a body that decodes to more than the {} limit for a count; point it at a count, \
                 not a listing",
                self.shown_url,
                crate::units::format_size(MAX_COUNT_BODY as u64)
            );
        }
        count_in(&body, &self.pointer).map_err(|err| anyhow!("--count-url {}: {err}", self.shown_url))
    }

    /// The count before a step: re-read until it holds still, so work still landing from an
    /// earlier step settles first, and a count that moves by itself (one that counts its own
    /// reads, or that other traffic changes) shows as the two last values that differed.
    pub async fn baseline(&self) -> anyhow::Result<Baseline> {
        let settled = self.settle_within(self.settle.interval_for(Duration::ZERO), BASELINE_REREADS, |_| false).await?;
        Ok(Baseline { first: settled.previous, second: settled.value })
    }

    /// The count after a step, re-read until it holds still and judged against `baseline`. A
    /// count the step must have raised is re-read until it rises or the bound, for a server that
    /// counts after answering: an unmoved count is never taken as settled too early.
    pub async fn change_since(&self, baseline: Baseline, step: Step) -> anyhow::Result<CountChange> {
        if baseline.first != baseline.second {
            // A count that moved by itself before the step shows nothing whatever it does after.
            let after = self.read().await?;
            return Ok(CountChange::judge(baseline, after, step, &self.describe()));
        }
        let unmoved = |value: u64| step.must_rise && value == baseline.second;
        let settled = self.settle_within(self.settle.interval_for(step.slowest), usize::MAX, unmoved).await?;
        Ok(CountChange::judge_settled(baseline, &settled, step, self.settle, &self.describe()))
    }

    /// The closing re-read after the last step: a wait longer than settling, one more read, and
    /// `change` judged again with whatever arrived since as late executions of `step`.
    pub async fn closing(&self, baseline: Baseline, change: &CountChange, step: Step) -> anyhow::Result<CountChange> {
        if change.doubt.is_some() {
            // Unconfirmed already: nothing read later can make it a proof.
            return Ok(change.clone());
        }
        tokio::time::sleep(self.settle.closing_wait(self.settle.interval_for(step.slowest))).await;
        let closing = self.read().await?;
        Ok(change.with_closing_read(baseline, closing, step, &self.describe()))
    }

    /// Reads until two reads `interval` apart agree and `keep_waiting` lets the value stand, or
    /// until `settle.max` has passed since the first read or `rereads` reads followed it.
    async fn settle_within(
        &self,
        interval: Duration,
        rereads: usize,
        keep_waiting: impl Fn(u64) -> bool,
    ) -> anyhow::Result<Settled> {
        let started = Instant::now();
        let mut previous = self.read().await?;
        let mut reads = vec![previous];
        for _ in 0..rereads {
            tokio::time::sleep(interval.min(self.settle.max.saturating_sub(started.elapsed()))).await;
            let value = self.read().await?;
            push_read(&mut reads, value);
            let held = value == previous;
            let bound = started.elapsed() >= self.settle.max;
            if (held && !keep_waiting(value)) || bound {
                return Ok(Settled { value, previous, reads, settled: held, after: started.elapsed() });
            }
            previous = value;
        }
        Ok(Settled {
            value: previous,
            previous: reads[reads.len().saturating_sub(2)],
            reads,
            settled: false,
            after: started.elapsed(),
        })
    }

    /// Where the count comes from, for messages: `GET http://…/charges at /count`, and for a
    /// named ledger `GET http://…/emails (ledger emails)`, so every doubt names its ledger.
    pub fn describe(&self) -> String {
        let mut described = if self.pointer.is_empty() {
            format!("GET {}", self.shown_url)
        } else {
            format!("GET {} at {}", self.shown_url, self.pointer)
        };
        if let Some(ledger) = &self.ledger {
            described.push_str(&format!(" (ledger {ledger})"));
        }
        described
    }
}

/// Adds a value read to `reads` when it differs from the last, keeping the first ones and the
/// latest once there are many.
fn push_read(reads: &mut Vec<u64>, value: u64) {
    if reads.last() == Some(&value) {
        return;
    }
    if reads.len() >= MAX_READS_KEPT {
        reads.remove(MAX_READS_KEPT / 2);
    }
    reads.push(value);
}

/// `0 → 1 → 3`.
fn shown_reads(reads: &[u64]) -> String {
    reads.iter().map(u64::to_string).collect::<Vec<_>>().join(" → ")
}

/// The count in a JSON body at `pointer`: a non-negative integer, or an array's length. Read as
/// the body is parsed, without building the document: a listing of half a million charges costs
/// its own bytes, not a tree of values many times their size.
pub(crate) fn count_in(body: &[u8], pointer: &str) -> Result<u64, String> {
    let tokens: Vec<String> =
        pointer.split('/').skip(1).map(|token| token.replace("~1", "/").replace("~0", "~")).collect();
    let not_json =
        |err: serde_json::Error| format!("the answer is not JSON ({err}); the count must be a JSON number or array");
    let mut json = serde_json::Deserializer::from_slice(body);
    let found = serde::de::DeserializeSeed::deserialize(AtPointer { tokens: &tokens }, &mut json).map_err(not_json)?;
    json.end().map_err(not_json)?;
    let at = if pointer.is_empty() { "the body" } else { pointer };
    match found {
        None => Err(format!("nothing at {at} (give --count-pointer to the number or array)")),
        Some(Found::Count(count)) => Ok(count),
        Some(Found::Number(number)) => Err(format!("{at} is {number}, not a count (a whole number from 0)")),
        Some(Found::Other(kind)) => {
            Err(format!("{at} is {kind}, not a number or an array (give --count-pointer to the number or array)"))
        }
    }
}

/// What sits at the pointer.
enum Found {
    /// A whole number from 0, or an array's length.
    Count(u64),
    /// A number that is no count (negative, fractional, too large), as written.
    Number(String),
    /// Anything else: `a string`, `an object`.
    Other(&'static str),
}

/// Walks one JSON value towards the rest of the pointer (`tokens`), skipping what is off the
/// path unparsed; `None` when nothing is at the pointer.
struct AtPointer<'a> {
    tokens: &'a [String],
}

impl AtPointer<'_> {
    fn at_target(&self) -> bool {
        self.tokens.is_empty()
    }

    /// A value that is not a container: found when the pointer ends here, else nothing is at it.
    fn leaf(&self, found: Found) -> Option<Found> {
        self.at_target().then_some(found)
    }
}

impl<'de> serde::de::DeserializeSeed<'de> for AtPointer<'_> {
    type Value = Option<Found>;

    fn deserialize<D: serde::Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> serde::de::Visitor<'de> for AtPointer<'_> {
    type Value = Option<Found>;

    fn expecting(&self, formatter: &mut std::fmt::Formatter) -> std::fmt::Result {
        formatter.write_str("a JSON value")
    }

    fn visit_u64<E>(self, count: u64) -> Result<Self::Value, E> {
        Ok(self.leaf(Found::Count(count)))
    }

    fn visit_i64<E>(self, number: i64) -> Result<Self::Value, E> {
        Ok(self.leaf(match u64::try_from(number) {
            Ok(count) => Found::Count(count),
            Err(_) => Found::Number(number.to_string()),
        }))
    }

    fn visit_f64<E>(self, number: f64) -> Result<Self::Value, E> {
        // 4.0 is a count; beyond 9e15 a float no longer holds every whole number exactly.
        Ok(self.leaf(if number >= 0.0 && number.fract() == 0.0 && number < 9e15 {
            Found::Count(number as u64)
        } else {
            Found::Number(number.to_string())
        }))
    }

    fn visit_bool<E>(self, _: bool) -> Result<Self::Value, E> {
        Ok(self.leaf(Found::Other("a boolean")))
    }

    fn visit_str<E>(self, _: &str) -> Result<Self::Value, E> {
        Ok(self.leaf(Found::Other("a string")))
    }

    fn visit_unit<E>(self) -> Result<Self::Value, E> {
        Ok(self.leaf(Found::Other("null")))
    }

    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut items: A) -> Result<Self::Value, A::Error> {
        use serde::de::IgnoredAny;
        let wanted = match self.tokens.split_first() {
            None => None,
            // An array index is digits alone (no sign, no leading zero but 0 itself).
            Some((token, _))
                if token == "0" || (!token.starts_with('0') && token.bytes().all(|b| b.is_ascii_digit())) =>
            {
                token.parse::<u64>().ok()
            }
            Some(_) => Some(u64::MAX),
        };
        let mut length = 0u64;
        let mut found = None;
        loop {
            let item = if Some(length) == wanted {
                match items.next_element_seed(AtPointer { tokens: &self.tokens[1..] })? {
                    Some(at) => {
                        found = at;
                        true
                    }
                    None => false,
                }
            } else {
                items.next_element::<IgnoredAny>()?.is_some()
            };
            if !item {
                break;
            }
            length += 1;
        }
        Ok(if self.at_target() { Some(Found::Count(length)) } else { found })
    }

    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut fields: A) -> Result<Self::Value, A::Error> {
        use serde::de::IgnoredAny;
        let mut found = None;
        while let Some(name) = fields.next_key::<std::borrow::Cow<'de, str>>()? {
            match self.tokens.split_first() {
                // A repeated name: the last one counts, as a parsed document would keep it.
                Some((token, rest)) if *token == name => found = fields.next_value_seed(AtPointer { tokens: rest })?,
                _ => {
                    fields.next_value::<IgnoredAny>()?;
                }
            }
        }
        Ok(if self.at_target() { Some(Found::Other("an object")) } else { found })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_are_numbers_or_array_lengths() {
        assert_eq!(count_in(b"3", ""), Ok(3));
        assert_eq!(count_in(br#"{"charges":[1,2]}"#, "/charges"), Ok(2));
        assert_eq!(count_in(br#"{"n":4.0}"#, "/n"), Ok(4));
        assert!(count_in(br#"{"n":-1}"#, "/n").is_err());
        assert!(count_in(br#"{"n":"3"}"#, "/n").unwrap_err().contains("a string"));
        assert!(count_in(br#"{"n":3}"#, "/m").unwrap_err().contains("nothing at /m"));
        assert!(count_in(b"<html>", "").unwrap_err().contains("not JSON"));
        assert_eq!(count_in(br#"{"data":{"a/b":[[1],[2,3]]}}"#, "/data/a~1b/1"), Ok(2));
        assert_eq!(count_in(br#"{"n":1,"n":7}"#, "/n"), Ok(7), "the last of a repeated name");
        assert!(count_in(br#"{"n":[1]}"#, "/n/01").unwrap_err().contains("nothing at /n/01"));
        assert!(count_in(br#"{"n":{}}"#, "/n").unwrap_err().contains("an object"));
        assert!(count_in(br#"{"n":1.5}"#, "/n").unwrap_err().contains("1.5, not a count"));
        assert!(count_in(br#"{"n":1} x"#, "/n").unwrap_err().contains("not JSON"));
        assert_eq!(count_in(b"18446744073709551615", ""), Ok(u64::MAX));
    }

    fn change(first: u64, second: u64, after: u64, requests: u64, must_rise: bool) -> CountChange {
        CountChange::judge(
            Baseline { first, second },
            after,
            Step { requests, must_rise, slowest: Duration::ZERO },
            "GET /count",
        )
    }

    #[test]
    fn a_believable_change_counts_the_executions() {
        assert_eq!(change(2, 2, 5, 5, true).executions(), Ok(3));
        assert_eq!(change(7, 7, 7, 1, false).executions(), Ok(0), "a replay need not move the count");
    }

    #[test]
    fn a_count_that_lies_is_doubted_with_what_was_read() {
        let down = change(1000, 1000, 999, 3, true);
        assert!(down.executions().unwrap_err().contains("went down (1000 → 999)"), "{down:?}");
        let wrapped = change(u64::MAX, u64::MAX, 0, 3, true);
        assert!(wrapped.executions().unwrap_err().contains("went down (18446744073709551615 → 0)"));
        let jump = change(0, 0, 1_000_000, 3, true);
        assert!(jump.executions().unwrap_err().contains("rose by 1000000 (0 → 1000000), more than the 3 requests"));
        let still = change(5, 5, 5, 3, true);
        assert!(still.executions().unwrap_err().contains("did not move (5 → 5)"), "{still:?}");
        let by_itself = change(5, 6, 9, 3, true);
        assert!(by_itself.executions().unwrap_err().contains("moved with nothing sent (5 → 6"), "{by_itself:?}");
    }

    /// A count server on 127.0.0.1:0 whose count is how many of `rises` (times after it starts)
    /// have passed; its `GET` URL.
    async fn count_rising_at(rises: Vec<Duration>) -> String {
        use tokio::io::{AsyncReadExt, AsyncWriteExt};
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = format!("http://{}/count", listener.local_addr().unwrap());
        let started = Instant::now();
        tokio::spawn(async move {
            loop {
                let Ok((mut stream, _)) = listener.accept().await else { return };
                let count = rises.iter().filter(|rise| started.elapsed() >= **rise).count();
                tokio::spawn(async move {
                    let mut request = Vec::new();
                    let mut buffer = [0u8; 1024];
                    while !request.windows(4).any(|w| w == b"\r\n\r\n") {
                        match stream.read(&mut buffer).await {
                            Ok(0) | Err(_) => return,
                            Ok(n) => request.extend_from_slice(&buffer[..n]),
                        }
                    }
                    let body = count.to_string();
                    let answer = format!(
                        "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
                        body.len()
                    );
                    let _ = stream.write_all(answer.as_bytes()).await;
                });
            }
        });
        url
    }

    fn source(url: &str, interval: Duration, max: Duration) -> CountSource {
        let mut source = CountSource::new(url, None, HeaderMap::new(), Duration::from_secs(10), false).unwrap();
        source.settle = Settle { interval: Some(interval), max };
        source
    }

    fn step(requests: u64, must_rise: bool) -> Step {
        Step { requests, must_rise, slowest: Duration::ZERO }
    }

    const FROM_ZERO: Baseline = Baseline { first: 0, second: 0 };

    #[tokio::test]
    async fn the_count_is_judged_once_two_reads_an_interval_apart_agree() {
        // Two reads 500 ms apart cannot both fall between the rises, 200 ms apart: the count can
        // only settle once both have landed, however late each read comes.
        let url = count_rising_at(vec![Duration::from_millis(100), Duration::from_millis(300)]).await;
        let count = source(&url, Duration::from_millis(500), Duration::from_secs(10));
        let change = count.change_since(FROM_ZERO, step(3, false)).await.unwrap();
        assert_eq!((change.before, change.after, change.executions()), (0, 2, Ok(2)), "{change:?}");
        assert_eq!(change.reads.last(), Some(&2));
        assert!(change.settled_after_ms >= 500, "at least one interval after the first read: {change:?}");
    }

    #[tokio::test]
    async fn a_count_that_must_rise_is_re_read_until_it_does() {
        let url = count_rising_at(vec![Duration::from_millis(700)]).await;
        let count = source(&url, Duration::from_millis(100), Duration::from_secs(10));
        let change = count.change_since(FROM_ZERO, step(1, true)).await.unwrap();
        assert_eq!(change.executions(), Ok(1), "{change:?}");
    }

    #[tokio::test]
    async fn a_count_still_moving_at_the_bound_is_unconfirmed_with_what_was_read() {
        // A rise every 20 ms for a minute: no two reads 100 ms apart agree.
        let rises = (1..3000).map(|n| Duration::from_millis(20 * n)).collect();
        let url = count_rising_at(rises).await;
        let count = source(&url, Duration::from_millis(100), Duration::from_millis(400));
        let change = count.change_since(FROM_ZERO, step(10_000, false)).await.unwrap();
        let doubt = change.executions().unwrap_err();
        assert!(doubt.contains("was still moving 400ms after the step (read "), "{doubt}");
        assert!(change.reads.len() >= 2, "{change:?}");

        // Before a step, the same count is one that moves by itself.
        let baseline = count.baseline().await.unwrap();
        assert!(baseline.first < baseline.second, "{baseline:?}");
        let change = count.change_since(baseline, step(1, false)).await.unwrap();
        assert!(change.executions().unwrap_err().contains("moved with nothing sent"), "{change:?}");
    }

    #[test]
    fn the_closing_re_read_counts_what_came_later_as_the_steps() {
        let settled =
            Settled { value: 1, previous: 1, reads: vec![0, 1], settled: true, after: Duration::from_millis(410) };
        let settle = Settle::default();
        let change = CountChange::judge_settled(FROM_ZERO, &settled, step(3, false), settle, "GET /count");
        assert_eq!((change.executions(), change.settled_after_ms), (Ok(1), 410));
        assert_eq!(change.settling_phrase(), "(settled after 410 ms)");
        let closed = change.with_closing_read(FROM_ZERO, 3, step(3, false), "GET /count");
        assert_eq!((closed.after, closed.late_executions, closed.executions()), (3, 2, Ok(3)));
        assert_eq!(closed.reads, [0, 1, 3]);
        assert_eq!(closed.settling_phrase(), "(settled after 410 ms; 2 executions arrived after it was judged)");
        assert_eq!(change.with_closing_read(FROM_ZERO, 1, step(3, false), "GET /count"), change, "nothing came later");
        let beyond = change.with_closing_read(FROM_ZERO, 9, step(3, false), "GET /count");
        assert!(beyond.executions().unwrap_err().contains("more than the 3 requests"), "{beyond:?}");
    }

    fn reading(ledger: &str, before: u64, after: u64, requests: u64) -> CountReading {
        let change = change(before, before, after, requests, false);
        CountReading { change, source: format!("GET /{ledger}"), ledger: Some(ledger.into()), ledgers: Vec::new() }
    }

    fn deciding(readings: Vec<CountReading>) -> (String, String) {
        let deciding = CountReading::deciding(readings).unwrap();
        (deciding.ledger.clone().unwrap(), ledgers_phrase(&deciding.ledgers))
    }

    #[test]
    fn the_ledger_that_shows_a_repeated_effect_decides_whatever_the_others_show() {
        let (ledger, all) = deciding(vec![reading("charges", 0, 1, 3), reading("emails", 0, 3, 3)]);
        assert_eq!(ledger, "emails");
        assert_eq!(all, "charges 0 → 1 (1 execution), emails 0 → 3 (3 executions)");
        // A retry that charged nothing but emailed again: one execution, more than the other shows.
        assert_eq!(deciding(vec![reading("charges", 1, 1, 1), reading("emails", 1, 2, 1)]).0, "emails");
        // A second execution outweighs a ledger that cannot be believed.
        let (ledger, all) = deciding(vec![reading("charges", 5, 4, 3), reading("emails", 0, 2, 3)]);
        assert_eq!(ledger, "emails");
        assert_eq!(all, "charges 5 → 4 (unconfirmed), emails 0 → 2 (2 executions)");
        // Agreeing ledgers and a doubted one: unconfirmed; all agreeing: the first given.
        assert_eq!(deciding(vec![reading("charges", 0, 1, 3), reading("emails", 5, 4, 3)]).0, "emails");
        assert_eq!(deciding(vec![reading("charges", 0, 1, 3), reading("emails", 0, 1, 3)]).0, "charges");
        let one = CountReading::deciding(vec![reading("charges", 0, 2, 3)]).unwrap();
        assert!(one.ledgers.is_empty(), "one ledger carries no list: {one:?}");
    }

    #[test]
    fn the_adaptive_interval_follows_the_slowest_answer_within_the_bound() {
        let adaptive = Settle::default();
        assert_eq!(adaptive.interval_for(Duration::from_millis(10)), MIN_SETTLE);
        assert_eq!(adaptive.interval_for(Duration::from_millis(300)), Duration::from_millis(900));
        assert_eq!(adaptive.interval_for(Duration::from_secs(60)), DEFAULT_SETTLE_MAX);
        let fixed = Settle { interval: Some(Duration::from_millis(50)), max: DEFAULT_SETTLE_MAX };
        assert_eq!(fixed.interval_for(Duration::from_secs(2)), Duration::from_millis(50));
        assert_eq!(fixed.closing_wait(Duration::from_millis(50)), Duration::from_secs(1));
        assert_eq!(adaptive.closing_wait(Duration::from_millis(900)), Duration::from_millis(3600));
    }
}
