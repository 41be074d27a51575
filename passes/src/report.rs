//! Numbers that describe a compiled module: what `smelt opt --stats` prints and the
//! comparison with XLA's optimized modules uses.

use smelt_hlo::{Module, Opcode};

use crate::buffer_assignment::assign_buffers;
use crate::fusion::count_fusions;
use crate::schedule::{schedule_module, sequential_computations};

/// Instructions that launch work: every instruction of a sequentially executed
/// computation (the entry, while bodies and conditions, conditional branches)
/// except parameters, constants, tuples, get-tuple-element, bitcasts and reshapes
/// (which only rename storage) and the control-flow instructions themselves
/// (their bodies are counted).
pub fn kernel_count(module: &Module) -> usize {
    sequential_computations(module)
        .into_iter()
        .map(|c| {
            module
                .comp(c)
                .insts
                .iter()
                .filter(|(_, i)| {
                    !i.is_trivial()
                        && !matches!(i.opcode, Opcode::Reshape | Opcode::While | Opcode::Conditional | Opcode::Call)
                })
                .count()
        })
        .sum()
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ModuleStats {
    pub instructions: usize,
    pub fusions: usize,
    pub kernels: usize,
    pub peak_temp_bytes: usize,
}

/// Statistics of a module, scheduling and assigning buffers to get the peak.
pub fn module_stats(module: &Module) -> ModuleStats {
    let schedule = schedule_module(module);
    let buffers = assign_buffers(module, &schedule);
    ModuleStats {
        instructions: module.instruction_count(),
        fusions: count_fusions(module),
        kernels: kernel_count(module),
        peak_temp_bytes: buffers.temp_bytes,
    }
}
