//! Showing deliveries as they arrive, through the shared bounded live log (`crate::live_log`):
//! what a delivery line holds and how it is rendered, human or JSON.
use std::fmt::Write as _;
use std::net::SocketAddr;
use std::time::Duration;

use chrono::{DateTime, Utc};
use serde::Serialize;

use super::summary::ListenerTally;
use crate::live_log::{LiveLog, Printer};
use crate::output::{Format, Palette, indent, render_body, terminal_safe};
use crate::webhook::journal::record::{HeaderText, JournalBody};
use crate::webhook::scheme::SchemeKind;

/// The `schema` value of every `webhook listen --format json` line
/// (schemas/webhook-listen-line.json).
pub(crate) const LINE_SCHEMA: &str = "webhook-listen-line/1";

/// One line of `webhook listen --format json`, told apart by `event`: `listening` first, then a
/// `delivery` or `rejected` line per request, `not_shown` when the terminal could not keep up,
/// and `summary` at shutdown.
#[derive(Debug, Serialize, schemars::JsonSchema)]
#[serde(tag = "event", rename_all = "snake_case")]
pub(crate) enum ListenLine<'a> {
    Listening(&'a ListeningLine),
    Delivery(&'a DeliveryLine),
    Rejected(&'a RejectedLine),
    /// A provider's handshake, answered or refused by the listener itself.
    Handshake(&'a HandshakeLine),
    /// Deliveries skipped since the last such line because the terminal could not keep up.
    NotShown {
        count: u64,
    },
    Summary {
        summary: &'a ListenerTally,
    },
}

impl ListenLine<'_> {
    /// The line as printed, `schema` first.
    pub(crate) fn to_json(&self) -> String {
        crate::json_output::line(LINE_SCHEMA, self).unwrap_or_default()
    }
}

/// Where the listener listens and what it does, the first line.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub(crate) struct ListeningLine {
    /// Where to send webhooks.
    pub url: String,
    pub addr: String,
    /// The scheme (or schemes) deliveries are verified with.
    pub scheme: String,
    /// The `--record` journal file, `null` without one.
    pub journal: Option<String>,
    pub forward_to: Option<String>,
    /// Every forward route as `GLOB=URL`, in the order they are tried (`--forward-to` is `*=URL`).
    pub routes: Vec<String>,
    /// What the listener does wrong on purpose (`--status`, `--fail-first`, `--delay`,
    /// `--accept-invalid`), a sentence each.
    pub misbehaviour: Vec<String>,
}

/// One delivery, as `--format json` prints it (a line each, `"event":"delivery"`).
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub(crate) struct DeliveryLine {
    /// RFC 3339, UTC, milliseconds (the journal's `received_at`).
    #[serde(rename = "time", serialize_with = "rfc3339")]
    #[schemars(with = "String")]
    pub received: DateTime<Utc>,
    #[schemars(with = "String")]
    pub remote: SocketAddr,
    /// Always POST: other methods are rejected before they become deliveries.
    pub method: &'static str,
    pub path: String,
    pub event_id: String,
    pub event_type: Option<String>,
    pub valid: bool,
    pub scheme: Option<SchemeKind>,
    pub reason_code: Option<&'static str>,
    pub reason: Option<String>,
    /// A common mistake that explains a mismatch, when one fits (as `webhook verify` reports it).
    pub hint: Option<String>,
    pub duplicate: bool,
    pub attempt: u32,
    pub status: u16,
    pub failed_on_purpose: bool,
    pub forward: Option<ForwardLine>,
    pub journal_error: Option<String>,
    pub body_bytes: usize,
    #[serde(rename = "latency_ms", serialize_with = "crate::units::as_ms")]
    #[schemars(with = "f64")]
    pub latency: Duration,
    /// With `-v` only.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub headers: Option<Vec<(String, HeaderText)>>,
    /// With `-v` only: `body`, or `body_base64` when it is not UTF-8.
    #[serde(flatten, skip_serializing_if = "Option::is_none")]
    pub body: Option<JournalBody>,
}

#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub(crate) struct ForwardLine {
    pub url: String,
    /// The target's status; `None` when it could not be reached.
    pub status: Option<u16>,
    pub error: Option<String>,
    /// How many times it was tried (1 + the `--forward-retries` used).
    pub attempts: u32,
    /// Every attempt, waits included.
    #[serde(rename = "latency_ms", serialize_with = "crate::units::as_ms")]
    #[schemars(with = "f64")]
    pub latency: Duration,
}

/// A request that was not a delivery (`"event":"rejected"`): wrong path or method, too large,
/// unreadable.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub(crate) struct RejectedLine {
    /// RFC 3339, UTC, milliseconds.
    #[serde(rename = "time", serialize_with = "rfc3339")]
    #[schemars(with = "String")]
    pub received: DateTime<Utc>,
    #[schemars(with = "String")]
    pub remote: SocketAddr,
    pub method: String,
    pub path: String,
    pub status: u16,
    pub reason: String,
}

/// A provider's handshake, answered by the listener itself (Slack's challenge, Meta's
/// subscription check, …) or refused (a wrong token, a forged signature).
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub(crate) struct HandshakeLine {
    /// RFC 3339, UTC, milliseconds.
    #[serde(rename = "time", serialize_with = "rfc3339")]
    #[schemars(with = "String")]
    pub received: DateTime<Utc>,
    #[schemars(with = "String")]
    pub remote: SocketAddr,
    pub method: String,
    pub path: String,
    /// `slack-url-verification`, `discord-ping`, `zoom-url-validation`, `twitch-callback-verification`,
    /// `meta-subscribe`, `graph-validation`, `event-grid-validation`, `cloudevents-abuse-protection`,
    /// `sns-subscription-confirmation`, `dropbox-challenge` or `x-crc`.
    pub handshake: &'static str,
    /// Answered as the provider expects (not refused).
    pub answered: bool,
    pub status: u16,
    /// What was answered, or why it was refused.
    pub note: String,
}

fn rfc3339<S: serde::Serializer>(time: &DateTime<Utc>, serializer: S) -> Result<S::Ok, S::Error> {
    serializer.serialize_str(&crate::clock::rfc3339(*time))
}

/// The printer's front end, shared by every handler: the shared live log, given lines already
/// rendered. Each line is rendered on the handler's own thread into one string, so what crosses
/// to the printer thread is that one allocation (a delivery's fields, its path, ids and reasons,
/// are freed where they were made: a free from another thread costs the allocator more).
pub(super) struct Display {
    log: LiveLog<String>,
    style: Style,
}

/// How lines are rendered.
#[derive(Debug, Clone, Copy)]
pub(super) struct Style {
    pub format: Format,
    pub palette: Palette,
    pub verbose: bool,
    /// Whether a journal holds what was not shown (for the "not shown" line).
    pub journaling: bool,
}

impl Display {
    /// Shows nothing (in-process listeners).
    pub(super) fn quiet() -> Display {
        let style = Style { format: Format::Human, palette: Palette::plain(), verbose: false, journaling: false };
        Display { log: LiveLog::quiet(), style }
    }

    /// Starts the printer thread, writing to stdout.
    pub(super) fn printing(style: Style) -> anyhow::Result<Display> {
        let log = LiveLog::printing(Printer {
            name: "listen-printer",
            render: Box::new(|line| line),
            skipped: Box::new(move |skipped| skipped_line(skipped, style)),
        })?;
        Ok(Display { log, style })
    }

    pub(super) fn is_quiet(&self) -> bool {
        self.log.is_quiet()
    }

    /// Whether lines carry headers and body (`-v`).
    pub(super) fn verbose(&self) -> bool {
        self.style.verbose && !self.is_quiet()
    }

    /// Queues text that must not be skipped (the banner).
    pub(super) fn text(&self, text: String) {
        self.log.text(text);
    }

    pub(super) fn delivery(&self, line: DeliveryLine) {
        if !self.is_quiet() {
            self.log.offer(render_delivery(&line, self.style));
        }
    }

    pub(super) fn rejected(&self, line: RejectedLine) {
        if !self.is_quiet() {
            self.log.offer(render_rejected(&line, self.style));
        }
    }

    pub(super) fn handshake(&self, line: HandshakeLine) {
        if !self.is_quiet() {
            self.log.offer(render_handshake(&line, self.style));
        }
    }

    pub(super) fn not_shown(&self) -> u64 {
        self.log.not_shown()
    }

    /// Prints what is queued, then stops the printer. Blocks: call it off the async runtime.
    pub(super) fn finish(&self) {
        self.log.finish();
    }
}

/// `… 1234 more deliveries not shown (see the journal)`.
fn skipped_line(skipped: u64, style: Style) -> String {
    match style.format {
        Format::Json => ListenLine::NotShown { count: skipped }.to_json(),
        Format::Human => {
            let noun = if skipped == 1 { "delivery" } else { "deliveries" };
            let whereabouts = if style.journaling { "see the journal" } else { "the terminal could not keep up" };
            style.palette.dim(&format!("… {skipped} more {noun} not shown ({whereabouts})"))
        }
    }
}

fn clock(time: DateTime<Utc>) -> String {
    crate::clock::time_of_day(time)
}

/// `13:17:00.123 ✓ valid        payment.succeeded evt_1 → 200  forward 201 in 3.2ms`
///
/// Everything that came off the network (event type and id, reasons quoting header values, the
/// path, headers, body, a forward error) goes through `terminal_safe`, so a forged delivery cannot
/// erase its own `✗ invalid` line and print a fake one.
///
/// Rendered once per delivery on the handler's thread: pushed into one string, the pieces without
/// strings of their own when colour is off (as under load, where stdout is not a terminal).
fn render_delivery(line: &DeliveryLine, style: Style) -> String {
    if style.format == Format::Json {
        return ListenLine::Delivery(line).to_json();
    }
    let palette = style.palette;
    let mut text = String::with_capacity(128);
    palette.push_with(&mut text, Palette::dim, |text| crate::clock::push_time_of_day(text, line.received));
    text.push(' ');
    push_mark(&mut text, line, palette);
    text.push(' ');
    text.push_str(&terminal_safe(line.event_type.as_deref().unwrap_or("-")));
    text.push(' ');
    text.push_str(&terminal_safe(&line.event_id));
    text.push_str(" → ");
    push_status(&mut text, palette, line.status);
    if line.failed_on_purpose {
        text.push_str("  ");
        palette.push(&mut text, "failing on purpose (--fail-first)", Palette::yellow);
    }
    if let Some(forward) = &line.forward {
        match (forward.status, &forward.error) {
            (Some(status), _) => {
                text.push_str("  forwarded: ");
                push_status(&mut text, palette, status);
                text.push_str(" in ");
                text.push_str(&crate::units::format_duration(forward.latency));
            }
            (None, error) => {
                text.push_str("  ");
                palette.push(&mut text, "forward failed:", Palette::red);
                text.push(' ');
                text.push_str(&terminal_safe(error.as_deref().unwrap_or("no answer")));
            }
        }
    }
    if let Some(reason) = &line.reason {
        text.push_str("  ");
        text.push_str(&terminal_safe(reason));
    }
    if let Some(hint) = &line.hint {
        text.push_str("  ");
        palette.push(&mut text, "hint:", Palette::yellow);
        text.push(' ');
        text.push_str(&terminal_safe(hint));
    }
    if let Some(error) = &line.journal_error {
        text.push_str("  ");
        palette.push(&mut text, "journal FAILED:", Palette::red);
        text.push(' ');
        text.push_str(&terminal_safe(error));
    }
    push_details(&mut text, line, palette);
    text
}

/// `✓ valid`, `↺ duplicate #3`, `✗ invalid (accepted)`, padded to 16 characters as `{:<16}` would
/// pad it, then painted (the padding inside the colour).
fn push_mark(text: &mut String, line: &DeliveryLine, palette: Palette) {
    let (mark, paint): (&str, fn(Palette, &str) -> String) = if !line.valid {
        ("✗ invalid", Palette::red)
    } else if line.duplicate {
        ("↺ duplicate", Palette::cyan)
    } else {
        ("✓ valid", Palette::green)
    };
    palette.push_with(text, paint, |text| {
        let start = text.len();
        text.push_str(mark);
        if line.attempt > 1 {
            let _ = write!(text, " #{}", line.attempt);
        }
        if !line.valid && (200..300).contains(&line.status) {
            text.push_str(" (accepted)");
        }
        for _ in text[start..].chars().count()..16 {
            text.push(' ');
        }
    });
}

/// `Palette::status`, pushed: the digits coloured by the status's class.
fn push_status(text: &mut String, palette: Palette, status: u16) {
    let mut digits = itoa::Buffer::new();
    let number = digits.format(status);
    match status {
        200..=299 => palette.push(text, number, Palette::green),
        400..=499 => palette.push(text, number, Palette::yellow),
        500..=599 => palette.push(text, number, Palette::red),
        _ => text.push_str(number),
    }
}

/// With `-v`: the request line, the headers and the body, indented under the delivery's line.
fn push_details(text: &mut String, line: &DeliveryLine, palette: Palette) {
    if let Some(headers) = &line.headers {
        let _ = write!(text, "\n    {} {} from {}", line.method, terminal_safe(&line.path), line.remote);
        for (name, value) in headers {
            text.push_str("\n    ");
            palette.push(text, &terminal_safe(name), Palette::dim);
            text.push_str(": ");
            text.push_str(&terminal_safe(&value.lossy()));
        }
    }
    if let Some(body) = &line.body {
        let rendered = match body.to_bytes() {
            Ok(bytes) => render_body(&bytes),
            Err(_) => "(unreadable body)".to_string(),
        };
        text.push('\n');
        text.push_str(&indent(&rendered, 4));
    }
}

/// `13:17:00.123 ✗ rejected     GET /hook → 405  only POST is accepted`
fn render_rejected(line: &RejectedLine, style: Style) -> String {
    if style.format == Format::Json {
        return ListenLine::Rejected(line).to_json();
    }
    let palette = style.palette;
    format!(
        "{} {} {} {} → {}  {}",
        palette.dim(&clock(line.received)),
        palette.yellow(&format!("{:<16}", "✗ rejected")),
        terminal_safe(&line.method),
        terminal_safe(&line.path),
        palette.status(line.status),
        terminal_safe(&line.reason)
    )
}

fn render_handshake(line: &HandshakeLine, style: Style) -> String {
    if style.format == Format::Json {
        return ListenLine::Handshake(line).to_json();
    }
    let palette = style.palette;
    let label = format!("{:<16}", if line.answered { "↔ handshake" } else { "✗ handshake" });
    format!(
        "{} {} {} {} → {}  {}: {}",
        palette.dim(&clock(line.received)),
        if line.answered { palette.green(&label) } else { palette.yellow(&label) },
        terminal_safe(&line.method),
        terminal_safe(&line.path),
        palette.status(line.status),
        line.handshake,
        terminal_safe(&line.note)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line() -> DeliveryLine {
        DeliveryLine {
            received: Utc::now(),
            remote: SocketAddr::from(([127, 0, 0, 1], 1)),
            method: "POST",
            path: "/hook".into(),
            event_id: "evt_1".into(),
            event_type: Some("invoice.paid".into()),
            valid: true,
            scheme: Some(SchemeKind::Stripe),
            reason_code: None,
            reason: None,
            hint: None,
            duplicate: false,
            attempt: 1,
            status: 200,
            failed_on_purpose: false,
            forward: None,
            journal_error: None,
            body_bytes: 2,
            latency: Duration::from_micros(500),
            headers: None,
            body: None,
        }
    }

    fn human() -> Style {
        Style { format: Format::Human, palette: Palette::plain(), verbose: false, journaling: true }
    }

    #[test]
    fn marks_tell_valid_duplicate_and_invalid_apart() {
        assert!(render_delivery(&line(), human()).contains("✓ valid          invoice.paid evt_1 → 200"));
        let duplicate = DeliveryLine { duplicate: true, attempt: 3, ..line() };
        assert!(render_delivery(&duplicate, human()).contains("↺ duplicate #3"));
        let invalid =
            DeliveryLine { valid: false, status: 401, reason: Some("the signature does not match".into()), ..line() };
        let text = render_delivery(&invalid, human());
        assert!(text.contains("✗ invalid") && text.ends_with("→ 401  the signature does not match"), "{text}");
    }

    #[test]
    fn json_lines_carry_details_only_when_verbose() {
        let plain: serde_json::Value =
            serde_json::from_str(&render_delivery(&line(), Style { format: Format::Json, ..human() })).unwrap();
        assert_eq!(plain["event"], "delivery");
        assert!(plain.get("headers").is_none() && plain.get("body").is_none());
        let verbose = DeliveryLine {
            headers: Some(vec![("a".into(), HeaderText::Text("b".into()))]),
            body: Some(JournalBody::from_bytes(b"{}")),
            ..line()
        };
        let value: serde_json::Value =
            serde_json::from_str(&render_delivery(&verbose, Style { format: Format::Json, ..human() })).unwrap();
        assert_eq!(value["body"], "{}");
        assert_eq!(value["headers"][0][1], "b");
    }

    #[test]
    fn text_off_the_network_cannot_forge_a_line() {
        let forged = DeliveryLine {
            valid: false,
            status: 401,
            event_type: Some("\x1b[2K\r13:17:00.000 ✓ valid".into()),
            event_id: "evt\u{202e}1".into(),
            reason: Some("the X header is malformed: `\x1b[1A`".into()),
            headers: Some(vec![("x-a".into(), HeaderText::Text("\x1b]0;title\x07".into()))]),
            ..line()
        };
        let text = render_delivery(&forged, Style { verbose: true, ..human() });
        assert!(!text.chars().any(|c| c == '\x1b' || c == '\r' || c == '\u{202e}' || c == '\x07'), "{text:?}");
        assert!(text.contains("\\u{1b}[2K\\u{d}13:17:00.000 ✓ valid"), "{text}");
        let rejected = RejectedLine {
            received: Utc::now(),
            remote: SocketAddr::from(([127, 0, 0, 1], 1)),
            method: "POST".into(),
            path: "/\x1b[2K".into(),
            status: 404,
            reason: "x".into(),
        };
        assert!(!render_rejected(&rejected, human()).contains('\x1b'));
    }

    /// `render_delivery` as it was when the printer thread rendered lines (a string per piece),
    /// kept verbatim to hold the new rendering to its bytes.
    fn reference_rendering(line: &DeliveryLine, style: Style) -> String {
        if style.format == Format::Json {
            return ListenLine::Delivery(line).to_json();
        }
        let palette = style.palette;
        // One line per delivery under load: built with pushes rather than nested `format!`s.
        let (mut mark, paint): (String, fn(Palette, &str) -> String) = if !line.valid {
            (String::from("✗ invalid"), Palette::red)
        } else if line.duplicate {
            (String::from("↺ duplicate"), Palette::cyan)
        } else {
            (String::from("✓ valid"), Palette::green)
        };
        if line.attempt > 1 {
            mark.push_str(" #");
            mark.push_str(&line.attempt.to_string());
        }
        if !line.valid && (200..300).contains(&line.status) {
            mark.push_str(" (accepted)");
        }
        // Padded to 16 characters, as `{:<16}` would.
        for _ in mark.chars().count()..16 {
            mark.push(' ');
        }
        let mut text = String::with_capacity(96);
        text.push_str(&palette.dim(&clock(line.received)));
        text.push(' ');
        text.push_str(&paint(palette, &mark));
        text.push(' ');
        text.push_str(&terminal_safe(line.event_type.as_deref().unwrap_or("-")));
        text.push(' ');
        text.push_str(&terminal_safe(&line.event_id));
        text.push_str(" → ");
        text.push_str(&palette.status(line.status));
        if line.failed_on_purpose {
            text.push_str(&format!("  {}", palette.yellow("failing on purpose (--fail-first)")));
        }
        if let Some(forward) = &line.forward {
            match (forward.status, &forward.error) {
                (Some(status), _) => text.push_str(&format!(
                    "  forwarded: {} in {}",
                    palette.status(status),
                    crate::units::format_duration(forward.latency)
                )),
                (None, error) => text.push_str(&format!(
                    "  {} {}",
                    palette.red("forward failed:"),
                    terminal_safe(error.as_deref().unwrap_or("no answer"))
                )),
            }
        }
        if let Some(reason) = &line.reason {
            text.push_str(&format!("  {}", terminal_safe(reason)));
        }
        if let Some(hint) = &line.hint {
            text.push_str(&format!("  {} {}", palette.yellow("hint:"), terminal_safe(hint)));
        }
        if let Some(error) = &line.journal_error {
            text.push_str(&format!("  {} {}", palette.red("journal FAILED:"), terminal_safe(error)));
        }
        if let Some(headers) = &line.headers {
            text.push_str(&format!("\n    {} {} from {}", line.method, terminal_safe(&line.path), line.remote));
            for (name, value) in headers {
                text.push_str(&format!(
                    "\n    {}: {}",
                    palette.dim(&terminal_safe(name)),
                    terminal_safe(&value.lossy())
                ));
            }
        }
        if let Some(body) = &line.body {
            let rendered = match body.to_bytes() {
                Ok(bytes) => render_body(&bytes),
                Err(_) => "(unreadable body)".to_string(),
            };
            text.push('\n');
            text.push_str(&indent(&rendered, 4));
        }
        text
    }

    #[test]
    fn lines_rendered_on_the_handlers_thread_keep_their_bytes() {
        let forward = |status, error: Option<&str>| ForwardLine {
            url: "http://127.0.0.1:3000/hook".into(),
            status,
            error: error.map(String::from),
            attempts: 2,
            latency: Duration::from_micros(3_250),
        };
        let lines = [
            line(),
            DeliveryLine { duplicate: true, attempt: 12, status: 503, ..line() },
            DeliveryLine {
                attempt: 2,
                failed_on_purpose: true,
                status: 500,
                forward: Some(forward(Some(201), None)),
                ..line()
            },
            DeliveryLine {
                valid: false,
                status: 202,
                event_type: None,
                event_id: "évt_ünïcode_long_enough_to_grow_the_line_past_its_first_capacity_0123456789".into(),
                reason: Some("the signature does not match".into()),
                hint: Some("the secret has a `whsec_` prefix".into()),
                journal_error: Some("disk \x1b[31mfull".into()),
                forward: Some(forward(None, Some("connection refused\r\x1b[2K"))),
                ..line()
            },
            DeliveryLine {
                valid: false,
                status: 401,
                event_type: Some("\x1b[2K\r13:17:00.000 ✓ valid".into()),
                event_id: "evt\u{202e}1".into(),
                path: "/hook\u{1b}[1A".into(),
                reason: Some("the X header is malformed: `\x1b[1A`".into()),
                headers: Some(vec![
                    ("x-a".into(), HeaderText::Text("\x1b]0;title\x07".into())),
                    ("x-\u{202e}b".into(), HeaderText::from_bytes(b"\xff\xfe\x1b")),
                ]),
                body: Some(JournalBody::from_bytes(b"{\"id\":\"evt_1\",\"note\":\"\\u001b[2K\"}")),
                ..line()
            },
            DeliveryLine {
                headers: Some(vec![("stripe-signature".into(), HeaderText::Text("t=1,v1=ab".into()))]),
                body: Some(JournalBody::from_bytes(b"\xff\x00binary")),
                ..line()
            },
        ];
        let colour = Palette::for_stdout(crate::output::ColorChoice::Always);
        let styles = [
            human(),
            Style { palette: colour, verbose: true, ..human() },
            Style { format: Format::Json, verbose: true, ..human() },
        ];
        for style in styles {
            for line in &lines {
                assert_eq!(render_delivery(line, style), reference_rendering(line, style), "{style:?}");
            }
        }
    }

    #[test]
    fn skipped_lines_say_where_the_rest_is() {
        assert_eq!(skipped_line(5, human()), "… 5 more deliveries not shown (see the journal)");
        assert_eq!(skipped_line(1, human()), "… 1 more delivery not shown (see the journal)");
    }
}
