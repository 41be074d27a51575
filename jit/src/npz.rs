//! NumPy's `.npz` archives (a zip of `.npy` files, stored uncompressed), for
//! variable checkpoints and calibration batches: one reader and one writer.

use std::path::Path;

use smelt_hlo::Array;

/// Writes `arrays` as `<name>.npy` entries of an uncompressed `.npz` (what
/// `np.savez` writes and `np.load` reads).
pub fn write(path: &Path, arrays: &[(String, Array)]) -> Result<(), String> {
    let io = |e: &dyn std::fmt::Display| format!("{}: {e}", path.display());
    let file = std::fs::File::create(path).map_err(|e| io(&e))?;
    let mut zip = zip::ZipWriter::new(std::io::BufWriter::new(file));
    let stored = zip::write::SimpleFileOptions::default().compression_method(zip::CompressionMethod::Stored);
    for (name, a) in arrays {
        zip.start_file(format!("{name}.npy"), stored).map_err(|e| io(&e))?;
        std::io::Write::write_all(&mut zip, &smelt_hlo::npy::to_bytes(a)).map_err(|e| io(&e))?;
    }
    zip.finish().map_err(|e| io(&e))?;
    Ok(())
}

/// Reads every entry of an uncompressed `.npz`, named without `.npy`.
pub fn read(path: &Path) -> Result<Vec<(String, Array)>, String> {
    let io = |e: &dyn std::fmt::Display| format!("{}: {e}", path.display());
    let hint = "(.npz archives are read uncompressed: write them with np.savez, not np.savez_compressed)";
    let file = std::fs::File::open(path).map_err(|e| io(&e))?;
    let mut zip = zip::ZipArchive::new(std::io::BufReader::new(file)).map_err(|e| io(&e))?;
    let mut arrays = Vec::with_capacity(zip.len());
    for i in 0..zip.len() {
        let mut entry = zip.by_index(i).map_err(|e| io(&format!("{e} {hint}")))?;
        let full = entry.name().map_err(|e| io(&e))?.to_string();
        let name = full.strip_suffix(".npy").unwrap_or(&full).to_string();
        let mut bytes = Vec::with_capacity(entry.size() as usize);
        std::io::Read::read_to_end(&mut entry, &mut bytes).map_err(|e| io(&format!("{name}: {e} {hint}")))?;
        let a = smelt_hlo::npy::from_bytes(&bytes, None, &name).map_err(|e| io(&e))?;
        arrays.push((name, a));
    }
    Ok(arrays)
}
