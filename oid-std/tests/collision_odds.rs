//! Computes the tables of `docs/uniqueness.md` and checks that the page shows exactly these
//! numbers (`cargo test -p oid-std --test collision_odds -- --nocapture` prints them).
//!
//! Model: `n` processes run at once (on any number of machines). Each draws its 5-byte random
//! value and its counter's start uniformly from the OS random source, and makes `rate` ids per
//! second. Two processes can make the same id only if they share the random value (probability
//! 2^-40 per pair) **and** their counters cover a common value in the same second. With equal
//! steady rates the distance between their counters stays fixed, and their ranges of a second
//! overlap when that distance is below `rate` either way: probability
//! `q = min(1, (2 rate - 1) / 2^24)`; at the full 2^24 ids per second (or with bursts and
//! unequal rates, eventually) `q = 1`. With `pairs` such chances,
//!
//!     p = 1 - (1 - q / 2^40)^pairs  ~=  1 - exp(-pairs q / 2^40)
//!
//! and for `q = 1` among `n` processes the birthday bound, computed exactly:
//! `1 - prod_{k=1}^{n-1} (1 - k / 2^40)`.
//!
//! A restart draws a new random value. Two process slots that each restart `r` times a day
//! live through about `1 + 2 r T` pairs of overlapping lifetimes in `T` days, so over a year
//! `pairs = n (n - 1) / 2 * (1 + 2 r 365)`.

const RANDOM_VALUES: f64 = (1u64 << 40) as f64;
const COUNTERS: f64 = (1u64 << 24) as f64;
const PROCESSES: [u64; 6] = [10, 100, 1_000, 10_000, 100_000, 1_000_000];

/// Birthday bound over 2^40 values, exact (a sum of logarithms).
fn share_exact(n: u64) -> f64 {
    let log_none: f64 = (1..n).map(|k| (-(k as f64) / RANDOM_VALUES).ln_1p()).sum();
    -log_none.exp_m1()
}

/// The chance that a pair sharing a random value also shares a counter value in a second.
fn overlap(rate: f64) -> f64 {
    ((2.0 * rate - 1.0) / COUNTERS).min(1.0)
}

/// `1 - (1 - q / 2^40)^pairs`.
fn any_of(pairs: f64, q: f64) -> f64 {
    -(pairs * (-q / RANDOM_VALUES).ln_1p()).exp_m1()
}

fn pairs(n: u64) -> f64 {
    let n = n as f64;
    n * (n - 1.0) / 2.0
}

/// Pairs of overlapping lifetimes over a year with `per_day` restarts per process.
fn pairs_in_a_year(n: u64, per_day: f64) -> f64 {
    pairs(n) * (1.0 + 2.0 * per_day * 365.0)
}

/// Two significant digits; scientific notation below 0.01.
fn show(p: f64) -> String {
    if p > 0.995 {
        "> 0.99".to_owned()
    } else if p >= 0.1 {
        format!("{p:.2}")
    } else if p >= 0.01 {
        format!("{p:.3}")
    } else {
        let s = format!("{p:.1e}");
        match s.split_once('e') {
            Some((mantissa, exp)) => format!("{mantissa} × 10^{exp}"),
            None => s,
        }
    }
}

fn with_commas(n: u64) -> String {
    let s = n.to_string();
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

fn tables() -> String {
    let mut t = String::from(
        "| processes running at once | two share a random value | a repeat possible, 1,000 ids/s each | 100,000 ids/s each | 2^24 ids/s each |\n\
         |---:|---:|---:|---:|---:|\n",
    );
    for n in PROCESSES {
        t += &format!(
            "| {} | {} | {} | {} | {} |\n",
            with_commas(n),
            show(share_exact(n)),
            show(any_of(pairs(n), overlap(1_000.0))),
            show(any_of(pairs(n), overlap(100_000.0))),
            show(any_of(pairs(n), overlap(COUNTERS))),
        );
    }
    t += "\n| processes running at once | over a year, counters meeting (worst case), never restarted | restarted daily | hourly | every minute |\n\
          |---:|---:|---:|---:|---:|\n";
    for n in PROCESSES {
        t += &format!(
            "| {} | {} | {} | {} | {} |\n",
            with_commas(n),
            show(any_of(pairs_in_a_year(n, 0.0), 1.0)),
            show(any_of(pairs_in_a_year(n, 1.0), 1.0)),
            show(any_of(pairs_in_a_year(n, 24.0), 1.0)),
            show(any_of(pairs_in_a_year(n, 1440.0), 1.0)),
        );
    }
    t
}

/// Random values a process uses over `seconds` of steady load at `rate` ids per second under
/// `CapacityPolicy::Rotate`. A new second opens with the value in use (no change); a change comes
/// only when a second's 2^24 ids are spent within it, so a second of `rate` ids uses
/// `ceil(rate / 2^24)` values, all but the first new. Under `Wait` a process stays at one value
/// (capped at 2^24 ids per second; a burst waits).
fn values_used(rate: f64, seconds: f64) -> f64 {
    1.0 + seconds * ((rate / COUNTERS).ceil() - 1.0).max(0.0)
}

fn values_in_a_day(rate: f64) -> f64 {
    values_used(rate, 86_400.0)
}

/// Two processes each using `v` values share one with probability about `(2v - 1) / 2^40`
/// (runs on a cycle from random starting points; per-process steps make the values scattered
/// instead, `1 - (1 - v / 2^40)^v`, the same to the digits shown).
fn rotation_table() -> String {
    let mut t = String::from(
        "| load | random values used | two such processes share one | any two of 1,000 such processes |\n\
         |---|---:|---:|---:|\n",
    );
    for (label, v) in [
        ("any, under `Wait`; up to 2^24 ids/s under `Rotate`", 1.0),
        (
            "a burst of 10^9 ids at 10^8 ids/s, under `Rotate`",
            values_used(1e8, 10.0),
        ),
        ("10^8 ids/s for a day, under `Rotate`", values_in_a_day(1e8)),
        ("10^9 ids/s for a day, under `Rotate`", values_in_a_day(1e9)),
    ] {
        let q = (2.0 * v - 1.0).min(RANDOM_VALUES);
        t += &format!(
            "| {label} | {} | {} | {} |\n",
            with_commas(v as u64),
            show(q / RANDOM_VALUES),
            show(any_of(pairs(1_000), q)),
        );
    }
    t
}

/// Seconds in a (365-day) year.
const YEAR: f64 = 365.0 * 86_400.0;

/// Expected repeated ids in a year among `n` processes making `rate` ids per second each.
/// Per pair and second: each value one process uses in that second equals each value the other
/// uses with probability 2^-40, and two values in use share `rate_on_it^2 / 2^24` counters on
/// average (ranges of consecutive counters at independent random offsets); summed over the
/// `ceil(rate / 2^24)` values of each, `rate^2 / 2^24` whatever the policy. This holds for any
/// derivation of new values that leaves each value uniform: the derivation decides only how the
/// repeats cluster (see `meeting`).
fn expected_repeats(n: u64, rate: f64) -> f64 {
    pairs(n) * rate * rate / COUNTERS / RANDOM_VALUES * YEAR
}

fn repeats_table() -> String {
    let mut t = String::from(
        "| processes running at once | expected repeated ids in a year, 1,000 ids/s each | 100,000 ids/s each | 2^24 ids/s each |\n\
         |---:|---:|---:|---:|\n",
    );
    for n in [10_000u64, 1_000_000] {
        t += &format!(
            "| {} | {} | {} | {} |\n",
            with_commas(n),
            show_count(expected_repeats(n, 1_000.0)),
            show_count(expected_repeats(n, 100_000.0)),
            show_count(expected_repeats(n, COUNTERS)),
        );
    }
    t
}

/// A count: whole numbers with commas up to 10^7, else two significant digits.
fn show_count(x: f64) -> String {
    if x < 1.0 {
        show(x)
    } else if x < 1e7 {
        with_commas(x.round() as u64)
    } else {
        let s = format!("{x:.1e}");
        match s.split_once('e') {
            Some((mantissa, exp)) => format!("{mantissa} × 10^{exp}"),
            None => s,
        }
    }
}

#[test]
fn repeats_figures_match_the_page() {
    // The figures: 10^4 processes at 1,000 ids/s, about 85 a year; 10^6, about 8.5e5.
    assert_eq!(expected_repeats(10_000, 1_000.0).round(), 85.0);
    assert!((expected_repeats(1_000_000, 1_000.0) / 8.547e5 - 1.0).abs() < 1e-3);
    // Steady load uses one value up to 2^24 ids/s, then one more per 2^24 each second.
    assert_eq!(values_in_a_day(COUNTERS), 1.0);
    assert_eq!(values_in_a_day(COUNTERS + 1.0), 86_401.0);
    assert_eq!(values_in_a_day(1e8), 432_001.0);
    assert_eq!(values_used(1e8, 10.0), 51.0);
    // Two ranges of `r` consecutive counters at independent offsets share r^2 / 2^24 on
    // average: exactly, by counting, on a small counter space.
    let (space, r) = (64u32, 5u32);
    let shared: u32 = (0..space)
        .map(|d| (0..r).filter(|i| ((d + space - i) % space) < r).count() as u32)
        .sum();
    assert_eq!(shared, r * r);
    let page = include_str!("../../docs/uniqueness.md");
    let start = "<!-- repeats: generated by tests/collision_odds.rs -->\n";
    let computed = repeats_table();
    println!("{computed}");
    let Some(from) = page.find(start) else {
        panic!("docs/uniqueness.md lacks the repeats markers; the table is:\n{computed}");
    };
    let body = &page[from + start.len()..];
    let to = body
        .find("<!-- /repeats -->")
        .expect("the closing repeats marker");
    assert_eq!(
        &body[..to],
        computed,
        "docs/uniqueness.md's repeats table is stale"
    );
}

/// Blocks `(first counter, length)` by second and random value.
type Blocks = std::collections::HashMap<(u32, [u8; 5]), Vec<(u32, u32)>>;

/// Repeated ids, and the random values of each id space in order.
type Meeting = (u64, Vec<[u8; 5]>, Vec<[u8; 5]>);

/// Repeated ids between two `Rotate` id spaces under equal load: each reserves whole seconds
/// (2^24 ids, so every reservation in a second after the first moves on to a new value) from
/// the same clock, `per_second` times a second for `seconds` seconds. Returns the repeated ids
/// and both sequences of random values.
fn meeting(
    a: &oid_std::IdSpace,
    b: &oid_std::IdSpace,
    seconds: u32,
    per_second: u32,
) -> Result<Meeting, oid_std::GenerateError> {
    let mut blocks = Blocks::new();
    let (mut va, mut vb) = (Vec::new(), Vec::new());
    let mut repeated = 0u64;
    for second in 1_700_000_000..1_700_000_000 + seconds {
        for _ in 0..per_second {
            for (space, values) in [(a, &mut va), (b, &mut vb)] {
                let block = space.reserve(Some(second), oid_std::IdSpace::CAPACITY)?;
                values.push(block.random());
                let key = (block.timestamp(), block.random());
                let range = (block.first() & 0xff_ffff, block.len());
                for &other in blocks.get(&key).into_iter().flatten() {
                    repeated += shared_counters(range, other);
                }
                blocks.entry(key).or_default().push(range);
            }
        }
    }
    Ok((repeated, va, vb))
}

/// Counters two blocks `(first, len)` share, modulo 2^24.
fn shared_counters(a: (u32, u32), b: (u32, u32)) -> u64 {
    let m = 1u64 << 24;
    let (a0, b0) = (u64::from(a.0), u64::from(b.0));
    // Unwrapped on a line of three laps, `a` in the middle one.
    (0..3)
        .map(|lap| {
            let lo = (a0 + m).max(b0 + lap * m);
            let hi = (a0 + m + u64::from(a.1)).min(b0 + lap * m + u64::from(b.1));
            hi.saturating_sub(lo)
        })
        .sum()
}

#[test]
fn two_rotate_spaces_that_meet_repeat_only_the_second_they_meet_in() {
    use oid_std::{CapacityPolicy, IdSpace};
    let space = |random, counter| IdSpace::new(random, counter).with_policy(CapacityPolicy::Rotate);
    let v = [0x3f, 0x2a, 0x91, 0xc8, 0xd4];
    // On the same random value (their counters differ, as two processes' do): the first
    // second's first value is shared, 2^24 ids, then each goes its own way.
    let (repeated, va, vb) = meeting(&space(v, 7), &space(v, 0x80_0000), 3, 3).unwrap();
    assert_eq!(repeated, 1 << 24, "{va:?} {vb:?}");
    assert!(
        va[1..].iter().all(|x| !vb[1..].contains(x)),
        "{va:?} {vb:?}"
    );
    // One step apart: b starts on a's next value, which a reaches with its second block of
    // the first second; that one block repeats, nothing after it.
    let probe = space(v, 7);
    probe.reserve(Some(1), IdSpace::CAPACITY).unwrap();
    let next = probe.reserve(Some(1), 1).unwrap().random();
    let (repeated, va, vb) = meeting(&space(v, 7), &space(next, 0x80_0000), 3, 3).unwrap();
    assert_eq!((va[1], vb[0]), (next, next));
    assert_eq!(repeated, 1 << 24, "{va:?} {vb:?}");
    // Ids in the overlap count once per pair of blocks: a block against itself is no repeat.
    assert_eq!(shared_counters((5, 10), (5, 10)), 10);
    assert_eq!(shared_counters((0xff_fffe, 4), (0, 1)), 1);
    assert_eq!(shared_counters((10, 5), (20, 5)), 0);
    // Apart (independent draws): nothing repeats.
    let (repeated, ..) = meeting(&space(v, 7), &space([1, 2, 3, 4, 5], 7), 3, 3).unwrap();
    assert_eq!(repeated, 0);
}

#[test]
fn rotation_figures_match_the_page() {
    // 10^8 ids per second: 5.96 seconds' worth of 2^24 each second, 6 values a second of which
    // 5 are new: 432,001 in a day.
    assert_eq!(values_in_a_day(1e8), 432_001.0);
    assert_eq!(values_in_a_day(1.0), 1.0);
    // Intervals on a cycle, by counting: starts of two runs of 3 on a cycle of 16 that meet.
    let (space, v) = (16u32, 3u32);
    let meeting = (0..space)
        .filter(|&d| (0..v).any(|i| (0..v).any(|j| (d + j) % space == i)))
        .count();
    assert_eq!(meeting as u32, 2 * v - 1);
    let page = include_str!("../../docs/uniqueness.md");
    let start = "<!-- rotation: generated by tests/collision_odds.rs -->\n";
    let computed = rotation_table();
    println!("{computed}");
    let Some(from) = page.find(start) else {
        panic!("docs/uniqueness.md lacks the rotation markers; the table is:\n{computed}");
    };
    let body = &page[from + start.len()..];
    let to = body
        .find("<!-- /rotation -->")
        .expect("the closing rotation marker");
    assert_eq!(
        &body[..to],
        computed,
        "docs/uniqueness.md's rotation table is stale"
    );
}

#[test]
fn the_formulas_are_right_for_small_cases() {
    // Two processes: exactly 2^-40. Three: 3/N - 2/N^2.
    assert!((share_exact(2) * RANDOM_VALUES - 1.0).abs() < 1e-9);
    let n = RANDOM_VALUES;
    assert!((share_exact(3) / (3.0 / n - 2.0 / (n * n)) - 1.0).abs() < 1e-9);
    // At full speed the pair formula is the birthday bound (to 1e-3 over the table).
    for k in PROCESSES {
        let (a, b) = (share_exact(k), any_of(pairs(k), 1.0));
        assert!((a - b).abs() <= 1e-3 * a, "{k}: {a} vs {b}");
    }
    // One id per second each: ranges of one value overlap only when equal, 1 in 2^24.
    assert_eq!(overlap(1.0), 1.0 / COUNTERS);
    assert_eq!(overlap(COUNTERS), 1.0);
    // Overlap by counting, for a small counter space: distances d with |d| < rate (mod 2^24)
    // are the starts whose ranges of `rate` values meet.
    let (space, rate) = (64u32, 5u32);
    let meeting = (0..space)
        .filter(|&d| (0..rate).any(|i| (0..rate).any(|j| (d + j) % space == i)))
        .count();
    assert_eq!(meeting as u32, 2 * rate - 1);
    // A year of daily restarts: 731 lifetimes pairs per pair of slots.
    assert_eq!(pairs_in_a_year(2, 1.0), 731.0);
}

#[test]
fn readme_tables_match_the_computed_numbers() {
    let readme = include_str!("../../docs/uniqueness.md");
    let start = "<!-- across-machines: generated by tests/collision_odds.rs -->\n";
    let end = "<!-- /across-machines -->";
    let computed = tables();
    println!("{computed}");
    let Some(from) = readme.find(start) else {
        panic!("docs/uniqueness.md lacks the across-machines markers; the tables are:\n{computed}");
    };
    let body = &readme[from + start.len()..];
    let Some(to) = body.find(end) else {
        panic!("docs/uniqueness.md lacks the closing marker");
    };
    assert_eq!(
        &body[..to],
        computed,
        "docs/uniqueness.md's tables are stale; the computed ones are above"
    );
}
