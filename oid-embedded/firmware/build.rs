//! Links the firmware for thumb targets: our memory layout as `memory.x` plus cortex-m-rt's
//! `link.x`. On the host (where the binaries are stubs) it does nothing.

use std::{env, fs, path::PathBuf};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-changed=memory/qemu.x");
    if env::var("CARGO_CFG_TARGET_OS").as_deref() != Ok("none") {
        return Ok(());
    }
    let out = PathBuf::from(env::var("OUT_DIR")?);
    fs::copy("memory/qemu.x", out.join("memory.x"))?;
    println!("cargo:rustc-link-search={}", out.display());
    println!("cargo:rustc-link-arg-bins=-Tlink.x");
    println!("cargo:rustc-env=FIRMWARE_TARGET={}", env::var("TARGET")?);
    Ok(())
}
