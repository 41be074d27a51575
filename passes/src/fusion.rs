//! Fusion: grouping instructions into kernels.
//!
//! Contract: rewrites every sequentially executed computation so that chains of
//! elemental work become `fusion` instructions, each one kernel:
//! - **loop fusion** (`kLoop`): elementwise, broadcast, reshape, transpose, slice,
//!   concatenate, pad, reverse, iota, convert, select, gather, dynamic-slice chains,
//!   one output element at a time;
//! - **input fusion** (`kInput`): producers fused into a reduce or reduce-window,
//!   and elementwise consumers of a reduce that read it once per element (softmax
//!   and layernorm row statistics). A reduce-window that spans a whole axis (a
//!   cumulative sum, product, max: [`smelt_hlo::attrs::Window::as_scan`]) reads
//!   each element once, so expensive producers fuse into it too, but it ends its
//!   fusion: backends compute it as a scan, which consumers cannot join;
//! - **output fusion** (`kOutput`): elementwise epilogues (bias, activation,
//!   scaling, residual add) fused into a dot or convolution, when the backend's
//!   [`FusionConfig`] says it runs them in the output tile;
//! - **multi-output fusion**: an expensive producer with several users fused into one
//!   consumer of its shape, which also writes it out (a cheap one too when it is a
//!   result of the computation, which is written out anyway: a copy left for the
//!   result would be a kernel of its own); sibling fusions of the same shape that
//!   read a common operand merged into one kernel.
//!
//! - **row fusion** (with [`FusionConfig::row_broadcasts`]): a reduction over the
//!   trailing dimensions, and what a consumer reads through broadcasts along its
//!   trailing dimensions only, fuse into that loop consumer; the backend computes
//!   such a row statistic once per row while the row is in cache (a softmax or
//!   log-softmax over the last axis becomes one kernel). An expensive producer
//!   that both the row's reductions and its outputs read is then computed twice
//!   per element (once for each) rather than written out and read back.
//!
//! Apart from that trade, it never duplicates expensive work (transcendentals,
//! divides, reductions, dots) into several consumers or into a consumer that
//! reads elements more than once, never creates a cycle, and respects the
//! configured size limits. Every declined
//! fusion is recorded with its reason in [`PassContext::fusion_notes`]. Remaining
//! loop-fusible instructions are wrapped in single-instruction fusions so backends
//! see kernels and library calls only. Preserves every result. Assumes a verified
//! module whose calls are inlined; leaves it compacted.

use std::collections::HashSet;
use std::ops::ControlFlow;

use smallvec::SmallVec;
use smelt_hlo::attrs::FusionKind;
use smelt_hlo::module::NameUniquer;
use smelt_hlo::{Attrs, CompId, Computation, DType, InstId, Instruction, Module, Opcode, SecondaryMap, Shape};

use crate::fusion_cost;
use crate::options::FusionConfig;
use crate::pass::{FusionNote, PassContext, Result, Rewrite};
use crate::schedule::sequential_computations;

/// The fusion pass, for one backend's [`FusionConfig`] (what its code
/// generators accept).
#[derive(Debug, Default)]
pub struct Fusion {
    config: FusionConfig,
}

impl Fusion {
    pub fn new(config: FusionConfig) -> Fusion {
        Fusion { config }
    }
}

impl Rewrite for Fusion {
    const NAME: &'static str = "fusion";

    fn rewrite(&mut self, module: &mut Module, cx: &mut PassContext) -> Result<bool> {
        let config = self.config.clone();
        let mut names = NameUniquer::new(module);
        let mut changed = false;
        for cid in sequential_computations(module) {
            let control_edges = module.comp(cid).insts.iter().any(|(_, i)| !i.extras.control_predecessors.is_empty());
            let mut f = Fuser {
                module: &mut *module,
                cid,
                config: &config,
                names: &mut names,
                notes: Vec::new(),
                control_edges,
                users: None,
            };
            changed |= f.output_fusions();
            changed |= f.producer_consumer();
            changed |= f.wrap_remaining();
            if config.multi_output {
                changed |= f.siblings();
            }
            let mut seen: HashSet<FusionNote> = cx.fusion_notes.iter().cloned().collect();
            for note in f.notes {
                if seen.insert(note.clone()) {
                    cx.fusion_notes.push(note);
                }
            }
        }
        if changed {
            crate::dce::Dce.rewrite(module, cx)?;
            module.compact();
            let fusions = count_fusions(module);
            cx.count("fusions", fusions as i64);
        }
        Ok(changed)
    }
}

/// Fusion instructions in sequentially executed computations.
pub fn count_fusions(module: &Module) -> usize {
    sequential_computations(module)
        .into_iter()
        .map(|c| module.comp(c).insts.iter().filter(|(_, i)| i.opcode == Opcode::Fusion).count())
        .sum()
}

/// Ops computed one output element at a time, from elements of their operands.
fn is_elemental(op: Opcode) -> bool {
    op.is_elementwise()
        || matches!(
            op,
            Opcode::Broadcast
                | Opcode::BitcastConvert
                | Opcode::Reshape
                | Opcode::Bitcast
                | Opcode::Transpose
                | Opcode::Slice
                | Opcode::Concatenate
                | Opcode::Pad
                | Opcode::Reverse
                | Opcode::Iota
                | Opcode::Gather
                | Opcode::DynamicSlice
                | Opcode::Reduce
                | Opcode::ReduceWindow
                | Opcode::Constant
        )
}

/// Instructions a fusion may be built around or absorb.
fn fusible(module: &Module, inst: &Instruction) -> bool {
    match inst.opcode {
        Opcode::Fusion => true,
        Opcode::Dot | Opcode::Convolution => true,
        // In place: producers fuse into the update and the start indices.
        Opcode::DynamicUpdateSlice => true,
        // Side effects and random number generation stay where they are.
        Opcode::Rng | Opcode::RngGetAndUpdateState => false,
        // Reductions with tuple results (argmax) are fine; reducers must be scalar.
        Opcode::Reduce | Opcode::ReduceWindow => inst.called.first().is_some_and(|&c| scalar_computation(module, c)),
        op => is_elemental(op) && !inst.shape.is_tuple(),
    }
}

fn scalar_computation(module: &Module, c: CompId) -> bool {
    module.comp(c).insts.iter().all(|(_, i)| i.shape.leaves().iter().all(|a| a.rank() == 0))
}

/// Instructions worth computing only once.
fn expensive(module: &Module, inst: &Instruction) -> bool {
    match inst.opcode {
        Opcode::Fusion => inst.called.first().is_some_and(|&c| {
            let body = module.comp(c);
            body.insts.len() > 24 || body.insts.iter().any(|(_, i)| expensive(module, i))
        }),
        Opcode::Reduce | Opcode::ReduceWindow | Opcode::Dot | Opcode::Convolution | Opcode::Gather => true,
        op => op.is_expensive(),
    }
}

/// Whether `inst` (in `comp`) is a reduce-window that is a scan along one axis.
fn is_scan(comp: &Computation, inst: &Instruction) -> bool {
    let (Attrs::Window(w), Some(&op)) = (&inst.attrs, inst.operands.first()) else {
        return false;
    };
    inst.opcode == Opcode::ReduceWindow && comp.inst(op).shape.as_array().is_some_and(|a| w.as_scan(&a.dims).is_some())
}

/// Whether `inst` (in `comp`) is or contains a scan.
fn contains_scan(module: &Module, comp: &Computation, inst: &Instruction) -> bool {
    if inst.opcode == Opcode::Fusion {
        return inst.called.first().is_some_and(|&c| {
            let body = module.comp(c);
            body.insts.iter().any(|(_, i)| is_scan(body, i))
        });
    }
    is_scan(comp, inst)
}

fn contains_op(module: &Module, inst: &Instruction, ops: &[Opcode]) -> bool {
    if ops.contains(&inst.opcode) {
        return true;
    }
    inst.opcode == Opcode::Fusion
        && inst.called.first().is_some_and(|&c| module.comp(c).insts.iter().any(|(_, i)| ops.contains(&i.opcode)))
}

/// The result type of the dot or convolution `inst` is or contains.
fn contraction_dtype(module: &Module, inst: &Instruction) -> Option<DType> {
    let is_product = |i: &Instruction| matches!(i.opcode, Opcode::Dot | Opcode::Convolution);
    let product = if is_product(inst) {
        inst
    } else {
        let body = module.comp(*inst.called.first()?);
        body.insts.iter().map(|(_, i)| i).find(|i| is_product(i))?
    };
    product.shape.as_array().map(|a| a.dtype)
}

fn count_op(module: &Module, inst: &Instruction, op: Opcode) -> usize {
    if inst.opcode == Opcode::Fusion {
        inst.called.first().map_or(0, |&c| module.comp(c).insts.iter().filter(|(_, i)| i.opcode == op).count())
    } else {
        (inst.opcode == op) as usize
    }
}

/// Instructions that compute something: what the fusion size limit counts.
/// Parameters, constants, broadcasts of scalars and tuple plumbing are free.
/// Outputs of at least this many elements count as store streams
/// ([`crate::FusionConfig::max_output_streams`]).
pub const STREAM_ELEMENTS: usize = 1 << 16;

/// Large arrays `inst` writes: a fusion's outputs (its root tuple's elements,
/// or its root), or `inst` itself, of at least [`STREAM_ELEMENTS`] elements.
fn output_streams(module: &Module, inst: &Instruction) -> usize {
    let large = |s: &smelt_hlo::Shape| s.as_array().is_some_and(|a| a.element_count() >= STREAM_ELEMENTS);
    if inst.opcode == Opcode::Fusion
        && let Some(&c) = inst.called.first()
    {
        let body = module.comp(c);
        let root = body.root_inst();
        if root.opcode == Opcode::Tuple {
            return root.operands.iter().filter(|&&o| large(&body.inst(o).shape)).count();
        }
        return usize::from(large(&root.shape));
    }
    usize::from(large(&inst.shape))
}

fn size_of(module: &Module, inst: &Instruction) -> usize {
    let computes = |i: &Instruction, body: &Computation| -> bool {
        let plumbing =
            matches!(i.opcode, Opcode::Parameter | Opcode::Constant | Opcode::Tuple | Opcode::GetTupleElement);
        let scalar_broadcast = i.opcode == Opcode::Broadcast
            && i.operands.first().is_some_and(|&o| body.inst(o).shape.as_array().is_some_and(|a| a.rank() == 0));
        !plumbing && !scalar_broadcast
    };
    match inst.opcode {
        Opcode::Fusion => inst.called.first().map_or(1, |&c| {
            let body = module.comp(c);
            body.insts.iter().filter(|(_, i)| computes(i, body)).count()
        }),
        Opcode::Parameter | Opcode::Constant => 0,
        _ => 1,
    }
}

/// How a producer enters a consumer fusion.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mode {
    /// The consumer was the producer's only user: the producer moves inside.
    Move,
    /// The producer is cheap: a copy goes inside, the original stays for other users.
    Duplicate,
    /// The producer is expensive with other users: it moves inside and the fusion
    /// also outputs its value.
    MultiOutput,
}

struct Fuser<'a> {
    module: &'a mut Module,
    cid: CompId,
    config: &'a FusionConfig,
    names: &'a mut NameUniquer,
    notes: Vec<FusionNote>,
    /// Whether any instruction of the computation has control predecessors
    /// (fusion only moves them): when none has, no decision scans for them.
    control_edges: bool,
    /// The users of every instruction (once per operand slot), kept up to
    /// date by `fuse` while producer-consumer fusion runs: asking the
    /// computation walks all of it, once per decision (quadratic in a long
    /// chain). `None` outside that phase.
    users: Option<Users>,
}

type Users = std::collections::HashMap<InstId, SmallVec<[InstId; 4]>>;

/// Removes one occurrence of `id` from `list`.
/// Removes one occurrence of `id` from a use list, searching from the end:
/// fusion rewrites the latest users (a fusion is re-listed last whenever its
/// operands change, and consumers fuse from the end of the computation), so a
/// value with 100,000 users (a chain's second input) costs a few steps per
/// rewrite, not a scan.
fn remove_one(list: &mut SmallVec<[InstId; 4]>, id: InstId) {
    if let Some(k) = list.iter().rposition(|&u| u == id) {
        list.remove(k);
    }
}

impl Fuser<'_> {
    fn comp(&self) -> &Computation {
        self.module.comp(self.cid)
    }

    /// The users of `id`, from the maintained index when there is one.
    fn users_of(&self, id: InstId) -> Vec<InstId> {
        match &self.users {
            Some(users) => {
                let found: Vec<InstId> = users.get(&id).map(|u| u.to_vec()).unwrap_or_default();
                #[cfg(debug_assertions)]
                if self.comp().insts.len() < 2000 {
                    let (mut got, mut want) = (found.clone(), self.comp().users_of(id));
                    got.sort();
                    want.sort();
                    assert_eq!(got, want, "fusion's users index is stale for {}", self.comp().inst(id).name);
                }
                found
            }
            None => self.comp().users_of(id),
        }
    }

    fn index_users(&mut self) {
        let comp = self.comp();
        let mut users = Users::with_capacity(comp.insts.len());
        for (id, inst) in comp.insts.iter() {
            users.entry(id).or_default();
            for &op in &inst.operands {
                users.entry(op).or_default().push(id);
            }
        }
        self.users = Some(users);
    }

    /// Records that `id`'s operands changed from `old` to its current ones.
    fn reindex_operands(&mut self, id: InstId, old: &[InstId]) {
        let new: Vec<InstId> = self.comp().inst(id).operands.to_vec();
        if let Some(users) = &mut self.users {
            for &o in old {
                if let Some(list) = users.get_mut(&o) {
                    remove_one(list, id);
                }
            }
            for o in new {
                users.entry(o).or_default().push(id);
            }
        }
    }

    fn note(&mut self, producer: InstId, consumer: InstId, reason: impl Into<String>) {
        let comp = self.comp();
        let note = FusionNote {
            computation: comp.name.clone(),
            producer: comp.inst(producer).name.clone(),
            consumer: comp.inst(consumer).name.clone(),
            reason: reason.into(),
        };
        self.notes.push(note);
    }

    /// Output fusion first: each dot or convolution absorbs its chain of
    /// elementwise single-user consumers, so later loop fusion cannot swallow the
    /// epilogue into a kernel the contraction cannot join.
    fn output_fusions(&mut self) -> bool {
        let mut changed = false;
        let contractions: Vec<InstId> = self
            .comp()
            .post_order()
            .into_iter()
            .filter(|&id| matches!(self.comp().inst(id).opcode, Opcode::Dot | Opcode::Convolution))
            .collect();
        self.index_users();
        for mut producer in contractions {
            loop {
                let comp = self.comp();
                let users = self.users.as_ref().and_then(|u| u.get(&producer)).map_or(&[][..], |l| l.as_slice());
                let [consumer] = users else {
                    break;
                };
                let consumer = *consumer;
                if !fusible(self.module, comp.inst(consumer)) || comp.inst(consumer).opcode == Opcode::Fusion {
                    break;
                }
                match self.decide_epilogue(producer, consumer) {
                    Ok(mode) => {
                        producer = self.fuse(producer, consumer, mode);
                        changed = true;
                    }
                    Err(Some(reason)) => {
                        self.note(producer, consumer, reason);
                        break;
                    }
                    Err(None) => break,
                }
            }
        }
        self.users = None;
        changed
    }

    /// Producer-consumer fusion, consumers from the root backwards.
    fn producer_consumer(&mut self) -> bool {
        let mut changed = false;
        self.index_users();
        let order = self.comp().post_order();
        for &consumer in order.iter().rev() {
            if !self.comp().insts.contains(consumer) {
                continue;
            }
            let mut consumer = consumer;
            // Keep absorbing operands until none fuses.
            loop {
                let inst = self.comp().inst(consumer);
                if !fusible(self.module, inst) {
                    break;
                }
                let operands: Vec<InstId> = {
                    let mut seen = HashSet::new();
                    inst.operands.iter().copied().filter(|o| seen.insert(*o)).collect()
                };
                let mut fused_any = false;
                for producer in operands {
                    if !self.comp().insts.contains(producer) || !self.comp().inst(consumer).operands.contains(&producer)
                    {
                        continue;
                    }
                    match self.decide(producer, consumer) {
                        Ok(mode) => {
                            consumer = self.fuse(producer, consumer, mode);
                            fused_any = true;
                            changed = true;
                        }
                        Err(Some(reason)) => self.note(producer, consumer, reason),
                        Err(None) => {}
                    }
                }
                if !fused_any {
                    break;
                }
            }
        }
        self.users = None;
        changed
    }

    /// Whether `producer` may fuse into `consumer`; `Err(None)` for pairs not worth
    /// explaining (the producer is a parameter, constant of the wrong kind, ...).
    fn decide(&self, producer: InstId, consumer: InstId) -> std::result::Result<Mode, Option<String>> {
        let mode = self.decide_by_rules(producer, consumer)?;
        self.check_cost(producer, consumer).map_err(Some)?;
        Ok(mode)
    }

    /// The cost model's veto ([`fusion_cost`]): fusing must not make the
    /// consumer's kernel do more than [`fusion_cost::MAX_COST_RATIO`] times
    /// the work of the two run apart, as it would by evaluating the producer
    /// many times per element (a reduction reached through a broadcast that
    /// the kernel cannot hoist, a chain under a large window).
    fn check_cost(&self, producer: InstId, consumer: InstId) -> std::result::Result<(), String> {
        /// Work per element from which a producer counts as expensive: one
        /// transcendental or divide, or a reduction over 8 elements.
        const EXPENSIVE_WORK: f64 = 8.0;
        /// How many times such a producer's element may be evaluated: twice,
        /// as row fusion computes a softmax's exp for the sum and the output.
        const MAX_RECOMPUTATION: f64 = 2.0;
        use fusion_cost::{MAX_COST_RATIO, Model, weight, work_per_element};
        let module = &*self.module;
        let comp = self.comp();
        let (p, c) = (comp.inst(producer), comp.inst(consumer));
        // A consumer fusion of elementwise instructions over one shape reads
        // each element of a producer of that shape once and does its own
        // work once per element, fused or not: the ratio cannot grow (and
        // the model would cost the whole body per decision, which made long
        // chains quadratic).
        if let (Opcode::Fusion, Some(&b), Some(a)) = (c.opcode, c.called.first(), p.shape.as_array())
            && elementwise_over(module.comp(b), &a.dims)
        {
            return Ok(());
        }
        // The consumer's work as it stands and as its instructions would run
        // unfused, and how often it reads the producer.
        let (consumer, reads) = match (c.opcode, c.called.first()) {
            (Opcode::Fusion, Some(&b)) => {
                let body = module.comp(b);
                let model = Model::of(body);
                let reads =
                    self.params_for(consumer, producer).iter().map(|&q| model.evaluations(q)).fold(0.0, f64::max);
                (model.cost(body), reads)
            }
            _ => {
                let model = Model::of_instruction(comp, consumer);
                let work = model.evaluations(consumer) * weight(comp, c);
                (fusion_cost::Cost { fused: work, unfused: work }, model.evaluations(producer))
            }
        };
        let per_element = work_per_element(module, comp, p);
        let elements = p.shape.as_array().map_or(1.0, |a| a.element_count() as f64);
        // An expensive producer (a reduction, a transcendental) recomputed many
        // times per element is refused however much work the consumer does
        // besides: a group norm's statistic, reached through a reshape that
        // splits the channels, would be reduced again for every channel of its
        // group (16x), which the consumer's own work would hide from the ratio
        // below.
        let redundancy = reads / elements.max(1.0);
        if per_element >= EXPENSIVE_WORK && redundancy > MAX_RECOMPUTATION {
            return Err(format!(
                "fusing would evaluate each of the producer's {elements:.0} elements {redundancy:.1} times ({per_element:.0} work each)"
            ));
        }
        let unfused = consumer.unfused + per_element * elements;
        let fused = consumer.fused + per_element * reads;
        if fused > MAX_COST_RATIO * unfused {
            return Err(format!(
                "fusing would do {:.1}x the work: the producer's {elements:.0} elements evaluated {reads:.0} times",
                fused / unfused
            ));
        }
        Ok(())
    }

    fn decide_by_rules(&self, producer: InstId, consumer: InstId) -> std::result::Result<Mode, Option<String>> {
        let module = &*self.module;
        let comp = self.comp();
        let p = comp.inst(producer);
        let c = comp.inst(consumer);
        if matches!(p.opcode, Opcode::Parameter | Opcode::GetTupleElement | Opcode::Tuple) {
            return Err(None);
        }
        let has_control_edges = |id: InstId| {
            self.control_edges
                && (!comp.inst(id).extras.control_predecessors.is_empty()
                    || comp.insts.iter().any(|(_, i)| i.extras.control_predecessors.contains(&id)))
        };
        if has_control_edges(producer) || has_control_edges(consumer) {
            return Err(Some("control dependencies pin the instruction".into()));
        }
        if p.opcode == Opcode::Constant && p.shape.as_array().is_none_or(|a| a.rank() > 0) {
            // Array constants are read from their read-only buffer.
            return Err(None);
        }
        if !fusible(module, p) {
            return Err(Some(format!("{} is not fusible", p.opcode)));
        }
        if p.shape.is_tuple() {
            return Err(Some("producer has a tuple result".into()));
        }
        if contains_scan(module, comp, p) {
            return Err(Some("a scan (a reduce-window over a whole axis) ends its fusion".into()));
        }
        if contains_op(module, p, &[Opcode::DynamicUpdateSlice]) {
            return Err(Some("a dynamic-update-slice writes its operand in place and ends its fusion".into()));
        }
        if self.feeds_updated_operand(consumer, producer) {
            return Err(Some("the operand a dynamic-update-slice updates in place stays a buffer".into()));
        }
        let p_is_contraction = contains_op(module, p, &[Opcode::Dot, Opcode::Convolution]);
        let c_is_contraction = contains_op(module, c, &[Opcode::Dot, Opcode::Convolution]);
        if c_is_contraction {
            // Nothing fuses into the operands of a dot or convolution: the library
            // routine reads them from memory.
            let reads_directly = match c.opcode {
                Opcode::Dot | Opcode::Convolution => true,
                _ => self.param_feeds_contraction(consumer, producer),
            };
            if reads_directly {
                return Err(Some("consumer is a dot or convolution, which reads operands from memory".into()));
            }
        }
        if p_is_contraction {
            return self.decide_epilogue(producer, consumer);
        }
        if contains_op(module, p, &[Opcode::Reduce, Opcode::ReduceWindow])
            && contains_op(module, c, &[Opcode::Reduce, Opcode::ReduceWindow])
            && count_op(module, p, Opcode::Reduce) + count_op(module, c, Opcode::Reduce)
                > self.config.max_reductions_per_fusion
        {
            return Err(Some("too many reductions in one fusion".into()));
        }
        if strided_reductions(module, comp, p) {
            return Err(Some(
                "a reduction over outer dimensions stays a reduction kernel (fused into a consumer it would walk a strided column per element)".into(),
            ));
        }
        if size_of(module, p) + size_of(module, c) > self.config.max_fusion_size {
            return Err(Some(format!("fusion would exceed {} instructions", self.config.max_fusion_size)));
        }
        let p_row = row_fused(module, p);
        if (p_row || row_fused(module, c)) && !loop_consumer(module, c) {
            return Err(Some("a fusion that broadcasts a row statistic only joins loop kernels".into()));
        }
        let rows = reduced_dims(module, p).max(reduced_dims(module, c));
        if (p_row || row_fused(module, c)) && !trailing_dims_minor(c, rows) {
            return Err(Some("the result's layout does not keep the row statistic's dimensions innermost".into()));
        }
        let by_rows = self.config.row_broadcasts
            && loop_consumer(module, c)
            && trailing_reductions(module, comp, p)
            && trailing_dims_minor(c, rows)
            && self.reads_once_per_row(consumer, producer);
        if self.consumer_reuses(consumer, producer) && expensive(module, p) && !by_rows {
            return Err(Some("consumer reads producer elements more than once and the producer is expensive".into()));
        }
        if contains_op(module, p, &[Opcode::Reduce, Opcode::ReduceWindow])
            && !self.consumer_reads_elementwise(consumer, producer, true)
            && !by_rows
        {
            return Err(Some("a reduction fuses only into consumers that read it elementwise".into()));
        }
        let other_users: Vec<InstId> = self.users_of(producer).into_iter().filter(|&u| u != consumer).collect();
        let root_is_producer = comp.root == producer;
        if other_users.is_empty() && !root_is_producer {
            return Ok(Mode::Move);
        }
        if !expensive(module, p) {
            // Copies must stay cheap to compute and must not add many reads.
            let array_operands =
                p.operands.iter().filter(|&&o| comp.inst(o).shape.as_array().is_some_and(|a| a.rank() > 0)).count();
            if size_of(module, p) <= 8 && array_operands <= 2 {
                // A result of the computation is written out whatever happens:
                // the consumer's kernel writes it rather than a kernel of its
                // own copy reading what that copy needs (written out too).
                let is_result = comp.root != producer
                    && other_users.iter().any(|&u| u == comp.root && comp.inst(u).opcode == Opcode::Tuple);
                if is_result && self.config.multi_output && self.extra_output(producer, consumer, &other_users).is_ok()
                {
                    return Ok(Mode::MultiOutput);
                }
                return Ok(Mode::Duplicate);
            }
            if !self.config.multi_output {
                return Err(Some("producer has other users and is too large to duplicate".into()));
            }
        }
        // Expensive and needed elsewhere: write it out from the consumer's kernel if
        // the consumer iterates over the producer's shape.
        if !self.config.multi_output {
            return Err(Some("expensive producer has other users".into()));
        }
        self.extra_output(producer, consumer, &other_users).map_err(Some)?;
        Ok(Mode::MultiOutput)
    }

    /// Why `producer`, which `other_users` read too, cannot become an extra
    /// output of `consumer`'s fusion, if it cannot.
    fn extra_output(
        &self,
        producer: InstId,
        consumer: InstId,
        other_users: &[InstId],
    ) -> std::result::Result<(), String> {
        let (module, comp) = (&*self.module, self.comp());
        let (p, c) = (comp.inst(producer), comp.inst(consumer));
        if comp.root == producer {
            return Err("expensive producer has other users and cannot become an extra output".into());
        }
        if output_streams(module, c) + output_streams(module, p) > self.config.max_output_streams {
            return Err(format!(
                "an extra output would make more than {} large outputs",
                self.config.max_output_streams
            ));
        }
        if self.iteration_shape(consumer).as_ref() != p.shape.as_array().map(|a| a.dims.to_vec()).as_ref() {
            return Err("expensive producer has other users and the consumer iterates over another shape".into());
        }
        if other_users.iter().any(|&u| self.reaches(u, consumer)) {
            return Err("fusing would create a cycle".into());
        }
        Ok(())
    }

    /// Output fusion: an elementwise consumer into a dot or convolution.
    fn decide_epilogue(&self, producer: InstId, consumer: InstId) -> std::result::Result<Mode, Option<String>> {
        let module = &*self.module;
        let comp = self.comp();
        let p = comp.inst(producer);
        let c = comp.inst(consumer);
        let is_dot = contains_op(module, p, &[Opcode::Dot]);
        let allowed = if is_dot { self.config.dot_epilogue } else { self.config.conv_epilogue };
        if !allowed {
            return Err(Some("the backend does not fuse epilogues into this contraction".into()));
        }
        if contains_op(module, c, &[Opcode::Dot, Opcode::Convolution]) {
            return Err(Some("two contractions in one fusion".into()));
        }
        if self.users_of(producer).len() != 1 || comp.root == producer {
            return Err(Some("contraction result has other users".into()));
        }
        if !self.consumer_reads_elementwise(consumer, producer, false) {
            return Err(Some("epilogue does not read the contraction result elementwise".into()));
        }
        let ops_ok = |inst: &Instruction| -> bool {
            let check = |op: Opcode| op == Opcode::Parameter || self.config.epilogue_ops.contains(&op);
            match inst.opcode {
                Opcode::Fusion => {
                    inst.called.first().is_some_and(|&b| module.comp(b).insts.iter().all(|(_, i)| check(i.opcode)))
                }
                op => check(op),
            }
        };
        if !ops_ok(c) {
            return Err(Some("epilogue uses an op the backend cannot run in the output tile".into()));
        }
        let count = |i: &Instruction| i.shape.as_array().map(|a| a.element_count());
        if c.shape.is_tuple() || count(c) != count(p) {
            return Err(Some("epilogue changes the number of elements".into()));
        }
        // The product is written to the output buffer and the epilogue rewrites it
        // in place, so the element type must stay the same; except where the
        // backend keeps integer products apart (`typed_epilogues`): a bare
        // integer product may change type at its first consumer (a quantized
        // layer dequantized in the tile), and its float chain once more, to 8
        // or 16 bits (requantized in the tile: a quarter of the bytes to
        // write and read back). The chain stops there (a table lookup after it
        // runs faster as its own loop).
        let dtype = |i: &Instruction| i.shape.as_array().map(|a| a.dtype);
        let product = contraction_dtype(module, p);
        let integer_product = product.is_some_and(|d| d.is_int());
        let bare = dtype(p) == product;
        let narrowed =
            dtype(p).is_some_and(|d| d.is_float()) && dtype(c).is_some_and(|d| d.is_int() && d.byte_size() <= 2);
        let requantized = self.config.typed_epilogues && integer_product && (bare || narrowed);
        if dtype(c) != dtype(p) && !requantized {
            return Err(Some("epilogue changes the element type".into()));
        }
        Ok(Mode::Move)
    }

    /// The output index space a fusion (or fusible op) iterates over: the reduce
    /// input for a reduction root, the result otherwise.
    fn iteration_shape(&self, id: InstId) -> Option<Vec<i64>> {
        let comp = self.comp();
        let inst = comp.inst(id);
        let (body, root) = match inst.opcode {
            Opcode::Fusion => {
                let b = self.module.comp(*inst.called.first()?);
                (b, b.root_inst())
            }
            _ => (comp, inst),
        };
        let space = |r: &Instruction| -> Option<Vec<i64>> {
            if r.opcode == Opcode::Reduce {
                let input = body.inst(*r.operands.first()?);
                return input.shape.as_array().map(|a| a.dims.to_vec());
            }
            r.shape.as_array().map(|a| a.dims.to_vec())
        };
        if root.opcode == Opcode::Tuple {
            // A multi-output fusion: every output must agree on the space.
            let mut spaces = root.operands.iter().map(|&e| space(body.inst(e)));
            let first = spaces.next()??;
            return spaces.all(|s| s.as_ref() == Some(&first)).then_some(first);
        }
        space(root)
    }

    /// Does `from` reach `to` through operand edges (is `to` a transitive user)?
    fn reaches(&self, from: InstId, to: InstId) -> bool {
        let comp = self.comp();
        let mut stack = vec![to];
        let mut seen = SecondaryMap::with_default(comp.insts.capacity(), false);
        while let Some(id) = stack.pop() {
            if id == from {
                return true;
            }
            if std::mem::replace(&mut seen[id], true) {
                continue;
            }
            let inst = comp.inst(id);
            stack.extend(inst.operands.iter().copied());
            stack.extend(inst.extras.control_predecessors.iter().copied());
        }
        false
    }

    /// For a consumer fusion: the parameters bound to `producer`.
    fn params_for(&self, consumer: InstId, producer: InstId) -> Vec<InstId> {
        let c = self.comp().inst(consumer);
        let Some(&body) = c.called.first() else {
            return Vec::new();
        };
        let body = self.module.comp(body);
        c.operands
            .iter()
            .enumerate()
            .filter(|&(_, &o)| o == producer)
            .filter_map(|(k, _)| body.param(k as u32))
            .collect()
    }

    /// Does some use of `producer` inside the consumer satisfy `test(computation,
    /// user, operand index)`? For a fusion every use reachable from the producer's
    /// parameters is tried (the paths its values take through the body); for a
    /// single instruction, its direct uses.
    fn any_use(
        &self,
        consumer: InstId,
        producer: InstId,
        test: impl Fn(&Computation, &Instruction, usize) -> bool,
    ) -> bool {
        let comp = self.comp();
        let c = comp.inst(consumer);
        if c.opcode != Opcode::Fusion {
            return c.operands.iter().enumerate().any(|(k, &o)| o == producer && test(comp, c, k));
        }
        self.walk_paths(consumer, producer, false, |body, id, user| {
            let hit = user.operands.iter().enumerate().any(|(k, &o)| o == id && test(body, user, k));
            if hit { ControlFlow::Break(true) } else { ControlFlow::Continue(true) }
        })
    }

    /// Walks the paths `producer`'s values take through consumer fusion
    /// `consumer`'s body, from its parameters: `at_use(body, value, user)` for
    /// each use says whether to follow the user (`Continue(true)`), not to
    /// (`Continue(false)`), or to end the walk with an answer (`Break`);
    /// `otherwise` is the answer when the walk ends by itself.
    fn walk_paths(
        &self,
        consumer: InstId,
        producer: InstId,
        otherwise: bool,
        mut at_use: impl FnMut(&Computation, InstId, &Instruction) -> ControlFlow<bool, bool>,
    ) -> bool {
        let body = self.module.comp(self.comp().inst(consumer).called[0]);
        let users = body.users_any_order();
        let mut stack = self.params_for(consumer, producer);
        let mut seen = HashSet::new();
        while let Some(id) = stack.pop() {
            if !seen.insert(id) {
                continue;
            }
            for &u in &users[id] {
                match at_use(body, id, body.inst(u)) {
                    ControlFlow::Break(answer) => return answer,
                    ControlFlow::Continue(true) => stack.push(u),
                    ControlFlow::Continue(false) => {}
                }
            }
        }
        otherwise
    }

    /// Within the consumer (a fusion or a single op), is each element of `producer`
    /// read exactly once, by elementwise ops and (if `allow_moves`) reshapes,
    /// transposes and reverses that keep the element count? With `allow_moves`
    /// false only reshapes and bitcasts (which keep the linear index) may appear.
    fn consumer_reads_elementwise(&self, consumer: InstId, producer: InstId, allow_moves: bool) -> bool {
        let count = self.comp().inst(producer).shape.as_array().map(|a| a.element_count());
        !self.any_use(consumer, producer, |_, inst, _| {
            let same_count = inst.shape.as_array().map(|a| a.element_count()) == count;
            let op_ok = inst.opcode.is_elementwise()
                || matches!(inst.opcode, Opcode::Reshape | Opcode::Bitcast)
                || allow_moves && matches!(inst.opcode, Opcode::Transpose | Opcode::Reverse);
            !(same_count && op_ok)
        })
    }

    /// Within the consumer, is each element of `producer` read at most once per
    /// row: through elementwise ops of its own shape into broadcasts along
    /// trailing dimensions ([`row_broadcast`]), the consumer's outputs, or the
    /// input of a reduction (whose result the consumer in turn reads only that
    /// way: nothing else fuses a reduction into a consumer that reuses it)? A
    /// backend that computes values depending only on leading loop indices once
    /// per row ([`FusionConfig::row_broadcasts`]) then computes a broadcast row
    /// statistic once per row, and each producer element at most once for the
    /// row's reductions and once for its outputs.
    fn reads_once_per_row(&self, consumer: InstId, producer: InstId) -> bool {
        let comp = self.comp();
        let c = comp.inst(consumer);
        if c.opcode != Opcode::Fusion {
            return row_broadcast(comp, c);
        }
        self.walk_paths(consumer, producer, true, |body, id, ui| {
            let n = ui.operands.len();
            let reduce_input = ui.opcode == Opcode::Reduce && ui.operands[..n / 2].contains(&id);
            if ui.opcode.is_elementwise() && ui.shape.same_type(&body.inst(id).shape) {
                ControlFlow::Continue(true)
            } else if !(reduce_input || ui.opcode == Opcode::Tuple || row_broadcast(body, ui)) {
                ControlFlow::Break(false)
            } else {
                ControlFlow::Continue(false)
            }
        })
    }

    /// Does the consumer read some element of `producer` more than once?
    fn consumer_reuses(&self, consumer: InstId, producer: InstId) -> bool {
        self.any_use(consumer, producer, reuses_operand_in)
    }

    /// Inside a consumer fusion: does the path from `producer`'s parameter reach a
    /// dot or convolution operand?
    fn param_feeds_contraction(&self, consumer: InstId, producer: InstId) -> bool {
        self.any_use(consumer, producer, |_, inst, _| matches!(inst.opcode, Opcode::Dot | Opcode::Convolution))
    }

    /// Is `producer` the operand that the consumer's dynamic-update-slice (its
    /// root) updates in place?
    fn feeds_updated_operand(&self, consumer: InstId, producer: InstId) -> bool {
        let c = self.comp().inst(consumer);
        match c.opcode {
            Opcode::DynamicUpdateSlice => c.operands.first() == Some(&producer),
            Opcode::Fusion => {
                let body = self.module.comp(c.called[0]);
                let root = body.root_inst();
                root.opcode == Opcode::DynamicUpdateSlice
                    && root.operands.first().is_some_and(|&o| self.params_for(consumer, producer).contains(&o))
            }
            _ => false,
        }
    }

    /// Makes `consumer` a fusion if it is not one yet; returns the fusion's id.
    fn ensure_fusion(&mut self, consumer: InstId) -> InstId {
        if self.comp().inst(consumer).opcode == Opcode::Fusion {
            return consumer;
        }
        let inst = self.comp().inst(consumer).clone();
        let mut body = Computation::new(self.names.make("fused_computation"));
        let mut operands: Vec<InstId> = Vec::new();
        let mut body_ops: SmallVec<[InstId; 2]> = SmallVec::new();
        for &op in &inst.operands {
            if let Some(k) = operands.iter().position(|&o| o == op) {
                body_ops.push(body.param(k as u32).expect("parameter exists"));
                continue;
            }
            let shape = self.comp().inst(op).shape.clone();
            let pname = self.names.make(&format!("param_{}", operands.len()));
            let param = body.add(Instruction::new(
                pname,
                Opcode::Parameter,
                shape,
                &[],
                Attrs::Parameter(operands.len() as u32),
            ));
            operands.push(op);
            body_ops.push(param);
        }
        let mut root = inst.clone();
        root.operands = body_ops;
        root.extras.control_predecessors.clear();
        body.root = body.add(root);
        let body_id = self.module.add_computation(body);
        let fusion_name = self.names.make(&format!("{}_fusion", inst.opcode.name().replace('-', "_")));
        let mut fusion = Instruction::new(
            fusion_name,
            Opcode::Fusion,
            inst.shape.clone(),
            &operands,
            Attrs::Fusion { kind: FusionKind::Loop },
        );
        fusion.called.push(body_id);
        fusion.extras.metadata = inst.extras.metadata.clone();
        fusion.extras.control_predecessors = inst.extras.control_predecessors.clone();
        let comp = self.module.comp_mut(self.cid);
        let fid = comp.add(fusion);
        // With the use index (and no control edges, which it does not list),
        // only the consumer's users change: no walk over the computation.
        match (&self.users, self.control_edges) {
            (Some(users), false) => {
                let of_consumer = users.get(&consumer).cloned().unwrap_or_default();
                comp.replace_uses_in(consumer, fid, &of_consumer)
            }
            _ => comp.replace_all_uses(consumer, fid),
        };
        comp.remove(consumer);
        if let Some(users) = &mut self.users {
            // The fusion reads each distinct operand once; the consumer may
            // have read one several times.
            let of_consumer = users.remove(&consumer).unwrap_or_default();
            users.insert(fid, of_consumer);
            for &op in &inst.operands {
                if let Some(list) = users.get_mut(&op) {
                    list.retain(|u| *u != consumer);
                }
            }
            for &op in &operands {
                users.entry(op).or_default().push(fid);
            }
        }
        self.set_kind(fid);
        fid
    }

    /// Fuses `producer` into `consumer`; returns the consumer fusion's id.
    fn fuse(&mut self, producer: InstId, consumer: InstId, mode: Mode) -> InstId {
        let fid = self.ensure_fusion(consumer);
        let body_id = self.comp().inst(fid).called[0];
        let p = self.comp().inst(producer).clone();
        // The producer's body: itself, or its fused computation's instructions.
        let (src_comp, src_root): (Computation, InstId) = if p.opcode == Opcode::Fusion {
            let b = self.module.comp(p.called[0]).clone();
            let r = b.root;
            (b, r)
        } else {
            let mut b = Computation::new("single");
            let mut ops = SmallVec::<[InstId; 2]>::new();
            for (k, &o) in p.operands.iter().enumerate() {
                let shape = self.comp().inst(o).shape.clone();
                ops.push(b.add(Instruction::new(
                    format!("p{k}"),
                    Opcode::Parameter,
                    shape,
                    &[],
                    Attrs::Parameter(k as u32),
                )));
            }
            let mut inner = p.clone();
            inner.operands = ops;
            inner.extras.control_predecessors.clear();
            let r = b.add(inner);
            b.root = r;
            (b, r)
        };
        // Producer parameters bind to the fusion's existing or new parameters.
        let mut fusion_operands: Vec<InstId> = self.comp().inst(fid).operands.to_vec();
        let mut map = smelt_hlo::SecondaryMap::with_default(src_comp.insts.capacity(), None::<InstId>);
        for id in src_comp.post_order() {
            let inst = src_comp.inst(id);
            let new_id = if let Some(n) = inst.parameter_number() {
                let outer = p.operands[n as usize];
                match fusion_operands.iter().position(|&o| o == outer) {
                    Some(k) => self.module.comp(body_id).param(k as u32).expect("fusion parameter"),
                    None => {
                        let k = fusion_operands.len();
                        fusion_operands.push(outer);
                        let pname = self.names.make(&format!("param_{k}"));
                        let shape = inst.shape.clone();
                        self.module.comp_mut(body_id).add(Instruction::new(
                            pname,
                            Opcode::Parameter,
                            shape,
                            &[],
                            Attrs::Parameter(k as u32),
                        ))
                    }
                }
            } else {
                let mut clone = inst.clone();
                clone.operands = inst.operands.iter().map(|&o| map[o].expect("operand cloned")).collect();
                // Moved instructions keep their names; copies get fresh ones.
                let base = if p.opcode != Opcode::Fusion { &p.name } else { &inst.name };
                clone.name = if mode == Mode::Duplicate { self.names.make(base) } else { base.clone() };
                self.module.comp_mut(body_id).add(clone)
            };
            map[id] = Some(new_id);
        }
        let new_root = map[src_root].expect("root cloned");
        // Replace the parameters bound to the producer with the clone.
        let bound: Vec<usize> =
            fusion_operands.iter().enumerate().filter(|&(_, &o)| o == producer).map(|(k, _)| k).collect();
        let body = self.module.comp_mut(body_id);
        for &k in &bound {
            if let Some(param) = body.param(k as u32) {
                body.replace_all_uses(param, new_root);
                body.remove(param);
            }
        }
        // Renumber the remaining parameters densely and drop the producer.
        let kept: Vec<(usize, InstId)> =
            fusion_operands.iter().copied().enumerate().filter(|&(_, o)| o != producer).collect();
        let body = self.module.comp_mut(body_id);
        let renumber: Vec<(InstId, u32)> = kept
            .iter()
            .enumerate()
            .filter_map(|(new_k, &(old_k, _))| body.param(old_k as u32).map(|param| (param, new_k as u32)))
            .collect();
        for (param, n) in renumber {
            body.inst_mut(param).attrs = Attrs::Parameter(n);
        }
        let comp = self.module.comp_mut(self.cid);
        let old_operands = std::mem::replace(&mut comp.inst_mut(fid).operands, kept.iter().map(|&(_, o)| o).collect());
        self.reindex_operands(fid, &old_operands);
        match mode {
            Mode::Move => {
                self.module.comp_mut(self.cid).remove(producer);
                if let Some(users) = &mut self.users {
                    users.remove(&producer);
                    for &o in &p.operands {
                        if let Some(list) = users.get_mut(&o) {
                            remove_one(list, producer);
                        }
                    }
                }
            }
            Mode::MultiOutput => {
                self.add_extra_output(fid, body_id, producer, new_root);
                // It redirects users across the computation: index again.
                if self.users.is_some() {
                    self.index_users();
                }
            }
            Mode::Duplicate => {}
        }
        self.set_kind(fid);
        fid
    }

    /// Makes fusion `fid` also output `value` (the producer moved inside it) and
    /// points the producer's other users at that output.
    fn add_extra_output(&mut self, fid: InstId, body_id: CompId, producer: InstId, value: InstId) {
        let body = self.module.comp(body_id);
        let old_root = body.root;
        let value_shape = body.inst(value).shape.clone();
        let was_tuple = body.inst(old_root).opcode == Opcode::Tuple;
        // The fusion's outputs: the old root's elements (or the old root), then the value.
        let (mut elements, mut shapes): (Vec<InstId>, Vec<Shape>) = if was_tuple {
            let r = body.inst(old_root);
            (r.operands.to_vec(), r.shape.tuple_elements().to_vec())
        } else {
            (vec![old_root], vec![body.inst(old_root).shape.clone()])
        };
        elements.push(value);
        shapes.push(value_shape.clone());
        let tuple_shape = Shape::Tuple(shapes);
        let body = self.module.comp_mut(body_id);
        if was_tuple {
            let r = body.inst_mut(old_root);
            r.operands = elements.iter().copied().collect();
            r.shape = tuple_shape.clone();
        } else {
            let tname = self.names.make("tuple");
            let body = self.module.comp_mut(body_id);
            body.root = body.add(Instruction::new(tname, Opcode::Tuple, tuple_shape.clone(), &elements, Attrs::None));
        }
        let new_index = elements.len() as i64 - 1;
        let gname = self.names.make("get-tuple-element");
        let old_first = (!was_tuple).then(|| self.names.make("get-tuple-element"));
        let comp = self.module.comp_mut(self.cid);
        let old_fusion_shape = std::mem::replace(&mut comp.inst_mut(fid).shape, tuple_shape);
        let out_new = comp.add(Instruction::new(
            gname,
            Opcode::GetTupleElement,
            value_shape,
            &[fid],
            Attrs::GetTupleElement { index: new_index },
        ));
        // A fusion that had one output: its users now read output 0.
        let out0 = old_first.map(|name| {
            comp.add(Instruction::new(
                name,
                Opcode::GetTupleElement,
                old_fusion_shape,
                &[fid],
                Attrs::GetTupleElement { index: 0 },
            ))
        });
        for (id, inst) in comp.insts.iter_mut() {
            if Some(id) == out0 || id == out_new {
                continue;
            }
            for o in inst.operands.iter_mut() {
                if *o == fid
                    && let Some(out0) = out0
                {
                    *o = out0;
                } else if *o == producer {
                    *o = out_new;
                }
            }
        }
        if comp.root == fid
            && let Some(out0) = out0
        {
            comp.root = out0;
        }
        comp.remove(producer);
    }

    /// Sets a fusion's kind from what it contains.
    fn set_kind(&mut self, fid: InstId) {
        let module = &*self.module;
        let inst = self.comp().inst(fid);
        let kind = if contains_op(module, inst, &[Opcode::Dot, Opcode::Convolution]) {
            FusionKind::Output
        } else if contains_op(module, inst, &[Opcode::Reduce, Opcode::ReduceWindow]) {
            FusionKind::Input
        } else {
            FusionKind::Loop
        };
        self.module.comp_mut(self.cid).inst_mut(fid).attrs = Attrs::Fusion { kind };
    }

    /// Merges sibling fusions that read a common operand and iterate over the same
    /// shape into one multi-output fusion.
    fn siblings(&mut self) -> bool {
        let mut changed = false;
        // Producers whose users had no pair to merge: a merge elsewhere makes a
        // pair larger and more connected, never possible where it was not, so
        // they are not searched again.
        let mut searched: HashSet<InstId> = HashSet::new();
        loop {
            let comp = self.comp();
            let users = comp.users();
            let mut pair = None;
            'search: for id in comp.post_order() {
                if searched.contains(&id) {
                    continue;
                }
                let candidates: Vec<InstId> = {
                    let mut seen = HashSet::new();
                    users[id]
                        .iter()
                        .copied()
                        .filter(|u| seen.insert(*u))
                        .filter(|&u| self.sibling_candidate(u, &users[u]))
                        .collect()
                };
                for (i, &a) in candidates.iter().enumerate() {
                    for &b in &candidates[i + 1..] {
                        if self.iteration_shape(a) == self.iteration_shape(b)
                            && self.same_reduce_dims(a, b)
                            && !self.reaches(a, b)
                            && !self.reaches(b, a)
                            && size_of(self.module, comp.inst(a)) + size_of(self.module, comp.inst(b))
                                <= self.config.max_fusion_size
                            && output_streams(self.module, comp.inst(a)) + output_streams(self.module, comp.inst(b))
                                <= self.config.max_output_streams
                        {
                            pair = Some((a, b));
                            break 'search;
                        }
                    }
                }
                searched.insert(id);
            }
            let Some((a, b)) = pair else { return changed };
            self.merge_siblings(a, b);
            changed = true;
        }
    }

    /// Whether fusion `id`, read by `users`, may merge with a sibling.
    fn sibling_candidate(&self, id: InstId, users: &[InstId]) -> bool {
        let comp = self.comp();
        let inst = comp.inst(id);
        // A multi-output fusion must be read only through get-tuple-element.
        let read_by_gte_only =
            !inst.shape.is_tuple() || users.iter().all(|&u| comp.inst(u).opcode == Opcode::GetTupleElement);
        // Outputs are the root tuple's elements or the (array) root; a variadic
        // reduce root (argmax) has a tuple shape of its own and stays as it is.
        let outputs_ok = inst.called.first().is_some_and(|&c| {
            let root = self.module.comp(c).root_inst();
            root.opcode == Opcode::Tuple || !root.shape.is_tuple()
        });
        inst.opcode == Opcode::Fusion
            && comp.root != id
            && read_by_gte_only
            && outputs_ok
            && !row_fused(self.module, inst)
            && !contains_op(
                self.module,
                inst,
                &[Opcode::Dot, Opcode::Convolution, Opcode::ReduceWindow, Opcode::DynamicUpdateSlice],
            )
            && self.iteration_shape(id).is_some()
    }

    /// Two reduction fusions merge only if they reduce the same dimensions.
    /// (A reduction and a loop fusion over the reduction's input space may merge:
    /// the kernel writes the loop outputs while it accumulates.)
    fn same_reduce_dims(&self, a: InstId, b: InstId) -> bool {
        // The reduced dimensions of a fusion's reduce outputs; None without any,
        // Err when its reduce outputs disagree.
        let dims = |id: InstId| -> std::result::Result<Option<Vec<i64>>, ()> {
            let inst = self.comp().inst(id);
            let Some(&c) = inst.called.first() else { return Err(()) };
            let body = self.module.comp(c);
            let root = body.root_inst();
            let outputs: Vec<InstId> =
                if root.opcode == Opcode::Tuple { root.operands.to_vec() } else { vec![body.root] };
            let mut found: Option<Vec<i64>> = None;
            for o in outputs {
                let out = body.inst(o);
                if out.opcode == Opcode::Reduce {
                    let d = out.attrs.dimensions().to_vec();
                    if found.as_ref().is_some_and(|f| *f != d) {
                        return Err(());
                    }
                    found = Some(d);
                }
            }
            Ok(found)
        };
        match (dims(a), dims(b)) {
            (Ok(Some(x)), Ok(Some(y))) => x == y,
            (Ok(_), Ok(_)) => true,
            _ => false,
        }
    }

    /// Builds one fusion computing the outputs of both `a` and `b` (each a single-
    /// or multi-output fusion); users are pointed at the new fusion's outputs.
    fn merge_siblings(&mut self, a: InstId, b: InstId) {
        let comp = self.comp();
        let (ia, ib) = (comp.inst(a).clone(), comp.inst(b).clone());
        let (ba, bb) = (self.module.comp(ia.called[0]).clone(), self.module.comp(ib.called[0]).clone());
        let mut body = Computation::new(self.names.make("fused_computation"));
        let mut operands: Vec<InstId> = Vec::new();
        let mut outputs: Vec<InstId> = Vec::new();
        let mut shapes: Vec<Shape> = Vec::new();
        // Where each original fusion's outputs start in the merged tuple.
        let mut first_output = Vec::new();
        for (outer, inner) in [(&ia, &ba), (&ib, &bb)] {
            first_output.push(outputs.len());
            let mut map = smelt_hlo::SecondaryMap::with_default(inner.insts.capacity(), None::<InstId>);
            for id in inner.post_order() {
                let inst = inner.inst(id);
                if id == inner.root && inst.opcode == Opcode::Tuple {
                    continue;
                }
                let new_id = if let Some(n) = inst.parameter_number() {
                    let op = outer.operands[n as usize];
                    match operands.iter().position(|&o| o == op) {
                        Some(k) => body.param(k as u32).expect("parameter"),
                        None => {
                            let k = operands.len();
                            operands.push(op);
                            let pname = self.names.make(&format!("param_{k}"));
                            let shape = inst.shape.clone();
                            body.add(Instruction::new(pname, Opcode::Parameter, shape, &[], Attrs::Parameter(k as u32)))
                        }
                    }
                } else {
                    let mut clone = inst.clone();
                    clone.operands = inst.operands.iter().map(|&o| map[o].expect("operand")).collect();
                    body.add(clone)
                };
                map[id] = Some(new_id);
            }
            let root = inner.root_inst();
            if root.opcode == Opcode::Tuple {
                outputs.extend(root.operands.iter().map(|&e| map[e].expect("output")));
                shapes.extend(root.shape.tuple_elements().iter().cloned());
            } else {
                outputs.push(map[inner.root].expect("root"));
                shapes.push(root.shape.clone());
            }
        }
        let tuple_shape = Shape::Tuple(shapes.clone());
        let tname = self.names.make("tuple");
        body.root = body.add(Instruction::new(tname, Opcode::Tuple, tuple_shape.clone(), &outputs, Attrs::None));
        let body_id = self.module.add_computation(body);
        let fname = self.names.make("multi_output_fusion");
        let mut fusion = Instruction::new(fname, Opcode::Fusion, tuple_shape, &operands, ia.attrs.clone());
        fusion.called.push(body_id);
        let out_names: Vec<String> = (0..shapes.len()).map(|_| self.names.make("get-tuple-element")).collect();
        let comp = self.module.comp_mut(self.cid);
        let fid = comp.add(fusion);
        let outs: Vec<InstId> = out_names
            .into_iter()
            .enumerate()
            .map(|(k, name)| {
                let shape = shapes[k].clone();
                comp.add(Instruction::new(
                    name,
                    Opcode::GetTupleElement,
                    shape,
                    &[fid],
                    Attrs::GetTupleElement { index: k as i64 },
                ))
            })
            .collect();
        for (old, base) in [(a, first_output[0]), (b, first_output[1])] {
            let multi = comp.inst(old).shape.is_tuple();
            // Readers of a multi-output fusion read it through get-tuple-element.
            let readers: Vec<InstId> =
                comp.insts.iter().filter(|(_, i)| i.operands.contains(&old)).map(|(id, _)| id).collect();
            for r in readers {
                let inst = comp.inst(r);
                let replacement = match (multi, &inst.attrs) {
                    (true, Attrs::GetTupleElement { index }) if inst.opcode == Opcode::GetTupleElement => {
                        Some(outs[base + *index as usize])
                    }
                    (true, _) => None,
                    (false, _) => Some(outs[base]),
                };
                match replacement {
                    Some(new) if multi => {
                        comp.replace_all_uses(r, new);
                        comp.remove(r);
                    }
                    Some(new) => {
                        for o in comp.inst_mut(r).operands.iter_mut().filter(|o| **o == old) {
                            *o = new;
                        }
                    }
                    None => {}
                }
            }
            if comp.root == old && !multi {
                comp.root = outs[base];
            }
            comp.remove(old);
        }
        self.set_kind(fid);
    }

    /// Wraps remaining elemental instructions in single-instruction loop fusions.
    fn wrap_remaining(&mut self) -> bool {
        let mut changed = false;
        for id in self.comp().post_order() {
            let inst = self.comp().inst(id);
            let wrap = fusible(self.module, inst)
                && !matches!(
                    inst.opcode,
                    Opcode::Fusion
                        | Opcode::Constant
                        | Opcode::Bitcast
                        | Opcode::Reshape
                        | Opcode::Dot
                        | Opcode::Convolution
                );
            if wrap {
                self.ensure_fusion(id);
                changed = true;
            }
        }
        changed
    }
}

/// Is `inst` a broadcast along trailing dimensions: its operand's dimensions
/// are the leading dimensions of its result, which include the first dimension
/// of more than one element (the one a backend splits across threads, so that
/// each thread computes the operand for its own rows only)?
fn row_broadcast(comp: &Computation, inst: &Instruction) -> bool {
    let (Attrs::Dimensions(dims), Some(&op)) = (&inst.attrs, inst.operands.first()) else {
        return false;
    };
    let (Some(out), Some(rank)) = (inst.shape.as_array(), comp.inst(op).shape.as_array().map(|a| a.rank())) else {
        return false;
    };
    let first_split = out.dims.iter().position(|&d| d != 1).unwrap_or(0);
    inst.opcode == Opcode::Broadcast
        && rank > 0
        && dims.iter().enumerate().all(|(k, &d)| d == k as i64)
        && first_split < rank
}

/// Does every reduction in `inst` (itself, or in its fused computation) reduce
/// the trailing dimensions of its input? A row statistic fused into a loop
/// kernel is then computed from the row the kernel is about to visit,
/// contiguously, while it is in cache; a statistic over leading dimensions
/// would read a strided column per row, better left to a reduction kernel.
fn trailing_reductions(module: &Module, comp: &Computation, inst: &Instruction) -> bool {
    let trailing = |comp: &Computation, r: &Instruction| -> bool {
        let Some(rank) = r.operands.first().and_then(|&o| comp.inst(o).shape.as_array()).map(|a| a.rank()) else {
            return false;
        };
        let mut dims: Vec<i64> = r.attrs.dimensions().to_vec();
        dims.sort_unstable();
        let first = rank as i64 - dims.len() as i64;
        dims.iter().enumerate().all(|(k, &d)| d == first + k as i64)
    };
    match inst.called.first().filter(|_| inst.opcode == Opcode::Fusion) {
        Some(&c) => {
            let body = module.comp(c);
            body.insts.iter().all(|(_, i)| i.opcode != Opcode::Reduce || trailing(body, i))
        }
        None => inst.opcode != Opcode::Reduce || trailing(comp, inst),
    }
}

/// Does some reduction in `inst` (itself, or in its fused computation) reduce
/// dimensions that are not the physically innermost of its input? A reduction
/// kernel walks such an input in memory order, accumulating whole rows of
/// outputs at once; a reduction fused into a consumer is evaluated inline, once
/// per output element, and would walk a strided column each time (a column
/// mean 40x slower than the reduction alone).
fn strided_reductions(module: &Module, comp: &Computation, inst: &Instruction) -> bool {
    let strided = |comp: &Computation, r: &Instruction| -> bool {
        let Some(input) = r.operands.first().and_then(|&o| comp.inst(o).shape.as_array()) else {
            return false;
        };
        // Unit dimensions have no stride: what matters is whether the reduced
        // dimensions of extent > 1 are the innermost of those in memory order.
        let wide = |d: i64| input.dims.get(d as usize).is_some_and(|&n| n > 1);
        let reduced: Vec<i64> = r.attrs.dimensions().iter().copied().filter(|&d| wide(d)).collect();
        let rank = input.rank() as i64;
        let order: Vec<i64> = if input.layout.minor_to_major.len() == input.rank() {
            input.layout.minor_to_major.to_vec()
        } else {
            (0..rank).rev().collect()
        };
        let minor: Vec<i64> = order.into_iter().filter(|&d| wide(d)).take(reduced.len()).collect();
        reduced.iter().any(|d| !minor.contains(d))
    };
    match inst.called.first().filter(|_| inst.opcode == Opcode::Fusion) {
        Some(&c) => {
            let body = module.comp(c);
            body.insts.iter().any(|(_, i)| i.opcode == Opcode::Reduce && strided(body, i))
        }
        None => inst.opcode == Opcode::Reduce && strided(comp, inst),
    }
}

/// The most dimensions any reduction in `inst` (itself, or in its fused
/// computation) reduces.
fn reduced_dims(module: &Module, inst: &Instruction) -> usize {
    let dims = |i: &Instruction| if i.opcode == Opcode::Reduce { i.attrs.dimensions().len() } else { 0 };
    match inst.called.first().filter(|_| inst.opcode == Opcode::Fusion) {
        Some(&c) => module.comp(c).insts.iter().map(|(_, i)| dims(i)).max().unwrap_or(0),
        None => dims(inst),
    }
}

/// Does every array of `inst`'s result keep its last `k` dimensions physically
/// innermost? A loop kernel walks its result in physical order, so a row
/// statistic over trailing dimensions is computed once per row only when those
/// dimensions are the inner loops; with another layout it would be recomputed
/// for every element (a reduction's work per element: a cliff).
fn trailing_dims_minor(inst: &Instruction, k: usize) -> bool {
    inst.shape.leaves().iter().all(|a| {
        let rank = a.dims.len();
        let k = k.min(rank);
        let mut minor: Vec<i64> = a.layout.minor_to_major.iter().take(k).copied().collect();
        minor.sort_unstable();
        a.layout.minor_to_major.len() != rank || minor.into_iter().eq((rank - k) as i64..rank as i64)
    })
}

/// Does fusion `inst` broadcast a value computed by a reduction inside it (a
/// row statistic fused by [`FusionConfig::row_broadcasts`])? Such a fusion is
/// a loop kernel that relies on computing the statistic once per row.
/// Whether every instruction of `body` is a parameter or an elementwise
/// operation with an array result of dimensions `dims` (its root included).
fn elementwise_over(body: &Computation, dims: &[i64]) -> bool {
    body.insts.iter().all(|(_, i)| {
        (i.opcode == Opcode::Parameter || i.opcode.is_elementwise())
            && i.shape.as_array().is_some_and(|a| a.dims[..] == *dims)
    })
}

fn row_fused(module: &Module, inst: &Instruction) -> bool {
    let Some(&c) = inst.called.first().filter(|_| inst.opcode == Opcode::Fusion) else {
        return false;
    };
    let body = module.comp(c);
    let mut from_reduce = smelt_hlo::SecondaryMap::with_default(body.insts.capacity(), false);
    for id in body.post_order() {
        let i = body.inst(id);
        let reduced = i.opcode == Opcode::Reduce || i.operands.iter().any(|&o| from_reduce[o]);
        from_reduce[id] = reduced;
        if i.opcode == Opcode::Broadcast && i.operands.iter().any(|&o| from_reduce[o]) {
            return true;
        }
    }
    false
}

/// Is `inst` computed as a loop kernel (its outputs are not reductions, scans,
/// in-place updates, sorts or contractions)?
fn loop_consumer(module: &Module, inst: &Instruction) -> bool {
    let kernel_op = |i: &Instruction| {
        matches!(
            i.opcode,
            Opcode::Reduce
                | Opcode::ReduceWindow
                | Opcode::Scatter
                | Opcode::DynamicUpdateSlice
                | Opcode::Sort
                | Opcode::Dot
                | Opcode::Convolution
        )
    };
    match inst.called.first().filter(|_| inst.opcode == Opcode::Fusion) {
        Some(&c) => {
            let body = module.comp(c);
            let root = body.root_inst();
            let outputs: Vec<InstId> =
                if root.opcode == Opcode::Tuple { root.operands.to_vec() } else { vec![body.root] };
            !outputs.iter().any(|&o| kernel_op(body.inst(o)))
                && !body.insts.iter().any(|(_, i)| matches!(i.opcode, Opcode::Dot | Opcode::Convolution))
        }
        None => !kernel_op(inst),
    }
}

/// Does `inst` (in `comp`) read operand `k`'s elements more than once?
fn reuses_operand_in(comp: &Computation, inst: &Instruction, k: usize) -> bool {
    match inst.opcode {
        Opcode::Broadcast => {
            let out = inst.shape.as_array().map_or(0, |a| a.element_count());
            let input = comp.inst(inst.operands[k]).shape.as_array().map_or(1, |a| a.element_count());
            out > input
        }
        // A scan reads each element once; other windows overlap.
        Opcode::ReduceWindow => !is_scan(comp, inst),
        Opcode::Gather | Opcode::Dot | Opcode::Convolution => true,
        Opcode::DynamicSlice => k > 0,
        _ => false,
    }
}
