//! The payments ledger: what the reference API "charges", so side effects can be counted.
use std::collections::VecDeque;
use std::sync::Mutex;

use rand::Rng;
use rand::distr::Alphanumeric;
use serde::Serialize;
use serde_json::{Map, Value};

/// A created payment, as the API returns it.
#[derive(Debug, Clone, Serialize)]
pub struct Payment {
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

/// A validated request to create a payment.
#[derive(Debug, Clone)]
pub struct NewPayment {
    pub amount: u64,
    pub currency: String,
    pub order_id: Option<Value>,
    pub description: Option<String>,
}

/// Reads a payment request, saying exactly what is wrong when it is not one.
pub fn parse_new_payment(body: &[u8]) -> Result<NewPayment, String> {
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

fn string_or_number(fields: &Map<String, Value>, name: &str) -> Option<Value> {
    fields.get(name).filter(|value| value.is_string() || value.is_number()).cloned()
}

/// How many payments the ledger keeps; older ones are dropped (a server left running under a load
/// test must not grow without bound). The count of payments created is kept whole.
pub const MAX_KEPT_PAYMENTS: usize = 100_000;

/// `GET /payments` pages hold this many payments unless `?limit=` says otherwise (Stripe's default).
pub const DEFAULT_PAGE: usize = 10;
/// The largest `?limit=` (Stripe's maximum).
pub const MAX_PAGE: usize = 100;

/// The most recent payments created since start-up, and how many there were in all.
#[derive(Default)]
pub struct Ledger {
    state: Mutex<LedgerState>,
}

#[derive(Default)]
struct LedgerState {
    /// Oldest first.
    payments: VecDeque<Payment>,
    created: usize,
}

/// One page of `GET /payments`, newest first.
#[derive(Debug, Clone, Serialize)]
pub struct Page {
    pub object: &'static str,
    pub url: &'static str,
    pub data: Vec<Payment>,
    /// More payments follow the last one here: ask again with `starting_after` = its id.
    pub has_more: bool,
    /// How many payments the ledger holds.
    pub count: usize,
}

impl Ledger {
    fn state(&self) -> std::sync::MutexGuard<'_, LedgerState> {
        self.state.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Charges: records a new payment and returns it.
    pub fn create(&self, request: NewPayment) -> Payment {
        let suffix: String = rand::rng().sample_iter(&Alphanumeric).take(24).map(char::from).collect();
        let payment = Payment {
            id: format!("pay_{suffix}"),
            object: "payment",
            amount: request.amount,
            currency: request.currency,
            order_id: request.order_id,
            description: request.description,
            status: "succeeded",
            created: chrono::Utc::now().timestamp(),
        };
        let mut state = self.state();
        state.created += 1;
        state.payments.push_back(payment.clone());
        while state.payments.len() > MAX_KEPT_PAYMENTS {
            state.payments.pop_front();
        }
        payment
    }

    pub fn get(&self, id: &str) -> Option<Payment> {
        self.state().payments.iter().find(|payment| payment.id == id).cloned()
    }

    /// The query of `GET /payments?limit=&starting_after=`, as payment APIs paginate: newest
    /// first, `limit` from 1 to 100, `starting_after` the last id of the previous page.
    pub fn page(&self, query: Option<&str>) -> Result<Page, String> {
        let mut limit = DEFAULT_PAGE;
        let mut starting_after = None;
        for pair in query.unwrap_or_default().split('&').filter(|pair| !pair.is_empty()) {
            let (name, value) = pair.split_once('=').unwrap_or((pair, ""));
            match name {
                "limit" => {
                    limit = value
                        .parse::<usize>()
                        .ok()
                        .filter(|limit| (1..=MAX_PAGE).contains(limit))
                        .ok_or_else(|| format!("`limit` must be a number from 1 to {MAX_PAGE}"))?;
                }
                "starting_after" => starting_after = Some(value.to_string()),
                _ => {}
            }
        }
        let state = self.state();
        let newest_first = state.payments.iter().rev();
        let skipped: Vec<&Payment> = match &starting_after {
            None => newest_first.collect(),
            Some(id) => {
                let mut rest = newest_first.skip_while(|payment| payment.id != *id);
                if rest.next().is_none() {
                    return Err(format!("`starting_after`: there is no payment `{id}`"));
                }
                rest.collect()
            }
        };
        Ok(Page {
            object: "list",
            url: "/payments",
            has_more: skipped.len() > limit,
            data: skipped.into_iter().take(limit).cloned().collect(),
            count: state.payments.len(),
        })
    }

    /// Payments created since start-up, including any no longer kept.
    pub fn count(&self) -> usize {
        self.state().created
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

    #[test]
    fn pages_are_newest_first_and_continue_after_an_id() {
        let ledger = Ledger::default();
        let ids: Vec<String> = (1..=5).map(|n| ledger.create(pay(n)).id).collect();
        let first = ledger.page(Some("limit=2")).unwrap();
        assert_eq!(first.data.iter().map(|p| p.amount).collect::<Vec<_>>(), [5, 4]);
        assert!(first.has_more);
        let next = ledger.page(Some(&format!("limit=2&starting_after={}", ids[3]))).unwrap();
        assert_eq!(next.data.iter().map(|p| p.amount).collect::<Vec<_>>(), [3, 2]);
        let last = ledger.page(Some(&format!("starting_after={}", ids[1]))).unwrap();
        assert_eq!((last.data.len(), last.has_more), (1, false));
        assert!(ledger.page(Some("limit=0")).is_err() && ledger.page(Some("limit=101")).is_err());
        assert!(ledger.page(Some("starting_after=pay_nope")).is_err());
    }

    #[test]
    fn the_ledger_is_bounded_but_counts_everything() {
        let ledger = Ledger::default();
        for _ in 0..MAX_KEPT_PAYMENTS + 3 {
            ledger.create(pay(1));
        }
        assert_eq!(ledger.count(), MAX_KEPT_PAYMENTS + 3);
        assert_eq!(ledger.page(None).unwrap().count, MAX_KEPT_PAYMENTS);
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
}
