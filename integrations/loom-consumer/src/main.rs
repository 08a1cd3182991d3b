//! An application that runs its own loom tests builds everything with `RUSTFLAGS="--cfg loom"`
//! (tokio's convention). The workspace's crates must not change under that cfg: oid-core's
//! loom atomics and its non-`const` constructors are `cfg(all(test, loom))`, so these statics
//! compile, and oid-std's process-wide generator (a static of its own) works.
//! `cargo xtask loom-consumer` builds and runs this with `--cfg loom`.

use oid_core::{FixedClock, Generator, IdSpace};
use oid_embedded::SharedGenerator;

/// oid-core's `const` id space.
static SPACE: IdSpace = IdSpace::new([1, 2, 3, 4, 5], 0);

/// oid-core's `const` generator.
static GENERATOR: Generator<FixedClock> =
    Generator::from_seed(FixedClock::at(1_700_000_000), [6, 7, 8, 9, 10], 0);

/// oid-core's `const` legacy-layout generator.
static LEGACY: Generator<FixedClock> =
    Generator::from_legacy(FixedClock::at(1_700_000_000), 0xbcf86c, 0xd799, 0x439011);

/// oid-embedded's `const` shared generator.
static SHARED: SharedGenerator<FixedClock> = SharedGenerator::new(FixedClock::at(1_700_000_000));

fn main() -> Result<(), Box<dyn std::error::Error>> {
    // The step that runs this sets the cfg; without it this would prove nothing.
    if !cfg!(loom) {
        return Err("build with RUSTFLAGS=\"--cfg loom\" (cargo xtask loom-consumer)".into());
    }
    let a = oid_std::new();
    let b = oid_std::new();
    if a == b || a.timestamp() == 0 {
        return Err(format!("oid_std::new(): {a} then {b}").into());
    }

    let id = GENERATOR.try_next()?;
    if id.timestamp() != 1_700_000_000 || id.to_parts().random != [6, 7, 8, 9, 10] {
        return Err(format!("Generator::from_seed static: {id}").into());
    }
    let id = LEGACY.try_next()?;
    if id.to_hex().as_str() != "6553f100bcf86cd799439011" {
        return Err(format!("Generator::from_legacy static: {id}").into());
    }
    if SPACE.random() != [1, 2, 3, 4, 5] {
        return Err("IdSpace::new static: wrong random value".into());
    }

    SHARED.init_with_seed([11, 12, 13, 14, 15], 0)?;
    let id = SHARED.try_next()?;
    if id.to_parts().random != [11, 12, 13, 14, 15] {
        return Err(format!("SharedGenerator static: {id}").into());
    }

    println!("--cfg loom: oid_std::new() {a}, {b}; the const statics work");
    Ok(())
}
