//! The payments ledger: what the reference API "charges", so side effects can be counted.
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

impl Payment {
    /// Charges: a new payment with an id unique across instances (random), not yet recorded.
    pub fn charge(request: NewPayment) -> Payment {
        let suffix: String = rand::rng().sample_iter(&Alphanumeric).take(24).map(char::from).collect();
        Payment {
            id: format!("pay_{suffix}"),
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

/// Every payment created since start-up, in order.
#[derive(Default)]
pub struct Ledger {
    payments: Mutex<Vec<Payment>>,
}

impl Ledger {
    fn payments(&self) -> std::sync::MutexGuard<'_, Vec<Payment>> {
        self.payments.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Records a payment made by `Payment::charge`.
    pub fn record(&self, payment: Payment) {
        self.payments().push(payment);
    }

    pub fn get(&self, id: &str) -> Option<Payment> {
        self.payments().iter().find(|payment| payment.id == id).cloned()
    }

    pub fn list(&self) -> Vec<Payment> {
        self.payments().clone()
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
