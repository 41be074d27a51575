//! `smelt._smelt`: the native half of smelt's Python package.
//!
//! Python users hold NumPy arrays, JAX functions and ONNX models; this module
//! is the thin layer that hands those to `smelt-jit` and back. The pure-Python
//! half (`python/smelt/`) builds on it: `smelt.jit` lowers JAX functions to
//! HLO text and calls [`compile`] per signature, `smelt.onnx` wraps
//! [`OnnxSession`] in onnxruntime's shape.
//!
//! What this layer promises:
//! - **No copies where the layout allows.** An argument that is already a
//!   C-contiguous, aligned NumPy array of the parameter's dtype and shape is read
//!   in place by compiled code ([`smelt_jit::Executable::run_views`]); anything
//!   else goes through `numpy.asarray(x, dtype, order="C")` once. Results are
//!   moved into NumPy arrays (the vectors the program wrote become the arrays'
//!   memory). The interpreter backend copies arguments (it owns its values).
//! - **The GIL is released** while compiling and running.
//! - **Errors are exceptions, never crashes**: `SmeltError` and three
//!   subclasses ([`ErrorKind`]), carrying the message the CLI prints.
//! - **One client per backend per process**, so every `compile` and every
//!   `smelt.jit` function shares one in-memory cache (and the disk cache under
//!   `SMELT_CACHE_DIR`).

use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use numpy::{PyArray1, PyArrayDescr, PyArrayDescrMethods, PyArrayMethods, PyUntypedArray, PyUntypedArrayMethods};
use pyo3::exceptions::PyException;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyBytes, PyDict, PyList, PyString, PyTuple};
use smelt::formats::Format;
use smelt::hlo::{Array, ArrayData, ArrayView, DType, Module};
use smelt::jit::graph::{Dim, Session, SessionOptions};
use smelt::jit::{ArgType, Client, CompileOptions, JitError};

/// Freed output blocks are kept for the next run's outputs, as in the CLI
/// (`smelt::alloc`): a fresh output otherwise faults in new pages every call.
#[global_allocator]
static ALLOCATOR: smelt::alloc::BlockCache = smelt::alloc::BlockCache;

pyo3::create_exception!(
    smelt,
    SmeltError,
    PyException,
    "Everything smelt raises. The message is the one the smelt CLI prints."
);
pyo3::create_exception!(
    smelt,
    InvalidInputError,
    SmeltError,
    "A program or model that cannot be read: a syntax error (file:line:col), a module that does not verify."
);
pyo3::create_exception!(
    smelt,
    UnsupportedOperationError,
    SmeltError,
    "A valid program that uses an operation or type smelt does not implement."
);
pyo3::create_exception!(
    smelt,
    ShapeMismatchError,
    SmeltError,
    "Arguments of the wrong number, shape or dtype for a compiled program."
);

/// Which exception an error becomes: the rule lives here alone.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum ErrorKind {
    Input,
    Unsupported,
    Shape,
    Other,
}

fn raise(kind: ErrorKind, message: impl Into<String>) -> PyErr {
    let m = message.into();
    match kind {
        ErrorKind::Input => InvalidInputError::new_err(m),
        ErrorKind::Unsupported => UnsupportedOperationError::new_err(m),
        ErrorKind::Shape => ShapeMismatchError::new_err(m),
        ErrorKind::Other => SmeltError::new_err(m),
    }
}

fn jit_error(e: &JitError) -> PyErr {
    let kind = match e {
        JitError::Verify(_) => ErrorKind::Input,
        JitError::Lower(_) | JitError::Unavailable(_) => ErrorKind::Unsupported,
        JitError::Arguments(_) | JitError::Buffer(_) => ErrorKind::Shape,
        _ => ErrorKind::Other,
    };
    raise(kind, e.to_string())
}

fn graph_error(e: &smelt::jit::graph::GraphError) -> PyErr {
    use smelt::jit::graph::GraphError as G;
    let kind = match e {
        G::Unsupported { .. } => ErrorKind::Unsupported,
        G::Feed { .. } => ErrorKind::Shape,
        _ => ErrorKind::Other,
    };
    raise(kind, e.to_string())
}

fn onnx_error(origin: &str, e: &smelt::jit::onnx::OnnxError) -> PyErr {
    use smelt::jit::onnx::OnnxError as O;
    let kind = match e {
        O::UnsupportedOp { .. } => ErrorKind::Unsupported,
        O::Graph(g) => return graph_error(g),
        O::Io { path, source } => return raise(ErrorKind::Input, format!("cannot read {path}: {source}")),
        _ => ErrorKind::Input,
    };
    raise(kind, format!("{origin}: {e}"))
}

/// The process-wide clients, one per backend name, made on first use.
static CLIENTS: Mutex<Vec<&'static Client>> = Mutex::new(Vec::new());

/// The process-wide client for the backend named `name` (a ValueError for a
/// name no client takes).
fn client(name: &str) -> PyResult<&'static Client> {
    let mut clients = CLIENTS.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(c) = clients.iter().find(|c| c.backend() == name) {
        return Ok(c);
    }
    let c = Client::new(name).map_err(|e| pyo3::exceptions::PyValueError::new_err(e.to_string()))?;
    // Leaked on purpose: process-wide, joined at exit by `_shutdown`.
    let c: &'static Client = Box::leak(Box::new(c));
    clients.push(c);
    Ok(c)
}

/// NumPy functions and dtypes looked up once.
struct NumpyCache {
    asarray: Py<PyAny>,
    /// `ml_dtypes.bfloat16` as a NumPy dtype, when ml_dtypes is installed.
    bfloat16: Option<Py<PyArrayDescr>>,
}

fn numpy_cache(py: Python<'_>) -> PyResult<&NumpyCache> {
    static CACHE: PyOnceLock<NumpyCache> = PyOnceLock::new();
    CACHE.get_or_try_init(py, || {
        let asarray = py.import("numpy")?.getattr("asarray")?.unbind();
        let bfloat16 = match py.import("ml_dtypes") {
            Ok(m) => Some(PyArrayDescr::new(py, m.getattr("bfloat16")?)?.unbind()),
            Err(_) => None,
        };
        Ok(NumpyCache { asarray, bfloat16 })
    })
}

/// NumPy's kind character for an element type (its item size is the
/// type's byte size); None for bf16, which NumPy has no type of its own for
/// (ml_dtypes' stands in).
fn numpy_kind(dtype: DType) -> Option<u8> {
    match dtype {
        DType::Bf16 => None,
        DType::C64 | DType::C128 => Some(b'c'),
        DType::Pred => Some(b'b'),
        d if d.is_float() => Some(b'f'),
        d if d.is_signed_int() => Some(b'i'),
        _ => Some(b'u'),
    }
}

/// The NumPy dtype of a smelt element type (bf16: `ml_dtypes.bfloat16`, or
/// `uint16` bit patterns without ml_dtypes, as in `.npy` files).
fn numpy_dtype<'py>(py: Python<'py>, dtype: DType) -> PyResult<Bound<'py, PyArrayDescr>> {
    if dtype == DType::Bf16 {
        return Ok(match &numpy_cache(py)?.bfloat16 {
            Some(d) => d.bind(py).clone(),
            None => PyArrayDescr::of::<u16>(py),
        });
    }
    let kind = numpy_kind(dtype).ok_or_else(|| raise(ErrorKind::Other, format!("no NumPy type for {dtype}")))?;
    PyArrayDescr::new(py, format!("{}{}", kind as char, dtype.byte_size()))
}

/// The smelt element type of a NumPy dtype (native byte order only).
fn smelt_dtype(py: Python<'_>, d: &Bound<'_, PyArrayDescr>) -> PyResult<Option<DType>> {
    if d.is_native_byteorder() == Some(false) {
        return Ok(None);
    }
    if let Some(bf) = &numpy_cache(py)?.bfloat16
        && d.is_equiv_to(bf.bind(py))
    {
        return Ok(Some(DType::Bf16));
    }
    Ok(DType::ALL.into_iter().find(|&t| numpy_kind(t) == Some(d.kind()) && t.byte_size() == d.itemsize()))
}

/// The bytes of a C-contiguous, aligned array (the caller keeps it alive).
fn array_bytes<'a>(a: &'a Bound<'_, PyUntypedArray>) -> &'a [u8] {
    let n = a.len() * a.dtype().itemsize();
    if n == 0 {
        return &[];
    }
    // SAFETY: a C-contiguous array's `n` bytes start at its data pointer; the
    // borrow of `a` keeps the array (and so its memory) alive.
    unsafe { std::slice::from_raw_parts((*a.as_array_ptr()).fields.data.cast::<u8>(), n) }
}

/// One argument as the program will read it.
struct Prepared<'py> {
    array: Bound<'py, PyUntypedArray>,
    converted: bool,
}

/// `obj` as an array of exactly `want` (dtype and shape) with `descr`: the
/// object itself when it already is one, else a converted copy.
fn prepare_arg<'py>(
    py: Python<'py>,
    index: usize,
    obj: &Bound<'py, PyAny>,
    want: &ArgType,
    descr: &Bound<'py, PyArrayDescr>,
) -> PyResult<Prepared<'py>> {
    // bf16 parameters also take uint16 arrays as bit patterns (as `.npy`
    // files hold bf16), with or without ml_dtypes.
    let bits = want.dtype == DType::Bf16;
    let fits = |a: &Bound<'py, PyUntypedArray>| {
        let d = a.dtype();
        a.is_c_contiguous()
            && a.is_aligned()
            && (d.is_equiv_to(descr) || (bits && d.is_equiv_to(&PyArrayDescr::of::<u16>(py))))
            && a.shape().len() == want.dims.len()
            && a.shape().iter().zip(&want.dims).all(|(&g, &w)| g as i64 == w)
    };
    if let Ok(a) = obj.cast::<PyUntypedArray>()
        && fits(a)
    {
        return Ok(Prepared { array: a.clone(), converted: false });
    }
    if want.dtype == DType::Bf16 && numpy_cache(py)?.bfloat16.is_none() {
        return Err(raise(
            ErrorKind::Shape,
            format!("argument {index}: a bf16 parameter takes uint16 bit patterns unless ml_dtypes is installed"),
        ));
    }
    let converted = numpy_cache(py)?.asarray.bind(py).call1((obj, descr, "C"))?;
    let mut a = converted.cast_into::<PyUntypedArray>().map_err(PyErr::from)?;
    // `asarray` keeps an array that already has the type and order, aligned or
    // not; a copy is aligned.
    if !a.is_aligned() {
        a = a.call_method0("copy")?.cast_into::<PyUntypedArray>().map_err(PyErr::from)?;
    }
    if !fits(&a) {
        let got: Vec<String> = a.shape().iter().map(usize::to_string).collect();
        return Err(raise(
            ErrorKind::Shape,
            format!("argument {index}: expected {want}, got an array of shape ({})", got.join(", ")),
        ));
    }
    Ok(Prepared { array: a, converted: true })
}

/// A result moved into a NumPy array of its dims.
fn to_numpy<'py>(py: Python<'py>, a: Array) -> PyResult<Bound<'py, PyAny>> {
    let dims: Vec<usize> = a.dims.iter().map(|&d| d.max(0) as usize).collect();
    // NumPy has no bfloat16 of its own: bf16 goes out as its u16 bits, viewed as
    // ml_dtypes' bfloat16 where that is installed.
    let (data, bf16) = match a.data {
        ArrayData::Bf16(v) => (ArrayData::U16(half::vec::HalfFloatVecExt::reinterpret_into(v)), true),
        data => (data, false),
    };
    let array = smelt::hlo::with_data!(data, v => PyArray1::from_vec(py, v).reshape(dims)?.into_any());
    if !bf16 {
        return Ok(array);
    }
    Ok(match &numpy_cache(py)?.bfloat16 {
        Some(bf) => array.call_method1("view", (bf.bind(py),))?,
        None => array,
    })
}

/// `(shape, dtype)` of an argument or result, as Python sees it.
fn describe<'py>(py: Python<'py>, t: &ArgType) -> PyResult<Bound<'py, PyTuple>> {
    let dims: Vec<i64> = t.dims.clone();
    PyTuple::new(py, [PyTuple::new(py, dims)?.into_any(), numpy_dtype(py, t.dtype)?.into_any()])
}

/// The module bytes from what `compile` was given, and the name to report it under.
fn module_source(hlo: &Bound<'_, PyAny>) -> PyResult<(Vec<u8>, String)> {
    if let Ok(b) = hlo.cast::<PyBytes>() {
        return Ok((b.as_bytes().to_vec(), "<bytes>".to_string()));
    }
    if let Ok(s) = hlo.cast::<PyString>() {
        let s = s.to_cow()?;
        if s.contains("HloModule") || s.contains("func.func") || s.contains('\n') {
            let bytes = s.into_owned().into_bytes();
            let origin = format!("<{} text>", Format::detect(&bytes));
            return Ok((bytes, origin));
        }
    }
    let path: PathBuf = hlo.extract().map_err(|_| {
        pyo3::exceptions::PyTypeError::new_err(
            "hlo must be module text (str), bytes (text or a serialized HloModuleProto), or a path (str or os.PathLike)",
        )
    })?;
    let bytes =
        std::fs::read(&path).map_err(|e| raise(ErrorKind::Input, format!("cannot read {}: {e}", path.display())))?;
    Ok((bytes, path.display().to_string()))
}

/// Reads (in `format`, else the detected one) and verifies, with the CLI's
/// messages (`file:line:col: ...`).
fn load_module(bytes: &[u8], format: Option<Format>, origin: &str) -> PyResult<Module> {
    let module = smelt::formats::read_module(bytes, format).map_err(|e| {
        let message = e.to_string();
        let kind = if message.contains("unsupported") || message.contains("not supported") {
            ErrorKind::Unsupported
        } else {
            ErrorKind::Input
        };
        raise(kind, e.render(origin))
    })?;
    smelt::hlo::verify(&module).map_err(|e| raise(ErrorKind::Input, format!("{origin}: {e}")))?;
    Ok(module)
}

/// A compiled HLO module. Call it with one array per flattened parameter;
/// it returns the flattened results as NumPy arrays.
#[pyclass(frozen, module = "smelt._smelt")]
struct Executable {
    exe: Arc<smelt::jit::Executable>,
    backend: &'static str,
    /// The parameters as the module declares them (complex ones included;
    /// the compiled program takes their parts).
    declared: Vec<ArgType>,
    results: Vec<ArgType>,
    descrs: Vec<Py<PyArrayDescr>>,
    compile_ms: f64,
    /// "miss" (compiled now) or "hit" (found in the process-wide cache).
    cache: &'static str,
    in_place: AtomicU64,
    converted: AtomicU64,
    run_ns: AtomicU64,
}

impl Executable {
    /// Every argument as the program will read it.
    fn prepare<'py>(&self, py: Python<'py>, args: &Bound<'py, PyTuple>) -> PyResult<Vec<Prepared<'py>>> {
        let params = self.exe.params();
        if args.len() != params.len() {
            return Err(raise(ErrorKind::Shape, format!("expected {} arguments, got {}", params.len(), args.len())));
        }
        let mut prepared = Vec::with_capacity(params.len());
        for (i, (obj, want)) in args.iter().zip(params).enumerate() {
            let obj = match self.declared.get(i) {
                // A complex argument goes in as its parts: a view of its
                // C-ordered complex array with one more dimension of 2.
                Some(d) if d.dtype.is_complex() => {
                    let complex = numpy_cache(py)?.asarray.bind(py).call1((&obj, numpy_dtype(py, d.dtype)?, "C"))?;
                    let parts = complex.call_method1("view", (numpy_dtype(py, d.dtype.component())?,))?;
                    parts.call_method1("reshape", (PyTuple::new(py, &want.dims)?,))?
                }
                _ => obj,
            };
            prepared.push(prepare_arg(py, i, &obj, want, self.descrs[i].bind(py))?);
        }
        Ok(prepared)
    }
}

#[pymethods]
impl Executable {
    /// Runs the program: one array (or array-like) per flattened parameter,
    /// in order. Returns the flattened results as a list of NumPy arrays.
    #[pyo3(signature = (*args))]
    fn __call__<'py>(&self, py: Python<'py>, args: &Bound<'py, PyTuple>) -> PyResult<Bound<'py, PyList>> {
        let params = self.exe.params();
        let prepared = self.prepare(py, args)?;
        let converted = prepared.iter().filter(|p| p.converted).count() as u64;
        self.converted.fetch_add(converted, Ordering::Relaxed);
        self.in_place.fetch_add(prepared.len() as u64 - converted, Ordering::Relaxed);
        let mut views = Vec::with_capacity(prepared.len());
        for (p, want) in prepared.iter().zip(params) {
            views.push(
                ArrayView::new(want.dtype, &want.dims, array_bytes(&p.array))
                    .map_err(|m| raise(ErrorKind::Shape, m))?,
            );
        }
        let exe = &self.exe;
        let (outputs, took) = py.detach(|| {
            let t = Instant::now();
            let r = exe.run_views(&views);
            (r, t.elapsed())
        });
        self.run_ns.fetch_add(took.as_nanos() as u64, Ordering::Relaxed);
        let outputs = outputs.map_err(|e| jit_error(&e))?;
        drop(prepared);
        let list = PyList::empty(py);
        for (o, declared) in outputs.into_iter().zip(&self.results) {
            let array = to_numpy(py, o.into_array())?;
            // Complex results come back as their parts: viewed as complex again.
            let array = if declared.dtype.is_complex() {
                let complex = array.call_method1("view", (numpy_dtype(py, declared.dtype)?,))?;
                complex.call_method1("reshape", (PyTuple::new(py, &declared.dims)?,))?
            } else {
                array
            };
            list.append(array)?;
        }
        Ok(list)
    }

    /// Where the program would read each argument (data addresses), after the
    /// same preparation a call makes; nothing runs. For tests of the no-copy rule.
    #[pyo3(signature = (*args))]
    fn _argument_addresses(&self, py: Python<'_>, args: &Bound<'_, PyTuple>) -> PyResult<Vec<usize>> {
        let prepared = self.prepare(py, args)?;
        Ok(prepared.iter().map(|p| array_bytes(&p.array).as_ptr() as usize).collect())
    }

    /// `(shape, dtype)` of each flattened parameter.
    #[getter]
    fn params<'py>(&self, py: Python<'py>) -> PyResult<Vec<Bound<'py, PyTuple>>> {
        self.declared.iter().map(|t| describe(py, t)).collect()
    }

    /// `(shape, dtype)` of each flattened result.
    #[getter]
    fn results<'py>(&self, py: Python<'py>) -> PyResult<Vec<Bound<'py, PyTuple>>> {
        self.results.iter().map(|t| describe(py, t)).collect()
    }

    /// The tier the last call ran on (`"interp"`, `"tiles"`, `"cranelift"`, `"llvm"`),
    /// or the one the next call will run on before the first call.
    #[getter]
    fn tier(&self) -> &'static str {
        self.exe.tier().unwrap_or_else(|| self.exe.next_tier()).name()
    }

    /// Counters and facts: backend, tier, next_tier, tiered, runs, compile_ms,
    /// kernels (of the compiled program; None when interpreted or loaded from
    /// the disk cache),
    /// cache ("miss": compiled by this call to compile, "hit": found in the
    /// process-wide cache), args_in_place (arguments compiled code read where
    /// they were), args_converted (arguments first converted to the
    /// parameter's dtype or to C order), run_ms (total time inside runs).
    #[getter]
    fn stats<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        d.set_item("backend", self.backend)?;
        d.set_item("tier", self.exe.tier().map(|t| t.name()))?;
        d.set_item("next_tier", self.exe.next_tier().name())?;
        d.set_item("tiered", self.exe.is_tiered())?;
        d.set_item("runs", self.exe.runs())?;
        d.set_item("compile_ms", self.compile_ms)?;
        d.set_item("kernels", self.exe.kernels())?;
        d.set_item("cache", self.cache)?;
        d.set_item("args_in_place", self.in_place.load(Ordering::Relaxed))?;
        d.set_item("args_converted", self.converted.load(Ordering::Relaxed))?;
        d.set_item("run_ms", self.run_ns.load(Ordering::Relaxed) as f64 / 1e6)?;
        Ok(d)
    }

    /// With the tiered backend: waits for the background LLVM compilation
    /// (at most `timeout` seconds); later calls run LLVM code. Returns True
    /// when that code is ready (or the backend has one tier).
    #[pyo3(signature = (timeout = None))]
    fn wait_optimized(&self, py: Python<'_>, timeout: Option<f64>) -> PyResult<bool> {
        let exe = &self.exe;
        let timeout = timeout.map(|s| Duration::from_secs_f64(s.max(0.0)));
        match py.detach(|| exe.wait_optimized(timeout)) {
            Ok(()) => Ok(true),
            Err(JitError::Tier(m)) if m.contains("not finished") => Ok(false),
            Err(e) => Err(jit_error(&e)),
        }
    }

    fn __repr__(&self) -> String {
        let params: Vec<String> = self.exe.params().iter().map(ToString::to_string).collect();
        format!("<smelt.Executable {}({}) backend={}>", self.exe.name(), params.join(", "), self.backend)
    }
}

/// The module format a `format=` argument names (None: detect it).
fn parse_format(format: Option<&str>) -> PyResult<Option<Format>> {
    format
        .map(|name| {
            Format::from_name(name).ok_or_else(|| {
                pyo3::exceptions::PyValueError::new_err(format!(
                    "format must be \"hlo\", \"proto\" or \"stablehlo\", not {name:?}"
                ))
            })
        })
        .transpose()
}

/// Compiles a module for `backend` ("tiered", "cpu", "cranelift", "interp"):
/// HLO or StableHLO text (a str holding the module), a path to a module file,
/// or bytes (text, or a serialized HloModuleProto). `format` ("hlo", "proto",
/// "stablehlo") says which; by default it is detected from the content.
/// Compilations are cached per process: the same program again returns at once.
#[pyfunction]
#[pyo3(signature = (hlo, backend = "tiered", format = None))]
fn compile(py: Python<'_>, hlo: &Bound<'_, PyAny>, backend: &str, format: Option<&str>) -> PyResult<Executable> {
    let client = client(backend)?;
    let format = parse_format(format)?;
    let (bytes, origin) = module_source(hlo)?;
    let start = Instant::now();
    let result = py.detach(|| -> PyResult<_> {
        let module = load_module(&bytes, format, &origin)?;
        let declared: Vec<ArgType> = module
            .entry()
            .param_shapes()
            .iter()
            .flat_map(|s| s.leaves().into_iter().map(|a| ArgType { dtype: a.dtype, dims: a.dims.to_vec() }))
            .collect();
        let results: Vec<ArgType> = module
            .entry()
            .result_shape()
            .leaves()
            .into_iter()
            .map(|s| ArgType { dtype: s.dtype, dims: s.dims.to_vec() })
            .collect();
        let misses = client.stats().misses;
        let exe = client.compile(&module, &CompileOptions::default()).map_err(|e| jit_error(&e))?;
        let cache = if client.stats().misses > misses { "miss" } else { "hit" };
        Ok((exe, declared, results, cache))
    });
    let (exe, declared, results, cache) = result?;
    let compile_ms = start.elapsed().as_secs_f64() * 1e3;
    let descrs = exe.params().iter().map(|t| Ok(numpy_dtype(py, t.dtype)?.unbind())).collect::<PyResult<_>>()?;
    Ok(Executable {
        exe,
        backend: client.backend(),
        declared,
        results,
        descrs,
        compile_ms,
        cache,
        in_place: AtomicU64::new(0),
        converted: AtomicU64::new(0),
        run_ns: AtomicU64::new(0),
    })
}

/// The gradient module of a module whose entry returns a scalar floating-point
/// loss (or a tuple whose element 0 is one), as HLO text: same parameters,
/// returning `(loss, d loss / d p for p in wrt)` (`smelt grad`, docs/autodiff.md).
/// `wrt`: entry parameter numbers (default: every floating-point parameter).
#[pyfunction]
#[pyo3(signature = (hlo, wrt = None, format = None))]
fn grad(py: Python<'_>, hlo: &Bound<'_, PyAny>, wrt: Option<Vec<u32>>, format: Option<&str>) -> PyResult<String> {
    let format = parse_format(format)?;
    let (bytes, origin) = module_source(hlo)?;
    py.detach(|| {
        let module = load_module(&bytes, format, &origin)?;
        let wrt = wrt.unwrap_or_else(|| smelt::passes::autodiff::float_params(&module));
        let g = smelt::passes::grad(&module, &wrt).map_err(|e| {
            let message = format!("{origin}: {e}");
            // Refusals by rule (what autodiff does not do yet) are unsupported
            // operations; the rest (parameters, the loss's type) bad input.
            let refused = ["gradient rule", "differentiated yet", "budget"];
            let kind =
                if refused.iter().any(|r| message.contains(r)) { ErrorKind::Unsupported } else { ErrorKind::Input };
            raise(kind, message)
        })?;
        Ok(smelt::hlo::print_module(&g))
    })
}

/// The process-wide client's counters for `backend` (hits, misses, compiles,
/// compile_ms, background compiles, disk cache hits and writes, ...).
#[pyfunction]
#[pyo3(signature = (backend = "tiered"))]
fn cache_stats<'py>(py: Python<'py>, backend: &str) -> PyResult<Bound<'py, PyDict>> {
    let s = client(backend)?.stats();
    let d = PyDict::new(py);
    d.set_item("hits", s.hits)?;
    d.set_item("misses", s.misses)?;
    d.set_item("compiles", s.compiles)?;
    d.set_item("compile_ms", s.compile_time.as_secs_f64() * 1e3)?;
    d.set_item("background_compiles", s.background_compiles)?;
    d.set_item("background_failures", s.background_failures)?;
    d.set_item("disk_hits", s.disk_hits)?;
    d.set_item("disk_writes", s.disk_writes)?;
    d.set_item("disk_errors", s.disk_errors)?;
    d.set_item("evictions", s.evictions)?;
    d.set_item("interpreted", s.interpreted)?;
    d.set_item("cached", s.cached)?;
    Ok(d)
}

/// Waits for every background compilation (registered with `atexit` by the
/// package: a process must not exit while LLVM compiles on another thread).
#[pyfunction]
fn _shutdown(py: Python<'_>) {
    py.detach(|| {
        for c in CLIENTS.lock().unwrap_or_else(|e| e.into_inner()).iter() {
            c.wait_background();
        }
    });
}

/// The ONNX type string onnxruntime reports (`tensor(float)`).
fn onnx_type(dtype: Option<DType>) -> String {
    let name = match dtype {
        Some(DType::Pred) => "bool",
        Some(DType::S8) => "int8",
        Some(DType::S16) => "int16",
        Some(DType::S32) => "int32",
        Some(DType::S64) => "int64",
        Some(DType::U8) => "uint8",
        Some(DType::U16) => "uint16",
        Some(DType::U32) => "uint32",
        Some(DType::U64) => "uint64",
        Some(DType::F16) => "float16",
        Some(DType::Bf16) => "bfloat16",
        Some(DType::F32) => "float",
        Some(DType::F64) => "double",
        Some(DType::C64) => "complex64",
        Some(DType::C128) => "complex128",
        None => "unknown",
    };
    format!("tensor({name})")
}

/// An ONNX model imported, clustered and ready to run (the native half of
/// `smelt.onnx.InferenceSession`).
#[pyclass(module = "smelt._smelt")]
struct OnnxSession {
    session: Session,
    inputs: Vec<smelt::jit::onnx::Declared>,
    outputs: Vec<smelt::jit::onnx::Declared>,
    /// Session::run is not reentrant per session state (variables): one run at a time.
    lock: Mutex<()>,
}

fn declared_list<'py>(py: Python<'py>, list: &[smelt::jit::onnx::Declared]) -> PyResult<Bound<'py, PyList>> {
    let dim = |d: &Option<Dim>| -> PyResult<Bound<'py, PyAny>> {
        Ok(match d {
            Some(Dim::Fixed(n)) => n.into_pyobject(py)?.into_any(),
            Some(Dim::Symbolic(s)) => PyString::new(py, s).into_any(),
            None => py.None().into_bound(py),
        })
    };
    let out = PyList::empty(py);
    for d in list {
        let shape = d.dims.as_ref().map(|dims| dims.iter().map(dim).collect::<PyResult<Vec<_>>>()).transpose()?;
        out.append((d.name.as_str(), shape, onnx_type(d.dtype)))?;
    }
    Ok(out)
}

#[pymethods]
impl OnnxSession {
    /// `model`: a path (str or os.PathLike) or the serialized model (bytes).
    #[new]
    #[pyo3(signature = (model, backend = "tiered"))]
    fn new(py: Python<'_>, model: &Bound<'_, PyAny>, backend: &str) -> PyResult<OnnxSession> {
        let client = client(backend)?;
        enum Source {
            Bytes(Vec<u8>),
            Path(PathBuf),
        }
        let (source, origin) = if let Ok(b) = model.cast::<PyBytes>() {
            (Source::Bytes(b.as_bytes().to_vec()), "<bytes>".to_string())
        } else {
            let path: PathBuf = model.extract().map_err(|_| {
                pyo3::exceptions::PyTypeError::new_err("model must be a path (str or os.PathLike) or bytes")
            })?;
            let origin = path.display().to_string();
            (Source::Path(path), origin)
        };
        py.detach(|| {
            let (graph, inputs, outputs) = match &source {
                Source::Bytes(b) => smelt::jit::onnx::decode(b).and_then(|proto| {
                    let (inputs, outputs) = smelt::jit::onnx::declared_io(&proto)?;
                    Ok((smelt::jit::onnx::import(&proto)?, inputs, outputs))
                }),
                Source::Path(p) => smelt::jit::onnx::load_declared(p),
            }
            .map_err(|e| onnx_error(&origin, &e))?;
            let options = SessionOptions { backend: backend.to_string(), ..SessionOptions::default() };
            let session = Session::with_client(graph, options, client.clone());
            Ok(OnnxSession { session, inputs, outputs, lock: Mutex::new(()) })
        })
    }

    /// `[(name, shape, type)]` of the graph inputs; shape entries are ints,
    /// names of symbolic dims, or None.
    fn inputs<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        declared_list(py, &self.inputs)
    }

    /// `[(name, shape, type)]` of the graph outputs, as the model declares them.
    fn outputs<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        declared_list(py, &self.outputs)
    }

    /// Runs the graph on `feeds` ({input name: array}) and returns the
    /// `fetches` (output names; None: every graph output) as NumPy arrays.
    #[pyo3(signature = (fetches, feeds))]
    fn run<'py>(
        &self,
        py: Python<'py>,
        fetches: Option<Vec<String>>,
        feeds: &Bound<'py, PyDict>,
    ) -> PyResult<Bound<'py, PyList>> {
        let fetches = fetches.unwrap_or_else(|| self.session.graph().outputs.clone());
        let (names, arrays): (Vec<String>, Vec<Array>) = feed_arrays(py, feeds)?.into_iter().unzip();
        let session = &self.session;
        let lock = &self.lock;
        let outputs = py.detach(|| {
            let _guard = lock.lock().unwrap_or_else(|e| e.into_inner());
            let feeds: Vec<(&str, Array)> = names.iter().map(String::as_str).zip(arrays).collect();
            let fetches: Vec<&str> = fetches.iter().map(String::as_str).collect();
            session.run(&feeds, &fetches)
        });
        let outputs = outputs.map_err(|e| graph_error(&e))?;
        let list = PyList::empty(py);
        for o in outputs {
            list.append(to_numpy(py, o)?)?;
        }
        Ok(list)
    }
}

/// `{name: array}` as smelt arrays (copied, C order).
fn feed_arrays(py: Python<'_>, feeds: &Bound<'_, PyDict>) -> PyResult<Vec<(String, Array)>> {
    let mut out = Vec::with_capacity(feeds.len());
    for (name, value) in feeds.iter() {
        let name: String = name.extract()?;
        let a = numpy_cache(py)?.asarray.bind(py).call1((value, py.None(), "C"))?;
        let a = a.cast_into::<PyUntypedArray>().map_err(PyErr::from)?;
        let dtype = smelt_dtype(py, &a.dtype())?.ok_or_else(|| {
            raise(ErrorKind::Shape, format!("feed '{name}': arrays of dtype {} are not supported", a.dtype()))
        })?;
        let dims: Vec<i64> = a.shape().iter().map(|&d| d as i64).collect();
        let view = ArrayView::new(dtype, &dims, array_bytes(&a)).map_err(|m| raise(ErrorKind::Shape, m))?;
        out.push((name, view.to_array()));
    }
    Ok(out)
}

/// Post-training quantization (`smelt quantize`): the float model (bytes)
/// calibrated on `batches` ([{input name: array}]), as QDQ model bytes.
#[pyfunction]
#[pyo3(signature = (model, batches, method, percentile, activations, per_channel, backend))]
#[allow(clippy::too_many_arguments)]
fn quantize_onnx<'py>(
    py: Python<'py>,
    model: &[u8],
    batches: Vec<Bound<'py, PyDict>>,
    method: &str,
    percentile: f64,
    activations: &str,
    per_channel: bool,
    backend: &str,
) -> PyResult<Bound<'py, PyBytes>> {
    use smelt::jit::onnx::quantize::{Calibration, QuantizeOptions, quantize};
    let calibration = match method {
        "minmax" => Calibration::MinMax,
        "percentile" => Calibration::Percentile(percentile),
        "entropy" => Calibration::Entropy,
        other => {
            return Err(pyo3::exceptions::PyValueError::new_err(format!(
                "method must be 'minmax', 'percentile' or 'entropy', not {other:?}"
            )));
        }
    };
    let activations = match activations {
        "uint8" | "u8" => DType::U8,
        "int8" | "s8" => DType::S8,
        other => {
            return Err(pyo3::exceptions::PyValueError::new_err(format!(
                "activations must be 'uint8' or 'int8', not {other:?}"
            )));
        }
    };
    client(backend)?;
    let batches: Vec<Vec<(String, Array)>> = batches.iter().map(|b| feed_arrays(py, b)).collect::<PyResult<_>>()?;
    let options = QuantizeOptions { calibration, activations, per_channel, backend: backend.to_string() };
    let out = py.detach(|| {
        let proto = smelt::jit::onnx::decode(model)?;
        quantize(&proto, &batches, &options).map(|q| smelt::jit::onnx::encode(&q.model))
    });
    let out = out.map_err(|e| onnx_error("<bytes>", &e))?;
    Ok(PyBytes::new(py, &out))
}

#[pymodule]
fn _smelt(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    // The routine families built into the extension (release builds).
    smelt::prebuilt::register();
    m.add("SmeltError", py.get_type::<SmeltError>())?;
    m.add("InvalidInputError", py.get_type::<InvalidInputError>())?;
    m.add("UnsupportedOperationError", py.get_type::<UnsupportedOperationError>())?;
    m.add("ShapeMismatchError", py.get_type::<ShapeMismatchError>())?;
    m.add_class::<Executable>()?;
    m.add_class::<OnnxSession>()?;
    m.add_function(wrap_pyfunction!(compile, m)?)?;
    m.add_function(wrap_pyfunction!(cache_stats, m)?)?;
    m.add_function(wrap_pyfunction!(grad, m)?)?;
    m.add_function(wrap_pyfunction!(quantize_onnx, m)?)?;
    m.add_function(wrap_pyfunction!(_shutdown, m)?)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
