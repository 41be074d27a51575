//! The persistent cache: compiled LLVM code in files, shared between processes.
//!
//! One file per key, `<dir>/<key hex>.smeltc`:
//!
//! ```text
//! magic    8 bytes   "SMELTJC\0"
//! version  u32 LE    FORMAT_VERSION (this header)
//! key      32 bytes  the cache key the entry was stored under
//! length   u64 LE    payload bytes
//! checksum 32 bytes  BLAKE3 of the payload
//! payload            smelt_cpu::CompiledObject::to_bytes
//! ```
//!
//! Entries are written to a temporary file in the same folder and renamed into
//! place, so a reader sees a whole entry or none, and concurrent writers of one
//! key (two processes compiling the same program) both succeed. A reader checks
//! everything: magic, version, key, length and checksum, then the payload's own
//! format. An entry that fails any check (truncated, corrupt, from another
//! smelt) is reported as [`Lookup::Bad`]: the client logs it once per process,
//! compiles afresh and overwrites it. Nothing read from disk is trusted before
//! the checksum matches, and the key (which covers the smelt version and build and
//! the host CPU's features) makes stale code unreachable.
//!
//! The folder is bounded: after every store, entries are evicted least
//! recently used first (a hit sets the entry's modification time) until the
//! folder holds at most its limit (`SMELT_CACHE_MAX`, default 1 GiB). Eviction
//! runs under an exclusive lock on `<dir>/.lock`, so processes evict one at a
//! time; it never breaks a reader, because a reader reads an entry whole
//! through one open file, and removing a file leaves an open one readable (a
//! reader that opens after the removal sees a miss and compiles). Temporary
//! files of writers that died are removed once they are an hour old.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, SystemTime};

use crate::JitError;
use crate::key::Key;

/// The environment variable that bounds the folder's size.
pub const MAX_ENV: &str = "SMELT_CACHE_MAX";
/// The folder's size bound when `SMELT_CACHE_MAX` is unset.
pub const DEFAULT_MAX_BYTES: u64 = 1 << 30;
const ENTRY_SUFFIX: &str = ".smeltc";
const LOCK_FILE: &str = ".lock";
/// A writer's temporary file this old belongs to a process that died.
const STALE_TEMPORARY: Duration = Duration::from_secs(3600);

const MAGIC: &[u8; 8] = b"SMELTJC\0";
/// Version of the entry header; the payload has its own.
pub const FORMAT_VERSION: u32 = 1;
const HEADER: usize = 8 + 4 + 32 + 8 + 32;

/// What a lookup found.
pub(crate) enum Lookup {
    Miss,
    Hit(Vec<u8>),
    Bad(String),
}

/// A persistent cache folder and its size bound.
#[derive(Clone, Debug)]
pub struct DiskCache {
    dir: PathBuf,
    max_bytes: u64,
}

/// What a cache folder holds ([`DiskCache::stats`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DiskStats {
    pub entries: usize,
    pub bytes: u64,
    pub max_bytes: u64,
}

impl DiskCache {
    /// The cache in `dir`, bounded by `max_bytes`.
    pub fn new(dir: &Path, max_bytes: u64) -> DiskCache {
        DiskCache { dir: dir.to_path_buf(), max_bytes }
    }

    /// The cache in `dir`, bounded by `SMELT_CACHE_MAX` (a size: bytes, or a
    /// number with a K, M, G or T suffix), else [`DEFAULT_MAX_BYTES`].
    pub fn from_env(dir: &Path) -> Result<DiskCache, JitError> {
        Ok(DiskCache::new(dir, max_bytes_from_env()?))
    }

    /// `$SMELT_CACHE_DIR`, when set and not empty: the folder of the
    /// persistent cache when a client is not given one.
    pub fn dir_from_env() -> Option<PathBuf> {
        std::env::var_os("SMELT_CACHE_DIR").filter(|d| !d.is_empty()).map(PathBuf::from)
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }

    pub fn max_bytes(&self) -> u64 {
        self.max_bytes
    }

    pub(crate) fn path(&self, key: &Key) -> PathBuf {
        self.dir.join(format!("{}{ENTRY_SUFFIX}", key.hex()))
    }

    /// The payload stored under `key`, checked; a hit marks the entry used.
    pub(crate) fn load(&self, key: &Key) -> Lookup {
        let path = self.path(key);
        let bytes = match std::fs::read(&path) {
            Ok(b) => b,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Lookup::Miss,
            Err(e) => return Lookup::Bad(format!("unreadable: {e}")),
        };
        match decode(&bytes, key) {
            Ok(payload) => {
                // Recency for eviction; a read-only folder just keeps the old order.
                if let Ok(f) = std::fs::File::options().append(true).open(&path) {
                    let _ = f.set_modified(SystemTime::now());
                }
                Lookup::Hit(payload.to_vec())
            }
            Err(why) => Lookup::Bad(why),
        }
    }

    /// Stores `payload` under `key` atomically (temporary file, then rename),
    /// then evicts down to the bound. An entry larger than the bound is not
    /// stored.
    pub(crate) fn store(&self, key: &Key, payload: &[u8]) -> std::io::Result<()> {
        static SEQ: AtomicU64 = AtomicU64::new(0);
        let entry = encode(key, payload);
        if entry.len() as u64 > self.max_bytes {
            return Ok(());
        }
        std::fs::create_dir_all(&self.dir)?;
        let tmp =
            self.dir.join(format!(".{}.{}.{}.tmp", key.hex(), std::process::id(), SEQ.fetch_add(1, Ordering::Relaxed)));
        let result = (|| {
            let mut f = std::fs::File::create(&tmp)?;
            f.write_all(&entry)?;
            f.sync_all()?;
            std::fs::rename(&tmp, self.path(key))
        })();
        if result.is_err() {
            let _ = std::fs::remove_file(&tmp);
            return result;
        }
        self.evict(self.max_bytes).map(|_| ())
    }

    /// Removes least recently used entries until the folder holds at most
    /// `keep_bytes` of them; returns how many were removed.
    fn evict(&self, keep_bytes: u64) -> std::io::Result<usize> {
        let _lock = self.lock()?;
        let mut entries = self.entries()?;
        let mut total: u64 = entries.iter().map(|e| e.bytes).sum();
        // Oldest first; the name breaks ties so that every process agrees.
        entries.sort_by(|a, b| (a.used, &a.path).cmp(&(b.used, &b.path)));
        let mut removed = 0;
        for e in entries {
            if total <= keep_bytes {
                break;
            }
            match std::fs::remove_file(&e.path) {
                Ok(()) => removed += 1,
                Err(err) if err.kind() == std::io::ErrorKind::NotFound => {}
                Err(err) => return Err(err),
            }
            total -= e.bytes;
        }
        Ok(removed)
    }

    /// What the folder holds now (an absent folder holds nothing).
    pub fn stats(&self) -> std::io::Result<DiskStats> {
        let entries = self.entries()?;
        Ok(DiskStats {
            entries: entries.len(),
            bytes: entries.iter().map(|e| e.bytes).sum(),
            max_bytes: self.max_bytes,
        })
    }

    /// Removes every entry; returns how many there were.
    pub fn clear(&self) -> std::io::Result<usize> {
        self.evict(0)
    }

    /// An exclusive lock on the folder's lock file, held while the guard lives.
    fn lock(&self) -> std::io::Result<std::fs::File> {
        std::fs::create_dir_all(&self.dir)?;
        let f = std::fs::File::options().create(true).truncate(false).write(true).open(self.dir.join(LOCK_FILE))?;
        f.lock()?;
        Ok(f)
    }

    /// The entries in the folder; removes writers' stale temporary files on the way.
    fn entries(&self) -> std::io::Result<Vec<Entry>> {
        let listing = match std::fs::read_dir(&self.dir) {
            Ok(l) => l,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
            Err(e) => return Err(e),
        };
        let now = SystemTime::now();
        let mut out = Vec::new();
        for item in listing {
            let item = item?;
            let name = item.file_name();
            let name = name.to_string_lossy();
            // Another process may remove a file between the listing and this.
            let Ok(meta) = item.metadata() else { continue };
            let used = meta.modified().unwrap_or(SystemTime::UNIX_EPOCH);
            if name.starts_with('.') && name.ends_with(".tmp") {
                if now.duration_since(used).is_ok_and(|age| age > STALE_TEMPORARY) {
                    let _ = std::fs::remove_file(item.path());
                }
            } else if name.ends_with(ENTRY_SUFFIX) && meta.is_file() {
                out.push(Entry { path: item.path(), bytes: meta.len(), used });
            }
        }
        Ok(out)
    }
}

struct Entry {
    path: PathBuf,
    bytes: u64,
    used: SystemTime,
}

/// `SMELT_CACHE_MAX`, else [`DEFAULT_MAX_BYTES`].
pub(crate) fn max_bytes_from_env() -> Result<u64, JitError> {
    match std::env::var(MAX_ENV) {
        Err(_) => Ok(DEFAULT_MAX_BYTES),
        Ok(text) => smelt_hlo::budget::parse_size(&text).ok_or_else(|| {
            JitError::Setting(format!(
                "{MAX_ENV}={text:?} is not a size (bytes, or a number with a K, M, G or T suffix)"
            ))
        }),
    }
}

/// Header and payload of an entry.
pub fn encode(key: &Key, payload: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(HEADER + payload.len());
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
    out.extend_from_slice(&key.0);
    out.extend_from_slice(&(payload.len() as u64).to_le_bytes());
    out.extend_from_slice(blake3::hash(payload).as_bytes());
    out.extend_from_slice(payload);
    out
}

/// The payload of an entry, if every header check passes.
pub fn decode<'a>(bytes: &'a [u8], key: &Key) -> Result<&'a [u8], String> {
    if bytes.len() < HEADER {
        return Err(format!("truncated header ({} bytes)", bytes.len()));
    }
    let (header, payload) = bytes.split_at(HEADER);
    if &header[..8] != MAGIC {
        return Err("not a smelt cache entry (bad magic)".into());
    }
    let version = u32::from_le_bytes([header[8], header[9], header[10], header[11]]);
    if version != FORMAT_VERSION {
        return Err(format!("entry format {version}, expected {FORMAT_VERSION}"));
    }
    if header[12..44] != key.0 {
        return Err("entry stored under another key".into());
    }
    let mut len = [0u8; 8];
    len.copy_from_slice(&header[44..52]);
    let len = u64::from_le_bytes(len);
    if len != payload.len() as u64 {
        return Err(format!("payload of {} bytes, header says {len}", payload.len()));
    }
    if header[52..84] != *blake3::hash(payload).as_bytes() {
        return Err("checksum mismatch".into());
    }
    Ok(payload)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stores_evict_the_least_recently_used_entries_beyond_the_bound() {
        let dir = tempfile::tempdir().unwrap();
        let payload = vec![0u8; 1000];
        let entry = encode(&Key([0; 32]), &payload).len() as u64;
        let cache = DiskCache::new(dir.path(), 3 * entry);
        let key = |i: u8| Key([i; 32]);
        for i in 0..3 {
            cache.store(&key(i), &payload).unwrap();
            // Distinct, ordered modification times.
            let f = std::fs::File::options().append(true).open(cache.path(&key(i))).unwrap();
            f.set_modified(SystemTime::UNIX_EPOCH + Duration::from_secs(1000 + u64::from(i))).unwrap();
        }
        assert!(matches!(cache.load(&key(0)), Lookup::Hit(_)), "a hit makes entry 0 the most recent");
        cache.store(&key(3), &payload).unwrap();
        assert_eq!(cache.stats().unwrap(), DiskStats { entries: 3, bytes: 3 * entry, max_bytes: 3 * entry });
        assert!(matches!(cache.load(&key(1)), Lookup::Miss), "entry 1 was the least recently used");
        for i in [0, 2, 3] {
            assert!(matches!(cache.load(&key(i)), Lookup::Hit(_)), "entry {i}");
        }
        let too_big = vec![0u8; 4 * 1000];
        cache.store(&key(9), &too_big).unwrap();
        assert!(matches!(cache.load(&key(9)), Lookup::Miss), "larger than the bound: not stored");
        assert_eq!(cache.clear().unwrap(), 3);
        assert_eq!(cache.stats().unwrap().entries, 0);
    }

    #[test]
    fn entry_round_trip_and_every_truncation_or_flip_is_rejected() {
        let key = Key([7; 32]);
        let bytes = encode(&key, b"payload bytes");
        assert_eq!(decode(&bytes, &key).unwrap(), b"payload bytes");
        assert!(decode(&bytes, &Key([8; 32])).is_err());
        for n in 0..bytes.len() {
            assert!(decode(&bytes[..n], &key).is_err());
        }
        for i in 0..bytes.len() {
            let mut b = bytes.clone();
            b[i] ^= 1;
            assert!(decode(&b, &key).is_err(), "flip at {i}");
        }
    }
}
