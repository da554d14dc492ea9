//! A BOARD body through the parser and the session. See `harness.rs`.
#![no_main]

#[path = "../harness.rs"]
#[allow(dead_code)] // Each target uses one of the checks.
mod harness;

libfuzzer_sys::fuzz_target!(|data: &[u8]| harness::board(data));
