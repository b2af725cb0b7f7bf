//! How a command line the user gave us (the client of `idem proxy -- CMD`, the sender of
//! `webhook check-sender -- CMD`) is echoed in summaries, JSON reports and errors: the program and
//! its arguments, with the secrets such command lines carry replaced by `***`, since these outputs
//! end up in CI logs. Hidden: values of `-H`/`--header` whose name says credential
//! (`Authorization`, `Cookie`, `X-Api-Key`…), of `-u`/`--user` and of flags named like a secret
//! (`--token`, `--password`, `--api-key`…), `NAME=value` where the name says secret, the
//! userinfo of URLs, `Bearer`/`Basic` credentials, and lone arguments that look like a token.
use std::ffi::OsStr;

use crate::http::url::redact_password;

const HIDDEN: &str = "***";

/// The command line as shown: arguments separated by spaces, quoted when they hold a space.
pub(crate) fn shown_command<S: AsRef<OsStr>>(command: &[S]) -> String {
    let args: Vec<String> = command.iter().map(|arg| arg.as_ref().to_string_lossy().into_owned()).collect();
    let mut shown = Vec::with_capacity(args.len());
    // What the previous argument said about this one.
    let mut next = Next::Plain;
    for (index, arg) in args.iter().enumerate() {
        let redacted = match next {
            Next::Header => redact_header(arg),
            Next::Secret => HIDDEN.to_string(),
            Next::Plain if index == 0 => redact_password(arg),
            Next::Plain => redact_argument(arg),
        };
        next = if index == 0 { Next::Plain } else { what_follows(arg) };
        shown.push(quote(&redacted));
    }
    shown.join(" ")
}

#[derive(Clone, Copy)]
enum Next {
    Plain,
    Header,
    Secret,
}

/// A flag that takes the next argument as its value: a header, or a secret.
fn what_follows(arg: &str) -> Next {
    match arg {
        "-H" | "--header" | "--count-header" => Next::Header,
        "-u" | "--user" | "-U" | "--proxy-user" | "--oauth2-bearer" => Next::Secret,
        _ if arg.starts_with("--") && !arg.contains('=') && names_a_secret(arg) => Next::Secret,
        _ => Next::Plain,
    }
}

fn redact_argument(arg: &str) -> String {
    if let Some(value) = arg.strip_prefix("-H").filter(|value| !value.is_empty() && !arg.starts_with("--")) {
        return format!("-H{}", redact_header(value));
    }
    if arg.len() > 2 && arg.starts_with("-u") {
        return format!("-u{HIDDEN}");
    }
    if let Some((name, value)) = arg.split_once('=') {
        if name.starts_with("--header") || name == "-H" || name == "--count-header" {
            return format!("{name}={}", redact_header(value));
        }
        if names_a_secret(name) {
            return format!("{name}={HIDDEN}");
        }
    }
    if let Some(redacted) = redact_scheme_credentials(arg) {
        return redacted;
    }
    if looks_like_a_token(arg) {
        return HIDDEN.to_string();
    }
    redact_password(arg)
}

/// `Name: value` with the value hidden when the name says credential, or the value is one.
fn redact_header(header: &str) -> String {
    let Some((name, value)) = header.split_once(':') else {
        return redact_argument(header);
    };
    if names_a_secret(name) || matches!(name.trim().to_ascii_lowercase().as_str(), "cookie" | "set-cookie") {
        return format!("{name}: {HIDDEN}");
    }
    match redact_scheme_credentials(value.trim()) {
        Some(redacted) => format!("{name}: {redacted}"),
        None if looks_like_a_token(value.trim()) => format!("{name}: {HIDDEN}"),
        None => format!("{name}:{}", redact_password(value)),
    }
}

/// Whether a flag, variable or header name says its value is a credential.
fn names_a_secret(name: &str) -> bool {
    let name = name.trim().trim_start_matches('-').to_ascii_lowercase();
    ["auth", "token", "secret", "password", "passwd", "api-key", "api_key", "apikey", "cookie", "credential", "private"]
        .iter()
        .any(|word| name.contains(word))
        || name == "key"
        || name.ends_with("-key")
        || name.ends_with("_key")
}

/// `Bearer abc`, `Basic abc`, `token abc` anywhere in an argument: the credential is hidden.
fn redact_scheme_credentials(text: &str) -> Option<String> {
    let lower = text.to_ascii_lowercase();
    for scheme in ["bearer ", "basic ", "token ", "digest "] {
        if let Some(at) = lower.find(scheme) {
            let start = at + scheme.len();
            let end = text[start..]
                .find(|c: char| c.is_whitespace() || c == '"' || c == '\'')
                .map_or(text.len(), |end| start + end);
            if end > start {
                return Some(format!("{}{HIDDEN}{}", &text[..start], &text[end..]));
            }
        }
    }
    None
}

/// A long unbroken run of letters and digits (and `_-+=.~`), with both letters and digits: an API
/// key, a JWT, a webhook secret. Paths, URLs, words and numbers do not look like this.
fn looks_like_a_token(text: &str) -> bool {
    let known_prefix =
        ["sk_", "pk_live", "rk_", "whsec_", "whsk_", "ghp_", "gho_", "github_pat_", "xox", "eyJ", "AKIA"]
            .iter()
            .any(|prefix| text.starts_with(prefix) && text.len() >= 12);
    let charset = text.chars().all(|c| c.is_ascii_alphanumeric() || "_-+=.~".contains(c));
    let mixed = text.chars().any(|c| c.is_ascii_digit()) && text.chars().any(|c| c.is_ascii_alphabetic());
    charset && (known_prefix || (text.len() >= 24 && mixed && !text.starts_with('-')))
}

fn quote(arg: &str) -> String {
    if arg.is_empty() || arg.contains(char::is_whitespace) {
        format!("'{}'", arg.replace('\'', "'\\''"))
    } else {
        arg.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shown(args: &[&str]) -> String {
        shown_command(args)
    }

    #[test]
    fn credentials_in_headers_flags_and_urls_are_hidden() {
        let line = shown(&[
            "curl",
            "-H",
            "Authorization: Bearer tok_123secret",
            "-H",
            "X-Api-Key: k3y",
            "--header=Cookie: session=abc",
            "--count-header",
            "Authorization: Bearer ledger_tok",
            "--count-header=X-Api-Key: ledger_k3y",
            "-HX-Trace: t1",
            "-u",
            "alice:pa55",
            "https://bob:hunter2@api.example.com/v1",
            "--data",
            "{}",
        ]);
        for secret in ["tok_123secret", "k3y", "session=abc", "ledger_tok", "ledger_k3y", "pa55", "hunter2"] {
            assert!(!line.contains(secret), "{secret} in {line}");
        }
        assert!(line.starts_with("curl -H 'Authorization: ***' -H 'X-Api-Key: ***'"), "{line}");
        assert!(line.contains("'-HX-Trace: t1'") && line.contains("--data {}"), "{line}");
    }

    #[test]
    fn secret_named_flags_variables_and_tokens_are_hidden() {
        let line = shown(&[
            "env",
            "API_TOKEN=abc",
            "sender.py",
            "--secret",
            "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
            "--token=zzz",
            "sk_live_4eC39HqLyjWDarjtT1zdp7dc",
            "Bearer eyJhbGciOiJIUzI1NiJ9.e30.x",
            "--count",
            "3",
            "/usr/local/bin/long_path_name_1234567890",
        ]);
        for secret in ["abc", "MfKQ9r8G", "zzz", "4eC39Hq", "eyJhbG"] {
            assert!(!line.contains(secret), "{secret} in {line}");
        }
        assert!(line.contains("--count 3") && line.contains("/usr/local/bin/long_path_name_1234567890"), "{line}");
    }
}
