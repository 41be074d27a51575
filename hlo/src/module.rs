//! Modules: computations, the entry, and module-level configuration.

use std::collections::{HashMap, HashSet};

use crate::computation::Computation;
use crate::id::{Arena, SecondaryMap};
use crate::instruction::CompId;
use crate::shape::Shape;

/// `entry_computation_layout={(p0, p1)->result}`.
#[derive(Clone, Debug, PartialEq)]
pub struct ComputationLayout {
    pub params: Vec<Shape>,
    pub result: Shape,
}

/// Aliasing kind of an `input_output_alias` entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AliasKind {
    MayAlias,
    MustAlias,
}

impl AliasKind {
    pub fn name(self) -> &'static str {
        match self {
            AliasKind::MayAlias => "may-alias",
            AliasKind::MustAlias => "must-alias",
        }
    }
}

/// `{output_index}: (param, {param_index}, kind)`: the output may reuse (or must
/// reuse) the parameter's buffer, which the caller donated.
#[derive(Clone, Debug, PartialEq)]
pub struct IoAlias {
    pub output_index: Vec<i64>,
    pub param: u32,
    pub param_index: Vec<i64>,
    pub kind: AliasKind,
}

/// `(param, {param_index})` of `buffer_donor`.
#[derive(Clone, Debug, PartialEq)]
pub struct BufferDonor {
    pub param: u32,
    pub param_index: Vec<i64>,
}

/// Module header attributes.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ModuleConfig {
    pub entry_computation_layout: Option<ComputationLayout>,
    pub is_scheduled: bool,
    pub input_output_alias: Vec<IoAlias>,
    pub buffer_donor: Vec<BufferDonor>,
    /// Header attributes smelt does not model, `(name, value text)` in written order.
    pub unknown: Vec<(String, String)>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Module {
    pub name: String,
    pub comps: Arena<Computation>,
    pub entry: CompId,
    pub config: ModuleConfig,
}

impl Module {
    /// A module holding just `entry`.
    pub fn new(name: impl Into<String>, entry: Computation) -> Module {
        let mut comps = Arena::new();
        let entry = comps.alloc(entry);
        Module { name: name.into(), comps, entry, config: ModuleConfig::default() }
    }

    pub fn comp(&self, id: CompId) -> &Computation {
        &self.comps[id]
    }

    pub fn comp_mut(&mut self, id: CompId) -> &mut Computation {
        &mut self.comps[id]
    }

    pub fn entry(&self) -> &Computation {
        &self.comps[self.entry]
    }

    pub fn entry_mut(&mut self) -> &mut Computation {
        &mut self.comps[self.entry]
    }

    /// The computations' ids, collected, so the module can be changed while
    /// walking them.
    pub fn comp_ids(&self) -> Vec<CompId> {
        self.comps.ids().collect()
    }

    pub fn add_computation(&mut self, comp: Computation) -> CompId {
        self.comps.alloc(comp)
    }

    pub fn find_computation(&self, name: &str) -> Option<CompId> {
        self.comps.iter().find(|(_, c)| c.name == name).map(|(id, _)| id)
    }

    /// Computations callees first, the entry last; unreachable computations are
    /// included (before the entry) in id order.
    pub fn computation_post_order(&self) -> Vec<CompId> {
        let mut seen = SecondaryMap::with_default(self.comps.capacity(), false);
        let mut order = Vec::with_capacity(self.comps.len());
        let visit = |start: CompId, order: &mut Vec<CompId>, seen: &mut SecondaryMap<CompId, bool>| {
            let mut stack = vec![(start, false)];
            while let Some((id, expanded)) = stack.pop() {
                if expanded {
                    order.push(id);
                    continue;
                }
                if seen[id] {
                    continue;
                }
                seen[id] = true;
                stack.push((id, true));
                let callees = self.callees(id);
                for &c in callees.iter().rev() {
                    if self.comps.contains(c) && !seen[c] {
                        stack.push((c, false));
                    }
                }
            }
        };
        for id in self.comps.ids() {
            if id != self.entry && !seen[id] {
                visit(id, &mut order, &mut seen);
            }
        }
        // The entry goes last even if something (wrongly) calls it.
        order.retain(|&c| c != self.entry);
        order.push(self.entry);
        order
    }

    /// Computations directly called by `comp`, in instruction post order, deduplicated.
    pub fn callees(&self, comp: CompId) -> Vec<CompId> {
        let c = &self.comps[comp];
        let mut seen = HashSet::new();
        let mut out = Vec::new();
        for id in c.post_order() {
            for &callee in &c.insts[id].called {
                if seen.insert(callee) {
                    out.push(callee);
                }
            }
        }
        out
    }

    /// Computations reachable from the entry (the entry included).
    pub fn reachable_computations(&self) -> Vec<CompId> {
        let mut seen = HashSet::new();
        let mut stack = vec![self.entry];
        let mut out = Vec::new();
        while let Some(c) = stack.pop() {
            if !self.comps.contains(c) || !seen.insert(c) {
                continue;
            }
            out.push(c);
            stack.extend(self.callees(c));
        }
        out
    }

    /// Total live instructions over all computations.
    pub fn instruction_count(&self) -> usize {
        self.comps.iter().map(|(_, c)| c.insts.len()).sum()
    }

    /// Renumbers computations in print order and every computation's instructions in
    /// post order, dropping vacated slots.
    pub fn compact(&mut self) {
        let order = self.computation_post_order();
        let mut remap = SecondaryMap::with_default(self.comps.capacity(), None);
        for (i, &c) in order.iter().enumerate() {
            remap[c] = Some(CompId::from_index(i));
        }
        let mut comps = Arena::new();
        for &old in &order {
            let mut comp = self.comps.remove(old).expect("live computation");
            comp.compact();
            for (_, inst) in comp.insts.iter_mut() {
                for c in inst.called.iter_mut() {
                    *c = remap[*c].expect("called computation is live");
                }
            }
            comps.alloc(comp);
        }
        self.entry = remap[self.entry].expect("entry is live");
        self.comps = comps;
    }

    /// A name not used by any instruction or computation of the module, built from
    /// `base` (`add` -> `add.3`). For passes creating several names at once,
    /// [`NameUniquer`] is cheaper.
    pub fn unique_name(&self, base: &str) -> String {
        NameUniquer::new(self).make(base)
    }
}

/// Hands out names unused in a module.
#[derive(Debug)]
pub struct NameUniquer {
    used: HashSet<String>,
    /// Per stem, a number below which every `stem.N` is taken. Names are only
    /// ever added, so the smallest free number never goes down and the search
    /// resumes here instead of at 1 (fusing thousands of `add`s stays linear).
    next: HashMap<String, u64>,
}

impl NameUniquer {
    pub fn new(module: &Module) -> NameUniquer {
        let mut used = HashSet::new();
        for (_, c) in module.comps.iter() {
            used.insert(c.name.clone());
            for (_, i) in c.insts.iter() {
                used.insert(i.name.clone());
            }
        }
        NameUniquer { used, next: HashMap::new() }
    }

    /// `base` if unused, else `stem.N` for the smallest free `N` (`stem` is `base`
    /// without a trailing `.digits`).
    pub fn make(&mut self, base: &str) -> String {
        let base = if base.is_empty() { "v" } else { base };
        if self.used.insert(base.to_string()) {
            return base.to_string();
        }
        let stem = match base.rsplit_once('.') {
            Some((s, n)) if !s.is_empty() && n.chars().all(|c| c.is_ascii_digit()) => s,
            _ => base,
        };
        let mut n = self.next.get(stem).copied().unwrap_or(1);
        loop {
            let candidate = format!("{stem}.{n}");
            if self.used.insert(candidate.clone()) {
                self.next.insert(stem.to_string(), n + 1);
                return candidate;
            }
            n += 1;
        }
    }
}
