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
/// real one), writing `output` likewise. All transforms of a batch go through
/// each axis together: along the innermost axis as one contiguous run of
/// `rustfft`'s batched `process`, along the others line by line.
pub fn run<T: Planned>(kind: Kind, lengths: Lengths, count: usize, input: &[T], output: &mut [T]) {
    T::with_planner(|planner| run_planned(planner, kind, lengths, count, input, output));
}

/// A float `rustfft` plans for, with a planner kept per thread: plans (Rader's
/// and Bluestein's for awkward lengths cost milliseconds to make) are made
/// once and reused by every later run.
pub trait Planned: FftNum {
    fn with_planner<R>(f: impl FnOnce(&mut FftPlanner<Self>) -> R) -> R;
}

macro_rules! planned {
    ($t:ty, $cache:ident) => {
        thread_local! {
            static $cache: std::cell::RefCell<FftPlanner<$t>> = std::cell::RefCell::new(FftPlanner::new());
        }
        impl Planned for $t {
            fn with_planner<R>(f: impl FnOnce(&mut FftPlanner<$t>) -> R) -> R {
                $cache.with(|p| f(&mut p.borrow_mut()))
            }
        }
    };
}

planned!(f32, PLANNER_F32);
planned!(f64, PLANNER_F64);

fn run_planned<T: FftNum>(
    planner: &mut FftPlanner<T>,
    kind: Kind,
    lengths: Lengths,
    count: usize,
    input: &[T],
    output: &mut [T],
) {
    let full: Vec<usize> = lengths.axes().to_vec();
    let total: usize = full.iter().product();
    if total == 0 || count == 0 {
        return;
    }
    let scale = T::from_f64(1.0 / total as f64).unwrap_or_else(T::zero);
    // The batch as one more, leading axis that is not transformed.
    let batched = |axes: &[usize]| -> Vec<usize> { std::iter::once(count).chain(axes.iter().copied()).collect() };
    let rank = full.len();
    match kind {
        Kind::Fft | Kind::Ifft => {
            let dir = if kind == Kind::Fft { FftDirection::Forward } else { FftDirection::Inverse };
            let mut data = complex(&input[..2 * count * total]);
            transform(planner, &mut data, &batched(&full), 1..rank + 1, dir);
            if kind == Kind::Ifft {
                data.iter_mut().for_each(|c| *c = *c * scale);
            }
            parts(&data, output);
        }
        Kind::Rfft => {
            let half = lengths.half_axes();
            let mut data: Vec<Complex<T>> =
                input[..count * total].iter().map(|&r| Complex::new(r, T::zero())).collect();
            transform(planner, &mut data, &batched(&full), 1..rank + 1, FftDirection::Forward);
            let (n_last, h_last) = (full[rank - 1], half[rank - 1]);
            let kept: Vec<Complex<T>> =
                data.chunks_exact(n_last).flat_map(|row| row[..h_last].iter().copied()).collect();
            parts(&kept, output);
        }
        Kind::Irfft => {
            let half = lengths.half_axes();
            let h = half.iter().product::<usize>();
            // The leading axes first, on the half spectrum as it is.
            let mut data = complex(&input[..2 * count * h]);
            transform(planner, &mut data, &batched(&half), 1..rank, FftDirection::Inverse);
            // Then each row of the last axis, extended to its Hermitian whole.
            let (n, hl) = (full[rank - 1], half[rank - 1]);
            let mut rows = vec![Complex::new(T::zero(), T::zero()); data.len() / hl * n];
            for (src, row) in data.chunks_exact(hl).zip(rows.chunks_exact_mut(n)) {
                for k in 0..n {
                    row[k] = if k < hl { src[k] } else { src[n - k].conj() };
                }
                row[0].im = T::zero();
                if n.is_multiple_of(2) {
                    row[n / 2].im = T::zero();
                }
            }
            planner.plan_fft(n, FftDirection::Inverse).process(&mut rows);
            for (d, c) in output.iter_mut().zip(&rows) {
                *d = c.re * scale;
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

/// Transforms `data` (row-major over `dims`) along the axes `axes`, unscaled.
fn transform<T: FftNum>(
    planner: &mut FftPlanner<T>,
    data: &mut [Complex<T>],
    dims: &[usize],
    axes: std::ops::Range<usize>,
    dir: FftDirection,
) {
    let total: usize = dims.iter().product();
    if total == 0 {
        return;
    }
    for axis in axes {
        let n = dims[axis];
        let stride: usize = dims[axis + 1..].iter().product();
        let fft = planner.plan_fft(n, dir);
        if stride == 1 {
            // Consecutive rows: one batched call.
            fft.process(data);
            continue;
        }
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
