//! Scalar operations with the interpreter's exact semantics.
//!
//! Values are in their register types (see [`Cg::reg_type`]). Floats compute in
//! f32 (f16, bf16, f32) or f64 and round back to their own type after every
//! operation, as `backends/interp/src/num.rs` does; bf16 is kept as its `i16` bits
//! and rounded with integer code, because x86's `vcvtneps2bf16` flushes
//! subnormals. Integer division, remainder, shifts and `power` arrive
//! legalized (`smelt_kernel::legalize`): the unchecked forms with divisors and
//! shift amounts already in range, so each is one instruction, nothing here is
//! undefined behaviour or traps, and every value can be computed speculatively.
//!
//! Conversions follow `Elem::from_cast`: through an exact f64 for floats,
//! saturating float-to-int with NaN to 0, wrapping int-to-int, `!= 0` to pred.
//! To f16 goes through f32 (what the `half` crate does on an F16C host); to bf16
//! from an f64 value replicates the `half` crate's f64 algorithm, which drops the
//! low 32 mantissa bits before rounding.

use inkwell::FloatPredicate;
use inkwell::IntPredicate;
use inkwell::module::Linkage;
use inkwell::values::{BasicValueEnum, FloatValue, FunctionValue, IntValue};
use smelt_hlo::DType;
use smelt_hlo::attrs::{CompareType, ComparisonDirection};
use smelt_kernel::{BinaryOp, Scalar, UnaryOp};

use super::Cg;
use crate::error::{LlvmError, Result, invalid, unsupported};
use crate::math::{MathOp, math_function};

/// A value on its way through `convert` (the interpreter's `Cast`).
enum CastVal<'ctx> {
    Int {
        v: IntValue<'ctx>,
        signed: bool,
    },
    /// In the compute type of its source (f32 or f64), which widens exactly.
    Float(FloatValue<'ctx>),
}

fn is_float(d: DType) -> bool {
    d.is_float()
}

fn is_int(d: DType) -> bool {
    d.is_int()
}

/// The bf16 bits of `v` rounded to nearest even, as `half::bf16::from_f32` does.
pub(crate) fn f32_to_bf16_bits(v: f32) -> u16 {
    let x = v.to_bits();
    if x & 0x7fff_ffff > 0x7f80_0000 {
        return ((x >> 16) | 0x40) as u16;
    }
    let up = (x & 0x8000) != 0 && (x & 0x17fff) != 0;
    ((x >> 16) as u16).wrapping_add(up as u16)
}

impl<'ctx> Cg<'ctx, '_> {
    // ---- constants ----

    /// The constant `s` as a value of type `d`.
    pub fn const_scalar(&self, s: Scalar, d: DType) -> Result<BasicValueEnum<'ctx>> {
        let as_f64 = match s {
            Scalar::Int(_, v) => v as f64,
            Scalar::Float(_, f) => f,
        };
        let as_int = match s {
            Scalar::Int(_, v) => v,
            Scalar::Float(_, f) => f as i128,
        };
        Ok(match d {
            DType::Pred => self.t.i1.const_int((as_int != 0 || (as_f64 != 0.0)) as u64, false).into(),
            DType::F16 => self.t.f16.const_float(as_f64).into(),
            DType::F32 => self.t.f32.const_float(as_f64 as f32 as f64).into(),
            DType::F64 => self.t.f64.const_float(as_f64).into(),
            DType::Bf16 => self.t.i16.const_int(f32_to_bf16_bits(as_f64 as f32) as u64, false).into(),
            _ => self.int_type_of(d).const_int(as_int as u64, false).into(),
        })
    }

    fn float_const(&self, ty: inkwell::types::FloatType<'ctx>, v: f64) -> FloatValue<'ctx> {
        ty.const_float(v)
    }

    // ---- float compute types ----

    /// Widens a float value to its compute type.
    pub fn to_calc(&self, x: BasicValueEnum<'ctx>, d: DType) -> Result<FloatValue<'ctx>> {
        Ok(match d {
            DType::F16 => self.b.build_float_ext(x.into_float_value(), self.t.f32, "")?,
            DType::Bf16 => {
                let w = self.b.build_int_z_extend(x.into_int_value(), self.t.i32, "")?;
                let s = self.b.build_left_shift(w, self.t.i32.const_int(16, false), "")?;
                self.b.build_bit_cast(s, self.t.f32, "")?.into_float_value()
            }
            DType::F32 | DType::F64 => x.into_float_value(),
            _ => invalid!("{d} is not a float type"),
        })
    }

    /// Rounds a compute-type value back to `d`.
    pub fn round_calc(&mut self, v: FloatValue<'ctx>, d: DType) -> Result<BasicValueEnum<'ctx>> {
        Ok(match d {
            DType::F16 => self.b.build_float_trunc(v, self.t.f16, "")?.into(),
            DType::Bf16 => self.f32_to_bf16(v)?.into(),
            DType::F32 | DType::F64 => v.into(),
            _ => invalid!("{d} is not a float type"),
        })
    }

    /// f32 -> bf16 bits, nearest even, NaN kept quiet (`half::bf16::from_f32`).
    fn f32_to_bf16(&self, v: FloatValue<'ctx>) -> Result<IntValue<'ctx>> {
        let b = &self.b;
        let i32t = self.t.i32;
        let c = |v: u64| i32t.const_int(v, false);
        let x = b.build_bit_cast(v, i32t, "")?.into_int_value();
        let mag = b.build_and(x, c(0x7fff_ffff), "")?;
        let is_nan = b.build_int_compare(IntPredicate::UGT, mag, c(0x7f80_0000), "")?;
        let hi = b.build_right_shift(x, c(16), false, "")?;
        let nan = b.build_or(hi, c(0x40), "")?;
        let r1 = b.build_and(x, c(0x8000), "")?;
        let r1 = b.build_int_compare(IntPredicate::NE, r1, c(0), "")?;
        let r2 = b.build_and(x, c(0x17fff), "")?;
        let r2 = b.build_int_compare(IntPredicate::NE, r2, c(0), "")?;
        let up = b.build_and(r1, r2, "")?;
        let up = b.build_int_z_extend(up, i32t, "")?;
        let rounded = b.build_int_add(hi, up, "")?;
        let r = b.build_select(is_nan, nan, rounded, "")?.into_int_value();
        Ok(b.build_int_truncate(r, self.t.i16, "")?)
    }

    /// f64 -> bf16 bits exactly as `half::bf16::from_f64` (which truncates the
    /// f64 to its high 32 bits first).
    fn f64_to_bf16(&mut self, v: FloatValue<'ctx>) -> Result<IntValue<'ctx>> {
        let f = self.f64_to_bf16_fn()?;
        let r = self.call(f, &[v.into()])?.ok_or_else(|| LlvmError::Llvm("f64_to_bf16 returns nothing".into()))?;
        Ok(r.into_int_value())
    }

    fn f64_to_bf16_fn(&mut self) -> Result<FunctionValue<'ctx>> {
        const NAME: &str = "smelt.f64_to_bf16";
        if let Some(f) = self.helper(NAME) {
            return Ok(f);
        }
        let f =
            self.module.add_function(NAME, self.t.i16.fn_type(&[self.t.f64.into()], false), Some(Linkage::Internal));
        self.stamp(f);
        self.internal_inline(f);
        self.set_helper(NAME, f);
        self.begin_fn(f);
        let x = f.get_nth_param(0).ok_or_else(|| LlvmError::Llvm("missing parameter".into()))?.into_float_value();
        let b = &self.b;
        let i32t = self.t.i32;
        let c = |v: i64| i32t.const_int(v as u64, true);
        let ne0 = |v: IntValue<'ctx>| b.build_int_compare(IntPredicate::NE, v, c(0), "");
        let val = b.build_bit_cast(x, self.t.i64, "")?.into_int_value();
        let hi64 = b.build_right_shift(val, self.t.i64.const_int(32, false), false, "")?;
        let hi = b.build_int_truncate(hi64, i32t, "")?;
        let lo = b.build_int_truncate(val, i32t, "")?;
        let sign = b.build_and(hi, c(0x8000_0000), "")?;
        let exp = b.build_and(hi, c(0x7ff0_0000), "")?;
        let man = b.build_and(hi, c(0x000f_ffff), "")?;
        let half_sign = b.build_right_shift(sign, c(16), false, "")?;
        // Infinity or NaN.
        let is_naninf = b.build_int_compare(IntPredicate::EQ, exp, c(0x7ff0_0000), "")?;
        let man_zero = b.build_int_compare(IntPredicate::EQ, man, c(0), "")?;
        let lo_zero = b.build_int_compare(IntPredicate::EQ, lo, c(0), "")?;
        let inf = b.build_and(man_zero, lo_zero, "")?;
        let nan_bit = b.build_select(inf, c(0), c(0x40), "")?.into_int_value();
        let r_nan = b.build_or(half_sign, c(0x7f80), "")?;
        let r_nan = b.build_or(r_nan, nan_bit, "")?;
        let man13 = b.build_right_shift(man, c(13), false, "")?;
        let r_nan = b.build_or(r_nan, man13, "")?;
        // Exponent rebias.
        let e = b.build_right_shift(exp, c(20), false, "")?;
        let half_exp = b.build_int_add(e, c(127 - 1023), "")?;
        let overflow = b.build_int_compare(IntPredicate::SGE, half_exp, c(0xff), "")?;
        let r_over = b.build_or(half_sign, c(0x7f80), "")?;
        let underflow = b.build_int_compare(IntPredicate::SLE, half_exp, c(0), "")?;
        let tiny = b.build_int_compare(IntPredicate::SLT, half_exp, c(-14), "")?;
        // Subnormal result.
        let m2 = b.build_or(man, c(0x0010_0000), "")?;
        let umin = |v: IntValue<'ctx>| -> Result<IntValue<'ctx>> {
            let lt = b.build_int_compare(IntPredicate::ULT, v, c(31), "")?;
            Ok(b.build_select(lt, v, c(31), "")?.into_int_value())
        };
        let sh = umin(b.build_int_sub(c(14), half_exp, "")?)?;
        let hm_sub = b.build_right_shift(m2, sh, false, "")?;
        let rsh = umin(b.build_int_sub(c(13), half_exp, "")?)?;
        let rbit = b.build_left_shift(c(1), rsh, "")?;
        let t1 = ne0(b.build_and(m2, rbit, "")?)?;
        let mask = b.build_int_sub(b.build_int_mul(rbit, c(3), "")?, c(1), "")?;
        let t2 = ne0(b.build_and(m2, mask, "")?)?;
        let up = b.build_int_z_extend(b.build_and(t1, t2, "")?, i32t, "")?;
        let r_sub = b.build_or(half_sign, b.build_int_add(hm_sub, up, "")?, "")?;
        let r_small = b.build_select(tiny, half_sign, r_sub, "")?.into_int_value();
        // Normal result.
        let he = b.build_left_shift(half_exp, c(7), "")?;
        let n1 = ne0(b.build_and(man, c(0x1000), "")?)?;
        let n2 = ne0(b.build_and(man, c(0x2fff), "")?)?;
        let upn = b.build_int_z_extend(b.build_and(n1, n2, "")?, i32t, "")?;
        let r_norm = b.build_or(b.build_or(half_sign, he, "")?, man13, "")?;
        let r_norm = b.build_int_add(r_norm, upn, "")?;
        let r = b.build_select(underflow, r_small, r_norm, "")?.into_int_value();
        let r = b.build_select(overflow, r_over, r, "")?.into_int_value();
        let r = b.build_select(is_naninf, r_nan, r, "")?.into_int_value();
        let r = b.build_int_truncate(r, self.t.i16, "")?;
        self.b.build_return(Some(&r))?;
        self.end_fn()?;
        Ok(f)
    }

    // ---- unary ----

    pub fn unary(&mut self, op: UnaryOp, d: DType, x: BasicValueEnum<'ctx>) -> Result<BasicValueEnum<'ctx>> {
        if is_float(d) {
            return self.float_unary(op, d, x);
        }
        let b = &self.b;
        if d == DType::Pred {
            return match op {
                UnaryOp::Not => Ok(b.build_not(x.into_int_value(), "")?.into()),
                _ => unsupported!("{op:?} on pred"),
            };
        }
        let v = x.into_int_value();
        let ty = v.get_type();
        let signed = d.is_signed_int();
        Ok(match op {
            UnaryOp::Abs if signed => {
                self.intrinsic("llvm.abs", &[ty.into()], &[v.into(), self.t.i1.const_zero().into()])?
            }
            UnaryOp::Abs => v.into(),
            UnaryOp::Neg => b.build_int_sub(ty.const_zero(), v, "")?.into(),
            UnaryOp::Not => b.build_not(v, "")?.into(),
            UnaryOp::Popcnt => self.intrinsic("llvm.ctpop", &[ty.into()], &[v.into()])?,
            UnaryOp::Clz => self.intrinsic("llvm.ctlz", &[ty.into()], &[v.into(), self.t.i1.const_zero().into()])?,
            UnaryOp::Sign if signed => {
                let m1 = ty.const_all_ones();
                let lo = self.intrinsic("llvm.smax", &[ty.into()], &[v.into(), m1.into()])?;
                self.intrinsic("llvm.smin", &[ty.into()], &[lo.into(), ty.const_int(1, false).into()])?
            }
            UnaryOp::Sign => {
                let nz = b.build_int_compare(IntPredicate::NE, v, ty.const_zero(), "")?;
                b.build_int_z_extend(nz, ty, "")?.into()
            }
            _ => unsupported!("{op:?} on {d}"),
        })
    }

    fn float_unary(&mut self, op: UnaryOp, d: DType, x: BasicValueEnum<'ctx>) -> Result<BasicValueEnum<'ctx>> {
        let v = self.to_calc(x, d)?;
        let ty = v.get_type();
        let fty = ty.into();
        let r: FloatValue<'ctx> = match op {
            UnaryOp::Abs => self.intrinsic("llvm.fabs", &[fty], &[v.into()])?.into_float_value(),
            UnaryOp::Ceil => self.intrinsic("llvm.ceil", &[fty], &[v.into()])?.into_float_value(),
            UnaryOp::Floor => self.intrinsic("llvm.floor", &[fty], &[v.into()])?.into_float_value(),
            UnaryOp::RoundNearestAfz => self.intrinsic("llvm.round", &[fty], &[v.into()])?.into_float_value(),
            UnaryOp::RoundNearestEven => self.intrinsic("llvm.roundeven", &[fty], &[v.into()])?.into_float_value(),
            UnaryOp::Sqrt => self.intrinsic("llvm.sqrt", &[fty], &[v.into()])?.into_float_value(),
            UnaryOp::Neg => self.b.build_float_neg(v, "")?,
            UnaryOp::IsFinite => {
                let a = self.intrinsic("llvm.fabs", &[fty], &[v.into()])?.into_float_value();
                let inf = self.float_const(ty, f64::INFINITY);
                return Ok(self.b.build_float_compare(FloatPredicate::OLT, a, inf, "")?.into());
            }
            UnaryOp::Sign => {
                // ±1 or, for zeros (subnormals read as zero included), the zero
                // of x's sign: a select of constants, so nothing unflushed leaks.
                let b = &self.b;
                let nan = b.build_float_compare(FloatPredicate::UNO, v, v, "")?;
                let zero = b.build_float_compare(FloatPredicate::OEQ, v, ty.const_zero(), "")?;
                let mag = b.build_select(zero, ty.const_zero(), self.float_const(ty, 1.0), "")?;
                let s = self.intrinsic("llvm.copysign", &[fty], &[mag.into(), v.into()])?;
                self.b.build_select(nan, v, s.into_float_value(), "")?.into_float_value()
            }
            UnaryOp::Cbrt => self.math(MathOp::Cbrt, &[v])?,
            UnaryOp::Cos => self.math(MathOp::Cos, &[v])?,
            UnaryOp::Erf => self.math(MathOp::Erf, &[v])?,
            UnaryOp::Exp => self.math(MathOp::Exp, &[v])?,
            UnaryOp::Expm1 => self.math(MathOp::Expm1, &[v])?,
            UnaryOp::Log => self.math(MathOp::Log, &[v])?,
            UnaryOp::Log1p => self.math(MathOp::Log1p, &[v])?,
            UnaryOp::Logistic => self.math(MathOp::Logistic, &[v])?,
            UnaryOp::Rsqrt => self.math(MathOp::Rsqrt, &[v])?,
            UnaryOp::Sin => self.math(MathOp::Sin, &[v])?,
            UnaryOp::Tan => self.math(MathOp::Tan, &[v])?,
            UnaryOp::Tanh => self.math(MathOp::Tanh, &[v])?,
            UnaryOp::Not | UnaryOp::Popcnt | UnaryOp::Clz => unsupported!("{op:?} on {d}"),
        };
        self.round_calc(r, d)
    }

    // ---- binary ----

    /// `a op b` on values of type `d`. `reassoc` lets float adds reassociate
    /// (only for reductions that asked for it).
    pub fn binary(
        &mut self,
        op: BinaryOp,
        d: DType,
        a: BasicValueEnum<'ctx>,
        b: BasicValueEnum<'ctx>,
        reassoc: bool,
    ) -> Result<BasicValueEnum<'ctx>> {
        if is_float(d) {
            return self.float_binary(op, d, a, b, reassoc);
        }
        let (x, y) = (a.into_int_value(), b.into_int_value());
        if d == DType::Pred {
            let bl = &self.b;
            return Ok(match op {
                BinaryOp::And | BinaryOp::Mul | BinaryOp::Min => bl.build_and(x, y, "")?.into(),
                BinaryOp::Or | BinaryOp::Add | BinaryOp::Max => bl.build_or(x, y, "")?.into(),
                BinaryOp::Xor => bl.build_xor(x, y, "")?.into(),
                _ => unsupported!("{op:?} on pred"),
            });
        }
        if !is_int(d) {
            unsupported!("{op:?} on {d}");
        }
        self.int_binary(op, d, x, y)
    }

    fn float_binary(
        &mut self,
        op: BinaryOp,
        d: DType,
        a: BasicValueEnum<'ctx>,
        b: BasicValueEnum<'ctx>,
        reassoc: bool,
    ) -> Result<BasicValueEnum<'ctx>> {
        let x = self.to_calc(a, d)?;
        let y = self.to_calc(b, d)?;
        let fty = x.get_type().into();
        let bl = &self.b;
        let r = match op {
            BinaryOp::Add => {
                let r = bl.build_float_add(x, y, "")?;
                if reassoc && let Some(i) = r.as_instruction() {
                    i.set_fast_math_flags(inkwell::values::FastMathFlags::AllowReassoc)
                        .map_err(|e| LlvmError::Llvm(e.to_string()))?;
                }
                r
            }
            BinaryOp::Sub => bl.build_float_sub(x, y, "")?,
            BinaryOp::Mul => bl.build_float_mul(x, y, "")?,
            BinaryOp::Div => bl.build_float_div(x, y, "")?,
            // C fmod, as Rust's `%`. libm's fmod works on the bits, so under
            // FTZ/DAZ its operands and result are flushed here.
            BinaryOp::Rem if self.target.math.flush_subnormals => {
                let (x, y) = (self.flushed_zero(x)?, self.flushed_zero(y)?);
                let r = self.b.build_float_rem(x, y, "")?;
                self.flushed_zero(r)?
            }
            BinaryOp::Rem => bl.build_float_rem(x, y, "")?,
            BinaryOp::Max | BinaryOp::Min => {
                let r = if self.x86 {
                    self.x86_max_min(op == BinaryOp::Max, x, y, d)?
                } else {
                    let name = if op == BinaryOp::Max { "llvm.maximum" } else { "llvm.minimum" };
                    self.intrinsic(name, &[fty], &[x.into(), y.into()])?.into_float_value()
                };
                // In f32 and f64 the x86 `maxps`/`minps` (and LLVM's expansions
                // elsewhere) write a subnormal operand as the zero it compared
                // as under FTZ/DAZ; a bf16 result is rounded on the bits, so it
                // is flushed here. (`llvm.canonicalize`, one multiply by 1,
                // fails instruction selection on the SLP vectorizer's <2 x float>.)
                if self.target.math.flush_subnormals && d == DType::Bf16 { self.flushed_zero(r)? } else { r }
            }
            BinaryOp::Pow => self.math(MathOp::Pow, &[x, y])?,
            BinaryOp::Atan2 => self.math(MathOp::Atan2, &[x, y])?,
            _ => unsupported!("{op:?} on {d}"),
        };
        self.round_calc(r, d)
    }

    /// `v`, or the zero of its sign where `v` compares equal to zero: under
    /// DAZ a subnormal compares equal to zero, so a value made on the bits (by
    /// a libm call) is flushed as an arithmetic instruction would flush it.
    fn flushed_zero(&self, v: FloatValue<'ctx>) -> Result<FloatValue<'ctx>> {
        let ty = v.get_type();
        let zero = self.b.build_float_compare(FloatPredicate::OEQ, v, ty.const_zero(), "")?;
        let signed_zero = self.intrinsic("llvm.copysign", &[ty.into()], &[ty.const_zero().into(), v.into()])?;
        Ok(self.b.build_select(zero, signed_zero.into_float_value(), v, "")?.into_float_value())
    }

    /// NaN-propagating max or min with `-0 < +0` (what `llvm.maximum` and
    /// `llvm.minimum` compute) from two compare-and-selects, which x86 does in
    /// one `maxss`/`minss` each: `m1 = a > b ? a : b` and `m2 = b > a ? b : a`
    /// are the same bits except for equal zeros and NaNs, where `m1 = b` and
    /// `m2 = a`. Their bitwise OR is the min (the sign of -0 wins; a NaN's
    /// exponent and mantissa bits survive); the max is the OR with the AND's
    /// sign (+0 wins; a NaN stays one, whatever its sign). LLVM's own x86
    /// expansion of `llvm.maximum` moves each value to an integer register
    /// and back: 2-3x the latency in a reduction chain.
    fn x86_max_min(&self, max: bool, a: FloatValue<'ctx>, b: FloatValue<'ctx>, d: DType) -> Result<FloatValue<'ctx>> {
        // max(x, -inf) and min(x, +inf) are x, NaN or not: a reduction's
        // first step (LLVM folds this for its intrinsics, not for the selects).
        let identity = if max { f64::NEG_INFINITY } else { f64::INFINITY };
        let is_identity = |v: FloatValue<'ctx>| v.get_constant().is_some_and(|(c, _)| c == identity);
        if is_identity(b) {
            return Ok(a);
        }
        if is_identity(a) {
            return Ok(b);
        }
        // Against a constant that is neither NaN nor a zero, `c > x ? c : x` is
        // the whole rule (x NaN: the compare fails and x is kept; no zeros to
        // order): one `maxps`/`minps`, as a clamp's bounds are.
        let plain = |v: FloatValue<'ctx>| v.get_constant().is_some_and(|(c, _)| !c.is_nan() && c != 0.0);
        if plain(a) || plain(b) {
            let (c, x) = if plain(b) { (b, a) } else { (a, b) };
            let bl = &self.b;
            let before = if max { FloatPredicate::OGT } else { FloatPredicate::OLT };
            let keep = bl.build_float_compare(before, c, x, "")?;
            return Ok(bl.build_select(keep, c, x, "")?.into_float_value());
        }
        if self.x86_range && self.outside_vector_loops() {
            return self.x86_range_max_min(max, a, b, d);
        }
        let bl = &self.b;
        let before = if max { FloatPredicate::OGT } else { FloatPredicate::OLT };
        let c1 = bl.build_float_compare(before, a, b, "")?;
        let m1 = bl.build_select(c1, a, b, "")?;
        let c2 = bl.build_float_compare(before, b, a, "")?;
        let m2 = bl.build_select(c2, b, a, "")?;
        let ity = if d == DType::F64 { self.t.i64 } else { self.t.i32 };
        let i1 = bl.build_bit_cast(m1, ity, "")?.into_int_value();
        let i2 = bl.build_bit_cast(m2, ity, "")?.into_int_value();
        let fty = a.get_type();
        let or = bl.build_bit_cast(bl.build_or(i1, i2, "")?, fty, "")?.into_float_value();
        if !max {
            return Ok(or);
        }
        // The OR with the AND's sign; `copysign` keeps the bits in vector
        // registers, where integer masks and selects would not, on x86.
        let and = bl.build_bit_cast(bl.build_and(i1, i2, "")?, fty, "")?;
        Ok(self.intrinsic("llvm.copysign", &[fty.into()], &[or.into(), and.into()])?.into_float_value())
    }

    /// The same max or min from AVX512DQ's `vrangess`/`vrangesd`, which orders
    /// `-0 < +0` but returns the other operand for a quiet NaN: where either
    /// operand is NaN the result is `a + b` instead (a NaN: the first NaN
    /// operand, quieted). Four instructions against the selects' five, and a
    /// shorter chain; only where no loop vectorizer will see it (LLVM has no
    /// vector form of the scalar intrinsic), see [`Cg::outside_vector_loops`].
    fn x86_range_max_min(
        &self,
        max: bool,
        a: FloatValue<'ctx>,
        b: FloatValue<'ctx>,
        d: DType,
    ) -> Result<FloatValue<'ctx>> {
        let bl = &self.b;
        let fty = a.get_type();
        let (lanes, name) =
            if d == DType::F64 { (2, "llvm.x86.avx512.mask.range.sd") } else { (4, "llvm.x86.avx512.mask.range.ss") };
        let vty = fty.vec_type(lanes);
        let zero = self.t.i64.const_zero();
        let va = bl.build_insert_element(vty.get_poison(), a, zero, "")?;
        let vb = bl.build_insert_element(vty.get_poison(), b, zero, "")?;
        // imm8 bits 1:0 select min (00) or max (01); bits 3:2 = 01 take the
        // sign from the compare, which is what orders the zeros.
        let imm = self.t.i32.const_int(if max { 0b0101 } else { 0b0100 }, false);
        let all = self.t.i8.const_all_ones();
        let current_rounding = self.t.i32.const_int(4, false);
        let r = self
            .intrinsic(name, &[], &[va.into(), vb.into(), va.into(), all.into(), imm.into(), current_rounding.into()])?
            .into_vector_value();
        let r = bl.build_extract_element(r, zero, "")?.into_float_value();
        let nan = bl.build_float_compare(FloatPredicate::UNO, a, b, "")?;
        let first_nan = bl.build_float_add(a, b, "")?;
        Ok(bl.build_select(nan, first_nan, r, "")?.into_float_value())
    }

    /// The truncated quotient of integers of up to 32 bits (divisor nonzero, no
    /// overflow), through a float division: f32 for 8 bits, f64 for 16 and 32.
    /// Exact: a quotient that is not an integer lies at least `1/|y|` from one,
    /// more than the division's rounding error `|x/y| 2^-p` (`p` = 24 or 53)
    /// whenever `|x| < 2^p`. CPUs have no vector integer division, and a scalar
    /// one per lane keeps the loop vectorizer off the whole loop; the float
    /// division vectorizes.
    fn narrow_quotient(&self, x: IntValue<'ctx>, y: IntValue<'ctx>, signed: bool) -> Result<IntValue<'ctx>> {
        let b = &self.b;
        let ty = x.get_type();
        let fty = if ty.get_bit_width() <= 8 { self.t.f32 } else { self.t.f64 };
        let (fx, fy) = if signed {
            (b.build_signed_int_to_float(x, fty, "")?, b.build_signed_int_to_float(y, fty, "")?)
        } else {
            (b.build_unsigned_int_to_float(x, fty, "")?, b.build_unsigned_int_to_float(y, fty, "")?)
        };
        let q = b.build_float_div(fx, fy, "")?;
        // Through a wider integer that holds the quotient whatever its sign
        // (MIN / -1 is ruled out by the caller, but a conversion straight to the
        // narrow type would be poison where the caller's selects discard the
        // lane anyway).
        let via = if ty.get_bit_width() <= 16 { self.t.i32 } else { self.t.i64 };
        let wide =
            if signed { b.build_float_to_signed_int(q, via, "")? } else { b.build_float_to_unsigned_int(q, via, "")? };
        Ok(b.build_int_truncate(wide, ty, "")?)
    }

    fn int_binary(
        &mut self,
        op: BinaryOp,
        d: DType,
        x: IntValue<'ctx>,
        y: IntValue<'ctx>,
    ) -> Result<BasicValueEnum<'ctx>> {
        let b = &self.b;
        let ty = x.get_type();
        let signed = d.is_signed_int();
        Ok(match op {
            BinaryOp::Add => b.build_int_add(x, y, "")?.into(),
            BinaryOp::Sub => b.build_int_sub(x, y, "")?.into(),
            BinaryOp::Mul => b.build_int_mul(x, y, "")?.into(),
            BinaryOp::And => b.build_and(x, y, "")?.into(),
            BinaryOp::Or => b.build_or(x, y, "")?.into(),
            BinaryOp::Xor => b.build_xor(x, y, "")?.into(),
            // Operands in range: `smelt_kernel::legalize` put the selects around.
            BinaryOp::DivUnchecked | BinaryOp::RemUnchecked if ty.get_bit_width() <= 32 => {
                let q = self.narrow_quotient(x, y, signed)?;
                if op == BinaryOp::DivUnchecked {
                    q.into()
                } else {
                    let b = &self.b;
                    b.build_int_sub(x, b.build_int_mul(q, y, "")?, "")?.into()
                }
            }
            BinaryOp::DivUnchecked if signed => b.build_int_signed_div(x, y, "")?.into(),
            BinaryOp::DivUnchecked => b.build_int_unsigned_div(x, y, "")?.into(),
            BinaryOp::RemUnchecked if signed => b.build_int_signed_rem(x, y, "")?.into(),
            BinaryOp::RemUnchecked => b.build_int_unsigned_rem(x, y, "")?.into(),
            // The amount modulo the width (an LLVM shift past it is poison; the
            // mask folds into x86's and AArch64's shifts, which mask anyway).
            BinaryOp::ShlUnchecked | BinaryOp::ShrLogicalUnchecked | BinaryOp::ShrArithmeticUnchecked => {
                let amount = b.build_and(y, ty.const_int(ty.get_bit_width() as u64 - 1, false), "")?;
                match op {
                    BinaryOp::ShlUnchecked => b.build_left_shift(x, amount, "")?.into(),
                    BinaryOp::ShrLogicalUnchecked => b.build_right_shift(x, amount, false, "")?.into(),
                    _ => b.build_right_shift(x, amount, true, "")?.into(),
                }
            }
            BinaryOp::Max => {
                let name = if signed { "llvm.smax" } else { "llvm.umax" };
                self.intrinsic(name, &[ty.into()], &[x.into(), y.into()])?
            }
            BinaryOp::Min => {
                let name = if signed { "llvm.smin" } else { "llvm.umin" };
                self.intrinsic(name, &[ty.into()], &[x.into(), y.into()])?
            }
            BinaryOp::Atan2 => unsupported!("atan2 on {d}"),
            // Checked integer forms: `smelt_kernel::legalize` rewrote them (verify says so).
            op => invalid!("{op:?} on {d} is not legalized"),
        })
    }

    // ---- compare, select, clamp ----

    pub fn compare(
        &mut self,
        dir: ComparisonDirection,
        ct: Option<CompareType>,
        d: DType,
        a: BasicValueEnum<'ctx>,
        b: BasicValueEnum<'ctx>,
    ) -> Result<IntValue<'ctx>> {
        use ComparisonDirection as D;
        if is_float(d) {
            let x = self.to_calc(a, d)?;
            let y = self.to_calc(b, d)?;
            if ct == Some(CompareType::TotalOrder) {
                let kx = self.total_key(x)?;
                let ky = self.total_key(y)?;
                return self.int_compare(dir, true, kx, ky);
            }
            let p = match dir {
                D::Eq => FloatPredicate::OEQ,
                D::Ne => FloatPredicate::UNE,
                D::Lt => FloatPredicate::OLT,
                D::Le => FloatPredicate::OLE,
                D::Gt => FloatPredicate::OGT,
                D::Ge => FloatPredicate::OGE,
            };
            return Ok(self.b.build_float_compare(p, x, y, "")?);
        }
        let signed = match ct {
            Some(CompareType::Unsigned) => false,
            Some(CompareType::Signed) => true,
            _ => d.is_signed_int(),
        };
        self.int_compare(dir, signed && d != DType::Pred, a.into_int_value(), b.into_int_value())
    }

    fn int_compare(
        &self,
        dir: ComparisonDirection,
        signed: bool,
        x: IntValue<'ctx>,
        y: IntValue<'ctx>,
    ) -> Result<IntValue<'ctx>> {
        use ComparisonDirection as D;
        let p = match (dir, signed) {
            (D::Eq, _) => IntPredicate::EQ,
            (D::Ne, _) => IntPredicate::NE,
            (D::Lt, true) => IntPredicate::SLT,
            (D::Le, true) => IntPredicate::SLE,
            (D::Gt, true) => IntPredicate::SGT,
            (D::Ge, true) => IntPredicate::SGE,
            (D::Lt, false) => IntPredicate::ULT,
            (D::Le, false) => IntPredicate::ULE,
            (D::Gt, false) => IntPredicate::UGT,
            (D::Ge, false) => IntPredicate::UGE,
        };
        Ok(self.b.build_int_compare(p, x, y, "")?)
    }

    /// An integer whose signed order is IEEE total order on `v`.
    fn total_key(&self, v: FloatValue<'ctx>) -> Result<IntValue<'ctx>> {
        let it = if v.get_type() == self.t.f64 { self.t.i64 } else { self.t.i32 };
        let bits = it.get_bit_width() as u64;
        let b = &self.b;
        let x = b.build_bit_cast(v, it, "")?.into_int_value();
        let s = b.build_right_shift(x, it.const_int(bits - 1, false), true, "")?;
        let m = b.build_right_shift(s, it.const_int(1, false), false, "")?;
        Ok(b.build_xor(x, m, "")?)
    }

    pub fn select(
        &self,
        p: IntValue<'ctx>,
        a: BasicValueEnum<'ctx>,
        b: BasicValueEnum<'ctx>,
    ) -> Result<BasicValueEnum<'ctx>> {
        Ok(self.b.build_select(p, a, b, "")?)
    }

    /// `clamp(lo, x, hi) = min(hi, max(lo, x))` with the type's max and min.
    pub fn clamp(
        &mut self,
        d: DType,
        lo: BasicValueEnum<'ctx>,
        x: BasicValueEnum<'ctx>,
        hi: BasicValueEnum<'ctx>,
    ) -> Result<BasicValueEnum<'ctx>> {
        let m = self.binary(BinaryOp::Max, d, lo, x, false)?;
        self.binary(BinaryOp::Min, d, hi, m, false)
    }

    // ---- convert, bitcast ----

    fn cast_of(&self, x: BasicValueEnum<'ctx>, d: DType) -> Result<CastVal<'ctx>> {
        Ok(match d {
            DType::Pred => CastVal::Int { v: x.into_int_value(), signed: false },
            d if is_float(d) => CastVal::Float(self.to_calc(x, d)?),
            d => CastVal::Int { v: x.into_int_value(), signed: d.is_signed_int() },
        })
    }

    fn int_to_float(
        &self,
        v: IntValue<'ctx>,
        signed: bool,
        ty: inkwell::types::FloatType<'ctx>,
    ) -> Result<FloatValue<'ctx>> {
        Ok(if signed {
            self.b.build_signed_int_to_float(v, ty, "")?
        } else {
            self.b.build_unsigned_int_to_float(v, ty, "")?
        })
    }

    /// Float to integer, saturating: NaN -> 0, values beyond the integer range
    /// -> its bounds, the rest truncated toward zero (XLA's rule, which the
    /// interpreter defines). Written as compares and selects around a plain
    /// conversion of an in-range value rather than `llvm.fpto[su]i.sat`, which
    /// LLVM's x86 backend scalarizes lane by lane in vector loops; 8- and
    /// 16-bit results convert through i32 (x86 has no narrower conversion).
    fn float_to_int_saturating(&mut self, x: FloatValue<'ctx>, to: DType) -> Result<IntValue<'ctx>> {
        let b = &self.b;
        let ft = x.get_type();
        let bits = to.bit_width() as u32;
        let signed = to.is_signed_int();
        // The range's bounds: `lo` and `hi + 1` are 0 or powers of two, exact in
        // every float type that holds them.
        let (lo, top) = if signed {
            (-(2f64.powi(bits as i32 - 1)), 2f64.powi(bits as i32 - 1))
        } else {
            (0.0, 2f64.powi(bits as i32))
        };
        let ty = self.int_type_of(to);
        let (min, max) = if signed {
            (ty.const_int(1u64 << (bits - 1), false), ty.const_int((1u64 << (bits - 1)) - 1, false))
        } else {
            (ty.const_zero(), ty.const_all_ones())
        };
        let nan = b.build_float_compare(FloatPredicate::UNO, x, x, "")?;
        let big = b.build_float_compare(FloatPredicate::OGE, x, ft.const_float(top), "")?;
        let small = b.build_float_compare(FloatPredicate::OLT, x, ft.const_float(lo), "")?;
        let out = b.build_or(b.build_or(nan, big, "")?, small, "")?;
        let safe = b.build_select(out, ft.const_zero(), x, "")?.into_float_value();
        let conv = if bits < 32 {
            let wide = b.build_float_to_signed_int(safe, self.t.i32, "")?;
            b.build_int_truncate(wide, ty, "")?
        } else if signed {
            b.build_float_to_signed_int(safe, ty, "")?
        } else {
            b.build_float_to_unsigned_int(safe, ty, "")?
        };
        let r = b.build_select(small, min, conv, "")?.into_int_value();
        let r = b.build_select(big, max, r, "")?.into_int_value();
        Ok(b.build_select(nan, ty.const_zero(), r, "")?.into_int_value())
    }

    /// `convert` from `from` to `to`.
    pub fn convert(&mut self, x: BasicValueEnum<'ctx>, from: DType, to: DType) -> Result<BasicValueEnum<'ctx>> {
        if from == to {
            return Ok(x);
        }
        let c = self.cast_of(x, from)?;
        let b = &self.b;
        Ok(match (c, to) {
            (CastVal::Int { v, .. }, DType::Pred) => {
                b.build_int_compare(IntPredicate::NE, v, v.get_type().const_zero(), "")?.into()
            }
            (CastVal::Float(f), DType::Pred) => {
                b.build_float_compare(FloatPredicate::UNE, f, f.get_type().const_zero(), "")?.into()
            }
            (CastVal::Int { v, signed }, to) if is_int(to) => {
                let ty = self.int_type_of(to);
                let (w, tw) = (v.get_type().get_bit_width(), ty.get_bit_width());
                if w > tw {
                    b.build_int_truncate(v, ty, "")?.into()
                } else if w < tw {
                    if signed {
                        b.build_int_s_extend(v, ty, "")?.into()
                    } else {
                        b.build_int_z_extend(v, ty, "")?.into()
                    }
                } else {
                    v.into()
                }
            }
            (CastVal::Float(f), to) if is_int(to) => self.float_to_int_saturating(f, to)?.into(),
            (CastVal::Int { v, signed }, DType::F32) => self.int_to_float(v, signed, self.t.f32)?.into(),
            (CastVal::Int { v, signed }, DType::F64) => self.int_to_float(v, signed, self.t.f64)?.into(),
            (CastVal::Int { v, signed }, DType::F16) => {
                let w = self.int_to_float(v, signed, self.t.f64)?;
                let s = b.build_float_trunc(w, self.t.f32, "")?;
                b.build_float_trunc(s, self.t.f16, "")?.into()
            }
            (CastVal::Int { v, signed }, DType::Bf16) => {
                let w = self.int_to_float(v, signed, self.t.f64)?;
                self.f64_to_bf16(w)?.into()
            }
            (CastVal::Float(f), DType::F32) => {
                if f.get_type() == self.t.f64 {
                    b.build_float_trunc(f, self.t.f32, "")?.into()
                } else {
                    f.into()
                }
            }
            (CastVal::Float(f), DType::F64) => {
                if f.get_type() == self.t.f64 {
                    f.into()
                } else {
                    b.build_float_ext(f, self.t.f64, "")?.into()
                }
            }
            (CastVal::Float(f), DType::F16) => {
                let s = if f.get_type() == self.t.f64 { b.build_float_trunc(f, self.t.f32, "")? } else { f };
                b.build_float_trunc(s, self.t.f16, "")?.into()
            }
            // From f32 (and f16) on the bits, as the interpreter: no f64 detour,
            // whose conversion would flush subnormals.
            (CastVal::Float(f), DType::Bf16) if f.get_type() != self.t.f64 => self.f32_to_bf16(f)?.into(),
            (CastVal::Float(f), DType::Bf16) => self.f64_to_bf16(f)?.into(),
            (_, to) => invalid!("convert from {from} to {to}"),
        })
    }

    /// The raw bits of a value of `d` as an integer of `d`'s width.
    pub fn to_bits(&self, x: BasicValueEnum<'ctx>, d: DType) -> Result<IntValue<'ctx>> {
        Ok(match d {
            DType::Pred => self.b.build_int_z_extend(x.into_int_value(), self.t.i8, "")?,
            DType::F16 | DType::F32 | DType::F64 => self.b.build_bit_cast(x, self.int_type_of(d), "")?.into_int_value(),
            _ => x.into_int_value(),
        })
    }

    /// A value of `d` from raw bits of `d`'s width.
    pub fn value_of_bits(&self, bits: IntValue<'ctx>, d: DType) -> Result<BasicValueEnum<'ctx>> {
        Ok(match d {
            DType::Pred => self.b.build_int_compare(IntPredicate::NE, bits, bits.get_type().const_zero(), "")?.into(),
            DType::F16 | DType::F32 | DType::F64 => self.b.build_bit_cast(bits, self.reg_type(d), "")?,
            _ => bits.into(),
        })
    }

    /// `bitcast-convert` between types of the same width.
    pub fn bitcast(&self, x: BasicValueEnum<'ctx>, from: DType, to: DType) -> Result<BasicValueEnum<'ctx>> {
        if from.byte_size() != to.byte_size() {
            invalid!("bitcast from {from} to {to} changes the width");
        }
        let bits = self.to_bits(x, from)?;
        self.value_of_bits(bits, to)
    }
}

impl<'ctx> Cg<'ctx, '_> {
    /// `op(args...)` through the vectorizable math library (`crate::math`).
    fn math(&mut self, op: MathOp, args: &[FloatValue<'ctx>]) -> Result<FloatValue<'ctx>> {
        let Some(&x) = args.first() else {
            return Err(LlvmError::Llvm(format!("{op:?} without arguments")));
        };
        let f = math_function(&self.module, op, x.get_type(), self.target.math);
        self.math_calls.set(self.math_calls.get() + 1);
        // Functions not inlined are compiled for the kernel's target too (a
        // vector variant's arguments pass in the caller's registers).
        for helper in crate::math::out_of_line(&self.module, f) {
            self.stamp(helper);
        }
        let vals: Vec<_> = args.iter().map(|&a| a.into()).collect();
        let r = self.call(f, &vals)?.ok_or_else(|| LlvmError::Llvm(format!("{op:?} returns nothing")))?;
        Ok(r.into_float_value())
    }
}
