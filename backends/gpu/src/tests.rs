//! Launch dimensions and the block-combine model against serial references,
//! and the NVPTX module for small programs (no GPU needed).

use crate::plan::{self, Launch, MAX_ROW_BLOCK, Strategy, WARP};

#[test]
fn row_blocks_are_whole_warps_within_limits() {
    for len in [0, 1, 5, 31, 32, 33, 100, 255, 256, 257, 768, 1 << 20] {
        let b = plan::row_block(len);
        assert!(b.is_multiple_of(WARP) && (WARP..=MAX_ROW_BLOCK).contains(&b), "len {len}: block {b}");
        assert!(b as i64 >= len.min(MAX_ROW_BLOCK as i64), "len {len}: block {b} leaves threads idle-free");
    }
    assert_eq!(plan::row_block(768), 256);
    assert_eq!(plan::row_block(40), 64);
}

#[test]
fn grids_cover_every_item_once() {
    for n in [0i64, 1, 255, 256, 257, 1000, 70_000] {
        for s in [
            Strategy::Elementwise { points: n },
            Strategy::ColumnReduce { kept: n },
            Strategy::Outer { iterations: n },
            Strategy::RowReduce { rows: n, row_len: 8 },
        ] {
            let l = s.launch();
            assert!(l.grid >= 1 && l.block >= 1);
            let items = if matches!(s, Strategy::RowReduce { .. }) {
                // One row per block: a block-level grid-stride loop.
                plan::grid_stride(n, Launch { grid: l.grid, block: 1 })
            } else {
                plan::grid_stride(n, l)
            };
            let mut seen = vec![0u32; n as usize];
            for (_, _, i) in items {
                seen[i as usize] += 1;
            }
            assert!(seen.iter().all(|&c| c == 1), "{s:?}: some item not visited exactly once");
        }
    }
    // A grid capped at MAX_GRID still covers everything by striding.
    let l = Launch { grid: 3, block: 4 };
    let mut seen = vec![0; 100];
    for (_, _, i) in plan::grid_stride(100, l) {
        seen[i as usize] += 1;
    }
    assert!(seen.iter().all(|&c| c == 1));
    assert_eq!(Strategy::Elementwise { points: i64::MAX }.launch().grid as i64, plan::MAX_GRID);
    assert_eq!(Strategy::Serial.launch(), Launch { grid: 1, block: 1 });
}

/// `n` deterministic pseudo-random words.
fn values(n: usize, seed: u64) -> Vec<u64> {
    let mut rng = smelt_hlo::random::SplitMix::new(seed);
    (0..n).map(|_| rng.next_u64()).collect()
}

/// The row strategy's fold (strided partials, then the shuffle and shared
/// memory tree) equals the serial fold for associative, commutative reducers.
#[test]
fn block_combine_matches_serial_reduction() {
    type Op = fn(u32, u32) -> u32;
    let ops: [(Op, u32); 5] = [
        (|a, b| a.wrapping_add(b), 0),
        (|a, b| a.max(b), 0),
        (|a, b| a.min(b), u32::MAX),
        (|a, b| a ^ b, 0),
        (|a, b| a.wrapping_mul(b | 1), 1),
    ];
    for len in [0usize, 1, 2, 31, 32, 33, 64, 100, 255, 256, 257, 768, 1000, 4099] {
        let v: Vec<u32> = values(len, len as u64 + 7).into_iter().map(|x| (x >> 20) as u32).collect();
        let block = plan::row_block(len as i64);
        for (op, init) in ops {
            let serial = v.iter().fold(init, |a, &b| op(a, b));
            let partials = plan::thread_partials(&v, block, init, op);
            assert_eq!(partials.len(), block as usize);
            assert_eq!(plan::block_reduce(&partials, init, op), serial, "len {len}, block {block}");
        }
    }
}

/// Argmax reducers combine (value, index) pairs, preferring the lower index
/// on ties: associative and commutative, so the block combine picks the
/// serial answer, ties included.
#[test]
fn block_combine_keeps_argmax_ties_serial() {
    let argmax = |a: (i32, i64), b: (i32, i64)| {
        if a.0 > b.0 || (a.0 == b.0 && a.1 < b.1) { a } else { b }
    };
    for len in [1usize, 40, 256, 300, 1025] {
        let v: Vec<(i32, i64)> =
            values(len, 3).into_iter().enumerate().map(|(i, x)| ((x % 7) as i32, i as i64)).collect();
        let init = (i32::MIN, i64::MAX);
        let serial = v.iter().fold(init, |a, &b| argmax(a, b));
        let block = plan::row_block(len as i64);
        let got = plan::block_reduce(&plan::thread_partials(&v, block, init, argmax), init, argmax);
        assert_eq!(got, serial, "len {len}");
    }
}

/// Float sums reassociate: the block combine stays within a few ulps per
/// level of the serial sum on positive data.
#[test]
fn block_combine_float_sum_is_close() {
    for len in [10usize, 256, 768, 5000] {
        let v: Vec<f32> = values(len, 11).into_iter().map(|x| (x % 1000) as f32 / 7.0).collect();
        let serial: f64 = v.iter().map(|&x| x as f64).sum();
        let block = plan::row_block(len as i64);
        let got = plan::block_reduce(&plan::thread_partials(&v, block, 0.0f32, |a, b| a + b), 0.0, |a, b| a + b);
        assert!(((got as f64 - serial) / serial).abs() < 1e-5, "len {len}: {got} vs {serial}");
    }
}

#[test]
fn ptx_versions_cover_the_architectures() {
    assert_eq!(crate::codegen::ptx_version(80), 70);
    assert_eq!(crate::codegen::ptx_version(90), 78);
    assert_eq!(crate::codegen::ptx_version(87), 74);
    assert!(crate::codegen::ptx_version(100) >= 86);
}

#[test]
fn no_driver_is_a_clear_error() {
    if crate::driver_available() {
        eprintln!("a CUDA driver is present: the no-driver error is not reachable here");
        return;
    }
    let p = smelt_kernel::Program {
        name: "empty".into(),
        params: vec![],
        results: vec![],
        temp_bytes: 0,
        constants: vec![],
        kernels: vec![],
        steps: vec![],
    };
    let v = smelt_kernel::verify(&p).expect("an empty program is well formed");
    let e = crate::compile(&v, &crate::CompileOptions::default()).expect_err("no driver here");
    assert!(matches!(e, crate::GpuError::NoDriver));
    assert!(e.to_string().contains("no CUDA driver found"), "{e}");
    // PTX needs no driver.
    let ptx = crate::emit_ptx(&v, &crate::CompileOptions::default()).expect("an empty module");
    assert!(ptx.contains(".target sm_80"), "{ptx}");
}

/// Split reductions: the chunks cover every reduced point once, and folding
/// each chunk then folding the partials equals the serial fold.
#[test]
fn split_reductions_cover_and_combine() {
    assert_eq!(plan::splits_for(1, 1 << 28, plan::SPLIT_ROW_BLOCKS, plan::SPLIT_ROW_MIN_CHUNK), 1024);
    assert_eq!(plan::splits_for(4096, 768, plan::SPLIT_ROW_BLOCKS, plan::SPLIT_ROW_MIN_CHUNK), 1);
    assert_eq!(plan::splits_for(512, 128, plan::SPLIT_COLUMN_THREADS, plan::SPLIT_COLUMN_MIN_CHUNK), 1);
    for (len, splits) in [(1i64, 1i64), (10, 3), (4096, 7), (100_000, 24), (1 << 16, 1024)] {
        let chunk = plan::split_chunk(len, splits);
        let mut seen = vec![0u8; len as usize];
        for s in 0..splits {
            let (lo, hi) = (s * chunk, ((s + 1) * chunk).min(len));
            for j in lo..hi {
                seen[j as usize] += 1;
            }
        }
        assert!(seen.iter().all(|&c| c == 1), "len {len} splits {splits}");
        let v: Vec<u32> = values(len as usize, 5).into_iter().map(|x| x as u32).collect();
        let serial = v.iter().fold(0u32, |a, &b| a.wrapping_add(b));
        // Stage one: one block per chunk (strided partials, block combine).
        let partials: Vec<u32> = (0..splits)
            .map(|s| {
                let (lo, hi) = ((s * chunk).min(len), ((s + 1) * chunk).min(len));
                let part = &v[lo as usize..hi as usize];
                let add = |a: u32, b: u32| a.wrapping_add(b);
                plan::block_reduce(&plan::thread_partials(part, plan::BLOCK, 0, add), 0, add)
            })
            .collect();
        // Stage two: one block per row over the partials.
        let block = plan::row_block(splits);
        let add = |a: u32, b: u32| a.wrapping_add(b);
        assert_eq!(plan::block_reduce(&plan::thread_partials(&partials, block, 0, add), 0, add), serial);
    }
    let s = Strategy::SplitRowReduce { rows: 2, row_len: 1 << 20, splits: 256 };
    assert_eq!(s.launches().len(), 2);
    assert_eq!(s.launches()[0].grid, 512);
    assert_eq!(s.scratch_bytes(2), 2 * 256 * 16);
}

/// The transpose tile mapping as the generated code computes it: in phase
/// one thread `(ty, tx)` stages element `(a0 + tx, b0 + row)` into slot
/// `[row][tx]`; in phase two it computes `(a0 + row, b0 + tx)` from slot
/// `[tx][row]` (rows `ty, ty + 8, ...`). Every point of a tile is staged once
/// and computed once, from the slot holding its own element; consecutive
/// threads touch consecutive `a` in phase one (the input's innermost) and
/// consecutive `b` in phase two (the output's).
#[test]
fn transpose_tiles_stage_and_emit_every_point_once() {
    use crate::plan::{TILE, TILE_ROWS};
    let block = Strategy::Transpose { batch: 1, a: 0, tiles_a: 1, tiles_b: 1 }.launch().block as i64;
    assert_eq!(block, TILE * TILE / TILE_ROWS);
    let step = TILE / TILE_ROWS;
    let mut slot_holds = std::collections::HashMap::new();
    let mut staged = std::collections::HashSet::new();
    for tid in 0..block {
        let (tx, ty) = (tid % TILE, tid / TILE);
        for r in (0..TILE).step_by(step as usize) {
            let row = ty + r;
            assert!(staged.insert((tx, row)), "point staged twice");
            slot_holds.insert((row, tx), (tx, row)); // slot [row][tx] holds (a = tx, b = row)
        }
    }
    assert_eq!(staged.len() as i64, TILE * TILE);
    let mut emitted = std::collections::HashSet::new();
    for tid in 0..block {
        let (tx, ty) = (tid % TILE, tid / TILE);
        for r in (0..TILE).step_by(step as usize) {
            let row = ty + r;
            let point = (row, tx); // (a, b)
            assert!(emitted.insert(point), "point computed twice");
            assert_eq!(slot_holds[&(tx, row)], point, "slot [tx][row] holds another element");
        }
    }
    assert_eq!(emitted.len() as i64, TILE * TILE);
}

/// Sorts keep their threads' scratch slices within the heap budget; random
/// bits are two launches (the bits, then one thread for the new state).
#[test]
fn sort_and_rng_launches() {
    for (slices, max_threads) in [(1i64, 1i64), (8192, 100), (8192, 130), (8192, 1 << 20), (3, 1000)] {
        let l = Strategy::Sort { slices, max_threads }.launch();
        let threads = l.grid as i64 * l.block as i64;
        assert!(threads >= 1 && threads <= max_threads.max(1), "{slices} {max_threads}: {l:?}");
        assert!(threads <= slices.max(1), "{slices} {max_threads}: {l:?}");
        let covered = plan::grid_stride(slices, l).len() as i64;
        assert_eq!(covered, slices, "every slice is sorted once");
    }
    let rng = Strategy::Rng { iterations: 1000 }.launches();
    assert_eq!(rng.len(), 2);
    assert_eq!(rng[1], Launch { grid: 1, block: 1 });
}
