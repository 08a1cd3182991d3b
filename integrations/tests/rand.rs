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
    assert_eq!(generator.ids().random(), expected[..5]);

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
    assert_ne!(other.ids().random(), generator.ids().random());
}

#[test]
fn os_rng_is_a_fallible_source() {
    // OsRng is a `TryRngCore` (its reads can fail), not an `RngCore`.
    let mut entropy = RngEntropy::new(OsRng);
    let a = Generator::from_entropy(FixedClock::at(1), &mut entropy).expect("the OS has entropy");
    let b = Generator::from_entropy(FixedClock::at(1), &mut entropy).expect("the OS has entropy");
    // Two 40-bit random values from the OS: equal with probability 2^-40.
    assert_ne!(a.ids().random(), b.ids().random());
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

/// rand_core 0.6: a generator seeded through `oid_core::rand_core_0_6::RngEntropy` from
/// `rand_chacha` 0.3's `ChaCha8Rng` (a 0.6 RNG, as the embassy and esp-hal RNGs are) takes the
/// random value and the counter start from its stream, so a fixed seed gives fixed ids.
#[test]
fn a_rand_core_0_6_chacha_seeds_the_generator_deterministically() {
    use rand_chacha_0_3::ChaCha8Rng;
    use rand_core_0_6::{RngCore as RngCore06, SeedableRng as SeedableRng06};

    let seeded = |seed: u64| {
        let mut entropy = oid_core::rand_core_0_6::RngEntropy::new(ChaCha8Rng::seed_from_u64(seed));
        Generator::from_entropy(FixedClock::at(1_700_000_000), &mut entropy).expect("infallible")
    };
    let mut expected = [0u8; 8];
    ChaCha8Rng::seed_from_u64(2026).fill_bytes(&mut expected);

    let generator = seeded(2026);
    let ids: Vec<_> = (0..3).map(|_| generator.next()).collect();
    assert_eq!(ids[0].bytes()[..4], 1_700_000_000u32.to_be_bytes());
    assert_eq!(ids[0].bytes()[4..9], expected[..5], "random value");
    assert_eq!(ids[0].bytes()[9..], expected[5..], "counter start");
    // The same seed: the same ids; through oid-std's re-export and a borrowed RNG too.
    let again = seeded(2026);
    assert_eq!((0..3).map(|_| again.next()).collect::<Vec<_>>(), ids);
    let mut rng = ChaCha8Rng::seed_from_u64(2026);
    let borrowed = Generator::from_entropy(
        FixedClock::at(1_700_000_000),
        &mut oid_std::rand_core_0_6::RngEntropy::new(&mut rng),
    )
    .expect("infallible");
    assert_eq!(borrowed.next(), ids[0]);
    // The RNG moved on by exactly the 8 bytes drawn.
    let mut rest = ChaCha8Rng::seed_from_u64(2026);
    rest.fill_bytes(&mut [0u8; 8]);
    assert_eq!(rng.next_u64(), rest.next_u64());
    // Another seed, another random value.
    assert_ne!(seeded(2027).ids().random(), generator.ids().random());
}
