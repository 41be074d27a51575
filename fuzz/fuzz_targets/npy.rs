//! libFuzzer target for the npy door: [`smelt::fuzz::npy`].
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    smelt::fuzz::npy(data);
});
