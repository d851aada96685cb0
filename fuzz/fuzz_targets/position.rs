#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| konakis_fuzz::checks::position(data));
