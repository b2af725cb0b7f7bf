//! Random identifiers for what the tools create: delivery and event ids, payment ids.
use rand::Rng;
use rand::distr::Alphanumeric;

/// `prefix` + 24 random letters and digits (about 143 bits): the shape Stripe (`evt_…`, `pay_…`)
/// and Svix (`msg_…`) ids have.
pub(crate) fn fresh_id(prefix: &str) -> String {
    let suffix: String = rand::rng().sample_iter(Alphanumeric).take(24).map(char::from).collect();
    format!("{prefix}{suffix}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fresh_ids_are_prefixed_and_distinct() {
        let (a, b) = (fresh_id("evt_"), fresh_id("evt_"));
        assert!(a.starts_with("evt_") && a.len() == 28);
        assert_ne!(a, b);
    }
}
