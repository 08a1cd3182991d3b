//! Generates five ids from a fixed seed and decodes one: `cargo run -p oid-core --example quickstart`.

use oid_core::{FixedClock, Generator, oid};

fn main() {
    let generator = Generator::from_seed(
        FixedClock::at(1_700_000_000),
        [0x3f, 0x2a, 0x91, 0xc8, 0xd4],
        12345,
    );
    for _ in 0..5 {
        println!("{}", generator.next());
    }
    let id = oid!("507f1f77bcf86cd799439011");
    println!(
        "{id:?} was created at {} seconds since the epoch",
        id.timestamp()
    );
}
