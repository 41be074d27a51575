//! libFuzzer target for the HloModuleProto door: [`smelt::fuzz::hlo_proto`].
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    smelt::fuzz::hlo_proto(data);
});
