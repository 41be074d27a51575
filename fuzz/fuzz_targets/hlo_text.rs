//! libFuzzer target for the hlo text door: [`smelt::fuzz::hlo_text`].
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    smelt::fuzz::hlo_text(data);
});
