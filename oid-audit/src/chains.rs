//! Telling generators apart within one random value.
//!
//! A generator's counter rises by one per id and wraps from `0xffffff` to 0; its seconds do not
//! go back. Walking a value's distinct ids in time order (second by second, each second's ids as
//! intervals of consecutive counters), each interval is given to the generator ("chain") whose
//! last counter is nearest behind it, if the counters skipped on the way (ids the generator made
//! that are not in the input) are plausible: within one second at most [`Walk::jump`] of them
//! past the first interval, and across `e` seconds at most `(e + 1) * rate`. An interval no chain
//! can take starts a new chain, and so does one that would take a chain back into counters it
//! already passed, far (more than `rate`) from its last one: a whole turn of the counter unseen. Two chains on one value are two generators (a shared random
//! value), unless one ends just where the other starts with an earlier second: that is one
//! generator whose clock went back.
//!
//! Threads that read the clock before taking a counter make ids whose second is one lower than
//! an id with a lower counter, near a second's boundary; an interval a little behind a chain's
//! last counter, in a gap of its last two seconds, is such an id, and is kept in the chain. If
//! more than [`RACE_IDS`] ids of earlier seconds lie above it, it is a clock step instead.

use std::collections::VecDeque;

use crate::sources::SrcSet;

/// The counters of one random value.
pub(crate) const COUNTERS: u32 = 1 << 24;

/// The largest gap between a chain's intervals in one second, at least.
pub(crate) const JUMP: u32 = 1 << 12;

/// Half a turn of the counter: the most a chain skips during the walk.
const HALF: u32 = COUNTERS / 2;

/// The most ids of earlier seconds that may lie above a late interval before it is a clock step.
pub(crate) const RACE_IDS: u64 = 256;

/// The most chains kept per value; past it every interval goes to the nearest chain.
const MAX_CHAINS: usize = 64;

/// The most intervals of a chain's last two seconds kept for late intervals.
const MAX_WINDOW: usize = 4096;

/// Distinct ids of one second: counters `c..e`, from `srcs`.
#[derive(Clone, Debug)]
pub(crate) struct Iv {
    pub(crate) c: u32,
    pub(crate) e: u32,
    pub(crate) srcs: SrcSet,
}

#[derive(Clone, Copy, Debug)]
struct WinIv {
    c: u32,
    e: u32,
    t: u32,
}

/// One generator's run of ids, as far as the walk can tell.
#[derive(Clone, Debug)]
pub(crate) struct Chain {
    pub(crate) first_t: u32,
    pub(crate) first_c: u32,
    /// The last second of any id in the chain.
    pub(crate) last_t: u32,
    /// The last counter, and its second.
    pub(crate) cursor: u32,
    pub(crate) cursor_t: u32,
    pub(crate) ids: u64,
    pub(crate) srcs: SrcSet,
    /// Counters passed since the first, capped at [`COUNTERS`].
    span: u64,
    avg_gap: f64,
    window: VecDeque<WinIv>,
}

/// A clock step back found inside a chain, or between two chains.
#[derive(Clone, Debug)]
pub(crate) struct Step {
    /// The second and counter of the last id before the step.
    pub(crate) before_t: u32,
    pub(crate) before_c: u32,
    /// The second and counter of the first id after it.
    pub(crate) after_t: u32,
    pub(crate) after_c: u32,
    /// Ids made after the step with the earlier seconds (as far as seen).
    pub(crate) ids: u64,
    pub(crate) srcs: SrcSet,
}

/// Generators that used one value, once chains joined by clock steps are put together.
#[derive(Clone, Debug)]
pub(crate) struct Group {
    pub(crate) first_t: u32,
    pub(crate) last_t: u32,
    pub(crate) first_c: u32,
    pub(crate) last_c: u32,
    pub(crate) ids: u64,
    pub(crate) srcs: SrcSet,
    span: u64,
}

/// What the walk of one value found.
#[derive(Clone, Debug, Default)]
pub(crate) struct Walked {
    pub(crate) groups: Vec<Group>,
    pub(crate) steps: Vec<Step>,
    /// More generators than [`MAX_CHAINS`]: the later ones were folded into the nearest.
    pub(crate) saturated: bool,
}

/// The walk of one random value's ids, second by second.
#[derive(Debug)]
pub(crate) struct Walk {
    chains: Vec<Chain>,
    steps: Vec<Step>,
    saturated: bool,
    rate: u32,
    assigned: Vec<bool>,
    ptrs: Vec<usize>,
}

const fn fwd(from: u32, to: u32) -> u32 {
    to.wrapping_sub(from) & (COUNTERS - 1)
}

impl Walk {
    /// A walk that allows `rate` unseen ids per second between two ids of one generator.
    pub(crate) const fn new(rate: u32) -> Walk {
        Walk {
            chains: Vec::new(),
            steps: Vec::new(),
            saturated: false,
            rate,
            assigned: Vec::new(),
            ptrs: Vec::new(),
        }
    }

    /// The most counters a chain may skip to its next interval after `elapsed` seconds.
    fn limit(&self, elapsed: u32) -> u32 {
        limit(self.rate, elapsed)
    }

    /// The most counters a chain may skip between two intervals of one second.
    fn jump(chain: &Chain) -> u32 {
        let g = chain.avg_gap * 16.0;
        if g > f64::from(JUMP) {
            (g.min(f64::from(COUNTERS - 1))) as u32
        } else {
            JUMP
        }
    }

    /// Gives each interval of second `t` (sorted by counter) to a chain.
    pub(crate) fn second(&mut self, t: u32, ivs: &[Iv]) {
        let n = ivs.len();
        if n == 0 {
            return;
        }
        for ch in &mut self.chains {
            while ch.window.front().is_some_and(|w| w.t.saturating_add(1) < t) {
                ch.window.pop_front();
            }
        }
        self.assigned.clear();
        self.assigned.resize(n, false);
        self.ptrs.clear();
        for ch in &self.chains {
            let p = ivs.partition_point(|iv| iv.c <= ch.cursor);
            self.ptrs.push(if p == n { 0 } else { p });
        }
        let mut left = n;
        while left > 0 {
            // The chain and interval with the fewest counters skipped.
            let mut best: Option<(u32, usize, usize)> = None;
            for k in 0..self.chains.len() {
                let Some(i) = self.next_free(k, n) else {
                    continue;
                };
                let ch = &self.chains[k];
                let d = fwd(ch.cursor, ivs[i].c).wrapping_sub(1) & (COUNTERS - 1);
                let lim = if ch.cursor_t == t {
                    Self::jump(ch)
                } else {
                    self.limit(t - ch.cursor_t.min(t))
                };
                // Back into counters this chain already passed, far from its last one: that
                // takes a whole turn of the counter unseen; a new start (or a clock step) is
                // likelier.
                // More than half a turn ahead is decided once the chains are whole (`finish`).
                if d <= lim.min(HALF)
                    && goes_on(ch.span, d, self.rate)
                    && best.is_none_or(|(bd, _, _)| d < bd)
                {
                    best = Some((d, k, i));
                }
            }
            if let Some((d, k, i)) = best {
                self.attach(k, t, &ivs[i], d);
                self.assigned[i] = true;
                self.ptrs[k] = (i + 1) % n;
                left -= 1;
                continue;
            }
            // Intervals a little behind a chain, in a gap of its last two seconds.
            let mut late = false;
            for (i, iv) in ivs.iter().enumerate() {
                if self.assigned[i] {
                    continue;
                }
                if let Some(k) = (0..self.chains.len()).find(|&k| fits_late(&self.chains[k], iv)) {
                    self.late(k, t, iv);
                    self.assigned[i] = true;
                    left -= 1;
                    late = true;
                }
            }
            if late {
                continue;
            }
            if self.chains.len() >= MAX_CHAINS {
                self.saturated = true;
                for (i, iv) in ivs.iter().enumerate() {
                    if self.assigned[i] {
                        continue;
                    }
                    let k = (0..self.chains.len())
                        .min_by_key(|&k| fwd(self.chains[k].cursor, iv.c))
                        .unwrap_or(0);
                    self.attach(k, t, iv, COUNTERS - 1);
                    self.assigned[i] = true;
                }
                break;
            }
            // A new chain, from the free interval after the largest free gap (so that a
            // generator whose first second wraps to 0 starts at its real start).
            let i = self.seed_index(ivs);
            let iv = &ivs[i];
            let mut window = VecDeque::new();
            window.push_back(WinIv {
                c: iv.c,
                e: iv.e,
                t,
            });
            self.chains.push(Chain {
                first_t: t,
                first_c: iv.c,
                last_t: t,
                cursor: iv.e - 1,
                cursor_t: t,
                ids: u64::from(iv.e - iv.c),
                srcs: iv.srcs.clone(),
                span: u64::from(iv.e - iv.c),
                avg_gap: 0.0,
                window,
            });
            self.ptrs.push((i + 1) % n);
            self.assigned[i] = true;
            left -= 1;
        }
    }

    /// The next interval not yet given to a chain, from chain `k`'s pointer on.
    fn next_free(&mut self, k: usize, n: usize) -> Option<usize> {
        let mut i = self.ptrs[k];
        for _ in 0..n {
            if !self.assigned[i] {
                self.ptrs[k] = i;
                return Some(i);
            }
            i = (i + 1) % n;
        }
        None
    }

    fn seed_index(&self, ivs: &[Iv]) -> usize {
        let free: Vec<usize> = (0..ivs.len()).filter(|&i| !self.assigned[i]).collect();
        let mut best = (0, free.first().copied().unwrap_or(0));
        for (j, &i) in free.iter().enumerate() {
            let prev = free[(j + free.len() - 1) % free.len()];
            let gap = if free.len() == 1 {
                COUNTERS
            } else {
                fwd(ivs[prev].e, ivs[i].c)
            };
            if gap > best.0 {
                best = (gap, i);
            }
        }
        best.1
    }

    fn attach(&mut self, k: usize, t: u32, iv: &Iv, d: u32) {
        let jump = Self::jump(&self.chains[k]);
        let ch = &mut self.chains[k];
        if ch.cursor_t == t || d <= jump {
            ch.avg_gap = ch.avg_gap * 0.9 + f64::from(d) * 0.1;
        }
        ch.span = (ch.span + u64::from(d) + u64::from(iv.e - iv.c)).min(u64::from(COUNTERS));
        ch.cursor = iv.e - 1;
        ch.cursor_t = t;
        ch.last_t = ch.last_t.max(t);
        ch.ids += u64::from(iv.e - iv.c);
        ch.srcs.extend(&iv.srcs);
        push_window(ch, iv, t);
    }

    fn late(&mut self, k: usize, t: u32, iv: &Iv) {
        let ch = &mut self.chains[k];
        // Ids of earlier seconds above the interval.
        let top = back(ch.cursor, iv.e - 1);
        let mut above = 0_u64;
        let mut first_above: Option<WinIv> = None;
        for w in &ch.window {
            if w.t < t && back(ch.cursor, w.c) < top {
                above += u64::from(w.e - w.c);
                if first_above.is_none_or(|f| back(ch.cursor, w.c) > back(ch.cursor, f.c)) {
                    first_above = Some(*w);
                }
            }
        }
        if above > RACE_IDS {
            if let Some(w) = first_above {
                self.steps.push(Step {
                    before_t: t,
                    before_c: iv.e - 1,
                    after_t: w.t,
                    after_c: w.c,
                    ids: above,
                    srcs: {
                        let mut srcs = ch.srcs.clone();
                        srcs.extend(&iv.srcs);
                        srcs
                    },
                });
            }
        }
        ch.last_t = ch.last_t.max(t);
        ch.ids += u64::from(iv.e - iv.c);
        ch.srcs.extend(&iv.srcs);
        push_window(ch, iv, t);
    }

    /// Joins chains that one clock step split, and says what is left.
    pub(crate) fn finish(self) -> Walked {
        let chains = self.chains;
        let mut steps = self.steps;
        let m = chains.len();
        // next[y] = x: chain y ends just before chain x starts, and x starts at an earlier second.
        let mut next: Vec<Option<usize>> = vec![None; m];
        let mut has_prev = vec![false; m];
        for y in 0..m {
            let mut best: Option<(u32, usize)> = None;
            for x in 0..m {
                if x == y || has_prev[x] || chains[x].first_t >= chains[y].cursor_t {
                    continue;
                }
                let d = fwd(chains[y].cursor, chains[x].first_c).wrapping_sub(1) & (COUNTERS - 1);
                if d <= JUMP && best.is_none_or(|(bd, _)| d < bd) {
                    best = Some((d, x));
                }
            }
            if let Some((_, x)) = best {
                // No cycles: x must not lead back to y.
                let mut at = Some(x);
                let mut cycle = false;
                while let Some(a) = at {
                    if a == y {
                        cycle = true;
                        break;
                    }
                    at = next[a];
                }
                if !cycle {
                    next[y] = Some(x);
                    has_prev[x] = true;
                    steps.push(Step {
                        before_t: chains[y].cursor_t,
                        before_c: chains[y].cursor,
                        after_t: chains[x].first_t,
                        after_c: chains[x].first_c,
                        ids: chains[x].ids,
                        srcs: {
                            let mut srcs = chains[y].srcs.clone();
                            srcs.extend(&chains[x].srcs);
                            srcs
                        },
                    });
                }
            }
        }
        let mut groups = Vec::new();
        for (start, _) in chains.iter().enumerate().filter(|(i, _)| !has_prev[*i]) {
            let mut g = Group {
                first_t: chains[start].first_t,
                last_t: chains[start].last_t,
                first_c: chains[start].first_c,
                last_c: chains[start].cursor,
                ids: 0,
                srcs: SrcSet::default(),
                span: 0,
            };
            let mut at = Some(start);
            while let Some(a) = at {
                let ch = &chains[a];
                g.first_t = g.first_t.min(ch.first_t);
                g.last_t = g.last_t.max(ch.last_t);
                g.last_c = ch.cursor;
                g.ids += ch.ids;
                g.span = (g.span + ch.span).min(u64::from(COUNTERS));
                g.srcs.extend(&ch.srcs);
                at = next[a];
            }
            groups.push(g);
        }
        // A group that starts after another ended, where that one could have gone on to it: one
        // generator whose counter went far ahead (or round) between two ids of the input.
        groups.sort_by_key(|g| (g.first_t, g.first_c));
        let mut joined: Vec<Group> = Vec::with_capacity(groups.len());
        for b in groups {
            let rate = self.rate;
            let best = joined
                .iter()
                .enumerate()
                .filter(|(_, a)| a.last_t <= b.first_t)
                .map(|(i, a)| (fwd(a.last_c, b.first_c).wrapping_sub(1) & (COUNTERS - 1), i))
                .filter(|&(d, i)| {
                    let a = &joined[i];
                    d <= limit(rate, b.first_t - a.last_t) && goes_on(a.span, d, rate)
                })
                .min();
            match best {
                Some((d, i)) => {
                    let a = &mut joined[i];
                    a.last_t = b.last_t;
                    a.last_c = b.last_c;
                    a.ids += b.ids;
                    a.span = (a.span + u64::from(d) + b.span).min(u64::from(COUNTERS));
                    a.srcs.extend(&b.srcs);
                }
                None => joined.push(b),
            }
        }
        let groups = joined;
        Walked {
            groups,
            steps,
            saturated: self.saturated,
        }
    }
}

/// The most counters a generator making `rate` unseen ids per second may skip in `elapsed`
/// seconds.
fn limit(rate: u32, elapsed: u32) -> u32 {
    let l = (u64::from(elapsed) + 1) * u64::from(rate);
    l.min(u64::from(COUNTERS - 1)) as u32
}

/// Whether a chain that passed `span` counters may go on `d` counters further: not back into
/// counters it passed, far (more than `rate`) from its last one, which takes a whole turn of
/// the counter unseen.
fn goes_on(span: u64, d: u32, rate: u32) -> bool {
    d <= rate || span + u64::from(d) + 1 < u64::from(COUNTERS)
}

/// How far `x` is behind `cursor`, counting back.
const fn back(cursor: u32, x: u32) -> u32 {
    cursor.wrapping_sub(x) & (COUNTERS - 1)
}

fn push_window(ch: &mut Chain, iv: &Iv, t: u32) {
    if ch.window.len() >= MAX_WINDOW {
        ch.window.pop_front();
    }
    ch.window.push_back(WinIv {
        c: iv.c,
        e: iv.e,
        t,
    });
}

/// Whether `iv` lies behind chain `ch`'s last counter, within its last two seconds' span, in a
/// gap of them.
fn fits_late(ch: &Chain, iv: &Iv) -> bool {
    if ch.window.is_empty() {
        return false;
    }
    let lo = back(ch.cursor, iv.e - 1);
    let hi = back(ch.cursor, iv.c);
    if lo == 0 || lo > hi {
        return false;
    }
    let span = ch
        .window
        .iter()
        .map(|w| back(ch.cursor, w.c))
        .max()
        .unwrap_or(0);
    if hi > span {
        return false;
    }
    ch.window.iter().all(|w| {
        let wlo = back(ch.cursor, w.e - 1);
        let whi = back(ch.cursor, w.c);
        whi < lo || wlo > hi
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn iv(c: u32, e: u32) -> Iv {
        Iv {
            c,
            e,
            srcs: SrcSet::one(0),
        }
    }

    fn walk(seconds: &[(u32, Vec<Iv>)]) -> Walked {
        let mut w = Walk::new(1 << 20);
        for (t, ivs) in seconds {
            w.second(*t, ivs);
        }
        w.finish()
    }

    #[test]
    fn one_generator_across_the_wrap_is_one_group() {
        let w = walk(&[
            (10, vec![iv(0, 5), iv(0xff_fff0, COUNTERS)]),
            (11, vec![iv(5, 100)]),
        ]);
        assert_eq!(w.groups.len(), 1, "{w:?}");
        assert!(w.steps.is_empty());
        assert_eq!(w.groups[0].first_c, 0xff_fff0);
    }

    #[test]
    fn two_generators_interleaved_are_two_groups() {
        let w = walk(&[
            (10, vec![iv(100, 200), iv(9_000_000, 9_000_100)]),
            (11, vec![iv(200, 300), iv(9_000_100, 9_000_200)]),
        ]);
        assert_eq!(w.groups.len(), 2, "{w:?}");
        assert!(w.steps.is_empty());
    }

    #[test]
    fn a_thread_race_at_a_second_boundary_is_no_step() {
        // Counter 100 stamped 11 and 101 stamped 10: a thread read the clock before the other.
        let w = walk(&[
            (10, vec![iv(0, 100), iv(101, 102)]),
            (11, vec![iv(100, 101), iv(102, 300)]),
        ]);
        assert_eq!(w.groups.len(), 1, "{w:?}");
        assert!(w.steps.is_empty(), "{w:?}");
    }

    #[test]
    fn a_clock_one_second_back_is_a_step() {
        // 10: 0..3000, then the clock reads 9 for 7000 ids, then 10 again.
        let w = walk(&[
            (9, vec![iv(0, 10), iv(3000, 10_000)]),
            (10, vec![iv(10, 3000), iv(10_000, 12_000)]),
        ]);
        assert_eq!(w.groups.len(), 1, "{w:?}");
        assert_eq!(w.steps.len(), 1, "{w:?}");
    }

    #[test]
    fn a_clock_an_hour_back_is_a_step() {
        let t = 1_000_000;
        let mut seconds = vec![(t - 3600, vec![iv(200, 210)])];
        for k in 1..3600 {
            seconds.push((t - 3600 + k, vec![iv(200 + 10 * k, 210 + 10 * k)]));
        }
        seconds.push((t, vec![iv(100, 200), iv(36_200, 36_210)]));
        let w = walk(&seconds);
        assert_eq!(w.groups.len(), 1, "{w:?}");
        assert_eq!(w.steps.len(), 1);
        assert_eq!(w.steps[0].before_t - w.steps[0].after_t, 3600);
    }
}
