//! The transpose (vector-Jacobian) rules, one per opcode, following JAX's:
//! each turns the cotangent of an instruction's result into cotangents of
//! its operands.

use super::*;

impl Backward<'_> {
    /// Turns the cotangent of `id`'s result into cotangents of its operands.
    pub(super) fn transpose(&mut self, id: InstId) -> Result<()> {
        let inst = self.f.inst(id);
        let ops = &inst.operands;
        if inst.shape.is_tuple() {
            return self.transpose_tuple(id);
        }
        let Some(&g) = self.ct.get(&(id, None)) else {
            return Ok(());
        };
        if inst.shape.has_complex() || ops.iter().any(|&o| self.f.inst(o).shape.has_complex()) {
            return Err(self.refuse(inst, "complex numbers are not differentiated yet"));
        }
        use Opcode as O;
        let y = self.x(id);
        match inst.opcode {
            O::Parameter => {}
            O::Negate => {
                let r = self.un(O::Negate, g)?;
                self.accumulate((ops[0], None), r)?;
            }
            O::Copy | O::ReducePrecision | O::OptimizationBarrier => self.accumulate((ops[0], None), g)?,
            O::Convert => {
                if self.array(ops[0]).dtype.is_float() {
                    self.accumulate((ops[0], None), g)?;
                }
            }
            O::Exp => {
                let r = self.mul(g, y)?;
                self.accumulate((ops[0], None), r)?;
            }
            O::Expm1 => {
                let one = self.full_like(y, 1.0)?;
                let e = self.bin(O::Add, y, one)?;
                let r = self.mul(g, e)?;
                self.accumulate((ops[0], None), r)?;
            }
            O::Log => {
                let r = self.bin(O::Divide, g, self.x(ops[0]))?;
                self.accumulate((ops[0], None), r)?;
            }
            O::Log1p => {
                let one = self.full_like(y, 1.0)?;
                let d = self.bin(O::Add, self.x(ops[0]), one)?;
                let r = self.bin(O::Divide, g, d)?;
                self.accumulate((ops[0], None), r)?;
            }
            O::Tanh => {
                let one = self.full_like(y, 1.0)?;
                let yy = self.mul(y, y)?;
                let d = self.bin(O::Subtract, one, yy)?;
                let r = self.mul(g, d)?;
                self.accumulate((ops[0], None), r)?;
            }
            O::Logistic => {
                let one = self.full_like(y, 1.0)?;
                let c = self.bin(O::Subtract, one, y)?;
                let d = self.mul(y, c)?;
                let r = self.mul(g, d)?;
                self.accumulate((ops[0], None), r)?;
            }
            O::Sqrt => {
                let half = self.full_like(y, 0.5)?;
                let d = self.bin(O::Divide, half, y)?;
                let r = self.mul(g, d)?;
                self.accumulate((ops[0], None), r)?;
            }
            O::Rsqrt => {
                // d/dx x^-1/2 = -1/2 * y / x.
                let c = self.full_like(y, -0.5)?;
                let q = self.bin(O::Divide, y, self.x(ops[0]))?;
                let d = self.mul(c, q)?;
                let r = self.mul(g, d)?;
                self.accumulate((ops[0], None), r)?;
            }
            O::Cbrt => {
                // d/dx x^1/3 = 1/3 / y^2.
                let third = self.full_like(y, 1.0 / 3.0)?;
                let yy = self.mul(y, y)?;
                let d = self.bin(O::Divide, third, yy)?;
                let r = self.mul(g, d)?;
                self.accumulate((ops[0], None), r)?;
            }
            O::Sine => {
                let c = self.un(O::Cosine, self.x(ops[0]))?;
                let r = self.mul(g, c)?;
                self.accumulate((ops[0], None), r)?;
            }
            O::Cosine => {
                let s = self.un(O::Sine, self.x(ops[0]))?;
                let n = self.un(O::Negate, s)?;
                let r = self.mul(g, n)?;
                self.accumulate((ops[0], None), r)?;
            }
            O::Tan => {
                let one = self.full_like(y, 1.0)?;
                let yy = self.mul(y, y)?;
                let d = self.bin(O::Add, one, yy)?;
                let r = self.mul(g, d)?;
                self.accumulate((ops[0], None), r)?;
            }
            O::Erf => {
                // 2/sqrt(pi) * exp(-x^2).
                let x = self.x(ops[0]);
                let xx = self.mul(x, x)?;
                let n = self.un(O::Negate, xx)?;
                let e = self.un(O::Exp, n)?;
                let c = self.full_like(y, std::f64::consts::FRAC_2_SQRT_PI)?;
                let d = self.mul(c, e)?;
                let r = self.mul(g, d)?;
                self.accumulate((ops[0], None), r)?;
            }
            O::Abs => {
                // g where x >= 0, else -g (JAX's rule: 1 at 0).
                let x = self.x(ops[0]);
                let zero = self.full_like(x, 0.0)?;
                let nonneg = self.cmp(ComparisonDirection::Ge, x, zero)?;
                let n = self.un(O::Negate, g)?;
                let r = self.b.select(nonneg, g, n).map_err(broken)?;
                self.accumulate((ops[0], None), r)?;
            }
            // Piecewise constant: zero almost everywhere, as in JAX.
            O::Sign | O::Floor | O::Ceil | O::RoundNearestAfz | O::RoundNearestEven => {}
            O::Add => {
                self.accumulate((ops[0], None), g)?;
                self.accumulate((ops[1], None), g)?;
            }
            O::Subtract => {
                self.accumulate((ops[0], None), g)?;
                if self.on_path.contains(&ops[1]) {
                    let n = self.un(O::Negate, g)?;
                    self.accumulate((ops[1], None), n)?;
                }
            }
            O::Multiply => {
                if self.on_path.contains(&ops[0]) {
                    let r = self.mul(g, self.x(ops[1]))?;
                    self.accumulate((ops[0], None), r)?;
                }
                if self.on_path.contains(&ops[1]) {
                    let r = self.mul(g, self.x(ops[0]))?;
                    self.accumulate((ops[1], None), r)?;
                }
            }
            O::Divide => {
                let d = self.x(ops[1]);
                if self.on_path.contains(&ops[0]) {
                    let r = self.bin(O::Divide, g, d)?;
                    self.accumulate((ops[0], None), r)?;
                }
                if self.on_path.contains(&ops[1]) {
                    // -g * y / d.
                    let q = self.bin(O::Divide, y, d)?;
                    let p = self.mul(g, q)?;
                    let r = self.un(O::Negate, p)?;
                    self.accumulate((ops[1], None), r)?;
                }
            }
            O::Maximum | O::Minimum => {
                // JAX's balanced rule: ties split the cotangent evenly.
                let (a, c) = (self.x(ops[0]), self.x(ops[1]));
                let a_is = self.cmp(ComparisonDirection::Eq, a, y)?;
                let c_is = self.cmp(ComparisonDirection::Eq, c, y)?;
                let dtype = self.array(id).dtype;
                for (k, mine, other) in [(0, a_is, c_is), (1, c_is, a_is)] {
                    if !self.on_path.contains(&ops[k]) {
                        continue;
                    }
                    let half = self.full_like(g, 0.5)?;
                    let one = self.full_like(g, 1.0)?;
                    let share = self.b.select(other, half, one).map_err(broken)?;
                    let ind = self.indicator(mine, dtype)?;
                    let w = self.mul(share, ind)?;
                    let r = self.mul(g, w)?;
                    self.accumulate((ops[k], None), r)?;
                }
            }
            O::Power => {
                let (a, e) = (self.x(ops[0]), self.x(ops[1]));
                if self.on_path.contains(&ops[0]) {
                    // e * a^(e-1).
                    let one = self.full_like(e, 1.0)?;
                    let em1 = self.bin(O::Subtract, e, one)?;
                    let p = self.bin(O::Power, a, em1)?;
                    let d = self.mul(e, p)?;
                    let r = self.mul(g, d)?;
                    self.accumulate((ops[0], None), r)?;
                }
                if self.on_path.contains(&ops[1]) {
                    // y * log(a), with log(1) where a == 0.
                    let zero = self.full_like(a, 0.0)?;
                    let one = self.full_like(a, 1.0)?;
                    let a0 = self.cmp(ComparisonDirection::Eq, a, zero)?;
                    let safe = self.b.select(a0, one, a).map_err(broken)?;
                    let l = self.un(O::Log, safe)?;
                    let d = self.mul(y, l)?;
                    let r = self.mul(g, d)?;
                    self.accumulate((ops[1], None), r)?;
                }
            }
            O::Atan2 => {
                // atan2(a, c): d/da = c / (a^2 + c^2), d/dc = -a / (a^2 + c^2).
                let (a, c) = (self.x(ops[0]), self.x(ops[1]));
                let aa = self.mul(a, a)?;
                let cc = self.mul(c, c)?;
                let den = self.bin(O::Add, aa, cc)?;
                if self.on_path.contains(&ops[0]) {
                    let q = self.bin(O::Divide, c, den)?;
                    let r = self.mul(g, q)?;
                    self.accumulate((ops[0], None), r)?;
                }
                if self.on_path.contains(&ops[1]) {
                    let q = self.bin(O::Divide, a, den)?;
                    let n = self.un(O::Negate, q)?;
                    let r = self.mul(g, n)?;
                    self.accumulate((ops[1], None), r)?;
                }
            }
            O::Remainder => {
                self.accumulate((ops[0], None), g)?;
                if self.on_path.contains(&ops[1]) {
                    // -g * sign(a/c) * floor(|a/c|).
                    let q = self.bin(O::Divide, self.x(ops[0]), self.x(ops[1]))?;
                    let s = self.un(O::Sign, q)?;
                    let aq = self.un(O::Abs, q)?;
                    let t = self.un(O::Floor, aq)?;
                    let st = self.mul(s, t)?;
                    let p = self.mul(g, st)?;
                    let r = self.un(O::Negate, p)?;
                    self.accumulate((ops[1], None), r)?;
                }
            }
            O::Select => {
                let p = self.x(ops[0]);
                if self.on_path.contains(&ops[1]) {
                    let r = self.where_(p, g)?;
                    self.accumulate((ops[1], None), r)?;
                }
                if self.on_path.contains(&ops[2]) {
                    let z = self.full_like(g, 0.0)?;
                    let r = self.b.select(p, z, g).map_err(broken)?;
                    self.accumulate((ops[2], None), r)?;
                }
            }
            O::Clamp => {
                // clamp(lo, x, hi); bounds may be scalars.
                let (lo, x, hi) = (self.x(ops[0]), self.x(ops[1]), self.x(ops[2]));
                let dims = self.array(id).dims.clone();
                let lo_b = self.like_result(lo, &dims)?;
                let hi_b = self.like_result(hi, &dims)?;
                if self.on_path.contains(&ops[1]) {
                    let above = self.cmp(ComparisonDirection::Gt, x, lo_b)?;
                    let below = self.cmp(ComparisonDirection::Lt, x, hi_b)?;
                    let inside = self.bin(O::And, above, below)?;
                    let r = self.where_(inside, g)?;
                    self.accumulate((ops[1], None), r)?;
                }
                if self.on_path.contains(&ops[0]) {
                    let over = self.cmp(ComparisonDirection::Gt, lo_b, x)?;
                    let ok = self.cmp(ComparisonDirection::Lt, lo_b, hi_b)?;
                    let both = self.bin(O::And, over, ok)?;
                    let r = self.where_(both, g)?;
                    self.accumulate((ops[0], None), r)?;
                }
                if self.on_path.contains(&ops[2]) {
                    let under = self.cmp(ComparisonDirection::Lt, hi_b, x)?;
                    let r = self.where_(under, g)?;
                    self.accumulate((ops[2], None), r)?;
                }
            }
            O::Broadcast => {
                let Attrs::Dimensions(map) = &inst.attrs else { unreachable!("verified broadcast") };
                let out_rank = self.array(id).rank() as i64;
                let reduced: Vec<i64> = (0..out_rank).filter(|d| !map.contains(d)).collect();
                let mut r = self.sum(g, &reduced)?;
                let mut sorted: Vec<i64> = map.to_vec();
                sorted.sort_unstable();
                if sorted != map.as_slice() {
                    let perm: Vec<i64> =
                        map.iter().map(|d| sorted.iter().position(|s| s == d).expect("a mapped dim") as i64).collect();
                    r = self.b.transpose(r, &perm).map_err(broken)?;
                }
                self.accumulate((ops[0], None), r)?;
            }
            O::Reshape | O::Bitcast => {
                let dims = self.array(ops[0]).dims.clone();
                let r = self.b.reshape(g, &dims).map_err(broken)?;
                self.accumulate((ops[0], None), r)?;
            }
            O::Transpose => {
                let Attrs::Dimensions(perm) = &inst.attrs else { unreachable!("verified transpose") };
                let mut inv = vec![0i64; perm.len()];
                for (i, &p) in perm.iter().enumerate() {
                    inv[p as usize] = i as i64;
                }
                let r = self.b.transpose(g, &inv).map_err(broken)?;
                self.accumulate((ops[0], None), r)?;
            }
            O::Reverse => {
                let Attrs::Dimensions(dims) = &inst.attrs else { unreachable!("verified reverse") };
                let r = self.b.reverse(g, dims).map_err(broken)?;
                self.accumulate((ops[0], None), r)?;
            }
            O::Slice => {
                let Attrs::Slice(sl) = &inst.attrs else { unreachable!("verified slice") };
                let in_dims = &self.array(ops[0]).dims;
                let out_dims = &self.array(id).dims;
                let pads: Vec<PadDim> = sl
                    .iter()
                    .zip(in_dims.iter().zip(out_dims))
                    .map(|(s, (&n, &k))| {
                        let last = if k == 0 { s.start } else { s.start + (k - 1) * s.stride + 1 };
                        PadDim { low: s.start, high: n - last, interior: if k == 0 { 0 } else { s.stride - 1 } }
                    })
                    .collect();
                let zero = self.scalar(self.array(id).dtype, 0.0)?;
                let r = self.b.pad(g, zero, &pads).map_err(broken)?;
                self.accumulate((ops[0], None), r)?;
            }
            O::Pad => {
                let Attrs::Pad(cfg) = &inst.attrs else { unreachable!("verified pad") };
                let unpad: Vec<PadDim> =
                    cfg.iter().map(|p| PadDim { low: -p.low, high: -p.high, interior: 0 }).collect();
                let zero = self.scalar(self.array(id).dtype, 0.0)?;
                let u = self.b.pad(g, zero, &unpad).map_err(broken)?;
                let ud = self.new_array(u)?.dims;
                let starts = vec![0; ud.len()];
                let strides: Vec<i64> = cfg.iter().map(|p| p.interior + 1).collect();
                let gx = self.b.slice(u, &starts, &ud, &strides).map_err(broken)?;
                if self.on_path.contains(&ops[1]) {
                    let rank: Vec<i64> = (0..ud.len() as i64).collect();
                    let tg = self.sum(g, &rank)?;
                    let tx = self.sum(gx, &rank)?;
                    let r = self.bin(O::Subtract, tg, tx)?;
                    self.accumulate((ops[1], None), r)?;
                }
                self.accumulate((ops[0], None), gx)?;
            }
            O::Concatenate => {
                let Attrs::Concatenate { dimension } = inst.attrs else { unreachable!("verified concatenate") };
                let out = self.array(id).dims.clone();
                let mut at = 0;
                for &o in ops.iter() {
                    let n = self.array(o).dims[dimension as usize];
                    if self.on_path.contains(&o) {
                        let mut starts = vec![0; out.len()];
                        let mut limits = out.to_vec();
                        starts[dimension as usize] = at;
                        limits[dimension as usize] = at + n;
                        let r = self.b.slice(g, &starts, &limits, &vec![1; out.len()]).map_err(broken)?;
                        self.accumulate((o, None), r)?;
                    }
                    at += n;
                }
            }
            O::DynamicSlice => {
                let starts: Vec<InstId> = ops[1..].iter().map(|&o| self.x(o)).collect();
                let z = self.zeros(self.array(ops[0]))?;
                let r = self.b.dynamic_update_slice(z, g, &starts).map_err(broken)?;
                self.accumulate((ops[0], None), r)?;
            }
            O::DynamicUpdateSlice => {
                let starts: Vec<InstId> = ops[2..].iter().map(|&o| self.x(o)).collect();
                if self.on_path.contains(&ops[0]) {
                    let z = self.zeros(self.array(ops[1]))?;
                    let r = self.b.dynamic_update_slice(g, z, &starts).map_err(broken)?;
                    self.accumulate((ops[0], None), r)?;
                }
                if self.on_path.contains(&ops[1]) {
                    let sizes = self.array(ops[1]).dims.clone();
                    let r = self.b.dynamic_slice(g, &starts, &sizes).map_err(broken)?;
                    self.accumulate((ops[1], None), r)?;
                }
            }
            O::Reduce => self.transpose_reduce(id, g)?,
            O::ReduceWindow => self.transpose_reduce_window(id, g)?,
            O::Dot => self.transpose_dot(id, g)?,
            O::Convolution => self.transpose_convolution(id, g)?,
            O::Gather => self.transpose_gather(id, g)?,
            O::Scatter => self.transpose_scatter(id, g)?,
            O::Sort if self.sorts.contains_key(&id) => self.transpose_sort(id)?,
            O::Conditional if self.conds.contains_key(&id) => {
                let plan = &self.conds[&id];
                self.transpose_conditional(id, plan)?;
            }
            O::GetTupleElement => {
                let Attrs::GetTupleElement { index } = inst.attrs else { unreachable!("verified get-tuple-element") };
                self.accumulate((ops[0], Some(index as usize)), g)?;
            }
            _ => return Err(self.refuse(inst, "no gradient rule for this opcode yet")),
        }
        Ok(())
    }

    /// `v` (a scalar or an array of `dims`) as an array of `dims`.
    pub(super) fn like_result(&mut self, v: InstId, dims: &[i64]) -> Result<InstId> {
        if self.new_array(v)?.rank() == 0 && !dims.is_empty() {
            self.b.broadcast(v, dims, &[]).map_err(broken)
        } else {
            Ok(v)
        }
    }

    pub(super) fn transpose_tuple(&mut self, id: InstId) -> Result<()> {
        let inst = self.f.inst(id);
        if let Some(plan) = self.loops.get(&id) {
            return self.transpose_loop(id, plan);
        }
        if let Some(plan) = self.conds.get(&id) {
            return self.transpose_conditional(id, plan);
        }
        if self.sorts.contains_key(&id) {
            return self.transpose_sort(id);
        }
        match inst.opcode {
            Opcode::Parameter => Ok(()),
            Opcode::Tuple => {
                for (i, &o) in inst.operands.iter().enumerate() {
                    if let Some(&g) = self.ct.get(&(id, Some(i))) {
                        if self.f.inst(o).shape.is_tuple() {
                            return Err(self.refuse(inst, "nested tuples are not differentiated yet"));
                        }
                        self.accumulate((o, None), g)?;
                    }
                }
                Ok(())
            }
            _ if !self.ct.keys().any(|&(i, _)| i == id) => Ok(()),
            _ => Err(self.refuse(inst, "no gradient rule for this tuple-shaped opcode yet")),
        }
    }

    /// The binary opcode `reducer` applies to its two parameters, if it is one.
    pub(super) fn reducer_op(&self, reducer: CompId) -> Option<Opcode> {
        let c = &self.comps[reducer];
        let root = c.root_inst();
        let params: Vec<Option<u32>> = root.operands.iter().map(|&o| c.inst(o).parameter_number()).collect();
        let simple = root.operands.len() == 2 && (params == [Some(0), Some(1)] || params == [Some(1), Some(0)]);
        simple.then_some(root.opcode)
    }

    pub(super) fn transpose_reduce(&mut self, id: InstId, g: InstId) -> Result<()> {
        let inst = self.f.inst(id);
        let (x, init) = (inst.operands[0], inst.operands[1]);
        let Attrs::Dimensions(dims) = &inst.attrs else { unreachable!("verified reduce") };
        let xs = self.array(x);
        let kept: Vec<i64> = (0..xs.rank() as i64).filter(|d| !dims.contains(d)).collect();
        match self.reducer_op(inst.called[0]) {
            Some(Opcode::Add) => {
                let r = self.b.broadcast(g, &xs.dims, &kept).map_err(broken)?;
                self.accumulate((x, None), r)?;
                self.accumulate((init, None), g)?;
            }
            Some(Opcode::Maximum | Opcode::Minimum) => {
                if self.on_path.contains(&init) {
                    return Err(self.refuse(inst, "a max/min reduction's initial value has no gradient rule"));
                }
                // Ties share the cotangent evenly (JAX's chooser rule).
                let yb = self.b.broadcast(self.x(id), &xs.dims, &kept).map_err(broken)?;
                let is = self.cmp(ComparisonDirection::Eq, self.x(x), yb)?;
                let ind = self.indicator(is, xs.dtype)?;
                let counts = self.sum(ind, dims)?;
                let q = self.bin(Opcode::Divide, g, counts)?;
                let qb = self.b.broadcast(q, &xs.dims, &kept).map_err(broken)?;
                let r = self.mul(qb, ind)?;
                self.accumulate((x, None), r)?;
            }
            Some(Opcode::Multiply) => {
                if self.on_path.contains(&init) {
                    return Err(self.refuse(inst, "a product's initial value has no gradient rule"));
                }
                self.transpose_product(id, g)?;
            }
            _ => return Err(self.refuse(inst, "only sum, product, max and min reductions have gradient rules yet")),
        }
        Ok(())
    }

    pub(super) fn transpose_reduce_window(&mut self, id: InstId, g: InstId) -> Result<()> {
        let inst = self.f.inst(id);
        let (x, init) = (inst.operands[0], inst.operands[1]);
        let Attrs::Window(w) = &inst.attrs else { unreachable!("verified reduce-window") };
        if self.on_path.contains(&init) {
            return Err(self.refuse(inst, "a windowed reduction's initial value has no gradient rule"));
        }
        let xs = self.array(x);
        let out = self.array(id);
        match self.reducer_op(inst.called[0]) {
            Some(Opcode::Add) => {
                // Pad the cotangent (strides become interior padding), then sum it
                // over the same window (JAX's reduce_window_sum transpose).
                let pads = vjp_lhs_padding(w, &xs.dims, &out.dims);
                let cfg: Vec<PadDim> = pads
                    .iter()
                    .zip(&w.dims)
                    .map(|(&(lo, hi), d)| PadDim { low: lo, high: hi, interior: d.stride - 1 })
                    .collect();
                let zero = self.scalar(out.dtype, 0.0)?;
                let padded = self.b.pad(g, zero, &cfg).map_err(broken)?;
                let window = Window {
                    dims: w
                        .dims
                        .iter()
                        .map(|d| WindowDim {
                            size: d.size,
                            stride: d.base_dilation,
                            pad_low: 0,
                            pad_high: 0,
                            window_dilation: d.window_dilation,
                            base_dilation: 1,
                            reversal: false,
                        })
                        .collect(),
                };
                let add = self.adders[&out.dtype];
                let zero = self.scalar(out.dtype, 0.0)?;
                let r = self
                    .b
                    .add_instruction(Opcode::ReduceWindow, &[padded, zero], Attrs::Window(window), &[add], None)
                    .map_err(broken)?;
                if self.new_array(r)?.dims != xs.dims {
                    return Err(self.refuse(inst, "this window's sum gradient does not map back onto its operand"));
                }
                self.accumulate((x, None), r)?;
            }
            Some(op @ (Opcode::Maximum | Opcode::Minimum)) => {
                if w.dims.iter().any(|d| d.base_dilation != 1 || d.window_dilation != 1) {
                    return Err(self.refuse(inst, "max/min windows with dilation have no gradient rule yet"));
                }
                // The cotangent goes to the first maximal (minimal) element of
                // each window.
                let zero = self.scalar(out.dtype, 0.0)?;
                let d = if op == Opcode::Maximum { ComparisonDirection::Ge } else { ComparisonDirection::Le };
                let select = self.selectors[&(out.dtype, d)];
                let add = self.adders[&out.dtype];
                let r = self
                    .b
                    .add_instruction(
                        Opcode::SelectAndScatter,
                        &[self.x(x), g, zero],
                        Attrs::Window(w.clone()),
                        &[select, add],
                        None,
                    )
                    .map_err(broken)?;
                self.accumulate((x, None), r)?;
            }
            _ => return Err(self.refuse(inst, "only sum, max and min windows have gradient rules yet")),
        }
        Ok(())
    }

    pub(super) fn transpose_dot(&mut self, id: InstId, g: InstId) -> Result<()> {
        let inst = self.f.inst(id);
        let Attrs::Dot(d) = &inst.attrs else { unreachable!("verified dot") };
        let (l, r) = (inst.operands[0], inst.operands[1]);
        if self.on_path.contains(&l) {
            let gl = self.dot_transpose_lhs(g, l, r, d, false)?;
            self.accumulate((l, None), gl)?;
        }
        if self.on_path.contains(&r) {
            let swapped = DotDims {
                lhs_batch: d.rhs_batch.clone(),
                rhs_batch: d.lhs_batch.clone(),
                lhs_contracting: d.rhs_contracting.clone(),
                rhs_contracting: d.lhs_contracting.clone(),
            };
            let gr = self.dot_transpose_lhs(g, r, l, &swapped, true)?;
            self.accumulate((r, None), gr)?;
        }
        Ok(())
    }

    /// The cotangent of `x` in `dot(x, y)` (or `dot(y, x)` when `swap`), JAX's
    /// `_dot_general_transpose_lhs`.
    pub(super) fn dot_transpose_lhs(
        &mut self,
        g: InstId,
        x: InstId,
        y: InstId,
        d: &DotDims,
        swap: bool,
    ) -> Result<InstId> {
        let xr = self.array(x).rank() as i64;
        let yr = self.array(y).rank() as i64;
        let x_dtype = self.array(x).dtype;
        let y_dtype = self.array(y).dtype;
        let x_kept: Vec<i64> = (0..xr).filter(|i| !d.lhs_contracting.contains(i) && !d.lhs_batch.contains(i)).collect();
        let y_kept: Vec<i64> = (0..yr).filter(|i| !d.rhs_contracting.contains(i) && !d.rhs_batch.contains(i)).collect();
        let nb = d.lhs_batch.len() as i64;
        let ans_batch: Vec<i64> = (0..nb).collect();
        let ans_y: Vec<i64> = if swap {
            (nb..nb + y_kept.len() as i64).collect()
        } else {
            let s = nb + x_kept.len() as i64;
            (s..s + y_kept.len() as i64).collect()
        };
        let dims = DotDims {
            lhs_batch: ans_batch.into_iter().collect(),
            rhs_batch: d.rhs_batch.clone(),
            lhs_contracting: ans_y.into_iter().collect(),
            rhs_contracting: y_kept.iter().copied().collect(),
        };
        let mut by_y: Vec<(i64, i64)> =
            d.rhs_contracting.iter().copied().zip(d.lhs_contracting.iter().copied()).collect();
        by_y.sort_unstable();
        let order: Vec<i64> =
            d.lhs_batch.iter().copied().chain(x_kept.iter().copied()).chain(by_y.iter().map(|&(_, xc)| xc)).collect();
        let mut out_axes: Vec<i64> = (0..order.len() as i64).collect();
        out_axes.sort_by_key(|&i| order[i as usize]);
        let g = if self.new_array(g)?.dtype != y_dtype { self.b.convert(g, y_dtype).map_err(broken)? } else { g };
        let p = self.b.dot(g, self.x(y), dims, Some(x_dtype)).map_err(broken)?;
        if out_axes.iter().enumerate().all(|(i, &a)| a == i as i64) {
            Ok(p)
        } else {
            self.b.transpose(p, &out_axes).map_err(broken)
        }
    }

    pub(super) fn transpose_convolution(&mut self, id: InstId, g: InstId) -> Result<()> {
        let inst = self.f.inst(id);
        let Attrs::Convolution(c) = &inst.attrs else { unreachable!("verified convolution") };
        if c.batch_group_count != 1 {
            return Err(self.refuse(inst, "convolutions with batch_group_count > 1 have no gradient rule yet"));
        }
        if c.window.dims.iter().any(|w| w.reversal) {
            return Err(self.refuse(inst, "reversed convolution windows have no gradient rule yet"));
        }
        let (l, r) = (inst.operands[0], inst.operands[1]);
        if self.on_path.contains(&l) {
            let gl = self.conv_transpose_lhs(g, l, r, c)?;
            self.accumulate((l, None), gl)?;
        }
        if self.on_path.contains(&r) {
            let gr = self.conv_transpose_rhs(g, l, r, c)?;
            self.accumulate((r, None), gr)?;
        }
        Ok(())
    }

    /// JAX's `_conv_general_dilated_transpose_lhs` (batch_group_count 1).
    pub(super) fn conv_transpose_lhs(&mut self, g: InstId, lhs: InstId, rhs: InstId, c: &ConvAttrs) -> Result<InstId> {
        let d = &c.dims;
        let ls = self.array(lhs).clone();
        let mut kernel = self.x(rhs);
        let groups = c.feature_group_count;
        if groups > 1 {
            kernel = self.reshape_axis_out_of(d.kernel_output_feature, groups, kernel)?;
            kernel = self.reshape_axis_into(d.kernel_output_feature, d.kernel_input_feature, kernel)?;
        }
        let ks = self.new_array(kernel)?;
        let gs = self.new_array(g)?;
        let sizes: Vec<i64> = d.kernel_spatial.iter().map(|&k| ks.dims[k as usize]).collect();
        let input: Vec<i64> = d.input_spatial.iter().map(|&i| ls.dims[i as usize]).collect();
        let output: Vec<i64> = d.output_spatial.iter().map(|&o| gs.dims[o as usize]).collect();
        let pads = vjp_lhs_padding(&c.window, &input, &output);
        let reversed = self.b.reverse(kernel, &d.kernel_spatial).map_err(broken)?;
        let window = Window {
            dims: c
                .window
                .dims
                .iter()
                .zip(&sizes)
                .zip(&pads)
                .map(|((w, &size), &(lo, hi))| WindowDim {
                    size,
                    stride: w.base_dilation,
                    pad_low: lo,
                    pad_high: hi,
                    window_dilation: w.window_dilation,
                    base_dilation: w.stride,
                    reversal: false,
                })
                .collect(),
        };
        let dims = ConvDims {
            input_batch: d.output_batch,
            input_feature: d.output_feature,
            input_spatial: d.output_spatial.clone(),
            kernel_input_feature: d.kernel_output_feature,
            kernel_output_feature: d.kernel_input_feature,
            kernel_spatial: d.kernel_spatial.clone(),
            output_batch: d.input_batch,
            output_feature: d.input_feature,
            output_spatial: d.input_spatial.clone(),
        };
        let attrs = ConvAttrs { window, dims, feature_group_count: groups, batch_group_count: 1 };
        let shape = Shape::array(ls.dtype, &ls.dims);
        self.b
            .add_instruction(Opcode::Convolution, &[g, reversed], Attrs::Convolution(Box::new(attrs)), &[], Some(shape))
            .map_err(broken)
    }

    /// JAX's `_conv_general_dilated_transpose_rhs` (batch_group_count 1).
    pub(super) fn conv_transpose_rhs(&mut self, g: InstId, lhs: InstId, rhs: InstId, c: &ConvAttrs) -> Result<InstId> {
        let d = &c.dims;
        let ls = self.array(lhs);
        let ks = self.array(rhs);
        let gs = self.new_array(g)?;
        let out_sizes: Vec<i64> = d.output_spatial.iter().map(|&o| gs.dims[o as usize]).collect();
        let input: Vec<i64> = d.input_spatial.iter().map(|&i| ls.dims[i as usize]).collect();
        let pads = vjp_rhs_padding(&c.window, &input, &out_sizes);
        let window = Window {
            dims: c
                .window
                .dims
                .iter()
                .zip(&out_sizes)
                .zip(&pads)
                .map(|((w, &size), &(lo, hi))| WindowDim {
                    size,
                    stride: w.window_dilation,
                    pad_low: lo,
                    pad_high: hi,
                    window_dilation: w.stride,
                    base_dilation: w.base_dilation,
                    reversal: false,
                })
                .collect(),
        };
        let dims = ConvDims {
            input_batch: d.input_feature,
            input_feature: d.input_batch,
            input_spatial: d.input_spatial.clone(),
            kernel_input_feature: d.output_batch,
            kernel_output_feature: d.output_feature,
            kernel_spatial: d.output_spatial.clone(),
            output_batch: d.kernel_input_feature,
            output_feature: d.kernel_output_feature,
            output_spatial: d.kernel_spatial.clone(),
        };
        let attrs = ConvAttrs { window, dims, feature_group_count: 1, batch_group_count: c.feature_group_count };
        let shape = Shape::array(ks.dtype, &ks.dims);
        self.b
            .add_instruction(
                Opcode::Convolution,
                &[self.x(lhs), g],
                Attrs::Convolution(Box::new(attrs)),
                &[],
                Some(shape),
            )
            .map_err(broken)
    }

    /// Gather's cotangent scattered (added) back into zeros at the same start
    /// indices, clamped as gather clamps them (JAX's gather transpose).
    pub(super) fn transpose_gather(&mut self, id: InstId, g: InstId) -> Result<()> {
        let inst = self.f.inst(id);
        let Attrs::Gather(ga) = &inst.attrs else { unreachable!("verified gather") };
        let (x, idx) = (inst.operands[0], inst.operands[1]);
        let xs = self.array(x);
        let windows: Vec<i64> = xs.dims.iter().zip(&ga.slice_sizes).map(|(&n, &s)| n - s).collect();
        let (clamped, _) = self.clamp_starts(idx, ga.index_vector_dim, &ga.start_index_map, &windows)?;
        let zeros = self.zeros(xs)?;
        let sa = ScatterAttrs {
            update_window_dims: ga.offset_dims.clone(),
            inserted_window_dims: ga.collapsed_slice_dims.clone(),
            scatter_dims_to_operand_dims: ga.start_index_map.clone(),
            input_batching_dims: ga.operand_batching_dims.clone(),
            scatter_indices_batching_dims: ga.start_indices_batching_dims.clone(),
            index_vector_dim: ga.index_vector_dim,
            indices_are_sorted: ga.indices_are_sorted,
            unique_indices: false,
        };
        let add = self.adders[&xs.dtype];
        let r = self
            .b
            .add_instruction(Opcode::Scatter, &[zeros, clamped, g], Attrs::Scatter(Box::new(sa)), &[add], None)
            .map_err(broken)?;
        self.accumulate((x, None), r)
    }

    /// A scatter's cotangent. Adding: all of it to the operand; replacing (at
    /// unique indices): the operand's minus what was overwritten. The updates
    /// get the windows they went into (gathered), zero for windows scatter
    /// skipped as out of bounds.
    pub(super) fn transpose_scatter(&mut self, id: InstId, g: InstId) -> Result<()> {
        let inst = self.f.inst(id);
        let Attrs::Scatter(sa) = &inst.attrs else { unreachable!("verified scatter") };
        let combiner = &self.comps[inst.called[0]];
        let replaces = combiner.root_inst().parameter_number() == Some(1);
        let adds = self.reducer_op(inst.called[0]) == Some(Opcode::Add);
        if inst.operands.len() != 3 || !(adds || replaces && sa.unique_indices) {
            return Err(self.refuse(
                inst,
                "only single-operand scatters that add, or replace at unique indices, have gradient rules yet",
            ));
        }
        let (x, idx, u) = (inst.operands[0], inst.operands[1], inst.operands[2]);
        let us = self.array(u);
        if adds {
            self.accumulate((x, None), g)?;
        } else if self.on_path.contains(&x) {
            // What was overwritten gets nothing: zeros scattered over the cotangent.
            let z = self.zeros(us)?;
            let r = self
                .b
                .add_instruction(Opcode::Scatter, &[g, self.x(idx), z], inst.attrs.clone(), &inst.called, None)
                .map_err(broken)?;
            self.accumulate((x, None), r)?;
        }
        if !self.on_path.contains(&u) {
            return Ok(());
        }
        let xs = self.array(x);
        let mut slice_sizes = Vec::with_capacity(xs.rank());
        let mut pos = 0;
        for i in 0..xs.rank() as i64 {
            if sa.inserted_window_dims.contains(&i) || sa.input_batching_dims.contains(&i) {
                slice_sizes.push(1);
            } else {
                slice_sizes.push(us.dims[sa.update_window_dims[pos] as usize]);
                pos += 1;
            }
        }
        let windows: Vec<i64> = xs.dims.iter().zip(&slice_sizes).map(|(&n, &s)| n - s).collect();
        let (clamped, inside) =
            self.clamp_starts(idx, sa.index_vector_dim, &sa.scatter_dims_to_operand_dims, &windows)?;
        let ga = GatherAttrs {
            offset_dims: sa.update_window_dims.clone(),
            collapsed_slice_dims: sa.inserted_window_dims.clone(),
            start_index_map: sa.scatter_dims_to_operand_dims.clone(),
            operand_batching_dims: sa.input_batching_dims.clone(),
            start_indices_batching_dims: sa.scatter_indices_batching_dims.clone(),
            index_vector_dim: sa.index_vector_dim,
            slice_sizes: slice_sizes.into_iter().collect(),
            indices_are_sorted: sa.indices_are_sorted,
        };
        let gathered = self
            .b
            .add_instruction(Opcode::Gather, &[g, clamped], Attrs::Gather(Box::new(ga)), &[], None)
            .map_err(broken)?;
        // `inside` has the update's scatter (non-window) dimensions, in order.
        let batch: Vec<i64> = (0..us.rank() as i64).filter(|d| !sa.update_window_dims.contains(d)).collect();
        let mask = self.b.broadcast(inside, &us.dims, &batch).map_err(broken)?;
        let r = self.where_(mask, gathered)?;
        self.accumulate((u, None), r)
    }

    /// The start indices `idx` (index vectors along `ivd`, component `k` for
    /// operand dimension `map[k]`) clamped into `[0, limits[map[k]]]` as gather
    /// clamps them, and whether each index vector was inside already (the
    /// windows scatter applies), shaped as `idx` without `ivd`.
    pub(super) fn clamp_starts(
        &mut self,
        idx: InstId,
        ivd: i64,
        map: &[i64],
        limits: &[i64],
    ) -> Result<(InstId, InstId)> {
        let is = self.array(idx).clone();
        let bounds: Vec<f64> = map.iter().map(|&d| limits[d as usize] as f64).collect();
        let x = self.x(idx);
        let lit = Array::new([bounds.len() as i64], ArrayData::from_f64(is.dtype, bounds.iter().copied()));
        let upper = self.b.constant(Literal::Array(lit)).map_err(broken)?;
        let upper = if ivd as usize == is.rank() {
            let s = self.b.reshape(upper, &[]).map_err(broken)?;
            self.b.broadcast(s, &is.dims, &[]).map_err(broken)?
        } else {
            self.b.broadcast(upper, &is.dims, &[ivd]).map_err(broken)?
        };
        let zero = self.full(is.dtype, 0.0, &is.dims)?;
        let clamped = self.b.clamp(zero, x, upper).map_err(broken)?;
        let same = self.cmp(ComparisonDirection::Eq, clamped, x)?;
        let inside = if ivd as usize == is.rank() {
            same
        } else {
            let t = self.b.constant(Literal::Array(Array::scalar(true))).map_err(broken)?;
            let and = self.and_reducer.expect("made when the program gathers or scatters");
            self.b.reduce(&[same], &[t], &[ivd], and).map_err(broken)?
        };
        Ok((clamped, inside))
    }

    /// Splits axis `src` of `x` into `(size1, n / size1)`.
    pub(super) fn reshape_axis_out_of(&mut self, src: i64, size1: i64, x: InstId) -> Result<InstId> {
        let mut dims = self.new_array(x)?.dims.to_vec();
        let n = dims[src as usize];
        dims.splice(src as usize..=src as usize, [size1, n / size1]);
        self.b.reshape(x, &dims).map_err(broken)
    }

    /// Merges axis `src` of `x` into axis `dst` (numbered without `src`) as its
    /// major part.
    pub(super) fn reshape_axis_into(&mut self, src: i64, dst: i64, x: InstId) -> Result<InstId> {
        let dims = self.new_array(x)?.dims.to_vec();
        let mut perm: Vec<i64> = (0..dims.len() as i64).filter(|&i| i != src).collect();
        perm.insert(dst as usize, src);
        let mut shape: Vec<i64> = dims.iter().enumerate().filter(|&(i, _)| i as i64 != src).map(|(_, &d)| d).collect();
        shape[dst as usize] *= dims[src as usize];
        let t = self.b.transpose(x, &perm).map_err(broken)?;
        self.b.reshape(t, &shape).map_err(broken)
    }
    /// A product's cotangent: `g` times the product of the other elements,
    /// from exclusive running products on either side (no division, so zeros
    /// are exact; JAX's rule).
    pub(super) fn transpose_product(&mut self, id: InstId, g: InstId) -> Result<()> {
        let inst = self.f.inst(id);
        let x = inst.operands[0];
        let Attrs::Dimensions(dims) = &inst.attrs else { unreachable!("verified reduce") };
        let xs = self.array(x).clone();
        let mut reduced: Vec<i64> = dims.to_vec();
        reduced.sort_unstable();
        let kept: Vec<i64> = (0..xs.rank() as i64).filter(|d| !reduced.contains(d)).collect();
        let perm: Vec<i64> = reduced.iter().chain(&kept).copied().collect();
        let n: i64 = reduced.iter().map(|&d| xs.dims[d as usize]).product();
        let m: i64 = kept.iter().map(|&d| xs.dims[d as usize]).product();
        let xt = self.b.transpose(self.x(x), &perm).map_err(broken)?;
        let moved = self.new_array(xt)?.dims;
        let x2 = self.b.reshape(xt, &[n, m]).map_err(broken)?;
        let one = self.scalar(xs.dtype, 1.0)?;
        let mul = self.multipliers[&xs.dtype];
        let running = |bw: &mut Self, low: i64, high: i64| -> Result<InstId> {
            let w = |size: i64, lo: i64, hi: i64| WindowDim {
                size,
                stride: 1,
                pad_low: lo,
                pad_high: hi,
                window_dilation: 1,
                base_dilation: 1,
                reversal: false,
            };
            let window = Window { dims: vec![w(n, low, high), w(1, 0, 0)] };
            bw.b.add_instruction(Opcode::ReduceWindow, &[x2, one], Attrs::Window(window), &[mul], None).map_err(broken)
        };
        // Before element i: x[0..i]; after it: x[i+1..n].
        let before = running(self, n, -1)?;
        let after = running(self, -1, n)?;
        let others = self.mul(before, after)?;
        let gm = self.b.reshape(g, &[m]).map_err(broken)?;
        let gb = self.b.broadcast(gm, &[n, m], &[1]).map_err(broken)?;
        let r = self.mul(gb, others)?;
        let r = self.b.reshape(r, &moved).map_err(broken)?;
        let mut inv = vec![0i64; perm.len()];
        for (i, &p) in perm.iter().enumerate() {
            inv[p as usize] = i as i64;
        }
        let r = self.b.transpose(r, &inv).map_err(broken)?;
        self.accumulate((x, None), r)
    }
}

pub(super) fn dilate(n: i64, d: i64) -> i64 {
    if n == 0 { 0 } else { 1 + d * (n - 1) }
}

/// Per window dimension: the dimension, and the input, window and output
/// extents dilated (by the base dilation, the window dilation and the stride).
fn dilated<'w>(
    w: &'w Window,
    input: &'w [i64],
    output: &'w [i64],
) -> impl Iterator<Item = (&'w WindowDim, i64, i64, i64)> {
    w.dims.iter().enumerate().map(|(i, d)| {
        (d, dilate(input[i], d.base_dilation), dilate(d.size, d.window_dilation), dilate(output[i], d.stride))
    })
}

/// The padding of the cotangent's convolution (or window sum) that gives the
/// operand's gradient: JAX's `_conv_general_vjp_lhs_padding`. `input` and
/// `output` are the spatial extents of the forward operand and result.
pub(super) fn vjp_lhs_padding(w: &Window, input: &[i64], output: &[i64]) -> Vec<(i64, i64)> {
    dilated(w, input, output)
        .map(|(d, lhs, rhs, out)| {
            let before = rhs - d.pad_low - 1;
            (before, lhs + rhs - 1 - out - before)
        })
        .collect()
}

/// JAX's `_conv_general_vjp_rhs_padding` (the kernel's gradient).
pub(super) fn vjp_rhs_padding(w: &Window, input: &[i64], output: &[i64]) -> Vec<(i64, i64)> {
    dilated(w, input, output).map(|(d, lhs, rhs, out)| (d.pad_low, out - lhs + rhs - d.pad_low - 1)).collect()
}
