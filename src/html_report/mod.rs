//! `--format html`: one self-contained page per report (inline CSS and SVG, no script, nothing
//! fetched), readable offline and attachable to a CI run. Every suite feeds its own report data
//! into this builder; every string that came from the target (evidence, ids, URLs, bodies) goes
//! through [`escape`], so a hostile answer cannot add markup to the page. The page is also
//! well-formed XML (void elements closed), so a reader can take it apart with an XML parser.
pub(crate) mod svg;

use std::fmt::Write as _;

/// How a verdict, a row or a mark reads: good, bad, worth a look, or not judged.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Tone {
    Good,
    Bad,
    Warn,
    Neutral,
}

impl Tone {
    pub(crate) fn class(self) -> &'static str {
        match self {
            Tone::Good => "good",
            Tone::Bad => "bad",
            Tone::Warn => "warn",
            Tone::Neutral => "neutral",
        }
    }

    /// The tone of an HTTP status: 2xx good, 4xx worth a look, 5xx or none bad.
    pub(crate) fn of_status(status: Option<u16>) -> Tone {
        match status {
            Some(200..=299) => Tone::Good,
            Some(300..=499) => Tone::Warn,
            _ => Tone::Bad,
        }
    }
}

/// Text made safe for HTML content and attribute values (SVG's too), and for XML's (the JUnit
/// reports): every replacement is one XML 1.0 also allows, and the control characters it cannot
/// carry even escaped become U+FFFD.
pub(crate) fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            // Control characters (a terminal escape in an answer) have no business in a page.
            c if c.is_control() && c != '\n' && c != '\t' => out.push('\u{fffd}'),
            c => out.push(c),
        }
    }
    out
}

/// One report page, built a section at a time.
pub(crate) struct HtmlReport {
    title: String,
    target: String,
    verdict: Option<(String, Tone)>,
    body: String,
}

/// A table row: its `data-` attributes (name, value), then its cells.
pub(crate) type Row<'a> = (Vec<(&'a str, String)>, Vec<Cell>);

/// A table cell: text (escaped here) with a tone, or markup already built from escaped parts.
pub(crate) enum Cell {
    Text(String, Tone),
    Markup(String),
}

impl Cell {
    pub(crate) fn text(text: impl Into<String>) -> Cell {
        Cell::Text(text.into(), Tone::Neutral)
    }
}

impl HtmlReport {
    /// A report titled like the command (`idem check`) about `target`.
    pub(crate) fn new(title: &str, target: &str) -> HtmlReport {
        HtmlReport { title: title.to_string(), target: target.to_string(), verdict: None, body: String::new() }
    }

    /// The verdict in a sentence, shown under the title.
    pub(crate) fn verdict(&mut self, text: &str, tone: Tone) -> &mut HtmlReport {
        self.verdict = Some((text.to_string(), tone));
        self
    }

    /// A heading, then markup built by the caller from escaped parts.
    pub(crate) fn section(&mut self, heading: &str, markup: &str) -> &mut HtmlReport {
        let _ = write!(self.body, "<section><h2>{}</h2>\n{markup}</section>\n", escape(heading));
        self
    }

    /// A table: `headers`, then rows, each with `data-` attributes (name, value) for readers that
    /// look a row up by what it stands for (a check's id and outcome).
    pub(crate) fn table(headers: &[&str], rows: Vec<Row<'_>>) -> String {
        let mut out = String::from("<table>\n<thead><tr>");
        for header in headers {
            let _ = write!(out, "<th>{}</th>", escape(header));
        }
        out.push_str("</tr></thead>\n<tbody>\n");
        for (data, cells) in rows {
            out.push_str("<tr");
            for (name, value) in data {
                let _ = write!(out, " data-{name}=\"{}\"", escape(&value));
            }
            out.push('>');
            for cell in cells {
                match cell {
                    Cell::Text(text, tone) => {
                        let _ = write!(out, "<td class=\"{}\">{}</td>", tone.class(), escape(&text));
                    }
                    Cell::Markup(markup) => {
                        let _ = write!(out, "<td>{markup}</td>");
                    }
                }
            }
            out.push_str("</tr>\n");
        }
        out.push_str("</tbody>\n</table>\n");
        out
    }

    /// A list of lines, each escaped.
    pub(crate) fn list(lines: &[String]) -> String {
        let mut out = String::from("<ul>");
        for line in lines {
            let _ = write!(out, "<li>{}</li>", escape(line));
        }
        out.push_str("</ul>\n");
        out
    }

    /// The whole page.
    pub(crate) fn finish(&self) -> String {
        let mut out = String::with_capacity(self.body.len() + 4096);
        let _ = write!(
            out,
            "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\"/>\n\
             <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"/>\n\
             <title>{title}: {target}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n\
             <header><h1>{title}</h1><p class=\"target\">{target}</p>",
            title = escape(&self.title),
            target = escape(&self.target),
        );
        if let Some((text, tone)) = &self.verdict {
            let _ = write!(out, "<p class=\"verdict {}\" id=\"verdict\">{}</p>", tone.class(), escape(text));
        }
        out.push_str("</header>\n<main>\n");
        out.push_str(&self.body);
        out.push_str("</main>\n</body>\n</html>\n");
        out
    }
}

/// The page's only styling: readable on screen and on paper, light and dark alike.
const STYLE: &str = "\
:root{color-scheme:light dark;--good:#1a7f37;--bad:#cf222e;--warn:#9a6700;--muted:#6e7781;--line:#d0d7de}\
body{font:15px/1.45 system-ui,sans-serif;margin:2rem auto;max-width:72rem;padding:0 1rem}\
h1{margin:0;font-size:1.6rem}h2{font-size:1.2rem;border-bottom:1px solid var(--line);padding-bottom:.2rem}\
h3{font-size:1rem;margin:1.2rem 0 .3rem}.target{color:var(--muted);margin:.2rem 0;word-break:break-all}\
.verdict{font-weight:600;font-size:1.1rem}.good{color:var(--good)}.bad{color:var(--bad)}.warn{color:var(--warn)}\
.neutral{color:inherit}table{border-collapse:collapse;width:100%}th,td{text-align:left;padding:.3rem .5rem;\
border-bottom:1px solid var(--line);vertical-align:top}td{word-break:break-word}code,pre{font:13px ui-monospace,monospace}\
pre{white-space:pre-wrap;word-break:break-all}.why{color:var(--muted)}.fix{border-left:3px solid var(--warn);padding-left:.6rem}\
svg{max-width:100%;height:auto;display:block;margin:.5rem 0}svg text{font:12px system-ui,sans-serif;fill:currentColor}\
svg .good{fill:var(--good)}svg .bad{fill:var(--bad)}svg .warn{fill:var(--warn)}svg .neutral{fill:var(--muted)}\
svg .axis{stroke:var(--muted);stroke-width:1}svg .curve{fill:none;stroke:var(--bad);stroke-width:2}\
.note{color:var(--muted);font-size:.9rem}";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hostile_text_cannot_add_markup() {
        assert_eq!(
            escape("<script>alert('x')</script> & \"q\" \u{1b}[31m"),
            "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &amp; &quot;q&quot; \u{fffd}[31m"
        );
        let mut report = HtmlReport::new("idem check", "POST http://x/<b>");
        report.verdict("<img src=x onerror=alert(1)>", Tone::Bad);
        let page = report.finish();
        assert!(!page.contains("<b>") && !page.contains("<img"), "{page}");
        assert!(!page.contains("<script"), "no script in a report");
    }
}
