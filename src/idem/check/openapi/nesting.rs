//! How deeply a document nests, measured on its bytes before any parser runs. serde_json stops
//! at 128 levels, but the YAML fallback then takes time quadratic in the depth (200k levels of
//! `[` took more than a minute), so a deep document is refused here first, naming the bound.
//!
//! The measure reads JSON and YAML alike: flow collections (`[`, `{`) outside quoted scalars and
//! comments, block levels by indentation, and compact nesting at the start of a line (`- - x`).
//! It errs towards counting more, never less, for the documents a parser would find deep; the
//! content of block scalars (`|`, `>`) is text and is skipped.
use anyhow::bail;

/// The deepest document read: OpenAPI documents of whole payment APIs nest a few dozen levels.
pub(crate) const MAX_NESTING: usize = 128;

/// `Ok` when the document nests at most [`MAX_NESTING`] levels, else which line goes deeper.
pub(crate) fn check(text: &[u8]) -> anyhow::Result<()> {
    if let Some(line) = first_line_deeper_than(text, MAX_NESTING) {
        bail!(
            "the document nests more than {MAX_NESTING} levels deep (at line {line}); idem reads OpenAPI \
             documents up to {MAX_NESTING} levels of nesting"
        );
    }
    Ok(())
}

/// The line (counted from 1) where the nesting first passes `limit`, if it does.
fn first_line_deeper_than(text: &[u8], limit: usize) -> Option<usize> {
    // Open flow collections, and the quote a scalar is open in (both may span lines).
    let mut flow = 0usize;
    let mut quote: Option<u8> = None;
    // The indentations of the open block levels, and the levels the current line sits at.
    let mut indents: Vec<usize> = Vec::new();
    let mut block_depth = 0usize;
    // Inside a block scalar: the indentation its content lines are deeper than.
    let mut block_scalar_parent: Option<usize> = None;
    for (number, line) in text.split(|byte| *byte == b'\n').enumerate() {
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        let indent = line.iter().take_while(|byte| **byte == b' ').count();
        let blank = line[indent..].iter().all(|byte| byte.is_ascii_whitespace());
        if let Some(parent) = block_scalar_parent {
            if blank || indent > parent {
                continue;
            }
            block_scalar_parent = None;
        }
        let mut at = indent;
        if quote.is_none() && flow == 0 {
            if blank || line[indent] == b'#' {
                continue;
            }
            while indents.last().is_some_and(|top| *top > indent) {
                indents.pop();
            }
            if indents.last() != Some(&indent) {
                indents.push(indent);
            }
            block_depth = indents.len();
            // `- `, `? ` and `: ` at the start of a line each open a node inside the last.
            while matches!(line.get(at), Some(b'-' | b'?' | b':'))
                && matches!(line.get(at + 1), None | Some(b' ' | b'\t'))
            {
                block_depth += 1;
                at += 1;
                while matches!(line.get(at), Some(b' ' | b'\t')) {
                    at += 1;
                }
            }
            if block_depth > limit {
                return Some(number + 1);
            }
        }
        // The last byte outside quotes that was not a space, on this line (`None`: none yet).
        let mut previous: Option<u8> = None;
        while at < line.len() {
            let byte = line[at];
            match quote {
                Some(b'"') => {
                    match byte {
                        b'\\' => at += 1,
                        b'"' => quote = None,
                        _ => {}
                    }
                    at += 1;
                    continue;
                }
                Some(_) => {
                    if byte == b'\'' {
                        if line.get(at + 1) == Some(&b'\'') {
                            at += 1;
                        } else {
                            quote = None;
                        }
                    }
                    at += 1;
                    continue;
                }
                None => {}
            }
            let after_space = at == 0 || matches!(line[at - 1], b' ' | b'\t');
            // Where a node may begin: a quote or a bracket there is YAML's, elsewhere it is text
            // in a plain scalar (`it's`, `array[0`).
            let node_start = match previous {
                None => true,
                Some(b'[' | b'{' | b',' | b':') if flow > 0 => true,
                Some(b':') => after_space,
                _ => false,
            };
            match byte {
                b'#' if after_space => break,
                b'"' | b'\'' if node_start => quote = Some(byte),
                b'[' | b'{' if node_start || flow > 0 => {
                    flow += 1;
                    if block_depth + flow > limit {
                        return Some(number + 1);
                    }
                }
                b']' | b'}' if flow > 0 => flow -= 1,
                b'|' | b'>' if node_start && flow == 0 => {
                    block_scalar_parent = Some(indent);
                    break;
                }
                // An anchor, tag or alias before a node leaves the node still to begin.
                b'&' | b'!' | b'*' if node_start => {
                    while at < line.len() && !matches!(line[at], b' ' | b'\t') {
                        at += 1;
                    }
                    continue;
                }
                _ => {}
            }
            if !matches!(byte, b' ' | b'\t') {
                previous = Some(byte);
            }
            at += 1;
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn depth_ok(text: &str) -> bool {
        first_line_deeper_than(text.as_bytes(), 8).is_none()
    }

    #[test]
    fn deep_json_and_yaml_are_found_in_every_spelling() {
        assert_eq!(first_line_deeper_than("[".repeat(200_000).as_bytes(), MAX_NESTING), Some(1));
        assert!(!depth_ok(&r#"{"a":"#.repeat(9)));
        assert!(!depth_ok(&format!("openapi: 3.1.0\npaths: {}", "[".repeat(8))));
        assert!(!depth_ok(&"- ".repeat(9)));
        let indented: String = (0..9).map(|level| format!("{}a:\n", " ".repeat(level))).collect();
        assert_eq!(first_line_deeper_than(indented.as_bytes(), 8), Some(9));
        assert!(!depth_ok("key: &anchor !tag [[[[[[[[[]]]]]]]]]"));
        assert!(!depth_ok("{\n\"a\": [\n[\n[\n[\n[\n[\n[\n[\n1]]]]]]]]]}"));
        let err = check("[".repeat(200).as_bytes()).unwrap_err().to_string();
        assert!(err.contains("more than 128 levels deep (at line 1)"), "{err}");
    }

    #[test]
    fn brackets_in_text_are_not_nesting() {
        assert!(depth_ok(&format!(r#"{{"description": "{}\" {}"}}"#, "[".repeat(50), "{".repeat(50))));
        assert!(depth_ok(&format!("description: '{}'' {}'", "[".repeat(50), "{".repeat(50))));
        assert!(depth_ok(&format!("description: it's {} # {}", "[".repeat(50), "{".repeat(50))));
        assert!(depth_ok(&format!("a:\n  b: \"multi\n{}\n line\"\n  c: 1", "[".repeat(50))));
        let block_scalar: String = (0..50).map(|level| format!("    {}- [{{\n", " ".repeat(level))).collect();
        assert!(depth_ok(&format!("info:\n  description: |\n{block_scalar}  title: t\n")));
        assert!(depth_ok("a: [1, [2, {b: [3]}]]\nc:\n  - d: 1\n    e: [x]\n  - f\n"));
    }

    #[test]
    fn published_documents_pass() {
        let adyen = std::fs::read(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/fixtures/openapi/adyen-checkout-v71-excerpt.json"
        ))
        .unwrap();
        check(&adyen).unwrap();
        let yaml = "openapi: 3.0.3\ninfo:\n  title: t\n  description: >-\n    Text with [links](x) and {braces\n\
                    paths:\n  /p:\n    post:\n      parameters:\n        - $ref: '#/components/parameters/K'\n      \
                    responses:\n        '201':\n          description: ok\n";
        assert!(first_line_deeper_than(yaml.as_bytes(), 8).is_none());
    }
}
