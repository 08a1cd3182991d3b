//! Links the firmware: our memory layout as `memory.x` in `OUT_DIR` plus the runtime's `link.x`
//! (cortex-m-rt's includes `memory.x` itself; riscv-rt's needs it passed first). On the host
//! (where the binaries are stubs) it does nothing.

use std::{env, fs, path::PathBuf};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-changed=memory/qemu.x");
    println!("cargo:rerun-if-changed=memory/sifive_e.x");
    if env::var("CARGO_CFG_TARGET_OS").as_deref() != Ok("none") {
        return Ok(());
    }
    let out = PathBuf::from(env::var("OUT_DIR")?);
    let arch = env::var("CARGO_CFG_TARGET_ARCH")?;
    let layout = match arch.as_str() {
        "arm" => "memory/qemu.x",
        "riscv32" => "memory/sifive_e.x",
        other => return Err(format!("no memory layout for {other}").into()),
    };
    fs::copy(layout, out.join("memory.x"))?;
    println!("cargo:rustc-link-search={}", out.display());
    if arch == "riscv32" {
        println!("cargo:rustc-link-arg-bins=-Tmemory.x");
    }
    println!("cargo:rustc-link-arg-bins=-Tlink.x");
    println!("cargo:rustc-env=FIRMWARE_TARGET={}", env::var("TARGET")?);
    Ok(())
}
