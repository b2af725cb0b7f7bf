//! Locks that survive a panic elsewhere. A panicking request handler poisons the mutex it held; the
//! data behind our mutexes (counters, queues, tables) stays consistent at every await-free step, so
//! the server keeps going with it instead of failing every later request.
use std::sync::{Mutex, MutexGuard};

/// Locks `mutex`, taking the data over if an earlier holder panicked.
pub(crate) fn lock<T: ?Sized>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_poisoned_lock_still_opens() {
        let mutex = std::sync::Arc::new(Mutex::new(1));
        let holder = std::sync::Arc::clone(&mutex);
        let _ = std::thread::spawn(move || {
            let _guard = holder.lock();
            panic!("poison it");
        })
        .join();
        assert!(mutex.is_poisoned());
        *lock(&mutex) += 1;
        assert_eq!(*lock(&mutex), 2);
    }
}
