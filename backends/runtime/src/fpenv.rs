//! The floating-point environment compiled programs run in: XLA CPU's, with
//! subnormal operands read as zero (DAZ) and subnormal results written as
//! zero (FTZ).
//!
//! XLA CPU sets both for every run, and results differ where it matters
//! (`log(1e-40)` is `-inf`, `1e-40 > 0` is false); the interpreter models the
//! same rule in software (`smelt_interp`'s `edge` module), so every backend
//! agrees with it. [`FlushSubnormals::enter`] sets the mode on the calling
//! thread for the life of the guard and restores the caller's state when it is
//! dropped; the thread pool's workers set it once, when they start, since they
//! run nothing but generated code. On x86-64 the bits are MXCSR's FTZ (15)
//! and DAZ (6); on AArch64, FPCR.FZ (24), which flushes both. Other targets
//! compute with subnormals.

/// MXCSR's flush-to-zero and denormals-are-zero bits.
#[cfg(target_arch = "x86_64")]
const MXCSR_FTZ_DAZ: u32 = (1 << 15) | (1 << 6);
/// FPCR's flush-to-zero bit.
#[cfg(target_arch = "aarch64")]
const FPCR_FZ: u64 = 1 << 24;

/// The thread's floating-point control word.
#[cfg(target_arch = "x86_64")]
fn control() -> u64 {
    let mut word = 0u32;
    // SAFETY: stmxcsr stores the 4-byte control register into `word`.
    unsafe { std::arch::asm!("stmxcsr [{}]", in(reg) &mut word, options(nostack, preserves_flags)) };
    word as u64
}

#[cfg(target_arch = "x86_64")]
fn set_control(word: u64) {
    let word = word as u32;
    // SAFETY: ldmxcsr loads a control word read from this thread with only the
    // FTZ/DAZ bits changed, both of which are valid in every state.
    unsafe { std::arch::asm!("ldmxcsr [{}]", in(reg) &word, options(nostack, preserves_flags, readonly)) };
}

#[cfg(target_arch = "x86_64")]
fn flushing(word: u64) -> u64 {
    word | MXCSR_FTZ_DAZ as u64
}

#[cfg(target_arch = "aarch64")]
fn control() -> u64 {
    let word: u64;
    // SAFETY: reads FPCR.
    unsafe { std::arch::asm!("mrs {}, fpcr", out(reg) word, options(nomem, nostack, preserves_flags)) };
    word
}

#[cfg(target_arch = "aarch64")]
fn set_control(word: u64) {
    // SAFETY: writes FPCR as read from this thread with only FZ changed.
    unsafe { std::arch::asm!("msr fpcr, {}", in(reg) word, options(nomem, nostack, preserves_flags)) };
}

#[cfg(target_arch = "aarch64")]
fn flushing(word: u64) -> u64 {
    word | FPCR_FZ
}

#[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
fn control() -> u64 {
    0
}

#[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
fn set_control(_word: u64) {}

#[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
fn flushing(word: u64) -> u64 {
    word
}

/// While alive, the calling thread flushes subnormals; dropping it restores the
/// state it found.
#[must_use = "the mode lasts as long as the guard"]
pub struct FlushSubnormals {
    saved: u64,
    /// The guard belongs to the thread whose state it saved.
    _not_send: std::marker::PhantomData<*const ()>,
}

impl FlushSubnormals {
    pub fn enter() -> FlushSubnormals {
        let saved = control();
        let wanted = flushing(saved);
        if wanted != saved {
            set_control(wanted);
        }
        FlushSubnormals { saved, _not_send: std::marker::PhantomData }
    }
}

impl Drop for FlushSubnormals {
    fn drop(&mut self) {
        if control() != self.saved {
            set_control(self.saved);
        }
    }
}

/// Sets the mode on the calling thread for good (the pool's workers).
pub(crate) fn flush_subnormals_on_this_thread() {
    set_control(flushing(control()));
}

/// Whether the calling thread flushes subnormals now.
pub fn flushes_subnormals() -> bool {
    let c = control();
    flushing(c) == c && cfg!(any(target_arch = "x86_64", target_arch = "aarch64"))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `black_box` keeps the arithmetic at run time, under the mode.
    fn tiny_times_one() -> f32 {
        std::hint::black_box(1e-40f32) * std::hint::black_box(1.0f32)
    }

    /// The control word less x86's sticky exception flags (MXCSR bits 0-5),
    /// which the arithmetic itself sets (a subnormal operand raises DE).
    fn mode() -> u64 {
        if cfg!(target_arch = "x86_64") { control() & !0x3f } else { control() }
    }

    #[test]
    fn the_guard_flushes_and_restores() {
        let before = mode();
        assert_eq!(tiny_times_one(), 1e-40);
        {
            let _g = FlushSubnormals::enter();
            assert!(flushes_subnormals());
            if cfg!(any(target_arch = "x86_64", target_arch = "aarch64")) {
                assert_eq!(tiny_times_one().to_bits(), 0);
                // Both operands hidden: LLVM folds `x * 1.0` to `x` at any opt-level.
                assert_eq!((-std::hint::black_box(1e-40f32) * std::hint::black_box(1.0f32)).to_bits(), 0x8000_0000);
            }
            // Nested guards restore the state their parent set.
            {
                let _inner = FlushSubnormals::enter();
            }
            assert!(flushes_subnormals());
        }
        assert_eq!(mode(), before);
        assert_eq!(tiny_times_one(), 1e-40);
    }
}
