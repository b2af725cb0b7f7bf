//! "created N resources": how many resources a whole run created, for the last line of every
//! summary of a command that sends creating requests (`idem send`, `race`, `window`, `check`,
//! `check --openapi`, `run`). Against an API that bills per request, this is what the run cost.
//!
//! Never a number that was not measured:
//! - `count`: the ledger at `--count-url` read before the run and after it, settled; its rise is
//!   what the server executed, whatever the answers showed (ground truth).
//! - `ids`: no ledger, but 2xx answers carried resource ids; the distinct ones are a lower bound
//!   ("at least"): a server that creates twice and answers with one id shows one.
//! - `unknown`: neither, or a ledger that cannot be believed and no ids; no number is given.
//!
//! A leaf beside `count.rs`: the suites' shared report (`conformance`) carries it, and every idem
//! command fills it, so it imports neither.
use std::collections::BTreeMap;
use std::time::Duration;

use serde::Serialize;

use crate::count::{Baseline, CountChange, CountReading, CountSource, LedgerCount, Step};
use crate::output::Palette;
use crate::text::plural;

/// What a run created, and on what it rests; `created` in every sending command's JSON.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub(crate) struct Created {
    /// `count`: the rise of the count at `--count-url` over the whole run; `ids`: distinct
    /// resource ids in the 2xx answers, a lower bound of what the server did; `unknown`: neither
    /// was measured, and `resources` is `null`.
    pub basis: CreatedBasis,
    /// How many resources the run created (`count`), or at least created (`ids`); `null` when
    /// `unknown`.
    pub resources: Option<u64>,
    /// With `count`: where the count was read (`GET http://…/payments at /count`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
    /// With several ledgers: every one's rise over the run, in the order given. With
    /// `--count-url NAME=URL` `resources` is the first one's (the others count side effects, such
    /// as emails); in `idem run` their sum (each operation's ledger counts its own resources).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub ledgers: Vec<LedgerCount>,
    /// Why the number is a lower bound or unknown, or why the count was set aside.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub(crate) enum CreatedBasis {
    Count,
    Ids,
    Unknown,
}

/// The distinct resource ids the run's 2xx answers carried, each with whether an answer that was
/// not marked as a replay carried it (an id only ever replayed was created before this run: a
/// fixed `--key` used again).
#[derive(Debug, Clone, Default)]
pub(crate) struct CreatedIds {
    ids: BTreeMap<String, bool>,
}

impl CreatedIds {
    /// One answer: its status (`None`: no answer), the resource id read from it, and whether it
    /// was marked as a replay.
    pub(crate) fn add(&mut self, status: Option<u16>, id: Option<&str>, replayed: bool) {
        let (Some(status), Some(id)) = (status, id) else { return };
        if !(200..300).contains(&status) {
            return;
        }
        let created_here = self.ids.entry(id.to_string()).or_insert(false);
        *created_here |= !replayed;
    }

    /// Every answer of `other`, as if added here.
    pub(crate) fn merge(&mut self, other: &CreatedIds) {
        for (id, created_here) in &other.ids {
            *self.ids.entry(id.clone()).or_insert(false) |= created_here;
        }
    }

    /// Distinct ids some answer not marked as a replay carried.
    fn created(&self) -> u64 {
        self.ids.values().filter(|created_here| **created_here).count() as u64
    }
}

/// The ledgers read when a run starts, so its end can read how much they rose over all of it.
#[derive(Debug, Clone)]
pub(crate) struct RunLedger {
    sources: Vec<CountSource>,
    start: Vec<Baseline>,
}

impl RunLedger {
    /// Reads every ledger until it holds still; `None` without `--count-url`.
    pub(crate) async fn open(sources: &[CountSource]) -> anyhow::Result<Option<RunLedger>> {
        if sources.is_empty() {
            return Ok(None);
        }
        let mut start = Vec::with_capacity(sources.len());
        for source in sources {
            start.push(source.baseline().await?);
        }
        Ok(Some(RunLedger { sources: sources.to_vec(), start }))
    }

    /// Every ledger read again until it holds still, judged against where it stood when the run
    /// started: a count that went down or moved by itself before the run carries its doubt, and
    /// one that cannot be read now carries why (the run's own verdicts are not lost for it).
    pub(crate) async fn close(&self) -> Vec<CountReading> {
        // How many requests a run sent is not bounded here (a suite sends many kinds), so only the
        // count itself can cast doubt: moving before the run, or going down.
        let step = Step { requests: u64::MAX, must_rise: false, slowest: Duration::ZERO };
        let mut readings = Vec::with_capacity(self.sources.len());
        for (source, start) in self.sources.iter().zip(&self.start) {
            let change = match source.change_since(*start, step).await {
                Ok(change) => change,
                Err(err) => CountChange {
                    before: start.second,
                    after: start.second,
                    settled_after_ms: 0,
                    reads: Vec::new(),
                    late_executions: 0,
                    doubt: Some(format!("the count at {} could not be read after the run: {err:#}", source.describe())),
                },
            };
            readings.push(CountReading::new(change, source));
        }
        readings
    }
}

impl Created {
    /// What a run created: by `readings` of its ledgers over the whole run when the first can be
    /// believed, else by the distinct ids its answers carried, else unknown.
    pub(crate) fn measure(readings: &[CountReading], ids: &CreatedIds) -> Created {
        let ledgers: Vec<LedgerCount> = match readings {
            [] | [_] => Vec::new(),
            readings => readings
                .iter()
                .map(|reading| LedgerCount::of(reading, reading.ledger.clone().unwrap_or_default()))
                .collect(),
        };
        let set_aside = match readings.first() {
            Some(reading) => match reading.change.executions() {
                Ok(rise) => {
                    return Created {
                        basis: CreatedBasis::Count,
                        resources: Some(rise),
                        source: Some(reading.source.clone()),
                        ledgers,
                        note: None,
                    };
                }
                Err(doubt) => Some(format!("the count was set aside: {}", doubt.trim_start_matches("unconfirmed: "))),
            },
            None => None,
        };
        let created = ids.created();
        if created > 0 {
            let mut by_ids = Created::by_ids(created);
            if set_aside.is_some() {
                by_ids.note = set_aside;
            }
            return by_ids;
        }
        Created {
            basis: CreatedBasis::Unknown,
            resources: None,
            source: None,
            ledgers: Vec::new(),
            note: Some(set_aside.unwrap_or_else(|| "no ids in the answers; give --count-url".to_string())),
        }
    }

    /// What a run created when each ledger counts its own kind of resource (`idem run`: customers,
    /// charges): the sum of their rises when every one can be believed, else as [`measure`] with
    /// no ledger (the ids), the first doubt in `note`.
    ///
    /// [`measure`]: Created::measure
    pub(crate) fn measure_kinds(readings: &[CountReading], ids: &CreatedIds) -> Created {
        let [first, _, ..] = readings else { return Created::measure(readings, ids) };
        let rises: Result<Vec<u64>, &str> = readings.iter().map(|reading| reading.change.executions()).collect();
        let ledgers = readings.iter().map(|reading| LedgerCount::of(reading, reading.source.clone())).collect();
        match rises {
            Ok(rises) => Created {
                basis: CreatedBasis::Count,
                resources: Some(rises.iter().sum()),
                source: Some(format!("the counts of {} ledgers", readings.len())),
                ledgers,
                note: None,
            },
            Err(_) => {
                let doubted = readings.iter().find(|reading| reading.change.doubt.is_some()).unwrap_or(first);
                Created::measure(std::slice::from_ref(doubted), ids)
            }
        }
    }

    /// For a run `--max-requests` stopped: `; created at least 2 resources by distinct ids in the
    /// answers before it stopped`, or nothing when the answers so far carried no id (no ledger is
    /// read again for a run cut short).
    pub(crate) fn before_stopping(ids: &CreatedIds) -> String {
        match ids.created() {
            0 => String::new(),
            n => format!(
                "; created at least {} by distinct ids in the answers before it stopped",
                plural(n, "resource", "resources")
            ),
        }
    }

    /// `n` resources at least, by distinct ids in the answers.
    fn by_ids(n: u64) -> Created {
        Created {
            basis: CreatedBasis::Ids,
            resources: Some(n),
            source: None,
            ledgers: Vec::new(),
            note: Some(
                "distinct ids in the 2xx answers are a lower bound: a server that executes twice and answers with \
                 one id shows one; give --count-url for the number"
                    .to_string(),
            ),
        }
    }

    /// What several runs created together (`--openapi`: one suite per operation, each with its
    /// own ledger): by the count when every one was counted; else at least the sum of what was
    /// measured (a lower bound stays one when added to a count); unknown when nothing was. `None`
    /// is a run that sent requests but whose tally was lost (its suite could not finish).
    pub(crate) fn total<'a>(parts: impl IntoIterator<Item = Option<&'a Created>>) -> Created {
        let (mut sum, mut parts_seen, mut counted, mut measured) = (0u64, 0usize, 0usize, 0usize);
        for part in parts {
            parts_seen += 1;
            let Some(part) = part else { continue };
            if let Some(resources) = part.resources {
                sum += resources;
                measured += 1;
                if part.basis == CreatedBasis::Count {
                    counted += 1;
                }
            }
        }
        let unmeasured = parts_seen - measured;
        let runs = |n: usize| plural(n, "operation", "operations");
        if parts_seen > 0 && counted == parts_seen {
            return Created {
                basis: CreatedBasis::Count,
                resources: Some(sum),
                source: Some(format!("the counts of {}", runs(counted))),
                ledgers: Vec::new(),
                note: None,
            };
        }
        if measured == 0 {
            return Created {
                basis: CreatedBasis::Unknown,
                resources: None,
                source: None,
                ledgers: Vec::new(),
                note: Some("no ids in the answers; give --count-url or --count-url-template".to_string()),
            };
        }
        if counted == 0 && unmeasured == 0 {
            return Created::by_ids(sum);
        }
        let mut note = format!(
            "{} by the count, {} by distinct ids in the answers (a lower bound)",
            runs(counted),
            runs(measured - counted)
        );
        if unmeasured > 0 {
            note.push_str(&format!(", {} not measured", runs(unmeasured)));
        }
        Created { basis: CreatedBasis::Ids, resources: Some(sum), source: None, ledgers: Vec::new(), note: Some(note) }
    }

    /// The summary's last line: `created 3 resources by the count at GET …`, `created at least 1
    /// resource by distinct ids in the answers`, or `resources created: unknown (…)`.
    pub(crate) fn line(&self, palette: Palette) -> String {
        let resources = |n: u64| plural(n, "resource", "resources");
        match (self.basis, self.resources) {
            (CreatedBasis::Count, Some(n)) => {
                // One ledger is named by its GET; a total over several by what it adds up.
                let by = match self.source.as_deref().unwrap_or_default() {
                    source if source.starts_with("GET ") => format!("by the count at {source}"),
                    source => format!("by {source}"),
                };
                let mut line = format!("{} {} {}", palette.bold("created"), resources(n), palette.dim(&by));
                if !self.ledgers.is_empty() {
                    line.push_str(&palette.dim(&format!("; ledgers: {}", crate::count::ledgers_phrase(&self.ledgers))));
                }
                line
            }
            (CreatedBasis::Ids, Some(n)) => {
                let why = match &self.note {
                    Some(note) if note.starts_with("distinct ids") || note.is_empty() => {
                        " (a lower bound; give --count-url for the number)".to_string()
                    }
                    Some(note) => format!(" ({note})"),
                    None => String::new(),
                };
                format!(
                    "{} at least {} {}",
                    palette.bold("created"),
                    resources(n),
                    palette.dim(&format!("by distinct ids in the answers{why}"))
                )
            }
            _ => format!(
                "{} {}",
                palette.bold("resources created: unknown"),
                palette.dim(&format!("({})", self.note.as_deref().unwrap_or("nothing measured them")))
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reading(before: u64, after: u64, doubt: Option<&str>) -> CountReading {
        CountReading {
            change: CountChange {
                before,
                after,
                settled_after_ms: 200,
                reads: vec![after],
                late_executions: 0,
                doubt: doubt.map(str::to_string),
            },
            source: "GET http://127.0.0.1:1/payments at /count".to_string(),
            ledger: None,
            ledgers: Vec::new(),
        }
    }

    fn ids(answers: &[(u16, &str, bool)]) -> CreatedIds {
        let mut ids = CreatedIds::default();
        for (status, id, replayed) in answers {
            ids.add(Some(*status), Some(id), *replayed);
        }
        ids
    }

    #[test]
    fn a_believed_count_decides_whatever_the_ids_show() {
        let created = Created::measure(&[reading(4, 7, None)], &ids(&[(201, "pay_1", false)]));
        assert_eq!((created.basis, created.resources), (CreatedBasis::Count, Some(3)));
        assert_eq!(
            created.line(Palette::plain()),
            "created 3 resources by the count at GET http://127.0.0.1:1/payments at /count"
        );
    }

    #[test]
    fn distinct_ids_in_2xx_answers_are_a_lower_bound() {
        let answers = [(201, "pay_1", false), (200, "pay_1", true), (201, "pay_2", false), (500, "pay_3", false)];
        let created = Created::measure(&[], &ids(&answers));
        assert_eq!((created.basis, created.resources), (CreatedBasis::Ids, Some(2)));
        assert!(created.line(Palette::plain()).starts_with("created at least 2 resources by distinct ids"));
    }

    #[test]
    fn an_id_only_ever_replayed_was_not_created_by_this_run() {
        let created = Created::measure(&[], &ids(&[(200, "pay_old", true), (200, "pay_old", true)]));
        assert_eq!((created.basis, created.resources), (CreatedBasis::Unknown, None));
    }

    #[test]
    fn operations_add_up_by_the_count_only_when_every_one_was_counted() {
        let counted = Created::measure(&[reading(0, 4, None)], &CreatedIds::default());
        let by_ids = Created::measure(&[], &ids(&[(201, "pay_1", false)]));
        let unknown = Created::measure(&[], &CreatedIds::default());
        let all_counted = Created::total([Some(&counted), Some(&counted)]);
        assert_eq!((all_counted.basis, all_counted.resources), (CreatedBasis::Count, Some(8)));
        assert_eq!(all_counted.line(Palette::plain()), "created 8 resources by the counts of 2 operations");
        let mixed = Created::total([Some(&counted), Some(&by_ids), Some(&unknown), None]);
        assert_eq!((mixed.basis, mixed.resources), (CreatedBasis::Ids, Some(5)));
        assert!(mixed.line(Palette::plain()).starts_with("created at least 5 resources"), "{mixed:?}");
        assert!(mixed.note.as_deref().unwrap_or_default().contains("2 operations not measured"), "{mixed:?}");
        let nothing = Created::total([Some(&unknown), None]);
        assert_eq!((nothing.basis, nothing.resources), (CreatedBasis::Unknown, None));
    }

    #[test]
    fn ledgers_of_different_kinds_add_up_and_a_doubted_one_gives_way_to_the_ids() {
        let (customers, charges) = (reading(0, 1, None), reading(5, 7, None));
        let both = Created::measure_kinds(&[customers.clone(), charges], &CreatedIds::default());
        assert_eq!((both.basis, both.resources, both.ledgers.len()), (CreatedBasis::Count, Some(3), 2));
        let doubted = reading(7, 5, Some("unconfirmed: the count went down"));
        let by_ids = Created::measure_kinds(&[customers, doubted], &ids(&[(201, "cus_1", false)]));
        assert_eq!((by_ids.basis, by_ids.resources), (CreatedBasis::Ids, Some(1)));
        assert_eq!(by_ids.note.as_deref(), Some("the count was set aside: the count went down"));
    }

    #[test]
    fn a_doubted_count_and_no_ids_give_no_number() {
        let created =
            Created::measure(&[reading(5, 3, Some("unconfirmed: the count went down"))], &CreatedIds::default());
        assert_eq!((created.basis, created.resources), (CreatedBasis::Unknown, None));
        let line = created.line(Palette::plain());
        assert_eq!(line, "resources created: unknown (the count was set aside: the count went down)");
        assert!(!line.chars().any(|c| c.is_ascii_digit()), "{line}");
        let nothing = Created::measure(&[], &CreatedIds::default()).line(Palette::plain());
        assert_eq!(nothing, "resources created: unknown (no ids in the answers; give --count-url)");
    }
}
