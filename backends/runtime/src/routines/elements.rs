//! Typed views of raw buffers: reading elements of any dtype as accumulators
//! and writing accumulators back rounded to the destination type.

use half::{bf16, f16};
use smelt_hlo::DType;

/// An accumulator type for products.
pub trait Acc: Copy + Send + Sync + 'static {
    const ZERO: Self;
    /// Every element of `n` elements of type `t` at `p`, converted.
    ///
    /// # Safety
    /// `p` points to `n` readable elements of type `t`.
    unsafe fn read(t: DType, p: *const u8, n: usize) -> Vec<Self>;
    /// Writes `v` to `p` as type `t`.
    ///
    /// # Safety
    /// `p` points to `v.len()` writable elements of type `t`.
    unsafe fn write(v: &[Self], t: DType, p: *mut u8);
    fn mul_add(self, a: Self, b: Self) -> Self;
}

/// `n` elements at `p` as a slice of `T`.
///
/// # Safety
/// `p` points to `n` readable, aligned `T`s.
unsafe fn slice<'a, T>(p: *const u8, n: usize) -> &'a [T] {
    if n == 0 {
        return &[];
    }
    // SAFETY: the caller's contract.
    unsafe { std::slice::from_raw_parts(p.cast::<T>(), n) }
}

/// Reads `n` elements of type `t` at `p` as f64 (integers exactly up to 2^53).
macro_rules! read_as {
    ($t:expr, $p:expr, $n:expr, $conv:ident) => {{
        // SAFETY (for every arm): the caller of `read` guarantees `n` elements.
        unsafe {
            match $t {
                DType::Pred | DType::U8 => slice::<u8>($p, $n).iter().map(|&x| x as $conv).collect(),
                DType::S8 => slice::<i8>($p, $n).iter().map(|&x| x as $conv).collect(),
                DType::S16 => slice::<i16>($p, $n).iter().map(|&x| x as $conv).collect(),
                DType::U16 => slice::<u16>($p, $n).iter().map(|&x| x as $conv).collect(),
                DType::S32 => slice::<i32>($p, $n).iter().map(|&x| x as $conv).collect(),
                DType::U32 => slice::<u32>($p, $n).iter().map(|&x| x as $conv).collect(),
                DType::S64 => slice::<i64>($p, $n).iter().map(|&x| x as $conv).collect(),
                DType::U64 => slice::<u64>($p, $n).iter().map(|&x| x as $conv).collect(),
                DType::F16 => slice::<f16>($p, $n).iter().map(|&x| x.to_f64() as $conv).collect(),
                DType::Bf16 => slice::<bf16>($p, $n).iter().map(|&x| x.to_f64() as $conv).collect(),
                // Complex values never reach the routines (`smelt_hlo::complex`); parts stand in.
                DType::F32 | DType::C64 => slice::<f32>($p, $n).iter().map(|&x| x as $conv).collect(),
                DType::F64 | DType::C128 => slice::<f64>($p, $n).iter().map(|&x| x as $conv).collect(),
            }
        }
    }};
}

/// Writes `f(x)` for every `x` of `v` to consecutive `T`s at `p`.
///
/// # Safety
/// `p` points to `v.len()` writable, aligned `T`s.
#[inline]
unsafe fn store<A: Copy, T>(v: &[A], p: *mut u8, f: impl Fn(A) -> T) {
    let p = p.cast::<T>();
    for (i, &x) in v.iter().enumerate() {
        // SAFETY: the caller's contract.
        unsafe { *p.add(i) = f(x) };
    }
}

/// Writes float accumulators as type `t`: floats round once, integers saturate
/// (NaN gives 0), pred is `x != 0`, as `convert` defines them.
macro_rules! write_float {
    ($v:expr, $t:expr, $p:expr) => {{
        let (v, p) = ($v, $p);
        // SAFETY (for every arm): the caller of `write` guarantees room for `v`.
        unsafe {
            match $t {
                DType::Pred => store(v, p, |x| (x != 0.0) as u8),
                DType::U8 => store(v, p, |x| x as u8),
                DType::S8 => store(v, p, |x| x as i8),
                DType::S16 => store(v, p, |x| x as i16),
                DType::U16 => store(v, p, |x| x as u16),
                DType::S32 => store(v, p, |x| x as i32),
                DType::U32 => store(v, p, |x| x as u32),
                DType::S64 => store(v, p, |x| x as i64),
                DType::U64 => store(v, p, |x| x as u64),
                DType::F16 => store(v, p, |x| f16::from_f64(x as f64)),
                DType::Bf16 => store(v, p, |x| bf16::from_f64(x as f64)),
                DType::F32 | DType::C64 => store(v, p, |x| x as f32),
                DType::F64 | DType::C128 => store(v, p, |x| x as f64),
            }
        }
    }};
}

macro_rules! float_acc {
    ($($t:ident),*) => {$(
        impl Acc for $t {
            const ZERO: Self = 0.0;
            unsafe fn read(t: DType, p: *const u8, n: usize) -> Vec<Self> {
                read_as!(t, p, n, $t)
            }
            unsafe fn write(v: &[Self], t: DType, p: *mut u8) {
                write_float!(v, t, p)
            }
            fn mul_add(self, a: Self, b: Self) -> Self {
                self + a * b
            }
        }
    )*};
}

float_acc!(f32, f64);

impl Acc for i64 {
    const ZERO: Self = 0;
    unsafe fn read(t: DType, p: *const u8, n: usize) -> Vec<Self> {
        read_as!(t, p, n, i64)
    }
    /// Integers wrap to the destination width (floats convert).
    unsafe fn write(v: &[Self], t: DType, p: *mut u8) {
        // SAFETY (for every arm): the caller guarantees room for `v`.
        unsafe {
            match t {
                DType::Pred => store(v, p, |x| (x != 0) as u8),
                DType::U8 | DType::S8 => store(v, p, |x| x as u8),
                DType::S16 | DType::U16 => store(v, p, |x| x as u16),
                DType::S32 | DType::U32 => store(v, p, |x| x as u32),
                DType::S64 | DType::U64 => store(v, p, |x| x),
                DType::F16 => store(v, p, |x| f16::from_f64(x as f64)),
                DType::Bf16 => store(v, p, |x| bf16::from_f64(x as f64)),
                DType::F32 | DType::C64 => store(v, p, |x| x as f32),
                DType::F64 | DType::C128 => store(v, p, |x| x as f64),
            }
        }
    }
    fn mul_add(self, a: Self, b: Self) -> Self {
        self.wrapping_add(a.wrapping_mul(b))
    }
}

/// Which accumulator a product with result type `t` uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AccKind {
    F32,
    F64,
    I64,
}

impl AccKind {
    pub fn of(t: DType) -> AccKind {
        match t {
            DType::F64 => AccKind::F64,
            DType::F16 | DType::Bf16 | DType::F32 => AccKind::F32,
            _ => AccKind::I64,
        }
    }
}
