//! Idempotency keys: generated fresh per logical request, or fixed by the user.

/// `--key-format`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum KeyFormat {
    /// Random UUID v4, what most client libraries send.
    #[default]
    Uuid4,
    /// Time-ordered UUID v7, friendlier to database indexes.
    Uuid7,
}

/// How each logical request gets its key.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum KeyPolicy {
    /// A fresh key per logical request.
    Generate(KeyFormat),
    /// The user's key, used as given.
    Fixed(String),
    /// No key header at all (a control).
    Omit,
}

impl KeyPolicy {
    /// The key for the next logical request, or `None` when keys are omitted.
    pub fn next_key(&self) -> Option<String> {
        match self {
            KeyPolicy::Generate(format) => Some(generate(*format)),
            KeyPolicy::Fixed(key) => Some(key.clone()),
            KeyPolicy::Omit => None,
        }
    }
}

pub(crate) fn generate(format: KeyFormat) -> String {
    match format {
        KeyFormat::Uuid4 => uuid::Uuid::new_v4().to_string(),
        KeyFormat::Uuid7 => uuid::Uuid::now_v7().to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn generated_keys_are_fresh_uuids_of_the_asked_version() {
        let a = generate(KeyFormat::Uuid4);
        assert_ne!(a, generate(KeyFormat::Uuid4));
        assert_eq!(uuid::Uuid::parse_str(&a).unwrap().get_version_num(), 4);
        let b = generate(KeyFormat::Uuid7);
        assert_eq!(uuid::Uuid::parse_str(&b).unwrap().get_version_num(), 7);
    }

    #[test]
    fn policies() {
        assert_eq!(KeyPolicy::Fixed("k".into()).next_key().as_deref(), Some("k"));
        assert_eq!(KeyPolicy::Omit.next_key(), None);
    }
}
