//! libFuzzer target for the cache entry door: [`smelt::fuzz::cache_entry`].
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    smelt::fuzz::cache_entry(data);
});
