//! Helpers shared by the golden tests: random inputs rich in edge cases (NaN,
//! infinities, -0, integer limits), and running a module on the reference
//! interpreter, so a test fails when a rewrite changes a result, not only when
//! the printed text differs.

use half::{bf16, f16};
use smelt_hlo::{Array, ArrayData, DType, Literal, Module, Shape};

/// A deterministic pseudo-random generator (xorshift).
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    /// A number below `n` (`n > 0`).
    pub fn below(&mut self, n: u64) -> u64 {
        self.next_u64() % n
    }

    fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// A float: often an edge case, else a small value with few mantissa bits.
    fn float(&mut self) -> f64 {
        let r = self.next_u64();
        const EDGES: [f64; 8] = [0.0, -0.0, 1.0, -1.0, f64::NAN, f64::INFINITY, f64::NEG_INFINITY, 0.5];
        if r % 16 < 6 { EDGES[(r >> 8) as usize % EDGES.len()] } else { ((r >> 16) % 2001) as f64 / 64.0 - 15.625 }
    }

    /// An integer: often 0, 1, -1, 2 or a limit of the type, else small.
    fn int(&mut self, min: i128, max: i128) -> i128 {
        let r = self.next_u64();
        let v = if r % 16 < 5 { [0, 1, -1, min, max, 2][(r >> 8) as usize % 6] } else { ((r >> 16) % 21) as i128 - 10 };
        v.clamp(min, max)
    }

    fn array(&mut self, dtype: DType, n: usize) -> ArrayData {
        macro_rules! ints {
            ($t:ty, $v:ident) => {
                ArrayData::$v((0..n).map(|_| self.int(<$t>::MIN as i128, <$t>::MAX as i128) as $t).collect())
            };
        }
        match dtype {
            DType::Pred => ArrayData::Pred((0..n).map(|_| self.next_u64() >> 8 & 1 == 1).collect()),
            DType::S8 => ints!(i8, S8),
            DType::S16 => ints!(i16, S16),
            DType::S32 => ints!(i32, S32),
            DType::S64 => ints!(i64, S64),
            DType::U8 => ints!(u8, U8),
            DType::U16 => ints!(u16, U16),
            DType::U32 => ints!(u32, U32),
            DType::U64 => ints!(u64, U64),
            DType::F16 => ArrayData::F16((0..n).map(|_| f16::from_f64(self.float())).collect()),
            DType::Bf16 => ArrayData::Bf16((0..n).map(|_| bf16::from_f64(self.float())).collect()),
            DType::F32 => ArrayData::F32((0..n).map(|_| self.float() as f32).collect()),
            DType::F64 => ArrayData::F64((0..n).map(|_| self.float()).collect()),
        }
    }

    fn value(&mut self, shape: &Shape) -> Literal {
        match shape {
            Shape::Tuple(t) => Literal::Tuple(t.iter().map(|e| self.value(e)).collect()),
            Shape::Array(a) => {
                Literal::Array(Array { dims: a.dims.clone(), data: self.array(a.dtype, a.element_count()) })
            }
        }
    }

    /// Random arguments for the parameters of `m`'s entry.
    pub fn args(&mut self, m: &Module) -> Vec<Literal> {
        m.entry().param_shapes().iter().map(|s| self.value(s)).collect()
    }
}

/// Runs the entry on the interpreter, with a bound on loop iterations so a
/// miscompiled loop (or a data-dependent loop given extreme inputs, such as the
/// Collatz case) fails quickly instead of hanging.
pub fn run(m: &Module, args: &[Literal]) -> Result<Literal, String> {
    let options = smelt_interp::Options { max_while_iterations: Some(10_000) };
    smelt_interp::evaluate_with(m, m.entry, args, &options).map_err(|e| e.to_string())
}

/// Bitwise equality of every leaf, any NaN equal to any NaN.
pub fn same(a: &Literal, b: &Literal) -> bool {
    let (la, lb) = (a.leaves(), b.leaves());
    la.len() == lb.len()
        && la.iter().zip(&lb).all(|(x, y)| {
            x.dims == y.dims
                && x.dtype() == y.dtype()
                && (x.data == y.data
                    || (0..x.len()).all(|i| {
                        let (p, q) = (x.data.get_f64(i), y.data.get_f64(i));
                        (p.is_nan() && q.is_nan()) || p.to_bits() == q.to_bits()
                    }))
        })
}
