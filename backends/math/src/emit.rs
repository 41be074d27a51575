//! What a code generator provides to build the functions: a small straight-line
//! emitter for scalar float code (arithmetic, compares, selects, integer views
//! of the bits, constant-table lookups, and the few operations every target
//! has inline). Nothing here emits a branch, a loop or a library call.
//!
//! [`Emit`]'s required methods are one instruction each in any IR; the
//! provided ones (polynomials, the shifter trick, `ldexp`, double-word
//! arithmetic) are written here once, so every code generator emits the same
//! sequence of operations and computes the same bits. Plain additions and
//! multiplications must not be contracted by the target (LLVM without
//! fast-math flags, Cranelift), so exact tricks (Cody-Waite, Dekker products,
//! two-sums) stay exact; [`Emit::mla`] fuses exactly when [`Emit::fused`] says
//! so, which each code generator decides from its target (every approximation
//! is accurate either way, and the tests run both).

/// An integer comparison.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ICmp {
    Eq,
    Ne,
    Slt,
    Sgt,
}

/// An ordered float comparison (false when either side is NaN), or `Uno`
/// (true when either side is NaN).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FCmp {
    Olt,
    Ogt,
    Oge,
    Oeq,
    Uno,
}

/// Emits scalar code for one float type (`f32` or `f64`) and its same-width
/// integer. `F`, `I` and `B` are the code generator's values of the float, the
/// integer and a boolean.
pub trait Emit: Copy {
    type F: Copy;
    type I: Copy;
    type B: Copy;

    /// `f64` (else `f32`).
    fn wide(&self) -> bool;
    /// The emitter for the other width, on the same function.
    fn other(&self) -> Self;
    /// Whether [`Emit::mla`] is one fused multiply-add (else a multiply, then an add).
    fn fused(&self) -> bool;

    /// A constant of this type (`v` rounded to it).
    fn c(&self, v: f64) -> Self::F;
    fn ci(&self, v: i64) -> Self::I;

    fn add(&self, a: Self::F, b: Self::F) -> Self::F;
    fn sub(&self, a: Self::F, b: Self::F) -> Self::F;
    fn mul(&self, a: Self::F, b: Self::F) -> Self::F;
    fn div(&self, a: Self::F, b: Self::F) -> Self::F;
    fn neg(&self, a: Self::F) -> Self::F;
    /// `a * b + c` rounded once.
    fn fma(&self, a: Self::F, b: Self::F, c: Self::F) -> Self::F;
    fn abs(&self, a: Self::F) -> Self::F;
    /// The magnitude of `mag` with the sign of `sign`.
    fn copysign(&self, mag: Self::F, sign: Self::F) -> Self::F;
    fn sqrt(&self, a: Self::F) -> Self::F;
    fn fcmp(&self, p: FCmp, a: Self::F, b: Self::F) -> Self::B;
    fn sel(&self, c: Self::B, a: Self::F, b: Self::F) -> Self::F;
    fn seli(&self, c: Self::B, a: Self::I, b: Self::I) -> Self::I;

    fn and(&self, a: Self::I, b: Self::I) -> Self::I;
    fn or(&self, a: Self::I, b: Self::I) -> Self::I;
    fn xor(&self, a: Self::I, b: Self::I) -> Self::I;
    fn not(&self, a: Self::I) -> Self::I;
    /// The float's bits as the integer of its width.
    fn bits(&self, a: Self::F) -> Self::I;
    /// The float with the integer's bits.
    fn float_of(&self, a: Self::I) -> Self::F;
    fn iadd(&self, a: Self::I, b: Self::I) -> Self::I;
    fn isub(&self, a: Self::I, b: Self::I) -> Self::I;
    fn imul(&self, a: Self::I, b: Self::I) -> Self::I;
    fn shl(&self, a: Self::I, n: u32) -> Self::I;
    fn ashr(&self, a: Self::I, n: u32) -> Self::I;
    fn lshr(&self, a: Self::I, n: u32) -> Self::I;
    fn icmp(&self, p: ICmp, a: Self::I, b: Self::I) -> Self::B;
    fn band(&self, a: Self::B, b: Self::B) -> Self::B;
    fn bor(&self, a: Self::B, b: Self::B) -> Self::B;
    fn bxor(&self, a: Self::B, b: Self::B) -> Self::B;
    fn bnot(&self, a: Self::B) -> Self::B;

    /// `table[index]` rounded to this type, for `0 <= index < table.len()`
    /// (the caller's guarantee): a constant table the code generator places
    /// where its code reads it, one copy per `name` (a name always comes with
    /// the same table). The only memory the library reads (the trigonometric
    /// functions' Payne-Hanek reduction).
    fn lookup(&self, name: &str, table: &'static [f64], index: Self::I) -> Self::F;

    /// `f32` -> `f64` (exact), from an `f32` emitter.
    fn ext(&self, a: Self::F) -> Self::F;
    /// `f64` -> `f32`, rounding to nearest even, from an `f64` emitter.
    fn trunc(&self, a: Self::F) -> Self::F;

    // Provided: the same operations in every code generator.

    /// Explicit mantissa bits (23 or 52).
    fn mant(&self) -> u32 {
        if self.wide() { 52 } else { 23 }
    }

    fn bias(&self) -> i64 {
        if self.wide() { 1023 } else { 127 }
    }

    /// The smallest positive normal number.
    fn min_normal(&self) -> f64 {
        if self.wide() { f64::MIN_POSITIVE } else { f32::MIN_POSITIVE as f64 }
    }

    /// `f32`/`f64` by width: for constants that differ between types.
    fn cw(&self, v32: f64, v64: f64) -> Self::F {
        self.c(if self.wide() { v64 } else { v32 })
    }

    fn nan(&self) -> Self::F {
        self.c(f64::NAN)
    }

    fn inf(&self) -> Self::F {
        self.c(f64::INFINITY)
    }

    /// `a * b + c`, fused when the target fuses ([`Emit::fused`]).
    fn mla(&self, a: Self::F, b: Self::F, c: Self::F) -> Self::F {
        if self.fused() { self.fma(a, b, c) } else { self.add(self.mul(a, b), c) }
    }

    /// Horner's rule, `coeffs[0] + x * (coeffs[1] + x * (...))`.
    fn poly(&self, x: Self::F, coeffs: &[f64]) -> Self::F {
        let Some((last, rest)) = coeffs.split_last() else { return self.c(0.0) };
        rest.iter().rev().fold(self.c(*last), |acc, &c| self.mla(acc, x, self.c(c)))
    }

    fn lt(&self, a: Self::F, b: Self::F) -> Self::B {
        self.fcmp(FCmp::Olt, a, b)
    }

    fn gt(&self, a: Self::F, b: Self::F) -> Self::B {
        self.fcmp(FCmp::Ogt, a, b)
    }

    fn ge(&self, a: Self::F, b: Self::F) -> Self::B {
        self.fcmp(FCmp::Oge, a, b)
    }

    fn eq(&self, a: Self::F, b: Self::F) -> Self::B {
        self.fcmp(FCmp::Oeq, a, b)
    }

    /// `a == b` for booleans.
    fn beq(&self, a: Self::B, b: Self::B) -> Self::B {
        self.bnot(self.bxor(a, b))
    }

    fn is_nan(&self, a: Self::F) -> Self::B {
        self.fcmp(FCmp::Uno, a, a)
    }

    /// The sign bit is set (true for -0 and negative NaNs too).
    fn sign_bit(&self, a: Self::F) -> Self::B {
        self.icmp(ICmp::Slt, self.bits(a), self.ci(0))
    }

    /// `x` rounded to the nearest integer, as a float and as an integer, by the
    /// shifter trick (`x + 1.5*2^p - 1.5*2^p`). Valid for `|x| < 2^(p-1)`; NaN in
    /// gives NaN (and an arbitrary integer).
    fn round_int(&self, x: Self::F) -> (Self::F, Self::I) {
        let shifter = self.c(1.5 * 2f64.powi(self.mant() as i32));
        let t = self.add(x, shifter);
        let n = self.sub(t, shifter);
        let ni = self.isub(self.bits(t), self.bits(shifter));
        (n, ni)
    }

    /// A small integer (`|i| < 2^(p-1)`) as a float, exactly, by the shifter trick.
    fn int_to_float(&self, i: Self::I) -> Self::F {
        let shifter = self.c(1.5 * 2f64.powi(self.mant() as i32));
        self.sub(self.float_of(self.iadd(self.bits(shifter), i)), shifter)
    }

    /// `2^n` for `n` in the normal exponent range.
    fn pow2(&self, n: Self::I) -> Self::F {
        self.float_of(self.shl(self.iadd(n, self.ci(self.bias())), self.mant()))
    }

    /// `p * 2^n` for `n` from `-(bias + p + 2)` to `bias + 1` with a single rounding,
    /// in two exact-or-final steps so that subnormal results round once and large
    /// ones overflow to infinity.
    /// A code generator whose target does this in one instruction (AVX-512's
    /// `vscalef`) may override it; the result must be the same bits.
    fn ldexp(&self, p: Self::F, n: Self::I) -> Self::F {
        ldexp_in_two_steps(self, p, n)
    }

    /// `x` clamped to `[lo, hi]`; NaN passes through.
    fn clamp(&self, x: Self::F, lo: f64, hi: f64) -> Self::F {
        let (lo, hi) = (self.c(lo), self.c(hi));
        let x = self.sel(self.lt(x, lo), lo, x);
        self.sel(self.gt(x, hi), hi, x)
    }

    // Double-word arithmetic (a value as an unevaluated sum `hi + lo`), without
    // FMA: Knuth's two-sum and Dekker's product.

    /// `a + b` exactly as `(s, e)`.
    fn two_sum(&self, a: Self::F, b: Self::F) -> (Self::F, Self::F) {
        let s = self.add(a, b);
        let bb = self.sub(s, a);
        let e = self.add(self.sub(a, self.sub(s, bb)), self.sub(b, bb));
        (s, e)
    }

    /// `a + b` exactly, when `|a| >= |b|` (or `a` is zero).
    fn fast_two_sum(&self, a: Self::F, b: Self::F) -> (Self::F, Self::F) {
        let s = self.add(a, b);
        let e = self.sub(b, self.sub(s, a));
        (s, e)
    }

    /// Veltkamp's split: `a = hi + lo` with both halves of at most 26 bits (f64).
    fn split(&self, a: Self::F) -> (Self::F, Self::F) {
        let k = if self.wide() { 134217729.0 } else { 4097.0 };
        let c = self.mul(self.c(k), a);
        let hi = self.sub(c, self.sub(c, a));
        (hi, self.sub(a, hi))
    }

    /// `a * b` exactly as `(p, e)` (barring overflow and underflow).
    fn two_prod(&self, a: Self::F, b: Self::F) -> (Self::F, Self::F) {
        let p = self.mul(a, b);
        let (ah, al) = self.split(a);
        let (bh, bl) = self.split(b);
        let e = self.sub(self.mul(ah, bh), p);
        let e = self.add(e, self.mul(ah, bl));
        let e = self.add(e, self.mul(al, bh));
        (p, self.add(e, self.mul(al, bl)))
    }
}

/// [`Emit::ldexp`] from multiplications: `p * 2^(n/2) * 2^(n - n/2)`, the first
/// exact for every `n` in range and the second the only rounding.
pub fn ldexp_in_two_steps<E: Emit>(e: &E, p: E::F, n: E::I) -> E::F {
    let n1 = e.ashr(n, 1);
    let n2 = e.isub(n, n1);
    e.mul(e.mul(p, e.pow2(n1)), e.pow2(n2))
}
