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

/// Random values a process uses in a day at `rate` ids per second under `CapacityPolicy::Rotate`:
/// one per 2^24 ids (under `Wait` a process stays at one, capped at 2^24 ids per second).
fn values_in_a_day(rate: f64) -> f64 {
    (rate * 86_400.0 / COUNTERS).ceil().max(1.0)
}

/// Two processes each using `v` consecutive values of the one cycle through all 2^40 (from
/// random starting points) share one with probability `(2v - 1) / 2^40`.
fn rotation_table() -> String {
    let mut t = String::from(
        "| ids per second, for a day | random values used | two such processes share one | any two of 1,000 such processes |\n\
         |---:|---:|---:|---:|\n",
    );
    for (label, v) in [
        ("any, under `Wait`", 1.0),
        ("2^24, under `Rotate`", values_in_a_day(COUNTERS)),
        ("10^8, under `Rotate`", values_in_a_day(1e8)),
        ("10^9, under `Rotate`", values_in_a_day(1e9)),
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

#[test]
fn rotation_figures_match_the_page() {
    // 10^8 ids per second for a day: 8.64 × 10^12 ids, 514,984.46 seconds' worth of 2^24.
    assert_eq!(values_in_a_day(1e8), 514_985.0);
    assert_eq!(values_in_a_day(COUNTERS), 86_400.0);
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
