//! Manual pages for both binaries and every subcommand, generated from the clap definitions (so
//! they cannot drift from `--help`), with the exit statuses and examples clap does not know. The
//! pages are committed under `man/` and a test keeps them fresh, as for `completions/`.
use clap_mangen::Man;
use clap_mangen::roff::{Roff, bold, roman};

/// One generated page: `idem-send.1` and its roff source.
pub struct ManPage {
    pub file_name: String,
    pub roff: Vec<u8>,
}

/// The page for `command` and one for each of its subcommands, named `bin-sub.1`.
pub fn pages(command: clap::Command) -> std::io::Result<Vec<ManPage>> {
    let mut command = command.disable_help_subcommand(true);
    // Building propagates the global flags (--color) into every subcommand and names each one
    // `bin-sub`, the name its page goes by.
    command.build();
    let mut pages = vec![page(&command)?];
    for sub in command.get_subcommands().filter(|sub| !sub.is_hide_set()) {
        pages.push(page(sub)?);
    }
    Ok(pages)
}

fn page(command: &clap::Command) -> std::io::Result<ManPage> {
    let man = Man::new(command.clone());
    let name = command.get_display_name().unwrap_or_else(|| command.get_name()).to_string();
    let mut roff = Vec::new();
    man.render_title(&mut roff)?;
    man.render_name_section(&mut roff)?;
    man.render_synopsis_section(&mut roff)?;
    man.render_description_section(&mut roff)?;
    if command.get_arguments().any(|arg| !arg.is_hide_set()) {
        man.render_options_section(&mut roff)?;
    }
    if command.has_subcommands() {
        man.render_subcommands_section(&mut roff)?;
    }
    if command.get_after_help().is_some() || command.get_after_long_help().is_some() {
        man.render_extra_section(&mut roff)?;
    }
    extra_sections(&name).to_writer(&mut roff)?;
    man.render_version_section(&mut roff)?;
    Ok(ManPage { file_name: man.get_filename(), roff })
}

/// The catalogue of checks a suite's page lists, the same one `--list` prints (`idem check`'s
/// at the levels of the default profile, which a run without --profile judges with).
fn checks(page: &str) -> Vec<crate::conformance::CatalogueEntry> {
    use crate::conformance::Catalogue;
    match page {
        "idem-check" => crate::idem::check::Profile::plain_catalogue().checks,
        "webhook-check" => Catalogue::new("webhook check", crate::webhook::check::catalogue::CHECKS).checks,
        "webhook-check-sender" => {
            Catalogue::new("webhook check-sender", &crate::webhook::check_sender::catalogue::SPECS).checks
        }
        _ => Vec::new(),
    }
}

/// CHECKS (suite pages), EXIT STATUS (the convention every command follows) and EXAMPLES (per page).
fn extra_sections(page: &str) -> Roff {
    let mut roff = Roff::new();
    let checks = checks(page);
    if !checks.is_empty() {
        roff.control("SH", ["CHECKS"]);
        roff.text([roman(
            "Every check, as --list prints it: the id (for --only, --skip and --expect-fail), its level, what it \
             proves, and how to fix what it catches.",
        )]);
        for check in &checks {
            let level = crate::conformance::level_word(check.level);
            roff.control("TP", []).text([bold(check.id), roman(format!(" ({level})"))]);
            roff.text([roman(check.proves.as_str())]);
            roff.control("br", []).text([roman(format!("Fix: {}", check.fix))]);
        }
    }
    roff.control("SH", ["EXIT STATUS"]);
    for (status, meaning) in EXIT_STATUSES {
        roff.control("TP", []).text([bold(status)]).text([roman(meaning)]);
    }
    let examples = examples(page);
    if !examples.is_empty() {
        roff.control("SH", ["EXAMPLES"]);
        for (what, command) in examples {
            roff.control("TP", []).text([roman(*what)]);
            roff.control("EX", []).text([roman(*command)]).control("EE", []);
        }
    }
    roff
}

const EXIT_STATUSES: [(&str, &str); 3] = [
    ("0", "What was tested holds: executed once, delivered, valid, every required check passed."),
    (
        "1",
        "The tool found a problem in the system under test: a double execution, an inconsistent replay, \
         an invalid signature, an undelivered webhook, a failed required check.",
    ),
    (
        "2",
        "The tool could not do its job: bad usage, bad input, an unreadable file or secret, an unreachable \
         host, or answers that cannot be judged.",
    ),
];

/// A page's examples: what each shows, and the command line.
type Examples = &'static [(&'static str, &'static str)];

/// What each page shows as examples, by page name. A test checks that every page has some.
fn examples(page: &str) -> Examples {
    match page.split('-').next() {
        Some("idem") => idem_examples(page),
        Some("webhook") => webhook_examples(page),
        _ => &[],
    }
}

/// The examples on `idem`'s pages.
fn idem_examples(page: &str) -> Examples {
    match page {
        "idem" => &[
            ("The whole story against reference servers on this machine:", "idem demo"),
            ("Practise against the reference payments API:", "idem serve --mode naive"),
        ],
        "idem-send" => &[
            (
                "Post a payment with a fresh key, then retry it twice with the same key:",
                "idem send http://127.0.0.1:8080/payments -d '{\"amount\":1990}' --repeat 3",
            ),
            (
                "Retry a lost answer as a correct client does:",
                "idem send http://127.0.0.1:8080/payments -d @payment.json --retry 3",
            ),
        ],
        "idem-race" => &[(
            "Fire 20 duplicates that arrive together, 10 rounds:",
            "idem race http://127.0.0.1:8080/payments -d @payment.json -n 20 --rounds 10",
        )],
        "idem-check" => &[(
            "Run the conformance suite and keep a JUnit report for CI:",
            "idem check http://127.0.0.1:8080/payments -d @payment.json --format junit > idem-check.xml",
        )],
        "idem-serve" => &[
            ("The correct reference server:", "idem serve --addr 127.0.0.1:8080"),
            ("One that looks the key up, charges, then stores it:", "idem serve --mode naive --work 200ms"),
        ],
        "idem-demo" => &[("Tell the whole story:", "idem demo")],
        "idem-proxy" => &[(
            "Lose the first answer and judge how the client retries:",
            "idem proxy --upstream http://127.0.0.1:8080 -- ./pay.sh",
        )],
        "idem-run" => &[
            (
                "Run a workflow against a local API, probing every keyed step:",
                "idem run payments.arazzo.yaml --base-url http://127.0.0.1:8080 --input amount=500",
            ),
            ("Only the race, ten duplicates per keyed step:", "idem run payments.arazzo.yaml --probes race -n 10"),
            ("What would be sent, without sending it:", "idem run payments.arazzo.yaml --plan"),
        ],
        "idem-window" => &[(
            "Measure how far apart two duplicates may arrive and still both execute:",
            "idem window http://127.0.0.1:8080/payments -d @payment.json --max 2s",
        )],
        "idem-completions" => &[(
            "Install bash completions for the current user:",
            "idem completions bash > ~/.local/share/bash-completion/completions/idem",
        )],
        _ => &[],
    }
}

/// The examples on `webhook`'s pages.
fn webhook_examples(page: &str) -> Examples {
    match page {
        "webhook-completions" => &[(
            "Install bash completions for the current user:",
            "webhook completions bash > ~/.local/share/bash-completion/completions/webhook",
        )],
        "webhook" => &[
            ("A new secret for Standard Webhooks:", "webhook secret --scheme standard"),
            (
                "A local receiver that verifies, de-duplicates and journals:",
                "webhook listen --scheme stripe --secret-file whsec.txt --record deliveries.jsonl",
            ),
        ],
        "webhook-sign" => &[(
            "Sign an event the way Stripe does and print a ready curl command:",
            "webhook sign --scheme stripe --secret-file whsec.txt --event payment.succeeded --data '{\"amount\":1990}' \
             --format curl --url http://127.0.0.1:9000/hook",
        )],
        "webhook-verify" => &[(
            "Check a captured request and say why it fails:",
            "webhook verify --scheme stripe --secret-file whsec.txt --request captured.http",
        )],
        "webhook-secret" => &[("A secret in Stripe's form:", "webhook secret --scheme stripe")],
        "webhook-schemes" => &[
            ("Every scheme --scheme takes, with what it signs:", "webhook schemes"),
            ("The headers, algorithm and documentation of each, as JSON:", "webhook schemes --format json"),
        ],
        "webhook-send" => &[
            (
                "Deliver an event with provider-style retries:",
                "webhook send http://127.0.0.1:9000/hook --scheme standard --secret-file whsec.txt --event order.paid \
                 --data '{\"order\":42}'",
            ),
            (
                "Send Stripe's own payment_intent.succeeded with a changed amount (offline, no account):",
                "webhook send http://127.0.0.1:3000/webhooks --event stripe:payment_intent.succeeded --secret-file \
                 whsec.txt --set data.object.amount=5000",
            ),
        ],
        "webhook-replay" => &[(
            "Re-deliver what a listener journaled, signed afresh:",
            "webhook replay deliveries.jsonl http://127.0.0.1:3000/webhooks --scheme stripe --secret-file whsec.txt",
        )],
        "webhook-race" => &[(
            "Fire 10 identical copies of one delivery together; the receiver's count says how many were processed:",
            "webhook race http://127.0.0.1:3000/webhooks --scheme stripe --secret-file whsec.txt --event order.paid \
             -n 10 --count-url http://127.0.0.1:3000/processed",
        )],
        "webhook-check" => &[
            (
                "Check a receiver's defences:",
                "webhook check http://127.0.0.1:3000/webhooks --scheme stripe --secret-file whsec.txt",
            ),
            (
                "Also race 10 identical copies of one delivery at it, judged by its count of processed deliveries:",
                "webhook check http://127.0.0.1:3000/webhooks --scheme stripe --secret-file whsec.txt \
                 --count-url http://127.0.0.1:3000/processed",
            ),
        ],
        "webhook-listen" => &[
            (
                "Fail the first two attempts of every event to test a sender's retries:",
                "webhook listen --scheme standard --secret-file whsec.txt --fail-first 2",
            ),
            (
                "Route invoices to one service and the rest to another, retrying failed forwards:",
                "webhook listen --scheme stripe --secret-file whsec.txt --record j.jsonl --route \
                 'invoice.*=http://127.0.0.1:4001/hooks' --route '*=http://127.0.0.1:4000/hooks' --forward-retries 3",
            ),
        ],
        "webhook-journal" => &[
            ("List the deliveries answered 5xx in the last hour:", "webhook journal j.jsonl --status 5xx --since 1h"),
            ("Show one delivery in full:", "webhook journal j.jsonl show evt_1NrXk2"),
            (
                "Re-deliver it to the application, signed afresh:",
                "webhook journal j.jsonl replay evt_1NrXk2 http://127.0.0.1:4000/hooks --secret-file whsec.txt",
            ),
        ],
        "webhook-check-sender" => &[(
            "Grade a sender's retries, signatures and event ids:",
            "webhook check-sender --scheme standard --secret-file whsec.txt -- ./send-events.sh",
        )],
        _ => &[],
    }
}

/// Whether `page` has examples (the freshness test requires every page to).
pub fn has_examples(page: &str) -> bool {
    !examples(page).is_empty()
}
