//! The drawings of `--format html` reports, as inline SVG (no script, no library): the race's
//! timeline, the window's curve, the sender's attempts over time, and counts per round. Each takes
//! plain numbers and labels, and escapes every label.
use std::fmt::Write as _;

use super::{Tone, escape};

const WIDTH: f64 = 860.0;
/// Room for the lane labels on the left.
const LABELS: f64 = 150.0;
/// Room for the notes right of the longest bar.
const NOTES: f64 = 180.0;
const LANE: f64 = 26.0;
const AXIS: f64 = 36.0;

fn open(kind: &str, title: &str, height: f64) -> String {
    format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"drawing\" data-drawing=\"{kind}\" role=\"img\" \
         viewBox=\"0 0 {WIDTH} {height}\" width=\"{WIDTH}\" height=\"{height}\"><title>{}</title>\n",
        escape(title)
    )
}

/// A horizontal time axis from 0 to `span` (in ms) under lanes that end at `y`.
fn time_axis(out: &mut String, y: f64, span: f64, plot: f64, unit_label: &str) {
    let _ = write!(out, "<line class=\"axis\" x1=\"{LABELS}\" y1=\"{y}\" x2=\"{:.1}\" y2=\"{y}\"/>", LABELS + plot);
    for tick in 0..=4 {
        let x = LABELS + plot * f64::from(tick) / 4.0;
        let value = span * f64::from(tick) / 4.0;
        let _ = write!(
            out,
            "<line class=\"axis\" x1=\"{x:.1}\" y1=\"{y}\" x2=\"{x:.1}\" y2=\"{:.1}\"/><text x=\"{x:.1}\" y=\"{:.1}\" \
             text-anchor=\"middle\">{}</text>",
            y + 4.0,
            y + 16.0,
            short_ms(value)
        );
    }
    let _ = write!(
        out,
        "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\">{}</text>",
        LABELS + plot / 2.0,
        y + 31.0,
        escape(unit_label)
    );
}

fn short_ms(ms: f64) -> String {
    if ms >= 10_000.0 {
        format!("{:.0} s", ms / 1000.0)
    } else if ms >= 1000.0 {
        format!("{:.1} s", ms / 1000.0)
    } else if ms >= 10.0 || ms == 0.0 {
        format!("{ms:.0} ms")
    } else {
        format!("{ms:.2} ms")
    }
}

/// One duplicate of a race: sent at `sent_ms` after the first, answered `answered_ms` after that
/// first send (`None`: no answer).
pub(crate) struct Lane {
    pub label: String,
    pub sent_ms: f64,
    pub answered_ms: Option<f64>,
    pub tone: Tone,
    /// Said after the bar: the status, `replayed`, the error.
    pub note: String,
}

/// The race's timeline: a lane per duplicate, from its send to its answer.
pub(crate) fn timeline(title: &str, lanes: &[Lane]) -> String {
    let span = lanes.iter().map(|lane| lane.answered_ms.unwrap_or(lane.sent_ms)).fold(1.0_f64, f64::max);
    let plot = WIDTH - LABELS - NOTES;
    let height = LANE * lanes.len() as f64 + AXIS + 8.0;
    let mut out = open("timeline", title, height);
    for (index, lane) in lanes.iter().enumerate() {
        let y = 4.0 + LANE * index as f64;
        let start = LABELS + plot * lane.sent_ms / span;
        let end = LABELS + plot * lane.answered_ms.unwrap_or(span) / span;
        let _ = writeln!(
            out,
            "<g class=\"lane\"><text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"end\">{}</text>\
             <rect class=\"{}\" x=\"{start:.1}\" y=\"{:.1}\" width=\"{:.1}\" height=\"{:.1}\" rx=\"3\"/>\
             <text x=\"{:.1}\" y=\"{:.1}\">{}</text></g>",
            LABELS - 8.0,
            y + LANE / 2.0 + 4.0,
            escape(&lane.label),
            lane.tone.class(),
            y + 4.0,
            (end - start).max(2.0),
            LANE - 8.0,
            end.max(start + 2.0) + 6.0,
            y + LANE / 2.0 + 4.0,
            escape(&lane.note),
        );
    }
    time_axis(&mut out, LANE * lanes.len() as f64 + 6.0, span, plot, "time since the first duplicate was released");
    out.push_str("</svg>\n");
    out
}

/// One measured point of a curve: `x_ms` apart, `y` of `of` executed twice.
pub(crate) struct Point {
    pub x_ms: f64,
    pub y: f64,
    pub of: f64,
}

/// The window's curve: pairs executed twice (up) against the delay between them (across).
pub(crate) fn curve(title: &str, points: &[Point]) -> String {
    let height = 260.0;
    let plot_height = height - AXIS - 16.0;
    let plot = WIDTH - LABELS - 40.0;
    let span = points.iter().map(|point| point.x_ms).fold(1.0_f64, f64::max);
    let top = points.iter().map(|point| point.of).fold(1.0_f64, f64::max);
    let mut out = open("curve", title, height);
    let y_of = |value: f64| 8.0 + plot_height * (1.0 - value / top);
    let _ = writeln!(
        out,
        "<line class=\"axis\" x1=\"{LABELS}\" y1=\"8\" x2=\"{LABELS}\" y2=\"{:.1}\"/>\
         <text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"end\">{top}</text><text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"end\">0</text>\
         <text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"end\">pairs executed twice</text>",
        8.0 + plot_height,
        LABELS - 6.0,
        y_of(top) + 4.0,
        LABELS - 6.0,
        y_of(0.0) + 4.0,
        LABELS - 6.0,
        8.0 + plot_height / 2.0,
    );
    let mut sorted: Vec<&Point> = points.iter().collect();
    sorted.sort_by(|a, b| a.x_ms.total_cmp(&b.x_ms));
    let path: Vec<String> =
        sorted.iter().map(|point| format!("{:.1},{:.1}", LABELS + plot * point.x_ms / span, y_of(point.y))).collect();
    let _ = writeln!(out, "<polyline class=\"curve\" points=\"{}\"/>", path.join(" "));
    for point in sorted {
        let tone = if point.y > 0.0 { Tone::Bad } else { Tone::Good };
        let _ = writeln!(
            out,
            "<circle class=\"point {}\" cx=\"{:.1}\" cy=\"{:.1}\" r=\"4\"><title>{} apart: {} of {} executed twice</title></circle>",
            tone.class(),
            LABELS + plot * point.x_ms / span,
            y_of(point.y),
            short_ms(point.x_ms),
            point.y,
            point.of
        );
    }
    time_axis(&mut out, 8.0 + plot_height, span, plot, "delay between the two duplicates of a pair");
    out.push_str("</svg>\n");
    out
}

/// One attempt of a sender, `at_ms` after the run's first.
pub(crate) struct Mark {
    pub at_ms: f64,
    pub tone: Tone,
    /// What the attempt got and showed: the scripted answer, the signature's state.
    pub label: String,
}

/// The sender's attempts over time: a lane per event, a mark per attempt.
pub(crate) fn attempts(title: &str, lanes: &[(String, Vec<Mark>)]) -> String {
    let span = lanes.iter().flat_map(|(_, marks)| marks.iter().map(|mark| mark.at_ms)).fold(1.0_f64, f64::max);
    let plot = WIDTH - LABELS - 40.0;
    let height = LANE * lanes.len() as f64 + AXIS + 8.0;
    let mut out = open("attempts", title, height);
    for (index, (label, marks)) in lanes.iter().enumerate() {
        let y = 4.0 + LANE * index as f64 + LANE / 2.0;
        let _ = write!(
            out,
            "<g class=\"lane\"><text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"end\">{}</text>\
             <line class=\"axis\" x1=\"{LABELS}\" y1=\"{y:.1}\" x2=\"{:.1}\" y2=\"{y:.1}\" stroke-dasharray=\"2 4\"/>",
            LABELS - 8.0,
            y + 4.0,
            escape(label),
            LABELS + plot,
        );
        for mark in marks {
            let _ = write!(
                out,
                "<circle class=\"attempt {}\" cx=\"{:.1}\" cy=\"{y:.1}\" r=\"6\"><title>{}</title></circle>",
                mark.tone.class(),
                LABELS + plot * mark.at_ms / span,
                escape(&mark.label)
            );
        }
        out.push_str("</g>\n");
    }
    time_axis(&mut out, LANE * lanes.len() as f64 + 6.0, span, plot, "time since the first attempt");
    out.push_str("</svg>\n");
    out
}

/// A stacked bar: its label, then its parts (label, count, tone) in order.
pub(crate) type Bar = (String, Vec<(String, usize, Tone)>);

/// Counts per row, stacked: the copies of each race round by their answer.
pub(crate) fn stacked(title: &str, rows: &[Bar]) -> String {
    let most = rows.iter().map(|(_, parts)| parts.iter().map(|part| part.1).sum::<usize>()).max().unwrap_or(1).max(1);
    let plot = WIDTH - LABELS - NOTES;
    let height = LANE * rows.len() as f64 + 12.0;
    let mut out = open("counts", title, height);
    for (index, (label, parts)) in rows.iter().enumerate() {
        let y = 4.0 + LANE * index as f64;
        let _ = write!(
            out,
            "<g class=\"lane\"><text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"end\">{}</text>",
            LABELS - 8.0,
            y + LANE / 2.0 + 4.0,
            escape(label)
        );
        let mut x = LABELS;
        let mut notes = Vec::new();
        for (name, count, tone) in parts {
            let width = plot * *count as f64 / most as f64;
            let _ = write!(
                out,
                "<rect class=\"{}\" x=\"{x:.1}\" y=\"{:.1}\" width=\"{width:.1}\" height=\"{:.1}\"><title>{} × {count}</title></rect>",
                tone.class(),
                y + 4.0,
                LANE - 8.0,
                escape(name)
            );
            x += width;
            notes.push(format!("{name} ×{count}"));
        }
        let _ = writeln!(
            out,
            "<text x=\"{:.1}\" y=\"{:.1}\">{}</text></g>",
            x + 6.0,
            y + LANE / 2.0 + 4.0,
            escape(&notes.join(", "))
        );
    }
    out.push_str("</svg>\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_are_escaped_in_every_drawing() {
        let hostile = "<script>x</script>";
        let lane = Lane {
            label: hostile.into(),
            sent_ms: 0.0,
            answered_ms: Some(3.0),
            tone: Tone::Good,
            note: hostile.into(),
        };
        let mark = Mark { at_ms: 1.0, tone: Tone::Bad, label: hostile.into() };
        for drawing in [
            timeline(hostile, &[lane]),
            curve(hostile, &[Point { x_ms: 1.0, y: 1.0, of: 2.0 }]),
            attempts(hostile, &[(hostile.into(), vec![mark])]),
            stacked(hostile, &[(hostile.into(), vec![(hostile.into(), 2, Tone::Good)])]),
        ] {
            assert!(drawing.starts_with("<svg") && !drawing.contains("<script"), "{drawing}");
        }
    }
}
