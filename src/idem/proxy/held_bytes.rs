//! How many bytes the proxy holds per open operation, counted by the allocator: a window's worth
//! of operations is what `idem proxy` in front of a load test keeps in memory (190k at 38k
//! requests/s with `--window 5s`), so the bound is on bytes, not on wall-clock.
use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::time::{Duration, Instant};

use bytes::Bytes;
use http::{HeaderMap, Method};

use crate::idem::proxy::answer::UpstreamAnswer;
use crate::idem::proxy::operations::{Arrival, Operations};
use crate::idem::proxy::records::Operation;
use crate::idem::request::IdSource;
use crate::idem::verdict::Observed;

/// The system allocator, counting the bytes each thread holds (allocated minus freed), so a test
/// can measure what it built without the other tests' threads in the figure.
struct Counting;

thread_local! {
    static HELD: Cell<isize> = const { Cell::new(0) };
}

fn count(bytes: isize) {
    // Not available while the thread is torn down: nothing is measured then.
    let _ = HELD.try_with(|held| held.set(held.get() + bytes));
}

// SAFETY: forwards to the system allocator with the same layouts; only counts.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count(layout.size() as isize);
        // SAFETY: as the caller's contract.
        unsafe { System.alloc(layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        count(layout.size() as isize);
        // SAFETY: as the caller's contract.
        unsafe { System.alloc_zeroed(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        count(-(layout.size() as isize));
        // SAFETY: as the caller's contract.
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count(new_size as isize - layout.size() as isize);
        // SAFETY: as the caller's contract.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static COUNTING: Counting = Counting;

fn held() -> isize {
    HELD.with(Cell::get)
}

/// The bytes held per operation once `operations` judged POSTs are open, each with its own
/// UUID-long key, the bench's request body and a JSON answer with a resource id.
fn bytes_per_operation(operations: usize) -> f64 {
    let before = held();
    let mut ops = Operations::new(Duration::from_secs(5));
    let ids = IdSource { field: "/id".into(), header: None };
    let start = Instant::now();
    let body = Bytes::from_static(br#"{"amount":1990,"currency":"RUB"}"#);
    for n in 0..operations {
        let now = start + Duration::from_micros(n as u64);
        let key = format!("{n:08x}-9f3c-4b1e-8a55-0c2d7e6f1a9b");
        let at = ops.arrive(Arrival { method: &Method::POST, path: "/payments", key: Some(&key), body: &body }, now);
        let answer = format!(r#"{{"id":"pay_{n:010}","object":"payment","amount":1990,"currency":"RUB"}}"#);
        let kept =
            UpstreamAnswer::keep(&Observed::answer(200, &HeaderMap::new(), Bytes::from(answer), &ids), at.quote_body);
        let finished = ops.clock().stamp(now);
        let attempt = ops.attempt_mut(at).expect("open");
        attempt.upstream = Some(kept);
        attempt.client_status = Some(200);
        attempt.finished = Some(finished);
        ops.finished(at);
    }
    assert_eq!(ops.open_count(), operations, "all within the window");
    let per_operation = (held() - before) as f64 / operations as f64;
    drop(ops);
    per_operation
}

#[test]
fn an_open_operation_holds_about_300_bytes() {
    // One allocation per operation (boxed, its first attempt inline) in mimalloc's 192-byte class.
    assert!(std::mem::size_of::<Operation>() <= 192, "{} bytes", std::mem::size_of::<Operation>());
    // The tables' slots per operation vary with their load: most just after they double (14,400
    // and 57,400 operations), least just before (28,000).
    for (operations, bound) in [(14_400, 320.0), (28_000, 300.0), (57_400, 320.0)] {
        let per_operation = bytes_per_operation(operations);
        assert!(per_operation <= bound, "{operations} operations: {per_operation:.0} bytes each (at most {bound})");
    }
}
