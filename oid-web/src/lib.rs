#![doc = include_str!("../README.md")]
#![no_std]
#![deny(unsafe_code)]

// The page's wasm is `no_std` with the panic handler below. Host builds (clippy, rustdoc and
// the unit tests) link std instead and take its panic handler, so `cargo test --workspace`
// never sees two.
#[cfg(not(target_arch = "wasm32"))]
extern crate std;

mod exports;
mod logic;

pub use crate::exports::*;

/// Nothing in this crate panics on purpose (no `unwrap`, no `expect`, and slices are sized by
/// construction); should a panic happen anyway, the wasm traps and the page shows the error.
#[cfg(target_arch = "wasm32")]
#[panic_handler]
fn panic(_: &core::panic::PanicInfo<'_>) -> ! {
    core::arch::wasm32::unreachable()
}
