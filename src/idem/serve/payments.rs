//! The payments ledger: what the reference API "charges", so side effects can be counted.
use std::collections::VecDeque;
use std::sync::Mutex;

use serde::Serialize;
use serde_json::{Map, Value};

use crate::sync::lock;

/// A created payment, as the API returns it.
#[derive(Debug, Clone, Serialize)]
pub(super) struct Payment {
    pub id: String,
    pub object: &'static str,
    pub amount: u64,
    pub currency: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub order_id: Option<Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    pub status: &'static str,
    pub created: i64,
}

impl Payment {
    /// Charges: a new payment with an id unique across instances (random), not yet recorded.
    pub(super) fn charge(request: NewPayment) -> Payment {
        Payment {
            id: crate::ids::fresh_id("pay_"),
            object: "payment",
            amount: request.amount,
            currency: request.currency,
            order_id: request.order_id,
            description: request.description,
            status: "succeeded",
            created: chrono::Utc::now().timestamp(),
        }
    }
}

/// A validated request to create a payment.
#[derive(Debug, Clone)]
pub(super) struct NewPayment {
    pub amount: u64,
    pub currency: String,
    pub order_id: Option<Value>,
    pub description: Option<String>,
}

/// Reads a payment request, saying exactly what is wrong when it is not one.
pub(super) fn parse_new_payment(body: &[u8]) -> Result<NewPayment, String> {
    let value: Value = serde_json::from_slice(body).map_err(|err| format!("the body is not valid JSON: {err}"))?;
    let Value::Object(fields) = value else {
        return Err("the body must be a JSON object".to_string());
    };
    let amount = match fields.get("amount") {
        Some(Value::Number(number)) => number.as_u64().filter(|amount| *amount > 0),
        _ => None,
    }
    .ok_or("`amount` must be a positive integer (in minor units, e.g. 1990 for 19.90)")?;
    let currency = match fields.get("currency") {
        None => "USD".to_string(),
        Some(Value::String(code)) if code.len() == 3 && code.chars().all(|c| c.is_ascii_alphabetic()) => {
            code.to_ascii_uppercase()
        }
        Some(_) => return Err("`currency` must be a three-letter code such as RUB or USD".to_string()),
    };
    let description = match fields.get("description") {
        None | Some(Value::Null) => None,
        Some(Value::String(text)) => Some(text.clone()),
        Some(_) => return Err("`description` must be a string".to_string()),
    };
    Ok(NewPayment { amount, currency, order_id: string_or_number(&fields, "order_id"), description })
}

/// Reads the body of a POST to another path under `--any-path`: any JSON object is accepted (the
/// server stands in for endpoints it knows nothing of), and the amount it names, as `amount` or
/// Adyen-style `amount.value`, is recorded (0 when it names none).
pub(super) fn parse_any_resource(body: &[u8]) -> Result<NewPayment, String> {
    let value: Value = serde_json::from_slice(body).map_err(|err| format!("the body is not valid JSON: {err}"))?;
    let Value::Object(fields) = value else {
        return Err("the body must be a JSON object".to_string());
    };
    let amount = fields.get("amount");
    let minor_units = amount.and_then(Value::as_u64).or_else(|| amount?.get("value")?.as_u64()).unwrap_or(0);
    let currency = fields
        .get("currency")
        .or_else(|| amount?.get("currency"))
        .and_then(Value::as_str)
        .filter(|code| code.len() == 3 && code.chars().all(|c| c.is_ascii_alphabetic()))
        .map_or_else(|| "USD".to_string(), str::to_ascii_uppercase);
    Ok(NewPayment {
        amount: minor_units,
        currency,
        order_id: string_or_number(&fields, "reference"),
        description: None,
    })
}

fn string_or_number(fields: &Map<String, Value>, name: &str) -> Option<Value> {
    fields.get(name).filter(|value| value.is_string() || value.is_number()).cloned()
}

/// How many payments the ledger keeps; older ones are dropped (a server left running under a load
/// test must not grow without bound). The count of payments created is kept whole.
pub(super) const MAX_KEPT_PAYMENTS: usize = 100_000;

/// `GET /payments` pages hold this many payments unless `?limit=` says otherwise (Stripe's default).
pub(super) const DEFAULT_PAGE: usize = 10;
/// The largest `?limit=` (Stripe's maximum).
pub(super) const MAX_PAGE: usize = 100;

/// The payments a `--store memory` server created, the most recent `MAX_KEPT_PAYMENTS` of them.
#[derive(Default)]
pub(super) struct Ledger {
    /// Oldest first.
    payments: Mutex<VecDeque<Payment>>,
}

impl Ledger {
    /// Records a payment made by `Payment::charge`, dropping the oldest beyond the bound.
    pub(super) fn record(&self, payment: Payment) {
        let mut payments = lock(&self.payments);
        payments.push_back(payment);
        while payments.len() > MAX_KEPT_PAYMENTS {
            payments.pop_front();
        }
    }

    pub(super) fn get(&self, id: &str) -> Option<Payment> {
        lock(&self.payments).iter().find(|payment| payment.id == id).cloned()
    }

    /// Oldest first.
    pub(super) fn list(&self) -> Vec<Payment> {
        lock(&self.payments).iter().cloned().collect()
    }
}

/// The query of `GET /payments?limit=&starting_after=`, as payment APIs paginate: newest first,
/// `limit` from 1 to 100, `starting_after` the last id of the previous page.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct ListQuery {
    limit: usize,
    starting_after: Option<String>,
}

/// One page of `GET /payments`, newest first.
#[derive(Debug, Clone, Serialize)]
pub(super) struct Page {
    pub object: &'static str,
    pub url: &'static str,
    pub data: Vec<Value>,
    /// More payments follow the last one here: ask again with `starting_after` = its id.
    pub has_more: bool,
    /// How many payments the store holds.
    pub count: usize,
}

impl ListQuery {
    pub(super) fn parse(query: Option<&str>) -> Result<ListQuery, String> {
        let mut list = ListQuery { limit: DEFAULT_PAGE, starting_after: None };
        for pair in query.unwrap_or_default().split('&').filter(|pair| !pair.is_empty()) {
            let (name, value) = pair.split_once('=').unwrap_or((pair, ""));
            match name {
                "limit" => {
                    list.limit = value
                        .parse::<usize>()
                        .ok()
                        .filter(|limit| (1..=MAX_PAGE).contains(limit))
                        .ok_or_else(|| format!("`limit` must be a number from 1 to {MAX_PAGE}"))?;
                }
                "starting_after" => list.starting_after = Some(value.to_string()),
                _ => {}
            }
        }
        Ok(list)
    }

    /// The page of `payments` (as the store lists them, oldest first) this query asks for.
    pub(super) fn page(&self, payments: Vec<Value>) -> Result<Page, String> {
        let count = payments.len();
        let newest_first = payments.into_iter().rev();
        let rest: Vec<Value> = match &self.starting_after {
            None => newest_first.collect(),
            Some(id) => {
                let mut rest = newest_first.skip_while(|payment| payment["id"] != id.as_str());
                if rest.next().is_none() {
                    return Err(format!("`starting_after`: there is no payment `{id}`"));
                }
                rest.collect()
            }
        };
        Ok(Page {
            object: "list",
            url: "/payments",
            has_more: rest.len() > self.limit,
            data: rest.into_iter().take(self.limit).collect(),
            count,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn valid_payments() {
        let payment = parse_new_payment(br#"{"amount":1990,"currency":"rub","order_id":42}"#).unwrap();
        assert_eq!((payment.amount, payment.currency.as_str()), (1990, "RUB"));
        assert_eq!(payment.order_id, Some(Value::from(42)));
    }

    fn pay(amount: u64) -> NewPayment {
        NewPayment { amount, currency: "USD".into(), order_id: None, description: None }
    }

    fn page(ledger: &Ledger, query: &str) -> Result<Page, String> {
        let listed = ledger.list().iter().map(|payment| serde_json::to_value(payment).unwrap()).collect();
        ListQuery::parse(Some(query))?.page(listed)
    }

    fn amounts(page: &Page) -> Vec<u64> {
        page.data.iter().map(|payment| payment["amount"].as_u64().unwrap()).collect()
    }

    #[test]
    fn pages_are_newest_first_and_continue_after_an_id() {
        let ledger = Ledger::default();
        let ids: Vec<String> = (1..=5)
            .map(|n| {
                let payment = Payment::charge(pay(n));
                ledger.record(payment.clone());
                payment.id
            })
            .collect();
        let first = page(&ledger, "limit=2").unwrap();
        assert_eq!(amounts(&first), [5, 4]);
        assert!(first.has_more);
        let next = page(&ledger, &format!("limit=2&starting_after={}", ids[3])).unwrap();
        assert_eq!(amounts(&next), [3, 2]);
        let last = page(&ledger, &format!("starting_after={}", ids[1])).unwrap();
        assert_eq!((last.data.len(), last.has_more), (1, false));
        assert!(ListQuery::parse(Some("limit=0")).is_err() && ListQuery::parse(Some("limit=101")).is_err());
        assert!(page(&ledger, "starting_after=pay_nope").is_err());
    }

    #[test]
    fn the_ledger_is_bounded() {
        let ledger = Ledger::default();
        for _ in 0..MAX_KEPT_PAYMENTS + 3 {
            ledger.record(Payment::charge(pay(1)));
        }
        assert_eq!(ledger.list().len(), MAX_KEPT_PAYMENTS);
    }

    #[test]
    fn invalid_payments_say_why() {
        assert!(parse_new_payment(b"{").unwrap_err().contains("not valid JSON"));
        assert!(parse_new_payment(b"[]").unwrap_err().contains("object"));
        for body in [r#"{"amount":0}"#, r#"{"amount":-5}"#, r#"{"amount":1.5}"#, r#"{"amount":"10"}"#, "{}"] {
            assert!(parse_new_payment(body.as_bytes()).unwrap_err().contains("positive integer"), "{body}");
        }
        assert!(parse_new_payment(br#"{"amount":1,"currency":"rubles"}"#).unwrap_err().contains("currency"));
    }

    #[test]
    fn any_path_bodies_are_any_json_object_with_the_amount_they_name() {
        let adyen = parse_any_resource(br#"{"amount":{"value":2500,"currency":"eur"},"reference":"r1"}"#).unwrap();
        assert_eq!((adyen.amount, adyen.currency.as_str()), (2500, "EUR"));
        assert_eq!(parse_any_resource(br#"{"paymentReference":"p"}"#).unwrap().amount, 0);
        assert!(parse_any_resource(b"[1]").is_err() && parse_any_resource(b"{").is_err());
    }
}
