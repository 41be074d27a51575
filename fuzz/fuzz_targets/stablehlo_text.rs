//! libFuzzer target for the StableHLO text door: [`smelt::fuzz::stablehlo_text`].
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    smelt::fuzz::stablehlo_text(data);
});
