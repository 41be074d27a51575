//! Builds the CPU backend's common routine families for this machine into
//! the crate (`smelt_cpu::routines::build_common`), so that a program's first
//! compilation finds them without the routine cache.
//!
//! Only release builds carry them (a debug build's tests build what they
//! use); `SMELT_PREBUILT=off` leaves them out, `SMELT_PREBUILT=on` puts them
//! into any profile. They are keyed to the build machine: a binary run on
//! another CPU finds none of its keys and builds routines on first use.

use std::path::PathBuf;

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-env-changed=SMELT_PREBUILT");
    let out = PathBuf::from(std::env::var_os("OUT_DIR").unwrap_or_default());
    let release = std::env::var("PROFILE").is_ok_and(|p| p == "release");
    let wanted = match std::env::var("SMELT_PREBUILT").as_deref() {
        Ok("off") => false,
        Ok("on") => true,
        _ => release,
    };
    let mut table = String::from("/// Keys and objects, as `smelt_cpu::routines::build_common` made them.\n");
    table.push_str("pub static OBJECTS: &[([u8; 32], &[u8])] = &[\n");
    if wanted {
        let t = std::time::Instant::now();
        match smelt_cpu::routines::build_common() {
            Ok(objects) => {
                for (key, object) in &objects {
                    let name: String = key.iter().map(|b| format!("{b:02x}")).collect();
                    let path = out.join(format!("{name}.o"));
                    if let Err(e) = std::fs::write(&path, object) {
                        panic!("smelt-prebuilt: cannot write {}: {e}", path.display());
                    }
                    table.push_str(&format!("    ({key:?}, include_bytes!({:?})),\n", path.display().to_string()));
                }
                // In the build log (`cargo build -vv`), not a warning.
                let bytes: usize = objects.iter().map(|(_, o)| o.len()).sum();
                println!(
                    "smelt-prebuilt: {} routines built into the binary ({} KiB) in {:.1} s",
                    objects.len(),
                    bytes / 1024,
                    t.elapsed().as_secs_f64()
                );
            }
            // Not fatal: programs build their routines on first use instead.
            Err(e) => println!("cargo:warning=smelt-prebuilt: no routines built into the binary: {e}"),
        }
    }
    table.push_str("];\n");
    let path = out.join("objects.rs");
    if let Err(e) = std::fs::write(&path, table) {
        panic!("smelt-prebuilt: cannot write {}: {e}", path.display());
    }
}
