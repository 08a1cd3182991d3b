//! Runs of ids, kept instead of the ids: the open run of each random value, a bounded buffer of
//! closed runs, sorted and coalesced when full, spilled to temporary files when coalescing does
//! not halve it, and merged back in (random value, second, counter) order at the end.

use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::collections::hash_map::Entry;
use std::fs::File;
use std::io::{self, BufReader, BufWriter, Read, Seek, Write};
use std::path::PathBuf;

use rustc_hash::FxHashMap;

use crate::Error;

/// Ids of one random value, one second and one source with consecutive counters `c..c + n`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) struct Seg {
    /// The 5-byte random value, big-endian.
    pub(crate) r: u64,
    /// The second.
    pub(crate) t: u32,
    /// The first counter.
    pub(crate) c: u32,
    /// How many ids (at least 1; `c + n <= 2^24`).
    pub(crate) n: u32,
    /// The source's index.
    pub(crate) src: u32,
}

/// The bytes of one spilled [`Seg`].
const SEG_BYTES: usize = 24;

/// The memory one buffered run takes, for the budget.
pub(crate) const SEG_MEMORY: usize = core::mem::size_of::<Seg>();

/// The memory one open run takes in the hash map, about (key, value and control byte, at the
/// map's usual load).
pub(crate) const OPEN_MEMORY: usize = 40;

impl Seg {
    /// One past the last counter.
    pub(crate) const fn end(&self) -> u32 {
        self.c + self.n
    }

    fn to_bytes(self) -> [u8; SEG_BYTES] {
        let mut b = [0; SEG_BYTES];
        b[..8].copy_from_slice(&self.r.to_le_bytes());
        b[8..12].copy_from_slice(&self.t.to_le_bytes());
        b[12..16].copy_from_slice(&self.c.to_le_bytes());
        b[16..20].copy_from_slice(&self.n.to_le_bytes());
        b[20..].copy_from_slice(&self.src.to_le_bytes());
        b
    }

    fn from_bytes(b: &[u8; SEG_BYTES]) -> Seg {
        let word = |at: usize| u32::from_le_bytes([b[at], b[at + 1], b[at + 2], b[at + 3]]);
        let mut r = [0; 8];
        r.copy_from_slice(&b[..8]);
        Seg {
            r: u64::from_le_bytes(r),
            t: word(8),
            c: word(12),
            n: word(16),
            src: word(20),
        }
    }
}

#[derive(Clone, Copy, Debug)]
struct Open {
    t: u32,
    c: u32,
    n: u32,
    src: u32,
}

/// Where runs are kept while ids are read.
#[derive(Debug)]
pub(crate) struct Store {
    open: FxHashMap<u64, Open>,
    open_cap: usize,
    buf: Vec<Seg>,
    buf_cap: usize,
    spills: Vec<File>,
    spill_dir: Option<PathBuf>,
    /// Ids per second, all values together.
    pub(crate) per_second: FxHashMap<u32, u64>,
    /// The runs written to spill files.
    pub(crate) spilled: u64,
}

impl Store {
    /// A store that keeps about `budget` bytes of runs in memory.
    pub(crate) fn new(budget: usize, spill_dir: Option<PathBuf>) -> Store {
        let open_cap = (budget / 8 / OPEN_MEMORY).clamp(64, 1 << 18);
        let buf_cap = ((budget - budget / 8) / SEG_MEMORY).max(1024);
        Store {
            open: FxHashMap::default(),
            open_cap,
            buf: Vec::new(),
            buf_cap,
            spills: Vec::new(),
            spill_dir,
            per_second: FxHashMap::default(),
            spilled: 0,
        }
    }

    /// Adds the id (`r`, `t`, `c`) of source `src`.
    #[inline]
    pub(crate) fn push(&mut self, r: u64, t: u32, c: u32, src: u32) -> Result<(), Error> {
        self.push_run(r, t, c, 1, src)
    }

    /// Adds the `n` ids (`r`, `t`, `c..c + n`) of source `src` (`n` at least 1, `c + n` at most
    /// 2^24): the same runs as [`push`](Store::push) of each in turn.
    #[inline]
    pub(crate) fn push_run(
        &mut self,
        r: u64,
        t: u32,
        mut c: u32,
        mut n: u32,
        src: u32,
    ) -> Result<(), Error> {
        loop {
            match self.open.entry(r) {
                Entry::Occupied(mut e) => {
                    let o = e.get_mut();
                    if o.t == t && o.src == src && o.c + o.n == c {
                        o.n += n;
                        return Ok(());
                    }
                    let old = *o;
                    *o = Open { t, c, n, src };
                    return self.close(r, old);
                }
                Entry::Vacant(e) => {
                    e.insert(Open { t, c, n, src });
                    if self.open.len() < self.open_cap {
                        return Ok(());
                    }
                    if n == 1 {
                        return self.flush_open();
                    }
                    // One at a time, the first id's run is flushed with all the others, and the
                    // next id opens a new run: the same here.
                    if let Some(o) = self.open.get_mut(&r) {
                        o.n = 1;
                    }
                    self.flush_open()?;
                    (c, n) = (c + 1, n - 1);
                }
            }
        }
    }

    fn close(&mut self, r: u64, o: Open) -> Result<(), Error> {
        *self.per_second.entry(o.t).or_insert(0) += u64::from(o.n);
        if self.buf.len() == self.buf.capacity() {
            let room = self.buf_cap.saturating_sub(self.buf.len());
            self.buf
                .reserve_exact(room.min(self.buf.len().max(1024)).max(1));
        }
        self.buf.push(Seg {
            r,
            t: o.t,
            c: o.c,
            n: o.n,
            src: o.src,
        });
        if self.buf.len() >= self.buf_cap {
            self.compact()?;
        }
        Ok(())
    }

    fn flush_open(&mut self) -> Result<(), Error> {
        let open = core::mem::take(&mut self.open);
        for (r, o) in open {
            self.close(r, o)?;
        }
        Ok(())
    }

    /// Sorts and coalesces the buffer; spills it when that did not halve it.
    fn compact(&mut self) -> Result<(), Error> {
        sort_and_coalesce(&mut self.buf);
        if self.buf.len() > self.buf_cap / 2 {
            self.spill()?;
        }
        Ok(())
    }

    fn spill(&mut self) -> Result<(), Error> {
        let file = match &self.spill_dir {
            Some(dir) => tempfile::tempfile_in(dir),
            None => tempfile::tempfile(),
        }
        .map_err(Error::Spill)?;
        let mut w = BufWriter::with_capacity(1 << 16, file);
        for s in &self.buf {
            w.write_all(&s.to_bytes()).map_err(Error::Spill)?;
        }
        let mut file = w.into_inner().map_err(|e| Error::Spill(e.into_error()))?;
        file.rewind().map_err(Error::Spill)?;
        self.spilled += self.buf.len() as u64;
        self.spills.push(file);
        self.buf.clear();
        Ok(())
    }

    /// All runs, in (random value, second, counter, length, source) order.
    pub(crate) fn finish(mut self) -> Result<(Merged, FxHashMap<u32, u64>, u64), Error> {
        self.flush_open()?;
        sort_and_coalesce(&mut self.buf);
        let mut inputs: Vec<Input> = Vec::with_capacity(self.spills.len() + 1);
        inputs.push(Input::Memory(core::mem::take(&mut self.buf).into_iter()));
        for file in self.spills {
            inputs.push(Input::File(BufReader::with_capacity(1 << 16, file)));
        }
        let mut heap = BinaryHeap::with_capacity(inputs.len());
        for (i, input) in inputs.iter_mut().enumerate() {
            if let Some(seg) = input.next()? {
                heap.push(Reverse((seg, i)));
            }
        }
        Ok((Merged { inputs, heap }, self.per_second, self.spilled))
    }
}

/// Sorts runs and joins each to the next when they continue each other (same value, second and
/// source, consecutive counters).
fn sort_and_coalesce(buf: &mut Vec<Seg>) {
    buf.sort_unstable();
    let mut out = 0;
    for i in 0..buf.len() {
        let s = buf[i];
        if out > 0 {
            let last = &mut buf[out - 1];
            if last.r == s.r && last.t == s.t && last.src == s.src && last.end() == s.c {
                last.n += s.n;
                continue;
            }
        }
        buf[out] = s;
        out += 1;
    }
    buf.truncate(out);
}

#[derive(Debug)]
enum Input {
    Memory(std::vec::IntoIter<Seg>),
    File(BufReader<File>),
}

impl Input {
    fn next(&mut self) -> Result<Option<Seg>, Error> {
        match self {
            Input::Memory(it) => Ok(it.next()),
            Input::File(r) => {
                let mut b = [0; SEG_BYTES];
                match r.read_exact(&mut b) {
                    Ok(()) => Ok(Some(Seg::from_bytes(&b))),
                    Err(e) if e.kind() == io::ErrorKind::UnexpectedEof => Ok(None),
                    Err(e) => Err(Error::Spill(e)),
                }
            }
        }
    }
}

/// The runs of memory and of every spill file, merged in order.
#[derive(Debug)]
pub(crate) struct Merged {
    inputs: Vec<Input>,
    heap: BinaryHeap<Reverse<(Seg, usize)>>,
}

impl Merged {
    pub(crate) fn next(&mut self) -> Result<Option<Seg>, Error> {
        let Some(Reverse((seg, i))) = self.heap.pop() else {
            return Ok(None);
        };
        if let Some(next) = self.inputs[i].next()? {
            self.heap.push(Reverse((next, i)));
        }
        Ok(Some(seg))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn drain(mut m: Merged) -> Vec<Seg> {
        let mut out = Vec::new();
        while let Some(s) = m.next().ok().flatten() {
            out.push(s);
        }
        out
    }

    #[test]
    fn consecutive_ids_make_one_run() {
        let mut s = Store::new(1 << 20, None);
        for c in 10..20 {
            s.push(7, 100, c, 0).ok();
        }
        let (m, per_second, _) = s.finish().ok().unwrap_or_else(|| unreachable!());
        assert_eq!(
            drain(m),
            [Seg {
                r: 7,
                t: 100,
                c: 10,
                n: 10,
                src: 0
            }]
        );
        assert_eq!(per_second.get(&100), Some(&10));
    }

    #[test]
    fn shuffled_ids_spilled_come_back_sorted_and_coalesced() {
        // A tiny budget: many spills.
        let mut s = Store::new(0, None);
        let mut ids: Vec<(u64, u32, u32)> = Vec::new();
        for r in 0..5_u64 {
            for c in 0..3000 {
                ids.push((r, 1000 + c / 1000, c));
            }
        }
        // A fixed shuffle.
        let mut x = 0x9e37_79b9_u64;
        for i in (1..ids.len()).rev() {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            ids.swap(i, (x % (i as u64 + 1)) as usize);
        }
        for (r, t, c) in &ids {
            s.push(*r, *t, *c, 0).ok();
        }
        assert!(s.spilled > 0 || !s.spills.is_empty() || s.buf.len() < ids.len());
        let (m, _, spilled) = s.finish().ok().unwrap_or_else(|| unreachable!());
        assert!(spilled > 0);
        let out = drain(m);
        assert!(out.windows(2).all(|w| w[0] <= w[1]));
        let total: u64 = out.iter().map(|s| u64::from(s.n)).sum();
        assert_eq!(total, ids.len() as u64);
    }

    #[test]
    fn spill_bytes_round_trip() {
        let s = Seg {
            r: 0xff_ffff_ffff,
            t: u32::MAX,
            c: 0xff_ffff,
            n: 1,
            src: 3,
        };
        assert_eq!(Seg::from_bytes(&s.to_bytes()), s);
    }
}
