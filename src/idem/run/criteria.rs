//! Arazzo Criterion Objects: `simple` conditions (literals, runtime expressions, `< <= > >= == !=`,
//! `! && ||`, parentheses; strings compared case-insensitively, as the specification says) and
//! `regex` conditions on a context, and RFC 9535 `jsonpath` queries on a context (holding when the
//! query selects at least one node).
use anyhow::{Context, bail};
use serde_json::Value;

use super::document::{Criterion, CriterionKind};
use super::expression::{Scope, as_text};

/// Whether every criterion holds; the first that does not is returned with what it saw.
pub(crate) fn all_hold(criteria: &[Criterion], scope: &Scope<'_>) -> anyhow::Result<Result<(), String>> {
    for criterion in criteria {
        let held = holds(criterion, scope).with_context(|| format!("the condition `{}`", criterion.condition))?;
        if let Err(saw) = held {
            return Ok(Err(saw));
        }
    }
    Ok(Ok(()))
}

/// One criterion: `Ok(())` when it holds, `Err(what was seen)` when not.
pub(crate) fn holds(criterion: &Criterion, scope: &Scope<'_>) -> anyhow::Result<Result<(), String>> {
    match criterion.kind {
        CriterionKind::Regex => {
            let context = criterion.context.as_deref().context("a regex condition needs a context")?;
            let value = scope.evaluate(context)?.map(|value| as_text(&value)).unwrap_or_default();
            let pattern = regex::Regex::new(&criterion.condition).context("not a regular expression")?;
            Ok(if pattern.is_match(&value) {
                Ok(())
            } else {
                Err(format!(
                    "`{}` does not match {context} = {}",
                    criterion.condition,
                    crate::text::ellipsis(&value, 80)
                ))
            })
        }
        CriterionKind::JsonPath => {
            let context = criterion.context.as_deref().context("a jsonpath condition needs a context")?;
            let value = scope.evaluate(context)?.unwrap_or(Value::Null);
            let query = serde_json_path::JsonPath::parse(&criterion.condition)
                .map_err(|error| anyhow::anyhow!("not an RFC 9535 JSONPath query: {error}"))?;
            Ok(if query.query(&value).is_empty() {
                Err(format!(
                    "`{}` selects nothing in {context} = {}",
                    criterion.condition,
                    crate::text::ellipsis(&value.to_string(), 80)
                ))
            } else {
                Ok(())
            })
        }
        CriterionKind::Simple => {
            let tokens = tokenize(&criterion.condition)?;
            let mut parser = Parser { tokens: &tokens, at: 0, scope, seen: Vec::new() };
            let value = parser.or()?;
            if parser.at != tokens.len() {
                bail!("unexpected `{}`", tokens[parser.at].text());
            }
            Ok(if truthy(&value) {
                Ok(())
            } else {
                let seen = parser.seen.join(", ");
                Err(if seen.is_empty() {
                    format!("`{}` is false", criterion.condition)
                } else {
                    format!("`{}` is false ({seen})", criterion.condition)
                })
            })
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
enum Token {
    Expression(String),
    Literal(Value),
    Operator(&'static str),
}

impl Token {
    fn text(&self) -> String {
        match self {
            Token::Expression(text) => text.clone(),
            Token::Literal(value) => value.to_string(),
            Token::Operator(op) => op.to_string(),
        }
    }
}

const OPERATORS: [&str; 11] = ["<=", ">=", "==", "!=", "&&", "||", "<", ">", "!", "(", ")"];

fn tokenize(text: &str) -> anyhow::Result<Vec<Token>> {
    let mut tokens = Vec::new();
    let mut rest = text.trim_start();
    while !rest.is_empty() {
        if let Some(op) = OPERATORS.iter().find(|op| rest.starts_with(**op)) {
            tokens.push(Token::Operator(op));
            rest = &rest[op.len()..];
        } else if let Some(quote) = rest.chars().next().filter(|c| *c == '\'' || *c == '"') {
            // 'it''s': a doubled quote is the quote itself.
            let mut literal = String::new();
            let mut chars = rest[1..].char_indices().peekable();
            let mut end = None;
            while let Some((i, c)) = chars.next() {
                if c == quote {
                    if chars.peek().map(|(_, next)| *next) == Some(quote) {
                        literal.push(quote);
                        chars.next();
                        continue;
                    }
                    end = Some(i + 2);
                    break;
                }
                literal.push(c);
            }
            let end = end.with_context(|| format!("a string that is not closed: {rest}"))?;
            tokens.push(Token::Literal(Value::String(literal)));
            rest = &rest[end..];
        } else {
            let end = rest.find(|c: char| c.is_whitespace() || "<>=!&|()".contains(c)).unwrap_or(rest.len());
            let word = &rest[..end];
            tokens.push(if word.starts_with('$') {
                Token::Expression(word.to_string())
            } else {
                Token::Literal(match word {
                    "true" => Value::Bool(true),
                    "false" => Value::Bool(false),
                    "null" => Value::Null,
                    number => serde_json::from_str::<serde_json::Number>(number).map(Value::Number).map_err(|_| {
                        anyhow::anyhow!(
                            "`{word}` is neither a runtime expression, a number, true, false, null nor a quoted string"
                        )
                    })?,
                })
            });
            rest = &rest[end..];
        }
        rest = rest.trim_start();
    }
    Ok(tokens)
}

struct Parser<'t, 's> {
    tokens: &'t [Token],
    at: usize,
    scope: &'t Scope<'s>,
    /// `$statusCode = 500`: what each expression was, for the failure's evidence.
    seen: Vec<String>,
}

impl Parser<'_, '_> {
    fn eat(&mut self, op: &str) -> bool {
        if self.tokens.get(self.at)
            == Some(&Token::Operator(OPERATORS.iter().find(|o| **o == op).copied().unwrap_or("")))
        {
            self.at += 1;
            true
        } else {
            false
        }
    }

    fn or(&mut self) -> anyhow::Result<Value> {
        let mut value = self.and()?;
        while self.eat("||") {
            let right = self.and()?;
            value = Value::Bool(truthy(&value) || truthy(&right));
        }
        Ok(value)
    }

    fn and(&mut self) -> anyhow::Result<Value> {
        let mut value = self.comparison()?;
        while self.eat("&&") {
            let right = self.comparison()?;
            value = Value::Bool(truthy(&value) && truthy(&right));
        }
        Ok(value)
    }

    fn comparison(&mut self) -> anyhow::Result<Value> {
        let left = self.unary()?;
        for op in ["==", "!=", "<=", ">=", "<", ">"] {
            if self.eat(op) {
                let right = self.unary()?;
                return Ok(Value::Bool(compare(&left, op, &right)));
            }
        }
        Ok(left)
    }

    fn unary(&mut self) -> anyhow::Result<Value> {
        if self.eat("!") {
            return Ok(Value::Bool(!truthy(&self.unary()?)));
        }
        if self.eat("(") {
            let value = self.or()?;
            if !self.eat(")") {
                bail!("a `(` without its `)`");
            }
            return Ok(value);
        }
        match self.tokens.get(self.at).cloned() {
            Some(Token::Literal(value)) => {
                self.at += 1;
                Ok(value)
            }
            Some(Token::Expression(expression)) => {
                self.at += 1;
                let value = self.scope.evaluate(&expression)?.unwrap_or(Value::Null);
                self.seen.push(format!("{expression} = {}", crate::text::ellipsis(&value.to_string(), 80)));
                Ok(value)
            }
            Some(Token::Operator(op)) => bail!("unexpected `{op}`"),
            None => bail!("the condition ends too early"),
        }
    }
}

fn truthy(value: &Value) -> bool {
    match value {
        Value::Bool(b) => *b,
        Value::Null => false,
        _ => true,
    }
}

/// Loose comparison: numbers as numbers (a numeric string too), strings case-insensitively.
fn compare(left: &Value, op: &str, right: &Value) -> bool {
    let number = |value: &Value| match value {
        Value::Number(n) => n.as_f64(),
        Value::String(s) => s.trim().parse::<f64>().ok(),
        _ => None,
    };
    let ordering = match (left, right) {
        (Value::Number(_), _) | (_, Value::Number(_)) => match (number(left), number(right)) {
            (Some(l), Some(r)) => l.partial_cmp(&r),
            _ => None,
        },
        (Value::String(l), Value::String(r)) => Some(l.to_lowercase().cmp(&r.to_lowercase())),
        (Value::Bool(l), Value::Bool(r)) => Some(l.cmp(r)),
        (Value::Bool(b), Value::String(s)) | (Value::String(s), Value::Bool(b)) => {
            (s.eq_ignore_ascii_case(&b.to_string())).then_some(std::cmp::Ordering::Equal)
        }
        (l, r) => (l == r).then_some(std::cmp::Ordering::Equal),
    };
    use std::cmp::Ordering::*;
    match (op, ordering) {
        ("==", Some(Equal)) => true,
        ("==", _) => false,
        ("!=", ordering) => ordering != Some(Equal),
        ("<", Some(Less)) | ("<=", Some(Less | Equal)) | (">", Some(Greater)) | (">=", Some(Greater | Equal)) => true,
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::idem::run::expression::Exchanged;
    use serde_json::{Map, json};

    fn check(condition: &str, kind: CriterionKind, context: Option<&str>) -> Result<(), String> {
        let empty = Map::new();
        let exchanged = Exchanged {
            status: 201,
            response_body: json!({"status": "Paid", "amount": 500, "refunded": false, "items": [{"sku": "a"}, {"sku": "b"}]}),
            ..Exchanged::default()
        };
        let scope =
            Scope { inputs: &empty, steps: &empty, workflows: &empty, sources: &[], exchanged: Some(&exchanged) };
        let criterion = Criterion { condition: condition.into(), context: context.map(Into::into), kind };
        holds(&criterion, &scope).unwrap()
    }

    #[test]
    fn simple_conditions_compare_loosely_and_combine() {
        assert_eq!(check("$statusCode == 201", CriterionKind::Simple, None), Ok(()));
        assert_eq!(check("$statusCode >= 200 && $statusCode < 300", CriterionKind::Simple, None), Ok(()));
        assert_eq!(check("$response.body#/status == 'paid'", CriterionKind::Simple, None), Ok(()));
        assert_eq!(
            check("!($response.body#/refunded == true) || $statusCode == 500", CriterionKind::Simple, None),
            Ok(())
        );
        assert_eq!(check("$response.body#/amount > 499.5", CriterionKind::Simple, None), Ok(()));
        let failed = check("$statusCode == 200", CriterionKind::Simple, None).unwrap_err();
        assert!(failed.contains("$statusCode = 201"), "{failed}");
    }

    #[test]
    fn the_specification_s_regex_example_matches_its_context() {
        // Arazzo 1.0.1, Criterion Object: `context: $statusCode`, `condition: '^200$'`, `type: regex`.
        assert!(check("^200$", CriterionKind::Regex, Some("$statusCode")).is_err());
        assert_eq!(check("^201$", CriterionKind::Regex, Some("$statusCode")), Ok(()));
    }

    #[test]
    fn a_jsonpath_condition_holds_when_its_query_selects_a_node() {
        let body = Some("$response.body");
        assert_eq!(check("$[?length(@) == 2]", CriterionKind::JsonPath, body), Ok(()), "the items array");
        assert_eq!(check("$.items[?@.sku == 'b']", CriterionKind::JsonPath, body), Ok(()));
        assert_eq!(check("$[?count(@[*]) > 1]", CriterionKind::JsonPath, body), Ok(()));
        let failed = check("$.items[?@.sku == 'c']", CriterionKind::JsonPath, body).unwrap_err();
        assert!(failed.contains("selects nothing in $response.body"), "{failed}");
        // Arazzo 1.0.1's example, on a body without a matching child.
        assert!(check("$[?count(@.pets) > 0]", CriterionKind::JsonPath, body).is_err());
    }
}
