//! Every scalar operation of the kernel form as Cranelift instructions, with
//! the interpreter's semantics (`smelt_kernel::ir::UnaryOp` and the
//! interpreter's `edge.rs`): integer division by zero and overflow, shift
//! amounts out of range, NaN-propagating max/min with -0 < +0, saturating
//! float-to-integer conversion, f16/bf16 arithmetic in f32 rounded after every
//! operation. Transcendental functions are the math library's (`smelt_math`),
//! emitted inline through [`ClifEm`] exactly as the LLVM tiers emit them; what
//! else the ISA lacks (f16 rounding, round-half-away, fmod, integer powers)
//! calls the helpers in `smelt_runtime::routines::scalar`.
//!
//! Value representation: pred and 8-bit integers are `i8`, 16-bit integers
//! `i16`, and so on; f16 and bf16 values live in `f32` registers (exactly
//! representable there) and are narrowed only in memory.

use cranelift_codegen::ir::condcodes::{FloatCC, IntCC};
use cranelift_codegen::ir::{InstBuilder, MemFlagsData, Type, Value, types};
use smelt_hlo::DType;
use smelt_hlo::attrs::{CompareType, ComparisonDirection};
use smelt_kernel::{BinaryOp, Scalar, UnaryOp};

use std::cell::RefCell;

use smelt_math::MathOp;

use super::Fx;
use super::math::ClifEm;
use crate::error::{Result, invalid, unsupported};

/// The register type values of `t` live in.
pub(crate) fn clif_type(t: DType) -> Type {
    match t {
        DType::Pred | DType::S8 | DType::U8 => types::I8,
        DType::S16 | DType::U16 => types::I16,
        DType::S32 | DType::U32 => types::I32,
        DType::S64 | DType::U64 => types::I64,
        // Complex types never reach code generation (`smelt_hlo::complex`); parts stand in.
        DType::F16 | DType::Bf16 | DType::F32 | DType::C64 => types::F32,
        DType::F64 | DType::C128 => types::F64,
    }
}

/// The float condition of a comparison direction (`ne` is true on NaN, the
/// others false, as the interpreter compares).
pub(crate) fn float_cc(dir: ComparisonDirection) -> FloatCC {
    use ComparisonDirection as D;
    match dir {
        D::Eq => FloatCC::Equal,
        D::Ne => FloatCC::NotEqual,
        D::Lt => FloatCC::LessThan,
        D::Le => FloatCC::LessThanOrEqual,
        D::Gt => FloatCC::GreaterThan,
        D::Ge => FloatCC::GreaterThanOrEqual,
    }
}

fn is_half(t: DType) -> bool {
    matches!(t, DType::F16 | DType::Bf16)
}

fn int_bits(t: DType) -> u32 {
    clif_type(t).bits()
}

impl Fx<'_, '_> {
    pub(crate) fn constant(&mut self, s: Scalar) -> Value {
        match s {
            Scalar::Int(t, v) => {
                let ty = clif_type(t);
                let bits = ty.bits();
                // Immediates of narrow types are given zero-extended.
                let imm = if bits >= 64 { v as i64 } else { ((v as u64) & ((1u64 << bits) - 1)) as i64 };
                self.b.ins().iconst(ty, imm)
            }
            Scalar::Float(DType::F64, v) => self.b.ins().f64const(v),
            Scalar::Float(_, v) => self.b.ins().f32const(v as f32),
        }
    }

    fn f32c(&mut self, v: f32) -> Value {
        self.b.ins().f32const(v)
    }

    fn fconst(&mut self, t: DType, v: f64) -> Value {
        if t == DType::F64 { self.b.ins().f64const(v) } else { self.f32c(v as f32) }
    }

    /// A float value of type `t` computed in f32 (or f64), rounded to `t`.
    fn round_to(&mut self, t: DType, v: Value) -> Result<Value> {
        Ok(match t {
            DType::F16 => self.call1("smelt_rt_round_f16", v)?,
            DType::Bf16 => self.call1("smelt_rt_round_bf16", v)?,
            _ => v,
        })
    }

    /// Calls a helper of one float argument of `t`'s register type.
    fn float_helper(&mut self, name: &str, t: DType, args: &[Value]) -> Result<Value> {
        let suffix = if t == DType::F64 { "f64" } else { "f32" };
        let name = format!("smelt_rt_{name}_{suffix}");
        self.call(&name, args)
    }

    pub(crate) fn unary(&mut self, op: UnaryOp, t: DType, x: Value) -> Result<Value> {
        if t.is_float() {
            return self.float_unary(op, t, x);
        }
        let ty = clif_type(t);
        let ins = self.b.ins();
        Ok(match (op, t) {
            (UnaryOp::Not, DType::Pred) => ins.icmp_imm_s(IntCC::Equal, x, 0),
            (_, DType::Pred) => unsupported!("{op:?} on pred"),
            (UnaryOp::Abs, _) if t.is_signed_int() => {
                let neg = ins.ineg(x);
                let lt = self.b.ins().icmp_imm_s(IntCC::SignedLessThan, x, 0);
                self.b.ins().select(lt, neg, x)
            }
            (UnaryOp::Abs, _) => x,
            (UnaryOp::Neg, _) => ins.ineg(x),
            (UnaryOp::Not, _) => ins.bnot(x),
            (UnaryOp::Popcnt, _) => {
                let wide = if ty.bits() < 32 { ins.uextend(types::I32, x) } else { x };
                let c = self.b.ins().popcnt(wide);
                if ty.bits() < 32 { self.b.ins().ireduce(ty, c) } else { c }
            }
            (UnaryOp::Clz, _) => {
                if ty.bits() < 32 {
                    let wide = ins.uextend(types::I32, x);
                    let c = self.b.ins().clz(wide);
                    let c = self.b.ins().iadd_imm_s(c, -(32 - ty.bits() as i64));
                    self.b.ins().ireduce(ty, c)
                } else {
                    ins.clz(x)
                }
            }
            (UnaryOp::Sign, _) => {
                if t.is_signed_int() {
                    let gt = ins.icmp_imm_s(IntCC::SignedGreaterThan, x, 0);
                    let lt = self.b.ins().icmp_imm_s(IntCC::SignedLessThan, x, 0);
                    let d = self.b.ins().isub(gt, lt);
                    self.widen_i8(d, ty, true)
                } else {
                    let ne = ins.icmp_imm_s(IntCC::NotEqual, x, 0);
                    self.widen_i8(ne, ty, false)
                }
            }
            _ => unsupported!("{op:?} on {t}"),
        })
    }

    /// An `i8` value as type `ty`.
    fn widen_i8(&mut self, v: Value, ty: Type, signed: bool) -> Value {
        if ty == types::I8 {
            v
        } else if signed {
            self.b.ins().sextend(ty, v)
        } else {
            self.b.ins().uextend(ty, v)
        }
    }

    /// A function of the math library (`smelt_math`), inline: the same
    /// operations the LLVM tiers emit. f16 and bf16 compute in f32. An op with
    /// a rare path (sin, cos and tan of huge arguments) takes it behind a
    /// branch, as the CPU backend's vector variants do.
    fn math(&mut self, op: MathOp, t: DType, x: Value, y: Option<Value>) -> Value {
        let wide = t == DType::F64;
        let (rare, common) = {
            let cell = RefCell::new(&mut self.b);
            let em = ClifEm::new(&cell, wide);
            let Some(rare) = smelt_math::rare_path(&em, op, x) else {
                return smelt_math::build(&em, op, x, y);
            };
            (rare, smelt_math::build_common(&em, op, x, y))
        };
        let (exact, join) = (self.b.create_block(), self.b.create_block());
        let ty = self.b.func.dfg.value_type(x);
        self.b.append_block_param(join, ty);
        self.b.ins().brif(rare, exact, &[], join, &[common.into()]);
        self.b.switch_to_block(exact);
        let r = {
            let cell = RefCell::new(&mut self.b);
            smelt_math::build(&ClifEm::new(&cell, wide), op, x, y)
        };
        self.b.ins().jump(join, &[r.into()]);
        self.b.switch_to_block(join);
        self.b.block_params(join)[0]
    }

    fn float_unary(&mut self, op: UnaryOp, t: DType, x: Value) -> Result<Value> {
        if let Some(m) = MathOp::of_unary(op) {
            let r = self.math(m, t, x, None);
            return self.round_to(t, r);
        }
        if op == UnaryOp::RoundNearestAfz {
            let r = self.float_helper("round", t, &[x])?;
            return self.round_to(t, r);
        }
        let r = match op {
            UnaryOp::Abs => return Ok(self.b.ins().fabs(x)),
            UnaryOp::Neg => return Ok(self.b.ins().fneg(x)),
            UnaryOp::Ceil => return Ok(self.b.ins().ceil(x)),
            UnaryOp::Floor => return Ok(self.b.ins().floor(x)),
            UnaryOp::RoundNearestEven => return Ok(self.b.ins().nearest(x)),
            UnaryOp::IsFinite => {
                let a = self.b.ins().fabs(x);
                let inf = self.fconst(t, f64::INFINITY);
                return Ok(self.b.ins().fcmp(FloatCC::LessThan, a, inf));
            }
            UnaryOp::Sign => {
                let zero = self.fconst(t, 0.0);
                let (one, minus_one) = (self.fconst(t, 1.0), self.fconst(t, -1.0));
                let nan = self.b.ins().fcmp(FloatCC::Unordered, x, x);
                let is_zero = self.b.ins().fcmp(FloatCC::Equal, x, zero);
                let pos = self.b.ins().fcmp(FloatCC::GreaterThan, x, zero);
                let s = self.b.ins().select(pos, one, minus_one);
                // Zeros (subnormals read as zero included) give the zero of x's sign.
                let signed_zero = self.b.ins().fcopysign(zero, x);
                let s = self.b.ins().select(is_zero, signed_zero, s);
                return Ok(self.b.ins().select(nan, x, s));
            }
            UnaryOp::Sqrt => self.b.ins().sqrt(x),
            _ => unsupported!("{op:?} on {t}"),
        };
        self.round_to(t, r)
    }

    /// `r`, or the zero of its sign where `r` compares equal to zero: x86's
    /// `fmax`/`fmin` lowering can pass a subnormal operand's bits through, which
    /// the floating-point environment reads as zero (see `smelt_runtime::fpenv`).
    fn flushed_zero(&mut self, t: DType, r: Value) -> Value {
        let zero = self.fconst(t, 0.0);
        let is_zero = self.b.ins().fcmp(FloatCC::Equal, r, zero);
        let signed_zero = self.b.ins().fcopysign(zero, r);
        self.b.ins().select(is_zero, signed_zero, r)
    }

    pub(crate) fn binary(&mut self, op: BinaryOp, t: DType, a: Value, b: Value) -> Result<Value> {
        if t.is_float() {
            let r = match op {
                BinaryOp::Add => self.b.ins().fadd(a, b),
                BinaryOp::Sub => self.b.ins().fsub(a, b),
                BinaryOp::Mul => self.b.ins().fmul(a, b),
                BinaryOp::Div => self.b.ins().fdiv(a, b),
                BinaryOp::Max => {
                    let r = self.b.ins().fmax(a, b);
                    return Ok(self.flushed_zero(t, r));
                }
                BinaryOp::Min => {
                    let r = self.b.ins().fmin(a, b);
                    return Ok(self.flushed_zero(t, r));
                }
                BinaryOp::Rem => self.float_helper("fmod", t, &[a, b])?,
                BinaryOp::Pow => self.math(MathOp::Pow, t, a, Some(b)),
                BinaryOp::Atan2 => self.math(MathOp::Atan2, t, a, Some(b)),
                _ => unsupported!("{op:?} on {t}"),
            };
            return self.round_to(t, r);
        }
        if t == DType::Pred {
            return Ok(match op {
                BinaryOp::And | BinaryOp::Mul | BinaryOp::Min => self.b.ins().band(a, b),
                BinaryOp::Or | BinaryOp::Add | BinaryOp::Max => self.b.ins().bor(a, b),
                BinaryOp::Xor => self.b.ins().bxor(a, b),
                _ => unsupported!("{op:?} on pred"),
            });
        }
        let signed = t.is_signed_int();
        let ty = clif_type(t);
        let w = ty.bits() as i64;
        Ok(match op {
            BinaryOp::Add => self.b.ins().iadd(a, b),
            BinaryOp::Sub => self.b.ins().isub(a, b),
            BinaryOp::Mul => {
                if w < 32 {
                    let (x, y) = (self.b.ins().uextend(types::I32, a), self.b.ins().uextend(types::I32, b));
                    let p = self.b.ins().imul(x, y);
                    self.b.ins().ireduce(ty, p)
                } else {
                    self.b.ins().imul(a, b)
                }
            }
            BinaryOp::DivUnchecked | BinaryOp::RemUnchecked => {
                self.int_div_rem(op == BinaryOp::DivUnchecked, signed, ty, a, b)
            }
            BinaryOp::Max | BinaryOp::Min => {
                let cc = match (op == BinaryOp::Max, signed) {
                    (true, true) => IntCC::SignedGreaterThan,
                    (true, false) => IntCC::UnsignedGreaterThan,
                    (false, true) => IntCC::SignedLessThan,
                    (false, false) => IntCC::UnsignedLessThan,
                };
                let c = self.b.ins().icmp(cc, a, b);
                self.b.ins().select(c, a, b)
            }
            BinaryOp::And => self.b.ins().band(a, b),
            BinaryOp::Or => self.b.ins().bor(a, b),
            BinaryOp::Xor => self.b.ins().bxor(a, b),
            // Cranelift takes the amount modulo the width, as the unchecked forms do.
            BinaryOp::ShlUnchecked => self.b.ins().ishl(a, b),
            BinaryOp::ShrLogicalUnchecked => self.b.ins().ushr(a, b),
            BinaryOp::ShrArithmeticUnchecked => self.b.ins().sshr(a, b),
            BinaryOp::Atan2 => unsupported!("Atan2 on {t}"),
            // Checked integer forms: `smelt_kernel::legalize` rewrote them (verify says so).
            op => invalid!("{op:?} on {t} is not legalized"),
        })
    }

    /// Integer division and remainder of legalized operands (the divisor is
    /// not 0, nor -1 under a minimum dividend).
    fn int_div_rem(&mut self, div: bool, signed: bool, ty: Type, a: Value, b: Value) -> Value {
        // Narrow types divide in 32 bits.
        let (wa, wb, wty) = if ty.bits() < 32 {
            let ext = |fx: &mut Self, v| {
                if signed { fx.b.ins().sextend(types::I32, v) } else { fx.b.ins().uextend(types::I32, v) }
            };
            (ext(self, a), ext(self, b), types::I32)
        } else {
            (a, b, ty)
        };
        let r = match (signed, div) {
            (true, true) => self.b.ins().sdiv(wa, wb),
            (true, false) => self.b.ins().srem(wa, wb),
            (false, true) => self.b.ins().udiv(wa, wb),
            (false, false) => self.b.ins().urem(wa, wb),
        };
        if wty != ty { self.b.ins().ireduce(ty, r) } else { r }
    }

    /// A float's IEEE total-order key as a signed integer.
    fn total_key(&mut self, t: DType, x: Value) -> Value {
        let (ity, w) = if t == DType::F64 { (types::I64, 64) } else { (types::I32, 32) };
        let bits = self.b.ins().bitcast(ity, MemFlagsData::new(), x);
        let sign = self.b.ins().sshr_imm_s(bits, w - 1);
        let mask = self.b.ins().ushr_imm_s(sign, 1);
        self.b.ins().bxor(bits, mask)
    }

    pub(crate) fn compare(
        &mut self,
        dir: ComparisonDirection,
        compare_type: Option<CompareType>,
        t: DType,
        a: Value,
        b: Value,
    ) -> Value {
        if t.is_float() {
            if compare_type == Some(CompareType::TotalOrder) {
                let (x, y) = (self.total_key(t, a), self.total_key(t, b));
                return self.int_compare(dir, true, x, y);
            }
            return self.b.ins().fcmp(float_cc(dir), a, b);
        }
        let signed = match compare_type {
            _ if t == DType::Pred => false,
            Some(CompareType::Unsigned) => false,
            Some(CompareType::Signed) => true,
            _ => t.is_signed_int(),
        };
        self.int_compare(dir, signed, a, b)
    }

    fn int_compare(&mut self, dir: ComparisonDirection, signed: bool, a: Value, b: Value) -> Value {
        use ComparisonDirection as D;
        let cc = match (dir, signed) {
            (D::Eq, _) => IntCC::Equal,
            (D::Ne, _) => IntCC::NotEqual,
            (D::Lt, true) => IntCC::SignedLessThan,
            (D::Le, true) => IntCC::SignedLessThanOrEqual,
            (D::Gt, true) => IntCC::SignedGreaterThan,
            (D::Ge, true) => IntCC::SignedGreaterThanOrEqual,
            (D::Lt, false) => IntCC::UnsignedLessThan,
            (D::Le, false) => IntCC::UnsignedLessThanOrEqual,
            (D::Gt, false) => IntCC::UnsignedGreaterThan,
            (D::Ge, false) => IntCC::UnsignedGreaterThanOrEqual,
        };
        self.b.ins().icmp(cc, a, b)
    }

    /// `clamp(lo, x, hi) = min(hi, max(lo, x))`.
    pub(crate) fn clamp(&mut self, t: DType, lo: Value, x: Value, hi: Value) -> Result<Value> {
        let m = self.binary(BinaryOp::Max, t, lo, x)?;
        self.binary(BinaryOp::Min, t, hi, m)
    }

    /// `convert`: integers wrap, float to integer saturates (NaN gives 0), float
    /// narrowing rounds to nearest even, anything nonzero (NaN included) is true.
    pub(crate) fn convert(&mut self, from: DType, to: DType, x: Value) -> Result<Value> {
        if from == to {
            return Ok(x);
        }
        let tty = clif_type(to);
        if !from.is_float() {
            let signed = from.is_signed_int();
            if to == DType::Pred {
                return Ok(self.b.ins().icmp_imm_s(IntCC::NotEqual, x, 0));
            }
            if !to.is_float() {
                let (fb, tb) = (int_bits(from), int_bits(to));
                return Ok(if tb > fb {
                    if signed { self.b.ins().sextend(tty, x) } else { self.b.ins().uextend(tty, x) }
                } else if tb < fb {
                    self.b.ins().ireduce(tty, x)
                } else {
                    x
                });
            }
            let wide = if int_bits(from) == 64 {
                x
            } else if signed {
                self.b.ins().sextend(types::I64, x)
            } else {
                self.b.ins().uextend(types::I64, x)
            };
            let unsigned64 = from == DType::U64;
            let cvt = |fx: &mut Self, ty| {
                if unsigned64 { fx.b.ins().fcvt_from_uint(ty, wide) } else { fx.b.ins().fcvt_from_sint(ty, wide) }
            };
            return Ok(match to {
                DType::F32 => cvt(self, types::F32),
                DType::F64 => cvt(self, types::F64),
                // XLA (and the interpreter) go through f64.
                _ => {
                    let d = cvt(self, types::F64);
                    self.half_from_f64(to, d)?
                }
            });
        }
        // From a float (f16 and bf16 are f32 in registers).
        if to == DType::Pred {
            let zero = self.fconst(from, 0.0);
            return Ok(self.b.ins().fcmp(FloatCC::NotEqual, x, zero));
        }
        if to.is_float() {
            return Ok(match (from, to) {
                (_, DType::F64) => self.b.ins().fpromote(types::F64, x),
                (DType::F64, DType::F32) => self.b.ins().fdemote(types::F32, x),
                (DType::F64, _) => self.half_from_f64(to, x)?,
                (_, DType::F32) => x,
                // On the bits, as the interpreter (an f64 detour would flush subnormals).
                (_, DType::Bf16) => self.call1("smelt_rt_round_bf16", x)?,
                _ => {
                    let d = self.b.ins().fpromote(types::F64, x);
                    self.half_from_f64(to, d)?
                }
            });
        }
        let bits = int_bits(to);
        let signed = to.is_signed_int();
        let wide_ty = if bits == 64 { types::I64 } else { types::I32 };
        let v =
            if signed { self.b.ins().fcvt_to_sint_sat(wide_ty, x) } else { self.b.ins().fcvt_to_uint_sat(wide_ty, x) };
        if bits >= 32 {
            return Ok(v);
        }
        // Saturate to the narrow range, then narrow.
        let (lo, hi) = if signed { (-(1i64 << (bits - 1)), (1i64 << (bits - 1)) - 1) } else { (0, (1i64 << bits) - 1) };
        let (lo_v, hi_v) = (self.b.ins().iconst(types::I32, lo), self.b.ins().iconst(types::I32, hi));
        let gt = if signed { IntCC::SignedGreaterThan } else { IntCC::UnsignedGreaterThan };
        let above = self.b.ins().icmp(gt, v, hi_v);
        let v = self.b.ins().select(above, hi_v, v);
        let lt = if signed { IntCC::SignedLessThan } else { IntCC::UnsignedLessThan };
        let below = self.b.ins().icmp(lt, v, lo_v);
        let v = self.b.ins().select(below, lo_v, v);
        Ok(self.b.ins().ireduce(tty, v))
    }

    fn half_from_f64(&mut self, to: DType, d: Value) -> Result<Value> {
        match to {
            DType::F16 => self.call1("smelt_rt_f64_to_f16", d),
            DType::Bf16 => self.call1("smelt_rt_f64_to_bf16", d),
            _ => unsupported!("conversion to {to}"),
        }
    }

    /// The 16-bit pattern (as `i16`) of an f16/bf16 value held in f32.
    pub(crate) fn half_bits(&mut self, t: DType, x: Value) -> Result<Value> {
        let b32 = if t == DType::F16 {
            self.call1("smelt_rt_f16_to_bits", x)?
        } else {
            let b = self.b.ins().bitcast(types::I32, MemFlagsData::new(), x);
            self.b.ins().ushr_imm_s(b, 16)
        };
        Ok(self.b.ins().ireduce(types::I16, b32))
    }

    /// The f16/bf16 value (held in f32) with 16-bit pattern `bits` (`i16`).
    pub(crate) fn half_from_bits(&mut self, t: DType, bits: Value) -> Result<Value> {
        let b32 = self.b.ins().uextend(types::I32, bits);
        if t == DType::F16 {
            self.call1("smelt_rt_f16_from_bits", b32)
        } else {
            let s = self.b.ins().ishl_imm_s(b32, 16);
            Ok(self.b.ins().bitcast(types::F32, MemFlagsData::new(), s))
        }
    }

    /// Reinterprets the bits of `x` as type `to` of the same width.
    pub(crate) fn bitcast(&mut self, from: DType, to: DType, x: Value) -> Result<Value> {
        if from.byte_size() != to.byte_size() {
            unsupported!("bitcast from {from} to {to} changes the width");
        }
        if from == to {
            return Ok(x);
        }
        let raw = if is_half(from) { self.half_bits(from, x)? } else { x };
        if is_half(to) {
            let bits = if clif_type(from).is_float() && !is_half(from) {
                unsupported!("bitcast from {from} to {to}")
            } else {
                raw
            };
            return self.half_from_bits(to, bits);
        }
        let (fty, tty) = (self.b.func.dfg.value_type(raw), clif_type(to));
        Ok(if fty == tty { raw } else { self.b.ins().bitcast(tty, MemFlagsData::new(), raw) })
    }

    /// Loads an element of type `t` at `addr`.
    pub(crate) fn load_elem(&mut self, t: DType, addr: Value) -> Result<Value> {
        if is_half(t) {
            let bits = self.b.ins().load(types::I16, MemFlagsData::trusted(), addr, 0);
            return self.half_from_bits(t, bits);
        }
        Ok(self.b.ins().load(clif_type(t), MemFlagsData::trusted(), addr, 0))
    }

    /// Stores `v`, an element of type `t`, at `addr`.
    pub(crate) fn store_elem(&mut self, t: DType, v: Value, addr: Value) -> Result<()> {
        let v = if is_half(t) { self.half_bits(t, v)? } else { v };
        self.b.ins().store(MemFlagsData::trusted(), v, addr, 0);
        Ok(())
    }
}
