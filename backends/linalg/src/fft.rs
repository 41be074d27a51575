//! The FFT targets complex lowering emits (`smelt_hlo::complex`): XLA's `fft`
//! on complex values stored as their parts, through `rustfft`.
//!
//! Semantics (XLA's `FftType`, over the innermost `rank` dimensions, every
//! leading dimension a batch): FFT is the unscaled forward transform
//! `X[k] = sum x[n] e^(-2 pi i k n / N)` along each axis; IFFT the inverse,
//! `e^(+2 pi i k n / N)`, scaled once by `1 / prod(N)`; RFFT the forward
//! transform of real input keeping `N / 2 + 1` entries of the last axis;
//! IRFFT the inverse of that, reading the last axis as the first half of a
//! Hermitian spectrum (so the imaginary parts of the zero-frequency entry and,
//! for even `N`, of the Nyquist entry do not contribute, as in XLA CPU's DUCC
//! and Eigen implementations).

use rustfft::num_complex::Complex;
use rustfft::{FftDirection, FftNum, FftPlanner};

/// Which transform.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    Fft,
    Ifft,
    Rfft,
    Irfft,
}

impl Kind {
    pub fn target(self) -> &'static str {
        match self {
            Kind::Fft => "smelt_fft",
            Kind::Ifft => "smelt_ifft",
            Kind::Rfft => "smelt_rfft",
            Kind::Irfft => "smelt_irfft",
        }
    }

    pub fn of_target(target: &str) -> Option<Kind> {
        [Kind::Fft, Kind::Ifft, Kind::Rfft, Kind::Irfft].into_iter().find(|k| k.target() == target)
    }
}

/// The lengths of the transformed axes (`rank` of them, at most 3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Lengths {
    pub rank: usize,
    pub n: [usize; 3],
}

impl Lengths {
    pub fn axes(&self) -> &[usize] {
        &self.n[..self.rank]
    }

    /// Complex elements of one transform's complex side (the full spectrum for
    /// FFT and IFFT, the half one for RFFT and IRFFT).
    pub fn complex_len(&self, kind: Kind) -> usize {
        match kind {
            Kind::Fft | Kind::Ifft => self.axes().iter().product(),
            Kind::Rfft | Kind::Irfft => self.half_axes().iter().product(),
        }
    }

    /// The axes of a half spectrum: the last one `N / 2 + 1` long (0 for 0).
    pub fn half_axes(&self) -> Vec<usize> {
        let mut axes = self.axes().to_vec();
        if let Some(last) = axes.last_mut() {
            *last = if *last == 0 { 0 } else { *last / 2 + 1 };
        }
        axes
    }
}

/// Runs `count` transforms on `input` (parts for a complex side, reals for a
/// real one), writing `output` likewise.
pub fn run<T: FftNum>(kind: Kind, lengths: Lengths, count: usize, input: &[T], output: &mut [T]) {
    let mut planner = FftPlanner::<T>::new();
    let full: Vec<usize> = lengths.axes().to_vec();
    let total: usize = full.iter().product();
    let scale = T::from_f64(1.0 / total.max(1) as f64).unwrap_or_else(T::zero);
    match kind {
        Kind::Fft | Kind::Ifft => {
            let dir = if kind == Kind::Fft { FftDirection::Forward } else { FftDirection::Inverse };
            for (x, y) in
                input.chunks_exact(2 * total.max(1)).zip(output.chunks_exact_mut(2 * total.max(1))).take(count)
            {
                let mut data = complex(x);
                transform(&mut planner, &mut data, &full, full.len(), dir);
                if kind == Kind::Ifft {
                    data.iter_mut().for_each(|c| *c = *c * scale);
                }
                parts(&data, y);
            }
        }
        Kind::Rfft => {
            let half = lengths.half_axes();
            let h = half.iter().product::<usize>();
            for (x, y) in input.chunks_exact(total.max(1)).zip(output.chunks_exact_mut(2 * h.max(1))).take(count) {
                if total == 0 {
                    break;
                }
                let mut data: Vec<Complex<T>> = x.iter().map(|&r| Complex::new(r, T::zero())).collect();
                transform(&mut planner, &mut data, &full, full.len(), FftDirection::Forward);
                let (n_last, h_last) = (full[full.len() - 1], half[half.len() - 1]);
                let kept: Vec<Complex<T>> =
                    data.chunks_exact(n_last).flat_map(|row| row[..h_last].iter().copied()).collect();
                parts(&kept, y);
            }
        }
        Kind::Irfft => {
            let half = lengths.half_axes();
            let h = half.iter().product::<usize>();
            let rank = full.len();
            for (x, y) in input.chunks_exact(2 * h.max(1)).zip(output.chunks_exact_mut(total.max(1))).take(count) {
                if total == 0 {
                    break;
                }
                // The leading axes first, on the half spectrum as it is.
                let mut data = complex(x);
                transform(&mut planner, &mut data, &half, rank - 1, FftDirection::Inverse);
                // Then each row of the last axis, extended to its Hermitian whole.
                let (n, hl) = (full[rank - 1], half[rank - 1]);
                let inverse = planner.plan_fft(n, FftDirection::Inverse);
                let mut row = vec![Complex::new(T::zero(), T::zero()); n];
                for (src, dst) in data.chunks_exact(hl).zip(y.chunks_exact_mut(n)) {
                    for k in 0..n {
                        row[k] = if k < hl { src[k] } else { src[n - k].conj() };
                    }
                    row[0].im = T::zero();
                    if n % 2 == 0 {
                        row[n / 2].im = T::zero();
                    }
                    inverse.process(&mut row);
                    for (d, c) in dst.iter_mut().zip(&row) {
                        *d = c.re * scale;
                    }
                }
            }
        }
    }
}

fn complex<T: FftNum>(x: &[T]) -> Vec<Complex<T>> {
    x.chunks_exact(2).map(|p| Complex::new(p[0], p[1])).collect()
}

fn parts<T: FftNum>(data: &[Complex<T>], out: &mut [T]) {
    for (c, p) in data.iter().zip(out.chunks_exact_mut(2)) {
        p[0] = c.re;
        p[1] = c.im;
    }
}

/// Transforms `data` (row-major over `dims`) along its first `axes` axes, unscaled.
fn transform<T: FftNum>(
    planner: &mut FftPlanner<T>,
    data: &mut [Complex<T>],
    dims: &[usize],
    axes: usize,
    dir: FftDirection,
) {
    let total: usize = dims.iter().product();
    if total == 0 {
        return;
    }
    for axis in 0..axes {
        let n = dims[axis];
        let stride: usize = dims[axis + 1..].iter().product();
        let fft = planner.plan_fft(n, dir);
        let mut line = vec![Complex::new(T::zero(), T::zero()); n];
        for outer in 0..total / (n * stride) {
            for inner in 0..stride {
                let base = outer * n * stride + inner;
                for (k, v) in line.iter_mut().enumerate() {
                    *v = data[base + k * stride];
                }
                fft.process(&mut line);
                for (k, v) in line.iter().enumerate() {
                    data[base + k * stride] = *v;
                }
            }
        }
    }
}
