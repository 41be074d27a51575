//! Generated GEMMs against a naive reference: every dtype combination, both
//! transpositions, edge shapes, batch, both test runtimes, and the epilogue
//! contract (each element visited once, after its final value is stored).

use std::ffi::c_void;
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};

use half::{bf16, f16};
use inkwell::context::Context;
use inkwell::targets::TargetMachine;
use smelt_hlo::DType;

use super::{GemmSpec, gemm_function};
use crate::jit::{self, Runtime};

pub(crate) type EpiFn = unsafe extern "C" fn(*mut c_void, i64, i64, i64, i64, i64);
type GemmFn = unsafe extern "C" fn(*const u8, *const u8, *mut u8, i64, i64, i64, i64, Option<EpiFn>, *mut c_void);

/// Deterministic test data.
pub(crate) use smelt_hlo::random::SplitMix as Rng;

/// Stores `v` (already representable) as `d`'s little-endian bytes.
pub(crate) fn encode(d: DType, vals: &[f64]) -> Vec<u8> {
    let mut out = Vec::with_capacity(vals.len() * d.byte_size());
    for &v in vals {
        match d {
            DType::F16 => out.extend(f16::from_f64(v).to_le_bytes()),
            DType::Bf16 => out.extend(bf16::from_f64(v).to_le_bytes()),
            DType::F32 => out.extend((v as f32).to_le_bytes()),
            DType::F64 => out.extend(v.to_le_bytes()),
            DType::S8 | DType::U8 | DType::Pred => out.push(v as i64 as u8),
            DType::S16 | DType::U16 => out.extend((v as i64 as u16).to_le_bytes()),
            DType::S32 | DType::U32 => out.extend((v as i64 as u32).to_le_bytes()),
            DType::S64 | DType::U64 => out.extend((v as i64).to_le_bytes()),
            DType::C64 | DType::C128 => unreachable!("products of complex values are lowered to real ones"),
        }
    }
    out
}

pub(crate) fn decode(d: DType, bytes: &[u8]) -> Vec<f64> {
    bytes
        .chunks_exact(d.byte_size())
        .map(|b| match d {
            DType::F16 => f16::from_le_bytes([b[0], b[1]]).to_f64(),
            DType::Bf16 => bf16::from_le_bytes([b[0], b[1]]).to_f64(),
            DType::F32 => f32::from_le_bytes(b.try_into().unwrap()) as f64,
            DType::F64 => f64::from_le_bytes(b.try_into().unwrap()),
            DType::S8 => b[0] as i8 as f64,
            DType::U8 | DType::Pred => b[0] as f64,
            DType::S16 => i16::from_le_bytes([b[0], b[1]]) as f64,
            DType::U16 => u16::from_le_bytes([b[0], b[1]]) as f64,
            DType::S32 => i32::from_le_bytes(b.try_into().unwrap()) as f64,
            DType::U32 => u32::from_le_bytes(b.try_into().unwrap()) as f64,
            DType::S64 => i64::from_le_bytes(b.try_into().unwrap()) as f64,
            DType::U64 => u64::from_le_bytes(b.try_into().unwrap()) as f64,
            DType::C64 | DType::C128 => unreachable!("products of complex values are lowered to real ones"),
        })
        .collect()
}

/// Rounds a value to what `d` can hold (wrapping for integers).
pub(crate) fn round_to(d: DType, v: f64) -> f64 {
    decode(d, &encode(d, &[v]))[0]
}

fn random_values(rng: &mut Rng, d: DType, n: usize, exact: bool) -> Vec<f64> {
    (0..n)
        .map(|_| match d {
            DType::S8 => rng.int_in(-128, 127) as f64,
            DType::S32 if !exact => rng.int_in(i32::MIN as i64, i32::MAX as i64) as f64,
            DType::U8 => rng.int_in(0, 255) as f64,
            d if d.is_unsigned_int() => rng.int_in(0, 5) as f64,
            d if d.is_float() && !exact => round_to(d, rng.unit()),
            _ => rng.int_in(-3, 3) as f64,
        })
        .collect()
}

/// The reference product in the accumulator type of `out`, rounded to `out`.
fn reference(spec: &GemmSpec, a: &[f64], b: &[f64], batch: usize, m: usize, n: usize, k: usize) -> Vec<f64> {
    let mut c = vec![0.0; batch * m * n];
    for bi in 0..batch {
        for i in 0..m {
            for j in 0..n {
                let av =
                    |kk: usize| if spec.lhs_transposed { a[(bi * k + kk) * m + i] } else { a[(bi * m + i) * k + kk] };
                let bv =
                    |kk: usize| if spec.rhs_transposed { b[(bi * n + j) * k + kk] } else { b[(bi * k + kk) * n + j] };
                let v = match spec.out {
                    DType::F64 => (0..k).map(|kk| av(kk) * bv(kk)).sum::<f64>(),
                    d if d.is_float() => (0..k).map(|kk| av(kk) as f32 * bv(kk) as f32).sum::<f32>() as f64,
                    d => {
                        wrap(d, (0..k).fold(0i64, |s, kk| s.wrapping_add((av(kk) as i64).wrapping_mul(bv(kk) as i64))))
                    }
                };
                c[(bi * m + i) * n + j] = round_to(spec.out, v);
            }
        }
    }
    c
}

/// An integer wrapped to `d`'s width, as f64 (exact for widths up to 32 bits).
fn wrap(d: DType, v: i64) -> f64 {
    smelt_kernel::wrap_integer(d, v.into()) as f64
}

/// What epilogue callbacks check of the output elements (at `out`, of `dtype`):
/// each is visited once, with its final value.
pub(crate) struct Visits {
    out: *const u8,
    dtype: DType,
    expected: Vec<f64>,
    tolerance: f64,
    counts: Vec<AtomicU32>,
    bad: AtomicBool,
}

impl Visits {
    pub(crate) fn new(out: *const u8, dtype: DType, expected: Vec<f64>, tolerance: f64) -> Visits {
        let counts = (0..expected.len()).map(|_| AtomicU32::new(0)).collect();
        Visits { out, dtype, expected, tolerance, counts, bad: AtomicBool::new(false) }
    }

    /// Notes a block that is empty or outside the output.
    pub(crate) fn reject(&self) {
        self.bad.store(true, Ordering::Relaxed);
    }

    /// Counts a visit of element `i` and checks its value.
    ///
    /// # Safety
    /// `out` still points at the output.
    pub(crate) unsafe fn visit(&self, i: usize) {
        self.counts[i].fetch_add(1, Ordering::Relaxed);
        let size = self.dtype.byte_size();
        let bytes = unsafe { std::slice::from_raw_parts(self.out.add(i * size), size) };
        if !close(decode(self.dtype, bytes)[0], self.expected[i], self.tolerance) {
            self.reject();
        }
    }

    /// Asserts that every block was valid and final and every element visited once.
    pub(crate) fn assert_once(&self, what: &str) {
        assert!(!self.bad.load(Ordering::Relaxed), "{what}: epilogue saw a bad or unfinished block");
        for (i, v) in self.counts.iter().enumerate() {
            assert_eq!(v.load(Ordering::Relaxed), 1, "{what}: epilogue visits of element {i}");
        }
    }
}

/// What the epilogue callback checks: blocks are final and visited once.
struct EpiCheck {
    seen: Visits,
    m: i64,
    n: i64,
}

unsafe extern "C" fn epilogue(ctx: *mut c_void, b: i64, i0: i64, i1: i64, j0: i64, j1: i64) {
    let e = unsafe { &*(ctx as *const EpiCheck) };
    if i0 < 0 || i1 > e.m || j0 < 0 || j1 > e.n || i0 >= i1 || j0 >= j1 {
        return e.seen.reject();
    }
    for i in i0..i1 {
        for j in j0..j1 {
            unsafe { e.seen.visit(((b * e.m + i) * e.n + j) as usize) };
        }
    }
}

fn close(got: f64, want: f64, tol: f64) -> bool {
    got == want || (got - want).abs() <= tol * want.abs().max(1.0)
}

const SHAPES: &[(usize, usize, usize, usize)] = &[
    (1, 1, 1, 1),
    (1, 1, 1, 7),
    (1, 5, 1, 3),
    (2, 200, 1, 1500),
    (2, 1, 150, 1100),
    (1, 1, 70, 33),
    (3, 77, 1, 9),
    (1, 1, 9, 4),
    (1, 13, 37, 1),
    (1, 12, 32, 16),
    (1, 24, 64, 33),
    (3, 17, 33, 19),
    (2, 40, 65, 9),
    (1, 25, 70, 300),
    (1, 300, 40, 20),
    (1, 20, 600, 10),
    // Skinny products (a few columns, more rows than a tile): the dot-product
    // form, columns in groups of four and single ones, depths off the vector width.
    (2, 70, 5, 37),
    (1, 45, 16, 100),
    (3, 29, 2, 17),
    (1, 33, 10, 200),
    (1, 13, 17, 40),
    // Narrow but shallow, over more than half a tile of columns and at least
    // four tiles of rows: the tiles again.
    (2, 40, 12, 20),
    (1, 30, 16, 8),
    // A last column panel of one vector or less (the one-vector microkernel),
    // whole (48 = 32 + 16) or cut (196 = 6 x 32 + 4), below every tile height.
    (1, 50, 48, 40),
    (2, 37, 196, 70),
    (2, 3, 4, 0),
    (1, 0, 5, 5),
    (0, 4, 4, 4),
];

/// Compiles one GEMM per spec into one module and runs `f` with them.
fn with_gemms_on(tm: &TargetMachine, specs: &[GemmSpec], runtime: Runtime, f: impl FnOnce(&[GemmFn])) {
    let cx = Context::create();
    let module = cx.create_module("gemm_test");
    jit::prepare_module(&module, tm);
    for s in specs {
        gemm_function(&module, tm, s).unwrap();
    }
    // A second request finds the first function.
    assert_eq!(gemm_function(&module, tm, &specs[0]).unwrap().get_name().to_str().unwrap(), specs[0].symbol());
    let ee = crate::routine_engine(&module, tm, runtime).unwrap();
    let fns: Vec<GemmFn> = specs
        .iter()
        .map(|s| unsafe { std::mem::transmute::<usize, GemmFn>(ee.get_function_address(&s.symbol()).unwrap()) })
        .collect();
    f(&fns);
}

fn all_transpositions(lhs: DType, rhs: DType, out: DType) -> Vec<GemmSpec> {
    [(false, false), (false, true), (true, false), (true, true)]
        .iter()
        .map(|&(lt, rt)| GemmSpec { lhs, rhs, out, lhs_transposed: lt, rhs_transposed: rt })
        .collect()
}

fn check_specs(specs: &[GemmSpec], runtime: Runtime, exact: bool, shapes: &[(usize, usize, usize, usize)]) {
    check_specs_on(&jit::host_target_machine().unwrap(), specs, runtime, exact, shapes)
}

fn check_specs_on(
    tm: &TargetMachine,
    specs: &[GemmSpec],
    runtime: Runtime,
    exact: bool,
    shapes: &[(usize, usize, usize, usize)],
) {
    let mut rng = Rng::new(0x9e37_79b9_7f4a_7c15);
    with_gemms_on(tm, specs, runtime, |fns| {
        for (spec, &f) in specs.iter().zip(fns) {
            for &(batch, m, n, k) in shapes {
                let a = random_values(&mut rng, spec.lhs, batch * m * k, exact);
                let b = random_values(&mut rng, spec.rhs, batch * k * n, exact);
                let want = reference(spec, &a, &b, batch, m, n, k);
                let (ab, bb) = (encode(spec.lhs, &a), encode(spec.rhs, &b));
                let mut cb = encode(spec.out, &vec![7.0; batch * m * n]);
                let tolerance = match (exact, spec.out) {
                    (true, _) => 0.0,
                    (false, DType::F64) => 1e-12,
                    (false, _) => 1e-5 * (k as f64).sqrt().max(1.0),
                };
                let check = EpiCheck {
                    seen: Visits::new(cb.as_ptr(), spec.out, want.clone(), tolerance),
                    m: m as i64,
                    n: n as i64,
                };
                unsafe {
                    f(
                        ab.as_ptr(),
                        bb.as_ptr(),
                        cb.as_mut_ptr(),
                        batch as i64,
                        m as i64,
                        n as i64,
                        k as i64,
                        Some(epilogue),
                        &check as *const EpiCheck as *mut c_void,
                    )
                };
                let got = decode(spec.out, &cb);
                let what = format!("{} batch={batch} m={m} n={n} k={k}", spec.symbol());
                for (idx, (&g, &w)) in got.iter().zip(&want).enumerate() {
                    assert!(close(g, w, tolerance), "{what}: element {idx} is {g}, expected {w}");
                }
                check.seen.assert_once(&what);
                // Without an epilogue the result is the same.
                let mut cb2 = encode(spec.out, &vec![-5.0; batch * m * n]);
                unsafe {
                    f(
                        ab.as_ptr(),
                        bb.as_ptr(),
                        cb2.as_mut_ptr(),
                        batch as i64,
                        m as i64,
                        n as i64,
                        k as i64,
                        None,
                        std::ptr::null_mut(),
                    )
                };
                assert_eq!(cb, cb2, "{what}: result differs without an epilogue");
            }
        }
    });
}

#[test]
fn f32_serial_exact() {
    check_specs(&all_transpositions(DType::F32, DType::F32, DType::F32), Runtime::Serial, true, SHAPES);
}

#[test]
fn f32_two_threads_random() {
    let mut shapes = SHAPES.to_vec();
    shapes.extend([(1, 150, 200, 600), (4, 64, 64, 64), (1, 257, 129, 255)]);
    // A few rows (B's full panels read in place, the edge panel packed), over
    // several depth blocks and column slabs.
    shapes.extend([(2, 7, 100, 600), (1, 12, 64, 1025), (3, 3, 33, 70), (1, 2, 32, 5)]);
    // Several column blocks in one task: packed A kept across them (one and
    // several depth blocks), and repacked per block past the test's keep limit.
    shapes.extend([(1, 40, 1500, 50), (1, 26, 1400, 700), (1, 60, 1400, 800)]);
    // Thirteen row tiles over B rows a page apart: B packed on a host with a
    // large L2, read in place with a small one; both tested on every host.
    shapes.push((1, 150, 1030, 20));
    // A narrow B (two panels, 49 = 32 + 17 columns): rows split down to two
    // tiles per task, the last slice shorter.
    shapes.push((1, 100, 49, 2000));
    // Rows of A 4 KiB apart (k = 1024, 2048): copied to spread rows over a
    // narrow B (two panels; B in place, and packed under many rows, over
    // several depth blocks and batch elements), packed over a wide one (seven).
    shapes.extend([(1, 30, 49, 1024), (1, 300, 49, 1024), (2, 75, 33, 2048), (1, 26, 200, 1024)]);
    // Last panels of one to three columns past one vector (the tail column
    // kernel, its depth ending mid-vector) and of four (the full panel), A
    // read in place (a narrow B) and packed (rows 4 KiB apart, a wide B).
    shapes.extend([(1, 30, 49, 777), (1, 30, 51, 777), (1, 30, 52, 777), (1, 26, 209, 1024), (1, 26, 211, 1024)]);
    let specs = all_transpositions(DType::F32, DType::F32, DType::F32);
    check_specs(&specs, Runtime::TwoThreads, false, &shapes);
    let paged = [(1, 150, 1030, 20), (1, 26, 1400, 700)];
    crate::caches::with_small_l2(|| check_specs(&specs, Runtime::TwoThreads, false, &paged));
}

#[test]
fn f64() {
    let mut shapes = SHAPES.to_vec();
    // Rows of A 4 KiB apart over a narrow B: copied to spread rows.
    shapes.push((1, 20, 30, 512));
    check_specs(&all_transpositions(DType::F64, DType::F64, DType::F64), Runtime::TwoThreads, false, &shapes);
}

#[test]
fn f16_and_bf16() {
    let mut specs = all_transpositions(DType::F16, DType::F16, DType::F16);
    specs.extend(all_transpositions(DType::Bf16, DType::Bf16, DType::Bf16));
    specs.extend(all_transpositions(DType::Bf16, DType::Bf16, DType::F32));
    // Small integers: the f32 sums are exact, so the one rounding at the end must
    // match exactly.
    check_specs(&specs, Runtime::TwoThreads, true, SHAPES);
    // Random values: rounding of non-trivial values.
    check_specs(&specs[..1], Runtime::Serial, false, &[(1, 7, 19, 5), (2, 30, 40, 50)]);
    // Depths over one block, odd ones too (bf16 pairs pad the last block's
    // last pair), for bf16 into both result types.
    let deep = [(1, 30, 40, 1025), (2, 13, 50, 777), (1, 25, 33, 1024)];
    check_specs(&specs[4..], Runtime::TwoThreads, true, &deep);
    check_specs(&specs[8..], Runtime::TwoThreads, false, &deep);
}

/// Plain microkernels prefetch the rows ahead of a B panel read in place
/// (read hints, behind a test that the panel is read in place; the C
/// tile's hints are writes), and those reading A in place the next row
/// tile's rows. The shapes above run both forms, hints past B's end and past
/// A's last row tile included.
#[test]
fn in_place_b_panels_are_prefetched() {
    use inkwell::values::AnyValue;
    let tm = jit::host_target_machine().unwrap();
    let cx = Context::create();
    let module = cx.create_module("prefetch");
    jit::prepare_module(&module, &tm);
    let spec =
        GemmSpec { lhs: DType::F32, rhs: DType::F32, out: DType::F32, lhs_transposed: false, rhs_transposed: false };
    gemm_function(&module, &tm, &spec).unwrap();
    let kernels: Vec<_> = module
        .get_functions()
        .filter(|f| f.get_name().to_string_lossy().starts_with("smelt_gemm_ukernel_f32"))
        .collect();
    assert!(!kernels.is_empty());
    let reads_of = |f: &inkwell::values::FunctionValue<'_>| {
        let text = f.print_to_string().to_string();
        text.lines().filter(|l| l.contains("@llvm.prefetch") && l.contains(", i32 0, i32 3, i32 1)")).count()
    };
    for f in &kernels {
        assert!(reads_of(f) > 0, "{}: no read prefetch", f.get_name().to_string_lossy());
    }
    // A read in place: each row of the tile also hints the row `MR` below
    // it (the next row tile), once per line of steps, in both loops (B
    // packed or in place).
    let mut rows_kernels = 0;
    for f in &kernels {
        let name = f.get_name().to_string_lossy().to_string();
        let Some(at) = name.find("_rows") else { continue };
        let packed = format!("{}{}", &name[..at], &name[at + "_rows".len()..]);
        let packed = module.get_function(&packed).unwrap_or_else(|| panic!("{packed}: no packed twin"));
        let height = match name.rsplit_once("_h") {
            Some((_, h)) => h.parse::<usize>().unwrap(),
            None => crate::gemm::Blocking::new(crate::routine::Isa::of(&tm), crate::routine::Ct::F32).mr as usize,
        };
        assert_eq!(reads_of(f), reads_of(&packed) + 2 * height, "{name}: a hint per row of the next tile");
        rows_kernels += 1;
    }
    assert!(rows_kernels > 0);
}

/// bf16 products use `vdpbf16ps` where the host has AVX512-BF16, s8/u8 ones
/// `vpdpwssd` where it has AVX512-VNNI (operands packed in 16-bit pairs) and
/// u8 x s8 ones `vpdpbusd` there (8-bit quads); the f32 or i32 microkernel
/// elsewhere.
#[test]
fn pair_instructions_are_used_where_the_host_has_them() {
    let tm = jit::host_target_machine().unwrap();
    let isa = crate::routine::Isa::of(&tm);
    // 16-bit pairs: VNNI's instruction, else `vpmaddwd` and an add.
    let pairs = match (isa.vnni, isa.vector_bits) {
        (true, _) => "llvm.x86.avx512.vpdpwssd.512",
        (false, 256) => "llvm.x86.avx2.pmadd.wd",
        (false, _) => "llvm.x86.avx512.pmaddw.d.512",
    };
    let cases = [
        (
            DType::Bf16,
            DType::Bf16,
            DType::F32,
            isa.bf16_pairs,
            "llvm.x86.avx512bf16.dpbf16ps.512",
            ["bf16x2_", "bf16x2_"],
        ),
        (DType::S8, DType::U8, DType::S32, isa.int16_pairs, pairs, ["s8x2_", "u8x2_"]),
        (DType::U8, DType::S8, DType::S32, isa.int8_quads, "llvm.x86.avx512.vpdpbusd.512", ["u8x4_", "s8x4_"]),
    ];
    assert!(!isa.int8_quads || isa.vnni, "8-bit quads are never emulated");
    for (lhs, rhs, out, host, instruction, packs) in cases {
        let cx = Context::create();
        let module = cx.create_module("pairs");
        jit::prepare_module(&module, &tm);
        let spec = GemmSpec { lhs, rhs, out, lhs_transposed: false, rhs_transposed: true };
        gemm_function(&module, &tm, &spec).unwrap();
        let ir = module.print_to_string().to_string();
        assert_eq!(ir.contains(instruction), host, "{lhs} x {rhs}: host has the instruction: {host}");
        for pack in packs {
            assert_eq!(ir.contains(&format!("smelt_gemm_pack_{pack}")), host, "{lhs} x {rhs}: {pack}");
        }
    }
}

/// A target with AVX-VNNI and no AVX-512 (Alder Lake): 8-bit quads and
/// 16-bit pairs on the 256-bit VEX forms of `vpdpbusd` and `vpdpwssd`; run
/// where the host has AVX-VNNI.
#[test]
fn avx_vnni_quads_and_pairs_on_256_bit_vectors() {
    use inkwell::OptimizationLevel;
    use inkwell::targets::{CodeModel, RelocMode, Target};
    let host = jit::host_target_machine().unwrap();
    let triple = TargetMachine::get_default_triple();
    let tm = Target::from_triple(&triple)
        .unwrap()
        .create_target_machine(
            &triple,
            "alderlake",
            "+avx2,+fma,+f16c,+avxvnni",
            OptimizationLevel::Aggressive,
            RelocMode::PIC,
            CodeModel::Default,
        )
        .unwrap();
    let isa = crate::routine::Isa::of(&tm);
    assert_eq!((isa.vector_bits, isa.int8_quads, isa.int16_pairs), (256, true, true));
    let mut specs = all_transpositions(DType::U8, DType::S8, DType::S32);
    specs.extend(all_transpositions(DType::S8, DType::S8, DType::S32));
    let cx = Context::create();
    let module = cx.create_module("avx_vnni");
    jit::prepare_module(&module, &tm);
    for s in &specs {
        gemm_function(&module, &tm, s).unwrap();
    }
    let ir = module.print_to_string().to_string();
    assert!(ir.contains("llvm.x86.avx512.vpdpbusd.256") && ir.contains("llvm.x86.avx512.vpdpwssd.256"));
    assert!(!ir.contains(".512"), "no 512-bit instruction for a 256-bit target");
    let host_features = host.get_feature_string().to_string_lossy().into_owned();
    if host_features.split(',').any(|f| f == "+avxvnni") {
        check_specs_on(&tm, &specs, Runtime::TwoThreads, false, SHAPES);
        check_specs_on(&tm, &specs[..4], Runtime::TwoThreads, false, &[(1, 30, 40, 1025), (2, 13, 50, 777)]);
    }
}

#[test]
fn integers_accumulate_exactly() {
    let mut specs = all_transpositions(DType::S8, DType::S8, DType::S32);
    specs.extend(all_transpositions(DType::S32, DType::S32, DType::S32));
    specs.push(GemmSpec {
        lhs: DType::U8,
        rhs: DType::S8,
        out: DType::S64,
        lhs_transposed: false,
        rhs_transposed: false,
    });
    specs.push(GemmSpec {
        lhs: DType::S16,
        rhs: DType::S16,
        out: DType::S16,
        lhs_transposed: false,
        rhs_transposed: true,
    });
    specs.extend(all_transpositions(DType::U8, DType::S8, DType::S32));
    // `exact == false` gives s32 operands over the whole range, so products wrap.
    check_specs(&specs, Runtime::TwoThreads, false, SHAPES);
    // Depths past one block and odd ones (the pair and quad instructions'
    // padded last group), for s8 x s8 (pairs) and u8 x s8 (quads).
    let deep = [(1, 30, 40, 1025), (2, 13, 50, 777), (1, 17, 33, 1030)];
    check_specs(&specs[..4], Runtime::TwoThreads, false, &deep);
    check_specs(&specs[specs.len() - 4..], Runtime::TwoThreads, false, &deep);
}

#[test]
fn unsupported_specs_are_errors() {
    let cx = Context::create();
    let module = cx.create_module("bad");
    let tm = jit::host_target_machine().unwrap();
    let bad = [
        GemmSpec { lhs: DType::F32, rhs: DType::F32, out: DType::S32, lhs_transposed: false, rhs_transposed: false },
        GemmSpec { lhs: DType::Pred, rhs: DType::Pred, out: DType::Pred, lhs_transposed: false, rhs_transposed: false },
    ];
    for s in bad {
        assert!(gemm_function(&module, &tm, &s).is_err(), "{s:?}");
    }
}
