//! Compiled programs as data: [`CompiledObject`] is the object file LLVM emitted
//! plus everything [`crate::Executable`] needs to load it without the program
//! (its name, flattened parameter and result types, and the codegen facts of
//! `driver::ModuleInfo`).
//!
//! It exists so compiled code can outlive the process: `smelt-jit`'s persistent
//! cache stores [`CompiledObject::to_bytes`] and a later process calls
//! [`crate::load`] on [`CompiledObject::from_bytes`], skipping the middle end,
//! lowering and LLVM. The byte format is hand-written and versioned
//! ([`FORMAT_VERSION`]): little-endian integers, length-prefixed strings and
//! byte strings, in the field order of [`CompiledObject::to_bytes`]. Reading
//! checks every length against what is left, so a truncated or corrupt payload is
//! an error, never a panic. Whether the object matches this CPU and this build
//! of smelt is the caller's business (the cache key covers both).

use smelt_hlo::DType;
use smelt_kernel::{ArrayType, StepWork, WorkClass};

use crate::driver::ModuleInfo;
use crate::error::{CpuError, Result};

/// Version of the [`CompiledObject::to_bytes`] layout; bump on any change.
pub const FORMAT_VERSION: u32 = 3;

/// An object file and what loading it needs.
#[derive(Clone, Debug)]
pub struct CompiledObject {
    /// The program's name.
    pub name: String,
    /// Flattened entry parameters.
    pub params: Vec<ArrayType>,
    /// Flattened entry results.
    pub results: Vec<ArrayType>,
    /// The ELF (or host format) object defining `smelt_run`.
    pub object: Vec<u8>,
    /// Objects of the shared GEMM routines `object` calls (`routines.rs`),
    /// linked beside it.
    pub routines: Vec<Vec<u8>>,
    pub(crate) info: ModuleInfo,
}

impl CompiledObject {
    /// Whether convolutions run on the generic routine until their
    /// specialized routines exist ([`crate::ConvMode::Auto`]): worth
    /// compiling again rather than keeping.
    pub fn provisional(&self) -> bool {
        !self.info.generic_convs.is_empty()
    }

    /// The serialized form (see the module comment).
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut w = Writer(Vec::with_capacity(self.object.len() + 256));
        w.u32(FORMAT_VERSION);
        w.str(&self.name);
        w.types(&self.params);
        w.types(&self.results);
        w.bytes(&self.object);
        w.u64(self.routines.len() as u64);
        for r in &self.routines {
            w.bytes(r);
        }
        let info = &self.info;
        w.u64(info.arena_bytes as u64);
        w.bools(&info.written_params);
        w.bools(&info.written_results);
        w.strs(&info.functions);
        w.strs(&info.profile_labels);
        w.u64(info.profile_work.len() as u64);
        for work in &info.profile_work {
            w.u32(work_class_code(work.class));
            w.u64(work.units.to_bits());
        }
        w.0
    }

    /// Reads [`CompiledObject::to_bytes`]'s output; any inconsistency (another
    /// format version, a length past the end, trailing bytes, an unknown element
    /// type) is [`CpuError::InvalidObject`].
    pub fn from_bytes(bytes: &[u8]) -> Result<CompiledObject> {
        let mut r = Reader(bytes);
        let version = r.u32()?;
        if version != FORMAT_VERSION {
            return Err(CpuError::InvalidObject(format!("format version {version}, expected {FORMAT_VERSION}")));
        }
        let name = r.str()?;
        let params = r.types()?;
        let results = r.types()?;
        let object = r.bytes()?.to_vec();
        let count = r.u64()?;
        if count > r.0.len() as u64 {
            return Err(bad("routine count"));
        }
        let mut routines = Vec::new();
        for _ in 0..count {
            routines.push(r.bytes()?.to_vec());
        }
        let arena_bytes = usize::try_from(r.u64()?).map_err(|_| bad("arena size"))?;
        let mut info = ModuleInfo {
            arena_bytes,
            written_params: r.bools()?,
            written_results: r.bools()?,
            functions: r.strs()?,
            profile_labels: r.strs()?,
            profile_work: Vec::new(),
            routines: Vec::new(),
            remote_entries: Vec::new(),
            kernel_functions: Vec::new(),
            remote_epilogues: Vec::new(),
            epilogue_functions: Vec::new(),
            generic_convs: Vec::new(),
            generic_conv_options: None,
        };
        let works = r.u64()?;
        if works > r.0.len() as u64 {
            return Err(bad("step work count"));
        }
        for _ in 0..works {
            let class = work_class_of(r.u32()?).ok_or_else(|| bad("step work class"))?;
            info.profile_work.push(StepWork { class, units: f64::from_bits(r.u64()?) });
        }
        if info.profile_work.len() != info.profile_labels.len() {
            return Err(bad("step profile"));
        }
        if !r.0.is_empty() {
            return Err(bad("trailing bytes"));
        }
        Ok(CompiledObject { name, params, results, object, routines, info })
    }
}

fn work_class_code(c: WorkClass) -> u32 {
    match c {
        WorkClass::Kernel => 0,
        WorkClass::Copy => 1,
        WorkClass::Product => 2,
        WorkClass::Sort => 3,
        WorkClass::Other => 4,
    }
}

fn work_class_of(code: u32) -> Option<WorkClass> {
    Some(match code {
        0 => WorkClass::Kernel,
        1 => WorkClass::Copy,
        2 => WorkClass::Product,
        3 => WorkClass::Sort,
        4 => WorkClass::Other,
        _ => return None,
    })
}

fn bad(what: &str) -> CpuError {
    CpuError::InvalidObject(format!("malformed {what}"))
}

struct Writer(Vec<u8>);

impl Writer {
    fn u32(&mut self, v: u32) {
        self.0.extend_from_slice(&v.to_le_bytes());
    }
    fn u64(&mut self, v: u64) {
        self.0.extend_from_slice(&v.to_le_bytes());
    }
    fn bytes(&mut self, b: &[u8]) {
        self.u64(b.len() as u64);
        self.0.extend_from_slice(b);
    }
    fn str(&mut self, s: &str) {
        self.bytes(s.as_bytes());
    }
    fn strs(&mut self, v: &[String]) {
        self.u64(v.len() as u64);
        v.iter().for_each(|s| self.str(s));
    }
    fn bools(&mut self, v: &[bool]) {
        let b: Vec<u8> = v.iter().map(|&x| x as u8).collect();
        self.bytes(&b);
    }
    fn types(&mut self, v: &[ArrayType]) {
        self.u64(v.len() as u64);
        for t in v {
            self.str(t.dtype.name());
            self.u64(t.dims.len() as u64);
            t.dims.iter().for_each(|&d| self.u64(d as u64));
        }
    }
}

struct Reader<'a>(&'a [u8]);

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Result<&'a [u8]> {
        if n > self.0.len() {
            return Err(CpuError::InvalidObject(format!("truncated: {n} bytes wanted, {} left", self.0.len())));
        }
        let (head, rest) = self.0.split_at(n);
        self.0 = rest;
        Ok(head)
    }
    fn u32(&mut self) -> Result<u32> {
        let b = self.take(4)?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }
    fn u64(&mut self) -> Result<u64> {
        let mut a = [0u8; 8];
        a.copy_from_slice(self.take(8)?);
        Ok(u64::from_le_bytes(a))
    }
    /// A count of items each at least `min_bytes` long, checked against what is left.
    fn count(&mut self, min_bytes: usize) -> Result<usize> {
        let n = usize::try_from(self.u64()?).map_err(|_| bad("count"))?;
        if n.saturating_mul(min_bytes.max(1)) > self.0.len() {
            return Err(bad("count"));
        }
        Ok(n)
    }
    fn bytes(&mut self) -> Result<&'a [u8]> {
        let n = self.count(1)?;
        self.take(n)
    }
    fn str(&mut self) -> Result<String> {
        String::from_utf8(self.bytes()?.to_vec()).map_err(|_| bad("string"))
    }
    fn strs(&mut self) -> Result<Vec<String>> {
        let n = self.count(8)?;
        (0..n).map(|_| self.str()).collect()
    }
    fn bools(&mut self) -> Result<Vec<bool>> {
        self.bytes()?
            .iter()
            .map(|&b| match b {
                0 => Ok(false),
                1 => Ok(true),
                _ => Err(bad("flag")),
            })
            .collect()
    }
    fn types(&mut self) -> Result<Vec<ArrayType>> {
        let n = self.count(16)?;
        (0..n)
            .map(|_| {
                let name = self.str()?;
                let dtype: DType = name.parse().map_err(|_| bad("element type"))?;
                let rank = self.count(8)?;
                let dims = (0..rank).map(|_| self.u64().map(|d| d as i64)).collect::<Result<Vec<i64>>>()?;
                if dims.iter().any(|&d| d < 0) {
                    return Err(bad("dimension"));
                }
                Ok(ArrayType { dtype, dims })
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> CompiledObject {
        CompiledObject {
            name: "p".into(),
            params: vec![ArrayType { dtype: DType::F32, dims: vec![4, 2] }],
            results: vec![ArrayType { dtype: DType::Pred, dims: vec![] }],
            object: vec![1, 2, 3],
            routines: vec![vec![4, 5], vec![6]],
            info: ModuleInfo {
                arena_bytes: 64,
                written_params: vec![true],
                written_results: vec![false],
                functions: vec!["smelt_run".into()],
                profile_labels: vec!["k0 f (loop 4)".into()],
                profile_work: vec![StepWork { class: WorkClass::Kernel, units: 4.0 }],
                routines: Vec::new(),
                remote_entries: Vec::new(),
                kernel_functions: Vec::new(),
                remote_epilogues: Vec::new(),
                epilogue_functions: Vec::new(),
                generic_convs: Vec::new(),
                generic_conv_options: None,
            },
        }
    }

    #[test]
    fn object_bytes_round_trip() {
        let o = sample();
        let back = CompiledObject::from_bytes(&o.to_bytes()).unwrap();
        assert_eq!(back.to_bytes(), o.to_bytes());
        assert_eq!(back.params, o.params);
    }

    #[test]
    fn object_bytes_truncated_or_corrupt_are_errors() {
        let bytes = sample().to_bytes();
        for n in 0..bytes.len() {
            assert!(CompiledObject::from_bytes(&bytes[..n]).is_err(), "prefix of {n} bytes");
        }
        let mut long = bytes.clone();
        long.push(0);
        assert!(CompiledObject::from_bytes(&long).is_err());
        for i in 0..bytes.len() {
            let mut b = bytes.clone();
            b[i] ^= 0xff;
            // Never a panic; a flipped byte may still parse (object bytes).
            let _ = CompiledObject::from_bytes(&b);
        }
    }
}
