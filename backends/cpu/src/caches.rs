//! The data caches the GEMM and convolution blockings are sized from.
//!
//! Blocking that was right for one machine's caches is wrong for another's
//! (Zen 4 has a 32 KiB L1d, Zen 5 and Sapphire Rapids 48 KiB; their L2s are
//! 1 and 2 MiB), so the host's sizes are read at run time from Linux's
//! `/sys/devices/system/cpu/cpu0/cache/index*/{level,type,size}`. Elsewhere,
//! and for code compiled for another machine, [`Caches::DEFAULT`] (the
//! smallest of this project's machines) holds.

use std::path::Path;
use std::sync::OnceLock;

#[cfg(test)]
thread_local! {
    /// Tests: routines generated on this thread take the small-L2 choices
    /// whatever the host's ([`with_small_l2`]).
    static SMALL_L2: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Tests: runs `f` with routines generated on this thread taking the
/// small-L2 choices ([`Caches::large_l2`]), so those paths are tested on
/// every host.
#[cfg(test)]
pub(crate) fn with_small_l2<T>(f: impl FnOnce() -> T) -> T {
    SMALL_L2.with(|c| c.set(true));
    let out = f();
    SMALL_L2.with(|c| c.set(false));
    out
}

/// Per-core data cache sizes in bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Caches {
    pub l1d: u64,
    pub l2: u64,
}

impl Caches {
    /// 32 KiB L1d, 1 MiB L2 (AMD Zen 4).
    pub const DEFAULT: Caches = Caches { l1d: 32 << 10, l2: 1 << 20 };

    /// Whether each core's L2 holds 1 MiB or more. Where the routines'
    /// best choices differed between this project's machines with the L2
    /// (a Zen 2 EPYC with 512 KiB, an Intel Xeon with 2 MiB), they follow
    /// this: with a large L2, B is packed rather than read in place over
    /// many row tiles pages apart (`gemm.rs`), and a columns convolution's
    /// feature blocks gather their own panels rather than share one gather
    /// through memory (`conv.rs`). Machines with exactly 1 MiB (Zen 4) were
    /// not measured either way.
    pub fn large_l2(&self) -> bool {
        #[cfg(test)]
        if SMALL_L2.with(std::cell::Cell::get) {
            return false;
        }
        self.l2 >= 1 << 20
    }

    /// The host's caches, read once per process; [`Caches::DEFAULT`] for a
    /// level the system does not describe.
    pub fn host() -> Caches {
        static HOST: OnceLock<Caches> = OnceLock::new();
        *HOST.get_or_init(|| Caches::read(Path::new("/sys/devices/system/cpu/cpu0/cache")))
    }

    /// Reads a sysfs cache folder (`index0`, `index1`, ... each with `level`,
    /// `type` and `size` such as `48K`). Sizes outside 4 KiB-64 MiB are taken
    /// for misreadings and ignored.
    pub fn read(dir: &Path) -> Caches {
        let mut c = Caches::DEFAULT;
        let Ok(entries) = std::fs::read_dir(dir) else {
            return c;
        };
        for e in entries.flatten() {
            let p = e.path();
            let field = |f: &str| std::fs::read_to_string(p.join(f)).map(|s| s.trim().to_string()).unwrap_or_default();
            let Some(size) = parse_size(&field("size")).filter(|s| (4 << 10..=64 << 20).contains(s)) else {
                continue;
            };
            match (field("level").as_str(), field("type").as_str()) {
                ("1", "Data" | "Unified") => c.l1d = size,
                ("2", "Data" | "Unified") => c.l2 = size,
                _ => {}
            }
        }
        c
    }
}

/// `48K`, `1024K`, `2M`, `65536` (bytes).
fn parse_size(s: &str) -> Option<u64> {
    let (digits, unit) = match s.char_indices().find(|(_, ch)| !ch.is_ascii_digit()) {
        Some((i, _)) => s.split_at(i),
        None => (s, ""),
    };
    let n: u64 = digits.parse().ok()?;
    let scale = match unit.trim() {
        "" => 1,
        "K" | "KB" | "KiB" => 1 << 10,
        "M" | "MB" | "MiB" => 1 << 20,
        _ => return None,
    };
    n.checked_mul(scale)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sysfs_cache_folders_are_read_and_bad_ones_ignored() {
        let dir = std::env::temp_dir().join(format!("smelt-caches-{}", std::process::id()));
        let index = |i: u32, level: &str, ty: &str, size: &str| {
            let d = dir.join(format!("index{i}"));
            std::fs::create_dir_all(&d).unwrap_or_else(|e| panic!("{e}"));
            for (f, v) in [("level", level), ("type", ty), ("size", size)] {
                std::fs::write(d.join(f), format!("{v}\n")).unwrap_or_else(|e| panic!("{e}"));
            }
        };
        index(0, "1", "Data", "48K");
        index(1, "1", "Instruction", "32K");
        index(2, "2", "Unified", "2048K");
        index(3, "3", "Unified", "32M");
        assert_eq!(Caches::read(&dir), Caches { l1d: 48 << 10, l2: 2 << 20 });
        // A size that cannot be a cache leaves the default.
        index(2, "2", "Unified", "0K");
        assert_eq!(Caches::read(&dir).l2, Caches::DEFAULT.l2);
        std::fs::remove_dir_all(&dir).ok();
        assert_eq!(Caches::read(&dir), Caches::DEFAULT);
        assert_eq!(parse_size("1M"), Some(1 << 20));
        assert_eq!(parse_size("12 KB"), Some(12 << 10));
        assert_eq!(parse_size("x"), None);
    }
}
