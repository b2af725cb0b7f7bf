//! `--order as-is|reverse|shuffle [--seed N]`: the order several deliveries go out in. Providers
//! do not promise order (they deliver concurrently and retry failures later), so a receiver must
//! cope with `updated` before `created`; this makes that happen on demand, reproducibly.
use rand::SeedableRng;
use rand::rngs::StdRng;
use rand::seq::SliceRandom;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum DeliveryOrder {
    /// In the order given (the file's, for replay)
    #[default]
    AsIs,
    /// Last first
    Reverse,
    /// A random order; --seed makes it repeatable
    Shuffle,
}

/// The order and, for a shuffle, its seed (`None`: a fresh one, reported so it can be repeated).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct OrderOptions {
    pub order: DeliveryOrder,
    pub seed: Option<u64>,
}

impl OrderOptions {
    /// Puts `items` in the chosen order; returns the seed a shuffle used.
    pub fn arrange<T>(self, items: &mut [T]) -> Option<u64> {
        match self.order {
            DeliveryOrder::AsIs => None,
            DeliveryOrder::Reverse => {
                items.reverse();
                None
            }
            DeliveryOrder::Shuffle => {
                let seed = self.seed.unwrap_or_else(rand::random);
                items.shuffle(&mut StdRng::seed_from_u64(seed));
                Some(seed)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn orders_arrange_and_a_seed_repeats_a_shuffle() {
        let arranged = |order, seed| {
            let mut items: Vec<u32> = (0..20).collect();
            let used = OrderOptions { order, seed }.arrange(&mut items);
            (items, used)
        };
        assert_eq!(arranged(DeliveryOrder::AsIs, None).0, (0..20).collect::<Vec<_>>());
        assert_eq!(arranged(DeliveryOrder::Reverse, None).0, (0..20).rev().collect::<Vec<_>>());
        let (first, seed) = arranged(DeliveryOrder::Shuffle, Some(7));
        assert_eq!(seed, Some(7));
        assert_eq!(arranged(DeliveryOrder::Shuffle, Some(7)).0, first);
        assert_ne!(first, (0..20).collect::<Vec<_>>());
        let (_, fresh) = arranged(DeliveryOrder::Shuffle, None);
        assert!(fresh.is_some());
    }
}
