//! `--key-in graphql`: the key in an `@idempotent(key: "…")` directive on the mutation's top-level
//! field, as Shopify's Admin GraphQL API takes it (changelog "Making idempotency mandatory for
//! inventory adjustments and refund mutations", 2026-04):
//!
//! ```graphql
//! mutation { inventoryAdjustQuantities(input: {…}) @idempotent(key: "4f5b…") { … } }
//! ```
//!
//! The directive goes after the field's arguments; one already there (a literal or a `$variable`)
//! is replaced, so every logical request carries its own key. Only as much of GraphQL is read as
//! finding that spot needs: strings, block strings and comments are skipped so their brackets do
//! not count.
use anyhow::{Context, bail};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Token {
    /// A name (keywords included); the text is read from the source by span.
    Name,
    /// One punctuator: `{ } ( ) [ ] : @ $ ! = |`, or `...` as `.`.
    Punct(u8),
    /// A string, block string or number: a value to step over.
    Value,
}

#[derive(Debug, Clone, Copy)]
struct Lexeme {
    token: Token,
    start: usize,
    end: usize,
}

fn lex(source: &str) -> anyhow::Result<Vec<Lexeme>> {
    let bytes = source.as_bytes();
    let mut out = Vec::new();
    let mut at = 0;
    while at < bytes.len() {
        let start = at;
        match bytes[at] {
            b' ' | b'\t' | b'\n' | b'\r' | b',' => at += 1,
            // The byte-order mark, which GraphQL ignores like whitespace.
            0xEF if bytes[at..].starts_with(&[0xEF, 0xBB, 0xBF]) => at += 3,
            b'#' => {
                while at < bytes.len() && bytes[at] != b'\n' && bytes[at] != b'\r' {
                    at += 1;
                }
            }
            b'"' if bytes[at..].starts_with(b"\"\"\"") => {
                at += 3;
                loop {
                    if at >= bytes.len() {
                        bail!("the GraphQL query has an unterminated block string");
                    }
                    if bytes[at..].starts_with(b"\\\"\"\"") {
                        at += 4;
                    } else if bytes[at..].starts_with(b"\"\"\"") {
                        at += 3;
                        break;
                    } else {
                        at += 1;
                    }
                }
                out.push(Lexeme { token: Token::Value, start, end: at });
            }
            b'"' => {
                at += 1;
                loop {
                    match bytes.get(at) {
                        None | Some(b'\n') | Some(b'\r') => bail!("the GraphQL query has an unterminated string"),
                        Some(b'\\') => at += 2,
                        Some(b'"') => {
                            at += 1;
                            break;
                        }
                        Some(_) => at += 1,
                    }
                }
                out.push(Lexeme { token: Token::Value, start, end: at });
            }
            b'.' if bytes[at..].starts_with(b"...") => {
                at += 3;
                out.push(Lexeme { token: Token::Punct(b'.'), start, end: at });
            }
            b'{' | b'}' | b'(' | b')' | b'[' | b']' | b':' | b'@' | b'$' | b'!' | b'=' | b'|' | b'&' => {
                at += 1;
                out.push(Lexeme { token: Token::Punct(bytes[start]), start, end: at });
            }
            b'-' | b'0'..=b'9' => {
                at += 1;
                while at < bytes.len() && matches!(bytes[at], b'0'..=b'9' | b'.' | b'e' | b'E' | b'+' | b'-') {
                    at += 1;
                }
                out.push(Lexeme { token: Token::Value, start, end: at });
            }
            b'_' | b'a'..=b'z' | b'A'..=b'Z' => {
                while at < bytes.len() && matches!(bytes[at], b'_' | b'a'..=b'z' | b'A'..=b'Z' | b'0'..=b'9') {
                    at += 1;
                }
                out.push(Lexeme { token: Token::Name, start, end: at });
            }
            other => bail!("the GraphQL query has an unexpected character `{}`", char::from(other).escape_default()),
        }
    }
    Ok(out)
}

/// The index just past the bracket group that opens at `open` (`(`, `[` or `{`).
fn skip_group(lexemes: &[Lexeme], open: usize) -> anyhow::Result<usize> {
    let mut depth = 0usize;
    for (index, lexeme) in lexemes.iter().enumerate().skip(open) {
        match lexeme.token {
            Token::Punct(b'(' | b'[' | b'{') => depth += 1,
            Token::Punct(b')' | b']' | b'}') => {
                depth -= 1;
                if depth == 0 {
                    return Ok(index + 1);
                }
            }
            _ => {}
        }
    }
    bail!("the GraphQL query has an unclosed bracket")
}

/// `query` with the key in an `@idempotent(key: "…")` directive on its mutation's first top-level
/// field. A document whose first operation is not a mutation is refused: queries are not
/// deduplicated, so a key on one tests nothing.
pub(crate) fn with_idempotent_key(query: &str, key: &str) -> anyhow::Result<String> {
    let lexemes = lex(query)?;
    let text = |lexeme: &Lexeme| &query[lexeme.start..lexeme.end];
    // The first operation (fragments may come before it).
    let mut at = 0;
    loop {
        let Some(lexeme) = lexemes.get(at) else { bail!("the GraphQL query has no operation") };
        match (lexeme.token, text(lexeme)) {
            (Token::Name, "fragment") => {
                let open = (at..lexemes.len())
                    .find(|&i| lexemes[i].token == Token::Punct(b'{'))
                    .context("the GraphQL query has a fragment without a selection")?;
                at = skip_group(&lexemes, open)?;
            }
            (Token::Name, "mutation") => break,
            (Token::Name, kind @ ("query" | "subscription")) => {
                bail!("--key-in graphql needs a mutation, and the GraphQL request is a {kind}")
            }
            (Token::Punct(b'{'), _) => bail!("--key-in graphql needs a mutation, and the GraphQL request is a query"),
            _ => bail!("the GraphQL query does not start with an operation"),
        }
    }
    // The mutation's own name, variables and directives, up to its selection set.
    let mut depth = 0usize;
    let open = loop {
        at += 1;
        let Some(lexeme) = lexemes.get(at) else { bail!("the GraphQL mutation has no selection set") };
        match lexeme.token {
            Token::Punct(b'(') => depth += 1,
            Token::Punct(b')') => depth = depth.saturating_sub(1),
            Token::Punct(b'{') if depth == 0 => break at,
            _ => {}
        }
    };
    // The first field: `alias: name` or `name`.
    at = open + 1;
    let field = |index: usize| lexemes.get(index).filter(|lexeme| lexeme.token == Token::Name);
    let Some(first) = field(at) else {
        bail!("--key-in graphql puts the key on the mutation's first field, and its selection does not start with one")
    };
    let mut field_name = text(first);
    at += 1;
    if lexemes.get(at).is_some_and(|lexeme| lexeme.token == Token::Punct(b':')) {
        let name = field(at + 1).context("the GraphQL mutation has an alias without a field")?;
        field_name = text(name);
        at += 2;
    }
    if lexemes.get(at).is_some_and(|lexeme| lexeme.token == Token::Punct(b'(')) {
        at = skip_group(&lexemes, at)?;
    }
    let directive = format!("@idempotent(key: {})", serde_json::to_string(key)?);
    // An @idempotent already there is replaced; other directives stay.
    let insert_at = lexemes.get(at).map_or(query.len(), |lexeme| lexeme.start);
    while lexemes.get(at).is_some_and(|lexeme| lexeme.token == Token::Punct(b'@')) {
        let start = lexemes[at].start;
        let name =
            field(at + 1).with_context(|| format!("the GraphQL field {field_name} has a directive without a name"))?;
        let mut end_index = at + 2;
        if lexemes.get(end_index).is_some_and(|lexeme| lexeme.token == Token::Punct(b'(')) {
            end_index = skip_group(&lexemes, end_index)?;
        }
        if text(name) == "idempotent" {
            let end = lexemes[end_index - 1].end;
            return Ok(format!("{}{directive}{}", &query[..start], &query[end..]));
        }
        at = end_index;
    }
    let before = &query[..insert_at];
    let spacer = if before.ends_with([' ', '\n', '\t']) { "" } else { " " };
    Ok(format!("{before}{spacer}{directive} {}", &query[insert_at..]))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_directive_goes_after_the_arguments_of_the_first_field() {
        let query = "mutation Adjust($input: InventoryAdjustQuantitiesInput!) {\n  inventoryAdjustQuantities(input: $input) { inventoryAdjustmentGroup { id } }\n}";
        let out = with_idempotent_key(query, "k-1").unwrap();
        assert!(
            out.contains(
                r#"inventoryAdjustQuantities(input: $input) @idempotent(key: "k-1") { inventoryAdjustmentGroup"#
            ),
            "{out}"
        );
        let bare = with_idempotent_key("mutation { refund: refundCreate { id } }", "k-2").unwrap();
        assert_eq!(bare, r#"mutation { refund: refundCreate @idempotent(key: "k-2") { id } }"#);
    }

    #[test]
    fn an_existing_key_is_replaced_and_other_directives_kept() {
        let query = r#"mutation { refundCreate(input: {note: "a ) { b"}) @include(if: true) @idempotent(key: "old") { refund { id } } }"#;
        let out = with_idempotent_key(query, "new").unwrap();
        assert_eq!(
            out,
            r#"mutation { refundCreate(input: {note: "a ) { b"}) @include(if: true) @idempotent(key: "new") { refund { id } } }"#
        );
        let variable = with_idempotent_key("mutation($k: String!) { a @idempotent(key: $k) }", "n").unwrap();
        assert_eq!(variable, r#"mutation($k: String!) { a @idempotent(key: "n") }"#);
    }

    #[test]
    fn keys_are_escaped_as_graphql_strings() {
        let out = with_idempotent_key("mutation { a }", "k\"\\").unwrap();
        assert_eq!(out, r#"mutation { a @idempotent(key: "k\"\\") }"#);
    }

    #[test]
    fn queries_and_broken_documents_are_refused() {
        for query in [
            "{ shop { name } }",
            "query { shop { name } }",
            "subscription { a }",
            "mutation { ...F }",
            "mutation { a(",
            "\"open",
        ] {
            assert!(with_idempotent_key(query, "k").is_err(), "{query}");
        }
        let message = with_idempotent_key("query Q { shop { name } }", "k").unwrap_err().to_string();
        assert!(message.contains("needs a mutation"), "{message}");
        // Comments and fragments before the mutation are stepped over.
        let out = with_idempotent_key("# { query\nfragment F on R { id }\nmutation { a { ...F } }", "k").unwrap();
        assert!(out.ends_with(r#"mutation { a @idempotent(key: "k") { ...F } }"#), "{out}");
    }
}
