//! The math library's emitter ([`smelt_math::Emit`]) over LLVM IR: one
//! instruction (or intrinsic every target lowers inline: `llvm.fma`,
//! `llvm.fabs`, `llvm.copysign`, `llvm.sqrt`) per primitive; tables are
//! private constant globals of the module (a gather once vectorized).

use inkwell::FloatPredicate;
use inkwell::IntPredicate;
use inkwell::builder::Builder;
use inkwell::intrinsics::Intrinsic;
use inkwell::module::{Linkage, Module};
use inkwell::types::{FloatType, IntType};
use inkwell::values::{FloatValue, IntValue};
use smelt_math::{Emit, FCmp, ICmp, ldexp_in_two_steps};

use super::MathTarget;

/// The builder is positioned inside the function being built; failing that is a
/// bug in this module, never input-driven.
const POS: &str = "math emitter: builder is positioned in a block";

/// Emits scalar code for one float type (`f32` or `f64`) and its same-width integer.
#[derive(Clone, Copy)]
pub(crate) struct Em<'a, 'ctx> {
    pub b: &'a Builder<'ctx>,
    pub m: &'a Module<'ctx>,
    pub ft: FloatType<'ctx>,
    pub it: IntType<'ctx>,
    /// `f64` (else `f32`).
    pub wide: bool,
    /// What the target does in one instruction.
    pub target: MathTarget,
}

impl<'a, 'ctx> Em<'a, 'ctx> {
    pub fn new(b: &'a Builder<'ctx>, m: &'a Module<'ctx>, wide: bool, target: MathTarget) -> Self {
        let ctx = m.get_context();
        let (ft, it) = if wide { (ctx.f64_type(), ctx.i64_type()) } else { (ctx.f32_type(), ctx.i32_type()) };
        Em { b, m, ft, it, wide, target }
    }

    fn intrinsic(&self, name: &str, args: &[FloatValue<'ctx>]) -> FloatValue<'ctx> {
        let intrinsic = Intrinsic::find(name).expect("LLVM knows its float intrinsics");
        let decl = intrinsic.get_declaration(self.m, &[self.ft.into()]).expect("float intrinsic overload");
        let args: Vec<_> = args.iter().map(|a| (*a).into()).collect();
        let call = self.b.build_call(decl, &args, "").expect(POS);
        call.try_as_basic_value().unwrap_basic().into_float_value()
    }
}

impl<'ctx> Emit for Em<'_, 'ctx> {
    type F = FloatValue<'ctx>;
    type I = IntValue<'ctx>;
    type B = IntValue<'ctx>;

    fn wide(&self) -> bool {
        self.wide
    }

    fn other(&self) -> Self {
        Em::new(self.b, self.m, !self.wide, self.target)
    }

    fn fused(&self) -> bool {
        self.target.fused
    }

    fn c(&self, v: f64) -> Self::F {
        self.ft.const_float(v)
    }

    fn ci(&self, v: i64) -> Self::I {
        self.it.const_int(v as u64, true)
    }

    fn add(&self, a: Self::F, b: Self::F) -> Self::F {
        self.b.build_float_add(a, b, "").expect(POS)
    }

    fn sub(&self, a: Self::F, b: Self::F) -> Self::F {
        self.b.build_float_sub(a, b, "").expect(POS)
    }

    fn mul(&self, a: Self::F, b: Self::F) -> Self::F {
        self.b.build_float_mul(a, b, "").expect(POS)
    }

    fn div(&self, a: Self::F, b: Self::F) -> Self::F {
        self.b.build_float_div(a, b, "").expect(POS)
    }

    fn neg(&self, a: Self::F) -> Self::F {
        self.b.build_float_neg(a, "").expect(POS)
    }

    fn fma(&self, a: Self::F, b: Self::F, c: Self::F) -> Self::F {
        self.intrinsic("llvm.fma", &[a, b, c])
    }

    fn abs(&self, a: Self::F) -> Self::F {
        self.intrinsic("llvm.fabs", &[a])
    }

    fn copysign(&self, mag: Self::F, sign: Self::F) -> Self::F {
        self.intrinsic("llvm.copysign", &[mag, sign])
    }

    fn sqrt(&self, a: Self::F) -> Self::F {
        self.intrinsic("llvm.sqrt", &[a])
    }

    fn fcmp(&self, p: FCmp, a: Self::F, b: Self::F) -> Self::B {
        let p = match p {
            FCmp::Olt => FloatPredicate::OLT,
            FCmp::Ogt => FloatPredicate::OGT,
            FCmp::Oge => FloatPredicate::OGE,
            FCmp::Oeq => FloatPredicate::OEQ,
            FCmp::Uno => FloatPredicate::UNO,
        };
        self.b.build_float_compare(p, a, b, "").expect(POS)
    }

    fn sel(&self, c: Self::B, a: Self::F, b: Self::F) -> Self::F {
        self.b.build_select(c, a, b, "").expect(POS).into_float_value()
    }

    fn seli(&self, c: Self::B, a: Self::I, b: Self::I) -> Self::I {
        self.b.build_select(c, a, b, "").expect(POS).into_int_value()
    }

    fn and(&self, a: Self::I, b: Self::I) -> Self::I {
        self.b.build_and(a, b, "").expect(POS)
    }

    fn or(&self, a: Self::I, b: Self::I) -> Self::I {
        self.b.build_or(a, b, "").expect(POS)
    }

    fn xor(&self, a: Self::I, b: Self::I) -> Self::I {
        self.b.build_xor(a, b, "").expect(POS)
    }

    fn not(&self, a: Self::I) -> Self::I {
        self.b.build_not(a, "").expect(POS)
    }

    fn ldexp(&self, p: Self::F, n: Self::I) -> Self::F {
        if !self.target.native_ldexp {
            return ldexp_in_two_steps(self, p, n);
        }
        // `llvm.ldexp` rounds once, as the two steps do; its exponent is an i32
        // (every `n` the library passes fits).
        let i32t = self.m.get_context().i32_type();
        let n = if self.wide { self.b.build_int_truncate(n, i32t, "").expect(POS) } else { n };
        let intrinsic = Intrinsic::find("llvm.ldexp").expect("LLVM knows llvm.ldexp");
        let decl = intrinsic.get_declaration(self.m, &[self.ft.into(), i32t.into()]).expect("ldexp overload");
        let call = self.b.build_call(decl, &[p.into(), n.into()], "").expect(POS);
        call.try_as_basic_value().unwrap_basic().into_float_value()
    }

    fn bits(&self, a: Self::F) -> Self::I {
        self.b.build_bit_cast(a, self.it, "").expect(POS).into_int_value()
    }

    fn float_of(&self, a: Self::I) -> Self::F {
        self.b.build_bit_cast(a, self.ft, "").expect(POS).into_float_value()
    }

    fn iadd(&self, a: Self::I, b: Self::I) -> Self::I {
        self.b.build_int_add(a, b, "").expect(POS)
    }

    fn isub(&self, a: Self::I, b: Self::I) -> Self::I {
        self.b.build_int_sub(a, b, "").expect(POS)
    }

    fn imul(&self, a: Self::I, b: Self::I) -> Self::I {
        self.b.build_int_mul(a, b, "").expect(POS)
    }

    fn shl(&self, a: Self::I, n: u32) -> Self::I {
        self.b.build_left_shift(a, self.ci(n as i64), "").expect(POS)
    }

    fn ashr(&self, a: Self::I, n: u32) -> Self::I {
        self.b.build_right_shift(a, self.ci(n as i64), true, "").expect(POS)
    }

    fn lshr(&self, a: Self::I, n: u32) -> Self::I {
        self.b.build_right_shift(a, self.ci(n as i64), false, "").expect(POS)
    }

    fn icmp(&self, p: ICmp, a: Self::I, b: Self::I) -> Self::B {
        let p = match p {
            ICmp::Eq => IntPredicate::EQ,
            ICmp::Ne => IntPredicate::NE,
            ICmp::Slt => IntPredicate::SLT,
            ICmp::Sgt => IntPredicate::SGT,
        };
        self.b.build_int_compare(p, a, b, "").expect(POS)
    }

    fn band(&self, a: Self::B, b: Self::B) -> Self::B {
        self.b.build_and(a, b, "").expect(POS)
    }

    fn bor(&self, a: Self::B, b: Self::B) -> Self::B {
        self.b.build_or(a, b, "").expect(POS)
    }

    fn bxor(&self, a: Self::B, b: Self::B) -> Self::B {
        self.b.build_xor(a, b, "").expect(POS)
    }

    fn bnot(&self, a: Self::B) -> Self::B {
        self.b.build_not(a, "").expect(POS)
    }

    fn lookup(&self, name: &str, table: &'static [f64], index: Self::I) -> Self::F {
        let ctx = self.m.get_context();
        let (f64t, i64t, i8t) = (ctx.f64_type(), ctx.i64_type(), ctx.i8_type());
        let global_name = format!("smelt.table.{name}");
        // The bytes, little-endian: one constant blob (LLVM handles an array of
        // thousands of float constants far more slowly).
        let global = self.m.get_global(&global_name).unwrap_or_else(|| {
            let bytes: Vec<u8> = table.iter().flat_map(|v| v.to_le_bytes()).collect();
            let init = ctx.const_string(&bytes, false);
            let g = self.m.add_global(init.get_type(), None, &global_name);
            g.set_initializer(&init);
            g.set_constant(true);
            g.set_linkage(Linkage::Private);
            g.set_unnamed_addr(true);
            g.set_alignment(8);
            g
        });
        let index = if self.wide { index } else { self.b.build_int_z_extend(index, i64t, "").expect(POS) };
        let offset = self.b.build_left_shift(index, i64t.const_int(3, false), "").expect(POS);
        // SAFETY: the library keeps `index` within the table.
        let at = unsafe { self.b.build_in_bounds_gep(i8t, global.as_pointer_value(), &[offset], "") }.expect(POS);
        let v = self.b.build_load(f64t, at, "").expect(POS).into_float_value();
        if let Some(i) = v.as_instruction() {
            i.set_alignment(8).expect(POS);
        }
        if self.wide { v } else { self.b.build_float_trunc(v, self.ft, "").expect(POS) }
    }

    fn ext(&self, a: Self::F) -> Self::F {
        let ctx = self.m.get_context();
        self.b.build_float_ext(a, ctx.f64_type(), "").expect(POS)
    }

    fn trunc(&self, a: Self::F) -> Self::F {
        let ctx = self.m.get_context();
        self.b.build_float_trunc(a, ctx.f32_type(), "").expect(POS)
    }
}
