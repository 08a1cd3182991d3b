//! Self-test firmware for `oid-embedded`, run under QEMU by `cargo xtask firmware` on
//! thumbv7m (lm3s6965evb), thumbv6m (microbit: a Cortex-M0 without compare-and-swap) and
//! thumbv7em (mps2-an386).
//!
//! It sets up a `static` generator at boot, shares it between the main loop and the SysTick
//! interrupt, makes 10,000 ids in the main loop (plus those the interrupt makes meanwhile),
//! checks that they are unique and increasing and that the counter wrapped, prints a few over
//! semihosting and exits with status 0 (all checks passed) or 1.
//!
//! On the host this binary is a stub that says where it runs.
#![cfg_attr(target_os = "none", no_std, no_main)]

#[cfg(target_os = "none")]
mod selftest;

#[cfg(not(target_os = "none"))]
fn main() {
    eprintln!("oid-embedded-firmware runs on thumb targets under QEMU: use `cargo xtask firmware`");
}
