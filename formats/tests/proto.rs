//! `HloModuleProto` reading and writing against the corpus: text through the
//! proto and back prints the same, XLA's own proto dumps read as their text
//! dumps parse, damaged files give errors and never panics.

use std::path::{Path, PathBuf};

use smelt_formats::{ProtoError, read_proto, write_proto};
use smelt_hlo::{Module, parse_module, print_module, verify};

fn corpus_cases() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/corpus");
    let mut cases: Vec<PathBuf> = std::fs::read_dir(&root)
        .expect("the corpus directory")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.join("module.hlo").is_file())
        .collect();
    cases.sort();
    assert!(!cases.is_empty(), "no corpus cases under {}", root.display());
    cases
}

fn parse_file(path: &Path) -> Module {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    parse_module(&text).unwrap_or_else(|e| panic!("{}", e.render(&path.display().to_string())))
}

/// XLA keeps these header attributes in the module's config, which an
/// `HloModuleProto` does not hold, so no proto carries them.
fn drop_config_only_header_attributes(m: &mut Module) {
    m.config.unknown.retain(|(name, _)| !name.starts_with("allow_spmd_sharding_propagation_to_"));
}

/// The first differing line of two texts, for failure messages.
fn first_difference(a: &str, b: &str) -> String {
    for (i, (x, y)) in a.lines().zip(b.lines()).enumerate() {
        if x != y {
            return format!("line {}:\n  - {x}\n  + {y}", i + 1);
        }
    }
    format!("line counts differ: {} vs {}", a.lines().count(), b.lines().count())
}

#[test]
fn corpus_text_round_trips_through_the_proto() {
    let mut checked = 0;
    let mut failures = Vec::new();
    for case in corpus_cases() {
        for file in ["module.hlo", "module.opt.hlo"] {
            let path = case.join(file);
            if !path.is_file() {
                continue;
            }
            let mut parsed = parse_file(&path);
            drop_config_only_header_attributes(&mut parsed);
            let read = match read_proto(&write_proto(&parsed)) {
                Ok(m) => m,
                Err(e) => {
                    failures.push(format!("{}: {e}", path.display()));
                    continue;
                }
            };
            if let Err(e) = verify(&read) {
                failures.push(format!("{}: the module read back does not verify: {e}", path.display()));
            }
            let (want, got) = (print_module(&parsed), print_module(&read));
            if want != got {
                failures.push(format!("{}: {}", path.display(), first_difference(&want, &got)));
            }
            checked += 1;
        }
    }
    eprintln!("round trip: {checked} modules");
    assert!(failures.is_empty(), "{} of {checked} modules differ:\n{}", failures.len(), failures.join("\n"));
    assert!(checked >= 80, "only {checked} modules checked");
}

#[test]
fn xla_proto_dumps_read_as_their_text_parses() {
    let mut checked = 0;
    let mut failures = Vec::new();
    for case in corpus_cases() {
        let pb = case.join("module.pb");
        if !pb.is_file() {
            continue;
        }
        let want = parse_file(&case.join("module.hlo"));
        let bytes = std::fs::read(&pb).expect("module.pb");
        let mut read = match read_proto(&bytes) {
            Ok(m) => m,
            Err(e) => {
                failures.push(format!("{}: {e}", pb.display()));
                continue;
            }
        };
        if let Err(e) = verify(&read) {
            failures.push(format!("{}: does not verify: {e}", pb.display()));
        }
        // The corpus prints module.hlo without metadata (see its README); the
        // proto keeps the metadata, so it is the one difference to take out.
        for (_, c) in read.comps.iter_mut() {
            for (_, i) in c.insts.iter_mut() {
                i.extras.metadata = None;
            }
        }
        let (want, got) = (print_module(&want), print_module(&read));
        if want != got {
            failures.push(format!("{}: {}", pb.display(), first_difference(&want, &got)));
        }
        checked += 1;
    }
    eprintln!("xla protos: {checked}");
    assert!(failures.is_empty(), "{} of {checked} protos differ:\n{}", failures.len(), failures.join("\n"));
    assert!(checked >= 40, "only {checked} protos checked");
}

/// `field 1, length-delimited` around `inner`: how `HloProto` holds its module
/// and `HloSnapshot` its `HloProto`.
fn wrap_in_field_1(inner: &[u8]) -> Vec<u8> {
    let mut out = vec![0x0a];
    let mut n = inner.len() as u64;
    loop {
        let byte = (n & 0x7f) as u8;
        n >>= 7;
        if n == 0 {
            out.push(byte);
            break;
        }
        out.push(byte | 0x80);
    }
    out.extend_from_slice(inner);
    out
}

fn small_corpus_protos() -> Vec<(String, Vec<u8>)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/corpus");
    ["params_unused_donated", "matmul_2d", "conv_depthwise", "scalar_only"]
        .iter()
        .map(|c| {
            let path = root.join(c).join("module.pb");
            (c.to_string(), std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display())))
        })
        .collect()
}

#[test]
fn hlo_proto_and_snapshot_wrappers_are_read() {
    for (case, bytes) in small_corpus_protos() {
        let want = print_module(&read_proto(&bytes).unwrap());
        let hlo_proto = wrap_in_field_1(&bytes);
        assert_eq!(print_module(&read_proto(&hlo_proto).unwrap()), want, "{case} as HloProto");
        let snapshot = wrap_in_field_1(&hlo_proto);
        assert_eq!(print_module(&read_proto(&snapshot).unwrap()), want, "{case} as HloSnapshot");
    }
}

/// SplitMix64: a small fixed-seed generator, so failures reproduce.
struct SplitMix64(u64);

impl SplitMix64 {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

fn mutate(rng: &mut SplitMix64, bytes: &mut Vec<u8>) {
    for _ in 0..1 + rng.below(4) {
        let len = bytes.len();
        match rng.below(5) {
            0 if len > 0 => {
                let i = rng.below(len);
                bytes[i] ^= 1 << rng.below(8);
            }
            1 if len > 0 => {
                let i = rng.below(len);
                bytes[i] = rng.next() as u8;
            }
            2 => bytes.truncate(rng.below(len + 1)),
            3 => {
                let i = rng.below(len + 1);
                let n = 1 + rng.below(8);
                for _ in 0..n {
                    bytes.insert(i, rng.next() as u8);
                }
            }
            _ if len > 0 => {
                let start = rng.below(len);
                let end = (start + 1 + rng.below(64)).min(len);
                let at = rng.below(len + 1);
                let range: Vec<u8> = bytes[start..end].to_vec();
                bytes.splice(at..at, range);
            }
            _ => {}
        }
    }
}

#[test]
fn damaged_protos_give_errors_not_panics() {
    let inputs = small_corpus_protos();
    let mut rng = SplitMix64(0x5eed_1234_abcd_0001);
    let (mut panics, mut ok, mut errors) = (Vec::new(), 0, 0);
    for round in 0..10_000 {
        let (case, original) = &inputs[round % inputs.len()];
        let mut bytes = original.clone();
        mutate(&mut rng, &mut bytes);
        let result = std::panic::catch_unwind(|| {
            read_proto(&bytes).map(|m| {
                // What reads must also print and verify without panicking.
                let _ = verify(&m);
                print_module(&m)
            })
        });
        match result {
            Ok(Ok(_)) => ok += 1,
            Ok(Err(_)) => errors += 1,
            Err(_) => panics.push(format!("round {round} ({case})")),
        }
    }
    eprintln!("fuzz: {ok} read, {errors} rejected, {} panics", panics.len());
    assert!(panics.is_empty(), "{} panics: {}", panics.len(), panics.join(", "));
    assert!(errors > 1000 && ok > 100, "{ok} read, {errors} rejected");
}

fn error_of(bytes: &[u8]) -> String {
    match read_proto(bytes) {
        Ok(_) => panic!("expected an error"),
        Err(e) => e.to_string(),
    }
}

/// A small module written through the text parser, to edit as text and write.
const SMALL: &str = "HloModule m, entry_computation_layout={(f32[2]{0})->f32[2]{0}}

ENTRY main {
  x = f32[2]{0} parameter(0)
  ROOT n = f32[2]{0} negate(x)
}
";

#[test]
fn an_unknown_opcode_is_named() {
    let text = SMALL.replace("negate(x)", "cbrt(x)");
    let mut bytes = write_proto(&parse_module(&text).unwrap());
    // Same length, so the message stays well-formed: `cbrt` becomes `zork`.
    let at = bytes.windows(4).position(|w| w == b"cbrt").unwrap();
    bytes[at..at + 4].copy_from_slice(b"zork");
    assert_eq!(error_of(&bytes), "instruction 'n' (zork) in computation 'main': unknown or unsupported opcode");
}

#[test]
fn a_truncated_file_is_a_decode_error() {
    let bytes = write_proto(&parse_module(SMALL).unwrap());
    let e = read_proto(&bytes[..bytes.len() / 2]).unwrap_err();
    assert!(matches!(e, ProtoError::Decode(_)), "{e:?}");
    assert!(e.to_string().starts_with("not an HloModuleProto, HloProto or HloSnapshot: "), "{e}");
    assert_eq!(read_proto(&[]).unwrap_err(), ProtoError::Empty);
}

#[test]
fn a_missing_operand_is_named() {
    let text = SMALL.replace("ROOT n", "ROOT nn");
    let mut m = parse_module(&text).unwrap();
    // Point the negate at an instruction that is not there.
    let entry = m.entry;
    let root = m.comp(entry).root;
    let x = m.comp(entry).inst(root).operands[0];
    m.comp_mut(entry).remove(x);
    let e = error_of(&write_proto(&m));
    assert!(e.contains("instruction 'nn' (negate) in computation 'main': operand id -1 names no instruction"), "{e}");
}

#[test]
fn writes_what_xla_expects() {
    let m = parse_module(SMALL).unwrap();
    let bytes = write_proto(&m);
    let back = read_proto(&bytes).unwrap();
    assert_eq!(print_module(&back), print_module(&m));
    // Writing is deterministic.
    assert_eq!(write_proto(&back), bytes);
}

/// Attributes the corpus does not exercise, each kept as text by smelt and as
/// typed fields by the proto.
#[test]
fn text_kept_attributes_round_trip() {
    let text = r#"HloModule m, entry_computation_layout={(f32[4]{0}, s32[4]{0})->(f32[4]{0}, pred[4]{0})}, frontend_attributes={fa="1"}

ENTRY main {
  x = f32[4]{0} parameter(0), sharding={devices=[2]0,1}
  i = s32[4]{0} parameter(1), sharding={replicated}
  c = pred[4]{0} compare(i, i), direction=LT, type=UNSIGNED
  cc = f32[4]{0} custom-call(x), custom_call_target="foo", custom_call_has_side_effect=true, schedule=SCHEDULE_LATEST, api_version=API_VERSION_STATUS_RETURNING, metadata={op_type="Foo" op_name="a/b" source_file="f.py" source_line=3}, backend_config="opaque \"bytes\""
  ROOT t = (f32[4]{0}, pred[4]{0}) tuple(cc, c), sharding={{maximal device=0}, {replicated}}
}
"#;
    let m = parse_module(text).unwrap();
    let printed = print_module(&m);
    for needle in ["type=UNSIGNED", "schedule=SCHEDULE_LATEST", "source_line=3", "{maximal device=0}", "fa=\"1\""] {
        assert!(printed.contains(needle), "{needle} missing from\n{printed}");
    }
    assert_eq!(print_module(&read_proto(&write_proto(&m)).unwrap()), printed);
}
