//! rand_core: a generator seeded from `rand::rngs::StdRng` and from `OsRng` through
//! `RngEntropy` (also re-exported as `oid_std::RngEntropy`).

use oid_core::{Entropy, FixedClock, Generator, RngEntropy};
use rand::rngs::{OsRng, StdRng};
use rand::{RngCore, SeedableRng};

#[test]
fn std_rng_seeds_the_generator_with_its_bytes() {
    let mut expected = [0u8; 8];
    StdRng::seed_from_u64(42).fill_bytes(&mut expected);

    let mut entropy = RngEntropy::new(StdRng::seed_from_u64(42));
    let generator =
        Generator::from_entropy(FixedClock::at(1_700_000_000), &mut entropy).expect("infallible");
    let id = generator.next();
    assert_eq!(id.bytes()[4..9], expected[..5], "random value");
    assert_eq!(id.bytes()[9..], expected[5..], "counter start");
    assert_eq!(generator.random(), expected[..5]);

    // The same seed gives the same generator; another seed another random value.
    let again = Generator::from_entropy(
        FixedClock::at(1_700_000_000),
        &mut RngEntropy::new(StdRng::seed_from_u64(42)),
    )
    .expect("infallible");
    assert_eq!(again.next(), id);
    let other = Generator::from_entropy(
        FixedClock::at(1_700_000_000),
        &mut oid_std::RngEntropy::new(StdRng::seed_from_u64(43)),
    )
    .expect("infallible");
    assert_ne!(other.random(), generator.random());
}

#[test]
fn os_rng_is_a_fallible_source() {
    // OsRng is a `TryRngCore` (its reads can fail), not an `RngCore`.
    let mut entropy = RngEntropy::new(OsRng);
    let a = Generator::from_entropy(FixedClock::at(1), &mut entropy).expect("the OS has entropy");
    let b = Generator::from_entropy(FixedClock::at(1), &mut entropy).expect("the OS has entropy");
    // Two 40-bit random values from the OS: equal with probability 2^-40.
    assert_ne!(a.random(), b.random());
    let mut buf = [0u8; 64];
    entropy.fill(&mut buf).expect("the OS has entropy");
    assert_ne!(buf, [0; 64]);
}

#[test]
fn the_thread_rng_works_too() {
    let mut entropy = RngEntropy::new(rand::rng());
    let generator = Generator::from_entropy(FixedClock::at(5), &mut entropy).expect("infallible");
    assert_eq!(generator.next().timestamp(), 5);
}
