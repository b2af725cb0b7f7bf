//! The global allocator of both binaries: mimalloc, asked the way its fast path expects.
//!
//! The `mimalloc` crate's allocator passes every request to `mi_malloc_aligned`, alignment and
//! all. mimalloc 3 serves such a request from the free list of the size's page when that list's
//! next block happens to be aligned; once the page runs dry, a size that is not a power of two
//! (224 bytes, hyper's body channel) falls back to over-allocation, which takes a block of a larger
//! size and never refills the page of its own. From then on every such allocation takes the slow
//! path: under load about two per delivery in `webhook listen`, ~200 instructions each, and every
//! free of one takes the slow path as well (the block is freed by an interior pointer).
//!
//! Every mimalloc block is aligned to a machine word, so a request for no more than that is a plain
//! `mi_malloc`; only larger alignments (cache-padded structures) go through the aligned calls.
use std::alloc::{GlobalAlloc, Layout};
use std::ffi::c_void;

use libmimalloc_sys as mi;

/// Every block mimalloc hands out is aligned to this (its smallest block is one word).
const WORD: usize = std::mem::size_of::<usize>();

/// mimalloc, with plain calls for word-aligned requests (nearly all of them).
pub struct Allocator;

// SAFETY: each method forwards to the mimalloc call with the same contract: a block of at least
// `layout.size()` bytes aligned to `layout.align()` (the plain calls only when the alignment is at
// most a word, which every mimalloc block has), or null; blocks from any of them are freed by
// `mi_free` and resized by `mi_realloc`/`mi_realloc_aligned`.
unsafe impl GlobalAlloc for Allocator {
    #[inline]
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: see the impl.
        unsafe { by_alignment(layout, mi::mi_malloc, mi::mi_malloc_aligned) }
    }

    #[inline]
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: see the impl.
        unsafe { by_alignment(layout, mi::mi_zalloc, mi::mi_zalloc_aligned) }
    }

    #[inline]
    unsafe fn dealloc(&self, ptr: *mut u8, _layout: Layout) {
        // SAFETY: `ptr` came from one of the calls above.
        unsafe { mi::mi_free(ptr.cast::<c_void>()) }
    }

    #[inline]
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: see the impl; the block keeps its alignment.
        unsafe {
            if layout.align() <= WORD {
                mi::mi_realloc(ptr.cast::<c_void>(), new_size).cast()
            } else {
                mi::mi_realloc_aligned(ptr.cast::<c_void>(), new_size, layout.align()).cast()
            }
        }
    }
}

/// A block for `layout` from `plain` when a word's alignment is enough, else from `aligned`.
///
/// # Safety
/// `plain` and `aligned` must be mimalloc's allocation calls, which take any size.
#[inline(always)]
unsafe fn by_alignment(
    layout: Layout,
    plain: unsafe extern "C" fn(usize) -> *mut c_void,
    aligned: unsafe extern "C" fn(usize, usize) -> *mut c_void,
) -> *mut u8 {
    // SAFETY: the caller passes mimalloc's calls; each returns a block of the size and alignment
    // asked (a word's for the plain one), or null.
    unsafe { if layout.align() <= WORD { plain(layout.size()) } else { aligned(layout.size(), layout.align()) }.cast() }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every size around the small size classes, at every alignment from 1 to 4 KiB: the block is
    /// aligned, writable to its last byte, keeps its bytes through a resize, and zeroed when asked.
    #[test]
    fn blocks_are_aligned_writable_and_keep_their_bytes() {
        let allocator = Allocator;
        let sizes = (1..=300).chain([511, 512, 1000, 4096, 5000, 70_000, 1 << 20]);
        for size in sizes {
            for align in [1, 2, 4, 8, 16, 32, 64, 128, 4096] {
                let layout = Layout::from_size_align(size, align).unwrap();
                // SAFETY: a non-zero size; every block is freed once, with its layout.
                unsafe {
                    let block = allocator.alloc(layout);
                    assert!(!block.is_null());
                    assert_eq!(block as usize % align, 0, "size {size}, align {align}");
                    for at in 0..size {
                        block.add(at).write(at as u8);
                    }
                    let grown = allocator.realloc(block, layout, size * 3);
                    assert_eq!(grown as usize % align, 0, "grown: size {size}, align {align}");
                    assert!((0..size).all(|at| grown.add(at).read() == at as u8), "size {size}, align {align}");
                    allocator.dealloc(grown, Layout::from_size_align(size * 3, align).unwrap());

                    let zeroed = allocator.alloc_zeroed(layout);
                    assert_eq!(zeroed as usize % align, 0, "zeroed: size {size}, align {align}");
                    assert!((0..size).all(|at| zeroed.add(at).read() == 0), "size {size}, align {align}");
                    allocator.dealloc(zeroed, layout);
                }
            }
        }
    }
}
