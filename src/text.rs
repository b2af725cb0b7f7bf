//! Small wordings every printer shares: a long text cut short, a count with its noun, a word
//! quoted for a POSIX shell. One copy each, so every command cuts, counts and quotes alike.
use std::fmt::Display;

/// `text` when it has at most `limit` characters, else its first `limit` characters and `…`.
/// Counts characters, not bytes, so a cut never splits one.
pub(crate) fn ellipsis(text: &str, limit: usize) -> String {
    match text.char_indices().nth(limit) {
        Some((cut, _)) => format!("{}…", &text[..cut]),
        None => text.to_string(),
    }
}

/// `1 delivery`, `3 deliveries`: the count and the noun that agrees with it.
pub(crate) fn plural<N: Display + PartialEq + From<u8>>(count: N, one: &str, many: &str) -> String {
    let noun = if count == N::from(1) { one } else { many };
    format!("{count} {noun}")
}

/// `text` as one POSIX shell word: single-quoted, with embedded quotes closed, escaped and reopened.
pub(crate) fn shell_quote(text: &str) -> String {
    format!("'{}'", text.replace('\'', r"'\''"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ellipsis_cuts_after_the_limit_in_characters() {
        assert_eq!(ellipsis("abc", 3), "abc");
        assert_eq!(ellipsis("abcd", 3), "abc…");
        assert_eq!(ellipsis("éééé", 2), "éé…");
        assert_eq!(ellipsis("", 0), "");
        assert_eq!(ellipsis("a", 0), "…");
    }

    #[test]
    fn plural_agrees_with_the_count() {
        assert_eq!(plural(1usize, "round", "rounds"), "1 round");
        assert_eq!(plural(0u64, "delivery", "deliveries"), "0 deliveries");
        assert_eq!(plural(3u64, "delivery", "deliveries"), "3 deliveries");
    }

    #[test]
    fn shell_quoting_survives_quotes() {
        assert_eq!(shell_quote("it's"), r"'it'\''s'");
        assert_eq!(shell_quote("a b\n$c"), "'a b\n$c'");
    }
}
