//! XLA's integer edge cases, made explicit once, in the kernel form.
//!
//! HLO defines integer division and remainder for every divisor (`x / 0` is
//! all ones, `x % 0 = x`, `MIN / -1 = MIN`), shifts for every amount (an
//! amount read as unsigned at or past the width gives 0, or the sign fill for
//! an arithmetic shift) and `power` for every exponent (six squaring steps; a
//! negative exponent gives 1 for base 1, else 0). Machine instructions do not:
//! division by zero traps, and out-of-range shifts are undefined. So before a
//! program reaches a backend, every such operation becomes selects and
//! compares around the *unchecked* forms (`BinaryOp::DivUnchecked`, ...), whose
//! operands the selects keep in range (unchecked shifts take their amount
//! modulo the width, as x86, AArch64 and Cranelift do, so a shift needs one
//! select); `power` becomes multiplies and selects.
//! The LLVM, Cranelift and PTX renderers then emit one plain instruction per
//! unchecked operation and cannot drift apart, and `verify` rejects programs
//! that still hold the checked forms on integers.
//!
//! The lowering legalizes every graph as it finishes it (every kernel graph
//! and scalar function goes through `prune`, which calls [`expand`]);
//! [`legalize`] does the same for programs built by hand.

use smelt_hlo::DType;
use smelt_hlo::attrs::ComparisonDirection;

use crate::ir::{BinaryOp, Graph, KernelBody, Node, NodeId, Program, Scalar};
use crate::lower::prune::{prune_fn, rebuild};

/// Whether `op` on `t` has edge cases to legalize.
pub(crate) fn needs(op: BinaryOp, t: DType) -> bool {
    t.is_int()
        && matches!(
            op,
            BinaryOp::Div
                | BinaryOp::Rem
                | BinaryOp::Shl
                | BinaryOp::ShrArithmetic
                | BinaryOp::ShrLogical
                | BinaryOp::Pow
        )
}

/// Nodes appended to a graph under construction.
struct At<'g> {
    g: &'g mut Graph,
    t: DType,
}

impl At<'_> {
    fn push(&mut self, node: Node, t: DType) -> NodeId {
        self.g.nodes.push(node);
        self.g.types.push(t);
        NodeId(self.g.nodes.len() as u32 - 1)
    }

    fn int(&mut self, v: i128) -> NodeId {
        self.push(Node::Const(Scalar::Int(self.t, v)), self.t)
    }

    fn bin(&mut self, op: BinaryOp, a: NodeId, b: NodeId) -> NodeId {
        self.push(Node::Binary { op, a, b }, self.t)
    }

    fn cmp(&mut self, direction: ComparisonDirection, a: NodeId, b: NodeId) -> NodeId {
        self.push(Node::Compare { direction, compare_type: None, a, b }, DType::Pred)
    }

    fn eq(&mut self, a: NodeId, v: i128) -> NodeId {
        let c = self.int(v);
        self.cmp(ComparisonDirection::Eq, a, c)
    }

    fn or(&mut self, a: NodeId, b: NodeId) -> NodeId {
        self.push(Node::Binary { op: BinaryOp::Or, a, b }, DType::Pred)
    }

    fn and(&mut self, a: NodeId, b: NodeId) -> NodeId {
        self.push(Node::Binary { op: BinaryOp::And, a, b }, DType::Pred)
    }

    fn select(&mut self, pred: NodeId, on_true: NodeId, on_false: NodeId) -> NodeId {
        self.push(Node::Select { pred, on_true, on_false }, self.t)
    }

    /// Whether `x`, read as the unsigned type of its width, is at least `v`.
    fn unsigned_at_least(&mut self, x: NodeId, v: i128) -> NodeId {
        let u = unsigned_of(self.t);
        let x = if u == self.t { x } else { self.push(Node::Bitcast { x, to: u }, u) };
        let c = self.push(Node::Const(Scalar::Int(u, v)), u);
        self.push(Node::Compare { direction: ComparisonDirection::Ge, compare_type: None, a: x, b: c }, DType::Pred)
    }
}

fn unsigned_of(t: DType) -> DType {
    match t {
        DType::S8 => DType::U8,
        DType::S16 => DType::U16,
        DType::S32 => DType::U32,
        DType::S64 => DType::U64,
        t => t,
    }
}

/// Appends the legal form of `op(a, b)` on integer type `t` (one that
/// [`needs`] legalizing) to `g` and returns the node holding its value.
pub(crate) fn expand(g: &mut Graph, op: BinaryOp, t: DType, a: NodeId, b: NodeId) -> NodeId {
    let bits = t.bit_width() as i128;
    let signed = t.is_signed_int();
    let all_ones = if signed { -1 } else { (1i128 << bits) - 1 };
    // A constant divisor or amount (index arithmetic, shifts by literals)
    // needs no selects: the result is the unchecked operation, or a constant.
    if let Node::Const(Scalar::Int(_, y)) = g.nodes[b.0 as usize] {
        let shift = (0..bits).contains(&y);
        let unchecked = match op {
            BinaryOp::Div | BinaryOp::Rem if y != 0 && !(signed && y == -1) => {
                Some(if op == BinaryOp::Div { BinaryOp::DivUnchecked } else { BinaryOp::RemUnchecked })
            }
            BinaryOp::Rem if y == 0 => return a,
            BinaryOp::Shl if shift => Some(BinaryOp::ShlUnchecked),
            BinaryOp::ShrLogical if shift => Some(BinaryOp::ShrLogicalUnchecked),
            BinaryOp::ShrArithmetic if shift => Some(BinaryOp::ShrArithmeticUnchecked),
            _ => None,
        };
        if let Some(op) = unchecked {
            return At { g, t }.bin(op, a, b);
        }
    }
    let mut at = At { g, t };
    match op {
        BinaryOp::Div | BinaryOp::Rem => {
            let by_zero = at.eq(b, 0);
            // A divisor of 0 becomes 1 (the select below picks the result);
            // so does -1 under a signed minimum dividend for division (the
            // quotient is then the dividend, MIN, as XLA wants) and -1 always
            // for the remainder (x % -1 is 0 for every x).
            let unsafe_divisor = match (signed, op) {
                (false, _) => by_zero,
                (true, BinaryOp::Div) => {
                    let min = at.eq(a, -(1i128 << (bits - 1)));
                    let minus_one = at.eq(b, -1);
                    let overflow = at.and(min, minus_one);
                    at.or(by_zero, overflow)
                }
                (true, _) => {
                    let minus_one = at.eq(b, -1);
                    at.or(by_zero, minus_one)
                }
            };
            let one = at.int(1);
            let divisor = at.select(unsafe_divisor, one, b);
            if op == BinaryOp::Div {
                let q = at.bin(BinaryOp::DivUnchecked, a, divisor);
                let ones = at.int(all_ones);
                at.select(by_zero, ones, q)
            } else {
                let r = at.bin(BinaryOp::RemUnchecked, a, divisor);
                at.select(by_zero, a, r)
            }
        }
        BinaryOp::Shl | BinaryOp::ShrLogical | BinaryOp::ShrArithmetic => {
            // The unchecked shifts take the amount modulo the width (the
            // machines' own rule), so only amounts past it need a select.
            let past = at.unsigned_at_least(b, bits);
            match op {
                BinaryOp::ShrArithmetic => {
                    // Past the width: shift by width - 1, which fills with the sign.
                    let last = at.int(bits - 1);
                    let amount = at.select(past, last, b);
                    at.bin(BinaryOp::ShrArithmeticUnchecked, a, amount)
                }
                _ => {
                    let unchecked =
                        if op == BinaryOp::Shl { BinaryOp::ShlUnchecked } else { BinaryOp::ShrLogicalUnchecked };
                    let shifted = at.bin(unchecked, a, b);
                    let zero = at.int(0);
                    at.select(past, zero, shifted)
                }
            }
        }
        BinaryOp::Pow => {
            // Six squaring steps over the exponent's low bits, as XLA CPU unrolls.
            let (zero, one) = (at.int(0), at.int(1));
            let (mut acc, mut base, mut e) = (one, a, b);
            for _ in 0..6 {
                let bit = at.bin(BinaryOp::And, e, one);
                let set = at.cmp(ComparisonDirection::Ne, bit, zero);
                let product = at.bin(BinaryOp::Mul, acc, base);
                acc = at.select(set, product, acc);
                base = at.bin(BinaryOp::Mul, base, base);
                e = at.bin(BinaryOp::ShrLogicalUnchecked, e, one);
            }
            // A negative exponent (its bits read as signed): 1 for base 1, else 0.
            let negative = at.unsigned_at_least(b, 1i128 << (bits - 1));
            let base_one = at.eq(a, 1);
            let tiny = at.select(base_one, one, zero);
            at.select(negative, tiny, acc)
        }
        _ => at.bin(op, a, b),
    }
}

/// Legalizes every graph of a program built by hand (lowered programs already
/// are); programs without checked integer operations are left as they are.
pub fn legalize(program: &mut Program) {
    rebuild_graphs(program, false);
}

/// Rebuilds every graph of `program` ([`crate::lower::prune::rebuild`]):
/// pruned and legalized, with rounded divisions by constants made reciprocal
/// multiplications when `divisions`.
pub(crate) fn rebuild_graphs(program: &mut Program, divisions: bool) {
    let prune = |graph: &Graph, roots: &mut [&mut NodeId]| rebuild(graph, roots, divisions);
    for k in &mut program.kernels {
        match &mut k.body {
            KernelBody::Loop { graph, outputs, .. } => {
                *graph = prune(graph, &mut outputs.iter_mut().collect::<Vec<_>>());
            }
            KernelBody::Reduce { graph, init, values, reducer, extra, .. } => {
                let mut roots: Vec<&mut NodeId> = init.iter_mut().chain(values.iter_mut()).collect();
                roots.extend(extra.iter_mut().map(|(_, n)| n));
                *graph = prune(graph, &mut roots);
                *reducer = prune_fn(reducer);
            }
            KernelBody::Scan { graph, init, values, reducer, .. } => {
                *graph = prune(graph, &mut init.iter_mut().chain(values.iter_mut()).collect::<Vec<_>>());
                *reducer = prune_fn(reducer);
            }
            KernelBody::UpdateSlice { graph, start, value, .. } => {
                let mut roots: Vec<&mut NodeId> = start.iter_mut().collect();
                roots.push(value);
                *graph = prune(graph, &mut roots);
            }
            KernelBody::Scatter { graph, target, in_bounds, values, combiner, .. } => {
                let mut roots: Vec<&mut NodeId> = target.iter_mut().chain(values.iter_mut()).collect();
                roots.push(in_bounds);
                *graph = prune(graph, &mut roots);
                *combiner = prune_fn(combiner);
            }
            KernelBody::Sort { comparator, .. } => *comparator = prune_fn(comparator),
            KernelBody::SelectAndScatter { select, scatter, .. } => {
                *select = prune_fn(select);
                *scatter = prune_fn(scatter);
            }
            KernelBody::RngBitGenerator { .. } => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use smelt_hlo::{Array, ArrayData, DType, Literal, parse_module};

    /// Every pair of edge values of every integer type, through lowering (which
    /// legalizes) and the kernel evaluator (which rejects unchecked operations
    /// on operands out of range), against the interpreter on the HLO.
    #[test]
    fn legalized_integer_edge_cases_match_the_interpreter() {
        let ops = ["divide", "remainder", "shift-left", "shift-right-logical", "shift-right-arithmetic", "power"];
        for t in DType::ALL.iter().copied().filter(|t| t.is_int()) {
            let bits = t.bit_width() as i128;
            let (min, max) = if t.is_signed_int() {
                (-(1i128 << (bits - 1)), (1i128 << (bits - 1)) - 1)
            } else {
                (0, (1i128 << bits) - 1)
            };
            let edges: Vec<i128> =
                [min, min + 1, -2, -1, 0, 1, 2, 3, 7, bits - 1, bits, bits + 1, 2 * bits, max - 1, max]
                    .into_iter()
                    .filter(|v| (min..=max).contains(v))
                    .collect();
            let (xs, ys): (Vec<i128>, Vec<i128>) =
                edges.iter().flat_map(|&x| edges.iter().map(move |&y| (x, y))).unzip();
            let n = xs.len();
            let array = |v: &[i128]| {
                let w = t.byte_size();
                let bytes: Vec<u8> = v.iter().flat_map(|&x| x.to_le_bytes()[..w].to_vec()).collect();
                Array::new([n as i64], ArrayData::from_le_bytes(t, &bytes))
            };
            let args = [array(&xs), array(&ys)];
            for op in ops {
                let text = format!(
                    "HloModule m\nENTRY e {{\n  x = {t}[{n}] parameter(0)\n  y = {t}[{n}] parameter(1)\n  ROOT o = {t}[{n}] {op}(x, y)\n}}\n"
                );
                let module = parse_module(&text).unwrap();
                let literals: Vec<Literal> = args.iter().cloned().map(Literal::Array).collect();
                let want = smelt_interp::evaluate(&module, &literals).unwrap().into_leaves();
                let program = crate::lower_module(&module).unwrap();
                let got = crate::eval::run(&program, &args).unwrap_or_else(|e| panic!("{op} on {t}: {e}"));
                assert_eq!(got, want, "{op} on {t}");
                // Constant divisors and amounts take the short path.
                for &c in &edges {
                    let text = format!(
                        "HloModule m\nENTRY e {{\n  x = {t}[{n}] parameter(0)\n  c = {t}[] constant({c})\n  \
                         y = {t}[{n}] broadcast(c), dimensions={{}}\n  ROOT o = {t}[{n}] {op}(x, y)\n}}\n"
                    );
                    let mut module = parse_module(&text).unwrap();
                    let want =
                        smelt_interp::evaluate(&module, &[Literal::Array(args[0].clone())]).unwrap().into_leaves();
                    // Fused, the divisor is a constant node of the kernel graph.
                    let options = smelt_passes::Options::default();
                    let mut cx = smelt_passes::PassContext::new(options.clone());
                    smelt_passes::default_pipeline(&options).run_on(&mut module, &mut cx).unwrap();
                    let program = crate::lower_module(&module).unwrap();
                    let got = crate::eval::run(&program, &args[..1]).unwrap_or_else(|e| panic!("{op} {c} on {t}: {e}"));
                    assert_eq!(got, want, "{op} by {c} on {t}");
                }
            }
        }
    }
}
