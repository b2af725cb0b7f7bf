//! The open operations by their number, without a hash table: numbers are given out in order and
//! operations end roughly in that order, so they sit in a ring indexed from the oldest one still
//! held. A lookup is an index, not a hash and a probe into a table of a window's size (a cache
//! miss per request under load), and a slot is 8 bytes where the table took 17 and doubled.
//!
//! One operation can outlive the rest by far (a client retrying one key for as long as the run
//! lasts): the ring would then keep every slot after it, emptied or not. Once the ring holds more
//! than twice as many slots as values, past a floor, its oldest value moves aside into a map, so
//! the ring stays within a small multiple of what is open.
use std::collections::{HashMap, VecDeque};

/// The floor under which the ring is left as long as it is.
const RING_FLOOR: usize = 1024;

/// Values by their number, for numbers given out in increasing order.
#[derive(Debug)]
pub(crate) struct ByNumber<T> {
    /// The number of `ring[0]`.
    base: usize,
    ring: VecDeque<Option<T>>,
    /// Values older than `base` that were still held when the ring moved on.
    aside: HashMap<usize, T>,
    len: usize,
}

impl<T> Default for ByNumber<T> {
    fn default() -> Self {
        ByNumber { base: 0, ring: VecDeque::new(), aside: HashMap::new(), len: 0 }
    }
}

impl<T> ByNumber<T> {
    /// Holds `value` as `number`, which is higher than every number inserted before.
    pub(crate) fn insert(&mut self, number: usize, value: T) {
        if self.ring.is_empty() {
            self.base = number;
        }
        let Some(offset) = number.checked_sub(self.base) else {
            // Lower than the ring's start: not a number in order, but still kept.
            self.len += usize::from(self.aside.insert(number, value).is_none());
            return;
        };
        while self.ring.len() < offset {
            self.ring.push_back(None);
        }
        match self.ring.get_mut(offset) {
            Some(slot) => {
                self.len += usize::from(slot.is_none());
                *slot = Some(value);
            }
            None => {
                self.ring.push_back(Some(value));
                self.len += 1;
            }
        }
    }

    pub(crate) fn get(&self, number: usize) -> Option<&T> {
        match number.checked_sub(self.base) {
            Some(offset) => self.ring.get(offset)?.as_ref(),
            None => self.aside.get(&number),
        }
    }

    pub(crate) fn get_mut(&mut self, number: usize) -> Option<&mut T> {
        match number.checked_sub(self.base) {
            Some(offset) => self.ring.get_mut(offset)?.as_mut(),
            None => self.aside.get_mut(&number),
        }
    }

    pub(crate) fn remove(&mut self, number: usize) -> Option<T> {
        let removed = match number.checked_sub(self.base) {
            Some(offset) => self.ring.get_mut(offset)?.take(),
            None => self.aside.remove(&number),
        };
        if removed.is_some() {
            self.len -= 1;
            self.trim();
        }
        removed
    }

    pub(crate) fn len(&self) -> usize {
        self.len
    }

    /// Every value held, in no particular order.
    pub(crate) fn values(&self) -> impl Iterator<Item = &T> {
        self.ring.iter().flatten().chain(self.aside.values())
    }

    /// Drops the emptied slots at the ring's front, and moves the oldest value aside while the
    /// ring is mostly empty slots.
    fn trim(&mut self) {
        loop {
            while let Some(None) = self.ring.front() {
                self.ring.pop_front();
                self.base += 1;
            }
            let in_ring = self.len - self.aside.len();
            if self.ring.len() <= RING_FLOOR.max(2 * in_ring) {
                return;
            }
            if let Some(Some(oldest)) = self.ring.pop_front() {
                self.aside.insert(self.base, oldest);
            }
            self.base += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_are_found_by_number_until_removed() {
        let mut held = ByNumber::default();
        for number in 1..=10 {
            held.insert(number, number * 100);
        }
        assert_eq!((held.len(), held.get(3), held.get(11), held.get(0)), (10, Some(&300), None, None));
        assert_eq!(held.remove(1), Some(100));
        assert_eq!(held.remove(1), None);
        *held.get_mut(5).unwrap() += 1;
        assert_eq!(held.remove(5), Some(501));
        assert_eq!((held.len(), held.get(2), held.get(1)), (8, Some(&200), None));
        let mut values: Vec<usize> = held.values().copied().collect();
        values.sort_unstable();
        assert_eq!(values, [200, 300, 400, 600, 700, 800, 900, 1000]);
    }

    #[test]
    fn one_value_held_for_ever_does_not_hold_the_ring() {
        let mut held = ByNumber::default();
        held.insert(1, "kept");
        for number in 2..100_000 {
            held.insert(number, "passing");
            if number > 11 {
                held.remove(number - 10);
            }
        }
        assert_eq!(held.len(), 11);
        assert!(held.ring.len() <= RING_FLOOR, "{} slots for 11 values", held.ring.len());
        assert_eq!(held.get(1), Some(&"kept"));
        assert_eq!(held.remove(1), Some("kept"));
        assert_eq!((held.len(), held.get(99_999)), (10, Some(&"passing")));
    }

    #[test]
    fn an_emptied_ring_starts_again_at_the_next_number() {
        let mut held = ByNumber::default();
        held.insert(7, 'a');
        assert_eq!(held.remove(7), Some('a'));
        held.insert(9, 'b');
        assert_eq!((held.get(9), held.get(8), held.len()), (Some(&'b'), None, 1));
    }
}
