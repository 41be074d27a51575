//! Scratch memory for compiled routines: `smelt_scratch_alloc` and
//! `smelt_scratch_free`, which generated GEMM and convolution drivers call for
//! their packed operands.
//!
//! A large product packs all of B before it multiplies (64 MiB for a `[4096]^3`
//! f32 GEMM). From the system allocator that block is fresh pages on every call:
//! each page faults and is zeroed by the kernel before the packing writes it,
//! and with 4 KiB pages the microkernel's sweeps over a 1 MiB block cross 256
//! TLB entries. Here freed blocks of [`KEEP_MIN`] bytes or more are kept (up to
//! [`KEEP_BYTES`] in all, [`KEEP_SLOTS`] blocks) and handed to the next request
//! they fit without wasting more than half of them, and fresh large blocks ask
//! for transparent huge pages. Smaller requests go straight to the system
//! allocator.
//!
//! Each block carries a 64-byte header holding its layout, so the free needs
//! only the pointer (AOT objects define both functions over `aligned_alloc`
//! and `free`, with the same signatures).

use std::alloc::{Layout, alloc, dealloc};
use std::sync::{Mutex, PoisonError};

/// The symbol generated code calls to allocate: `ptr (i64 bytes)`, 64-byte
/// aligned, null when memory runs out.
pub const ALLOC_SYMBOL: &str = "smelt_scratch_alloc";
/// The symbol generated code calls to release a block: `void (ptr)`.
pub const FREE_SYMBOL: &str = "smelt_scratch_free";

/// Blocks smaller than this are not kept.
pub const KEEP_MIN: usize = 1 << 20;
/// The most bytes kept at once.
pub const KEEP_BYTES: usize = 512 << 20;
/// The most blocks kept at once.
pub const KEEP_SLOTS: usize = 16;

const HEADER: usize = 64;
const HUGE_PAGE: usize = 2 << 20;

/// A kept block: its start (the header) and total size.
#[derive(Clone, Copy)]
struct Kept {
    start: usize,
    size: usize,
}

struct Pool {
    kept: Vec<Kept>,
    bytes: usize,
}

static POOL: Mutex<Pool> = Mutex::new(Pool { kept: Vec::new(), bytes: 0 });

/// The layout of a block with room for `bytes` after the header.
fn layout(bytes: usize) -> Option<Layout> {
    let size = bytes.checked_add(HEADER)?.checked_next_multiple_of(64)?;
    let align = if size >= KEEP_MIN { HUGE_PAGE } else { 64 };
    Layout::from_size_align(size, align).ok()
}

/// Asks for transparent huge pages over a fresh block (a hint: failure
/// changes nothing).
fn advise_huge_pages(start: *mut u8, size: usize) {
    #[cfg(target_os = "linux")]
    if size >= HUGE_PAGE {
        // SAFETY: the range is the block just allocated; MADV_HUGEPAGE does not
        // change its contents or validity.
        unsafe { libc::madvise(start.cast(), size & !(HUGE_PAGE - 1), libc::MADV_HUGEPAGE) };
    }
    #[cfg(not(target_os = "linux"))]
    let _ = (start, size);
}

/// Takes the smallest kept block of at least `size` bytes and at most twice that.
fn take(size: usize) -> Option<Kept> {
    let mut pool = POOL.lock().unwrap_or_else(PoisonError::into_inner);
    let at = (0..pool.kept.len())
        .filter(|&i| pool.kept[i].size >= size && pool.kept[i].size / 2 <= size)
        .min_by_key(|&i| pool.kept[i].size)?;
    let k = pool.kept.remove(at);
    pool.bytes -= k.size;
    Some(k)
}

/// Keeps a freed block, releasing the oldest ones to make room; false when it
/// is not to be kept.
fn keep(start: usize, size: usize) -> bool {
    if !(KEEP_MIN..=KEEP_BYTES).contains(&size) {
        return false;
    }
    let mut released = Vec::new();
    {
        let mut pool = POOL.lock().unwrap_or_else(PoisonError::into_inner);
        while pool.kept.len() >= KEEP_SLOTS || pool.bytes + size > KEEP_BYTES {
            let old = pool.kept.remove(0);
            pool.bytes -= old.size;
            released.push(old);
        }
        pool.kept.push(Kept { start, size });
        pool.bytes += size;
    }
    for k in released {
        release(k.start, k.size);
    }
    true
}

/// Returns a block to the system allocator.
fn release(start: usize, size: usize) {
    if let Some(l) = layout(size - HEADER) {
        // SAFETY: `start` was allocated by `smelt_scratch_alloc` with this layout.
        unsafe { dealloc(start as *mut u8, l) };
    }
}

/// Returns 64-byte aligned memory for `bytes` bytes (at least one), or null.
#[unsafe(no_mangle)]
pub extern "C" fn smelt_scratch_alloc(bytes: i64) -> *mut u8 {
    let Some(l) = usize::try_from(bytes.max(1)).ok().and_then(layout) else {
        return std::ptr::null_mut();
    };
    let block = match (l.size() >= KEEP_MIN).then(|| take(l.size())).flatten() {
        Some(k) => k,
        None => {
            // SAFETY: the layout has a nonzero size.
            let p = unsafe { alloc(l) };
            if p.is_null() {
                return p;
            }
            advise_huge_pages(p, l.size());
            Kept { start: p as usize, size: l.size() }
        }
    };
    let start = block.start as *mut u8;
    // SAFETY: the block holds the header and then at least `bytes` bytes; the
    // header records the block's size for the free.
    unsafe {
        start.cast::<usize>().write(block.size);
        start.add(HEADER)
    }
}

/// Releases a block from [`smelt_scratch_alloc`] (null is ignored).
///
/// # Safety
/// `p` is null or came from `smelt_scratch_alloc` and is not used afterwards.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn smelt_scratch_free(p: *mut u8) {
    if p.is_null() {
        return;
    }
    // SAFETY: the header precedes the pointer and holds the block's size.
    let (start, size) = unsafe {
        let start = p.sub(HEADER);
        (start, start.cast::<usize>().read())
    };
    if !keep(start as usize, size) {
        release(start as usize, size);
    }
}

/// Addresses of the two functions, for a JIT's symbol table.
pub fn symbols() -> [(&'static str, usize); 2] {
    [(ALLOC_SYMBOL, smelt_scratch_alloc as *const () as usize), (FREE_SYMBOL, smelt_scratch_free as *const () as usize)]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blocks_are_aligned_writable_and_reused() {
        let small = smelt_scratch_alloc(100);
        assert!(!small.is_null() && (small as usize).is_multiple_of(64));
        unsafe { small.write_bytes(7, 100) };
        unsafe { smelt_scratch_free(small) };

        let big = 3 << 20;
        let a = smelt_scratch_alloc(big);
        assert!(!a.is_null() && (a as usize).is_multiple_of(64));
        unsafe { a.write_bytes(1, big as usize) };
        unsafe { smelt_scratch_free(a) };
        // A slightly smaller request reuses the kept block (other tests in this
        // process use other sizes, far from this one).
        let b = smelt_scratch_alloc(big - 4096);
        assert_eq!(a, b);
        unsafe { b.write_bytes(2, big as usize) };
        // A block far smaller than a kept one does not take it.
        unsafe { smelt_scratch_free(b) };
        let c = smelt_scratch_alloc(KEEP_MIN as i64 + 1);
        assert_ne!(c, b);
        unsafe { smelt_scratch_free(c) };
        unsafe { smelt_scratch_free(std::ptr::null_mut()) };
        assert!(smelt_scratch_alloc(i64::MAX).is_null());
    }
}
