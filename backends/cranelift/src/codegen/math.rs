//! The math library's emitter ([`smelt_math::Emit`]) over Cranelift IR, so the
//! fast tier computes transcendental functions with the same operations, in
//! the same order, as the LLVM tiers: the same bits.
//!
//! Multiply-adds fuse where the host has FMA, as the LLVM backend decides for
//! the host ([`host_has_fma`]).

use std::cell::RefCell;

use cranelift_codegen::ir::condcodes::{FloatCC, IntCC};
use cranelift_codegen::ir::{InstBuilder, MemFlagsData, Value, types};
use cranelift_frontend::FunctionBuilder;
use smelt_math::{Emit, FCmp, ICmp};

/// Whether this machine has fused multiply-add instructions.
pub(crate) fn host_has_fma() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::arch::is_x86_feature_detected!("fma")
    }
    #[cfg(target_arch = "aarch64")]
    {
        true
    }
    #[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
    {
        false
    }
}

/// Emits into one function builder (shared by the emitters of both widths).
#[derive(Clone, Copy)]
pub(crate) struct ClifEm<'c, 'b, 'f> {
    b: &'c RefCell<&'b mut FunctionBuilder<'f>>,
    wide: bool,
    fused: bool,
}

impl<'c, 'b, 'f> ClifEm<'c, 'b, 'f> {
    pub(crate) fn new(b: &'c RefCell<&'b mut FunctionBuilder<'f>>, wide: bool) -> Self {
        ClifEm { b, wide, fused: host_has_fma() }
    }

    fn ity(&self) -> types::Type {
        if self.wide { types::I64 } else { types::I32 }
    }

    fn fty(&self) -> types::Type {
        if self.wide { types::F64 } else { types::F32 }
    }
}

impl Emit for ClifEm<'_, '_, '_> {
    type F = Value;
    type I = Value;
    type B = Value;

    fn wide(&self) -> bool {
        self.wide
    }

    fn other(&self) -> Self {
        ClifEm { wide: !self.wide, ..*self }
    }

    fn fused(&self) -> bool {
        self.fused
    }

    fn c(&self, v: f64) -> Value {
        let mut b = self.b.borrow_mut();
        if self.wide { b.ins().f64const(v) } else { b.ins().f32const(v as f32) }
    }

    fn ci(&self, v: i64) -> Value {
        let ty = self.ity();
        let v = if self.wide { v } else { v as u32 as i64 };
        self.b.borrow_mut().ins().iconst(ty, v)
    }

    fn add(&self, a: Value, b: Value) -> Value {
        self.b.borrow_mut().ins().fadd(a, b)
    }

    fn sub(&self, a: Value, b: Value) -> Value {
        self.b.borrow_mut().ins().fsub(a, b)
    }

    fn mul(&self, a: Value, b: Value) -> Value {
        self.b.borrow_mut().ins().fmul(a, b)
    }

    fn div(&self, a: Value, b: Value) -> Value {
        self.b.borrow_mut().ins().fdiv(a, b)
    }

    fn neg(&self, a: Value) -> Value {
        self.b.borrow_mut().ins().fneg(a)
    }

    fn fma(&self, a: Value, b: Value, c: Value) -> Value {
        self.b.borrow_mut().ins().fma(a, b, c)
    }

    fn abs(&self, a: Value) -> Value {
        self.b.borrow_mut().ins().fabs(a)
    }

    fn copysign(&self, mag: Value, sign: Value) -> Value {
        self.b.borrow_mut().ins().fcopysign(mag, sign)
    }

    fn sqrt(&self, a: Value) -> Value {
        self.b.borrow_mut().ins().sqrt(a)
    }

    fn fcmp(&self, p: FCmp, a: Value, b: Value) -> Value {
        let cc = match p {
            FCmp::Olt => FloatCC::LessThan,
            FCmp::Ogt => FloatCC::GreaterThan,
            FCmp::Oge => FloatCC::GreaterThanOrEqual,
            FCmp::Oeq => FloatCC::Equal,
            FCmp::Uno => FloatCC::Unordered,
        };
        self.b.borrow_mut().ins().fcmp(cc, a, b)
    }

    fn sel(&self, c: Value, a: Value, b: Value) -> Value {
        self.b.borrow_mut().ins().select(c, a, b)
    }

    fn seli(&self, c: Value, a: Value, b: Value) -> Value {
        self.b.borrow_mut().ins().select(c, a, b)
    }

    fn and(&self, a: Value, b: Value) -> Value {
        self.b.borrow_mut().ins().band(a, b)
    }

    fn or(&self, a: Value, b: Value) -> Value {
        self.b.borrow_mut().ins().bor(a, b)
    }

    fn xor(&self, a: Value, b: Value) -> Value {
        self.b.borrow_mut().ins().bxor(a, b)
    }

    fn not(&self, a: Value) -> Value {
        self.b.borrow_mut().ins().bnot(a)
    }

    fn bits(&self, a: Value) -> Value {
        let ty = self.ity();
        self.b.borrow_mut().ins().bitcast(ty, MemFlagsData::new(), a)
    }

    fn float_of(&self, a: Value) -> Value {
        let ty = self.fty();
        self.b.borrow_mut().ins().bitcast(ty, MemFlagsData::new(), a)
    }

    fn iadd(&self, a: Value, b: Value) -> Value {
        self.b.borrow_mut().ins().iadd(a, b)
    }

    fn isub(&self, a: Value, b: Value) -> Value {
        self.b.borrow_mut().ins().isub(a, b)
    }

    fn imul(&self, a: Value, b: Value) -> Value {
        self.b.borrow_mut().ins().imul(a, b)
    }

    fn shl(&self, a: Value, n: u32) -> Value {
        self.b.borrow_mut().ins().ishl_imm_s(a, n as i64)
    }

    fn ashr(&self, a: Value, n: u32) -> Value {
        self.b.borrow_mut().ins().sshr_imm_s(a, n as i64)
    }

    fn lshr(&self, a: Value, n: u32) -> Value {
        self.b.borrow_mut().ins().ushr_imm_s(a, n as i64)
    }

    fn icmp(&self, p: ICmp, a: Value, b: Value) -> Value {
        let cc = match p {
            ICmp::Eq => IntCC::Equal,
            ICmp::Ne => IntCC::NotEqual,
            ICmp::Slt => IntCC::SignedLessThan,
            ICmp::Sgt => IntCC::SignedGreaterThan,
        };
        self.b.borrow_mut().ins().icmp(cc, a, b)
    }

    fn band(&self, a: Value, b: Value) -> Value {
        self.b.borrow_mut().ins().band(a, b)
    }

    fn bor(&self, a: Value, b: Value) -> Value {
        self.b.borrow_mut().ins().bor(a, b)
    }

    fn bxor(&self, a: Value, b: Value) -> Value {
        self.b.borrow_mut().ins().bxor(a, b)
    }

    /// Booleans are `i8` 0 or 1: flip the low bit (not every bit).
    fn bnot(&self, a: Value) -> Value {
        self.b.borrow_mut().ins().bxor_imm_s(a, 1)
    }

    fn ext(&self, a: Value) -> Value {
        self.b.borrow_mut().ins().fpromote(types::F64, a)
    }

    fn trunc(&self, a: Value) -> Value {
        self.b.borrow_mut().ins().fdemote(types::F32, a)
    }

    fn lookup(&self, _name: &str, table: &'static [f64], index: Value) -> Value {
        let mut b = self.b.borrow_mut();
        // The code runs in this process and is never saved, and the table
        // lives as long as the process: its address is a constant.
        let index = if self.wide { index } else { b.ins().uextend(types::I64, index) };
        let offset = b.ins().ishl_imm_s(index, 3);
        let base = b.ins().iconst(types::I64, table.as_ptr() as i64);
        let at = b.ins().iadd(base, offset);
        let v = b.ins().load(types::F64, MemFlagsData::trusted(), at, 0);
        if self.wide { v } else { b.ins().fdemote(types::F32, v) }
    }
}
