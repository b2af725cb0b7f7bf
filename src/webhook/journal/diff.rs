//! `webhook journal A --diff B`: two runs' journals as series — which events each holds that the
//! other does not, how many of each event type, events delivered a different number of times, and
//! where their orders part. Exit 0 when the two series are the same, 1 when they differ (as `diff`).
use std::collections::{BTreeMap, HashMap, HashSet};
use std::io::Write;
use std::path::{Path, PathBuf};

use serde::Serialize;

use super::inspect::JournalFilter;
use super::reader::read_journal;
use super::record::JournalRecord;
use crate::exit::Outcome;
use crate::output::{Format, Palette, terminal_safe};

/// The `schema` value of `webhook journal A --diff B --format json` (schemas/webhook-journal-diff.json).
pub(crate) const SCHEMA: &str = "webhook-journal-diff/1";

#[derive(Debug, Clone)]
pub struct DiffConfig {
    pub a: PathBuf,
    pub b: PathBuf,
    /// The same filters as `list`, applied to both journals.
    pub filter: JournalFilter,
    pub format: Format,
    pub palette: Palette,
}

/// The `--format json` document.
#[derive(Debug, Serialize, schemars::JsonSchema)]
pub(crate) struct JournalDiff {
    pub a: Side,
    pub b: Side,
    /// True when both journals hold the same deliveries' event ids in the same order.
    pub same: bool,
    /// Event ids only A holds, in the order A first received them.
    pub only_a: Vec<String>,
    /// Event ids only B holds, in the order B first received them.
    pub only_b: Vec<String>,
    /// How many distinct event ids both hold.
    pub both: usize,
    /// Events both hold but delivered a different number of times (retries, duplicates).
    pub delivered_differently: Vec<DeliveryCount>,
    /// Deliveries per event type in each (`null`: deliveries without a type), sorted by type.
    pub types: Vec<TypeCount>,
    /// The first delivery (1-based) at which the two series of event ids differ; `null` when
    /// they are the same.
    pub first_divergence: Option<Divergence>,
    /// Among the events both hold, in the order each first received them: the first place the two
    /// orders differ; `null` when both received them in the same order.
    pub shared_order_divergence: Option<Divergence>,
}

#[derive(Debug, Serialize, schemars::JsonSchema)]
pub(crate) struct Side {
    pub file: String,
    /// Deliveries the filters kept.
    pub deliveries: usize,
    /// Distinct event ids among them.
    pub events: usize,
    /// Lines that could not be read and were skipped, each described.
    pub skipped: Option<String>,
}

#[derive(Debug, Serialize, schemars::JsonSchema)]
pub(crate) struct DeliveryCount {
    pub event_id: String,
    pub a: usize,
    pub b: usize,
}

#[derive(Debug, Serialize, schemars::JsonSchema)]
pub(crate) struct TypeCount {
    pub event_type: Option<String>,
    pub a: usize,
    pub b: usize,
}

#[derive(Debug, Serialize, schemars::JsonSchema, PartialEq, Eq)]
pub(crate) struct Divergence {
    /// 1-based position in the series.
    pub position: usize,
    /// A's event id there (`null`: A's series ended).
    pub a: Option<String>,
    /// B's event id there (`null`: B's series ended).
    pub b: Option<String>,
}

pub(crate) fn run(config: DiffConfig) -> anyhow::Result<Outcome> {
    let diff = compare_files(&config.a, &config.b, &config.filter)?;
    for warning in [&diff.a.skipped, &diff.b.skipped].into_iter().flatten() {
        eprintln!("warning: {}", terminal_safe(warning));
    }
    let mut out = std::io::stdout().lock();
    match config.format {
        Format::Json => {
            let document = crate::json_output::pretty(SCHEMA, &diff)?;
            writeln!(out, "{document}")?;
        }
        Format::Human => print_human(&mut out, &diff, config.palette)?,
    }
    out.flush()?;
    Ok(if diff.same { Outcome::Holds } else { Outcome::ProblemFound })
}

/// Both journals read afresh and compared (the inspector asks again as a listener appends).
pub(crate) fn compare_files(a: &Path, b: &Path, filter: &JournalFilter) -> anyhow::Result<JournalDiff> {
    let (a_records, a_skipped) = read_journal(a)?;
    let (b_records, b_skipped) = read_journal(b)?;
    let a_kept: Vec<&JournalRecord> = a_records.iter().filter(|record| filter.keeps(record)).collect();
    let b_kept: Vec<&JournalRecord> = b_records.iter().filter(|record| filter.keeps(record)).collect();
    Ok(compare((a, &a_kept, a_skipped), (b, &b_kept, b_skipped)))
}

type Input<'a> = (&'a Path, &'a [&'a JournalRecord], Option<String>);

fn compare(a: Input<'_>, b: Input<'_>) -> JournalDiff {
    let a_series: Vec<&str> = a.1.iter().map(|record| record.event_id.as_str()).collect();
    let b_series: Vec<&str> = b.1.iter().map(|record| record.event_id.as_str()).collect();
    let (a_firsts, a_counts) = firsts_and_counts(&a_series);
    let (b_firsts, b_counts) = firsts_and_counts(&b_series);
    let only = |firsts: &[&str], other: &HashMap<&str, usize>| -> Vec<String> {
        firsts.iter().filter(|id| !other.contains_key(*id)).map(|id| id.to_string()).collect()
    };
    let only_a = only(&a_firsts, &b_counts);
    let only_b = only(&b_firsts, &a_counts);
    let delivered_differently = a_firsts
        .iter()
        .filter_map(|id| {
            let (in_a, in_b) = (a_counts[id], *b_counts.get(id)?);
            (in_a != in_b).then(|| DeliveryCount { event_id: id.to_string(), a: in_a, b: in_b })
        })
        .collect();
    let mut types: BTreeMap<Option<&str>, (usize, usize)> = BTreeMap::new();
    for record in a.1 {
        types.entry(record.event_type.as_deref()).or_default().0 += 1;
    }
    for record in b.1 {
        types.entry(record.event_type.as_deref()).or_default().1 += 1;
    }
    let shared_a: Vec<&str> = a_firsts.iter().copied().filter(|id| b_counts.contains_key(id)).collect();
    let shared_b: Vec<&str> = b_firsts.iter().copied().filter(|id| a_counts.contains_key(id)).collect();
    let first_divergence = divergence(&a_series, &b_series);
    let side = |(file, kept, skipped): Input<'_>, events: usize| Side {
        file: file.display().to_string(),
        deliveries: kept.len(),
        events,
        skipped,
    };
    JournalDiff {
        same: first_divergence.is_none(),
        a: side(a, a_firsts.len()),
        b: side(b, b_firsts.len()),
        both: shared_a.len(),
        only_a,
        only_b,
        delivered_differently,
        types: types
            .into_iter()
            .map(|(event_type, (a, b))| TypeCount { event_type: event_type.map(str::to_string), a, b })
            .collect(),
        first_divergence,
        shared_order_divergence: divergence(&shared_a, &shared_b),
    }
}

/// Each distinct id in the order it first came, and how many times each came.
fn firsts_and_counts<'a>(series: &[&'a str]) -> (Vec<&'a str>, HashMap<&'a str, usize>) {
    let mut counts: HashMap<&str, usize> = HashMap::new();
    let mut seen = HashSet::new();
    let mut firsts = Vec::new();
    for id in series {
        *counts.entry(id).or_default() += 1;
        if seen.insert(*id) {
            firsts.push(*id);
        }
    }
    (firsts, counts)
}

/// The first position where two series differ (one ending before the other counts).
fn divergence(a: &[&str], b: &[&str]) -> Option<Divergence> {
    let position = (0..a.len().max(b.len())).find(|&index| a.get(index) != b.get(index))?;
    Some(Divergence {
        position: position + 1,
        a: a.get(position).map(|id| id.to_string()),
        b: b.get(position).map(|id| id.to_string()),
    })
}

fn print_human(out: &mut impl Write, diff: &JournalDiff, palette: Palette) -> anyhow::Result<()> {
    for (name, side) in [("a", &diff.a), ("b", &diff.b)] {
        writeln!(out, "{name}: {}  {} deliveries, {} events", terminal_safe(&side.file), side.deliveries, side.events)?;
    }
    let ids = |ids: &[String]| ids.iter().map(|id| terminal_safe(id)).collect::<Vec<_>>().join(", ");
    writeln!(out, "only in a ({}): {}", diff.only_a.len(), ids(&diff.only_a))?;
    writeln!(out, "only in b ({}): {}", diff.only_b.len(), ids(&diff.only_b))?;
    writeln!(out, "in both: {} events", diff.both)?;
    for count in &diff.delivered_differently {
        writeln!(
            out,
            "delivered a different number of times: {} (a {}, b {})",
            terminal_safe(&count.event_id),
            count.a,
            count.b
        )?;
    }
    let width = diff
        .types
        .iter()
        .map(|count| count.event_type.as_deref().unwrap_or("(no type)").chars().count())
        .max()
        .unwrap_or(0)
        .max(4);
    writeln!(out, "{}", palette.dim(&format!("  {:width$}  {:>5}  {:>5}", "type", "a", "b")))?;
    for count in &diff.types {
        let name = terminal_safe(count.event_type.as_deref().unwrap_or("(no type)"));
        let line = format!("  {name:width$}  {:>5}  {:>5}", count.a, count.b);
        let line = if count.a == count.b { line } else { palette.yellow(&line) };
        writeln!(out, "{line}")?;
    }
    let at = |divergence: &Divergence| {
        let id = |id: &Option<String>| id.as_deref().map_or("(ended)".to_string(), |id| terminal_safe(id).to_string());
        format!("#{}: a {}, b {}", divergence.position, id(&divergence.a), id(&divergence.b))
    };
    match &diff.shared_order_divergence {
        None => writeln!(out, "the events in both came in the same order")?,
        Some(divergence) => writeln!(out, "the events in both came in another order from {}", at(divergence))?,
    }
    match &diff.first_divergence {
        None => writeln!(out, "{}", palette.green("the two series are the same"))?,
        Some(divergence) => {
            writeln!(out, "{}", palette.red(&format!("the series differ from delivery {}", at(divergence))))?
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn divergence_is_the_first_differing_position_or_the_end_of_one() {
        assert_eq!(divergence(&["a", "b"], &["a", "b"]), None);
        assert_eq!(
            divergence(&["a", "b", "c"], &["a", "c"]),
            Some(Divergence { position: 2, a: Some("b".into()), b: Some("c".into()) })
        );
        assert_eq!(divergence(&["a"], &["a", "b"]), Some(Divergence { position: 2, a: None, b: Some("b".into()) }));
    }
}
