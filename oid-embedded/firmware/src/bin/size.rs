//! Self-test firmware (placeholder while it is being written).
#![cfg_attr(target_os = "none", no_std, no_main)]

#[cfg(not(target_os = "none"))]
fn main() {
    eprintln!("oid-embedded-firmware runs on thumb targets: use `cargo xtask firmware`");
}
