//! No secret is ever printed: URL userinfo, credentials in echoed commands (also inside `sh -c`
//! strings) and the secrets the tools are given, looked for in every output of a command (stdout
//! and stderr, in each `--format` it has). Each planted secret holds `PLANTED`; each test also
//! checks that the redacted form is shown, so the redaction did not hide the whole line.
use std::process::Output;
use std::time::Duration;

use idem::testing::serve::{Mode, ServeConfig};
use serde_json::Value;

use crate::support::apps::PythonApp;
use crate::support::{TestServer, idem, webhook};

const ADYEN: &str = "tests/fixtures/openapi/adyen-checkout-v71-excerpt.json";

/// stdout and stderr together: a secret must be in neither.
fn everything(output: &Output) -> String {
    format!("{}{}", String::from_utf8_lossy(&output.stdout), String::from_utf8_lossy(&output.stderr))
}

fn assert_nothing_planted(what: &str, output: &Output) {
    let all = everything(output);
    assert!(!all.contains("PLANTED"), "{what} printed a planted secret:\n{all}");
}

/// tests/apps/ledger_behind_basic_auth.py on a free port, its ledger's password `password`.
struct LedgerApp {
    _app: PythonApp,
    port: u16,
}

impl LedgerApp {
    fn start(password: &str) -> LedgerApp {
        let app = PythonApp::start("ledger_behind_basic_auth.py", &[password]);
        let port = app.url("").rsplit(':').next().and_then(|port| port.parse().ok()).expect("the app's port");
        LedgerApp { _app: app, port }
    }

    fn payments(&self) -> String {
        format!("http://127.0.0.1:{}/payments", self.port)
    }

    fn count_url(&self, password: &str) -> String {
        format!("http://user:{password}@127.0.0.1:{}/count", self.port)
    }
}

/// The password of `--count-url http://user:PASS@…` is sent as Basic auth (the ledger answers
/// only that) and shown as `user:***` in the evidence, human and JSON.
#[test]
fn count_url_credentials_are_sent_as_basic_auth_and_shown_as_user_stars() {
    let app = LedgerApp::start("PLANTEDcount1");
    let count = app.count_url("PLANTEDcount1");
    for format in ["human", "json"] {
        let output = idem()
            .args(["send", &app.payments(), "-d", "{}", "--repeat", "2", "--format", format])
            .args(["--count-url", &count, "--count-pointer", "/count"])
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(0), "executed once, by the count: {}", everything(&output));
        assert_nothing_planted(&format!("idem send --format {format}"), &output);
        let shown = format!("GET http://user:***@127.0.0.1:{}/count at /count", app.port);
        assert!(everything(&output).contains(&shown), "{}", everything(&output));
        if format == "json" {
            let report: Value = serde_json::from_slice(&output.stdout).unwrap();
            assert_eq!(report["judgement"]["evidence"][0]["source"], shown.as_str(), "{report:#}");
        }
    }
}

/// A ledger that refuses the password: the error names the count URL as `user:***@`, on stderr
/// and in the JSON and JUnit reports of `idem check`.
#[test]
fn a_refused_count_url_is_named_without_its_password_in_every_format() {
    let app = LedgerApp::start("the-right-one");
    let count = app.count_url("PLANTEDwrong2");
    for format in ["human", "json", "junit"] {
        let output = idem()
            .args(["check", &app.payments(), "-d", "{}", "--format", format, "--count-url", &count])
            .timeout(Duration::from_secs(120))
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(2), "{}", everything(&output));
        assert_nothing_planted(&format!("idem check --format {format}"), &output);
        let all = everything(&output);
        assert!(
            all.contains(&format!("--count-url http://user:***@127.0.0.1:{}/count answered 401", app.port)),
            "{all}"
        );
        if format != "human" {
            let stdout = String::from_utf8_lossy(&output.stdout);
            assert!(stdout.contains("user:***@"), "the report names the URL: {stdout}");
        }
    }
}

/// `idem check --openapi` against a naive server (so every operation fails and gets its curl
/// line), with the credentials in `--base-url` or in the document's `servers` URL.
fn check_openapi_in_every_format(spec: &str, base_url: Option<&str>) {
    for format in ["human", "json", "junit"] {
        let mut command = idem();
        command
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .args(["check", "--openapi", spec, "--include-path-regex", "^/cancels$", "-n", "3"])
            .args(["--window-max", "0", "--format", format])
            .timeout(Duration::from_secs(300));
        if let Some(base_url) = base_url {
            command.args(["--base-url", base_url]);
        }
        let output = command.output().unwrap();
        assert_eq!(output.status.code(), Some(1), "the naive server fails: {}", everything(&output));
        assert_nothing_planted(&format!("idem check --openapi --format {format}"), &output);
        let stdout = String::from_utf8_lossy(&output.stdout);
        match format {
            "human" => {
                assert!(stdout.contains("against http://user:***@127.0.0.1:"), "{stdout}");
                assert!(stdout.contains("reproduce: curl") && stdout.contains("'Authorization: ***'"), "{stdout}");
            }
            "json" => {
                let report: Value = serde_json::from_str(&stdout).unwrap();
                assert!(report["base_url"].as_str().unwrap().starts_with("http://user:***@127.0.0.1:"), "{report:#}");
                let operation = &report["operations"][0];
                assert!(operation["url"].as_str().unwrap().starts_with("http://127.0.0.1:"), "{operation:#}");
                assert!(operation["curl"].as_str().unwrap().contains("'Authorization: ***'"), "{operation:#}");
            }
            _ => assert!(stdout.contains("<testsuites") && stdout.contains("<failure"), "{stdout}"),
        }
    }
}

#[test]
fn openapi_base_url_credentials_never_appear_in_any_format() {
    let naive = TestServer::start(ServeConfig { any_path: true, ..ServeConfig::local(Mode::Naive) });
    let base = naive.url("").replace("http://", "http://user:PLANTEDbase3@");
    check_openapi_in_every_format(ADYEN, Some(&base));
}

#[test]
fn openapi_servers_url_credentials_never_appear_in_any_format() {
    let naive = TestServer::start(ServeConfig { any_path: true, ..ServeConfig::local(Mode::Naive) });
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(ADYEN);
    let mut document: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let server = naive.url("").replace("http://", "http://user:PLANTEDserver4@");
    document["servers"] = serde_json::json!([{ "url": server }]);
    let spec = tempfile::Builder::new().suffix(".json").tempfile().unwrap();
    std::fs::write(spec.path(), document.to_string()).unwrap();
    check_openapi_in_every_format(spec.path().to_str().unwrap(), None);
}

/// A `--server-cmd` with a secret variable, a Bearer header, `-u user:pass` and a URL password:
/// the error that says it exited shows it with those hidden, on stderr and in each report.
#[test]
fn server_cmd_secrets_never_appear_in_any_format() {
    let dead = crate::support::dead_port();
    let server_cmd = "API_TOKEN=PLANTEDtok5 false --header 'Authorization: Bearer PLANTEDbearer6' \
                      -u me:PLANTEDpw7 http://u:PLANTEDpw9@127.0.0.1:1/";
    for format in ["human", "json", "junit"] {
        let output = idem()
            .args(["check", &format!("http://127.0.0.1:{dead}/payments"), "-d", "{}", "--format", format])
            .args(["--server-cmd", server_cmd])
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(2), "{}", everything(&output));
        assert_nothing_planted(&format!("idem check --server-cmd --format {format}"), &output);
        let all = everything(&output);
        let shown = "API_TOKEN=*** false --header 'Authorization: ***' -u *** http://u:***@127.0.0.1:1/";
        assert!(all.contains(shown), "the command is still shown, as written: {all}");
        if format != "human" {
            assert!(String::from_utf8_lossy(&output.stdout).contains("API_TOKEN=***"), "{all}");
        }
    }
}

/// A sender that delivers one `ping` with `webhook send`, after `prefix` (shell words run first).
fn sender_script(prefix: &str) -> String {
    format!(
        "{prefix}; exec '{}' send \"$WEBHOOK_URL\" --scheme stripe --event ping --time-scale 0.001 --timeout 5s >/dev/null",
        assert_cmd::cargo::cargo_bin("webhook").display()
    )
}

/// `webhook check-sender` with `--secret SECRET` and `-- sh -c SCRIPT`, in `format`.
fn check_sender(secret: &str, script: &str, format: &str) -> Output {
    webhook()
        .env("WEBHOOK_SECRET", secret)
        .args(["check-sender", "--addr", "127.0.0.1:0", "--scheme", "stripe", "--secret", secret])
        .args(["--script", "200", "--timeout", "60s", "--format", format, "--", "sh", "-c", script])
        .timeout(Duration::from_secs(120))
        .output()
        .unwrap()
}

/// `-u user:pass` and a URL password inside the `sh -c` string of a sender are hidden in every
/// format; the rest of the script is shown as written.
#[test]
fn credentials_inside_a_senders_sh_c_string_never_appear() {
    let script = sender_script("true -u user:PLANTEDpw8 'http://u:PLANTEDpw9@127.0.0.1:1/x'");
    for format in ["human", "json", "junit"] {
        let output = check_sender("whsec_PLANTEDsecret10", &script, format);
        assert_eq!(output.status.code(), Some(0), "{}", everything(&output));
        assert_nothing_planted(&format!("webhook check-sender --format {format}"), &output);
        let all = everything(&output);
        assert!(all.contains("sh -c 'true -u *** '\\''http://u:***@127.0.0.1:1/x'\\''; exec '\\''"), "{all}");
        if format == "json" {
            let report: Value = serde_json::from_slice(&output.stdout).unwrap();
            assert!(report.to_string().contains("true -u *** "), "the JSON report has the command: {report:#}");
        }
    }
}

/// A one-letter `--secret s` is hidden where it stands as a word, not inside `sh` or `sleep`.
#[test]
fn a_short_secret_leaves_the_sender_command_readable() {
    let script = sender_script("sleep 1");
    for format in ["human", "json", "junit"] {
        let output = check_sender("s", &script, format);
        assert_eq!(output.status.code(), Some(0), "{}", everything(&output));
        let all = everything(&output);
        assert!(all.contains("sh -c 'sleep 1; exec '\\''"), "{all}");
        assert!(!all.contains("<secret>") && !all.contains("***"), "nothing hidden in the command: {all}");
    }
}

/// Credentials in `--also` or `--other-url` would not be sent (every target gets the main URL's
/// credentials and -H): refused before any request, the password hidden in the refusal.
#[test]
fn credentials_in_an_extra_target_url_are_refused_without_being_shown() {
    let dead = crate::support::dead_port();
    let main = format!("http://127.0.0.1:{dead}/payments");
    let extra = format!("http://user:PLANTEDextra11@127.0.0.1:{dead}/other");
    for (command, flag) in [("race", "--also"), ("check", "--also"), ("check", "--other-url")] {
        let output = idem().args([command, &main, "-d", "{}", flag, &extra]).output().unwrap();
        assert_eq!(output.status.code(), Some(2), "{}", everything(&output));
        assert_nothing_planted(&format!("idem {command} {flag}"), &output);
        let all = everything(&output);
        let refusal =
            format!("{flag} http://user:***@127.0.0.1:{dead}/other: credentials in this URL would not be sent");
        assert!(all.contains(&refusal), "{all}");
    }
}

/// Arguments a client or sender command line typically carries, each holding a planted secret.
const PLANTED: [&str; 5] =
    ["-H", "Authorization: Bearer PLANTEDtoken1", "-u", "me:PLANTEDpw2", "http://u:PLANTEDpw3@example.com/x"];
const PLANTED_TOKEN: &str = "sk_live_PLANTED4aaaaaaaaaaaaaaaaaaaa";

fn assert_no_planted_secret(what: &str, output: &std::process::Output) {
    let all = format!("{}{}", String::from_utf8_lossy(&output.stdout), String::from_utf8_lossy(&output.stderr));
    assert!(!all.contains("PLANTED"), "{what} printed a planted secret:\n{all}");
}

/// The upstream's password, the client command's headers, credentials and tokens appear in no
/// output of `idem proxy` (human and JSON: banner, live lines, 502s, summary, errors) or of
/// `webhook check-sender` (human, JSON and JUnit).
#[test]
fn planted_secrets_appear_in_no_output_of_either_tool() {
    let dead = crate::support::dead_port();
    let client = format!(
        "exec '{}' send \"$IDEM_PROXY_URL/payments\" -d '{{}}' --timeout 5s",
        assert_cmd::cargo::cargo_bin("idem").display()
    );
    for format in ["human", "json"] {
        let output = idem()
            .args(["proxy", "--addr", "127.0.0.1:0", "--first", "0", "--format", format])
            .args(["--upstream", &format!("http://user:PLANTEDpw5@127.0.0.1:{dead}/api")])
            .args(["--", "sh", "-c", &client, "sh"])
            .args(PLANTED)
            .arg(PLANTED_TOKEN)
            .output()
            .expect("runs");
        assert_eq!(output.status.code(), Some(2), "the upstream is dead");
        let stdout = String::from_utf8_lossy(&output.stdout);
        assert!(stdout.contains("user:***@127.0.0.1"), "the upstream is still shown: {stdout}");
        assert!(stdout.contains("'Authorization: ***'"), "the command is still shown: {stdout}");
        assert_no_planted_secret(&format!("idem proxy --format {format}"), &output);
    }

    let sender = format!(
        "exec '{}' send \"$WEBHOOK_URL\" --scheme stripe --event ping --time-scale 0.001 --timeout 1s >/dev/null",
        assert_cmd::cargo::cargo_bin("webhook").display()
    );
    for format in ["human", "json", "junit"] {
        let output = webhook()
            .env("WEBHOOK_SECRET", "whsec_PLANTEDsecret6")
            .args(["check-sender", "--addr", "127.0.0.1:0", "--scheme", "stripe", "--script", "200"])
            .args(["--timeout", "20s", "--format", format])
            .args(["--", "sh", "-c", &sender, "sh"])
            .args(PLANTED)
            .arg(PLANTED_TOKEN)
            .output()
            .expect("runs");
        let stdout = String::from_utf8_lossy(&output.stdout);
        assert!(stdout.contains("Authorization: ***"), "the command is still shown: {stdout}");
        assert_no_planted_secret(&format!("webhook check-sender --format {format}"), &output);
    }
}

/// Every long flag of `command` and its subcommands that takes a secret as its value: a value
/// named SECRET or TOKEN, or a flag named for a secret, token or password (not its file form).
fn secret_flags(command: &clap::Command, path: &str, found: &mut Vec<(String, String, bool)>) {
    let longs: Vec<&str> = command.get_arguments().filter_map(|arg| arg.get_long()).collect();
    for arg in command.get_arguments() {
        let Some(long) = arg.get_long() else { continue };
        let takes_value = arg.get_action().takes_values();
        let value_names = arg.get_value_names().unwrap_or_default();
        let named_secret = value_names.iter().any(|name| matches!(name.as_str(), "SECRET" | "TOKEN"));
        let secret_name = ["secret", "token", "password"].iter().any(|word| long.contains(word));
        if takes_value && !long.ends_with("-file") && (named_secret || secret_name) {
            let file_form = longs.contains(&format!("{long}-file").as_str());
            found.push((path.to_string(), long.to_string(), file_form));
        }
    }
    for sub in command.get_subcommands() {
        secret_flags(sub, &format!("{path} {}", sub.get_name()), found);
    }
}

#[test]
fn every_flag_that_takes_a_secret_has_a_file_form() {
    use clap::CommandFactory;
    let mut found = Vec::new();
    secret_flags(&idem::testing::cli::IdemCli::command(), "idem", &mut found);
    secret_flags(&idem::testing::cli::WebhookCli::command(), "webhook", &mut found);
    assert!(found.iter().any(|(_, long, _)| long == "secret"), "the walk finds --secret: {found:?}");
    let without: Vec<String> = found
        .iter()
        .filter(|(_, _, file_form)| !file_form)
        .map(|(command, long, _)| format!("{command} --{long} (no --{long}-file)"))
        .collect();
    assert!(without.is_empty(), "a secret on the command line shows in `ps`: {without:#?}");
}
