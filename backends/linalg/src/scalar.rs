//! The element types of the LU, Cholesky, triangular-solve and Householder
//! routines, real and complex, as one trait, so each routine is written once.
//!
//! LAPACK's complex routines are its real ones with conjugates where an
//! inner product or a reflector is transposed (`v^H` for `v^T`, `L L^H` for
//! `L L^T`), pivots chosen by `cabs1 = |re| + |im|` (`icamax`), and
//! reflectors whose `tau` is complex (`zlarfg`). On reals `conj` is the
//! identity and `abs1` the absolute value, so the real results are those of
//! the real routines, bit for bit. Complex values are stored as their parts,
//! real first ([`num_complex::Complex`]'s layout and XLA's).

use std::ops::{Add, Div, Mul, Sub};

use num_complex::Complex;

use crate::Float;

pub(crate) trait Scalar:
    Copy + PartialEq + Add<Output = Self> + Sub<Output = Self> + Mul<Output = Self> + Div<Output = Self>
{
    /// The component type.
    type Real: Float + crate::Le;
    /// The f64 type faer computes this one's decompositions in (`f64` or `c64`).
    type Wide: faer::traits::ComplexField<Real = f64>;
    const COMPLEX: bool;
    const ZERO: Self;
    const ONE: Self;
    /// Bytes of one element (both parts for complex ones).
    const BYTES: usize;
    fn conj(self) -> Self;
    /// `|re| + |im|`, the magnitude LAPACK pivots by.
    fn abs1(self) -> Self::Real;
    /// The modulus.
    fn modulus(self) -> Self::Real;
    /// `|x|^2`.
    fn abs2(self) -> Self::Real;
    fn re(self) -> Self::Real;
    fn im(self) -> Self::Real;
    fn of_parts(re: Self::Real, im: Self::Real) -> Self;
    fn of_real(re: Self::Real) -> Self {
        Self::of_parts(re, <Self::Real as Float>::ZERO)
    }
    /// `self / d`, by Smith's method for complex values (LAPACK's `ladiv`
    /// scales likewise), so no intermediate squares overflow.
    fn quotient(self, d: Self) -> Self;
    /// `self / r` for a real `r`, part by part.
    fn over(self, r: Self::Real) -> Self;
    fn read(bytes: &[u8]) -> Self;
    fn write(self, out: &mut [u8]);
    fn wide(self) -> Self::Wide;
    fn of_wide(w: &Self::Wide) -> Self;
    fn wide_complex(self) -> Complex<f64> {
        Complex::new(self.re().to_f64(), self.im().to_f64())
    }
}

macro_rules! real {
    ($t:ty) => {
        impl Scalar for $t {
            type Real = $t;
            type Wide = f64;
            const COMPLEX: bool = false;
            const ZERO: Self = 0.0;
            const ONE: Self = 1.0;
            const BYTES: usize = <$t as Float>::BYTES;
            fn conj(self) -> Self {
                self
            }
            fn abs1(self) -> Self {
                self.abs()
            }
            fn modulus(self) -> Self {
                self.abs()
            }
            fn abs2(self) -> Self {
                self * self
            }
            fn re(self) -> Self {
                self
            }
            fn im(self) -> Self {
                0.0
            }
            fn of_parts(re: Self, _: Self) -> Self {
                re
            }
            fn quotient(self, d: Self) -> Self {
                self / d
            }
            fn over(self, r: Self) -> Self {
                self / r
            }
            fn read(bytes: &[u8]) -> Self {
                <$t as Float>::read(bytes)
            }
            fn write(self, out: &mut [u8]) {
                <$t as Float>::write(self, out)
            }
            fn wide(self) -> f64 {
                self as f64
            }
            fn of_wide(w: &f64) -> Self {
                *w as $t
            }
        }
    };
}
real!(f32);
real!(f64);

macro_rules! complex {
    ($t:ty) => {
        impl Scalar for Complex<$t> {
            type Real = $t;
            type Wide = Complex<f64>;
            const COMPLEX: bool = true;
            const ZERO: Self = Complex::new(0.0, 0.0);
            const ONE: Self = Complex::new(1.0, 0.0);
            const BYTES: usize = 2 * <$t as Float>::BYTES;
            fn conj(self) -> Self {
                Complex::conj(&self)
            }
            fn abs1(self) -> $t {
                self.re.abs() + self.im.abs()
            }
            fn modulus(self) -> $t {
                self.re.hypot(self.im)
            }
            fn abs2(self) -> $t {
                self.re * self.re + self.im * self.im
            }
            fn re(self) -> $t {
                self.re
            }
            fn im(self) -> $t {
                self.im
            }
            fn of_parts(re: $t, im: $t) -> Self {
                Complex::new(re, im)
            }
            fn quotient(self, d: Self) -> Self {
                let (a, b) = (self.re, self.im);
                if d.re.abs() >= d.im.abs() {
                    let (r, den) = (d.im / d.re, d.re + d.im * (d.im / d.re));
                    Complex::new((a + b * r) / den, (b - a * r) / den)
                } else {
                    let (r, den) = (d.re / d.im, d.im + d.re * (d.re / d.im));
                    Complex::new((a * r + b) / den, (b * r - a) / den)
                }
            }
            fn over(self, r: $t) -> Self {
                Complex::new(self.re / r, self.im / r)
            }
            fn read(bytes: &[u8]) -> Self {
                let half = <$t as Float>::BYTES;
                Complex::new(<$t as Float>::read(&bytes[..half]), <$t as Float>::read(&bytes[half..]))
            }
            fn write(self, out: &mut [u8]) {
                let half = <$t as Float>::BYTES;
                <$t as Float>::write(self.re, &mut out[..half]);
                <$t as Float>::write(self.im, &mut out[half..]);
            }
            fn wide(self) -> Complex<f64> {
                Complex::new(self.re as f64, self.im as f64)
            }
            fn of_wide(w: &Complex<f64>) -> Self {
                Complex::new(w.re as $t, w.im as $t)
            }
        }
    };
}
complex!(f32);
complex!(f64);

/// The elements stored in `bytes`.
pub(crate) fn read<S: Scalar>(bytes: &[u8]) -> Vec<S> {
    bytes.chunks_exact(S::BYTES).map(S::read).collect()
}

/// Complex values as the parts of a real type (XLA's layout of complex arrays).
pub(crate) fn parts<T: Float>(values: &[Complex<f64>]) -> Vec<T> {
    values.iter().flat_map(|z| [T::of_f64(z.re), T::of_f64(z.im)]).collect()
}
