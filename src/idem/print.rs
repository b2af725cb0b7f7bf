//! The one human printer of `idem`: the key line, an answer line, a round of duplicates, a window
//! step and the verdict, worded for people. `send`, `race`, `window`, `check` and the demo all
//! render through here, so the same answer reads the same everywhere.
use std::time::Duration;

use crate::evidence_level::{ANSWER_REPLAYED, COUNTED, EvidenceLevel, NOT_COUNTED};
use crate::idem::race::round::{KeyMode, ReleaseRecord, RoundReport, SyncMode};
use crate::idem::request::RequestSpec;
use crate::idem::verdict::{self, Judgement, Observed, Verdict};
use crate::output::{Palette, indent, render_body};
use crate::units::format_duration;

/// The request line and the key, so the user can retry by hand with `--key`.
pub(crate) fn key_line(spec: &RequestSpec, key: Option<&str>, palette: Palette) -> String {
    let target = format!("{} {}", spec.method, spec.url);
    match key {
        None => format!("{target}  {}", palette.dim("(no idempotency key)")),
        Some(key) => format!(
            "{target}\n{}: {}  {}",
            spec.key_label(),
            palette.bold(key),
            palette.dim(&match spec.key_named {
                "--key" => format!("(retry with --key {key})"),
                _ => "(fixed by IDEM_KEY, from the environment)".to_string(),
            })
        ),
    }
}

/// One line for an attempt: number, status, latency, resource id, replay marker.
pub(crate) fn attempt_line(number: usize, observed: &Observed, latency: Option<Duration>, palette: Palette) -> String {
    // Padded so answers #1 to #999 line up.
    let number = palette.dim(&format!("#{number:<3}"));
    let Some(status) = observed.status else {
        return format!("{number} {}  {}", palette.red("no answer"), observed.error.as_deref().unwrap_or_default());
    };
    let reason = http::StatusCode::from_u16(status).ok().and_then(|s| s.canonical_reason()).unwrap_or("");
    let latency = latency.map(format_duration).unwrap_or_default();
    let mut line = format!("{number} {} {reason:<12} {latency:>8}", palette.status(status));
    if let Some(id) = &observed.resource_id {
        // The id came off the network: escaped so it cannot move the cursor or rewrite the line.
        line.push_str(&format!("  {}", palette.cyan(&crate::output::terminal_safe(id))));
        if let Some(from) = observed.id_from.as_deref().filter(|from| !from.starts_with("body ")) {
            line.push_str(&format!(" {}", palette.dim(&format!("(from {from})"))));
        }
    }
    if let Some(encoding) = &observed.content_encoding {
        line.push_str(&format!("  {}", palette.dim(&crate::output::terminal_safe(encoding))));
    }
    if observed.replayed {
        line.push_str(&format!("  {}", palette.yellow("replayed")));
    }
    line
}

/// The attempt line and its body (or a note that it repeats the first body).
pub(crate) fn attempt_with_body(
    number: usize,
    observed: &Observed,
    latency: Option<Duration>,
    first_body: &mut Option<Vec<u8>>,
    pretty: bool,
    palette: Palette,
) -> String {
    let line = attempt_line(number, observed, latency, palette);
    if observed.status.is_none() {
        return line;
    }
    let body = observed.body.as_ref();
    let body_text = match first_body {
        Some(first) if first.as_slice() == body => palette.dim("(body identical to #1)"),
        _ if pretty => render_body(body),
        _ => String::from_utf8_lossy(body).trim_end().to_string(),
    };
    if first_body.is_none() {
        *first_body = Some(body.to_vec());
    }
    format!("{line}\n{}", indent(&body_text, 4))
}

/// The closing verdict line, worded for people.
pub(crate) fn render_judgement(judgement: &Judgement, answers: usize, palette: Palette) -> String {
    let mut text = match judgement.verdict {
        Verdict::Consistent => {
            let ids = match judgement.resource_ids.as_slice() {
                [] => "no resource id".to_string(),
                ids => format!("one resource, {}", safe_ids(ids)),
            };
            let replays = match judgement.body_match {
                Some(verdict::BodyMatch::Identical) => ", replays byte-identical",
                Some(verdict::BodyMatch::EqualAsJson) => ", replays equal as JSON",
                None => "",
            };
            let evidence = match judgement.evidence.as_slice() {
                [] => String::new(),
                evidence => format!(
                    "\n  {} {}",
                    palette.dim("evidence:"),
                    evidence.iter().map(|e| e.phrase()).collect::<Vec<_>>().join("; ")
                ),
            };
            // The ✓ names its level: only a count shows executions; the answers show a replay.
            match judgement.evidence_level {
                Some(EvidenceLevel::Count) => {
                    format!("{} {answers} answers, {ids}{replays}{evidence}", palette.green(&format!("✓ {COUNTED}:")))
                }
                _ => {
                    let shown = judgement.replay_shown_by();
                    let shown = if shown.is_empty() { String::new() } else { format!(" ({shown})") };
                    format!(
                        "{} {answers} answers, {ids}{replays}{evidence}\n  {} {NOT_COUNTED}",
                        palette.green(&format!("✓ {ANSWER_REPLAYED}{shown}:")),
                        palette.dim("note:")
                    )
                }
            }
        }
        Verdict::Unconfirmed => {
            format!(
                "{} {}",
                palette.yellow("? unconfirmed:"),
                judgement.explanation.as_deref().unwrap_or_default().trim_start_matches("unconfirmed: ")
            )
        }
        Verdict::ExecutedMoreThanOnce => match &judgement.explanation {
            // Judged by the count: the ids may name fewer resources than were made.
            Some(explanation) => {
                format!("{} {}", palette.red(&format!("✗ executed {} times:", judgement.executions)), explanation)
            }
            None => format!(
                "{} {} distinct resources for one key: {}",
                palette.red(&format!("✗ executed {} times:", judgement.executions)),
                judgement.executions,
                safe_ids(&judgement.resource_ids)
            ),
        },
        Verdict::Inconsistent => format!("{} the answers disagree", palette.red("✗ inconsistent replay:")),
        Verdict::Errors => format!("{} some attempts got no answer", palette.red("✗ no verdict:")),
        Verdict::NothingCreated | Verdict::CannotTell => {
            format!("{} {}", palette.red("✗ no verdict:"), judgement.explanation.as_deref().unwrap_or_default())
        }
        Verdict::AllExecuted => {
            let evidence = judgement.evidence.iter().map(|e| e.phrase()).collect::<Vec<_>>().join("; ");
            let evidence = if evidence.is_empty() { evidence } else { format!(" ({evidence})") };
            format!(
                "{} {}{evidence}",
                palette.green("✓ control:"),
                judgement.explanation.as_deref().unwrap_or_default()
            )
        }
        Verdict::Collapsed => {
            format!("{} {}", palette.red("✗ control:"), judgement.explanation.as_deref().unwrap_or_default())
        }
    };
    for difference in &judgement.differences {
        text.push_str(&format!("\n  - {}", crate::output::terminal_safe(difference)));
    }
    for note in &judgement.notes {
        match note.strip_prefix("warning: ") {
            Some(warning) => {
                text.push_str(&format!("\n  {} {}", palette.yellow("warning:"), crate::output::terminal_safe(warning)))
            }
            None => text.push_str(&format!("\n  {} {}", palette.dim("note:"), crate::output::terminal_safe(note))),
        }
    }
    text
}

/// Resource ids came off the network: joined and escaped for the terminal.
fn safe_ids(ids: &[String]) -> String {
    crate::output::terminal_safe(&ids.join(", ")).into_owned()
}
/// A round as people read it: the key, each answer, the release and the verdict.
/// `key_label` names the key: its header, or where `--key-in` put it.
pub(crate) fn render_round(round: &RoundReport, key_label: &str, palette: Palette) -> String {
    let mut out = String::new();
    match &round.key {
        Some(key) => out.push_str(&format!("{key_label}: {}\n", palette.bold(key))),
        None if round.key_mode == KeyMode::Distinct => out.push_str("a distinct key per request (control)\n"),
        None => out.push_str(&format!("{}\n", palette.dim("no idempotency key (control)"))),
    }
    for answer in &round.answers {
        let line = attempt_line(answer.number, &answer.observed, answer.latency, palette);
        match &answer.target {
            Some(target) => out.push_str(&format!("  {line}  {}\n", palette.dim(&format!("← {target}")))),
            None => out.push_str(&format!("  {line}\n")),
        }
    }
    let across = match round.targets.len() {
        0 | 1 => String::new(),
        targets => format!(" across {targets} targets"),
    };
    // Several connections released together: how their bytes reached the kernel.
    let batch = round.release.as_ref().and_then(|r| r.batch).map(|batch| batch.phrase());
    let release = match &round.release {
        Some(r) if r.stagger.is_some() => staggered_release(r),
        Some(r) if round.sync == SyncMode::SinglePacket => format!(
            "release: {} final frames in {}{across} ({} bytes{}), spread {}",
            round.answers.len(),
            if r.writes == 1 { "one write".to_string() } else { format!("{} writes", r.writes) },
            r.bytes,
            batch.map(|phrase| format!(", {phrase}")).unwrap_or_default(),
            format_duration(r.spread)
        ),
        Some(r) => format!(
            "release: {} final bytes in {} writes{across}{}, spread {}",
            r.bytes,
            r.writes,
            batch.map(|phrase| format!(" ({phrase})")).unwrap_or_default(),
            format_duration(r.spread)
        ),
        None => "release: not synchronised".to_string(),
    };
    let latency = round.latency_spread.map(|d| format!("; latency spread {}", format_duration(d))).unwrap_or_default();
    // Where the server stamped arrivals (`Server-Timing: arrival`): how far apart they reached it.
    let server = round.server_spread.map(|d| format!("; server spread {}", format_duration(d))).unwrap_or_default();
    out.push_str(&format!("{}\n", palette.dim(&format!("{release}{latency}{server}"))));
    out.push_str(&render_judgement(&round.judgement, round.answers.len(), palette));
    out.push('\n');
    out
}

/// `--stagger`: what was asked for and what the client achieved.
fn staggered_release(release: &ReleaseRecord) -> String {
    let asked = spacing(release.stagger.unwrap_or_default());
    let spacings = &release.spacings;
    let achieved = if spacings.len() <= 6 {
        spacings.iter().map(|gap| spacing(*gap)).collect::<Vec<_>>().join(", ")
    } else {
        let mut sorted = spacings.to_vec();
        sorted.sort();
        format!(
            "min {}, median {}, max {}",
            spacing(sorted[0]),
            spacing(sorted[sorted.len() / 2]),
            spacing(sorted[sorted.len() - 1])
        )
    };
    format!("release: staggered {asked} apart, one write per request; achieved spacings {achieved}")
}

/// A spacing precise enough to show how close to the asked value it came.
fn spacing(gap: Duration) -> String {
    let us = crate::units::micros(gap);
    if us < 1_000.0 {
        format!("{us:.1}µs")
    } else if us < 1_000_000.0 {
        format!("{:.3}ms", us / 1_000.0)
    } else {
        format!("{:.3}s", us / 1_000_000.0)
    }
}
