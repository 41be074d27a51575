//! The compiled backends of this build, by name: the one registry that the
//! CLI, the JIT's clients and the tests look backends up in. A backend is one
//! line here; everything else reaches it through `smelt_kernel::Backend`.

use std::sync::{Arc, OnceLock};

use smelt_kernel::Registry;

/// `cpu` (LLVM), `cranelift` (with the `cranelift` feature), `gpu` and
/// `gpu-sim`, in that order.
pub fn registry() -> &'static Registry {
    static REGISTRY: OnceLock<Registry> = OnceLock::new();
    REGISTRY.get_or_init(|| {
        Registry::new(vec![
            Arc::new(smelt_cpu::CpuBackend),
            #[cfg(feature = "cranelift")]
            Arc::new(smelt_cranelift::CraneliftBackend),
            Arc::new(smelt_gpu::GpuBackend),
            Arc::new(smelt_gpu::GpuSimBackend),
        ])
    })
}
