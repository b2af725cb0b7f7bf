//! How a command line the user gave us (the client of `idem proxy -- CMD`, the sender of
//! `webhook check-sender -- CMD`, the script of `idem check --server-cmd`) is echoed in summaries,
//! JSON reports and errors: the program and its arguments, with the secrets such command lines
//! carry replaced by `***`, since these outputs end up in CI logs. Hidden: values of
//! `-H`/`--header` whose name says credential (`Authorization`, `Cookie`, `X-Api-Key`…), of
//! `-u`/`--user` and of flags named like a secret (`--token`, `--password`, `--api-key`…),
//! `NAME=value` where the name says secret, the userinfo of URLs, `Bearer`/`Basic` credentials,
//! lone arguments that look like a token, and the secrets the tool itself was given. Scripts
//! (`sh -c '…'`, any argument of several words) are split into words with shlex and each word
//! judged the same way, so `sh -c 'curl -u me:pw …'` hides `me:pw` too.
//!
//! A secret is hidden where it stands as a whole word, never inside another word: `--secret s`
//! leaves `sh -c 'sleep 1'` as it is.
use std::ffi::OsStr;

use crate::http::url::redact_password;
use crate::text::shell_quote;

/// What a hidden secret is shown as.
const HIDDEN: &str = "***";

/// How deep scripts within scripts (`sh -c "bash -c '…'"`) are split; deeper ones are still
/// judged as words, only not split again.
const MAX_NESTING: usize = 4;

/// How many different secrets found in a script are searched for in its text; a script with
/// more is shown as its words instead, so the search stays linear in the script's length.
const MAX_SECRETS_SEARCHED: usize = 64;

/// The command line as shown: arguments separated by spaces, quoted when they hold a space.
pub(crate) fn shown_command<S: AsRef<OsStr>>(command: &[S]) -> String {
    shown_command_hiding(command, &[])
}

/// [`shown_command`], with `known` secrets (the ones the tool was given, such as the receiver's
/// `--secret`, which a sender is often given too) hidden wherever one stands as a whole word.
pub(crate) fn shown_command_hiding<S: AsRef<OsStr>>(command: &[S], known: &[&str]) -> String {
    let args: Vec<String> = command.iter().map(|arg| arg.as_ref().to_string_lossy().into_owned()).collect();
    let known: Vec<&str> = known.iter().copied().filter(|secret| !secret.is_empty()).collect();
    join_quoted(&redact_words(&args, &known, 0))
}

/// A shell script as `sh -c` runs it (`idem check --server-cmd`), shown as the user wrote it with
/// the secrets of its words hidden.
pub(crate) fn shown_script(script: &str) -> String {
    redact_script(script, &[], 0)
}

/// `text` with every occurrence of a secret that stands as a whole word (not inside a longer
/// word: `s` is not hidden in `sleep` or `-s`) replaced by `marker`.
pub(crate) fn hide_whole_words(text: &str, secrets: &[&str], marker: &str) -> String {
    let mut ranges: Vec<(usize, usize)> = Vec::new();
    for secret in secrets.iter().filter(|secret| !secret.is_empty()) {
        for (start, _) in text.match_indices(secret) {
            let end = start + secret.len();
            let before = text[..start].chars().next_back();
            let after = text[end..].chars().next();
            if !before.is_some_and(continues_a_word) && !after.is_some_and(continues_a_word) {
                ranges.push((start, end));
            }
        }
    }
    ranges.sort_unstable();
    let mut shown = String::with_capacity(text.len());
    let mut copied = 0;
    for (start, end) in ranges {
        if end <= copied {
            continue;
        }
        // Overlapping secrets are hidden as one.
        if start >= copied {
            shown.push_str(&text[copied..start]);
            shown.push_str(marker);
        }
        copied = end;
    }
    shown.push_str(&text[copied..]);
    shown
}

/// Characters that make a secret part of a longer word when they touch it: `s` in `-s`,
/// `s.txt` or `s_1` is not the secret `s`.
fn continues_a_word(c: char) -> bool {
    c.is_alphanumeric() || matches!(c, '_' | '-' | '.')
}

/// Each word as shown, judged with what the word before it said about it (`-u` hides the next).
fn redact_words(words: &[String], known: &[&str], depth: usize) -> Vec<String> {
    let mut shown = Vec::with_capacity(words.len());
    let mut next = Next::Plain;
    for word in words {
        let redacted = match next {
            Next::Header => redact_header(word),
            Next::Secret => HIDDEN.to_string(),
            Next::Plain if word.contains(char::is_whitespace) && !word.starts_with('-') => redact_phrase(word),
            Next::Plain => redact_argument(word),
        };
        next = what_follows(word);
        let redacted = hide_whole_words(&redacted, known, HIDDEN);
        let redacted = if depth < MAX_NESTING && redacted.contains(char::is_whitespace) {
            redact_script(&redacted, known, depth + 1)
        } else {
            redacted
        };
        shown.push(redacted);
    }
    shown
}

/// A script (or any argument of several words), split into words the way the shell will: the
/// secrets found in its words are hidden in the text as written, so what is shown still reads
/// like the script. A secret the text spells differently than its word (quoted in pieces,
/// escaped, glued to a flag as in `-uPASS`) would survive that: then the words are shown instead.
fn redact_script(script: &str, known: &[&str], depth: usize) -> String {
    // Unbalanced quotes: shlex refuses; the words between spaces are still judged.
    let words =
        shlex::split(script).unwrap_or_else(|| script.split_whitespace().map(str::to_string).collect::<Vec<_>>());
    let redacted = redact_words(&words, known, depth);
    let mut found: Vec<String> =
        words.iter().zip(&redacted).filter_map(|(word, shown)| hidden_part(word, shown)).collect();
    found.sort_unstable();
    found.dedup();
    if found.len() > MAX_SECRETS_SEARCHED {
        return join_quoted(&redacted);
    }
    let secrets: Vec<&str> = known.iter().copied().chain(found.iter().map(String::as_str)).collect();
    let shown = hide_whole_words(script, &secrets, HIDDEN);
    if found.iter().any(|secret| !script.contains(secret.as_str()) || shown.contains(secret.as_str())) {
        return join_quoted(&redacted);
    }
    shown
}

/// What redaction took out of `word` to show it as `shown`: the part between what they share at
/// the start and at the end (`abc` of `API_TOKEN=abc` shown as `API_TOKEN=***`).
fn hidden_part(word: &str, shown: &str) -> Option<String> {
    let same_start: usize =
        word.chars().zip(shown.chars()).take_while(|(a, b)| a == b).map(|(a, _)| a.len_utf8()).sum();
    let (word_rest, shown_rest) = (&word[same_start..], &shown[same_start..]);
    // The marker is what replaced the secret, never a part the two share: `Bearer ***` shown as
    // `***` took out all of `Bearer ***`, not `Bearer `.
    let shown_rest = shown_rest.strip_prefix(HIDDEN).unwrap_or(shown_rest);
    let same_end: usize = word_rest
        .chars()
        .rev()
        .zip(shown_rest.chars().rev())
        .take_while(|(a, b)| a == b)
        .map(|(a, _)| a.len_utf8())
        .sum();
    let hidden = &word_rest[..word_rest.len() - same_end];
    (!hidden.is_empty()).then(|| hidden.to_string())
}

fn join_quoted(words: &[String]) -> String {
    words.iter().map(|word| quote(word)).collect::<Vec<_>>().join(" ")
}

#[derive(Clone, Copy)]
enum Next {
    Plain,
    Header,
    Secret,
}

/// A flag that takes the next argument as its value: a header, or a secret. In a script's words,
/// `Bearer` and a header name (`Authorization:`) say the same of the word after them.
fn what_follows(arg: &str) -> Next {
    match arg {
        "-H" | "--header" | "--count-header" => Next::Header,
        _ if flag_takes_a_secret(arg) => Next::Secret,
        _ if ["bearer", "basic", "digest"].iter().any(|scheme| arg.eq_ignore_ascii_case(scheme)) => Next::Secret,
        _ if arg.strip_suffix(':').is_some_and(|name| is_header_name(name) && names_a_secret(name)) => Next::Secret,
        _ if arg.starts_with("--") && !arg.contains('=') && names_a_secret(arg) => Next::Secret,
        _ => Next::Plain,
    }
}

/// curl's (and most clients') flags whose value is a credential though their name does not say so.
fn flag_takes_a_secret(flag: &str) -> bool {
    matches!(flag, "-u" | "--user" | "-U" | "--proxy-user" | "--oauth2-bearer")
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
        if !value.is_empty() && (names_a_secret(name) || flag_takes_a_secret(name)) {
            // `API_TOKEN=abc;` in a script: the `;` is the shell's, not the secret's.
            let operators = &value[value.trim_end_matches([';', '&', '|']).len()..];
            return format!("{name}={HIDDEN}{operators}");
        }
    }
    if let Some(redacted) = redact_scheme_credentials(arg) {
        return redacted;
    }
    if looks_like_a_token(arg) {
        return HIDDEN.to_string();
    }
    // `X-Api-Key:abc`, a header as httpie and xh take it.
    if let Some((name, value)) = arg.split_once(':')
        && is_header_name(name)
        && !value.starts_with("//")
        && !value.is_empty()
        && names_a_secret(name)
    {
        return format!("{name}:{HIDDEN}");
    }
    redact_password(arg)
}

/// An argument of several words, before its words are judged one by one: a header line
/// (`Authorization: Bearer …`, as httpie takes it), or text with a credential or a URL in it.
fn redact_phrase(text: &str) -> String {
    if text.split_once(':').is_some_and(|(name, _)| is_header_name(name)) {
        return redact_header(text);
    }
    redact_password(&redact_scheme_credentials(text).unwrap_or_else(|| text.to_string()))
}

/// Letters, digits, `-` and `_`: what a header name is made of in practice.
fn is_header_name(name: &str) -> bool {
    !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
}

/// `Name: value` with the value hidden when the name says credential, or the value is one.
fn redact_header(header: &str) -> String {
    let Some((name, value)) = header.split_once(':') else {
        return redact_argument(header);
    };
    let shown = shown_header_value(name, value.trim());
    if shown == value.trim() { header.to_string() } else { format!("{name}: {shown}") }
}

/// The value of the header `name` as shown in an echoed command or a report's curl line: hidden
/// whole when the name says credential; otherwise a scheme's credential (`Bearer …`), a value
/// that looks like a token, or the userinfo of a URL in it is hidden.
pub(crate) fn shown_header_value(name: &str, value: &str) -> String {
    if names_a_secret(name) {
        return HIDDEN.to_string();
    }
    if let Some(redacted) = redact_scheme_credentials(value) {
        return redacted;
    }
    if looks_like_a_token(value) {
        return HIDDEN.to_string();
    }
    redact_password(value)
}

/// Whether a header, flag or variable name says its value is a credential: `Authorization`,
/// `Cookie`, `X-Api-Key`, `X-Hub-Signature`, `--token`, `DB_PASS`, `STRIPE_KEY`… The one rule
/// for every name, so a header is secret in a report exactly when it is in an echoed command.
/// The idempotency key is what is being tested, not a credential; `GIT_AUTHOR_NAME` is no auth.
pub(crate) fn names_a_secret(name: &str) -> bool {
    let name = name.trim().trim_start_matches('-').to_ascii_lowercase();
    if name.replace(['-', '_'], "") == "idempotencykey" {
        return false;
    }
    let auth = name.replace("authoriz", "auth").replace("authoris", "auth").replace("author", "");
    let parts = ["token", "secret", "passw", "passphrase", "apikey", "api-key", "api_key", "cookie"];
    let more = ["credential", "private", "signature", "session"];
    let words: Vec<&str> = name.split(['-', '_', '.']).collect();
    auth.contains("auth")
        || parts.iter().chain(&more).any(|part| name.contains(part))
        || words.iter().any(|word| matches!(*word, "pass" | "pwd" | "pw" | "sig" | "jwt"))
        || words.last().is_some_and(|word| matches!(*word, "key" | "keys"))
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

/// An argument as shown: quoted only when it would not read as one word.
fn quote(arg: &str) -> String {
    if arg.is_empty() || arg.contains(char::is_whitespace) { shell_quote(arg) } else { arg.to_string() }
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
    #[test]
    fn scripts_are_split_into_words_and_keep_their_shape() {
        let line = shown(&["sh", "-c", "curl -sf -u me:PA55w0rd -H 'Authorization: Bearer tok9' \"$URL\" >/dev/null"]);
        assert!(!line.contains("PA55w0rd") && !line.contains("tok9"), "{line}");
        assert_eq!(line, r#"sh -c 'curl -sf -u *** -H '\''Authorization: ***'\'' "$URL" >/dev/null'"#);
        let script = shown_script("API_TOKEN=abc123; DB_PASSWORD=pw ./server --port 8080 --user-name bob");
        assert_eq!(script, "API_TOKEN=***; DB_PASSWORD=*** ./server --port 8080 --user-name bob");
        assert_eq!(
            shown_script("./server --api-key k1 'http://u:pw@127.0.0.1:9/x'"),
            "./server --api-key *** 'http://u:***@127.0.0.1:9/x'"
        );
        // Spelled in pieces, the secret would survive a search of the text: the words are shown.
        let pieces = shown_script("curl -u me:'pa ss' -uPW2 http://h/");
        assert!(!pieces.contains("pa") && !pieces.contains("PW2"), "{pieces}");
        assert!(pieces.starts_with("curl -u *** -u***"), "{pieces}");
        // Scripts within scripts, and unbalanced quotes.
        let nested = shown(&["bash", "-c", "sh -c \"curl --user=me:nested1 x\""]);
        assert!(!nested.contains("nested1") && nested.contains("--user=***"), "{nested}");
        assert!(!shown_script("curl -u me:unbal4nced 'x").contains("unbal4nced"));
        // Thousands of different secrets: shown as words, each hidden, without a search per secret.
        let many: String = (0..5000).map(|n| format!("-u me:pw{n} ")).collect();
        let shown_many = shown_script(&many);
        assert!(!shown_many.contains("pw") && shown_many.matches("-u ***").count() == 5000);
    }

    #[test]
    fn known_secrets_are_hidden_only_as_whole_words() {
        let hiding = |args: &[&str], secret: &str| shown_command_hiding(args, &[secret]);
        assert_eq!(hiding(&["sh", "-c", "sleep 1"], "s"), "sh -c 'sleep 1'");
        assert_eq!(hiding(&["ls", "-s", "s.txt", "s"], "s"), "ls -s s.txt ***");
        assert_eq!(
            hiding(&["send", "--sig", "x", "--key=whsec_abc", "-d", "whsec_abc"], "whsec_abc"),
            "send --sig *** --key=*** -d ***"
        );
        assert_eq!(
            hiding(&["sh", "-c", "send --s whsec_abc && echo 'whsec_abc'"], "whsec_abc"),
            r#"sh -c 'send --s *** && echo '\''***'\'''"#
        );
        assert_eq!(hide_whole_words("U s age: s, sleep", &["s"], "<x>"), "U <x> age: <x>, sleep");
        assert_eq!(hide_whole_words("abcabc abc", &["abc", "bc"], "*"), "abcabc *");
    }

    #[test]
    fn one_rule_says_which_names_are_secret() {
        let secret = [
            "Authorization",
            "Proxy-Authorization",
            "Cookie",
            "Set-Cookie",
            "X-Api-Key",
            "X-Hub-Signature-256",
            "--token",
            "DB_PASS",
            "STRIPE_KEY",
            "client_secret",
            "--password",
            "X-Session",
            "oauth",
        ];
        for name in secret {
            assert!(names_a_secret(name), "{name}");
        }
        let plain = [
            "Idempotency-Key",
            "idempotency_key",
            "Content-Type",
            "GIT_AUTHOR_NAME",
            "--author",
            "--key-header",
            "--port",
        ];
        for name in plain {
            assert!(!names_a_secret(name), "{name}");
        }
        assert_eq!(shown_header_value("X-Trace", "Bearer abc"), "Bearer ***");
        assert_eq!(shown_header_value("X-Callback", "http://u:pw@h/x"), "http://u:***@h/x");
        assert_eq!(shown_header_value("X-Tenant", "acme"), "acme");
    }
}
