//! Self-test firmware for `oid-embedded`, run under QEMU by `cargo xtask firmware` on
//! thumbv7m (lm3s6965evb), thumbv6m (microbit: a Cortex-M0 without compare-and-swap),
//! thumbv7em (mps2-an386), riscv32imc (sifive_e with an Ibex core, and with the generic core
//! without the A extension: no atomic instructions) and riscv32imac (sifive_e).
//!
//! It checks the worked example, the legacy layout and text round trips, then sets up a
//! `static` generator at boot, shares it between the main loop and a timer interrupt, makes
//! 10,000 ids in the main loop (plus those the interrupt makes meanwhile), checks that they are
//! unique and increasing and that the counter wrapped, prints a few over semihosting and exits
//! with status 0 (all checks passed) or 1.
//!
//! On the host this binary is a stub that says where it runs.
#![cfg_attr(target_os = "none", no_std, no_main)]

#[cfg(all(target_arch = "arm", target_os = "none"))]
#[path = "cortex_m.rs"]
mod platform;
#[cfg(all(target_arch = "riscv32", target_os = "none"))]
#[path = "riscv.rs"]
mod platform;
#[cfg(target_os = "none")]
mod selftest;

#[cfg(not(target_os = "none"))]
fn main() {
    eprintln!(
        "oid-embedded-firmware runs on thumb and riscv32 targets under QEMU: use `cargo xtask firmware`"
    );
}
