//! A global allocator that keeps large freed blocks for reuse.
//!
//! Every run of a compiled program returns fresh output arrays, and dropping them
//! frees their memory. The system allocator returns large blocks to the operating
//! system (or trims them off the top of its heap), so the next run's outputs land
//! on fresh pages again: each page faults and is zeroed by the kernel when first
//! written, which can cost more than the kernel that writes it (a fresh 16 MiB
//! output took about 1 ms to fault in with transparent huge pages and 10 ms
//! without, on the 2-core machine the benchmarks run on, against 0.3 ms to
//! overwrite warm memory).
//!
//! [`BlockCache`] keeps up to [`CACHE_BYTES`] of freed blocks of at least
//! [`MIN_BLOCK`] bytes, at most [`SLOTS`] of them, and hands a kept block to the
//! next allocation of exactly the same size and alignment (zeroing it first for
//! `alloc_zeroed`); when full, it drops the oldest blocks. Everything else goes
//! straight to the system allocator. The `smelt` binary installs it as its global
//! allocator, so repeated runs (`smelt bench`) reuse warm memory; programs that
//! embed smelt pick their own allocator.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::{Mutex, PoisonError};

/// Blocks smaller than this are not kept.
pub const MIN_BLOCK: usize = 1 << 20;
/// The alignment large blocks get at least: a cache line, so a kernel's
/// 64-byte vectors over an array's start never straddle two lines (the
/// system allocator aligns large blocks to 16 bytes only).
pub const BLOCK_ALIGN: usize = 64;
/// The most bytes kept at once.
pub const CACHE_BYTES: usize = 1 << 30;
/// The most blocks kept at once.
pub const SLOTS: usize = 64;

/// A kept block: address, size and alignment of its layout, and when it was
/// freed (a counter).
#[derive(Clone, Copy)]
struct Slot {
    ptr: usize,
    size: usize,
    align: usize,
    age: u64,
}

const EMPTY: Slot = Slot { ptr: 0, size: 0, align: 0, age: 0 };

struct Cache {
    slots: [Slot; SLOTS],
    bytes: usize,
    clock: u64,
}

static CACHE: Mutex<Cache> = Mutex::new(Cache { slots: [EMPTY; SLOTS], bytes: 0, clock: 0 });

/// The global allocator described in the module documentation.
#[derive(Clone, Copy, Debug, Default)]
pub struct BlockCache;

impl BlockCache {
    /// A kept block for `layout`, the most recently freed one.
    fn take(layout: Layout) -> Option<*mut u8> {
        // Locking never allocates, and nothing below panics.
        let mut c = CACHE.lock().unwrap_or_else(PoisonError::into_inner);
        let found = c
            .slots
            .iter()
            .enumerate()
            .filter(|(_, s)| s.ptr != 0 && s.size == layout.size() && s.align == layout.align())
            .max_by_key(|(_, s)| s.age)
            .map(|(i, _)| i)?;
        let s = std::mem::replace(&mut c.slots[found], EMPTY);
        c.bytes -= s.size;
        Some(s.ptr as *mut u8)
    }

    /// Keeps a freed block, making room by releasing the oldest ones; false if
    /// it is too large to keep.
    fn keep(ptr: *mut u8, layout: Layout) -> bool {
        if layout.size() > CACHE_BYTES {
            return false;
        }
        let mut c = CACHE.lock().unwrap_or_else(PoisonError::into_inner);
        loop {
            let full = c.bytes + layout.size() > CACHE_BYTES || c.slots.iter().all(|s| s.ptr != 0);
            if !full {
                break;
            }
            let Some(oldest) = (0..SLOTS).filter(|&i| c.slots[i].ptr != 0).min_by_key(|&i| c.slots[i].age) else {
                return false;
            };
            let s = std::mem::replace(&mut c.slots[oldest], EMPTY);
            c.bytes -= s.size;
            // SAFETY: the block came from `System` with the system layout of
            // this one and is no longer in the cache.
            unsafe {
                System.dealloc(s.ptr as *mut u8, system_layout(Layout::from_size_align_unchecked(s.size, s.align)))
            };
        }
        let Some(free) = c.slots.iter().position(|s| s.ptr == 0) else {
            return false;
        };
        c.clock += 1;
        let age = c.clock;
        c.slots[free] = Slot { ptr: ptr as usize, size: layout.size(), align: layout.align(), age };
        c.bytes += layout.size();
        true
    }
}

/// The layout a block of `layout` is asked of `System` with: large blocks
/// aligned to at least [`BLOCK_ALIGN`]. It depends on the size and alignment
/// alone, so a block goes back with the layout it came with.
fn system_layout(layout: Layout) -> Layout {
    if layout.size() >= MIN_BLOCK && layout.align() < BLOCK_ALIGN {
        // SAFETY: BLOCK_ALIGN is a power of two, and rounding a size of at
        // least MIN_BLOCK up to it cannot overflow (`Layout` bounds sizes).
        unsafe { Layout::from_size_align_unchecked(layout.size(), BLOCK_ALIGN) }
    } else {
        layout
    }
}

// SAFETY: every block handed out comes from `System` (directly, or kept after a
// `dealloc` with a layout of the same size and alignment, and handed out once),
// with its [`system_layout`]; blocks go back to `System` with that layout.
unsafe impl GlobalAlloc for BlockCache {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if layout.size() >= MIN_BLOCK
            && let Some(p) = BlockCache::take(layout)
        {
            return p;
        }
        // SAFETY: the caller's contract (a layout of non-zero size).
        unsafe { System.alloc(system_layout(layout)) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        if layout.size() >= MIN_BLOCK
            && let Some(p) = BlockCache::take(layout)
        {
            // SAFETY: a kept block holds `layout.size()` writable bytes.
            unsafe { std::ptr::write_bytes(p, 0, layout.size()) };
            return p;
        }
        // SAFETY: the caller's contract.
        unsafe { System.alloc_zeroed(system_layout(layout)) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        if layout.size() >= MIN_BLOCK && BlockCache::keep(ptr, layout) {
            return;
        }
        // SAFETY: `ptr` came from `System` with this layout's system layout (see above).
        unsafe { System.dealloc(ptr, system_layout(layout)) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        if layout.size() < MIN_BLOCK && new_size < MIN_BLOCK {
            // SAFETY: the caller's contract; small blocks are `System`'s alone.
            return unsafe { System.realloc(ptr, layout, new_size) };
        }
        // SAFETY: the caller's contract: `new_size` with the old alignment is a
        // valid layout.
        let new_layout = unsafe { Layout::from_size_align_unchecked(new_size, layout.align()) };
        // SAFETY: as for `alloc` and `dealloc`; the blocks do not overlap.
        unsafe {
            let new = self.alloc(new_layout);
            if !new.is_null() {
                std::ptr::copy_nonoverlapping(ptr, new, layout.size().min(new_size));
                self.dealloc(ptr, layout);
            }
            new
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn freed_large_blocks_come_back_for_the_same_layout() {
        // Sizes no other test (or the test harness) uses.
        let a = Layout::from_size_align(MIN_BLOCK + 4096 * 7, 64).unwrap_or_else(|e| panic!("{e}"));
        let b = Layout::from_size_align(MIN_BLOCK + 4096 * 11, 64).unwrap_or_else(|e| panic!("{e}"));
        let alloc = BlockCache;
        // SAFETY: the layouts are valid; every block is freed with its layout.
        unsafe {
            let p = alloc.alloc(a);
            assert!(!p.is_null());
            p.write_bytes(7, a.size());
            alloc.dealloc(p, a);
            // Same layout: the kept block; zeroed when asked.
            let q = alloc.alloc_zeroed(a);
            assert_eq!(q, p);
            assert!(std::slice::from_raw_parts(q, a.size()).iter().all(|&x| x == 0));
            // Another size: a block of its own.
            let r = alloc.alloc(b);
            assert!(!r.is_null() && r != q);
            // Growing a large block keeps its contents.
            q.write_bytes(3, a.size());
            let g = alloc.realloc(q, a, b.size());
            assert!(std::slice::from_raw_parts(g, a.size()).iter().all(|&x| x == 3));
            alloc.dealloc(g, b);
            alloc.dealloc(r, b);
            // Large blocks are cache-line aligned, whatever their type asks.
            let c = Layout::from_size_align(MIN_BLOCK + 4096 * 5 + 4, 4).unwrap_or_else(|e| panic!("{e}"));
            let u = alloc.alloc(c);
            assert!(!u.is_null() && (u as usize).is_multiple_of(BLOCK_ALIGN));
            alloc.dealloc(u, c);
            // Small blocks pass through.
            let s = Layout::from_size_align(100, 8).unwrap_or_else(|e| panic!("{e}"));
            let t = alloc.alloc(s);
            assert!(!t.is_null());
            alloc.dealloc(t, s);
        }
    }

    #[test]
    fn the_cache_stays_within_its_bounds() {
        let alloc = BlockCache;
        let l = Layout::from_size_align(MIN_BLOCK + 4096 * 13, 4096).unwrap_or_else(|e| panic!("{e}"));
        // SAFETY: as above.
        unsafe {
            let blocks: Vec<*mut u8> = (0..SLOTS + 8).map(|_| alloc.alloc(l)).collect();
            assert!(blocks.iter().all(|p| !p.is_null()));
            for &p in &blocks {
                alloc.dealloc(p, l);
            }
        }
        let c = CACHE.lock().unwrap_or_else(PoisonError::into_inner);
        assert!(c.bytes <= CACHE_BYTES);
        assert!(c.slots.iter().filter(|s| s.ptr != 0).count() <= SLOTS);
        let kept: usize = c.slots.iter().map(|s| s.size).sum();
        assert_eq!(kept, c.bytes);
    }
}
