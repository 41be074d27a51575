//! The LAPACK custom-call targets JAX emits for linear algebra on the CPU.
//!
//! On the CPU, `jnp.linalg` and `jax.scipy.linalg` lower to typed-FFI custom
//! calls (`custom_call_target="lapack_sgetrf_ffi"`, attributes in
//! `backend_config`, batch dimensions leading). Their semantics are LAPACK's
//! routines applied to each matrix of the batch, on the operands' *logical*
//! matrices (the column-major layouts JAX asks for are layouts, and smelt
//! computes on logical arrays), with LAPACK's output conventions: `getrf`'s
//! 1-based row interchanges, `info` outputs, the untouched triangle of
//! `potrf`. This crate is the one place those rules live: [`Call::new`]
//! checks a call's operands, results and attributes (the registry of targets
//! is [`Call::new`]'s match), [`Call::run`] computes it on little-endian
//! row-major buffers, and [`Call::spec`] / [`Call::from_spec`] carry a checked
//! call into compiled code as text. The interpreter, the kernel form's
//! evaluator and the compiled host backends all run calls through here.
//!
//! Every routine takes real (`s`, `d`) and complex (`c`, `z`) elements; a
//! complex array is stored as its parts (one more innermost dimension of 2,
//! XLA's bytes), and the routines that do not need faer are written once
//! over [`scalar::Scalar`]. The real Schur form (`gees`) is Francis'
//! double-shift QR, the complex one single-shift QR (`schur`); the FFT
//! targets that complex lowering emits live in [`fft`].
//!
//! LU, Cholesky, triangular and tridiagonal solves, QR and the Hessenberg
//! reduction are the unblocked forms (LAPACK's `getf2`, `potf2`, `trsm`'s
//! reference loops, `gtsv`, `geqr2`/`org2r` and `gehd2`, in `qr`): the same
//! results up to rounding as the blocked ones, with the same pivot choices
//! (the first row of largest magnitude) and reflectors, for the small
//! matrices these programs factor. The Hermitian eigendecomposition, the SVD
//! and the general eigendecomposition go through `faer` (`eigen`).

use std::fmt;

use num_complex::Complex;
use smelt_hlo::DType;

use crate::scalar::Scalar;

pub mod fft;
mod schur;

#[derive(Debug, thiserror::Error, PartialEq)]
pub enum LinalgError {
    #[error("unsupported custom-call target \"{0}\"")]
    UnknownTarget(String),
    #[error("custom-call target \"{target}\": {message}")]
    Invalid { target: String, message: String },
    /// A known target in a variant smelt does not implement (sorted Schur
    /// forms).
    #[error("custom-call target \"{target}\": {message} are not supported")]
    Unsupported { target: String, message: String },
}

/// The component types of the LAPACK routines' elements (`s`/`c` and `d`/`z`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Real {
    F32,
    F64,
}

impl Real {
    pub fn dtype(self) -> DType {
        match self {
            Real::F32 => DType::F32,
            Real::F64 => DType::F64,
        }
    }
}

/// One matrix operation; dimensions are those of one matrix of the batch.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Op {
    /// `(a[m, n]) -> (lu[m, n], ipiv s32[min(m, n)], info s32)`: `P A = L U`.
    Getrf { m: usize, n: usize },
    /// `(a[n, n]) -> (factor[n, n], info s32)`: `A = L L^T` (or `U^T U`) in
    /// the `lower` (upper) triangle; the other triangle keeps `a`'s values.
    Potrf { n: usize, lower: bool },
    /// `(a, b[m, n]) -> x[m, n]`: `op(A) X = B` (`left`) or `X op(A) = B`,
    /// `A` triangular (`lower`), `op` a transpose when `trans` (conjugated
    /// when `conj`), a unit diagonal when `unit`.
    Trsm { m: usize, n: usize, left: bool, lower: bool, trans: bool, conj: bool, unit: bool },
    /// `(a[m, n]) -> (qr[m, n], tau[min(m, n)])`: Householder QR, `R` above
    /// the diagonal and the reflectors' vectors below it (`geqrf`).
    Geqrf { m: usize, n: usize },
    /// `(qr[m, n], tau[k]) -> q[m, n]`: the first `n` columns of the product
    /// of the `k` reflectors (`orgqr`, `ungqr`), `k <= n <= m`.
    Orgqr { m: usize, n: usize, k: usize },
    /// `(a[n, n]) -> (v[n, n], w[n], info s32)`: eigenvalues (real) of the
    /// symmetric (Hermitian) matrix whose `lower` (upper) triangle `a` holds,
    /// ascending, and the eigenvectors as the columns of `v` when `vectors`
    /// (`syevd`, `heevd`).
    Syevd { n: usize, lower: bool, vectors: bool },
    /// `(a[m, n]) -> (a', s[k], u[m, uc], vt[vr, n], info s32)`, `k = min(m,
    /// n)`: singular values (real) descending and, by `mode` ('A' all, 'S' the first
    /// `k`, 'N' none), the singular vectors (`gesdd`; `a'` is LAPACK's
    /// workspace, zeros here).
    Gesdd { m: usize, n: usize, mode: u8, uc: usize, vr: usize },
    /// `(a[n, n]) -> (h[n, n], tau[n - 1], info s32)`: the Hessenberg form
    /// `Q^T A Q` above the first subdiagonal and the reflectors of `Q`
    /// below it, reducing rows and columns `low..=high` (1-based, LAPACK's
    /// `ilo`/`ihi`; `tau` is 0 outside them) (`gehrd`).
    Gehrd { n: usize, low: usize, high: usize },
    /// `(a[n, n]) -> (wr[n], wi[n], vl[n, n, 2], vr[n, n, 2], info s32)`:
    /// eigenvalues of a general matrix as real and imaginary parts, and its
    /// left (`left`) and right (`right`) eigenvectors as complex columns
    /// stored as parts (`geev`); a complex matrix's are `(w[n], vl[n, n],
    /// vr[n, n], info)`, all complex.
    Geev { n: usize, left: bool, right: bool },
    /// `(a[n, n]) -> (t[n, n], z[n, n], wr[n], wi[n], sdim s32, info s32)`: the
    /// real Schur form `a = z t z^T`, `z` when `vectors`, the eigenvalues off
    /// `t`'s diagonal blocks (`gees`, unsorted: `sdim` is 0); for a complex
    /// matrix `(t, z, w[n], sdim, info)`, `a = z t z^H`, `t` triangular.
    Gees { n: usize, vectors: bool },
    /// `(dl[n], d[n], du[n], b[n, nrhs]) -> (dl', d', du', x[n, nrhs], info
    /// s32)`: solves the tridiagonal system whose sub-, main and
    /// superdiagonals are `dl[1..]`, `d` and `du[..n - 1]` by Gaussian
    /// elimination with partial pivoting, leaving `U`'s diagonals in `d'`,
    /// `du'` and `dl'[1..n - 1]` as LAPACK does (`gtsv`; JAX passes `dl + 1`).
    Gtsv { n: usize, nrhs: usize },
    /// An FFT on complex values stored as parts (innermost dimension 2), over
    /// the innermost `lengths.rank` dimensions ([`fft`]).
    Fft { kind: fft::Kind, lengths: fft::Lengths },
}

/// A checked custom call: its target, element type, batch and operation.
/// Complex elements (`c`, `z` targets) are stored as their parts: each
/// complex array is a `real` one with one more innermost dimension of 2.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Call {
    pub target: String,
    pub real: Real,
    pub complex: bool,
    /// Leading batch dimensions.
    pub batch: Vec<i64>,
    pub op: Op,
}

impl Call {
    /// Checks a custom call to `target` with `backend_config` (its `{key =
    /// value : type, ...}` text) on operands and results of the given types.
    pub fn new(
        target: &str,
        backend_config: Option<&str>,
        operands: &[(DType, &[i64])],
        results: &[(DType, &[i64])],
    ) -> Result<Call, LinalgError> {
        let bad = |message: String| LinalgError::Invalid { target: target.to_string(), message };
        let original = operands;
        if let Some(kind) = fft::Kind::of_target(target) {
            let call = Call::fft(target, kind, backend_config, operands, results).map_err(bad)?;
            return call.checked(operands, results);
        }
        let Some((real, complex, routine)) = lapack_name(target) else {
            return Err(LinalgError::UnknownTarget(target.to_string()));
        };
        let config = parse_config(backend_config.unwrap_or("")).map_err(bad)?;
        let char_attr = |key: &str, default: u8| -> Result<u8, LinalgError> {
            match config.iter().find(|(k, _)| k == key) {
                Some((_, v)) => u8::try_from(*v).map_err(|_| bad(format!("{key} = {v} is not a character"))),
                None => Ok(default),
            }
        };
        // Every operand of a complex routine is complex: its logical shape drops the pair.
        let mut logical = Vec::with_capacity(operands.len());
        for &(dtype, dims) in operands {
            match dims.split_last() {
                Some((2, front)) if complex => logical.push((dtype, front)),
                _ if complex => return Err(bad(format!("operand {dtype}{dims:?} is not complex parts (innermost 2)"))),
                _ => logical.push((dtype, dims)),
            }
        }
        let operands = &logical[..];
        let Some(&(dtype, a)) = operands.first() else {
            return Err(bad("needs an operand".into()));
        };
        if dtype != real.dtype() {
            return Err(bad(format!("operand of {dtype} for a {} routine", real.dtype())));
        }
        if routine == "gtsv" {
            // Diagonals [.., n] and right-hand sides [.., n, nrhs].
            let (Some(&(_, b)), Some(rank)) = (operands.get(3), a.len().checked_sub(1)) else {
                return Err(bad("gtsv needs dl, d, du and b".into()));
            };
            let dim = |d: Option<&i64>| d.and_then(|&d| usize::try_from(d).ok()).ok_or_else(|| bad(format!("b {b:?}")));
            let op = Op::Gtsv { n: dim(a.get(rank))?, nrhs: dim(b.get(rank + 1))? };
            return Call { target: target.to_string(), real, complex, batch: a[..rank].to_vec(), op }
                .checked(original, results);
        }
        let Some(rank) = a.len().checked_sub(2) else {
            return Err(bad(format!("operand {a:?} is not a (batch of) matrices")));
        };
        let batch = a[..rank].to_vec();
        let dim = |d: i64| usize::try_from(d).map_err(|_| bad(format!("negative dimension in {a:?}")));
        let (rows, cols) = (dim(a[rank])?, dim(a[rank + 1])?);
        let op = match routine {
            "getrf" => Op::Getrf { m: rows, n: cols },
            "potrf" => {
                if rows != cols {
                    return Err(bad(format!("potrf of a non-square matrix {a:?}")));
                }
                Op::Potrf { n: rows, lower: uplo(char_attr("uplo", b'L')?).map_err(bad)? }
            }
            "trsm" => {
                let Some(&(bt, b)) = operands.get(1) else {
                    return Err(bad("trsm needs a and b".into()));
                };
                if bt != dtype || b.len() != a.len() || b[..rank] != a[..rank] {
                    return Err(bad(format!("b {bt}{b:?} does not match a {dtype}{a:?}")));
                }
                let (m, n) = (dim(b[rank])?, dim(b[rank + 1])?);
                let left = match char_attr("side", b'L')? {
                    b'L' => true,
                    b'R' => false,
                    c => return Err(bad(format!("side '{}'", c as char))),
                };
                let (trans, conj) = match char_attr("trans_x", b'N')? {
                    b'N' => (false, false),
                    b'T' => (true, false),
                    b'C' => (true, complex),
                    c => return Err(bad(format!("trans_x '{}'", c as char))),
                };
                let unit = match char_attr("diag", b'N')? {
                    b'N' => false,
                    b'U' => true,
                    c => return Err(bad(format!("diag '{}'", c as char))),
                };
                let k = if left { m } else { n };
                if rows != k || cols != k {
                    return Err(bad(format!("a {a:?} is not the {k}x{k} triangle b {b:?} needs")));
                }
                Op::Trsm { m, n, left, lower: uplo(char_attr("uplo", b'L')?).map_err(bad)?, trans, conj, unit }
            }
            "geqrf" => Op::Geqrf { m: rows, n: cols },
            "orgqr" | "ungqr" => {
                let k = match operands.get(1) {
                    Some((_, tau)) if tau.len() == rank + 1 => dim(tau[rank])?,
                    _ => return Err(bad("orgqr needs the reflectors and their tau".into())),
                };
                if k > cols || cols > rows {
                    return Err(bad(format!("orgqr of {a:?} with {k} reflectors")));
                }
                Op::Orgqr { m: rows, n: cols, k }
            }
            "syevd" | "heevd" => {
                if rows != cols {
                    return Err(bad(format!("syevd of a non-square matrix {a:?}")));
                }
                let vectors = match char_attr("mode", b'V')? {
                    b'V' => true,
                    b'N' => false,
                    c => return Err(bad(format!("mode '{}'", c as char))),
                };
                Op::Syevd { n: rows, lower: uplo(char_attr("uplo", b'L')?).map_err(bad)?, vectors }
            }
            "gesdd" => {
                let k = rows.min(cols);
                let mode = char_attr("mode", b'A')?;
                let (uc, vr) = match mode {
                    b'A' => (rows, cols),
                    b'S' => (k, k),
                    // No vectors: the results keep whatever shape the call declares.
                    b'N' => {
                        let last = |i: usize, j: usize| {
                            results.get(i).and_then(|r| r.1.get(rank + j)).and_then(|&d| usize::try_from(d).ok())
                        };
                        (last(2, 1).unwrap_or(0), last(3, 0).unwrap_or(0))
                    }
                    c => return Err(bad(format!("mode '{}'", c as char))),
                };
                Op::Gesdd { m: rows, n: cols, mode, uc, vr }
            }
            "geev" => {
                if rows != cols {
                    return Err(bad(format!("geev of a non-square matrix {a:?}")));
                }
                let vectors = |key: &str| match char_attr(key, b'N')? {
                    b'V' => Ok(true),
                    b'N' => Ok(false),
                    c => Err(bad(format!("{key} '{}'", c as char))),
                };
                Op::Geev { n: rows, left: vectors("compute_left")?, right: vectors("compute_right")? }
            }
            "gees" => {
                if rows != cols {
                    return Err(bad(format!("gees of a non-square matrix {a:?}")));
                }
                if char_attr("sort", b'N')? != b'N' {
                    let message = "sorted Schur forms (sort != 'N')".into();
                    return Err(LinalgError::Unsupported { target: target.to_string(), message });
                }
                let vectors = match char_attr("mode", b'V')? {
                    b'V' => true,
                    b'N' => false,
                    c => return Err(bad(format!("mode '{}'", c as char))),
                };
                Op::Gees { n: rows, vectors }
            }
            "gehrd" => {
                if rows != cols {
                    return Err(bad(format!("gehrd of a non-square matrix {a:?}")));
                }
                let int_attr = |key: &str, default: usize| match config.iter().find(|(k, _)| k == key) {
                    Some((_, v)) => usize::try_from(*v).map_err(|_| bad(format!("{key} = {v}"))),
                    None => Ok(default),
                };
                let (low, high) = (int_attr("low", 1)?, int_attr("high", rows)?);
                // LAPACK: 1 <= ilo <= ihi <= n, or ilo = 1 and ihi = 0 when n = 0.
                if low < 1 || high > rows || low > high.max(1) {
                    return Err(bad(format!("low = {low}, high = {high} for a {rows}x{rows} matrix")));
                }
                Op::Gehrd { n: rows, low, high }
            }
            _ => return Err(LinalgError::UnknownTarget(target.to_string())),
        };
        Call { target: target.to_string(), real, complex, batch, op }.checked(original, results)
    }

    /// The call, if it takes `operands` and gives `results`.
    fn checked(self, operands: &[(DType, &[i64])], results: &[(DType, &[i64])]) -> Result<Call, LinalgError> {
        let (want_in, want_out) = (self.operand_types(), self.result_types());
        let same = |got: &[(DType, &[i64])], want: &[(DType, Vec<i64>)]| {
            got.len() == want.len() && got.iter().zip(want).all(|((d, s), (wd, ws))| d == wd && *s == &ws[..])
        };
        if !same(operands, &want_in) || !same(results, &want_out) {
            let message = format!("takes {} and gives {}", types(&want_in), types(&want_out));
            return Err(LinalgError::Invalid { target: self.target, message });
        }
        Ok(self)
    }

    /// An FFT target: the transformed lengths and the batch from the shapes
    /// ([`Call::checked`] then checks them all).
    fn fft(
        target: &str,
        kind: fft::Kind,
        backend_config: Option<&str>,
        operands: &[(DType, &[i64])],
        results: &[(DType, &[i64])],
    ) -> Result<Call, String> {
        let config = parse_config(backend_config.unwrap_or(""))?;
        let rank = match config.iter().find(|(k, _)| k == "fft_rank") {
            Some(&(_, r @ 1..=3)) => r as usize,
            Some((_, r)) => return Err(format!("fft_rank = {r}, expected 1 to 3")),
            None => return Err("needs fft_rank in its backend_config".into()),
        };
        let (Some(&(dtype, a)), Some(&(_, r))) = (operands.first(), results.first()) else {
            return Err("needs an operand and a result".into());
        };
        let real = match dtype {
            DType::F32 => Real::F32,
            DType::F64 => Real::F64,
            t => return Err(format!("parts of type {t}, expected f32 or f64")),
        };
        // The dimensions that name the transformed lengths, and the pair dimension after them.
        let (named, pair) = match kind {
            fft::Kind::Fft | fft::Kind::Ifft => (a, 1),
            fft::Kind::Rfft => (a, 0),
            fft::Kind::Irfft => (r, 0),
        };
        let Some(batch_rank) = named.len().checked_sub(rank + pair) else {
            return Err(format!("{named:?} has fewer than {} dimensions", rank + pair));
        };
        let mut n = [0usize; 3];
        for (k, &d) in named[batch_rank..batch_rank + rank].iter().enumerate() {
            n[k] = usize::try_from(d).map_err(|_| format!("negative dimension in {named:?}"))?;
        }
        let op = Op::Fft { kind, lengths: fft::Lengths { rank, n } };
        Ok(Call { target: target.to_string(), real, complex: false, batch: named[..batch_rank].to_vec(), op })
    }

    /// The call a custom-call instruction makes, its operands' shapes given
    /// (the shapes and attributes every caller reads the same way).
    pub fn of_instruction(inst: &smelt_hlo::Instruction, operands: &[&smelt_hlo::Shape]) -> Result<Call, LinalgError> {
        let target = match &inst.attrs {
            smelt_hlo::Attrs::CustomCall(c) => c.target.as_str(),
            _ => "",
        };
        let ops: Vec<(DType, &[i64])> =
            operands.iter().filter_map(|s| s.as_array()).map(|a| (a.dtype, &a.dims[..])).collect();
        let leaves = inst.shape.leaves();
        let results: Vec<(DType, &[i64])> = leaves.iter().map(|a| (a.dtype, &a.dims[..])).collect();
        Call::new(target, inst.extras.backend_config.as_deref(), &ops, &results)
    }

    /// [`Call::run`] into fresh result buffers.
    pub fn run_owned(&self, inputs: &[&[u8]]) -> Result<Vec<Vec<u8>>, LinalgError> {
        let mut outputs: Vec<Vec<u8>> = self.result_types().iter().map(|t| vec![0u8; byte_size(t)]).collect();
        let mut outs: Vec<&mut [u8]> = outputs.iter_mut().map(|v| &mut v[..]).collect();
        self.run(inputs, &mut outs)?;
        Ok(outputs)
    }

    /// Matrices in the batch.
    pub fn matrices(&self) -> usize {
        self.batch.iter().map(|&d| d.max(0) as usize).product()
    }

    fn with_batch(&self, dtype: DType, dims: &[usize]) -> (DType, Vec<i64>) {
        (dtype, self.batch.iter().copied().chain(dims.iter().map(|&d| d as i64)).collect())
    }

    /// An array of the routine's elements: complex ones as parts.
    fn elems(&self, dims: &[usize]) -> (DType, Vec<i64>) {
        let pair: &[usize] = if self.complex { &[2] } else { &[] };
        self.with_batch(self.real.dtype(), &[dims, pair].concat())
    }

    /// An array of reals (eigenvalues, singular values) of the component type.
    fn reals(&self, dims: &[usize]) -> (DType, Vec<i64>) {
        self.with_batch(self.real.dtype(), dims)
    }

    /// The operands' element types and dimensions.
    pub fn operand_types(&self) -> Vec<(DType, Vec<i64>)> {
        match self.op {
            Op::Getrf { m, n } => vec![self.elems(&[m, n])],
            Op::Potrf { n, .. } => vec![self.elems(&[n, n])],
            Op::Trsm { m, n, left, .. } => {
                let k = if left { m } else { n };
                vec![self.elems(&[k, k]), self.elems(&[m, n])]
            }
            Op::Geqrf { m, n } | Op::Gesdd { m, n, .. } => vec![self.elems(&[m, n])],
            Op::Orgqr { m, n, k } => vec![self.elems(&[m, n]), self.elems(&[k])],
            Op::Syevd { n, .. } | Op::Gehrd { n, .. } | Op::Geev { n, .. } | Op::Gees { n, .. } => {
                vec![self.elems(&[n, n])]
            }
            Op::Gtsv { n, nrhs } => {
                let diagonal = self.elems(&[n]);
                vec![diagonal.clone(), diagonal.clone(), diagonal, self.elems(&[n, nrhs])]
            }
            Op::Fft { kind, lengths } => vec![self.fft_side(kind, lengths, true)],
        }
    }

    /// An FFT's operand (`input`) or result: parts of a full or half spectrum, or reals.
    fn fft_side(&self, kind: fft::Kind, lengths: fft::Lengths, input: bool) -> (DType, Vec<i64>) {
        use fft::Kind as K;
        let t = self.real.dtype();
        match (kind, input) {
            (K::Fft | K::Ifft, _) => self.with_batch(t, &[lengths.axes(), &[2]].concat()),
            (K::Rfft, true) | (K::Irfft, false) => self.with_batch(t, lengths.axes()),
            (K::Rfft, false) | (K::Irfft, true) => self.with_batch(t, &[&lengths.half_axes()[..], &[2]].concat()),
        }
    }

    /// The results' element types and dimensions.
    pub fn result_types(&self) -> Vec<(DType, Vec<i64>)> {
        let info = || self.with_batch(DType::S32, &[]);
        match self.op {
            Op::Getrf { m, n } => vec![self.elems(&[m, n]), self.with_batch(DType::S32, &[m.min(n)]), info()],
            Op::Potrf { n, .. } => vec![self.elems(&[n, n]), info()],
            Op::Trsm { m, n, .. } | Op::Orgqr { m, n, .. } => vec![self.elems(&[m, n])],
            Op::Geqrf { m, n } => vec![self.elems(&[m, n]), self.elems(&[m.min(n)])],
            Op::Syevd { n, .. } => vec![self.elems(&[n, n]), self.reals(&[n]), info()],
            Op::Gesdd { m, n, uc, vr, .. } => {
                vec![self.elems(&[m, n]), self.reals(&[m.min(n)]), self.elems(&[m, uc]), self.elems(&[vr, n]), info()]
            }
            Op::Gehrd { n, .. } => vec![self.elems(&[n, n]), self.elems(&[n.saturating_sub(1)]), info()],
            Op::Geev { n, .. } if self.complex => {
                vec![self.elems(&[n]), self.elems(&[n, n]), self.elems(&[n, n]), info()]
            }
            Op::Geev { n, .. } => {
                vec![self.reals(&[n]), self.reals(&[n]), self.reals(&[n, n, 2]), self.reals(&[n, n, 2]), info()]
            }
            Op::Gees { n, .. } if self.complex => {
                vec![self.elems(&[n, n]), self.elems(&[n, n]), self.elems(&[n]), info(), info()]
            }
            Op::Gees { n, .. } => {
                vec![self.elems(&[n, n]), self.elems(&[n, n]), self.reals(&[n]), self.reals(&[n]), info(), info()]
            }
            Op::Gtsv { n, nrhs } => {
                let diagonal = self.elems(&[n]);
                vec![diagonal.clone(), diagonal.clone(), diagonal, self.elems(&[n, nrhs]), info()]
            }
            Op::Fft { kind, lengths } => vec![self.fft_side(kind, lengths, false)],
        }
    }

    /// Computes the call: `inputs` and `outputs` hold the operands and results
    /// as little-endian row-major bytes, in order.
    pub fn run(&self, inputs: &[&[u8]], outputs: &mut [&mut [u8]]) -> Result<(), LinalgError> {
        let sizes = |ts: &[(DType, Vec<i64>)]| -> Vec<usize> { ts.iter().map(byte_size).collect() };
        let (want_in, want_out) = (sizes(&self.operand_types()), sizes(&self.result_types()));
        let got_in: Vec<usize> = inputs.iter().map(|b| b.len()).collect();
        let got_out: Vec<usize> = outputs.iter().map(|b| b.len()).collect();
        if got_in != want_in || got_out != want_out {
            return Err(LinalgError::Invalid {
                target: self.target.clone(),
                message: format!("buffers of {got_in:?} -> {got_out:?} bytes, not {want_in:?} -> {want_out:?}"),
            });
        }
        match (self.op, self.real, self.complex) {
            (Op::Fft { kind, lengths }, Real::F32, _) => {
                run_fft::<f32>(kind, lengths, self.matrices(), inputs, outputs)
            }
            (Op::Fft { kind, lengths }, Real::F64, _) => {
                run_fft::<f64>(kind, lengths, self.matrices(), inputs, outputs)
            }
            (_, Real::F32, false) => self.run_typed::<f32>(inputs, outputs),
            (_, Real::F64, false) => self.run_typed::<f64>(inputs, outputs),
            (_, Real::F32, true) => self.run_typed::<Complex<f32>>(inputs, outputs),
            (_, Real::F64, true) => self.run_typed::<Complex<f64>>(inputs, outputs),
        }
        Ok(())
    }

    /// Every routine but the FFTs, on elements `S` (real or complex).
    fn run_typed<S: Scalar>(&self, inputs: &[&[u8]], outputs: &mut [&mut [u8]]) {
        let count = self.matrices();
        let a: Vec<S> = scalar::read(inputs[0]);
        let per = a.len().checked_div(count).unwrap_or(0);
        match self.op {
            Op::Getrf { m, n } => {
                let (mut lu, mut piv, mut info) = (a, Vec::new(), Vec::new());
                for chunk in lu.chunks_mut(per.max(1)).take(count) {
                    let (p, i) = getrf(chunk, m, n);
                    piv.extend(p);
                    info.push(i);
                }
                write(&lu, outputs[0]);
                write(&piv, outputs[1]);
                write(&info, outputs[2]);
            }
            Op::Potrf { n, lower } => {
                let (mut f, mut info) = (a, Vec::new());
                for chunk in f.chunks_mut(per.max(1)).take(count) {
                    info.push(potrf(chunk, n, lower));
                }
                write(&f, outputs[0]);
                write(&info, outputs[1]);
            }
            Op::Trsm { m, n, left, lower, trans, conj, unit } => {
                let mut b: Vec<S> = scalar::read(inputs[1]);
                let k = if left { m } else { n };
                for (i, x) in b.chunks_mut((m * n).max(1)).take(count).enumerate() {
                    trsm(&a[i * k * k..(i + 1) * k * k], x, (m, n), (left, lower, trans, conj, unit));
                }
                write(&b, outputs[0]);
            }
            Op::Geqrf { m, n } => {
                let (mut qr, mut taus) = (a, Vec::new());
                for chunk in qr.chunks_mut(per.max(1)).take(count) {
                    taus.extend(qr::geqrf(chunk, m, n));
                }
                write(&qr, outputs[0]);
                write(&taus, outputs[1]);
            }
            Op::Orgqr { m, n, k } => {
                let tau: Vec<S> = scalar::read(inputs[1]);
                let mut q = a;
                for (i, chunk) in q.chunks_mut(per.max(1)).take(count).enumerate() {
                    qr::orgqr(chunk, m, n, &tau[i * k..(i + 1) * k]);
                }
                write(&q, outputs[0]);
            }
            Op::Gehrd { n, low, high } => {
                let (mut h, mut taus) = (a, Vec::new());
                for chunk in h.chunks_mut(per.max(1)).take(count) {
                    taus.extend(qr::gehrd(chunk, n, (low, high)));
                }
                write(&h, outputs[0]);
                write(&taus, outputs[1]);
                write(&vec![0i32; count], outputs[2]);
            }
            Op::Syevd { n, lower, vectors } => {
                let (mut v, mut w, mut info) = (Vec::new(), Vec::new(), Vec::new());
                for chunk in a.chunks(per.max(1)).take(count) {
                    let (vi, wi, ok) = eigen::syevd(chunk, n, lower, vectors);
                    v.extend(vi);
                    w.extend(wi);
                    info.push(i32::from(!ok));
                }
                write(&v, outputs[0]);
                write(&w, outputs[1]);
                write(&info, outputs[2]);
            }
            Op::Gesdd { m, n, mode, uc, vr } => {
                let (mut s, mut u, mut vt, mut info) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
                for chunk in a.chunks(per.max(1)).take(count) {
                    let r = eigen::gesdd(chunk, m, n, mode != b'N', (uc, vr));
                    s.extend(r.s);
                    u.extend(r.u);
                    vt.extend(r.vt);
                    info.push(i32::from(!r.ok));
                }
                write(&vec![S::ZERO; count * m * n], outputs[0]);
                write(&s, outputs[1]);
                write(&u, outputs[2]);
                write(&vt, outputs[3]);
                write(&info, outputs[4]);
            }
            Op::Geev { n, left, right } => {
                let (mut w, mut vl, mut vr, mut info) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
                for chunk in a.chunks(per.max(1)).take(count) {
                    let unknown = Complex::new(f64::NAN, f64::NAN);
                    let zeros = vec![Complex::new(0.0, 0.0); n * n];
                    let r = eigen::geev(chunk, n, left, right);
                    info.push(i32::from(r.is_none()));
                    let r = r.unwrap_or(eigen::Geev { values: vec![unknown; n], vl: zeros.clone(), vr: zeros });
                    w.extend(r.values);
                    vl.extend(r.vl);
                    vr.extend(r.vr);
                }
                let parts = |values: &[Complex<f64>]| scalar::parts::<S::Real>(values);
                let at = write_eigenvalues::<S>(&w, outputs, 0);
                write(&parts(&vl), outputs[at]);
                write(&parts(&vr), outputs[at + 1]);
                write(&info, outputs[at + 2]);
            }
            Op::Gees { n, vectors } => {
                let (mut t, mut z, mut w, mut info) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
                for chunk in a.chunks(per.max(1)).take(count) {
                    let r = schur::gees(chunk, n);
                    t.extend(r.t);
                    z.extend(if vectors { r.z } else { vec![Complex::new(0.0, 0.0); n * n] });
                    w.extend(r.w);
                    info.push(r.info);
                }
                let narrow = |values: &[Complex<f64>]| -> Vec<S> {
                    values.iter().map(|v| S::of_parts(S::Real::of_f64(v.re), S::Real::of_f64(v.im))).collect()
                };
                write(&narrow(&t), outputs[0]);
                write(&narrow(&z), outputs[1]);
                let at = write_eigenvalues::<S>(&w, outputs, 2);
                write(&vec![0i32; count], outputs[at]);
                write(&info, outputs[at + 1]);
            }
            Op::Gtsv { n, nrhs } => {
                let [mut dl, mut d, mut du, mut b] = [0, 1, 2, 3].map(|i| scalar::read::<S>(inputs[i]));
                let mut info = Vec::with_capacity(count);
                for i in 0..count {
                    let diagonals =
                        (&mut dl[i * n..(i + 1) * n], &mut d[i * n..(i + 1) * n], &mut du[i * n..(i + 1) * n]);
                    info.push(gtsv(diagonals, &mut b[i * n * nrhs..(i + 1) * n * nrhs], n, nrhs));
                }
                for (k, v) in [dl, d, du, b].iter().enumerate() {
                    write(v, outputs[k]);
                }
                write(&info, outputs[4]);
            }
            Op::Fft { .. } => {}
        }
    }

    /// The call as one line of text ([`Call::from_spec`] reads it back).
    pub fn spec(&self) -> String {
        self.to_string()
    }

    pub fn from_spec(spec: &str) -> Result<Call, LinalgError> {
        let bad = |m: &str| LinalgError::Invalid { target: spec.to_string(), message: format!("bad call spec: {m}") };
        let mut words = spec.split(' ');
        let target = words.next().ok_or_else(|| bad("empty"))?.to_string();
        let (mut batch, mut vals) = (Vec::new(), std::collections::HashMap::new());
        for w in words {
            let (k, v) = w.split_once('=').ok_or_else(|| bad(w))?;
            if k == "batch" {
                batch = v
                    .split(',')
                    .filter(|s| !s.is_empty())
                    .map(|d| d.parse().map_err(|_| bad(w)))
                    .collect::<Result<_, _>>()?;
            } else {
                vals.insert(k.to_string(), v.parse::<usize>().map_err(|_| bad(w))?);
            }
        }
        let get = |k: &str| vals.get(k).copied().ok_or_else(|| bad(k));
        if let Some(kind) = fft::Kind::of_target(&target) {
            let real = if get("bits")? == 64 { Real::F64 } else { Real::F32 };
            let lengths = fft::Lengths { rank: get("rank")?, n: [get("n0")?, get("n1")?, get("n2")?] };
            return Ok(Call { target, real, complex: false, batch, op: Op::Fft { kind, lengths } });
        }
        let Some((real, complex, routine)) = lapack_name(&target) else {
            return Err(LinalgError::UnknownTarget(target));
        };
        let op = match Some(routine) {
            Some("getrf") => Op::Getrf { m: get("m")?, n: get("n")? },
            Some("potrf") => Op::Potrf { n: get("n")?, lower: get("lower")? != 0 },
            Some("trsm") => Op::Trsm {
                m: get("m")?,
                n: get("n")?,
                left: get("left")? != 0,
                lower: get("lower")? != 0,
                trans: get("trans")? != 0,
                conj: get("conj")? != 0,
                unit: get("unit")? != 0,
            },
            Some("geqrf") => Op::Geqrf { m: get("m")?, n: get("n")? },
            Some("orgqr" | "ungqr") => Op::Orgqr { m: get("m")?, n: get("n")?, k: get("k")? },
            Some("syevd" | "heevd") => {
                Op::Syevd { n: get("n")?, lower: get("lower")? != 0, vectors: get("vectors")? != 0 }
            }
            Some("gesdd") => Op::Gesdd {
                m: get("m")?,
                n: get("n")?,
                mode: u8::try_from(get("mode")?).map_err(|_| bad("mode"))?,
                uc: get("uc")?,
                vr: get("vr")?,
            },
            Some("gtsv") => Op::Gtsv { n: get("n")?, nrhs: get("nrhs")? },
            Some("gehrd") => Op::Gehrd { n: get("n")?, low: get("low")?, high: get("high")? },
            Some("gees") => Op::Gees { n: get("n")?, vectors: get("vectors")? != 0 },
            Some("geev") => Op::Geev { n: get("n")?, left: get("left")? != 0, right: get("right")? != 0 },
            _ => return Err(LinalgError::UnknownTarget(target)),
        };
        Ok(Call { target, real, complex, batch, op })
    }
}

impl fmt::Display for Call {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let batch: Vec<String> = self.batch.iter().map(|d| d.to_string()).collect();
        write!(f, "{} batch={}", self.target, batch.join(","))?;
        let b = |x: bool| u8::from(x);
        match self.op {
            Op::Getrf { m, n } => write!(f, " m={m} n={n}"),
            Op::Potrf { n, lower } => write!(f, " n={n} lower={}", b(lower)),
            Op::Trsm { m, n, left, lower, trans, conj, unit } => {
                let flags = [b(left), b(lower), b(trans), b(conj), b(unit)];
                let [left, lower, trans, conj, unit] = flags;
                write!(f, " m={m} n={n} left={left} lower={lower} trans={trans} conj={conj} unit={unit}")
            }
            Op::Geqrf { m, n } => write!(f, " m={m} n={n}"),
            Op::Orgqr { m, n, k } => write!(f, " m={m} n={n} k={k}"),
            Op::Syevd { n, lower, vectors } => write!(f, " n={n} lower={} vectors={}", b(lower), b(vectors)),
            Op::Gesdd { m, n, mode, uc, vr } => write!(f, " m={m} n={n} mode={mode} uc={uc} vr={vr}"),
            Op::Gehrd { n, low, high } => write!(f, " n={n} low={low} high={high}"),
            Op::Gtsv { n, nrhs } => write!(f, " n={n} nrhs={nrhs}"),
            Op::Geev { n, left, right } => write!(f, " n={n} left={} right={}", b(left), b(right)),
            Op::Gees { n, vectors } => write!(f, " n={n} vectors={}", b(vectors)),
            Op::Fft { lengths: fft::Lengths { rank, n }, .. } => {
                let bits = self.real.dtype().byte_size() * 8;
                write!(f, " bits={bits} rank={rank} n0={} n1={} n2={}", n[0], n[1], n[2])
            }
        }
    }
}

fn run_fft<T: Float + Le + fft::Planned>(
    kind: fft::Kind,
    lengths: fft::Lengths,
    count: usize,
    inputs: &[&[u8]],
    outputs: &mut [&mut [u8]],
) {
    let x: Vec<T> = read(inputs[0]);
    let mut y = vec![T::ZERO; outputs[0].len() / T::BYTES];
    fft::run(kind, lengths, count, &x, &mut y);
    write(&y, outputs[0]);
}

/// Writes eigenvalues into `outputs[at..]` as LAPACK returns them: one
/// complex array for a complex routine, real and imaginary parts apart for
/// a real one; returns the index of the next output.
fn write_eigenvalues<S: Scalar>(w: &[Complex<f64>], outputs: &mut [&mut [u8]], at: usize) -> usize {
    if S::COMPLEX {
        write(&scalar::parts::<S::Real>(w), outputs[at]);
        return at + 1;
    }
    let (re, im): (Vec<S::Real>, Vec<S::Real>) =
        w.iter().map(|z| (S::Real::of_f64(z.re), S::Real::of_f64(z.im))).unzip();
    write(&re, outputs[at]);
    write(&im, outputs[at + 1]);
    at + 2
}

/// `lapack_sgetrf_ffi` as `(F32, false, "getrf")`, `lapack_zungqr_ffi` as
/// `(F64, true, "ungqr")`; `None` for a name that is no LAPACK target smelt
/// knows.
fn lapack_name(target: &str) -> Option<(Real, bool, &str)> {
    let name = target.strip_prefix("lapack_")?.strip_suffix("_ffi")?;
    let (kind, routine) = name.split_at_checked(1)?;
    let (real, complex) = match kind {
        "s" => (Real::F32, false),
        "d" => (Real::F64, false),
        "c" => (Real::F32, true),
        "z" => (Real::F64, true),
        _ => return None,
    };
    let known = match routine {
        "getrf" | "potrf" | "trsm" | "geqrf" | "gesdd" | "geev" | "gees" | "gehrd" | "gtsv" => true,
        "orgqr" | "syevd" => !complex,
        "ungqr" | "heevd" => complex,
        _ => false,
    };
    known.then_some((real, complex, routine))
}

/// Bytes of an array of `(dtype, dims)`.
pub fn byte_size((dtype, dims): &(DType, Vec<i64>)) -> usize {
    dtype.byte_size() * dims.iter().map(|&x| x.max(0) as usize).product::<usize>()
}

fn uplo(c: u8) -> Result<bool, String> {
    match c {
        b'L' => Ok(true),
        b'U' => Ok(false),
        c => Err(format!("uplo '{}'", c as char)),
    }
}

fn types(ts: &[(DType, Vec<i64>)]) -> String {
    let each: Vec<String> = ts.iter().map(|(d, s)| format!("{d}{s:?}")).collect();
    format!("({})", each.join(", "))
}

/// `{uplo = 76 : ui8, side = 76 : ui8}` as `[("uplo", 76), ("side", 76)]`.
fn parse_config(text: &str) -> Result<Vec<(String, i64)>, String> {
    let body = text.trim().trim_start_matches('{').trim_end_matches('}').trim();
    let mut out = Vec::new();
    for item in body.split(',').map(str::trim).filter(|s| !s.is_empty()) {
        let (key, rest) = item.split_once('=').ok_or_else(|| format!("backend_config item `{item}`"))?;
        let value = rest.split(':').next().unwrap_or("").trim();
        let value = value.parse::<i64>().map_err(|_| format!("backend_config value `{item}`"))?;
        out.push((key.trim().to_string(), value));
    }
    Ok(out)
}

/// What the routines need of f32 and f64.
pub(crate) trait Float:
    Copy
    + PartialOrd
    + std::ops::Add<Output = Self>
    + std::ops::Sub<Output = Self>
    + std::ops::Mul<Output = Self>
    + std::ops::Div<Output = Self>
{
    const ZERO: Self;
    const BYTES: usize;
    fn sqrt(self) -> Self;
    fn is_nan(self) -> bool;
    /// The smallest normal number (LAPACK's `sfmin` for these types).
    fn min_positive() -> Self;
    fn read(b: &[u8]) -> Self;
    fn write(self, out: &mut [u8]);
    fn to_f64(self) -> f64;
    fn of_f64(x: f64) -> Self;
}

macro_rules! float {
    ($t:ty, $n:expr) => {
        impl Float for $t {
            const ZERO: Self = 0.0;
            const BYTES: usize = $n;
            fn sqrt(self) -> Self {
                <$t>::sqrt(self)
            }
            fn is_nan(self) -> bool {
                <$t>::is_nan(self)
            }
            fn min_positive() -> Self {
                <$t>::MIN_POSITIVE
            }
            fn read(b: &[u8]) -> Self {
                let mut a = [0u8; $n];
                a.copy_from_slice(b);
                <$t>::from_le_bytes(a)
            }
            fn write(self, out: &mut [u8]) {
                out.copy_from_slice(&self.to_le_bytes());
            }
            fn to_f64(self) -> f64 {
                self as f64
            }
            fn of_f64(x: f64) -> Self {
                x as $t
            }
        }
    };
}
float!(f32, 4);
float!(f64, 8);

pub(crate) fn read<T: Float>(bytes: &[u8]) -> Vec<T> {
    bytes.chunks_exact(T::BYTES).map(T::read).collect()
}

/// Little-endian values into `out` (which has room for exactly them).
trait Le: Copy {
    fn put(self, out: &mut [u8]);
    const SIZE: usize;
}
impl<T: Scalar> Le for T {
    fn put(self, out: &mut [u8]) {
        Scalar::write(self, out)
    }
    const SIZE: usize = <T as Scalar>::BYTES;
}
impl Le for i32 {
    fn put(self, out: &mut [u8]) {
        out.copy_from_slice(&self.to_le_bytes())
    }
    const SIZE: usize = 4;
}

fn write<T: Le>(values: &[T], out: &mut [u8]) {
    for (v, o) in values.iter().zip(out.chunks_exact_mut(T::SIZE)) {
        v.put(o);
    }
}

/// `getf2` on the row-major `m x n` matrix `a`, in place: the 1-based row
/// interchanges and `info` (the 1-based column of the first exactly zero
/// pivot, 0 if none; the factorization goes on past it, as LAPACK's does).
fn getrf<S: Scalar>(a: &mut [S], m: usize, n: usize) -> (Vec<i32>, i32) {
    let mut piv = Vec::with_capacity(m.min(n));
    let mut info = 0;
    for j in 0..m.min(n) {
        // The first row of largest magnitude (i?amax: NaN is never larger).
        let mut p = j;
        for i in j + 1..m {
            if a[i * n + j].abs1() > a[p * n + j].abs1() {
                p = i;
            }
        }
        piv.push(p as i32 + 1);
        let d = a[p * n + j];
        if d != S::ZERO {
            if p != j {
                for k in 0..n {
                    a.swap(p * n + k, j * n + k);
                }
            }
            // ?getf2: scale by the reciprocal unless that would overflow.
            if d.modulus() >= S::Real::min_positive() {
                let r = S::ONE.quotient(d);
                for i in j + 1..m {
                    a[i * n + j] = a[i * n + j] * r;
                }
            } else {
                for i in j + 1..m {
                    a[i * n + j] = a[i * n + j].quotient(d);
                }
            }
        } else if info == 0 {
            info = j as i32 + 1;
        }
        for i in j + 1..m {
            let l = a[i * n + j];
            for k in j + 1..n {
                a[i * n + k] = a[i * n + k] - l * a[j * n + k];
            }
        }
    }
    (piv, info)
}

/// `potf2` on the row-major `n x n` matrix `a`, in place, in the `lower`
/// (upper) triangle: `A = L L^H` (`U^H U`); returns `info` (the 1-based
/// order of the first leading minor that is not positive definite, where it
/// stops; 0 if none).
fn potrf<S: Scalar>(a: &mut [S], n: usize, lower: bool) -> i32 {
    // Element (i, j) of the factor seen as lower: U's (j, i), conjugated.
    let get = |a: &[S], i: usize, j: usize| if lower { a[i * n + j] } else { a[j * n + i].conj() };
    let set = |a: &mut [S], i: usize, j: usize, v: S| {
        if lower { a[i * n + j] = v } else { a[j * n + i] = v.conj() }
    };
    for j in 0..n {
        let mut d = get(a, j, j).re();
        for k in 0..j {
            d = d - get(a, j, k).abs2();
        }
        if d <= S::Real::ZERO || d.is_nan() {
            set(a, j, j, S::of_real(d));
            return j as i32 + 1;
        }
        let d = d.sqrt();
        set(a, j, j, S::of_real(d));
        for i in j + 1..n {
            let mut s = get(a, i, j);
            for k in 0..j {
                s = s - get(a, i, k) * get(a, j, k).conj();
            }
            set(a, i, j, s.over(d));
        }
    }
    0
}

/// How `trsm` reads its triangle: `(left, lower, trans, conj, unit)`.
type TrsmForm = (bool, bool, bool, bool, bool);

/// Solves `op(A) X = B` (`left`) or `X op(A) = B` for `X`, overwriting the
/// row-major `m x n` matrix `b`; `a` is row-major `k x k`, only its `lower`
/// (upper) triangle read, its diagonal taken as 1 when `unit`; `op` is a
/// transpose when `trans`, conjugated when `conj`.
fn trsm<T: Scalar>(a: &[T], b: &mut [T], (m, n): (usize, usize), (left, lower, trans, conj, unit): TrsmForm) {
    let k = if left { m } else { n };
    // op(A)[i][j]; only its triangle is read, which is lower when A's is
    // lower and not transposed or upper and transposed.
    let op = |i: usize, j: usize| {
        let x = if trans { a[j * k + i] } else { a[i * k + j] };
        if conj { x.conj() } else { x }
    };
    let low = lower != trans;
    let diag = |i: usize| if unit { T::ONE } else { op(i, i) };
    // Unknowns in solving order; each depends on those solved before it.
    let order = |len: usize, forward: bool| -> Vec<usize> {
        if forward { (0..len).collect() } else { (0..len).rev().collect() }
    };
    if left {
        // Column by column: T x = b, forward for a lower T.
        for c in 0..n {
            for i in order(m, low) {
                let solved = if low { 0..i } else { i + 1..m };
                let mut s = b[i * n + c];
                for j in solved {
                    s = s - op(i, j) * b[j * n + c];
                }
                b[i * n + c] = s.quotient(diag(i));
            }
        }
    } else {
        // Row by row: x T = b, so x[j] T[j][j] = b[j] - the solved terms;
        // backward for a lower T.
        for r in 0..m {
            let row = &mut b[r * n..(r + 1) * n];
            for j in order(n, !low) {
                let solved = if low { j + 1..n } else { 0..j };
                let mut s = row[j];
                for i in solved {
                    s = s - row[i] * op(i, j);
                }
                row[j] = s.quotient(diag(j));
            }
        }
    }
}

/// `gtsv` on one system, in place: `dl[1..]`, `d`, `du[..n - 1]` the sub-,
/// main and superdiagonals, `b` row-major `n x nrhs`. Rows are interchanged
/// when the subdiagonal entry is larger (by `|re| + |im|`); the fill-in of
/// the second superdiagonal goes to `dl[1..n - 1]`. Returns `info`: the
/// 1-based index of the first exactly zero pivot, where it stops, or 0.
fn gtsv<S: Scalar>((dl, d, du): (&mut [S], &mut [S], &mut [S]), b: &mut [S], n: usize, nrhs: usize) -> i32 {
    // LAPACK's DL(k) is dl[k + 1].
    for k in 0..n.saturating_sub(1) {
        let sub = dl[k + 1];
        if sub == S::ZERO {
            if d[k] == S::ZERO {
                return k as i32 + 1;
            }
        } else if d[k].abs1() >= sub.abs1() {
            let mult = sub.quotient(d[k]);
            d[k + 1] = d[k + 1] - mult * du[k];
            for j in 0..nrhs {
                b[(k + 1) * nrhs + j] = b[(k + 1) * nrhs + j] - mult * b[k * nrhs + j];
            }
            if k + 2 < n {
                dl[k + 1] = S::ZERO;
            }
        } else {
            let mult = d[k].quotient(sub);
            d[k] = sub;
            let next = d[k + 1];
            d[k + 1] = du[k] - mult * next;
            if k + 2 < n {
                dl[k + 1] = du[k + 1];
                du[k + 1] = S::ZERO - mult * dl[k + 1];
            }
            du[k] = next;
            for j in 0..nrhs {
                let top = b[k * nrhs + j];
                b[k * nrhs + j] = b[(k + 1) * nrhs + j];
                b[(k + 1) * nrhs + j] = top - mult * b[(k + 1) * nrhs + j];
            }
        }
    }
    if n > 0 && d[n - 1] == S::ZERO {
        return n as i32;
    }
    // Back substitution with U (diagonal d, superdiagonals du and dl[1..]).
    for j in 0..nrhs {
        for k in (0..n).rev() {
            let mut s = b[k * nrhs + j];
            if k + 1 < n {
                s = s - du[k] * b[(k + 1) * nrhs + j];
            }
            if k + 2 < n {
                s = s - dl[k + 1] * b[(k + 2) * nrhs + j];
            }
            b[k * nrhs + j] = s.quotient(d[k]);
        }
    }
    0
}

mod eigen;
mod qr;
mod scalar;
#[cfg(test)]
mod tests;
