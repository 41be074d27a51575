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
//! the checksum matches, and the key (which covers the smelt version and the
//! host CPU's features) makes stale code unreachable.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use crate::key::Key;

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

#[derive(Clone, Debug)]
pub(crate) struct DiskCache {
    dir: PathBuf,
}

impl DiskCache {
    pub(crate) fn new(dir: &Path) -> DiskCache {
        DiskCache { dir: dir.to_path_buf() }
    }

    pub(crate) fn dir(&self) -> &Path {
        &self.dir
    }

    pub(crate) fn path(&self, key: &Key) -> PathBuf {
        self.dir.join(format!("{}.smeltc", key.hex()))
    }

    /// The payload stored under `key`, checked.
    pub(crate) fn load(&self, key: &Key) -> Lookup {
        let bytes = match std::fs::read(self.path(key)) {
            Ok(b) => b,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Lookup::Miss,
            Err(e) => return Lookup::Bad(format!("unreadable: {e}")),
        };
        match decode(&bytes, key) {
            Ok(payload) => Lookup::Hit(payload.to_vec()),
            Err(why) => Lookup::Bad(why),
        }
    }

    /// Stores `payload` under `key` atomically (temporary file, then rename).
    pub(crate) fn store(&self, key: &Key, payload: &[u8]) -> std::io::Result<()> {
        static SEQ: AtomicU64 = AtomicU64::new(0);
        std::fs::create_dir_all(&self.dir)?;
        let tmp =
            self.dir.join(format!(".{}.{}.{}.tmp", key.hex(), std::process::id(), SEQ.fetch_add(1, Ordering::Relaxed)));
        let result = (|| {
            let mut f = std::fs::File::create(&tmp)?;
            f.write_all(&encode(key, payload))?;
            f.sync_all()?;
            std::fs::rename(&tmp, self.path(key))
        })();
        if result.is_err() {
            let _ = std::fs::remove_file(&tmp);
        }
        result
    }
}

/// Header and payload of an entry.
pub(crate) fn encode(key: &Key, payload: &[u8]) -> Vec<u8> {
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
pub(crate) fn decode<'a>(bytes: &'a [u8], key: &Key) -> Result<&'a [u8], String> {
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
