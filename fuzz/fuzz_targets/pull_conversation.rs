#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| twenty48_fuzz::pull_conversation(data));
